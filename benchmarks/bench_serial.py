"""Serial link figures: frames through a seeded faulty channel, and the framing's raw speed.

Run: .venv/bin/python benchmarks/bench_serial.py [--commands N] [--seeds S ...]
"""

from __future__ import annotations

import argparse
import time

from firmware_bridge import wire
from firmware_bridge.faults import FaultRates, TrialReport, run_fault_trial
from firmware_bridge.patterns import PATTERNS, Pattern
from firmware_bridge.serial_lights import light_body


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
        ("corrupted frames acted on", report.corrupted_acted_on),
        (
            "lost / delivered twice / out of order",
            f"{report.lost} / {report.duplicated_deliveries} / {report.out_of_order}",
        ),
        ("simulated time (ms, 1 ms per round)", report.simulated_ms),
        ("wall time (s)", f"{report.wall_s:.2f}"),
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
    args = parser.parse_args()
    for seed in args.seeds:
        show(
            "default faults: corrupt 5%, truncate 3%, duplicate 3%, drop 3%, garbage 2%",
            run_fault_trial(commands=args.commands, reports=args.reports, seed=seed),
        )
    harsh = FaultRates(corrupt=0.2, truncate=0.1, duplicate=0.1, drop=0.15, garbage=0.1)
    show(
        "harsh faults: corrupt 20%, truncate 10%, duplicate 10%, drop 15%, garbage 10%",
        run_fault_trial(commands=args.commands, reports=args.reports, seed=7, rates=harsh),
    )
    framing_speed()


if __name__ == "__main__":
    main()
