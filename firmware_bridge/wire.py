"""The Kibic serial wire protocol, shared by the host and the RP2040 firmware.

This one module is copied to the board as ``wire.py`` (see ``firmware/README.md``), so it is
written in the subset of Python that MicroPython runs: no ``typing`` at run time, no
dataclasses, no enums, annotations only with builtin names, integers and ``bytes`` only.

A frame on the wire (protocol version 2) is ``00 | COBS(type, seq, body..., crc32) | 00``: a
zero delimiter at both ends (so a truncated frame never swallows the next one), COBS so the
body never contains the delimiter, and a CRC-32 (ISO-HDLC, zlib's, 4 bytes big-endian) over
type, seq and body. ``seq`` is an 8-bit sequence number on the reliable messages
(stop-and-wait: one frame in flight, retransmitted until acknowledged, duplicates acknowledged
again but delivered once). Version 1 closed frames with a CRC-16/CCITT-FALSE, which has no
final xor: one bit flip that turns the closing delimiter into an empty COBS block appends a
zero byte, and the CRC still matches one byte along, so damaged frames got through on a harsh
line (``benchmarks/bench_serial.py`` compares the two). The host recognises a version-1 board
by its HELLO and refuses it by name (:mod:`firmware_bridge.legacy`). The HELLO and SYNC
bodies start with the version and keep this frame layout in every later version, so that
the two ends can always tell each other which version they speak.

On the host, COBS is the ``cobs`` package and the CRC the standard library's
``binascii.crc32``; on the board (MicroPython) both come from ``framing.py``.

>>> frame = encode_frame(T_BUZZ, 7, pack_buzz(200, 100, 2))
>>> FrameDecoder().feed(b"noise" + frame)
[(18, 7, b'\\x00\\xc8\\x00d\\x02')]
"""

import sys

if sys.implementation.name == "micropython":  # on the board: framing.py sits next to this file
    from framing import CobsError, cobs_decode, cobs_encode, crc32  # type: ignore[import-not-found]
else:
    from binascii import crc32

    from cobs.cobs import DecodeError as CobsError
    from cobs.cobs import decode as cobs_decode
    from cobs.cobs import encode as cobs_encode

try:
    from typing import Any  # noqa: F401  (type comments only; MicroPython has no typing)
except ImportError:
    pass

VERSION = 2
CHECK_BYTES = 4  # the CRC-32 at the end of every frame

# Message types. Control messages (< 0x10) are not acknowledged; the others are reliable.
T_HELLO = 0x01  # board -> host: version, boot id, seats, leds per seat
T_SYNC = 0x02  # host -> board: version, host nonce; the board answers HELLO
T_ACK = 0x03  # either way: acknowledges the reliable frame whose seq is in the header
T_HEARTBEAT = 0x04  # either way; the board echoes the host's heartbeat
T_SET_LIGHT = 0x10  # host -> board: seat, layer, repeat, steps (r, g, b, ms)
T_SET_BAR = 0x11  # host -> board: side, value (int16), target (uint16)
T_BUZZ = 0x12  # host -> board: on ms, off ms, count
T_BUTTON = 0x20  # board -> host: seat, button
T_ERROR = 0x21  # board -> host: code, utf-8 text

RELIABLE = (T_SET_LIGHT, T_SET_BAR, T_BUZZ, T_BUTTON, T_ERROR)
CONTROL = (T_HELLO, T_SYNC, T_ACK, T_HEARTBEAT)

LAYER_BASE = 0  # a pattern that stays until replaced (turn, off, deal over, error)
LAYER_FLASH = 1  # a finite pattern shown over the base, then the base shows again

BUTTON_CONFIRM = 1
BUTTON_UNDO = 2

ERR_BAD_SEAT = 1
ERR_BAD_SIDE = 2
ERR_QUEUE_FULL = 3

MAX_STEPS = 16
MAX_ERROR_TEXT = 64
MAX_BODY = 4 + 5 * MAX_STEPS  # the largest body: SET_LIGHT with MAX_STEPS steps
MAX_RAW = 2 + MAX_BODY + CHECK_BYTES
MAX_ENCODED = MAX_RAW + MAX_RAW // 254 + 2  # COBS adds one byte per 254, plus the first


def encode_frame(mtype: int, seq: int, body: bytes = b"") -> bytes:
    """One delimited frame, ready to write."""
    raw = bytearray((mtype & 0xFF, seq & 0xFF))
    raw += body
    crc = crc32(raw)
    raw.append((crc >> 24) & 0xFF)
    raw.append((crc >> 16) & 0xFF)
    raw.append((crc >> 8) & 0xFF)
    raw.append(crc & 0xFF)
    return b"\x00" + cobs_encode(bytes(raw)) + b"\x00"


