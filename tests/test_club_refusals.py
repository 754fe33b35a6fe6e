"""One table's bad input cannot take down the club's pages, on SQLite and on PostgreSQL.

A batch is replayed on the table's stored log before it is stored: an event the table's runtime
refuses (a play out of turn) or a number that is not finite is answered 422 naming the event and
stored nowhere. A bad row already in a database (written before these checks, or by hand) marks
its table's game damaged; every other table and page is as usual, and deleting the row mends
the pages at once.
"""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete, insert, update

from club.app import create_app
from club.forwarder import BatchRefusedError, Forwarder, ForwardError
from club.results import games_of_log
from club.schema import club_tables, events
from club.service import ClubSettings, ResultsService
from club.storage import BatchRefused, incoming, payload_text
from club.testing import PostgresServer
from kibic.cli import main
from kibic.store import EventStore, LogEntry
from tests.club_support import postgres as postgres  # noqa: F401 - the fixture
from tests.test_club_results import SATIR_11, table_log, wire
from web.server import BackgroundServer

NAMES = ["SR001", "SR002", "SR003", "SR004"]


@pytest.fixture(params=["sqlite", "postgres"])
def club(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    if request.param == "sqlite":
        url = str(tmp_path / "club.sqlite3")
    else:
        server: PostgresServer = request.getfixturevalue("postgres")
        url = server.create_database(re.sub(r"\W", "_", request.node.name)[-40:].lower())
    settings = ClubSettings(database_url=url, admin_token="sesame")
    with TestClient(create_app(settings)) as client:
        yield client


def service_of(client: TestClient) -> ResultsService:
    service: ResultsService = client.app.state.service  # type: ignore[attr-defined]
    return service


def three_plays(log: list[LogEntry]) -> int:
    """The index of the first of three plays in a row."""
    plays = [e.kind == "action" and e.payload["action"]["type"] == "play" for e in log]
    return next(k for k in range(len(log) - 2) if all(plays[k : k + 3]))


def out_of_turn(log: list[LogEntry], played: LogEntry, seq: int) -> dict[str, Any]:
    """The seat that played ``played`` plays again at once: another card of its own hand."""
    seat = played.payload["action"]["seat"]
    hand = next(e for e in log if e.kind == "deal_started").payload["hands"][str(seat)]
    card = next(c for c in hand if c != played.payload["action"]["card"])
    return {"id": "out-of-turn", "seq": seq, "kind": "action", "ts": played.ts,
            "payload": {"action": {"seat": seat, "type": "play", "card": card},
                        "source": "dashboard"}}  # fmt: skip


def pages(service: ResultsService) -> list[str]:
    night = service.night_of(time.time()).isoformat()
    return ["/", "/?lang=sr", "/api/v1/tables", "/players", "/penalties", "/api/v1/penalties",
            "/status", "/api/v1/status", "/tables/t1", "/tables/t2", "/api/v1/tables/t2/games",
            "/tables/t2/games/1", f"/nights/{night}", f"/export/night/{night}.csv",
            f"/export/night/{night}.json", "/players/SR002", "/api/v1/players/SR002/results"]  # fmt: skip


def assert_every_page_answers(client: TestClient, *, t2_game: bool = True) -> None:
    for path in pages(service_of(client)):
        if path == "/tables/t2/games/1" and not t2_game:
            continue
        r = client.get(path)
        assert r.status_code == 200, (path, r.status_code, r.text[:300])


def test_a_batch_that_does_not_replay_is_refused_and_stored_nowhere(club: TestClient) -> None:
    service = service_of(club)
    log1 = table_log("t1", [("veliki-satir", NAMES, SATIR_11[:2])])
    log2 = table_log("t2", [("veliki-satir", NAMES, SATIR_11[:1])])
    keys = {tid: service.store.issue_key(tid) for tid in ("t1", "t2")}
    k = three_plays(log1)
    upto = log1[k].seq
    auth = {"Authorization": f"Bearer {keys['t1']}"}
    url = "/api/v1/tables/t1/events"
    r = club.post(url, json={"events": wire(log1[: k + 1])}, headers=auth)
    assert r.json()["stored_upto"] == upto
    assert club.post("/api/v1/tables/t2/events", json={"events": wire(log2)},
                     headers={"Authorization": f"Bearer {keys['t2']}"}).status_code == 200  # fmt: skip
    # two good plays, then the seat that played last plays again
    bad = out_of_turn(log1, log1[k + 2], upto + 3)
    r = club.post(url, json={"events": [*wire(log1[k + 1 : k + 3]), bad]}, headers=auth)
    assert r.status_code == 422
    detail = r.json()["detail"]
    assert (detail["index"], detail["seq"], detail["event_id"], detail["stored_upto"]) == (
        2, upto + 3, "out-of-turn", upto)  # fmt: skip
    assert "ActionError" in detail["reason"] and f"seat {bad['payload']['action']['seat']}" in (
        detail["reason"])  # fmt: skip
    # stored nowhere: not the bad event, nor the two good ones sent with it
    assert service.store.event_count("t1") == upto
    assert club.get("/api/v1/tables/t1/cursor", headers=auth).json()["stored_upto"] == upto
    assert_every_page_answers(club)
    status = club.get("/api/v1/status").json()
    assert status["refused_batches"] == 1 and status["damaged_games"] == 0
    (t1,) = status["tables"]
    assert (t1["table_id"], t1["refused_batches"], t1["last_refused"]["seq"]) == (
        "t1", 1, upto + 3)  # fmt: skip
    assert "1 batches refused" in club.get("/status").text
    # the same batch through the store (no HTTP) is refused the same way
    with pytest.raises(BatchRefused) as refused:
        service.ingest("t1", keys["t1"], incoming([*wire(log1[k + 1 : k + 3]), bad]))
    assert (refused.value.index, refused.value.seq) == (2, upto + 3)
    # the table's true log goes on as if nothing happened, and scores as the table did
    r = club.post(url, json={"events": wire(log1)}, headers=auth)
    assert r.json()["stored_upto"] == len(log1) == service.store.event_count("t1")
    (game,) = club.get("/api/v1/tables/t1/games").json()
    assert game == games_of_log("t1", log1)[0].to_dict() and game["deals"] == 2
    assert_every_page_answers(club)


def test_numbers_that_are_not_finite_are_refused_naming_the_field(club: TestClient) -> None:
    service = service_of(club)
    key = service.store.issue_key("t1")
    log = wire(table_log("t1", [("veliki-satir", NAMES, SATIR_11[:1])]))
    text = '{"id": "a", "seq": 1, "kind": "game_started", "payload": %s, "ts": %s}'
    auth = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
    for payload, ts, field in [('{"spec": "veliki-satir"}', "NaN", ["body", "events", 0, "ts"]),
                               ('{"spec": "veliki-satir"}', "Infinity", ["body", "events", 0, "ts"]),
                               ('{"names": [1, -Infinity]}', "1.5", ["body", "events", 0, "payload"])]:  # fmt: skip
        body = '{"events": [%s]}' % (text % (payload, ts))
        r = club.post("/api/v1/tables/t1/events", content=body, headers=auth)
        assert r.status_code == 422, r.text
        (error,) = r.json()["detail"]
        assert error["loc"] == field
    assert "payload.names.1 is not a finite number" in error["msg"]
    r = club.post("/api/v1/tournaments", content='{"slug": "s", "name": "n", "starts_at": NaN}',
                  headers={"Authorization": "Bearer sesame", "Content-Type": "application/json"})  # fmt: skip
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "starts_at"]
    # through the store, without the API's checks: refused all the same
    bad = dict(log[1], payload={**log[1]["payload"], "dealer": float("nan")})
    with pytest.raises(BatchRefused, match="payload.dealer is not a finite number"):
        service.ingest("t1", key, incoming([log[0], bad]))
    with pytest.raises(BatchRefused, match="ts is not a finite number"):
        service.ingest("t1", key, incoming([dict(log[0], ts=float("inf"))]))
    assert service.store.event_count("t1") == 0 and service.store.event_count() == 0
    assert_every_page_answers(club, t2_game=False)


