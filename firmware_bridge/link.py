"""The host end of the serial link to the seat-light board: a port by URL, a thread, the
handshake, heartbeats, and reconnection with back-off.

The framing and reliability live in :mod:`firmware_bridge.wire` (sans-IO, shared with the
board); this module only moves bytes between it and a pySerial port. ``open_link(url)`` takes
what ``serial.serial_for_url`` takes (``/dev/ttyACM0``, ``loop://``, ``socket://``...) and
``sim://`` for a simulated board on a pty. Nothing opens until the link is built.
"""

from __future__ import annotations

import enum
import logging
import os
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from firmware_bridge import legacy, wire
from firmware_bridge.exc import IncompatibleBoard, LinkClosed, LinkQueueFull, UnknownURL

if TYPE_CHECKING:
    from firmware_bridge.sim import SimulatedBoard

log = logging.getLogger(__name__)

Message = tuple[int, bytes]


class Port(Protocol):
    """What the link needs of a pySerial port."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def close(self) -> None: ...


class LinkState(enum.Enum):
    """Where the link is."""

    CONNECTING = "connecting"  # no port: opening it, with back-off
    HANDSHAKE = "handshake"  # port open, SYNC sent, waiting for the board's HELLO
    READY = "ready"  # handshake done: commands flow
    INCOMPATIBLE = "incompatible"  # the board speaks another protocol version
    CLOSED = "closed"


@dataclass(frozen=True, slots=True)
class Backoff:
    """Delays between attempts to reopen the port: ``initial * factor**n``, at most ``maximum``.

    >>> [Backoff(initial=0.1, factor=2.0, maximum=0.5).delay(n) for n in range(5)]
    [0.1, 0.2, 0.4, 0.5, 0.5]
    """

    initial: float = 0.1
    factor: float = 2.0
    maximum: float = 5.0

    def delay(self, attempt: int) -> float:
        return float(min(self.maximum, self.initial * self.factor ** min(attempt, 64)))


@dataclass(frozen=True, slots=True)
class LinkTimings:
    """Every timing of the link, in seconds (tests shorten them)."""

    retry_s: float = 0.1
    heartbeat_s: float = 0.5
    dead_after_s: float = 2.0
    sync_every_s: float = 0.25
    read_timeout_s: float = 0.01
    backoff: Backoff = field(default_factory=Backoff)


@dataclass(frozen=True, slots=True)
class BoardInfo:
    """What the board said in its HELLO."""

    version: int
    boot_id: int
    seats: int
    leds: int


@dataclass(slots=True)
class LinkStats:
    """Counters of the link's life (read them; the link writes them)."""

    connects: int = 0
    disconnects: int = 0
    open_failures: int = 0
    board_resets: int = 0
    heartbeats_sent: int = 0


Opener = Callable[[str], Port]


def serial_opener(baudrate: int = 115200, timeout: float = 0.01) -> Opener:
    """An opener that calls ``serial.serial_for_url`` (imported only when it is called)."""

    def open_port(url: str) -> Port:
        import serial

        port: Port = serial.serial_for_url(
            url, baudrate=baudrate, timeout=timeout, write_timeout=1.0
        )
        return port

    return open_port


