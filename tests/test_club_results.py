"""Club results: games cut from a table's log and replayed, standings that follow people,
penalties, and the pages, API and exports of the club server (on SQLite, in process)."""

from __future__ import annotations

import csv
import io
import json
import re
import string
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from club.app import create_app
from club.i18n import STRINGS
from club.results import Register, games_of_log, split_games, standings
from club.service import ClubSettings
from club.simulate import CLUB_PLAYERS, feed
from club.storage import ClubStore, LogConflict, Player, incoming
from kibic.demo import demo_transcript
from kibic.runtime import TableRuntime
from kibic.store import EventStore, LogEntry

TRANSCRIPTS = Path(__file__).parent / "transcripts"
REVOKE = json.loads((TRANSCRIPTS / "satir_revoke.json").read_text(encoding="utf-8"))
REGISTER = Register(Player(cid, name) for cid, name in CLUB_PLAYERS)
#: Veliki Satir, seed 3: side B wins the first partija at deal 11 (one match point)
SATIR_11 = demo_transcript("veliki-satir", deals=11, seed=3)["deals"]


def table_log(table_id: str, games: list[tuple[str, list[str], list[dict]]]) -> list[LogEntry]:
    store = EventStore(":memory:", table_id)
    runtime: TableRuntime | None = None
    for number, (spec, names, deals) in enumerate(games, start=1):
        if runtime is None:
            runtime = TableRuntime(store, table_id=table_id, game=spec, names=names)
        else:
            runtime.start_game(spec, names=names)
        feed(runtime, deals, prefix=f"g{number}-")
    return store.entries()


def test_a_log_is_cut_into_games_replayed_as_the_table_scored_them() -> None:
    store = EventStore(":memory:", "t1")
    runtime = TableRuntime(store, table_id="t1", game="veliki-satir", names=["A", "B", "C", "D"])
    feed(runtime, SATIR_11, prefix="g1-")
    first = runtime.match.to_dict() if runtime.match else {}
    first_log_len = len(store.entries())
    runtime.start_game("subrosa", names=["E", "F", "G", "H"])
    feed(runtime, demo_transcript("subrosa", deals=2, seed=9)["deals"], prefix="g2-")
    entries = store.entries()

    first_len = first_log_len
    assert [len(part) for part in split_games(entries)] == [first_len, len(entries) - first_len]
    satir, subrosa = games_of_log("t1", entries)
    assert (satir.game_seq, subrosa.game_seq) == (1, first_len + 1)
    assert satir.spec == "veliki-satir" and subrosa.spec == "subrosa"
    assert satir.partija_winners == ("B",) and satir.deals == 11
    assert {s.side: s.points for s in satir.sides} == {"A": 0, "B": 1}
    assert satir.totals == first["totals"]
    assert [s.names for s in satir.sides] == [("A", "C"), ("B", "D")]
    assert subrosa.deals == 2 and subrosa.in_progress
    assert subrosa.to_dict()["sheet"] == runtime.match.to_dict()["rows"]  # type: ignore[union-attr]


def test_standings_follow_people_by_club_id_or_name_and_rank_by_match_points() -> None:
    # the same pair (Ana & Cica) sits at two tables, once typed as club ids, once as names
    logs = {
        "t1": table_log("t1", [("veliki-satir", ["SR001", "Bora Jovanović", "SR003", "SR004"],
                                 SATIR_11)]),
        "t2": table_log("t2", [("veliki-satir", ["ana petrović", "Ema Đorđević",
                                                 "Cica Nikolić", "Filip"], SATIR_11)]),
    }  # fmt: skip
    games = [g for tid, log in logs.items() for g in games_of_log(tid, log)]
    pairs = standings(games, REGISTER, pairs=True)
    assert [(p.label, p.games, p.points, p.partije) for p in pairs] == [
        ("Bora Jovanović & Dule Marković", 1, 1, 1),
        ("Ema Đorđević & Filip", 1, 1, 1),
        ("Ana Petrović & Cica Nikolić", 2, 0, 0),
    ]
    assert pairs[2].key == "SR001+SR003"
    assert pairs[1].members == ("SR005", "?filip")
    people = {p.key: p for p in standings(games, REGISTER, pairs=False)}
    assert set(people) == {"SR001", "SR002", "SR003", "SR004", "SR005", "?filip"}
    assert (people["SR001"].games, people["SR001"].points) == (2, 0)
    assert (people["SR002"].games, people["SR002"].points) == (1, 1)
    b_units = games[0].sides[1].score_units
    assert people["?filip"].score_units == b_units and b_units > 0


