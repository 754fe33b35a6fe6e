"""The club server on a real PostgreSQL (initdb into a temporary folder, started on a free
local port, stopped at the end): migrations, concurrent idempotent ingest, the HTTP service."""

from __future__ import annotations

import json
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine

from club.db import current_revision, head_revision, make_engine, migrate
from club.forwarder import Forwarder
from club.schema import metadata
from club.simulate import PlannedGame, SimTable
from club.storage import ClubStore, incoming
from club.testing import ClubServerProcess, PostgresServer
from kibic.store import EventStore
from tests.club_support import postgres as postgres  # noqa: F401 - the fixture


@pytest.fixture()
def engine(postgres: PostgresServer, request: pytest.FixtureRequest) -> Iterator[Engine]:
    engine = make_engine(postgres.create_database(request.node.name[:40].lower()))
    migrate(engine)
    yield engine
    engine.dispose()


def test_migrations_reach_the_head_and_match_the_schema(engine: Engine) -> None:
    assert engine.dialect.name == "postgresql"
    assert current_revision(engine) == head_revision() == "0002"
    migrate(engine)  # idempotent
    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), metadata) == []


def test_concurrent_resends_store_each_event_once(engine: Engine, tmp_path: Path) -> None:
    sim = SimTable("t7", tmp_path / "t7.sqlite3",
                   [PlannedGame("veliki-satir", 2, 8, ("a", "b", "c", "d"))])  # fmt: skip
    sim.play()
    log = [e.to_dict() for e in EventStore(sim.path, "t7").entries()]
    store = ClubStore(engine)
    key = store.issue_key("t7")
    results: list[int] = []

    def resend(start: int) -> None:  # overlapping batches from 8 threads at once
        for i in range(start, len(log), 13):
            results.append(store.ingest("t7", key, incoming(log[: i + 13])).stored_upto)

    threads = [threading.Thread(target=resend, args=(s,)) for s in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert max(results) == len(log) == store.event_count("t7")
    assert [e.id for e in store.entries("t7")] == [d["id"] for d in log]


def test_the_http_service_on_postgres(postgres: PostgresServer, tmp_path: Path) -> None:
    url = postgres.create_database("service")
    store = ClubStore(make_engine(url))
    server = ClubServerProcess(url).start()  # migrates on start
    try:
        key = store.issue_key("t1")
        sim = SimTable("t1", tmp_path / "t1.sqlite3",
                       [PlannedGame("subrosa", 2, 3, ("SR001", "SR002", "SR003", "SR004"))])  # fmt: skip
        sim.play()
        local = EventStore(sim.path, "t1")
        total = Forwarder(local, server=server.url, key=key).run(
            threading.Event(), until_caught_up=True
        )
        assert total == len(local.entries()) == store.event_count("t1")
        with urllib.request.urlopen(f"{server.url}/api/v1/tables/t1/games") as r:
            (game,) = json.load(r)
        assert (game["game"], game["deals"], game["names"]) == (
            "subrosa", 2, ["SR001", "SR002", "SR003", "SR004"])  # fmt: skip
    finally:
        server.stop()
