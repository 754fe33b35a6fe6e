"""One still image to the cards in it: find, warp, read (no tracking, no seats)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from referee.cards import Card, Deck
from vision.events import Corners
from vision.finder import (
    STILL_IMAGE,
    FinderConfig,
    FoundCard,
    box_iou,
    find_cards,
    inside,
    warp_card,
)
from vision.index_reader import face_of
from vision.labels import ASKED_ALWAYS, NONE_LABEL
from vision.photo_check import PhotoCheck, covered_shares
from vision.recognizer import Prediction, Recognizer
from vision.refine import grey_for_refine, refine_quad
from vision.visibility import Box, visible_boxes

if TYPE_CHECKING:
    from vision.corner_finder import CornerFinder
    from vision.deck_profile import DeckProfile
    from vision.detector import CardDetector, DetectedCard

    # what ``CardDetector.detect_with_zoom`` gives: the cards found, and the zoom-out pass's
    Detections = tuple[list[DetectedCard], list[DetectedCard]]


# A still photo's card read below this is no card (experiment 42): on the tuning parts of the
# real sets, more than half the readings of cards not in the photo lie below it, and at most
# one card read right in each part.
READ_FLOOR = 0.2


@dataclass(frozen=True)
class ImageCard:
    """A card found in an image and its reading."""

    card: Card
    face: str
    deck: Deck
    confidence: float
    corners: tuple[tuple[float, float], ...]
    prediction: Prediction
    visible: Box | None = None  # the box of the part that shows (see ``visible_bbox``)
    # how it was found: "finder" (the detector or the classic finder), "whole": the whole
    # photo read as one card (``read_whole``), or "index": by its corner index alone
    found_by: str = "finder"
    # the box of the corner index that read it (``vision.corner_finder``), when one did
    index_box: Box | None = None

    @property
    def committable(self) -> bool:
        """False: asked whatever its confidence (a Joker, ``vision.labels.ASKED_ALWAYS``)."""
        return self.prediction.committable and self.prediction.label not in ASKED_ALWAYS

    def holds(self, point: tuple[float, float]) -> bool:
        """Whether the card's quad holds ``point`` (on its edge too)."""
        quad = np.array(self.corners, np.float32).reshape(-1, 1, 2)
        return cv2.pointPolygonTest(quad, point, False) >= 0

    def index_middle(self) -> tuple[float, float] | None:
        """The middle of the box of the corner index that read it, when one did."""
        if self.index_box is None:
            return None
        x0, y0, x1, y1 = self.index_box
        return (x0 + x1) / 2, (y0 + y1) / 2

    def bbox(self) -> tuple[float, float, float, float]:
        """The whole card's box (also where it is covered or out of the photo)."""
        xs = [x for x, _ in self.corners]
        ys = [y for _, y in self.corners]
        return min(xs), min(ys), max(xs), max(ys)

    def visible_bbox(self) -> Box:
        """The box of the part of the card that shows: inside the photo (``vision.visibility``)
        and, where the learned detector predicts it, not under other cards or a hand."""
        return self.visible if self.visible is not None else self.bbox()

    def to_json(self) -> dict[str, object]:
        return {
            "card": self.card.code,
            "face": self.face,
            "deck": self.deck.value,
            "confidence": round(self.confidence, 4),
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
            "visible_box": [round(v, 1) for v in self.visible_bbox()],
            "found_by": self.found_by,
            **({"index_box": [round(v, 1) for v in self.index_box]} if self.index_box else {}),
            # asked whatever its confidence (a Joker), where so
            **({} if self.committable else {"committable": False}),
        }


