"""Finding French-suited cards by their corner indices, where the cards themselves cannot be cut
out: fanned in a hand, lying over one another, or a corner of a card at the photo's edge.

Two small models, both trained on real photographs (models/MODEL_CARD.md):

- the finder (``models/kibic_corners.onnx``, ``training.train_corner_finder``): the card
  detector's net with a heatmap of corner-index centres at stride 4 and, per cell, the offset
  to the centre and the log width and height of the index's axis-aligned box;
- the reader (``models/kibic_corner_reader.onnx``, ``training.train_corner_reader``): the square
  of ``READ_SIDE`` times the box's longer side around each found index, at ``READ_SIZE`` px,
  turned any way, read as one of the 53 French cards or ``none``. A reader trained so (its
  labels file's ``input.greyed``, experiment 95) reads an index whose square holds the centre of
  another found index (``crowded``: a row of cards overlapping a strip apart) with the photo
  outside its box, grown that many times, painted grey (``greyed_around``), in still photos;
  the table reads every index as it is (experiment 95b).

A card may show both of its index corners; ``cards_of`` joins the indices read as the same
card (a still photo holds one deck, so one card of each code) and keeps the surest reading.
"""

from __future__ import annotations

import json
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.labels import NONE_LABEL
from vision.onnx_session import cpu_session
from vision.onnx_split import PartedModel

MODEL_DIR = Path(__file__).resolve().parent.parent / "models"
DEFAULT_FINDER = MODEL_DIR / "kibic_corners.onnx"
DEFAULT_READER = MODEL_DIR / "kibic_corner_reader.onnx"  # the table's box reader
# the still photos' box reader, trained greyed (experiment 95c)
STILL_READER = MODEL_DIR / "kibic_corner_reader_still.onnx"
READ_SIZE = 48  # the reader's input, px square
READ_SIDE = 1.3  # the square read around a found index, in its box's longer side
LONG_SIDE = 640  # the photo's longest side as the finder sees it
THRESHOLD = 0.3  # the least heat of a found index
TURNS = 8  # each index is read turned this many ways round, the readings averaged
RUNNERS_UP = 3  # the readings kept of each index: its best and the next ones


@dataclass(frozen=True)
class FoundIndex:
    """One corner index: its box (centre x, centre y, width, height; photo px), the finder's
    heat there, and the reader's best label (``french:QH`` or ``none``) and probability, with
    its next readings."""

    box: tuple[float, float, float, float]
    score: float
    label: str
    confidence: float
    alternatives: tuple[tuple[str, float], ...] = ()  # the next readings (label, probability)


@dataclass(frozen=True)
class IndexCard:
    """A card read by its corner indices: its label, the surest index's probability, and the
    indices read as it."""

    label: str
    confidence: float
    indices: tuple[FoundIndex, ...]

    def quad(self) -> tuple[tuple[float, float], ...]:
        """The box around its indices (photo px), as four corners clockwise from top-left."""
        xs = [v for i in self.indices for v in (i.box[0] - i.box[2] / 2, i.box[0] + i.box[2] / 2)]
        ys = [v for i in self.indices for v in (i.box[1] - i.box[3] / 2, i.box[1] + i.box[3] / 2)]
        x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
        return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def square_cut(image: np.ndarray, cx: float, cy: float, side: float, angle: float,
               out: int) -> np.ndarray:  # fmt: skip
    """The square of ``side`` px centred on (cx, cy), turned by ``angle`` degrees, at ``out`` x
    ``out`` px (outside the image: its edge repeated)."""
    matrix = np.asarray(cv2.getRotationMatrix2D((cx, cy), angle, out / max(side, 1.0)), np.float64)
    matrix[:, 2] += (out / 2 - cx, out / 2 - cy)
    return cv2.warpAffine(image, matrix, (out, out), flags=cv2.INTER_AREA,
                          borderMode=cv2.BORDER_REPLICATE)  # fmt: skip


def still_reader() -> Path:
    """The box reader of still photos: ``STILL_READER`` where shipped, else the table's."""
    return STILL_READER if STILL_READER.is_file() else DEFAULT_READER


def crowded(boxes: list[tuple[float, float, float, float]],
            among: list[tuple[float, float, float, float]]) -> list[bool]:  # fmt: skip
    """Whether the square read around each of ``boxes`` (cx, cy, w, h; ``READ_SIDE`` times its
    longer side) holds the centre of another box of ``among`` (which holds ``boxes``)."""
    centres = np.array([(b[0], b[1]) for b in among], np.float64).reshape(-1, 2)
    out = []
    for cx, cy, w, h in boxes:
        near = np.abs(centres - (cx, cy)).max(axis=1) < READ_SIDE * max(w, h) / 2
        out.append(int(near.sum()) > 1)  # the box itself is near
    return out


