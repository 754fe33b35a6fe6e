"""Real photographs in training: the card-crops faces and the corner-boxes cards as the
still-photo finder cuts them (training.real_crops, training.real_finder_crops)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from training import real_crops, real_finder_crops
from training.real_finder_crops import CornerBox, crops_of_photo, label_of, read_labels
from training.synth import FacePool
from vision.card_faces import FACE_H, FACE_W
from vision.recognizer import INPUT_H, INPUT_W

needs_photos = pytest.mark.skipif(
    not real_crops.available() or not real_finder_crops.CORNERS.is_dir(),
    reason=f"needs the real photos in {real_crops.REAL_PHOTOS} (the shared data folder)",
)


@needs_photos
def test_card_crops_split_keeps_twelve_of_each_class_out_of_training() -> None:
    train, tune = real_crops.split()
    assert (len(train), len(tune)) == (3180 - 53 * 12, 53 * 12)
    assert not {c.path for c in train} & {c.path for c in tune}
    # twelve of each folder; a photo's card is its folder's but where an erratum says it shows
    # another (vision.label_errata): two of the tuning part's, filed under QC and 5C
    folders = {c.path.parent.name for c in tune}
    per_folder = {name: sum(c.path.parent.name == name for c in tune) for name in folders}
    assert len(per_folder) == 53 and set(per_folder.values()) == {12}
    moved = {c.path.name: c.code for c in tune if c.code != c.path.parent.name}
    assert moved == {"QC-27.jpg": "QD", "5C-31.jpg": "5S"}
    assert sum(c.code != c.path.parent.name for c in train) == 15
    assert real_crops.split() == (train, tune)  # fixed by its seed
    face = real_crops.face(real_crops.read(tune[0]))
    assert face.shape == (FACE_H, FACE_W, 3)
    assert tune[0].label == f"french:{tune[0].path.parent.name}"


def test_a_card_crops_photo_found_filed_wrong_is_the_card_it_shows(tmp_path: Path) -> None:
    # QC-27 shows the queen of diamonds (vision.label_errata); QC-26 and a QC-27 filed under
    # another folder are read as filed, and the split is drawn by folder all the same
    blank = np.full((224, 224, 3), 255, np.uint8)
    for rel in ("QC/QC-26.jpg", "QC/QC-27.jpg", "KS/QC-27.jpg"):
        (tmp_path / rel).parent.mkdir(exist_ok=True)
        cv2.imwrite(str(tmp_path / rel), blank)
    train, tune = real_crops.split(tmp_path)
    codes = {c.path.relative_to(tmp_path).as_posix(): c.code for c in train + tune}
    assert codes == {"QC/QC-26.jpg": "QC", "QC/QC-27.jpg": "QD", "KS/QC-27.jpg": "KS"}
    assert (len(train), len(tune)) == (0, 3)  # twelve of a folder tune: all of these


def test_a_missing_photo_folder_is_named(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=str(tmp_path / "none")):
        real_crops.split(tmp_path / "none")


def test_the_pool_draws_real_faces_at_their_share_and_never_without_them() -> None:
    pool = FacePool.build([0])
    real = np.full((FACE_H, FACE_W, 3), 7, np.uint8)
    rng = np.random.default_rng(3)
    assert all(pool.pick("french:QH", rng) is not real for _ in range(50))
    pool.real, pool.real_share = {"french:QH": [real]}, 0.5
    drawn = [pool.pick("french:QH", rng) is real for _ in range(400)]
    assert 0.4 < np.mean(drawn) < 0.6
    assert all(pool.pick("german:PO", rng) is not real for _ in range(50))  # no real German


def test_a_found_card_takes_the_code_of_the_corner_boxes_inside_it() -> None:
    quad = np.array([[100, 100], [200, 100], [200, 250], [100, 250]], np.float32)
    inside = [CornerBox("5C", 110, 115), CornerBox("5C", 190, 235)]
    assert label_of(quad, inside) == "5C"
    assert label_of(quad, [*inside, CornerBox("9H", 150, 150)]) is None  # two cards' boxes
    assert label_of(quad, [CornerBox("5C", 20, 20)]) is None  # no box inside
    assert label_of(quad, [CornerBox("back", 150, 150)]) is None  # a card face down


def test_label_files_are_read_in_pixels_and_a_bad_line_is_named(tmp_path: Path) -> None:
    good = tmp_path / "a.txt"
    good.write_text("5C 0.25 0.5 0.1 0.1\n\nJK 0.75 0.25 0.1 0.1\n")
    assert read_labels(good, 640, 480) == [
        CornerBox("5C", 160, 240, 64, 48),
        CornerBox("JK", 480, 120, 64, 48),
    ]
    bad = tmp_path / "b.txt"
    bad.write_text("5C 0.25 0.5 0.1 0.1\n5C 0.25 wide\n")
    with pytest.raises(ValueError, match=r"b\.txt:2: not 'CODE xc yc w h'"):
        read_labels(bad, 640, 480)


def test_a_corner_label_found_wrong_is_read_as_the_photo_shows(tmp_path: Path) -> None:
    # vision.label_errata: desk-0006's three of spades is labelled 4S in both corners (boxes
    # 4 and 5); the real 4S beside it (box 0) and a file of another name are read as written
    lines = ["4S 0.36 0.27 0.03 0.07", *["9H 0.5 0.5 0.03 0.07"] * 3,
             "4S 0.41 0.42 0.03 0.1", "4S 0.57 0.64 0.03 0.11"]  # fmt: skip
    for name, codes in (("desk-0006.txt", ["4S", "3S", "3S"]), ("desk-0010.txt", ["4S"] * 3)):
        path = tmp_path / name
        path.write_text("\n".join(lines))
        assert [b.code for b in read_labels(path, 640, 640) if b.code != "9H"] == codes


def test_an_index_found_unlabelled_is_added_after_the_files_own_boxes(tmp_path: Path) -> None:
    # vision.label_errata.MISSING: single-0231 shows a king of clubs at its right edge, its
    # index unlabelled; single-0399's jack of clubs is labelled JS at both corners
    for name, codes in (("single-0231.txt", ["7H", "KC"]), ("single-0230.txt", ["7H"]),
                        ("single-0399.txt", ["JC", "JC"])):  # fmt: skip
        lines = ["7H 0.5 0.5 0.1 0.1"] if name != "single-0399.txt" else ["JS 0.5 0.5 0.1 0.1"] * 2
        path = tmp_path / name
        path.write_text("\n".join(lines))
        boxes = read_labels(path, 640, 640)
        assert [b.code for b in boxes] == codes
    added = read_labels(tmp_path / "single-0231.txt", 640, 640)[1]
    assert (round(added.cx), round(added.cy), round(added.w)) == (589, 95, 56)  # its own place


@needs_photos
def test_a_single_card_photo_gives_that_card_as_the_finder_cuts_it() -> None:
    from vision.detector import CardDetector

    folder = real_finder_crops.CORNERS / "single"
    image = cv2.imread(str(folder / "images" / "single-0000.jpg"))
    boxes = read_labels(folder / "labels" / "single-0000.txt", image.shape[1], image.shape[0])
    assert {b.code for b in boxes} == {"5C"}
    crops = crops_of_photo(image, boxes, CardDetector(), whole_if_none=True)
    assert crops and {code for _, code in crops} == {"5C"}
    assert all(crop.shape == (INPUT_H, INPUT_W, 3) for crop, _ in crops)


@needs_photos
def test_the_corner_boxes_split_is_by_photo_and_fixed() -> None:
    for folder in real_finder_crops.FOLDERS:
        train, tune = real_finder_crops.photos(folder)
        assert not set(train) & set(tune)
        assert len(tune) == round(0.2 * (len(train) + len(tune)))
        assert real_finder_crops.photos(folder) == (train, tune)


def test_the_crops_cache_is_keyed_by_the_labels_errata(monkeypatch: pytest.MonkeyPatch) -> None:
    # a label put right after the crops were cut must not be trained on as it was written
    from vision import label_errata

    before, key = label_errata.fingerprint(), real_finder_crops._cache_key()
    monkeypatch.setitem(label_errata.ERRATA, ("desk-0099.txt", 0, "2C"), ("3C", 102))
    assert label_errata.fingerprint() != before
    assert real_finder_crops._cache_key() != key


def test_the_labels_as_of_an_experiment_leave_out_the_errata_found_after_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # experiment 101's errata (QC-27, single-0231's added index) are left out as of 100; 55's
    # (desk-0006) stays; the training record and command say which labels were read
    from vision import label_errata

    every = label_errata.fingerprint()
    assert label_errata.command_prefix() == ""
    assert "every erratum" in label_errata.described()
    monkeypatch.setenv("KIBIC_LABELS_AS_OF", "100")
    assert label_errata.fixed("QC-27.jpg", 0, "QC") == "QC"
    assert label_errata.fixed("desk-0006.txt", 4, "4S") == "3S"
    assert label_errata.missing("single-0231.txt") == ()
    assert real_crops.code_of(Path("QC/QC-27.jpg")) == "QC"
    assert label_errata.fingerprint() != every  # a cache of the labels as of 100 is its own
    assert label_errata.command_prefix() == "KIBIC_LABELS_AS_OF=100 "
    assert "the errata found up to experiment 100" in label_errata.described()
    monkeypatch.setenv("KIBIC_LABELS_AS_OF", "last")
    with pytest.raises(ValueError, match="KIBIC_LABELS_AS_OF must be an experiment's number"):
        label_errata.fixed("QC-27.jpg", 0, "QC")
