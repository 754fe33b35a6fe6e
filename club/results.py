"""From event logs to results: games, penalties, standings.

A table's log is cut into games at each ``game_started`` entry and each game is replayed with
the table's own runtime (``kibic.runtime.TableRuntime`` over an in-memory store), so the club
scores exactly as the table did: by the game's own rules for totals, partije and match points.
Results follow people: the names at the seats are looked up in the player register (by club id,
then by name); an unregistered name still counts, under that name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from club.storage import Player
from kibic.runtime import TableRuntime
from kibic.store import EventStore, LogEntry

T = TypeVar("T")


@dataclass(frozen=True)
class SideResult:
    """One side of a game (a pair at four-handed partnership games, else one seat)."""

    side: str
    seats: tuple[int, ...]
    names: tuple[str, ...]
    points: int
    partije: int
    score_units: int
    score: str
    won: bool

    @property
    def heading(self) -> str:
        """What a column of this side is headed by: its player, where the side is one seat
        ("score Ana", not "score 0"); else the side ("score A")."""
        return self.names[0] if len(self.names) == 1 else self.side


@dataclass(frozen=True)
class Penalty:
    table_id: str
    game_seq: int
    started_ts: float
    deal: int
    seat: int
    name: str
    rule: str
    trick: int
    evidence: str
    detail: str
    # the referee's statement of the violation (its code and facts), for the page's language
    said: Mapping[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "table_id": self.table_id,
            "game_seq": self.game_seq,
            "started_ts": self.started_ts,
            "deal": self.deal,
            "seat": self.seat,
            "name": self.name,
            "rule": self.rule,
            "trick": self.trick,
            "evidence": self.evidence,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class GameRecord:
    """A game as the club sees it: identified by its table and the seq of its game_started."""

    table_id: str
    game_seq: int
    last_seq: int
    started_ts: float
    last_ts: float
    spec: str
    title: str
    names: tuple[str, ...]
    sides: tuple[SideResult, ...]
    winner: str | None
    deals: int
    in_progress: bool
    penalties: tuple[Penalty, ...]
    sheet: tuple[dict[str, Any], ...]
    totals: dict[str, str] = field(default_factory=dict)
    partija_winners: tuple[str, ...] = ()
    #: calls for the director not yet answered: ``{"id", "seat", "name", "ts"}``
    calls: tuple[dict[str, Any], ...] = ()
    #: finished deals whose score not every side has confirmed yet (their numbers)
    unconfirmed: tuple[int, ...] = ()
    #: the match's net result as the rules prescribe it, once won (gin's settlement for
    #: stakes, Dvoglavi Lav's match result; ``referee.match.Match.final``), by side
    final: dict[str, int] | None = None

    @property
    def game_id(self) -> str:
        return f"{self.table_id}/{self.game_seq}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "table_id": self.table_id,
            "game_seq": self.game_seq,
            "last_seq": self.last_seq,
            "started_ts": self.started_ts,
            "last_ts": self.last_ts,
            "game": self.spec,
            "title": self.title,
            "names": list(self.names),
            "winner": self.winner,
            "deals": self.deals,
            "in_progress": self.in_progress,
            "totals": dict(self.totals),
            "partija_winners": list(self.partija_winners),
            "calls": [dict(c) for c in self.calls],
            "unconfirmed": list(self.unconfirmed),
            "final": dict(self.final) if self.final is not None else None,
            "sides": [
                {
                    "side": s.side,
                    "seats": list(s.seats),
                    "names": list(s.names),
                    "points": s.points,
                    "partije": s.partije,
                    "score_units": s.score_units,
                    "score": s.score,
                    "won": s.won,
                }
                for s in self.sides
            ],  # fmt: skip
            "penalties": [p.to_dict() for p in self.penalties],
            "sheet": list(self.sheet),
        }


def split_games(entries: Sequence[LogEntry]) -> list[list[LogEntry]]:
    """Cut a table's log at each ``game_started`` (entries before the first one are dropped)."""
    games: list[list[LogEntry]] = []
    for entry in entries:
        if entry.kind == "game_started":
            games.append([entry])
        elif games:
            games[-1].append(entry)
    return games


#: the latest event time the club takes (a table's clock far in the future is damage)
TS_MAX = 10_000_000_000.0


class ReplayError(ValueError):
    """An entry of a game does not replay: the table's runtime (its referee) refused it."""

    def __init__(self, entry: LogEntry, reason: str) -> None:
        super().__init__(f"event seq {entry.seq} ({entry.kind}, id {entry.id!r}): {reason}")
        self.seq = entry.seq
        self.event_id = entry.id
        self.reason = reason


