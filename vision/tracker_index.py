"""The table tracker's second way of finding cards: by their corner indices.

The classic finder cuts out whole cards; a card fanned in a hand or lying under the next card
of a trick shows only a strip with its index. On a frame where the table is at rest, the
corner-index finder and its box reader (``vision.corner_finder``, trained on real photographs,
French-suited cards only) read every index in the frame; then:

- an index on a card the classic finder found and read confirms that reading when it reads the
  same card (the surer of the two confidences stays), and contests it when it reads another
  card at least as surely as the commit threshold (the reading is then asked, both cards
  offered: ``contest``); indices that read other cards less surely weigh against it
  (``weighed``, experiment 62: the readings' product shared over the cards they name);
- the indices on no such card are joined by the card they read (a deck of one copy of each
  card: both corners of one card read the same) and each is a card of its own, its place the
  box of its surest index (``loose_cards``), read no lower than ``floor``; a card read by more
  indices than a card has corners is printed text or a pattern, and no card; nor is a Joker
  read by its index alone (experiment 64: its index is a word or a picture, what print is
  made of, and only its face tells it);
- a card read as one of ``ASKED_ALWAYS`` (the Joker) by its whole face (since experiment 35)
  or by an index on a card found, is asked, never committed.

Vision reports what it saw: the tracker decides what is committed and what is asked.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from referee.cards import Deck
from vision.corner_finder import RUNNERS_UP, CornerFinder, square_cut
from vision.labels import ASKED_ALWAYS, NONE_LABEL, labels_for_deck
from vision.recognizer import Prediction

PICTURE_SIDE = 4.0  # the picture kept of a card read by its index: this many index sides
PICTURE_SIZE = 128  # px square
# whether a table whose deck the path reads uses it unless its configuration says: yes since
# experiment 31 (models/MODEL_HISTORY.md): on edje-cards train and the corner-boxes tune parts
# (``kibic vision track --stills ... --tune-parts``) it commits no wrong card, as without it,
# and it finds 126 of the desk tune part's 170 cards where the classic finder found none
DEFAULT_ON = True
MAX_INDICES = 4  # a card shows at most four corner indices: a card read more often is a print


@dataclass(frozen=True)
class IndexPrediction(Prediction):
    """A reading by a corner index (the tracker commits it at the plain commit threshold, and
    a deck profile does not learn from it: it is no picture of the whole card). ``committable``
    False: asked whatever its confidence (see ``ASKED_ALWAYS``)."""


@dataclass(frozen=True)
class IndexSighting:
    """One corner index read in a frame: its box (cx, cy, w, h; frame px) and reading."""

    box: tuple[float, float, float, float]
    prediction: IndexPrediction

    @property
    def center(self) -> tuple[float, float]:
        return self.box[0], self.box[1]

    def quad(self) -> np.ndarray:
        """The index's box as four corners clockwise from top-left (4 x 2 float32)."""
        cx, cy, w, h = self.box
        return np.array([[cx - w / 2, cy - h / 2], [cx + w / 2, cy - h / 2],
                         [cx + w / 2, cy + h / 2], [cx - w / 2, cy + h / 2]],
                        np.float32)  # fmt: skip

    def picture(self, frame: np.ndarray) -> np.ndarray:
        """A square around the index, upright, for the person asked to see."""
        cx, cy, w, h = self.box
        return square_cut(frame, cx, cy, PICTURE_SIDE * max(w, h), 0.0, PICTURE_SIZE)


def sightings(frame: np.ndarray, finder: CornerFinder, deck: Deck) -> list[IndexSighting]:
    """Every index ``finder`` finds in ``frame``, read as a card of ``deck`` or ``none`` (the
    probabilities of cards outside the deck are left out, not spread over the others), each
    read as it is, a crowded one not greyed (experiment 95b)."""
    found = finder.boxes(frame)
    probs = finder.read(frame, [box for box, _ in found], grey_crowded=False)
    return _read_as(found, probs, finder, deck)


def sightings_in_steps(frame: np.ndarray, finder: CornerFinder, deck: Deck, *, parts: int,
                       boxes_per_step: int) -> Generator[None, None, list[IndexSighting]]:  # fmt: skip
    """``sightings(frame, finder, deck)``, the same readings, made in steps: a generator that
    yields between two steps and returns the sightings. The steps: the finder's input (with
    ``parts`` > 1), the finder's net in ``parts`` parts, then the found boxes read
    ``boxes_per_step`` at a time (0: all of them in the step of the finder's last part)."""
    found = yield from finder.boxes_in_steps(frame, parts)
    boxes = [box for box, _ in found]
    step = boxes_per_step if boxes_per_step > 0 else max(1, len(boxes))
    probs = [np.zeros((0, len(finder.labels)), np.float32)]
    for k in range(0, len(boxes), step):
        if boxes_per_step > 0:
            yield
        probs.append(finder.read(frame, boxes[k : k + step], grey_crowded=False))
    return _read_as(found, np.concatenate(probs), finder, deck)


