"""What the table has proven about each seat's hidden hand (RULES.md §16.3).

Every play is recorded with a *duty* function: ``duty(c)`` names the rule the play would have
broken had the seat also held card ``c`` at that moment (obligations are monotone, so one card
is enough). A later play of such a card, not publicly acquired after the recorded play, proves
the violation; a known hand proves it at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from referee.cards import Card

if TYPE_CHECKING:
    from referee.wording import Said

Duty = Callable[[Card], "str | None"]


@dataclass
class PlayRecord:
    seat: int
    trick: int  # 1-based trick number
    ply: int  # global play counter inside the deal
    card: Card
    duty: Duty
    constraint: Said | None  # what the play says about the hand (None: nothing more)
    proven: bool = False


@dataclass
class HandKnowledge:
    """Per seat: the recorded plays and the cards acquired in public (with the ply)."""

    seats: int
    records: dict[int, list[PlayRecord]] = field(default_factory=dict)
    acquired: dict[int, dict[Card, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.records = {s: [] for s in range(self.seats)}
        self.acquired = {s: {} for s in range(self.seats)}

    def acquire(self, seat: int, card: Card, ply: int) -> None:
        """A card moved into ``seat``'s hand in public after play number ``ply``."""
        self.acquired[seat][card] = ply

    def record(self, rec: PlayRecord) -> None:
        self.records[rec.seat].append(rec)

    def witnessed(self, seat: int, card: Card) -> Iterator[tuple[PlayRecord, str]]:
        """Earlier plays of ``seat`` that ``card`` (now shown by that seat) proves illegal."""
        acquired_at = self.acquired[seat].get(card)
        for rec in self.records[seat]:
            if rec.proven:
                continue
            if acquired_at is not None and acquired_at >= rec.ply:
                continue  # the card reached the hand only after that play: no witness
            rule = rec.duty(card)
            if rule is not None:
                rec.proven = True
                yield rec, rule

    def constraints(self, seat: int) -> list[str]:
        return [rec.constraint.text for rec in self.records[seat] if rec.constraint is not None]
