"""The results service: games per table (cached, replayed only when a table's log grew),
club nights, tournaments, standings, penalties and exports."""

from __future__ import annotations

import csv
import io
import threading
import time
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from club.results import (
    GameRecord,
    Penalty,
    Register,
    games_of_log,
    player_history,
    split_games,
    standings,
)
from club.storage import ClubStore, Tournament
from kibic.store import LogEntry


@dataclass(frozen=True)
class ClubSettings:
    """The club server's settings (``kibic club serve`` fills them from its options)."""

    database_url: str = "sqlite:///var/club.sqlite3"
    admin_token: str | None = None
    timezone: str = "Europe/Belgrade"
    #: a club night runs from this local hour to the same hour next day
    night_starts_hour: int = 12
    #: a table counts as online when it forwarded within this many seconds
    online_within_s: float = 60.0
    migrate: bool = True


@dataclass(frozen=True)
class Window:
    """A span of game start times: a night or a tournament, with the tables it covers."""

    label: str
    starts_at: float
    ends_at: float | None
    tournament: Tournament | None = None

    def includes(self, game: GameRecord) -> bool:
        if self.tournament is not None:
            return self.tournament.includes(
                table_id=game.table_id, started_ts=game.started_ts, spec=game.spec
            )
        return self.starts_at <= game.started_ts and (
            self.ends_at is None or game.started_ts < self.ends_at
        )


class ResultsService:
    def __init__(self, store: ClubStore, settings: ClubSettings) -> None:
        self.store = store
        self.settings = settings
        self.tz = ZoneInfo(settings.timezone)
        self._lock = threading.Lock()
        # per table: the log read so far and the games replayed from it
        self._logs: dict[str, list[LogEntry]] = {}
        self._games: dict[str, dict[int, GameRecord]] = {}

    # -- games ---------------------------------------------------------------------------------
    def table_games(self, table_id: str, stored_upto: int | None = None) -> list[GameRecord]:
        with self._lock:
            log = self._logs.setdefault(table_id, [])
            have = log[-1].seq if log else 0
            if stored_upto is None or stored_upto > have:
                log.extend(self.store.entries(table_id, after=have))
            cache = self._games.setdefault(table_id, {})
            out = []
            for part in split_games(log):
                seq, last = part[0].seq, part[-1].seq
                record = cache.get(seq)
                if record is None or record.last_seq != last:
                    record = games_of_log(table_id, part)[0]
                    cache[seq] = record
                out.append(record)
            return out

    def all_games(self) -> list[GameRecord]:
        games = []
        for info in self.store.tables():
            games.extend(self.table_games(info.table_id, info.stored_upto))
        return sorted(games, key=lambda g: (g.started_ts, g.table_id, g.game_seq))

    def game(self, table_id: str, game_seq: int) -> GameRecord | None:
        for g in self.table_games(table_id):
            if g.game_seq == game_seq:
                return g
        return None

    def register(self) -> Register:
        return Register(self.store.players())

    # -- live ----------------------------------------------------------------------------------
    def live(self) -> list[dict[str, Any]]:
        now = time.time()
        out = []
        for info in self.store.tables():
            games = self.table_games(info.table_id, info.stored_upto)
            current = games[-1] if games else None
            out.append(
                {"table_id": info.table_id, "stored_upto": info.stored_upto,
                 "last_seen": info.last_seen,
                 "online": info.last_seen is not None
                 and now - info.last_seen <= self.settings.online_within_s,
                 "games": len(games), "current": current.to_dict() if current else None}
            )  # fmt: skip
        return out

    # -- nights and tournaments ----------------------------------------------------------------
    def night_of(self, ts: float) -> date:
        local = datetime.fromtimestamp(ts, self.tz) - timedelta(
            hours=self.settings.night_starts_hour
        )
        return local.date()

    def night(self, day: date | None = None) -> Window:
        day = day or self.night_of(time.time())
        start = datetime(day.year, day.month, day.day, self.settings.night_starts_hour,
                         tzinfo=self.tz)  # fmt: skip
        end = start + timedelta(days=1)
        return Window(day.isoformat(), start.timestamp(), end.timestamp())

    def tournament_window(self, slug: str) -> Window | None:
        t = self.store.tournament(slug)
        if t is None:
            return None
        return Window(t.slug, t.starts_at, t.ends_at, t)

    def games_in(self, window: Window) -> list[GameRecord]:
        return [g for g in self.all_games() if window.includes(g)]

    def penalties(self, window: Window) -> list[Penalty]:
        return [p for g in self.games_in(window) for p in g.penalties]

    def report(self, window: Window) -> dict[str, Any]:
        """Everything about a night or a tournament, JSON-ready (the JSON export)."""
        games = self.games_in(window)
        register = self.register()
        t = window.tournament
        return {
            "label": window.label,
            "name": t.name if t else f"club night {window.label}",
            "starts_at": window.starts_at,
            "ends_at": window.ends_at,
            "games": [g.to_dict() for g in games],
            "standings": {
                "individual": [s.to_dict() for s in standings(games, register, pairs=False)],
                "pairs": [s.to_dict() for s in standings(games, register, pairs=True)],
            },
            "penalties": [p.to_dict() for g in games for p in g.penalties],
        }

    def report_csv(self, window: Window) -> str:
        """One row per side of each game of the window (the CSV export)."""
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["night", "table", "game_seq", "started", "game", "side", "players",
                         "club_ids", "points", "partije", "score", "won", "deals", "in_progress",
                         "penalties"])  # fmt: skip
        register = self.register()
        for g in self.games_in(window):
            started = datetime.fromtimestamp(g.started_ts, self.tz).isoformat(timespec="seconds")
            for s in g.sides:
                ids = [register.resolve(n)[0] for n in s.names]
                pens = sum(1 for p in g.penalties if p.seat in s.seats)
                writer.writerow([self.night_of(g.started_ts).isoformat(), g.table_id, g.game_seq,
                                 started, g.spec, s.side, " & ".join(s.names),
                                 " ".join(i for i in ids if not i.startswith("?")), s.points,
                                 s.partije, s.score, int(s.won), g.deals, int(g.in_progress),
                                 pens])  # fmt: skip
        return out.getvalue()

    def player(self, person: str) -> list[dict[str, Any]]:
        return player_history(self.all_games(), self.register(), person)