@pytest.mark.parametrize("damage", ["out-of-turn", "ts-not-finite"])
def test_a_bad_row_in_the_database_marks_only_its_game_damaged(
    club: TestClient, damage: str
) -> None:
    service = service_of(club)
    log1 = table_log("t1", [("veliki-satir", NAMES, SATIR_11[:2])])
    log2 = table_log("t2", [("veliki-satir", NAMES, SATIR_11[:3])])
    keys = {tid: service.store.issue_key(tid) for tid in ("t1", "t2")}
    k = three_plays(log1)
    service.ingest("t1", keys["t1"], incoming(wire(log1[: k + 1])))
    service.ingest("t2", keys["t2"], incoming(wire(log2)))
    assert_every_page_answers(club)  # the caches now hold both tables' games
    seq = log1[k].seq + 1
    if damage == "out-of-turn":
        row = out_of_turn(log1, log1[k], seq)
    else:  # SQLite stores NaN as NULL, which the column refuses; infinity it keeps
        nan = float("nan") if service.store.engine.dialect.name == "postgresql" else float("inf")
        row = dict(wire(log1[k + 1 : k + 2])[0], ts=nan)
    with service.store.engine.begin() as conn:  # written by hand, past every check
        conn.execute(insert(events).values(
            table_id="t1", seq=seq, event_id=row["id"], kind=row["kind"],
            payload=payload_text(row["payload"]), ts=row["ts"], received_at=time.time()))  # fmt: skip
        conn.execute(update(club_tables).where(club_tables.c.table_id == "t1")
                     .values(stored_upto=seq))  # fmt: skip

    assert_every_page_answers(club)
    tables = {t["table_id"]: t for t in club.get("/api/v1/tables").json()}
    (broken,) = tables["t1"]["damaged"]
    assert (broken["game_seq"], broken["seq"], broken["event_id"]) == (1, seq, row["id"])
    assert tables["t1"]["current"] is None and tables["t1"]["games"] == 0
    assert tables["t2"]["damaged"] == [] and tables["t2"]["current"]["deals"] == 3
    assert tables["t2"]["current"] == games_of_log("t2", log2)[0].to_dict()
    live = club.get("/").text
    assert live.count('class="damaged"') == 1 and ">t2</a>" in live
    assert f"event seq {seq} does not replay" in club.get("/tables/t1").text
    status = club.get("/api/v1/status").json()
    assert status["damaged_games"] == 1 and status["tables"][0]["table_id"] == "t1"
    night = service.night_of(time.time()).isoformat()
    export = club.get(f"/export/night/{night}.json").json()
    assert [g["table_id"] for g in export["games"]] == ["t2"]
    assert [(d["table_id"], d["game_seq"], d["seq"], d["spec"]) for d in export["damaged"]] == [
        ("t1", 1, seq, "veliki-satir")]  # fmt: skip
    assert f"event seq {seq} does not replay" in club.get(f"/nights/{night}").text
    # the table goes on forwarding: what continues the damaged game is refused, naming why
    r = club.post("/api/v1/tables/t1/events", json={"events": wire(log1[seq : seq + 1])},
                  headers={"Authorization": f"Bearer {keys['t1']}"})  # fmt: skip
    assert r.status_code == 422 and "which does not replay from seq" in r.json()["detail"]["reason"]

    # the director deletes the row: the pages mend at once (no game kept from the failure)
    with service.store.engine.begin() as conn:
        conn.execute(delete(events).where(events.c.table_id == "t1", events.c.seq == seq))
        conn.execute(update(club_tables).where(club_tables.c.table_id == "t1")
                     .values(stored_upto=seq - 1))  # fmt: skip
    tables = {t["table_id"]: t for t in club.get("/api/v1/tables").json()}
    assert tables["t1"]["damaged"] == [] and tables["t1"]["current"]["game_seq"] == 1
    assert 'class="damaged"' not in club.get("/").text
    assert club.get(f"/export/night/{night}.json").json()["damaged"] == []
    service.ingest("t1", keys["t1"], incoming(wire(log1)))
    assert club.get("/api/v1/tables/t1/games").json() == [
        g.to_dict() for g in games_of_log("t1", log1)]  # fmt: skip


