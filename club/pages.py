"""HTML of the club pages, rendered from the results service's values; every value escaped.

Every page takes ``lang`` (``club.i18n``: English or Serbian) and keeps it in its links. Each
page's content is ``<main id="live">``, which ``/static/live.js`` (this server's only script)
re-fetches whenever the live feed (``GET /events``, ``club.live``) reports a change."""

from __future__ import annotations

import base64
import hashlib
import time
from collections.abc import Sequence
from html import escape
from typing import Any
from urllib.parse import quote

from club.i18n import Tr, rule_name, translator
from club.results import GameRecord, Penalty
from club.storage import Player

#: a table wider than a phone scrolls inside its own box, never the page (``display:block``)
STYLE = """body{font-family:system-ui,sans-serif;margin:1.5rem;color:#222}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}td,th{border:1px solid #ccc;padding:.25rem .5rem}
th{background:#f3f3f3;text-align:left}.off{color:#666}.won{font-weight:bold}nav a{margin-right:1rem}
.damaged{color:#b00}h1{overflow-wrap:anywhere}.live{font-size:.9rem}.live.lost{color:#b00}
@media (max-width:600px){body{margin:.75rem}table{display:block;max-width:100%;overflow-x:auto}
nav a{display:inline-block;margin:0 .8rem .3rem 0}}"""
#: the style's hash, which the Content-Security-Policy allows (no other style)
STYLE_HASH = "sha256-" + base64.b64encode(hashlib.sha256(STYLE.encode("utf-8")).digest()).decode()


def e(value: object) -> str:
    return escape("" if value is None else str(value))


def when(ts: float | None) -> str:
    return "—" if ts is None else time.strftime("%Y-%m-%d %H:%M", time.localtime(ts))


def _q(lang: str) -> str:
    """The query that keeps the language in a link (the server's default may be either)."""
    return f"?lang={lang}"


def page(title: str, body: str, lang: str = "en", here: str = "/") -> str:
    tr, q = translator(lang), _q(lang)
    other = "sr" if lang == "en" else "en"
    switch = f"{here}{'&' if '?' in here else '?'}lang={other}"
    nav = (f'<nav><a href="/{q}">{e(tr("nav_tables"))}</a>'
           f'<a href="/players{q}">{e(tr("nav_players"))}</a>'
           f'<a href="/penalties{q}">{e(tr("nav_penalties"))}</a>'
           f'<a href="/status{q}">{e(tr("nav_status"))}</a>'
           f'<a href="{e(switch)}" hreflang="{other}">{e(tr("other_language"))}</a>'
           f'<span id="live-status" class="live" role="status" data-ok="{e(tr("live"))}" '
           f'data-lost="{e(tr("live_lost"))}"></span></nav>')  # fmt: skip
    return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{e(title)}"
            f"</title><style>{STYLE}</style></head><body>{nav}"
            f'<main id="live" aria-live="polite"><h1>{e(title)}</h1>{body}</main>'
            '<script src="/static/live.js" defer></script></body></html>')  # fmt: skip


def with_changes(html: str, changes: int) -> str:
    """``html`` with the store's change count it shows on its ``<main id="live">`` (the script
    fetches the page again when the live feed's count is past it)."""
    return html.replace('<main id="live"', f'<main id="live" data-changes="{int(changes)}"', 1)