def find_in_still(image: np.ndarray, *, finder: FinderConfig | None = None,
                  detector: CardDetector | None = None, also_classic: bool = False,
                  refine: bool = True,
                  detected: list[DetectedCard] | None = None) -> list[FoundCard]:  # fmt: skip
    """Card quadrilaterals in a still photo: the learned ``detector``'s when given (plus, with
    ``also_classic``, the classical finder's regions that no detection already covers, IoU of
    the boxes under 0.5), else the classical finder's (``finder``, default ``STILL_IMAGE``).
    With ``refine``, each of the detector's quads is moved onto the card's edges in the photo
    (``vision.refine``); the classical finder's quads are traced from those edges already.
    ``detected``: ``detector.detect(image)`` made already (the detector is not run again)."""
    if detector is None:
        return find_cards(image, finder or STILL_IMAGE)
    found: list[FoundCard] = list(detector.detect(image) if detected is None else detected)
    if refine:
        grey = grey_for_refine(image)
        found = [replace(f, corners=refine_quad(grey, f.corners)) for f in found]
    if also_classic:
        learned = list(found)
        for card in find_cards(image, finder or STILL_IMAGE):
            if all(box_iou(card.bbox(), other.bbox()) < 0.5 for other in learned):
                found.append(card)
    return found


def read_cards(image: np.ndarray, recognizer: Recognizer, *, deck: Deck | None = None,
               finder: FinderConfig | None = None, keep_none: bool = False,
               detector: CardDetector | None = None, also_classic: bool = False,
               profile: DeckProfile | None = None, refine: bool = True,
               whole_if_none: float | None = None,
               corners: CornerFinder | None = None,
               floor: float = READ_FLOOR) -> list[ImageCard]:  # fmt: skip
    """Every card found in ``image`` with its reading (weighed by the deck ``profile`` of the
    cards in use, when given; its deck is then the deck).

    Cards are found by ``find_in_still``: the classical finder (``finder``, default
    ``STILL_IMAGE``), or the learned ``detector`` (alone, or with ``also_classic`` completed by
    the classical finder's other regions).

    Regions read as 'no card' are dropped (unless ``keep_none``: then their best card reading
    is kept), and so is a region nested inside another one that was read more confidently
    (a court card's picture frame, say). Each card kept carries the box of the part of it that
    shows (``ImageCard.visible_bbox``). A card partly out of the photo is read with the
    photo's edge repeated over its missing part (``warp_card(repeat_edge=True)``).

    ``whole_if_none``: a commit threshold; when no card is found at it (nothing, only regions
    read as no card, or only cards read below it: parts of a card that fills the photo), the
    photo is read as one card (``read_whole``, with the ``detector``), and taken instead when
    read as a card at the read ``floor`` or above and surer than each card read (asked below
    the threshold; experiments 79 and 88: a close card's pieces are read weakly), unless it
    names a card found apart in the photo: that card then keeps its place (``found_apart``).
    Where the one card read at it is read by its corner index alone beside regions read below
    it only (``one_index_among_pieces``), the photo is read whole too, and where that names the
    same card, the photo is that one card (experiment 107: a close card's index and pieces).

    ``corners``: the corner-index finder (``vision.corner_finder``), for French-suited decks of
    one copy of each card: the cards it reads by their indices join the cards found, and where
    both read the same card the surer reading stays (``with_index_cards``): the cards of a fan
    or a pile that show only a strip are found by their index (``found_by`` "index"): their
    corners those of the card found whole that they lie under, moved onto the surest index
    (``placed_whole``), else those of the index's box; where the index lies in an index corner
    of a region found but read below the ``floor``, that region's (``regions_of_indices``).

    ``floor``: a card read below it is no card (unless ``keep_none``), the whole photo too.
    """
    # the detector's passes run once: for the cards found, and for the photo read as one card
    detections = (
        detector.detect_with_zoom(image)
        if detector is not None and whole_if_none is not None
        else None
    )
    cards = _read_found(image, recognizer, deck=deck, finder=finder, keep_none=keep_none,
                        detector=detector, also_classic=also_classic, profile=profile,
                        refine=refine,
                        detected=None if detections is None else detections[0])  # fmt: skip
    if corners is not None:
        from vision.still_index import (
            by_index,
            placed_whole,
            regions_of_indices,
            with_index_cards,
        )

        cards = with_index_cards(
            cards, by_index(image, corners, deck or getattr(profile, "deck", None))
        )
        cards = placed_whole(image.shape, cards)
        if not keep_none:
            cards = regions_of_indices(cards, floor)
    if not keep_none:
        cards = [c for c in cards if c.confidence >= floor]
    if whole_if_none is None:
        return cards
    sure = [c for c in cards if c.confidence >= whole_if_none]
    if sure:
        if keep_none or not one_index_among_pieces(cards, sure):
            return cards
        # one card sure by its index, beside weak pieces: a close card? (experiment 107)
        whole = read_whole(image, recognizer, deck=deck, profile=profile, detector=detector,
                           detections=detections)  # fmt: skip
        index = sure[0]
        if whole is None or whole.card != index.card or whole.confidence < floor:
            return cards
        surer = index if index.confidence >= whole.confidence else whole
        return [replace(whole, confidence=surer.confidence, prediction=surer.prediction,
                        index_box=index.index_box)]  # fmt: skip
    whole = read_whole(image, recognizer, deck=deck, profile=profile, detector=detector,
                       detections=detections)  # fmt: skip
    if whole is None:
        return cards
    if keep_none:
        return [whole] if whole.confidence >= whole_if_none else cards
    # where nothing at all is read, the whole reading is all there is: kept down to the read
    # floor, asked below the threshold (experiment 79); beside weak cards, where it is surer
    # than each of them (experiment 88)
    surest = max((c.confidence for c in cards), default=0.0)
    if whole.confidence < floor or whole.confidence <= surest:
        return cards
    # unless the card read whole is a card found apart in the photo (experiment 103b)
    apart = found_apart(image.shape, cards, whole)
    return [whole] if apart is None else apart


