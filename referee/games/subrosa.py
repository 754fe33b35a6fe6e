"""SubRosa (RULES.md §10): Ružička plus declarations (zvanja); partija to 501, match of 5.

A declaration is a DECLARE action on the seat's turn in the first round of a trick, naming the
declaration (``niz``, ``6-u-boji``, ``poker``, ``8-velikih``, ``8-malih``, ``4-keca``,
``sareni-niz``, ``4-sedmice``, ``7-u-boji``, ``8-u-boji`` or ``8-u-boji:partija``,
``krnja-4-keca``...) with the cards shown. The shown cards go back into the hand; the referee
checks later that the declarer plays each of them (a false declaration is a proven violation).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from referee.actions import Action, ActionType
from referee.cards import Card, Rank, Suit, card_order
from referee.deal import DealResult
from referee.errors import CardError
from referee.events import ActionRecorded, Event, Notice
from referee.game import Game
from referee.games.ruzicka import Ruzicka, RuzickaOptions
from referee.games.ruzicka_deal import Claim, RuzickaDeal
from referee.games.ruzicka_rules import (
    FALL,
    NATURAL,
    PlayRule,
    Settlement,
    other_side,
    rotated_order,
)
from referee.games.subrosa_declarations import EIGHT_CARD, Declaration, Kind, declare, possible
from referee.knowledge import HandKnowledge
from referee.setup import FieldKind, SetupField
from referee.wording import detail, notice, part, refusal

DECLARATION_CLAIM = part("subrosa.declaration_claim", "declaration {kind}")
KRNJA_KEPT = part("subrosa.krnja_kept", "Krnja {kind} kept")
KRNJA_FAILED = part("subrosa.krnja_failed", "Krnja {kind} failed")
DECLARED = part("subrosa.declared", "{name}")
SWEPT_AFTER = part("subrosa.swept_after", "swept after {kind}")
DECLARES = notice("subrosa.declares", "seat {seat} declares {name}")
FOLLOWS = notice("subrosa.follows", "play now follows {kind} ({rule})")
EIGHT_WINS = detail("subrosa.eight_wins", "8 u boji by seat {seat}: side {side} wins the partija")
SEVEN_SHOWING = notice(
    "subrosa.seven_showing", "7 u boji: every player shows his declarations before the redeal"
)
SHOWS_BEFORE_REDEAL = notice(
    "subrosa.shows_before_redeal", "seat {seat} shows {name} before the redeal"
)
REDEAL = notice(
    "subrosa.redeal_notice", "7 u boji: redeal; Special Suit {suit}, every suit {order}"
)

R_DECLARATIONS_SHOWN_FIRST_ROUND = refusal(
    "subrosa.declarations_shown_first_round",
    "{action}: declarations are shown in the first round of a trick",
)
R_DECLARATIONS_U_BOJI_REDEAL = refusal(
    "subrosa.declarations_u_boji_redeal", "{action}: no declarations in the 7-u-boji redeal"
)
R_ONE_DECLARATION_PER_PLAYER = refusal(
    "subrosa.one_declaration_per_player", "{action}: one declaration per player per deal"
)
R_CARD_DECLARATION_SHOWN_AT = refusal(
    "subrosa.card_declaration_shown_at",
    "{action}: an 8-card declaration is shown at the first card",
)
R_FIRST_ROUND_DEAL = refusal(
    "subrosa.first_round_deal", "{action}: {kind} only in the first round of the deal"
)
R_AFTER_KRNJA_DECLARATION_CLEAN = refusal(
    "subrosa.after_krnja_declaration_clean",
    "{action}: after a Krnja declaration only clean ones change play",
)
R_REDEAL_NEEDS_ITS_HANDS = refusal(
    "subrosa.redeal_needs_its_hands",
    "{action}: the redeal needs its hands ('redeal' in the deal setup)",
)
R_U_BOJI_WAS_SHOWN = refusal(
    "subrosa.u_boji_was_shown",
    "{action}: 7 u boji was shown; seat {showing} shows a declaration or passes before the redeal",
)
R_ONE_U_BOJI_REDEAL = refusal(
    "subrosa.one_u_boji_redeal", "{action}: one 7 u boji redeal at a time"
)
R_SEAT_HAND = refusal("subrosa.seat_hand", "{action}: {card} is not in seat {seat}'s hand")
R_REDEAL = refusal("subrosa.redeal_bad_hands", "redeal: {reason}")

WIN_MARK = "8-u-boji:"  # the tally mark of a partija won by 8 u boji, with the side


@dataclass
class Made:
    """A declaration made in this deal."""

    seat: int
    declaration: Declaration
    trick: int
    claim: Claim
    before_redeal: bool = False


class SubRosaDeal(RuzickaDeal):
    """A Ružička deal with declarations, their play rules, the 7-u-boji redeal and 8 u boji."""

    setup_fields: ClassVar[Mapping[str, SetupField]] = {
        "redeal": SetupField(FieldKind.SEAT_CARDS, group="redeal"),
    }

    def _reset_variant(self) -> None:
        self.made: list[Made] = []
        self.in_force: Declaration | None = None
        self.krnja = False
        self.redealt: tuple[Suit, Rank] | None = None  # (Special Suit, the rank on top)
        self.partija_won: str | None = None
        # §10.4 7 u boji: "Svako pokazuje svoja Zvanja" before the redeal; seats still to show
        self.showing: list[int] = []
        self.redeal_for: Declaration | None = None

    # -- the rules in force --------------------------------------------------------------------
    def play_rule(self) -> PlayRule:
        rule = self.in_force.rule if self.in_force is not None else None
        return rule or PlayRule.NORMAL

    def special_suit(self) -> Suit | None:
        return self.redealt[0] if self.redealt is not None else None

    def top_rank(self) -> Rank | None:
        return self.redealt[1] if self.redealt is not None else None

    def change_allowed(self) -> bool:
        """§9.9: no joker change after a Krnja declaration, nor in the 7-u-boji redeal."""
        return not self.krnja and self.redealt is None

    def card_values(self) -> tuple[bool, bool]:
        """AMBIGUITY 36 (a): both Prevrat values count when both were declared."""
        live = [m.declaration.kind for m in self.made if not m.before_redeal and not m.claim.proven]
        return Kind.FOUR_ACES in live, Kind.FOUR_SEVENS in live

    def egalite_now(self) -> bool:
        return self.changer is not None and self.joker is None

    # -- declarations --------------------------------------------------------------------------
    def _validate_extra(self, action: Action) -> None:
        if action.type is not ActionType.DECLARE:
            super()._validate_extra(action)
            return
        self._validate_turn(action)
        seat, trick = action.seat, self.rtrick
        if len(trick.rounds) != 1:
            raise R_DECLARATIONS_SHOWN_FIRST_ROUND.error(action=action)
        if self.redealt is not None:
            raise R_DECLARATIONS_U_BOJI_REDEAL.error(action=action)
        if any(m.seat == seat for m in self.made):
            raise R_ONE_DECLARATION_PER_PLAYER.error(action=action)
        decl = declare(action.value or "", action.cards, egalite=self.egalite_now())
        first_round = trick.number == 1
        if decl.kind in EIGHT_CARD and (not first_round or self.played_by[seat]):
            raise R_CARD_DECLARATION_SHOWN_AT.error(action=action)
        if (decl.missing or decl.kind is Kind.SEVEN_SUIT) and not first_round:
            raise R_FIRST_ROUND_DEAL.error(action=action, kind=decl.kind.value)
        if decl.missing and self.krnja:
            raise R_AFTER_KRNJA_DECLARATION_CLEAN.error(action=action)
        for card in decl.cards:
            self._validate_card(seat, card, action, in_hand=False)
        if decl.kind is Kind.SEVEN_SUIT and self.hands is not None and "redeal" not in self.setup:
            raise R_REDEAL_NEEDS_ITS_HANDS.error(action=action)

    def _apply_extra(self, action: Action) -> list[Event]:
        seat, trick = action.seat, self.rtrick
        decl = declare(action.value or "", action.cards, egalite=self.egalite_now())
        events: list[Event] = [Notice.of(DECLARES(seat=seat, name=decl.said), seat)]
        claim = Claim(
            seat, decl.cards, "false-declaration", DECLARATION_CLAIM(kind=decl.kind.value),
            trick.number, min(FALL, -decl.value),
        )  # fmt: skip
        self.made.append(Made(seat, decl, trick.number, claim))
        self._claim(claim, events)
        if decl.missing:
            self.krnja = True
        if decl.rule is not None and (
            self.in_force is None or decl.strength > self.in_force.strength
        ):
            self.in_force = decl
            events.append(Notice.of(FOLLOWS(kind=decl.kind.value, rule=decl.rule.value), seat))
        if decl.kind is Kind.SEVEN_SUIT:
            events.extend(self._open_showing(seat, decl))
        elif decl.kind is Kind.EIGHT_SUIT and decl.win_partija:
            self.partija_won = self.game.side_of(seat)
            rest = sorted(c for c in self.game.deck.cards if c not in self.played)
            self.taken[seat].extend(rest)  # every card accounted for; the deal is not scored
            scores = {side: 0 for side in self.game.sides}
            events.extend(
                self._finish(
                    DealResult.of(
                        scores, EIGHT_WINS(seat=seat, side=self.partija_won),
                        tuple(self.proven), extra={"marks": {f"{WIN_MARK}{self.partija_won}": 1}},
                    )
                )
            )  # fmt: skip
        return events

    # -- 7 u boji: everyone shows his declarations, then the redeal --------------------------
    def _open_showing(self, seat: int, decl: Declaration) -> list[Event]:
        """The other players, in turn, show a declaration (scored in the redeal) or pass."""
        declared = {m.seat for m in self.made}
        self.showing = [
            s for s in (self.seat(seat).offset(k).index for k in range(1, self.players))
            if s not in declared
        ]  # fmt: skip
        self.redeal_for = decl
        if not self.showing:
            return self._redeal(decl)
        self.to_act = self.showing[0]
        return [Notice.of(SEVEN_SHOWING())]

    def _validate(self, action: Action) -> None:
        if not self.showing:
            super()._validate(action)
            return
        if action.seat != self.showing[0] or action.type not in (
            ActionType.DECLARE,
            ActionType.PASS,
        ):
            raise R_U_BOJI_WAS_SHOWN.error(action=action, showing=self.showing[0], rule="out-of-turn")  # fmt: skip
        if action.type is ActionType.DECLARE:
            decl = declare(action.value or "", action.cards, egalite=self.egalite_now())
            if decl.kind is Kind.SEVEN_SUIT:
                raise R_ONE_U_BOJI_REDEAL.error(action=action)
            for card in decl.cards:
                self._validate_card(action.seat, card, action, in_hand=False)
                if self.hands is not None and card not in self.hands[action.seat]:
                    raise R_SEAT_HAND.error(action=action, card=card, seat=action.seat)

    def _apply(self, action: Action) -> list[Event]:
        if not self.showing:
            return super()._apply(action)
        seat = self.showing.pop(0)
        events: list[Event] = [ActionRecorded(seat, action.type.value, action.value, action.cards)]
        if action.type is ActionType.DECLARE:
            decl = declare(action.value or "", action.cards, egalite=self.egalite_now())
            claim = Claim(
                seat, decl.cards, "false-declaration", DECLARATION_CLAIM(kind=decl.kind.value),
                self.rtrick.number, min(FALL, -decl.value),
            )  # fmt: skip
            self.made.append(Made(seat, decl, self.rtrick.number, claim, before_redeal=True))
            events.append(Notice.of(SHOWS_BEFORE_REDEAL(seat=seat, name=decl.said), seat))
        if self.showing:
            self.to_act = self.showing[0]
            return events
        assert self.redeal_for is not None
        return events + self._redeal(self.redeal_for)

    def legal_actions(self) -> list[Action]:
        if not self.showing:
            return super().legal_actions()
        seat = self.showing[0]
        out = [Action(seat, ActionType.PASS)]
        if self.hands is not None:
            for name, cards in possible(
                sorted(self.hands[seat]), first_card=True, first_round=True
            ):
                if name != Kind.SEVEN_SUIT.value and not name.startswith("krnja"):
                    out.append(Action(seat, ActionType.DECLARE, cards=cards, value=name))
        return out

    def _redeal(self, decl: Declaration) -> list[Event]:
        """§10.4 7 u boji: the same dealer deals again; the missing card's rank is on top in every
        suit, its suit is the Special Suit, the joker suit is ♥ and no declarations are shown."""
        suit = decl.cards[0].suit
        assert suit is not None
        top = next(r for r in NATURAL if r not in {c.rank for c in decl.cards})
        for made in self.made:
            made.before_redeal = True
        self.redealt = (suit, top)
        self.showing, self.redeal_for = [], None
        self.in_force = None
        if self.initial_hands is not None:
            raw = self.setup["redeal"]
            try:
                hands = {int(s): [Card.parse(c) for c in cards] for s, cards in raw.items()}
            except (CardError, ValueError, AttributeError) as exc:
                raise R_REDEAL.error(reason=exc) from None
            self._check_hands(hands)
            self.hands = {s: set(cards) for s, cards in hands.items()}
        per = len(self.game.deck.cards) // self.players
        self.counts = {s: per for s in range(self.players)}
        self.played, self.tricks, self.claims = set(), [], []
        self.played_by = {s: set() for s in range(self.players)}
        self.taken = {s: [] for s in range(self.players)}
        self.knowledge = HandKnowledge(self.players)
        self.joker, self.changer, self.opened, self.offered = Suit.HEARTS, None, None, {}
        order = " > ".join(rotated_order(top))
        events: list[Event] = [Notice.of(REDEAL(suit=suit.symbol, order=order))]
        events.extend(self.start_play(self.forehand))
        return events

    def _extra_legal(self, seat: int) -> list[Action]:
        trick = self.rtrick
        if (
            len(trick.rounds) != 1
            or self.redealt is not None
            or any(m.seat == seat for m in self.made)
            or self.hands is None
        ):
            return []
        first_round = trick.number == 1
        out: list[Action] = []
        for name, cards in possible(
            sorted(self.hands[seat], key=card_order),
            first_card=first_round and not self.played_by[seat],
            first_round=first_round,
        ):  # fmt: skip
            if name.startswith("krnja") and self.krnja:
                continue
            if name == Kind.SEVEN_SUIT.value and "redeal" not in self.setup:
                continue
            out.append(Action(seat, ActionType.DECLARE, cards=cards, value=name))
        return out

    # -- scores --------------------------------------------------------------------------------
    def _settle_extra(self, settlement: Settlement) -> None:
        """§10.6: confirmed declarations score; Krnja obligations; a swept big declaration."""
        tallies = settlement.tallies
        won = {side: False for side in self.game.sides}
        for trick in self.tricks:
            won[self.game.side_of(trick.winner or 0)] = True
        for made in self.made:
            if made.claim.proven:
                continue
            decl, side = made.declaration, self.game.side_of(made.seat)
            mine, theirs = tallies[side].play, tallies[other_side(side)].play
            if decl.missing:
                # AMBIGUITY 40: more / at least double the points / a sweep, else -value
                kept = {1: mine > theirs, 2: mine >= 2 * theirs, 3: settlement.sweep == side}
                if kept[decl.missing]:
                    settlement.bonus(side, decl.value, KRNJA_KEPT(kind=decl.kind.value))
                else:
                    settlement.fall(side, -decl.value, KRNJA_FAILED(kind=decl.kind.value))
            elif won[side]:
                settlement.bonus(side, decl.value, DECLARED(name=decl.said))
            elif decl.big:
                # AMBIGUITY 39 (a): a swept side scores -(value actually credited)
                settlement.fall(side, -decl.value, SWEPT_AFTER(kind=decl.kind.value))

    def _final_result(self) -> DealResult:
        result = super()._final_result()
        extra = dict(result.extra)
        for made in self.made:
            decl = made.declaration
            if decl.kind is Kind.EIGHT_SUIT and not decl.win_partija and not made.claim.proven:
                extra["extra_partija"] = self.game.side_of(made.seat)
        return replace(result, extra=extra)

    def _snapshot_game(self) -> dict[str, Any]:
        return {
            **super()._snapshot_game(),
            "declarations": [
                {
                    "seat": m.seat,
                    "name": m.declaration.name,
                    "value": m.declaration.value,
                    "trick": m.trick,
                    "false": m.claim.proven,
                    "before_redeal": m.before_redeal,
                }
                for m in self.made
            ],  # fmt: skip
            "in_force": self.in_force.kind.value if self.in_force is not None else None,
            "special_suit": self.redealt[0].value if self.redealt is not None else None,
            "showing": list(self.showing),
            "top_rank": self.redealt[1].code if self.redealt is not None else None,
        }


@dataclass(frozen=True)
class SubRosaOptions(RuzickaOptions):
    pass


class SubRosa(Ruzicka):
    """SubRosa: Ružička with declarations; partija to 501, match of 5 partije."""

    name = "subrosa"
    aliases: ClassVar[tuple[str, ...]] = ("sub-rosa",)
    title = "SubRosa"
    Options = SubRosaOptions
    partija_target: ClassVar[int] = 501
    match_target: ClassVar[int] = 5
    perft_variants: ClassVar[tuple[str, ...]] = ("subrosa(otvoreno=false)",)

    deal_class = SubRosaDeal

    def partija_winner_with_marks(
        self, totals: Mapping[str, int], marks: Mapping[str, int]
    ) -> str | None:
        """§10.4: 8 u boji shown "for the partija" wins it at once, whatever the totals."""
        for key in marks:
            if key.startswith(WIN_MARK):
                return key[len(WIN_MARK) :]
        return self.partija_winner(totals)

    def deal_cards(
        self, rng: random.Random, *, dealer: int = 0
    ) -> tuple[dict[int, list[Card]], dict[str, Any]]:
        """As Ružička; a hand with 7 cards of a suit gets the redeal shuffled in advance."""
        hands, setup = super().deal_cards(rng, dealer=dealer)
        if any(_most_of_one_suit(cards) >= 7 for cards in hands.values()):
            again, _ = super().deal_cards(rng, dealer=dealer)
            setup["redeal"] = {str(s): [c.code for c in cards] for s, cards in again.items()}
        return hands, setup


def _most_of_one_suit(cards: Sequence[Card]) -> int:
    """How many cards of its longest suit a hand holds."""
    counts: dict[Suit | None, int] = {}
    for card in cards:
        counts[card.suit] = counts.get(card.suit, 0) + 1
    return max(counts.values())


GAMES: tuple[type[Game], ...] = (SubRosa,)
