"""``kibic vision eval`` on generated folders: images named by card, and a VOC folder."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from kibic.cli import main
from referee.cards import Card, Deck
from vision.card_faces import design_for_seed, render_face
from vision.evaluate import evaluate_folder, parse_label, wilson_interval
from vision.pipeline import ImageCard
from vision.recognizer import Prediction, Recognizer

CODES = ("AS", "10H", "QD", "7C")


def _photo(code: str) -> np.ndarray:
    card = Card.parse(code)
    face = render_face(f"french:{card.code}", design_for_seed("french", 0))
    canvas = np.full((360, 300, 3), (50, 100, 40), np.uint8)
    canvas[70:280, 75:225] = face
    return canvas


def _voc_photo(folder: Path) -> None:
    """One photo of the queen of diamonds with its VOC label."""
    cv2.imwrite(str(folder / "one.jpg"), _photo("QD"))
    (folder / "one.xml").write_text(
        "<annotation><object><name>queen</name><bndbox><xmin>75</xmin><ymin>70</ymin>"
        "<xmax>225</xmax><ymax>280</ymax></bndbox></object></annotation>"
    )


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer()


def test_named_images(tmp_path: Path, recognizer: Recognizer) -> None:
    for code in CODES:
        cv2.imwrite(str(tmp_path / f"{code}.png"), _photo(code))
    report = evaluate_folder(tmp_path, recognizer, deck=Deck.FRENCH_52)
    assert (
        report.images,
        report.boxes,
        report.found,
        report.rank_correct,
        report.card_correct,
    ) == (4, 4, 4, 4, 4)


def test_voc_folder_and_cli(
    tmp_path: Path, recognizer: Recognizer, capsys: pytest.CaptureFixture[str]
) -> None:
    _voc_photo(tmp_path)
    report = evaluate_folder(tmp_path, recognizer)
    assert (report.boxes, report.found, report.rank_correct) == (1, 1, 1)
    assert main(["vision", "classify", str(tmp_path / "one.jpg"), "--deck", "french-52"]) == 0
    out = capsys.readouterr().out
    assert "QD" in out and "1 card(s)" in out


def test_label_forms() -> None:
    assert parse_label("nine")[1] is None and parse_label("nine")[0].code == "9"
    assert parse_label("10H")[1] == Card.parse("TH")


@pytest.mark.parametrize("finder", ["learned", "both", "classic"])
def test_eval_cli_with_each_finder(
    tmp_path: Path, finder: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _voc_photo(tmp_path)
    args = ["vision", "eval", str(tmp_path), "--deck", "french-52", "--finder", finder, "--json"]
    assert main(args) == 0
    summary = json.loads(capsys.readouterr().out)[tmp_path.name]
    assert (summary["boxes"], summary["found"], summary["rank_accuracy"]) == (1, 1, 1.0)
    assert summary["precision"] == pytest.approx(1 / summary["detections"], abs=1e-4)


@pytest.mark.parametrize("size", ["320", "640"])
def test_eval_cli_detector_size(tmp_path: Path, size: str,
                                capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """The detector's input size can be chosen: one pass at the training size, two above."""
    _voc_photo(tmp_path)
    args = ["vision", "eval", str(tmp_path), "--deck", "french-52", "--detector-size", size,
            "--detector-threshold", "0.25", "--json"]  # fmt: skip
    assert main(args) == 0
    summary = json.loads(capsys.readouterr().out)[tmp_path.name]
    assert (summary["boxes"], summary["found"], summary["detections"]) == (1, 1, 1)


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [("--detector-size", "32", "32 px is too small"),
     ("--detector-size", "big", "'big' is not a whole number"),
     ("--detector-threshold", "1.5", "1.5 is not between 0 and 1"),
     ("--detector-threshold", "x", "'x' is not a number")],
)  # fmt: skip
def test_bad_detector_settings_are_named(tmp_path: Path, option: str, value: str, message: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    _voc_photo(tmp_path)
    with pytest.raises(SystemExit) as stop:
        main(["vision", "classify", str(tmp_path / "one.jpg"), option, value])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}: {message}" in err


@pytest.mark.parametrize(
    ("hits", "total", "low", "high"),
    # Newcombe, "Two-sided confidence intervals for the single proportion", Statistics in
    # Medicine 17 (1998), table I, method 3 (Wilson's score interval)
    [(81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611),
     (1, 29, 0.0061, 0.1718)],
)  # fmt: skip
def test_the_wilson_interval_matches_published_values(hits: int, total: int, low: float,
                                                      high: float) -> None:  # fmt: skip
    bounds = wilson_interval(hits, total)
    assert bounds is not None
    assert (round(bounds[0], 4), round(bounds[1], 4)) == (low, high)


