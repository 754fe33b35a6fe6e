"""The table tracker's reading of a card by its two index corners (experiments 117, 118, 120).

The still-photo classifier's corner-index reader (``vision.index_reader``, trained on real
photographs, French-suited cards only) reads the two index corners of a card warped at face size
from its outline. At the table, at rest:

- a learned card that overlaps another card (a fan, a pile: ``learned_apart``) is read so, and
  where its corners name another card surely (none of the cards it overlaps), it is that card by
  its index (``by_corners``, experiment 117): a covered card's face mostly shows the card over it;
- every card at rest is read so (``corners_at_rest``), and where its corners name the card read,
  that reading is one more index of its own (``agreeing``, experiment 118): it confirms the card
  and never counts against it;
- the classic finder's outline around two or more cards kept apart that read different cards is
  no card of its own (``two_cards``, experiment 120);
- where a card's corners name another card, that card is offered when it is asked
  (``corners_offered``, experiment 121);
- a card its face reads weakly and its corners read surely as another card, one that no other
  card of the picture reads, is read by its corners (``surely_by_corners``, experiment 122: an
  option, ``TrackerConfig.weak_face_by_corners``, off).

Vision reports what it saw: the tracker decides what is committed and what is asked.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from vision.corner_finder import RUNNERS_UP
from vision.tracker_index import ASKED_ALWAYS, IndexPrediction, IndexSighting, offering
from vision.tracker_learned import overlaps

if TYPE_CHECKING:
    from vision.finder import FoundCard
    from vision.index_reader import IndexReader
    from vision.recognizer import Prediction


def ranked(probs: np.ndarray, reader: IndexReader) -> IndexPrediction:
    """The corner-index reader's card probabilities (``reader.cards``' order) as an index
    reading: its best card and the next ones (a Joker never committable)."""
    order = np.argsort(-probs)[:RUNNERS_UP]
    named = [(reader.cards[int(k)], float(probs[k])) for k in order]
    (label, confidence), rest = named[0], tuple(named[1:])
    return IndexPrediction(label, confidence, rest, committable=label not in ASKED_ALWAYS)


def by_corners(probs: np.ndarray | None, reader: IndexReader, over: list[str | None]
               ) -> IndexPrediction | None:  # fmt: skip
    """A covered card's reading by its corners (``probs``, None where not read), where it names
    a card that is none of ``over`` (the cards read on the cards it overlaps), else None
    (experiment 117)."""
    if probs is None or not over:
        return None
    reading = ranked(probs, reader)
    return None if reading.label in over else reading


def corner_sighting(card: FoundCard, probs: np.ndarray, reader: IndexReader) -> IndexSighting:
    """A card's corners read (``probs``) as an index sighting on it, its box the card's middle
    (experiment 118)."""
    cx, cy = card.center
    return IndexSighting((float(cx), float(cy), 1.0, 1.0), replace(ranked(probs, reader),
                                                                   committable=True))  # fmt: skip


def agreeing(pred: Prediction, sighting: IndexSighting | None) -> list[IndexSighting]:
    """``[sighting]`` where it reads ``pred``'s card, else ``[]``: a card's corners read at rest
    count only for its reading, never against it (experiment 118)."""
    return [sighting] if sighting is not None and sighting.prediction.label == pred.label else []


def corners_offered(pred: Prediction, sighting: IndexSighting | None) -> Prediction:
    """``pred`` with the card its corners read at rest (``sighting``) among its alternatives
    where they name another card, at their confidence: offered when the card is asked, its own
    confidence unchanged (experiment 121)."""
    if sighting is None or not sighting.prediction.is_card or not pred.is_card:
        return pred
    if sighting.prediction.label == pred.label:
        return pred
    return offering(pred, sighting.prediction, pred.confidence)


def two_cards(quad: np.ndarray, learned: list[tuple[np.ndarray, str]]) -> bool:
    """Whether a classic card's ``quad`` is an outline around two or more of the ``learned``
    cards kept (their quads and the cards read on them) that read different cards: no card of
    its own (experiment 120)."""
    return len({label for other, label in learned if overlaps(quad, other)}) >= 2


def surely_by_corners(pred: Prediction, read: IndexPrediction | None, weak: float, sure: float,
                      elsewhere: set[str]) -> Prediction:  # fmt: skip
    """``pred``, a card's reading by its face, or where that is below ``weak`` and the card's
    corners (``read``, None where not read) name another card at ``sure`` or above, none of
    ``elsewhere`` (the cards read on the picture's other cards), the corners' reading, the
    face's card offered (experiment 122)."""
    if read is None or not pred.is_card or pred.confidence >= weak:
        return pred
    if not read.is_card or read.label == pred.label or read.confidence < sure:
        return pred
    if read.label in elsewhere:
        return pred
    by_index = replace(read, committable=read.label not in ASKED_ALWAYS)
    return offering(by_index, pred, read.confidence)
