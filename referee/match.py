"""Partija and match bookkeeping: running totals per side, corrections, winners, dealer rotation.

>>> from referee.registry import load_game
>>> from referee.deal import DealResult
>>> m = Match(load_game("veliki-satir"))
>>> _ = m.record(DealResult({"A": 53, "B": 44}))
>>> _ = m.record(DealResult({"A": 124, "B": 40}))
>>> _ = m.record(DealResult({"A": -53, "B": 44}))
>>> m.sheet_line()
'12.4 : 12.8'
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from referee.deal import DealResult
from referee.events import Event, MatchOver, PartijaOver, ScoreAdjusted
from referee.game import Game, PartijaTracker

if TYPE_CHECKING:
    from referee.wording import Said


@dataclass(frozen=True)
class SheetRow:
    """One line of the score sheet as players keep it on paper."""

    partija: int
    deal: int
    dealer: int
    scores: dict[str, int]
    totals: dict[str, int]
    corrected: bool
    detail: str
    #: the detail as a statement (code and facts), when the rules gave one
    said: Said | None = field(default=None, compare=False)

    @property
    def adjustment(self) -> bool:
        """A director's correction (``Match.adjust``), not a deal: it is numbered after the deal
        it follows and is no hand won or lost."""
        return self.detail.startswith(ADJUSTED)


ADJUSTED = "adjusted: "  # how a director's correction's detail begins


@dataclass
class Match:
    game: Game
    dealer: int = 0
    totals: dict[str, int] = field(default_factory=dict)
    points: dict[str, int] = field(default_factory=dict)
    rows: list[SheetRow] = field(default_factory=list)
    partija: int = 1
    partija_winners: list[str] = field(default_factory=list)
    winner: str | None = None
    #: tally marks of the current partija from ``DealResult.extra["marks"]`` (sweeps, solos)
    marks: dict[str, int] = field(default_factory=dict)
    #: each finished partija's final totals (for the match result)
    partija_totals: list[dict[str, int]] = field(default_factory=list)
    #: extra partije credited without ending one (SubRosa 8 u boji)
    bonus_partije: list[str] = field(default_factory=list)
    #: the game's own end-of-partija rule, when it has one (Ulti's "Kec herc deli")
    tracker: PartijaTracker | None = None
    #: the net match result the rules prescribe, once the match is over (Dvoglavi Lav)
    final: dict[str, int] | None = None
    #: setup fields the rules impose on the next deal (Dvoglavac: {"compulsory": True})
    next_setup: dict[str, Any] = field(default_factory=dict)
    #: the sheet as it was before its last deal was written, and that deal's result: a
    #: correction made once that deal has ended a partija goes back into it (``adjust``)
    last_deal: tuple[Match, DealResult] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.totals = self.totals or {s: 0 for s in self.game.sides}
        self.points = self.points or {s: 0 for s in self.game.sides}

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def record(self, result: DealResult) -> list[Event]:
        """Write a finished deal on the sheet; return PartijaOver / MatchOver when they happen."""
        before = self.copy()
        before.last_deal = None  # one deal back is kept, not the whole history
        self.last_deal = (before, result)
        raw = {s: self.totals[s] + result.scores.get(s, 0) for s in self.totals}
        totals = self.game.correct(dict(raw))
        deal_no = 1 + self._deals_in_partija()
        self.rows.append(
            SheetRow(self.partija, deal_no, self.dealer, dict(result.scores), dict(totals),
                     totals != raw, result.detail, result.said)
        )  # fmt: skip
        self.totals = totals
        events: list[Event] = []
        for key, count in result.extra.get("marks", {}).items():
            self.marks[key] = self.marks.get(key, 0) + count
        won = self.game.partija_winner_with_marks(totals, self.marks)
        if self.tracker is None:
            self.tracker = self.game.partija_tracker()
        if won is None and self.tracker is not None:
            due = self.game.next_dealer_after(self.dealer, result, partija_over=False)
            if self.tracker.record(result, due):
                won = self.game.partija_leader(totals)
        extra_side = result.extra.get("extra_partija")
        if extra_side in self.points:
            # SubRosa's 8 u boji "for a new partija": one more partija won, this one goes on
            self.points[extra_side] += 1
            self.bonus_partije.append(extra_side)
        if won is not None:
            self.marks = {}
            self.tracker = None
            gained = self.game.partija_points(totals, won)
            for side, pts in gained.items():
                self.points[side] += pts
            events.append(PartijaOver(won, dict(totals), gained))
            self.partija_winners.append(won)
            self.partija_totals.append(dict(totals))
            self.partija += 1
            self.totals = self.game.next_partija_totals(totals, won)
        if won is not None or extra_side in self.points:
            events.extend(self._match_over())
        self.dealer = self.game.next_dealer_after(self.dealer, result, partija_over=won is not None)
        if won is not None:
            self.dealer = self.game.first_dealer_of_partija(self.dealer, won)
        forced, self.next_setup = self.game.next_deal_rule(self.totals, self.marks)
        if forced is not None:
            self.dealer = forced
        return events

    def copy(self) -> Match:
        """An independent copy (the game is shared: it is immutable)."""
        clone = copy.copy(self)
        for name in ("totals", "points", "rows", "partija_winners", "marks", "partija_totals",
                     "bonus_partije", "tracker", "final", "next_setup"):  # fmt: skip
            setattr(clone, name, copy.deepcopy(getattr(self, name)))
        return clone

    def _match_over(self) -> list[Event]:
        if self.winner is not None:
            return []
        leaders = [s for s, p in self.points.items() if p >= self.game.match_target]
        if not leaders:
            return []
        best = max(self.points[s] for s in leaders)
        top = [s for s in leaders if self.points[s] == best]
        if len(top) != 1:
            return []
        self.winner = top[0]
        self.final = self.game.final_result(self, top[0])
        return [MatchOver(top[0], dict(self.points))]

    def adjust(self, side: str, units: int, reason: str) -> list[Event]:
        """A director's correction of a total, written on the sheet with its reason.

        Made when the last deal has ended a partija (or the match), before anything is written
        in the next one, it corrects the partija that deal ended: the correction goes on the
        sheet before that deal, and the deal is written again after it, so that the partija's
        end, its winner and the match's are judged on the corrected totals. Made in a running
        partija, it is written after its last deal; where it takes a side to the partija's end
        (a miscount found between deals), the partija ends with that deal, judged so too (the
        corrections made since it go before it as well). Returned: the correction
        (ScoreAdjusted), then the events of that judgement (PartijaOver / MatchOver; none when
        the partija now goes on)."""
        if side not in self.totals:
            raise KeyError(side)
        if self.last_deal is not None and (self.correction_partija() is not None
                                           or self._ends_partija(side, units)):  # fmt: skip
            before, result = self.last_deal
            again = before.copy()
            for row in self.rows[len(before.rows) + 1 :]:  # corrections since that deal
                ((since_side, since_units),) = row.scores.items()
                again.adjust(since_side, since_units, row.detail.removeprefix(ADJUSTED))
            adjusted = again.adjust(side, units, reason)
            events = again.record(result)
            for f in fields(self):
                setattr(self, f.name, getattr(again, f.name))
            return [*adjusted, *events]
        self.totals = dict(self.totals)
        self.totals[side] += units
        self.rows.append(
            SheetRow(self.partija, self._deals_in_partija(), self.dealer, {side: units},
                     dict(self.totals), False, f"{ADJUSTED}{reason}")
        )  # fmt: skip
        return [ScoreAdjusted(side, units, reason)]

    def _ends_partija(self, side: str, units: int) -> bool:
        """Whether ``units`` more to ``side`` end the running partija (after its first deal)."""
        if not any(r.partija == self.partija and not r.adjustment for r in self.rows):
            return False
        totals = dict(self.totals)
        totals[side] += units
        return self.game.partija_winner_with_marks(totals, self.marks) is not None

    def correction_partija(self) -> int | None:
        """The finished partija a correction made now goes back into (``adjust``): the one the
        last deal ended, while nothing is written in the next; None where it goes into the
        running one."""
        if not self.rows or any(r.partija == self.partija for r in self.rows):
            return None
        return self.rows[-1].partija

    def _deals_in_partija(self) -> int:
        """The deals written in this partija so far (a director's correction is none)."""
        return sum(1 for r in self.rows if r.partija == self.partija and not r.adjustment)

    def sheet_line(self) -> str:
        return " : ".join(self.game.format_score(self.totals[s]) for s in self.game.sides)

    def to_dict(self) -> dict[str, Any]:
        fmt = self.game.format_score
        return {
            "sides": list(self.game.sides),
            "totals": {s: fmt(v) for s, v in self.totals.items()},
            "totals_units": dict(self.totals),
            "points": dict(self.points),
            "partija": self.partija,
            # where a director's correction made now goes, when not into the running partija
            "correction_partija": self.correction_partija(),
            "partija_winners": list(self.partija_winners),
            # each finished partija: its number, final totals and winner (the sheet's record)
            "partije": [
                {"number": i, "totals": {s: fmt(v) for s, v in totals.items()}, "winner": won}
                for i, (won, totals) in enumerate(
                    zip(self.partija_winners, self.partija_totals, strict=True), start=1
                )
            ],
            "marks": dict(self.marks),
            "bonus_partije": list(self.bonus_partije),
            "final": dict(self.final) if self.final is not None else None,
            "winner": self.winner,
            "rows": [
                {
                    "partija": r.partija,
                    "deal": r.deal,
                    "dealer": r.dealer,
                    "scores": {s: fmt(v) for s, v in r.scores.items()},
                    "totals": {s: fmt(v) for s, v in r.totals.items()},
                    "totals_units": dict(r.totals),  # what the dashboard's chart plots
                    "corrected": r.corrected,
                    "detail": r.detail,
                    **({"said": r.said.to_dict()} if r.said is not None else {}),
                }
                for r in self.rows
            ],
        }
