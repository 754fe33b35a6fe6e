"""Gin rummy against an independent oracle: OpenSpiel's ``gin_rummy(gin_bonus=20,
undercut_bonus=10)``.

Seeded random hands are played in OpenSpiel, converted to Kibic transcripts, replayed by Kibic
and the hand scores compared. Test-only dependency: ``open_spiel==2.0.2`` (PyPI wheel; the
module is ``pyspiel``); the test skips cleanly without it.

Where the rules of the text (RULES.md §14) differ from OpenSpiel, and how the test corrects
for exactly that (nothing else is corrected):

1. **Ties count as undercuts.** OpenSpiel scores a knock with equal deadwood 0 : 0; the text
   (§14.4: "jednak ili manji") gives the defender the undercut bonus: 10.
2. **Lay-offs against gin.** OpenSpiel forbids them; the text allows them (AMBIGUITY 72). On
   every gin hand the test lays off, in the Kibic transcript only, the cards OpenSpiel's own
   lay-off finder (``all_layoffs`` on the melds the gin player laid) would accept, and the
   expected score is the gin bonus plus OpenSpiel's own ``min_deadwood`` of what is left.
3. **One hand, no game bonuses.** OpenSpiel scores one hand as a zero-sum return. The hands
   are chained into games to 100 in the order played (the winner of a hand deals the next,
   §14.2), and Kibic's score sheet and §14.5 settlement are compared with totals computed here
   from the corrected OpenSpiel returns.

What the harness does *not* change is the score: it only picks OpenSpiel's moves. The seeded
random policy keeps to moves the text allows and to the optimal meld arrangement that the text
prescribes: it never discards the card just taken from the pile (AMBIGUITY 71: OpenSpiel
allows it), and the knocker and the defender lay an optimal meld group (OpenSpiel's own
``best_meld_group``; a random player there may lay fewer melds than it could). At the wall
OpenSpiel lets the next player take the last discard to knock; Kibic plays that rule under
its option ``wall_knock=true`` (the text's default ends the hand at once). A hand that OpenSpiel
ends by its 50-upcard-draw safeguard (an engine limit, not a rule) is left out and counted.

OpenSpiel's 11-card ``min_deadwood`` takes one best meld group and then drops its highest
deadwood card; with tied meld groups it can miss a lower total, so it sometimes withholds a
legal knock. The test checks at every discard whether the knock is available in both engines;
each disagreement must be of that kind (OpenSpiel's exact 10-card ``legal_discards`` shows the
knock was legal) and one such hand is pinned in tests/test_gin_rules.py.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from referee.cards import Card
from referee.games.gin_rules import knock_deadwood
from referee.transcript import replay

pyspiel = pytest.importorskip("pyspiel")

HANDS = 2000
GAME_STRING = "gin_rummy(gin_bonus=20,undercut_bonus=10)"
OPTIONS = {"wall_knock": True}
SUITS = "SCDH"  # OpenSpiel's suit order
RANKS = "A23456789TJQK"


def to_card(index: int) -> str:
    return f"{RANKS[index % 13]}{SUITS[index // 13]}"


@dataclass
class OracleHand:
    """One hand played in OpenSpiel, with its Kibic transcript deal (seats as in OpenSpiel:
    player 0 is the non-dealer, so the Kibic dealer is seat 1 before any seat swap)."""

    seed: int
    deal: dict[str, Any]
    returns: tuple[float, float]
    knocker: int | None = None
    gin: bool = False
    gin_layoff_expected: int | None = None  # expected gin score after lay-offs (difference 2)
    capped: bool = False
    knock_checks: int = 0
    flaw_hands: list[list[str]] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)  # every OpenSpiel action, chance included


class Harness:
    def __init__(self) -> None:
        self.game = pyspiel.load_game(GAME_STRING)
        self.utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
        self.gr = pyspiel.gin_rummy

    def play(self, seed: int) -> OracleHand:
        gr, utils = self.gr, self.utils
        rng = random.Random(seed)
        state = self.game.new_initial_state()
        actions: list[int] = []
        dealt: list[int] = []
        while state.is_chance_node() and len(dealt) < 21:
            card = rng.choice([a for a, _ in state.chance_outcomes()])
            dealt.append(card)
            state.apply_action(card)
            actions.append(card)
        deal: dict[str, Any] = {
            "dealer": 1,
            "hands": {
                "0": [to_card(c) for c in dealt[:10]],
                "1": [to_card(c) for c in dealt[10:20]],
            },
            "upcard": to_card(dealt[20]),
            "events": [],
        }
        events: list[dict[str, Any]] = deal["events"]
        hand = OracleHand(seed, deal, (0.0, 0.0), actions=actions)
        taken: int | None = None  # card just taken from the pile
        eager = rng.choice((0.0, 0.05, 0.3, 0.6))  # how readily a non-gin hand knocks
        knocking = False
        defender_hand: list[int] = []
        drawer = 0
        while not state.is_terminal():
            if state.is_chance_node():
                card = rng.choice([a for a, _ in state.chance_outcomes()])
                events.append(
                    {"seat": drawer, "type": "draw", "value": "stock", "card": to_card(card)}
                )
                state.apply_action(card)
                actions.append(card)
                continue
            player = state.current_player()
            phase = state.current_phase()
            legal = state.legal_actions()
            hand_cards = list(state.hands()[player])
            if phase == gr.Phase.FIRST_UPCARD:
                action = rng.choice(legal)
            elif phase == gr.Phase.DRAW:
                action = gr.DRAW_UPCARD_ACTION if rng.random() < 0.35 else gr.DRAW_STOCK_ACTION
            elif phase == gr.Phase.DISCARD:
                self._check_knock(state, player, hand_cards, legal, hand)
                knock_discards = [
                    d for d in utils.legal_discards(hand_cards, state.knock_card()) if d != taken
                ]
                gin = any(
                    utils.min_deadwood([c for c in hand_cards if c != d]) == 0
                    for d in knock_discards
                )
                if (
                    gr.KNOCK_ACTION in legal
                    and knock_discards
                    and rng.random() < (0.9 if gin else eager)
                ):
                    action = gr.KNOCK_ACTION
                else:
                    options = [a for a in legal if a < 52 and a != taken]
                    if rng.random() < 0.8:
                        best = min(
                            utils.min_deadwood([c for c in hand_cards if c != a]) for a in options
                        )
                        options = [
                            a for a in options
                            if utils.min_deadwood([c for c in hand_cards if c != a]) == best
                        ]  # fmt: skip
                    action = rng.choice(options)
            elif phase == gr.Phase.KNOCK:
                if len(hand_cards) == 11:
                    action = rng.choice([a for a in legal if a != taken])
                else:
                    action = self._next_meld(hand_cards, legal)
                    if action == gr.PASS_ACTION:
                        defender_hand = list(state.hands()[1 - player])
            elif phase == gr.Phase.LAYOFF:
                if not state.finished_layoffs():
                    layoffs = [a for a in legal if a < 52]
                    action = (
                        rng.choice(layoffs) if layoffs and rng.random() < 0.7 else gr.PASS_ACTION
                    )
                else:
                    action = self._next_meld(hand_cards, legal)
            elif phase == gr.Phase.WALL:
                upcard = state.upcard()
                can = [d for d in utils.legal_discards([*hand_cards, upcard], state.knock_card())
                       if d != upcard]  # fmt: skip
                knock = gr.KNOCK_ACTION in legal and can and rng.random() < 0.85
                action = gr.KNOCK_ACTION if knock else gr.PASS_ACTION
            else:  # pragma: no cover - OpenSpiel has no other phase
                raise AssertionError(phase)
            assert action in legal, (seed, phase, action, legal)
            self._convert(state, phase, player, action, events, knocking)
            if phase in (gr.Phase.FIRST_UPCARD, gr.Phase.DRAW) and action == gr.DRAW_UPCARD_ACTION:
                taken = state.upcard()
            elif phase in (gr.Phase.DISCARD, gr.Phase.KNOCK):
                taken = None if action < 52 else taken
            if action == gr.DRAW_STOCK_ACTION:
                drawer, taken = player, None
            if action == gr.KNOCK_ACTION:
                knocking = True
                if phase == gr.Phase.WALL:
                    taken = state.upcard()
            if phase == gr.Phase.KNOCK and len(hand_cards) == 11:
                knocking = False
                events.append(
                    {
                        "seat": player,
                        "type": "knock",
                        "cards": sorted(to_card(c) for c in hand_cards if c != action),
                    }
                )
            state.apply_action(action)
            actions.append(action)
        hand.returns = tuple(state.returns())  # type: ignore[assignment]
        knocked = list(state.knocked())
        if True in knocked:
            hand.knocker = knocked.index(True)
            hand.gin = state.deadwood()[hand.knocker] == 0
            if hand.gin:
                self._layoffs_against_gin(state, hand, defender_hand, rng)
        elif not events or events[-1].get("value") != "wall":
            hand.capped = True  # OpenSpiel's 50-upcard-draw safeguard ended the hand
        return hand

    def _next_meld(self, hand_cards: list[int], legal: list[int]) -> int:
        """Lay OpenSpiel's best meld group, one meld at a time, then pass."""
        best = self.utils.best_meld_group(hand_cards)
        if best:
            action = self.utils.meld_to_int(best[0]) + self.gr.MELD_ACTION_BASE
            assert action in legal
            return int(action)
        return int(self.gr.PASS_ACTION)

    def _convert(self, state: Any, phase: Any, player: int, action: int,
                 events: list[dict[str, Any]], knocking: bool) -> None:  # fmt: skip
        gr = self.gr
        if phase in (gr.Phase.FIRST_UPCARD, gr.Phase.DRAW):
            if action == gr.DRAW_UPCARD_ACTION:
                events.append({"seat": player, "type": "draw", "value": "upcard",
                               "card": to_card(state.upcard())})  # fmt: skip
            elif action == gr.PASS_ACTION:
                events.append({"seat": player, "type": "pass"})
        elif phase == gr.Phase.DISCARD and action < 52:
            events.append({"seat": player, "type": "discard", "card": to_card(action)})
        elif phase == gr.Phase.KNOCK and action < 52:
            events.append({"seat": player, "type": "discard", "card": to_card(action)})
        elif phase == gr.Phase.LAYOFF:
            if action < 52:
                events.append({"seat": player, "type": "layoff", "card": to_card(action)})
            elif action == gr.PASS_ACTION and state.finished_layoffs():
                events.append({"seat": player, "type": "show", "value": "hand"})
        elif phase == gr.Phase.WALL:
            if action == gr.KNOCK_ACTION:
                events.append({"seat": player, "type": "draw", "value": "upcard",
                               "card": to_card(state.upcard())})  # fmt: skip
            else:
                events.append({"seat": player, "type": "pass", "value": "wall"})

    def _check_knock(self, state: Any, player: int, hand_cards: list[int], legal: list[int],
                     hand: OracleHand) -> None:  # fmt: skip
        """Is a knock available in both engines? (11 cards, before the discard)"""
        hand.knock_checks += 1
        limit = state.knock_card()
        kibic = knock_deadwood([Card.parse(to_card(c)) for c in hand_cards]) <= limit
        oracle = self.gr.KNOCK_ACTION in legal
        if kibic == oracle:
            return
        exact = bool(self.utils.legal_discards(hand_cards, limit))
        assert kibic and not oracle and exact, (
            f"seed {hand.seed}: knock availability differs on "
            f"{[to_card(c) for c in hand_cards]}: kibic {kibic}, openspiel {oracle}"
        )
        hand.flaw_hands.append(sorted(to_card(c) for c in hand_cards))

    def _layoffs_against_gin(self, state: Any, hand: OracleHand, defender_hand: list[int],
                             rng: random.Random) -> None:  # fmt: skip
        """Difference 2: lay off against gin in the Kibic transcript; expected score from
        OpenSpiel's own lay-off finder and min_deadwood."""
        assert hand.knocker is not None
        melds = list(state.layed_melds()[hand.knocker])
        laid: list[int] = []
        while True:
            options = [
                c
                for c in self.utils.all_layoffs(melds, laid)
                if c in defender_hand and c not in laid
            ]
            if not options or rng.random() < 0.3:
                break
            laid.append(rng.choice(options))
        if not laid:
            return
        rest = [c for c in defender_hand if c not in laid]
        hand.gin_layoff_expected = self.utils.min_deadwood(rest) + 20
        events = hand.deal["events"]
        show = events.pop()
        assert show["type"] == "show"
        defender = 1 - hand.knocker
        events.extend({"seat": defender, "type": "layoff", "card": to_card(c)} for c in laid)
        events.append(show)