def test_a_revoke_becomes_a_penalty_of_the_person_at_the_seat() -> None:
    log = table_log("t9", [("veliki-satir", ["SR010", "SR011", "SR012", "SR013"],
                            REVOKE["deals"] + SATIR_11[:1])])  # fmt: skip
    (game,) = games_of_log("t9", log)
    (penalty,) = game.penalties
    assert (penalty.deal, penalty.seat, penalty.name, penalty.rule, penalty.trick) == (
        1, 2, "SR012", "follow-suit", 1)  # fmt: skip
    assert "played 2H" in penalty.evidence
    assert {s.side: s.score_units for s in game.sides}["B"] >= 200
    person = {p.key: p for p in standings([game], REGISTER, pairs=False)}
    assert person["SR012"].penalties == 1 and person["SR010"].penalties == 0
    # the club's pages give the evidence and the sheet's details in the page's language
    from html import unescape

    from club.pages import game_page
    from web.i18n_referee import word

    page = unescape(game_page(game, "sr"))
    assert penalty.said is not None and penalty.said["code"] == "revoke.later_card"
    assert word(penalty.said, "sr") in page and "2♥" in word(penalty.said, "sr")
    assert penalty.evidence not in page  # the stored English text
    detail = word(game.sheet[0]["said"], "sr", names=game.names)
    assert detail and detail != game.sheet[0]["detail"] and detail in page


# -- the server in process (SQLite) ------------------------------------------------------------
@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = ClubSettings(database_url=str(tmp_path / "club.sqlite3"), admin_token="sesame")
    with TestClient(create_app(settings)) as c:
        yield c


def wire(entries: list[LogEntry]) -> list[dict]:
    return [e.to_dict() for e in entries]


def test_ingest_is_idempotent_ordered_and_refuses_a_reset_log(client: TestClient) -> None:
    store: ClubStore = client.app.state.service.store  # type: ignore[attr-defined]
    key = store.issue_key("t1")
    # keys are hex: none begins with '-', which `club forward --key` would take for an option
    assert all(re.fullmatch("[0-9a-f]{64}", store.issue_key("t9")) for _ in range(64))
    log = table_log("t1", [("subrosa", ["a", "b", "c", "d"],
                            demo_transcript("subrosa", deals=3, seed=1)["deals"])])  # fmt: skip
    assert len(log) > 12
    auth = {"Authorization": f"Bearer {key}"}
    url = "/api/v1/tables/t1/events"
    r = client.post(url, json={"events": wire(log[:5])}, headers=auth)
    assert r.json() == {"table_id": "t1", "stored_upto": 5, "accepted": 5}
    # a resend overlapping what is stored, with a gap after seq 8: 6..8 stored, the rest waits
    batch = wire(log[2:8] + log[9:12])
    assert client.post(url, json={"events": batch}, headers=auth).json()["stored_upto"] == 8
    r = client.post(url, json={"events": wire(log[:12])}, headers=auth)
    assert (r.json()["stored_upto"], r.json()["accepted"]) == (12, 4)
    assert client.get("/api/v1/tables/t1/cursor", headers=auth).json()["stored_upto"] == 12
    assert [e.id for e in store.entries("t1")] == [e.id for e in log[:12]]
    # a different event at a stored seq: the table's log was reset
    forged = dict(wire(log[3:4])[0], id="other")
    r = client.post(url, json={"events": [forged]}, headers=auth)
    assert r.status_code == 409 and r.json()["detail"]["stored_upto"] == 12
    with pytest.raises(LogConflict):
        store.ingest("t1", key, incoming([forged]))
    assert (
        client.post(url, json={"events": []}, headers={"Authorization": "Bearer x"}).status_code
        == 401
    )
    assert client.get("/api/v1/tables/t2/cursor", headers=auth).status_code == 401
    assert store.event_count("t1") == 12


