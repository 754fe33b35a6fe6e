"""The board's own COBS and CRC-32 (firmware/framing.py) agree with the host's: the ``cobs``
package and the standard library's CRC-32, on many seeded random inputs."""

from __future__ import annotations

import random
import zlib

import pytest
from cobs import cobs

from firmware_bridge import wire
from firmware_bridge.firmware import framing


def test_the_table_less_crc32_is_zlibs_crc32() -> None:
    rng = random.Random(32)
    assert framing.crc32_bitwise(b"123456789") == 0xCBF43926
    assert framing.crc32_bitwise(b"") == zlib.crc32(b"") == 0
    for _ in range(2_000):
        data = rng.randbytes(rng.randrange(0, 300))
        assert framing.crc32_bitwise(data) == zlib.crc32(data)
        start = rng.getrandbits(32)  # a running CRC continued, as binascii.crc32(data, crc)
        assert framing.crc32_bitwise(data, start) == zlib.crc32(data, start)


def test_the_boards_cobs_matches_the_cobs_package() -> None:
    rng = random.Random(254)
    for _ in range(2_000):
        # zero-heavy and zero-free runs both, up to the longest frame and past 254 bytes
        zeros = rng.random()
        data = bytes(
            0 if rng.random() < zeros else rng.randrange(1, 256)
            for _ in range(rng.randrange(0, 600))
        )
        mine = framing.cobs_encode(data)
        assert 0 not in mine
        assert framing.cobs_decode(mine) == data
        assert cobs.decode(mine) == data
        assert framing.cobs_decode(cobs.encode(data)) == data
        if len(data) < 254:  # every Kibic frame: the same bytes on the wire from either side
            assert mine == cobs.encode(data)


def test_the_boards_cobs_refuses_what_the_cobs_package_refuses() -> None:
    rng = random.Random(7)
    refused = 0
    for _ in range(3_000):
        data = rng.randbytes(rng.randrange(1, 40))
        try:
            expected: bytes | None = cobs.decode(data)
        except cobs.DecodeError:
            expected = None
        if expected is None:
            refused += 1
            with pytest.raises(framing.CobsError):
                framing.cobs_decode(data)
        else:
            assert framing.cobs_decode(data) == expected
    assert refused > 1_000


def test_a_frame_built_with_the_boards_framing_is_the_hosts_frame() -> None:
    rng = random.Random(2)
    for i in range(500):
        steps = [
            (rng.randrange(256), rng.randrange(256), rng.randrange(256), rng.randrange(65536))
            for _ in range(i % 16 + 1)
        ]
        body = wire.pack_set_light(i % 4, i % 2, i % 7, steps)
        raw = bytes((wire.T_SET_LIGHT, i & 0xFF)) + body
        check = framing.crc32_bitwise(raw).to_bytes(4, "big")
        assert b"\x00" + framing.cobs_encode(raw + check) + b"\x00" == wire.encode_frame(
            wire.T_SET_LIGHT, i, body
        )
