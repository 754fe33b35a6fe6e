"""Printed-deck artwork and the synthetic photo-like scenes, without fetching anything."""

from __future__ import annotations

import numpy as np

from training.artwork import HELD_OUT_THEMES, TRAIN_THEMES, cut_sheet
from training.photo_eval import RANK_NAMES, REAL_LIKE, SceneShape, make_scene
from training.synth import FacePool, make_sample
from vision.card_faces import FACE_H, FACE_W, design_for_seed, render_face
from vision.evaluate import RANK_NAMES as EVAL_RANKS
from vision.evaluate import iou as EVAL_IOU
from vision.recognizer import INPUT_H, INPUT_W


def test_held_out_themes_are_not_trained_on() -> None:
    assert not set(HELD_OUT_THEMES) & set(TRAIN_THEMES)


def test_cut_sheet_finds_every_card_in_the_grid() -> None:
    ch, cw = 60, 40
    sheet = np.zeros((5 * ch, 13 * cw, 4), np.uint8)
    for row in range(5):
        for col in range(13 if row < 4 else 3):
            sheet[row * ch + 3 : (row + 1) * ch - 3, col * cw + 2 : (col + 1) * cw - 2] = (
                row * 40, col * 15, 200, 255,
            )  # fmt: skip
    faces = cut_sheet(sheet)
    assert len(faces) == 52 + 2 + 1
    assert {"french:AC", "french:KS", "french:TD", "french:JK", "french:JK#2", "back"} <= set(faces)
    assert all(f.shape == (FACE_H, FACE_W, 3) for f in faces.values())
    assert tuple(faces["french:KS"][100, 75]) == (120, 180, 200)  # row 3 (spades), column 12


def test_art_faces_are_sampled_and_backs_read_as_none() -> None:
    pool = FacePool.build([0])
    face = render_face("french:QH", design_for_seed("french", 5))
    pool.art = {"french:QH": [face]}
    pool.art_share = 1.0
    rng = np.random.default_rng(0)
    assert pool.pick("french:QH", rng) is face
    pool.backs = [np.full((FACE_H, FACE_W, 3), 90, np.uint8)]
    crop = make_sample(118, rng, pool)  # 'none'
    assert crop.shape == (INPUT_H, INPUT_W, 3)


def test_scene_boxes_are_labelled_by_rank_inside_the_image() -> None:
    design = design_for_seed("french", 3)
    faces = {f"french:{r}{s}": render_face(f"french:{r}{s}", design)
             for r in "9TJQKA" for s in "CDHS"}  # fmt: skip
    rng = np.random.default_rng(4)
    covered = 0
    for _ in range(6):
        img, boxes = make_scene(rng, faces)
        h, w = img.shape[:2]
        assert boxes and img.dtype == np.uint8
        for name, (x0, y0, x1, y1), whole in boxes:
            assert name in EVAL_RANKS and name in RANK_NAMES.values()
            assert 0 <= x0 < x1 < w and 0 <= y0 < y1 < h
            # the visible part lies inside the whole card (a pixel of rounding either way)
            assert whole[0] - 1 <= x0 and whole[1] - 1 <= y0
            assert x1 <= whole[2] + 1 and y1 <= whole[3] + 1
            covered += (x1 - x0) * (y1 - y0) < 0.9 * (whole[2] - whole[0]) * (whole[3] - whole[1])
        # the top card (drawn last) is never covered: its visible box is its whole box, less
        # the rounding of its corners
        assert EVAL_IOU(boxes[-1][1], boxes[-1][2]) > 0.9
    assert covered > 0  # some scenes overlap cards, and their labels show it


def test_real_like_photo_scenes_have_fewer_and_larger_cards() -> None:
    faces = {f"french:{r}{s}": render_face(f"french:{r}{s}", design_for_seed("french", 3))
             for r in "9TJQKA" for s in "CDHS"}  # fmt: skip
    sizes = {}
    for name, shape in (("default", SceneShape()), ("real", REAL_LIKE)):
        rng = np.random.default_rng(5)
        longest = []
        for _ in range(12):
            img, boxes = make_scene(rng, faces, shape=shape)
            if name == "real":
                assert 1 <= len(boxes) <= 3
            short = min(img.shape[:2])
            longest += [max(b[2] - b[0], b[3] - b[1]) / short for _, b, _ in boxes]
        sizes[name] = float(np.median(longest))
    assert sizes["real"] > 1.25 * sizes["default"]


def test_a_turned_card_keeps_its_shape_and_its_top_left_corner() -> None:
    """``card_corners``: the face's top edge is the card's short side at every angle (a card
    at 90 degrees lies on its side, its top-left corner at the right); at 180 upside down."""
    import numpy as np

    from training.photo_eval import CARD_ASPECT, card_corners

    for angle in (0, 30, 60, 90, 135, 180, -90):
        c = card_corners(500, 500, 100, angle)
        top, side = np.linalg.norm(c[1] - c[0]), np.linalg.norm(c[2] - c[1])
        assert (round(float(top)), round(float(side))) == (100, round(100 * CARD_ASPECT)), angle
    assert np.allclose(card_corners(500, 500, 100, 90)[0], (570, 450))
    assert np.allclose(card_corners(500, 500, 100, 180)[0], (550, 570))
