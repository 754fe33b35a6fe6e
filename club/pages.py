"""HTML of the club pages, rendered from the results service's values; every value escaped."""

from __future__ import annotations

import time
from collections.abc import Sequence
from html import escape
from typing import Any
from urllib.parse import quote

from club.results import GameRecord, Penalty
from club.storage import Player

STYLE = """body{font-family:system-ui,sans-serif;margin:1.5rem;color:#222}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}td,th{border:1px solid #ccc;padding:.25rem .5rem}
th{background:#f3f3f3;text-align:left}.off{color:#999}.won{font-weight:bold}nav a{margin-right:1rem}"""


def e(value: object) -> str:
    return escape("" if value is None else str(value))


def when(ts: float | None) -> str:
    return "—" if ts is None else time.strftime("%Y-%m-%d %H:%M", time.localtime(ts))


def page(title: str, body: str) -> str:
    nav = ('<nav><a href="/">Tables</a><a href="/players">Players</a>'
           '<a href="/penalties">Penalties tonight</a></nav>')  # fmt: skip
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{e(title)}'
            f"</title><style>{STYLE}</style></head><body>{nav}<h1>{e(title)}</h1>{body}"
            "</body></html>")  # fmt: skip


def grid(head: Sequence[str], rows: Sequence[Sequence[str]], *, empty: str = "none") -> str:
    if not rows:
        return f"<p>{e(empty)}</p>"
    th = "".join(f"<th>{e(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def game_link(table_id: str, seq: int, text: str) -> str:
    return f'<a href="/tables/{quote(table_id)}/games/{seq}">{e(text)}</a>'


def live_page(tables: Sequence[dict[str, Any]]) -> str:
    rows = []
    for t in tables:
        g = t["current"]
        tid = t["table_id"]
        state = "online" if t["online"] else '<span class="off">offline</span>'
        if g is None:
            game = score = ""
        else:
            game = game_link(tid, g["game_seq"], f"{g['title']} — {', '.join(g['names'])}")
            score = e(" : ".join(g["totals"].values()))
        rows.append([f'<a href="/tables/{quote(tid)}">{e(tid)}</a>', state, game, score,
                     e(g["deals"] if g else 0), e(t["stored_upto"]), e(when(t["last_seen"]))])  # fmt: skip
    return page("Tables", grid(["table", "state", "game", "totals", "deals", "events", "last seen"],
                               rows, empty="no table has a key yet"))  # fmt: skip


def table_page(table_id: str, games: Sequence[GameRecord]) -> str:
    rows = [[game_link(table_id, g.game_seq, g.title), e(when(g.started_ts)), e(", ".join(g.names)),
             e(" : ".join(g.totals.values())), e(g.winner or ("playing" if g.in_progress else "")),
             e(g.deals), e(len(g.penalties))] for g in reversed(games)]  # fmt: skip
    return page(f"Table {table_id}", grid(["game", "started", "players", "totals", "winner",
                                           "deals", "penalties"], rows))  # fmt: skip


def game_page(g: GameRecord) -> str:
    sides = grid(["side", "players", "match points", "partije", "score", "won"],
                 [[e(s.side), e(" & ".join(s.names)), e(s.points), e(s.partije), e(s.score),
                   "yes" if s.won else ""] for s in g.sides])  # fmt: skip
    labels = [s.side for s in g.sides]
    sheet = grid(["partija", "deal", *[f"score {x}" for x in labels],
                  *[f"total {x}" for x in labels], "detail"],
                 [[e(r["partija"]), e(r["deal"]), *[e(r["scores"].get(x, "")) for x in labels],
                   *[e(r["totals"].get(x, "")) for x in labels], e(r["detail"])]
                  for r in g.sheet], empty="no deal finished yet")  # fmt: skip
    pens = penalty_rows(g.penalties)
    title = f"{g.title} at {g.table_id}, {when(g.started_ts)}"
    return page(title, f"<h2>Result</h2>{sides}<h2>Score sheet</h2>{sheet}<h2>Penalties</h2>{pens}")


def penalty_rows(penalties: Sequence[Penalty]) -> str:
    return grid(["table", "game", "deal", "seat", "player", "rule", "trick", "evidence"],
                [[e(p.table_id), game_link(p.table_id, p.game_seq, when(p.started_ts)), e(p.deal),
                  e(p.seat), e(p.name), e(p.rule), e(p.trick), e(p.evidence)]
                 for p in penalties], empty="no penalty")  # fmt: skip


def penalties_page(night: str, penalties: Sequence[Penalty]) -> str:
    return page(f"Penalties, night of {night}", penalty_rows(penalties))


def standing_rows(rows: Sequence[dict[str, Any]]) -> list[list[str]]:
    return [[e(i), e(r["label"]), e(r["games"]), e(r["wins"]), e(r["partije"]), e(r["points"]),
             e(r["score_units"]), e(r["penalties"])] for i, r in enumerate(rows, start=1)]  # fmt: skip


HEAD = ["#", "name", "games", "won", "partije", "match points", "score units", "penalties"]


def report_page(report: dict[str, Any], *, slug: str | None = None) -> str:
    st = report["standings"]
    links = ""
    if slug:
        links = (f'<p>Export: <a href="/export/tournament/{quote(slug)}.csv">CSV</a> · '
                 f'<a href="/export/tournament/{quote(slug)}.json">JSON</a></p>')  # fmt: skip
    games = grid(["game", "table", "players", "winner"],
                 [[game_link(g["table_id"], g["game_seq"], g["title"]), e(g["table_id"]),
                   e(", ".join(g["names"])), e(g["winner"] or "")] for g in report["games"]])  # fmt: skip
    body = (f"{links}<h2>Pairs</h2>{grid(HEAD, standing_rows(st['pairs']))}"
            f"<h2>Individual</h2>{grid(HEAD, standing_rows(st['individual']))}"
            f"<h2>Games</h2>{games}")  # fmt: skip
    return page(report["name"], body)


def players_page(players: Sequence[Player], report: dict[str, Any]) -> str:
    rows = [[f'<a href="/players/{quote(p.club_id)}">{e(p.club_id)}</a>', e(p.name)]
            for p in players]  # fmt: skip
    return page("Players", grid(["club id", "name"], rows, empty="the register is empty")
                + "<h2>All-time standings</h2>" + grid(HEAD, standing_rows(
                    report["standings"]["individual"])))  # fmt: skip


def player_page(name: str, history: Sequence[dict[str, Any]]) -> str:
    rows = [[game_link(h["table_id"], int(h["game_id"].rsplit("/", 1)[1]), when(h["started_ts"])),
             e(h["game"]), e(", ".join(h["with"])), e(", ".join(h["against"])), e(h["points"]),
             e(h["partije"]), e(h["score"]), "won" if h["won"] else "", e(h["penalties"])]
            for h in history]  # fmt: skip
    return page(f"Results of {name}", grid(["game", "kind", "with", "against", "match points",
                                            "partije", "score", "", "penalties"], rows))  # fmt: skip
