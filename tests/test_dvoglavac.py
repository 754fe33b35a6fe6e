"""Dvoglavac (RULES.md §15): trumps, overtaking, the Stara procedure, solos, the Bank."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import cast

import pytest

from kibic.cli import main
from referee.actions import Action, ActionType
from referee.cards import Card, Deck, Suit, parse_cards
from referee.deal import DealResult, Mode
from referee.errors import ActionError, IllegalPlay
from referee.games.dvoglavac_deal import DvoglavacDeal
from referee.games.dvoglavac_rules import Scheme, duty, pair_scores, solo_scores, winner_index
from referee.match import Match
from referee.registry import load_game

HERE = Path(__file__).parent / "transcripts"


def trumps(scheme: Scheme) -> str:
    cards = {c.logical for c in Deck.DOPPELKOPF_48.cards if scheme.is_trump(c)}
    return " ".join(c.code for c in sorted(cards, key=scheme.power, reverse=True))


def test_trump_orders_of_the_normal_game_solo_and_podsolo() -> None:
    """AMBIGUITY 74, §15.6 "Solo-Pik" and the Podsolo order."""
    assert trumps(Scheme()) == "QC QS QH QD JC JS JH JD AD TD KD 9D"
    assert trumps(Scheme(suit=Suit.SPADES)) == "QC QS QH QD JC JS JH JD AS TS KS 9S"
    assert trumps(Scheme(queens=False)) == "JC JS JH JD AD TD KD QD 9D"
    plain = [c for c in map(Card.parse, ("AH", "TH", "KH", "QH", "9H"))]
    podsolo = Scheme(queens=False)
    assert sorted(plain, key=podsolo.power, reverse=True) == plain
    assert load_game("dvoglavac").card_points_total == 240


@pytest.mark.parametrize(
    "cards,winner",
    [("QC#1 9D#1 QC#2 AD#1", 0), ("AH#1 9H#1 AH#2 KH#1", 0), ("AH#1 9H#1 9D#1 JH#1", 3),
     ("KS#1 AS#1 AH#1 AS#2", 1)],
)  # fmt: skip
def test_trick_winner_first_of_identical_cards(cards: str, winner: int) -> None:
    """DV6: Q♣#1 (lead), 9♦, Q♣#2, A♦ -> Q♣#1."""
    assert winner_index(parse_cards(cards), Scheme()) == winner


def legal(trick: str, hand: str, scheme: Scheme | None = None) -> list[str]:
    scheme = scheme or Scheme()
    played = parse_cards(trick)
    winner = played[winner_index(played, scheme)]
    cards = parse_cards(hand)
    return [
        c.code for c in cards if all(o == c or duty(played[0], winner, c, o, scheme) is None
                                     for o in cards)
    ]  # fmt: skip


def test_legal_play_follow_overtake_trump_overtrump() -> None:
    assert legal("AH#1", "KH#1 TH#1 QC#1") == ["KH#1", "TH#1"]  # DV7
    assert legal("KH#1", "AH#1 9H#1") == ["AH#1"]  # DV8: compulsory overtake
    assert legal("AH#1 JD#1", "9H#1 KH#1") == ["9H#1", "KH#1"]  # trumped: any heart
    assert legal("AH#1", "QD#1 AS#1") == ["QD#1"]  # void: must trump
    assert legal("AH#1 JD#1", "9D#1 QS#1 AS#1") == ["QS#1"]  # must overtrump
    assert legal("AH#1 QC#1", "9D#1 JD#1 AS#1") == ["9D#1", "JD#1"]  # (c1): a lower trump
    assert legal("JH#1", "QH#1 JS#1 9D#1") == ["QH#1", "JS#1"]  # overtake in trump too


@pytest.mark.parametrize(
    "seats,points,tricks,expected",
    [([0, 2], 130, 7, (True, {0: 5, 2: 5}, -10)), ([0, 2], 215, 11, (True, {0: 10, 2: 10}, -20)),
     ([0, 2], 110, 5, (False, {1: 5, 3: 5}, -10)), ([0, 2], 240, 12, (True, {0: 15, 2: 15}, -30)),
     ([0, 2], 25, 2, (False, {1: 10, 3: 10}, -20))],
)  # fmt: skip
def test_pair_game_and_the_bank(
    seats: list[int], points: int, tricks: int, expected: tuple
) -> None:  # type: ignore[type-arg]
    """DV1-DV3, Švarc, and the symmetric fall (AMBIGUITY 79 (d))."""
    assert pair_scores(seats, points, tricks, 12) == expected