def test_the_wilson_interval_of_nothing_and_of_too_much() -> None:
    assert wilson_interval(0, 0) is None
    assert wilson_interval(10, 10) == (pytest.approx(0.7225, abs=1e-4), 1.0)
    with pytest.raises(ValueError, match="11 hits of 10 is not a share"):
        wilson_interval(11, 10)


def test_eval_cli_boxes_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _voc_photo(tmp_path)  # the label has a bndbox only: both ways compare with it
    for boxes in ("visible", "whole"):
        assert main(["vision", "eval", str(tmp_path), "--boxes", boxes, "--json"]) == 0
        result = json.loads(capsys.readouterr().out)
        assert (result[tmp_path.name]["boxes"], result[tmp_path.name]["found"]) == (1, 1)
        # one card of one: the 95 % interval still reaches down to about a fifth
        assert result[tmp_path.name]["box_recall_95"] == [0.2065, 1.0]
    assert main(["vision", "eval", str(tmp_path), "--boxes", "visible"]) == 0
    assert "box recall (visible boxes) 100.00%" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["vision", "eval", str(tmp_path), "--boxes", "amodal"])
    assert "invalid choice: 'amodal'" in capsys.readouterr().err


def _turned_photo(code: str, angle: float = 25.0, width: float = 120.0) -> np.ndarray:
    """A card turned ``angle`` degrees on a 480 x 360 cloth with a little noise."""
    face = render_face(f"french:{code}", design_for_seed("french", 0))
    fh, fw = face.shape[:2]
    s, t = width / fw, np.deg2rad(angle)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    local = np.array([[-fw, -fh], [fw, -fh], [fw, fh], [-fw, fh]], np.float64) * s / 2
    quad = (local @ rot.T + (240, 180)).astype(np.float32)
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    m = cv2.getPerspectiveTransform(src, quad)
    rng = np.random.default_rng(0)
    cloth = np.clip(
        np.full((360, 480, 3), (40, 100, 35), np.float32) + rng.normal(0, 4, (360, 480, 3)), 0, 255
    )
    card = cv2.warpPerspective(face, m, (480, 360)).astype(np.float32)
    alpha = cv2.warpPerspective(np.ones((fh, fw), np.float32), m, (480, 360))[..., None]
    return (card * alpha + cloth * (1 - alpha)).astype(np.uint8)


def test_classify_cli_refines_the_detectors_quads_unless_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from vision.detector import CardDetector
    from vision.refine import grey_for_refine, refine_quad

    photo = tmp_path / "turned.png"
    cv2.imwrite(str(photo), _turned_photo("QD"))
    image = cv2.imread(str(photo))
    (found,) = CardDetector().detect(image)
    refined = refine_quad(grey_for_refine(image), found.corners)
    assert not np.allclose(refined, found.corners, atol=2.0)  # this photo's quad does move
    for extra, corners in (([], refined), (["--no-refine"], found.corners)):
        assert (
            main(["vision", "classify", str(photo), "--json", "--finder", "learned", *extra]) == 0
        )
        (card,) = json.loads(capsys.readouterr().out)[str(photo)]
        assert card["card"] == "QD"
        assert np.allclose(card["corners"], corners, atol=0.06), extra


def test_still_photos_are_read_by_the_still_photo_classifier(tmp_path: Path) -> None:
    from kibic.cli_vision import _recognizer
    from vision.recognizer import DEFAULT_MODEL, PHOTO_MODEL

    assert PHOTO_MODEL.is_file() and PHOTO_MODEL != DEFAULT_MODEL
    assert _recognizer(None, still=True).path == PHOTO_MODEL  # classify, eval
    # a deck profile holds the table classifier's embeddings: it is read with that one
    assert _recognizer(None, still=True, profile=True).path == DEFAULT_MODEL
    assert _recognizer(None).path == DEFAULT_MODEL  # track, enrol
    assert _recognizer(DEFAULT_MODEL, still=True).path == DEFAULT_MODEL  # --model decides
    photo = Recognizer(PHOTO_MODEL)
    assert photo.labels == Recognizer().labels and photo.has_features


def test_a_folder_that_cannot_be_scored_is_named(tmp_path: Path) -> None:
    missing, empty = tmp_path / "gone", tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.txt").write_text("no images here")
    with pytest.raises(SystemExit, match=rf"^kibic vision eval: {missing} is not a folder$"):
        main(["vision", "eval", str(missing)])
    with pytest.raises(SystemExit, match=rf"^kibic vision eval: {empty} holds no images"):
        main(["vision", "eval", str(empty)])


