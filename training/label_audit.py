"""Sheets to look at the real sets' labels by, where the still-photo reader disagrees with them.

A label is put right only by looking at the photo (``vision.label_errata``), but a set of
thousands of photos is not looked at photo by photo. Experiment 101 (models/MODEL_HISTORY.md)
looked where the reader and the labels disagree, and found 17 card-crops photos filed under
another card, seven corner-boxes cards labelled as another and 13 indices with no box. This
module makes that look repeatable: each doubt is a place in a photo, with what the labels say
and what was read, laid in sheets of enlarged tiles (``sheet``) and listed in a JSON file.

- **card-crops**: a photo read whole as another card than its folder's (as ``eval
  --real-sets`` reads the set: ``read_whole(one_card=True)``); the tile is the whole photo.
- **corner-boxes**: a labelled card read as another (the tile is its first box), and a reading
  of a card that no label names (the tile is the reading's index box, else its quad's bounds).
- **edje-cards** (training split only): a reading of a rank that no label names.

Only the parts that train and tune are looked at: the edje test split is evaluation only, and
its labels are never looked at (``../shared/data/real-photos/SETS.md``); asking for it is
refused. A doubt is not an erratum: most are the models' own misreadings.

Run: python -m training.label_audit corner-boxes --part train --out /tmp/audit
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from referee.cards import Card

if TYPE_CHECKING:
    from vision.pipeline import ImageCard
    from vision.real_sets import Reader

SETS = ("card-crops", "corner-boxes", "edje-cards")
TILE = 240  # px, each tile's side
COLUMNS = 5
PER_SHEET = 30
GROW = 1.6  # the tile shows the doubt's box grown by this much about its centre

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in the photo's pixels
MISREAD = "read as another card"
NOT_NAMED = "a card no label names"


@dataclass(frozen=True)
class Doubt:
    """A place where the reader and the labels disagree."""

    photo: str  # the photo's path
    kind: str  # MISREAD or NOT_NAMED
    label: str | None  # the label of the card read there (None: no label there)
    read: str  # the card read (Kibic's code)
    confidence: float
    box: Box  # where to look

    def caption(self) -> str:
        """ "photo label>read confidence", with a "*" where no label names the card read."""
        said = self.label if self.label is not None else "-"
        star = " *" if self.kind == NOT_NAMED else ""
        return f"{Path(self.photo).stem} {said}>{self.read} {self.confidence:.2f}{star}"


def card_crops_doubts(paths: Iterable[Path],
                      read: Callable[[np.ndarray], tuple[str, float] | None]) -> list[Doubt]:  # fmt: skip
    """The card-crops photos that ``read`` (a photo -> its card and confidence, None for no
    card) reads as another card than ``training.real_crops.code_of`` gives."""
    from training.real_crops import code_of

    out = []
    for path in paths:
        image = _image(path)
        reading = read(image)
        code = Card.parse(code_of(path)).code
        if reading is not None and reading[0] != code:
            h, w = image.shape[:2]
            out.append(Doubt(str(path), MISREAD, code, reading[0],
                             round(reading[1], 3), (0.0, 0.0, float(w), float(h))))  # fmt: skip
    return out


def corner_boxes_doubts(paths: Iterable[Path], reader: Reader) -> list[Doubt]:
    """On corner-boxes photos: each labelled card whose surest reading names another card, and
    each reading of a card that no label of the photo names (``vision.real_sets``'s pairing,
    as ``eval --real-sets`` counts them)."""
    from training.real_finder_crops import read_labels
    from vision.evaluate import not_there
    from vision.real_sets import label_at, surest_by_label

    out: list[Doubt] = []
    for path in paths:
        image = _image(path)
        h, w = image.shape[:2]
        boxes = read_labels(path.parent.parent / "labels" / f"{path.stem}.txt", w, h)
        codes = sorted({b.code for b in boxes if b.code != "back"})
        if not codes:
            continue
        cards = reader.cards(image)
        labels = [label_at(card, boxes) for card in cards]
        for card, label in zip(cards, labels, strict=True):
            if not_there(card.card, codes):
                out.append(Doubt(str(path), NOT_NAMED, label, card.card.code,
                                 round(card.confidence, 3), _where(card)))  # fmt: skip
        for label, card in surest_by_label(cards, labels).items():
            if card.card.code != Card.parse(label).code:
                first = next(b for b in boxes if b.code == label)
                box = (first.cx - first.w / 2, first.cy - first.h / 2,
                       first.cx + first.w / 2, first.cy + first.h / 2)  # fmt: skip
                out.append(Doubt(str(path), MISREAD, label, card.card.code,
                                 round(card.confidence, 3), box))  # fmt: skip
    return out


def edje_doubts(paths: Iterable[Path], reader: Reader) -> list[Doubt]:
    """On edje-cards photos (VOC labels of ranks): each reading of a rank no label names."""
    from vision.evaluate import not_there, read_voc

    out = []
    for path in paths:
        labels = [name for name, _ in read_voc(path.with_suffix(".xml"))]
        for card in reader.cards(_image(path)):
            if not_there(card.card, labels):
                out.append(Doubt(str(path), NOT_NAMED, None, card.card.code,
                                 round(card.confidence, 3), _where(card)))  # fmt: skip
    return out


def _where(card: ImageCard) -> Box:
    """A reading's index box, else the bounds of its quad."""
    if card.index_box is not None:
        x0, y0, x1, y1 = card.index_box
    else:
        corners = np.asarray(card.corners, np.float32)
        (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
    return round(float(x0), 1), round(float(y0), 1), round(float(x1), 1), round(float(y1), 1)


def tile(image: np.ndarray, doubt: Doubt, side: int = TILE) -> np.ndarray:
    """The doubt's box grown by ``GROW`` about its centre (a square, cut at the photo's edges),
    enlarged to ``side`` px with the box drawn, under a caption (``Doubt.caption``)."""
    h, w = image.shape[:2]
    x0, y0, x1, y1 = doubt.box
    half = max(x1 - x0, y1 - y0, 8.0) * GROW / 2
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    left, top = int(max(0, cx - half)), int(max(0, cy - half))
    right, bottom = int(min(w, cx + half)), int(min(h, cy + half))
    crop = image[top : max(bottom, top + 1), left : max(right, left + 1)]
    scale = side / max(crop.shape[:2])
    big = cv2.resize(crop, (max(1, round(crop.shape[1] * scale)), max(1, round(crop.shape[0] * scale))),
                     interpolation=cv2.INTER_CUBIC)  # fmt: skip
    cv2.rectangle(big, (round((x0 - left) * scale), round((y0 - top) * scale)),
                  (round((x1 - left) * scale), round((y1 - top) * scale)), (255, 0, 255), 1)  # fmt: skip
    out = np.full((side + 22, side, 3), 128, np.uint8)
    out[:22] = 255
    cv2.putText(out, doubt.caption()[:34], (3, 16), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 1)
    out[22 : 22 + big.shape[0], : big.shape[1]] = big
    return out


def sheet(doubts: Sequence[Doubt], columns: int = COLUMNS, side: int = TILE) -> np.ndarray:
    """The doubts' tiles in rows of ``columns`` (grey where a row is short)."""
    if not doubts:
        raise ValueError("no doubts to lay in a sheet")
    tiles = [tile(_image(Path(d.photo)), d, side) for d in doubts]
    blank = np.full_like(tiles[0], 128)
    tiles += [blank] * (-len(tiles) % columns)
    rows = [np.hstack(tiles[k : k + columns]) for k in range(0, len(tiles), columns)]
    return np.vstack(rows)


def _image(path: Path) -> np.ndarray:
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError(f"{path}: not an image")
    return image


def doubts_of(name: str, part: str, limit: int | None = None) -> list[Doubt]:
    """The doubts of set ``name``'s ``part`` (train or tune; edje-cards: train only), read by
    the shipped still-photo reader as ``kibic vision eval --real-sets`` reads them."""
    if name not in SETS:
        raise ValueError(f"unknown set {name!r}: one of {', '.join(SETS)}")
    if part not in ("train", "tune"):
        raise ValueError(f"part must be train or tune, not {part!r}: the edje test split is "
                         "evaluation only and its labels are never looked at")  # fmt: skip
    if name == "edje-cards" and part != "train":
        raise ValueError("edje-cards has no tuning part; its test split is evaluation only, "
                         "its labels never looked at")  # fmt: skip
    from vision.detector import DEFAULT_DETECTOR, CardDetector
    from vision.pipeline import read_whole
    from vision.real_sets import DECK, Reader, edje_photos, sample
    from vision.recognizer import photo_recognizer

    recognizer = photo_recognizer()
    detector = CardDetector(DEFAULT_DETECTOR) if DEFAULT_DETECTOR.exists() else None
    reader = Reader.as_classify(recognizer, detector)
    if name == "card-crops":
        from training.real_crops import split

        crops = split()[0 if part == "train" else 1]

        def whole(image: np.ndarray) -> tuple[str, float] | None:
            card = read_whole(image, recognizer, deck=DECK, detector=detector, one_card=True)
            return None if card is None else (card.card.code, card.confidence)

        return card_crops_doubts(sample([c.path for c in crops], limit), whole)
    if name == "edje-cards":
        return edje_doubts(sample(edje_photos("train"), limit), reader)
    from training.real_finder_crops import FOLDERS, photos

    out: list[Doubt] = []
    for folder in FOLDERS:
        out += corner_boxes_doubts(sample(photos(folder)[0 if part == "train" else 1], limit),
                                   reader)  # fmt: skip
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.label_audit",
                                     description=__doc__.split("\n\n")[0])  # fmt: skip
    parser.add_argument("set", choices=SETS)
    parser.add_argument("--part", default="train", help="train (default) or tune")
    parser.add_argument("--out", type=Path, required=True, help="a folder for the sheets")
    parser.add_argument("--limit", type=int, default=None,
                        help="a seeded sample of this many photos (corner-boxes: of each folder)")  # fmt: skip
    args = parser.parse_args(argv)
    try:
        doubts = doubts_of(args.set, args.part, args.limit)
    except (ValueError, FileNotFoundError) as exc:
        parser.error(str(exc))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "doubts.json").write_text(json.dumps([asdict(d) for d in doubts], indent=1) + "\n")
    sheets = 0
    for k in range(0, len(doubts), PER_SHEET):
        cv2.imwrite(str(args.out / f"sheet-{k // PER_SHEET + 1:02d}.png"),
                    sheet(doubts[k:k + PER_SHEET]))  # fmt: skip
        sheets += 1
    sys.stdout.write(f"{len(doubts)} doubts on {args.set} {args.part}, {sheets} sheets in "
                     f"{args.out}\n")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