def test_solo_scores() -> None:
    """DV4: Solo with Šnajder +30 / −10 each; DV5: Kontra and a fall −30 / +10 each."""
    assert solo_scores(2, 215, 11, 12, 1) == (True, {0: -10, 1: -10, 2: 30, 3: -10})
    assert solo_scores(2, 100, 5, 12, 2) == (False, {0: 10, 1: 10, 2: -30, 3: 10})
    assert solo_scores(2, 240, 12, 12, 4) == (True, {0: -60, 1: -60, 2: 180, 3: -60})


def run(deal: DvoglavacDeal, script: str) -> None:
    """``seat:CARD`` plays, ``seat:pass`` Dalje, ``seat:!solo-S`` announces, ``seat:*kontra``."""
    for item in script.split():
        seat_text, _, what = item.partition(":")
        seat = int(seat_text)
        if what == "pass":
            deal.play(Action(seat, ActionType.PASS))
        elif what.startswith("!"):
            deal.play(Action(seat, ActionType.ANNOUNCE, value=what[1:]))
        elif what.startswith("*"):
            deal.play(Action(seat, ActionType.KONTRA, value=what[1:]))
        else:
            deal.play(Action.play(seat, what))


def hidden(**setup: object) -> DvoglavacDeal:
    return load_game("dvoglavac").new_deal(dealer=3, setup=setup)  # type: ignore[return-value]


def notices(deal: DvoglavacDeal) -> list[str]:
    return [e.text for e in deal.events if e.kind == "notice"]  # type: ignore[attr-defined]


def test_partners_are_learned_from_the_cards() -> None:
    deal = hidden()
    run(deal, "0:pass 1:JH#1 2:9D#1 3:QC#2 0:AD#1")
    assert deal.tricks[0].winner == 3
    assert notices(deal) == ["partners by the first trick: seats 1 and 3"]
    assert deal.declarers() == [1, 3]
    run(deal, "3:AS#1 0:KS#1 1:QC#1")
    assert notices(deal)[-1] == "the Staras are seats 1 and 3 (shown by the cards)"
    assert deal.snapshot()["staras"] == {"QC#2": 3, "QC#1": 1}


def test_second_stara_missing_the_first_trick_annuls_the_deal() -> None:
    deal = hidden()
    run(deal, "0:pass 1:JH#1 2:9D#1 3:AD#1 0:JC#1")
    suspected = [getattr(e, "rule", None) for e in deal.events]
    assert "second-stara" not in suspected  # most seats lack a Q♣: no suspicion
    run(deal, "0:AS#1 1:9S#1 2:KS#1 3:QC#2")
    (v,) = deal.violations
    assert (v.seat, v.rule, v.trick, v.proven_at_trick, v.witness) == (
        3, "second-stara", 1, 2, Card.parse("QC#2"))  # fmt: skip
    assert deal.result is not None
    assert deal.result.scores == {"0": 15, "1": 0, "2": 15, "3": 0, "Bank": -30}
    assert "annulled" in deal.result.detail


def test_false_dalje_is_proven_by_the_stara() -> None:
    deal = hidden()
    run(deal, "0:pass 1:JH#1 2:QC#2 3:9D#1 0:AD#1 2:AS#1 3:KS#1 0:QC#1")
    (v,) = deal.violations
    assert (v.seat, v.rule, v.trick, v.proven_at_trick) == (0, "false-dalje", 1, 2)
    assert deal.result is not None and deal.result.scores["Bank"] == -30


def test_false_dalje_with_known_hands() -> None:
    hands = deal_hands(7)
    holder = next(s for s, h in hands.items() if Card.parse("QC#1") in h)
    game = load_game("dvoglavac")
    dealer = (holder - 1) % 4
    strict = game.new_deal(dealer=dealer, hands=hands, mode=Mode.STRICT)
    with pytest.raises(IllegalPlay, match="false-dalje"):
        strict.play(Action(holder, ActionType.PASS))
    table = game.new_deal(dealer=dealer, hands=hands)
    table.play(Action(holder, ActionType.PASS))
    assert table.is_over and table.violations[0].rule == "false-dalje"


