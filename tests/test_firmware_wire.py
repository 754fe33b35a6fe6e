"""The wire protocol: CRC, COBS, framing, the sans-IO endpoint, and hostile input."""

from __future__ import annotations

import random
import tracemalloc

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import wire


def test_crc_and_cobs_known_values() -> None:
    assert wire.crc16(b"123456789") == 0x29B1  # the CRC-16/CCITT-FALSE check value
    assert wire.cobs_encode(b"") == b"\x01"
    assert wire.cobs_encode(b"\x00") == b"\x01\x01"
    assert wire.cobs_encode(b"\x11\x22\x00\x33") == b"\x03\x11\x22\x02\x33"
    assert wire.cobs_encode(bytes(range(1, 255))) == b"\xff" + bytes(range(1, 255)) + b"\x01"
    assert wire.cobs_decode(b"\x03\x11\x22\x02\x33") == b"\x11\x22\x00\x33"


@given(st.binary(max_size=600))
def test_cobs_round_trips_and_never_emits_zero(data: bytes) -> None:
    encoded = wire.cobs_encode(data)
    assert 0 not in encoded
    assert wire.cobs_decode(encoded) == data


def test_frame_bytes_are_exact() -> None:
    frame = wire.encode_frame(wire.T_BUTTON, 3, wire.pack_button(2, wire.BUTTON_UNDO))
    raw = bytes([0x20, 3, 2, 2])
    crc = wire.crc16(raw)
    assert frame == b"\x00" + wire.cobs_encode(raw + bytes([crc >> 8, crc & 0xFF])) + b"\x00"


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
