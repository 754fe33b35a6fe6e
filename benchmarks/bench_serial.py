"""Serial link figures: frames through a seeded faulty channel, the harsh-line trial (damaged
frames acted on, goal 0), and the framing's raw speed.

Run: .venv/bin/python benchmarks/bench_serial.py [--commands N] [--seeds S ...]
     [--harsh-messages N | --million] [--baseline-messages N] [--jobs J]
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

from firmware_bridge import wire
from firmware_bridge.faults import HARSH, FaultRates, TrialReport, run_fault_trial
from firmware_bridge.patterns import PATTERNS, Pattern
from firmware_bridge.serial_lights import light_body

HARSH_PER_SEED = 2_000  # messages per seed, half each way
HARSH_FIRST_SEED = 1_000  # clear of the seeds the tests use


def show(title: str, report: TrialReport) -> None:
    print(f"\n{title} (seed {report.seed})")
    rows = [
        (
            "commands host->board sent / delivered",
            f"{report.commands} / {report.delivered_commands}",
        ),
        ("reports board->host sent / delivered", f"{report.reports} / {report.delivered_reports}"),
        ("frames put on the wire (all kinds)", report.frames_on_wire),
        ("frames damaged by the channel", report.damaged_frames),
        (
            "rejected: bad CRC / bad COBS / short / oversize",
            f"{report.rejected_bad_crc} / {report.rejected_bad_cobs} / {report.rejected_short}"
            f" / {report.rejected_oversize}",
        ),
        ("rejected: well-formed CRC, malformed body", report.rejected_malformed),
        ("retransmissions", report.retransmits),
        ("duplicates suppressed", report.duplicates_suppressed),
        ("corrupted messages delivered", report.corrupted_acted_on),
        ("damaged frames acted on", report.damaged_acted_on),
        (
            "lost / delivered twice / out of order",
            f"{report.lost} / {report.duplicated_deliveries} / {report.out_of_order}",
        ),
        ("simulated time (ms)", report.simulated_ms),
        ("wall time (s)", f"{report.wall_s:.2f}"),
    ]
    for name, value in rows:
        print(f"  {name:<50} {value}")


def _harsh_seed(seed_and_protocol: tuple[int, int]) -> TrialReport:
    seed, protocol = seed_and_protocol
    half = HARSH_PER_SEED // 2
    return run_fault_trial(commands=half, reports=half, seed=seed, rates=HARSH, protocol=protocol)


def harsh_trial(messages: int, jobs: int, protocol: int = wire.VERSION) -> None:
    """``messages`` over the harsh line, both ways, ``HARSH_PER_SEED`` per seed."""
    seeds = range(HARSH_FIRST_SEED, HARSH_FIRST_SEED + max(1, messages // HARSH_PER_SEED))
    work = [(seed, protocol) for seed in seeds]
    started = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            reports = list(pool.map(_harsh_seed, work, chunksize=4))
    else:
        reports = [_harsh_seed(item) for item in work]
    wall = time.perf_counter() - started

    def total(name: str) -> int:
        return sum(getattr(r, name) for r in reports)

    caught = sum(
        r.rejected_bad_crc + r.rejected_bad_cobs + r.rejected_short + r.rejected_oversize
        for r in reports
    )
    check = "CRC-32" if protocol == wire.VERSION else "CRC-16"
    print(
        f"\nharsh line, protocol {protocol} ({check}), seeds {seeds.start}..{seeds.stop - 1}"
        f" ({len(seeds)} seeds)"
    )
    print(f"  {HARSH.describe()}")
    rows = [
        (
            "messages sent host->board / board->host",
            f"{total('commands')} / {total('reports')}",
        ),
        ("messages delivered", total("delivered_commands") + total("delivered_reports")),
        ("frames put on the wire (all kinds)", total("frames_on_wire")),
        ("frames damaged by the channel (bytes changed)", total("altered_frames")),
        (f"damaged frames caught by COBS, length or {check}", caught),
        (f"damaged frames past the {check}, refused by shape", total("rejected_malformed")),
        (f"damaged frames that passed the {check}", total("damaged_passed_check")),
        ("damaged frames acted on (goal 0)", total("damaged_acted_on")),
        (
            "lost / delivered twice / out of order",
            f"{total('lost')} / {total('duplicated_deliveries')} / {total('out_of_order')}",
        ),
        ("wall time (s)", f"{wall:.1f} ({jobs} process{'es' if jobs > 1 else ''})"),
    ]
    for name, value in rows:
        print(f"  {name:<50} {value}")


def framing_speed() -> None:
    body = light_body(2, Pattern.REVOKE_PROVEN)
    n = 20_000
    started = time.perf_counter()
    frames = b"".join(wire.encode_frame(wire.T_SET_LIGHT, i, body) for i in range(n))
    encoded = time.perf_counter() - started
    decoder = wire.FrameDecoder()
    started = time.perf_counter()
    got = decoder.feed(frames)
    decoded = time.perf_counter() - started
    assert len(got) == n
    print(
        f"\nframing: {n} SET_LIGHT frames of {len(frames) // n} bytes "
        f"({len(PATTERNS[Pattern.REVOKE_PROVEN].steps)}-step pattern)"
    )
    print(f"  encode {n / encoded:,.0f} frames/s, decode {n / decoded:,.0f} frames/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--commands", type=int, default=10_000)
    parser.add_argument("--reports", type=int, default=2_000)
    parser.add_argument("--seeds", type=int, nargs="*", default=[20240611, 1, 2])
    parser.add_argument(
        "--harsh-messages",
        type=int,
        default=400_000,
        help="messages over the harsh line, both ways (default: about a minute on one core)",
    )
    parser.add_argument(
        "--million", action="store_true", help="the full trial: 1,000,000 harsh-line messages"
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes for the harsh trial")
    parser.add_argument(
        "--baseline-messages",
        type=int,
        default=60_000,
        help="the harsh trial with protocol 1's CRC-16 frames, for comparison (0: none)",
    )
    args = parser.parse_args()
    for seed in args.seeds:
        show(
            "default faults: corrupt 5%, truncate 3%, duplicate 3%, drop 3%, garbage 2%",
            run_fault_trial(commands=args.commands, reports=args.reports, seed=seed),
        )
    heavy = FaultRates(corrupt=0.2, truncate=0.1, duplicate=0.1, drop=0.15, garbage=0.1)
    show(
        "heavy faults, no bit flips: corrupt 20%, truncate 10%, duplicate 10%, drop 15%,"
        " garbage 10%",
        run_fault_trial(commands=args.commands, reports=args.reports, seed=7, rates=heavy),
    )
    harsh = 1_000_000 if args.million else args.harsh_messages
    harsh_trial(harsh, args.jobs)
    if args.baseline_messages > 0:
        harsh_trial(args.baseline_messages, args.jobs, protocol=1)
    framing_speed()


if __name__ == "__main__":
    main()
