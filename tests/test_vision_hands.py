"""What the tracker takes for a hand: on a skin-coloured table, the table is no hand (with the
table check), a card's own pips are no hand, and an arm over a card still hides it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from kibic.camera import table_tracker_config
from kibic.config import ConfigError, parse_config
from referee.cards import Card, Deck
from vision.card_faces import design_for_seed, render_face
from vision.events import CardSeen
from vision.finder import find_cards
from vision.hands import HandCheck, HandConfig, covered, find_hands
from vision.recognizer import Recognizer
from vision.synthetic import Surface, SyntheticTable
from vision.tracker import CardTracker, TrackerConfig

TABLE = HandConfig(check=HandCheck.TABLE)
PLAYS = [(0, Card.parse("7H")), (1, Card.parse("KS")), (2, Card.parse("AD")),
         (3, Card.parse("TC"))]  # fmt: skip


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer()


@pytest.fixture(scope="module")
def wood() -> SyntheticTable:
    """Four plays on a light oak table (skin-coloured, with grain), hands lingering."""
    return SyntheticTable(PLAYS, n_seats=4, deck=Deck.PIQUET_32, seed=9, fast=False,
                          surface=Surface.WOOD)  # fmt: skip


def _events(table: SyntheticTable, tracker: CardTracker) -> list:  # type: ignore[type-arg]
    return [event for frame in table for event in tracker.process(frame)]


def test_cards_on_a_skin_coloured_table_are_read_with_the_table_check(
    recognizer: Recognizer, wood: SyntheticTable
) -> None:
    table_check = TrackerConfig(hands=TABLE)
    events = _events(wood, CardTracker(recognizer, wood.calibration, deck=Deck.PIQUET_32,
                                       config=table_check))  # fmt: skip
    assert all(isinstance(e, CardSeen) for e in events)
    assert [(e.seat, e.card) for e in events] == PLAYS
    # committed after the card lay still for the stable frames: never in the two frames it lay
    # under the arm that put it down (read then, it would be committed two frames earlier)
    assert [e.frame_index for e in events] == [p.settled_frame + 2 for p in wood.placements]
    # any skin-coloured region is a hand: the table is one, over every card
    skin_check = CardTracker(
        recognizer,
        wood.calibration,
        deck=Deck.PIQUET_32,
        config=TrackerConfig(hands=HandConfig(check=HandCheck.SKIN)),
    )
    assert _events(wood, skin_check) == []


def test_an_arm_over_a_card_on_that_table_still_hides_it(wood: SyntheticTable) -> None:
    tracker = CardTracker(Recognizer(), wood.calibration, deck=Deck.PIQUET_32)
    area = tracker._expected_card_area()
    settled = wood.placements[0].settled_frame
    at_rest = wood.render(settled)
    (card,) = find_cards(at_rest)
    assert find_hands(at_rest, card_area_px=area, config=TABLE) == []
    under = wood.render(settled - 1)  # the card lies where it lands, the arm still over it
    hands = find_hands(under, card_area_px=area, config=TABLE)
    assert len(hands) == 1 and covered(card.corners, hands)
    # the arm comes from its player's edge (seat 0: the bottom of the frame)
    assert hands[0].reshape(-1, 2)[:, 1].max() >= 0.95 * under.shape[0]


def _card_on_felt(code: str) -> tuple[np.ndarray, np.ndarray]:
    """A big red card (a quarter of the frame) on green felt, its colours washed out a little
    as a camera's are (its red pips then skin-coloured), and its corners."""
    frame = np.full((480, 640, 3), (60, 110, 30), np.uint8)
    face = render_face(f"french:{code}", design_for_seed("french", 0)).astype(np.float32)
    face = (0.7 * face + 0.3 * np.array((200, 210, 230), np.float32)).astype(np.uint8)
    quad = np.array([[200, 60], [440, 60], [440, 396], [200, 396]], np.float32)
    h, w = face.shape[:2]
    source = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    cv2.warpPerspective(face, cv2.getPerspectiveTransform(source, quad), (640, 480), dst=frame,
                        borderMode=cv2.BORDER_TRANSPARENT)  # fmt: skip
    return frame, quad


@pytest.mark.parametrize("code", ["TH", "9D"])
def test_a_cards_own_pips_are_no_hand(code: str) -> None:
    frame, quad = _card_on_felt(code)
    area = 0.01 * frame.shape[0] * frame.shape[1]  # the table expects smaller cards
    pips = find_hands(frame, card_area_px=area, config=HandConfig(check=HandCheck.SKIN))
    assert pips and covered(quad, pips)  # its big red pips were "a hand" over it
    assert find_hands(frame, card_area_px=area, cards=[quad], config=TABLE) == []


def test_the_tables_configuration_chooses_the_hand_check() -> None:
    base = {"table": {"game": "ruzicka"}}
    config = parse_config({**base, "camera": {"hand_check": "skin"}})
    assert config.camera.hand_check == "skin"
    assert table_tracker_config(config).hands == HandConfig(check=HandCheck.SKIN)
    assert table_tracker_config(parse_config(base)).hands == HandConfig() == TABLE
    assert HandConfig().check is HandCheck.TABLE  # the default since experiment 35
    with pytest.raises(ConfigError, match=r"camera.hand_check: 'wood' is not one of skin, table"):
        parse_config({**base, "camera": {"hand_check": "wood"}})


def test_the_tables_configuration_chooses_the_steps_of_the_reading_at_rest() -> None:
    """Two steps a frame by default (experiment 80); one on a slower board; none refused."""
    base = {"table": {"game": "ruzicka"}}
    assert table_tracker_config(parse_config(base)).rest_steps_per_frame == 2
    slow = parse_config({**base, "camera": {"rest_steps_per_frame": 1}})
    assert table_tracker_config(slow).rest_steps_per_frame == 1
    with pytest.raises(ConfigError, match=r"camera.rest_steps_per_frame: 0 is not between 1"):
        parse_config({**base, "camera": {"rest_steps_per_frame": 0}})
    with pytest.raises(ConfigError, match=r"camera.rest_steps_per_frame: expected int"):
        parse_config({**base, "camera": {"rest_steps_per_frame": "two"}})


def test_the_tables_configuration_chooses_how_long_an_undecided_card_waits() -> None:
    """30 frames in motion by default (experiments 134 and 134b); another count; 0 for no bound
    (the card waits for the picture to rest); a count out of range refused by name."""
    base = {"table": {"game": "ruzicka"}}
    default = table_tracker_config(parse_config(base))
    assert default.undecided_ask_after == 30
    slow = table_tracker_config(parse_config({**base, "camera": {"ask_after_frames": 12}}))
    assert slow.undecided_ask_after == 12
    never = table_tracker_config(parse_config({**base, "camera": {"ask_after_frames": 0}}))
    assert never.undecided_ask_after is None
    with pytest.raises(ConfigError, match=r"camera.ask_after_frames: -1 is not between 0 and"):
        parse_config({**base, "camera": {"ask_after_frames": -1}})
    with pytest.raises(ConfigError, match=r"camera.ask_after_frames: expected int"):
        parse_config({**base, "camera": {"ask_after_frames": "soon"}})