def test_classify_names_an_unreadable_image_and_reads_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cv2.imwrite(str(tmp_path / "AS.png"), _photo("AS"))
    (tmp_path / "broken.jpg").write_bytes(b"not a jpeg")
    status = main(["vision", "classify", str(tmp_path / "broken.jpg"), str(tmp_path / "AS.png"),
                   "--deck", "french-52", "--finder", "classic"])  # fmt: skip
    out, err = capsys.readouterr()
    assert status == 1
    assert f"{tmp_path / 'broken.jpg'}: cannot read image (missing, or not an image)" in err
    assert f"{tmp_path / 'AS.png'}: 1 card(s)" in out and " AS " in out


@pytest.mark.parametrize(
    ("command", "source", "message"),
    [("track", "folder:{tmp}/gone", "image folder {tmp}/gone not found (or not a folder)"),
     ("enrol", "video:{tmp}/gone.mp4", "cannot open video source '{tmp}/gone.mp4'"),
     ("track", "webcam", "unknown frame source 'webcam' (picamera2, camera:N, video:P, folder:P, "
                           "synthetic:S)")],
)  # fmt: skip
def test_a_frame_source_that_cannot_be_read_is_named(tmp_path: Path, command: str, source: str,
                                                     message: str) -> None:  # fmt: skip
    source = source.format(tmp=tmp_path)
    args = ["vision", command, "--source", source, "--deck", "piquet-32"]
    if command == "enrol":
        args += ["--out", str(tmp_path / "deck.npz")]
    expected = f"kibic vision {command}: --source {source}: {message.format(tmp=tmp_path)}"
    with pytest.raises(SystemExit) as stopped:
        main(args)
    assert str(stopped.value.code) == expected
    assert not (tmp_path / "deck.npz").exists()


def test_track_waits_for_the_mats_markers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder of frames whose first two show no mat (the camera was pointed elsewhere): the
    tracker says once that it waits, then reads the cards played on the mat."""
    from vision.synthetic import random_game, random_plays

    cv2.imwrite(str(tmp_path / "0000.png"), np.full((720, 1280, 3), 90, np.uint8))
    cv2.imwrite(str(tmp_path / "0001.png"), np.full((720, 1280, 3), 60, np.uint8))
    for k, frame in enumerate(random_game(seed=0)):
        if k >= 60:
            break
        cv2.imwrite(str(tmp_path / f"{k + 2:04d}.png"), frame)
    assert main(["vision", "track", "--source", f"folder:{tmp_path}", "--deck", "piquet-32"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "calibration: ArUco markers [0, 1, 2, 3] not found on the mat; waiting for "\
                     "the mat's markers"  # fmt: skip
    assert sum("waiting" in line for line in out) == 1
    played = [line for line in out if " played " in line]
    first = random_plays(Deck.PIQUET_32, 4, 0)[0]
    assert played and f"seat {first[0]} played {first[1].code} " in played[0]
    assert out[-1].startswith("62 frames in ")


def test_a_region_read_as_no_card_is_not_found_unless_kept(
    tmp_path: Path, recognizer: Recognizer, capsys: pytest.CaptureFixture[str]
) -> None:
    """A card back where a card is labelled: ``classify`` drops it, and so does the count."""
    canvas = np.full((360, 520, 3), (50, 100, 40), np.uint8)
    canvas[70:280, 75:225] = _photo("QD")[70:280, 75:225]
    back = np.full((210, 150, 3), 235, np.uint8)
    for y in range(-150, 210, 8):
        cv2.line(back, (0, y), (150, y + 150), (40, 40, 170), 2)
        cv2.line(back, (0, y + 150), (150, y), (40, 40, 170), 2)
    canvas[70:280, 300:450] = back
    cv2.imwrite(str(tmp_path / "two.png"), canvas)
    (tmp_path / "two.xml").write_text("<annotation>" + "".join(
        f"<object><name>{name}</name><bndbox><xmin>{x}</xmin><ymin>70</ymin>"
        f"<xmax>{x + 150}</xmax><ymax>280</ymax></bndbox></object>"
        for name, x in (("queen", 75), ("king", 300))) + "</annotation>")  # fmt: skip
    shown = evaluate_folder(tmp_path, recognizer)
    assert (shown.boxes, shown.found, shown.detections) == (2, 1, 1)
    assert shown.mistakes == ["two.png: king not found (read as no card)"]
    assert shown.misses == {"shared": 0, "box off": 0, "read as no card": 1, "nothing near": 0}
    assert main(["vision", "eval", str(tmp_path), "--finder", "classic"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert "box recall (visible boxes) 50.00% [95 % 9.4%-90.5%]" in printed[0]
    assert printed[1] == "  not found: 1 read as no card"
    kept = evaluate_folder(tmp_path, recognizer, keep_none=True)
    assert (kept.found, kept.rank_correct, kept.detections) == (2, 1, 2)


def test_track_notices_a_knocked_camera(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """From frame 60 on, every frame is shifted by (20, -10) px, as by a knocked camera:
    ``track`` says so once and calibrates the seats again, and no card is read twice."""
    from vision.synthetic import random_game, random_plays

    knock = np.array([[1, 0, 20], [0, 1, -10]], np.float32)
    for k, frame in enumerate(random_game(seed=0)):
        if k >= 240:
            break
        if k >= 60:
            h, w = frame.shape[:2]
            frame = cv2.warpAffine(frame, knock, (w, h), flags=cv2.INTER_NEAREST,
                                   borderValue=(40, 45, 50))  # fmt: skip
        cv2.imwrite(str(tmp_path / f"{k:04d}.png"), frame, [cv2.IMWRITE_PNG_COMPRESSION, 1])
    assert main(["vision", "track", "--source", f"folder:{tmp_path}", "--deck", "piquet-32"]) == 0
    out = capsys.readouterr().out.splitlines()
    moved = [line for line in out if "moved" in line]
    assert len(moved) == 1
    assert moved[0].endswith(": the camera moved (22 px); the seats were calibrated again from "
                             "the mat's markers")  # fmt: skip
    played = [line.split(": ", 1)[1].split(" (")[0] for line in out if " played " in line]
    plays = random_plays(Deck.PIQUET_32, 4, 0)
    assert len(played) >= 6
    assert played == [f"seat {seat} played {card.code}" for seat, card in plays[: len(played)]]


def test_track_reads_a_1920_by_1080_camera_at_1280_by_720(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A table filmed at 1920 x 1080, knocked by (30, -15) of its pixels from frame 20: the
    frames are read scaled to 1280 x 720, as the table reads them, so the shift is told in those
    pixels (22 px, not 34), and the cards are read at their seats."""
    from vision.synthetic import SyntheticTable, random_plays

    plays = random_plays(Deck.PIQUET_32, 4, 0, count=16)
    table = SyntheticTable(plays, n_seats=4, deck=Deck.PIQUET_32, seed=0, fast=True,
                           size=(1920, 1080))  # fmt: skip
    knock = np.array([[1, 0, 30], [0, 1, -15]], np.float32)
    for k, frame in enumerate(table):
        if k >= 20:
            frame = cv2.warpAffine(frame, knock, (1920, 1080), flags=cv2.INTER_NEAREST,
                                   borderValue=(40, 45, 50))  # fmt: skip
        cv2.imwrite(str(tmp_path / f"{k:04d}.png"), frame, [cv2.IMWRITE_PNG_COMPRESSION, 1])
    assert main(["vision", "track", "--source", f"folder:{tmp_path}", "--deck", "piquet-32"]) == 0
    out = capsys.readouterr().out.splitlines()
    moved = [line for line in out if "moved" in line]
    assert len(moved) == 1 and "the camera moved (22 px)" in moved[0]
    played = [line.split(": ", 1)[1].split(" (")[0] for line in out if " played " in line]
    assert played == [f"seat {seat} played {card.code}" for seat, card in plays]


