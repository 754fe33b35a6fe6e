"""Accuracy on labelled photographs: Pascal VOC folders and folders of images named by card.

VOC labels may be rank names (``nine`` .. ``ace``, as in the real-photo set) or card codes.
A labelled box is *found* when a found card's box overlaps it with IoU >= 0.5; rank accuracy
is over found boxes. The cards are those ``kibic vision classify`` shows: regions read as no
card are dropped (up to experiment 12 they were kept with their best card reading,
``keep_none=True``; on the real photos' train split both gave the same 522 cards found).

Which box of a found card is compared (``boxes``):

- ``visible`` (the default): the box of the part of the card that shows
  (``ImageCard.visible_bbox``: inside the photo and, where the learned detector predicts it,
  not under other cards or a hand) against the label's ``bndbox``, which the Pascal VOC
  guidelines draw around the visible part of an object;
- ``whole``: the whole card's box against the label's ``wholebox`` (a Kibic addition in
  ``training.photo_eval`` sets), else its ``bndbox`` (how Kibic measured up to experiment 4);
- ``either`` (experiment 22): the larger IoU of the label's ``bndbox`` with the card's visible box
  or with its whole box, for labels drawn by people who mixed the two conventions. On the
  real photos' train split, of 74 partly covered cards 46 labels fit the visible part better
  and 10 the whole card (``models/MODEL_HISTORY.md``, experiment 22). A second view beside
  ``visible``, not a replacement: a card mostly under another can lend its whole box to the
  label of the card over it.

How labels and found cards are paired (``matching``), each at most once:

- ``best`` (the default since experiment 17): the most labels found, then the largest total IoU
  (``vision.matching.match_boxes``), whatever the order of the objects in the xml;
- ``order`` (experiments 1 to 16): each label in the xml's order takes the unused card that
  overlaps it most, so an early label can take the card a later one needed while another card
  would have fitted it (in tight piles), and the count depends on the order of the labels.

Each label not found is counted under its cause (``EvalReport.misses``, ``MISS_CAUSES``): a
found card overlapping it is paired with another label ("shared"), the best found card is off
its box ("box off"), no found card is near it but a region read as no card would have been
found ("read as no card"; ``evaluate_folder`` reads such a photo again to tell), or nothing is
near it ("nothing near").
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2

from referee.cards import Card, Deck, Rank
from referee.errors import CardError
from vision.finder import box_iou
from vision.label_errata import fixed
from vision.matching import match_boxes
from vision.pipeline import READ_FLOOR, ImageCard, read_cards
from vision.recognizer import Recognizer
from vision.sources import IMAGE_SUFFIXES
from vision.visibility import Box

if TYPE_CHECKING:
    from vision.corner_finder import CornerFinder
    from vision.deck_profile import DeckProfile
    from vision.detector import CardDetector

RANK_NAMES = {"two": Rank.TWO, "three": Rank.THREE, "four": Rank.FOUR, "five": Rank.FIVE,
              "six": Rank.SIX, "seven": Rank.SEVEN, "eight": Rank.EIGHT, "nine": Rank.NINE,
              "ten": Rank.TEN, "jack": Rank.JACK, "queen": Rank.QUEEN, "king": Rank.KING,
              "ace": Rank.ACE, "joker": Rank.JOKER}  # fmt: skip


NEAR_IOU = 0.25  # a label not found whose best found card overlaps it this much: "box off"
# Why a label was not found (``EvalReport.misses``), from the found cards alone:
# "shared": a found card overlaps it enough (IoU >= MATCH_IOU) but is paired with another
#   label, typically two cards of a tight pile or fan given one detection;
# "box off": the best found card overlaps it by NEAR_IOU to MATCH_IOU (a quad off the card);
# "read as no card": no found card overlaps it that much, but a region the classifier read as
#   no card (and ``classify`` drops) would have been found (``evaluate_folder`` only);
# "nothing near": no found card overlaps it that much, nor any region read as no card.
MISS_CAUSES: tuple[str, ...] = ("shared", "box off", "read as no card", "nothing near")


@dataclass
class EvalReport:
    """Counts from one folder."""

    images: int = 0
    boxes: int = 0
    found: int = 0
    rank_correct: int = 0
    card_correct: int = 0
    card_labelled: int = 0
    detections: int = 0
    mistakes: list[str] = field(default_factory=list)
    misses: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MISS_CAUSES, 0))
    # (confidence, right) of each label found: its card where the label names one, else its
    # rank (``vision.reliability``)
    readings: list[tuple[float, bool]] = field(default_factory=list)
    # whether each of ``readings`` may be committed (a Joker is asked whatever its confidence)
    committable: list[bool] = field(default_factory=list)
    # (confidence, committable) of each reading that names a card not in its photo
    # (``not_there``)
    phantoms: list[tuple[float, bool]] = field(default_factory=list)
    # of ``phantoms``: those read where a labelled card lies (``on_a_label``): a card that is
    # there misread, or a piece of it read as another card; the others lie on no labelled card
    phantoms_on_cards: int = 0
    # labels named by a reading that lies on them (``named_on``): its card (its rank where the
    # label names the rank alone), the centre of its part that shows in the label's box. Unlike
    # ``found`` (IoU >= 0.5), it counts a card read by a corner index alone whose box is the
    # index's, where no card found whole lets it be drawn whole (experiments 60 and 61)
    named_on_card: int = 0

    @property
    def box_recall(self) -> float:
        return self.found / self.boxes if self.boxes else 0.0

    @property
    def precision(self) -> float:
        """Share of the detections that matched a labelled card (IoU >= 0.5)."""
        return self.found / self.detections if self.detections else 0.0

    @property
    def rank_accuracy(self) -> float:
        return self.rank_correct / self.found if self.found else 0.0

    def summary(self) -> dict[str, object]:
        return {
            "images": self.images,
            "boxes": self.boxes,
            "found": self.found,
            "box_recall": round(self.box_recall, 4),
            "box_recall_95": rounded_interval(wilson_interval(self.found, self.boxes)),
            "rank_accuracy": round(self.rank_accuracy, 4),
            "rank_accuracy_95": rounded_interval(wilson_interval(self.rank_correct, self.found)),
            "card_accuracy": round(self.card_correct / self.card_labelled, 4)
            if self.card_labelled
            else None,
            "detections": self.detections,
            "precision": round(self.precision, 4),
            "misses": dict(self.misses),
            "named_on_card": self.named_on_card,
            "named_on_card_95": rounded_interval(wilson_interval(self.named_on_card, self.boxes)),
        }


def wilson_interval(hits: int, total: int, z: float = 1.96) -> tuple[float, float] | None:
    """The Wilson score interval of a share ``hits / total`` (95 % with the default ``z``);
    None when there is nothing to count. A few hundred labelled cards pin a recall down only
    to a few points: 136 of 143 is 90.2 to 97.6 %. (E. B. Wilson, "Probable inference, the law
    of succession, and statistical inference", JASA 22, 1927; recommended over the normal
    approximation by Agresti and Coull, The American Statistician 52, 1998.) Computed by
    SciPy (the evaluation extra).

    >>> [round(v, 3) for v in wilson_interval(136, 143)]
    [0.902, 0.976]
    """
    if total <= 0:
        return None
    if not 0 <= hits <= total:
        raise ValueError(f"{hits} hits of {total} is not a share")
    try:
        from scipy.stats import binomtest, norm
    except ImportError:
        raise ImportError("the evaluation needs SciPy: pip install -e '.[eval]'") from None
    level = 2 * float(norm.cdf(z)) - 1  # z = 1.96: 95 %
    ci = binomtest(hits, total).proportion_ci(confidence_level=level, method="wilson")
    return float(ci.low), float(ci.high)


def rounded_interval(interval: tuple[float, float] | None) -> list[float] | None:
    """An interval's ends to four places, as the reports print them."""
    return None if interval is None else [round(interval[0], 4), round(interval[1], 4)]


