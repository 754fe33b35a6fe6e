"""Training scenes for the corner-index finder made of card-crops' real faces laid as at a card
table, with a box on every corner index that shows (experiment 58).

The finder learnt from corner-boxes' photos alone: a few decks on one desk under one webcam.
Card-crops holds dozens of printed designs, but as photos of single cards with no index boxed.
On one face alone, lying flat on a plain cloth, the shipped finder finds the top-left index
of nearly every card-crops face; laid in a fan or under another card, as at a table, it loses
a fifth of them. These scenes teach it the designs in the places a table puts them.

- Where each face's index is: ``index_boxes`` runs the shipped finder on each face alone and
  keeps the box it finds in the face's top-left corner (as shares of the face). A face where it
  finds none, or where its reader does not have the face's card among its three readings of the
  box, is left out of the scenes: such a photo is mostly no whole card (experiment 57) or no
  card's face. The bottom-right index is the top-left one turned half a turn.
- ``table``: the training faces (``training.real_crops.split``) laid by ``training.table_eval``'s
  layouts (five flat cards in a row; two- or three-card hands at the four sides) or as a trick
  in the middle of the table (three or four cards thrown over one another), photographed by
  ``training.photo_eval.lay`` and ``expose``. An index is boxed (axis-aligned, as corner-boxes
  labels it) where at least ``SHOWN`` of its core (the middle ``CORE`` of its box) is its own
  card's.

Card-crops' training part is laid to teach. Its tuning part is laid only to measure the corner
path (``vision.corner_eval.evaluate_face_tables``), with its index boxes pinned in
``TUNE_BOXES`` (``python -m training.face_tables --pin-tune-boxes``); it also measures issue
#33's flat and fanned targets (``training.table_eval``).
"""

from __future__ import annotations

import argparse
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from training.corner_samples import LabelledPhoto
from training.photo_eval import Laid, _background, card_corners, expose, lay
from training.table_eval import SIZE, TILT, Placed, fanned_hands, flat_row
from vision.corner_finder import DEFAULT_FINDER, DEFAULT_READER, CornerFinder

SHOWN = 0.8  # the least share of an index's core that is its own card's, for it to be boxed
CORE = 0.6  # an index's core: its box shrunk about its middle (its corners lie off a round card)
TUNE_BOXES = Path(__file__).with_name("face_tables_tune_boxes.json")  # indexed_faces("tune")
TOP = 3  # a face is laid where its card is among the reader's readings of its index
SEARCH = 0.35  # an index found this far into a face (a share of each side) is its top-left one


@dataclass(frozen=True)
class Faces:
    """Real faces (all of one size, BGR), the code of each, and where each one's top-left
    index lies: (centre x, centre y, width, height) as shares of the face."""

    images: list[np.ndarray]
    codes: list[str]
    boxes: np.ndarray  # (n, 4)


def index_box(boxes: list[tuple[tuple[float, float, float, float], float]], fw: int, fh: int,
              pad: int) -> tuple[float, float, float, float] | None:  # fmt: skip
    """Of the finder's ``boxes`` on a face ``fw`` x ``fh`` px laid ``pad`` px into a plain
    canvas, the surest in the face's top-left corner, as shares of the face; None where there
    is none."""
    best: tuple[float, tuple[float, float, float, float]] | None = None
    for (cx, cy, bw, bh), heat in boxes:
        rx, ry = (cx - pad) / fw, (cy - pad) / fh
        if 0 <= rx < SEARCH and 0 <= ry < SEARCH and (best is None or heat > best[0]):
            best = (heat, (rx, ry, bw / fw, bh / fh))
    return None if best is None else best[1]


