"""Protocol version 1 (frames closed by a CRC-16), known to the host only to refuse it by name.

A board still running version-1 firmware cannot read version-2 frames (their CRC-32 fails its
CRC-16), so the host, while it waits for a HELLO, also sends a SYNC in the version-1 layout
(:func:`encode_v1_frame`) and reads a version-1 HELLO (:func:`v1_hello`): the link then stops
with "board speaks protocol 1, this host speaks 2" instead of waiting in silence. Nothing
else of version 1 is accepted: a frame that fails the CRC-32 and is not exactly a version-1
HELLO is dropped as damaged. :class:`V1Endpoint` speaks version 1 throughout, for the
simulated old board.
"""

from __future__ import annotations

from binascii import crc_hqx

from firmware_bridge import wire

V1 = 1
V1_CHECK_BYTES = 2
_V1_HELLO_RAW = 2 + 5 + V1_CHECK_BYTES  # type, seq, the HELLO body, CRC-16


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE, version 1's frame check (the standard library's ``crc_hqx``).

    >>> hex(crc16(b"123456789"))
    '0x29b1'
    """
    return crc_hqx(data, 0xFFFF)


def v1_check_ok(raw: bytes) -> bool:
    """Whether the last two bytes of a decoded version-1 frame are the CRC-16 of the rest."""
    return crc16(raw[:-2]) == (raw[-2] << 8) | raw[-1]


def encode_v1_frame(mtype: int, seq: int, body: bytes = b"") -> bytes:
    """One delimited frame in the version-1 layout: ``00 | COBS(type, seq, body, crc16) | 00``."""
    raw = bytes((mtype & 0xFF, seq & 0xFF)) + body
    crc = crc16(raw)
    return b"\x00" + wire.cobs_encode(raw + bytes((crc >> 8, crc & 0xFF))) + b"\x00"


def v1_hello(raw: bytes) -> tuple[int, int, bytes] | None:
    """The frame of a version-1 board's HELLO (``FrameDecoder.fallback``), else None.

    Only a HELLO of exactly the version-1 shape, whose body says version 1, whose CRC-16
    holds, passes: a damaged version-2 frame of any other kind stays refused.
    """
    if len(raw) != _V1_HELLO_RAW or raw[0] != wire.T_HELLO or raw[2] != V1:
        return None
    if not v1_check_ok(raw):
        return None
    return raw[0], raw[1], raw[2:-V1_CHECK_BYTES]


class V1FrameDecoder(wire.FrameDecoder):
    """A decoder of version-1 frames (CRC-16)."""

    check_bytes = V1_CHECK_BYTES

    def check(self, raw: bytes) -> bool:
        return v1_check_ok(raw)


class V1Endpoint(wire.Endpoint):
    """An endpoint that speaks version 1 throughout (the simulated old board's)."""

    def __init__(self, retry_ms: int = 50, max_queue: int = 256) -> None:
        super().__init__(retry_ms=retry_ms, max_queue=max_queue)
        self.decoder = V1FrameDecoder()
        self.encode = encode_v1_frame
