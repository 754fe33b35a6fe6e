"""``training.hard_negatives`` (experiment 44): the corner-index finder's boxes off every card
on the edje-cards training photos, kept as patches and cut as the box reader's ``none``."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from training import hard_negatives
from training.hard_negatives import PATCH_PX, Negative, from_edje, off_cards, sample
from vision.corner_finder import READ_SIZE


def test_a_box_is_off_the_cards_only_outside_every_card_grown_by_the_margin() -> None:
    cards = [(100.0, 100.0, 200.0, 300.0)]
    assert not off_cards((150, 200, 10, 10), cards)  # inside
    assert not off_cards((205, 200, 10, 10), cards)  # inside the 10 % margin (10 px)
    assert off_cards((215, 200, 10, 10), cards)
    assert off_cards((150, 325, 10, 10), cards)  # the margin is 20 px below a 200 px side
    assert not off_cards((150, 315, 10, 10), cards)
    assert off_cards((150, 200, 10, 10), [])


class _Finder:
    """A finder that finds the given boxes in any photo."""

    def __init__(self, boxes: list[tuple[float, float, float, float]]) -> None:
        self.found = boxes

    def boxes(self, image: np.ndarray) -> list[tuple[tuple[float, float, float, float], float]]:
        return [(box, 0.9) for box in self.found]


def _voc(path: Path, boxes: list[tuple[int, int, int, int]]) -> None:
    objects = "".join(
        f"<object><name>nine</name><bndbox><xmin>{a}</xmin><ymin>{b}</ymin><xmax>{c}</xmax>"
        f"<ymax>{d}</ymax></bndbox></object>"
        for a, b, c, d in boxes
    )
    path.write_text(f"<annotation>{objects}</annotation>")


def test_the_edje_photos_give_the_boxes_found_off_their_cards_as_patches(tmp_path: Path) -> None:
    image = np.zeros((200, 300, 3), np.uint8)
    image[:, 150:] = (0, 0, 255)  # red on the right: the patch shows where it was cut
    cv2.imwrite(str(tmp_path / "IMG_1.JPG"), image)
    _voc(tmp_path / "IMG_1.xml", [(10, 10, 90, 120)])
    cv2.imwrite(str(tmp_path / "IMG_2.JPG"), image)
    _voc(tmp_path / "IMG_2.xml", [])  # nobody labelled it: skipped
    finder = _Finder([(50, 60, 20, 20), (240, 100, 20, 30)])  # on the card; off it
    found = from_edje([tmp_path / "IMG_1.JPG", tmp_path / "IMG_2.JPG"], finder)  # type: ignore[arg-type]
    assert [(n.photo, n.box) for n in found] == [("IMG_1.JPG", (240, 100, 20, 30))]
    patch = found[0].patch
    assert patch.shape == (PATCH_PX, PATCH_PX, 3)
    blue, green, red = patch[PATCH_PX // 2, PATCH_PX // 2].tolist()
    assert red > 200 and blue < 50 and green < 50  # (a JPEG's red)


def test_a_photo_that_is_not_an_image_is_named(tmp_path: Path) -> None:
    (tmp_path / "IMG_3.JPG").write_bytes(b"not a jpeg")
    _voc(tmp_path / "IMG_3.xml", [(10, 10, 90, 120)])
    with pytest.raises(ValueError, match="IMG_3.JPG: not an image"):
        from_edje([tmp_path / "IMG_3.JPG"], _Finder([]))  # type: ignore[arg-type]


def test_a_sample_is_the_readers_square_of_the_patch_turned() -> None:
    patch = np.zeros((PATCH_PX, PATCH_PX, 3), np.uint8)
    patch[PATCH_PX // 4 : 3 * PATCH_PX // 4, PATCH_PX // 4 : 3 * PATCH_PX // 4] = 255
    negative = Negative(patch, "IMG_1.JPG", (0, 0, 10, 10))
    squares = [sample(negative, np.random.default_rng(k)) for k in range(20)]
    assert all(s.shape == (READ_SIZE, READ_SIZE, 3) for s in squares)
    # the reader's square is half the patch: the white middle fills most of each cut
    assert all(s.mean() > 0.6 * 255 for s in squares)
    assert len({s.tobytes() for s in squares}) == 20  # turned and moved: no two alike
    assert hard_negatives.PATCH == 2.0


def test_a_box_is_in_the_middle_of_a_face_only_outside_its_four_corner_zones() -> None:
    from training.hard_negatives import in_middle

    # a 200 x 300 face: the corner zones are 60 px wide and 90 px high
    assert not in_middle((20, 30, 10, 10), 200, 300)  # the top-left index
    assert not in_middle((185, 280, 10, 10), 200, 300)  # the bottom-right one
    assert in_middle((100, 150, 10, 10), 200, 300)  # the centre pip
    assert in_middle((30, 150, 10, 10), 200, 300)  # a pip of the left column, half way down
    assert in_middle((100, 20, 10, 10), 200, 300)  # the top edge's middle
    assert not in_middle((59, 89, 10, 10), 200, 300)


def test_the_rank_of_a_label() -> None:
    from training.hard_negatives import rank_of

    assert [rank_of(x) for x in ("french:TD", "french:7H", "french:JK", "french:JS")] == [
        "T", "7", "JK", "J"]  # fmt: skip


class _Reading:
    def __init__(self, box: tuple[float, float, float, float], label: str) -> None:
        self.box, self.label = box, label


class _ReadingFinder:
    """A finder whose reader reads the given boxes as the given labels, in any photo."""

    def __init__(self, found: list[tuple[tuple[float, float, float, float], str]]) -> None:
        self.found = found

    def indices(self, image: np.ndarray) -> list[_Reading]:
        return [_Reading(box, label) for box, label in self.found]


def test_the_faces_give_the_boxes_in_their_middle_read_as_a_card_of_another_rank() -> None:
    from training.hard_negatives import from_faces

    face = np.zeros((224, 224, 3), np.uint8)
    face[90:130, 90:130] = (0, 0, 255)  # a red pip in the middle
    finder = _ReadingFinder([
        ((25, 30, 20, 30), "french:QH"),  # the index corner: never kept
        ((110, 110, 30, 30), "french:AH"),  # the pip read as an ace: kept
        ((110, 40, 30, 30), "french:7D"),  # the face's own rank, another suit: left
        ((40, 110, 30, 30), "none"),  # read as no card: nothing to learn
        ((180, 112, 30, 30), "french:JK"),  # the Joker: kept
    ])  # fmt: skip
    found = from_faces([("7H_1.jpg", face, "french:7H")], finder)  # type: ignore[arg-type]
    assert [(n.photo, n.box) for n in found] == [("7H_1.jpg", (110, 110, 30, 30)),
                                                 ("7H_1.jpg", (180, 112, 30, 30))]  # fmt: skip
    blue, green, red = found[0].patch[PATCH_PX // 2, PATCH_PX // 2].tolist()
    assert red == 255 and blue == 0 and green == 0
