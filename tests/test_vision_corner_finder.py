"""The corner-index finder and reader (``vision.corner_finder``): peaks, how indices become cards,
how those cards join the cards found whole (``vision.pipeline.by_index``), how they are scored
(``vision.corner_eval``), the shipped models on real photos, and the training commands."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.cards import Card, Deck
from tests import needs
from vision.corner_eval import CornerReport, score_photo
from vision.corner_finder import (
    DEFAULT_FINDER,
    DEFAULT_READER,
    READ_SIDE,
    READ_SIZE,
    CornerFinder,
    FoundIndex,
    cards_of,
    peaks,
    square_cut,
)
from vision.pipeline import ImageCard
from vision.recognizer import Prediction
from vision.still_index import by_index, with_index_cards

ROOT = Path(__file__).resolve().parent.parent


def _index(label: str, confidence: float, cx: float = 50, cy: float = 50) -> FoundIndex:
    return FoundIndex((cx, cy, 20.0, 40.0), 0.9, label, confidence)


def test_peaks_are_the_local_maxima_over_the_threshold() -> None:
    heat = np.zeros((10, 12), np.float32)
    heat[2, 3] = 0.8
    heat[2, 4] = 0.6  # beside a higher peak: not one
    heat[7, 9] = 0.35
    heat[5, 5] = 0.2  # under the threshold
    assert sorted(peaks(heat, 0.3)) == [(2, 3), (7, 9)]


def test_a_turned_square_cut_brings_the_mark_round() -> None:
    image = np.zeros((100, 100, 3), np.uint8)
    image[40:50, 50:60] = 255  # a mark right of the centre (50, 50), just above it
    upright = square_cut(image, 50, 50, 40, 0.0, 40)
    assert upright[:, 20:].mean() > upright[:, :20].mean()
    turned = square_cut(image, 50, 50, 40, 180.0, 40)  # half a turn: now left of the centre
    assert turned[:, :20].mean() > turned[:, 20:].mean()
    assert upright.shape == (40, 40, 3)


def test_two_indices_of_one_card_are_one_card_and_none_is_no_card() -> None:
    indices = [_index("french:QH", 0.7, 10, 10), _index("french:QH", 0.95, 90, 150),
               _index("none", 0.99), _index("french:2C", 0.8)]  # fmt: skip
    cards = cards_of(indices)
    assert [(c.label, c.confidence) for c in cards] == [("french:QH", 0.95), ("french:2C", 0.8)]
    assert len(cards[0].indices) == 2
    assert cards[0].quad() == ((0.0, -10.0), (100.0, -10.0), (100.0, 170.0), (0.0, 170.0))


class _Finder:
    """Stands for a CornerFinder in ``by_index``: the indices it is given."""

    def __init__(self, indices: list[FoundIndex]) -> None:
        self._indices = indices

    def indices(self, image: np.ndarray) -> list[FoundIndex]:
        return self._indices


def _found(code: str, corners: tuple[tuple[float, float], ...], confidence: float,
           found_by: str = "finder") -> ImageCard:  # fmt: skip
    label = f"french:{code}"
    return ImageCard(card=Card.parse(code), face=code, deck=Deck.FRENCH_53,
                     confidence=confidence, corners=corners, found_by=found_by,
                     prediction=Prediction(label, confidence, ((label, confidence),)))  # fmt: skip


def test_cards_read_by_index_are_one_per_indexed_card_of_the_deck() -> None:
    image = np.zeros((300, 300, 3), np.uint8)
    finder = _Finder([
        _index("french:7C", 0.8, 40, 60),  # a strip of a card under another
        _index("french:7C", 0.6, 60, 90),  # its other index: the same card
        _index("french:2C", 0.7, 200, 200),  # not a card of piquet
        _index("none", 0.99, 250, 250),
    ])  # fmt: skip
    added = by_index(image, finder, Deck.PIQUET_32)  # type: ignore[arg-type]
    assert [(c.card.code, c.confidence, c.found_by) for c in added] == [("7C", 0.8, "index")]
    assert added[0].corners == ((30.0, 40.0), (50.0, 40.0), (50.0, 80.0), (30.0, 80.0))
    assert added[0].visible_bbox() == (30.0, 40.0, 50.0, 80.0)
    assert [c.card.code for c in by_index(image, finder, Deck.FRENCH_52)] == ["7C", "2C"]  # type: ignore[arg-type]
    assert by_index(image, finder, Deck.SERBIAN_33) == []  # type: ignore[arg-type]
    assert by_index(image, finder, Deck.DOPPELKOPF_48) == []  # type: ignore[arg-type]


def test_where_both_read_a_card_the_surer_reading_stays() -> None:
    quad = ((100.0, 100.0), (200.0, 100.0), (200.0, 250.0), (100.0, 250.0))
    away = ((0.0, 0.0), (10.0, 0.0), (10.0, 20.0), (0.0, 20.0))
    on = ((105.0, 105.0), (115.0, 105.0), (115.0, 125.0), (105.0, 125.0))
    found = [_found("AS", quad, 0.95), _found("KD", quad, 0.6), _found("QH", quad, 0.5)]
    indexed = [_found("AS", away, 0.9, "index"), _found("KD", away, 0.8, "index"),
               _found("QH", on, 0.97, "index"), _found("7C", away, 0.7, "index")]  # fmt: skip
    for card in indexed:  # as by_index makes them
        indexed[indexed.index(card)] = replace(card, index_box=(*card.corners[0], *card.corners[2]))
    kept = with_index_cards(found, indexed)
    assert [(c.card.code, c.found_by, c.confidence) for c in kept] == [
        ("AS", "finder", 0.95),  # surer than its index read elsewhere
        ("KD", "finder", 0.6),  # its index elsewhere and surer: both stay, a doubt
        ("QH", "finder", 0.97),  # its index on it: the card found, the index's reading
        ("KD", "index", 0.8),
        ("7C", "index", 0.7),
    ]
    assert kept[2].index_box == (105.0, 105.0, 115.0, 125.0) and kept[2].corners == quad
    assert kept[0].index_box is None


def test_a_photo_is_scored_per_index_and_per_card() -> None:
    boxes = np.array([[50, 50, 20, 40], [150, 150, 20, 40], [250, 50, 20, 40],
                      [300, 300, 40, 40]], np.float32)  # fmt: skip
    codes = ("QH", "QH", "5S", "back")
    indices = [
        _index("french:QH", 0.97, 52, 55),  # on the queen's first box: read right
        _index("french:9S", 0.9, 252, 48),  # on the 5 of spades: read wrong
        _index("french:2D", 0.4, 400, 400),  # on nothing: a false card
    ]
    report = CornerReport("t")
    score_photo(report, indices, boxes, codes)
    assert (report.boxes, report.boxes_found, report.found_boxes) == (3, 2, 3)
    assert (report.cards, report.cards_found, report.cards_right) == (2, 2, 1)
    assert sorted(report.readings) == [(0.9, False), (0.97, True)]
    assert report.false_cards == [0.9, 0.4]  # 9S and 2D are not in the photo
    assert "1 right, 2 wrong committed" in report.line(0.85)


def _tune_photo(folder: str) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    from training.real_finder_crops import CORNERS

    if not CORNERS.is_dir():
        pytest.skip(f"needs the real photos (../shared/data/real-photos): {CORNERS}")
    from training.corner_samples import load

    photo = load("tune", (folder,))[0]  # corner-boxes' tune part: SETS.md lets it tune
    return photo.image, photo.boxes, photo.codes


def test_the_shipped_models_find_and_read_the_indices_of_a_real_desk() -> None:
    image, boxes, codes = _tune_photo("desk")
    finder = CornerFinder(DEFAULT_FINDER, DEFAULT_READER)
    report = CornerReport("desk")
    score_photo(report, finder.indices(image), boxes, codes)
    assert report.boxes >= 8
    assert report.boxes_found >= 0.9 * report.boxes
    assert report.cards_right >= 0.7 * report.cards


def test_the_reader_reads_a_rendered_index_turned_any_way() -> None:
    from vision.card_faces import design_for_seed, render_face

    face = render_face("french:9H", design_for_seed("french", 0))  # the demo's design
    finder = CornerFinder(DEFAULT_FINDER, DEFAULT_READER)
    h, w = face.shape[:2]
    canvas = np.full((h + 80, w + 80, 3), (40, 110, 40), np.uint8)  # green felt
    canvas[40 : 40 + h, 40 : 40 + w] = face
    side = 0.3 * h
    cx, cy = 40 + 0.11 * w, 40 + 0.14 * h
    read = []
    for angle in (0, 90, 200):
        cut = square_cut(canvas, cx, cy, side, angle, READ_SIZE)
        box = READ_SIZE / READ_SIDE  # read as it is: the square is the cut
        probs = finder.read(cut, [(READ_SIZE / 2, READ_SIZE / 2, box, box)])
        read.append(finder.labels[int(probs[0].argmax())])
    assert read == ["french:9H"] * 3


def test_finder_training_runs_and_exports_a_model_the_finder_loads(tmp_path: Path) -> None:
    needs.torch()
    _tune_photo("desk")
    out = tmp_path / "corners.onnx"
    run = subprocess.run([sys.executable, "-m", "training.train_corner_finder", "--steps", "2",
                          "--batch", "2", "--size", "128", "--workers", "0", "--out", str(out)],
                         cwd=ROOT, capture_output=True, text=True, timeout=900)  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["output"]["channels"] == ["heat", "dx", "dy", "log_w", "log_h"]
    finder = CornerFinder(out, DEFAULT_READER, threshold=0.99)
    assert isinstance(finder.boxes(np.full((100, 140, 3), 128, np.uint8)), list)


def test_reader_training_runs_and_exports_a_model_the_finder_loads(tmp_path: Path) -> None:
    needs.torch()
    _tune_photo("desk")
    out = tmp_path / "reader.onnx"
    run = subprocess.run([sys.executable, "-m", "training.train_corner_reader", "--steps", "2",
                          "--batch", "8", "--gray", "0.5", "--out", str(out)], cwd=ROOT,
                         capture_output=True, text=True, timeout=900)  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    training = json.loads(out.with_suffix(".labels.json").read_text())["training"]
    assert (
        "--gray 0.5 " in training["command"]
        and "0.5 of the samples turned grey" in training["data"]
    )
    finder = CornerFinder(DEFAULT_FINDER, out)
    probs = finder.read(np.full((60, 60, 3), 200, np.uint8), [(30.0, 30.0, 20.0, 30.0)])
    assert probs.shape == (1, 54) and probs.sum() == pytest.approx(1.0, abs=1e-4)
    assert json.loads(out.with_suffix(".labels.json").read_text())["labels"][-1] == "none"


def test_a_box_cut_from_a_photo_is_read_where_the_photo_ends() -> None:
    image = np.full((50, 50, 3), 90, np.uint8)
    cut = square_cut(image, 0, 0, 30, 0.0, READ_SIZE)  # the corner of the photo: edges repeated
    assert cut.shape == (READ_SIZE, READ_SIZE, 3) and int(cut.min()) == 90
    assert cv2.mean(cut)[0] == pytest.approx(90)


def test_the_reader_training_refuses_a_gray_share_outside_zero_to_one(tmp_path: Path) -> None:
    needs.torch()
    run = subprocess.run([sys.executable, "-m", "training.train_corner_reader", "--gray", "1.5",
                          "--out", str(tmp_path / "r.onnx")], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)  # fmt: skip
    assert run.returncode == 2 and "--gray must be a share from 0 to 1, not 1.5" in run.stderr
    assert not (tmp_path / "r.onnx").exists()


def _classify(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    from kibic.cli import main

    assert main(["vision", "classify", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_classify_reads_the_indices_with_the_box_reader_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from kibic.cli import main
    from vision.card_faces import design_for_seed, render_face

    photo = tmp_path / "fan.png"
    canvas = np.full((480, 640, 3), (50, 100, 40), np.uint8)
    for k, code in enumerate(("QD", "7C", "AS")):
        canvas[120:330, 60 + 60 * k : 210 + 60 * k] = render_face(
            f"french:{code}", design_for_seed("french", 0)
        )
    cv2.imwrite(str(photo), canvas)
    from vision.corner_finder import STILL_READER

    copy = tmp_path / "reader.onnx"  # a copy of classify's own, the still photos' (exp. 95c)
    copy.write_bytes(STILL_READER.read_bytes())
    meta = json.loads(STILL_READER.with_suffix(".labels.json").read_text())
    copy.with_suffix(".labels.json").write_text(json.dumps(meta))
    assert _classify(["--corner-reader", str(copy), str(photo)], capsys) == _classify(
        [str(photo)], capsys
    )
    # the file named is the one read: labels that do not end with none are refused, named
    meta["labels"] = meta["labels"][::-1]
    copy.with_suffix(".labels.json").write_text(json.dumps(meta))
    with pytest.raises(SystemExit, match=r"classify: --corner-reader .*reader.onnx: .*last label"):
        main(["vision", "classify", "--corner-reader", str(copy), str(photo)])
    with pytest.raises(SystemExit, match=r"--corner-reader .*: no file .*nowhere.labels.json"):
        (tmp_path / "nowhere.onnx").write_bytes(b"")
        main(["vision", "classify", "--corner-reader", str(tmp_path / "nowhere.onnx"), str(photo)])
    with pytest.raises(SystemExit, match="--corner-reader does not go with --no-corners"):
        main(["vision", "classify", "--no-corners", "--corner-reader", str(copy), str(photo)])
    # eval reads a folder as classify does: with the box reader named, refused the same way
    with pytest.raises(SystemExit, match=r"eval: --corner-reader .*reader.onnx: .*last label"):
        main(["vision", "eval", str(tmp_path), "--corner-reader", str(copy)])


def test_boxes_crowd_one_another_where_a_read_square_holds_another_centre() -> None:
    from vision.corner_finder import crowded

    row = [(100.0, 100.0, 14.0, 50.0), (120.0, 100.0, 14.0, 50.0), (400.0, 300.0, 14.0, 50.0)]
    assert crowded(row, row) == [True, True, False]
    assert crowded(row[1:], row) == [True, False] and crowded(row[1:], row[1:]) == [False, False]


def test_a_box_greyed_around_keeps_its_grown_box_and_greys_the_rest() -> None:
    from vision.corner_finder import grey_outside, greyed_around

    image = np.random.default_rng(3).integers(0, 256, (200, 300, 3), np.uint8)
    box = (150.0, 100.0, 20.0, 40.0)
    out = grey_outside(image, box, 1.3)
    assert out.shape == image.shape and image is not out
    # the box grown 1.3 times (26 x 52 about its middle) kept, all else grey
    assert np.array_equal(out[74:127, 137:164], image[74:127, 137:164])
    assert (out[:70] == 128).all() and (out[:, :130] == 128).all() and (out[:, 170:] == 128).all()
    part, cx, cy = greyed_around(image, box, 1.3)
    # the part a turned square can reach, the box at the same place in it
    assert part.shape[0] >= 2 * READ_SIDE * 40 and part.shape[1] >= 2 * READ_SIDE * 40
    x0, y0 = int(150 - cx), int(100 - cy)
    assert np.array_equal(part, out[y0 : y0 + part.shape[0], x0 : x0 + part.shape[1]])
    # at the photo's corner the part is cut by the photo
    corner, cx, cy = greyed_around(image, (5.0, 5.0, 10.0, 10.0), 1.3)
    assert (cx, cy) == (5.0, 5.0) and corner.shape[:2] == (19, 19)


def test_a_reader_trained_greyed_reads_a_crowded_index_greyed_and_others_as_before(
    tmp_path: Path,
) -> None:
    """A reader whose labels file says ``input.greyed`` (experiment 95) reads each index that
    another found index crowds with the photo around its box grey; one without reads all as
    before, and so do both an index alone, and the table (``grey_crowded=False``)."""
    reader = tmp_path / "reader.onnx"
    reader.write_bytes(DEFAULT_READER.read_bytes())
    meta = json.loads(DEFAULT_READER.with_suffix(".labels.json").read_text())
    assert "greyed" not in meta["input"]  # the shipped reader reads as before experiment 95
    meta["input"]["greyed"] = 1.3
    reader.with_suffix(".labels.json").write_text(json.dumps(meta))
    plain, greyed = (
        CornerFinder(DEFAULT_FINDER, DEFAULT_READER),
        CornerFinder(DEFAULT_FINDER, reader),
    )
    assert (plain.greyed, greyed.greyed) == (0.0, 1.3)
    image = np.random.default_rng(4).integers(0, 256, (200, 300, 3), np.uint8)
    row = [(100.0, 100.0, 14.0, 50.0), (120.0, 100.0, 14.0, 50.0), (250.0, 100.0, 14.0, 50.0)]
    a, b = plain.read(image, row), greyed.read(image, row)
    assert not np.allclose(a[0], b[0]) and not np.allclose(a[1], b[1])  # crowded: greyed
    assert np.allclose(a[2], b[2])  # alone: as before
    # the greyed reading is the plain reading of the photo greyed around that box
    from vision.corner_finder import grey_outside

    alone = plain.read(grey_outside(image, row[0], 1.3), [row[0]])
    assert np.allclose(alone[0], b[0], atol=1e-5)
    # the table reads every index as it is (experiment 95b)
    assert np.allclose(greyed.read(image, row, grey_crowded=False), a)


def test_still_photos_read_crowded_indices_greyed_and_the_table_keeps_its_reader() -> None:
    """Experiment 95c: ``classify`` and ``eval`` read with the still photos' box reader (version
    4, trained greyed), ``track`` and the runtime with the table's (version 3, as it was)."""
    from kibic.cli_vision import corner_finder
    from vision.corner_finder import STILL_READER, still_reader

    assert still_reader() == STILL_READER and STILL_READER != DEFAULT_READER
    still, table = corner_finder(None, "classify", still=True), corner_finder(None, "track")
    assert (still.greyed, table.greyed) == (1.3, 0.0)
    meta = json.loads(STILL_READER.with_suffix(".labels.json").read_text())
    assert meta["version"] == 4 and meta["labels"] == list(table.labels)


