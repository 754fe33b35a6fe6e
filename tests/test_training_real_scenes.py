"""`training.real_scenes`: the real photographs the detector trains on (experiment 30): the
edje train photos held out to decide on, their boxes through a random scale and quarter turns,
and real card faces laid in the generated scenes."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from training import real_scenes
from training.detector_scenes import FaceSource, make_scene
from training.real_scenes import LabelledPhoto, box_targets, edje_split, load_photos, photo_sample

VOC = """<annotation><size><width>{w}</width><height>{h}</height><depth>3</depth></size>
<object><name>king</name><bndbox><xmin>{x0}</xmin><ymin>{y0}</ymin><xmax>{x1}</xmax>
<ymax>{y1}</ymax></bndbox></object></annotation>"""


def test_every_fifth_photo_by_name_is_held_out(tmp_path: Path) -> None:
    for i in range(12):
        (tmp_path / f"IMG_{i:02d}.JPG").touch()
        (tmp_path / f"IMG_{i:02d}.xml").touch()
    fit, hold = edje_split(tmp_path)
    assert [p.name for p in hold] == ["IMG_04.JPG", "IMG_09.JPG"]
    assert len(fit) == 10 and not set(fit) & set(hold)


def test_a_folder_without_photos_is_named(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=str(tmp_path)):
        edje_split(tmp_path)


def test_the_real_edje_train_split_holds_out_59_photos() -> None:
    fit, hold = edje_split()
    assert (len(fit), len(hold)) == (237, 59)


def test_a_photo_made_smaller_keeps_its_boxes_on_the_card(tmp_path: Path) -> None:
    """The GPU pack shrinks large photos; the boxes of the xml (of the original) follow."""
    image = np.zeros((300, 400, 3), np.uint8)
    image[100:200, 50:120] = 255
    cv2.imwrite(str(tmp_path / "a.png"), image)
    (tmp_path / "a.xml").write_text(VOC.format(w=800, h=600, x0=100, y0=200, x1=240, y1=400))
    (photo,) = load_photos([tmp_path / "a.png"])
    np.testing.assert_allclose(photo.boxes, [[50, 100, 120, 200]])


@pytest.mark.parametrize("seed", range(8))
def test_the_boxes_follow_the_card_through_scale_and_turns(seed: int) -> None:
    image = np.zeros((240, 180, 3), np.uint8)  # portrait, as most phone photos
    image[30:90, 100:140] = (0, 255, 0)  # green: the grey pad is not mistaken for it
    photo = LabelledPhoto(image, np.array([[100, 30, 140, 90]], np.float32))
    out, boxes = photo_sample(np.random.default_rng(seed), photo, (240, 320))
    assert out.shape == (240, 320, 3)
    card = out[..., 1].astype(int) - out[..., 2] > 100  # light is jittered, never that dark
    bright = np.argwhere(card)
    y0, x0 = bright.min(axis=0)
    y1, x1 = bright.max(axis=0) + 1
    np.testing.assert_allclose(boxes[0], [x0, y0, x1, y1], atol=1.5)


def test_each_box_peaks_at_its_centre() -> None:
    corners, anchors = box_targets(np.array([[10, 20, 50, 100]], np.float32))
    np.testing.assert_allclose(corners[0], [[10, 20], [50, 20], [50, 100], [10, 100]])
    assert anchors == [(30.0, 60.0, 20.0)]


def test_real_faces_are_laid_in_the_scenes_when_asked() -> None:
    rng = np.random.default_rng(4)
    faces = real_scenes.real_faces(rng, 5)
    assert len(faces) == 5 and faces[0].shape[:2] == (210, 150)
    marked = [np.full_like(faces[0], 255) for _ in range(3)]
    source = FaceSource(np.random.default_rng(0), themes=())
    source.real, source.real_share = marked, 1.0
    deck, _back = source.deck()
    assert len(deck) == 3 and all(any(face is m for m in marked) for face in deck)


def test_without_a_share_the_scenes_are_as_before() -> None:
    """A source with real faces but share 0 draws the same scenes as one without them."""
    plain = FaceSource(np.random.default_rng(0), themes=())
    with_real = FaceSource(np.random.default_rng(0), themes=())
    with_real.real = [np.zeros((210, 150, 3), np.uint8)]
    a, _ = make_scene(np.random.default_rng(5), plain, (120, 160))
    b, _ = make_scene(np.random.default_rng(5), with_real, (120, 160))
    np.testing.assert_array_equal(a, b)
