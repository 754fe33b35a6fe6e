"""The wire protocol: CRC, COBS, framing, the sans-IO endpoint, and hostile input."""

from __future__ import annotations

import random
import tracemalloc
import zlib

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import legacy, wire


def test_crc_and_cobs_known_values() -> None:
    assert wire.crc32(b"123456789") == 0xCBF43926  # the CRC-32 (ISO-HDLC) check value
    assert wire.cobs_encode(b"") == b"\x01"
    assert wire.cobs_encode(b"\x00") == b"\x01\x01"
    assert wire.cobs_encode(b"\x11\x22\x00\x33") == b"\x03\x11\x22\x02\x33"
    assert wire.cobs_encode(bytes(range(1, 254))) == b"\xfe" + bytes(range(1, 254))
    assert wire.cobs_decode(b"\x03\x11\x22\x02\x33") == b"\x11\x22\x00\x33"


@given(st.binary(max_size=600))
def test_cobs_round_trips_and_never_emits_zero(data: bytes) -> None:
    encoded = wire.cobs_encode(data)
    assert 0 not in encoded
    assert wire.cobs_decode(encoded) == data


def test_frame_bytes_are_exact() -> None:
    frame = wire.encode_frame(wire.T_BUTTON, 3, wire.pack_button(2, wire.BUTTON_UNDO))
    raw = bytes([0x20, 3, 2, 2])
    assert frame == b"\x00" + wire.cobs_encode(raw + zlib.crc32(raw).to_bytes(4, "big")) + b"\x00"


def test_decoder_takes_a_frame_one_byte_at_a_time_and_skips_noise() -> None:
    frames = [wire.encode_frame(wire.T_BUZZ, i, wire.pack_buzz(i, 2 * i, 1)) for i in range(5)]
    stream = (
        b"boot banner\r\n>>> "
        + b"".join(frames[:2])
        + b"\x00\x00\x01\x01\x00"
        + b"".join(frames[2:])
    )
    decoder = wire.FrameDecoder()
    got = []
    for byte in stream:
        got += decoder.feed(bytes([byte]))
    assert got == [(wire.T_BUZZ, i, wire.pack_buzz(i, 2 * i, 1)) for i in range(5)]
    assert (decoder.frames, decoder.bad_cobs, decoder.too_short, decoder.bad_crc) == (5, 1, 1, 0)


def test_truncated_frame_costs_only_itself() -> None:
    good = wire.encode_frame(wire.T_HEARTBEAT, 0)
    cut = wire.encode_frame(wire.T_BUZZ, 1, wire.pack_buzz(5, 5, 5))[:-4]
    decoder = wire.FrameDecoder()
    assert decoder.feed(cut + good) == [(wire.T_HEARTBEAT, 0, b"")]
    assert decoder.errors() == 1


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=400), max_size=20))
def test_hostile_bytes_never_raise_nor_grow_the_buffer(chunks: list[bytes]) -> None:
    endpoint = wire.Endpoint()
    for chunk in chunks:
        endpoint.feed(chunk, 0)
        assert len(endpoint.decoder.buf) <= wire.MAX_ENCODED
    assert endpoint.delivered == 0 or endpoint.decoder.frames > 0


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 255), st.integers(0, 255), st.binary(max_size=120))
def test_checked_frames_with_any_type_and_body_never_raise(
    mtype: int, seq: int, body: bytes
) -> None:
    endpoint = wire.Endpoint()
    got = endpoint.feed(wire.encode_frame(mtype, seq, body), 0)
    if wire.body_ok(mtype, body) and mtype != wire.T_ACK:
        assert got == [(mtype, body)]
    else:
        assert got == []
        assert endpoint.malformed == (0 if wire.body_ok(mtype, body) else 1)


def test_a_megabyte_without_delimiter_is_dropped_in_bounded_memory() -> None:
    rng = random.Random(11)
    decoder = wire.FrameDecoder()
    tracemalloc.start()
    for _ in range(256):
        decoder.feed(bytes(b or 1 for b in rng.randbytes(4096)))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert len(decoder.buf) == 0 and decoder.skipping
    assert decoder.oversize == 1 and decoder.dropped_bytes == 256 * 4096
    assert peak < 64 * 1024  # a few chunks' worth, not the megabyte
    assert decoder.feed(wire.encode_frame(wire.T_HEARTBEAT, 0)) == [(wire.T_HEARTBEAT, 0, b"")]


