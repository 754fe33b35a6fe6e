"""Card recognition with the shipped ONNX model, run by onnxruntime.

The model takes warped cards (``INPUT_H`` x ``INPUT_W``, BGR, portrait) and scores every class
of ``models/kibic_cards.labels.json``. A deck restricts the answer to that deck's faces; vision
never restricts it further (it must not know what is legal to play).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from referee.cards import Card, Deck
from vision.labels import NONE_LABEL, card_for_label, deck_for_label, labels_for_deck, split_label
from vision.onnx_session import cpu_session
from vision.photo_check import PhotoCheck

if TYPE_CHECKING:
    from vision.deck_profile import DeckProfile
    from vision.index_reader import IndexReader

INPUT_H, INPUT_W = 96, 64
MODEL_DIR = Path(__file__).resolve().parent.parent / "models"
DEFAULT_MODEL = MODEL_DIR / "kibic_cards.onnx"
# The classifier for still photos (``kibic vision classify`` and ``eval``), where cards are
# often held in fans: DEFAULT_MODEL trained further on cards under the next card of a fan, of
# which only a strip shows (models/MODEL_HISTORY.md, experiments 7, 8 and 10). It asks about more plays
# at the table, so the table tracker, and deck profiles (which hold the table model's
# embeddings), keep DEFAULT_MODEL.
PHOTO_MODEL = MODEL_DIR / "kibic_photo_cards.onnx"
# Its gate for still photos: PHOTO_MODEL trained further on printed paper and surfaces (desks,
# cloth, carpet) as 'none' (``training.clutter``). A crop the gate reads as 'none' with at least
# GATE_THRESHOLD is 'none', whatever PHOTO_MODEL reads (models/MODEL_HISTORY.md, experiment 13).
PHOTO_GATE = MODEL_DIR / "kibic_photo_gate.onnx"
# A second gate: PHOTO_GATE trained further on the learned detector's pieces of real card faces
# (a court's frame, a block of pips) as 'none' (``training.real_pieces``, experiment 86). Each
# gate keeps its own 'none'; a crop either is sure of is 'none' (experiment 87).
PHOTO_GATE_PIECES = MODEL_DIR / "kibic_photo_gate_pieces.onnx"
# A third gate: PHOTO_GATE_PIECES trained further on the pieces of real faces that a classifier
# taught close cards (experiment 96's 3.8c) reads as other cards past the two gates above, close
# cards' quads kept as cards (experiment 96b); it takes readings of cards not there that the two
# let through (experiments 99 and 99b).
PHOTO_GATE_PIECES_2 = MODEL_DIR / "kibic_photo_gate_pieces_2.onnx"
PHOTO_GATES = (PHOTO_GATE, PHOTO_GATE_PIECES, PHOTO_GATE_PIECES_2)
GATE_THRESHOLD = 0.7
# Its corner-index reader (``vision.index_reader``): French-suited cards in still photos are
# read by the whole face and by the rank and suit in their corners (models/MODEL_CARD.md).
PHOTO_INDEX = MODEL_DIR / "kibic_index.onnx"
# The corner-index reader of the table's second opinion (``table_second_opinion``): version 3
# fine-tuned with rendered faces shown as the table shows them, small and warped back
# (``training.table_seen``; experiments 132 and 133c).
TABLE_INDEX = MODEL_DIR / "kibic_index_table.onnx"
# Its check (``vision.photo_check``), read where the file is there: an isolated region whose
# PHOTO_MODEL embedding it doubts is a card is 'none'. None is shipped: experiment 71's checks
# changed no figure (models/MODEL_HISTORY.md).
PHOTO_CHECK = MODEL_DIR / "kibic_photo_check.json"


def model_fingerprint(path: str | Path) -> str:
    """The first 16 hex digits of the SHA-256 of a classifier file. A deck profile records
    the classifier whose embeddings it holds (``DeckProfile.model``): another classifier's
    embeddings, of the same size, would be compared with them without any error."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def preprocess(crops: list[np.ndarray]) -> np.ndarray:
    """BGR uint8 crops (any size) -> float32 NCHW batch scaled to [-1, 1]."""
    batch = np.empty((len(crops), 3, INPUT_H, INPUT_W), np.float32)
    for i, crop in enumerate(crops):
        if crop.shape[:2] != (INPUT_H, INPUT_W):
            crop = cv2.resize(crop, (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA)
        batch[i] = crop.transpose(2, 0, 1)
    batch *= 1.0 / 127.5
    batch -= 1.0
    return batch


@dataclass(frozen=True)
class Prediction:
    """The best reading of one crop and its runners-up (label, probability)."""

    label: str
    confidence: float
    alternatives: tuple[tuple[str, float], ...]
    # the crop's embedding (the model's ``features`` output), when asked for
    features: np.ndarray | None = field(default=None, compare=False, repr=False)
    # read with a deck profile: the deck card the crop is nearest to by the references alone
    nearest: str | None = None
    # False: asked whatever its confidence (a Joker's index, a card read in a frame of no colour)
    committable: bool = True

    @property
    def is_card(self) -> bool:
        return self.label != NONE_LABEL

    @property
    def card(self) -> Card:
        return card_for_label(self.label)

    @property
    def face(self) -> str:
        return split_label(self.label)[1]

    @property
    def deck(self) -> Deck:
        return deck_for_label(self.label)


class Recognizer:
    """Classifies warped cards; one onnxruntime session on one thread by default."""

    check: PhotoCheck | None = None  # see ``use_check``

    def __init__(self, model_path: str | Path = DEFAULT_MODEL, *, threads: int = 1,
                 gate: str | Path | Sequence[str | Path] | None = None,
                 gate_threshold: float = GATE_THRESHOLD,
                 index: str | Path | None = None) -> None:  # fmt: skip
        """``gate``: a second classifier, or several; a crop any of them reads as 'none' with
        at least ``gate_threshold`` is read as 'none' (see ``PHOTO_GATES``). ``index``: a
        corner-index model (``vision.index_reader``) whose reading weighs this one's for
        French-suited cards, where ``predict`` is given the cards' faces."""
        path = Path(model_path)
        self.session = cpu_session(path, threads)
        labels_path = path.with_suffix(".labels.json")
        self.labels: tuple[str, ...] = tuple(json.loads(labels_path.read_text())["labels"])
        self._input = self.session.get_inputs()[0].name
        self._outputs = [o.name for o in self.session.get_outputs()]
        self._index = {label: i for i, label in enumerate(self.labels)}
        self.path = path
        self.fingerprint = model_fingerprint(path)
        paths = [] if gate is None else [gate] if isinstance(gate, str | Path) else list(gate)
        self.gates = tuple(Recognizer(p, threads=threads) for p in paths)
        self.gate_threshold = gate_threshold
        self.index: IndexReader | None = None
        if index is not None:
            from vision.index_reader import IndexReader

            self.index = IndexReader(index, threads=threads)

    def use_check(self, check: PhotoCheck) -> None:
        """Have ``vision.pipeline`` ask ``check`` (``vision.photo_check``) about the regions of
        a still photo this classifier reads; a check of another classifier's embedding raises
        ValueError."""
        self._need_features()
        check.bind(self.fingerprint)
        self.check = check

    @property
    def has_features(self) -> bool:
        """Whether the model gives embeddings (its ``features`` output) for deck profiles."""
        return "features" in self._outputs

    def run(self, crops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray | None]:
        """(logits, embeddings or None when the model has no ``features`` output)."""
        if not crops:
            return np.zeros((0, len(self.labels)), np.float32), None
        outs = self.session.run(None, {self._input: preprocess(crops)})
        named = dict(zip(self._outputs, outs, strict=True))
        feats = named.get("features")
        logits = named.get("logits", outs[0])
        return np.asarray(logits, np.float32), (None if feats is None else np.asarray(feats))

    def logits(self, crops: list[np.ndarray]) -> np.ndarray:
        return self.run(crops)[0]

    def embed(self, crops: list[np.ndarray]) -> np.ndarray:
        """The crops' embeddings; a model without a ``features`` output raises ValueError."""
        self._need_features()
        feats = self.run(crops)[1]
        return feats if feats is not None else np.zeros((0, 0), np.float32)

    def _need_features(self) -> None:
        if not self.has_features:
            raise ValueError(f"model {self.path} has no 'features' output, which deck profiles "
                             f"need (add it: python -m training.onnx_features {self.path})")  # fmt: skip

    def _mask(self, deck: Deck | None) -> np.ndarray:
        mask = np.zeros(len(self.labels), bool)
        allowed = labels_for_deck(deck) if deck is not None else self.labels
        for label in allowed:
            if label in self._index:
                mask[self._index[label]] = True
        if NONE_LABEL in self._index:
            mask[self._index[NONE_LABEL]] = True
        return mask

    def _softmax(self, logits: np.ndarray, deck: Deck | None) -> np.ndarray:
        logits = np.where(self._mask(deck)[None, :], logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        probs = np.exp(logits)
        probs /= probs.sum(axis=1, keepdims=True)
        return probs

    def probabilities(self, crops: list[np.ndarray], deck: Deck | None = None) -> np.ndarray:
        """(len(crops), len(labels)): every class's probability, the model alone (0 outside
        ``deck``'s faces and 'none')."""
        logits = self.run(crops)[0]
        if len(logits) == 0:
            return np.zeros((0, len(self.labels)), np.float32)
        return self._softmax(logits, deck)

    def predict(self, crops: list[np.ndarray], deck: Deck | None = None, *, top: int = 3,
                profile: DeckProfile | None = None, keep_features: bool = False,
                faces: list[np.ndarray] | None = None, gated: bool = True,
                ) -> list[Prediction]:  # fmt: skip
        """Read each crop; with ``deck`` only that deck's faces (and 'none') are candidates.
        A ``profile`` of the deck in use (``vision.deck_profile``) weighs the readings by how
        close each crop is to that deck's cards; ``keep_features`` keeps each crop's embedding
        on its prediction. ``faces``: each crop's card warped at face size
        (``vision.index_reader.face_of``), read by the corner-index model when there is one
        and no profile. ``gated`` False: the gates are not read (the table's reading of a frame's
        cards, in the frame itself: experiment 115d)."""
        if profile is not None:
            self._need_features()
            profile.check_deck(deck)
            profile.bind_model(self.fingerprint)
            deck = profile.deck
        logits, feats = self.run(crops)
        if len(logits) == 0:
            return []
        probs = self._softmax(logits, deck)
        if self.index is not None and faces is not None and profile is None:
            if len(faces) != len(crops):
                raise ValueError(f"{len(faces)} faces for {len(crops)} crops")
            probs = self.index.weigh(probs, self.labels, faces)
        nearest: list[str | None] = [None] * len(probs)
        if profile is not None and feats is not None:
            probs, nearest = profile.weigh(probs, self.labels, feats)
        result = []
        for k, row in enumerate(probs):
            order = np.argsort(-row)[: max(top, 1)]
            ranked = tuple((self.labels[int(i)], float(row[i])) for i in order)
            kept = feats[k].copy() if keep_features and feats is not None else None
            result.append(Prediction(ranked[0][0], ranked[0][1], ranked[1:], kept, nearest[k]))
        return self._gated(crops, deck, result) if self.gates and gated else result

    @property
    def gate(self) -> Recognizer | None:
        """The first gate, if any (``gates`` holds them all)."""
        return self.gates[0] if self.gates else None

    def _gated(self, crops: list[np.ndarray], deck: Deck | None,
               result: list[Prediction]) -> list[Prediction]:  # fmt: skip
        """``result`` with each crop a gate is sure is no card read as 'none' (the surest
        gate's 'none' its confidence, its reading kept first among the alternatives)."""
        return self.with_gates(result, [g.none_probability(crops, deck) for g in self.gates])

    def none_probability(self, crops: list[np.ndarray], deck: Deck | None) -> np.ndarray:
        """Each crop's probability of 'none' (as a gate reads it)."""
        return self.probabilities(crops, deck)[:, self._index[NONE_LABEL]]

    def gate_in_steps(self, crops: list[np.ndarray], deck: Deck | None, per_step: int
                      ) -> Generator[None, None, list[np.ndarray]]:  # fmt: skip
        """Each gate's ``none_probability`` of ``crops`` (for ``with_gates``), as a generator
        that yields before each gate reads each ``per_step`` of them (0: all at once): the
        table's reading at rest, a step at a time (experiments 115d and 115e). No crops: no
        step."""
        step = per_step if per_step > 0 else max(1, len(crops))
        nones = []
        for gate in self.gates:
            parts = [np.zeros(0, np.float32)]
            for k in range(0, len(crops), step):
                yield
                parts.append(gate.none_probability(crops[k : k + step], deck))
            nones.append(np.concatenate(parts))
        return nones

    def with_gates(self, result: list[Prediction], nones: Sequence[np.ndarray]
                   ) -> list[Prediction]:  # fmt: skip
        """``result`` (read with ``gated=False``) as the gates would have left it, given each
        gate's ``none_probability`` of the same crops: a crop any of them is at least
        ``gate_threshold`` sure is no card read as 'none'. The gates read apart, one a step
        (the table's learned cards, experiment 115d), give what ``predict`` gives."""
        if not nones:
            return result
        none = np.max(nones, axis=0)
        return [
            replace(p, label=NONE_LABEL, confidence=float(q),
                    alternatives=((p.label, p.confidence), *p.alternatives))
            if q >= self.gate_threshold and p.is_card else p
            for p, q in zip(result, none, strict=True)
        ]  # fmt: skip


def shipped_gates() -> list[Path]:
    """Each of ``PHOTO_GATES`` that is shipped (its file present)."""
    return [gate for gate in PHOTO_GATES if gate.is_file()]


def table_recognizer(threads: int = 1) -> Recognizer:
    """How the table reads a card by its face: the table classifier (``DEFAULT_MODEL``) with the
    still-photo classifier's gates where shipped (``shipped_gates``): a crop that any gate is at
    least ``GATE_THRESHOLD`` sure is no card is no card (experiment 115c: print and pieces of
    real faces that the table classifier, which learnt from rendered cards only, reads as
    cards). The tracker reads the gates at rest, each gate in a step of its own, on the learned
    detector's cards (experiment 115d) and on the classic finder's quads of the picture at rest
    (experiment 115e), and not on the cards of a frame read in the frame itself
    (``gated=False``: three more readings of every card of a changed picture would pass the
    frame's time budget, experiment 115c)."""
    return Recognizer(DEFAULT_MODEL, threads=threads, gate=shipped_gates())


def table_second_opinion(threads: int = 1) -> Recognizer:
    """The table's second opinion (``TrackerConfig`` asks it about a card read below the commit
    threshold, and reads every card's corners with it at rest and in motion): the still-photo
    classifier with its gates, as ``photo_recognizer``, reading corners with ``TABLE_INDEX`` where
    shipped. Still photos keep ``PHOTO_INDEX``: the table's reader reads 4 cards of the tuning
    parts' still photos fewer right, and commits 3 more right at the table (experiment 133)."""
    return photo_recognizer(threads=threads, index=TABLE_INDEX if TABLE_INDEX.is_file() else None)


def photo_recognizer(threads: int = 1, index: str | Path | None = None,
                     model: str | Path | None = None,
                     check: str | Path | None = None,
                     gates: Sequence[str | Path] | None = None) -> Recognizer:  # fmt: skip
    """How still photos are read (``kibic vision classify | eval``, the benchmark): the
    still-photo classifier (``model``, default the shipped one) with its gates (``gates``,
    default those of ``PHOTO_GATES`` shipped), its check (``check``, default the shipped one
    where it reads ``model``; ``"none"``: no check) and the corner-index reader (``index``,
    default the shipped one), each when shipped; else the table classifier (with the index
    reader)."""
    if index is None:
        index = PHOTO_INDEX if PHOTO_INDEX.is_file() else None
    if model is None:
        if not PHOTO_MODEL.is_file():
            return Recognizer(DEFAULT_MODEL, threads=threads, index=index)
        model = PHOTO_MODEL
    if gates is None:
        gates = shipped_gates()
    recognizer = Recognizer(model, threads=threads, gate=gates, index=index)
    if check is None and PHOTO_CHECK.is_file():
        shipped = PhotoCheck.load(PHOTO_CHECK)
        if shipped.model_fingerprint == recognizer.fingerprint:
            recognizer.use_check(shipped)
    elif check is not None and str(check) != "none":
        recognizer.use_check(PhotoCheck.load(check))
    return recognizer
