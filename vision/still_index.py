"""The still path's cards read by their corner indices (``vision.corner_finder``): how they join
the cards found whole in a photo (``vision.pipeline.read_cards`` with ``corners``).

A French-suited card fanned in a hand or lying under the next card of a trick shows a strip with
its index; the corner-index finder and box reader read it there. Each such reading is a card of
its own (``by_index``), unless a card found whole is the same card (``with_index_cards``); a card
read by its index alone is then drawn as the whole card it is, where it lies under a card found
whole (``placed_whole``, ``vision.index_place``).
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from referee.cards import Deck
from vision.corner_finder import CornerFinder, cards_of
from vision.finder import quad_iou
from vision.index_place import at_a_corner, placed, shown_box
from vision.labels import labels_for_deck
from vision.pipeline import ImageCard
from vision.recognizer import Prediction
from vision.tracker_index import contest, named_probability


def by_index(image: np.ndarray, corners: CornerFinder, deck: Deck | None) -> list[ImageCard]:
    """The cards ``corners`` reads in ``image`` by their corner indices: none for a deck of
    two copies of each card (an index does not tell the copies apart) nor a card outside
    ``deck`` (the reader knows French-suited cards only)."""
    if deck is not None and deck.copies > 1:
        return []
    allowed = set(labels_for_deck(deck)) if deck is not None else None
    out: list[ImageCard] = []
    for card in cards_of(corners.indices(image)):
        if allowed is not None and card.label not in allowed:
            continue
        surest = max(card.indices, key=lambda i: i.confidence)
        cx, cy, w, h = surest.box
        box = ((cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2), (cx + w / 2, cy + h / 2),
               (cx - w / 2, cy + h / 2))  # fmt: skip
        pred = Prediction(card.label, card.confidence, surest.alternatives)
        bounds = (box[0][0], box[0][1], box[2][0], box[2][1])
        out.append(ImageCard(card=pred.card, face=pred.face, deck=deck or pred.deck,
                             confidence=card.confidence, corners=box, prediction=pred,
                             visible=bounds, found_by="index", index_box=bounds))  # fmt: skip
    return out


def with_index_cards(found: list[ImageCard], by_index: list[ImageCard]) -> list[ImageCard]:
    """The cards ``found`` whole and those read ``by_index`` (the deck holds one copy of each).

    - A card both read, its index on the card found (of two found reading it, the surer it lies
      on: the other may be a piece of it, experiment 109): the card found, with the surer
      reading and the index's box. Its index elsewhere: the card found, and the index's card
      too when it is the surer (two places for one card: a doubt that stays visible).
    - An index read as a card that no card found reads, in an index corner of a card found
      whole and on no other one (``one_corner_of``): one card read two ways (experiment 61).
      Where the index's reading ``outweighs`` the face's, the card found takes it, contested by
      the face's (``vision.tracker_index.contest``: asked, both cards offered), once at most;
      else the index's card stays a card of its own, contested by the face's reading (below
      the read floor where the face is sure: an index misread, or of a card under it).
    - A Joker read by its index alone, in no index corner of a card found whole, is no card:
      its index is a word or a picture, what print is made of, and only its face tells it
      (experiment 64).
    - Else each as it is, those found first."""
    kept = list(found)
    where: dict[str, list[int]] = {}  # a card's code -> the cards kept that read it
    for k, c in enumerate(kept):
        where.setdefault(c.card.code, []).append(k)
    contested: set[int] = set()
    for card in by_index:
        middle = card.index_middle()
        assert middle is not None
        same = where.get(card.card.code, [])
        if same:
            # the surest of those it lies on; else the surest of them (experiment 109: a weak
            # piece of the card may read it too)
            on = [k for k in same if kept[k].holds(middle)]
            k = max(on or same, key=lambda i: kept[i].confidence)
            other = kept[k]
            if on:
                surer = card if card.confidence > other.confidence else other
                kept[k] = replace(other, confidence=surer.confidence,
                                  prediction=surer.prediction, index_box=card.index_box)  # fmt: skip
            elif card.confidence > other.confidence:
                kept.append(card)  # read surer elsewhere: both stay, the referee's doubt to settle
            continue
        j = one_corner_of(found, middle)
        if j is None and card.card.is_joker:
            continue  # a Joker's index is a word or a picture, as print is: its face tells it
        face = None if j is None or j in contested else kept[j].prediction
        if j is not None and face is not None and outweighs(card.prediction, face):
            pred = contest(card.prediction, face)
            other = kept[j]
            kept[j] = replace(other, card=pred.card, face=pred.face, prediction=pred,
                              confidence=pred.confidence, index_box=card.index_box)  # fmt: skip
            where[other.card.code].remove(j)
            where.setdefault(pred.card.code, []).append(j)
            contested.add(j)
            continue
        if face is not None:
            pred = contest(card.prediction, face)
            card = replace(card, prediction=pred, confidence=pred.confidence)
        where.setdefault(card.card.code, []).append(len(kept))
        kept.append(card)
    return kept


def placed_whole(shape: tuple[int, ...], cards: list[ImageCard]) -> list[ImageCard]:
    """``cards`` with each card read by its index alone drawn as the whole card it is, where
    it lies under a card found whole (``vision.index_place.placed``): its corners that card's
    moved onto its index, its visible box the part of it that the cards found whole over it
    leave showing. The index's box stays its ``index_box``; a card with no such neighbour keeps
    the index's box as its corners. Drawn whole where a card found whole reads the same card
    (``same_card_found``), it is that card: the card found stays, with the surer reading and
    the index's box (experiment 106)."""
    whole = [np.array(c.corners, np.float32) for c in cards if c.found_by != "index"]
    out = list(cards)
    dropped: set[int] = set()
    for k, card in enumerate(cards):
        quad = None if card.found_by != "index" or card.index_box is None else placed(
            card.index_box, whole)  # fmt: skip
        if quad is None:
            continue
        same = same_card_found(cards, card, quad)
        if same is not None:  # drawn whole, it is the card found: one card (experiment 106)
            found = out[same]
            if card.confidence > found.confidence:
                found = replace(found, confidence=card.confidence, prediction=card.prediction)
            out[same] = replace(found, index_box=card.index_box)
            dropped.add(k)
            continue
        above = [q for q in whole if cv2.intersectConvexConvex(quad, q)[0] > 0]
        shown = shown_box(shape, quad, above) or card.index_box
        corners = tuple((float(x), float(y)) for x, y in quad)
        out[k] = replace(card, corners=corners, visible=shown)
    return [c for k, c in enumerate(out) if k not in dropped]