def test_pages_api_and_exports_of_a_night_and_a_tournament(client: TestClient) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    admin = {"Authorization": "Bearer sesame"}
    for cid, name in CLUB_PLAYERS[:6]:
        assert client.post("/api/v1/players", json={"club_id": cid, "name": name},
                           headers=admin).status_code == 201  # fmt: skip
    assert client.post("/api/v1/players", json={"club_id": "SR001", "name": "X"},
                       headers=admin).status_code == 409  # fmt: skip
    assert client.post("/api/v1/players", json={"club_id": "Z", "name": "Z"}).status_code == 401
    logs = {
        "t1": table_log("t1", [("veliki-satir", ["SR001", "SR002", "SR003", "SR004"],
                                REVOKE["deals"] + SATIR_11)]),
        "t2": table_log("t2", [("veliki-satir", ["SR005", "SR002", "SR006", "SR004"], SATIR_11)]),
    }  # fmt: skip
    for tid, log in logs.items():
        key = service.store.issue_key(tid)
        service.store.ingest(tid, key, incoming(wire(log)))
    now = time.time()
    r = client.post("/api/v1/tournaments", headers=admin, json={
        "slug": "prvenstvo", "name": "Prvenstvo SubRosa", "starts_at": now - 3600,
        "ends_at": now + 3600, "tables": ["t2"]})  # fmt: skip
    assert r.status_code == 201

    live = client.get("/api/v1/tables").json()
    assert [(t["table_id"], t["online"], t["current"]["deals"]) for t in live] == [
        ("t1", True, 12), ("t2", True, 11)]  # fmt: skip
    page = client.get("/").text
    assert "Ana Petrović" not in page and "SR001" in page and ">t2</a>" in page
    # each side's running total beside its players, not a bare "10.2 : 0.0"
    totals = live[0]["current"]["totals"]
    assert (f'<span data-side="A">SR001 &amp; SR003 {totals["A"]}</span> · '
            f'<span data-side="B">SR002 &amp; SR004 {totals["B"]}</span>') in page  # fmt: skip
    game_page = client.get("/tables/t1/games/1").text
    assert "follow-suit" in game_page and "Score sheet" in game_page
    assert client.get("/tables/t1/games/99").status_code == 404

    night = service.night_of(now).isoformat()
    pens = client.get(f"/api/v1/penalties?night={night}").json()
    assert [(p["table_id"], p["seat"], p["name"], p["rule"]) for p in pens] == [
        ("t1", 2, "SR003", "follow-suit")]  # fmt: skip
    assert "follow-suit" in client.get("/penalties").text

    standing = client.get("/api/v1/tournaments/prvenstvo/standings").json()
    assert [(r["label"], r["points"]) for r in standing["pairs"]] == [
        ("Bora Jovanović & Dule Marković", 1), ("Ema Đorđević & Filip Stojanović", 0)]  # fmt: skip
    assert [r["key"] for r in standing["individual"]][:2] == ["SR002", "SR004"]
    assert "Prvenstvo SubRosa" in client.get("/tournaments/prvenstvo").text

    rows = list(csv.DictReader(io.StringIO(client.get(f"/export/night/{night}.csv").text)))
    assert [(r["table"], r["side"], r["club_ids"], r["points"], r["penalties"]) for r in rows] == [
        ("t1", "A", "SR001 SR003", "0", "1"), ("t1", "B", "SR002 SR004", "1", "0"),
        ("t2", "A", "SR005 SR006", "0", "0"), ("t2", "B", "SR002 SR004", "1", "0")]  # fmt: skip
    data = client.get("/export/tournament/prvenstvo.json").json()
    assert [g["table_id"] for g in data["games"]] == ["t2"] and data["penalties"] == []
    history = client.get("/api/v1/players/SR002/results").json()
    assert [(h["table_id"], h["with"], h["points"]) for h in history] == [
        ("t1", ["SR004"], 1), ("t2", ["SR004"], 1)]  # fmt: skip
    assert "Results of Bora Jovanović" in client.get("/players/SR002").text
    assert client.get("/export/night/not-a-date.csv").status_code == 422

    # the same pages in Serbian: the language stays in every link, the rule has its name
    sr = client.get("/tables/t1/games/1?lang=sr").text
    assert '<html lang="sr">' in sr and "<h2>Lista rezultata</h2>" in sr
    assert "nije odgovorio na boju (follow-suit)" in sr
    assert '<a href="/players?lang=sr">Igrači</a>' in sr
    assert '<a href="/tables/t1/games/1?lang=en" hreflang="en">English</a>' in sr
    assert f"Kazne, veče {night}" in client.get(f"/penalties?night={night}&lang=sr").text
    assert f'href="/penalties?night={night}&amp;lang=en"' in client.get(
        f"/penalties?night={night}&lang=sr").text  # fmt: skip
    assert "Rezultati: Bora Jovanović" in client.get("/players/SR002?lang=sr").text
    assert ">Parovi</h2>" in client.get("/tournaments/prvenstvo?lang=sr").text
    english = client.get("/?lang=de").text  # a language the pages do not have: English
    assert '<html lang="en">' in english and ">Tables</a>" in english
    assert "failed to follow suit (follow-suit)" in game_page


