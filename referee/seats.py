"""Seats, numbered 0..n-1 in the order of play (RULES.md §0.3)."""

from __future__ import annotations

from dataclasses import dataclass

from referee.wording import refusal

NO_SUCH_SEAT = refusal("seat.missing", "seat {seat} does not exist at a table of {players}")
NO_PARTNERS = refusal("seat.no_partners", "only 4-player tables have fixed partners opposite")


@dataclass(frozen=True, order=True, slots=True)
class Seat:
    """A seat at a table of ``count`` players; ``next()`` is the seat that plays after this one.

    >>> Seat(3, 4).next(), Seat(1, 4).partner()
    (Seat(index=0, count=4), Seat(index=3, count=4))
    """

    index: int
    count: int

    def __post_init__(self) -> None:
        if not 0 <= self.index < self.count:
            raise NO_SUCH_SEAT.error(seat=self.index, players=self.count)

    @staticmethod
    def of(index: int, count: int) -> Seat:
        """``Seat(index, count)``, made once: a seat is immutable, so one object serves every
        ask (the referee asks for seats at every play; compiled, a dataclass is made through
        the interpreter).

        >>> Seat.of(1, 4) is Seat(3, 4).offset(2)
        True
        """
        made = _MADE.get((index, count))
        if made is None:
            made = Seat(index, count)  # refused here if there is no such seat
            if len(_MADE) < _MADE_LIMIT:
                _MADE[index, count] = made
        return made

    def offset(self, steps: int) -> Seat:
        return Seat.of((self.index + steps) % self.count, self.count)

    def next(self) -> Seat:
        return self.offset(1)

    def previous(self) -> Seat:
        return self.offset(-1)

    def partner(self) -> Seat:
        """The seat opposite (4-player partnership games only)."""
        if self.count != 4:
            raise NO_PARTNERS.error()
        return self.offset(2)

    @property
    def side(self) -> int:
        """Side 0 is seats {0, 2}, side 1 is seats {1, 3} (4-player partnership games)."""
        return self.index % 2

    def __int__(self) -> int:
        return self.index

    def __str__(self) -> str:
        return str(self.index)


#: the seats ``Seat.of`` made so far, by index and table size
_MADE: dict[tuple[int, int], Seat] = {}
_MADE_LIMIT = 1024