def test_games_forwarded_in_small_batches_score_as_one_replay(club: TestClient) -> None:
    """The check continues each table's last game batch by batch; the pages show the same
    games as a replay of the whole log (two games, the second cut mid-deal)."""
    service = service_of(club)
    log = table_log("t1", [("veliki-satir", NAMES, SATIR_11[:2]),
                           ("subrosa", NAMES, SATIR_11[:0])])  # fmt: skip
    log += table_log("tx", [("veliki-satir", NAMES[::-1], SATIR_11[2:4])])[:-5]
    log = [LogEntry(f"e{i}", e.kind, e.payload, i, e.ts) for i, e in enumerate(log, start=1)]
    key = service.store.issue_key("t1")
    auth = {"Authorization": f"Bearer {key}"}
    for start in range(0, len(log), 7):
        r = club.post("/api/v1/tables/t1/events", json={"events": wire(log[start : start + 7])},
                      headers=auth)  # fmt: skip
        assert r.status_code == 200, r.text
        if start % 21 == 0:
            assert club.get("/").status_code == 200  # the pages read between batches
    assert club.get("/api/v1/tables/t1/games").json() == [
        g.to_dict() for g in games_of_log("t1", log)]  # fmt: skip
    assert [g["game"] for g in club.get("/api/v1/tables/t1/games").json()] == [
        "veliki-satir", "subrosa", "veliki-satir"]  # fmt: skip