def test_first_lead_must_be_a_trump() -> None:
    deal = hidden()
    run(deal, "0:AH#1")
    (v,) = deal.violations
    assert (v.seat, v.rule, v.trick) == (0, "first-lead-trump", 1)
    assert "leading claims a Stara" in v.evidence


def test_lead_without_a_stara_is_proven_when_both_appear_elsewhere() -> None:
    deal = hidden()
    run(deal, "0:JH#1 1:QC#1 2:9D#1 3:AD#1 1:AS#1 2:KS#1 3:9S#1 0:TS#1 1:QC#2")
    (v,) = deal.violations
    assert (v.seat, v.rule, v.witness) == (0, "false-stara-lead", Card.parse("QC#2"))


def test_hidden_solo_is_learned_at_the_second_stara() -> None:
    deal = hidden()
    run(deal, "0:JC#1 1:9D#1 2:9D#2 3:KD#1")
    assert notices(deal) == [
        "seat 0 won the first trick: a Prikriveni Solo, unless a Stara missed the trick"
    ]
    run(deal, "0:QC#1 1:TD#1 2:AD#1 3:KD#2 0:QC#2")
    assert notices(deal)[-1] == "seat 0 held both Staras (shown by the cards)"
    assert deal.declarers() == [0]


def solo_hands() -> dict[int, list[Card]]:
    top = parse_cards("QC#1 QC#2 QS#1 QS#2 QH#1 QH#2 QD#1 QD#2 JC#1 JC#2 JS#1 JS#2")
    rest = [c for c in Deck.DOPPELKOPF_48.cards if c not in top]
    return {0: list(top), 1: rest[:12], 2: rest[12:24], 3: rest[24:]}


def step(deal: DvoglavacDeal, n: int = 1) -> None:
    for _ in range(n):
        deal.play(Action.play(deal.to_act, deal.legal_plays()[0]))  # type: ignore[arg-type]


def play_out(deal: DvoglavacDeal) -> None:
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None
        deal.play(Action.play(seat, deal.legal_plays()[0]))


def test_solo_with_kontra_and_rekontra_schwarz() -> None:
    game = load_game("dvoglavac")
    deal = cast(DvoglavacDeal, game.new_deal(dealer=3, hands=solo_hands(), mode=Mode.STRICT))
    run(deal, "0:!solo")
    step(deal)
    with pytest.raises(ActionError, match="first one stands"):
        deal.check(Action(1, ActionType.ANNOUNCE, value="podsolo"))
    with pytest.raises(ActionError, match="opponent gives kontra with his 2nd card"):
        deal.check(Action(1, ActionType.KONTRA, value="kontra"))
    step(deal, 4)
    run(deal, "1:*kontra")
    step(deal, 3)
    run(deal, "0:*rekontra")
    play_out(deal)
    assert deal.result is not None
    assert deal.result.scores == {"0": 180, "1": -60, "2": -60, "3": -60, "Bank": 0}
    assert deal.result.extra["marks"] == {"solo:0": 1}
    assert deal.snapshot()["calls"] == ["0: solo", "1: kontra", "0: rekontra"]


def test_podsolo_announced_mid_trick_changes_the_winner_not_the_earlier_cards() -> None:
    """AMBIGUITY 78: trick 1 is won under the Podsolo; Q♥ played before stays legal."""
    deal = hidden()
    run(deal, "0:pass 1:QS#1 2:QH#1 3:!podsolo 3:9D#1 0:AS#1")
    assert deal.tricks[0].winner == 3
    assert notices(deal)[0] == "seat 3 plays Podsolo (♦ trump) alone against three"
    run(deal, "3:KC#1 0:AC#1 1:TC#1 2:KS#1")  # seat 2 void in clubs now: no proof about trick 1
    assert not deal.violations