def one_index_among_pieces(cards: list[ImageCard], sure: list[ImageCard]) -> bool:
    """Whether the one card read ``sure`` is read by its corner index alone and every other
    card read, one at least, is a region (of the detector or the finder) read below it: in a
    close crop, its card's index and pieces of its face (experiment 107)."""
    if len(sure) != 1 or sure[0].found_by != "index":
        return False
    others = [c for c in cards if c is not sure[0]]
    return bool(others) and all(c.found_by == "finder" for c in others)


# a card found whose part in the photo covers at most this share of it is not the photo edge to
# edge (experiment 103: single-0015's 6D, partly out of the photo, covers 0.72 of it)
APART_COVER = 0.8


def found_apart(shape: tuple[int, ...], cards: list[ImageCard],
                whole: ImageCard) -> list[ImageCard] | None:  # fmt: skip
    """Where the photo read ``whole`` names a card found in it by the detector or the finder,
    its part in the photo over at most ``APART_COVER`` of it, the photo is not that card edge
    to edge: that card where it was found (the surest such, with the whole reading where it
    is surer), and beside it the other cards read by their corner index whose index lies
    outside it (cards apart). Regions read as other cards are pieces of a card too close for
    the detector's quad (and those inside it pieces of it), an index of the same card its
    other corner. None where no such card is found (experiments 103 and 103b)."""
    h, w = shape[:2]
    photo = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)

    def cover(c: ImageCard) -> float:  # the share of the photo the card's part in it covers
        quad = cv2.convexHull(np.array(c.corners, np.float32))
        return float(cv2.intersectConvexConvex(photo, quad)[0]) / float(w * h)

    same = [c for c in cards
            if c.found_by == "finder" and c.card == whole.card
            and cover(c) <= APART_COVER]  # fmt: skip
    if not same:
        return None
    card = max(same, key=lambda c: c.confidence)
    if whole.confidence > card.confidence:
        card = replace(card, confidence=whole.confidence, prediction=whole.prediction)
    out = [card]
    for other in cards:
        middle = other.index_middle()
        if other.found_by == "index" and middle is not None and other.card != card.card:
            if not card.holds(middle):
                out.append(other)
    return out


def checked(preds: list[Prediction], quads: Sequence[np.ndarray],
            check: PhotoCheck) -> list[Prediction]:  # fmt: skip
    """``preds`` (with their embeddings) with each isolated region that ``check`` doubts is a
    card read as 'none', its reading kept first among the alternatives
    (``vision.photo_check``); the embeddings are not kept."""
    shares = covered_shares(quads)
    out: list[Prediction] = []
    for pred, share in zip(preds, shares, strict=True):
        plain = replace(pred, features=None)
        if share < check.isolated and pred.is_card and pred.features is not None:
            card = float(check.card_probability(pred.features[None, :])[0])
            if card < check.threshold:
                plain = replace(plain, label=NONE_LABEL, confidence=1.0 - card,
                                alternatives=((pred.label, pred.confidence), *pred.alternatives))  # fmt: skip
        out.append(plain)
    return out


