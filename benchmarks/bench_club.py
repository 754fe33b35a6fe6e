"""Club server: events stored per second and forwarding latency with 20 and 100 tables.

The club server runs as its own process (``kibic club serve``) on 127.0.0.1 over a throw-away
PostgreSQL (durable settings: fsync on) when the binaries are installed, else over SQLite
(``--db sqlite`` forces it). Each table is a real ``club.forwarder.Forwarder`` in a thread of
this process, reading an in-memory copy of a seeded Veliki Satir log (11 deals).

Two phases per table count, both bounded:
- catch-up: every table sends its whole log at once, in batches of ``--batch`` (a club after an
  outage): events stored per second, and the latency of one batch request;
- live: every table sends ``--live`` single events, one request each, as a table does during
  play: events stored per second and p50 / p99 / max latency of one forwarding request.

Then, in this process on SQLite, the cost of checking a batch by replaying it: the median
single-event ingest with the replay check against the bare store write (the baseline), and the
median time to the live page's data after it against replaying the table's current game (what
the pages did on each change before the check kept the game replayed).

Run: .venv/bin/python benchmarks/bench_club.py [--tables 20 100] [--db postgres|sqlite]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from club.db import make_engine, migrate  # noqa: E402
from club.forwarder import Backoff, Forwarder  # noqa: E402
from club.results import games_of_log  # noqa: E402
from club.service import ClubSettings, ResultsService  # noqa: E402
from club.simulate import feed  # noqa: E402
from club.storage import ClubStore, incoming  # noqa: E402
from club.testing import ClubServerProcess, PostgresServer, PostgresUnavailable  # noqa: E402
from kibic.demo import demo_transcript  # noqa: E402
from kibic.runtime import TableRuntime  # noqa: E402
from kibic.store import EventStore, LogEntry  # noqa: E402


def template_log() -> list[LogEntry]:
    store = EventStore(":memory:", "template")
    runtime = TableRuntime(store, table_id="template", game="veliki-satir",
                           names=["SR001", "SR002", "SR003", "SR004"])  # fmt: skip
    feed(runtime, demo_transcript("veliki-satir", deals=11, seed=3)["deals"], prefix="g1-")
    return store.entries()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_phase(forwarders: list[Forwarder], rounds: int | None) -> tuple[float, int, list[float]]:
    """Each forwarder sends until caught up (``rounds`` None) or ``rounds`` requests."""
    errors: list[BaseException] = []

    def work(f: Forwarder) -> None:
        try:
            if rounds is None:
                f.run(threading.Event(), until_caught_up=True)
            else:
                for _ in range(rounds):
                    f.send_pending()
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    sent_before = sum(f.stats.sent for f in forwarders)
    for f in forwarders:
        f.stats.latencies.clear()
    threads = [threading.Thread(target=work, args=(f,)) for f in forwarders]
    start = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    elapsed = time.perf_counter() - start
    if errors:
        raise RuntimeError(f"{len(errors)} forwarders failed: {errors[0]!r}")
    latencies = [x for f in forwarders for x in f.stats.latencies]
    return elapsed, sum(f.stats.sent for f in forwarders) - sent_before, latencies


def bench(url: str, tables: int, log: list[LogEntry], *, batch: int, live: int) -> None:
    store = ClubStore(make_engine(url))
    server = ClubServerProcess(url).start()
    try:
        forwarders = []
        split = len(log) - live
        for t in range(tables):
            table_id = f"bench{tables}-{t:03d}"
            local = EventStore(":memory:", table_id)
            for entry in log[:split]:
                local.append(entry)
            fwd = Forwarder(local, server=server.url, key=store.issue_key(table_id),
                            batch=batch, backoff=Backoff(0.05, 0.5), keep_latencies=True)  # fmt: skip
            forwarders.append(fwd)
        elapsed, sent, lat = run_phase(forwarders, None)
        print(f"{tables:>4} tables  catch-up  {sent:>6} events in {elapsed:6.2f} s  "
              f"{sent / elapsed:8.0f} events/s  batch request p50 {pct(lat, .5) * 1e3:6.1f} ms  "
              f"p99 {pct(lat, .99) * 1e3:6.1f} ms")  # fmt: skip
        for f in forwarders:  # the rest of the game arrives one event at a time
            for entry in log[split:]:
                f.store.append(entry)
            f.batch = 1
        elapsed, sent, lat = run_phase(forwarders, live)
        print(f"{tables:>4} tables  live      {sent:>6} events in {elapsed:6.2f} s  "
              f"{sent / elapsed:8.0f} events/s  forward p50 {pct(lat, .5) * 1e3:6.1f} ms  "
              f"p99 {pct(lat, .99) * 1e3:6.1f} ms  max {max(lat) * 1e3:6.1f} ms")  # fmt: skip
        assert store.event_count() == tables * len(log), "the club lost or doubled events"
    finally:
        server.stop()
        store.engine.dispose()


def median_ms(values: list[float]) -> float:
    return sorted(values)[len(values) // 2] * 1e3


def check_cost(log: list[LogEntry], tmp: str, *, events: int = 60) -> None:
    engine = make_engine(f"sqlite:///{tmp}/check.sqlite3")
    migrate(engine)
    service = ResultsService(ClubStore(engine), ClubSettings())
    wire = [e.to_dict() for e in log]
    split = len(wire) - events
    keys = {tid: service.store.issue_key(tid) for tid in ("checked", "bare")}
    service.ingest("checked", keys["checked"], incoming(wire[:split]))
    service.store.ingest("bare", keys["bare"], incoming(wire[:split]))
    service.live()
    checked, bare, page, replay = [], [], [], []
    for i in range(split, len(wire)):
        t0 = time.perf_counter()
        service.ingest("checked", keys["checked"], incoming(wire[i : i + 1]))
        t1 = time.perf_counter()
        service.store.ingest("bare", keys["bare"], incoming(wire[i : i + 1]))
        t2 = time.perf_counter()
        service.table_games("checked")
        t3 = time.perf_counter()
        games_of_log("bare", log[: i + 1])
        t4 = time.perf_counter()
        checked.append(t1 - t0)
        bare.append(t2 - t1)
        page.append(t3 - t2)
        replay.append(t4 - t3)
    print(f"-- the replay check, {events} single events (SQLite, in process)")
    print(
        f"ingest with the check p50 {median_ms(checked):6.2f} ms  bare store write p50 "
        f"{median_ms(bare):6.2f} ms  ratio {median_ms(checked) / median_ms(bare):5.2f}"
    )
    print(f"games after it p50 {median_ms(page):6.2f} ms  replaying the game p50 "
          f"{median_ms(replay):6.2f} ms  ratio {median_ms(replay) / median_ms(page):7.1f}")  # fmt: skip
    engine.dispose()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[20, 100])
    parser.add_argument("--db", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument("--batch", type=int, default=200)
    parser.add_argument("--live", type=int, default=40, help="single-event requests per table")
    args = parser.parse_args()
    log = template_log()
    print(f"log per table: {len(log)} events (Veliki Satir, 11 deals)")
    pg: PostgresServer | None = None
    if args.db == "postgres":
        try:
            pg = PostgresServer(durable=True).start()
        except PostgresUnavailable as exc:
            print(f"no PostgreSQL ({exc}); using SQLite")
    with tempfile.TemporaryDirectory(prefix="kibic-bench-club-") as tmp:
        try:
            for n in args.tables:
                if pg is not None:
                    url = pg.create_database(f"bench{n}")
                else:
                    url = f"sqlite:///{tmp}/club{n}.sqlite3"
                migrate(make_engine(url))
                print(f"-- {n} tables, {'PostgreSQL (fsync on)' if pg else 'SQLite'}")
                bench(url, n, log, batch=args.batch, live=args.live)
            check_cost(log, tmp)
        finally:
            if pg is not None:
                pg.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