def grey_outside(image: np.ndarray, box: tuple[float, float, float, float],
                 margin: float) -> np.ndarray:  # fmt: skip
    """A copy of ``image`` painted grey (128) outside ``box`` (cx, cy, w, h) grown ``margin``
    times about its middle."""
    cx, cy, w, h = box
    ih, iw = image.shape[:2]
    x0, y0 = max(int(cx - margin * w / 2), 0), max(int(cy - margin * h / 2), 0)
    x1, y1 = min(int(cx + margin * w / 2) + 1, iw), min(int(cy + margin * h / 2) + 1, ih)
    out = np.full_like(image, 128)
    if x1 > x0 and y1 > y0:
        out[y0:y1, x0:x1] = image[y0:y1, x0:x1]
    return out


def greyed_around(image: np.ndarray, box: tuple[float, float, float, float],
                  margin: float) -> tuple[np.ndarray, float, float]:  # fmt: skip
    """The part of ``image`` that a turned square read around ``box`` can reach, painted grey
    outside the box grown ``margin`` times (``grey_outside``); and the box's centre in it."""
    cx, cy, w, h = box
    reach = READ_SIDE * max(w, h)  # beyond half the diagonal of the square read
    ih, iw = image.shape[:2]
    x0, y0 = min(max(int(cx - reach), 0), iw - 1), min(max(int(cy - reach), 0), ih - 1)
    x1, y1 = max(min(int(cx + reach) + 1, iw), x0 + 1), max(min(int(cy + reach) + 1, ih), y0 + 1)
    part = grey_outside(image[y0:y1, x0:x1], (cx - x0, cy - y0, w, h), margin)
    return part, cx - x0, cy - y0


def peaks(heat: np.ndarray, threshold: float) -> list[tuple[int, int]]:
    """(row, column) of the 3 x 3 local maxima of ``heat`` at or over ``threshold``."""
    top = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    rows, cols = np.nonzero((heat >= top) & (heat >= threshold))
    return list(zip(rows.tolist(), cols.tolist(), strict=True))


