"""Close cards as a detector finds them whole: samples of the card (experiment 96).

Each card-crops photo is one face filling it, as a phone held over one card sees it. A detector
that has learnt close scenes (experiment 91) finds such a card whole, its quad running up to or
past the photo's edges, and the still path reads that quad warped with the photo's edge repeated.
The still-photo classifier never saw such a crop (cut off, the edge smeared, a little stretched)
and reads it less surely than the photo itself. This module cuts, on the training faces only,
the detector's regions whose visible box covers at least ``MIN_AREA`` of the photo, warped as
the still path warps them, each labelled with its photo's card.

    python -m training.real_close --detector DET.onnx   # cut them (minutes) and print the counts
"""

from __future__ import annotations

import argparse
import hashlib
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from training.real_print import visible_box
from vision import label_errata
from vision.detector import DEFAULT_DETECTOR, CardDetector
from vision.finder import warp_card
from vision.pipeline import find_in_still

MIN_AREA = 0.5  # of the photo, a region's visible box
CACHE = Path(__file__).resolve().parents[1] / ".cache" / "real-close"


def close_quads(image: np.ndarray, detector: CardDetector) -> list[np.ndarray]:
    """The crops of ``detector``'s regions of ``image`` that cover ``MIN_AREA`` of it or more,
    warped as the still path warps them."""
    h, w = image.shape[:2]
    crops = []
    for found in find_in_still(image, detector=detector):
        x0, y0, x1, y1 = visible_box(found)
        if (min(x1, w) - max(x0, 0.0)) * (min(y1, h) - max(y0, 0.0)) >= MIN_AREA * w * h:
            crops.append(warp_card(image, found.corners, repeat_edge=True))
    return crops


def cut(faces: Iterable[tuple[np.ndarray, str]],
        detector: CardDetector) -> tuple[list[np.ndarray], list[str]]:  # fmt: skip
    """The close quads of ``faces`` (photo, model label) and their labels."""
    crops: list[np.ndarray] = []
    labels: list[str] = []
    for image, label in faces:
        quads = close_quads(image, detector)
        crops += quads
        labels += [label] * len(quads)
    return crops, labels


def _cache_file(detector_path: Path) -> Path:
    digest = hashlib.sha256(detector_path.read_bytes())
    digest.update(detector_path.with_suffix(".json").read_bytes())
    digest.update(f"{MIN_AREA}".encode())
    digest.update(label_errata.fingerprint().encode())  # card-crops' labels as put right
    return CACHE / f"train-{digest.hexdigest()[:16]}.npz"


def extract(detector_path: str | Path = DEFAULT_DETECTOR) -> tuple[list[np.ndarray], list[str]]:
    """The close quads of card-crops' training part as ``detector_path`` finds them (its JSON
    beside it), with their model labels; cached in ``.cache/real-close`` by the detector's
    bytes and the labels' errata (``vision.label_errata.fingerprint``)."""
    from training.real_crops import read, split

    path = Path(detector_path)
    cache = _cache_file(path)
    if cache.is_file():
        with np.load(cache) as saved:
            return list(saved["crops"]), [str(s) for s in saved["labels"]]
    faces = ((read(crop), crop.label) for crop in split()[0])
    crops, labels = cut(faces, CardDetector(path))
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(cache, crops=np.asarray(crops, np.uint8), labels=np.asarray(labels))
    return crops, labels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--detector", type=Path, default=DEFAULT_DETECTOR)
    args = parser.parse_args()
    crops, labels = extract(args.detector)
    classes = len(set(labels))
    print(f"{len(crops)} close quads of {classes} classes by {args.detector}")


if __name__ == "__main__":
    main()