iou = box_iou  # of two (x0, y0, x1, y1) boxes


def parse_label(text: str) -> tuple[Rank, Card | None]:
    """A VOC label: a rank name (``queen``) or a card code (``QH``)."""
    key = text.strip().lower()
    if key in RANK_NAMES:
        return RANK_NAMES[key], None
    card = Card.parse(text)
    return card.rank, card


BOXES = ("visible", "whole", "either")
MATCHINGS = ("best", "order")
MATCH_IOU = 0.5  # the least IoU of a labelled box and a found card's box that counts


def miss_cause(overlaps: list[float], no_card: Iterable[float] = ()) -> str:
    """Why a label was not found, from its IoU with each found card and with each region read
    as no card (see ``MISS_CAUSES``)."""
    best = max(overlaps, default=0.0)
    if best >= MATCH_IOU:
        return "shared"
    if best >= NEAR_IOU:
        return "box off"
    return "read as no card" if max(no_card, default=0.0) >= MATCH_IOU else "nothing near"


def _check_matching(matching: str) -> None:
    if matching not in MATCHINGS:
        raise ValueError(f"matching must be one of {', '.join(MATCHINGS)}, not {matching!r}")


def _check_boxes(boxes: str) -> None:
    if boxes not in BOXES:
        raise ValueError(f"boxes must be one of {', '.join(BOXES)}, not {boxes!r}")


