"""The ``Lights`` protocol that the runtime drives, the button records it reads, and NullLights."""

from __future__ import annotations

import enum
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from firmware_bridge import wire
from firmware_bridge.exc import SeatError
from firmware_bridge.patterns import BuzzSpec, Pattern

log = logging.getLogger(__name__)


class SeatButton(enum.IntEnum):
    """A seat's buttons."""

    CONFIRM = wire.BUTTON_CONFIRM
    UNDO = wire.BUTTON_UNDO


@dataclass(frozen=True, slots=True)
class ButtonPressed:
    """A button was pressed at ``seat``; ``at`` is ``time.monotonic()`` on the host;
    ``held``: a long press (the seat calls the director)."""

    seat: int
    button: SeatButton
    at: float
    held: bool = False


ButtonCallback = Callable[[ButtonPressed], None]


class ButtonHub:
    """Where button presses come out: callbacks, and a bounded queue the runtime can read.

    A full queue drops its oldest press, counts it in ``dropped`` and logs a warning: a press
    is never lost without trace. Callbacks run on the thread that saw the press; an exception
    in one is logged, not raised into the device thread.
    """

    def __init__(self, maxsize: int = 256) -> None:
        self.queue: queue.Queue[ButtonPressed] = queue.Queue(maxsize=maxsize)
        self.dropped = 0
        self._callbacks: list[ButtonCallback] = []
        self._lock = threading.Lock()

    def subscribe(self, callback: ButtonCallback) -> None:
        with self._lock:
            self._callbacks.append(callback)

    def publish(self, seat: int, button: SeatButton, *, held: bool = False) -> ButtonPressed:
        press = ButtonPressed(seat=seat, button=button, at=time.monotonic(), held=held)
        with self._lock:
            callbacks = list(self._callbacks)
            while True:
                try:
                    self.queue.put_nowait(press)
                    break
                except queue.Full:
                    try:
                        self.queue.get_nowait()
                    except queue.Empty:
                        continue
                    self.dropped += 1
                    log.warning("button queue full: dropped the oldest press")
        for callback in callbacks:
            try:
                callback(press)
            except Exception:  # a runtime callback must not kill the device thread
                log.exception("button callback failed")
        return press

    def get(self, timeout: float | None = None) -> ButtonPressed | None:
        """The oldest unread press, waiting up to ``timeout`` seconds; ``None`` if none came."""
        try:
            return self.queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def drain(self) -> list[ButtonPressed]:
        """Every unread press, oldest first."""
        out = []
        while True:
            try:
                out.append(self.queue.get_nowait())
            except queue.Empty:
                return out


@runtime_checkable
class Lights(Protocol):
    """Seat lights, buzzer, score bars and seat buttons. No method blocks on hardware."""

    seats: int
    sides: int
    buttons: ButtonHub

    def set_pattern(self, seat: int, pattern: Pattern) -> None:
        """Show ``pattern`` at ``seat`` (a flash plays over the base pattern, then ends)."""

    def buzz(self, spec: BuzzSpec) -> None:
        """Sound the buzzer."""

    def show_score(self, side: int, value: int, target: int) -> None:
        """Light ``side``'s score bar in proportion to ``value`` of ``target``."""

    def close(self) -> None:
        """Turn everything off and release the devices."""


def check_seat(seat: int, seats: int) -> None:
    if not 0 <= seat < seats:
        raise SeatError(f"seat {seat} does not exist at a table of {seats}")


def check_side(side: int, sides: int) -> None:
    if not 0 <= side < sides:
        raise SeatError(f"side {side} has no score bar (there are {sides})")


class NullLights:
    """Lights that show nothing but remember what they were told (tables with no hardware)."""

    def __init__(self, *, seats: int = 4, sides: int = 2) -> None:
        self.seats = seats
        self.sides = sides
        self.buttons = ButtonHub()
        self.patterns: dict[int, Pattern] = {}
        self.buzzes: list[BuzzSpec] = []
        self.scores: dict[int, tuple[int, int]] = {}

    def set_pattern(self, seat: int, pattern: Pattern) -> None:
        check_seat(seat, self.seats)
        self.patterns[seat] = pattern

    def buzz(self, spec: BuzzSpec) -> None:
        self.buzzes.append(spec)

    def show_score(self, side: int, value: int, target: int) -> None:
        check_side(side, self.sides)
        self.scores[side] = (value, target)

    def press(self, seat: int, button: SeatButton, *, held: bool = False) -> ButtonPressed:
        """Simulate a button press (``held``: a long one)."""
        check_seat(seat, self.seats)
        return self.buttons.publish(seat, button, held=held)

    def close(self) -> None:
        self.patterns.clear()
