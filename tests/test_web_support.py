"""Shared set-up of the web tests: a real table runtime on an in-memory store, a known deal."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from kibic.config import hash_password
from kibic.runtime import TableRuntime
from kibic.store import EventStore
from referee.actions import Action, ActionType
from referee.cards import Card
from referee.registry import load_game

PASSWORD = "sto-7"
# few PBKDF2 rounds: the tests check the comparison, not the hash's strength
PASSWORD_HASH = hash_password(PASSWORD, salt=b"kibic-test-salt!", rounds=1000)
NAMES = ["Ana", "Bora", "Ceca", "Duško"]
ADMIN = {"X-Kibic-Password": PASSWORD}


def known_hands(seed: int = 7) -> dict[int, list[Card]]:
    hands, _ = load_game("veliki-satir").deal_cards(random.Random(seed), dealer=3)
    return hands


def new_runtime(*, table_id: str = "sto-1") -> TableRuntime:
    store = EventStore(":memory:", table_id)
    runtime = TableRuntime(store, table_id=table_id, game="veliki-satir", names=NAMES)
    return runtime


def start_known_deal(runtime: TableRuntime, *, seed: int = 7) -> None:
    """A new game of Veliki Satir with known hands, dealer 3, forehand 0 declares closed."""
    runtime.start_game("veliki-satir", names=NAMES)
    runtime.start_deal(hands=known_hands(seed), dealer=3)
    runtime.submit(Action(0, ActionType.CONTRACT, value="zatvoreno"))


def legal_play(runtime: TableRuntime) -> Action:
    deal = runtime.deal
    assert deal is not None
    seat = deal.to_act  # type: ignore[attr-defined]
    return Action.play(seat, deal.legal_plays()[0])  # type: ignore[attr-defined]


def illegal_play(runtime: TableRuntime) -> Action | None:
    """A card the seat to act holds but may not play now (a revoke), if there is one."""
    deal = runtime.deal
    assert deal is not None
    seat = deal.to_act  # type: ignore[attr-defined]
    legal = set(deal.legal_plays())  # type: ignore[attr-defined]
    hand = sorted(deal.hands[seat] - legal)  # type: ignore[attr-defined]
    return Action.play(seat, hand[0]) if hand else None


def play_trick(runtime: TableRuntime) -> list[dict[str, object]]:
    events: list[dict[str, object]] = []
    for _ in range(4):
        events.extend(runtime.submit(legal_play(runtime)))
    return events


@pytest.fixture
def runtime() -> Iterator[TableRuntime]:
    rt = new_runtime()
    try:
        yield rt
    finally:
        rt.close()


@pytest.fixture
def client(runtime: TableRuntime) -> Iterator[TestClient]:
    """The app on a runtime with a known deal started (in-process, no server)."""
    from web.app import create_app

    start_known_deal(runtime)
    with TestClient(create_app(runtime, admin_password_hash=PASSWORD_HASH)) as test_client:
        yield test_client