def expected_score(hand: OracleHand) -> tuple[int | None, int]:
    """(winner, points) the text gives, from OpenSpiel's returns and differences 1-2."""
    if hand.knocker is None:
        return None, 0
    k = hand.knocker
    r = int(hand.returns[k])
    if hand.gin:
        return k, hand.gin_layoff_expected if hand.gin_layoff_expected is not None else r
    if r > 0:
        return k, r
    if r == 0:
        return 1 - k, 10  # difference 1: a tie is an undercut
    return 1 - k, -r


def swap(deal: dict[str, Any]) -> dict[str, Any]:
    """The same hand with the seats exchanged (so that the rules' dealer can be either seat)."""
    out = json.loads(json.dumps(deal))
    out["dealer"] = 1 - deal["dealer"]
    out["hands"] = {"0": deal["hands"]["1"], "1": deal["hands"]["0"]}
    for event in out["events"]:
        event["seat"] = 1 - event["seat"]
    return out


@pytest.fixture(scope="module")
def oracle_hands() -> list[OracleHand]:
    harness = Harness()
    return [harness.play(seed) for seed in range(HANDS)]


def test_openspiel_and_kibic_score_every_hand_alike(oracle_hands: list[OracleHand]) -> None:
    compared = mismatches = 0
    kinds: dict[str, int] = {}
    for hand in oracle_hands:
        if hand.capped:
            continue
        data = {"game": "gin-rummy", "options": OPTIONS, "deals": [hand.deal]}
        deal = replay(json.loads(json.dumps(data))).deals[0]
        assert deal.result is not None, f"seed {hand.seed}: Kibic did not finish the hand"
        assert not deal.violations, f"seed {hand.seed}: {deal.violations}"
        winner, points = expected_score(hand)
        got = deal.result.extra.get("winner")
        kinds[deal.result.extra["kind"]] = kinds.get(deal.result.extra["kind"], 0) + 1
        expected = {"0": 0, "1": 0}
        if winner is not None:
            expected[str(winner)] = points
        compared += 1
        if got != winner or deal.result.scores != expected:
            mismatches += 1
            pytest.fail(
                f"seed {hand.seed}: OpenSpiel {hand.returns} -> expected {expected}, "
                f"Kibic {deal.result.scores} ({deal.result.detail})"
            )
    capped = sum(h.capped for h in oracle_hands)
    assert mismatches == 0
    assert compared + capped == HANDS and capped <= HANDS // 100
    # the sample exercises every kind of ending, including every corrected difference
    assert kinds.get("knock", 0) > 300 and kinds.get("undercut", 0) > 20
    assert kinds.get("gin", 0) > 20 and kinds.get("dead", 0) > 100
    assert sum(1 for h in oracle_hands if h.gin_layoff_expected is not None) > 5
    assert sum(1 for h in oracle_hands if h.knocker is not None and not h.gin
               and int(h.returns[h.knocker]) == 0) > 3  # fmt: skip