def test_a_table_forwarding_a_bad_event_stops_there_with_the_good_events_stored(
    tmp_path: Path,
) -> None:
    log = table_log("t1", [("veliki-satir", NAMES, SATIR_11[:1])])
    k = three_plays(log)
    local = EventStore(tmp_path / "t1.sqlite3", "t1")
    for entry in log[: k + 1]:
        local.append(entry)
    bad = out_of_turn(log, log[k], k + 2)
    local.append(LogEntry(bad["id"], bad["kind"], bad["payload"], 0, bad["ts"]))
    for entry in log[k + 1 :]:  # the table went on; the club must not take what follows
        local.append(entry)
    settings = ClubSettings(database_url=str(tmp_path / "club.sqlite3"))
    app = create_app(settings)
    with BackgroundServer(app) as server:
        service = app.state.service
        forwarder = Forwarder(local, server=server.url, key=service.store.issue_key("t1"))
        with pytest.raises(BatchRefusedError, match=f"refused event seq {k + 2} .*out-of-turn"):
            forwarder.run(threading.Event(), until_caught_up=True)
        assert forwarder.stored_upto == k + 1 == service.store.event_count("t1")
        assert [e.id for e in service.store.entries("t1")] == [e.id for e in log[: k + 1]]
        assert service.status()["tables"][0]["refused_batches"] == 1
    local.close()


def test_refused_batches_are_counted_across_a_restart(tmp_path: Path) -> None:
    """A refused batch is kept in the club's database: the status page still counts it, with the
    last one's reason, after the server restarts (it was counted in memory only)."""
    log = table_log("t1", [("veliki-satir", NAMES, SATIR_11[:1])])
    k = three_plays(log)
    settings = ClubSettings(database_url=str(tmp_path / "club.sqlite3"))
    with TestClient(create_app(settings)) as club:
        service = service_of(club)
        key = service.store.issue_key("t1")
        service.ingest("t1", key, incoming(wire(log[: k + 1])))
        for seq in (k + 2, k + 2):  # the table resends the same bad batch
            with pytest.raises(BatchRefused):
                service.ingest("t1", key, incoming([out_of_turn(log, log[k], seq)]))
    with TestClient(create_app(settings)) as club:
        status = club.get("/api/v1/status").json()
        assert status["refused_batches"] == 2
        (t1,) = status["tables"]
        assert (t1["refused_batches"], t1["last_refused"]["seq"]) == (2, k + 2)
        assert t1["last_refused"]["event_id"] == "out-of-turn" and t1["last_refused"]["at"] > 0
        assert "2 batches refused" in club.get("/status").text


def test_concurrent_resends_are_checked_and_stored_once(club: TestClient) -> None:
    service = service_of(club)
    log = wire(table_log("t1", [("veliki-satir", NAMES, SATIR_11[:3])]))
    key = service.store.issue_key("t1")
    errors: list[BaseException] = []

    def resend(start: int) -> None:  # overlapping batches from 6 threads at once
        try:
            for i in range(start, len(log), 11):
                service.ingest("t1", key, incoming(log[: i + 11]))
                service.table_games("t1")  # the pages read in between
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=resend, args=(s,)) for s in range(6)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    assert service.store.event_count("t1") == len(log)
    assert [g.to_dict() for g in service.table_games("t1")] == [
        g.to_dict() for g in games_of_log("t1", service.store.entries("t1"))]  # fmt: skip
    assert club.get("/api/v1/status").json()["refused_batches"] == 0


def test_a_damaged_table_store_stops_the_forwarder_naming_the_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An entry altered in the table's own file (its checksum no longer holds) is never sent and
    never retried in a loop: the forwarder stops with a ForwardError naming it."""
    log = table_log("t1", [("veliki-satir", NAMES, SATIR_11[:1])])
    path = tmp_path / "t1.sqlite3"
    local = EventStore(path, "t1")
    for entry in log[:6]:
        local.append(entry)
    local.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE events SET payload = payload || ' ' WHERE table_id='t1' AND seq=3")
    db.close()
    local = EventStore(path, "t1", readonly=True)
    settings = ClubSettings(database_url=str(tmp_path / "club.sqlite3"))
    app = create_app(settings)
    with BackgroundServer(app) as server:
        service = app.state.service
        forwarder = Forwarder(local, server=server.url, key=service.store.issue_key("t1"))
        with pytest.raises(ForwardError, match="table t1: not forwarded: .*entry 3"):
            forwarder.run(threading.Event(), until_caught_up=True)
        assert service.store.event_count("t1") == 0
        local.close()
        code = main(["club", "forward", str(path), "--table", "t1", "--server", server.url,
                     "--key", service.store.issue_key("t1"), "--once"])  # fmt: skip
        err = capsys.readouterr().err
        assert code == 1 and "not forwarded" in err and "entry 3" in err
        assert service.store.event_count("t1") == 0