def _read_found(image: np.ndarray, recognizer: Recognizer, *, deck: Deck | None,
                finder: FinderConfig | None, keep_none: bool, detector: CardDetector | None,
                also_classic: bool, profile: DeckProfile | None, refine: bool,
                detected: list[DetectedCard] | None = None) -> list[ImageCard]:  # fmt: skip
    """``read_cards`` without the whole photo."""
    found = find_in_still(image, finder=finder, detector=detector, also_classic=also_classic,
                          refine=refine, detected=detected)  # fmt: skip
    crops = [warp_card(image, f.corners, repeat_edge=True) for f in found]
    if profile is not None:
        deck = deck or profile.deck
    faces = None
    if recognizer.index is not None and profile is None:  # for the corner-index reader
        faces = [face_of(image, f.corners) for f in found]
    check = recognizer.check if profile is None else None
    preds = recognizer.predict(crops, deck, profile=profile, faces=faces,
                               keep_features=check is not None)  # fmt: skip
    if check is not None:
        preds = checked(preds, [f.corners for f in found], check)
    score = [p.confidence if p.is_card else 0.0 for p in preds]
    nested = {
        i
        for i, f in enumerate(found)
        for j, g in enumerate(found)
        if i != j and score[j] > score[i] and inside(f.corners, g.corners)
    }
    kept: list[ImageCard] = []
    hints: list[Box | None] = []  # the visible part, as a detector sees it
    for i, (f, pred) in enumerate(zip(found, preds, strict=True)):
        if i in nested:
            continue
        if not pred.is_card:
            if not keep_none or not pred.alternatives:
                continue
            label, prob = next(
                ((lb, p) for lb, p in pred.alternatives if lb != "none"), (None, 0.0)
            )
            if label is None:
                continue
            pred = Prediction(label, prob, pred.alternatives)
        card_deck = deck or pred.deck
        hints.append(getattr(f, "visible", None))
        kept.append(
            ImageCard(
                card=pred.card,
                face=pred.face,
                deck=card_deck,
                confidence=pred.confidence,
                corners=tuple((float(x), float(y)) for x, y in f.corners),
                prediction=pred,
            )
        )
    quads = [np.array(c.corners, np.float32) for c in kept]
    shown = visible_boxes(image.shape, quads)
    # a detector that predicts the visible part (under other cards and hands) narrows it
    shown = [_narrower(v, hint) for v, hint in zip(shown, hints, strict=True)]
    return [replace(c, visible=v) for c, v in zip(kept, shown, strict=True)]


# A card face's size (vision.card_faces's FACE_H x FACE_W): a whole photo is stretched to it, as
# ``training.real_crops.face`` makes the real faces the classifier learns from.
WHOLE_FACE_H, WHOLE_FACE_W = 210, 150


def whole_crop(image: np.ndarray) -> np.ndarray:
    """A photo that is one card, edge to edge, as a card face: a landscape photo turned a
    quarter clockwise to portrait, then stretched to ``WHOLE_FACE_H`` x ``WHOLE_FACE_W``."""
    h, w = image.shape[:2]
    if w > h:
        image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
    return cv2.resize(image, (WHOLE_FACE_W, WHOLE_FACE_H), interpolation=cv2.INTER_AREA)


