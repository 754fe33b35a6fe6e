"""Lights on a microcontroller board, over the serial link."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Any

from firmware_bridge import wire
from firmware_bridge.lights import ButtonHub, SeatButton, check_seat, check_side
from firmware_bridge.link import BoardInfo, Message, SerialLink, open_link
from firmware_bridge.patterns import PATTERNS, BuzzSpec, Layer, Pattern

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class BoardError:
    """An error report from the board: ``code`` is one of ``wire.ERR_*``."""

    code: int
    text: str


def light_body(seat: int, pattern: Pattern) -> bytes:
    """The SET_LIGHT body that shows ``pattern`` at ``seat``."""
    spec = PATTERNS[pattern]
    return wire.pack_set_light(seat, int(spec.layer), spec.repeat, spec.wire_steps())


class SerialLights:
    """:class:`~firmware_bridge.lights.Lights` on a board at the other end of ``link``.

    Calls queue a message and return at once. The lasting state the board acknowledged (each
    seat's base pattern, the score bars) is remembered and sent again, before anything still
    queued, when a board that lost its state (unplugged, reset) answers.
    """

    def __init__(self, link: SerialLink, *, seats: int, sides: int = 2) -> None:
        self.link = link
        self.seats = seats
        self.sides = sides
        self.buttons = ButtonHub()
        self.board_errors: list[BoardError] = []
        self.last_restore: list[Message] = []
        self._lock = threading.Lock()
        self._shown_base: dict[int, bytes] = {}
        self._shown_bars: dict[int, bytes] = {}
        link.on_message = self._message
        link.on_acked = self._acked
        link.on_board_reset = self._restore

    @classmethod
    def open(cls, url: str, *, seats: int, sides: int = 2, **options: Any) -> SerialLights:
        """``open_link(url, **options)`` wrapped in SerialLights."""
        return cls(open_link(url, **options), seats=seats, sides=sides)

    def set_pattern(self, seat: int, pattern: Pattern) -> None:
        check_seat(seat, self.seats)
        self.link.send(wire.T_SET_LIGHT, light_body(seat, pattern))

    def buzz(self, spec: BuzzSpec) -> None:
        self.link.send(wire.T_BUZZ, wire.pack_buzz(spec.on_ms, spec.off_ms, spec.count))

    def show_score(self, side: int, value: int, target: int) -> None:
        check_side(side, self.sides)
        self.link.send(wire.T_SET_BAR, wire.pack_bar(side, value, target))

    def close(self) -> None:
        self.link.close()

    # -- link callbacks (link thread) ----------------------------------------------------------

    def _acked(self, mtype: int, body: bytes) -> None:
        with self._lock:
            if mtype == wire.T_SET_LIGHT and body[1] == Layer.BASE:
                self._shown_base[body[0]] = body
            elif mtype == wire.T_SET_BAR:
                self._shown_bars[body[0]] = body

    def _restore(self, info: BoardInfo) -> list[Message]:
        with self._lock:
            restore: list[Message] = [
                (wire.T_SET_LIGHT, body)
                for seat, body in sorted(self._shown_base.items())
                if body != light_body(seat, Pattern.OFF)
            ]
            restore += [(wire.T_SET_BAR, body) for _, body in sorted(self._shown_bars.items())]
            self.last_restore = restore
        if info.seats < self.seats:
            log.warning("board has %d seats, the table %d", info.seats, self.seats)
        return restore

    def _message(self, mtype: int, body: bytes) -> None:
        if mtype == wire.T_BUTTON:
            seat, button = wire.unpack_button(body)
            self.buttons.publish(seat, SeatButton(button))
        elif mtype == wire.T_ERROR:
            code, text = wire.unpack_error(body)
            error = BoardError(code=code, text=text)
            self.board_errors.append(error)
            log.error("board reports error %d: %s", code, text)
