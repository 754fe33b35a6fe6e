"""Password guessing against the table: GET /api/state latency while 64 clients post wrong
admin passwords as fast as they can (the table's real PBKDF2 rounds, uvicorn on loopback).

Baseline named in the same run: ``unthrottled``, the same app with every guess hashed and no
bound on concurrent hashing (how the table answered guesses before ``web.throttle``). Printed
per setting: /api/state p50 / p99 / max in ms, the guesses answered by status, and the PBKDF2
checks run.
Run: .venv/bin/python benchmarks/bench_guessing.py [--guessers 64] [--seconds 4]
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import statistics
import sys
import threading
import time
from collections import Counter
from multiprocessing.synchronize import Event as EventType

import httpx

from kibic.config import hash_password
from kibic.runtime import TableRuntime
from kibic.store import EventStore
from web.app import create_app
from web.server import BackgroundServer
from web.throttle import PasswordThrottle

NAMES = ["Ana", "Bora", "Ceca", "Duško"]


def poll_state(url: str, stop: EventType, out: mp.Queue[list[float]]) -> None:
    """Process B: GET /api/state every 10 ms until stopped; sends the latencies in ms."""
    latencies: list[float] = []
    with httpx.Client(base_url=url, timeout=60) as client:
        while not stop.is_set():
            start = time.perf_counter()
            client.get("/api/state").raise_for_status()
            latencies.append((time.perf_counter() - start) * 1000)
            time.sleep(0.01)
    out.put(latencies)


def guessers(url: str, count: int, stop: EventType, out: mp.Queue[dict[int, int]]) -> None:
    """Process C: ``count`` threads posting wrong passwords back to back; sends the statuses."""
    statuses: Counter[int] = Counter()
    lock = threading.Lock()

    def guess() -> None:
        with httpx.Client(base_url=url, timeout=120) as client:
            n = 0
            while not stop.is_set():
                n += 1
                headers = {"X-Kibic-Password": f"guess-{n}"}
                code = client.post("/api/undo", headers=headers).status_code
                with lock:
                    statuses[code] += 1

    threads = [threading.Thread(target=guess) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    out.put(dict(statuses))


def trial(
    throttle: PasswordThrottle, *, count: int, seconds: float
) -> tuple[list[float], dict[int, int]]:
    runtime = TableRuntime(EventStore(":memory:", "bench"), game="veliki-satir", names=NAMES)
    app = create_app(
        runtime, admin_password_hash=hash_password("the-right-one"), password_throttle=throttle
    )
    stop = mp.Event()
    latencies: mp.Queue[list[float]] = mp.Queue()
    statuses: mp.Queue[dict[int, int]] = mp.Queue()
    with BackgroundServer(app) as server:
        procs = [mp.Process(target=poll_state, args=(server.url, stop, latencies))]
        if count:
            procs.append(mp.Process(target=guessers, args=(server.url, count, stop, statuses)))
        for proc in procs:
            proc.start()
        time.sleep(seconds)
        stop.set()
        found = latencies.get(timeout=300)
        answered = statuses.get(timeout=300) if count else {}
        for proc in procs:
            proc.join()
    runtime.close()
    return found, answered


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--guessers", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=4.0)
    args = parser.parse_args(argv)
    settings = {
        "idle (no guesses)": (PasswordThrottle(), 0),
        "unthrottled baseline": (
            PasswordThrottle(first_delay_s=0.0, concurrent=args.guessers),
            args.guessers,
        ),
        "throttled (this app)": (PasswordThrottle(), args.guessers),
    }
    print(
        f"{'setting':<22} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}  guesses by status, PBKDF2 run"
    )
    for name, (throttle, guessers) in settings.items():
        latencies, statuses = trial(throttle, count=guessers, seconds=args.seconds)
        ordered = sorted(latencies)
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        answered = ", ".join(f"{code}: {n:,}" for code, n in sorted(statuses.items())) or "-"
        print(f"{name:<22} {statistics.median(ordered):>8.1f} {p99:>8.1f} {ordered[-1]:>8.1f}  "
              f"{answered}; {throttle.hashed:,}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
