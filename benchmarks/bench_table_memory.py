"""Peak memory of a table's tracker: plain, with the corner path, and with every path a table
reads by default (the corner path, the learned detector at rest and the second opinion).

    python benchmarks/bench_table_memory.py [--frames N]

Each variant runs in a process of its own (its peak resident memory is the process's): a
synthetic game of the French deck with four seats (seed 900), its frames fed to the tracker.
The target is 300 MB for the vision process (``models/MODEL_CARD.md``).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

VARIANTS = ("plain", "corner path", "every default path")


def run(variant: str, frames: int) -> dict[str, object]:
    """The variant's tracker fed ``frames`` frames, in this process; its peak memory."""
    from referee.cards import Deck
    from vision.recognizer import Recognizer, table_recognizer
    from vision.synthetic import SyntheticTable, random_plays
    from vision.tracker import CardTracker

    deck = Deck.FRENCH_53
    table = SyntheticTable(random_plays(deck, 4, 900), n_seats=4, deck=deck, seed=900, fast=True)
    paths: dict[str, object] = {}
    if variant != "plain":
        from vision.corner_finder import CornerFinder

        paths["corners"] = CornerFinder()
    if variant == "every default path":
        from vision.detector import CardDetector
        from vision.recognizer import table_second_opinion

        paths.update(detector=CardDetector(), second=table_second_opinion())
    # every default path: the table classifier with the still-photo gates (experiment 115d)
    recognizer = table_recognizer() if variant == "every default path" else Recognizer()
    tracker = CardTracker(recognizer, table.calibration, deck=deck, **paths)  # type: ignore[arg-type]
    fed = 0
    for frame in table:
        if fed >= frames:
            break
        tracker.process(frame)
        fed += 1
    tracker.finish()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"variant": variant, "frames": fed, "peak_mb": round(peak, 1)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=1000, help="at most this many frames")
    parser.add_argument("--variant", choices=VARIANTS, default=None,
                        help="run one variant in this process (the script runs each so)")  # fmt: skip
    args = parser.parse_args()
    if args.variant is not None:
        print(json.dumps(run(args.variant, args.frames)))
        return
    for variant in VARIANTS:
        out = subprocess.run([sys.executable, __file__, "--variant", variant, "--frames",
                              str(args.frames)], capture_output=True, text=True, check=True)  # fmt: skip
        result = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"{variant:20s} {result['frames']} frames, peak {result['peak_mb']:.0f} MB")


if __name__ == "__main__":
    main()
