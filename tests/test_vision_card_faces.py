"""The card-face renderer: deterministic, every class drawable, pips counted exactly."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.card_faces import FACE_H, FACE_W, design_for_seed, render_face
from vision.labels import ALL_LABELS


def _red_pips(img: np.ndarray) -> int:
    red = ((img[:, :, 2] > 150) & (img[:, :, 1] < 100)).astype(np.uint8)
    h, w = red.shape
    red[: int(h * 0.3), : int(w * 0.3)] = 0  # the two index corners
    red[int(h * 0.7) :, int(w * 0.7) :] = 0
    red[: int(h * 0.2), int(w * 0.7) :] = 0  # the German suit corner signs
    red[int(h * 0.8) :, : int(w * 0.3)] = 0
    _, _, stats, _ = cv2.connectedComponentsWithStats(red)
    return sum(1 for s in stats[1:] if s[cv2.CC_STAT_AREA] > 30)


@pytest.mark.parametrize(
    ("label", "pips"),
    [("french:2H", 2), ("french:5H", 5), ("french:7H", 7), ("french:9H", 9), ("french:TH", 10),
     ("french:AH", 1), ("german:P7", 7), ("german:P10", 10)],
)  # fmt: skip
def test_pip_count(label: str, pips: int) -> None:
    design = design_for_seed(label.split(":")[0], 0)
    assert _red_pips(render_face(label, design)) == pips


def test_every_class_renders_and_is_deterministic() -> None:
    for family in ("french", "german", "serbian"):
        a, b = design_for_seed(family, 7), design_for_seed(family, 7)
        assert a == b
    images = {
        label: render_face(label, design_for_seed(label.split(":")[0], 3)) for label in ALL_LABELS
    }
    assert all(img.shape == (FACE_H, FACE_W, 3) for img in images.values())
    again = render_face("serbian:4Š", design_for_seed("serbian", 3))
    assert np.array_equal(again, images["serbian:4Š"])
    # no two classes share a face
    digests = {img.tobytes() for img in images.values()}
    assert len(digests) == len(ALL_LABELS) == 118


def test_serbian_big_house_has_bigger_signs() -> None:
    design = design_for_seed("serbian", 0)
    small = render_face("serbian:1r", design)  # 7 of hearts: one small rose
    big = render_face("serbian:1R", design)  # jack of hearts: one big rose
    red = lambda img: int(((img[:, :, 2] > 150) & (img[:, :, 1] < 100)).sum())  # noqa: E731
    assert red(big) > 3 * red(small)