def check_ok(raw: bytes) -> bool:
    """Whether the last four bytes of a decoded frame are the CRC-32 of the rest."""
    n = len(raw) - CHECK_BYTES
    got = (raw[n] << 24) | (raw[n + 1] << 16) | (raw[n + 2] << 8) | raw[n + 3]
    return crc32(raw[:n]) == got


def _u16(body: bytes, at: int) -> int:
    return (body[at] << 8) | body[at + 1]


def _put_u16(out: bytearray, value: int) -> None:
    out.append((value >> 8) & 0xFF)
    out.append(value & 0xFF)


def body_ok(mtype: int, body: bytes) -> bool:
    """Whether ``body`` has the exact shape that message ``mtype`` needs."""
    n = len(body)
    if mtype == T_HELLO:
        return n == 5
    if mtype == T_SYNC:
        return n == 3
    if mtype == T_ACK or mtype == T_HEARTBEAT:
        return n == 0
    if mtype == T_SET_LIGHT:
        if n < 4:
            return False
        steps = body[3]
        return 1 <= steps <= MAX_STEPS and n == 4 + 5 * steps and body[1] in (0, 1)
    if mtype == T_SET_BAR:
        return n == 5
    if mtype == T_BUZZ:
        return n == 5
    if mtype == T_BUTTON:
        return n == 2 and body[1] in (BUTTON_CONFIRM, BUTTON_UNDO)
    if mtype == T_ERROR:
        return 1 <= n <= 1 + MAX_ERROR_TEXT
    return False


def pack_hello(version: int, boot_id: int, seats: int, leds: int) -> bytes:
    out = bytearray((version & 0xFF,))
    _put_u16(out, boot_id)
    out.append(seats & 0xFF)
    out.append(leds & 0xFF)
    return bytes(out)


def unpack_hello(body: bytes) -> tuple[int, int, int, int]:
    """``(version, boot_id, seats, leds)``."""
    return body[0], _u16(body, 1), body[3], body[4]


def pack_sync(version: int, nonce: int) -> bytes:
    out = bytearray((version & 0xFF,))
    _put_u16(out, nonce)
    return bytes(out)


def unpack_sync(body: bytes) -> tuple[int, int]:
    """``(version, nonce)``."""
    return body[0], _u16(body, 1)


def pack_set_light(
    seat: int, layer: int, repeat: int, steps: list[tuple[int, int, int, int]]
) -> bytes:
    """``steps`` are ``(red, green, blue, ms)``; ``repeat`` 0 plays the steps forever."""
    if not 1 <= len(steps) <= MAX_STEPS:
        raise ValueError("a pattern has 1 to 16 steps")
    out = bytearray((seat & 0xFF, layer & 0xFF, repeat & 0xFF, len(steps)))
    for red, green, blue, ms in steps:
        out.append(red & 0xFF)
        out.append(green & 0xFF)
        out.append(blue & 0xFF)
        _put_u16(out, ms)
    return bytes(out)


def unpack_set_light(body: bytes) -> tuple[int, int, int, list[tuple[int, int, int, int]]]:
    """``(seat, layer, repeat, steps)``."""
    steps = []
    for i in range(body[3]):
        at = 4 + 5 * i
        steps.append((body[at], body[at + 1], body[at + 2], _u16(body, at + 3)))
    return body[0], body[1], body[2], steps


def pack_bar(side: int, value: int, target: int) -> bytes:
    """A score bar: ``value`` is clamped to int16, ``target`` to 1..65535."""
    value = max(-32768, min(32767, value))
    target = max(1, min(65535, target))
    out = bytearray((side & 0xFF,))
    _put_u16(out, value & 0xFFFF)
    _put_u16(out, target)
    return bytes(out)


def unpack_bar(body: bytes) -> tuple[int, int, int]:
    """``(side, value, target)``."""
    value = _u16(body, 1)
    if value >= 0x8000:
        value -= 0x10000
    return body[0], value, _u16(body, 3)


def bar_lit(value: int, target: int, count: int) -> int:
    """How many of ``count`` LEDs a bar lights for ``value`` of ``target`` (negative: from the
    far end, as a negative count).

    >>> bar_lit(61, 101, 8), bar_lit(-30, 101, 8), bar_lit(500, 101, 8)
    (4, -2, 8)
    """
    if target <= 0:
        return 0
    lit = abs(value) * count // target
    lit = min(count, lit)
    return -lit if value < 0 else lit


def pack_buzz(on_ms: int, off_ms: int, count: int) -> bytes:
    out = bytearray()
    _put_u16(out, on_ms)
    _put_u16(out, off_ms)
    out.append(count & 0xFF)
    return bytes(out)


def unpack_buzz(body: bytes) -> tuple[int, int, int]:
    """``(on_ms, off_ms, count)``."""
    return _u16(body, 0), _u16(body, 2), body[4]


