"""Fuzzing ``kibic referee replay``: seeded mutations of every transcript in
``tests/transcripts`` (keys deleted, replaced, added or retyped, cards swapped, events
reordered, text truncated, bytes flipped, deep nesting, numbers of thousands of digits), each
replayed by the CLI in-process. Prints the mutations tried, the exits by code and the
tracebacks (goal: 0), with the first few tracebacks' last lines.

Run: .venv/bin/python benchmarks/bench_fuzz.py [--mutations 100000] [--seed 1]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from kibic.fuzz import fuzz, load_transcripts

TRANSCRIPTS = Path(__file__).resolve().parent.parent / "tests" / "transcripts"
DEFAULT_MUTATIONS = 5_000  # under a minute; --mutations 100000 for the full trial


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutations", type=int, default=DEFAULT_MUTATIONS)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    transcripts = load_transcripts(TRANSCRIPTS)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as workdir:
        report = fuzz(transcripts, mutations=args.mutations, seed=args.seed, workdir=Path(workdir))
    seconds = time.perf_counter() - start
    exits = ", ".join(f"{code}: {n:,}" for code, n in sorted(report.exits.items()))
    print(f"transcripts: {len(transcripts)}, seed {args.seed}")
    print(f"mutations tried: {report.tried:,} in {seconds:.1f} s "
          f"({report.tried / seconds:,.0f}/s)")  # fmt: skip
    print(f"exits by code: {exits}")
    print(f"tracebacks: {report.tracebacks} (goal 0)")
    for name, index, _text, trace in report.crashes[:5]:
        tail = " | ".join(line.strip() for line in trace.strip().splitlines()[-3:])
        print(f"  {name} mutation {index}: {tail}")
    return 1 if report.tracebacks else 0


if __name__ == "__main__":
    sys.exit(main())