def test_endpoint_exactly_once_with_lost_ack_and_retransmission() -> None:
    host, board = wire.Endpoint(retry_ms=10), wire.Endpoint(retry_ms=10)
    host.send(wire.T_BUZZ, wire.pack_buzz(1, 2, 3))
    frame = host.poll(0)
    assert board.feed(frame, 0) == [(wire.T_BUZZ, wire.pack_buzz(1, 2, 3))]
    board.poll(0)  # the ack is lost
    assert host.poll(5) == b""  # not yet time to retry
    again = host.poll(10)
    assert again == frame and host.retransmits == 1
    assert board.feed(again, 10) == []  # a duplicate: acknowledged, not delivered
    host.feed(board.poll(10), 10)
    assert host.pending() == 0 and host.take_acked() == [(wire.T_BUZZ, wire.pack_buzz(1, 2, 3))]
    assert board.duplicates == 1


def test_queue_is_bounded_and_refuses_malformed_messages() -> None:
    endpoint = wire.Endpoint(max_queue=2)
    endpoint.send(wire.T_BUZZ, wire.pack_buzz(1, 1, 1))
    endpoint.send(wire.T_BUZZ, wire.pack_buzz(1, 1, 1))
    try:
        endpoint.send(wire.T_BUZZ, wire.pack_buzz(1, 1, 1))
        raise AssertionError("a full queue took a message")
    except wire.QueueFull:
        pass
    try:
        endpoint.send(wire.T_BUZZ, b"\x01")
        raise AssertionError("a malformed message was queued")
    except ValueError:
        pass
    assert endpoint.pending() == 2


def test_message_packing_round_trips() -> None:
    assert wire.unpack_bar(wire.pack_bar(1, -40000, 0)) == (1, -32768, 1)
    assert wire.unpack_hello(wire.pack_hello(1, 0xBEEF, 4, 12)) == (1, 0xBEEF, 4, 12)
    steps = [(1, 2, 3, 400), (0, 0, 0, 65535)]
    assert wire.unpack_set_light(wire.pack_set_light(3, 1, 9, steps)) == (3, 1, 9, steps)
    assert wire.unpack_error(wire.pack_error(2, "é" * 40)) == (2, "é" * 32)
    assert wire.unpack_error(b"\x02\xff\xfe") == (2, "?")


# -- the frame check (protocol version 2: CRC-32) ------------------------------------------------

# A board-to-host frame that a harsh line damaged and the CRC-16 of protocol version 1 let
# through (seed 4 of the 20-seed, 72,000-message trial): it was acted on as an ERROR report.
DAMAGED_IN_THE_HARSH_TRIAL = bytes.fromhex("000e2109017265706f72742039aef60100")


def keep_crc16(raw: bytes, at: int) -> bytes:
    """``raw`` with bits flipped at byte ``at`` by the CRC-16/CCITT generator (x^16 + x^12 +
    x^5 + 1) shifted into place: damage that leaves the CRC-16 of the whole unchanged."""
    pattern = (0x11021 << 7).to_bytes(3, "big")  # 17 bits, aligned to byte ``at``
    damaged = bytearray(raw)
    for i, bits in enumerate(pattern):
        damaged[at + i] ^= bits
    return bytes(damaged)


def test_damage_that_keeps_the_crc16_is_refused() -> None:
    body = wire.pack_set_light(2, wire.LAYER_BASE, 0, [(255, 0, 0, 500), (0, 0, 0, 500)])
    raw = bytes((wire.T_SET_LIGHT, 9)) + body
    damaged = keep_crc16(raw, 6)  # the colour of the first step: a wrong colour shown
    assert damaged != raw and wire.body_ok(wire.T_SET_LIGHT, damaged[2:])
    assert legacy.crc16(damaged) == legacy.crc16(raw)  # version 1 could not have told
    v1 = legacy.V1FrameDecoder()
    crc16 = legacy.crc16(raw).to_bytes(2, "big")
    assert v1.feed(b"\x00" + wire.cobs_encode(damaged + crc16) + b"\x00") == [
        (wire.T_SET_LIGHT, 9, damaged[2:])
    ]
    decoder = wire.FrameDecoder()
    decoder.fallback = legacy.v1_hello  # as the host's link has it
    crc32 = zlib.crc32(raw).to_bytes(4, "big")
    assert decoder.feed(b"\x00" + wire.cobs_encode(damaged + crc32) + b"\x00") == []
    assert (decoder.bad_crc, decoder.frames, decoder.older) == (1, 0, 0)