class _Replayer(TableRuntime):
    """The table's runtime, fed one stored entry at a time (as it replays its own log)."""

    def apply(self, entry: LogEntry) -> None:
        self._apply_entry(entry)


class GameReplay:
    """One game replayed entry by entry with the table's runtime over an in-memory store,
    exactly as the table scored it; ``record()`` is the game as the club's pages show it.

    ``add`` raises ReplayError naming the entry when the runtime refuses it; the replay is then
    unusable (its state may be half-applied) and must be closed."""

    def __init__(self, table_id: str, first: LogEntry) -> None:
        if first.kind != "game_started":
            raise ReplayError(first, "a game begins with game_started")
        self.table_id = table_id
        self.first = first
        self.last = first
        self._store = EventStore(":memory:", table_id)
        try:
            _guard(first, lambda: self._append(first))
            self._runtime = _guard(first, lambda: _Replayer(self._store, table_id=table_id))
        except BaseException:
            self._store.close()
            raise

    @property
    def last_seq(self) -> int:
        return self.last.seq

    def _append(self, entry: LogEntry) -> LogEntry | None:
        _check_ts(entry)
        return self._store.append(LogEntry(entry.id, entry.kind, entry.payload, 0, entry.ts))

    def add(self, entry: LogEntry) -> None:
        if entry.kind == "game_started":
            raise ReplayError(entry, "game_started begins a new game")
        stored = _guard(entry, lambda: self._append(entry))
        if stored is not None:
            _guard(entry, lambda: self._runtime.apply(stored))
        self.last = entry

    def record(self) -> GameRecord:
        return _guard(self.last, lambda: _record(self._runtime, self.table_id, self.first,
                                                 self.last))  # fmt: skip

    def close(self) -> None:
        self._store.close()


def _check_ts(entry: LogEntry) -> None:
    if not isinstance(entry.ts, int | float) or not 0 <= entry.ts <= TS_MAX:
        raise ReplayError(entry, f"ts {entry.ts!r} is not a time (seconds since 1970)")


def _guard(entry: LogEntry, work: Callable[[], T]) -> T:
    """``work()``, with whatever it raises (the referee's refusal, a malformed payload)
    turned into ReplayError naming ``entry``."""
    try:
        return work()
    except ReplayError:
        raise
    except Exception as exc:  # noqa: BLE001 - any failure of the replay is the entry's damage
        reason = str(exc) or type(exc).__name__
        raise ReplayError(entry, f"{type(exc).__name__}: {reason}") from exc


def replay_game(table_id: str, entries: Sequence[LogEntry]) -> GameRecord:
    """Replay one game's entries (the first is its ``game_started``) with the table runtime;
    raises ReplayError naming the first entry that does not replay."""
    replay = GameReplay(table_id, entries[0])
    try:
        for entry in entries[1:]:
            replay.add(entry)
        return replay.record()
    finally:
        replay.close()


def _record(runtime: TableRuntime, table_id: str, first: LogEntry, last: LogEntry) -> GameRecord:
    game, match = runtime.game, runtime.match
    if match is None:
        raise ValueError("no game was started")
    names = tuple(runtime.names)
    sides = []
    for side in game.sides:
        seats = game.seats_of(side)
        if not seats:
            continue  # a score column with no seat (Dvoglavac's bank)
        units = sum(row.scores.get(side, 0) for row in match.rows)
        sides.append(
            SideResult(side, seats, tuple(names[s] for s in seats), match.points[side],
                       match.partija_winners.count(side), units, game.format_score(units),
                       match.winner == side)
        )  # fmt: skip
    penalties: list[Penalty] = []
    deals: list[tuple[int, list[dict[str, Any]], str]] = [
        (d["number"], d["violations"], d["detail"]) for d in runtime.finished
    ]
    current = runtime.deal
    if current is not None and not current.is_over and current.actions:
        deals.append((len(runtime.finished) + 1, [v.to_dict() for v in current.violations], ""))
    for number, violations, detail in deals:
        for v in violations:
            seat = int(v["seat"])
            penalties.append(
                Penalty(table_id, first.seq, first.ts, number, seat, names[seat], str(v["rule"]),
                        int(v["trick"]), str(v["evidence"]), detail, said=v)
            )  # fmt: skip
    in_progress = match.winner is None
    data = match.to_dict()
    agreeing = set(runtime.agreeing_sides())
    return GameRecord(
        table_id=table_id,
        game_seq=first.seq,
        last_seq=last.seq,
        started_ts=first.ts,
        last_ts=last.ts,
        spec=game.spec,
        title=game.title or game.name,
        names=names,
        sides=tuple(sides),
        winner=match.winner,
        deals=len(runtime.finished),
        in_progress=in_progress,
        penalties=tuple(penalties),
        sheet=tuple(data["rows"]),
        totals=dict(data["totals"]),
        partija_winners=tuple(match.partija_winners),
        calls=tuple(
            {
                "id": c["id"],
                "seat": c["seat"],
                "ts": c["ts"],
                "name": names[c["seat"]] if c["seat"] is not None else None,
            }
            for c in runtime.calls.values()
        ),
        unconfirmed=tuple(
            d["number"] for d in runtime.finished if not agreeing <= set(d["agreed"])
        ),  # fmt: skip
        final=dict(match.final) if match.final is not None else None,
    )