def read_voc(xml_path: Path, boxes: str = "visible") -> list[tuple[str, Box]]:
    """(label, box) of each object: its ``bndbox``, or with ``boxes="whole"`` its
    ``wholebox`` where there is one; a label found wrong is put right (``vision.label_errata``)."""
    _check_boxes(boxes)
    root = ET.parse(xml_path).getroot()
    out = []
    for k, obj in enumerate(root.iter("object")):
        b = obj.find("wholebox") if boxes == "whole" else None
        if b is None:
            b = obj.find("bndbox")
        name = fixed(xml_path.name, k, obj.findtext("name", ""))
        if b is None:
            continue
        box = tuple(float(b.findtext(k, "0")) for k in ("xmin", "ymin", "xmax", "ymax"))
        out.append((name, box))
    return out  # type: ignore[return-value]


def _score(report: EvalReport, name: str, cards: list[ImageCard], truth: list[tuple[str, Box]],
           boxes: str = "visible", matching: str = "best",
           no_card: Sequence[Box] = ()) -> None:  # fmt: skip
    """Count ``cards`` against the labels ``truth``; ``no_card``: the boxes of the regions
    read as no card, for the cause of each label not found."""
    _check_matching(matching)
    report.images += 1
    report.detections += len(cards)
    seen = _compared(cards, boxes)
    overlaps = [[_overlap(box, s) for s in seen] for _, box in truth]
    if matching == "best":
        pairs = match_boxes(overlaps, MATCH_IOU)
    else:
        pairs = _in_label_order(truth, seen)
    for i, (label, box) in enumerate(truth):
        report.boxes += 1
        best = pairs.get(i, -1)
        if best < 0:
            cause = miss_cause(overlaps[i], (iou(box, d) for d in no_card))
            report.misses[cause] += 1
            report.mistakes.append(f"{name}: {label} not found ({cause})")
            continue
        report.found += 1
        rank, card = parse_label(label)
        got = cards[best].card
        if got.rank == rank:
            report.rank_correct += 1
        else:
            report.mistakes.append(f"{name}: {label} read as {got.code}")
        right = got.rank == rank
        if card is not None:
            right = got.logical == card.logical
            report.card_labelled += 1
            report.card_correct += int(right)
        report.readings.append((cards[best].confidence, right))
        report.committable.append(cards[best].committable)
    report.named_on_card += sum(named_on(cards, label, box) for label, box in truth)
    labels = [t for t, _ in truth]
    if labels:  # (a photo with no label at all is one nobody labelled)
        wrong = [c for c in cards if not_there(c.card, labels)]
        report.phantoms += [(c.confidence, c.committable) for c in wrong]
        report.phantoms_on_cards += sum(on_a_label(c, [b for _, b in truth]) for c in wrong)


def named_on(cards: Sequence[ImageCard], label: str, box: Box) -> bool:
    """Whether one of ``cards`` names ``label``'s card (its rank where it names the rank
    alone) and lies on its ``box`` (``on_a_label``): the card is read, by its face or by a
    corner index, wherever its own box lies."""
    return any(names(c.card, label) and on_a_label(c, [box]) for c in cards)


def names(card: Card, label: str) -> bool:
    """Whether a reading of ``card`` names ``label``: its card, or its rank where the label
    names the rank alone (edje-cards)."""
    rank, labelled = parse_label(label)
    return card.logical == labelled.logical if labelled is not None else card.rank == rank


def on_a_label(card: ImageCard, boxes: Sequence[Box]) -> bool:
    """Whether the centre of the part of ``card`` that shows lies in one of the labelled
    ``boxes`` (x0, y0, x1, y1)."""
    return centre_in(card.visible_bbox(), boxes)