def test_the_frame_damaged_in_the_harsh_trial_is_refused() -> None:
    v1 = legacy.V1FrameDecoder()
    assert v1.feed(DAMAGED_IN_THE_HARSH_TRIAL) == [(wire.T_ERROR, 9, b"\x01report 9\xae")]
    decoder = wire.FrameDecoder()
    decoder.fallback = legacy.v1_hello
    assert decoder.feed(DAMAGED_IN_THE_HARSH_TRIAL) == []
    assert decoder.bad_crc == 1


def test_only_a_version_1_hello_passes_as_an_older_frame() -> None:
    decoder = wire.FrameDecoder()
    decoder.fallback = legacy.v1_hello
    hello = legacy.encode_v1_frame(wire.T_HELLO, 0, wire.pack_hello(1, 0x4B00, 4, 12))
    assert decoder.feed(hello) == [(wire.T_HELLO, 0, wire.pack_hello(1, 0x4B00, 4, 12))]
    # a version-1 frame claiming this version, or any other version-1 message, is refused
    claims_v2 = legacy.encode_v1_frame(wire.T_HELLO, 0, wire.pack_hello(2, 0x4B00, 4, 12))
    button = legacy.encode_v1_frame(wire.T_BUTTON, 3, wire.pack_button(1, wire.BUTTON_CONFIRM))
    assert decoder.feed(claims_v2 + button) == []
    assert (decoder.older, decoder.bad_crc) == (1, 2)


def test_a_delimiter_turned_into_an_empty_cobs_block_is_refused() -> None:
    # One bit flip turns the closing 00 into 01, an empty COBS block: the frame decodes with a
    # zero byte appended. A CRC with no final xor (version 1's CRC-16) still matches, one byte
    # along, so an ERROR report arrived with a stray byte: the failure of the harsh trial.
    body = wire.pack_error(wire.ERR_BAD_SEAT, "no seat 6")
    v1 = legacy.encode_v1_frame(wire.T_ERROR, 4, body)
    v2 = wire.encode_frame(wire.T_ERROR, 4, body)
    raw_v1 = bytes((wire.T_ERROR, 4)) + body
    stray = legacy.crc16(raw_v1).to_bytes(2, "big")[:1]
    assert legacy.V1FrameDecoder().feed(v1[:-1] + b"\x01\x00") == [(wire.T_ERROR, 4, body + stray)]
    decoder = wire.FrameDecoder()
    assert decoder.feed(v2[:-1] + b"\x01\x00") == [] and decoder.bad_crc == 1


def test_every_one_and_two_bit_flip_of_a_frame_is_refused() -> None:
    # (protocol 1 let 3 of these 16,692 through, all with the closing delimiter flipped)
    frames = [
        wire.encode_frame(wire.T_ERROR, 200, wire.pack_error(wire.ERR_QUEUE_FULL, "queue full")),
        wire.encode_frame(wire.T_ACK, 17),
        wire.encode_frame(wire.T_SET_BAR, 3, wire.pack_bar(1, -40, 101)),
    ]
    for frame in frames:
        bits = 8 * len(frame)
        for first in range(bits):
            for second in range(first, bits):  # second == first: one flip
                damaged = bytearray(frame)
                damaged[first >> 3] ^= 1 << (first & 7)
                if second != first:
                    damaged[second >> 3] ^= 1 << (second & 7)
                # the next frame's opening delimiter closes a frame whose own was flipped
                got = wire.FrameDecoder().feed(bytes(damaged) + b"\x00")
                assert all(wire.encode_frame(*f) == frame for f in got), (first, second)
