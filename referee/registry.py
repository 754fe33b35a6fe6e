"""The registry: every game by name or alias, loaded from one string.

>>> load_game("veliki-satir(players=3)").players
3
>>> load_game("satir").spec
'veliki-satir'
"""

from __future__ import annotations

import functools
import importlib
import re

from referee.errors import OptionsError, UnknownGameError
from referee.game import Game
from referee.wording import refusal

R_UNKNOWN_GAME_KNOWN = refusal(
    "options.unknown_game_known", "unknown game {name!r} (known: {known})"
)
R_MALFORMED_GAME_STRING_EXPECTED = refusal(
    "options.malformed_game_string_expected",
    "malformed game string {spec!r} (expected name or name(key=value,...))",
)
R_MALFORMED_OPTION_EXPECTED_KEY = refusal(
    "options.malformed_option_expected_key",
    "malformed option {option!r} in {spec!r} (expected key=value)",
)

#: one line per game module; each module's ``GAMES`` tuple lists its rules classes
GAME_MODULES: tuple[str, ...] = (
    "referee.games.satir",
    "referee.games.mali_satir",
    "referee.games.dvoglavi_lav",
    "referee.games.dvoglavac",
    "referee.games.fortuna",
    "referee.games.ruzicka",
    "referee.games.subrosa",
    "referee.games.gin_rummy",
    "referee.games.ulti",
)

_SPEC = re.compile(r"^\s*([A-Za-z0-9_\-šđčćžŠĐČĆŽ]+)\s*(?:\((.*)\))?\s*$", re.DOTALL)


def _normal(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def all_games() -> list[type[Game]]:
    return list(_game_classes())


@functools.cache
def _game_classes() -> tuple[type[Game], ...]:
    """The registered rules classes, imported once (a transcript replay looks its game up)."""
    games: list[type[Game]] = []
    for module in GAME_MODULES:
        games.extend(importlib.import_module(module).GAMES)
    return tuple(games)


def find_game(name: str) -> type[Game]:
    key = _normal(name)
    for cls in all_games():
        if key == cls.name or key in cls.aliases:
            return cls
    known = ", ".join(cls.name for cls in all_games())
    raise R_UNKNOWN_GAME_KNOWN.error(UnknownGameError, name=name, known=known)


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    match = _SPEC.match(spec)
    if not match:
        raise R_MALFORMED_GAME_STRING_EXPECTED.error(OptionsError, spec=spec)
    name, inner = match.group(1), match.group(2)
    options: dict[str, str] = {}
    if inner and inner.strip():
        for part in inner.split(","):
            key, eq, value = part.partition("=")
            if not eq or not key.strip():
                raise R_MALFORMED_OPTION_EXPECTED_KEY.error(
                    OptionsError, option=part.strip(), spec=spec
                )
            options[key.strip()] = value.strip()
    return name, options


def load_game(spec: str, **overrides: object) -> Game:
    """Build a game from ``name`` or ``name(key=value,...)``; ``overrides`` win over the string."""
    name, options = parse_spec(spec)
    cls = find_game(name)
    merged: dict[str, object] = {**options, **overrides}
    return cls(cls.Options.from_mapping(merged))