def index_boxes(images: list[np.ndarray], codes: list[str], finder: CornerFinder,
                card_width: int = 130) -> Faces:  # fmt: skip
    """``Faces`` of those ``images`` where ``finder`` finds a top-left index, each face shown
    to it ``card_width`` px wide on a grey cloth."""
    kept_images, kept_codes, kept_boxes = [], [], []
    pad = card_width
    for image, code in zip(images, codes, strict=True):
        fh, fw = image.shape[:2]
        ch = round(card_width * fh / fw)
        canvas = np.full((ch + 2 * pad, card_width + 2 * pad, 3), 90, np.uint8)
        canvas[pad : pad + ch, pad : pad + card_width] = cv2.resize(
            image, (card_width, ch), interpolation=cv2.INTER_AREA
        )
        box = index_box(finder.boxes(canvas), card_width, ch, pad)
        if box is not None and reads_as(finder, canvas, box, code, (pad, card_width, ch)):
            kept_images.append(image)
            kept_codes.append(code)
            kept_boxes.append(box)
    return Faces(kept_images, kept_codes, np.array(kept_boxes, np.float32).reshape(-1, 4))


def reads_as(
    finder: CornerFinder,
    canvas: np.ndarray,
    box: tuple[float, float, float, float],
    code: str,
    where: tuple[int, int, int],
) -> bool:
    """Whether the finder's reader has ``code`` among its ``TOP`` readings of ``box`` (shares
    of a face laid at ``where``: pad, width, height px, in ``canvas``): a loose check that the
    box holds the card's index, which leaves out photos of a card's back or of no card."""
    pad, fw, fh = where
    rx, ry, rw, rh = box
    probs = finder.read(canvas, [(pad + rx * fw, pad + ry * fh, rw * fw, rh * fh)])[0]
    top = np.argsort(probs)[::-1][:TOP]
    return any(finder.labels[int(k)].split(":")[-1] == code for k in top)


def indexed_faces(part: str = "train", finder_path: Path = DEFAULT_FINDER) -> Faces:
    """Card-crops' faces of ``part`` (``training.real_crops.split``: train or tune) where the
    finder ``finder_path``, with the shipped box reader, finds a top-left index, with its box.
    The tuning part's are read from ``TUNE_BOXES`` (pinned, so that what measures a finder
    does not hang on the finder measured); ``finder_path`` is then not used."""
    from training.real_crops import CROPS, face, read, split

    if part not in ("train", "tune"):
        raise ValueError(f"part must be train or tune, not {part!r}")
    train, tune = split()
    if part == "train":
        finder = CornerFinder(finder_path, threshold=0.1)
        return index_boxes([face(read(c)) for c in train], [c.code for c in train], finder)
    pinned = json.loads(TUNE_BOXES.read_text())["boxes"]
    kept = [c for c in tune if c.path.relative_to(CROPS).as_posix() in pinned]
    boxes = [pinned[c.path.relative_to(CROPS).as_posix()] for c in kept]
    return Faces([face(read(c)) for c in kept], [c.code for c in kept],
                 np.array(boxes, np.float32).reshape(-1, 4))  # fmt: skip


def pin_tune_boxes(out: Path = TUNE_BOXES) -> int:
    """Find the tuning part's index boxes with the shipped finder and box reader and write them
    to ``out``; returns how many faces have one."""
    from training.real_crops import CROPS, face, read, split

    _, tune = split()
    finder = CornerFinder(DEFAULT_FINDER, threshold=0.1)
    boxes = {}
    for crop in tune:
        found = index_boxes([face(read(crop))], [crop.code], finder)
        if found.codes:
            boxes[crop.path.relative_to(CROPS).as_posix()] = [
                round(float(v), 4) for v in found.boxes[0]
            ]
    meta = json.loads(DEFAULT_FINDER.with_suffix(".json").read_text())
    reader = json.loads(DEFAULT_READER.with_suffix(".labels.json").read_text())
    head = {
        "made_by": "python -m training.face_tables --pin-tune-boxes",
        "finder": f"{DEFAULT_FINDER.name} version {meta.get('version', 1)}",
        "reader": f"{DEFAULT_READER.name} version {reader.get('version', 1)}",
    }
    lines = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in head.items()]
    rows = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in boxes.items())
    out.write_text("{\n" + ",\n".join(lines) + ',\n"boxes": {\n' + rows + "\n}}\n")
    return len(boxes)