def test_knock_is_available_in_both_engines_but_for_the_openspiel_tie_flaw(
    oracle_hands: list[OracleHand],
) -> None:
    checks = sum(h.knock_checks for h in oracle_hands)
    flaws = [cards for h in oracle_hands for cards in h.flaw_hands]
    assert checks > 20 * HANDS
    assert len(flaws) < checks // 1000  # rare, and each one explained in _check_knock


def test_hands_chained_into_games_to_100_match_the_corrected_oracle(
    oracle_hands: list[OracleHand],
) -> None:
    """Difference 3: game bonuses computed here from OpenSpiel's (corrected) hand scores."""
    from referee.games.gin_rules import stakes_settlement

    hands = [h for h in oracle_hands if not h.capped]
    dealer = 1
    deals: list[dict[str, Any]] = []
    totals = [0, 0]
    won = [0, 0]
    games: list[tuple[int, int]] = []  # (winner, net)
    for hand in hands:
        deal = hand.deal if dealer == 1 else swap(hand.deal)
        deals.append(deal)
        winner, points = expected_score(hand)
        if winner is not None:
            seat = winner if dealer == 1 else 1 - winner
            totals[seat] += points
            won[seat] += 1
            dealer = seat
        if max(totals) >= 100:
            w = 0 if totals[0] >= 100 else 1
            net = stakes_settlement(winner_score=totals[w], loser_score=totals[1 - w],
                                    winner_hands=won[w], loser_hands=won[1 - w])  # fmt: skip
            games.append((w, net))
            totals, won = [0, 0], [0, 0]
    rep = replay({"game": "gin-rummy", "options": OPTIONS, "deals": deals})
    game = rep.game
    assert rep.match.partija_winners == [str(w) for w, _ in games]
    for number, (w, net) in enumerate(games, start=1):
        assert game.settlement(rep.match, number) == {str(w): net, str(1 - w): -net}  # type: ignore[attr-defined]
    assert len(games) > 50


def test_openspiel_eleven_card_flaw_exists_and_kibic_is_exact() -> None:
    """The hand pinned in tests/test_gin_rules.py: OpenSpiel says 12 (no knock), its own exact
    10-card search finds the discard (6C) that leaves 10; Kibic agrees with the exact value."""
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    hand = [Card.parse(c) for c in "2D 3C 3S 4H 4S 5D 5H 5S 6C 6H 6S".split()]
    ints = [SUITS.index(c.suit.value) * 13 + RANKS.index(c.rank.code) for c in hand]  # type: ignore[union-attr]
    assert utils.min_deadwood(ints) == 12
    assert [to_card(c) for c in utils.legal_discards(ints, 10)] == ["6C"]
    assert knock_deadwood(hand) == 10
