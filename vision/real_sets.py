"""One evaluation over every real photo set (``kibic vision eval --real-sets``, the benchmark).

The sets are those of ``../shared/data/real-photos`` (its ``SETS.md`` says what each may be
used for), each part on its own line:

- ``edje-cards train``: phone photos with a VOC box on every card, rank labels: box recall
  (``vision.evaluate``, visible boxes) and rank accuracy of the cards found;
- ``card-crops`` train and tune parts (``training.real_crops.split``): each photo is one card,
  read whole as one card (``vision.pipeline.read_whole`` with ``one_card``, as ``kibic vision
  classify --whole``: since experiment 50 one read as no card is given its best card, asked,
  so "found", read as a card at all, is every photo), and the accuracy is of the card (rank
  and suit) over all photos; the tune part also as ``kibic vision classify`` reads a photo by
  default, not told it is one card (``card_crops_by_default``, experiment 77): right where its
  card and nothing else is read, every other card read one that is not there;
- ``corner-boxes`` desk, single and gold-deck, train and tune photos
  (``training.real_finder_crops.photos``): a card of a photo is found when a card found by the
  still-photo path (as ``kibic vision classify`` reads it) holds corner boxes of that card and
  of no other, or was read by a corner index whose box holds them (``label_at``); its reading
  is that of the most confident such found card, and the accuracy is of the card over the
  cards found;
- ``edje-cards test``: evaluation only, and only when asked for (``include_test``); no
  threshold or option is ever chosen on it.

``held_out`` keeps only the parts that no training used: the tune parts of card-crops and of
corner-boxes. ``limit`` reads a seeded sample of each part. Each part's readings, (confidence,
right), give its calibration and what a commit threshold does to it (``vision.reliability``).
This module reads the splits of ``training`` (an evaluation tool: the table never needs it).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from referee.cards import Card, Deck
from vision.evaluate import evaluate_images, not_there, rounded_interval, wilson_interval
from vision.pipeline import READ_FLOOR, ImageCard, read_cards, read_whole
from vision.recognizer import Recognizer
from vision.reliability import (
    at_threshold,
    commit_threshold,
    expected_calibration_error,
    reliability_bins,
)

if TYPE_CHECKING:
    from training.real_finder_crops import CornerBox
    from vision.corner_finder import CornerFinder
    from vision.detector import CardDetector

REAL_PHOTOS = Path(
    os.environ.get(
        "KIBIC_REAL_PHOTOS",
        str(Path(__file__).resolve().parents[2] / "shared" / "data" / "real-photos"),
    )
)
EDJE = REAL_PHOTOS / "edje-cards" / "images"
SAMPLE_SEED = 20261204  # the seed of ``limit``'s sample of each part
DECK = Deck.FRENCH_53  # the decks of every real set: French cards, some with a Joker


@dataclass
class SetReport:
    """The counts of one part of a real set. ``measure``: "card" (rank and suit) or "rank"
    (edje-cards labels name the rank alone)."""

    name: str
    measure: str
    images: int = 0
    cards: int = 0  # labelled cards
    found: int = 0
    right: int = 0
    whole: int = 0  # photos read whole because the finder found nothing
    readings: list[tuple[float, bool]] = field(default_factory=list)
    # whether each of ``readings`` may be committed (a Joker is asked whatever its confidence)
    committable: list[bool] = field(default_factory=list)
    # (confidence, committable) of each reading naming a card that is not in its photo
    # (corner-boxes: no label of that card; edje-cards: none of that rank)
    phantoms: list[tuple[float, bool]] = field(default_factory=list)
    # of ``phantoms``: those read where a labelled card lies (corner-boxes: ``label_at``;
    # edje-cards: ``vision.evaluate.on_a_label``), a card that is there misread or a piece of
    # it read as another card; the rest lie on no labelled card (print, objects, a card whose
    # indices nobody labelled)
    phantoms_on_cards: int = 0
    accuracy_of_all: bool = False  # card-crops: the accuracy counts every photo, found or not
    # card-crops read whole: one reading a photo, and a wrong one misreads the card (no
    # reading of a card not there); read as ``classify`` reads by default, every card read
    # but the photo's own is one not there
    phantoms_counted: bool = True

    @property
    def accuracy_base(self) -> int:
        return self.cards if self.accuracy_of_all else self.found

    def _not_there(self, threshold: float) -> dict[str, object]:
        one_card = not self.phantoms_counted
        return {
            "not_there": None if one_card else len(self.phantoms),
            "not_there_per_100_cards": _round(100 * len(self.phantoms) / self.cards)
            if self.cards and not one_card
            else None,
            "not_there_committed": None
            if one_card
            else sum(c >= threshold and may for c, may in self.phantoms),
            "not_there_on_a_labelled_card": None if one_card else self.phantoms_on_cards,
        }

    def summary(self, threshold: float) -> dict[str, object]:
        at = at_threshold(self.readings, threshold, self.committable or None)
        return {
            "images": self.images,
            "cards": self.cards,
            "found": self.found,
            "box_recall": _share(self.found, self.cards),
            "box_recall_95": rounded_interval(wilson_interval(self.found, self.cards)),
            "measure": self.measure,
            "accuracy": _share(self.right, self.accuracy_base),
            "accuracy_95": rounded_interval(wilson_interval(self.right, self.accuracy_base)),
            "read_whole": self.whole,
            "threshold": threshold,
            "committed": at.committed,
            "asked": at.asked,
            "wrong_committed": at.wrong,
            "wrong_committed_95": rounded_interval(at.wrong_95),
            # readings of cards not in the photo; none for photos of one card each, where a
            # wrong reading is a misreading of the card
            **self._not_there(threshold),
            "ece": _round(expected_calibration_error(self.readings)),
            "reliability": [
                {
                    "bin": f"{b.low:.1f}-{b.high:.1f}",
                    "count": b.count,
                    "mean_confidence": _round(b.mean_confidence),
                    "accuracy": _round(b.accuracy),
                }
                for b in reliability_bins(self.readings)
            ],  # fmt: skip
        }


def _share(hits: int, total: int) -> float | None:
    return round(hits / total, 4) if total else None


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def sample(items: Sequence[Path], limit: int | None, seed: int = SAMPLE_SEED) -> list[Path]:
    """``limit`` of ``items`` drawn with ``seed``, in their order; all of them without one."""
    if limit is None or limit >= len(items):
        return list(items)
    if limit < 1:
        raise ValueError(f"a limit of {limit}: at least one photo a set")
    chosen = np.random.default_rng(seed).choice(len(items), size=limit, replace=False)
    return [items[int(i)] for i in sorted(chosen)]


@dataclass(frozen=True)
class Reader:
    """How the photos are read: as ``kibic vision classify`` reads them."""

    recognizer: Recognizer
    deck: Deck = DECK
    detector: CardDetector | None = None
    also_classic: bool = False
    refine: bool = True
    whole_if_none: float | None = None  # see ``vision.pipeline.read_cards``
    corners: CornerFinder | None = None  # likewise
    floor: float = READ_FLOOR  # likewise

    @classmethod
    def as_classify(cls, recognizer: Recognizer, detector: CardDetector | None) -> Reader:
        """As ``kibic vision classify`` reads by default: the photo read whole where no card is
        read at the classifier's commit threshold, the cards read by their corner indices with
        the still photos' box reader."""
        from vision.corner_finder import CornerFinder, still_reader

        return cls(recognizer, detector=detector,
                   whole_if_none=commit_threshold(recognizer.path),
                   corners=CornerFinder(reader_path=still_reader()))  # fmt: skip

    def cards(self, image: np.ndarray) -> list[ImageCard]:
        return read_cards(image, self.recognizer, deck=self.deck, detector=self.detector,
                          also_classic=self.also_classic, refine=self.refine,
                          whole_if_none=self.whole_if_none, corners=self.corners,
                          floor=self.floor)  # fmt: skip