def index_quads(box: np.ndarray, fw: int, fh: int) -> np.ndarray:
    """(2, 4, 2): the corners of a face's top-left index box (shares ``box``) and of its
    bottom-right one, half a turn about the face's middle, in face px."""
    cx, cy, w, h = (float(v) for v in box)
    quads = []
    for x, y in ((cx, cy), (1 - cx, 1 - cy)):
        x0, x1, y0, y1 = (x - w / 2) * fw, (x + w / 2) * fw, (y - h / 2) * fh, (y + h / 2) * fh
        quads.append([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    return np.array(quads, np.float32)


def trick(rng: np.random.Generator, h: int, w: int, cw: float) -> list[Placed]:
    """Three or four cards thrown over one another in the middle of the table, each from its
    player's side."""
    n = int(rng.integers(3, 5))
    mx, my = float(rng.uniform(0.35, 0.65)) * w, float(rng.uniform(0.35, 0.65)) * h
    seat = float(rng.integers(4)) * 90
    out = []
    for k in range(n):
        a = seat + 90.0 * k + float(rng.normal(0, 12))
        t = np.deg2rad(a)
        reach = float(rng.uniform(0.15, 0.45)) * cw  # toward its player
        out.append((mx - reach * np.sin(t) + float(rng.normal(0, 0.1 * cw)),
                    my + reach * np.cos(t) + float(rng.normal(0, 0.1 * cw)), a))  # fmt: skip
    return out


def placed(rng: np.random.Generator, h: int, w: int) -> tuple[list[Placed], float]:
    """The cards of one scene (centre x, y and angle of each, bottom first) and their width."""
    kind = int(rng.integers(4))
    cw = float(rng.uniform(0.06, 0.13)) * w
    if kind == 0:
        n = int(rng.integers(3, 6))
        cw = min(cw, 0.9 * w / (n + 0.6 * (n - 1)))  # the row fits across the table
        return flat_row(rng, h, w, cw, n=n), cw
    if kind == 3:
        return trick(rng, h, w, cw), cw
    return fanned_hands(rng, h, w, min(cw, 0.11 * w), cards=kind + 1), min(cw, 0.11 * w)


def overlapping_row(rng: np.random.Generator, h: int, w: int) -> tuple[list[Placed], float]:
    """A long overlapping row (experiment 93): 6 to 13 cards side by side, each over the one
    before but for a strip of 0.18 to 0.32 of its width, all turned the same way (upright, or
    half a turn so that the strips show the bottom indices upside down), as a player lays out a
    suit on a desk; and the cards' width."""
    n = int(rng.integers(6, 14))
    cw = float(rng.uniform(0.07, 0.12)) * w
    step = float(rng.uniform(0.18, 0.32)) * cw
    n = min(n, int((0.9 * w - cw) / step) + 1)  # the row fits across the table
    angle = float(rng.choice([0.0, 180.0]))
    way = float(rng.choice([-1.0, 1.0]))  # the row laid to the right or to the left
    span = (n - 1) * step
    x0 = float(rng.uniform(0.05 * w + cw / 2, 0.95 * w - cw / 2 - span))
    if way < 0:
        x0 += span
    y = float(rng.uniform(0.3, 0.7)) * h
    return [(x0 + way * k * step + float(rng.normal(0, 0.02 * cw)),
             y + float(rng.normal(0, 0.03 * cw)), angle + float(rng.normal(0, 3)))
            for k in range(n)], cw  # fmt: skip


def table(rng: np.random.Generator, faces: Faces,
          layout: Callable[[np.random.Generator, int, int], tuple[list[Placed], float]] = placed,
          ) -> LabelledPhoto:  # fmt: skip
    """One scene of ``faces`` (no code twice) laid by ``layout`` with a box on each index that
    shows."""
    h, w = SIZE
    img = _background(rng, h, w, kind=int(rng.integers(3)))
    spots, cw = layout(rng, h, w)
    by_code: dict[str, list[int]] = {}
    for i, code in enumerate(faces.codes):
        by_code.setdefault(code, []).append(i)
    codes = sorted(by_code)
    chosen = rng.choice(len(codes), size=len(spots), replace=False)
    picks = [by_code[codes[int(k)]][int(rng.integers(len(by_code[codes[int(k)]])))]
             for k in chosen]  # fmt: skip
    layers = [(faces.images[i], card_corners(cx, cy, cw, a), faces.codes[i])
              for (cx, cy, a), i in zip(spots, picks, strict=True)]  # fmt: skip
    laid = lay(rng, img, layers, tilt_share=TILT)
    boxes, labels = shown_indices(laid, [faces.boxes[i] for i in picks],
                                  [faces.codes[i] for i in picks])  # fmt: skip
    return LabelledPhoto(expose(rng, laid.image), boxes, labels, "faces")


class TableStream:
    """Tables of ``faces`` (``table``, laid by ``layout``) to cut training samples from: a new
    one every ``uses`` samples; with ``boxed``, never one where no index shows."""

    def __init__(self, faces: Faces, uses: int, *, boxed: bool = False,
                 layout: Callable[[np.random.Generator, int, int],
                                  tuple[list[Placed], float]] = placed) -> None:  # fmt: skip
        self.faces, self.uses, self.boxed, self.layout = faces, uses, boxed, layout
        self.table: LabelledPhoto | None = None
        self.used = 0

    def next(self, rng: np.random.Generator) -> LabelledPhoto:
        """The table to cut the next sample from."""
        while (self.table is None or self.used >= self.uses
               or (self.boxed and not self.table.codes)):  # fmt: skip
            self.table, self.used = table(rng, self.faces, self.layout), 0
        self.used += 1
        return self.table


def shown_indices(laid: Laid, boxes: list[np.ndarray], codes: list[str]
                  ) -> tuple[np.ndarray, tuple[str, ...]]:  # fmt: skip
    """The box (cx, cy, w, h; photo px, axis-aligned) and the code of each index that shows in
    ``laid``, whose layer k holds a face of ``codes[k]`` with its top-left index at ``boxes[k]``
    (shares of the face): whole in the photo, and at least ``SHOWN`` of its core its own
    card's."""
    h, w = laid.owner.shape
    fh, fw = laid.face_size
    out, labels = [], []
    for k, (box, code) in enumerate(zip(boxes, codes, strict=True)):
        for quad in index_quads(box, fw, fh):
            shown = cv2.perspectiveTransform(quad[None], laid.homographies[k])[0]
            x0, y0 = shown.min(axis=0)
            x1, y1 = shown.max(axis=0)
            if x0 < 0 or y0 < 0 or x1 >= w or y1 >= h:
                continue
            core = shown.mean(axis=0) + CORE * (shown - shown.mean(axis=0))
            inside = np.zeros((h, w), np.uint8)
            cv2.fillConvexPoly(inside, np.round(core).astype(np.int32), 1)
            area = int(inside.sum())
            if area and int((laid.owner[inside > 0] == k).sum()) >= SHOWN * area:
                out.append(((x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0))
                labels.append(code)
    return np.array(out, np.float32).reshape(-1, 4), tuple(labels)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("--pin-tune-boxes", action="store_true",
                        help=f"write the tuning part's index boxes to {TUNE_BOXES.name}")  # fmt: skip
    args = parser.parse_args()
    if args.pin_tune_boxes:
        logging.basicConfig(level=logging.INFO, format="%(message)s")
        logging.getLogger(__name__).info(
            "%d faces with an index -> %s", pin_tune_boxes(), TUNE_BOXES
        )
    else:
        parser.print_help()


if __name__ == "__main__":
    main()
