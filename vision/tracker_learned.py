"""The table tracker's third way of finding cards: the learned card detector, at rest.

The classic finder (``vision.finder``) traces bright card outlines; on a light or grained table
(wood, a desk), or for a small card, it finds no outline. The learned detector
(``vision.detector``, the one ``kibic vision classify`` uses on stills) finds those cards, at
about 12 ms a frame of 1280 x 720 on one core. So it runs where the corner-index path runs: on
the first frame at rest of each picture, its work spread over frames
(``vision.rest_schedule``; ``learned_in_steps``). Its cards are read by the table classifier
like the cards found whole, with these rules (experiment 36, chosen on edje-cards train and the
corner-boxes tune parts, ``kibic vision track --stills ... --tune-parts``):

- a detection that overlaps a card the classic finder found in the picture, or a better
  detection, by more than ``OVERLAP`` of the smaller one's area is the same card: left out,
  unless the classic finder's region was read as no card (a part of the card's print, say).
  Since experiment 116c (``TrackerConfig.learned_apart``) only where the two are
  ``same_card`` (quad IoU over ``TIGHT_IOU``, or the smaller ``INSIDE`` the other); a
  detection overlapping another card otherwise is a card of a fan or a pile, kept where it is
  read at the index floor or above as another card than each card it overlaps, and asked
  unless an index of its own (on it, on no card it overlaps that is kept) reads its card: a
  covered card's face hides its pips (a 2H under a JH read AH at 0.94). Since experiment 117
  (``TrackerConfig.covered_by_corners``) such a covered card is also read by the still-photo
  corner-index reader on its two index corners (``LearnedCard.corners_read``): where that
  reads another card surely (none of the cards it overlaps), the card is read by it; where it
  reads the face's card, it is an index of its own agreeing;
- a learned card centred on one of the mat's ArUco markers (``on_marker``) is that marker: the
  detector takes a marker for a small card, and the table classifier read one as a three of
  spades at 0.5 (synthetic tables, experiment 36);
- a learned card read below the tracker's ``index_floor`` is no card (the detector's false
  finds are read as nothing surely, or as a card weakly);
- a learned card with a corner index on it that reads another card (any confidence) is left
  out, and that index is read by the corner path: the detector gives a card under others in a
  pile its whole outline, over the indices of the cards on it;
- in a frame of no colour (``colourless``: a camera in grey, or a grey photo) every card read
  by its whole face is asked, never committed: the table classifier tells hearts from spades
  partly by their colour, and read two grey red cards as black at 0.87 and 0.88.

Vision reports what it saw: the tracker decides what is committed and what is asked.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from referee.cards import Deck
from vision.calibration import MARKER_SIDE, marker_centers
from vision.finder import FoundCard, quad_iou, warp_card
from vision.index_reader import face_of
from vision.recognizer import Prediction, Recognizer
from vision.refine import grey_for_refine, refine_quad

if TYPE_CHECKING:
    from vision.deck_profile import DeckProfile
    from vision.detector import CardDetector
    from vision.index_reader import IndexReader

# whether a table uses the learned detector unless its configuration says: yes since
# experiment 36 (models/MODEL_HISTORY.md)
DEFAULT_ON = True
OVERLAP = 0.3  # of the smaller card's area: two quads overlapping more are one card
# with ``learned_apart`` (experiment 116c): two quads are one card only when they overlap by quad
# IoU over ``TIGHT_IOU``, or the smaller lies ``INSIDE`` or more inside the other; others that
# overlap by more than ``OVERLAP`` are two cards of a fan or a pile. With ``tight_fans`` too
# (experiment 120), only over ``SAME_IOU``: a card overlapping another by IoU between the two
# (a tight fan's card, or a second outline of one card) is kept only where its corners read it
SAME_IOU = 0.7
TIGHT_IOU = 0.5
INSIDE = 0.9
# a frame is of no colour when the 99th percentile of its pixels' chroma (the largest minus the
# smallest of B, G, R) is at most this: grey photos measure 0 to 3, colour ones 6 and more
# (the corner-boxes and edje-cards photos)
GREY_CHROMA = 4
GREY_SAMPLE = 8  # px: the chroma is measured on every 8th pixel of every 8th row


@dataclass(frozen=True, eq=False)
class LearnedCard:
    """A card the learned detector found in a picture at rest: its place (corners moved onto
    the card's edges), the table classifier's reading and the crop read."""

    found: FoundCard
    prediction: Prediction
    crop: np.ndarray
    # a card overlapping another, read by the corner-index reader on its corners (experiment
    # 117): its card probabilities (``IndexReader.cards``' order), None where not read
    corners_read: np.ndarray | None = None
    # overlapping a better card or a classic quad by quad IoU over ``TIGHT_IOU`` (experiment
    # 119b): kept only where its corners read it
    tight: bool = False


def overlaps(quad: np.ndarray, other: np.ndarray, share: float = OVERLAP) -> bool:
    """Whether two card quads (frame px) overlap by more than ``share`` of the smaller one."""
    a, b = np.asarray(quad, np.float32), np.asarray(other, np.float32)
    inter, _ = cv2.intersectConvexConvex(a, b)
    smaller = min(cv2.contourArea(a), cv2.contourArea(b))
    return smaller > 0 and float(inter) > share * smaller


def same_card(quad: np.ndarray, other: np.ndarray, iou: float = TIGHT_IOU) -> bool:
    """Whether two card quads (frame px) are one card (experiment 116): they overlap by quad IoU
    over ``iou``, or the smaller lies ``INSIDE`` or more inside the other (a piece of a
    card's print, a court card's picture frame)."""
    a, b = np.asarray(quad, np.float32), np.asarray(other, np.float32)
    return quad_iou(a, b) > iou or overlaps(a, b, INSIDE)


def on_marker(center: np.ndarray, mat_size: tuple[float, float]) -> bool:
    """Whether the mat point ``center`` (mm) lies on one of the mat's markers
    (``vision.calibration.marker_centers``, a square of ``MARKER_SIDE`` mm)."""
    half = MARKER_SIDE / 2
    return any(abs(float(center[0]) - x) <= half and abs(float(center[1]) - y) <= half
               for x, y in marker_centers(mat_size))  # fmt: skip


def colourless(frame: np.ndarray) -> bool:
    """Whether ``frame`` (BGR) has no colour to tell red suits from black (see the module)."""
    sample = frame[::GREY_SAMPLE, ::GREY_SAMPLE].astype(np.int16)
    chroma = sample.max(axis=2) - sample.min(axis=2)
    return float(np.percentile(chroma, 99)) <= GREY_CHROMA


def not_committable(predictions: list[Prediction], frame: np.ndarray) -> list[Prediction]:
    """``predictions`` of cards read by their whole face in ``frame``: asked, whatever their
    confidence, when the frame has no colour."""
    if predictions and colourless(frame):
        return [replace(p, committable=False) for p in predictions]
    return predictions


def learned_in_steps(picture: np.ndarray, classic: list[np.ndarray], detector: CardDetector,
                     recognizer: Recognizer, deck: Deck, *, profile: DeckProfile | None,
                     keep_features: bool, per_step: int, apart: bool = False,
                     index: IndexReader | None = None, every: bool = False,
                     tight: bool = False,
                     ) -> Generator[None, None, list[LearnedCard]]:  # fmt: skip
    """The cards ``detector`` finds in ``picture`` apart from the ``classic`` finder's quads,
    each read (a generator: ``detector.detect_in_steps``, then ``per_step`` cards moved onto
    their edges and read a step, and read by each of ``recognizer``'s gates a step). A card
    overlapping a classic quad or a better card by more than ``OVERLAP`` is the same card; with
    ``apart`` only where it is ``same_card`` (experiment 116), the best first; then, with the
    corner-index reader ``index``, a card kept that overlaps another is read by its corners too
    (``LearnedCard.corners_read``, experiment 117), with ``every`` each card kept (118). With
    ``apart``, two quads are one card above quad IoU ``TIGHT_IOU``; with ``tight`` too, only above
    ``SAME_IOU``, a card between the two marked ``LearnedCard.tight`` (experiment 119c)."""
    detected = yield from detector.detect_in_steps(picture)
    same_iou = SAME_IOU if tight else TIGHT_IOU

    def one(quad: np.ndarray, other: np.ndarray) -> bool:
        return same_card(quad, other, same_iou) if apart else overlaps(quad, other)

    kept: list[np.ndarray] = []
    covered: list[bool] = []
    tights: list[bool] = []
    for card in detected:
        others = [*classic, *kept]
        if not any(one(card.corners, other) for other in others):
            covered.append(any(overlaps(card.corners, other) for other in others))
            tights.append(tight and apart and any(same_card(card.corners, other, TIGHT_IOU)
                                                  for other in others))  # fmt: skip
            kept.append(card.corners)
    out: list[LearnedCard] = []
    grey: np.ndarray | None = None
    no_colour = bool(kept) and colourless(picture)
    for k in range(0, len(kept), max(1, per_step)):
        yield
        if grey is None:
            grey = grey_for_refine(picture)
        quads = [refine_quad(grey, quad) for quad in kept[k : k + max(1, per_step)]]
        crops = [warp_card(picture, quad, repeat_edge=True) for quad in quads]
        read: list[np.ndarray | None] = [None] * len(quads)
        if index is not None:  # its corners too: each card, or each overlapping another
            under = [j for j in range(len(quads)) if every or covered[k + j]]
            for j, row in zip(under, index.read([face_of(picture, quads[j]) for j in under]),
                              strict=True):  # fmt: skip
                read[j] = row
        preds = recognizer.predict(crops, deck, profile=profile, keep_features=keep_features,
                                   gated=False)  # fmt: skip
        # each gate a step of its own (experiment 115d), on the crops read as cards (a gate
        # turns only a card into 'none')
        cards = [j for j, p in enumerate(preds) if p.is_card]
        nones = yield from recognizer.gate_in_steps([crops[j] for j in cards], deck, per_step=0)
        for j, gated in zip(cards, recognizer.with_gates([preds[j] for j in cards], nones),
                            strict=True):  # fmt: skip
            preds[j] = gated
        if no_colour:
            preds = [replace(p, committable=False) for p in preds]
        rows = zip(quads, preds, crops, read, tights[k : k + len(quads)], strict=True)
        out += [LearnedCard(FoundCard(q), p, c, r, t) for q, p, c, r, t in rows]
    return out
