"""``kibic vision track --stills``: the table's camera path over folders of labelled photos."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from kibic.cli import main
from referee.cards import Card, Deck
from vision.card_faces import design_for_seed, render_face
from vision.events import CardSeen
from vision.recognizer import Recognizer
from vision.stills import StillsReport, frame_corners, parse_corners, track_still, track_stills


def _cloth_with(codes: list[str]) -> np.ndarray:
    """Rendered cards of the demo's design side by side on green cloth, 640 x 480."""
    canvas = np.full((480, 640, 3), (50, 100, 40), np.uint8)
    for k, code in enumerate(codes):
        x = 60 + 200 * k
        canvas[120:330, x : x + 150] = render_face(f"french:{code}", design_for_seed("french", 0))
    return canvas


def _voc_folder(folder: Path) -> Path:
    """One photo: QD and 7C, labelled by rank, and a ten labelled where no card lies."""
    folder.mkdir()
    cv2.imwrite(str(folder / "a.jpg"), _cloth_with(["QD", "7C"]))
    objects = [("queen", (60, 120, 210, 330)), ("seven", (260, 120, 410, 330)),
               ("ten", (470, 10, 600, 100))]  # fmt: skip
    xml = "".join(
        f"<object><name>{name}</name><bndbox><xmin>{b[0]}</xmin><ymin>{b[1]}</ymin>"
        f"<xmax>{b[2]}</xmax><ymax>{b[3]}</ymax></bndbox></object>"
        for name, b in objects
    )
    (folder / "a.xml").write_text(f"<annotation>{xml}</annotation>")
    return folder


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer()


def test_corners_are_read_or_refused() -> None:
    assert parse_corners("0,0, 10,0,10,5,0,5") == ((0, 0), (10, 0), (10, 5), (0, 5))
    assert parse_corners("frame") is None
    with pytest.raises(ValueError, match="6 numbers, not 8"):
        parse_corners("1,2,3,4,5,6")
    with pytest.raises(ValueError, match="not numbers"):
        parse_corners("a,b")


def test_a_still_is_committed_as_a_resting_table_would_be(recognizer: Recognizer) -> None:
    image = _cloth_with(["QD", "7C"])
    events = track_still(image, recognizer, deck=Deck.FRENCH_53, corners=frame_corners(image))
    assert sorted(e.card.code for e in events) == ["7C", "QD"]  # type: ignore[union-attr]


def test_a_still_shown_in_motion_first_is_decided_in_motion(recognizer: Recognizer) -> None:
    """Shown four frames in motion first (each other one brighter), a still with the corner
    path is decided in motion, on the third frame (index 2), as the same cards as at rest."""
    from vision.corner_finder import CornerFinder

    image = _cloth_with(["QD", "7C"])
    index = CornerFinder()

    def decided(moving: int) -> list[tuple[int, str]]:
        events = track_still(image, recognizer, deck=Deck.FRENCH_53, index=index,
                             corners=frame_corners(image), moving=moving)  # fmt: skip
        return sorted((e.frame_index, e.card.code) for e in events)  # type: ignore[union-attr]

    assert decided(4) == [(2, "7C"), (2, "QD")]
    assert [code for _, code in decided(0)] == ["7C", "QD"]
    with pytest.raises(ValueError, match="frames in motion: -1 is below 0"):
        track_still(image, recognizer, deck=Deck.FRENCH_53, corners=frame_corners(image),
                    moving=-1)  # fmt: skip


