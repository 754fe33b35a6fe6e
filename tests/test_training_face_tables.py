"""Training scenes for the corner-index finder of real faces laid as at a table
(``training.face_tables``): each index that shows is boxed where it lies, and an index under
another card is not. Made-up faces stand in for the real ones, but for one test that finds the
indices of a few real training faces."""

from __future__ import annotations

import numpy as np
import pytest

from training import real_crops
from training.face_tables import (
    SEARCH,
    Faces,
    TableStream,
    index_box,
    index_boxes,
    index_quads,
    overlapping_row,
    placed,
    shown_indices,
    table,
)
from training.photo_eval import card_corners, lay
from training.table_eval import SIZE
from vision.card_faces import FACE_H, FACE_W

BOX = np.array([0.1, 0.14, 0.2, 0.24], np.float32)  # a top-left index, shares of the face


def _face(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, (FACE_H, FACE_W, 3), dtype=np.uint8)


def test_the_bottom_right_index_is_the_top_left_one_turned_half_a_turn() -> None:
    top_left, bottom_right = index_quads(BOX, 150, 210)
    np.testing.assert_allclose(top_left, [[0, 4.2], [30, 4.2], [30, 54.6], [0, 54.6]], atol=1e-3)
    turned = np.array([150.0, 210.0]) - top_left
    np.testing.assert_allclose(sorted(turned.tolist()), sorted(bottom_right.tolist()), atol=1e-3)


def test_a_face_index_is_the_surest_box_in_its_top_left_corner() -> None:
    pad = 100
    boxes = [
        ((pad + 20.0, pad + 30.0, 30.0, 50.0), 0.4),
        ((pad + 15.0, pad + 28.0, 24.0, 40.0), 0.7),  # the surest in the corner
        ((pad + 130.0, pad + 180.0, 30.0, 50.0), 0.9),  # the bottom-right index
        ((pad - 10.0, pad + 10.0, 30.0, 50.0), 0.95),  # off the face
    ]
    assert index_box(boxes, 150, 210, pad) == pytest.approx((0.1, 28 / 210, 0.16, 40 / 210))
    assert index_box(boxes[2:], 150, 210, pad) is None
    assert index_box([((pad + SEARCH * 150 + 1, pad + 20.0, 30.0, 50.0), 0.9)], 150, 210,
                     pad) is None  # fmt: skip


def test_an_index_under_another_card_is_not_boxed() -> None:
    rng = np.random.default_rng(0)
    table_top = np.full((600, 800, 3), 60, np.uint8)
    cw = 150.0
    under = card_corners(300, 300, cw, 0)
    # the second card over the first's top-left corner only
    over = card_corners(300 - 0.8 * cw, 300 - 0.8 * cw * 1.4, cw, 0)
    laid = lay(rng, table_top, [(_face(1), under, "QH"), (_face(2), over, "7S")],
               tilt_share=0.0)  # fmt: skip
    boxes, codes = shown_indices(laid, [BOX, BOX], ["QH", "7S"])
    assert codes == ("QH", "7S", "7S")  # QH's bottom-right index, both of 7S's
    # QH's bottom-right index: its box half a turn from the top-left one, in the photo
    x0, y0 = 300 - cw / 2, 300 - cw * 1.4 / 2
    cx, cy = x0 + (1 - BOX[0]) * cw, y0 + (1 - BOX[1]) * cw * 1.4
    assert boxes[0].tolist() == pytest.approx([cx, cy, BOX[2] * cw, BOX[3] * cw * 1.4], abs=1.0)


def test_an_index_out_of_the_photo_is_not_boxed() -> None:
    rng = np.random.default_rng(0)
    corners = card_corners(40, 300, 150.0, 0)  # its left edge off the photo
    laid = lay(rng, np.full((600, 800, 3), 60, np.uint8), [(_face(1), corners, "QH")],
               tilt_share=0.0)  # fmt: skip
    boxes, codes = shown_indices(laid, [BOX], ["QH"])
    assert codes == ("QH",) and boxes[0][0] > 40  # the bottom-right one only


def test_a_table_boxes_only_the_laid_cards_inside_the_photo_and_is_seeded() -> None:
    codes = [f"{r}{s}" for r in "23456789TJQKA" for s in "CDHS"]
    faces = Faces([_face(k) for k in range(len(codes))], codes,
                  np.tile(BOX, (len(codes), 1)))  # fmt: skip
    h, w = SIZE
    for seed in range(8):
        photo = table(np.random.default_rng(seed), faces)
        again = table(np.random.default_rng(seed), faces)
        assert photo.codes == again.codes and np.array_equal(photo.boxes, again.boxes)
        assert photo.image.shape == (h, w, 3) and photo.folder == "faces"
        assert len(photo.codes) == len(photo.boxes) >= 2
        assert all(photo.codes.count(c) <= 2 for c in photo.codes)  # two indices a card
        cx, cy, bw, bh = photo.boxes.T
        assert (cx - bw / 2 >= 0).all() and (cx + bw / 2 < w).all()
        assert (cy - bh / 2 >= 0).all() and (cy + bh / 2 < h).all()


@pytest.mark.skipif(not real_crops.available(), reason="needs the card-crops photos")
def test_the_shipped_finder_finds_the_top_left_index_of_real_training_faces() -> None:
    from vision.corner_finder import CornerFinder

    train, _ = real_crops.split()
    rng = np.random.default_rng(5)
    crops = [train[int(k)] for k in rng.choice(len(train), 12, replace=False)]
    faces = index_boxes([real_crops.face(real_crops.read(c)) for c in crops],
                        [c.code for c in crops], CornerFinder(threshold=0.1))  # fmt: skip
    assert len(faces.codes) >= 9  # most real faces: the rest are no whole card or no face
    assert set(faces.codes) <= {c.code for c in crops}
    assert ((faces.boxes[:, :2] >= 0) & (faces.boxes[:, :2] < SEARCH)).all()
    assert ((faces.boxes[:, 2:] > 0.08) & (faces.boxes[:, 2:] < 0.5)).all()


