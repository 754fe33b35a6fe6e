"""Real cards as the still-photo finder hands them to the classifier: the ``corner-boxes`` photos.

662 real photos (../shared/data/real-photos/corner-boxes: a desk under a webcam, single cards
on wood at many sizes, a black-and-gold novelty deck), each with a box on every visible corner
index and that card's code. The shipped detector finds the cards (as ``kibic vision classify``
does, quads fitted to the edges); a found card is labelled by the corner boxes whose centres lie
inside its quad when they all name one card. A photo of ``single/`` in which nothing was found
and whose boxes all name one card gives the whole photo as that card (as ``--whole`` reads it).
Found cards with no corner box inside, or boxes of two cards, are left out: unlabelled, not
"no card".

The split is by photo, fixed by a seed: ``TUNE_SHARE`` of each folder's photos are kept out of
training to tune and measure on. The crops are cached in the project's ``.cache`` folder, keyed
by the detector's and this module's settings and by the labels' errata.

    python -m training.real_finder_crops        # extract (about a minute) and print the counts
"""

from __future__ import annotations

import argparse
import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from training.real_crops import REAL_PHOTOS

CORNERS = REAL_PHOTOS / "corner-boxes"
FOLDERS = ("desk", "single", "gold-deck")
SPLIT_SEED = 20261203
TUNE_SHARE = 0.2
CACHE = Path(__file__).resolve().parents[1] / ".cache" / "real-finder-crops"


@dataclass(frozen=True)
class CornerBox:
    code: str  # Kibic's card code, or ``back``
    cx: float  # centre, pixels
    cy: float
    w: float = 0.0  # the box's width and height, pixels
    h: float = 0.0


def read_labels(path: Path, width: int, height: int) -> list[CornerBox]:
    """The YOLO label file of one photo (``CODE xc yc w h``, fractions) in pixels, a label found
    wrong put right and an index found unlabelled added after the file's lines
    (``vision.label_errata``); a line that is not five fields with numbers raises ValueError
    naming the file and line."""
    from vision.label_errata import fixed, missing

    boxes: list[CornerBox] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        fields = line.split()
        if not fields:
            continue
        try:
            code, xc, yc = fields[0], float(fields[1]), float(fields[2])
            bw, bh = float(fields[3]), float(fields[4])
        except (IndexError, ValueError):
            raise ValueError(f"{path}:{number}: not 'CODE xc yc w h': {line!r}") from None
        code = fixed(path.name, len(boxes), code)
        boxes.append(CornerBox(code, xc * width, yc * height, bw * width, bh * height))
    for code, xc, yc, bw, bh in missing(path.name):
        boxes.append(CornerBox(code, xc * width, yc * height, bw * width, bh * height))
    return boxes


def photos(folder: str) -> tuple[list[Path], list[Path]]:
    """(train, tune) photos of one folder of corner-boxes, split by ``SPLIT_SEED``."""
    images = sorted((CORNERS / folder / "images").glob("*.jpg"))
    rng = np.random.default_rng([SPLIT_SEED, FOLDERS.index(folder)])
    held = set(rng.choice(len(images), size=int(round(TUNE_SHARE * len(images))), replace=False))
    train = [p for i, p in enumerate(images) if i not in held]
    tune = [p for i, p in enumerate(images) if i in held]
    return train, tune


def codes_in(quad: np.ndarray, boxes: Sequence[CornerBox]) -> set[str]:
    """The codes of the corner boxes whose centres lie inside ``quad`` (``back`` among them)."""
    contour = quad.astype(np.float32).reshape(-1, 1, 2)
    return {b.code for b in boxes if cv2.pointPolygonTest(contour, (b.cx, b.cy), False) >= 0}


def label_of(quad: np.ndarray, boxes: Sequence[CornerBox]) -> str | None:
    """The card code of the corner boxes inside ``quad``, when they name one card (no back)."""
    codes = codes_in(quad, boxes)
    if len(codes) != 1 or "back" in codes:
        return None
    return codes.pop()


def crops_of_photo(image: np.ndarray, boxes: list[CornerBox], detector: object,
                   whole_if_none: bool) -> list[tuple[np.ndarray, str]]:  # fmt: skip
    """(crop at the classifier's input size, card code) for each labelled card found."""
    from vision.finder import warp_card
    from vision.pipeline import find_in_still

    found = find_in_still(image, detector=detector)  # type: ignore[arg-type]
    out = []
    for card in found:
        code = label_of(np.asarray(card.corners), boxes)
        if code is not None:
            out.append((warp_card(image, np.asarray(card.corners), repeat_edge=True), code))
    codes = {b.code for b in boxes}
    if not found and whole_if_none and len(codes) == 1 and "back" not in codes:
        from vision.recognizer import INPUT_H, INPUT_W

        whole = cv2.resize(image, (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA)
        out.append((whole, codes.pop()))
    return out


def _cache_key() -> str:
    from vision import label_errata
    from vision.detector import DEFAULT_DETECTOR

    digest = hashlib.sha256(DEFAULT_DETECTOR.read_bytes())
    digest.update(Path(__file__).read_bytes())
    digest.update(label_errata.fingerprint().encode())  # the labels as put right
    return digest.hexdigest()[:12]


def labelled_photos(part: str) -> Iterator[tuple[str, Path, np.ndarray, list[CornerBox]]]:
    """(folder, path, image, corner boxes) of each photo of ``part`` (train or tune)."""
    for folder in FOLDERS:
        train, tune = photos(folder)
        for path in train if part == "train" else tune:
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                raise ValueError(f"{path}: not an image")
            label_path = path.parent.parent / "labels" / (path.stem + ".txt")
            yield folder, path, image, read_labels(label_path, image.shape[1], image.shape[0])


def extract(part: str = "train") -> tuple[np.ndarray, list[str], list[str]]:
    """(crops N x H x W x 3 uint8, card codes, the photo each came from) of the ``train`` or
    ``tune`` photos of every folder; cached."""
    if part not in ("train", "tune"):
        raise ValueError(f"part {part!r}: train or tune")
    cache = CACHE / f"{part}-{_cache_key()}.npz"
    if cache.is_file():
        data = np.load(cache)
        return data["crops"], list(data["codes"]), list(data["photos"])
    if not CORNERS.is_dir():
        raise FileNotFoundError(f"no corner-boxes photos in {CORNERS} (set KIBIC_REAL_PHOTOS)")
    from vision.detector import CardDetector

    detector = CardDetector()
    crops: list[np.ndarray] = []
    codes: list[str] = []
    sources: list[str] = []
    for folder, path, image, boxes in labelled_photos(part):
        for crop, code in crops_of_photo(image, boxes, detector, folder == "single"):
            crops.append(crop)
            codes.append(code)
            sources.append(f"{folder}/{path.name}")
    CACHE.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(cache, crops=np.stack(crops), codes=np.array(codes),
                        photos=np.array(sources))  # fmt: skip
    return np.stack(crops), codes, sources


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.parse_args()
    for part in ("train", "tune"):
        crops, codes, sources = extract(part)
        print(f"{part}: {len(codes)} labelled cards from {len(set(sources))} photos, "
              f"{len(set(codes))} card codes")  # fmt: skip


if __name__ == "__main__":
    main()