def edje(name: str, paths: Sequence[Path], reader: Reader) -> SetReport:
    """Photos with VOC boxes and rank labels (visible boxes, labels paired for the most found)."""
    ev = evaluate_images(paths, reader.recognizer, deck=reader.deck, detector=reader.detector,
                         also_classic=reader.also_classic, refine=reader.refine,
                         whole_if_none=reader.whole_if_none, corners=reader.corners,
                         floor=reader.floor)  # fmt: skip
    return SetReport(name, "rank", images=ev.images, cards=ev.boxes, found=ev.found,
                     right=ev.rank_correct, readings=list(ev.readings),
                     committable=list(ev.committable), phantoms=list(ev.phantoms),
                     phantoms_on_cards=ev.phantoms_on_cards)  # fmt: skip


def card_crops(name: str, paths: Sequence[Path], reader: Reader) -> SetReport:
    """Photos that are each one card, in a folder named by its code (where no erratum says the
    photo shows another: ``training.real_crops.code_of``): read whole."""
    from training.real_crops import code_of

    report = SetReport(name, "card", accuracy_of_all=True, phantoms_counted=False)
    for path in paths:
        image = _image(path)
        report.images += 1
        report.cards += 1
        card = read_whole(image, reader.recognizer, deck=reader.deck, detector=reader.detector,
                          one_card=True)  # fmt: skip
        if card is None:
            continue
        report.found += 1
        right = card.card.code == Card.parse(code_of(path)).code
        report.right += right
        report.readings.append((card.confidence, right))
        report.committable.append(card.committable)
    return report


