"""The club pages' words in Serbian and English (``?lang=sr`` / ``?lang=en``).

The language is chosen as the table's pages choose it (``web.i18n.resolve_language``): the
link's ``?lang=``, else the server's default (``ClubSettings.language``, English unless
``kibic club serve --language sr``); every page links to the other language and every link
keeps the one in use. Rule names come from the dashboard's own table (``web.i18n``), so a
revoke is called the same at the table and on the club's pages.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from web import i18n as dashboard

LANGUAGES: Final = ("en", "sr")

_EN: Final[dict[str, str]] = {
    "nav_tables": "Tables",
    "nav_players": "Players",
    "nav_penalties": "Penalties tonight",
    "other_language": "Srpski",
    "none": "none",
    "table": "table",
    "state": "state",
    "game": "game",
    "totals": "totals",
    "bank": "bank",
    "deals": "deals",
    "events": "events",
    "last_seen": "last seen",
    "online": "online",
    "offline": "offline",
    "no_tables": "no table has a key yet",
    "table_title": "Table {table}",
    "started": "started",
    "players": "players",
    "winner": "winner",
    "final": "the match's result by the rules",
    "penalties": "penalties",
    "playing": "playing",
    "side": "side",
    "match_points": "match points",
    "partije": "partije",
    "score": "score",
    "won": "won",
    "yes": "yes",
    "partija": "partija",
    "deal": "deal",
    "score_of": "score {side}",
    "total_of": "total {side}",
    "detail": "detail",
    "no_deal": "no deal finished yet",
    "game_title": "{title} at {table}, {when}",
    "result": "Result",
    "score_sheet": "Score sheet",
    "penalties_h": "Penalties",
    "seat": "seat",
    "player": "player",
    "rule": "rule",
    "trick": "trick",
    "evidence": "evidence",
    "no_penalty": "no penalty",
    "penalties_title": "Penalties, night of {night}",
    "name": "name",
    "games": "games",
    "score_units": "score units",
    "export": "Export",
    "pairs": "Pairs",
    "individual": "Individual",
    "games_h": "Games",
    "club_id": "club id",
    "empty_register": "the register is empty",
    "all_time": "All-time standings",
    "results_of": "Results of {name}",
    "kind": "kind",
    "with": "with",
    "against": "against",
    "damaged": "damaged",
    "director_called": "director called by {who}",
    "whole_table": "the whole table",
    "unconfirmed": "not yet confirmed by both sides: deal {deals}",
    "damaged_h": "Damaged games",
    "damaged_game": "game of seq {game_seq}: event seq {seq} does not replay ({reason})",
    "nav_status": "Status",
    "status_title": "Club server status",
    "refused_h": "Refused batches",
    "refused_total": "{count} batches refused",
    "refused": "refused",
    "last_refused": "last refused event",
    "no_refusal": "no batch refused",
    "no_damage": "no damaged game",
    # live updates (club.live): the page's own state of its feed
    "live": "live",
    "live_lost": "connection lost, reconnecting…",
}

_SR: Final[dict[str, str]] = {
    "nav_tables": "Stolovi",
    "nav_players": "Igrači",
    "nav_penalties": "Kazne večeras",
    "other_language": "English",
    "none": "nema",
    "table": "sto",
    "state": "stanje",
    "game": "igra",
    "totals": "ukupno",
    "bank": "banka",
    "deals": "deljenja",
    "events": "događaji",
    "last_seen": "poslednji put",
    "online": "na vezi",
    "offline": "van veze",
    "no_tables": "nijedan sto još nema ključ",
    "table_title": "Sto {table}",
    "started": "početak",
    "players": "igrači",
    "winner": "pobednik",
    "final": "obračun meča po pravilima",
    "penalties": "kazne",
    "playing": "u toku",
    "side": "strana",
    "match_points": "bodovi meča",
    "partije": "partije",
    "score": "rezultat",
    "won": "pobeda",
    "yes": "da",
    "partija": "partija",
    "deal": "deljenje",
    "score_of": "rezultat {side}",
    "total_of": "ukupno {side}",
    "detail": "detalji",
    "no_deal": "još nijedno deljenje",
    "game_title": "{title} za stolom {table}, {when}",
    "result": "Ishod",
    "score_sheet": "Lista rezultata",
    "penalties_h": "Kazne",
    "seat": "mesto",
    "player": "igrač",
    "rule": "pravilo",
    "trick": "štih",
    "evidence": "dokaz",
    "no_penalty": "nema kazni",
    "penalties_title": "Kazne, veče {night}",
    "name": "ime",
    "games": "igre",
    "score_units": "poeni",
    "export": "Izvoz",
    "pairs": "Parovi",
    "individual": "Pojedinačno",
    "games_h": "Igre",
    "club_id": "klupski broj",
    "empty_register": "spisak je prazan",
    "all_time": "Ukupni poredak",
    "results_of": "Rezultati: {name}",
    "kind": "vrsta",
    "with": "sa",
    "against": "protiv",
    "damaged": "oštećen",
    "director_called": "sudiju zove: {who}",
    "whole_table": "ceo sto",
    "unconfirmed": "obe strane još nisu potvrdile: deljenje {deals}",
    "damaged_h": "Oštećene igre",
    "damaged_game": "igra od događaja {game_seq}: događaj {seq} se ne može ponoviti ({reason})",
    "nav_status": "Stanje servera",
    "status_title": "Stanje klupskog servera",
    "refused_h": "Odbijene pošiljke",
    "refused_total": "odbijenih pošiljki: {count}",
    "refused": "odbijeno",
    "last_refused": "poslednji odbijeni događaj",
    "no_refusal": "nijedna pošiljka nije odbijena",
    "no_damage": "nema oštećenih igara",
    # live updates (club.live): the page's own state of its feed
    "live": "uživo",
    "live_lost": "veza prekinuta, ponovno povezivanje…",
}

STRINGS: Final[dict[str, dict[str, str]]] = {"en": _EN, "sr": _SR}

Tr = Callable[..., str]


def resolve(requested: str | None, default: str = "en") -> str:
    """``requested`` when it is a language the pages have, else ``default`` (English if that
    is none of them either).

    >>> resolve("SR"), resolve("de"), resolve(None, "sr"), resolve(None, "xx")
    ('sr', 'en', 'sr', 'en')
    """
    fallback = default if default in LANGUAGES else "en"
    return dashboard.resolve_language(requested, default=fallback)


def translator(lang: str) -> Tr:
    """``tr(key, **fields)`` in ``lang``; an unknown key is returned as it is."""
    table = STRINGS.get(lang, _EN)

    def tr(key: str, **fields: object) -> str:
        text = table.get(key, key)
        return text.format(**fields) if fields else text

    return tr


def rule_name(lang: str, rule: str) -> str:
    """A penalty's rule as the dashboard names it, with its id: 'failed to follow suit
    (follow-suit)'; an id the dashboard does not name is shown as it is."""
    key = f"rule_{rule}"
    if not dashboard.has(lang, key):
        return rule
    return f"{dashboard.t(lang, key)} ({rule})"
