"""Simulated tables for tests and benchmarks: seeded games played into real table runtimes.

Each table plays its planned games one after another (``demo_transcript``), with deterministic
entry ids, into its own SQLite store, exactly as a Pi would; the club sees nothing else.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kibic.demo import demo_transcript
from kibic.runtime import TableRuntime
from kibic.store import EventStore
from referee.actions import Action
from referee.transcript import parse_hands

#: a club's register for simulations: (club id, name)
CLUB_PLAYERS: tuple[tuple[str, str], ...] = tuple(
    (f"SR{i:03d}", name)
    for i, name in enumerate(
        ["Ana Petrović", "Bora Jovanović", "Cica Nikolić", "Dule Marković", "Ema Đorđević",
         "Filip Stojanović", "Gaga Ilić", "Hrvoje Kovač", "Iva Pavlović", "Jovan Milošević",
         "Kata Horvat", "Luka Babić", "Mara Tomić", "Nikola Lukić", "Olga Savić", "Pera Popović",
         "Rada Kostić", "Saša Vuković", "Tanja Knežević", "Uroš Perić", "Vesna Marić",
         "Zoran Radić", "Žika Simić", "Ljilja Matić", "Njegoš Vidović", "Dragan Božić",
         "Milica Lazić", "Goran Jurić", "Sonja Kovačević", "Mile Petrović"], start=1)
)  # fmt: skip


@dataclass(frozen=True)
class PlannedGame:
    spec: str
    deals: int
    seed: int
    names: tuple[str, ...]
    #: an extra transcript played first (e.g. a recorded revoke), same game
    prelude: dict[str, Any] | None = None


@dataclass
class SimTable:
    """One simulated table: a store file, a runtime, and the games it will play."""

    table_id: str
    path: Path
    games: Sequence[PlannedGame]
    delay: float = 0.0
    seed: int = 0
    done: threading.Event = field(default_factory=threading.Event)
    error: BaseException | None = None

    def play(self) -> None:
        """Play every planned game (safe to call in a thread; sets ``done`` at the end)."""
        rng = random.Random(self.seed)
        store = EventStore(self.path, self.table_id)
        try:
            runtime: TableRuntime | None = None
            for number, planned in enumerate(self.games, start=1):
                if runtime is None:
                    runtime = TableRuntime(store, table_id=self.table_id, game=planned.spec,
                                           names=planned.names)  # fmt: skip
                else:
                    runtime.start_game(planned.spec, names=planned.names)
                deals = list((planned.prelude or {}).get("deals", []))
                deals += demo_transcript(planned.spec, deals=planned.deals, seed=planned.seed)[
                    "deals"
                ]
                feed(runtime, deals, prefix=f"g{number}-", delay=self.delay, rng=rng)
        except BaseException as exc:  # noqa: BLE001 - reported to the test that runs the table
            self.error = exc
        finally:
            store.close()
            self.done.set()


def feed(
    runtime: TableRuntime,
    deals: Sequence[dict[str, Any]],
    *,
    prefix: str,
    delay: float = 0.0,
    rng: random.Random | None = None,
) -> None:
    """Like ``kibic.demo.play_transcript``, with an id prefix so one table can play many games."""
    game = runtime.game
    for i, deal in enumerate(deals, start=1):
        hands = parse_hands(deal.get("hands"), f"deal {i}", game.players)
        setup = {k: v for k, v in deal.items() if k not in ("dealer", "hands", "events")}
        runtime.start_deal(hands=hands, setup=setup, dealer=deal["dealer"],
                           entry_id=f"{prefix}d{i}-start")  # fmt: skip
        for j, raw in enumerate(deal["events"], start=1):
            runtime.submit(Action.from_dict(raw), source="sim", entry_id=f"{prefix}d{i}-e{j}")
            if delay:
                time.sleep(delay * (rng.random() * 2 if rng else 1.0))


def plan_tables(
    count: int,
    directory: Path,
    *,
    seed: int,
    specs: Sequence[tuple[str, int]] = (("subrosa", 2), ("veliki-satir", 3)),
    revoke: dict[str, Any] | None = None,
    revoke_every: int = 7,
    delay: float = 0.0,
) -> list[SimTable]:
    """``count`` tables, each playing ``specs`` (game, deals) in turn with seated club players
    (by club id or name, as a director would type them); every ``revoke_every``-th table opens
    its Veliki Satir game with the ``revoke`` transcript."""
    rng = random.Random(seed)
    tables = []
    for t in range(count):
        games = []
        for g, (spec, deals) in enumerate(specs):
            seated = rng.sample(CLUB_PLAYERS, 4)
            names = tuple(cid if rng.random() < 0.5 else name for cid, name in seated)
            prelude = (
                revoke if (revoke and spec == "veliki-satir" and t % revoke_every == 0) else None
            )
            games.append(PlannedGame(spec, deals, seed * 1000 + t * 10 + g, names, prelude))
        table_id = f"t{t + 1:02d}"
        tables.append(SimTable(table_id, directory / f"{table_id}.sqlite3", games, delay=delay,
                               seed=seed + t))  # fmt: skip
    return tables
