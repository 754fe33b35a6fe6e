"""Transcripts: a game as JSON (``game``, ``options``, ``deals`` with ``dealer``, optional
``hands`` and ``events``), replayed through the referee. Every error names the deal and event."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.actions import Action, ActionType
from referee.cards import Card
from referee.deal import Deal, Mode
from referee.errors import ActionError, CardError, RefereeError, TranscriptError
from referee.events import Event
from referee.game import Game
from referee.match import Match
from referee.registry import load_game
from referee.setup import seat_of

DEAL_KEYS = {"dealer", "hands", "events"}


@dataclass
class Replay:
    game: Game
    deals: list[Deal]
    match: Match
    events: list[list[Event]]


_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(r"[\[\]{}]")
MAX_JSON_DEPTH = 64  # a transcript is 6 levels deep; Python's parser recurses once per level


def json_depth(text: str) -> int:
    """The deepest nesting of brackets in JSON text, strings skipped (no recursion: any depth).

    >>> json_depth('{"a": [1, {"b": "[[["}]}')
    3
    """
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def load_transcript(path: str | Path) -> dict[str, Any]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise TranscriptError(f"{path}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise TranscriptError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    depth = json_depth(text)
    if depth > MAX_JSON_DEPTH:
        raise TranscriptError(
            f"{path}: JSON nested {depth} levels deep; a transcript needs at most {MAX_JSON_DEPTH}"
        )
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TranscriptError(f"{path}: malformed JSON at line {exc.lineno}: {exc.msg}") from None
    except (ValueError, RecursionError) as exc:  # e.g. an integer of more than 4,300 digits
        raise TranscriptError(f"{path}: malformed JSON: {exc}") from None
    if not isinstance(data, dict):
        raise TranscriptError(f"{path}: a transcript is a JSON object")
    return data


def game_of(data: Mapping[str, Any]) -> Game:
    name = data.get("game")
    if not isinstance(name, str):
        raise TranscriptError("transcript: 'game' must name a game")
    options = data.get("options", {})
    try:
        if isinstance(options, str):
            game = load_game(options if "(" in options else f"{name}({options})")
        elif isinstance(options, Mapping):
            game = load_game(name, **dict(options))
        else:
            raise TranscriptError("transcript: 'options' must be an object or a string")
    except RefereeError as exc:
        raise TranscriptError(f"transcript: {exc}") from None
    players = data.get("players")
    if players is not None and players != game.players:
        raise TranscriptError(
            f"transcript: 'players' is {players} but {game.spec} is played by {game.players}"
        )
    return game


def parse_hands(raw: Any, where: str, players: int) -> dict[int, list[Card]] | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise TranscriptError(f"{where}: 'hands' must be an object of seat -> cards")
    hands: dict[int, list[Card]] = {}
    for key, cards in raw.items():
        try:
            seat = seat_of(key, f"{where}: hands", players)
        except ActionError as exc:
            raise TranscriptError(str(exc)) from None
        if seat in hands:
            raise TranscriptError(f"{where}: hands[{seat}]: the seat is given twice")
        if isinstance(cards, str):
            cards = cards.split()
        if not isinstance(cards, list):
            raise TranscriptError(
                f"{where}: hands[{seat}]: expected a list of cards, got {type(cards).__name__}"
            )
        try:
            hands[seat] = [Card.parse(c) for c in cards]
        except CardError as exc:
            raise TranscriptError(f"{where}: hands[{seat}]: {exc}") from None
    return hands


def replay(data: Mapping[str, Any], *, mode: Mode = Mode.TABLE) -> Replay:
    """Replay every deal of a transcript; raise TranscriptError naming the deal and event."""
    game = game_of(data)
    raw_deals = data.get("deals")
    if not isinstance(raw_deals, list) or not raw_deals:
        raise TranscriptError("transcript: 'deals' must be a non-empty list")
    match = Match(game)
    deals: list[Deal] = []
    all_events: list[list[Event]] = []
    for i, raw in enumerate(raw_deals, start=1):
        where = f"deal {i}"
        if not isinstance(raw, Mapping):
            raise TranscriptError(f"{where}: a deal must be an object")
        dealer = raw.get("dealer", match.dealer)
        if not isinstance(dealer, int) or not 0 <= dealer < game.players:
            raise TranscriptError(f"{where}: 'dealer' must be a seat 0..{game.players - 1}")
        hands = parse_hands(raw.get("hands"), where, game.players)
        setup = {k: v for k, v in raw.items() if k not in DEAL_KEYS}
        try:
            deal = game.new_deal(dealer=dealer, hands=hands, setup=setup, mode=mode)
        except RefereeError as exc:
            raise TranscriptError(f"{where}: {exc}") from None
        events: list[Event] = []
        raw_events = raw.get("events", [])
        if not isinstance(raw_events, list):
            raise TranscriptError(f"{where}: 'events' must be a list")
        ignored = 0
        for j, item in enumerate(raw_events, start=1):
            action = Action.from_dict(item, where=f"{where}, event {j}")
            if deal.is_over and deal.violations:
                ignored += 1  # the deal was stopped by a penalty; the table played on
                continue
            if not 0 <= action.seat < game.players:
                raise TranscriptError(
                    f"{where}, event {j}: seat {action.seat} does not exist (players: {game.players})"
                )
            try:
                events.extend(deal.play(action))
            except RefereeError as exc:
                raise TranscriptError(f"{where}, event {j} ({action}): {exc}") from None
        deal.ignored_after_stop = ignored  # type: ignore[attr-defined]
        deals.append(deal)
        if deal.result is not None:
            events.extend(match.record(deal.result))
        else:
            match.dealer = game.next_dealer(dealer, partija_over=False)
        all_events.append(events)
    return Replay(game, deals, match, all_events)


def summary(rep: Replay) -> dict[str, Any]:
    """The JSON of ``kibic referee replay --json``."""
    fmt = rep.game.format_score
    deals = []
    for deal in rep.deals:
        snap = deal.snapshot()
        result = deal.result
        stopping = set(result.violations) if result is not None else set()
        deals.append(
            {
                "dealer": deal.dealer,
                "tricks": snap.get("tricks", []) + _partial(snap),
                "violations": [
                    {
                        **v.to_dict(),
                        "penalty": (
                            {s: fmt(x) for s, x in result.scores.items()}
                            if result is not None and v in stopping
                            else None
                        ),
                    }
                    for v in deal.violations
                ],
                "suspected": snap.get("suspected", []),
                "calls": [a.to_dict() for a in deal.actions if a.type is not ActionType.PLAY],
                "score": (
                    {s: fmt(x) for s, x in result.scores.items()} if result is not None else None
                ),
                "score_units": dict(result.scores) if result is not None else None,
                "detail": result.detail if result is not None else "deal not finished",
                "ignored_after_stop": getattr(deal, "ignored_after_stop", 0),
                "state": {k: v for k, v in snap.items() if k not in ("tricks", "suspected")},
            }
        )
    return {
        "game": rep.game.spec,
        "deals": deals,
        "totals": {s: fmt(v) for s, v in rep.match.totals.items()},
        "match": rep.match.to_dict(),
    }


def _partial(snap: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The trick in progress when a deal stopped, if any card of it is on the table."""
    trick = snap.get("trick")
    if isinstance(trick, Mapping) and (trick.get("plays") or trick.get("rounds")):
        return [dict(trick)]
    return []
