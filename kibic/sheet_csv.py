"""The score sheet as CSV, for a club's spreadsheet: a row a deal or a director's correction."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from referee.match import Match


def seat_name(names: Sequence[str], seat: int) -> str:
    """The player at ``seat``, or the seat's number where the table has no name for it."""
    return names[seat] if 0 <= seat < len(names) else str(seat)


def side_with_players(match: Match, names: Sequence[str], side: str) -> str:
    """``side`` with its players: ``Ana`` for a side of one seat, ``A (Ana & Cica)``, the bank
    as itself."""
    seats = match.game.seats_of(side)
    if len(seats) == 1:
        return seat_name(names, seats[0])
    return f"{side} ({' & '.join(seat_name(names, s) for s in seats)})" if seats else side


def sheet_csv(match: Match, names: Sequence[str]) -> str:
    """``match``'s sheet: each row's partija, deal, dealer (by seat and by name), scores and
    totals by side, whether the rules corrected the totals, the referee's account, and on the row
    that ended a partija the side that won it, with its players."""
    sides = list(match.game.sides)
    fmt = match.game.format_score
    rows = match.rows
    ended = {max(i for i, r in enumerate(rows) if r.partija == number and not r.adjustment): won
             for number, won in enumerate(match.partija_winners, start=1)}  # fmt: skip
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["partija", "deal", "dealer", *[f"score {s}" for s in sides],
                     *[f"total {s}" for s in sides], "corrected", "detail", "dealer name",
                     "partija won by"])  # fmt: skip
    for i, row in enumerate(rows):
        won = ended.get(i)
        writer.writerow(
            [row.partija, row.deal, row.dealer,
             *[fmt(row.scores[s]) if s in row.scores else "" for s in sides],
             *[fmt(row.totals[s]) for s in sides], int(row.corrected), row.detail,
             seat_name(names, row.dealer),
             "" if won is None else side_with_players(match, names, won)]
        )  # fmt: skip
    return out.getvalue()
