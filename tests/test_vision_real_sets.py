"""``kibic vision eval --real-sets``: each part of the real photo sets on its own line."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from kibic.cli import main
from training import real_crops, real_finder_crops
from vision.card_faces import design_for_seed, render_face
from vision.real_sets import Reader, card_crops, card_crops_by_default, corner_boxes, parts, sample
from vision.recognizer import PHOTO_MODEL, Recognizer, photo_recognizer
from vision.reliability import commit_threshold

needs_photos = pytest.mark.skipif(
    not real_crops.available() or not real_finder_crops.CORNERS.is_dir(),
    reason=f"needs the real photos in {real_crops.REAL_PHOTOS} (the shared data folder)",
)


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return photo_recognizer()


def _table_photo(folder: Path) -> Path:
    """A rendered queen of diamonds on green cloth, with YOLO corner boxes: two on the queen's
    corner indices, one of a nine of hearts that is not in the photo."""
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    canvas = np.full((640, 640, 3), (50, 100, 40), np.uint8)
    canvas[200:410, 245:395] = render_face("french:QD", design_for_seed("french", 0))
    path = folder / "images" / "p.jpg"
    cv2.imwrite(str(path), canvas)
    lines = ["QD 0.400 0.340 0.02 0.05", "QD 0.600 0.620 0.02 0.05", "9H 0.1 0.1 0.02 0.05"]
    (folder / "labels" / "p.txt").write_text("\n".join(lines) + "\n")
    return path


def test_a_card_is_found_by_its_corner_boxes_and_a_card_not_there_is_missed(
    tmp_path: Path, recognizer: Recognizer
) -> None:
    from vision.detector import CardDetector

    path = _table_photo(tmp_path)
    report = corner_boxes("t", [path], Reader(recognizer, detector=CardDetector()))
    assert (report.images, report.cards, report.found, report.right) == (1, 2, 1, 1)
    ((confidence, right),) = report.readings
    assert right and confidence > 0.5
    summary = report.summary(threshold=1.0)
    assert (summary["committed"], summary["asked"], summary["wrong_committed"]) == (0, 1, 0)
    assert summary["box_recall"] == 0.5 and summary["accuracy"] == 1.0
    # every reading names the queen: none of a card not in the photo
    assert (summary["not_there"], summary["not_there_committed"]) == (0, 0)


def test_a_reading_of_a_card_not_in_the_photo_is_counted_with_its_confidence(
    tmp_path: Path, recognizer: Recognizer
) -> None:
    """The queen's labels renamed to the jack of diamonds: every reading of the photo (the
    queen, surely) names a card that is not there, and is counted as such."""
    path = _table_photo(tmp_path)
    label = path.parent.parent / "labels" / "p.txt"
    label.write_text(label.read_text().replace("QD", "JD"))
    report = corner_boxes("t", [path], Reader(recognizer))
    assert report.phantoms and max(c for c, _ in report.phantoms) > 0.85
    summary = report.summary(threshold=0.85)
    assert summary["not_there"] == len(report.phantoms)
    assert summary["not_there_committed"] == sum(c >= 0.85 for c, _ in report.phantoms) >= 1
    assert summary["not_there_per_100_cards"] == 100 * len(report.phantoms) / 2
    # each is read where the labelled jack's corner boxes lie: a misreading, not an empty place
    assert summary["not_there_on_a_labelled_card"] == report.phantoms_on_cards
    assert report.phantoms_on_cards == len(report.phantoms)


def test_a_reading_where_no_card_is_labelled_is_not_on_a_labelled_card(
    tmp_path: Path, recognizer: Recognizer
) -> None:
    """The queen's labels left out (only the nine of hearts, in a corner of the cloth, is
    labelled): every reading of the queen is of a card not there, on no labelled card."""
    path = _table_photo(tmp_path)
    label = path.parent.parent / "labels" / "p.txt"
    label.write_text("9H 0.1 0.1 0.02 0.05\n")
    report = corner_boxes("t", [path], Reader(recognizer))
    assert report.phantoms and report.phantoms_on_cards == 0
    assert report.summary(threshold=0.85)["not_there_on_a_labelled_card"] == 0


def test_an_edje_reading_is_on_a_labelled_card_where_its_visible_centre_lies_in_a_box() -> None:
    from referee.cards import Card, Deck
    from vision.evaluate import on_a_label
    from vision.pipeline import ImageCard
    from vision.recognizer import Prediction

    card = ImageCard(card=Card.parse("KH"), face="KH", deck=Deck.FRENCH_53, confidence=0.4,
                     corners=((100, 100), (200, 100), (200, 250), (100, 250)),
                     prediction=Prediction("french:KH", 0.4, ()),
                     visible=(100.0, 100.0, 140.0, 150.0))  # fmt: skip
    assert on_a_label(card, [(90.0, 90.0, 150.0, 160.0)])  # the part that shows: centre 120, 125
    assert not on_a_label(card, [(130.0, 90.0, 210.0, 260.0)])  # the card's, not what shows
    assert not on_a_label(card, [])


def test_a_card_is_there_by_its_card_or_by_its_rank_where_a_label_names_the_rank() -> None:
    from referee.cards import Card
    from vision.evaluate import not_there

    assert not not_there(Card.parse("QD"), ["QD", "9H"])
    assert not_there(Card.parse("QH"), ["QD", "9H"])
    assert not not_there(Card.parse("QH"), ["queen"])  # edje-cards: ranks alone
    assert not_there(Card.parse("KH"), ["queen", "nine"])


def test_a_photo_that_is_one_card_is_read_whole(tmp_path: Path, recognizer: Recognizer) -> None:
    folder = tmp_path / "7C"
    folder.mkdir()
    face = render_face("french:7C", design_for_seed("french", 0))
    cv2.imwrite(str(folder / "a.png"), cv2.resize(face, (224, 224)))  # stretched, as card-crops
    report = card_crops("c", [folder / "a.png"], Reader(recognizer))
    assert (report.images, report.cards, report.found, report.right) == (1, 1, 1, 1)
    assert report.summary(threshold=0.85)["not_there"] is None  # a misreading, if wrong


def test_the_sample_of_a_part_is_seeded_and_in_order() -> None:
    items = [Path(f"{k:03d}.jpg") for k in range(50)]
    picked = sample(items, 5)
    assert picked == sample(items, 5) and picked == sorted(picked) and len(set(picked)) == 5
    assert sample(items, 500) == items and sample(items, None) == items
    with pytest.raises(ValueError, match="at least one"):
        sample(items, 0)


@needs_photos
def test_the_parts_and_the_test_split_only_when_asked() -> None:
    names = [name for name, _, _ in parts()]
    assert names == [
        "edje-cards train", "card-crops train part", "card-crops tune part",
        "card-crops tune part, default options", "corner-boxes desk train part", "corner-boxes desk tune part",
        "corner-boxes single train part", "corner-boxes single tune part",
        "corner-boxes gold-deck train part", "corner-boxes gold-deck tune part",
    ]  # fmt: skip
    held = {name: photos for name, _, photos in parts(held_out=True)}
    assert list(held) == [n for n in names if "tune part" in n]
    assert len(held["card-crops tune part"]) == 53 * 12
    assert held["card-crops tune part, default options"] == held["card-crops tune part"]
    assert held["corner-boxes desk tune part"] == real_finder_crops.photos("desk")[1]
    assert [name for name, _, _ in parts(include_test=True)][-1] == (
        "edje-cards test (evaluation only)"
    )


@needs_photos
def test_eval_real_sets_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vision", "eval", "--real-sets", "--held-out", "--limit", "2", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert list(doc) == [n for n, _, _ in parts(held_out=True)]
    crops = doc["card-crops tune part"]
    threshold = commit_threshold(PHOTO_MODEL)  # the model's own, else the table's default
    assert (crops["images"], crops["cards"], crops["threshold"]) == (2, 2, threshold)
    assert crops["committed"] + crops["asked"] == crops["found"]
    assert sum(b["count"] for b in crops["reliability"]) == crops["found"]
    assert main(["vision", "eval", "--real-sets", "--held-out", "--limit", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        f"classifier kibic_photo_cards.onnx, deck french-53, commit threshold "
        f"{threshold:g}, 1 photos a part"
    )
    assert sum(line.startswith("corner-boxes ") for line in lines) == 3
    for line in lines:
        if line.startswith(("corner-boxes ", "card-crops ")):
            assert ("readings of cards not there" in line) == line.startswith(
                ("corner-boxes ", "card-crops tune part, default options")
            )


@pytest.mark.parametrize("args, message", [
    (["--held-out", "x"], "--held-out only go with --real-sets"),
    (["--real-sets", "x"], "give no folder"),
    ([], "give a folder of labelled images, or --real-sets"),
])  # fmt: skip
def test_real_set_options_misused_are_named(args: list[str], message: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    with pytest.raises(SystemExit, match=message):
        main(["vision", "eval", *args])


@needs_photos
def test_threshold_cli_reads_the_tuning_sets_only(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["vision", "threshold", "--held-out", "--limit", "3", "--target", "0.5"]
    assert main([*args, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert list(doc) == [*(n for n, _, _ in parts(held_out=True)), "all"]
    # each photo pooled once: the card-crops tune photos read by default are read again
    again = "card-crops tune part, default options"
    assert doc["all"]["readings"] == sum(doc[n]["readings"] for n in doc if n not in ("all", again))
    assert doc["all"]["readings_needed"] == 4  # all right: 4 / (4 + 1.96²) >= 0.5
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "test" not in out and out.splitlines()[-1].startswith("all ")


def test_a_joker_is_asked_in_still_photos_whatever_its_confidence() -> None:
    """As at the table (``vision.labels.ASKED_ALWAYS``): the still-photo classifier reads the
    print of books and card boxes as a Joker at 0.9 and more (experiment 41)."""
    from referee.cards import Card, Deck
    from vision.pipeline import ImageCard
    from vision.real_sets import SetReport
    from vision.recognizer import Prediction

    def card(label: str, confidence: float) -> ImageCard:
        return ImageCard(card=Card.parse(label.split(":")[1]), face=label.split(":")[1],
                         deck=Deck.FRENCH_53, confidence=confidence,
                         corners=((0, 0), (1, 0), (1, 1), (0, 1)),
                         prediction=Prediction(label, confidence, ()))  # fmt: skip

    joker, king = card("french:JK", 0.99), card("french:KH", 0.99)
    assert (joker.committable, king.committable) == (False, True)
    assert joker.to_json()["committable"] is False and "committable" not in king.to_json()
    report = SetReport("t", "card", readings=[(0.99, True), (0.99, False)],
                       committable=[True, False], phantoms=[(0.99, False), (0.9, True)])  # fmt: skip
    s = report.summary(threshold=0.85)
    assert (s["committed"], s["asked"], s["wrong_committed"]) == (1, 1, 0)
    assert (s["not_there"], s["not_there_committed"]) == (2, 1)


def test_a_card_read_by_its_index_is_paired_with_that_index_s_label() -> None:
    """A card's whole quad may hold the index of a card lying over it (corner-boxes desk-0018:
    the king of diamonds under the seven of clubs, read KD by its own index): the index it was
    read by names it. Without an index, the boxes inside its quad do."""
    from referee.cards import Card
    from training.real_finder_crops import CornerBox
    from vision.pipeline import ImageCard
    from vision.real_sets import DECK, label_at
    from vision.recognizer import Prediction

    quad = ((100.0, 100.0), (200.0, 100.0), (200.0, 250.0), (100.0, 250.0))
    boxes = [CornerBox("7C", 120, 130, 10, 20), CornerBox("KD", 205, 110, 10, 20)]
    card = ImageCard(Card.parse("KD"), "french:KD", DECK, 0.9, quad,
                     Prediction("french:KD", 0.9, (("french:KD", 0.9),)))  # fmt: skip
    assert label_at(card, boxes) == "7C"  # by its quad alone: the card over it
    read_by_index = replace(card, index_box=(200.0, 100.0, 210.0, 120.0))
    assert label_at(read_by_index, boxes) == "KD"
    elsewhere = replace(card, index_box=(0.0, 0.0, 10.0, 10.0))  # its index's box holds none
    assert label_at(elsewhere, boxes) == "7C"


def test_a_photo_of_one_card_read_by_default_counts_every_other_card_read(
    tmp_path: Path, recognizer: Recognizer
) -> None:
    """As ``classify`` reads without ``--whole``: the seven of clubs filling a photo is read
    (right in its own folder, a card not there in the eight's), and bare cloth is no card."""
    face = cv2.resize(render_face("french:7C", design_for_seed("french", 0)), (224, 224))
    photos = []
    for code, image in (("7C", face), ("8C", face), ("9C", np.full_like(face, (50, 100, 40)))):
        (tmp_path / code).mkdir()
        photos.append(tmp_path / code / "a.png")
        cv2.imwrite(str(photos[-1]), image)
    report = card_crops_by_default("d", photos, Reader(recognizer))
    assert (report.images, report.cards, report.found, report.right) == (3, 3, 2, 1)
    assert [right for _, right in report.readings] == [True, False]
    summary = report.summary(threshold=0.85)
    assert (summary["not_there"], summary["not_there_on_a_labelled_card"]) == (1, 1)
    assert summary["accuracy"] == round(1 / 3, 4)  # of every photo, as card-crops read whole
