"""The club pages, rendered from the results service's values by the Jinja2 templates in
``club/templates/`` (autoescape on: every value is shown as text).

Every page takes ``lang`` (``club.i18n``: English or Serbian) and keeps it in its links. Each
page extends ``base.html``, whose content is ``<main id="live">``, which ``/static/live.js``
(this server's only script) re-fetches whenever the live feed (``GET /events``, ``club.live``)
reports a change."""

from __future__ import annotations

import base64
import hashlib
import time
from collections.abc import Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from club.i18n import rule_name, translator
from club.results import GameRecord, Penalty
from club.storage import Player

#: the pages' templates (Jinja2) and their style
TEMPLATE_DIR = Path(__file__).with_name("templates")
#: the pages' only style, inlined in each page's head (``templates/style.css``); a table wider
#: than a phone scrolls inside its own box, never the page (``display:block``)
STYLE = (TEMPLATE_DIR / "style.css").read_text(encoding="utf-8").strip()
#: the style's hash, which the Content-Security-Policy allows (no other style)
STYLE_HASH = "sha256-" + base64.b64encode(hashlib.sha256(STYLE.encode("utf-8")).digest()).decode()


def when(ts: float | None) -> str:
    return "—" if ts is None else time.strftime("%Y-%m-%d %H:%M", time.localtime(ts))


def _blank(value: object) -> object:
    """A missing value (``None``) is shown as nothing."""
    return "" if value is None else value


TEMPLATES = Environment(
    loader=FileSystemLoader(TEMPLATE_DIR),
    autoescape=True,
    undefined=StrictUndefined,
    finalize=_blank,
    trim_blocks=True,
    lstrip_blocks=True,
)
TEMPLATES.filters["when"] = when
TEMPLATES.filters["quote"] = quote


def render(template: str, title: str, lang: str, here: str, **values: Any) -> str:
    """``template`` with the base layout's values: the title, the language (and its
    translator ``tr``) and the page's own path ``here``, which the language switch links to."""
    return TEMPLATES.get_template(template).render(
        title=title,
        lang=lang,
        other="sr" if lang == "en" else "en",
        q=f"?lang={lang}",
        here=here,
        tr=translator(lang),
        rule=partial(rule_name, lang),
        said=partial(_said, lang),
        style=Markup(STYLE),  # the constant above, whose hash the CSP allows
        **values,
    )


def _said(lang: str, statement: object, fallback: object, names: Sequence[str] = ()) -> str:
    """What the referee said (its code and facts) in the page's language, each seat named by
    its player where ``names`` are given; ``fallback`` (the English text stored with it) for a
    statement of no code the pages know (``web.i18n_referee.word``)."""
    from web.i18n_referee import word

    text = "" if fallback is None else str(fallback)
    if not isinstance(statement, Mapping):
        return text
    return word(statement, lang, fallback=text, names=names)


def with_changes(html: str, changes: int) -> str:
    """``html`` with the store's change count it shows on its ``<main id="live">`` (the script
    fetches the page again when the live feed's count is past it)."""
    return html.replace('<main id="live"', f'<main id="live" data-changes="{int(changes)}"', 1)


def live_page(tables: Sequence[dict[str, Any]], lang: str = "en") -> str:
    return render("live.html", translator(lang)("nav_tables"), lang, "/", tables=tables)


def table_page(table_id: str, games: Sequence[GameRecord], lang: str = "en",
               damage: Sequence[dict[str, Any]] = ()) -> str:  # fmt: skip
    title = translator(lang)("table_title", table=table_id)
    return render("table.html", title, lang, f"/tables/{quote(table_id)}", table_id=table_id,
                  games=list(reversed(games)), damage=damage)  # fmt: skip


def game_page(g: GameRecord, lang: str = "en") -> str:
    tr = translator(lang)
    labels = [s.side for s in g.sides]
    heads = [s.heading for s in g.sides]
    sheet_head = [tr("partija"), tr("deal"), *[tr("score_of", side=x) for x in heads],
                  *[tr("total_of", side=x) for x in heads], tr("detail")]  # fmt: skip
    # where each plays for himself, a side is its player: no column of side numbers
    alone = all(len(s.seats) == 1 for s in g.sides)
    title = tr("game_title", title=g.title, table=g.table_id, when=when(g.started_ts))
    return render("game.html", title, lang, f"/tables/{quote(g.table_id)}/games/{g.game_seq}",
                  g=g, labels=labels, sheet_head=sheet_head, alone=alone)  # fmt: skip


def penalties_page(night: str, penalties: Sequence[Penalty], lang: str = "en",
                   here: str = "/penalties") -> str:  # fmt: skip
    title = translator(lang)("penalties_title", night=night)
    return render("penalties.html", title, lang, here, penalties=penalties)


def report_page(report: dict[str, Any], *, slug: str | None = None, lang: str = "en",
                here: str = "/") -> str:  # fmt: skip
    return render("report.html", report["name"], lang, here, report=report, slug=slug)


def players_page(players: Sequence[Player], report: dict[str, Any], lang: str = "en") -> str:
    title = translator(lang)("nav_players")
    return render("players.html", title, lang, "/players", players=players, report=report)


def player_page(name: str, history: Sequence[dict[str, Any]], lang: str = "en",
                here: str = "/players") -> str:  # fmt: skip
    title = translator(lang)("results_of", name=name)
    return render("player.html", title, lang, here, history=history)


def status_page(status: dict[str, Any], lang: str = "en") -> str:
    refused = [t for t in status["tables"] if t["refused_batches"]]
    damage = [d for t in status["tables"] for d in t["damaged"]]
    return render("status.html", translator(lang)("status_title"), lang, "/status",
                  status=status, refused=refused, damage=damage)  # fmt: skip
