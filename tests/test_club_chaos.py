"""Chaos: 20 simulated tables play fast games and forward their logs to a club server on a real
PostgreSQL while the server is SIGKILLed and restarted and the tables' connections are cut at
seeded random points. Afterwards the club holds exactly every event of every table, once, and
its standings equal those computed from the tables' own logs."""

from __future__ import annotations

import json
import random
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from club.db import make_engine, migrate
from club.forwarder import Backoff, Forwarder
from club.results import Register, games_of_log, standings
from club.schema import events
from club.service import ClubSettings, ResultsService
from club.simulate import CLUB_PLAYERS, plan_tables
from club.storage import ClubStore, Player, payload_text
from club.testing import ChaosProxy, ClubServerProcess, PostgresServer
from kibic.runtime import TableRuntime
from kibic.store import EventStore
from tests.club_support import postgres as postgres  # noqa: F401 - the fixture

TABLES = 20
SEED = 20260520
KILLS = 3
REVOKE = json.loads((Path(__file__).parent / "transcripts" / "satir_revoke.json").read_text())


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.load(r)


@pytest.mark.slow
def test_tables_forward_through_kills_and_cuts_and_the_club_holds_every_event_once(
    postgres: PostgresServer, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    started = time.monotonic()
    url = postgres.create_database("chaos")
    engine = make_engine(url)
    migrate(engine)
    store = ClubStore(engine)
    for cid, name in CLUB_PLAYERS:
        store.add_player(cid, name)
    tables = plan_tables(TABLES, tmp_path, seed=SEED, revoke=REVOKE, revoke_every=7, delay=0.002)
    keys = {t.table_id: store.issue_key(t.table_id) for t in tables}
    for t in tables:  # create each store (and its schema) before anyone reads it
        EventStore(t.path, t.table_id).close()

    server = ClubServerProcess(url, log=tmp_path / "server.log").start()
    proxy = ChaosProxy(server.port, seed=SEED, cut_probability=0.25, max_bytes=30_000).start()
    stop = threading.Event()
    forwarders = [
        Forwarder(EventStore(t.path, t.table_id), server=proxy.url, key=keys[t.table_id],
                  batch=40, timeout=5, poll=0.05, backoff=Backoff(base=0.05, cap=0.8), seed=i)
        for i, t in enumerate(tables)
    ]  # fmt: skip
    threads = [threading.Thread(target=t.play, name=t.table_id) for t in tables]
    threads += [threading.Thread(target=f.run, args=(stop,), name=f"fwd-{f.table_id}")
                for f in forwarders]  # fmt: skip
    for th in threads:
        th.start()

    # the chaos: kill the server at seeded moments while the tables play; cut connections
    rng = random.Random(SEED)
    kills = 0
    try:
        while not all(t.done.is_set() for t in tables) or kills < KILLS:
            time.sleep(rng.uniform(0.4, 1.2))
            proxy.cut_some(rng.uniform(0.1, 0.5))
            if kills < KILLS and rng.random() < 0.5:
                server.kill()
                kills += 1
                time.sleep(rng.uniform(0.1, 0.8))  # the tables keep playing, forwards fail
                server.start()
        # every table has its log; let the forwarders catch up through the proxy
        deadline = time.monotonic() + 45
        targets = {t.table_id: len(EventStore(t.path, t.table_id).entries()) for t in tables}
        while time.monotonic() < deadline:
            if all(f.stored_upto == targets[f.table_id] for f in forwarders):
                break
            time.sleep(0.1)
    finally:
        stop.set()
        for th in threads:
            th.join(timeout=30)
        proxy.stop()
        request.addfinalizer(server.stop)  # also when an assertion below fails
    assert [t.error for t in tables] == [None] * TABLES
    assert {f.table_id: f.stored_upto for f in forwarders} == targets
    assert kills == KILLS and server.starts == KILLS + 1
    assert proxy.cuts > 0 and sum(f.stats.failures for f in forwarders) > 0

    # exactly every event of every table, once, as the table stored it
    local_logs = {t.table_id: EventStore(t.path, t.table_id).entries() for t in tables}
    with engine.connect() as conn:
        rows = conn.execute(
            select(events.c.table_id, events.c.seq, events.c.event_id, events.c.kind,
                   events.c.payload, events.c.ts).order_by(events.c.table_id, events.c.seq)
        ).all()  # fmt: skip
    expected = [(tid, e.seq, e.id, e.kind, payload_text(e.payload), e.ts)
                for tid in sorted(local_logs) for e in local_logs[tid]]  # fmt: skip
    assert len(rows) == sum(targets.values()) == len(expected)
    assert [tuple(r) for r in rows] == expected

    # the club's standings and penalties equal those computed from the tables' own logs
    register = Register(Player(cid, name) for cid, name in CLUB_PLAYERS)
    own_games = [g for tid in sorted(local_logs) for g in games_of_log(tid, local_logs[tid])]
    night = get_json(f"{server.url}/api/v1/tables")  # the live page's data answers too
    assert len(night) == TABLES and all(t["games"] == 2 for t in night)
    tonight = ResultsService(store, ClubSettings()).night_of(time.time()).isoformat()
    service_night = get_json(f"{server.url}/export/night/{tonight}.json")
    assert len(service_night["games"]) == 2 * TABLES
    for pairs in (True, False):
        own = [s.to_dict() for s in standings(own_games, register, pairs=pairs)]
        key = "pairs" if pairs else "individual"
        assert service_night["standings"][key] == own
    for t in tables:  # and the table's own runtime agrees on the game in progress
        runtime = TableRuntime(EventStore(t.path, t.table_id), table_id=t.table_id)
        last = get_json(f"{server.url}/api/v1/tables/{t.table_id}/games")[-1]
        assert runtime.match is not None and last["totals"] == runtime.match.to_dict()["totals"]
        runtime.close()
    revoking = [t.table_id for i, t in enumerate(tables) if i % 7 == 0]
    assert sorted(p["table_id"] for p in service_night["penalties"]) == revoking
    assert {p["rule"] for p in service_night["penalties"]} == {"follow-suit"}
    server.stop()
    assert time.monotonic() - started < 120