class SerialLink:
    """A reliable message link to the board over one port, kept up by a thread.

    ``send(type, body)`` queues a reliable message and never blocks on the port; it is sent
    once the handshake is done, retransmitted until acknowledged, and delivered once. Messages
    queued while the board is unplugged wait and go when it is back. Callbacks (run on the link
    thread): ``on_message(type, body)`` for each reliable message from the board,
    ``on_acked(type, body)`` when the board acknowledged one of ours,
    ``on_board_reset(info) -> [messages]`` when a board that lost its state answers (first
    connection, or a new boot id): the messages it returns are sent first, to restore state.
    """

    def __init__(
        self,
        url: str,
        *,
        timings: LinkTimings | None = None,
        opener: Opener | None = None,
        clock: Callable[[], float] = time.monotonic,
        nonce: int | None = None,
        max_queue: int = 1024,
        start: bool = True,
    ) -> None:
        self.url = url
        self.timings = timings or LinkTimings()
        self._opener = opener or serial_opener(timeout=self.timings.read_timeout_s)
        self._clock = clock
        self.nonce = (nonce if nonce is not None else int.from_bytes(os.urandom(2), "big")) & 0xFFFF
        self.endpoint = wire.Endpoint(
            retry_ms=max(1, round(self.timings.retry_s * 1000)), max_queue=max_queue
        )
        self.stats = LinkStats()
        self.state = LinkState.CONNECTING
        self.board: BoardInfo | None = None
        self.error: IncompatibleBoard | None = None
        self.sim: SimulatedBoard | None = None
        self.on_message: Callable[[int, bytes], None] | None = None
        self.on_acked: Callable[[int, bytes], None] | None = None
        self.on_board_reset: Callable[[BoardInfo], list[Message]] | None = None
        self._lock = threading.RLock()
        self._ready = threading.Event()
        self._closing = threading.Event()
        self._port: Port | None = None
        self._attempt = 0
        self._next_open = 0.0
        self._since = 0.0
        self._next_sync = 0.0
        self._syncs = 0  # SYNCs sent since the port opened
        self._last_tx = 0.0
        self._thread: threading.Thread | None = None
        if start:
            self.start()

    # -- the runtime's side --------------------------------------------------------------------

    def send(self, mtype: int, body: bytes) -> None:
        """Queue a reliable message. Raises LinkClosed, or LinkQueueFull when the queue is full."""
        with self._lock:
            if self.state is LinkState.CLOSED:
                raise LinkClosed(f"link to {self.url} is closed")
            try:
                self.endpoint.send(mtype, body)
            except wire.QueueFull:
                raise LinkQueueFull(
                    f"{self.endpoint.max_queue} messages already wait for the board"
                ) from None

    def pending(self) -> int:
        """Messages queued or in flight, not yet acknowledged."""
        with self._lock:
            return self.endpoint.pending()

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Wait until the handshake is done; False on timeout."""
        return self._ready.wait(timeout)

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Wait until the link is ready and every queued message is acknowledged."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._ready.is_set() and self.pending() == 0:
                return True
            time.sleep(0.005)
        return False

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="kibic-serial-link", daemon=True)
            self._thread.start()

    def close(self) -> None:
        self._closing.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
            self._thread = None
        with self._lock:
            self._drop_port()
            self.state = LinkState.CLOSED
            self._ready.clear()
        if self.sim is not None:
            self.sim.close()

    def __enter__(self) -> SerialLink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the thread ----------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._closing.is_set():
            try:
                if self._port is None:
                    self._try_open()
                else:
                    self._pump()
            except Exception:  # the link thread must survive anything; the fault is logged
                log.exception("serial link fault; reconnecting")
                with self._lock:
                    self._disconnect("fault")

    def _try_open(self) -> None:
        now = self._clock()
        if now < self._next_open:
            self._closing.wait(min(self._next_open - now, 0.05))
            return
        try:
            port = self._opener(self.url)
        except Exception as exc:  # serial.SerialException, OSError, ValueError from a bad URL
            self.stats.open_failures += 1
            self._next_open = now + self.timings.backoff.delay(self._attempt)
            self._attempt += 1
            log.debug(
                "opening %s failed (%s); next try in %.3fs", self.url, exc, self._next_open - now
            )
            return
        with self._lock:
            self._port = port
            self.endpoint.decoder.reset()
            # until a board answers in this version, a version-1 HELLO is read, to name it
            self.endpoint.decoder.fallback = legacy.v1_hello
            self.stats.connects += 1
            self.state = LinkState.HANDSHAKE
            now = self._clock()
            self._since = now
            self._next_sync = now
            self._syncs = 0
            self._last_tx = now
        log.info("opened %s", self.url)

    def _pump(self) -> None:
        port = self._port
        assert port is not None
        try:
            data = port.read(max(1, port.in_waiting))
        except Exception as exc:  # unplugged: serial.SerialException / OSError
            with self._lock:
                self._disconnect(f"read failed: {exc}")
            return
        messages: list[Message] = []
        with self._lock:
            now = self._clock()
            now_ms = int(now * 1000)
            received = self.endpoint.feed(data, now_ms) if data else []
            for mtype, body in received:
                if mtype == wire.T_HELLO:
                    self._hello(body)
                elif mtype in wire.RELIABLE:
                    messages.append((mtype, body))
            acked = self.endpoint.take_acked()
            alive = self._keep_alive(now, now_ms)
            out = (
                self.endpoint.poll(now_ms, reliable=self.state is LinkState.READY) if alive else b""
            )
        for mtype, body in acked:
            if self.on_acked is not None:
                self.on_acked(mtype, body)
        for mtype, body in messages:
            if self.on_message is not None:
                self.on_message(mtype, body)
        if out:
            try:
                port.write(out)
            except Exception as exc:  # unplugged while writing
                with self._lock:
                    self._disconnect(f"write failed: {exc}")
                return
            self._last_tx = now

    def _keep_alive(self, now: float, now_ms: int) -> bool:
        """Handshake and heartbeat duties; False if the link was dropped."""
        timings = self.timings
        if self.state is LinkState.HANDSHAKE:
            if now - self._since > timings.dead_after_s:
                self._disconnect("no HELLO from the board")
                return False
            self._sync(now)
        elif self.state is LinkState.INCOMPATIBLE:
            self._sync(now)  # the board may be reflashed, or that HELLO was a damaged frame
        elif self.state is LinkState.READY:
            last_rx = self.endpoint.last_rx_ms / 1000
            if now - max(last_rx, self._since) > timings.dead_after_s:
                self._disconnect("the board went silent")
                return False
            if now - self._last_tx >= timings.heartbeat_s:
                self.endpoint.control(wire.T_HEARTBEAT)
                self.stats.heartbeats_sent += 1
        return True

    def _sync(self, now: float) -> None:
        if now < self._next_sync:
            return
        body = wire.pack_sync(wire.VERSION, self.nonce)
        self.endpoint.control(wire.T_SYNC, body)
        if self._syncs:  # no answer to the first: perhaps a board that reads only version 1
            self.endpoint.write_raw(legacy.encode_v1_frame(wire.T_SYNC, 0, body))
        self._syncs += 1
        self._next_sync = now + self.timings.sync_every_s

    def _hello(self, body: bytes) -> None:
        version, boot_id, seats, leds = wire.unpack_hello(body)
        info = BoardInfo(version=version, boot_id=boot_id, seats=seats, leds=leds)
        if version != wire.VERSION:
            if self.state is not LinkState.INCOMPATIBLE:
                advice = (
                    "copy this version's firmware to the board (firmware_bridge/firmware/README.md)"
                    if version < wire.VERSION
                    else "update Kibic on this host"
                )
                self.error = IncompatibleBoard(
                    f"board speaks protocol {version}, this host speaks {wire.VERSION}: {advice}"
                )
                log.error("%s", self.error)
            self.state = LinkState.INCOMPATIBLE
            self.board = info
            self._ready.clear()
            return
        if self.board is None or self.board.boot_id != boot_id or self.board.version != version:
            # a board with no memory of us (the endpoint has already reset the receive
            # numbering): what was in flight may or may not have been shown before it lost
            # power, so it goes again, after the lasting state its dark lights need
            self.endpoint.requeue_inflight()
            if self.on_board_reset is not None:
                self.endpoint.prepend(self.on_board_reset(info))
            self.stats.board_resets += 1
        self.board = info
        self.error = None
        self.endpoint.decoder.fallback = None  # from now on only version-2 frames pass
        if self.state is not LinkState.READY:
            log.info("board %04x ready on %s", boot_id, self.url)
        self.state = LinkState.READY
        self._since = self._clock()
        self._attempt = 0
        self._ready.set()

    def _disconnect(self, reason: str) -> None:
        if self._port is None:
            return
        log.warning("link to %s lost: %s", self.url, reason)
        self._drop_port()
        self.endpoint.out = bytearray()  # acknowledgements meant for the old connection
        self.stats.disconnects += 1
        self._ready.clear()
        if self.state is not LinkState.CLOSED:
            self.state = LinkState.CONNECTING
        now = self._clock()
        self._next_open = now + self.timings.backoff.delay(self._attempt)
        self._attempt += 1

    def _drop_port(self) -> None:
        port = self._port
        self._port = None
        if port is not None:
            try:
                port.close()
            except Exception:  # closing a vanished device may fail; it is gone either way
                log.debug("closing the port failed", exc_info=True)


def open_link(url: str, **options: Any) -> SerialLink:
    """Open a link by URL (the thread starts; the port opens on it, with retries).

    ``/dev/ttyACM0`` and every pySerial URL (``loop://``, ``socket://host:port``...) go to
    ``serial.serial_for_url``. ``sim://?seats=4&leds=12`` starts a simulated board on a pty
    (``link.sim``), closed with the link. ``options`` are SerialLink's keywords.
    """
    parts = urllib.parse.urlsplit(url)
    if parts.scheme == "sim":
        from firmware_bridge.sim import SimulatedBoard

        query = urllib.parse.parse_qs(parts.query)

        def size(key: str, default: int) -> int:
            return int(query.get(key, [str(default)])[-1])

        board = SimulatedBoard(
            seats=size("seats", 4), leds=size("leds", 12), sides=size("sides", 2)
        )
        board.plug()
        link = SerialLink(board.path, **options)
        link.sim = board
        return link
    if parts.scheme and parts.scheme not in (
        "loop",
        "socket",
        "rfc2217",
        "spy",
        "alt",
        "hwgrep",
        "file",
    ):
        raise UnknownURL(f"no serial transport for {url!r}")
    return SerialLink(url, **options)
