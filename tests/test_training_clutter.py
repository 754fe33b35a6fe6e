"""The clutter drawn as ``none`` for the still-photo classifier (``training.clutter``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests import needs
from training.clutter import clutter_none_sample, face_middle, printed_page
from training.synth import FacePool
from vision.labels import ALL_LABELS
from vision.recognizer import INPUT_H, INPUT_W

MAGENTA = (255, 0, 255)


@pytest.fixture(scope="module")
def marked_pool() -> FacePool:
    """Every face grey with its four corners (a fifth of each side, where indices are)
    magenta."""
    face = np.full((300, 200, 3), 128, np.uint8)
    for ys in (slice(0, 60), slice(240, 300)):
        for xs in (slice(0, 40), slice(160, 200)):
            face[ys, xs] = MAGENTA
    return FacePool(faces={label: [face] for label in ALL_LABELS})


@pytest.mark.parametrize("seed", range(20))
def test_face_middle_never_shows_a_corner_of_the_face(marked_pool: FacePool, seed: int) -> None:
    crop = face_middle(np.random.default_rng(seed), marked_pool)
    assert crop.shape == (INPUT_H, INPUT_W, 3)
    magenta = np.all(np.abs(crop.astype(int) - MAGENTA) < 40, axis=2)
    assert not magenta.any()


def test_a_printed_page_has_lettering_on_light_paper() -> None:
    rng = np.random.default_rng(3)
    pages = [printed_page(rng, INPUT_H, INPUT_W) for _ in range(10)]
    for page in pages:
        grey = cv2.cvtColor(page, cv2.COLOR_BGR2GRAY)
        assert np.median(grey) > 150  # the paper
        ink = (np.abs(grey.astype(int) - np.median(grey)) > 25).mean()
        assert 0.01 < ink < 0.6  # letters, not a blank sheet nor a filled one
    blank = np.full((INPUT_H, INPUT_W), 230, np.float32)
    assert min(cv2.Laplacian(cv2.cvtColor(p, cv2.COLOR_BGR2GRAY), cv2.CV_32F).var()
               for p in pages) > 20 * (cv2.Laplacian(blank, cv2.CV_32F).var() + 1)  # fmt: skip


def test_clutter_samples_are_crops_and_repeat_with_the_seed(marked_pool: FacePool) -> None:
    a = [clutter_none_sample(np.random.default_rng(7), marked_pool) for _ in range(2)]
    assert a[0].shape == (INPUT_H, INPUT_W, 3) and a[0].dtype == np.uint8
    assert np.array_equal(a[0], a[1])


def test_the_training_stream_with_clutter_only_turns_samples_into_none() -> None:
    needs.torch()
    from training.train import NONE_INDEX, Samples

    def first_batch(clutter: float) -> tuple[np.ndarray, np.ndarray]:
        data = Samples(5, 32, pool_every=100, designs_per_pool=1, clutter=clutter)
        x, y = next(iter(data))
        return x.numpy(), y.numpy()

    x0, y0 = first_batch(0.0)
    x1, y1 = first_batch(0.5)
    replaced = np.array([not np.array_equal(a, b) for a, b in zip(x0, x1, strict=True)])
    assert replaced.sum() >= 8 and (y1[replaced] == NONE_INDEX).all()
    assert np.array_equal(y1[~replaced], y0[~replaced])  # the rest of the stream is kept


def test_clutter_kinds_can_be_chosen(marked_pool: FacePool) -> None:
    rng = np.random.default_rng(11)
    middles = [clutter_none_sample(rng, marked_pool, ("face-middle",)) for _ in range(10)]
    assert all(np.abs(m.astype(int) - 128).max() <= 2 for m in middles)  # the grey middle
    pages = [clutter_none_sample(rng, marked_pool, ("page",)) for _ in range(10)]
    assert all(np.median(cv2.cvtColor(p, cv2.COLOR_BGR2GRAY)) > 150 for p in pages)


def test_an_unknown_clutter_kind_is_refused_by_name() -> None:
    needs.torch()
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "training.train", "--clutter-kinds", "page,cups"],
                         capture_output=True, text=True, check=False)  # fmt: skip
    assert run.returncode == 2
    assert "--clutter-kinds 'page,cups': choose from page, surface, face-middle" in run.stderr
