"""The damaged-store trial: seeded random single-byte corruptions of an event store holding a
few games, each opened the way ``kibic run`` opens it (``check_store``, then the replay).

Each corruption ends as one of: detected (refused with ``StoreError`` naming what is wrong),
refused by the referee on replay (an entry that no longer replays),
harmless (the replay equals the undamaged one: the byte was in unused space), replayed silently
with a different state (goal 0) or a traceback (goal 0). The baseline is the same corruptions of
the same store without its hash chain (as stores were written before it), read as it is.

Run: .venv/bin/python benchmarks/bench_store.py [--trials N] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from kibic.demo import demo_transcript, play_transcript
from kibic.runtime import TableRuntime
from kibic.store import EventStore, StoreError
from kibic.store_repair import check_store

GAMES = (("sto-1", "ruzicka", 2, 11), ("sto-2", "mali-satir", 3, 12), ("sto-3", "gin", 2, 13))


def build(path: Path) -> None:
    for table, game, deals, seed in GAMES:
        runtime = TableRuntime(EventStore(path, table), table_id=table, game=game)
        play_transcript(runtime, demo_transcript(game, deals=deals, seed=seed), delay=0)
        runtime.adjust_score(runtime.game.sides[0], 10, "kazna")
        runtime.close()


def unchained(source: Path, path: Path) -> None:
    path.write_bytes(source.read_bytes())
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE chain_heads")
        db.execute("ALTER TABLE events DROP COLUMN hash")
    db.execute("VACUUM")
    db.close()


def replay(path: Path, *, chained: bool) -> str:
    """Every table's state after its replay, as JSON (what the table would show)."""
    if chained:
        for table, *_ in GAMES:
            report = check_store(str(path), table)
            if report.damage:
                raise StoreError(str(report.damage[0]))
    states = []
    for table, *_ in GAMES:
        store = EventStore(path, table, readonly=True)
        try:
            runtime = TableRuntime(store, table_id=table)
            states.append(runtime.state_digest())
        finally:
            store.close()
    return json.dumps(states, sort_keys=True, default=str)


def trial(original: bytes, folder: Path, rng: random.Random, *, chained: bool, truth: str) -> str:
    data = bytearray(original)
    at = rng.randrange(len(data))
    data[at] = (data[at] + rng.randrange(1, 256)) % 256
    path = folder / f"trial-{'c' if chained else 'u'}.sqlite"
    path.write_bytes(bytes(data))
    try:
        state = replay(path, chained=chained)
    except StoreError:
        return "detected"
    except Exception as exc:  # noqa: BLE001 - counted: the figure this trial is for
        from referee.errors import RefereeError

        if isinstance(exc, RefereeError):
            return "refused"  # the referee refused an entry on replay, naming the action
        trial.tracebacks.append((chained, traceback.format_exc()))  # type: ignore[attr-defined]
        return "traceback"
    finally:
        for extra in folder.glob("trial-*"):
            extra.unlink()
    return "harmless" if state == truth else "silent"


trial.tracebacks = []  # type: ignore[attr-defined]


def _median_ms(work: Callable[[], object]) -> float:
    times = []
    for _ in range(7):
        started = time.perf_counter()
        work()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=36)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        store = folder / "games.sqlite"
        build(store)
        plain = folder / "plain.sqlite"
        unchained(store, plain)
        print(f"store: {len(GAMES)} tables, {sum(len(EventStore(store, t).entries()) for t, *_ in GAMES)}"
              f" entries, {store.stat().st_size} bytes; {args.trials} corruptions, seed {args.seed}")  # fmt: skip
        check_ms = _median_ms(lambda: [check_store(str(store), t) for t, *_ in GAMES])
        replay_ms = _median_ms(lambda: replay(store, chained=False))
        print(f"opening cost: check_store {check_ms:.1f} ms beside a replay of {replay_ms:.1f} ms"
              " (medians of 7)")  # fmt: skip
        for name, source, chained in (("hash chain", store, True), ("baseline", plain, False)):
            original = source.read_bytes()
            truth = replay(source, chained=chained)
            rng = random.Random(args.seed)
            started = time.perf_counter()
            counts = Counter(
                trial(original, folder, rng, chained=chained, truth=truth)
                for _ in range(args.trials)
            )
            took = (time.perf_counter() - started) / args.trials * 1000
            print(f"{name:>10}: detected on open {counts['detected']}, harmless "
                  f"{counts['harmless']}, refused by the referee on replay {counts['refused']}, "
                  f"replayed silently {counts['silent']} (goal 0), "
                  f"tracebacks {counts['traceback']} (goal 0); {took:.1f} ms a trial")  # fmt: skip
        for chained, text in sorted(trial.tracebacks, reverse=True)[:3]:  # type: ignore[attr-defined]
            print(f"{'hash chain' if chained else 'baseline'}: ...{text[-1200:]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