def games_of_log(table_id: str, entries: Sequence[LogEntry]) -> list[GameRecord]:
    return [replay_game(table_id, part) for part in split_games(entries)]


# -- people ------------------------------------------------------------------------------------
class Register:
    """Finds the registered player behind a seat name: by club id, then by name (any case)."""

    def __init__(self, players: Iterable[Player]) -> None:
        self._by_id = {p.club_id.casefold(): p for p in players}
        self._by_name = {p.name.casefold(): p for p in self._by_id.values()}

    def resolve(self, seat_name: str) -> tuple[str, str]:
        """(person key, display name); unregistered names get the key ``?name``."""
        key = " ".join(seat_name.split()).casefold()
        player = self._by_id.get(key) or self._by_name.get(key)
        if player is not None:
            return player.club_id, player.name
        return f"?{key}", seat_name


@dataclass
class Standing:
    key: str
    label: str
    members: tuple[str, ...]
    games: int = 0
    wins: int = 0
    partije: int = 0
    points: int = 0
    score_units: int = 0
    penalties: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label,
            "members": list(self.members),
            "games": self.games,
            "wins": self.wins,
            "partije": self.partije,
            "points": self.points,
            "score_units": self.score_units,
            "penalties": self.penalties,
        }


def standings(games: Iterable[GameRecord], register: Register, *, pairs: bool) -> list[Standing]:
    """Standings of people (``pairs=False``) or of partnerships (``pairs=True``, only sides of
    two or more seats), ranked by match points, games won, partije won, then score."""
    rows: dict[str, Standing] = {}
    for game in games:
        penalised: dict[int, int] = {}
        for p in game.penalties:
            penalised[p.seat] = penalised.get(p.seat, 0) + 1
        for side in game.sides:
            people = [register.resolve(n) for n in side.names]
            if pairs:
                if len(people) < 2:
                    continue
                members = sorted(people, key=lambda p: (p[0].startswith("?"), p[0]))
                groups = [("+".join(k for k, _ in members), " & ".join(n for _, n in members),
                           tuple(k for k, _ in members), sum(penalised.get(s, 0)
                                                             for s in side.seats))]  # fmt: skip
            else:
                groups = [(k, n, (k,), penalised.get(seat, 0))
                          for (k, n), seat in zip(people, side.seats, strict=True)]  # fmt: skip
            for key, label, members_keys, penalties in groups:
                row = rows.setdefault(key, Standing(key, label, members_keys))
                row.games += 1
                row.wins += int(side.won)
                row.partije += side.partije
                row.points += side.points
                row.score_units += side.score_units
                row.penalties += penalties
    return sorted(
        rows.values(),
        key=lambda r: (-r.points, -r.wins, -r.partije, -r.score_units, r.label.casefold()),
    )


def player_history(
    games: Iterable[GameRecord], register: Register, person: str
) -> list[dict[str, Any]]:
    """Every game ``person`` (a club id or ``?name`` key) sat in, oldest first."""
    out: list[dict[str, Any]] = []
    for game in sorted(games, key=lambda g: (g.started_ts, g.table_id, g.game_seq)):
        for side in game.sides:
            keys = [register.resolve(n)[0] for n in side.names]
            if person not in keys:
                continue
            others = [s for s in game.sides if s is not side]
            out.append(
                {"game_id": game.game_id, "table_id": game.table_id, "started_ts": game.started_ts,
                 "game": game.spec, "side": side.side, "with": [n for n, k in zip(
                     side.names, keys, strict=True) if k != person],
                 "against": [n for s in others for n in s.names], "points": side.points,
                 "partije": side.partije, "score": side.score, "won": side.won,
                 "in_progress": game.in_progress,
                 "penalties": sum(1 for p in game.penalties if p.seat in side.seats
                                  and register.resolve(p.name)[0] == person)}
            )  # fmt: skip
    return out
