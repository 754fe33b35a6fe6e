"""A seeded faulty channel and a trial that pushes frames through it between two endpoints.

Used by the fault test (which asserts) and by ``benchmarks/bench_serial.py`` (which prints).
Time is a fake millisecond counter, so a trial of 10,000 commands takes seconds, not minutes.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from firmware_bridge import legacy, wire


@dataclass(frozen=True, slots=True)
class FaultRates:
    """Chance per frame of each fault (several can hit one frame), and per bit of a bit flip."""

    corrupt: float = 0.05  # overwrite 1..3 bytes of the frame (each xor a random 1..255)
    truncate: float = 0.03  # cut the frame short
    duplicate: float = 0.03  # send the frame twice
    drop: float = 0.03  # lose the frame
    garbage: float = 0.02  # insert 1..24 random bytes before the frame
    bit_flip: float = 0.0  # chance of each bit on the wire (delimiters too) to be flipped

    def describe(self) -> str:
        return (
            f"per frame: corrupt {self.corrupt:.0%} (1..3 bytes), truncate {self.truncate:.0%},"
            f" duplicate {self.duplicate:.0%}, drop {self.drop:.0%}, insert 1..24 random bytes"
            f" {self.garbage:.0%}; per bit: flip {self.bit_flip:g}"
        )


# The harsh line of the serial trial: every frame of 30 bytes has a 21 % chance of a bit flip
# on top of the whole-frame faults, and half the frames are hit by something.
HARSH = FaultRates(corrupt=0.2, truncate=0.1, duplicate=0.1, drop=0.15, garbage=0.1, bit_flip=1e-3)


@dataclass(slots=True)
class FaultyChannel:
    """One direction of a byte link that damages whole frames at random (seeded)."""

    rng: random.Random
    rates: FaultRates
    corrupted: int = 0
    truncated: int = 0
    duplicated: int = 0
    dropped: int = 0
    garbage: int = 0
    bit_flipped: int = 0
    frames: int = 0
    buffer: bytearray = field(default_factory=bytearray)
    intact: set[bytes] = field(default_factory=set)  # every frame as it was written

    @property
    def altered(self) -> int:
        """Frames whose bytes the channel changed, plus bursts of bytes it inserted."""
        return self.corrupted + self.truncated + self.bit_flipped + self.garbage

    def write(self, data: bytes) -> None:
        for piece in data.split(b"\x00"):
            if piece:
                self.intact.add(piece)
                self._frame(b"\x00" + piece + b"\x00")

    def _flip_bits(self, frame: bytearray) -> bool:
        rate = self.rates.bit_flip
        if rate <= 0:
            return False
        rng = self.rng
        log_keep = math.log1p(-rate)
        bits = 8 * len(frame)
        at = int(math.log(1.0 - rng.random()) / log_keep)  # bits until the next flip
        flipped = False
        while at < bits:
            frame[at >> 3] ^= 1 << (at & 7)
            flipped = True
            at += 1 + int(math.log(1.0 - rng.random()) / log_keep)
        return flipped

    def _frame(self, frame: bytes) -> None:
        rng, rates = self.rng, self.rates
        self.frames += 1
        if rng.random() < rates.garbage:
            self.garbage += 1
            self.buffer += rng.randbytes(rng.randint(1, 24))
        if rng.random() < rates.drop:
            self.dropped += 1
            return
        damaged = bytearray(frame)
        if rng.random() < rates.corrupt:
            self.corrupted += 1
            for _ in range(rng.randint(1, 3)):
                damaged[rng.randrange(len(damaged))] ^= rng.randint(1, 255)
        if rng.random() < rates.truncate:
            self.truncated += 1
            del damaged[rng.randrange(1, len(damaged)) :]
        if self._flip_bits(damaged):
            self.bit_flipped += 1
        self.buffer += damaged
        if rng.random() < rates.duplicate:
            self.duplicated += 1
            self.buffer += damaged

    def read(self) -> bytes:
        data = bytes(self.buffer)
        self.buffer.clear()
        return data


class AuditedDecoder(wire.FrameDecoder):
    """A frame decoder that knows every frame its peer wrote on ``channel``, so that it counts
    the damaged frames that passed the CRC (``passed_damaged``) and those of them whose body
    also has the right shape, which the endpoint would act on (``acted_on_damaged``)."""

    def __init__(self, channel: FaultyChannel, protocol: int = wire.VERSION) -> None:
        super().__init__()
        self.channel = channel
        self.protocol = protocol
        self.encode = wire.encode_frame
        if protocol == legacy.V1:  # the baseline: frames closed by a CRC-16
            self.check_bytes = legacy.V1_CHECK_BYTES
            self.encode = legacy.encode_v1_frame
        self.passed_damaged = 0
        self.acted_on_damaged = 0

    def check(self, raw: bytes) -> bool:
        if self.protocol == legacy.V1:
            return legacy.v1_check_ok(raw)
        return wire.check_ok(raw)

    def feed(self, data: bytes) -> list[tuple[int, int, bytes]]:
        frames = super().feed(data)
        for mtype, seq, body in frames:
            if self.encode(mtype, seq, body)[1:-1] not in self.channel.intact:
                self.passed_damaged += 1
                if wire.body_ok(mtype, body):
                    self.acted_on_damaged += 1
        return frames


@dataclass(frozen=True, slots=True)
class TrialReport:
    """The figures of one fault trial."""

    seed: int
    commands: int
    reports: int
    delivered_commands: int
    delivered_reports: int
    lost: int
    duplicated_deliveries: int
    corrupted_acted_on: int
    out_of_order: int
    frames_on_wire: int
    retransmits: int
    damaged_frames: int
    rejected_bad_crc: int
    rejected_bad_cobs: int
    rejected_short: int
    rejected_oversize: int
    rejected_malformed: int
    duplicates_suppressed: int
    altered_frames: int  # frames whose bytes the channel changed, and inserted bursts
    damaged_passed_check: int  # damaged frames that passed COBS, length and CRC
    damaged_acted_on: int  # ... and had a well-formed body: the endpoint acted on them
    simulated_ms: int
    wall_s: float

    @property
    def exactly_once(self) -> bool:
        return self.lost == 0 and self.duplicated_deliveries == 0 and self.out_of_order == 0


def command_body(i: int) -> bytes:
    """A distinct, well-formed SET_LIGHT body for command number ``i``."""
    steps = [((i >> 16) & 0xFF, (i >> 8) & 0xFF, i & 0xFF, i % 1000)]
    return wire.pack_set_light(i % 4, i % 2, i % 7, steps)


def report_body(i: int) -> bytes:
    """A distinct ERROR body for the board-to-host direction."""
    return wire.pack_error(i % 3 + 1, f"report {i}")


def _compare(sent: list[bytes], got: list[bytes]) -> tuple[int, int, int, int]:
    """(lost, duplicated, corrupted, out of order) of ``got`` against ``sent``."""
    known = set(sent)
    corrupted = sum(1 for body in got if body not in known)
    counts: dict[bytes, int] = {}
    for body in got:
        counts[body] = counts.get(body, 0) + 1
    duplicated = sum(n - 1 for n in counts.values() if n > 1)
    lost = sum(1 for body in sent if body not in counts)
    genuine = [body for body in got if body in known]
    out_of_order = (
        0 if genuine == sent else sum(1 for a, b in zip(genuine, sent, strict=False) if a != b)
    )
    return lost, duplicated, corrupted, out_of_order


def _next_retry(endpoint: wire.Endpoint) -> int:
    """The millisecond at which ``endpoint`` next writes on its own (a retransmission)."""
    inflight = endpoint.inflight
    if inflight is not None:
        return int(inflight[4]) + endpoint.retry_ms
    return 0 if endpoint.queue else 1 << 62


def run_fault_trial(
    *,
    commands: int = 10_000,
    reports: int = 2_000,
    seed: int = 20240611,
    rates: FaultRates | None = None,
    retry_ms: int = 20,
    max_ms: int = 10_000_000,
    protocol: int = wire.VERSION,
) -> TrialReport:
    """Send ``commands`` host-to-board and ``reports`` board-to-host through faulty channels.

    ``protocol=1`` runs the same trial with version 1's frames (CRC-16), as a baseline.
    """
    rates = rates or FaultRates()
    rng = random.Random(seed)
    to_board = FaultyChannel(random.Random(rng.getrandbits(64)), rates)
    to_host = FaultyChannel(random.Random(rng.getrandbits(64)), rates)
    host = wire.Endpoint(retry_ms=retry_ms, max_queue=commands + 1)
    board = wire.Endpoint(retry_ms=retry_ms, max_queue=reports + 1)
    host_decoder = AuditedDecoder(to_host, protocol)
    if protocol == wire.VERSION:
        host_decoder.fallback = legacy.v1_hello  # as the host's link has it
    else:
        host.encode = board.encode = legacy.encode_v1_frame
    board_decoder = AuditedDecoder(to_board, protocol)
    host.decoder, board.decoder = host_decoder, board_decoder
    sent = [command_body(i) for i in range(commands)]
    sent_reports = [report_body(i) for i in range(reports)]
    for body in sent:
        host.send(wire.T_SET_LIGHT, body)
    for body in sent_reports:
        board.send(wire.T_ERROR, body)
    got: list[bytes] = []
    got_reports: list[bytes] = []
    started = time.perf_counter()
    now = 0
    while (host.pending() or board.pending()) and now < max_ms:
        to_the_board = host.poll(now)
        to_board.write(to_the_board)
        for mtype, body in board.feed(to_board.read(), now):
            if mtype == wire.T_SET_LIGHT:
                got.append(body)
        to_the_host = board.poll(now)
        to_host.write(to_the_host)
        for mtype, body in host.feed(to_host.read(), now):
            if mtype == wire.T_ERROR:
                got_reports.append(body)
        if to_the_board or to_the_host or host.out or board.out:
            now += 1
        else:  # nothing on the line: skip to the next retransmission (the same run, sooner)
            now = max(now + 1, min(_next_retry(host), _next_retry(board)))
    wall = time.perf_counter() - started
    lost, dup, bad, order = _compare(sent, got)
    lost_r, dup_r, bad_r, order_r = _compare(sent_reports, got_reports)
    decoders = (host_decoder, board_decoder)
    return TrialReport(
        seed=seed,
        commands=commands,
        reports=reports,
        delivered_commands=len(got),
        delivered_reports=len(got_reports),
        lost=lost + lost_r,
        duplicated_deliveries=dup + dup_r,
        corrupted_acted_on=bad + bad_r,
        out_of_order=order + order_r,
        frames_on_wire=to_board.frames + to_host.frames,
        retransmits=host.retransmits + board.retransmits,
        damaged_frames=sum(
            c.corrupted + c.truncated + c.duplicated + c.dropped for c in (to_board, to_host)
        ),
        rejected_bad_crc=sum(d.bad_crc for d in decoders),
        rejected_bad_cobs=sum(d.bad_cobs for d in decoders),
        rejected_short=sum(d.too_short for d in decoders),
        rejected_oversize=sum(d.oversize for d in decoders),
        rejected_malformed=host.malformed + board.malformed,
        duplicates_suppressed=host.duplicates + board.duplicates,
        altered_frames=to_board.altered + to_host.altered,
        damaged_passed_check=sum(d.passed_damaged for d in decoders),
        damaged_acted_on=sum(d.acted_on_damaged for d in decoders),
        simulated_ms=now,
        wall_s=wall,
    )
