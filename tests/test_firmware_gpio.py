"""GpioLights on gpiozero's MockFactory: the pins' state histories, exactly."""

from __future__ import annotations

import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from firmware_bridge.exc import SeatError
from firmware_bridge.gpio import GpioLights, GpioPins, SeatPins
from firmware_bridge.lights import ButtonPressed, Lights, SeatButton
from firmware_bridge.patterns import BUZZ_REVOKE, EventMapper, Pattern
from kibic.config import LightsConfig
from referee.events import DealScored, TrickWon, TurnChanged

RED, GREEN, BLUE = 17, 27, 22
PINS = GpioPins(
    seats=(SeatPins((RED, GREEN, BLUE), confirm=5, undo=6), SeatPins(12, confirm=13)),
    buzzer=26,
    bars=((20, 21, 23, 24),),
    bounce_s=None,
)


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def factory() -> MockFactory:
    return MockFactory(pin_class=MockPWMPin)


def states(factory: MockFactory, pin: int) -> list[float]:
    return [float(s.state) for s in factory.pin(pin).states]


def test_patterns_buzzer_and_bar_write_exact_pin_histories(factory: MockFactory) -> None:
    clock = FakeClock()
    lights = GpioLights(PINS, pin_factory=factory, clock=clock, start=False)
    assert isinstance(lights, Lights)
    lights.set_pattern(0, Pattern.TURN)
    lights.tick()
    clock.now = 1.0
    lights.set_pattern(0, Pattern.TRICK_WON)  # 3 x (150 ms blue, 150 ms off) over the turn
    lights.set_pattern(1, Pattern.PENALTY)  # 4 x (250 ms amber, 250 ms off), mono LED
    lights.buzz(BUZZ_REVOKE)  # 3 x (150 ms on, 100 ms off)
    for t in (1.0, 1.15, 1.30, 1.45, 1.60, 1.75, 1.90):
        clock.now = t
        lights.tick()
    lights.show_score(0, 61, 101)  # 61/101 of 4 LEDs: 2 lit
    lights.close()
    # histories record changes: initial state, then every write that changed the pin
    assert states(factory, RED) == [0.0]
    assert states(factory, GREEN) == [0.0, 1.0, 0.0, 1.0, 0.0]  # turn, flash, turn, close
    assert states(factory, BLUE) == [0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0]  # three flashes
    assert states(factory, 12) == [0.0, 1.0, 0.0, 1.0, 0.0]  # on at 1.0 and 1.6 only
    assert states(factory, 26) == [0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0]  # three beeps
    assert [states(factory, p) for p in (20, 21, 23, 24)] == [[0.0, 1.0, 0.0]] * 2 + [[0.0]] * 2


def test_flash_ends_on_the_base_and_ticks_write_only_changes(factory: MockFactory) -> None:
    clock = FakeClock()
    lights = GpioLights(PINS, pin_factory=factory, clock=clock, start=False)
    lights.set_pattern(1, Pattern.TURN)
    for _ in range(5):
        lights.tick()
    clock.now = 2.0
    lights.set_pattern(1, Pattern.REVOKE_PROVEN)  # 10 x (100 on, 100 off): 2 s
    for ms in range(0, 2100, 50):
        clock.now = 2.0 + ms / 1000
        lights.tick()
    assert lights.shown(1) == (0, 255, 0)
    # one write for the turn, then 10 on/off pairs, then back to the turn's full brightness
    assert states(factory, 12) == [0.0, 1.0] + [0.0, 1.0] * 10
    lights.close()