class CornerFinder:
    """The finder and the reader (ONNX, onnxruntime on ``threads`` threads)."""

    def __init__(self, finder_path: str | Path = DEFAULT_FINDER,
                 reader_path: str | Path = DEFAULT_READER, *, threads: int = 1,
                 long_side: int = LONG_SIDE, threshold: float = THRESHOLD,
                 turns: int = TURNS) -> None:  # fmt: skip
        finder_path, reader_path = Path(finder_path), Path(reader_path)
        self.finder_path, self.threads = finder_path, threads
        self._parts: dict[int, PartedModel] = {}
        self.finder = cpu_session(finder_path, threads)
        self.reader = cpu_session(reader_path, threads)
        meta = json.loads(finder_path.with_suffix(".json").read_text())
        self.stride = int(meta["output"]["stride"])
        self.size_ref = float(meta["output"]["size_ref"])
        reader_meta = json.loads(reader_path.with_suffix(".labels.json").read_text())
        self.labels: tuple[str, ...] = tuple(reader_meta["labels"])
        # a crowded index read greyed around its box, by a reader trained so (experiment 95)
        self.greyed = float(reader_meta.get("input", {}).get("greyed", 0.0))
        if self.labels[-1] != NONE_LABEL:
            raise ValueError(f"{reader_path}: the last label must be {NONE_LABEL!r}")
        self.long_side, self.threshold, self.turns = long_side, threshold, turns

    def _input(self, image: np.ndarray) -> tuple[np.ndarray, float]:
        """The finder's input for ``image`` (its longest side at ``long_side``, padded grey to
        a multiple of 32) and the scale from the photo to it."""
        h, w = image.shape[:2]
        scale = self.long_side / max(h, w)
        sh, sw = max(1, round(h * scale)), max(1, round(w * scale))
        ih, iw = -(-sh // 32) * 32, -(-sw // 32) * 32
        canvas = np.full((ih, iw, 3), 128, np.uint8)
        canvas[:sh, :sw] = cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA)
        x = canvas.transpose(2, 0, 1)[None].astype(np.float32)
        x /= 127.5  # in place: the same values as x / 127.5 - 1.0, without two copies
        x -= 1.0
        return x, scale

    def _decode(self, out: np.ndarray, scale: float,
                size: tuple[int, int]) -> list[tuple[tuple[float, float, float, float], float]]:  # fmt: skip
        """The boxes of the finder's output ``out`` (1 x 5 x H x W) in a photo of ``size``
        (h, w) px seen at ``scale``."""
        h, w = size
        out = np.asarray(out)[0]
        found = []
        for i, j in peaks(out[0], self.threshold):
            cx = (j * self.stride + (self.stride - 1) / 2 + out[1, i, j] * self.stride) / scale
            cy = (i * self.stride + (self.stride - 1) / 2 + out[2, i, j] * self.stride) / scale
            if not (0 <= cx < w and 0 <= cy < h):
                continue
            bw = float(np.exp(out[3, i, j])) * self.size_ref / scale
            bh = float(np.exp(out[4, i, j])) * self.size_ref / scale
            found.append(((float(cx), float(cy), bw, bh), float(out[0, i, j])))
        return found

    def boxes(self, image: np.ndarray) -> list[tuple[tuple[float, float, float, float], float]]:
        """Each found index's box (cx, cy, w, h; photo px) and heat."""
        x, scale = self._input(image)
        (out,) = self.finder.run(None, {self.finder.get_inputs()[0].name: x})
        return self._decode(out, scale, image.shape[:2])

    def prepare(self, parts: int) -> None:
        """The finder's net cut into ``parts`` parts now, for ``boxes_in_steps`` (onnx's shape
        inference and the sessions: about half a second, once)."""
        if parts > 1:
            self._parted(parts)

    def boxes_in_steps(self, image: np.ndarray, parts: int
                       ) -> Generator[None, None, list[tuple[tuple[float, float, float, float], float]]]:  # fmt: skip
        """``boxes(image)``, the finder's net run as ``parts`` parts of about equal work
        (``vision.onnx_split``; the same boxes): a generator that yields after the finder's
        input is made (the photo scaled) and between two parts, and returns the boxes."""
        if parts <= 1:
            return self.boxes(image)
        net = self._parted(parts)
        x, scale = self._input(image)
        feeds = {net.parts[0].inputs[0]: x}
        for k in range(len(net.parts)):
            yield
            feeds = net.run(k, feeds)
        (out,) = feeds.values()
        return self._decode(out, scale, image.shape[:2])

    def _parted(self, parts: int) -> PartedModel:
        """The finder's net cut into ``parts`` parts (made once: ``prepare``)."""
        if parts not in self._parts:
            side = -(-self.long_side // 32) * 32
            self._parts[parts] = PartedModel(self.finder_path, parts, (1, 3, side, side),
                                             self.threads)  # fmt: skip
        return self._parts[parts]

    def read(self, image: np.ndarray, boxes: list[tuple[float, float, float, float]],
             grey_crowded: bool = True) -> np.ndarray:  # fmt: skip
        """(len(boxes), len(labels)): the reader's probabilities for the square around each
        (all the boxes found in ``image``); with ``grey_crowded``, a crowded one read greyed
        around, where the reader says so (``greyed``; the table reads without, experiment
        95b)."""
        if not boxes:
            return np.zeros((0, len(self.labels)), np.float32)
        turns = [360.0 * k / self.turns for k in range(self.turns)]
        near = crowded(boxes, boxes) if grey_crowded and self.greyed > 0 else []
        cuts: list[np.ndarray] = []
        for k, box in enumerate(boxes):
            source, cx, cy = image, box[0], box[1]
            if near and near[k]:
                source, cx, cy = greyed_around(image, box, self.greyed)
            side = READ_SIDE * max(box[2], box[3])
            cuts.extend(square_cut(source, cx, cy, side, angle, READ_SIZE) for angle in turns)
        x = np.stack(cuts).astype(np.float32).transpose(0, 3, 1, 2) / 127.5 - 1.0
        (logits,) = self.reader.run(None, {self.reader.get_inputs()[0].name: x})
        logits = np.asarray(logits, np.float64)
        logits -= logits.max(axis=1, keepdims=True)
        probs = np.exp(logits)
        probs /= probs.sum(axis=1, keepdims=True)
        return probs.reshape(len(boxes), len(turns), -1).mean(axis=1).astype(np.float32)

    def indices(self, image: np.ndarray) -> list[FoundIndex]:
        """Every index found in ``image``, read."""
        found = self.boxes(image)
        probs = self.read(image, [box for box, _ in found])
        out = []
        for (box, score), p in zip(found, probs, strict=True):
            order = np.argsort(-p)[:RUNNERS_UP]
            ranked = [(self.labels[int(k)], float(p[k])) for k in order]
            out.append(FoundIndex(box, score, *ranked[0], alternatives=tuple(ranked[1:])))
        return out


def cards_of(indices: list[FoundIndex]) -> list[IndexCard]:
    """The cards that ``indices`` read (``none`` left out): one per label, the surest first."""
    by_label: dict[str, list[FoundIndex]] = {}
    for index in indices:
        if index.label != NONE_LABEL:
            by_label.setdefault(index.label, []).append(index)
    cards = [
        IndexCard(label, max(i.confidence for i in found), tuple(found))
        for label, found in by_label.items()
    ]
    return sorted(cards, key=lambda c: -c.confidence)
