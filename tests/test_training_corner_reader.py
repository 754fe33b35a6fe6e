"""``training.train_corner_reader --gray SHARE``: that share of the box reader's training
samples turned grey (three equal channels), after light, blur and noise; 0 changes nothing."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from training.corner_samples import light
from training.train_corner_reader import Batches, to_gray


def _colour_square(seed: int = 0) -> np.ndarray:
    """A 48 x 48 square whose three channels differ everywhere."""
    rng = np.random.default_rng(seed)
    image = rng.integers(0, 80, (48, 48, 3), np.uint8)
    image[..., 2] += 150  # red over blue and green: no pixel is grey
    return image


def _grey(image: np.ndarray) -> bool:
    return bool((image[..., 0] == image[..., 1]).all() and (image[..., 1] == image[..., 2]).all())


def test_a_sample_turned_grey_has_three_equal_channels() -> None:
    image = _colour_square()
    out = to_gray(light(image, np.random.default_rng(4)), np.random.default_rng(5), 1.0)
    assert out.shape == image.shape and out.dtype == np.uint8
    assert _grey(out) and not _grey(image)
    # the grey of the picture, not a blank: a red square stays brighter than a blue one
    assert np.array_equal(to_gray(image, np.random.default_rng(5), 1.0)[..., 0],
                          cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))  # fmt: skip


def test_a_share_of_zero_leaves_the_sample_and_the_draws_that_follow_unchanged() -> None:
    image = _colour_square()
    rng, same = np.random.default_rng(7), np.random.default_rng(7)
    assert to_gray(image, rng, 0.0) is image
    assert rng.random() == same.random()  # no draw taken: the samples after it are as before


def test_the_share_is_the_share_of_grey_samples() -> None:
    image, rng = _colour_square(), np.random.default_rng(3)
    grey = sum(_grey(to_gray(image, rng, 0.3)) for _ in range(2000))
    assert 540 <= grey <= 660  # 600 expected; the binomial's sd is 20


def test_a_training_batch_drawn_with_gray_one_is_all_grey_and_with_zero_in_colour() -> None:
    from training.real_finder_crops import CORNERS

    if not CORNERS.is_dir():
        pytest.skip(f"needs the real photos (../shared/data/real-photos): {CORNERS}")
    for share, grey in ((1.0, True), (0.0, False)):
        x, y = next(Batches(1, 6, 0.0, share).stream(np.random.default_rng([1, 0])))
        assert x.shape == (6, 3, 48, 48) and y.shape == (6,)
        same = [bool((s[0] == s[1]).all() and (s[1] == s[2]).all()) for s in x]
        assert all(same) if grey else not any(same), share


def test_a_printed_sample_is_a_square_of_print_and_labelled_none() -> None:
    """``--print SHARE`` (experiment 43): squares of printed matter, read as no index."""
    from training.real_finder_crops import CORNERS
    from training.train_corner_reader import printed_sample
    from training.train_index import index_labels

    square = printed_sample(np.random.default_rng(2))
    assert square.shape == (48, 48, 3) and square.dtype == np.uint8
    assert square.std() > 5  # ink on paper, not a blank
    if not CORNERS.is_dir():
        pytest.skip(f"needs the real photos (../shared/data/real-photos): {CORNERS}")
    none = index_labels().index("none")
    _, y = next(Batches(1, 8, 0.0, 0.0, printed=1.0).stream(np.random.default_rng([1, 0])))
    assert (y == none).all()
    # no share, no draw: the stream of version 1's recipe is kept
    a = next(Batches(1, 8, 0.0, 0.0, printed=0.0).stream(np.random.default_rng([1, 0])))
    b = next(Batches(1, 8, 0.0, 0.0).stream(np.random.default_rng([1, 0])))
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


@pytest.mark.parametrize(
    ("share", "source"),
    [("hard", "finder_mistakes"),  # experiment 44: the finder's boxes off every card
     ("pieces", "face_pieces")],  # experiment 84: its boxes on the pips and pictures of faces
)  # fmt: skip
def test_a_share_of_one_draws_only_its_none_samples_and_no_share_no_draw(
    monkeypatch: pytest.MonkeyPatch, share: str, source: str
) -> None:
    """``--hard SHARE`` and ``--pieces SHARE``: that share of the samples drawn from their
    patches, read as none; with no share, no draw (the stream of the recipes before is kept)."""
    from training import train_corner_reader
    from training.hard_negatives import PATCH_PX, Negative
    from training.real_finder_crops import CORNERS
    from training.train_index import index_labels

    if not CORNERS.is_dir():
        pytest.skip(f"needs the real photos (../shared/data/real-photos): {CORNERS}")
    patch = np.full((PATCH_PX, PATCH_PX, 3), 77, np.uint8)
    monkeypatch.setattr(train_corner_reader, source,
                        lambda *start: [Negative(patch, "IMG_1.JPG", (0, 0, 9, 9))])  # fmt: skip
    none = index_labels().index("none")
    x, y = next(Batches(1, 8, 0.0, 0.0, **{share: 1.0}).stream(np.random.default_rng([1, 0])))
    assert (y == none).all() and x.shape == (8, 3, 48, 48)
    a = next(Batches(1, 8, 0.0, 0.0, **{share: 0.0}).stream(np.random.default_rng([1, 0])))
    b = next(Batches(1, 8, 0.0, 0.0).stream(np.random.default_rng([1, 0])))
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def test_the_shipped_box_reader_loads_for_a_fine_tune_and_gives_its_logits() -> None:
    """``--init-onnx READER``: the exported reader's folded norms become identities."""
    from tests import needs

    torch = needs.torch()
    import onnxruntime as ort

    from training.train import freeze_norms
    from training.train_corner_reader import wide_net
    from training.train_index import build_net, start_from
    from vision.corner_finder import DEFAULT_READER

    net = build_net(54)
    start_from(net, DEFAULT_READER)
    net.train()
    freeze_norms(net)
    x = np.random.default_rng(5).uniform(-1, 1, (3, 3, 48, 48)).astype(np.float32)
    with torch.no_grad():
        ours = net(torch.from_numpy(x)).numpy()
    session = ort.InferenceSession(str(DEFAULT_READER), providers=["CPUExecutionProvider"])
    theirs = session.run(None, {"input": x})[0]
    assert ours.shape == theirs.shape == (3, 54)
    assert np.abs(ours - theirs).max() < 1e-4
    with pytest.raises(ValueError, match="6 convs and 1 linear layers, the net has 7 and 1"):
        start_from(wide_net(54), DEFAULT_READER)


