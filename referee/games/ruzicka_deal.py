"""The deal of Ružička (RULES.md §9): multi-round tricks, offers, knocks, Brejk, the joker-suit
change, Otvoreno, the sweep and the score. SubRosa (§10) subclasses it with declarations.

Every action is public: a card on the pile (overtake) or beside it (discard), a face-down offer
(OFFER, the card optional), a knock, a Jack shown (SHOW ``joker-jack``), an open hand (OPEN).
There is no duty to follow, so there are no revokes; what can be proven is that a seat showed
a card it did not hold (another seat plays it, or the seat plays out its hand without it).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from referee.actions import Action, ActionType
from referee.cards import Card, Rank, Suit, card_order
from referee.deal import DealResult, Phase
from referee.errors import IllegalPlay
from referee.events import (
    ActionRecorded,
    CardPlayed,
    Event,
    Notice,
    TrickWon,
    TurnChanged,
    Violation,
    ViolationProven,
)
from referee.games.ruzicka_rules import (
    FALL,
    OPEN_BONUS,
    Pile,
    PlayRule,
    Settlement,
    Tally,
    card_points,
    other_side,
)
from referee.trick import RULE_NAMED, Trick, TrickDeal
from referee.wording import Said, evidence, notice, part, refusal

SHOWN_PLAYED_ELSEWHERE = evidence(
    "ruzicka.shown_played_elsewhere",
    "at trick {trick} seat {seat} showed {card} ({what}); at trick {proven} seat "
    "{other} played {card}, so seat {seat} did not hold it",
)
SHOWN_NEVER_PLAYED = evidence(
    "ruzicka.shown_never_played",
    "at trick {trick} seat {seat} showed {card} ({what}) but played out its hand without it",
)
JACK_CLAIM = part("ruzicka.jack_claim", "joker-suit Jack")
OPEN_KEPT = part("ruzicka.otvoreno", "Otvoreno {count}")
OPENS = notice("ruzicka.opens", "seat {seat} opens {count} cards (Otvoreno)")
NOT_OVERTAKING = notice(
    "ruzicka.not_overtaking", "{card} of seat {seat} does not overtake: a discard (AMBIGUITY 20)"
)
BREJK = notice("ruzicka.brejk", "Brejk: seat {seat} wins trick {trick}")
SHOWS_JACK = notice("ruzicka.shows_jack", "seat {seat} shows {card}: joker suit {suit}")
SHOWS_EGALITE = notice(
    "ruzicka.shows_egalite", "seat {seat} shows {card}: joker suit none (Egalite)"
)
OPEN_FAILS = notice(
    "ruzicka.open_fails",
    "seat {seat} opened and lost trick {trick}: the opponents take every card from the opening "
    "on ({left} still in hand)",
)
SHOWN_LACKING = evidence(
    "ruzicka.shown_lacking", "seat {seat} showed {card}, which its known hand lacks"
)

R_JOKER_CHANGE_ONCE = refusal(
    "ruzicka.joker_change_once",
    "{action}: the joker suit changes only once, in the first round of the deal, on the seat's own turn",
)
R_JOKER_CHANGE_NOT_HERE = refusal(
    "ruzicka.joker_change_not_here",
    "{action}: the joker suit changes only once, in the first round of the deal, on the seat's own turn (not in this deal)",
)
R_ACTION = refusal("ruzicka.not_an_action", "{action}: {type} is not an action of {game}")
R_SEAT_DOES_EXIST_PLAYERS = refusal(
    "ruzicka.seat_does_exist_players",
    "{action}: seat {seat} does not exist (players: {players})",
)
R_NOTHING_CAN_PLAYED_NOW = refusal(
    "ruzicka.nothing_can_played_now", "{action}: nothing can be played now (phase {phase})"
)
R_FIRST_FACE_DOWN_CARD = refusal(
    "ruzicka.first_face_down_card",
    "{action}: first the face-down card of seat {pending} is turned up (REVEAL it)",
)
R_OUT_TURN_SEAT_PLAY = refusal(
    "ruzicka.out_turn_seat_play", "{action}: out of turn, seat {to_act} is to play"
)
R_DECK = refusal("ruzicka.not_in_deck", "{action}: {card} is not in the {deck} deck")
R_WAS_ALREADY_PLAYED_THIS = refusal(
    "ruzicka.was_already_played_this", "{action}: {card} was already played in this deal"
)
R_LIES_FACE_DOWN_FRONT = refusal(
    "ruzicka.lies_face_down_front", "{action}: {card} lies face down in front of another seat"
)
R_SEAT_PLAYS_THAT_CARD = refusal(
    "ruzicka.seat_plays_that_card",
    "seat {seat} plays {card}: that card is not in seat {seat}'s hand",
)
R_SEAT_HAS_CARD_LEFT = refusal(
    "ruzicka.seat_has_card_left", "{action}: seat {seat} has no card left"
)
R_PLAY_NEEDS_CARD = refusal("ruzicka.play_needs_card", "{action}: a play needs a card")
R_PLAY_OVERTAKE_ON_PILE = refusal(
    "ruzicka.play_overtake_on_pile",
    "{action}: a play is 'overtake' (on the pile) or 'discard' (beside)",
)
R_LEAD_TRICK_GOES_ON = refusal(
    "ruzicka.lead_trick_goes_on", "{action}: the lead of a trick goes on the pile"
)
R_JOKER_SUIT_CHANGED_BY = refusal(
    "ruzicka.joker_suit_changed_by", "{action}: the joker suit is changed by showing a Jack"
)
R_OTVORENO_PLAYED_AT_THIS = refusal(
    "ruzicka.otvoreno_played_at_this",
    "{action}: Otvoreno is not played at this table (option otvoreno)",
)
R_SEAT_ALREADY_OPENED = refusal(
    "ruzicka.seat_already_opened", "{action}: seat {seat} already opened"
)
R_SEAT_HAS_CARD_FACE = refusal(
    "ruzicka.seat_has_card_face", "{action}: seat {seat} has a card face down in this round"
)
R_OTVORENO_NEEDS_AT_LEAST = refusal(
    "ruzicka.otvoreno_needs_at_least", "{action}: Otvoreno needs at least 3 cards in hand"
)
R_LAY_DOWN_ALL_CARDS = refusal(
    "ruzicka.lay_down_all_cards", "{action}: lay down all {counts} cards of the hand"
)
R_LEGAL_ACTIONS_NEED_KNOWN = refusal(
    "ruzicka.legal_actions_need_known", "legal actions need known hands"
)
R_LIES_OPEN_FRONT_SEAT = refusal(
    "ruzicka.lies_open_front_seat", "{action}: {card} lies open in front of seat {seat}"
)
R_AMONG_CARDS_SEAT_LAID = refusal(
    "ruzicka.among_cards_seat_laid",
    "{action}: {card} is not among the cards seat {seat} laid open",
)
R_BREJK_II_IV_SEAT = refusal(
    "ruzicka.brejk_ii_iv_seat",
    "{action}: not a Brejk (a II/IV seat overtaking its own partner's card)",
)
R_CARD_OFFERED_FACE_DOWN = refusal(
    "ruzicka.card_offered_face_down",
    "{action}: a card is offered face down only in a round that nobody has overtaken yet (rounds II and later)",
)
R_SEAT_DOES_HOLD = refusal("ruzicka.seat_does_hold", "{action}: seat {seat} does not hold {card}")
R_SEAT_SHOWS_BUT_DOES = refusal(
    "ruzicka.seat_shows_but_does", "seat {seat} shows {card} but does not hold it"
)
R_KNOCK_ALLOWED_WHEN_IT = refusal(
    "ruzicka.knock_allowed_when_it",
    "{action}: a knock is allowed only when it ends the trick; offer a card face down or overtake",
)
R_SEAT_HAS_FACE_DOWN = refusal(
    "ruzicka.seat_has_face_down", "{action}: seat {seat} has no face-down card to turn up"
)
R_NAME_CARD_TURNED_UP = refusal("ruzicka.name_card_turned_up", "{action}: name the card turned up")
R_SEAT_HAND = refusal("ruzicka.seat_hand", "{action}: {card} is not in seat {seat}'s hand")

JOKER_JACK = "joker-jack"
PLAY_VALUES = (None, "overtake", "discard", "lead")


class Kind(enum.Enum):
    """What a seat did in one round of a trick."""

    LEAD = "lead"
    OVERTAKE = "overtake"  # on the pile (gaziti)
    DISCARD = "discard"  # beside the pile (odbaciti): out of the fight for this trick
    OFFER = "offer"  # face down, provisional (nuđenje)
    RETURNED = "returned"  # an offer taken back into the hand: the round was not played
    KNOCK = "knock"  # kucnuti


@dataclass
class RoundPlay:
    seat: int
    card: Card | None
    kind: Kind
    void: bool = False  # a joker-suit overtake voided by the joker change (AMBIGUITY 25)

    def to_list(self) -> list[Any]:
        if self.kind is Kind.KNOCK:
            code = "--"
        elif self.card is None or self.kind in (Kind.OFFER, Kind.RETURNED):
            code = "??"
        else:
            code = self.card.code
        return [self.seat, code, self.kind.value + ("-void" if self.void else "")]


@dataclass
class Round:
    plays: list[RoundPlay] = field(default_factory=list)
    confirmed: bool = True  # round 1, or a later round once somebody overtook in it

    def to_dict(self) -> dict[str, Any]:
        return {"plays": [p.to_list() for p in self.plays], "confirmed": self.confirmed}


@dataclass
class RoundTrick(Trick):
    """A Ružička trick: ``plays`` holds the cards of its confirmed rounds (the winner's prize)."""

    rounds: list[Round] = field(default_factory=list)
    top: Card | None = None
    owner: int | None = None
    out: set[int] = field(default_factory=set)  # seats out of the fight for this trick
    pos: int = 0  # position (0 = I ... 3 = IV) of the seat to act in the current round
    b_overtook: bool = False  # II or IV overtook in the current round
    brejk: int | None = None

    @property
    def round(self) -> Round:
        return self.rounds[-1]

    def to_dict(self) -> dict[str, Any]:
        return {
            **super().to_dict(),
            "rounds": [r.to_dict() for r in self.rounds if r.plays],
            "top": self.top.code if self.top is not None else None,
            "owner": self.owner,
            "out": sorted(self.out),
            "brejk": self.brejk,
        }


@dataclass
class Claim:
    """Cards a seat showed and took back into its hand: it must play each of them later."""

    seat: int
    cards: tuple[Card, ...]
    rule: str  # the violation if the claim is false
    what: Said  # what the shown cards claimed
    trick: int
    fall: int  # the fall value of the offending side
    proven: bool = False


@dataclass(frozen=True)
class Opened:
    seat: int
    cards: tuple[Card, ...]
    trick: int  # the trick in progress at the opening


class RuzickaDeal(TrickDeal):
    """One deal of Ružička; see the module docstring."""

    # -- state ---------------------------------------------------------------------------------
    def _reset_game(self) -> None:
        per = len(self.game.deck.cards) // self.players
        self.counts: dict[int, int] = (
            {s: len(h) for s, h in self.initial_hands.items()}
            if self.initial_hands is not None
            else {s: per for s in range(self.players)}
        )
        self.played_by: dict[int, set[Card]] = {s: set() for s in range(self.players)}
        self.joker: Suit | None = Suit.HEARTS
        self.changer: int | None = None
        self.claims: list[Claim] = []
        self.falls: list[tuple[str, int, str]] = []
        self.opened: Opened | None = None
        self.open_failed = False
        self.offered: dict[int, Card | None] = {}
        self.pending: list[int] = []  # seats whose turned-up offer is still to be named
        self.deferred = False
        self._reset_variant()
        self.start_play(self.forehand)

    def _reset_variant(self) -> None:
        """SubRosa's own state."""

    def start_play(self, leader: int) -> list[Event]:
        self.phase = Phase.PLAY
        self.trick = RoundTrick(len(self.tricks) + 1, leader, rounds=[Round()])
        self.to_act = leader
        return [TurnChanged(leader)]

    @property
    def tricks_per_deal(self) -> int:
        return 8  # at most; a deal ends when the hands are empty

    @property
    def rtrick(self) -> RoundTrick:
        assert isinstance(self.trick, RoundTrick)
        return self.trick

    # -- the rules of play, overridable by SubRosa ---------------------------------------------
    def play_rule(self) -> PlayRule:
        return PlayRule.NORMAL

    def special_suit(self) -> Suit | None:
        return None

    def top_rank(self) -> Rank | None:
        return None

    def change_allowed(self) -> bool:
        return True

    def otvoreno_allowed(self) -> bool:
        return bool(getattr(self.game.options, "otvoreno", True))

    def card_values(self) -> tuple[bool, bool]:
        """(sevens count 5, tens count 10): SubRosa's Prevrat values."""
        return False, False

    def winner_index(self, trick: Trick) -> int:
        raise AssertionError("Ružička tricks are decided round by round")

    def pile(self, trick: RoundTrick) -> Pile:
        """What decides an overtake on ``trick``'s pile under the rules in force now."""
        assert trick.top is not None and trick.lead_suit is not None
        return Pile(
            trick.top, trick.lead_suit, self.joker, self.play_rule(), self.special_suit(),
            self.top_rank(),
        )  # fmt: skip

    def beats(self, card: Card, trick: RoundTrick) -> bool:
        return self.pile(trick).overtaken_by(card)

    def in_fight(self, seat: int, trick: RoundTrick) -> bool:
        """May ``seat`` put a card on ``trick``'s pile at all (not out of the fight for this
        trick, no Brejk, not passive)?"""
        return seat not in trick.out and trick.brejk is None and not self.is_passive(seat)

    def can_overtake(self, seat: int, card: Card) -> bool:
        """May ``card`` of ``seat`` go on the pile now (in the fight, no Brejk, not passive)?"""
        trick = self.rtrick
        if trick.top is None:
            return True
        return self.in_fight(seat, trick) and self.beats(card, trick)

    def is_passive(self, seat: int) -> bool:
        """§9.10: the partner of the player who opened his hand plays passively."""
        return self.opened is not None and seat == self.seat(self.opened.seat).partner().index

    def is_b(self, trick: RoundTrick, seat: int) -> bool:
        """Positions II and IV of the trick (the side opposite the leader)."""
        return self.seat(seat).side != self.seat(trick.leader).side

    def seat_at(self, trick: RoundTrick, pos: int) -> int:
        return self.seat(trick.leader).offset(pos).index

    def fighters_left(self, trick: RoundTrick, start: int) -> bool:
        """Is a seat still to act in this round (from ``start``) in the fight, other than owner?"""
        for pos in range(start, self.players):
            seat = self.seat_at(trick, pos)
            if seat not in trick.out and seat != trick.owner:
                return True
        return False

    def knock_ends(self) -> bool:
        trick = self.rtrick
        return not trick.round.confirmed and not self.fighters_left(trick, trick.pos + 1)

    def change_open(self, seat: int) -> bool:
        trick = self.rtrick
        return (
            self.changer is None
            and self.change_allowed()
            and trick.number == 1
            and len(trick.rounds) == 1
            and seat == self.to_act
            and not self.pending
        )

    # -- validation ----------------------------------------------------------------------------
    def _validate(self, action: Action) -> None:
        seat = action.seat
        if not 0 <= seat < self.players:
            raise R_SEAT_DOES_EXIST_PLAYERS.error(action=action, seat=seat, players=self.players)
        if self.phase is not Phase.PLAY or self.trick is None:
            raise R_NOTHING_CAN_PLAYED_NOW.error(action=action, phase=self.phase.value)
        action = self._as_reveal(action)
        kind = action.type
        if self.pending and kind is not ActionType.REVEAL:
            raise R_FIRST_FACE_DOWN_CARD.error(action=action, pending=self.pending[0])
        if kind in (ActionType.PLAY, ActionType.BREAK):
            self._validate_play(action)
        elif kind is ActionType.OFFER:
            self._validate_turn(action)
            if self.rtrick.round.confirmed:
                raise R_CARD_OFFERED_FACE_DOWN.error(action=action)
            if action.card is not None:
                self._validate_card(seat, action.card, action)
        elif kind is ActionType.KNOCK:
            self._validate_turn(action)
            if not self.knock_ends():
                raise R_KNOCK_ALLOWED_WHEN_IT.error(action=action)
        elif kind is ActionType.SHOW:
            self._validate_show(action)
        elif kind is ActionType.OPEN:
            self._validate_open(action)
        elif kind is ActionType.REVEAL:
            if seat not in self.pending:
                raise R_SEAT_HAS_FACE_DOWN.error(action=action, seat=seat)
            if action.card is None:
                raise R_NAME_CARD_TURNED_UP.error(action=action)
            self._validate_card(seat, action.card, action, in_hand=False)
            if self.hands is not None and action.card not in self.hands[seat]:
                raise R_SEAT_HAND.error(action=action, card=action.card, seat=seat)
        else:
            self._validate_extra(action)

    def _validate_extra(self, action: Action) -> None:
        raise R_ACTION.error(action=action, type=action.type.value, game=self.game.name)

    def _validate_turn(self, action: Action) -> None:
        if action.seat != self.to_act:
            raise R_OUT_TURN_SEAT_PLAY.error(action=action, to_act=self.to_act, rule="out-of-turn")

    def _validate_card(
        self, seat: int, card: Card, action: Action, *, in_hand: bool = True
    ) -> None:
        deck = self._deck.card_set
        if card not in deck and card.logical not in deck:  # QC#1 in doubled
            raise R_DECK.error(action=action, card=card, deck=self.game.deck.value)
        if card in self.played:
            raise R_WAS_ALREADY_PLAYED_THIS.error(
                action=action, card=card, rule="card-played-twice"
            )
        if card in self.offered.values() and self.offered.get(seat) != card:
            raise R_LIES_FACE_DOWN_FRONT.error(action=action, card=card)
        if self.hands is not None and card not in self.hands[seat]:
            if not in_hand:  # a card shown: the claim is checked (and proven false) when applied
                if self.mode.value == "strict":
                    raise R_SEAT_DOES_HOLD.error(
                        IllegalPlay, action=action, seat=seat, card=card, rule="false-show"
                    )
                return
            raise R_SEAT_PLAYS_THAT_CARD.error(seat=seat, card=card)
        if self.opened is not None:
            if self.opened.seat != seat and card in self.opened.cards:
                raise R_LIES_OPEN_FRONT_SEAT.error(action=action, card=card, seat=self.opened.seat)
            if self.opened.seat == seat and card not in self.opened.cards:
                raise R_AMONG_CARDS_SEAT_LAID.error(action=action, card=card, seat=seat)
        if in_hand and self.counts[seat] <= 0:
            raise R_SEAT_HAS_CARD_LEFT.error(action=action, seat=seat)

    def _validate_play(self, action: Action) -> None:
        self._validate_turn(action)
        card = action.card
        if card is None:
            raise R_PLAY_NEEDS_CARD.error(action=action)
        if action.value not in PLAY_VALUES:
            raise R_PLAY_OVERTAKE_ON_PILE.error(action=action)
        self._validate_card(action.seat, card, action)
        trick = self.rtrick
        if trick.top is None and action.value == "discard":
            raise R_LEAD_TRICK_GOES_ON.error(action=action)
        if action.type is ActionType.BREAK:
            owner = trick.owner
            if (
                trick.top is None
                or not self.can_overtake(action.seat, card)
                or not self.is_b(trick, action.seat)
                or owner is None
                or owner != self.seat(action.seat).partner().index
            ):
                raise R_BREJK_II_IV_SEAT.error(action=action)

    def _validate_show(self, action: Action) -> None:
        if (action.value or JOKER_JACK) not in (JOKER_JACK, "jack"):
            self._validate_extra(action)
            return
        card = action.card
        if card is None or card.rank is not Rank.JACK:
            raise R_JOKER_SUIT_CHANGED_BY.error(action=action)
        if not self.change_open(action.seat):
            kind = R_JOKER_CHANGE_ONCE if self.change_allowed() else R_JOKER_CHANGE_NOT_HERE
            raise kind.error(action=action)
        self._validate_card(action.seat, card, action, in_hand=False)

    def _validate_open(self, action: Action) -> None:
        seat = action.seat
        if not self.otvoreno_allowed():
            raise R_OTVORENO_PLAYED_AT_THIS.error(action=action)
        if self.opened is not None:
            raise R_SEAT_ALREADY_OPENED.error(action=action, seat=self.opened.seat)
        if seat in self.offered:
            raise R_SEAT_HAS_CARD_FACE.error(action=action, seat=seat)
        if self.counts[seat] < 3:
            raise R_OTVORENO_NEEDS_AT_LEAST.error(action=action)
        if len(action.cards) != self.counts[seat] or len(set(action.cards)) != len(action.cards):
            raise R_LAY_DOWN_ALL_CARDS.error(action=action, counts=self.counts[seat])
        for card in action.cards:
            self._validate_card(seat, card, action)

    # -- applying ------------------------------------------------------------------------------
    def _as_reveal(self, action: Action) -> Action:
        """The camera sees a turned-up offer as a card beside the pile: a reveal, not a play."""
        if (
            self.pending
            and action.type is ActionType.PLAY
            and action.seat in self.pending
            and action.value in (None, "discard")
        ):
            return Action(action.seat, ActionType.REVEAL, action.card)
        return action

    def _apply(self, action: Action) -> list[Event]:
        action = self._as_reveal(action)
        kind = action.type
        if kind in (ActionType.PLAY, ActionType.BREAK):
            assert action.card is not None
            return self._play(action.seat, action.card, action.value)
        events: list[Event] = [ActionRecorded(action.seat, kind.value, action.value, action.cards)]
        if kind is ActionType.OFFER:
            self._offer(action.seat, action.card)
            events.extend(self._advance())
        elif kind is ActionType.KNOCK:
            self.rtrick.round.plays.append(RoundPlay(action.seat, None, Kind.KNOCK))
            events.extend(self._advance())
        elif kind is ActionType.SHOW and (action.value or JOKER_JACK) in (JOKER_JACK, "jack"):
            assert action.card is not None
            events.extend(self._change_joker(action.seat, action.card))
        elif kind is ActionType.OPEN:
            self.opened = Opened(action.seat, tuple(action.cards), self.rtrick.number)
            events.append(Notice.of(OPENS(seat=action.seat, count=len(action.cards)), action.seat))
        elif kind is ActionType.REVEAL:
            assert action.card is not None
            events.extend(self._reveal(action.seat, action.card))
        else:
            events.extend(self._apply_extra(action))
        return events

    def _apply_extra(self, action: Action) -> list[Event]:
        raise AssertionError("validated")

    def _take(self, seat: int, card: Card) -> None:
        if self.hands is not None:
            self.hands[seat].discard(card)

    def _public(self, seat: int, card: Card, events: list[Event]) -> None:
        """``card`` of ``seat`` is now face up on the table: record it and test the claims."""
        trick = self.rtrick
        self.played.add(card)
        self.played_by[seat].add(card)
        trick.plays.append((seat, card))
        self.ply += 1
        for claim in self.claims:
            if claim.proven or claim.seat == seat or card not in claim.cards:
                continue
            said = SHOWN_PLAYED_ELSEWHERE(trick=claim.trick, seat=claim.seat, card=card,
                                          proven=trick.number, other=seat, what=claim.what)  # fmt: skip
            self._prove(claim, card, said, events)
        if self.counts[seat] == 0 and seat not in self.offered:
            for claim in self.claims:
                missing = [c for c in claim.cards if c not in self.played_by[seat]]
                if claim.proven or claim.seat != seat or not missing:
                    continue
                said = SHOWN_NEVER_PLAYED(trick=claim.trick, seat=seat, card=missing[0],
                                          what=claim.what)  # fmt: skip
                self._prove(claim, missing[0], said, events)

    def _prove(self, claim: Claim, card: Card, said: Said, events: list[Event]) -> None:
        claim.proven = True
        violation = Violation.of(
            said, seat=claim.seat, rule=claim.rule, trick=claim.trick, card=card, witness=card,
            proven_at_trick=self.rtrick.number,
        )  # fmt: skip
        self.proven.append(violation)
        self.falls.append((self.game.side_of(claim.seat), claim.fall, claim.rule))
        events.append(ViolationProven(violation))
        self._violate(violation)

    def _claim(self, claim: Claim, events: list[Event]) -> None:
        """Record shown cards; a known hand that lacks one proves the claim false at once."""
        self.claims.append(claim)
        if self.hands is None:
            return
        for card in claim.cards:
            if card not in self.hands[claim.seat]:
                if self.mode.value == "strict":
                    raise R_SEAT_SHOWS_BUT_DOES.error(
                        IllegalPlay, seat=claim.seat, card=card, rule=claim.rule
                    )
                self._prove(claim, card, SHOWN_LACKING(seat=claim.seat, card=card), events)
                return

    def _play(self, seat: int, card: Card, value: str | None) -> list[Event]:
        trick = self.rtrick
        rnd = trick.round
        events: list[Event] = []
        if trick.top is None:
            kind = Kind.LEAD
        elif value != "discard" and self.can_overtake(seat, card):
            kind = Kind.OVERTAKE
        else:
            kind = Kind.DISCARD
            if value == "overtake":
                events.append(Notice.of(NOT_OVERTAKING(card=card, seat=seat)))
        if kind is Kind.DISCARD and not rnd.confirmed:
            # a face-up pass before anybody overtook in this round: an offer seen face up
            self._offer(seat, card)
            events.append(ActionRecorded(seat, ActionType.OFFER.value, "face-up", (card,)))
            events.extend(self._advance())
            return events
        self._take(seat, card)
        self.counts[seat] -= 1
        rnd.plays.append(RoundPlay(seat, card, kind))
        events.append(CardPlayed(seat, card, trick.number, kind.value))
        self._public(seat, card, events)
        if kind is Kind.DISCARD:
            trick.out.add(seat)
        else:
            previous = trick.owner
            trick.top, trick.owner = card, seat
            if kind is Kind.OVERTAKE and self.is_b(trick, seat):
                trick.b_overtook = True
                if previous == self.seat(seat).partner().index and trick.brejk is None:
                    trick.brejk = seat
                    events.append(Notice.of(BREJK(seat=seat, trick=trick.number), seat))
            if not rnd.confirmed:
                events.extend(self._confirm(trick))
        events.extend(self._advance())
        return events

    def _offer(self, seat: int, card: Card | None) -> None:
        if card is not None:
            self._take(seat, card)
        self.counts[seat] -= 1
        self.offered[seat] = card
        self.rtrick.round.plays.append(RoundPlay(seat, card, Kind.OFFER))

    def _confirm(self, trick: RoundTrick) -> list[Event]:
        """The first overtake of a round turns every offer of the round up as a discard."""
        events: list[Event] = []
        trick.round.confirmed = True
        for p in trick.round.plays:
            if p.kind is not Kind.OFFER:
                continue
            p.kind = Kind.DISCARD
            trick.out.add(p.seat)
            del self.offered[p.seat]
            if p.card is None:
                self.pending.append(p.seat)
            else:
                events.append(CardPlayed(p.seat, p.card, trick.number, "discard"))
                self._public(p.seat, p.card, events)
        return events

    def _reveal(self, seat: int, card: Card) -> list[Event]:
        trick = self.rtrick
        events: list[Event] = []
        for p in trick.round.plays:
            if p.seat == seat and p.kind is Kind.DISCARD and p.card is None:
                p.card = card
                break
        self._take(seat, card)
        self.pending.remove(seat)
        events.append(CardPlayed(seat, card, trick.number, "discard"))
        self._public(seat, card, events)
        if not self.pending and self.deferred:
            self.deferred = False
            events.extend(self._advance())
        return events

    def _change_joker(self, seat: int, jack: Card) -> list[Event]:
        """§9.9: the shown Jack's suit is the joker suit for the deal (J♥: Egalite)."""
        trick = self.rtrick
        events: list[Event] = []
        old = self.joker
        self.joker = None if jack.suit is Suit.HEARTS else jack.suit
        self.changer = seat
        self._claim(Claim(seat, (jack,), "false-show", JACK_CLAIM(), 1, FALL), events)
        lead = trick.lead_suit
        if lead is not None and old is not None and lead is not old:
            # AMBIGUITY 25 (a): old joker-suit overtakes stop counting; their seats stay in the
            # fight (and a II/IV one still forces another round); the top is recomputed
            for p in trick.round.plays:
                if p.kind is Kind.OVERTAKE and p.card is not None and p.card.suit is old:
                    p.void = True
            valid = [p for p in trick.round.plays if p.kind in (Kind.LEAD, Kind.OVERTAKE)]
            last = [p for p in valid if not p.void][-1]
            trick.top, trick.owner = last.card, last.seat
        if self.joker is None:
            events.append(Notice.of(SHOWS_EGALITE(seat=seat, card=jack), seat))
        else:
            events.append(Notice.of(SHOWS_JACK(seat=seat, card=jack, suit=self.joker.symbol), seat))
        return events

    def _advance(self) -> list[Event]:
        """Move to the next position of the round; end the round or the trick when due."""
        if self.pending:
            self.deferred = True
            self.to_act = self.pending[0]
            return [TurnChanged(self.pending[0])]
        trick = self.rtrick
        trick.pos += 1
        if not trick.round.confirmed and not self.fighters_left(trick, trick.pos):
            return self._end_trick(trick, trick.owner, provisional=True)
        if trick.pos >= self.players:
            return self._end_round(trick)
        self.to_act = self.seat_at(trick, trick.pos)
        return [TurnChanged(self.to_act)]

    def _end_round(self, trick: RoundTrick) -> list[Event]:
        if trick.brejk is not None:
            return self._end_trick(trick, trick.brejk)
        if trick.b_overtook and self.counts[trick.leader] > 0:
            # §9.7: an opponent overtook, so every one who overtook gets another chance
            trick.rounds.append(Round(confirmed=False))
            trick.pos, trick.b_overtook = 0, False
            if not self.fighters_left(trick, 0):
                trick.rounds.pop()
                return self._end_trick(trick, trick.owner)
            self.to_act = trick.leader
            return [TurnChanged(trick.leader)]
        return self._end_trick(trick, trick.owner)

    def _end_trick(
        self, trick: RoundTrick, winner: int | None, *, provisional: bool = False
    ) -> list[Event]:
        assert winner is not None
        if provisional:
            for p in trick.round.plays:
                if p.kind is Kind.OFFER:
                    p.kind = Kind.RETURNED
                    self.counts[p.seat] += 1
                    if p.card is not None and self.hands is not None:
                        self.hands[p.seat].add(p.card)
            self.offered.clear()
        trick.winner = winner
        self.tricks.append(trick)
        self.taken[winner].extend(trick.cards)
        events: list[Event] = [
            TrickWon(
                trick.number, trick.leader, winner, tuple(trick.plays),
                sum(self.game.card_points(c) for c in trick.cards),
            )
        ]  # fmt: skip
        if self.opened is not None and winner != self.opened.seat:
            events.extend(self._open_fails(trick))
            return events
        if all(n == 0 for n in self.counts.values()):
            events.extend(self._finish(self._final_result()))
            return events
        self.trick = RoundTrick(trick.number + 1, winner, rounds=[Round()])
        self.to_act = winner
        events.append(TurnChanged(winner))
        return events

    def _open_fails(self, trick: RoundTrick) -> list[Event]:
        """AMBIGUITY 27 (e): the deal ends; every card from the opening on goes to the opponents."""
        assert self.opened is not None
        self.open_failed = True
        opener = self.opened.seat
        receiver = self.seat(opener).next().index
        for t in self.tricks:
            if t.number >= self.opened.trick and t.winner is not None and t.winner != receiver:
                for card in t.cards:
                    self.taken[t.winner].remove(card)
                self.taken[receiver].extend(t.cards)
        rest = sorted(c for c in self.game.deck.cards if c not in self.played)
        self.taken[receiver].extend(rest)
        said = OPEN_FAILS(seat=opener, trick=trick.number, left=len(rest))
        return [Notice.of(said, opener), *self._finish(self._final_result())]

    def _finish(self, result: DealResult) -> list[Event]:
        if any(t is self.trick for t in self.tricks):
            self.trick = None  # the last trick is complete: nothing stays on the table
        return super()._finish(result)

    # -- queries -------------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        if self.phase is not Phase.PLAY or self.to_act is None or self.trick is None:
            return []
        if self.hands is None:
            raise R_LEGAL_ACTIONS_NEED_KNOWN.error()
        if self.pending:
            seat = self.pending[0]
            return [
                Action.kept(seat, ActionType.REVEAL, c)
                for c in sorted(self.hands[seat], key=card_order)
            ]
        seat, trick = self.to_act, self.rtrick
        hand = sorted(self.hands[seat], key=card_order)
        out: list[Action] = []
        if self.change_open(seat):
            out += [
                Action.kept(seat, ActionType.SHOW, c, value=JOKER_JACK)
                for c in hand
                if c.rank is Rank.JACK
            ]
        if (
            self.otvoreno_allowed()
            and self.opened is None
            and self.counts[seat] >= 3
            and seat not in self.offered
        ):
            out.append(Action(seat, ActionType.OPEN, cards=tuple(hand)))
        out += self._extra_legal(seat)
        confirmed = trick.round.confirmed
        # ``can_overtake`` for every card of the hand: the pile's facts are worked out once
        pile = self.pile(trick) if trick.top is not None and self.in_fight(seat, trick) else None
        for card in hand:
            if trick.top is None:
                out.append(Action.kept(seat, ActionType.PLAY, card))
                continue
            if pile is not None and pile.overtaken_by(card):
                out.append(Action.kept(seat, ActionType.PLAY, card, value="overtake"))
            if confirmed:
                out.append(Action.kept(seat, ActionType.PLAY, card, value="discard"))
            else:
                out.append(Action.kept(seat, ActionType.OFFER, card))
        if not confirmed and self.knock_ends():
            out.append(Action.kept(seat, ActionType.KNOCK))
        return out

    def _extra_legal(self, seat: int) -> list[Action]:
        return []

    # -- scores --------------------------------------------------------------------------------
    def _penalty(self, violation: Violation) -> DealResult:
        return self._final_result()

    def _stops_on_violation(self, violation: Violation) -> bool:
        return False

    def side_cards(self, side: str) -> list[Card]:
        return [c for s, cards in self.taken.items() if self.game.side_of(s) == side for c in cards]

    def settlement(self) -> Settlement:
        sevens, tens = self.card_values()
        if self.open_failed:
            assert self.opened is not None
            last = other_side(self.game.side_of(self.opened.seat))
        else:
            last = self.game.side_of(self.tricks[-1].winner or 0)
        tallies: dict[str, Tally] = {}
        for side in self.game.sides:
            cards = self.side_cards(side)
            tallies[side] = Tally(
                card_points(cards, sevens=sevens, tens=tens), len(cards) // 4, side == last
            )
        total = len(self.game.deck.cards)
        # a forfeit after a failed Otvoreno is not a sweep: the opener's side has no penalty
        sweep = next(
            (
                s
                for s in self.game.sides
                if len(self.side_cards(s)) == total and not self.open_failed
            ),
            None,
        )
        changer = self.game.side_of(self.changer) if self.changer is not None else None
        result = Settlement(tallies, sweep=sweep, changer=changer, egalite=self.joker is None)
        if self.opened is not None and not self.open_failed:
            n = len(self.opened.cards)
            result.bonus(self.game.side_of(self.opened.seat), OPEN_BONUS[n], OPEN_KEPT(count=n))
        for side, value, rule in self.falls:
            result.fall(side, value, RULE_NAMED(rule=rule))
        return result

    def _final_result(self) -> DealResult:
        settlement = self.settlement()
        self._settle_extra(settlement)
        scores, said = settlement.settle()
        play = {s: t.play for s, t in settlement.tallies.items()}
        return DealResult.of(scores, said, tuple(self.proven), extra={"play_points": play})

    def _settle_extra(self, settlement: Settlement) -> None:
        """SubRosa: declarations."""

    def _snapshot_game(self) -> dict[str, Any]:
        return {
            "joker_suit": self.joker.value if self.joker is not None else None,
            "egalite": self.changer is not None and self.joker is None,
            "changer": self.changer,
            "opened": (
                {
                    "seat": self.opened.seat,
                    "cards": [c.code for c in self.opened.cards],
                    "trick": self.opened.trick,
                    "failed": self.open_failed,
                }
                if self.opened is not None
                else None
            ),  # fmt: skip
            "offers": sorted(self.offered),
            "pending_reveal": list(self.pending),
            "cards_in_hand": {str(s): n for s, n in self.counts.items()},
            "play_rule": self.play_rule().value,
        }