def read_whole(image: np.ndarray, recognizer: Recognizer, *, deck: Deck | None = None,
               profile: DeckProfile | None = None,
               detector: CardDetector | None = None,
               detections: Detections | None = None,
               one_card: bool = False) -> ImageCard | None:  # fmt: skip
    """The photo read as one card (``found_by`` "whole"): the whole photo (``whole_crop``; its
    corners the photo's), or, with a ``detector``, the card it finds covering the most of the
    photo (at least ``ONE_CARD_SHARE``; its corners) when that reads surer: a card turned or
    tilted in a photo cut around it, whose stretched photo puts its indices away from the
    face's corners (experiment 39). None when read as no card, unless ``one_card``: the photo
    is known to be one card (``kibic vision classify --whole``), so a reading of no card (by
    the classifier or its gate) gives the card ranked first instead, always asked
    (``asked_best_card``, experiment 50). ``detections``: ``detector.detect_with_zoom(image)``
    made already (the detector is not run again)."""
    if profile is not None:
        deck = deck or profile.deck
    face = whole_crop(image)
    (pred,) = recognizer.predict([face], deck, profile=profile, faces=[face])
    h, w = image.shape[:2]
    corners: Corners = (
        (0.0, 0.0), (float(w), 0.0), (float(w), float(h)), (0.0, float(h)),
    )  # fmt: skip
    quad = _one_card(image, detector, detections) if detector is not None else None
    readings = [(pred, corners)]
    if quad is not None:
        crop = warp_card(image, quad, repeat_edge=True)
        (turned,) = recognizer.predict([crop], deck, profile=profile,
                                       faces=[face_of(image, quad)])  # fmt: skip
        readings.append((turned, tuple((float(x), float(y)) for x, y in quad)))
        if turned.is_card and (not pred.is_card or turned.confidence > pred.confidence):
            pred, corners = readings[1]
    if not pred.is_card:
        best = asked_best_card(readings) if one_card else None
        if best is None:
            return None
        pred, corners = best
    return ImageCard(card=pred.card, face=pred.face, deck=deck or pred.deck,
                     confidence=pred.confidence, corners=corners, prediction=pred,
                     found_by="whole")  # fmt: skip


def asked_best_card(
    readings: list[tuple[Prediction, Corners]],
) -> tuple[Prediction, Corners] | None:
    """Of readings of one card that each say no card, the card any of them ranks first among
    its alternatives (under the gate's veto, the classifier's own reading), with the corners
    it was read in; always asked (``committable`` False). None when none names a card."""
    best: tuple[float, str, int] | None = None
    for k, (p, _) in enumerate(readings):
        for label, q in ((p.label, p.confidence), *p.alternatives):
            if label != NONE_LABEL and (best is None or q > best[0]):
                best = (q, label, k)
    if best is None:
        return None
    q, label, k = best
    pred, corners = readings[k]
    rest = tuple((lab, c) for lab, c in ((pred.label, pred.confidence), *pred.alternatives)
                 if lab != label)  # fmt: skip
    return replace(pred, label=label, confidence=q, alternatives=rest, committable=False), corners


# the least share of the photo a found card covers to be taken as the photo's one card
ONE_CARD_SHARE = 0.25


def _one_card(image: np.ndarray, detector: CardDetector,
              detections: Detections | None = None) -> np.ndarray | None:  # fmt: skip
    """The quad of the card ``detector`` finds covering the most of ``image`` (moved onto its
    edges), when it covers at least ``ONE_CARD_SHARE`` of it: by its passes and by its zoom-out
    pass alone, at its least threshold (the photo is known to be one card; ``detections``:
    ``detector.detect_with_zoom(image)``, made here when not given)."""
    h, w = image.shape[:2]
    best, share = None, ONE_CARD_SHARE
    cards, zoomed = detections if detections is not None else detector.detect_with_zoom(image)
    for card in [*cards, *zoomed]:
        inter, _ = cv2.intersectConvexConvex(
            card.corners.astype(np.float32),
            np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32),
        )
        if inter / (h * w) >= share:
            best, share = card.corners, inter / (h * w)
    if best is None:
        return None
    return refine_quad(grey_for_refine(image), best)


def _narrower(box: Box | None, hint: Box | None) -> Box | None:
    """``box`` cut to ``hint`` (where they overlap; else ``box``)."""
    if box is None or hint is None:
        return box
    x0, y0 = max(box[0], hint[0]), max(box[1], hint[1])
    x1, y1 = min(box[2], hint[2]), min(box[3], hint[3])
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else box
