"""Reading a French-suited card by its corner index: the rank and suit printed in two corners.

The card classifier (``vision.recognizer``) reads the whole card at 96 x 64 pixels, where the
corner index is about ten pixels high: on real printed designs it reads pips and pictures, and a
2 of clubs drawn as an artwork is taken for a jack. This reader looks only at the two index
corners, cut from the card warped at face size (``FACE_H`` x ``FACE_W``): the top-left corner
upright and the bottom-right one turned half a turn, each ``INPUT_H`` x ``INPUT_W``. Its classes
are the 53 French-suited cards and ``none`` (no index in that corner: covered, out of the photo,
or a corner that is not one). A card is read by the surer of its two corners.

Its reading weighs the classifier's (``IndexReader.weigh``): each French card's probability
becomes the geometric mean of the classifier's and the index's, the cards' total kept, so that
a card is read with confidence only when the whole face and the index agree. The model is
trained on real photographs only (``training.train_index``; models/MODEL_CARD.md).
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from vision.labels import NONE_LABEL
from vision.onnx_session import cpu_session

DEFAULT_INDEX_MODEL = Path(__file__).resolve().parent.parent / "models" / "kibic_index.onnx"

# a card face's size, the warp the corners are cut from (vision.card_faces's FACE_H x FACE_W)
FACE_H, FACE_W = 210, 150
# the corner cut: the top REGION_H of the face's height, the left REGION_W of its width
REGION_H, REGION_W = 0.30, 0.24
INPUT_H, INPUT_W = 56, 32
# added to the index's probabilities before the mean: an index that saw nothing (a covered
# corner) leaves the classifier's ranking as it is instead of zeroing it
FLOOR = 1e-3


def corner_regions(face: np.ndarray) -> list[np.ndarray]:
    """The two index corners of an upright card face (any size), each ``INPUT_H`` x
    ``INPUT_W``: the top-left one, and the bottom-right one turned upright."""
    h, w = face.shape[:2]
    rh, rw = int(round(REGION_H * h)), int(round(REGION_W * w))
    turned = cv2.rotate(face, cv2.ROTATE_180)
    return [
        cv2.resize(f[:rh, :rw], (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA)
        for f in (face, turned)
    ]


def preprocess(regions: list[np.ndarray]) -> np.ndarray:
    """``INPUT_H`` x ``INPUT_W`` BGR uint8 regions -> float32 NCHW batch scaled to [-1, 1] (as
    the card classifier's input is)."""
    batch = np.stack(regions).astype(np.float32).transpose(0, 3, 1, 2)
    return np.ascontiguousarray(batch / 127.5 - 1.0, dtype=np.float32)


def face_of(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The card inside ``corners`` warped upright at face size (edges repeated outside)."""
    from vision.finder import warp_card

    return warp_card(image, np.asarray(corners, np.float32), (FACE_H, FACE_W), repeat_edge=True)


class IndexReader:
    """The corner-index model (ONNX, one onnxruntime session on ``threads`` threads)."""

    def __init__(self, model_path: str | Path = DEFAULT_INDEX_MODEL, *, threads: int = 1) -> None:
        path = Path(model_path)
        self.session = cpu_session(path, threads)
        meta = json.loads(path.with_suffix(".labels.json").read_text())
        self.labels: tuple[str, ...] = tuple(meta["labels"])
        if self.labels[-1] != NONE_LABEL:
            raise ValueError(f"{path}: the last label must be {NONE_LABEL!r}")
        self.path = path
        self._input = self.session.get_inputs()[0].name

    @property
    def cards(self) -> tuple[str, ...]:
        """The card labels (``french:TD``), in the model's order."""
        return self.labels[:-1]

    def read(self, faces: list[np.ndarray]) -> np.ndarray:
        """(len(faces), len(cards)): each face's card probabilities by its surer corner."""
        if not faces:
            return np.zeros((0, len(self.cards)), np.float32)
        regions = [r for f in faces for r in corner_regions(f)]
        (logits,) = self.session.run(None, {self._input: preprocess(regions)})
        logits = np.asarray(logits, np.float64)
        logits -= logits.max(axis=1, keepdims=True)
        probs = np.exp(logits)
        probs /= probs.sum(axis=1, keepdims=True)
        cards = probs[:, :-1].reshape(len(faces), 2, len(self.cards))
        surer = cards.max(axis=2).argmax(axis=1)
        return cards[np.arange(len(faces)), surer].astype(np.float32)

    def weigh(
        self, probs: np.ndarray, labels: tuple[str, ...], faces: list[np.ndarray]
    ) -> np.ndarray:
        """The classifier's ``probs`` (N x len(labels)) weighed by this reader's reading of
        ``faces`` (``weigh``)."""
        return weigh(probs, labels, self.read(faces), self.cards)


def weigh(probs: np.ndarray, labels: tuple[str, ...], index: np.ndarray,
          cards: tuple[str, ...]) -> np.ndarray:  # fmt: skip
    """The classifier's ``probs`` (N x len(labels)) with each card the index reads (``index``,
    N x len(cards)) given the geometric mean of the two readings (the index's plus ``FLOOR``),
    scaled so that those cards keep their total; the other labels (``none``, other decks'
    cards) are left as they are.

    >>> out = weigh(np.array([[0.6, 0.3, 0.1]]), ("french:2C", "french:JC", "none"),
    ...             np.array([[0.999, 0.0]]), ("french:2C", "french:JC"))
    >>> [round(float(v), 3) for v in out[0]]
    [0.88, 0.02, 0.1]
    """
    where = {label: i for i, label in enumerate(cards)}
    cols = [(j, where[label]) for j, label in enumerate(labels) if label in where]
    if not cols or len(probs) == 0:
        return probs
    mine = np.array([j for j, _ in cols])
    theirs = np.array([i for _, i in cols])
    out = probs.astype(np.float64).copy()
    part = out[:, mine]
    mass = part.sum(axis=1, keepdims=True)
    mean = np.sqrt(part * (index[:, theirs] + FLOOR))
    total = mean.sum(axis=1, keepdims=True)
    out[:, mine] = np.where(total > 0, mean / np.maximum(total, 1e-12) * mass, part)
    return out.astype(np.float32)