def test_club_pages_have_every_word_in_both_languages() -> None:
    fields = {lang: {k: sorted(string.Formatter().parse(v)) for k, v in words.items()}
              for lang, words in STRINGS.items()}  # fmt: skip
    assert fields["sr"].keys() == fields["en"].keys()
    for key in fields["en"]:
        names = {lang: {f[1] for f in fields[lang][key] if f[1]} for lang in fields}
        assert names["sr"] == names["en"], key


def test_a_won_games_result_by_the_rules_is_on_the_clubs_page(client: TestClient) -> None:
    """Gin's settlement for stakes (§14.5): Ana won 100 : 80 with 6 hands to 2."""
    gin = demo_transcript("gin-rummy", deals=0, seed=3)["deals"]
    log = table_log("t3", [("gin-rummy", ["Ana", "Bora"], gin)])
    (record,) = games_of_log("t3", log)
    assert record.winner == "0" and record.final == {"0": 200, "1": -200}
    assert record.to_dict()["final"] == {"0": 200, "1": -200}
    store: ClubStore = client.app.state.service.store  # type: ignore[attr-defined]
    key = store.issue_key("t3")
    auth = {"Authorization": f"Bearer {key}"}
    assert client.post("/api/v1/tables/t3/events", json={"events": wire(log)},
                       headers=auth).status_code == 200  # fmt: skip
    page = client.get(f"/tables/t3/games/{record.game_seq}?lang=en").text
    assert "<strong>the match&#39;s result by the rules:</strong> Ana +200 · Bora -200" in page
    # each plays for himself: the result names the players, the sheet's columns too
    assert "<td>0</td><td>Ana</td>" not in page and "<td>Ana</td>" in page
    assert "score Ana" in page and "total Bora" in page and "score 0" not in page


def test_the_live_page_names_dvoglavacs_bank_beside_the_players_totals(client: TestClient) -> None:
    dvoglavac = demo_transcript("dvoglavac", deals=2, seed=7)["deals"]
    log = table_log("t4", [("dvoglavac", ["Ana", "Bora", "Cica", "Dule"], dvoglavac)])
    (record,) = games_of_log("t4", log)
    store: ClubStore = client.app.state.service.store  # type: ignore[attr-defined]
    auth = {"Authorization": f"Bearer {store.issue_key('t4')}"}
    assert client.post("/api/v1/tables/t4/events", json={"events": wire(log)},
                       headers=auth).status_code == 200  # fmt: skip
    page = client.get("/?lang=sr").text
    cell = page.split('<td class="totals">')[1].split("</td>")[0]
    t = record.totals
    assert (
        " · ".join(
            f'<span data-side="{s}">{n} {t[s]}</span>'
            for s, n in zip("0123", ["Ana", "Bora", "Cica", "Dule"], strict=True)
        )
        in cell
    )
    assert f'<span data-side="Bank">banka {t["Bank"]}</span>' in cell