def test_a_photo_larger_than_the_tables_frames_is_read_as_the_table_reads_its_camera(
    recognizer: Recognizer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same cloth photographed at 2560 x 1920: the tracker is shown it scaled to as many
    pixels as 1280 x 720 (1109 x 831), it commits the same cards, and their corners are given in the photo's own
    pixels, four times those read on the 640 x 480 photo, give or take a few."""
    from vision.tracker import CardTracker

    small = _cloth_with(["QD", "7C"])
    large = cv2.resize(small, (2560, 1920), interpolation=cv2.INTER_CUBIC)
    shapes: set[tuple[int, ...]] = set()
    process = CardTracker.process

    def seen(self: CardTracker, frame: np.ndarray) -> list[object]:
        shapes.add(frame.shape)
        return process(self, frame)  # type: ignore[return-value]

    before = track_still(small, recognizer, deck=Deck.FRENCH_53, corners=frame_corners(small))
    monkeypatch.setattr(CardTracker, "process", seen)
    after = track_still(large, recognizer, deck=Deck.FRENCH_53, corners=frame_corners(large))
    assert shapes == {(831, 1109, 3)}
    by_card = {e.card.code: np.array(e.corners) for e in before}  # type: ignore[union-attr]
    assert sorted(by_card) == sorted(e.card.code for e in after) == ["7C", "QD"]  # type: ignore[union-attr]
    for event in after:
        np.testing.assert_allclose(np.array(event.corners), 4 * by_card[event.card.code], atol=12)  # type: ignore[union-attr]


def test_a_voc_folder_through_the_table_path(tmp_path: Path, recognizer: Recognizer) -> None:
    report = track_stills(_voc_folder(tmp_path / "v"), recognizer, deck=Deck.FRENCH_53,
                          corners=None)  # fmt: skip
    assert report.summary() == {
        "photos": 1, "cards": 3, "committed_right": 2, "committed_wrong": 0,
        "committed_where_no_card": 0, "asked": 0, "asked_where_no_card": 0,
        "asked_offering_the_card": 0, "missed": 1, "events_on_no_label": 0,
        "committed_right_95": [0.2077, 0.9385], "right_when_committed_95": [0.3424, 1.0],
    }  # fmt: skip
    both = StillsReport.together("both", [report, report])
    assert (both.name, both.photos, both.cards, both.committed_right, both.missed) == (
        "both", 2, 6, 4, 2)  # fmt: skip
    assert both.misses == ["a.jpg: ten missed"] * 2
    assert both.summary()["committed_right_95"] == [0.3, 0.9032]
    assert StillsReport("none").summary()["right_when_committed_95"] is None
    assert report.misses == ["a.jpg: ten missed"]  # labelled where no card lies


def test_a_corner_boxes_folder_through_the_table_path(tmp_path: Path,
                                                      recognizer: Recognizer) -> None:  # fmt: skip
    folder = tmp_path / "c"
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    cv2.imwrite(str(folder / "images" / "p.jpg"), _cloth_with(["QD", "7C"]))
    # a box on a corner index of each card; the 7C's says 8C: committed, and wrong
    lines = ["QD 0.13 0.28 0.02 0.05", "8C 0.44 0.28 0.02 0.05"]
    (folder / "labels" / "p.txt").write_text("\n".join(lines))
    report = track_stills(folder, recognizer, deck=Deck.FRENCH_53, corners=None)
    assert (report.cards, report.committed_right, report.committed_wrong, report.missed) == (
        2, 1, 1, 0)  # fmt: skip
    assert report.mistakes == ["p.jpg: 8C committed as 7C"] and report.misses == []


def test_track_stills_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _voc_folder(tmp_path / "v")
    assert main(["vision", "track", "--stills", str(folder), "--corners", "frame", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc[str(folder)]["committed_right"] == 2
    # the corners of a table's configuration, and its commit threshold
    config = tmp_path / "t.toml"
    config.write_text('[table]\ngame = "ruzicka"\n[camera]\ndeck = "french-53"\n'
                      "commit_threshold = 1.0\n"
                      "[calibration]\ncorners = [[0, 0], [640, 0], [640, 480], [0, 480]]\n")  # fmt: skip
    assert main(["vision", "track", "--stills", str(folder), "--config", str(config)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("classifier kibic_cards.onnx, deck french-53, commit threshold 1,")
    assert lines[0].endswith(", hand check table")
    assert main(["vision", "track", "--stills", str(folder), "--config", str(config),
                 "--hand-check", "skin"]) == 0  # fmt: skip
    assert capsys.readouterr().out.splitlines()[0].endswith(", hand check skin")
    assert lines[1].endswith("committed right 0, committed wrong 0 (0 where no card is), "
                             "asked 2 (2 offering the card), missed 1; "
                             "committed right 0.0 % [0.0-56.1]")  # nothing committed  # fmt: skip
    assert main(["vision", "track", "--stills", str(folder), str(folder), "--corners",
                 "frame"]) == 0  # fmt: skip
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].endswith("missed 1; committed right 66.7 % [20.8-93.8], right when "
                             "committed at least 34.24 %")  # fmt: skip
    assert lines[3] == ("the 2 parts together: 2 photos, 6 cards: committed right 4, committed "
                        "wrong 0 (0 where no card is), asked 0 (0 offering the card), missed 2; "
                        "committed right 66.7 % [30.0-90.3], right when committed at least "
                        "51.01 %")  # fmt: skip
    assert main(["vision", "track", "--stills", str(folder), "--corners", "frame", "--each"]) == 0
    assert capsys.readouterr().out.splitlines()[2:] == ["  a.jpg: ten missed"]
    # shown in motion first (experiment 126's run): these cards, decided in motion, the same
    assert main(["vision", "track", "--stills", str(folder), "--corners", "frame",
                 "--moving", "4"]) == 0  # fmt: skip
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith(", hand check table, 4 frames in motion first")
    assert "committed right 2, committed wrong 0" in lines[1]


@pytest.mark.parametrize("args, message", [
    (["--stills", "."], "needs the table's corners"),
    (["--stills", ".", "--corners", "1,2"], "--corners: corners '1,2': 2 numbers"),
    (["--stills", "nowhere", "--corners", "frame"], "nowhere is not a folder"),
    (["--corners", "frame"], "--corners only go with --stills"),
    (["--hand-check", "table"], "--hand-check only go with --stills"),
    (["--moving", "4"], "--moving only go with --stills"),
    (["--stills", ".", "--corners", "frame", "--moving", "-1"], "--moving: -1 frames is below 0"),
    (["--stills", ".", "--corners", "frame", "--no-index-cards", "--corner-reader", "r.onnx"],
     "--corner-reader goes with the index cards on"),
    (["--stills", ".", "--corners", "frame", "--index-cards", "--corner-reader", "nowhere.onnx"],
     "kibic vision track: --corner-reader nowhere.onnx: no file nowhere.onnx"),
    (["--stills", "--corners", "frame"], "--stills needs a FOLDER, or --tune-parts or --train"),
    (["--train-parts"], "--stills needs the table's corners"),
    (["--stills", ".", "--corners", "frame", "--deck", "german-32", "--index-cards"],
     "--index-cards: the corner-index reader reads French-suited decks of one copy of each "
     "card, not german-32"),
    # a frame source reads with the table's paths too, and the same options
    (["--deck", "german-32", "--index-cards"], "--index-cards: the corner-index reader reads "
     "French-suited decks of one copy of each card, not german-32"),
    (["--no-index-cards", "--corner-reader", "r.onnx"],
     "--corner-reader goes with the index cards on"),
])  # fmt: skip
def test_track_stills_misused_is_named(args: list[str], message: str) -> None:
    with pytest.raises(SystemExit, match=message):
        main(["vision", "track", *args])


def _seen_at(code: str, box: tuple[float, float, float, float]) -> CardSeen:
    """A card committed at 0.9 on the quad of ``box`` (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    return CardSeen(seat=0, card=Card.parse(code), face=code, deck=Deck.FRENCH_53,
                    confidence=0.9, corners=((x0, y0), (x1, y0), (x1, y1), (x0, y1)),
                    frame_index=2)  # fmt: skip


def test_a_card_read_by_its_index_is_scored_on_the_card_it_lies_on() -> None:
    """A VOC label pairs by IoU; an event left over (an index's box) pairs with the smallest
    label left over that holds its centre; a second event there, or one on no label, is where
    no card is."""
    from vision.events import ConfirmationRequested
    from vision.stills import StillsReport, score_voc

    seen = _seen_at
    labels = [("queen", (60.0, 120.0, 210.0, 330.0)), ("seven", (260.0, 120.0, 410.0, 330.0))]
    asked = ConfirmationRequested(seat=0, candidates=(Card.parse("JK"),), confidences=(0.6,),
                                  frame_index=2, corners=((500, 20), (520, 20), (520, 50),
                                                          (500, 50)))  # fmt: skip
    events = [seen("QD", (60, 120, 210, 330)), seen("7C", (265, 125, 285, 160)),
              seen("8C", (380, 290, 400, 325)), asked]  # fmt: skip
    report = StillsReport("v")
    score_voc(report, "a.jpg", events, labels)
    assert (report.committed_right, report.committed_wrong, report.not_there) == (2, 1, 1)
    assert (report.asked, report.asked_not_there, report.asked_offering) == (1, 1, 0)
    assert report.missed == 0 and report.mistakes == ["a.jpg: no card committed as 8C"]


def test_a_committed_card_keeps_the_box_of_its_own_card() -> None:
    """An asked quad over two cards overlaps the queen's box more than the ten's: a queen
    committed by its index on the queen's box is still the queen's, not a card where none is
    (experiment 35); a card committed on another card's box is still wrong."""
    from vision.events import CardSeen, ConfirmationRequested
    from vision.stills import StillsReport, score_voc

    def quad(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
        return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))

    labels = [("queen", (100.0, 100.0, 200.0, 240.0)), ("ten", (150.0, 100.0, 250.0, 240.0)),
              ("ace", (400.0, 100.0, 500.0, 240.0))]  # fmt: skip
    merged = ConfirmationRequested(seat=0, candidates=(Card.parse("TD"), Card.parse("QH")),
                                   confidences=(0.7, 0.2), frame_index=2,
                                   corners=quad(95, 100, 215, 240))  # fmt: skip

    def seen(seat: int, code: str, corners: tuple[tuple[float, float], ...]) -> CardSeen:
        return CardSeen(seat=seat, card=Card.parse(code), face=code, deck=Deck.FRENCH_53,
                        confidence=0.95, corners=corners, frame_index=2)  # fmt: skip

    queen = seen(0, "QD", quad(105, 105, 125, 140))
    wrong = seen(1, "KS", quad(400, 100, 500, 240))
    report = StillsReport("v")
    score_voc(report, "b.jpg", [merged, queen, wrong], labels)
    assert (report.committed_right, report.committed_wrong, report.not_there) == (1, 1, 0)
    assert (report.asked, report.asked_not_there, report.missed) == (1, 0, 0)
    assert report.asked_offering == 1  # on the ten's box, the ten of diamonds offered first
    assert report.mistakes == ["b.jpg: ace committed as KS"]
    report = StillsReport("v")
    score_voc(report, "b.jpg", [merged, queen, wrong], [(c, b) for c, b in labels if c != "ten"])
    assert (report.asked, report.asked_offering) == (1, 0)  # on no label left: nothing offered


def test_a_card_of_a_fan_outlined_whole_is_scored_on_the_part_that_shows() -> None:
    """Experiment 116b: a jack under an ace, labelled by the strip that shows, committed with
    the outline of the whole card (its middle under the ace) is the jack; a queen so outlined
    over the jack's strip is not, nor is a card whose quad holds less than half of the box."""
    from vision.stills import StillsReport, score_voc

    seen = _seen_at
    labels = [("ace", (96.0, 92.0, 280.0, 340.0)), ("jack", (267.0, 92.0, 349.0, 344.0))]
    for code, box, right in (("JH", (169, 88, 352, 340), 2), ("QH", (169, 88, 352, 340), 1),
                             ("JH", (150, 88, 300, 340), 1)):  # fmt: skip
        report = StillsReport("v")
        score_voc(report, "c.jpg", [seen("AC", (92, 90, 277, 339)), seen(code, box)], labels)
        assert (report.committed_right, report.committed_wrong) == (right, 2 - right)
        assert report.missed == 2 - right


def test_an_ask_on_a_card_of_a_fan_outlined_whole_is_scored_on_the_part_that_shows() -> None:
    """An ask outlined whole over the jack's strip (its middle under the ace) that offers the
    jack is on the jack, offering it; one that does not offer it is where no card is, and the
    jack missed; a commit of the jack there takes the box before the ask."""
    from vision.events import ConfirmationRequested
    from vision.stills import StillsReport, score_voc

    labels = [("ace", (96.0, 92.0, 280.0, 340.0)), ("jack", (267.0, 92.0, 349.0, 344.0))]
    ace, whole = _seen_at("AC", (92, 90, 277, 339)), _seen_at("JH", (169, 88, 352, 340))

    def asked(*codes: str) -> ConfirmationRequested:
        return ConfirmationRequested(seat=0, candidates=tuple(Card.parse(c) for c in codes),
                                     confidences=(0.6, 0.3)[: len(codes)], frame_index=2,
                                     corners=whole.corners)  # fmt: skip

    for codes, offering, not_there, missed in ((("QH", "JH"), 1, 0, 0), (("QH",), 0, 1, 1)):
        report = StillsReport("v")
        score_voc(report, "c.jpg", [ace, asked(*codes)], labels)
        assert (report.committed_right, report.asked, report.asked_offering) == (1, 1, offering)
        assert (report.asked_not_there, report.missed) == (not_there, missed)
    report = StillsReport("v")
    score_voc(report, "c.jpg", [ace, asked("QH", "JH"), whole], labels)
    assert (report.committed_right, report.asked, report.asked_not_there) == (2, 1, 1)


def test_a_committed_card_in_a_pile_is_scored_on_its_own_corner_boxes(tmp_path: Path) -> None:
    """Corner-boxes labels: a card committed in a pile, its quad holding its own index and
    that of a card lying over it, is that card (experiment 66); a card committed or asked
    over two cards' indices and naming neither is under no label, as before."""
    from vision.events import CardSeen, ConfirmationRequested
    from vision.stills import StillsReport, score_corner_boxes

    labels = tmp_path / "pile.txt"  # 400 x 400: JC's index at (110, 110), JS's at (180, 200)
    labels.write_text("JC 0.275 0.275 0.04 0.08\nJS 0.45 0.5 0.04 0.08\n")
    pile = ((100.0, 100.0), (220.0, 100.0), (220.0, 280.0), (100.0, 280.0))

    def seen(code: str) -> CardSeen:
        return CardSeen(seat=0, card=Card.parse(code), face=code, deck=Deck.FRENCH_53,
                        confidence=0.95, corners=pile, frame_index=2)  # fmt: skip

    asked = ConfirmationRequested(seat=0, candidates=(Card.parse("JC"),), confidences=(0.6,),
                                  frame_index=2, corners=pile)  # fmt: skip
    report = StillsReport("c")
    score_corner_boxes(report, "pile.jpg", [seen("JC"), seen("KD"), asked], labels, (400, 400))
    assert (report.committed_right, report.committed_wrong, report.asked) == (1, 0, 0)
    assert (report.unlabelled, report.missed) == (2, 1)
    assert report.misses == ["pile.jpg: JS missed"]


def test_a_label_found_wrong_is_read_as_the_photo_shows(tmp_path: Path) -> None:
    from vision.evaluate import read_voc

    xml = ("<annotation><object><name>nine</name><bndbox><xmin>1</xmin><ymin>2</ymin>"
           "<xmax>3</xmax><ymax>4</ymax></bndbox></object></annotation>")  # fmt: skip
    (tmp_path / "IMG_2396.xml").write_text(xml)
    (tmp_path / "IMG_2397.xml").write_text(xml)
    assert read_voc(tmp_path / "IMG_2396.xml") == [("ten", (1.0, 2.0, 3.0, 4.0))]
    assert read_voc(tmp_path / "IMG_2397.xml") == [("nine", (1.0, 2.0, 3.0, 4.0))]


def _profile_of_demo_design(path: Path, recognizer: Recognizer,
                            swapped: tuple[str, str] | None = None) -> Path:  # fmt: skip
    """A complete french-53 profile of the demo's design, saved at ``path``; the references
    of the two cards ``swapped`` exchanged: each looks, to the profile, like the other."""
    from vision.deck_profile import DeckProfile
    from vision.labels import labels_for_deck

    labels = list(labels_for_deck(Deck.FRENCH_53))
    crops = [cv2.resize(render_face(label, design_for_seed("french", 0)), (64, 96),
                        interpolation=cv2.INTER_AREA) for label in labels]  # fmt: skip
    features = dict(zip(labels, recognizer.embed(crops), strict=True))
    if swapped is not None:
        a, b = (f"french:{code}" for code in swapped)
        features[a], features[b] = features[b], features[a]
    profile = DeckProfile(Deck.FRENCH_53)
    for label, row in features.items():
        profile.add(label, row)
    profile.bind_model(recognizer.fingerprint)
    profile.save(path)
    return path


def test_track_stills_reads_with_the_deck_profile_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], recognizer: Recognizer
) -> None:
    folder = _voc_folder(tmp_path / "v")
    args = ["vision", "track", "--stills", str(folder), "--corners", "frame"]
    right = _profile_of_demo_design(tmp_path / "right.npz", recognizer)
    assert main([*args, "--profile", str(right)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith(f", deck profile {right}")
    assert "committed right 2, committed wrong 0" in lines[1]
    # the profile is read: where it takes the queen for the seven, neither is committed
    swapped = _profile_of_demo_design(tmp_path / "swapped.npz", recognizer, ("QD", "7C"))
    assert main([*args, "--profile", str(swapped), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)[str(folder)]
    assert (doc["committed_right"], doc["committed_wrong"], doc["asked"]) == (0, 0, 2)
    with pytest.raises(SystemExit, match="is a profile of the french-53 deck, not piquet-32"):
        main([*args, "--profile", str(right), "--deck", "piquet-32"])


def test_the_corner_boxes_parts_are_the_tune_or_the_training_photos() -> None:
    from training.real_finder_crops import CORNERS, FOLDERS, photos
    from vision.stills import corner_boxes_parts

    with pytest.raises(ValueError, match="part 'test': not 'tune' or 'train'"):
        corner_boxes_parts("test")
    if not CORNERS.is_dir():
        pytest.skip(f"needs the corner-boxes photos in {CORNERS}")
    for part, pick in (("tune", 1), ("train", 0)):
        got = corner_boxes_parts(part)
        assert [name for name, _ in got] == [f"corner-boxes {f} {part} part" for f in FOLDERS]
        for (_, rows), folder in zip(got, FOLDERS, strict=True):
            assert [p for p, _, _ in rows] == photos(folder)[pick]
            assert all(label.is_file() and kind == "corners" for _, label, kind in rows)
