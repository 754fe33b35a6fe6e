"""What the referee says, worded in the page's language: refusals, evidence, score details.

The referee hands over statements (``referee.wording.Said``: a code and its facts); the English
words are the referee's own templates, the Serbian ones are here, one per code. Facts are worded
by their name: cards (``card``, ``held``, ``witness``, ``*_card``) as on the pages (``10♦``,
``Džoker``), card lists (``*cards``) likewise, ``rule`` and ``type``/``*_type`` by name, an
``action`` as a whole phrase (``mesto 1 igra 10♦``). Given the players' names (the dashboard),
a seat is named by its player too, wherever a template says ``mesto {field}`` (``mesto 1
(Dule)``). A statement of a code this table does not
know is shown as the English text it was stored with (``fallback``); the test suite makes sure
every code of the referee is known (``test_referee_wording``).

>>> said = {"code": "revoke.known_hand", "facts": {"seat": 1, "card": "TD", "held": "AC"}}
>>> word(said, "sr", names=["Ana", "Dule"])
'Dule (mesto 1) je odigrao 10♦ iako je držao A♣ (poznata ruka)'
>>> word(said, "en")
'seat 1 played 10♦ while holding A♣ (known hand)'
>>> word({"code": "no.such.code", "facts": {}}, "sr", fallback="as stored")
'as stored'
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, Final

from web.cards import card_text
from web.i18n_referee_sr import SR
from web.plural import fill

#: the action types (``referee.actions.ActionType``) as the admin form and the log name them
ACTION_TYPES: Final[dict[str, dict[str, str]]] = {
    "sr": {
        "play": "igra",
        "contract": "zvanje",
        "bid": "licitira",
        "pass": "dalje",
        "kontra": "kontra",
        "announce": "najavljuje",
        "show": "pokazuje",
        "declare": "zvanje (prijava)",
        "offer": "nudi",
        "knock": "kuca",
        "break": "brejk",
        "reveal": "otkriva",
        "pickup": "uzima",
        "exchange": "menja karte",
        "open": "otvoreno",
        "claim": "traži",
        "draw": "vuče",
        "discard": "odbacuje",
        "layoff": "dodaje",
    },
    "en": {
        "play": "plays",
        "contract": "contract (zvanje)",
        "bid": "bids",
        "pass": "passes",
        "kontra": "kontra",
        "announce": "announces",
        "show": "shows",
        "declare": "declaration (zvanje)",
        "offer": "offers",
        "knock": "knocks",
        "break": "breaks (brejk)",
        "reveal": "reveals",
        "pickup": "picks up",
        "exchange": "exchanges",
        "open": "plays open (otvoreno)",
        "claim": "claims",
        "draw": "draws",
        "discard": "discards",
        "layoff": "lays off",
    },
}

#: the rules a violation names (``Violation.rule``, ``ActionError.rule``)
RULES: Final[dict[str, dict[str, str]]] = {
    "sr": {
        "follow-suit": "nije odgovorio na boju",
        "must-trump": "nije sekao adutom",
        "must-overtake": "nije nadjačao",
        "must-overtrump": "nije nadsekao adutom",
        "out-of-turn": "igra van reda",
        "card-played-twice": "karta odigrana dvaput",
        "procedure": "postupak",
        "compulsory-solo": "obavezan solo",
        "draw-out-of-turn": "vučenje van reda",
        "false-dalje": "lažno 'Dalje'",
        "false-declaration": "lažno zvanje",
        "false-first-trick": "lažno 'Igram sa prvim štihom'",
        "false-marriage": "lažno najavljen par",
        "false-show": "lažno pokazana karta",
        "false-stara-lead": "lažni izlazak sa Starom",
        "first-lead-stara": "prvi izlazak mora biti Stara",
        "first-lead-trump": "prvi izlazak mora biti adut",
        "illegal-knock": "nedozvoljeno kucanje",
        "layoff": "nedozvoljeno dodavanje",
        "rediscard": "odbacivanje uzete karte",
        "second-round": "drugi krug bez prava",
        "second-stara": "druga Stara nije odigrana",
        "ulti-seven-early": "adutska sedmica (ulti) odigrana prerano",
        "wrong-leader": "pogrešan prvi igrač",
        "wrong-payment": "pogrešno plaćanje",
    },
    "en": {
        "follow-suit": "failed to follow suit",
        "must-trump": "failed to trump",
        "must-overtake": "failed to overtake",
        "must-overtrump": "failed to overtrump",
        "out-of-turn": "played out of turn",
        "card-played-twice": "card played twice",
        "procedure": "procedure",
        "compulsory-solo": "compulsory solo",
        "draw-out-of-turn": "drew out of turn",
        "false-dalje": "false 'Dalje'",
        "false-declaration": "false declaration",
        "false-first-trick": "false 'Igram sa prvim štihom'",
        "false-marriage": "false marriage",
        "false-show": "false show",
        "false-stara-lead": "false Stara lead",
        "first-lead-stara": "the first lead must be a Stara",
        "first-lead-trump": "the first lead must be a trump",
        "illegal-knock": "illegal knock",
        "layoff": "illegal lay-off",
        "rediscard": "discarded the card just taken",
        "second-round": "second round not allowed",
        "second-stara": "second Stara not played",
        "ulti-seven-early": "trump seven (ulti) played early",
        "wrong-leader": "wrong leader",
        "wrong-payment": "wrong payment",
    },
}

#: the phases of a deal (``referee.deal.Phase``)
PHASES: Final[dict[str, dict[str, str]]] = {
    "sr": {"setup": "priprema", "auction": "licitacija", "play": "igra", "over": "kraj deljenja"},
    "en": {"setup": "setup", "auction": "bidding", "play": "play", "over": "deal over"},
}


#: the words of the Serbian templates that are also English (never a sign of an untranslated
#: text): names of games, terms the English pages use in Serbian, field names
SHARED_WORDS: Final = frozenset({"kontra", "true", "false"})


def _fields(template: str) -> list[str]:
    return [f.split("!")[0] for _, f, _, _ in string.Formatter().parse(template) if f]


@cache
def english() -> dict[str, str]:
    """Every kind of the referee in English, by code (the referee's own templates)."""
    from referee.wording import load_all

    return {code: kind.english for code, kind in load_all().items()}


def table(lang: str) -> Mapping[str, str]:
    return SR if lang == "sr" else english()


def known(code: str, lang: str) -> bool:
    return code in table(lang)


class _Facts(dict[str, Any]):
    """Worded facts; a field the template names but the facts lack is shown as '?'."""

    def __missing__(self, key: str) -> str:
        return "?"


def _joker(lang: str) -> str:
    return "Džoker" if lang == "sr" else "Joker"


def action_type(kind: object, lang: str) -> str:
    """An action type (``play``, ``offer``...) as the pages name it."""
    return ACTION_TYPES.get(lang, ACTION_TYPES["sr"]).get(str(kind), str(kind))


def rule_name(rule: object, lang: str) -> str:
    return RULES.get(lang, RULES["sr"]).get(str(rule), str(rule))


def _cards(codes: object, lang: str) -> str:
    return " ".join(card_text(c, joker=_joker(lang)) for c in str(codes).split())


def _seat(seat: object, lang: str, names: Sequence[str] = (), *, name_first: bool = False) -> str:
    """``mesto 3`` (``seat 3``); with the players' ``names`` ``mesto 3 (Dule)``, or with
    ``name_first`` ``Dule (mesto 3)`` (``seat_name``: its templates make the verb agree with
    the player, the others with ``mesto``)."""
    number = ("mesto " if lang == "sr" else "seat ") + str(seat)
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return f"{names[seat]} ({number})" if name_first else f"{number} ({names[seat]})"
    return number


def _action(facts: Mapping[str, Any], name: str, lang: str, names: Sequence[str] = ()) -> str:
    seat = facts.get(f"{name}_seat")
    if seat is None:
        return str(facts.get(name, "?"))
    parts = [_seat(seat, lang, names), action_type(facts.get(f"{name}_type"), lang)]
    if f"{name}_card" in facts:
        parts.append(card_text(str(facts[f"{name}_card"]), joker=_joker(lang)))
    if f"{name}_cards" in facts:
        parts.append("[" + _cards(facts[f"{name}_cards"], lang) + "]")
    if f"{name}_value" in facts:
        parts.append(repr(str(facts[f"{name}_value"])))
    return " ".join(parts)


#: the words some facts hold in place of a suit (``led``, ``trump``): the trump, the jokers
SUIT_WORDS: Final[dict[str, dict[str, str]]] = {
    "sr": {"trump": "adut", "joker": "džoker"},
    "en": {"trump": "trump", "joker": "joker"},
}


def _fact(name: str, value: Any, facts: Mapping[str, Any], lang: str,
          names: Sequence[str] = ()) -> object:  # fmt: skip
    base = name.rsplit("_", 1)[-1]
    if name in ("led", "trump") and isinstance(value, str):
        return SUIT_WORDS.get(lang, SUIT_WORDS["sr"]).get(value, value)
    if name in ("rank", "order") and isinstance(value, str):  # ranks as the pages write them
        return " ".join("10" if r == "T" else r for r in value.split(" "))
    if name in ("held", "witness", "other") or base == "card":
        return card_text(str(value), joker=_joker(lang)) if isinstance(value, str) else value
    if base == "cards":
        return _cards(value, lang)
    if name == "rule":
        return rule_name(value, lang)
    if name == "phase":
        return PHASES.get(lang, PHASES["sr"]).get(str(value), str(value))
    if name == "type" or base == "type":
        return action_type(value, lang)
    if name == "action":
        return _action(facts, name, lang, names)
    return value


def _joiner(code: str) -> str:
    from referee.wording import KINDS

    kind = KINDS.get(code)
    return kind.joiner if kind is not None else "; "


def word(
    said: Mapping[str, Any] | None,
    lang: str,
    *,
    fallback: str = "",
    names: Sequence[str] = (),
) -> str:
    """A statement (``{"code", "facts", "inner"}``) in ``lang``; ``fallback`` (the stored
    English text) for a statement of an unknown code or none. ``names``: the players' names,
    for the ``seat_name`` field (a seat's name and number)."""
    if not said or not isinstance(said, Mapping):
        return fallback
    code = str(said.get("code", ""))
    template = table(lang).get(code)
    if template is None:
        return fallback
    facts: Mapping[str, Any] = said.get("facts") or {}
    worded = _Facts({k: _fact(k, v, facts, lang, names) for k, v in facts.items()})
    joiner = _joiner(code)
    for key, parts in (said.get("inner") or {}).items():
        worded[key] = joiner.join(word(p, lang, fallback="?", names=names) for p in parts)
    if "seat_name" in _fields(template) and "seat" in facts:
        worded["seat_name"] = _seat(facts["seat"], lang, names, name_first=True)
    if names:
        template = _seats_named(template, facts, worded, names)
    return fill(template, worded)


SEAT_FIELD: Final = re.compile(r"\b([Ss]eat|[Mm]esto) \{(\w+)\}")


def _seats_named(template: str, facts: Mapping[str, Any], worded: dict[str, Any],
                 names: Sequence[str]) -> str:  # fmt: skip
    """``template`` with each ``seat {field}`` (``mesto {field}``) of a seat's number followed
    by the player's name: ``mesto 3 (Dule) je odigralo``, the verb still agreeing with
    ``mesto`` as the template wrote it.

    >>> worded: dict[str, Any] = {}
    >>> t = _seats_named("Seat {seat} leads, seat {other} follows", {"seat": 1, "other": 0},
    ...                  worded, ["Ana", "Dule"])
    >>> fill(t, worded)
    'Seat 1 (Dule) leads, seat 0 (Ana) follows'
    """

    def named(match: re.Match[str]) -> str:
        word_, field = match.group(1), match.group(2)
        seat = facts.get(field)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(names):
            return match.group(0)
        key = f"{field}__named"
        worded[key] = f"{word_} {seat} ({names[seat]})"  # as _seat, in the template's word
        return "{" + key + "}"

    return SEAT_FIELD.sub(named, template)