def test_a_box_is_crowded_when_another_index_lies_in_the_square_read_around_it() -> None:
    from training.corner_samples import LabelledPhoto
    from training.train_corner_reader import crowded
    from vision.corner_finder import READ_SIDE

    # a row of three indices 14 x 50 px, 20 px apart, and one alone far off
    boxes = np.array([[100, 100, 14, 50], [120, 100, 14, 50], [140, 100, 14, 50],
                      [400, 300, 14, 50]], np.float32)  # fmt: skip
    photo = LabelledPhoto(np.zeros((480, 640, 3), np.uint8), boxes, ("2H", "3H", "4H", "5H"), "d")
    assert [crowded(photo, k) for k in range(4)] == [True, True, True, False]
    # the square's half side is READ_SIDE * 50 / 2 = 32.5 px: a neighbour 40 px off is outside
    apart = boxes.copy()
    apart[:3, 0] = [100, 140, 180]
    assert 40 > READ_SIDE * 50 / 2
    assert not any(crowded(LabelledPhoto(photo.image, apart, photo.codes, "d"), k)
                   for k in range(4))  # fmt: skip


def test_a_dense_share_of_one_draws_only_crowded_boxes() -> None:
    """``--dense SHARE`` (experiment 92): that share of the samples cut around the corner-boxes
    training boxes whose read square holds another index; no share, no draw."""
    from training.corner_samples import load
    from training.real_finder_crops import CORNERS
    from training.train_corner_reader import crowded
    from training.train_index import index_labels

    if not CORNERS.is_dir():
        pytest.skip(f"needs the real photos (../shared/data/real-photos): {CORNERS}")
    labels = index_labels()
    photos = load("train")
    in_rows = {f"french:{p.codes[k]}" for p in photos for k in range(len(p.codes))
               if crowded(p, k)}  # fmt: skip
    alone = {f"french:{p.codes[k]}" for p in photos for k in range(len(p.codes))} - in_rows
    x, y = next(Batches(2, 64, 0.0, dense=1.0).stream(np.random.default_rng([2, 0])))
    assert x.shape == (64, 3, 48, 48)
    assert {labels[int(k)] for k in y} <= in_rows and alone  # never a card only ever alone
    a = next(Batches(2, 8, 0.0, dense=0.0).stream(np.random.default_rng([2, 0])))
    b = next(Batches(2, 8, 0.0).stream(np.random.default_rng([2, 0])))
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def test_a_greyed_sample_is_grey_outside_its_box_and_no_share_no_draw() -> None:
    """``--greyed SHARE`` (experiment 95): the square cut around a box from the photo greyed
    outside it; the finder's mistakes and pieces likewise; no share, no draw."""
    from training import hard_negatives
    from training.corner_samples import LabelledPhoto
    from training.train_corner_reader import negative_sample, photo_sample

    image = np.random.default_rng(1).integers(0, 100, (300, 300, 3), np.uint8)
    photo = LabelledPhoto(image, np.array([[150, 150, 20, 40]], np.float32), ("2H",), "d")
    greyed = photo_sample(photo, 0, np.random.default_rng(2), 1.0)
    plain = photo_sample(photo, 0, np.random.default_rng(2), 0.0)
    assert greyed.shape == plain.shape == (48, 48, 3)
    assert (greyed == 128).all(axis=2).mean() > 0.2 and not (plain == 128).all(axis=2).any()
    rng, same = np.random.default_rng(3), np.random.default_rng(3)
    photo_sample(photo, 0, rng, 0.0)
    photo_sample(photo, 0, same)
    assert rng.random() == same.random()
    patch = np.random.default_rng(4).integers(
        0, 100, (hard_negatives.PATCH_PX,) * 2 + (3,), np.uint8
    )
    negative = hard_negatives.Negative(patch, "IMG_1.JPG", (50.0, 50.0, 10.0, 20.0))
    square = negative_sample(negative, np.random.default_rng(5), 1.0)
    assert (square == 128).all(axis=2).mean() > 0.2
    assert not (negative_sample(negative, np.random.default_rng(5), 0.0) == 128).all(axis=2).any()
