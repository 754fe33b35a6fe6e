"""Training samples of the classifier (training/synth.py): a card under the next card of a fan."""

from __future__ import annotations

import numpy as np
import pytest

from training.synth import (
    MODEL_LABELS,
    QUAD_SHIFT,
    FacePool,
    cover_from_side,
    make_sample,
    warp_face,
)
from vision.recognizer import INPUT_H, INPUT_W


@pytest.fixture(scope="module")
def pool() -> FacePool:
    return FacePool.build([0, 3])


@pytest.mark.parametrize("seed", range(12))
def test_cover_from_side_leaves_a_strip_along_one_long_side(pool: FacePool, seed: int) -> None:
    rng = np.random.default_rng(seed)
    card = np.full((INPUT_H, INPUT_W, 3), (1, 254, 3), np.uint8)  # a green no face uses
    out = cover_from_side(card, rng, pool)
    assert out is card and out.shape == (INPUT_H, INPUT_W, 3)
    px = out.astype(int)
    shows = (px[..., 1] > 2 * px[..., 0] + 20) & (px[..., 1] > 2 * px[..., 2] + 20)  # shaded too
    # most of the card is covered, but not all of it
    assert 0.05 < shows.mean() < 0.8
    # one outermost long side shows all the way down (below the top rows, where a card
    # leaning left at the top may reach it); the other is mostly covered
    left, right = shows[INPUT_H // 4 :, 0].mean(), shows[INPUT_H // 4 :, -1].mean()
    assert max(left, right) == 1.0
    assert min(left, right) <= 0.6


def test_make_sample_without_under_draws_the_same_stream(pool: FacePool) -> None:
    label = MODEL_LABELS.index("french:7S")
    a = make_sample(label, np.random.default_rng(5), pool)
    b = make_sample(label, np.random.default_rng(5), pool, under=0.0)
    assert np.array_equal(a, b)  # the recorded recipes' samples do not move


def test_make_sample_under_covers_the_card(pool: FacePool) -> None:
    label = MODEL_LABELS.index("french:7S")
    plain = make_sample(label, np.random.default_rng(5), pool)
    under = make_sample(label, np.random.default_rng(5), pool, under=1.0)
    assert under.shape == plain.shape
    assert not np.array_equal(plain, under)


def test_make_sample_without_quad_error_draws_the_same_stream(pool: FacePool) -> None:
    label = MODEL_LABELS.index("french:7S")
    a = make_sample(label, np.random.default_rng(5), pool)
    b = make_sample(label, np.random.default_rng(5), pool, quad_error=0.0)
    assert np.array_equal(a, b)


def _centre_mark_offsets(quad_error: float) -> np.ndarray:
    """Where the face's centre lands in the crop, off the crop's centre, in long sides."""
    face = np.full((350, 250, 3), 255, np.uint8)
    face[165:185, 115:135] = 0  # a black mark at the face's centre
    offsets = []
    for seed in range(60):
        bg = np.full((INPUT_H, INPUT_W, 3), 255, np.uint8)
        out = warp_face(face, np.random.default_rng(seed), jitter=0.0, bg=bg, quad_error=quad_error)
        ys, xs = np.nonzero(out[..., 0] < 128)
        offsets.append((xs.mean() - (INPUT_W - 1) / 2, ys.mean() - (INPUT_H - 1) / 2))
    return np.asarray(offsets) / INPUT_H


def test_warp_face_quad_error_moves_the_card_off_the_window() -> None:
    # the quad error moves the card's centre by about QUAD_SHIFT long sides per axis (times
    # quad_error); without it only the finder-like shift of 0.015 sides remains
    spread = _centre_mark_offsets(2.0).std(axis=0)
    assert (spread > 0.7 * 2.0 * QUAD_SHIFT).all() and (spread < 1.3 * 2.0 * QUAD_SHIFT).all()
    assert (_centre_mark_offsets(0.0).std(axis=0) < 0.3 * 2.0 * QUAD_SHIFT).all()


def test_jpeg_roundtrip_keeps_the_image_size_and_loses_detail_at_low_quality() -> None:
    from training.degrade import jpeg_roundtrip

    rng = np.random.default_rng(3)
    noisy = rng.integers(0, 256, (48, 32, 3), dtype=np.uint8)
    low, high = jpeg_roundtrip(noisy, 30), jpeg_roundtrip(noisy, 95)
    assert low.shape == noisy.shape and low.dtype == np.uint8
    err_low = np.abs(low.astype(int) - noisy).mean()
    err_high = np.abs(high.astype(int) - noisy).mean()
    assert err_high < err_low and err_low > 10
    flat = np.full((48, 32, 3), 128, np.uint8)
    assert np.abs(jpeg_roundtrip(flat, 30).astype(int) - 128).max() <= 1