def test_revokes_proven_later_in_a_solo() -> None:
    deal = hidden()
    run(deal, "0:!solo 0:KH#1 1:9H#1 2:AH#1 3:TH#1 2:KS#1 3:AS#1 0:9S#1 1:AH#2")
    (v,) = deal.violations
    assert (v.seat, v.rule, v.trick, v.proven_at_trick) == (1, "must-overtake", 1, 2)
    # an opponent of the soloist offended: the soloist scores a Švarc pass (source silent)
    assert deal.result is not None
    assert deal.result.scores == {"0": 45, "1": -15, "2": -15, "3": -15, "Bank": 0}

    deal = hidden()
    run(deal, "0:!solo 0:AH#1 1:QD#1 2:9D#1 3:TH#1 1:AS#1 2:QS#1")
    (v,) = deal.violations
    assert (v.seat, v.rule, v.witness) == (2, "must-overtrump", Card.parse("QS#1"))

    deal = hidden()
    run(deal, "0:!solo 0:AH#1 1:AS#1 2:9H#1 3:TH#1 0:KC#1 1:JD#1")
    (v,) = deal.violations
    assert (v.seat, v.rule) == (1, "must-trump")

    deal = hidden()
    run(deal, "0:!solo 0:AH#1 1:AS#1 2:9H#1 3:TH#1 0:KC#1 1:KH#1")
    (v,) = deal.violations
    assert (v.seat, v.rule) == (1, "follow-suit")
    assert deal.result is not None and deal.result.scores["0"] == 45


def test_compulsory_solo_dealer_must_announce() -> None:
    hands = deal_hands(3)
    deal = load_game("dvoglavac").new_deal(dealer=3, hands=hands, setup={"compulsory": True})
    while deal.to_act != 3:
        action = next(a for a in deal.legal_actions() if a.type is not ActionType.ANNOUNCE)
        deal.play(action)
    assert {a.type for a in deal.legal_actions()} == {ActionType.ANNOUNCE}
    assert all(a.value.startswith("solo") for a in deal.legal_actions())  # type: ignore[union-attr]
    with pytest.raises(ActionError, match="compulsory solo"):
        deal.check(Action(3, ActionType.ANNOUNCE, value="podsolo"))
    deal.play(Action(3, ActionType.ANNOUNCE, value="solo-H"))
    assert deal.snapshot()["trump_suit"] == "H" and deal.soloist == 3


def deal_hands(seed: int) -> dict[int, list[Card]]:
    hands, _ = load_game("dvoglavac").deal_cards(random.Random(seed), dealer=3)
    return hands


def test_seeded_pair_games_score_by_the_true_stara_holders() -> None:
    game = load_game("dvoglavac")
    for seed in range(8):
        rng = random.Random(seed)
        hands = deal_hands(seed)
        deal: DvoglavacDeal = game.new_deal(dealer=3, hands=hands)  # type: ignore[assignment]
        while not deal.is_over:
            quiet = [a for a in deal.legal_actions() if a.type is not ActionType.ANNOUNCE]
            deal.play(rng.choice(quiet))
        holders = sorted({s for s, h in hands.items() for c in h if c.code.startswith("QC")})
        assert deal.declarers() == holders
        assert deal.result is not None and sum(deal.result.scores.values()) == 0


def test_partija_ends_when_the_bank_is_empty_and_everyone_played_a_solo() -> None:
    match = Match(load_game("dvoglavac"))
    pair = {"0": 15, "1": 0, "2": 15, "3": 0, "Bank": -30}
    for _ in range(16):
        assert match.record(DealResult(pair)) == []
    assert match.totals["Bank"] == -480
    solos = [DealResult({"0": 15, "1": -5, "2": -5, "3": -5, "Bank": 0},
                        extra={"marks": {f"solo:{s}": 1}}) for s in range(4)]  # fmt: skip
    for result in solos:
        assert match.record(result) == []
    last = {"0": 15, "1": 15, "2": 0, "3": 0, "Bank": -30}
    events = match.record(DealResult(last))  # the Bank goes to −10: it pays in full anyway
    assert match.rows[-1].totals["Bank"] == -510
    assert events[0].winner == "0"


def test_transcript_replays_with_calls_and_notices(capsys: pytest.CaptureFixture[str]) -> None:
    path = HERE / "dvoglavac_stara.json"
    assert main(["referee", "replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    first, second = data["deals"]
    assert first["state"]["known"] == "the Staras are seats 1 and 3"
    assert first["tricks"][0]["winner"] == 3
    assert first["score"] == {"0": "0", "1": "5", "2": "0", "3": "5", "Bank": "-10"}
    (v,) = second["violations"]
    assert (v["seat"], v["rule"], v["trick"]) == (3, "second-stara", 1)
    assert "no Stara (the second Stara must win the first trick)" in v["evidence"]
    assert second["score"] == {"0": "15", "1": "0", "2": "15", "3": "0", "Bank": "-30"}
    assert main(["referee", "replay", str(path)]) == 0
    assert "Calls: 0: Dalje" in capsys.readouterr().out