def card_crops_by_default(name: str, paths: Sequence[Path], reader: Reader) -> SetReport:
    """Photos that are each one card, read as ``kibic vision classify`` reads a photo it is not
    told is one card (no ``--whole``): ``read_cards``, the photo read whole where nothing is
    found at the commit threshold (``whole_if_none``). "Found": some card is read; right: the
    photo's card and nothing else; its reading (for calibration) is that of the photo's card
    where read, else the surest; every other card read is one that is not there (lying on the
    photo's card, which fills the photo)."""
    from training.real_crops import code_of

    as_classify = replace(reader, whole_if_none=commit_threshold(reader.recognizer.path))
    report = SetReport(name, "card", accuracy_of_all=True)
    for path in paths:
        code = Card.parse(code_of(path)).code
        cards = as_classify.cards(_image(path))
        report.images += 1
        report.cards += 1
        others = [c for c in cards if c.card.code != code]
        report.phantoms += [(c.confidence, c.committable) for c in others]
        report.phantoms_on_cards += len(others)
        if not cards:
            continue
        report.found += 1
        report.right += not others
        own = [c for c in cards if c.card.code == code]
        reading = max(own or cards, key=lambda c: c.confidence)
        report.readings.append((reading.confidence, bool(own)))
        report.committable.append(reading.committable)
    return report


def corner_boxes(name: str, paths: Sequence[Path], reader: Reader) -> SetReport:
    """Photos with a box on each corner index (``training.real_finder_crops``): a card is found
    when a found card holds its corner boxes and no other card's (a card read by a corner
    index: when that index's box holds one of its boxes)."""
    from training.real_finder_crops import read_labels

    report = SetReport(name, "card")
    for path in paths:
        image = _image(path)
        h, w = image.shape[:2]
        boxes = read_labels(path.parent.parent / "labels" / f"{path.stem}.txt", w, h)
        codes = {b.code for b in boxes if b.code != "back"}
        cards = reader.cards(image)
        labels = [label_at(c, boxes) for c in cards]  # the labelled card each is paired with
        report.images += 1
        report.cards += len(codes)
        if codes:  # (a photo with no label at all is one nobody labelled: gold-deck-0101)
            wrong = [k for k, c in enumerate(cards) if not_there(c.card, sorted(codes))]
            report.phantoms += [(cards[k].confidence, cards[k].committable) for k in wrong]
            report.phantoms_on_cards += sum(labels[k] is not None for k in wrong)
        report.whole += any(c.found_by == "whole" for c in cards)
        for label, card in surest_by_label(cards, labels).items():
            right = card.card.code == Card.parse(label).code
            report.found += 1
            report.right += right
            report.readings.append((card.confidence, right))
            report.committable.append(card.committable)
    return report