def _read(code: str, corners: tuple[tuple[float, float], ...],
          found_by: str = "finder") -> ImageCard:  # fmt: skip
    return ImageCard(card=Card.parse(code), face=code, deck=Deck.FRENCH_53, confidence=0.6,
                     corners=corners, prediction=Prediction(f"french:{code}", 0.6, ()),
                     found_by=found_by)  # fmt: skip


def test_a_card_read_by_its_index_alone_is_named_on_it_though_iou_never_pairs_it() -> None:
    from vision.evaluate import EvalReport, _score

    under = (100.0, 100.0, 260.0, 320.0)  # the part of the under card that shows
    over = (200.0, 120.0, 360.0, 340.0)
    index = ((108.0, 110.0), (132.0, 110.0), (132.0, 150.0), (108.0, 150.0))  # on ``under``
    whole = ((200.0, 120.0), (360.0, 120.0), (360.0, 340.0), (200.0, 340.0))
    report = EvalReport()
    _score(report, "fan.jpg", [_read("QH", index, "index"), _read("7S", whole)],
           [("QH", under), ("7S", over)])  # fmt: skip
    assert (report.found, report.card_correct) == (1, 1)  # IoU pairs only the whole card
    assert report.named_on_card == 2
    assert report.summary()["named_on_card"] == 2
    # misread, or read off the card, is not named on it; a rank label takes its rank
    report = EvalReport()
    elsewhere = ((400.0, 400.0), (420.0, 400.0), (420.0, 430.0), (400.0, 430.0))
    _score(report, "b.jpg", [_read("QD", index, "index"), _read("7S", elsewhere)],
           [("QH", under), ("7S", over)])  # fmt: skip
    assert report.named_on_card == 0
    report = EvalReport()
    _score(report, "c.jpg", [_read("QD", index, "index")], [("queen", under)])
    assert report.named_on_card == 1
