"""The pattern table and the mapping from referee events to commands."""

from __future__ import annotations

from firmware_bridge.lights import NullLights, SeatButton
from firmware_bridge.patterns import (
    BUZZ_DEAL_OVER,
    BUZZ_PENALTY,
    BUZZ_REVOKE,
    PATTERNS,
    BuzzCommand,
    EventMapper,
    Layer,
    LightCommand,
    Pattern,
)
from referee.cards import Card
from referee.events import (
    CardPlayed,
    DealScored,
    Notice,
    PenaltyAssessed,
    TrickWon,
    TurnChanged,
    Violation,
    ViolationProven,
    ViolationSuspected,
)


def violation(seat: int) -> Violation:
    return Violation(
        seat=seat,
        rule="follow_suit",
        trick=2,
        card=None,
        witness=None,
        proven_at_trick=5,
        evidence="showed a heart after discarding on hearts",
    )


def test_every_pattern_is_defined_once_with_its_layer() -> None:
    assert set(PATTERNS) == set(Pattern)
    flashes = {p for p, spec in PATTERNS.items() if spec.layer is Layer.FLASH}
    assert flashes == {
        Pattern.TRICK_WON,
        Pattern.REVOKE_PROVEN,
        Pattern.PENALTY,
        Pattern.PARTIJA_WON,
        Pattern.DIRECTOR_CALL,
    }
    assert PATTERNS[Pattern.TRICK_WON].duration_ms == 900
    assert PATTERNS[Pattern.PARTIJA_WON].duration_ms == 4800  # eight gold blinks
    assert PATTERNS[Pattern.REVOKE_PROVEN].duration_ms == 2000
    assert PATTERNS[Pattern.TURN].duration_ms is None
    assert PATTERNS[Pattern.REVOKE_PROVEN].color_at(50) == (255, 0, 0)
    assert PATTERNS[Pattern.REVOKE_PROVEN].color_at(150) == (0, 0, 0)
    assert PATTERNS[Pattern.REVOKE_PROVEN].color_at(2000) is None
    assert PATTERNS[Pattern.TURN].color_at(10**9) == (0, 255, 0)


def test_events_map_to_commands() -> None:
    mapper = EventMapper(seats=4)
    card = Card.parse("AH")
    assert mapper.commands(TurnChanged(seat=1)) == [
        LightCommand(0, Pattern.OFF),
        LightCommand(1, Pattern.TURN),
        LightCommand(2, Pattern.OFF),
        LightCommand(3, Pattern.OFF),
    ]
    assert mapper.commands(TurnChanged(seat=1)) == []
    assert mapper.commands(TrickWon(trick=1, leader=0, winner=3, plays=())) == [
        LightCommand(3, Pattern.TRICK_WON)
    ]
    assert mapper.commands(CardPlayed(seat=1, card=card, trick=1)) == []
    # suspected is not proven: no light accuses anyone yet
    assert mapper.commands(ViolationSuspected(seat=2, rule="follow_suit", trick=1, card=card)) == []
    assert mapper.commands(ViolationProven(violation=violation(2))) == [
        LightCommand(2, Pattern.REVOKE_PROVEN),
        BuzzCommand(BUZZ_REVOKE),
    ]
    assert mapper.commands(PenaltyAssessed(violation=violation(2))) == [
        LightCommand(2, Pattern.PENALTY),
        BuzzCommand(BUZZ_PENALTY),
    ]
    assert mapper.commands(DealScored(scores={"we": 80, "they": 82})) == [
        LightCommand(s, Pattern.DEAL_OVER) for s in range(4)
    ] + [BuzzCommand(BUZZ_DEAL_OVER)]
    assert mapper.commands(Notice(text="partners found")) == []
    assert mapper.commands(TurnChanged(seat=0)) == [
        LightCommand(0, Pattern.TURN),
        LightCommand(1, Pattern.OFF),
        LightCommand(2, Pattern.OFF),
        LightCommand(3, Pattern.OFF),
    ]


def test_apply_drives_null_lights_and_buttons() -> None:
    lights = NullLights(seats=4)
    mapper = EventMapper(seats=4)
    mapper.apply(lights, TurnChanged(seat=2))
    mapper.apply(lights, ViolationProven(violation=violation(1)))
    assert lights.patterns == {
        0: Pattern.OFF,
        1: Pattern.REVOKE_PROVEN,
        2: Pattern.TURN,
        3: Pattern.OFF,
    }
    assert lights.buzzes == [BUZZ_REVOKE]
    lights.show_score(1, 40, 101)
    assert lights.scores == {1: (40, 101)}
    lights.press(3, SeatButton.UNDO)
    press = lights.buttons.get(timeout=0)
    assert press is not None and (press.seat, press.button) == (3, SeatButton.UNDO)
