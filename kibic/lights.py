"""Seat lights as a runtime sink: referee events drive the patterns (firmware_bridge)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from firmware_bridge.gpio import GpioLights, GpioPins, SeatPins
from firmware_bridge.lights import Lights, NullLights
from firmware_bridge.patterns import EventMapper
from kibic.config import ConfigError, TableConfig
from referee.events import Event, PartijaOver

#: how long a seat button is held to call the director (``lights.pins.call_hold_s``)
CALL_HOLD_S = 2.0


class LightsSink:
    """Feeds every referee event to the pattern mapper; shows the score bars (``attach``)."""

    def __init__(self, lights: Lights, *, seats: int) -> None:
        self.lights = lights
        self.mapper = EventMapper(seats=seats)
        #: each seat's side in the game played now (``attach``): a partija won blinks at the
        #: winners' seats
        self.sides: Callable[[], Sequence[str]] | None = None
        #: each side's running total and the partija's target, in the game's units (``attach``)
        self.totals: Callable[[], Sequence[int]] | None = None
        self.target: Callable[[], int] | None = None
        self._shown: dict[int, tuple[int, int]] = {}  # what each bar shows: (value, target)

    def attach(self, runtime: Any) -> None:
        """Follow ``runtime``'s game (a new game may have other sides and another target) for
        the seats' sides and the score bars."""
        self.sides = lambda: [runtime.game.side_of(s) for s in range(runtime.game.players)]
        self.totals = lambda: ([] if runtime.match is None
                               else [runtime.match.totals[s] for s in runtime.game.sides])  # fmt: skip
        self.target = lambda: int(runtime.game.partija_target)

    def handle(self, events: Sequence[Event]) -> None:
        for event in events:
            if isinstance(event, PartijaOver) and self.sides is not None:
                self.mapper.sides = list(self.sides())
            self.mapper.apply(self.lights, event)
        self._show_scores()

    def _show_scores(self) -> None:
        """Each side's total of the running partija on its bar, as a share of the target, where
        it changed (a deal, a director's correction, an undo): in a game played to a target by
        no more sides than there are bars (the others show none)."""
        if self.totals is None or self.target is None:
            return
        totals, target = self.totals(), self.target()
        if target <= 0 or not 0 < len(totals) <= self.lights.sides:
            for side in sorted(self._shown):  # a game with no bars after one with them: dark
                self.lights.show_score(side, 0, 1)
            self._shown.clear()
            return
        for side, value in enumerate(totals):
            shown = (max(0, value), target)
            if self._shown.get(side) != shown:
                self.lights.show_score(side, *shown)
                self._shown[side] = shown


def simulated_lights(players: int) -> LightsSink:
    return LightsSink(NullLights(seats=players, sides=2), seats=players)


def _pins(config: TableConfig, players: int) -> GpioPins:
    raw: dict[str, Any] = dict(config.lights.pins)
    seats_raw = raw.get("seats")
    if not isinstance(seats_raw, list) or len(seats_raw) != players:
        raise ConfigError(f"lights.pins.seats: expected {players} seat entries")
    seats = []
    for i, entry in enumerate(seats_raw):
        if not isinstance(entry, dict) or "light" not in entry:
            raise ConfigError(f"lights.pins.seats[{i}]: needs 'light' (a pin or three pins)")
        light = entry["light"]
        seats.append(
            SeatPins(
                light=tuple(light) if isinstance(light, list) else int(light),  # type: ignore[arg-type]
                confirm=entry.get("confirm"),
                undo=entry.get("undo"),
            )
        )
    bars = tuple(tuple(int(p) for p in bar) for bar in raw.get("bars", []))
    active_high = raw.get("active_high", True)
    if not isinstance(active_high, bool):
        raise ConfigError(f"lights.pins.active_high: expected true or false, got {active_high!r}")
    hold = raw.get("call_hold_s", CALL_HOLD_S)
    if isinstance(hold, bool) or not isinstance(hold, int | float) or hold <= 0:
        raise ConfigError(f"lights.pins.call_hold_s: expected seconds above 0, got {hold!r}")
    return GpioPins(seats=tuple(seats), buzzer=raw.get("buzzer"), bars=bars,
                    lights_active_high=active_high, hold_s=float(hold))  # fmt: skip


def lights_from_config(config: TableConfig) -> LightsSink:
    from referee.registry import load_game

    players = load_game(config.game).players
    kind = config.lights.kind
    lights: Lights
    if kind == "gpio":
        lights = GpioLights(_pins(config, players))  # the pin factory: GPIOZERO_PIN_FACTORY
    elif kind == "serial":
        from firmware_bridge.link import open_link
        from firmware_bridge.serial_lights import SerialLights

        lights = SerialLights(open_link(config.lights.serial_url), seats=players)
    else:
        lights = NullLights(seats=players, sides=2)
    return LightsSink(lights, seats=players)


def connect_buttons(runtime: Any, lights: Lights) -> None:
    """Seat buttons into the runtime's log: UNDO pops the last action, CONFIRM accepts the
    best candidate of that seat's oldest pending low-confidence card (with none, it confirms
    the last deal's score for the seat's side, until both sides have); either one held long
    calls the director to that seat."""
    from firmware_bridge.lights import ButtonPressed, SeatButton
    from referee.cards import Card
    from referee.errors import RefereeError

    def pressed(event: ButtonPressed) -> None:
        try:
            if event.held:
                runtime.call_director(event.seat, source=f"seat {event.seat} button")
                return
            if event.button is SeatButton.UNDO:
                runtime.undo(source=f"seat {event.seat} button")
                return
            state = runtime.snapshot()
            for request in state["pending"]:
                if request["seat"] == event.seat:
                    runtime.confirm_card(request["id"], Card.parse(request["candidates"][0]))
                    return
            # no question for this seat: CONFIRM agrees the last deal's score for its side
            last = state["deals"][-1] if state["deals"] else None
            if last is not None and not last["confirmed"]:
                runtime.agree_deal(seat=event.seat, source=f"seat {event.seat} button")
        except RefereeError as exc:
            runtime._alert(f"seat {event.seat} {event.button.name.lower()} button: {exc}")

    lights.buttons.subscribe(pressed)