def test_deal_over_blinks_every_seat_until_the_next_turn(factory: MockFactory) -> None:
    clock = FakeClock()
    lights = GpioLights(PINS, pin_factory=factory, clock=clock, start=False)
    mapper = EventMapper(seats=2)
    mapper.apply(lights, TurnChanged(seat=0))
    lights.tick()
    mapper.apply(lights, DealScored(scores={"0": 10, "1": 5}))
    for t in (0.0, 0.5, 1.0, 1.5):
        clock.now = t
        lights.tick()
    mapper.apply(lights, TurnChanged(seat=1))
    lights.tick()
    # green is already on for the turn when white starts: only the off/on/off follow
    assert states(factory, GREEN) == [0.0, 1.0, 0.0, 1.0, 0.0]
    assert states(factory, RED) == [0.0, 1.0, 0.0, 1.0, 0.0]
    assert states(factory, 12) == [0.0, 1.0, 0.0, 1.0, 0.0, 1.0]
    mapper.apply(lights, TrickWon(trick=1, leader=0, winner=1, plays=()))
    assert lights._flash[1] is not None  # the winner's flash is playing
    lights.close()


def test_buttons_come_out_as_callbacks_and_queue(factory: MockFactory) -> None:
    lights = GpioLights(PINS, pin_factory=factory, start=False)
    seen: list[ButtonPressed] = []
    lights.buttons.subscribe(seen.append)
    factory.pin(5).drive_low()
    factory.pin(5).drive_high()
    factory.pin(6).drive_low()
    factory.pin(13).drive_low()
    pressed = [(p.seat, p.button) for p in lights.buttons.drain()]
    assert pressed == [(0, SeatButton.CONFIRM), (0, SeatButton.UNDO), (1, SeatButton.CONFIRM)]
    assert [(p.seat, p.button) for p in seen] == pressed
    lights.close()


def test_bad_seat_or_side_is_refused_and_thread_ticks(factory: MockFactory) -> None:
    lights = GpioLights(PINS, pin_factory=factory, tick_s=0.001)
    with pytest.raises(SeatError):
        lights.set_pattern(2, Pattern.TURN)
    with pytest.raises(SeatError):
        lights.show_score(1, 3, 10)
    lights.set_pattern(0, Pattern.TURN)
    deadline = time.monotonic() + 2
    while lights.shown(0) != (0, 255, 0) and time.monotonic() < deadline:
        time.sleep(0.005)
    assert lights.shown(0) == (0, 255, 0)
    lights.close()
    assert states(factory, GREEN) == [0.0, 1.0, 0.0]


def test_common_anode_seat_lights_are_lit_by_a_low_pin(factory: MockFactory) -> None:
    """``lights_active_high=False``: the same pattern, every seat pin inverted (off is high)."""
    clock = FakeClock()
    pins = GpioPins(seats=PINS.seats, bounce_s=None, lights_active_high=False)
    lights = GpioLights(pins, pin_factory=factory, clock=clock, start=False)
    lights.set_pattern(0, Pattern.TURN)
    lights.tick()
    assert states(factory, RED) == [0.0, 1.0]  # set up off (high), stays off
    assert states(factory, GREEN) == [0.0, 1.0, 0.0]  # off (high), then the turn's green (low)
    assert states(factory, BLUE) == [0.0, 1.0]
    lights.close()
    assert states(factory, GREEN)[3] == 1.0  # turned off (high) before the pins are released


def test_the_table_configuration_says_which_way_the_seat_lights_are_wired() -> None:
    from kibic.config import ConfigError, TableConfig
    from kibic.lights import _pins

    def config(**extra: object) -> TableConfig:
        seats = [{"light": [2 + 3 * i, 3 + 3 * i, 4 + 3 * i]} for i in range(4)]
        return TableConfig(game="ruzicka", lights=LightsConfig(kind="gpio",
                                                               pins={"seats": seats, **extra}))  # fmt: skip

    assert _pins(config(), 4).lights_active_high is True
    assert _pins(config(active_high=False), 4).lights_active_high is False
    with pytest.raises(ConfigError, match=r"lights.pins.active_high: expected true or false, "
                                          r"got 'no'"):  # fmt: skip
        _pins(config(active_high="no"), 4)
