"""The detector's pieces of real faces cut as 'none' (training.real_pieces, experiment 86): only
regions under half the photo, holding no index corner, read as a card of another rank."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from training.real_pieces import MAX_AREA, extract, holds_an_index, pieces_of
from training.real_print import visible_box
from vision.detector import CardDetector
from vision.pipeline import find_in_still
from vision.recognizer import Prediction


def test_a_box_holds_an_index_when_it_holds_an_index_corners_centre() -> None:
    # a 200 x 300 face: the index centres at (22, 42), (178, 42), (178, 258), (22, 258)
    assert holds_an_index((0, 0, 60, 90), 200, 300)  # the top-left corner
    assert holds_an_index((10, 100, 190, 290), 200, 300)  # the bottom half: two of them
    assert not holds_an_index((40, 60, 160, 240), 200, 300)  # the pips in the middle
    assert not holds_an_index((0, 60, 200, 240), 200, 300)  # a band across, between them


class _Reads:
    """A classifier that reads every crop as ``label``."""

    def __init__(self, label: str) -> None:
        self.label = label

    def predict(self, crops: list[np.ndarray]) -> list[Prediction]:
        return [Prediction(self.label, 0.6, ()) for _ in crops]


def _face() -> np.ndarray:
    from training.real_crops import CROPS, available, read, split

    if not available():
        pytest.skip(f"needs the real photos in {CROPS}")
    # the first photo filed under KH (the first of code KH is KD-08, filed under KD: an erratum)
    return read(next(c for c in split()[0] if c.code == "KH" and c.path.parent.name == "KH"))


def test_the_pieces_are_the_small_regions_off_the_index_corners_read_as_another_rank() -> None:
    face = _face()
    detector = CardDetector()
    h, w = face.shape[:2]
    boxes = [visible_box(f) for f in find_in_still(face, detector=detector)]
    small = [b for b in boxes if (b[2] - b[0]) * (b[3] - b[1]) < MAX_AREA * w * h]
    expected = [b for b in small if not holds_an_index(b, w, h)]
    assert expected, "the detector found no piece of this face"
    crops = pieces_of(face, "french:KH", detector, _Reads("french:7S"))  # type: ignore[arg-type]
    assert len(crops) == len(expected)
    assert all(crop.shape == (96, 64, 3) for crop in crops)
    # read as the face's own rank (another suit), or as no card: nothing to learn
    assert pieces_of(face, "french:KH", detector, _Reads("french:KS")) == []  # type: ignore[arg-type]
    assert pieces_of(face, "french:KH", detector, _Reads("none")) == []  # type: ignore[arg-type]
    both = extract([(face, "french:KH"), (face, "french:QH")], detector, _Reads("french:7S"))  # type: ignore[arg-type]
    assert len(both) == 2 * len(expected)


def test_the_reader_of_the_pieces_is_the_one_named_else_the_one_shipped_now(
    tmp_path: Path,
) -> None:
    """``reader_paths``: with nothing named, the shipped still-photo classifier and every
    shipped gate (three since experiment 99b); a classifier or gates named replace them. The
    record names each by its path in the repository and its fingerprint (``described``), so
    that a run's pieces can be cut again after more gates ship (experiment 100)."""
    from models import command_path as shown
    from training.real_pieces import described, reader_paths
    from vision.recognizer import (
        PHOTO_GATE,
        PHOTO_GATE_PIECES,
        PHOTO_GATE_PIECES_2,
        PHOTO_MODEL,
        model_fingerprint,
    )

    assert reader_paths() == (PHOTO_MODEL, (PHOTO_GATE, PHOTO_GATE_PIECES, PHOTO_GATE_PIECES_2))
    other = tmp_path / "c.onnx"
    assert reader_paths(other, [PHOTO_GATE]) == (other, (PHOTO_GATE,))
    assert reader_paths(None, []) == (PHOTO_MODEL, ())
    assert shown(PHOTO_GATE) == "models/kibic_photo_gate.onnx"
    assert shown(other) == str(other)
    said = described(PHOTO_MODEL, [PHOTO_GATE, PHOTO_GATE_PIECES])
    assert said == (
        f"models/kibic_photo_cards.onnx ({model_fingerprint(PHOTO_MODEL)}) past "
        f"models/kibic_photo_gate.onnx ({model_fingerprint(PHOTO_GATE)}), "
        f"models/kibic_photo_gate_pieces.onnx ({model_fingerprint(PHOTO_GATE_PIECES)})"
    )
    assert described(PHOTO_MODEL, []).endswith(" past no gate")
