"""A simulated seat-light board behind a real pty, running the firmware's own ``Board`` logic.

``SimulatedBoard.plug()`` makes a pty pair, points a stable symlink (``board.path``) at its
slave end, and boots a fresh ``Board`` (new boot id, dark lights, a MicroPython-style banner
of non-protocol bytes first) in a thread. ``unplug()`` closes the pty and removes the link,
as pulling a USB cable makes ``/dev/ttyACM0`` vanish; the board loses its state, as a
bus-powered board would. The host opens ``board.path`` like any serial device.
``version=1`` boots a board with protocol version 1's firmware (frames closed by a CRC-16).
"""

from __future__ import annotations

import os
import pty
import select
import shutil
import tempfile
import threading
import time
import tty
from dataclasses import dataclass

from firmware_bridge import legacy, wire
from firmware_bridge.firmware.kibic_board import Board

BANNER = b"MicroPython v1.23.0 on 2024-06-02; Raspberry Pi Pico with RP2040\r\n>>> "


class FakePin:
    """An input pin (``value()``; pull-up, so 1 until pressed) or output pin (``value(v)``)."""

    def __init__(self, level: int = 1) -> None:
        self.level = level
        self.history: list[int] = []

    def value(self, level: int | None = None) -> int:
        if level is not None:
            self.level = level
            self.history.append(level)
        return self.level


class FakeStrip:
    """A NeoPixel-like strip that records the colours of every ``write()``."""

    def __init__(self, n: int) -> None:
        self.pixels: list[tuple[int, int, int]] = [(0, 0, 0)] * n
        self.writes: list[tuple[tuple[int, int, int], ...]] = []

    def __len__(self) -> int:
        return len(self.pixels)

    def __setitem__(self, index: int, color: tuple[int, int, int]) -> None:
        self.pixels[index] = color

    def __getitem__(self, index: int) -> tuple[int, int, int]:
        return self.pixels[index]

    def write(self) -> None:
        self.writes.append(tuple(self.pixels))


class FakeUart:
    """An in-memory UART: ``incoming`` is what the board will read, ``outgoing`` what it wrote."""

    def __init__(self) -> None:
        self.incoming = bytearray()
        self.outgoing = bytearray()

    def read(self) -> bytes | None:
        if not self.incoming:
            return None
        data = bytes(self.incoming)
        self.incoming.clear()
        return data

    def write(self, data: bytes) -> int:
        self.outgoing += data
        return len(data)

    def take(self) -> bytes:
        data = bytes(self.outgoing)
        self.outgoing.clear()
        return data


class _PtyUart:
    """The board's end of the pty: non-blocking reads, writes that drop (and count) when the
    host is not reading and the pty buffer is full."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.dropped = 0

    def read(self) -> bytes | None:
        try:
            return os.read(self.fd, 4096) or None
        except (BlockingIOError, InterruptedError):
            return None
        except OSError:  # no reader on the other end yet
            return None

    def write(self, data: bytes) -> int:
        view = memoryview(data)
        while view:
            try:
                written = os.write(self.fd, view)
            except BlockingIOError:
                self.dropped += len(view)
                return len(data)
            view = view[written:]
        return len(data)


@dataclass(frozen=True, slots=True)
class Applied:
    """A command the simulated board acted on, in its ``boot``-th life (1 is the first)."""

    boot: int
    mtype: int
    body: bytes


class SimulatedBoard:
    """A seat-light board on a pty. Use as a context manager or call ``close()``."""

    def __init__(
        self,
        *,
        seats: int = 4,
        leds: int = 12,
        sides: int = 2,
        bar_leds: int = 8,
        version: int = wire.VERSION,
        banner: bytes = BANNER,
        first_boot_id: int = 0x4B00,
    ) -> None:
        self.seats = seats
        self.leds = leds
        self.sides = sides
        self.bar_leds = bar_leds
        self.version = version
        self.banner = banner
        self._dir = tempfile.mkdtemp(prefix="kibic-sim-")
        self.path = os.path.join(self._dir, "ttyKIBIC0")
        self.boots = 0
        self._next_boot_id = first_boot_id
        self.applied: list[Applied] = []
        self._lock = threading.RLock()  # the board's step holds it while it logs
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._fds: tuple[int, int] | None = None
        self.board: Board | None = None
        self.rings: list[FakeStrip] = []
        self.bars: list[FakeStrip] = []
        self.buzzer = FakePin(0)
        self.pins: dict[tuple[int, int], FakePin] = {}

    @property
    def plugged(self) -> bool:
        return self._thread is not None

    def plug(self) -> None:
        """Connect and boot a fresh board (its state starts dark)."""
        if self._thread is not None:
            return
        master, slave = pty.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._fds = (master, slave)
        self.boots += 1
        boot = self.boots
        self.rings = [FakeStrip(self.leds) for _ in range(self.seats)]
        self.bars = [FakeStrip(self.bar_leds) for _ in range(self.sides)]
        self.buzzer = FakePin(0)
        self.pins = {}
        buttons = []
        for seat in range(self.seats):
            for button in (wire.BUTTON_CONFIRM, wire.BUTTON_UNDO):
                pin = FakePin(1)
                self.pins[(seat, button)] = pin
                buttons.append((seat, button, pin))

        def record(mtype: int, body: bytes) -> None:
            with self._lock:
                self.applied.append(Applied(boot, mtype, body))

        uart = _PtyUart(master)
        started = time.monotonic()
        self.board = Board(
            uart,
            self.rings,
            buttons,
            self.buzzer,
            lambda: int((time.monotonic() - started) * 1000),
            self._next_boot_id,
            bars=self.bars,
            version=self.version,
            on_apply=record,
            # version 1 closed its frames with a CRC-16: an old board speaks it throughout
            endpoint=legacy.V1Endpoint(retry_ms=50, max_queue=32)
            if self.version == legacy.V1
            else None,
        )
        self._next_boot_id = (self._next_boot_id + 1) & 0xFFFF
        os.symlink(os.ttyname(slave), self.path)
        uart.write(self.banner)
        self.board.boot()
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, args=(self.board, master), daemon=True)
        self._thread.name = f"kibic-sim-board-{boot}"
        self._thread.start()

    def _run(self, board: Board, fd: int) -> None:
        while not self._stop.is_set():
            select.select([fd], [], [], 0.002)
            with self._lock:
                board.step()

    def unplug(self) -> None:
        """Pull the cable: the port vanishes and the board loses power (and its state)."""
        thread = self._thread
        if thread is None:
            return
        self._stop.set()
        thread.join(timeout=2.0)
        self._thread = None
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass
        if self._fds is not None:
            for fd in self._fds:
                os.close(fd)
            self._fds = None

    def press(self, seat: int, button: int, hold_s: float = 0.06) -> None:
        """Press and release a button (held long enough to pass the board's debounce)."""
        pin = self.pins[(seat, button)]
        pin.level = 0
        time.sleep(hold_s)
        pin.level = 1
        time.sleep(hold_s)

    def color(self, seat: int) -> tuple[int, int, int]:
        """The colour seat ``seat``'s ring shows now."""
        with self._lock:
            return self.rings[seat][0]

    def log(self, boot: int | None = None) -> list[tuple[int, bytes]]:
        """The commands acted on, ``(type, body)``, in one boot or all of them."""
        with self._lock:
            return [(a.mtype, a.body) for a in self.applied if boot is None or a.boot == boot]

    def close(self) -> None:
        self.unplug()
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> SimulatedBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
