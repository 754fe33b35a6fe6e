"""What a valid configuration still cannot do at this table, found before the table starts.

``load_config`` refuses what is malformed; ``check_config`` finds what is well-formed but
cannot work with the configured game: no admin password (every director's action would be
refused), a camera deck that is not the game's deck, a GPIO pin wired to two things.
``kibic run`` writes each finding to stderr at start and the dashboard shows them.

>>> from kibic.config import parse_config
>>> found = check_config(parse_config({"table": {"game": "ruzicka"},
...                                    "camera": {"source": "synthetic", "deck": "french-52"}}))
>>> [f.kind.value for f in found]
['no_admin_password', 'camera_deck_extra']
>>> print(found[1].message)
camera.deck: french-52 has 20 cards that ruzicka does not use (its deck is piquet-32), e.g. 2C 3C 4C: the camera would read cards that cannot be in play
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from kibic.config import TableConfig
from referee.cards import Deck
from referee.errors import RefereeError
from referee.registry import load_game

EXAMPLES = 3  # cards named in a deck finding


class FindingKind(enum.Enum):
    NO_ADMIN_PASSWORD = "no_admin_password"
    CAMERA_DECK_MISSING = "camera_deck_missing"  # the camera cannot know some of the game's cards
    CAMERA_DECK_EXTRA = "camera_deck_extra"  # the camera knows cards the game does not use
    PIN_TWICE = "pin_twice"


#: the English wording (stderr and the log); the dashboard words them from ``web.i18n``
MESSAGES: dict[FindingKind, str] = {
    FindingKind.NO_ADMIN_PASSWORD: "web.admin_password_hash is empty: every director's action "
    "(undo, score correction, confirming a card) will be refused; set one with "
    "kibic hash-password",
    FindingKind.CAMERA_DECK_MISSING: "camera.deck: {camera} lacks {count} cards of {game}'s "
    "deck {deck}, e.g. {cards}: the camera cannot read them",
    FindingKind.CAMERA_DECK_EXTRA: "camera.deck: {camera} has {count} cards that {game} does "
    "not use (its deck is {deck}), e.g. {cards}: the camera would read cards that cannot be "
    "in play",
    FindingKind.PIN_TWICE: "lights.pins: GPIO pin {pin} is used twice ({keys})",
}


@dataclass(frozen=True)
class Finding:
    """One thing that cannot work: its kind, the configuration key, the facts to word it."""

    kind: FindingKind
    key: str
    facts: Mapping[str, str] = field(default_factory=dict)

    @property
    def message(self) -> str:
        return MESSAGES[self.kind].format(**self.facts)


def check_config(config: TableConfig) -> list[Finding]:
    """Every finding for ``config``, in the order of its sections (web, camera, lights)."""
    found: list[Finding] = []
    if not config.web.admin_password_hash:
        found.append(Finding(FindingKind.NO_ADMIN_PASSWORD, "web.admin_password_hash"))
    if config.camera.source != "none":
        found.extend(_deck_findings(config))
    if config.lights.kind == "gpio":
        found.extend(_pin_findings(config.lights.pins))
    return found


def _deck_findings(config: TableConfig) -> list[Finding]:
    try:
        game = load_game(config.game)
        camera = Deck.parse(config.camera.deck)
    except (RefereeError, ValueError):
        return []  # load_config has said so already
    wanted, seen = set(game.deck.cards), set(camera.cards)
    facts = {"camera": camera.value, "game": config.game, "deck": game.deck.value}
    found = []
    for kind, cards, order in (
        (FindingKind.CAMERA_DECK_MISSING, wanted - seen, game.deck.cards),
        (FindingKind.CAMERA_DECK_EXTRA, seen - wanted, camera.cards),
    ):
        if cards:
            examples = " ".join([c.code for c in order if c in cards][:EXAMPLES])
            found.append(Finding(kind, "camera.deck",
                                 {**facts, "count": str(len(cards)), "cards": examples}))  # fmt: skip
    return found


#: keys of ``lights.pins`` that hold no pin numbers
NOT_PINS = ("active_high", "call_hold_s")


def _pins(value: Any, path: str) -> Iterator[tuple[int, str]]:
    """Every (pin, key) in the ``lights.pins`` table (``active_high`` and such are no pins)."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value, path
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _pins(item, f"{path}[{i}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in NOT_PINS:
                yield from _pins(item, f"{path}.{key}")


def _pin_findings(pins: Mapping[str, Any]) -> list[Finding]:
    uses: dict[int, list[str]] = {}
    for pin, key in _pins(dict(pins), "lights.pins"):
        uses.setdefault(pin, []).append(key)
    return [
        Finding(FindingKind.PIN_TWICE, keys[0], {"pin": str(pin), "keys": ", ".join(keys)})
        for pin, keys in sorted(uses.items())
        if len(keys) > 1
    ]