def _read_as(found: list[tuple[tuple[float, float, float, float], float]], probs: np.ndarray,
             finder: CornerFinder, deck: Deck) -> list[IndexSighting]:  # fmt: skip
    allowed = set(labels_for_deck(deck)) | {NONE_LABEL}
    keep = np.array([label in allowed for label in finder.labels])
    out = []
    for (box, _), p in zip(found, probs, strict=True):
        p = np.where(keep, p, 0.0)
        order = np.argsort(-p)[:RUNNERS_UP]
        ranked = tuple((finder.labels[int(k)], float(p[k])) for k in order)
        label, confidence = ranked[0]
        pred = IndexPrediction(label, confidence, ranked[1:], committable=label not in ASKED_ALWAYS)
        out.append(IndexSighting(box, pred))
    return out


def on_quad(sighting: IndexSighting, corners: np.ndarray) -> bool:
    """Whether the index's centre lies on the quadrilateral ``corners`` (frame px)."""
    quad = np.asarray(corners, np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(quad, sighting.center, False) >= 0


def confirm_or_contest(pred: Prediction, on_card: list[IndexSighting],
                       threshold: float) -> Prediction:  # fmt: skip
    """The classic reading ``pred`` of a card with the indices read on it: the same card read by
    an index, the surer confidence; else another card read by an index at ``threshold`` or
    above, the reading contested (``contest``); else other cards read by indices below it,
    the reading weighed against them (``weighed``, experiment 62); else as it was."""
    cards = [s.prediction for s in on_card if s.prediction.is_card]
    same = [p.confidence for p in cards if p.label == pred.label]
    if same:
        return replace(pred, confidence=max(pred.confidence, *same))
    against = [p for p in cards if p.confidence >= threshold]
    if against:
        return contest(pred, max(against, key=lambda p: p.confidence))
    return weighed(pred, cards)


def named_probability(reading: Prediction, label: str) -> float:
    """``reading``'s probability of ``label``: the one it gives where it names that card (its
    best or a next reading), else at most the least it names, and taken as that."""
    named = dict(reading.alternatives) | {reading.label: reading.confidence}
    return named.get(label, min(named.values()))


def weighed(pred: Prediction, others: Sequence[Prediction]) -> Prediction:
    """``pred``, a face's reading, with ``others``, readings of the same card that name other
    cards: its confidence no higher than the readings together give its card, each read on
    its own (the product of each reading's ``named_probability`` of a card, over the cards
    any of them names), with the surest other card among its alternatives: a card that the
    face reads surely but an index on it reads as another is asked."""
    if not others or not pred.is_card:
        return pred
    readings = [pred, *others]
    cards = {label for r in readings for label, _ in (*r.alternatives, (r.label, r.confidence))}
    cards.discard(NONE_LABEL)
    joint = {c: float(np.prod([named_probability(r, c) for r in readings])) for c in cards}
    total = sum(joint.values())
    share = joint[pred.label] / total if total > 0 else pred.confidence
    if share >= pred.confidence - 1e-9:  # (the same, but for rounding)
        return pred
    return offering(pred, max(others, key=lambda p: p.confidence), share)


def contest(pred: Prediction, other: Prediction) -> Prediction:
    """Two readings of one card that disagree: the card read is kept, at a confidence no higher
    than the other reading leaves it (1 - the other's), and the other card joins its
    alternatives: it is asked, with both cards offered."""
    return offering(pred, other, min(pred.confidence, 1.0 - other.confidence))


def offering(pred: Prediction, other: Prediction, confidence: float) -> Prediction:
    """``pred`` at ``confidence``, ``other``'s card among its alternatives (asked, both cards
    offered)."""
    alternatives = tuple(dict([*pred.alternatives, (other.label, other.confidence)]).items())
    return replace(pred, confidence=confidence, alternatives=alternatives)


def loose_cards(free: list[IndexSighting], taken: set[str], floor: float) -> list[IndexSighting]:
    """The cards read by the indices ``free`` (on no card found whole): one per card (the
    surest of its indices), not a card in ``taken`` (read on a card found whole in this frame)
    nor one read by more than ``MAX_INDICES`` indices (printed text, a pattern), nor the
    Joker (whose index is a word or a picture, as print is), read at
    ``floor`` or above; the surest first."""
    count: dict[str, int] = {}
    for s in free:
        count[s.prediction.label] = count.get(s.prediction.label, 0) + 1
    best: dict[str, IndexSighting] = {}
    for s in free:
        label = s.prediction.label
        if label == NONE_LABEL or label in taken or s.prediction.confidence < floor:
            continue
        if s.prediction.card.is_joker:
            continue  # the Joker's index is a word or a picture, as print is (experiment 64)
        if count[label] > MAX_INDICES:
            continue
        if label not in best or s.prediction.confidence > best[label].prediction.confidence:
            best[label] = s
    return sorted(best.values(), key=lambda s: -s.prediction.confidence)
