"""The corner-index reader (``vision.index_reader``): where the corners are cut, how its reading
weighs the classifier's, the shipped model on real photos, and its training command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.cards import Deck
from tests import needs
from training.real_crops import CROPS
from training.train_index import corners_shown, index_labels
from vision.index_reader import (
    DEFAULT_INDEX_MODEL,
    FACE_H,
    FACE_W,
    INPUT_H,
    INPUT_W,
    IndexReader,
    corner_regions,
    weigh,
)
from vision.pipeline import read_whole
from vision.recognizer import PHOTO_GATE, PHOTO_MODEL, Recognizer

ROOT = Path(__file__).resolve().parent.parent


def test_the_corners_are_the_top_left_and_the_bottom_right_turned_upright() -> None:
    face = np.zeros((FACE_H, FACE_W, 3), np.uint8)
    face[:30, :20] = (0, 0, 255)  # top-left: red
    face[-30:, -20:] = (255, 0, 0)  # bottom-right: blue
    face[-10:, -6:] = (0, 255, 0)  # the bottom-right's very corner: green
    top_left, bottom_right = corner_regions(face)
    assert top_left.shape == bottom_right.shape == (INPUT_H, INPUT_W, 3)
    assert tuple(top_left[2, 2]) == (0, 0, 255)
    assert tuple(bottom_right[15, 12]) == (255, 0, 0)
    assert tuple(bottom_right[1, 1]) == (0, 255, 0)  # turned: its corner comes to the top left
    assert tuple(top_left[-1, -1]) == (0, 0, 0)  # the cut ends inside the face


def test_the_index_weighs_only_the_cards_it_reads_and_keeps_their_total() -> None:
    labels = ("french:2C", "french:JC", "german:UG", "none")
    probs = np.array([[0.3, 0.5, 0.1, 0.1]])
    index = np.array([[0.98, 0.01]])
    out = weigh(probs, labels, index, ("french:2C", "french:JC"))
    assert out[0, 2] == pytest.approx(0.1) and out[0, 3] == pytest.approx(0.1)
    assert out[0, :2].sum() == pytest.approx(0.8)
    two = np.sqrt(0.3 * (0.98 + 1e-3))
    jack = np.sqrt(0.5 * (0.01 + 1e-3))
    assert out[0, 0] == pytest.approx(0.8 * two / (two + jack), rel=1e-5)
    assert out[0].argmax() == 0  # the index turns a jack read from the pictures into the 2


def test_a_corner_that_shows_nothing_leaves_the_classifier_ranking_as_it_was() -> None:
    labels = ("french:2C", "french:JC", "french:QC", "none")
    probs = np.array([[0.2, 0.5, 0.25, 0.05]])
    out = weigh(probs, labels, np.zeros((1, 3)), ("french:2C", "french:JC", "french:QC"))
    assert list(np.argsort(-out[0])) == list(np.argsort(-probs[0]))
    assert out[0, 3] == pytest.approx(0.05)


def test_a_card_outside_the_deck_stays_out_whatever_the_index_reads() -> None:
    labels = ("french:2C", "french:AC", "none")
    probs = np.array([[0.0, 0.9, 0.1]])  # the 2 is not in the deck: the classifier's mask
    out = weigh(probs, labels, np.array([[0.99, 0.01]]), ("french:2C", "french:AC"))
    assert out[0, 0] == 0.0 and out[0].argmax() == 1


def test_a_corner_box_counts_for_the_corner_it_lies_in() -> None:
    corners = np.array([[100, 100], [250, 100], [250, 310], [100, 310]], np.float32)  # upright
    near_top_left = np.array([[110, 120]], np.float32)
    near_bottom_right = np.array([[240, 300]], np.float32)
    middle = np.array([[175, 205]], np.float32)
    assert corners_shown(corners, near_top_left) == (True, False)
    assert corners_shown(corners, near_bottom_right) == (False, True)
    assert corners_shown(corners, middle) == (False, False)
    turned = np.roll(corners, 2, axis=0)  # the same card upside down: the corners swap
    assert corners_shown(turned, near_top_left) == (False, True)


def test_the_model_reads_french_cards_and_none() -> None:
    labels = index_labels()
    assert len(labels) == 54 and labels[-1] == "none"
    assert {"french:2C", "french:TD", "french:JK"} <= set(labels)
    reader = IndexReader(DEFAULT_INDEX_MODEL)
    assert reader.labels == labels


def _photo(code: str, name: str) -> np.ndarray:
    path = CROPS / code / name
    if not path.is_file():
        pytest.skip(f"needs the real photos (../shared/data/real-photos): {path}")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    assert image is not None
    return image


@pytest.mark.parametrize("code,name", [("2C", "2C-01.jpg"), ("3C", "3C-01.jpg")])
def test_a_real_card_drawn_as_an_artwork_is_read_by_its_index(code: str, name: str) -> None:
    """Two of card-crops' tuning photos whose pictures the classifier alone reads as other
    cards (SETS.md: card-crops may tune)."""
    image = _photo(code, name)
    alone = Recognizer(PHOTO_MODEL, gate=PHOTO_GATE)
    both = Recognizer(PHOTO_MODEL, gate=PHOTO_GATE, index=DEFAULT_INDEX_MODEL)
    by_face = read_whole(image, alone, deck=Deck.FRENCH_53)
    by_both = read_whole(image, both, deck=Deck.FRENCH_53)
    assert by_face is None or by_face.card.code != code
    assert by_both is not None and by_both.card.code == code


def test_training_runs_and_exports_a_model_the_reader_loads(tmp_path: Path) -> None:
    needs.torch()
    if not CROPS.is_dir():
        pytest.skip(f"needs the real photos (../shared/data/real-photos): {CROPS}")
    out = tmp_path / "index.onnx"
    run = subprocess.run([sys.executable, "-m", "training.train_index", "--steps", "2",
                          "--batch", "8", "--out", str(out)], cwd=ROOT, capture_output=True,
                         text=True, timeout=900)  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    meta = json.loads(out.with_suffix(".labels.json").read_text())
    assert meta["labels"] == list(index_labels())
    assert meta["training"]["command"].startswith("python -m training.train_index --steps 2")
    reader = IndexReader(out)
    probs = reader.read([np.full((FACE_H, FACE_W, 3), 200, np.uint8)])
    assert probs.shape == (1, 53) and np.all(probs >= 0) and probs.sum() <= 1.0 + 1e-5


def test_a_low_resolution_corner_keeps_its_size_and_loses_detail() -> None:
    from training.train_index import lowres

    rng = np.random.default_rng(3)
    region = np.zeros((INPUT_H, INPUT_W, 3), np.uint8)
    region[:, ::2] = 255  # one-pixel stripes: the finest detail there is
    soft = lowres(region, rng)
    assert soft.shape == region.shape
    assert soft.astype(float).std() < 0.8 * region.astype(float).std()


def test_the_rendered_faces_hold_the_demos_design_and_every_french_card() -> None:
    from training.train_index import rendered_pool

    pool = rendered_pool(seed=2, designs=2)
    for label in ("french:2C", "french:TD", "french:JK"):
        assert len(pool.faces[label]) == 3  # the demo's design and two training designs
        assert pool.faces[label][0].shape[:2] == (FACE_H, FACE_W)


def test_a_dark_deck_corner_swaps_paper_and_black_ink_and_keeps_red_ink() -> None:
    from training.train_index import dark, grey

    region = np.full((INPUT_H, INPUT_W, 3), 235, np.uint8)  # white paper
    region[4:12, 4:12] = (20, 20, 20)  # black ink
    region[14:20, 4:12] = (30, 30, 210)  # red ink (BGR)
    out = dark(region)
    assert out[0, 0].max() < 40 and out[6, 6].min() > 200  # black paper, pale ink
    b, g, r = (int(v) for v in out[16, 8])
    assert r > 180 and b < 60 and g < 60  # red stays red
    assert np.array_equal(dark(out), out)  # a dark corner stays as it is
    flat = grey(region)
    assert flat.shape == region.shape
    assert np.array_equal(flat[..., 0], flat[..., 2]) and flat[16, 8, 0] < 120


def test_a_recoloured_corner_keeps_its_paper_and_gives_all_its_ink_one_new_colour() -> None:
    from training.train_index import dark, recolour

    region = np.full((INPUT_H, INPUT_W, 3), 235, np.uint8)  # white paper
    region[4:12, 4:12] = (20, 20, 20)  # black ink: the rank
    region[14:20, 4:12] = (30, 30, 210)  # red ink: the suit sign (BGR)
    out = recolour(region, np.random.default_rng(5))
    assert out.shape == region.shape and out.dtype == np.uint8
    assert np.abs(out[30, 20].astype(int) - 235).max() <= 1  # the paper as it was
    black, red = out[8, 8].astype(int), out[16, 8].astype(int)
    assert np.abs(black - red).max() > 30  # the red ink is lighter: a paler tint of one colour
    assert np.abs(black - (20, 20, 20)).max() > 10  # the black ink has another colour now
    again = recolour(region, np.random.default_rng(5))
    assert np.array_equal(out, again)  # the same draw, the same corner
    assert not np.array_equal(out, recolour(region, np.random.default_rng(6)))
    pale_on_dark = dark(region)
    assert np.array_equal(recolour(pale_on_dark, np.random.default_rng(5)), pale_on_dark)
