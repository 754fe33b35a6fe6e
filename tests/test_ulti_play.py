"""Ulti procedure (RULES.md §13.3-§13.8, §16): the auction and the talon, naming the trump,
every play duty, and violations proven from hidden hands with their evidence."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.actions import Action, ActionType
from referee.cards import Card, parse_cards
from referee.deal import Mode
from referee.errors import ActionError, IllegalPlay
from referee.games.ulti_deal import UltiDeal
from referee.registry import load_game
from referee.transcript import load_transcript, replay, summary
from tests.test_ulti import U1, start

TRANSCRIPTS = Path(__file__).parent / "transcripts"

DUTY_CASES = {
    "betli-lower": dict(
        bid="betli",
        trump=None,
        discards="7C TC",
        hands={
            1: "TC AC QS JH TH QC 7C 8S KC 9H TD KS",
            2: "9D KD 9S 8H QH 8D JD AD 7H 7D",
            0: "TS AH 9C KH JC 8C QD JS AS 7S",
        },
        log="TH",
        seat=2,
        card="7H",
        legal="7H 8H QH",
    ),
    "follow-suit": dict(
        bid="durchmars",
        trump=None,
        discards="7C TC",
        hands={
            1: "TC AC QS JH TH QC 7C 8S KC 9H TD KS",
            2: "9D KD 9S 8H QH 8D JD AD 7H 7D",
            0: "TS AH 9C KH JC 8C QD JS AS 7S",
        },
        log="TH",
        seat=2,
        card="7D",
        legal="QH",
    ),
    "must-overtake": dict(
        bid="durchmars",
        trump=None,
        discards="7C TC",
        hands={
            1: "TC AC QS JH TH QC 7C 8S KC 9H TD KS",
            2: "9D KD 9S 8H QH 8D JD AD 7H 7D",
            0: "TS AH 9C KH JC 8C QD JS AS 7S",
        },
        log="TH",
        seat=2,
        card="7H",
        legal="QH",
    ),
    "must-overtrump": dict(
        bid="ulti",
        trump="D",
        discards="7C 8C",
        hands={
            1: "7D 7C KD TH 8S JS AD 8C KS KH 9S JD",
            2: "AC 8D 7H QH QD QC JC TS 9C TC",
            0: "9D 8H KC 7S JH TD AH 9H QS AS",
        },
        log="JS TS AS KC JD AC KS 8D 7S 9C TD",
        seat=1,
        card="KD",
        legal="AD",
    ),
    "must-trump": dict(
        bid="ulti",
        trump="S",
        discards="7C 8C",
        hands={
            1: "7H 8S 9H AS QS JH 7C TS 8C 7S KC TH",
            2: "JC 9D AC KD 8H 7D 8D QH AH QC",
            0: "KH JS AD JD QD 9S TD KS 9C TC",
        },
        log="TS QH 9S 9H AH KH JC TC KC TD",
        seat=1,
        card="7H",
        legal="8S QS AS",
    ),
    "ulti-seven-early": dict(
        bid="ulti",
        trump="S",
        discards="7C 8C",
        hands={
            1: "7H 8S 9H AS QS JH 7C TS 8C 7S KC TH",
            2: "JC 9D AC KD 8H 7D 8D QH AH QC",
            0: "KH JS AD JD QD 9S TD KS 9C TC",
        },
        log="",
        seat=1,
        card="7S",
        legal="KC 7H 9H TH JH 8S TS QS AS",
    ),
}


def position(case: dict[str, Any], mode: Mode = Mode.STRICT) -> UltiDeal:
    hands = (case["hands"][1], case["hands"][2], case["hands"][0])
    deal = start(case["bid"], hands, discards=case["discards"], trump=case["trump"], mode=mode)
    for card in parse_cards(case["log"]):
        deal.play(Action.play(deal.to_act or 0, card))
    return deal


@pytest.mark.parametrize(
    "rule", ["follow-suit", "must-overtake", "must-trump", "must-overtrump", "ulti-seven-early"]
)
def test_every_play_duty_with_known_hands(rule: str) -> None:
    case = DUTY_CASES[rule]
    deal = position(case)
    assert deal.to_act == case["seat"]
    assert [c.code for c in deal.legal_plays()] == case["legal"].split()
    with pytest.raises(IllegalPlay) as info:
        deal.play(Action.play(case["seat"], case["card"]))
    assert info.value.rule == rule
    table = position(case, Mode.TABLE)
    table.play(Action.play(case["seat"], case["card"]))
    (violation,) = table.violations
    assert (violation.seat, violation.rule, violation.card) == (
        case["seat"], rule, Card.parse(case["card"]),
    )  # fmt: skip
    assert "(known hand)" in violation.evidence
    assert table.is_over and table.result is not None


def test_betli_has_no_duty_to_overtake() -> None:
    case = DUTY_CASES["betli-lower"]
    deal = position(case)
    assert [c.code for c in deal.legal_plays()] == ["7H", "8H", "QH"]
    deal.play(Action.play(2, "7H"))  # lower than the led TH: legal in Betli
    # the same position in a no-trump Durchmars forces QH (the only heart that beats TH)
    assert [c.code for c in position(DUTY_CASES["must-overtake"]).legal_plays()] == ["QH"]


def test_ulti_seven_early_penalty_makes_every_component_fail() -> None:
    table = position(DUTY_CASES["ulti-seven-early"], Mode.TABLE)
    table.play(Action.play(1, "7S"))
    assert table.result is not None
    assert table.result.detail.startswith("ulti-seven-early by seat 1: every component fails")
    assert table.result.scores == {"0": 9, "1": -18, "2": 9}  # Passz 1 + Ulti 4 + 4


# -- hidden hands: proofs from later plays (§16.3) ----------------------------------------------
def hidden(bid: str, trump: str | None) -> UltiDeal:
    deal = load_game("ulti").new_deal(dealer=0, mode=Mode.TABLE)
    assert isinstance(deal, UltiDeal)
    deal.play(Action(1, ActionType.BID, value=bid))
    deal.play(Action(1, ActionType.EXCHANGE))  # face down: the referee does not see them
    deal.play(Action(2, ActionType.PASS))
    deal.play(Action(0, ActionType.PASS))
    if trump:
        deal.play(Action(1, ActionType.CONTRACT, value=trump))
    return deal


def play(deal: UltiDeal, cards: str) -> list[Any]:
    events: list[Any] = []
    for card in parse_cards(cards):
        events.extend(deal.play(Action.play(deal.to_act or 0, card)))
    return events


def test_revoke_suspected_then_proven_by_a_later_play() -> None:
    deal = hidden("ulti", "S")  # the hands of U1
    events = play(deal, "AS AD QH")  # seat 2 plays AD on the trump lead, holding 7S
    # both defenders failed to follow: suspected (seat 0 may well be out of spades)
    assert [(e.seat, e.rule, e.trick) for e in events if e.kind == "violation_suspected"] == [
        (2, "follow-suit", 1), (0, "follow-suit", 1),
    ]  # fmt: skip
    assert not deal.violations
    play(deal, "TS 7S")
    (violation,) = deal.violations
    assert violation.to_dict() == {
        "seat": 2, "rule": "follow-suit", "trick": 1, "card": "AD", "witness": "7S",
        "proven_at_trick": 2,
        "evidence": "at trick 1 seat 2 played AD (trick 1: no ♠); at trick 2 the same seat "
        "played 7S, which it must have held then",
        # the same evidence as facts, for the dashboard to word in the table's language
        "code": "revoke.later_card",
        "facts": {"trick": 1, "seat": 2, "card": "AD", "proven": 2, "witness": "7S"},
        "inner": {"constraint": [{"code": "ulti.no_led", "facts": {"trick": 1, "led": "♠"}}]},
    }  # fmt: skip
    assert deal.result is not None  # a defender's revoke: the soloist's components succeed
    assert deal.result.scores == {"0": -5, "1": 10, "2": -5}
    out = summary(replay({"game": "ulti", "deals": [deal.to_transcript()]}))
    assert out["deals"][0]["violations"][0]["penalty"] == {"0": "-5", "1": "10", "2": "-5"}


SEED33 = ("TS 9C TD QH 7C TC KD AS KH TH 7S QC", "8D KC QD 8C JD 7H 8H KS AD 7D",
          "AH JC QS 8S 9H JS 9S AC JH 9D")  # fmt: skip


def test_failure_to_overtake_proven_later() -> None:
    deal = hidden("passz", "S")  # the hands of SEED33
    play(deal, "TC 8C JC")  # seat 0 follows with JC below the TC, holding AC
    assert not deal.violations
    play(deal, "QC KC AC")
    (violation,) = deal.violations
    assert (violation.seat, violation.rule, violation.trick, violation.card, violation.witness) == (
        0, "must-overtake", 1, Card.parse("JC"), Card.parse("AC"),
    )  # fmt: skip
    assert violation.proven_at_trick == 2
    assert deal.result is not None and deal.result.scores == {"0": -1, "1": 2, "2": -1}


def test_failure_to_trump_proven_later() -> None:
    deal = hidden("passz", "S")  # the hands of SEED33
    play(deal, "QH 8H AH")  # trick 1 to seat 0
    play(deal, "9H KH 7H")  # trick 2 to the soloist; seat 2 is out of hearts
    play(deal, "TH 8D JH")  # seat 2 throws a diamond on the heart lead, holding KS
    assert not deal.violations
    play(deal, "AS KS")
    (violation,) = deal.violations
    assert (violation.rule, violation.trick, violation.witness, violation.proven_at_trick) == (
        "must-trump", 3, Card.parse("KS"), 4,
    )  # fmt: skip


def test_known_hand_strict_refuses_and_the_deal_is_unchanged() -> None:
    deal = start("passz", SEED33, discards="7C 9C", trump="S")
    deal.play(Action.play(1, "TC"))
    deal.play(Action.play(2, "8C"))
    before = json.dumps(deal.snapshot(), sort_keys=True)
    with pytest.raises(IllegalPlay, match="must-overtake"):
        deal.play(Action.play(0, "JC"))
    assert json.dumps(deal.snapshot(), sort_keys=True) == before


# -- the auction ---------------------------------------------------------------------------------
def fresh(mode: Mode = Mode.STRICT) -> UltiDeal:
    h = {1: parse_cards(U1[0]), 2: parse_cards(U1[1]), 0: parse_cards(U1[2])}
    deal = load_game("ulti").new_deal(dealer=0, hands=h, mode=mode)
    assert isinstance(deal, UltiDeal)
    return deal


def test_forehand_must_bid_and_discard_two() -> None:
    deal = fresh()
    assert deal.to_act == 1 and len(deal.hands[1]) == 12  # type: ignore[index]
    with pytest.raises(ActionError, match="must bid"):
        deal.play(Action(1, ActionType.PASS))
    with pytest.raises(ActionError, match="speaks in the auction"):
        deal.play(Action(2, ActionType.BID, value="passz"))
    deal.play(Action(1, ActionType.BID, value="passz"))
    with pytest.raises(ActionError, match="speaks in the auction"):
        deal.play(Action(2, ActionType.PASS))
    with pytest.raises(ActionError, match="first discard 2"):
        deal.play(Action(1, ActionType.BID, value="herc-passz"))
    with pytest.raises(ActionError, match="not in seat 1's hand"):
        deal.play(Action(1, ActionType.EXCHANGE, cards=parse_cards("7S")))
    deal.play(Action(1, ActionType.EXCHANGE, cards=parse_cards("7H")))
    deal.play(Action(1, ActionType.EXCHANGE, cards=parse_cards("7C")))
    assert deal.to_act == 2 and deal.snapshot()["talon"] == 2


def test_a_higher_bid_takes_the_talon_and_the_auction_ends_after_two_passes() -> None:
    deal = fresh()
    deal.play(Action(1, ActionType.BID, value="passz", cards=()))
    deal.play(Action(1, ActionType.EXCHANGE, cards=parse_cards("7H 7C")))
    with pytest.raises(ActionError, match="does not beat"):
        deal.play(Action(2, ActionType.BID, value="passz"))
    deal.play(Action(2, ActionType.BID, value="herc-passz"))  # equal value, Herc wins the tie
    assert len(deal.hands[2]) == 12 and {Card.parse("7H"), Card.parse("7C")} <= deal.hands[2]  # type: ignore[index]
    deal.play(Action(2, ActionType.EXCHANGE, cards=parse_cards("7H 7C")))
    deal.play(Action(0, ActionType.PASS))  # "Dalje": the talon moves on
    deal.play(Action(1, ActionType.BID, value="ulti"))  # a seat that spoke may bid again
    deal.play(Action(1, ActionType.EXCHANGE, cards=parse_cards("7H 7C")))
    deal.play(Action(2, ActionType.PASS))
    assert deal.soloist is None
    deal.play(Action(0, ActionType.PASS))
    assert deal.soloist == 1 and deal.bid is not None and deal.bid.name == "ulti"
    assert deal.snapshot()["auction"] == [
        [1, "passz"], [2, "herc-passz"], [0, "dalje"], [1, "ulti"], [2, "dalje"], [0, "dalje"],
    ]  # fmt: skip
    with pytest.raises(ActionError, match="a Herc trump must be bid as Herc"):
        deal.play(Action(1, ActionType.CONTRACT, value="H"))
    with pytest.raises(ActionError, match="soloist"):
        deal.play(Action(2, ActionType.CONTRACT, value="S"))
    deal.play(Action(1, ActionType.CONTRACT, value="pik"))
    assert deal.trump is not None and deal.trump.value == "S" and deal.to_act == 1


def test_herc_and_no_trump_bids_start_play_at_once() -> None:
    herc = start("herc-passz")
    assert herc.trump is not None and herc.trump.value == "H" and herc.snapshot()["phase"] == "play"
    betli = start("betli")
    assert betli.trump is None and betli.snapshot()["phase"] == "play"


def test_open_contract_hands_are_laid_open_after_trick_one() -> None:
    deal = hidden("open-durchmars", None)
    with pytest.raises(ActionError, match="after trick 1"):
        deal.play(Action(1, ActionType.OPEN, cards=parse_cards("KS")))
    play(deal, "AS AD QH")
    with pytest.raises(ActionError, match="has 9 cards to lay open"):
        deal.play(Action(1, ActionType.OPEN, cards=parse_cards("TS KS")))
    with pytest.raises(ActionError, match="AS is already elsewhere"):
        deal.play(Action(1, ActionType.OPEN, cards=parse_cards("AS KS QS JS 9S 8S AH AC KH")))
    deal.play(Action(1, ActionType.OPEN, cards=parse_cards("TS KS QS JS 9S 8S AH AC KH")))
    assert not deal.violations
    # seat 2 lays open the 7S it held when it played AD on the AS lead: the revoke is proven
    deal.play(Action(2, ActionType.OPEN, cards=parse_cards("7S TD KD QD JD 9D 8D 7D TH")))
    (violation,) = deal.violations
    assert (violation.seat, violation.rule, violation.trick, violation.witness) == (
        2, "follow-suit", 1, Card.parse("7S"),
    )  # fmt: skip
    assert deal.is_over and deal.result is not None and deal.result.violations == (violation,)


def test_every_hand_open_the_referee_knows_them_without_the_cards_played_since() -> None:
    deal = hidden("open-durchmars", None)
    play(deal, "AS 7S QH")
    deal.play(Action(1, ActionType.OPEN, cards=parse_cards("TS KS QS JS 9S 8S AH AC KH")))
    play(deal, "KS")  # seat 1 plays from its open hand before the others open
    deal.play(Action(2, ActionType.OPEN, cards=parse_cards("AD TD KD QD JD 9D 8D 7D TH")))
    deal.play(Action(0, ActionType.OPEN, cards=parse_cards("JH 9H 8H TC KC QC JC 9C 8C")))
    assert deal.hands is not None and deal.hands[1] == set(parse_cards("TS QS JS 9S 8S AH AC KH"))
    play(deal, "AD JH")  # seat 1's KS wins; seat 1 leads on from the hand it opened
    play(deal, "TS TD 8H")
    assert not deal.violations and not deal.is_over


@pytest.mark.parametrize(
    ("name", "score", "rules"),
    [
        ("ulti_40_100_ulti_durchmars.json", {"0": "-14", "1": "28", "2": "-14"}, []),
        ("ulti_revoke_proven.json", {"0": "-5", "1": "10", "2": "-5"}, ["follow-suit"]),
        ("ulti_rekontra_u2.json", {"0": "7", "1": "-26", "2": "19"}, []),
    ],
)
def test_transcripts_replay(name: str, score: dict[str, str], rules: list[str]) -> None:
    out = summary(replay(load_transcript(TRANSCRIPTS / name)))
    (deal,) = out["deals"]
    assert deal["score"] == score
    assert [v["rule"] for v in deal["violations"]] == rules


# -- what legal_actions lists besides cards and bids ---------------------------------------------
def test_claims_are_listed_for_every_seat_until_one_is_made() -> None:
    deal = fresh()
    claims = [(a.seat, a.value) for a in deal.legal_actions() if a.type is ActionType.CLAIM]
    assert claims == [(s, c) for s in range(3) for c in ("deli", "ne-deli")]
    deal.play(Action(2, ActionType.CLAIM, value="deli"))
    assert all(a.type is not ActionType.CLAIM for a in deal.legal_actions())


def test_open_contract_lists_laying_each_hand_open_after_trick_one() -> None:
    deal = start("open-durchmars")
    assert all(a.type is not ActionType.OPEN for a in deal.legal_actions())
    play(deal, "AS AD QH")
    opens = [a for a in deal.legal_actions() if a.type is ActionType.OPEN]
    assert [(a.seat, " ".join(c.code for c in a.cards)) for a in opens] == [
        (0, "8C 9C TC JC QC KC 8H 9H JH"),
        (1, "AC AH 7S 8S 9S TS JS QS KS"),
        (2, "7D 8D 9D TD JD QD KD TH KH"),
    ]
    with pytest.raises(ActionError, match="seat 1's hand is not those cards"):
        deal.play(Action(1, ActionType.OPEN, cards=opens[0].cards))
    deal.play(opens[1])
    assert [a.seat for a in deal.legal_actions() if a.type is ActionType.OPEN] == [0, 2]
    assert deal.snapshot()["opened"] == [1]


def test_false_forty_proven_when_another_seat_plays_the_trump_king() -> None:
    deal = hidden("passz", "S")
    play(deal, "AH")
    deal.play(Action(2, ActionType.ANNOUNCE, value="40"))
    play(deal, "7H 8H")
    assert not deal.violations  # the K♠ and O♠ may still be in seat 2's hand
    play(deal, "KS")  # the soloist plays the K♠: seat 2's forty cannot be true
    (violation,) = deal.violations
    assert (violation.seat, violation.rule, violation.proven_at_trick) == (2, "false-marriage", 2)
    assert "KS went to other seats" in violation.evidence
    assert deal.is_over and deal.result is not None
    assert deal.result.scores == {"0": -1, "1": 2, "2": -1}  # the soloist's Passz succeeds


def test_a_twenty_stays_possible_while_one_suit_keeps_its_king_and_ober() -> None:
    deal = hidden("passz", "S")
    play(deal, "AH")
    deal.play(Action(2, ActionType.ANNOUNCE, value="20"))
    play(deal, "7H 8H KH QC")  # the K♥ went to seat 1; clubs and diamonds remain possible
    assert not deal.violations and not deal.is_over
