"""Real faces laid out as at a card table (``training.table_eval``): the two layouts of issue
#33's table photos, labelled by card code. Made-up faces stand in for the real ones here (the
layout and the labels do not depend on them); one test reads the real tuning faces."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from training import real_crops
from training.photo_eval import card_corners
from training.table_eval import SEATS, build, fanned_hands, flat_row, make_table, real_faces
from vision.card_faces import FACE_H, FACE_W
from vision.evaluate import read_voc

CODES = [f"{r}{s}" for r in "23456789TJQKA" for s in "CDHS"]


def _faces() -> dict[str, list[np.ndarray]]:
    rng = np.random.default_rng(0)
    return {c: [rng.integers(0, 256, (FACE_H, FACE_W, 3), dtype=np.uint8)] for c in CODES}


def _index_point(cx: float, cy: float, cw: float, angle: float) -> np.ndarray:
    """The middle of a card's top-left index (an eighth of its width in, a tenth of its height
    down), in the photo."""
    corners = card_corners(cx, cy, cw, angle)
    src = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    m = cv2.getPerspectiveTransform(src, corners.astype(np.float32))
    return cv2.perspectiveTransform(np.array([[[0.12, 0.1]]], np.float32), m)[0, 0]


def test_a_flat_row_is_five_cards_apart_across_the_table() -> None:
    rng = np.random.default_rng(3)
    cw = 120.0
    row = flat_row(rng, 960, 1280, cw)
    assert len(row) == 5
    xs = [x for x, _, _ in row]
    assert xs == sorted(xs) and min(np.diff(xs)) > cw  # apart: no card over the next
    assert 0 < xs[0] - cw / 2 and xs[-1] + cw / 2 < 1280
    assert all(abs(a) < 20 for _, _, a in row)


def test_each_fanned_hand_shows_both_top_left_indices() -> None:
    for seed in range(20):
        rng = np.random.default_rng(seed)
        cw = 120.0
        hands = fanned_hands(rng, 960, 1280, cw)
        assert len(hands) == 2 * len(SEATS)
        for k in range(0, len(hands), 2):
            under, over = hands[k], hands[k + 1]
            top = card_corners(*over[:2], cw, over[2]).reshape(-1, 1, 2)
            point = _index_point(*under[:2], cw, under[2])
            assert cv2.pointPolygonTest(top, (float(point[0]), float(point[1])), False) < 0
            # each hand faces its side of the table: the cards turned by the seat's angle
            seat = SEATS[k // 2][2]
            assert all(abs(((a - seat + 180) % 360) - 180) < 35 for _, _, a in (under, over))


def test_a_table_scene_labels_each_card_by_code_once(tmp_path: Path) -> None:
    faces = _faces()
    for layout, n in (("flat", 5), ("fanned", 8)):
        cards = build(tmp_path / layout, layout, 3, seed=1, faces=faces)
        assert cards == 3 * n  # no card dropped as hidden or out of the photo
        for xml in sorted((tmp_path / layout).glob("*.xml")):
            labels = [name for name, _ in read_voc(xml)]
            assert len(labels) == len(set(labels)) == n and set(labels) <= set(CODES)
            image = cv2.imread(str(xml.with_suffix(".jpg")))
            assert image is not None and image.shape == (960, 1280, 3)
    with pytest.raises(ValueError, match="layout must be one of flat, fanned"):
        make_table(np.random.default_rng(0), faces, "pile")


@pytest.mark.skipif(not real_crops.available(), reason="needs the card-crops photos")
def test_the_faces_are_the_real_tuning_faces_without_jokers() -> None:
    faces = real_faces()
    assert sorted(faces) == sorted(CODES)
    # twelve of each but where an erratum moved a photo to the card it shows
    # (vision.label_errata: QC-27 shows QD, 5C-31 shows 5S)
    moved = {"QC": -1, "QD": 1, "5C": -1, "5S": 1}
    per_card = {k: len(v) - real_crops.TUNE_PER_CLASS for k, v in faces.items()}
    assert {k: n for k, n in per_card.items() if n} == moved
    assert all(f.shape == (FACE_H, FACE_W, 3) for v in faces.values() for f in v)
    train = real_faces("train")
    assert sorted(train) == sorted(CODES)
    assert sum(map(len, train.values())) == 52 * 60 - 52 * real_crops.TUNE_PER_CLASS
    with pytest.raises(ValueError, match="part must be one of tune, train"):
        real_faces("test")


@pytest.mark.skipif(not real_crops.available(), reason="needs the card-crops photos")
def test_whole_faces_leave_out_the_tuning_photos_that_are_no_whole_card() -> None:
    """Each photo named in ``card_crops_whole.NOT_WHOLE`` is of the tuning part, and the whole
    faces are the rest of it (485 of 624); the training part was not sorted, so it is refused."""
    from training.card_crops_whole import NOT_WHOLE

    _, tune = real_crops.split()
    stems = {c.path.stem for c in tune if c.code != "JK"}
    assert len(NOT_WHOLE) == 139 and NOT_WHOLE <= stems
    whole = real_faces(whole_only=True)
    assert sorted(whole) == sorted(CODES)
    assert sum(map(len, whole.values())) == len(stems) - len(NOT_WHOLE) == 485
    assert len(whole["4C"]) == real_crops.TUNE_PER_CLASS - 7  # the class with the most left out
    with pytest.raises(ValueError, match="only the tuning part's faces were sorted"):
        real_faces("train", whole_only=True)