def pack_button(seat: int, button: int) -> bytes:
    return bytes((seat & 0xFF, button & 0xFF))


def unpack_button(body: bytes) -> tuple[int, int]:
    """``(seat, button)``."""
    return body[0], body[1]


def pack_error(code: int, text: str) -> bytes:
    raw = text.encode("utf-8")[:MAX_ERROR_TEXT]
    return bytes((code & 0xFF,)) + raw


def unpack_error(body: bytes) -> tuple[int, str]:
    """``(code, text)``; undecodable text comes back as ``?``."""
    try:
        text = body[1:].decode("utf-8")
    except UnicodeError:
        text = "?"
    return body[0], text


def pattern_color(
    steps: list[tuple[int, int, int, int]], repeat: int, elapsed_ms: int
) -> tuple[int, int, int] | None:
    """The colour a pattern shows ``elapsed_ms`` after it started, ``None`` once a finite
    pattern (``repeat`` > 0) has played out. A pattern whose steps add up to 0 ms holds its
    last step.

    >>> steps = [(255, 0, 0, 100), (0, 0, 0, 100)]
    >>> pattern_color(steps, 2, 50), pattern_color(steps, 2, 150), pattern_color(steps, 2, 400)
    ((255, 0, 0), (0, 0, 0), None)
    """
    total = 0
    for step in steps:
        total += step[3]
    if total == 0:
        last = steps[-1]
        return (last[0], last[1], last[2])
    if elapsed_ms < 0:
        elapsed_ms = 0
    if repeat and elapsed_ms // total >= repeat:
        return None
    t = elapsed_ms % total
    for red, green, blue, ms in steps:
        if t < ms:
            return (red, green, blue)
        t -= ms
    last = steps[-1]
    return (last[0], last[1], last[2])


class FrameDecoder:
    """Turns a byte stream into checked frames ``(type, seq, body)``.

    Never raises on any input and never holds more than ``max_encoded`` bytes: an over-long
    run without a delimiter is discarded up to the next delimiter. Every discarded frame is
    counted: ``bad_cobs``, ``bad_crc``, ``too_short``, ``oversize``; ``dropped_bytes`` counts
    the bytes of all of them. ``fallback(raw)``, if set, is asked about each frame that fails
    the CRC-32 and may return a frame of an older protocol (counted in ``older``) or None.
    """

    check_bytes = CHECK_BYTES

    def __init__(self, max_encoded: int = MAX_ENCODED) -> None:
        self.max_encoded = max_encoded
        self.buf = bytearray()
        self.skipping = False
        self.fallback = None  # type: Any
        self.frames = 0
        self.older = 0
        self.bad_cobs = 0
        self.bad_crc = 0
        self.too_short = 0
        self.oversize = 0
        self.dropped_bytes = 0

    def check(self, raw: bytes) -> bool:
        """Whether a decoded frame's check bytes are right."""
        return check_ok(raw)

    def reset(self) -> None:
        """Forget a partial frame (after the port was reopened)."""
        self.dropped_bytes += len(self.buf)
        self.buf = bytearray()
        self.skipping = False

    def errors(self) -> int:
        return self.bad_cobs + self.bad_crc + self.too_short + self.oversize

    def feed(self, data: bytes) -> list[tuple[int, int, bytes]]:
        frames: list[tuple[int, int, bytes]] = []
        data = bytes(data)
        start = 0
        n = len(data)
        while start <= n:
            zero = data.find(b"\x00", start)
            end = n if zero < 0 else zero
            if end > start:
                self._add(data[start:end])
            if zero < 0:
                break
            if self.skipping:
                self.skipping = False
            elif self.buf:
                self._frame(bytes(self.buf), frames)
                self.buf = bytearray()
            start = zero + 1
        return frames

    def _add(self, piece: bytes) -> None:
        if self.skipping:
            self.dropped_bytes += len(piece)
            return
        if len(self.buf) + len(piece) > self.max_encoded:
            self.oversize += 1
            self.dropped_bytes += len(self.buf) + len(piece)
            self.buf = bytearray()
            self.skipping = True
            return
        self.buf += piece

    def _frame(self, encoded: bytes, frames: list[tuple[int, int, bytes]]) -> None:
        try:
            raw = cobs_decode(encoded)
        except CobsError:
            self.bad_cobs += 1
            self.dropped_bytes += len(encoded)
            return
        if len(raw) < 2 + self.check_bytes:
            self.too_short += 1
            self.dropped_bytes += len(encoded)
            return
        if not self.check(raw):
            older = self.fallback(raw) if self.fallback is not None else None
            if older is not None:
                self.older += 1
                frames.append(older)
                return
            self.bad_crc += 1
            self.dropped_bytes += len(encoded)
            return
        self.frames += 1
        frames.append((raw[0], raw[1], raw[2 : len(raw) - self.check_bytes]))


