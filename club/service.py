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

from club.live import ChangeFeed
from club.results import (
    TS_MAX,
    GameRecord,
    GameReplay,
    Penalty,
    Register,
    ReplayError,
    player_history,
    replay_game,
    split_games,
    standings,
)
from club.storage import (
    BatchRefused,
    ClubStore,
    IncomingEvent,
    IngestResult,
    StoredLog,
    Tournament,
)
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
    #: the pages' language when a link names none (``?lang=``): en or sr
    language: str = "en"
    #: an open page's live feed sends a keep-alive after this many quiet seconds
    keepalive_s: float = 15.0


@dataclass(frozen=True)
class Window:
    """A span of game start times: a night or a tournament, with the tables it covers."""

    label: str
    starts_at: float
    ends_at: float | None
    tournament: Tournament | None = None

    def includes(self, game: GameRecord | Damage) -> bool:
        """Whether the game started in the window (a damaged game of unknown start: yes)."""
        if game.started_ts is None:
            return self.tournament is None or not self.tournament.tables or (
                game.table_id in self.tournament.tables)  # fmt: skip
        if self.tournament is not None:
            return self.tournament.includes(
                table_id=game.table_id, started_ts=game.started_ts, spec=game.spec
            )
        return self.starts_at <= game.started_ts and (
            self.ends_at is None or game.started_ts < self.ends_at
        )


@dataclass(frozen=True)
class Damage:
    """A stored game the club cannot replay: shown as damaged, left out of every result."""

    table_id: str
    game_seq: int
    seq: int
    event_id: str
    reason: str
    #: when the game started and what it was, as far as its game_started says
    started_ts: float | None = None
    spec: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"table_id": self.table_id, "game_seq": self.game_seq, "seq": self.seq,
                "event_id": self.event_id, "reason": self.reason,
                "started_ts": self.started_ts, "spec": self.spec}  # fmt: skip


def _damage(table_id: str, first: LogEntry, exc: ReplayError) -> Damage:
    ts = first.ts if isinstance(first.ts, int | float) and 0 <= first.ts <= TS_MAX else None
    spec = first.payload.get("spec") if isinstance(first.payload, dict) else None
    return Damage(table_id, first.seq, exc.seq, exc.event_id, exc.reason, ts,
                  spec if isinstance(spec, str) else "")  # fmt: skip


def _continues_damage(entry: LogEntry, game_seq: int, exc: ReplayError) -> BatchRefused:
    return BatchRefused(entry.seq, entry.id,
                        f"it continues the stored game of seq {game_seq}, which does not replay "
                        f"from seq {exc.seq} on ({exc.reason})")  # fmt: skip