def centre_in(box: Box, boxes: Sequence[Box]) -> bool:
    """Whether the centre of ``box`` (x0, y0, x1, y1) lies in one of ``boxes``."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return any(b[0] <= cx <= b[2] and b[1] <= cy <= b[3] for b in boxes)


def not_there(card: Card, labels: Sequence[str]) -> bool:
    """Whether a reading of ``card`` names a card that none of a photo's ``labels`` is: no
    label of its card, nor of its rank where a label names the rank alone (edje-cards)."""
    return not any(names(card, label) for label in labels)


def _in_label_order(truth: list[tuple[str, Box]], seen: list[tuple[Box, ...]]) -> dict[int, int]:
    """Experiments 1 to 16's matching: each label in the xml's order takes the unused card that
    overlaps it most (IoU >= 0.5)."""
    used: set[int] = set()
    pairs: dict[int, int] = {}
    for k, (_label, box) in enumerate(truth):
        best, best_iou = -1, MATCH_IOU
        for i, s in enumerate(seen):
            if i in used:
                continue
            overlap = _overlap(box, s)
            if overlap >= best_iou:
                best, best_iou = i, overlap
        if best >= 0:
            used.add(best)
            pairs[k] = best
    return pairs


def evaluate_folder(folder: str | Path, recognizer: Recognizer, **options: Any) -> EvalReport:
    """``evaluate_images`` over every photo of ``folder`` (``options`` are its own)."""
    folder = Path(folder)
    images = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    return evaluate_images(images, recognizer, **options)


def evaluate_images(
    images: Iterable[Path],
    recognizer: Recognizer,
    *,
    deck: Deck | None = None,
    detector: CardDetector | None = None,
    also_classic: bool = False,
    profile: DeckProfile | None = None,
    boxes: str = "visible",
    refine: bool = True,
    keep_none: bool = False,
    matching: str = "best",
    whole_if_none: float | None = None,
    corners: CornerFinder | None = None,
    floor: float = READ_FLOOR,
) -> EvalReport:
    """Each of ``images`` read and compared with its labels: VOC xml beside the image when
    present, else the image named by its card (``AS.jpg``). Cards are found by the classical
    still-image finder, or by ``detector`` when given. ``boxes``: which boxes are compared (see
    the module's docstring); ``keep_none``: count a region read as no card, with its best card
    reading (``read_cards``); ``matching``: how labels and found cards are paired (see the
    module's docstring); ``whole_if_none``: a commit threshold; a photo in which no card is read
    at it is read whole as well (``read_cards``); ``corners``: add the cards read by their corner
    indices; ``floor``: a card read below it is no card."""
    _check_boxes(boxes)
    _check_matching(matching)
    report = EvalReport()
    for path in images:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            continue
        xml = path.with_suffix(".xml")
        read = partial(read_cards, image, recognizer, deck=deck, detector=detector,
                       also_classic=also_classic, profile=profile, refine=refine,
                       whole_if_none=whole_if_none, corners=corners,
                       floor=floor)  # fmt: skip
        cards = read(keep_none=keep_none)
        if xml.exists():
            labels = read_voc(xml, boxes)
            no_card: list[Box] = []
            if not keep_none and _any_nothing_near(labels, cards, boxes):
                # read again keeping what was read as no card: which of those were labelled
                shown = {c.corners for c in cards}
                regions = [c for c in read(keep_none=True) if c.corners not in shown]
                no_card = [b for each in _compared(regions, boxes) for b in each]
            _score(report, path.name, cards, labels, boxes, matching, no_card)
            continue
        try:
            truth = Card.parse(path.stem.split("_")[0])
        except CardError:
            continue
        h, w = image.shape[:2]
        biggest = max(cards, key=lambda c: (c.bbox()[2] - c.bbox()[0]) * (c.bbox()[3] - c.bbox()[1]),
                      default=None)  # fmt: skip
        if biggest is None:
            box: Box = (0.0, 0.0, float(w), float(h))
        else:
            box = biggest.bbox() if boxes == "whole" else biggest.visible_bbox()
        _score(
            report, path.name, [biggest] if biggest else [], [(truth.code, box)], boxes, matching
        )
    return report


def _compared(cards: list[ImageCard], boxes: str) -> list[tuple[Box, ...]]:
    """The boxes of each card that are compared with the labels (see ``boxes``)."""
    if boxes == "either":
        return [(c.visible_bbox(), c.bbox()) for c in cards]
    return [(c.visible_bbox(),) if boxes == "visible" else (c.bbox(),) for c in cards]


def _overlap(label: Box, card: tuple[Box, ...]) -> float:
    """The IoU of a label's box with a card's compared boxes: the larger one."""
    return max(iou(label, b) for b in card)


def _any_nothing_near(truth: list[tuple[str, Box]], cards: list[ImageCard], boxes: str) -> bool:
    """Whether a label has no found card over it by ``NEAR_IOU`` or more."""
    seen = _compared(cards, boxes)
    return any(max((_overlap(box, s) for s in seen), default=0.0) < NEAR_IOU for _, box in truth)


def splits(folder: str | Path) -> Iterable[Path]:
    """The folder itself if it holds images, else its sub-folders that do (train/test)."""
    folder = Path(folder)
    if any(p.suffix.lower() in IMAGE_SUFFIXES for p in folder.iterdir()):
        return [folder]
    return sorted(p for p in folder.iterdir() if p.is_dir())