def grid(head: Sequence[str], rows: Sequence[Sequence[str]], *, empty: str = "none") -> str:
    if not rows:
        return f"<p>{e(empty)}</p>"
    th = "".join(f"<th>{e(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def game_link(table_id: str, seq: int, text: str, lang: str = "en") -> str:
    return f'<a href="/tables/{quote(table_id)}/games/{seq}{_q(lang)}">{e(text)}</a>'


def live_page(tables: Sequence[dict[str, Any]], lang: str = "en") -> str:
    tr = translator(lang)
    rows = []
    for t in tables:
        g = t["current"]
        tid = t["table_id"]
        state = e(tr("online")) if t["online"] else f'<span class="off">{e(tr("offline"))}</span>'
        if t.get("damaged"):
            state += f' <strong class="damaged">{e(tr("damaged"))}</strong>'
        for call in g["calls"] if g else []:
            who = call["name"] if call["seat"] is not None else tr("whole_table")
            state += (f' <strong class="director-call" data-seat="{e(call["seat"])}">'
                      f'{e(tr("director_called", who=who))}</strong>')  # fmt: skip
        if g is None:
            game = score = ""
        else:
            game = game_link(tid, g["game_seq"], f"{g['title']} — {', '.join(g['names'])}", lang)
            score = e(" : ".join(g["totals"].values()))
        rows.append([f'<a href="/tables/{quote(tid)}{_q(lang)}">{e(tid)}</a>', state, game, score,
                     e(g["deals"] if g else 0), e(t["stored_upto"]), e(when(t["last_seen"]))])  # fmt: skip
    head = [tr(k) for k in ("table", "state", "game", "totals", "deals", "events", "last_seen")]
    return page(tr("nav_tables"), grid(head, rows, empty=tr("no_tables")), lang, "/")


def damage_list(damage: Sequence[dict[str, Any]], lang: str = "en") -> str:
    tr = translator(lang)
    if not damage:
        return f"<p>{e(tr('no_damage'))}</p>"
    items = "".join(f'<li class="damaged">{e(d["table_id"])}: {e(tr("damaged_game", **d))}</li>'
                    for d in damage)  # fmt: skip
    return f"<ul>{items}</ul>"


def table_page(table_id: str, games: Sequence[GameRecord], lang: str = "en",
               damage: Sequence[dict[str, Any]] = ()) -> str:  # fmt: skip
    tr = translator(lang)
    broken = f"<h2>{e(tr('damaged_h'))}</h2>{damage_list(damage, lang)}" if damage else ""
    rows = [[game_link(table_id, g.game_seq, g.title, lang), e(when(g.started_ts)),
             e(", ".join(g.names)), e(" : ".join(g.totals.values())),
             e(g.winner or (tr("playing") if g.in_progress else "")), e(g.deals),
             e(len(g.penalties))] for g in reversed(games)]  # fmt: skip
    head = [tr(k) for k in ("game", "started", "players", "totals", "winner", "deals", "penalties")]
    return page(tr("table_title", table=table_id), broken + grid(head, rows, empty=tr("none")),
                lang, f"/tables/{quote(table_id)}")  # fmt: skip


def game_page(g: GameRecord, lang: str = "en") -> str:
    tr = translator(lang)
    sides = grid([tr(k) for k in ("side", "players", "match_points", "partije", "score", "won")],
                 [[e(s.side), e(" & ".join(s.names)), e(s.points), e(s.partije), e(s.score),
                   e(tr("yes")) if s.won else ""] for s in g.sides])  # fmt: skip
    labels = [s.side for s in g.sides]
    sheet = grid([tr("partija"), tr("deal"), *[tr("score_of", side=x) for x in labels],
                  *[tr("total_of", side=x) for x in labels], tr("detail")],
                 [[e(r["partija"]), e(r["deal"]), *[e(r["scores"].get(x, "")) for x in labels],
                   *[e(r["totals"].get(x, "")) for x in labels], e(r["detail"])]
                  for r in g.sheet], empty=tr("no_deal"))  # fmt: skip
    pens = penalty_rows(g.penalties, lang)
    if g.unconfirmed:
        numbers = ", ".join(str(n) for n in g.unconfirmed)
        sheet = (
            f'<p class="unconfirmed"><strong>{e(tr("unconfirmed", deals=numbers))}</strong></p>'
            + sheet
        )
    title = tr("game_title", title=g.title, table=g.table_id, when=when(g.started_ts))
    return page(title, f"<h2>{e(tr('result'))}</h2>{sides}<h2>{e(tr('score_sheet'))}</h2>{sheet}"
                f"<h2>{e(tr('penalties_h'))}</h2>{pens}", lang,
                f"/tables/{quote(g.table_id)}/games/{g.game_seq}")  # fmt: skip


def penalty_rows(penalties: Sequence[Penalty], lang: str = "en") -> str:
    tr = translator(lang)
    head = [tr(k) for k in ("table", "game", "deal", "seat", "player", "rule", "trick", "evidence")]
    return grid(head,
                [[e(p.table_id), game_link(p.table_id, p.game_seq, when(p.started_ts), lang),
                  e(p.deal), e(p.seat), e(p.name), e(rule_name(lang, p.rule)), e(p.trick),
                  e(p.evidence)] for p in penalties], empty=tr("no_penalty"))  # fmt: skip


def penalties_page(night: str, penalties: Sequence[Penalty], lang: str = "en",
                   here: str = "/penalties") -> str:  # fmt: skip
    tr = translator(lang)
    return page(tr("penalties_title", night=night), penalty_rows(penalties, lang), lang, here)


def standing_rows(rows: Sequence[dict[str, Any]]) -> list[list[str]]:
    return [[e(i), e(r["label"]), e(r["games"]), e(r["wins"]), e(r["partije"]), e(r["points"]),
             e(r["score_units"]), e(r["penalties"])] for i, r in enumerate(rows, start=1)]  # fmt: skip


def standing_head(tr: Tr) -> list[str]:
    return ["#", *(tr(k) for k in ("name", "games", "won", "partije", "match_points",
                                    "score_units", "penalties"))]  # fmt: skip


def report_page(report: dict[str, Any], *, slug: str | None = None, lang: str = "en",
                here: str = "/") -> str:  # fmt: skip
    tr = translator(lang)
    head = standing_head(tr)
    st = report["standings"]
    links = ""
    if slug:
        links = (f'<p>{e(tr("export"))}: <a href="/export/tournament/{quote(slug)}.csv">CSV</a> · '
                 f'<a href="/export/tournament/{quote(slug)}.json">JSON</a></p>')  # fmt: skip
    games = grid([tr(k) for k in ("game", "table", "players", "winner")],
                 [[game_link(g["table_id"], g["game_seq"], g["title"], lang), e(g["table_id"]),
                   e(", ".join(g["names"])), e(g["winner"] or "")] for g in report["games"]],
                 empty=tr("none"))  # fmt: skip
    if report.get("damaged"):
        links += (f'<h2 class="damaged">{e(tr("damaged_h"))}</h2>'
                  f"{damage_list(report['damaged'], lang)}")  # fmt: skip
    body = (f"{links}<h2>{e(tr('pairs'))}</h2>{grid(head, standing_rows(st['pairs']), empty=tr('none'))}"
            f"<h2>{e(tr('individual'))}</h2>"
            f"{grid(head, standing_rows(st['individual']), empty=tr('none'))}"
            f"<h2>{e(tr('games_h'))}</h2>{games}")  # fmt: skip
    return page(report["name"], body, lang, here)


def players_page(players: Sequence[Player], report: dict[str, Any], lang: str = "en") -> str:
    tr = translator(lang)
    rows = [[f'<a href="/players/{quote(p.club_id)}{_q(lang)}">{e(p.club_id)}</a>', e(p.name)]
            for p in players]  # fmt: skip
    return page(tr("nav_players"),
                grid([tr("club_id"), tr("name")], rows, empty=tr("empty_register"))
                + f"<h2>{e(tr('all_time'))}</h2>"
                + grid(standing_head(tr), standing_rows(report["standings"]["individual"]),
                       empty=tr("none")), lang, "/players")  # fmt: skip


def player_page(name: str, history: Sequence[dict[str, Any]], lang: str = "en",
                here: str = "/players") -> str:  # fmt: skip
    tr = translator(lang)
    rows = [[game_link(h["table_id"], int(h["game_id"].rsplit("/", 1)[1]), when(h["started_ts"]),
                       lang),
             e(h["game"]), e(", ".join(h["with"])), e(", ".join(h["against"])), e(h["points"]),
             e(h["partije"]), e(h["score"]), e(tr("won")) if h["won"] else "", e(h["penalties"])]
            for h in history]  # fmt: skip
    head = [tr(k) for k in ("game", "kind", "with", "against", "match_points", "partije",
                            "score")] + ["", tr("penalties")]  # fmt: skip
    return page(tr("results_of", name=name), grid(head, rows, empty=tr("none")), lang, here)


def status_page(status: dict[str, Any], lang: str = "en") -> str:
    tr = translator(lang)
    refused = [[e(t["table_id"]), e(t["refused_batches"]),
                e(t["last_refused"]["error"]) if t["last_refused"] else "",
                e(when(t["last_refused"]["at"])) if t["last_refused"] else ""]
               for t in status["tables"] if t["refused_batches"]]  # fmt: skip
    damage = [d for t in status["tables"] for d in t["damaged"]]
    body = (f"<h2>{e(tr('refused_h'))}</h2>"
            f"<p>{e(tr('refused_total', count=status['refused_batches']))}</p>"
            + grid([tr("table"), tr("refused"), tr("last_refused"), tr("last_seen")], refused,
                   empty=tr("no_refusal"))
            + f"<h2>{e(tr('damaged_h'))}</h2>{damage_list(damage, lang)}")  # fmt: skip
    return page(tr("status_title"), body, lang, "/status")