def test_every_layout_fits_the_table() -> None:
    h, w = SIZE
    for seed in range(300):
        spots, cw = placed(np.random.default_rng(seed), h, w)
        assert 3 <= len(spots) <= 12 and 0.05 * w < cw <= 0.13 * w
        assert all(0 < x < w and 0 < y < h for x, y, _ in spots)


def test_an_overlapping_row_lays_its_cards_a_strip_apart_all_turned_alike() -> None:
    h, w = SIZE
    turned = set()
    for seed in range(200):
        spots, cw = overlapping_row(np.random.default_rng(seed), h, w)
        assert 6 <= len(spots) <= 13 and 0.07 * w <= cw <= 0.12 * w
        xs = np.array([x for x, _, _ in spots])
        assert xs.min() - cw / 2 > 0 and xs.max() + cw / 2 < w  # the row fits across the table
        steps = np.abs(np.diff(xs))
        assert (steps > 0.1 * cw).all() and (steps < 0.4 * cw).all()  # a strip of each shows
        assert (np.diff(xs) > 0).all() or (np.diff(xs) < 0).all()  # laid one way
        angles = [a for _, _, a in spots]
        assert max(angles) - min(angles) < 30  # all upright, or all half a turn round
        turned.add(round(angles[0] / 180) % 2)
    assert turned == {0, 1}


def test_a_row_table_boxes_the_index_in_the_strip_of_each_card() -> None:
    codes = [f"{r}{s}" for r in "23456789TJQKA" for s in "CDHS"]
    narrow = np.array([0.08, 0.14, 0.12, 0.22], np.float32)  # an index narrower than a strip
    faces = Faces([_face(k) for k in range(len(codes))], codes,
                  np.tile(narrow, (len(codes), 1)))  # fmt: skip
    for seed in range(6):
        photo = table(np.random.default_rng(seed), faces, overlapping_row)
        # each of the six or more cards shows one index in its strip, the top card both
        assert len(set(photo.codes)) >= 6 and len(photo.codes) <= len(set(photo.codes)) + 1
        assert photo.codes == table(np.random.default_rng(seed), faces, overlapping_row).codes


def test_the_box_reader_draws_indices_of_a_new_table_every_few_samples() -> None:
    from training.train_corner_reader import TABLE_USES

    codes = [f"{r}{s}" for r in "23456789TJQKA" for s in "CDHS"]
    faces = Faces([_face(k) for k in range(len(codes))], codes,
                  np.tile(BOX, (len(codes), 1)))  # fmt: skip
    laid = TableStream(faces, TABLE_USES, boxed=True)
    rng = np.random.default_rng(2)
    tables = [laid.next(rng) for _ in range(2 * TABLE_USES)]
    drawn = [(photo, int(rng.integers(len(photo.codes)))) for photo in tables]
    assert all(t is tables[0] for t in tables[:TABLE_USES])
    assert tables[TABLE_USES] is not tables[0]
    assert all(0 <= k < len(photo.codes) for photo, k in drawn)


@pytest.mark.skipif(not real_crops.available(), reason="needs the card-crops photos")
def test_the_finder_is_measured_on_every_index_that_shows_of_the_tuning_faces() -> None:
    from training.face_tables import indexed_faces
    from vision.corner_eval import evaluate_face_tables
    from vision.corner_finder import CornerFinder

    faces = indexed_faces("tune")
    rng = np.random.default_rng(7)
    tables = [table(rng, faces) for _ in range(2)]
    report = evaluate_face_tables(CornerFinder(), tables=2, seed=7)
    assert report.photos == 2
    assert report.boxes == sum(len(t.codes) for t in tables)
    assert report.cards == sum(len(set(t.codes)) for t in tables)
    assert report.boxes // 2 < report.boxes_found <= report.boxes
    assert report.cards_right <= report.cards_found <= report.cards
    with pytest.raises(ValueError, match="part must be train or tune"):
        indexed_faces("test")


@pytest.mark.skipif(not real_crops.available(), reason="needs the card-crops photos")
def test_the_tuning_faces_index_boxes_are_pinned_as_the_shipped_models_find_them() -> None:
    """``face_tables_tune_boxes.json`` holds what ``pin_tune_boxes`` finds now: a change of the
    shipped finder or box reader that moves them fails here (pin them again, and say so)."""
    import json

    from training.face_tables import TUNE_BOXES, indexed_faces
    from vision.corner_finder import CornerFinder

    pinned = json.loads(TUNE_BOXES.read_text())
    assert pinned["finder"] == "kibic_corners.onnx version 1"
    faces = indexed_faces("tune")
    assert len(faces.codes) == len(pinned["boxes"]) == 566
    _, tune = real_crops.split()
    finder = CornerFinder(threshold=0.1)
    for crop in tune[::40]:  # 16 of them, every class's photos in turn
        found = index_boxes([real_crops.face(real_crops.read(crop))], [crop.code], finder)
        key = crop.path.relative_to(real_crops.CROPS).as_posix()
        if found.codes:
            np.testing.assert_allclose(found.boxes[0], pinned["boxes"][key], atol=1e-3)
        else:
            assert key not in pinned["boxes"]