SAME_PLACE_IOU = 0.5  # a card drawn whole over a card found of its name by this much is it


def same_card_found(cards: list[ImageCard], card: ImageCard, quad: np.ndarray) -> int | None:
    """Which of ``cards`` found whole reads the same card as ``card`` (read by its index) and
    lies where ``quad`` (``card`` drawn whole) lies, by IoU ``SAME_PLACE_IOU`` or more; None
    where none does."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    for k, other in enumerate(cards):
        if other.found_by == "index" or other.card != card.card:
            continue
        hull = cv2.convexHull(np.asarray(other.corners, np.float32)).reshape(-1, 2)
        if quad_iou(q, hull) >= SAME_PLACE_IOU:
            return k
    return None


def regions_of_indices(cards: list[ImageCard], floor: float) -> list[ImageCard]:
    """``cards`` with each card read by its index alone drawn as the region found whole whose
    index corner its index lies in (``one_corner_of``), where that region is read below the
    read ``floor`` (and so dropped): the detector found the card, its face was not read, its
    index was. The reading stays the index's (experiment 104)."""
    found = [c for c in cards if c.found_by != "index"]
    out = []
    for card in cards:
        middle = card.index_middle()
        if card.found_by == "index" and middle is not None:
            j = one_corner_of(found, middle)
            if j is not None and found[j].found_by == "finder" and found[j].confidence < floor:
                card = replace(card, corners=found[j].corners, visible=found[j].visible)
        out.append(card)
    return out


def one_corner_of(found: list[ImageCard], point: tuple[float, float]) -> int | None:
    """Which of the cards ``found`` whole has ``point`` in an index corner
    (``vision.index_place.at_a_corner``), where it is the only one that has ``point`` on it at
    all; else None."""
    on = [k for k, c in enumerate(found) if c.holds(point)]
    if len(on) != 1 or not at_a_corner(np.array(found[on[0]].corners, np.float32), point):
        return None
    return on[0]


def outweighs(index: Prediction, face: Prediction) -> bool:
    """Whether an index's reading of a card outweighs the reading of its face: the face names
    the index's card among its next readings, and the index's card is the better ``backed``."""
    named = {label for label, _ in face.alternatives}
    return index.label in named and backed(index, face) > backed(face, index)


def backed(reading: Prediction, other: Prediction) -> float:
    """How well two readings of one card back ``reading``'s card: its probability times the
    ``other``'s probability of it. Where the other does not name it among its best and next
    readings, that probability is at most the least it names, and is taken as that."""
    return reading.confidence * named_probability(other, reading.label)
