"""A photo that is one card: ``kibic vision classify --whole``, and the whole photo read when the
finder finds nothing, never kept below the commit threshold.

The card-crops photos below are real photos of the tune part of ``training.real_crops.split``
(kept out of training), each read by the shipped still-photo classifier with a confidence of
0.99 or more (4D-52: its gate takes it for paper); this is the one file that pins readings of
them. A photo said to be one card is never read as no card (experiment 50).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from kibic.cli import main
from training import real_crops
from vision.card_faces import design_for_seed, render_face
from vision.corner_finder import DEFAULT_READER
from vision.recognizer import PHOTO_MODEL
from vision.reliability import commit_threshold

CROPS = real_crops.CROPS
needs_crops = pytest.mark.skipif(
    not real_crops.available(),
    reason=f"needs the card-crops photos in {CROPS} (the shared data folder)",
)


def _classify(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, list[dict]]:
    assert main(["vision", "classify", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def _rendered(tmp_path: Path, code: str = "KH") -> Path:
    """A rendered card face, edge to edge, stretched to a square as the card-crops are."""
    path = tmp_path / f"{code}.png"
    face = render_face(f"french:{code}", design_for_seed("french", 0))
    cv2.imwrite(str(path), cv2.resize(face, (224, 224)))
    return path


@needs_crops
def test_real_single_cards_with_nothing_found_are_read_whole(
    capsys: pytest.CaptureFixture[str],
) -> None:
    photos = [CROPS / "7S" / "7S-52.jpg", CROPS / "9C" / "9C-07.jpg", CROPS / "8D" / "8D-41.jpg"]
    doc = _classify(["--no-corners", "--detector-zoom", "0", *(str(p) for p in photos)], capsys)
    for path in photos:
        (card,) = doc[str(path)]
        assert (card["card"], card["found_by"]) == (path.parent.name, "whole"), path.name
        assert card["confidence"] >= 0.85
        assert card["corners"] == [[0, 0], [224, 0], [224, 224], [0, 224]]
    # the detector's zoom-out pass finds the first on its edges (experiment 39)
    (card,) = _classify(["--no-corners", str(photos[0])], capsys)[str(photos[0])]
    assert (card["card"], card["found_by"], card["confidence"] >= 0.85) == ("7S", "finder", True)
    # by default the corner indices read them too (vision.corner_finder), as surely
    doc = _classify([str(p) for p in photos], capsys)
    for path in photos:
        surest = max(doc[str(path)], key=lambda c: c["confidence"])
        assert (surest["card"], surest["confidence"] >= 0.85) == (path.parent.name, True)


@needs_crops
def test_whole_reads_a_real_card_the_finder_cuts_in_parts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from referee.cards import Deck
    from vision.detector import CardDetector
    from vision.pipeline import read_cards
    from vision.recognizer import PHOTO_GATE, PHOTO_INDEX, PHOTO_MODEL, Recognizer, photo_recognizer

    photo = CROPS / "2C" / "2C-28.jpg"  # the finder finds parts of it, none read for sure
    image = cv2.imread(str(photo))
    first_gate = Recognizer(PHOTO_MODEL, gate=PHOTO_GATE, index=PHOTO_INDEX)
    parts = read_cards(image, first_gate, deck=Deck.FRENCH_53, detector=CardDetector(),
                       floor=0.0)  # fmt: skip
    assert len(parts) >= 5 and all(c.confidence < 0.85 for c in parts)
    # the second gate, taught such pieces as no card (experiments 86 and 87), drops every one
    assert read_cards(image, photo_recognizer(), deck=Deck.FRENCH_53, detector=CardDetector(),
                      floor=0.0) == []  # fmt: skip
    for args in (["--no-corners", str(photo)], ["--whole", str(photo)]):
        (card,) = _classify(args, capsys)[str(photo)]
        assert (card["card"], card["found_by"]) == ("2C", "whole")
        assert card["confidence"] >= 0.85
    # by default it is read whole as well: the still photos' box reader (version 4, experiment
    # 95c) reads its index below the threshold; the table's box reader (version 3) reads the
    # index surely, and then no need to read whole
    (card,) = _classify([str(photo)], capsys)[str(photo)]
    assert (card["card"], card["found_by"], card["confidence"] >= 0.85) == ("2C", "whole", True)
    table = str(DEFAULT_READER)
    surest = max(_classify(["--corner-reader", table, str(photo)], capsys)[str(photo)],
                 key=lambda c: c["confidence"])  # fmt: skip
    assert (surest["card"], surest["found_by"]) == ("2C", "index")
    assert surest["confidence"] >= 0.85


def test_a_rendered_card_edge_to_edge_is_read_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(_rendered(tmp_path))
    (auto,) = _classify([path], capsys)[path]
    (whole,) = _classify(["--whole", path], capsys)[path]
    assert auto == whole and (whole["card"], whole["found_by"]) == ("KH", "whole")
    assert main(["vision", "classify", "--whole", path]) == 0
    assert capsys.readouterr().out.splitlines()[1].endswith("(the whole image)")


def test_a_whole_reading_below_the_commit_threshold_is_not_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The commit threshold is the classifier's own (``commit_threshold`` in its labels file):
    above the reading's confidence, the automatic whole reading is kept only where nothing else
    is read (experiment 79), and every reading is below the threshold (asked); at or below it,
    the whole reading is given; ``--whole``, asked for, always gives it."""
    path = str(_rendered(tmp_path))
    model = tmp_path / "m.onnx"
    shutil.copy(PHOTO_MODEL, model)
    labels = json.loads(PHOTO_MODEL.with_suffix(".labels.json").read_text())
    model.with_suffix(".labels.json").write_text(json.dumps(labels))
    (reading,) = _classify(["--model", str(model), "--whole", path], capsys)[path]
    for threshold, kept in ((reading["confidence"] + 0.001, 0), (reading["confidence"] - 0.01, 1)):
        labels["commit_threshold"] = min(threshold, 1.0)
        model.with_suffix(".labels.json").write_text(json.dumps(labels))
        readings = _classify(["--model", str(model), path], capsys)[path]
        whole = [r for r in readings if r["found_by"] == "whole"]
        if kept:
            assert len(whole) == 1, threshold
        else:
            assert whole in ([], readings), threshold  # the whole reading only alone
            assert all(r["confidence"] < threshold for r in readings)


