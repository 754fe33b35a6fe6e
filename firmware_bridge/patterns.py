"""The seat light and buzzer patterns, in one place, and how referee events map onto them.

A pattern is a list of steps ``(red, green, blue, ms)`` played ``repeat`` times (0: forever).
*Base* patterns (off, turn, deal over, error) stay until replaced; *flash* patterns (trick
won, revoke proven, penalty) play a finite number of times over the base, which then shows
again; the director's call blinks over the base until the director answers. The same step lists drive the GPIO lights and travel to the microcontroller, so the
board has no pattern table of its own.

>>> mapper = EventMapper(seats=4)
>>> from referee.events import TurnChanged
>>> mapper.commands(TurnChanged(seat=2))
[LightCommand(seat=0, pattern=<Pattern.OFF: 'off'>), LightCommand(seat=1, pattern=<Pattern.OFF: 'off'>), LightCommand(seat=2, pattern=<Pattern.TURN: 'turn'>), LightCommand(seat=3, pattern=<Pattern.OFF: 'off'>)]
>>> mapper.commands(TurnChanged(seat=3))
[LightCommand(seat=2, pattern=<Pattern.OFF: 'off'>), LightCommand(seat=3, pattern=<Pattern.TURN: 'turn'>)]
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from firmware_bridge import wire
from referee.events import (
    DealScored,
    DirectorAnswered,
    DirectorCalled,
    Event,
    PartijaOver,
    PenaltyAssessed,
    TrickWon,
    TurnChanged,
    ViolationProven,
)

if TYPE_CHECKING:
    from firmware_bridge.lights import Lights


class Pattern(enum.Enum):
    """A seat light pattern."""

    OFF = "off"
    TURN = "turn"
    TRICK_WON = "trick_won"
    REVOKE_PROVEN = "revoke_proven"
    PENALTY = "penalty"
    DEAL_OVER = "deal_over"
    PARTIJA_WON = "partija_won"
    ERROR = "error"
    DIRECTOR_CALL = "director_call"


class Layer(enum.IntEnum):
    """Where a pattern plays: the lasting base, or a finite flash over it."""

    BASE = wire.LAYER_BASE
    FLASH = wire.LAYER_FLASH


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a pattern: a colour (0..255 per channel) held for ``ms`` milliseconds."""

    red: int
    green: int
    blue: int
    ms: int

    def as_tuple(self) -> tuple[int, int, int, int]:
        return (self.red, self.green, self.blue, self.ms)


@dataclass(frozen=True, slots=True)
class PatternSpec:
    """What a pattern looks like: its steps, how often they repeat (0: forever), its layer."""

    pattern: Pattern
    layer: Layer
    steps: tuple[Step, ...]
    repeat: int

    def wire_steps(self) -> list[tuple[int, int, int, int]]:
        return [step.as_tuple() for step in self.steps]

    def color_at(self, elapsed_ms: int) -> tuple[int, int, int] | None:
        """The colour ``elapsed_ms`` after the start, ``None`` once a flash is over."""
        return wire.pattern_color(self.wire_steps(), self.repeat, elapsed_ms)

    @property
    def duration_ms(self) -> int | None:
        """How long a finite pattern plays; ``None`` for one that plays forever."""
        if self.repeat == 0:
            return None
        return self.repeat * sum(step.ms for step in self.steps)


_OFF = Step(0, 0, 0, 0)


def _spec(pattern: Pattern, layer: Layer, repeat: int, *steps: Step) -> PatternSpec:
    return PatternSpec(pattern=pattern, layer=layer, steps=steps, repeat=repeat)


PATTERNS: Mapping[Pattern, PatternSpec] = {
    Pattern.OFF: _spec(Pattern.OFF, Layer.BASE, 0, _OFF),
    Pattern.TURN: _spec(Pattern.TURN, Layer.BASE, 0, Step(0, 255, 0, 0)),
    Pattern.DEAL_OVER: _spec(
        Pattern.DEAL_OVER, Layer.BASE, 0, Step(255, 255, 255, 500), Step(0, 0, 0, 500)
    ),
    Pattern.ERROR: _spec(Pattern.ERROR, Layer.BASE, 0, Step(255, 0, 0, 250), Step(0, 0, 0, 750)),
    Pattern.TRICK_WON: _spec(
        Pattern.TRICK_WON, Layer.FLASH, 3, Step(0, 0, 255, 150), Step(0, 0, 0, 150)
    ),
    Pattern.REVOKE_PROVEN: _spec(
        Pattern.REVOKE_PROVEN, Layer.FLASH, 10, Step(255, 0, 0, 100), Step(0, 0, 0, 100)
    ),
    Pattern.PENALTY: _spec(
        Pattern.PENALTY, Layer.FLASH, 4, Step(255, 128, 0, 250), Step(0, 0, 0, 250)
    ),
    # the seats of the side that won the partija: slow gold blinks, about five seconds
    Pattern.PARTIJA_WON: _spec(
        Pattern.PARTIJA_WON, Layer.FLASH, 8, Step(255, 180, 0, 400), Step(0, 0, 0, 200)
    ),
    # until answered: the mapper sends the seat's base pattern again, which ends the flash
    Pattern.DIRECTOR_CALL: _spec(
        Pattern.DIRECTOR_CALL, Layer.FLASH, 0, Step(255, 0, 255, 300), Step(0, 0, 0, 300)
    ),
}


