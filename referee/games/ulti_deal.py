"""The deal of Ulti (RULES.md §13): the auction with the talon, trump, marriages, kontra,
ten tricks with their duties, and the settlement of every component against each defender.

Actions:

* ``BID`` (``value`` a bid such as ``"40-100-ulti"``, see ``ulti_rules.parse_bid``): the
  forehand must bid first (AMBIGUITY 62); a later bidder takes up the two talon cards.
* ``EXCHANGE`` (``cards``: one or two discards; none when they go down unseen): after a bid.
* ``PASS`` ("Dalje"): the talon moves on. Two passes in a row after a bid end the auction.
* ``CONTRACT`` (``value`` S/C/D): the soloist names the trump of a non-Herc trump bid.
* ``ANNOUNCE`` (``value`` "40", "20", "20+20", "40+20" ...): marriages, before one's card to
  the first trick (§13.2); not in no-trump contracts.
* ``KONTRA`` (``value`` component names joined by "," or "all"): a defender doubles for
  himself, the soloist redoubles, alternately up to ×64, all before trick 2 (AMBIGUITY 67).
* ``OPEN`` (``cards``): a player lays his hand open after trick 1 of an open contract.
* ``CLAIM`` (``value`` "deli" / "ne-deli"): "Kec herc deli / ne deli" (§13.4).
* ``PLAY``: a card to the trick.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from referee.actions import Action, ActionType
from referee.cards import Card, Rank, Suit, card_order
from referee.deal import DealResult, Phase
from referee.events import ActionRecorded, Event, Notice, Violation, ViolationProven
from referee.games.ulti_rules import (
    KONTRA_NAMES,
    MAX_LEVEL,
    Bid,
    Component,
    all_bids,
    bid_beats,
    component_amount,
    marriage_suits,
    parse_bid,
    winner_index,
)
from referee.games.ulti_rules import duties as ulti_duties
from referee.setup import FieldKind, SetupField
from referee.trick import NEEDS_HANDS, RULE_NAMED, Trick, TrickDeal
from referee.wording import Refused, Said, detail, evidence, notice, part, refusal

NO_LED = part("ulti.no_led", "trick {trick}: no {led}")
NO_LED_NO_TRUMP = part("ulti.no_led_no_trump", "trick {trick}: no {led} and no trump {trump}")
NO_BEATING = part("ulti.no_beating", "trick {trick}: no {led} that beats the trick")
OPEN_HAND = evidence("ulti.open_hand", "seat {seat} played {card} with {held} open on the table")
PLAYS = notice("ulti.plays", "seat {seat} plays {bid}")
WON = part("ulti.won", "{name} won {amounts}")
LOST = part("ulti.lost", "{name} lost {amounts}")
SETTLED = detail("ulti.settled", "seat {seat} {bid}: {lines}")
ALL_SUCCEED = detail(
    "ulti.all_succeed", "{rule} by seat {seat}: every component succeeds; {result}"
)
ALL_FAIL = detail("ulti.all_fail", "{rule} by seat {seat}: every component fails; {result}")
MARRIAGE_GONE = evidence(
    "ulti.marriage_gone", "seat {seat} announced {announced}, but {cards} went to other seats"
)
MARRIAGE_SHOWN = evidence(
    "ulti.marriage_shown", "seat {seat} announced {announced} but showed marriages: {shown}"
)


def _announced(forty: bool, twenties: int) -> str:
    """Marriages as announced: ``40``, ``20+20``, ``40+20``."""
    return (
        ("40" if forty else "") + ("+" if forty and twenties else "") + "+".join(["20"] * twenties)
    )


LAID_OPEN = evidence(
    "ulti.laid_open",
    "at trick {trick} seat {seat} played {card} ({constraint}); seat {seat} laid {witness} open "
    "after it",
)

R_MARRIAGES_ANNOUNCED_AS = refusal(
    "ulti.marriages_announced_as",
    "marriages are announced as 20, 40, 20+20, 40+20 ..., not {text!r}",
)
R_AUCTION_OVER = refusal("ulti.auction_over", "{action}: the auction is over")
R_SEAT_SPEAKS_AUCTION_NOW = refusal(
    "ulti.seat_speaks_auction_now", "{action}: seat {to_act} speaks in the auction now"
)
R_FIRST_DISCARD_CARD_TALON = refusal(
    "ulti.first_discard_card_talon", "{action}: first discard {to_discard} card(s) to the talon"
)
R_VALUE_DOES_BEAT_AMBIGUITY = refusal(
    "ulti.value_does_beat_ambiguity",
    "{action}: {new} (value {base_value}) does not beat {bid} (AMBIGUITY 63: higher sum of base values, Herc wins a tie)",
)
R_MARRIAGES_ANNOUNCED_WITH_ONE = refusal(
    "ulti.marriages_announced_with_one",
    "{action}: marriages are announced with one's first-trick card",
)
R_MARRIAGES_TRUMP_CONTRACT = refusal(
    "ulti.marriages_trump_contract", "{action}: no marriages in a no-trump contract (§13.2)"
)
R_SEAT_HAS_ALREADY_ANNOUNCED = refusal(
    "ulti.seat_has_already_announced", "{action}: seat {seat} has already announced"
)
R_SOLOIST_ANNOUNCES = refusal(
    "ulti.soloist_announces", "{action}: in 40-100 the soloist announces only the 40"
)
R_SOLOIST_ANNOUNCES_ONE = refusal(
    "ulti.soloist_announces_one", "{action}: in 20-100 the soloist announces one 20"
)
R_KONTRA_GIVEN_DURING_FIRST = refusal(
    "ulti.kontra_given_during_first", "{action}: kontra is given during the first trick"
)
R_ALL_DOUBLINGS_GIVEN_BEFORE = refusal(
    "ulti.all_doublings_given_before",
    "{action}: all doublings are given before trick 2 (AMBIGUITY 67)",
)
R_HAS_SUCH_COMPONENT = refusal("ulti.has_such_component", "{action}: {bid} has no such component")
R_SEAT_PLAYS_THAT_CARD = refusal(
    "ulti.seat_plays_that_card", "seat {seat} plays {card}: that card is in the talon"
)
R_CLAIM_DELI_NE_DELI = refusal(
    "ulti.claim_deli_ne_deli", "{action}: claim 'deli' or 'ne-deli' (Kec herc deli)"
)
R_TRUMP_NAME_NOW = refusal("ulti.trump_name_now", "{action}: no trump to name now")
R_SOLOIST_SEAT_NAMES_TRUMP = refusal(
    "ulti.soloist_seat_names_trump", "{action}: the soloist (seat {soloist}) names the trump"
)
R_NAME_C_D_HERC = refusal(
    "ulti.name_c_d_herc", "{action}: name S, C or D (a Herc trump must be bid as Herc, §13.5)"
)
R_HANDS_OPENED_AFTER_TRICK = refusal(
    "ulti.hands_opened_after_trick", "{action}: hands are opened after trick 1 of open contracts"
)
R_THAT_HAND_ALREADY_OPEN = refusal(
    "ulti.that_hand_already_open", "{action}: that hand is already open"
)
R_SEAT_HAS_CARDS_LAY = refusal(
    "ulti.seat_has_cards_lay", "{action}: seat {seat} has {left} cards to lay open"
)
R_SEAT_HAND_THOSE_CARDS = refusal(
    "ulti.seat_hand_those_cards", "{action}: seat {seat}'s hand is not those cards"
)
R_NOTHING_DISCARD_NOW_BID = refusal(
    "ulti.nothing_discard_now_bid", "{action}: nothing to discard now; bid or pass"
)
R_DISCARD_MORE_CARD = refusal(
    "ulti.discard_more_card", "{action}: discard {to_discard} more card(s)"
)
R_SAME_CARD_TWICE = refusal("ulti.same_card_twice", "{action}: the same card twice")
R_WITH_KNOWN_HANDS_NAME = refusal(
    "ulti.with_known_hands_name", "{action}: with known hands name the discards"
)
R_FOREHAND_MUST_BID_AT = refusal(
    "ulti.forehand_must_bid_at", "{action}: the forehand must bid, at least Passz (AMBIGUITY 62)"
)
R_SOLOIST_ANSWERS_FIRST = refusal(
    "ulti.soloist_answers_first", "{action}: the soloist answers first ({comp})"
)
R_SEAT_CANNOT_GIVE_KONTRA = refusal(
    "ulti.seat_cannot_give_kontra",
    "{action}: seat {seat} cannot give kontra now (the right defender at his first card, else the left one; §13.8)",
)
R_ALREADY_ELSEWHERE = refusal("ulti.already_elsewhere", "{action}: {card} is already elsewhere")
R_SEAT_HAND = refusal("ulti.seat_hand", "{action}: {card} is not in seat {seat}'s hand")
R_NAME_COMPONENTS = refusal("ulti.name_components", "{action}: name components of {bid}")
R_KONTRA_ON_ANSWER = refusal("ulti.kontra_on_answer", "{action}: no kontra on {comp} to answer")

if TYPE_CHECKING:
    from referee.games.ulti import Ulti  # noqa: F401 - the base class's type argument

TRUMP_WORDS = {"s": Suit.SPADES, "c": Suit.CLUBS, "d": Suit.DIAMONDS, "pik": Suit.SPADES,
               "tref": Suit.CLUBS, "karo": Suit.DIAMONDS, "zold": Suit.SPADES, "zöld": Suit.SPADES,
               "makk": Suit.CLUBS, "tok": Suit.DIAMONDS, "tök": Suit.DIAMONDS}  # fmt: skip
CLAIMS = ("deli", "ne-deli")
ALL_BIDS = all_bids()


def parse_marriages(text: str | None) -> tuple[int, bool]:
    """'40+20+20' -> (two twenties, forty)."""
    parts = [p for p in (text or "").replace(",", "+").replace(" ", "+").split("+") if p]
    if not parts or any(p not in ("20", "40") for p in parts) or parts.count("40") > 1:
        raise R_MARRIAGES_ANNOUNCED_AS.error(text=text)
    return parts.count("20"), "40" in parts


@lru_cache(maxsize=256)
def _components_named(value: str) -> tuple[Component, ...] | str | None:
    """The components a KONTRA's value names: "all", the names joined by ",", or None if one
    is unknown; read once per value (the doublings are listed in every state of trick 1)."""
    words = [w.strip().lower() for w in value.split(",") if w.strip()]
    if words == ["all"]:
        return "all"
    try:
        return tuple(Component(w) for w in words)
    except ValueError:
        return None


class UltiDeal(TrickDeal["Ulti"]):
    """One deal of Ulti for three players; see the module docstring for the actions."""

    setup_fields: ClassVar[Mapping[str, SetupField]] = {
        "dealing": SetupField(FieldKind.CHOICE, choices=("cut", "knock")),
    }

    # -- state ---------------------------------------------------------------------------------
    def _reset_game(self) -> None:
        self.phase = Phase.AUCTION
        self.to_act = self.forehand
        self.bid: Bid | None = None
        self.bidder: int | None = None
        self.auction: list[tuple[int, str]] = []
        self.to_discard = 0
        self.passes = 0
        self.talon: list[Card] = []  # the cards face down in the middle, when seen
        self.talon_hidden = 0
        self.soloist: int | None = None
        self.trump: Suit | None = None
        self.marriages: dict[int, tuple[int, bool]] = {}
        self.levels: dict[Component, dict[int, int]] = {}
        self.claims: list[tuple[int, str]] = []
        self.opened: dict[int, set[Card]] = {}
        self._pending: list[Event] = []  # events proven while the deal is scored

    @property
    def tricks_per_deal(self) -> int:
        return 10

    @property
    def defenders(self) -> tuple[int, int]:
        assert self.soloist is not None
        s = self.seat(self.soloist)
        return s.next().index, s.next().next().index  # right, then left defender

    @property
    def trump_game(self) -> bool:
        return self.bid is not None and self.bid.trump_game

    # -- auction -------------------------------------------------------------------------------
    def _validate_other(self, action: Action) -> None:
        kind, seat = action.type, action.seat
        if kind is ActionType.CLAIM:
            if (action.value or "").lower() not in CLAIMS:
                raise R_CLAIM_DELI_NE_DELI.error(action=action)
            return
        if kind in (ActionType.BID, ActionType.PASS, ActionType.EXCHANGE):
            self._validate_auction(action)
            return
        if kind is ActionType.CONTRACT:
            if self.soloist is None or self.trump is not None or self.phase is not Phase.AUCTION:
                raise R_TRUMP_NAME_NOW.error(action=action)
            if seat != self.soloist:
                raise R_SOLOIST_SEAT_NAMES_TRUMP.error(action=action, soloist=self.soloist)
            if (action.value or "").lower() not in TRUMP_WORDS:
                raise R_NAME_C_D_HERC.error(action=action)
            return
        if kind is ActionType.ANNOUNCE:
            self._validate_announce(action)
            return
        if kind is ActionType.KONTRA:
            self._kontra_targets(action)
            return
        if kind is ActionType.OPEN:
            if self.bid is None or not self.bid.open or len(self.tricks) < 1:
                raise R_HANDS_OPENED_AFTER_TRICK.error(action=action)
            if seat in self.opened:
                raise R_THAT_HAND_ALREADY_OPEN.error(action=action)
            left = 10 - sum(1 for t in self.tricks for s, _ in t.plays if s == seat)
            left -= sum(1 for s, _ in (self.trick.plays if self.trick else []) if s == seat)
            if len(set(action.cards)) != left or len(action.cards) != left:
                raise R_SEAT_HAS_CARDS_LAY.error(action=action, seat=seat, left=left)
            if self.hands is not None and set(action.cards) != self.hands[seat]:
                raise R_SEAT_HAND_THOSE_CARDS.error(action=action, seat=seat)
            shown = set().union(*self.opened.values()) if self.opened else set()
            for card in action.cards:
                if card in self.played or card in shown or card in self.talon:
                    raise R_ALREADY_ELSEWHERE.error(action=action, card=card)
            return
        super()._validate_other(action)

    def _validate_auction(self, action: Action) -> None:
        kind, seat = action.type, action.seat
        if self.phase is not Phase.AUCTION or self.soloist is not None:
            raise R_AUCTION_OVER.error(action=action)
        if seat != self.to_act:
            raise R_SEAT_SPEAKS_AUCTION_NOW.error(action=action, to_act=self.to_act)
        if kind is ActionType.EXCHANGE:
            if not self.to_discard:
                raise R_NOTHING_DISCARD_NOW_BID.error(action=action)
            if len(action.cards) > self.to_discard:
                raise R_DISCARD_MORE_CARD.error(action=action, to_discard=self.to_discard)
            if len(set(action.cards)) != len(action.cards):
                raise R_SAME_CARD_TWICE.error(action=action)
            for card in action.cards:
                if self.hands is not None and card not in self.hands[seat]:
                    raise R_SEAT_HAND.error(action=action, card=card, seat=seat)
            if not action.cards and self.hands is not None:
                raise R_WITH_KNOWN_HANDS_NAME.error(action=action)
            return
        if self.to_discard:
            raise R_FIRST_DISCARD_CARD_TALON.error(action=action, to_discard=self.to_discard)
        if kind is ActionType.PASS:
            if self.bid is None:
                raise R_FOREHAND_MUST_BID_AT.error(action=action)
            return
        new = parse_bid(action.value or "")
        if not bid_beats(new, self.bid):
            raise R_VALUE_DOES_BEAT_AMBIGUITY.error(
                action=action, new=new.name, base_value=new.base_value, bid=self.bid
            )

    def _apply_other(self, action: Action) -> list[Event]:
        kind, seat = action.type, action.seat
        events: list[Event] = [ActionRecorded(seat, kind.value, action.value, action.cards)]
        if kind is ActionType.CLAIM:
            self.claims.append((seat, (action.value or "").lower()))
        elif kind is ActionType.BID:
            bid = parse_bid(action.value or "")
            self.auction.append((seat, bid.name))
            self.bid, self.bidder, self.passes, self.to_discard = bid, seat, 0, 2
            if len(self.auction) > 1 or seat != self.forehand:
                self._take_talon(seat)
        elif kind is ActionType.EXCHANGE:
            count = len(action.cards) or self.to_discard
            for card in action.cards:
                if self.hands is not None:
                    self.hands[seat].discard(card)
                self.talon.append(card)
            self.talon_hidden += count - len(action.cards)
            self.to_discard -= count
            if not self.to_discard:
                self.to_act = self.seat(seat).next().index
        elif kind is ActionType.PASS:
            self.auction.append((seat, "dalje"))
            self.passes += 1
            if self.passes == 2:
                events.extend(self._end_auction())
            else:
                self.to_act = self.seat(seat).next().index
        elif kind is ActionType.CONTRACT:
            self.trump = TRUMP_WORDS[(action.value or "").lower()]
            events.extend(self._start())
        elif kind is ActionType.ANNOUNCE:
            self.marriages[seat] = parse_marriages(action.value)
            events.extend(self._check_marriage_now(seat))
        elif kind is ActionType.KONTRA:
            for component, defender in self._kontra_targets(action):
                self.levels.setdefault(component, {}).setdefault(defender, 0)
                self.levels[component][defender] += 1
        elif kind is ActionType.OPEN:
            self.opened[seat] = set(action.cards)
            if self.hands is None:
                events.extend(self._open_witnesses(seat, action.cards))
            if len(self.opened) == self.players and self.hands is None and not self.is_over:
                # a hand opened earlier has lost the cards its seat played since
                self.hands = {s: set(cards) - self.played for s, cards in self.opened.items()}
            for other in sorted(self.marriages):
                if not self.is_over:
                    events.extend(self._check_marriage_now(other))
        return events

    def _open_witnesses(self, seat: int, cards: tuple[Card, ...]) -> list[Event]:
        """§16.3: a hand laid open shows cards the seat has held since the deal (nothing
        reaches a hand during the play), so each is a witness against its earlier plays."""
        number = self.trick.number if self.trick is not None else len(self.tricks)
        for card in sorted(cards, key=card_order):
            for rec, rule in self.knowledge.witnessed(seat, card):
                said = LAID_OPEN(trick=rec.trick, seat=seat, card=rec.card, witness=card,
                                 constraint=rec.constraint or RULE_NAMED(rule=rule))  # fmt: skip
                violation = Violation.of(
                    said, seat=seat, rule=rule, trick=rec.trick, card=rec.card, witness=card,
                    proven_at_trick=number,
                )  # fmt: skip
                self.proven.append(violation)
                self._violate(violation)
                return [ViolationProven(violation), *self._finish(self._penalty(violation))]
        return []

    def public_witness(self, trick: Trick, seat: int, card: Card) -> tuple[str, Said] | None:
        """A seat whose hand lies open is checked at once, like a known hand."""
        if seat not in self.opened:
            return None
        for other in sorted(self.opened[seat] - self.played, key=card_order):
            rule = None if other == card else self.duty(trick, seat, card, other)
            if rule is not None:
                return rule, OPEN_HAND(seat=seat, card=card, held=other)
        return None

    def _take_talon(self, seat: int) -> None:
        if self.hands is not None:
            self.hands[seat] |= set(self.talon)
        self.talon, self.talon_hidden = [], 0

    def _end_auction(self) -> list[Event]:
        assert self.bid is not None and self.bidder is not None
        self.soloist = self.bidder
        events: list[Event] = [Notice.of(PLAYS(seat=self.soloist, bid=self.bid.name), self.soloist)]
        fixed = self.bid.trump_fixed
        if fixed == "?":
            self.to_act = self.soloist
            return events
        self.trump = Suit.HEARTS if fixed == "H" else None
        return events + self._start()

    def _start(self) -> list[Event]:
        assert self.soloist is not None
        return self.start_play(self.soloist)

    # -- announcements and kontra --------------------------------------------------------------
    def _in_first_trick_before_card(self, seat: int) -> bool:
        trick = self.trick
        return (
            self.phase is Phase.PLAY
            and trick is not None
            and trick.number == 1
            and all(s != seat for s, _ in trick.plays)
        )

    def _validate_announce(self, action: Action) -> None:
        seat = action.seat
        if not self._in_first_trick_before_card(seat) or seat != self.to_act:
            raise R_MARRIAGES_ANNOUNCED_WITH_ONE.error(action=action)
        if not self.trump_game:
            raise R_MARRIAGES_TRUMP_CONTRACT.error(action=action)
        if seat in self.marriages:
            raise R_SEAT_HAS_ALREADY_ANNOUNCED.error(action=action, seat=seat)
        twenties, forty = parse_marriages(action.value)
        assert self.bid is not None
        comps = self.bid.components
        if seat == self.soloist and Component.FORTY_HUNDRED in comps and (twenties or not forty):
            raise R_SOLOIST_ANNOUNCES.error(action=action)
        if seat == self.soloist and Component.TWENTY_HUNDRED in comps and (forty or twenties != 1):
            raise R_SOLOIST_ANNOUNCES_ONE.error(action=action)

    def _kontra_targets(self, action: Action) -> list[tuple[Component, int]]:
        """(component, defender) pairs this KONTRA raises; raise ActionError if it cannot."""
        found = self._kontra(action)
        if isinstance(found, Refused):
            raise found.error()
        return found

    def _kontra(self, action: Action) -> list[tuple[Component, int]] | Refused:
        """(component, defender) pairs this KONTRA raises, or why it cannot be given."""
        if self.bid is None or self.soloist is None or self.phase is not Phase.PLAY:
            return R_KONTRA_GIVEN_DURING_FIRST.refused(action=action)
        assert self.trick is not None
        if not self._doubling_time():
            return R_ALL_DOUBLINGS_GIVEN_BEFORE.refused(action=action)
        named = _components_named(action.value or "all")
        if named is None:
            return R_NAME_COMPONENTS.refused(action=action, bid=self.bid.name)
        comps = list(self.bid.components) if isinstance(named, str) else list(named)
        if not comps or any(c not in self.bid.components for c in comps):
            return R_HAS_SUCH_COMPONENT.refused(action=action, bid=self.bid.name)
        seat = action.seat
        out: list[tuple[Component, int]] = []
        for comp in comps:
            levels = self.levels.get(comp, {})
            if seat == self.soloist:
                targets = [d for d, lv in levels.items() if lv % 2 == 1 and lv < MAX_LEVEL]
                if not targets:
                    return R_KONTRA_ON_ANSWER.refused(action=action, comp=comp.value)
                out.extend((comp, d) for d in targets)
                continue
            level = levels.get(seat, 0)
            if level % 2 == 1 or level >= MAX_LEVEL:
                return R_SOLOIST_ANSWERS_FIRST.refused(action=action, comp=comp.value)
            if level == 0 and not self._may_open_kontra(seat):
                return R_SEAT_CANNOT_GIVE_KONTRA.refused(action=action, seat=seat)
            out.append((comp, seat))
        return out

    def _doubling_time(self) -> bool:
        """Doublings are given before trick 2 (AMBIGUITY 67): in trick 1 or before its lead."""
        trick = self.trick
        return trick is not None and (trick.number == 1 or (trick.number == 2 and not trick.plays))

    def _may_open_kontra(self, seat: int) -> bool:
        right, left = self.defenders
        if seat not in (right, left) or not self._in_first_trick_before_card(seat):
            return False
        if self.game.options.kontra_by_both or seat == right:
            return True
        gave = any(right in lv for lv in self.levels.values())
        return not gave and not self._in_first_trick_before_card(right)

    def _other_legal_actions(self) -> list[Action]:
        claims = self._claim_actions()
        if self.phase is Phase.AUCTION:
            return claims + self._auction_actions()
        if self.phase is not Phase.PLAY or self.to_act is None or self.trick is None:
            return claims
        out: list[Action] = claims + self._open_actions()
        seat = self.to_act
        if (
            self.trump_game
            and self.hands is not None  # the true announcement needs the hand
            and seat not in self.marriages
            and self._in_first_trick_before_card(seat)
        ):
            value = self._true_marriages(seat)
            if value is not None:
                out.append(Action(seat, ActionType.ANNOUNCE, value=value))
        if self._doubling_time():
            for who in range(self.players):
                for comp in self.bid.components if self.bid else ():
                    kontra = Action.kept(who, ActionType.KONTRA, value=comp.value)
                    if not isinstance(self._kontra(kontra), Refused):
                        out.append(kontra)
        return out

    def _claim_actions(self) -> list[Action]:
        """§13.4: any player may claim "Kec herc deli / ne deli" at any time; the first claim
        is the one that counts, so claims are listed until one has been made."""
        if self.claims:
            return []
        return [
            Action.kept(s, ActionType.CLAIM, value=c) for s in range(self.players) for c in CLAIMS
        ]

    def _open_actions(self) -> list[Action]:
        """§13.6: after trick 1 of an open contract every player lays his hand open."""
        if self.bid is None or not self.bid.open or not self.tricks or self.hands is None:
            return []
        return [
            Action(s, ActionType.OPEN, cards=tuple(sorted(self.hands[s], key=card_order)))
            for s in range(self.players)
            if s not in self.opened
        ]

    def _true_marriages(self, seat: int) -> str | None:
        """The full truthful announcement of ``seat`` (known hands), shaped by the bid."""
        assert self.hands is not None and self.bid is not None
        cards = set(self.hands[seat]) | (set(self.talon) if seat == self.soloist else set())
        suits = marriage_suits(cards)
        forty = self.trump in suits
        twenties = len(suits) - int(forty)
        if seat == self.soloist and Component.FORTY_HUNDRED in self.bid.components:
            return "40" if forty else None
        if seat == self.soloist and Component.TWENTY_HUNDRED in self.bid.components:
            return "20" if twenties else None
        parts = (["40"] if forty else []) + ["20"] * twenties
        return "+".join(parts) or None

    def _auction_actions(self) -> list[Action]:
        seat = self.to_act
        if seat is None:
            return []
        if self.soloist is not None:
            return [Action(seat, ActionType.CONTRACT, value=s) for s in ("C", "D", "S")]
        if self.to_discard:
            if self.hands is None:  # the discards are not known: nothing to list
                raise NEEDS_HANDS.error()
            return [
                Action(seat, ActionType.EXCHANGE, cards=(c,))
                for c in sorted(self.hands[seat], key=card_order)
            ]
        out = [
            Action.kept(seat, ActionType.BID, value=b.name)
            for b in ALL_BIDS
            if bid_beats(b, self.bid)
        ]
        if self.bid is not None:
            out.append(Action.kept(seat, ActionType.PASS))
        return out

    # -- play ----------------------------------------------------------------------------------
    def _after_trick(self, trick: Trick) -> list[Event]:
        """A Betli ends at the soloist's first trick and a no-trump Durchmars at his first lost
        trick: the contract is decided there (nothing else of the bid is left to play for)."""
        assert self.bid is not None
        if self.bid.trump_game:
            return []
        won = trick.winner == self.soloist
        if (self.bid.betli and won) or (not self.bid.betli and not won):
            return self._finish(self._final_result())
        return []

    def winner_index(self, trick: Trick) -> int:
        return winner_index(trick.cards, trump=self.trump, trump_game=self.trump_game)

    def duty(self, trick: Trick, seat: int, card: Card, other: Card) -> str | None:
        return self.duties(trick, seat)(card, other)

    def duties(self, trick: Trick, seat: int) -> Callable[[Card, Card], str | None]:
        assert self.bid is not None
        plain = ulti_duties(
            trick.cards, trump=self.trump, trump_game=self.trump_game, overtake=not self.bid.betli
        )
        seven = (  # the soloist's Ulti seven, while it is not the last trick
            self.ulti_seven
            if seat == self.soloist and Component.ULTI in self.bid.components and trick.number < 10
            else None
        )
        if seven is None:
            return plain

        def judge(card: Card, other: Card) -> str | None:
            rule = plain(card, other)
            if rule is not None:
                return rule
            if seven is not None and card == seven and plain(other, card) is None:
                return "ulti-seven-early"  # §13.7: only when it is the only legal card
            return None

        return judge

    @property
    def ulti_seven(self) -> Card | None:
        return Card(Rank.SEVEN, self.trump) if self.trump is not None else None

    def constraint_text(self, trick: Trick, seat: int, card: Card) -> Said | None:
        lead = trick.lead_suit
        if lead is None:
            return None
        n, trump = trick.number, self.trump
        if card.suit is not lead:
            if trump is not None and card.suit is not trump and lead is not trump:
                return NO_LED_NO_TRUMP(trick=n, led=lead.symbol, trump=trump.symbol)
            return NO_LED(trick=n, led=lead.symbol)
        if self.bid is not None and self.bid.betli:
            return None
        return NO_BEATING(trick=n, led=lead.symbol)

    def _validate_card_source(self, seat: int, card: Card) -> None:
        if card in self.talon:
            raise R_SEAT_PLAYS_THAT_CARD.error(seat=seat, card=card)
        super()._validate_card_source(seat, card)

    # -- marriages -----------------------------------------------------------------------------
    def _shown(self, seat: int) -> set[Suit]:
        cards = {c for t in self.tricks for s, c in t.plays if s == seat}
        if self.trick is not None:
            cards |= {c for s, c in self.trick.plays if s == seat}
        if seat == self.soloist:
            cards |= set(self.talon_cards())
        if self.hands is not None:
            cards |= self.hands[seat]
        return marriage_suits(cards)

    def _marriage_problem(self, seat: int) -> Said | None:
        twenties, forty = self.marriages[seat]
        suits = self._shown(seat)
        has_forty = self.trump in suits
        if (forty and not has_forty) or twenties > len(suits - {self.trump}):
            shown = " ".join(f"K{s.value}+Q{s.value}" for s in sorted(suits, key=str)) or "none"
            return MARRIAGE_SHOWN(seat=seat, announced=_announced(forty, twenties), shown=shown)
        return None

    def _check_marriage_now(self, seat: int) -> list[Event]:
        """With known hands a false marriage is proven at once (AMBIGUITY 69); at a table, as
        soon as the K or O it needs is played by another seat or lies open in another hand."""
        if self.hands is None:
            problem = self._marriage_impossible(seat)
        else:
            problem = self._marriage_problem(seat)
        return [] if problem is None else self._false_marriage(seat, problem)

    def _marriage_impossible(self, seat: int) -> Said | None:
        twenties, forty = self.marriages[seat]
        elsewhere = {c for t in self.tricks for s, c in t.plays if s != seat}
        if self.trick is not None:
            elsewhere |= {c for s, c in self.trick.plays if s != seat}
        for other, cards in self.opened.items():
            if other != seat:
                elsewhere |= cards
        if seat != self.soloist:
            elsewhere |= set(self.talon)  # a talon seen on the table is the soloist's
        if seat in self.opened:  # the rest of the hand is on the table: nothing else is his
            mine = self.opened[seat] | {c for t in self.tricks for s, c in t.plays if s == seat}
            if self.trick is not None:
                mine |= {c for s, c in self.trick.plays if s == seat}
            unseen = set(self.game.deck.cards) - self.played - set().union(*self.opened.values())
            elsewhere |= (
                set(self.game.deck.cards) - mine - (unseen if seat == self.soloist else set())
            )
        possible = {
            suit
            for suit in Suit
            if Card(Rank.KING, suit) not in elsewhere and Card(Rank.QUEEN, suit) not in elsewhere
        }
        has_forty = self.trump in possible
        if (forty and not has_forty) or twenties > len(possible - {self.trump}):
            gone = " ".join(sorted(c.code for c in elsewhere if c.rank in (Rank.KING, Rank.QUEEN)))
            return MARRIAGE_GONE(seat=seat, announced=_announced(forty, twenties), cards=gone)
        return None

    def _apply(self, action: Action) -> list[Event]:
        events = super()._apply(action)
        if action.type is ActionType.PLAY and self.hands is None and not self.is_over:
            for seat in sorted(self.marriages):
                if seat != action.seat:
                    found = self._check_marriage_now(seat)
                    if found:
                        return events + found
        return events

    def _false_marriage(self, seat: int, problem: Said) -> list[Event]:
        number = self.trick.number if self.trick is not None else 1
        violation = Violation.of(
            problem, seat=seat, rule="false-marriage", trick=1, card=None, witness=None,
            proven_at_trick=number,
        )  # fmt: skip
        self.proven.append(violation)
        events: list[Event] = [ViolationProven(violation)]
        self._violate(violation)
        return events + self._finish(self._penalty(violation))

    # -- scoring -------------------------------------------------------------------------------
    def talon_cards(self) -> list[Card]:
        """The soloist's final talon: seen, or what no one played in a finished deal."""
        if not self.talon_hidden:
            return list(self.talon)
        if len(self.played) == 30:
            return sorted(set(self.game.deck.cards) - self.played, key=card_order)
        if self.hands is not None:  # every hand laid open: the talon is what no one holds
            held = set().union(*self.hands.values())
            return sorted(set(self.game.deck.cards) - self.played - held, key=card_order)
        return list(self.talon)

    def _extra_points(self) -> dict[str, int]:
        """AMBIGUITY 65: points in the talon count for the defenders (listed under the right
        defender in this per-seat tally)."""
        if self.soloist is None:
            return {}
        points = sum(self.game.card_points(c) for c in self.talon_cards())
        return {str(self.defenders[0]): points} if points else {}

    def multiplier(self, component: Component, defender: int) -> int:
        return 2 ** self.levels.get(component, {}).get(defender, 0)

    def _settle(self, outcomes: list[tuple[Component | str, int, bool]]) -> DealResult:
        """Settle ``(component or silent bonus, value, success)`` against each defender."""
        assert self.soloist is not None and self.bid is not None
        mode = self.game.options.settlement
        scores = {str(s): 0 for s in range(self.players)}
        lines: list[Said] = []
        for what, value, success in outcomes:
            amounts = []
            for d in self.defenders:
                if isinstance(what, Component):
                    m = self.multiplier(what, d)
                    ulti = what is Component.ULTI
                    amount = component_amount(value, m, success, announced_ulti=ulti)
                else:
                    amount = value if success else -value
                amounts.append(amount)
                if mode == "writing":
                    if amount > 0:
                        scores[str(self.soloist)] += amount
                    else:
                        scores[str(d)] += -amount
                else:
                    scores[str(self.soloist)] += amount
                    scores[str(d)] -= amount
            name = what.value if isinstance(what, Component) else what
            kind = WON if success else LOST
            lines.append(kind(name=str(name), amounts="/".join(map(str, amounts))))
        said = SETTLED(seat=self.soloist, bid=self.bid.name, lines=lines)
        return DealResult.of(scores, said, extra=self._extra_result())

    def _extra_result(self) -> dict[str, Any]:
        holder = self.ace_of_hearts_holder()
        return {
            "soloist": self.soloist, "bid": self.bid.name if self.bid else None,
            "trump": self.trump.value if self.trump else None, "ace_of_hearts": holder,
            "claims": [list(c) for c in self.claims],
        }  # fmt: skip

    def ace_of_hearts_holder(self) -> int | None:
        """AMBIGUITY 61 (b): who held A♥ after the auction (the talon is the soloist's)."""
        ace = Card(Rank.ACE, Suit.HEARTS)
        for trick in self.tricks:
            for seat, card in trick.plays:
                if card == ace:
                    return seat
        if self.hands is not None:
            for seat, cards in self.hands.items():
                if ace in cards:
                    return seat
        return self.soloist if ace in self.talon_cards() else None

    def _finish(self, result: DealResult) -> list[Event]:
        pending, self._pending = self._pending, []
        return pending + super()._finish(result)

    def _penalty(self, violation: Violation) -> DealResult:
        """AMBIGUITY 69: the offending side's components all fail (a defender's offence makes
        every component of the soloist succeed)."""
        assert self.bid is not None
        won = violation.seat != self.soloist
        outcomes: list[tuple[Component | str, int, bool]] = [
            (c, self.bid.value(c), won) for c in self.bid.components
        ]
        result = self._settle(outcomes)
        kind = ALL_SUCCEED if won else ALL_FAIL
        assert result.said is not None
        said = kind(rule=violation.rule, seat=violation.seat, result=result.said)
        return DealResult.of(result.scores, said, (violation,), result.extra)

    def _final_result(self) -> DealResult:
        assert self.bid is not None and self.soloist is not None
        for seat in sorted(self.marriages):
            problem = self._marriage_problem(seat)
            if problem is not None:
                violation = Violation.of(
                    problem, seat=seat, rule="false-marriage", trick=1, card=None, witness=None,
                    proven_at_trick=10,
                )  # fmt: skip
                self.proven.append(violation)
                self._pending.append(ViolationProven(violation))
                self._violate(violation)
                return self._penalty(violation)
        return self._settle(self.outcomes())

    def points(self) -> tuple[int, int, int, int]:
        """(soloist card points + last trick, defenders' ditto incl. talon, soloist marriages,
        defenders' marriages), marriages validated by a trick of the side (§13.2)."""
        assert self.soloist is not None
        sol = self.soloist
        cards = sum(self.game.card_points(c) for c in self.taken[sol])
        others = sum(self.game.card_points(c) for d in self.defenders for c in self.taken[d])
        others += sum(self.game.card_points(c) for c in self.talon_cards())
        if self.tricks and self.tricks[-1].winner == sol:
            cards += 10
        elif self.tricks:
            others += 10
        sol_tricks = self.tricks_won(sol)
        married = {s: 20 * t + (40 if f else 0) for s, (t, f) in self.marriages.items()}
        sol_m = married.get(sol, 0) if sol_tricks else 0
        def_m = sum(married.get(d, 0) for d in self.defenders) if sol_tricks < 10 else 0
        return cards, others, sol_m, def_m

    def outcomes(self) -> list[tuple[Component | str, int, bool]]:
        assert self.bid is not None and self.soloist is not None
        bid, sol = self.bid, self.soloist
        cards, others, sol_m, def_m = self.points()
        sol_tricks = self.tricks_won(sol)
        last = self.tricks[-1]
        seven = self.ulti_seven
        seven_last = seven is not None and (sol, seven) in last.plays
        out: list[tuple[Component | str, int, bool]] = []
        for comp in bid.components:
            value = bid.value(comp)
            if comp is Component.PASSZ:
                total = cards + sol_m
                if total >= 100:
                    value *= 2  # the silent 100 doubles the simple game (§13.6)
                out.append((comp, value, total > others + def_m))
            elif comp is Component.FORTY_HUNDRED:
                forty = self.marriages.get(sol, (0, False))[1] and sol_tricks > 0
                out.append((comp, value, forty and cards + 40 >= 100))
            elif comp is Component.TWENTY_HUNDRED:
                twenty = self.marriages.get(sol, (0, False))[0] > 0 and sol_tricks > 0
                out.append((comp, value, twenty and cards + 20 >= 100))
            elif comp is Component.ULTI:
                out.append((comp, value, seven_last and last.winner == sol))
            elif comp in (Component.DURCHMARS, Component.OPEN_DURCHMARS):
                out.append((comp, value, sol_tricks == 10))
            else:
                out.append((comp, value, sol_tricks == 0))
        if bid.trump_game:
            herc = 2 if bid.herc else 1
            if Component.ULTI not in bid.components and seven_last:
                won = last.winner == sol
                out.append(("silent ulti", (2 if won else 4) * herc, won))
            durch = set(bid.components) & {Component.DURCHMARS, Component.OPEN_DURCHMARS}
            if not durch and sol_tricks == 10:
                out.append(("silent durchmars", 3 * herc, True))
        return out

    def _snapshot_game(self) -> dict[str, Any]:
        return {
            "bid": self.bid.name if self.bid else None,
            "auction": [[s, b] for s, b in self.auction],
            "soloist": self.soloist,
            "trump": self.trump.value if self.trump else None,
            "talon": len(self.talon) + self.talon_hidden,
            "to_discard": self.to_discard,
            "marriages": {str(s): list(m) for s, m in sorted(self.marriages.items())},
            "kontra": {
                c.value: {str(d): KONTRA_NAMES[lv] for d, lv in sorted(v.items())}
                for c, v in self.levels.items()
            },
            "claims": [list(c) for c in self.claims],
            "opened": sorted(self.opened),
            # the soloist's final talon, once the deal is over and the table can know it (the
            # cards no one played, RULES.md §16: it is revealed at the end of the deal)
            "talon_cards": self._talon_known(),
        }

    def _talon_known(self) -> list[str] | None:
        if not self.is_over or self.soloist is None:
            return None
        cards = self.talon_cards()
        return [c.code for c in cards] if len(cards) == 2 else None