def test_the_still_reader_reads_a_real_overlapping_row_better_than_the_tables() -> None:
    """On the desk's tune photos (corner-boxes, SETS.md lets them tune), the indices whose read
    square holds another index: the still photos' reader, greying them, reads more of them right
    than the table's reader reads them as they are (experiment 95: 48 against 30 of 51)."""
    from training.corner_samples import load
    from vision.corner_finder import STILL_READER, crowded

    _tune_photo("desk")  # skips without the real photos
    still = CornerFinder(DEFAULT_FINDER, STILL_READER)
    table = CornerFinder(DEFAULT_FINDER, DEFAULT_READER)
    right = {"still": 0, "table": 0}
    total = 0
    for photo in load("tune", ("desk",)):
        boxes = [tuple(float(v) for v in b) for b in photo.boxes]
        near = crowded(boxes, boxes)  # type: ignore[arg-type]
        picked = [k for k, c in enumerate(photo.codes) if near[k] and c != "back"]
        if not picked:
            continue
        total += len(picked)
        for name, finder in (("still", still), ("table", table)):
            probs = finder.read(photo.image, boxes)  # type: ignore[arg-type]
            right[name] += sum(finder.labels[int(probs[k].argmax())] == f"french:{photo.codes[k]}"
                               for k in picked)  # fmt: skip
    assert total >= 40
    assert right["still"] >= right["table"] + 10
