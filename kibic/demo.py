"""The demo: a recorded game through the whole pipeline (vision when available, referee,
event store, dashboard, simulated lights), printed trick by trick."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kibic.demo_players import table_choice
from kibic.runtime import TableRuntime
from kibic.sheet_csv import seat_name
from kibic.store import EventStore
from referee.actions import Action, ActionType
from referee.deal import Mode
from referee.game import Game
from referee.match import Match
from referee.registry import find_game, load_game
from referee.transcript import parse_hands

MAX_DEALS = 15
DEMO_NAMES = {2: ["Ana", "Bora"], 3: ["Ana", "Bora", "Cica"], 4: ["Ana", "Bora", "Cica", "Dule"]}


def preferred_game() -> str:
    """Ružička when it is registered (the flagship), else Veliki Satir."""
    try:
        return find_game("ruzicka").name
    except Exception:  # noqa: BLE001 - any lookup failure falls back
        return "veliki-satir"


def demo_transcript(spec: str, *, deals: int, seed: int) -> dict[str, Any]:
    """The bundled transcript for ``spec`` if there is one, else a seeded simulated game of
    ``deals`` deals (0: until the first partija is won, at most ``MAX_DEALS``)."""
    game = load_game(spec)
    name = f"demo_{game.name}.json"
    bundled = Path(__file__).resolve().parent / "data" / name
    if bundled.is_file() and spec == game.name:
        data: dict[str, Any] = json.loads(bundled.read_text(encoding="utf-8"))
        data["deals"] = data["deals"][:deals]
        return data
    rng = random.Random(seed)
    out = []
    match = Match(game)
    for _ in range(deals or MAX_DEALS):
        dealer = match.dealer
        hands, setup = game.deal_cards(rng, dealer=dealer)
        setup = {**setup, **match.next_setup}
        deal = game.new_deal(dealer=dealer, hands=hands, setup=setup, mode=Mode.TABLE)
        while not deal.is_over:
            deal.play(table_choice(rng, deal.legal_actions(), deal))
        out.append(deal.to_transcript())
        assert deal.result is not None
        if match.record(deal.result) and not deals:
            break
    return {"game": game.name, "options": game.options.non_default(), "deals": out}


@dataclass
class DemoOptions:
    game: str
    deals: int = 3
    seed: int = 7
    fast: bool = False
    delay: float = 0.0
    use_vision: bool = True


def play_transcript(
    runtime: TableRuntime,
    transcript: dict[str, Any],
    *,
    delay: float,
    feed_play: Callable[..., None] | None = None,
) -> None:
    """Feed a transcript into the runtime with deterministic entry ids (safe to resume)."""
    game = runtime.game
    for i, deal in enumerate(transcript["deals"], start=1):
        hands = parse_hands(deal.get("hands"), f"deal {i}", game.players)
        setup = {k: v for k, v in deal.items() if k not in ("dealer", "hands", "events")}
        runtime.start_deal(hands=hands, setup=setup, dealer=deal["dealer"], entry_id=f"d{i}-start")
        actions = [Action.from_dict(raw, where=f"deal {i}, event {j}")
                   for j, raw in enumerate(deal["events"], start=1)]  # fmt: skip
        plays = [(a.seat, a.card) for a in actions if a.type is ActionType.PLAY and a.card]
        play_no = -1
        for j, action in enumerate(actions, start=1):
            entry_id = f"d{i}-e{j}"
            play_no += action.type is ActionType.PLAY
            if runtime.store.has(entry_id):
                continue
            if action.type is ActionType.PLAY and feed_play is not None:
                feed_play(i, play_no, plays, action, entry_id)
            else:
                runtime.submit(action, source="demo", entry_id=entry_id)
            if delay:
                time.sleep(delay)


def demo_runtime(*, game: str, deals: int, plays: int, seed: int) -> TableRuntime:
    """The demo's game on an in-memory store, the last of ``deals`` deals stopped after
    ``plays`` cards (pictures and tests of a game in progress)."""
    spec = load_game(game)
    transcript = demo_transcript(game, deals=deals, seed=seed)
    names = DEMO_NAMES.get(spec.players, [str(i) for i in range(spec.players)])
    runtime = TableRuntime(EventStore(":memory:", "demo"), table_id="demo", game=spec.spec,
                           names=names)  # fmt: skip
    last = len(transcript["deals"])
    for i, deal in enumerate(transcript["deals"], start=1):
        hands = parse_hands(deal.get("hands"), f"deal {i}", spec.players)
        setup = {k: v for k, v in deal.items() if k not in ("dealer", "hands", "events")}
        runtime.start_deal(hands=hands, setup=setup, dealer=deal["dealer"])
        played = 0
        for j, raw in enumerate(deal["events"], start=1):
            action = Action.from_dict(raw, where=f"deal {i}, event {j}")
            if i == last and action.type is ActionType.PLAY and played == plays:
                break
            played += action.type is ActionType.PLAY
            runtime.submit(action, source="demo")
    return runtime


def deal_header(state: dict[str, Any], shown: int, total: int) -> str | None:
    """The header of a deal that ``state`` (a live-feed message's) shows begun, when it is
    later than deal ``shown``: printed from the feed, so it comes after the last deal's lines."""
    deal, number = state.get("deal"), int(state.get("deal_number") or 0)
    if deal is None or number <= shown:
        return None
    return f"— deljenje (deal) {number}/{total}, deli (dealer) {state['names'][deal['dealer']]} —"


def side_name(side: object, names: list[str], game: Game) -> str:
    """A side as the printout names it: the player of a side of one seat ("1": Bora), else
    the side itself ("A", "Bank")."""
    seats = game.seats_of(side)
    return seat_name(names, seats[0]) if len(seats) == 1 else str(side)


def describe(event: dict[str, Any], names: list[str], game: Game) -> str | None:
    kind, fmt = event["kind"], game.format_score
    if kind == "trick_won":
        plays = " ".join(f"{names[s]}:{c}" for s, c in event["plays"])
        return f"  štih {event['trick']:>2}: {plays}  → {names[event['winner']]}"
    if kind == "violation_proven":
        v = event["violation"]
        return f"  PREKRŠAJ {names[v['seat']]}: {v['rule']} (štih {v['trick']}) — {v['evidence']}"
    if kind == "deal_scored":
        scores = ", ".join(
            f"{side_name(s, names, game)}: {fmt(x)}" for s, x in event["scores"].items()
        )
        return f"  deljenje: {scores}"
    if kind == "partija_over":
        return f"  PARTIJA: {side_name(event['winner'], names, game)}"
    if kind == "match_over":
        return f"  MEČ: {side_name(event['winner'], names, game)}"
    if kind == "action":
        # with a card shown (a gin discard, say)
        said = [event["type"], event.get("value") or "", *(event.get("cards") or [])]
        return f"  {names[event['seat']]}: " + " ".join(w for w in said if w)
    if kind == "card_picked_up" and event.get("card"):  # face up: the discard pile's top
        return f"  {names[event['seat']]}: uzima (picks up) {event['card']}"
    return None


def default_store(path: str | None) -> Path:
    if path:
        return Path(path)
    return Path("var") / f"demo-{int(time.time())}.sqlite3"


def write_state(runtime: TableRuntime, path: str | None) -> None:
    if path:
        Path(path).write_text(
            json.dumps(runtime.state_digest(), sort_keys=True, ensure_ascii=False), encoding="utf-8"
        )
