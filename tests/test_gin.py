"""Gin rummy deals (RULES.md §14): the upcard sequence, knocks, gin, lay-offs, undercuts,
violations with evidence, the spade variant, the wall, hidden hands and the game to 100."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.actions import Action, ActionType
from referee.cards import Card, Deck, parse_cards
from referee.deal import DealResult, Mode
from referee.errors import ActionError, IllegalPlay
from referee.events import ScoreAdjusted
from referee.games.gin_deal import GinDeal, GinPhase
from referee.match import Match
from referee.registry import load_game
from referee.transcript import load_transcript, replay, summary

TRANSCRIPTS = Path(__file__).parent / "transcripts"

KNOCKER = "AS 2S 3S 7H 7D 7C 8C 9C TC KD"  # + 4H, discard KD: deadwood 4
DEFENDER = "4S JC 7S 8S 9S QD QH QS 2C 3D"  # 4S and JC lay off; 2C 3D = 5 remain


def make(
    hand0: str, hand1: str, upcard: str, *, spec: str = "gin-rummy", mode: Mode = Mode.STRICT,
    stock: str = "",
) -> GinDeal:  # fmt: skip
    """A deal with dealer 1 (seat 0 acts first); the stock is ``stock`` then the rest sorted."""
    h0, h1, up = parse_cards(hand0), parse_cards(hand1), Card.parse(upcard)
    first = list(parse_cards(stock))
    used = {*h0, *h1, up, *first}
    rest = first + [c for c in Deck.FRENCH_52.cards if c not in used]
    deal = load_game(spec).new_deal(
        dealer=1, hands={0: h0, 1: h1},
        setup={"upcard": up.code, "stock": [c.code for c in rest]}, mode=mode,
    )  # fmt: skip
    assert isinstance(deal, GinDeal)
    return deal


def act(deal: GinDeal, seat: int, kind: str, card: str | None = None, *, value: str | None = None,
        cards: str = "") -> list[Any]:  # fmt: skip
    return deal.play(
        Action(
            seat, ActionType(kind), Card.parse(card) if card else None, parse_cards(cards), value
        )  # fmt: skip
    )


def knock_deal(defender: str = DEFENDER, **kw: Any) -> GinDeal:
    deal = make(KNOCKER, defender, "4H", **kw)
    act(deal, 0, "draw", value="upcard")
    act(deal, 0, "discard", "KD")
    return deal


def test_knock_with_layoffs_scores_the_difference() -> None:
    deal = knock_deal()
    assert Action(0, ActionType.KNOCK) in deal.legal_actions()
    events = act(deal, 0, "knock")
    assert events[-1].text == (
        "seat 0: knock with 4; melds AS 2S 3S | 7C 7D 7H | 8C 9C TC; deadwood 4H = 4"
    )
    assert deal.legal_layoffs() == list(parse_cards("JC 4S 7S"))  # 7S: the fourth seven
    act(deal, 1, "layoff", "4S")
    act(deal, 1, "layoff", "JC")
    with pytest.raises(ActionError, match="does not fit"):
        act(deal, 1, "layoff", "QD")
    act(deal, 1, "show", value="hand")
    assert deal.result is not None
    assert deal.result.scores == {"0": 1, "1": 0}  # 5 - 4
    assert deal.result.extra["defender_deadwood"] == 5
    assert "seat 0 scores 1" in deal.result.detail


def test_knock_without_layoffs() -> None:
    deal = knock_deal()
    act(deal, 0, "knock")
    act(deal, 1, "show", value="hand")
    assert deal.result is not None and deal.result.scores == {"0": 15, "1": 0}  # 19 - 4 (G1)


def test_equal_deadwood_is_an_undercut() -> None:
    deal = knock_deal("4S JC 7S 8S 9S QD QH QS 2C 2D")
    act(deal, 0, "knock")
    act(deal, 1, "layoff", "4S")
    act(deal, 1, "layoff", "JC")
    act(deal, 1, "show", value="hand")
    assert deal.result is not None
    assert deal.result.scores == {"0": 0, "1": 10}  # G2: 4 : 4 -> 0 + 10
    assert deal.result.extra["kind"] == "undercut"


def gin_deal(**kw: Any) -> GinDeal:
    deal = make("AS 2S 3S 7H 7D 7C 9C TC JC KD", "4S 8C 7S 8S 9S QD QH QS 2C 3D", "QC", **kw)
    act(deal, 0, "draw", value="upcard")
    act(deal, 0, "discard", "KD")
    act(deal, 0, "knock")
    return deal


def test_gin_with_layoffs_against_gin() -> None:
    deal = gin_deal()
    act(deal, 1, "layoff", "4S")
    act(deal, 1, "layoff", "8C")
    act(deal, 1, "show", value="hand")
    assert deal.result is not None
    assert deal.result.scores == {"0": 25, "1": 0}  # 2C 3D = 5, + 20 (G4)
    assert deal.result.extra["kind"] == "gin"


def test_no_layoffs_against_gin_when_the_option_says_so() -> None:
    deal = gin_deal(spec="gin-rummy(layoff-on-gin=false)")
    assert deal.legal_layoffs() == []
    with pytest.raises(ActionError, match="no lay-offs against gin"):
        act(deal, 1, "layoff", "4S")
    act(deal, 1, "show", value="hand")
    assert deal.result is not None and deal.result.scores == {"0": 37, "1": 0}  # 17 + 20


def test_the_card_taken_from_the_pile_is_not_discarded_at_once() -> None:
    deal = make(KNOCKER, DEFENDER, "4H")
    act(deal, 0, "draw", value="upcard")
    assert Action(0, ActionType.DISCARD, Card.parse("4H")) not in deal.legal_actions()
    with pytest.raises(ActionError, match="AMBIGUITY 71") as info:
        act(deal, 0, "discard", "4H")
    assert info.value.rule == "rediscard"


def test_first_upcard_refusal_sequence() -> None:
    deal = make(KNOCKER, DEFENDER, "4H", stock="5C")
    with pytest.raises(ActionError, match="takes or refuses the upcard"):
        act(deal, 0, "draw", value="stock")
    with pytest.raises(ActionError, match="seat 0 decides"):
        act(deal, 1, "pass")
    act(deal, 0, "pass")
    assert deal.to_act == 1 and deal.phase is GinPhase.FIRST_UPCARD
    act(deal, 1, "pass")
    assert deal.to_act == 0 and deal.phase is GinPhase.DRAW
    assert deal.legal_actions() == [Action(0, ActionType.DRAW, Card.parse("5C"), value="stock")]
    with pytest.raises(ActionError, match="take from the stock"):
        act(deal, 0, "draw", value="upcard")
    with pytest.raises(ActionError, match="only the first upcard"):
        act(deal, 0, "pass")
    act(deal, 0, "draw", value="stock")
    assert Card.parse("5C") in deal.hands[0] and deal.stock_left == 30
    assert deal.snapshot()["discard_pile"] == ["4H"]


def test_dealer_may_take_the_refused_upcard() -> None:
    deal = make(KNOCKER, DEFENDER, "4H")
    act(deal, 0, "pass")
    act(deal, 1, "draw", value="upcard")
    act(deal, 1, "discard", "QD")
    assert deal.to_act == 0 and deal.snapshot()["discard_pile"] == ["QD"]
    assert deal.snapshot()["public_in_hand"] == {"0": [], "1": ["4H"]}


def test_illegal_knock_is_a_violation_with_evidence() -> None:
    deal = make(KNOCKER, DEFENDER, "4H", mode=Mode.TABLE)
    act(deal, 0, "draw", value="upcard")
    act(deal, 0, "discard", "AS")
    assert Action(0, ActionType.KNOCK) not in deal.legal_actions()
    act(deal, 0, "knock")
    (violation,) = deal.violations
    assert (violation.seat, violation.rule, violation.trick) == (0, "illegal-knock", 1)
    assert violation.evidence == (
        "turn 1: seat 0 knocked with 2S 3S 4H 7C 7D 7H 8C 9C TC KD; the best arrangement is "
        "melds 7C 7D 7H | 8C 9C TC; deadwood 2S 3S 4H KD = 19, over the knock limit 10"
    )
    assert deal.result is not None and deal.result.scores == {"0": 0, "1": 10}
    assert deal.result.violations == (violation,)


def test_illegal_knock_raises_in_strict_mode_and_changes_nothing() -> None:
    deal = make(KNOCKER, DEFENDER, "4H")
    act(deal, 0, "draw", value="upcard")
    act(deal, 0, "discard", "AS")
    before = json.dumps(deal.snapshot(), sort_keys=True)
    with pytest.raises(IllegalPlay, match="illegal-knock"):
        act(deal, 0, "knock")
    assert json.dumps(deal.snapshot(), sort_keys=True) == before


def test_knock_only_right_after_ones_own_discard() -> None:
    deal = knock_deal()
    with pytest.raises(ActionError, match="right after one's own discard"):
        act(deal, 1, "knock")
    act(deal, 1, "draw", value="stock")
    with pytest.raises(ActionError, match="right after one's own discard"):
        act(deal, 0, "knock")


def test_draw_out_of_turn_is_a_violation() -> None:
    deal = make(KNOCKER, DEFENDER, "4H", mode=Mode.TABLE)
    act(deal, 1, "draw", value="stock")
    (violation,) = deal.violations
    assert violation.rule == "draw-out-of-turn"
    assert violation.evidence == "turn 0: seat 1 drew from the stock while seat 0 was to draw"
    assert deal.result is not None and deal.result.scores == {"0": 10, "1": 0}


def test_drawing_twice_is_a_violation() -> None:
    deal = make(KNOCKER, DEFENDER, "4H", mode=Mode.TABLE)
    act(deal, 0, "draw", value="upcard")
    act(deal, 0, "draw", value="stock")
    (violation,) = deal.violations
    assert violation.evidence == (
        "turn 1: seat 0 drew from the stock while seat 0 had drawn and was to discard"
    )
    assert deal.result is not None and deal.result.scores == {"0": 0, "1": 10}
    strict = make(KNOCKER, DEFENDER, "4H")
    with pytest.raises(IllegalPlay, match="draw-out-of-turn"):
        act(strict, 1, "draw", value="upcard")


def test_spade_upcard_sets_the_knock_limit_and_doubles_g7() -> None:
    deal = make(KNOCKER, "JC 7S 8S 9S QD QH QS 2C 3D 5H", "4S", spec="gin-rummy(oklahoma=true)")
    assert (deal.knock_limit, deal.multiplier) == (4, 2)
    act(deal, 0, "draw", value="upcard")
    act(deal, 0, "discard", "KD")
    act(deal, 0, "knock")
    act(deal, 1, "show", value="hand")
    assert deal.result is not None
    assert deal.result.scores == {"0": 80, "1": 0}  # (20 + 20) x 2
    assert "doubled" in deal.result.detail
    plain = make(KNOCKER, DEFENDER, "4H", spec="gin-rummy(oklahoma=true)")
    assert (plain.knock_limit, plain.multiplier) == (4, 1)


def run_to_the_wall(deal: GinDeal) -> None:
    """Both players take the stock and throw the card they drew until the wall."""
    act(deal, 0, "pass")
    act(deal, 1, "pass")
    while deal.phase is not GinPhase.WALL:
        seat = deal.to_act
        assert seat is not None and deal.stock is not None
        card = deal.stock[0]
        act(deal, seat, "draw", value="stock")
        act(deal, seat, "discard", card.code)


def test_the_hand_is_dead_at_the_wall() -> None:
    deal = make(KNOCKER, DEFENDER, "4H")
    run_to_the_wall(deal)
    assert deal.stock_left == 2
    assert not deal.can(Action(deal.to_act or 0, ActionType.DRAW, value="stock"))
    assert not deal.can(Action(deal.to_act or 0, ActionType.DRAW, value="upcard"))
    act(deal, deal.to_act or 0, "pass", value="wall")
    assert deal.result is not None and deal.result.scores == {"0": 0, "1": 0}
    assert deal.result.extra["kind"] == "dead"


def test_wall_knock_option_lets_the_next_player_take_the_last_discard() -> None:
    deal = make(KNOCKER, DEFENDER, "4H", spec="gin-rummy(wall-knock=true)")
    run_to_the_wall(deal)
    seat = deal.to_act or 0
    assert deal.can(Action(seat, ActionType.DRAW, value="upcard"))


def test_hidden_hands_are_checked_when_shown() -> None:
    game = load_game("gin-rummy")
    deal = game.new_deal(dealer=0, setup={"upcard": "4H"}, mode=Mode.TABLE)
    act(deal, 1, "pass")
    act(deal, 0, "draw", value="upcard")
    act(deal, 0, "discard", "KD")
    act(deal, 1, "draw", value="stock")  # hidden
    act(deal, 1, "discard", "9D")
    act(deal, 0, "draw", value="stock")
    act(deal, 0, "discard", "QC")
    with pytest.raises(ActionError, match="lacks 4H"):
        act(deal, 0, "knock", cards="AS 2S 3S 7H 7D 7C 8C 9C TC 5H")
    with pytest.raises(ActionError, match="in the discard pile"):
        act(deal, 0, "knock", cards="AS 2S 3S 7H 7D 7C 8C 9C 9D 4H")
    with pytest.raises(ActionError, match="shows 9 cards"):
        act(deal, 0, "knock", cards="AS 2S 3S 7H 7D 7C 8C 9C 4H")
    act(deal, 0, "knock", cards="AS 2S 3S 7H 7D 7C 8C 9C TC 4H")
    act(deal, 1, "layoff", "4S")
    act(deal, 1, "layoff", "JC")
    with pytest.raises(ActionError, match="laid off"):
        act(deal, 1, "show", cards="JC 8S 9S QD QH QS 2C 3D")
    act(deal, 1, "show", cards="7S 8S 9S QD QH QS 2C 3D")
    assert deal.result is not None and deal.result.scores == {"0": 1, "1": 0}
    with pytest.raises(ActionError, match="legal actions need known hands"):
        game.new_deal(dealer=0, setup={"upcard": "4H"}).legal_actions()


def test_winner_deals_next_and_the_game_ends_at_100_with_settlement() -> None:
    game = load_game("gin-rummy")
    match = Match(game, dealer=1)
    win = lambda s, p: DealResult({str(s): p, str(1 - s): 0}, extra={"winner": s})  # noqa: E731
    match.record(win(0, 30))
    assert match.dealer == 0
    match.record(DealResult({"0": 0, "1": 0}, extra={"winner": None}))
    assert match.dealer == 0  # a dead hand: the same dealer again (AMBIGUITY 70)
    match.record(win(1, 25))
    assert match.dealer == 1
    match.record(win(0, 40))
    events = match.record(win(0, 35))
    assert [e.kind for e in events] == ["partija_over", "match_over"]
    assert match.partija_winners == ["0"]
    # 105 : 25, hands won 3 : 1 -> 100 + 40 + 80
    assert game.settlement(match) == {"0": 220, "1": -220}  # type: ignore[attr-defined]
    assert match.final == {"0": 220, "1": -220}  # the match's result by the rules


def test_shutout_doubles_the_game_bonus() -> None:
    game = load_game("gin-rummy")
    match = Match(game)
    match.record(DealResult({"0": 60, "1": 0}, extra={"winner": 0}))
    match.record(DealResult({"0": 45, "1": 0}, extra={"winner": 0}))
    assert game.settlement(match) == {"0": 200 + 40 + 105, "1": -345}  # type: ignore[attr-defined]


def test_a_directors_correction_is_no_hand_won_in_the_settlement() -> None:
    """§14.5 counts hands won; a correction of a total (``Match.adjust``) is not a hand, so a
    loser who won none is still shut out (a deal re-scored is a ``corrected`` deal instead)."""
    game = load_game("gin-rummy")
    match = Match(game)
    match.record(DealResult({"0": 60, "1": 0}, extra={"winner": 0}))
    match.adjust("1", 5, "a deadwood count put right")
    match.record(DealResult({"0": 45, "1": 0}, extra={"winner": 0}))
    assert [r.deal for r in match.rows] == [1, 1, 2]
    # 105 : 5, hands won 2 : 0 -> shut out: 200 + 40 + 100
    assert game.settlement(match) == {"0": 340, "1": -340}  # type: ignore[attr-defined]


def test_a_correction_after_the_last_deal_corrects_the_game_it_ended() -> None:
    """Made before anything is written in the next game, a correction goes into the game the
    last deal ended, and that game's end is judged again (it used to start a game of its own,
    deal 0, and change neither the winner nor the settlement)."""
    game = load_game("gin-rummy")
    match = Match(game)
    match.record(DealResult({"0": 60, "1": 0}, extra={"winner": 0}))
    assert [e.kind for e in match.record(DealResult({"0": 45, "1": 0}, extra={"winner": 0}))] == [
        "partija_over", "match_over"]  # fmt: skip
    events = match.adjust("1", 5, "a deadwood count put right")
    assert [(e.kind, getattr(e, "totals", None)) for e in events] == [
        ("score_adjusted", None), ("partija_over", {"0": 105, "1": 5}),
        ("match_over", None)]  # fmt: skip
    assert [(r.partija, r.deal, r.adjustment) for r in match.rows] == [
        (1, 1, False), (1, 1, True), (1, 2, False)]  # fmt: skip
    assert match.partija_totals == [{"0": 105, "1": 5}] and match.winner == "0"
    assert game.settlement(match) == {"0": 340, "1": -340}  # type: ignore[attr-defined]
    assert match.final == {"0": 340, "1": -340}
    # a correction that takes the winner below 100: the game was not over, and goes on
    assert match.adjust("0", -10, "a card counted twice") == [
        ScoreAdjusted("0", -10, "a card counted twice")]  # fmt: skip
    assert match.partija == 1 and match.winner is None and match.totals == {"0": 95, "1": 5}
    assert [r.deal for r in match.rows] == [1, 1, 1, 2]
    match.adjust("1", 1, "during the game")  # the game runs: after its last deal, as before
    assert match.rows[-1].adjustment and match.totals == {"0": 95, "1": 6}


def test_a_correction_between_deals_that_reaches_the_target_ends_the_game_at_once() -> None:
    """A miscount found between deals that takes a player to 100 ends the game with its last
    deal, judged with the correction (and any made since) before that deal; the game is not
    played on to its next deal first. A correction that reaches nothing is written after the
    last deal, as before."""
    game = load_game("gin-rummy")
    match = Match(game)
    match.record(DealResult({"0": 60, "1": 0}, extra={"winner": 0}))
    match.record(DealResult({"0": 35, "1": 0}, extra={"winner": 0}))
    assert match.adjust("1", 5, "a deadwood count put right") == [
        ScoreAdjusted("1", 5, "a deadwood count put right")]  # fmt: skip
    assert [(r.deal, r.adjustment) for r in match.rows] == [(1, False), (2, False), (2, True)]
    events = match.adjust("0", 10, "a meld not counted")
    assert [(e.kind, getattr(e, "totals", None)) for e in events] == [
        ("score_adjusted", None), ("partija_over", {"0": 105, "1": 5}),
        ("match_over", None)]  # fmt: skip
    assert [(r.deal, r.adjustment, r.scores) for r in match.rows] == [
        (1, False, {"0": 60, "1": 0}), (1, True, {"1": 5}), (1, True, {"0": 10}),
        (2, False, {"0": 35, "1": 0})]  # fmt: skip
    assert match.partija_totals == [{"0": 105, "1": 5}] and match.winner == "0"
    assert match.partija == 2 and match.totals == {"0": 0, "1": 0}


@pytest.mark.parametrize(
    ("name", "scores", "violations"),
    [
        ("gin_knock_layoff.json", {"0": "1", "1": "0"}, []),
        ("gin_gin_layoff.json", {"0": "25", "1": "0"}, []),
        ("gin_illegal_knock.json", {"0": "0", "1": "10"}, ["illegal-knock"]),
        ("gin_table_hidden.json", {"0": "1", "1": "0"}, []),
    ],
)
def test_transcripts_replay(name: str, scores: dict[str, str], violations: list[str]) -> None:
    data = load_transcript(TRANSCRIPTS / name)
    out = summary(replay(data))
    (deal,) = out["deals"]
    assert deal["score"] == scores
    assert [v["rule"] for v in deal["violations"]] == violations