@dataclass(frozen=True, slots=True)
class BuzzSpec:
    """A buzzer pattern: ``count`` beeps of ``on_ms``, ``off_ms`` apart."""

    on_ms: int
    off_ms: int
    count: int

    def wire_steps(self) -> list[tuple[int, int, int, int]]:
        return [(255, 255, 255, self.on_ms), (0, 0, 0, self.off_ms)]


BUZZ_REVOKE = BuzzSpec(on_ms=150, off_ms=100, count=3)
BUZZ_PENALTY = BuzzSpec(on_ms=400, off_ms=0, count=1)
BUZZ_DEAL_OVER = BuzzSpec(on_ms=80, off_ms=80, count=2)


@dataclass(frozen=True, slots=True)
class LightCommand:
    """Show ``pattern`` at ``seat``."""

    seat: int
    pattern: Pattern


@dataclass(frozen=True, slots=True)
class BuzzCommand:
    """Sound the buzzer."""

    buzz: BuzzSpec


Command = LightCommand | BuzzCommand


class EventMapper:
    """Maps referee events to light and buzzer commands for a table of ``seats`` seats.

    It remembers each seat's base pattern, so a turn change only sends the seats that change.
    A suspected violation shows nothing (no accusation before proof); a proven one flashes
    the seat and buzzes; a penalty flashes and buzzes; a scored deal blinks every seat; a
    partija won blinks gold at the winning side's seats (``sides``: each seat's side; without
    them it shows nothing). A call for the director blinks the caller's seat (every seat for a
    call from the whole table) over whatever else that seat shows, until it is answered.
    """

    def __init__(self, *, seats: int, sides: Sequence[str] | None = None) -> None:
        self.seats = seats
        self.sides = list(sides) if sides is not None else None
        self._base: list[Pattern | None] = [None] * seats
        self._calls: dict[str, int | None] = {}

    def _calling(self) -> set[int]:
        seats: set[int] = set()
        for seat in self._calls.values():
            seats |= set(range(self.seats)) if seat is None else {seat}
        return seats

    def commands(self, event: Event) -> list[Command]:
        if isinstance(event, DirectorCalled | DirectorAnswered):
            before = self._calling()
            if isinstance(event, DirectorCalled):
                self._calls[event.call] = event.seat
            else:
                self._calls.pop(event.call, None)
            after = self._calling()
            out: list[Command] = [LightCommand(s, Pattern.DIRECTOR_CALL) for s in sorted(after)
                                  if s not in before]  # fmt: skip
            return out + [LightCommand(s, self._base[s] or Pattern.OFF)
                          for s in sorted(before - after)]  # fmt: skip
        out = self._event_commands(event)
        # a seat that called the director keeps blinking over any other pattern
        calling = self._calling()
        touched = sorted({c.seat for c in out if isinstance(c, LightCommand)} & calling)
        return out + [LightCommand(s, Pattern.DIRECTOR_CALL) for s in touched]

    def _set_base(self, seat: int, pattern: Pattern) -> list[Command]:
        if 0 <= seat < self.seats and self._base[seat] == pattern:
            return []
        if 0 <= seat < self.seats:
            self._base[seat] = pattern
        return [LightCommand(seat, pattern)]

    def _event_commands(self, event: Event) -> list[Command]:
        if isinstance(event, TurnChanged):
            out: list[Command] = []
            for seat in range(self.seats):
                out += self._set_base(seat, Pattern.TURN if seat == event.seat else Pattern.OFF)
            return out
        if isinstance(event, TrickWon):
            return [LightCommand(event.winner, Pattern.TRICK_WON)]
        if isinstance(event, ViolationProven):
            return [
                LightCommand(event.violation.seat, Pattern.REVOKE_PROVEN),
                BuzzCommand(BUZZ_REVOKE),
            ]
        if isinstance(event, PenaltyAssessed):
            return [LightCommand(event.violation.seat, Pattern.PENALTY), BuzzCommand(BUZZ_PENALTY)]
        if isinstance(event, DealScored):
            out = []
            for seat in range(self.seats):
                out += self._set_base(seat, Pattern.DEAL_OVER)
            return out + [BuzzCommand(BUZZ_DEAL_OVER)]
        if isinstance(event, PartijaOver) and self.sides is not None:
            return [LightCommand(seat, Pattern.PARTIJA_WON)
                    for seat, side in enumerate(self.sides[: self.seats])
                    if side == event.winner]  # fmt: skip
        return []

    def apply(self, lights: Lights, event: Event) -> list[Command]:
        """Send the commands for ``event`` to ``lights``; returns them."""
        commands = self.commands(event)
        for command in commands:
            if isinstance(command, LightCommand):
                lights.set_pattern(command.seat, command.pattern)
            else:
                lights.buzz(command.buzz)
        return commands
