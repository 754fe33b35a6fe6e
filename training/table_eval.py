"""Real card faces laid out as at a card table, to measure flat and fanned cards.

No real photo of a card table is in ``../shared/data/real-photos``: the target of issue #33 for
flat cards and fanned pairs has no set here. These scenes are the nearest the sets allow. They
lay the real faces of card-crops' tuning part (``training.real_crops.split``: photos of dozens
of printed designs, kept out of training) on a table seen from above, in the two layouts of
the issue's table photos:

- ``flat``: five cards in a row, apart, each turned a few degrees;
- ``fanned``: four two-card hands, one at each side of the table, facing its player; the
  second card of each turned over the first about a point below them, so that both cards'
  top-left indices show.

The tilt of the camera, shadows, light, blur, noise and JPEG are ``training.photo_eval``'s.
They are composites, not photographs: the faces are real, the table, the light and the layout
are drawn. Each card is labelled by its code (``TD``) in Pascal VOC, with the box of its
visible part and ``wholebox``. So ``kibic vision eval DIR --deck french-53`` gives the card
accuracy, and ``kibic vision track --stills DIR --corners frame --deck french-53`` the table
path:

    python -m training.table_eval --out /tmp/table-fanned --layout fanned --scenes 30 --seed 0

Rules are chosen on scenes of card-crops' training faces (``--faces train``) and measured on
the tuning part's (the default). Some card-crops photos are no whole card (a close crop of part
of one, a card turned inside the photo, an index cut off); ``--whole-only`` lays only the
tuning part's faces that are (``training.card_crops_whole``), as a real table would show them.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from training.card_crops_whole import NOT_WHOLE
from training.photo_eval import (
    CARD_ASPECT,
    Box,
    _background,
    card_corners,
    fan,
    photograph,
    write_voc,
)
from training.real_crops import face, read, split

LAYOUTS = ("flat", "fanned")
SIZE = (960, 1280)  # h, w: a camera above the table, landscape
TILT = 0.04  # of the short side: a camera looking down, not a phone held at an angle
Placed = tuple[float, float, float]  # centre x, y and angle (degrees) of a card


def flat_row(rng: np.random.Generator, h: int, w: int, cw: float, n: int = 5) -> list[Placed]:
    """``n`` cards ``cw`` wide in a row across the table, apart, each turned a few degrees."""
    gap = float(rng.uniform(0.25, 0.6)) * cw
    span = n * cw + (n - 1) * gap
    x0 = float(rng.uniform(0.05 * w, 0.95 * w - span)) + cw / 2
    y = float(rng.uniform(0.35, 0.65)) * h
    return [(x0 + k * (cw + gap), y + float(rng.normal(0, 0.03 * cw)), float(rng.normal(0, 4)))
            for k in range(n)]  # fmt: skip


# the four sides of the table: where each hand lies (shares of w and h) and its player's angle
SEATS = ((0.5, 0.8, 0.0), (0.13, 0.5, 90.0), (0.5, 0.2, 180.0), (0.87, 0.5, 270.0))


def fanned_hands(rng: np.random.Generator, h: int, w: int, cw: float, cards: int = 2
                 ) -> list[Placed]:  # fmt: skip
    """A hand of ``cards`` cards at each side of the table (``SEATS``), fanned about a point
    below them as a player holds or lays them, so that every top-left index shows; each hand
    turned to face its side, each card over the one before."""
    ch = cw * CARD_ASPECT
    out: list[Placed] = []
    for sx, sy, seat in SEATS:
        step = float(rng.uniform(15, 25))
        base = float(rng.uniform(-8, 8)) - step / 2
        hand = fan(0.0, 0.0, base, step, float(rng.uniform(0.7, 1.0)) * ch, cards)
        mx = sum(x for x, _, _ in hand) / cards
        my = sum(y for _, y, _ in hand) / cards
        t = np.deg2rad(seat)
        cos, sin = float(np.cos(t)), float(np.sin(t))
        for x, y, a in hand:
            dx, dy = x - mx, y - my
            out.append((sx * w + dx * cos - dy * sin + float(rng.normal(0, 0.05 * cw)),
                        sy * h + dx * sin + dy * cos + float(rng.normal(0, 0.05 * cw)),
                        a + seat))  # fmt: skip
    return out


def make_table(rng: np.random.Generator, faces: dict[str, list[np.ndarray]], layout: str,
               ) -> tuple[np.ndarray, list[tuple[str, Box, Box]]]:  # fmt: skip
    """One scene of ``layout`` (``LAYOUTS``) with faces drawn from ``faces`` (card code ->
    real faces), no card twice; returns the photo and each card's code, visible box and whole
    box (``training.photo_eval.photograph``)."""
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}, not {layout!r}")
    h, w = SIZE
    img = _background(rng, h, w, kind=int(rng.integers(3)))  # a cloth, wood or felt top
    if layout == "flat":
        cw = float(rng.uniform(0.085, 0.11)) * w
        placed = flat_row(rng, h, w, cw)
    else:
        cw = float(rng.uniform(0.085, 0.105)) * w
        placed = fanned_hands(rng, h, w, cw)
    codes = sorted(faces)
    chosen = rng.choice(len(codes), size=len(placed), replace=False)
    layers = []
    for (cx, cy, angle), k in zip(placed, chosen, strict=True):
        pool = faces[codes[int(k)]]
        layers.append((pool[int(rng.integers(len(pool)))], card_corners(cx, cy, cw, angle),
                       codes[int(k)]))  # fmt: skip
    return photograph(rng, img, layers, tilt_share=TILT)


PARTS = ("tune", "train")


def real_faces(part: str = "tune", *, whole_only: bool = False) -> dict[str, list[np.ndarray]]:
    """Card code -> the real faces of card-crops' ``part`` (``PARTS``: the tuning part, kept out
    of training, to measure on; the training part, to choose on), Jokers left out (the issue's
    table photos hold none); with ``whole_only``, only the tuning part's faces that are a whole
    card (``training.card_crops_whole``; the training part's were not looked at: ValueError)."""
    if part not in PARTS:
        raise ValueError(f"part must be one of {', '.join(PARTS)}, not {part!r}")
    if whole_only and part != "tune":
        raise ValueError("only the tuning part's faces were sorted into whole cards and not")
    train, tune = split()
    out: dict[str, list[np.ndarray]] = {}
    for crop in tune if part == "tune" else train:
        if crop.code != "JK" and not (whole_only and crop.path.stem in NOT_WHOLE):
            out.setdefault(crop.code, []).append(face(read(crop)))
    return out


def build(out: Path, layout: str, scenes: int, seed: int,
          faces: dict[str, list[np.ndarray]] | None = None) -> int:  # fmt: skip
    """``scenes`` scenes of ``layout`` under ``out`` (``tableNNNN.jpg`` and ``.xml``), seeded,
    of ``faces`` (default ``real_faces()``, the tuning part's); returns the number of cards
    labelled."""
    faces = real_faces() if faces is None else faces
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    cards = 0
    for i in range(scenes):
        img, boxes = make_table(rng, faces, layout)
        cv2.imwrite(str(out / f"table{i:04d}.jpg"), img)
        write_voc(out / f"table{i:04d}.xml", img.shape, boxes)
        cards += len(boxes)
    return cards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--layout", choices=LAYOUTS, required=True)
    parser.add_argument("--scenes", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--faces", choices=PARTS, default="tune",
                        help="card-crops' part the faces come from: tune (to measure on, "
                             "default) or train (to choose on)")  # fmt: skip
    parser.add_argument("--whole-only", action="store_true",
                        help="only the faces that are a whole card, as a table shows one "
                             "(training.card_crops_whole; the tuning part's)")  # fmt: skip
    args = parser.parse_args()
    try:
        faces = real_faces(args.faces, whole_only=args.whole_only)
    except ValueError as exc:
        parser.error(str(exc))
    cards = build(args.out, args.layout, args.scenes, args.seed, faces)
    print(f"{args.scenes} scenes, {cards} cards in {args.out}")


if __name__ == "__main__":
    main()