class ResultsService:
    def __init__(self, store: ClubStore, settings: ClubSettings) -> None:
        self.store = store
        self.settings = settings
        self.tz = ZoneInfo(settings.timezone)
        self._lock = threading.Lock()
        # per table: the log read so far, the games replayed from it, the games that failed
        self._logs: dict[str, list[LogEntry]] = {}
        self._games: dict[str, dict[int, GameRecord]] = {}
        self._damage: dict[str, list[Damage]] = {}
        # per table: its last game replayed up to the stored end (ingest's check continues it)
        self._tips_lock = threading.Lock()
        self._tips: dict[str, GameReplay] = {}
        #: the open pages are told of every change (``GET /events``)
        self.changes = ChangeFeed()

    # -- ingest --------------------------------------------------------------------------------
    def ingest(self, table_id: str, key: str, events: list[IncomingEvent]) -> IngestResult:
        """Store a table's batch when it replays on the table's stored log with the table's
        runtime; else raise BatchRefused naming the first event that does not (nothing stored,
        the refusal counted for the status page)."""
        checked: list[GameReplay] = []

        def check(log: StoredLog, new: list[LogEntry]) -> None:
            tip = self._check(log, new)
            if tip is not None:
                checked.append(tip)

        try:
            result = self.store.ingest(table_id, key, events, check=check)
        except BatchRefused as exc:
            self.store.record_refusal(table_id, exc)
            for tip in checked:
                tip.close()
            self.changes.changed()  # the status page counts it
            raise
        except BaseException:
            for tip in checked:
                tip.close()
            raise
        for tip in checked:
            self._keep_tip(tip)
        if result.accepted:
            self.changes.changed()
        return result

    def _check(self, log: StoredLog, new: list[LogEntry]) -> GameReplay | None:
        """The table's last game replayed through ``new`` (raises BatchRefused)."""
        tip = self._take_tip(log.table_id, log.upto)
        try:
            if tip is None and new[0].kind != "game_started":
                tip = self._stored_tip(log, new[0])
            for entry in new:
                if entry.kind == "game_started":
                    if tip is not None:
                        tip.record()  # the game it ends must show on the pages
                        tip.close()
                        tip = None
                    tip = GameReplay(log.table_id, entry)
                elif tip is not None:
                    tip.add(entry)
                # entries before the table's first game_started belong to no game: not shown
            if tip is not None:
                tip.record()
        except ReplayError as exc:
            if tip is not None:
                tip.close()
            raise BatchRefused(exc.seq, exc.event_id, exc.reason) from None
        return tip

    def _stored_tip(self, log: StoredLog, first_new: LogEntry) -> GameReplay | None:
        start = log.last_game_start()
        if start is None:
            return None
        entries = log.entries(after=start - 1)
        try:
            tip = GameReplay(log.table_id, entries[0])
        except ReplayError as exc:
            raise _continues_damage(first_new, start, exc) from None
        try:
            for entry in entries[1:]:
                tip.add(entry)
        except ReplayError as exc:
            tip.close()
            raise _continues_damage(first_new, start, exc) from None
        return tip

    def _take_tip(self, table_id: str, upto: int) -> GameReplay | None:
        with self._tips_lock:
            tip = self._tips.pop(table_id, None)
        if tip is not None and tip.last_seq != upto:
            tip.close()  # the log moved on without it (a commit it did not see)
            return None
        return tip

    def _keep_tip(self, tip: GameReplay) -> None:
        with self._tips_lock:
            old = self._tips.get(tip.table_id)
            if old is not None and old.last_seq >= tip.last_seq:
                tip.close()
                return
            self._tips[tip.table_id] = tip
        if old is not None:
            old.close()

    def _tip_record(self, table_id: str, game_seq: int, last_seq: int) -> GameRecord | None:
        with self._tips_lock:
            tip = self._tips.get(table_id)
            if tip is None or tip.first.seq != game_seq or tip.last_seq != last_seq:
                return None
            return tip.record()

    # -- games ---------------------------------------------------------------------------------
    def table_games(self, table_id: str, stored_upto: int | None = None) -> list[GameRecord]:
        """The table's games that replay; those that do not are in ``damaged(table_id)``."""
        with self._lock:
            log = self._logs.setdefault(table_id, [])
            have = log[-1].seq if log else 0
            if stored_upto is None or stored_upto > have:
                log.extend(self.store.entries(table_id, after=have))
            cache = self._games.setdefault(table_id, {})
            out = []
            damage = []
            for part in split_games(log):
                seq, last = part[0].seq, part[-1].seq
                record = cache.get(seq)
                if record is None or record.last_seq != last:
                    cache.pop(seq, None)
                    try:
                        record = self._tip_record(table_id, seq, last) or replay_game(
                            table_id, part)  # fmt: skip
                    except ReplayError as exc:
                        damage.append(_damage(table_id, part[0], exc))
                        continue
                    cache[seq] = record
                out.append(record)
            if damage:
                # read the log again next time: a row the director deleted is gone at once
                del self._logs[table_id]
                self._damage[table_id] = damage
            else:
                self._damage.pop(table_id, None)
            return out

    def damaged(self, table_id: str | None = None) -> list[Damage]:
        """The games found damaged when their table was last read (all tables: None)."""
        with self._lock:
            if table_id is not None:
                return list(self._damage.get(table_id, ()))
            return [d for tid in sorted(self._damage) for d in self._damage[tid]]

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
                 "games": len(games), "current": current.to_dict() if current else None,
                 "damaged": [d.to_dict() for d in self.damaged(info.table_id)]}
            )  # fmt: skip
        return out

    def status(self) -> dict[str, Any]:
        """What the director should know: refused batches and damaged games, per table."""
        self.all_games()  # replays what changed, so the damage is current
        refused = self.store.refusals()
        with self._lock:
            damage = {tid: list(d) for tid, d in self._damage.items()}
        tables = sorted(set(refused) | set(damage))
        return {
            "refused_batches": sum(r.count for r in refused.values()),
            "damaged_games": sum(len(d) for d in damage.values()),
            "tables": [
                {"table_id": tid, "refused_batches": refused[tid].count if tid in refused else 0,
                 "last_refused": refused[tid].last if tid in refused else None,
                 "damaged": [d.to_dict() for d in damage.get(tid, [])]}
                for tid in tables
            ],
        }  # fmt: skip

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
            # games left out of the standings: they do not replay (see /status)
            "damaged": [d.to_dict() for d in self.damaged() if window.includes(d)],
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
