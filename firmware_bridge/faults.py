"""A seeded faulty channel and a trial that pushes frames through it between two endpoints.

Used by the fault test (which asserts) and by ``benchmarks/bench_serial.py`` (which prints).
Time is a fake millisecond counter, so a trial of 10,000 commands takes seconds, not minutes.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from firmware_bridge import wire


@dataclass(frozen=True, slots=True)
class FaultRates:
    """Chance per frame of each fault (several can hit one frame)."""

    corrupt: float = 0.05  # flip 1..3 bytes
    truncate: float = 0.03  # cut the frame short
    duplicate: float = 0.03  # send the frame twice
    drop: float = 0.03  # lose the frame
    garbage: float = 0.02  # random bytes before the frame


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
    frames: int = 0
    buffer: bytearray = field(default_factory=bytearray)

    def write(self, data: bytes) -> None:
        for piece in data.split(b"\x00"):
            if piece:
                self._frame(b"\x00" + piece + b"\x00")

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
        self.buffer += damaged
        if rng.random() < rates.duplicate:
            self.duplicated += 1
            self.buffer += damaged

    def read(self) -> bytes:
        data = bytes(self.buffer)
        self.buffer.clear()
        return data


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


def run_fault_trial(
    *,
    commands: int = 10_000,
    reports: int = 2_000,
    seed: int = 20240611,
    rates: FaultRates | None = None,
    retry_ms: int = 20,
    max_ms: int = 10_000_000,
) -> TrialReport:
    """Send ``commands`` host-to-board and ``reports`` board-to-host through faulty channels."""
    rates = rates or FaultRates()
    rng = random.Random(seed)
    to_board = FaultyChannel(random.Random(rng.getrandbits(64)), rates)
    to_host = FaultyChannel(random.Random(rng.getrandbits(64)), rates)
    host = wire.Endpoint(retry_ms=retry_ms, max_queue=commands + 1)
    board = wire.Endpoint(retry_ms=retry_ms, max_queue=reports + 1)
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
        to_board.write(host.poll(now))
        for mtype, body in board.feed(to_board.read(), now):
            if mtype == wire.T_SET_LIGHT:
                got.append(body)
        to_host.write(board.poll(now))
        for mtype, body in host.feed(to_host.read(), now):
            if mtype == wire.T_ERROR:
                got_reports.append(body)
        now += 1
    wall = time.perf_counter() - started
    lost, dup, bad, order = _compare(sent, got)
    lost_r, dup_r, bad_r, order_r = _compare(sent_reports, got_reports)
    decoders = (host.decoder, board.decoder)
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
        simulated_ms=now,
        wall_s=wall,
    )
