"""A copy index (``5S#1``) names a card only in a deck that holds copies (Dvoglavac's doubled
deck), and only up to its number of copies: the referee, the CLI and the dashboard's API refuse
it everywhere else, naming the card."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kibic.cli import main
from kibic.runtime import TableRuntime
from kibic.store import EventStore
from referee.actions import Action
from referee.cards import Card, Deck, Rank, Suit
from referee.errors import ActionError, CardError
from referee.registry import load_game
from tests.test_web_support import ADMIN, PASSWORD_HASH
from web.app import create_app

HERE = Path(__file__).parent / "transcripts"


def test_only_the_doubled_deck_holds_copies() -> None:
    assert {deck: deck.copies for deck in Deck} == {
        deck: 2 if deck is Deck.DOPPELKOPF_48 else 1 for deck in Deck
    }
    assert Deck.DOPPELKOPF_48.check(Card.parse("QC#2")) == Card.parse("QC#2")
    assert Deck.FRENCH_52.check(Card.parse("5S")) == Card.parse("5S")


@pytest.mark.parametrize(
    ("deck", "card", "said"),
    [
        (
            Deck.FRENCH_52,
            Card.parse("5S#1"),
            "5S#1: the french-52 deck holds one copy of each card",
        ),
        (Deck.PIQUET_32, Card.parse("7S#2"), "7S#2: the piquet-32 deck holds one copy"),
        (Deck.SERBIAN_33, Card.parse("JK#1"), "JK#1: the serbian-33 deck holds one copy"),
        (Deck.DOPPELKOPF_48, Card.parse("QC"), "QC: the doppelkopf-48 deck holds 2 copies"),
        (
            Deck.DOPPELKOPF_48,
            Card(Rank.QUEEN, Suit.CLUBS, 3),
            "QC#3: the doppelkopf-48 deck holds only 2",
        ),
        (Deck.DOPPELKOPF_48, Card.parse("7S#1"), "7S#1 is not in the doppelkopf-48 deck"),
        (Deck.FRENCH_52, Card.parse("JK"), "JK is not in the french-52 deck"),
    ],
)
def test_check_names_the_card_and_why(deck: Deck, card: Card, said: str) -> None:
    with pytest.raises(CardError) as caught:
        deck.check(card)
    assert said in str(caught.value)


def test_the_same_card_twice_through_a_copy_index_is_refused_in_a_trick() -> None:
    deal = load_game("ruzicka").new_deal(dealer=3)  # hidden hands: the table's usual case
    deal.play(Action.play(0, "7S"))
    with pytest.raises(ActionError, match="7S#1: the piquet-32 deck holds one copy"):
        deal.play(Action.play(1, "7S#1"))
    assert [str(c) for _, c in deal.trick.plays] == ["7S"]  # type: ignore[attr-defined]


def test_known_hands_with_a_copy_index_are_refused() -> None:
    hands = {0: [Card.parse("5S#1")], 1: [], 2: [], 3: []}
    with pytest.raises(ActionError, match="hands: seat 0: 5S#1: the french-52 deck holds one"):
        load_game("veliki-satir").new_deal(dealer=3, hands=hands)


def test_dvoglavac_still_takes_both_copies_in_one_trick() -> None:
    deal = load_game("dvoglavac").new_deal(dealer=3)
    for seat, code in enumerate(["QC#1", "9D#1", "QC#2", "AD#2"]):
        deal.play(Action.play(seat, code))
    assert deal.tricks[0].winner == 0  # type: ignore[attr-defined]  # the first Q♣ played wins


@pytest.mark.parametrize("second", ["7S#1", "7S#2"])
def test_replay_exits_2_naming_deal_event_and_card(
    second: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events = [
        {"seat": 0, "type": "play", "card": "7S"},
        {"seat": 1, "type": "play", "card": second},
    ]
    path = tmp_path / "copy.json"
    path.write_text(json.dumps({"game": "ruzicka", "deals": [{"dealer": 3, "events": events}]}))
    assert main(["referee", "replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"deal 1, event 2 (seat 1 play {second}): seat 1 play {second}: {second}: " in err
    assert "holds one copy of each card" in err and "Traceback" not in err


@pytest.fixture
def ruzicka_client() -> Iterator[tuple[TestClient, TableRuntime]]:
    runtime = TableRuntime(EventStore(":memory:", "sto-1"), table_id="sto-1", game="ruzicka")
    runtime.start_game("ruzicka", names=["Ana", "Bora", "Ceca", "Duško"])
    runtime.start_deal(dealer=3)
    try:
        with TestClient(create_app(runtime, admin_password_hash=PASSWORD_HASH)) as client:
            yield client, runtime
    finally:
        runtime.close()


def test_the_api_answers_409_naming_the_copied_card(
    ruzicka_client: tuple[TestClient, TableRuntime],
) -> None:
    client, _ = ruzicka_client
    first = client.post(
        "/api/actions", json={"seat": 0, "type": "play", "card": "7S"}, headers=ADMIN
    )
    assert first.status_code == 200
    second = client.post(
        "/api/actions", json={"seat": 1, "type": "play", "card": "7S#1"}, headers=ADMIN
    )
    assert second.status_code == 409
    assert "7S#1: the piquet-32 deck holds one copy of each card" in second.json()["detail"]
    assert client.get("/api/state").json()["deal"]["trick"]["plays"] == [[0, "7S"]]