class QueueFull(Exception):
    """The reliable send queue is full; the message was not queued."""


class Endpoint:
    """One end of the reliable link, with no I/O and no clock of its own (sans-IO).

    ``feed(data, now_ms)`` takes received bytes and returns the messages to act on, each once:
    ``(type, body)``. ``send(type, body)`` queues a reliable message; ``control(type, body)``
    writes an unacknowledged one. ``poll(now_ms)`` returns the bytes to write now (the next
    reliable frame, retransmissions, acknowledgements, control frames). ``take_acked()``
    returns the reliable messages acknowledged since the last call. A HELLO or SYNC with a
    new session number (the board's boot id, the host's nonce) resets the receive numbering.
    """

    def __init__(self, retry_ms: int = 50, max_queue: int = 256) -> None:
        self.decoder = FrameDecoder()
        self.encode = encode_frame
        self.retry_ms = retry_ms
        self.max_queue = max_queue
        self.queue: list[tuple[int, bytes]] = []
        self.inflight: list | None = None  # [seq, frame, mtype, body, sent_at]
        self.acked: list[tuple[int, bytes]] = []
        self.out = bytearray()
        self.tx_seq = 0
        self.rx_last = -1
        self.peer_session = -1
        self.last_rx_ms = -1
        self.sent = 0
        self.retransmits = 0
        self.delivered = 0
        self.duplicates = 0
        self.malformed = 0
        self.stale_acks = 0

    def send(self, mtype: int, body: bytes) -> None:
        if mtype not in RELIABLE or not body_ok(mtype, body):
            raise ValueError("not a well-formed reliable message")
        if len(self.queue) >= self.max_queue:
            raise QueueFull()
        self.queue.append((mtype, body))

    def prepend(self, messages: list[tuple[int, bytes]]) -> None:
        """Put messages at the head of the queue (state restored after a board reset)."""
        self.queue = list(messages) + self.queue

    def control(self, mtype: int, body: bytes = b"") -> None:
        self.out += self.encode(mtype, 0, body)

    def write_raw(self, data: bytes) -> None:
        """Bytes to write as they are, with the next ``poll`` (a frame of another version)."""
        self.out += data

    def pending(self) -> int:
        return len(self.queue) + (1 if self.inflight is not None else 0)

    def requeue_inflight(self) -> None:
        """The peer restarted: whatever was in flight goes back to the head of the queue."""
        if self.inflight is not None:
            self.queue.insert(0, (self.inflight[2], self.inflight[3]))
            self.inflight = None

    def reset_rx(self) -> None:
        """The peer restarted its numbering: accept its next sequence number whatever it is."""
        self.rx_last = -1

    def take_acked(self) -> list[tuple[int, bytes]]:
        acked = self.acked
        self.acked = []
        return acked

    def feed(self, data: bytes, now_ms: int) -> list[tuple[int, bytes]]:
        messages: list[tuple[int, bytes]] = []
        for mtype, seq, body in self.decoder.feed(data):
            if not body_ok(mtype, body):
                self.malformed += 1
                continue
            self.last_rx_ms = now_ms
            if mtype == T_ACK:
                inflight = self.inflight
                if inflight is not None and inflight[0] == seq:
                    self.acked.append((inflight[2], inflight[3]))
                    self.inflight = None
                else:
                    self.stale_acks += 1
            elif mtype in RELIABLE:
                self.out += self.encode(T_ACK, seq)
                if seq == self.rx_last:
                    self.duplicates += 1
                else:
                    self.rx_last = seq
                    self.delivered += 1
                    messages.append((mtype, body))
            else:
                if mtype == T_HELLO or mtype == T_SYNC:
                    # the peer's session (board boot id, host nonce): a new one numbers its
                    # frames afresh, so forget the last sequence number, in stream order
                    session = _u16(body, 1)
                    if session != self.peer_session:
                        self.peer_session = session
                        self.rx_last = -1
                messages.append((mtype, body))
        return messages

    def poll(self, now_ms: int, reliable: bool = True) -> bytes:
        inflight = self.inflight
        if reliable:
            if inflight is None and self.queue:
                mtype, body = self.queue.pop(0)
                seq = self.tx_seq
                self.tx_seq = (seq + 1) & 0xFF
                frame = self.encode(mtype, seq, body)
                self.inflight = [seq, frame, mtype, body, now_ms]
                self.out += frame
                self.sent += 1
            elif inflight is not None and now_ms - inflight[4] >= self.retry_ms:
                inflight[4] = now_ms
                self.out += inflight[1]
                self.retransmits += 1
        if not self.out:
            return b""
        data = bytes(self.out)
        self.out = bytearray()
        return data