def surest_by_label(cards: Sequence[ImageCard],
                    labels: Sequence[str | None]) -> dict[str, ImageCard]:  # fmt: skip
    """Labelled card -> the surest of ``cards`` paired with it (``labels``: each card's, from
    ``label_at``; None: none)."""
    best: dict[str, ImageCard] = {}
    for card, label in zip(cards, labels, strict=True):
        if label is not None and (label not in best or card.confidence > best[label].confidence):
            best[label] = card
    return best


def label_at(card: ImageCard, boxes: Sequence[CornerBox]) -> str | None:
    """The labelled card that ``card`` is paired with: where it was read by a corner index,
    that index's box names it (the reading is the index's; the card's whole quad may also
    hold the index of a card lying over it, experiment 44); else the corner boxes inside its
    quad, when they name one card (``training.real_finder_crops.label_of``)."""
    from training.real_finder_crops import label_of

    if card.index_box is not None:
        x0, y0, x1, y1 = card.index_box
        quad = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        label = label_of(np.asarray(quad, np.float32), boxes)
        if label is not None:
            return label
    return label_of(np.asarray(card.corners, np.float32), boxes)


def _image(path: Path) -> np.ndarray:
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError(f"{path}: not an image")
    return image


# parts that read the photos of another part again, another way: left out where readings are
# pooled over the parts (``kibic vision threshold``), which would count those photos twice
READ_AGAIN = frozenset({"card-crops tune part, default options"})

Part = tuple[str, Callable[[str, Sequence[Path], Reader], SetReport], list[Path]]


def parts(*, held_out: bool = False, include_test: bool = False) -> list[Part]:
    """(name, how it is measured, photos) of each part of the real sets; a set that is not in
    ``REAL_PHOTOS`` raises FileNotFoundError naming it."""
    from training import real_crops, real_finder_crops

    out: list[Part] = []
    if not held_out:
        out.append(("edje-cards train", edje, edje_photos("train")))
    train, tune = real_crops.split(REAL_PHOTOS / "card-crops" / "images")
    if not held_out:
        out.append(("card-crops train part", card_crops, [c.path for c in train]))
    out.append(("card-crops tune part", card_crops, [c.path for c in tune]))
    out.append(("card-crops tune part, default options", card_crops_by_default,
                [c.path for c in tune]))  # fmt: skip
    if not real_finder_crops.CORNERS.is_dir():
        raise FileNotFoundError(f"no corner-boxes photos in {real_finder_crops.CORNERS}")
    for folder in real_finder_crops.FOLDERS:
        folder_train, folder_tune = real_finder_crops.photos(folder)
        if not held_out:
            out.append((f"corner-boxes {folder} train part", corner_boxes, folder_train))
        out.append((f"corner-boxes {folder} tune part", corner_boxes, folder_tune))
    if include_test:
        out.append(("edje-cards test (evaluation only)", edje, edje_photos("test")))
    return out


def edje_photos(split: str) -> list[Path]:
    folder = EDJE / split
    if not folder.is_dir():
        raise FileNotFoundError(f"no edje-cards photos in {folder} (set KIBIC_REAL_PHOTOS)")
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))


def evaluate_real_sets(reader: Reader, *, held_out: bool = False, include_test: bool = False,
                       limit: int | None = None) -> Iterator[SetReport]:  # fmt: skip
    """Each part's report in turn (see the module's docstring)."""
    for name, measure, photos in parts(held_out=held_out, include_test=include_test):
        yield measure(name, sample(photos, limit), reader)