@needs_crops
@pytest.mark.parametrize("code, name", [("6C", "6C-40"), ("TC", "TC-48"), ("7D", "7D-17")])
def test_a_turned_card_in_a_close_crop_is_read_by_the_card_the_detector_finds(
    code: str, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A close crop of a card turned in it (tune photos of card-crops): stretched edge to edge
    its indices are far from the face's corners, and it is misread or read as no card; the
    card the detector finds covering most of the photo reads it surely (experiment 39)."""
    path = str(CROPS / code / f"{name}.jpg")
    stretched = _classify(["--whole", "--finder", "classic", path], capsys)[path]
    assert not any(c["card"] == code and c["confidence"] >= 0.85 for c in stretched)
    (card,) = _classify(["--whole", path], capsys)[path]
    assert (card["card"], card["found_by"]) == (code, "whole")
    assert card["confidence"] >= 0.85
    assert card["corners"] != [[0, 0], [224, 0], [224, 224], [0, 224]]


def test_classify_prints_every_photo_it_is_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Printed (not --json), the second photo is read with the corner indices as the first is:
    the printed corners once took the name of the corner-index finder and ended the run."""
    paths = [str(_rendered(tmp_path, "KH")), str(_rendered(tmp_path, "7S"))]
    assert main(["vision", "classify", *paths]) == 0
    out = capsys.readouterr().out
    assert [line.split(":")[0] for line in out.splitlines() if not line.startswith(" ")] == paths
    assert {line.split()[0] for line in out.splitlines() if line.startswith(" ")} == {"KH", "7S"}


@needs_crops
def test_a_reading_below_the_floor_is_no_card(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """2C-28 (card-crops tune): the detector cuts the card in pieces, read at 0.05 to 0.17 by
    the still-photo classifier with its first gate alone (the second drops them all, above);
    below the floor (0.2 by default, experiment 42) they are no cards, and --floor 0 lists
    every reading. The photo is not read whole after the first reading (the subject is the
    floor): read whole, it is the two of clubs, which the index reads surely, and it stands
    for the pieces that --floor 0 keeps (experiment 107)."""
    import vision.pipeline
    import vision.recognizer
    from vision.pipeline import READ_FLOOR

    monkeypatch.setattr(vision.recognizer, "PHOTO_GATES", (vision.recognizer.PHOTO_GATE,))
    path = str(CROPS / "2C" / "2C-28.jpg")
    # read with the table's box reader, which reads the index surely
    table = ["--corner-reader", str(DEFAULT_READER)]
    (one,) = _classify([*table, "--floor", "0", path], capsys)[path]
    assert (one["card"], one["found_by"]) == ("2C", "whole")  # its pieces kept: experiment 107
    monkeypatch.setattr(vision.pipeline, "read_whole", lambda *a, **k: None)
    every = _classify([*table, "--floor", "0", path], capsys)[path]
    kept = _classify([*table, path], capsys)[path]
    assert READ_FLOOR == 0.2 and len(every) >= len(kept) + 5
    assert all(c["confidence"] >= 0.2 for c in kept)
    assert sorted(c["confidence"] for c in kept) == sorted(
        c["confidence"] for c in every if c["confidence"] >= 0.2
    )
    assert any(c["card"] == "2C" and c["confidence"] >= 0.85 for c in kept)


@pytest.mark.parametrize("value", ["1", "-0.1", "x"])
def test_a_floor_out_of_range_is_named(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["vision", "classify", "--floor", value, "a.jpg"])
    assert "--floor" in capsys.readouterr().err


@pytest.mark.parametrize("args, message", [
    (["--detector-zoom", "10"], "--detector-zoom: 10 px is too small"),
    (["--index-model", "no-such-reader.onnx"], "--index-model no-such-reader.onnx: no such model"),
    (["--index-model", "r.onnx", "--model", "m.onnx"], "not with --model or --profile"),
    (["--photo-model", "no-such-classifier.onnx"],
     "--photo-model no-such-classifier.onnx: no such model"),
    (["--photo-model", "c.onnx", "--profile", "p.npz"], "not with --model or --profile"),
    (["--photo-check", "no-such-check.json"], "--photo-check no-such-check.json: no such file"),
    (["--photo-check", "none", "--model", "m.onnx"], "--photo-check is a part of the still-photo"),
])  # fmt: skip
def test_the_reading_options_misused_are_named(args: list[str], message: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    with pytest.raises(SystemExit) as stop:
        main(["vision", "classify", *args, "a.jpg"])
    assert message in f"{stop.value.code} {capsys.readouterr().err}"


def test_another_still_photo_classifier_is_read_with_the_gate_and_the_index_reader() -> None:
    """``--photo-model``: the classifier named, with the shipped gate and index reader, as the
    shipped still-photo classifier is read."""
    from vision.recognizer import DEFAULT_MODEL, PHOTO_GATE, PHOTO_INDEX, photo_recognizer

    shipped = photo_recognizer()
    other = photo_recognizer(model=DEFAULT_MODEL)
    assert other.path == DEFAULT_MODEL and shipped.path != DEFAULT_MODEL
    assert other.gate is not None and other.gate.path == PHOTO_GATE
    assert other.index is not None and shipped.index is not None
    assert other.index.path == shipped.index.path == PHOTO_INDEX


@needs_crops
def test_a_photo_read_whole_runs_the_detector_once() -> None:
    """``read_cards`` gives the detector's passes (``detect_with_zoom``) to the photo's one-card
    reading: the net runs once per pass, and the card is the one ``read_whole`` reads alone."""
    from referee.cards import Deck
    from vision.detector import CardDetector
    from vision.pipeline import read_cards, read_whole
    from vision.recognizer import photo_recognizer

    photo = CROPS / "2C" / "2C-28.jpg"  # parts found, none read surely: read whole
    image = cv2.imread(str(photo))
    recognizer, detector = photo_recognizer(), CardDetector()
    runs: list[tuple[int, ...]] = []
    session_run = detector._session.run

    def counted(names, feeds):  # type: ignore[no-untyped-def]
        runs.append(tuple(feeds["input"].shape))
        return session_run(names, feeds)

    detector._session.run = counted  # type: ignore[method-assign]
    (card,) = read_cards(image, recognizer, deck=Deck.FRENCH_53, detector=detector,
                         whole_if_none=0.85)  # fmt: skip
    passes = list(runs)
    assert len(passes) == len(set(passes)) == 3  # the fine, coarse and zoom-out passes, once each
    runs.clear()
    alone = read_whole(image, recognizer, deck=Deck.FRENCH_53, detector=detector)
    assert sorted(runs) == sorted(passes)  # read alone, it runs the same passes itself
    assert alone is not None and card.found_by == "whole"
    assert (card.card, card.confidence, card.corners) == (alone.card, alone.confidence,
                                                          alone.corners)  # fmt: skip


def test_a_photo_in_which_nothing_is_read_keeps_its_whole_reading_down_to_the_floor(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``read_cards`` with ``whole_if_none`` (``classify``'s default): where nothing at all is
    read, the photo read whole at 0.5 is given (asked, below the threshold); beside cards read
    at 0.3 and 0.45 it is given instead of them (experiment 88: it is surer than each), beside a
    card read at 0.6 it is not (the weak cards stay); below the read floor it is not given
    either."""
    import vision.pipeline as pipeline
    from referee.cards import Card, Deck
    from vision.pipeline import ImageCard, read_cards
    from vision.recognizer import Prediction

    def card(code: str, confidence: float, found_by: str) -> ImageCard:
        pred = Prediction(f"french:{code}", confidence, ())
        return ImageCard(Card.parse(code), code, Deck.FRENCH_53, confidence,
                         ((0, 0), (1, 0), (1, 1), (0, 1)), pred, found_by=found_by)  # fmt: skip

    found: list[ImageCard] = []
    whole = [card("AD", 0.5, "whole")]
    monkeypatch.setattr(pipeline, "_read_found", lambda *a, **k: list(found))
    monkeypatch.setattr(pipeline, "read_whole", lambda *a, **k: whole[0])
    image = np.zeros((40, 30, 3), np.uint8)

    def read() -> list[str]:
        cards = read_cards(image, None, whole_if_none=0.85)  # type: ignore[arg-type]
        return [f"{c.card.code} {c.found_by}" for c in cards]

    assert read() == ["AD whole"]
    found += [card("7C", 0.3, "finder"), card("2S", 0.45, "index")]
    assert read() == ["AD whole"]
    found.append(card("9H", 0.6, "finder"))
    assert read() == ["7C finder", "2S index", "9H finder"]
    whole[0] = card("AD", 0.6, "whole")  # not surer than 9H: the cards stay
    assert read() == ["7C finder", "2S index", "9H finder"]
    found.clear()
    whole[0] = card("AD", 0.1, "whole")
    assert read() == []


@needs_crops
def test_a_close_crop_in_which_nothing_is_found_is_read_whole_and_asked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """card-crops AD-51 (tune part): the finder and the corner indices read nothing in it, and
    the photo read whole is the ace of diamonds below the commit threshold: ``classify``
    gives it (experiment 79; it gave nothing before)."""
    from referee.cards import Deck
    from vision.corner_finder import CornerFinder
    from vision.detector import CardDetector
    from vision.pipeline import read_cards
    from vision.recognizer import photo_recognizer

    image = cv2.imread(str(CROPS / "AD" / "AD-51.jpg"))
    recognizer, detector = photo_recognizer(), CardDetector()
    (card,) = read_cards(image, recognizer, deck=Deck.FRENCH_53, detector=detector,
                         whole_if_none=0.85, corners=CornerFinder())  # fmt: skip
    assert (card.card.code, card.found_by) == ("AD", "whole")
    assert 0.2 <= card.confidence < 0.85
    # ``classify`` says so: a table would ask about it
    threshold = commit_threshold(PHOTO_MODEL)
    assert main(["vision", "classify", str(CROPS / "AD" / "AD-51.jpg")]) == 0
    line = capsys.readouterr().out.splitlines()[1]
    assert line.split()[0] == "AD"
    assert line.endswith(f"(the whole image)  (asked: below the commit threshold {threshold:g})")


@needs_crops
def test_a_close_crop_read_whole_surer_than_its_weak_pieces_is_that_card() -> None:
    """card-crops 2C-47 (tune part), read with the first two gates: the detector finds a piece
    of it read as the Joker below 0.5, nothing at the commit threshold; the photo read whole is
    the two of clubs, surer than the piece: ``read_cards`` as ``classify`` reads gives it alone,
    asked (experiment 88; the Joker alone before). Read with ``whole_if_none`` 0 (as ``eval``
    reads) the piece stays. The shipped third gate drops the piece (experiment 99b), and the
    photo, in which nothing is then read, is read whole as the two of clubs either way."""
    from referee.cards import Deck
    from vision.corner_finder import CornerFinder
    from vision.detector import CardDetector
    from vision.pipeline import read_cards
    from vision.recognizer import PHOTO_GATE, PHOTO_GATE_PIECES, photo_recognizer

    image = cv2.imread(str(CROPS / "2C" / "2C-47.jpg"))
    two_gates = photo_recognizer(gates=[PHOTO_GATE, PHOTO_GATE_PIECES])
    detector, corners = CardDetector(), CornerFinder()
    pieces = read_cards(image, two_gates, deck=Deck.FRENCH_53, detector=detector,
                        whole_if_none=0.0, corners=corners)  # fmt: skip
    assert [c.card.code for c in pieces] == ["JK"] and pieces[0].confidence < 0.5
    (card,) = read_cards(image, two_gates, deck=Deck.FRENCH_53, detector=detector,
                         whole_if_none=0.85, corners=corners)  # fmt: skip
    assert (card.card.code, card.found_by) == ("2C", "whole")
    assert pieces[0].confidence < card.confidence < 0.85
    for whole_if_none in (0.0, 0.85):
        (shipped,) = read_cards(image, photo_recognizer(), deck=Deck.FRENCH_53,
                                detector=detector, whole_if_none=whole_if_none,
                                corners=corners)  # fmt: skip
        assert (shipped.card.code, shipped.found_by) == ("2C", "whole")
        assert shipped.confidence == pytest.approx(card.confidence, abs=1e-6)


def test_a_photo_known_to_be_one_card_read_as_none_gives_its_best_card_asked() -> None:
    """``one_card`` (``classify --whole``): a reading of no card, by the classifier or by its
    gate over the classifier's reading, gives the card ranked first of all the readings, with
    the corners it was read in, never committed; without a card among them, still none."""
    from vision.pipeline import asked_best_card
    from vision.recognizer import Prediction

    photo = ((0.0, 0.0), (9.0, 0.0), (9.0, 9.0), (0.0, 9.0))
    quad = ((1.0, 1.0), (8.0, 1.0), (8.0, 8.0), (1.0, 8.0))
    gated = Prediction("none", 0.79, (("french:4D", 0.97), ("french:4H", 0.01)))
    plain = Prediction("none", 0.6, (("french:5S", 0.3), ("french:5D", 0.1)))
    best = asked_best_card([(plain, photo), (gated, quad)])
    assert best is not None
    pred, corners = best
    assert (pred.label, pred.confidence, pred.committable, corners) == ("french:4D", 0.97, False,
                                                                        quad)  # fmt: skip
    assert pred.alternatives == (("none", 0.79), ("french:4H", 0.01))
    pred, corners = asked_best_card([(plain, photo)]) or (None, None)
    assert pred is not None and (pred.label, corners) == ("french:5S", photo)
    assert asked_best_card([(Prediction("none", 0.9, ()), photo)]) is None


@needs_crops
def test_a_card_the_gate_takes_for_paper_is_read_when_said_to_be_one_card(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """4D-52 (tune part): its gate reads it as no card (about 0.8), over the classifier's 4D
    (about 0.98). Read as one card it is the 4D, asked; the automatic reading does not read it
    whole (a photo of no card stays no card)."""
    from referee.cards import Deck
    from vision.detector import CardDetector
    from vision.pipeline import read_whole
    from vision.recognizer import photo_recognizer

    photo = CROPS / "4D" / "4D-52.jpg"
    image = cv2.imread(str(photo))
    recognizer, detector = photo_recognizer(), CardDetector()
    assert read_whole(image, recognizer, deck=Deck.FRENCH_53, detector=detector) is None
    (card,) = _classify(["--whole", str(photo)], capsys)[str(photo)]
    assert (card["card"], card["found_by"], card["committable"]) == ("4D", "whole", False)
    assert card["confidence"] >= 0.85  # sure, and still asked
    assert main(["vision", "classify", "--whole", str(photo)]) == 0
    assert capsys.readouterr().out.splitlines()[1].endswith("(the whole image)  (always asked)")


def test_eval_of_a_folder_reads_a_card_edge_to_edge_as_classify_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``kibic vision eval FOLDER`` reads each photo as ``classify`` does: where no card is read
    at the commit threshold, the photo read whole too."""
    folder = tmp_path / "one"
    folder.mkdir()
    path = str(_rendered(folder))  # KH.png: labelled by its name
    (card,) = _classify([path], capsys)[path]
    assert (card["card"], card["found_by"]) == ("KH", "whole")
    assert main(["vision", "eval", str(folder), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)["one"]
    assert (summary["images"], summary["boxes"], summary["found"]) == (1, 1, 1)
    assert summary["rank_accuracy"] == 1.0


def test_a_photo_read_whole_as_a_card_found_apart_keeps_that_cards_place() -> None:
    """``vision.pipeline.found_apart`` (experiment 103b): the photo read whole as 6D, where the
    detector found 6D over half the photo, is that card where it was found, with the whole
    reading's confidence, beside the card read by its index outside it (AS); a region outside
    it read as another card (a piece of a close card's face), the card's own other index and
    an index inside it are dropped. Where the card found covers most of the photo, or no card
    found is the whole reading's, the photo is read whole as before (None)."""
    from referee.cards import Card, Deck
    from vision.pipeline import ImageCard, found_apart
    from vision.recognizer import Prediction

    def card(code: str, confidence: float, found_by: str,
             box: tuple[float, float, float, float]) -> ImageCard:  # fmt: skip
        x0, y0, x1, y1 = box
        pred = Prediction(f"french:{code}", confidence, ())
        return ImageCard(Card.parse(code), code, Deck.FRENCH_53, confidence,
                         ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), pred, found_by=found_by,
                         index_box=box if found_by == "index" else None)  # fmt: skip

    shape = (100, 100, 3)
    whole = card("6D", 0.7, "whole", (0, 0, 100, 100))
    six = card("6D", 0.4, "finder", (-20, 30, 80, 90))  # partly out of the photo: 48 % in it
    others = [card("AS", 0.38, "index", (85, 0, 95, 10)),  # a card apart, by its index
              card("3C", 0.3, "finder", (85, 91, 99, 99)),  # a region: a piece
              card("6D", 0.3, "index", (82, 80, 92, 95)),  # the card's own other index
              card("2H", 0.3, "index", (40, 40, 50, 50))]  # an index on the card  # fmt: skip
    kept = found_apart(shape, [six, *others], whole)
    assert kept is not None
    assert [(c.card.code, c.found_by, c.confidence) for c in kept] == [
        ("6D", "finder", 0.7), ("AS", "index", 0.38)]  # fmt: skip
    assert kept[0].corners == six.corners and kept[0].prediction == whole.prediction
    # the card found covers 0.9 of the photo: it may be the photo edge to edge
    assert found_apart(shape, [card("6D", 0.4, "finder", (0, 5, 100, 95)), *others], whole) is None
    assert found_apart(shape, others, whole) is None  # no card found reads 6D


@pytest.mark.skipif(not (real_crops.REAL_PHOTOS / "corner-boxes" / "single").is_dir(),
                    reason="needs the corner-boxes photos (the shared data folder)")  # fmt: skip
def test_two_real_cards_read_weakly_are_not_read_as_the_photo_whole() -> None:
    """corner-boxes single-0015 (tune part): a 6D across most of the photo, read weakly, and a 4S
    at its top edge showing only its index. The photo read whole is the 6D, the card the
    detector found: so it is that card where it was found, and the 4S's index beside it stays
    a card of its own (experiment 103b; before it, the photo read whole stood for both)."""
    from referee.cards import Deck
    from vision.corner_finder import CornerFinder, still_reader
    from vision.detector import CardDetector
    from vision.pipeline import read_cards
    from vision.recognizer import photo_recognizer

    path = real_crops.REAL_PHOTOS / "corner-boxes" / "single" / "images" / "single-0015.jpg"
    image = cv2.imread(str(path))
    assert image is not None, path
    h, w = image.shape[:2]
    six, index = read_cards(image, photo_recognizer(), deck=Deck.FRENCH_53,
                            detector=CardDetector(), whole_if_none=0.85,
                            corners=CornerFinder(reader_path=still_reader()))  # fmt: skip
    assert (six.card.code, six.found_by) == ("6D", "finder")
    x0, y0, x1, y1 = six.visible_bbox()
    assert y0 > 0.1 * h and x1 < 0.95 * w  # not the whole photo: the 4S above it, the desk right
    assert index.found_by == "index" and index.index_box is not None
    ix0, iy0, ix1, iy1 = index.index_box
    # the 4S's labelled index: middle (0.74, 0.07) of the photo
    assert abs((ix0 + ix1) / 2 / w - 0.74) < 0.06 and abs((iy0 + iy1) / 2 / h - 0.07) < 0.06
    assert index.confidence < 0.85  # read weakly (as AS): asked


def test_one_sure_index_beside_weak_pieces_and_the_photo_read_whole_as_its_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``read_cards`` with ``whole_if_none`` (experiment 107): the ace of hearts read surely by
    its index beside a region read weakly as 5H (a piece of a close card's face), and the photo
    read whole as the ace: the photo is that card, at the surer reading with the index's box.
    The photo read whole as another card, another card read by an index, or nothing read beside
    the index: the cards stay as they were."""
    import vision.pipeline as pipeline
    from referee.cards import Card, Deck
    from vision.pipeline import ImageCard, read_cards
    from vision.recognizer import Prediction

    def card(code: str, confidence: float, found_by: str) -> ImageCard:
        pred = Prediction(f"french:{code}", confidence, ())
        box = (0.0, 0.0, 5.0, 5.0) if found_by == "index" else None
        return ImageCard(Card.parse(code), code, Deck.FRENCH_53, confidence,
                         ((0, 0), (1, 0), (1, 1), (0, 1)), pred, found_by=found_by,
                         index_box=box)  # fmt: skip

    found = [card("AH", 0.98, "index"), card("5H", 0.21, "finder")]
    whole = [card("AH", 0.9, "whole")]
    monkeypatch.setattr(pipeline, "_read_found", lambda *a, **k: list(found))
    monkeypatch.setattr(pipeline, "read_whole", lambda *a, **k: whole[0])
    image = np.zeros((40, 30, 3), np.uint8)

    def read() -> list[tuple[str, str, float]]:
        cards = read_cards(image, None, whole_if_none=0.85)  # type: ignore[arg-type]
        return [(c.card.code, c.found_by, c.confidence) for c in cards]

    assert read() == [("AH", "whole", 0.98)]
    (one,) = read_cards(image, None, whole_if_none=0.85)  # type: ignore[arg-type]
    assert one.index_box == (0.0, 0.0, 5.0, 5.0)  # the index that read it stays named
    whole[0] = card("AS", 0.9, "whole")
    assert read() == [("AH", "index", 0.98), ("5H", "finder", 0.21)]
    whole[0] = card("AH", 0.9, "whole")
    found[1] = card("5H", 0.3, "index")
    assert read() == [("AH", "index", 0.98), ("5H", "index", 0.3)]
    del found[1]
    assert read() == [("AH", "index", 0.98)]
