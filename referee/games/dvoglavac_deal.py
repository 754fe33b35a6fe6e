"""The deal of Dvoglavac (RULES.md §15): the Stara procedure, solos, kontra, 12 tricks, the Bank.

Actions besides plays:

- ``PASS`` ("Dalje"): a player without a Stara passes the first lead on (§15.4).
- ``ANNOUNCE`` before one's own card of trick 1: ``solo``, ``solo-<suit>``, ``podsolo``,
  ``podsolo-<suit>``; or ``first-trick`` ("Igram sa prvim štihom") by a leader with both Staras.
- ``KONTRA`` ``kontra`` by an opponent of an announced solo before his card of trick 2,
  ``rekontra`` by the soloist before his card of trick 3.

The referee learns the partnership from the cards, as the players do: the first lead claims a
Stara, the winner of trick 1 is the presumed partner, and every Q♣ played shows its holder. A
``Notice`` says what is known. Claims the cards later contradict (a false "Dalje", a lead
without a Stara, a second Stara that let trick 1 go) are proven by the Q♣ and annul the deal.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from referee.actions import Action, ActionType
from referee.cards import Card, Rank, Suit
from referee.deal import DealResult
from referee.errors import IllegalPlay
from referee.events import ActionRecorded, Event, Notice, Violation
from referee.games.dvoglavac_rules import (
    ANNOUNCEMENTS,
    STARA,
    TRUMP,
    Kind,
    Scheme,
    beats,
    duties,
    pair_scores,
    parse_announcement,
    solo_scores,
    winner_index,
)
from referee.setup import FieldKind, SetupField
from referee.trick import NO_LED, NO_LED_NO_TRUMP, Trick, TrickDeal
from referee.wording import Said, detail, evidence, notice, part, refusal

NO_STARA = part(
    "dvoglavac.no_stara", "trick 1: no Stara (the second Stara must win the first trick)"
)
BOTH_IN_ONE = notice(
    "dvoglavac.both_in_one", "both Staras in one hand: the winner of trick 1 is the partner"
)
ALONE = notice("dvoglavac.alone", "seat {seat} plays {label} ({suit} trump) alone against three")
SHOWN_BY_CARDS = notice("dvoglavac.shown_by_cards", "{what} (shown by the cards)")
HELD_BOTH = part("dvoglavac.held_both", "seat {seat} held both Staras")
STARAS_ARE = part("dvoglavac.staras_are", "the Staras are seats {seat} and {other}")
FIRST_PARTNER = notice(
    "dvoglavac.first_partner", "seat {seat} is seat {other}'s partner (first trick)"
)
FIRST_ALONE = notice("dvoglavac.first_alone", "seat {seat} won the first trick and plays alone")
PARTNERS = notice("dvoglavac.partners", "partners by the first trick: seats {seat} and {other}")
HIDDEN_SOLO = notice(
    "dvoglavac.hidden_solo",
    "seat {seat} won the first trick: a Prikriveni Solo, unless a Stara missed the trick",
)
SOLO_BY = part("dvoglavac.solo_by", "{label} by seat {seat} x{times}")
PAIR = part("dvoglavac.pair", "pair {seat}+{other}")
TOOK_PASS = detail("dvoglavac.took_pass", "{head} took {points} in {tricks} tricks: pass")
TOOK_FALL = detail("dvoglavac.took_fall", "{head} took {points} in {tricks} tricks: fall")
STOPPED = detail("dvoglavac.stopped", "{rule} by seat {seat}: deal stopped and scored as {scored}")
ANNULLED = detail(
    "dvoglavac.annulled",
    "{rule} by seat {seat}: deal annulled, all points to the opponents of seats {seats} "
    "(15 each from the Bank)",
)
CLAIMS = {
    "false-dalje": evidence(
        "dvoglavac.dalje_known", "seat {seat} said 'Dalje' while holding a Stara (known hand)"
    ),
    "false-stara-lead": evidence(
        "dvoglavac.stara_lead_known", "seat {seat} led trick 1 without holding a Stara (known hand)"
    ),
    "false-first-trick": evidence(
        "dvoglavac.first_trick_known",
        "seat {seat} said 'Igram sa prvim štihom' without both Staras (known hand)",
    ),
}
DALJE_STARA = evidence(
    "dvoglavac.dalje_stara",
    "seat {seat} said 'Dalje' at the first lead and played {card} at trick {proven}: it held a Stara",
)
BOTH_STARAS = evidence(
    "dvoglavac.both_staras",
    "seat {seat} claimed both Staras; seat {other} played {card} at trick {proven}",
)
STARA_LEAD_FALSE = evidence(
    "dvoglavac.stara_lead_false",
    "seat {seat} led trick 1, claiming a Stara; both Q♣ were played by seats {seats}",
)
STARA_LEAD = evidence(
    "dvoglavac.stara_lead",
    "seat {seat} led {card} in the Stara procedure: leading claims a Stara, which is a trump, "
    "so a trump was due",
)

R_NOTHING_CAN_SAID_NOW = refusal(
    "dvoglavac.nothing_can_said_now", "{action}: nothing can be said now"
)
R_OUT_TURN_SEAT_ACT = refusal(
    "dvoglavac.out_turn_seat_act", "{action}: out of turn, seat {to_act} is to act"
)
R_COMPULSORY_SOLO_SEAT_MUST = refusal(
    "dvoglavac.compulsory_solo_seat_must",
    "{action}: compulsory solo — seat {dealer} must announce a Solo",
)
R_DALJE_PASSES_FIRST_LEAD = refusal(
    "dvoglavac.dalje_passes_first_lead", "{action}: 'Dalje' passes the first lead only"
)
R_THREE_SAID_DALJE_SEAT = refusal(
    "dvoglavac.three_said_dalje_seat", "{action}: three said 'Dalje': seat {seat} must lead"
)
R_FALSE_DALJE_SEAT_HOLDS = refusal(
    "dvoglavac.false_dalje_seat_holds", "{action}: false-dalje — seat {seat} holds a Stara"
)
R_ANNOUNCEMENTS_MADE_FIRST_ROUND = refusal(
    "dvoglavac.announcements_made_first_round",
    "{action}: announcements are made in the first round only, and the first one stands",
)
R_COMPULSORY_SOLO_SOLO_PODSOLO = refusal(
    "dvoglavac.compulsory_solo_solo_podsolo", "{action}: compulsory solo — a Solo, not a Podsolo"
)
R_ANNOUNCED_SOLO_PODSOLO_CAN = refusal(
    "dvoglavac.announced_solo_podsolo_can",
    "{action}: only an announced Solo or Podsolo can be doubled",
)
R_KONTRA_REKONTRA = refusal("dvoglavac.kontra_rekontra", "{action}: kontra or rekontra")
R_OPPONENT_GIVES_KONTRA_WITH = refusal(
    "dvoglavac.opponent_gives_kontra_with", "{action}: an opponent gives kontra with his 2nd card"
)
R_ANNOUNCE_SOLO_SUIT_PODSOLO = refusal(
    "dvoglavac.announce_solo_suit_podsolo",
    "{action}: announce solo[-suit], podsolo[-suit] or first-trick",
)
R_IGRAM_SA_PRVIM_TIHOM = refusal(
    "dvoglavac.first_trick_said_late", "{action}: 'Igram sa prvim štihom' is said with the lead"
)
R_SEAT_DOES_HOLD_BOTH = refusal(
    "dvoglavac.seat_does_hold_both", "{action}: seat {seat} does not hold both Staras"
)
R_SOLOIST_GIVES_REKONTRA_WITH = refusal(
    "dvoglavac.soloist_gives_rekontra_with",
    "{action}: the soloist gives rekontra with his 3rd card",
)

#: rules of the Stara procedure; a proven breach annuls the deal (§15.4, AMBIGUITY 76)
STARA_RULES = frozenset(
    {"second-stara", "false-dalje", "false-stara-lead", "false-first-trick", "first-lead-trump",
     "first-lead-stara"}
)  # fmt: skip


def _is_stara(card: Card) -> bool:
    return card.rank is Rank.QUEEN and card.suit is Suit.CLUBS


class DvoglavacDeal(TrickDeal):
    """One deal of Dvoglavac; see the module docstring."""

    setup_fields: ClassVar[Mapping[str, SetupField]] = {
        "compulsory": SetupField(FieldKind.FLAG),
    }

    tricks_per_deal = 12
    duty_priority: tuple[str, ...] = (
        "follow-suit",
        "must-overtake",
        "must-trump",
        "must-overtrump",
    )

    # -- state ---------------------------------------------------------------------------------
    def _reset_game(self) -> None:
        self._winners: dict[tuple[Scheme, tuple[Card, ...]], Card] = {}
        self.kind = Kind.NORMAL
        self.scheme = Scheme()
        self.soloist: int | None = None
        self.first_trick_by: int | None = None
        self.multiplier = 1
        self.kontra_by: int | None = None
        self.dalje: list[int] = []
        self.calls: list[str] = []
        self.stara_holders: dict[Card, int] = {}
        self.known: str = ""
        self.compulsory = bool(self.setup.get("compulsory", False))
        #: the scheme in force for each play (trick number, position): cards stay legal (AMB. 78)
        self.scheme_at: dict[tuple[int, int], Scheme] = {}
        self._suspecting = False
        self.start_play(self.forehand)

    @property
    def opening(self) -> bool:
        """Before the first lead: players pass ("Dalje") until one with a Stara leads."""
        return not self.tricks and self.trick is not None and not self.trick.plays

    @property
    def leader(self) -> int | None:
        if self.tricks:
            return self.tricks[0].leader
        if self.trick is not None and self.trick.plays:
            return self.trick.leader
        return None

    @property
    def stara_procedure(self) -> bool:
        return self.kind in (Kind.NORMAL, Kind.FIRST_TRICK)

    def _holds(self, seat: int, card: Card) -> bool:
        return self.hands is not None and card in self.hands[seat]

    def _stara_count(self, seat: int) -> int:
        return sum(1 for c in STARA if self._holds(seat, c))

    # -- spoken actions ------------------------------------------------------------------------
    def _validate_other(self, action: Action) -> None:
        seat, kind = action.seat, action.type
        if self.trick is None or self.tricks_over():
            raise R_NOTHING_CAN_SAID_NOW.error(action=action)
        if seat != self.to_act:
            raise R_OUT_TURN_SEAT_ACT.error(action=action, to_act=self.to_act)
        number = self.trick.number
        if kind is ActionType.PASS:
            if not self.opening or not self.stara_procedure:
                raise R_DALJE_PASSES_FIRST_LEAD.error(action=action)
            if len(self.dalje) == 3:
                raise R_THREE_SAID_DALJE_SEAT.error(action=action, seat=seat)
            self._check_compulsory(action)
            if self.mode.value == "strict" and self._stara_count(seat):
                raise R_FALSE_DALJE_SEAT_HOLDS.error(IllegalPlay, action=action, seat=seat, rule="false-dalje")  # fmt: skip
            return
        if kind is ActionType.ANNOUNCE:
            try:
                what, _ = parse_announcement(action.value or "")
            except ValueError:
                raise R_ANNOUNCE_SOLO_SUIT_PODSOLO.error(action=action) from None
            if number != 1 or not self.stara_procedure:
                raise R_ANNOUNCEMENTS_MADE_FIRST_ROUND.error(action=action)  # fmt: skip
            if what is Kind.PODSOLO and self.compulsory and seat == self.dealer:
                raise R_COMPULSORY_SOLO_SOLO_PODSOLO.error(action=action, rule="compulsory-solo")  # fmt: skip
            if what is Kind.FIRST_TRICK:
                if not self.opening or self.kind is Kind.FIRST_TRICK:
                    raise R_IGRAM_SA_PRVIM_TIHOM.error(action=action)
                if self.hands is not None and self._stara_count(seat) < 2:
                    raise R_SEAT_DOES_HOLD_BOTH.error(action=action, seat=seat)
                self._check_compulsory(action)
            return
        if kind is ActionType.KONTRA:
            if self.kind not in (Kind.SOLO, Kind.PODSOLO):
                raise R_ANNOUNCED_SOLO_PODSOLO_CAN.error(action=action)
            if action.value == "rekontra":
                if number != 3 or seat != self.soloist or self.multiplier != 2:
                    raise R_SOLOIST_GIVES_REKONTRA_WITH.error(action=action)
                return
            if (action.value or "kontra") != "kontra":
                raise R_KONTRA_REKONTRA.error(action=action)
            if number != 2 or seat == self.soloist or self.multiplier != 1:
                raise R_OPPONENT_GIVES_KONTRA_WITH.error(action=action)
            return
        super()._validate_other(action)

    def tricks_over(self) -> bool:
        return len(self.tricks) >= self.tricks_per_deal

    def _check_compulsory(self, action: Action) -> None:
        """Prisiljeni Solo: the dealer must announce a Solo if nobody before him did."""
        if self.compulsory and action.seat == self.dealer and self.stara_procedure:
            raise R_COMPULSORY_SOLO_SEAT_MUST.error(
                action=action, dealer=self.dealer, rule="compulsory-solo"
            )

    def _apply_other(self, action: Action) -> list[Event]:
        seat = action.seat
        events: list[Event] = [ActionRecorded(seat, action.type.value, action.value)]
        assert self.trick is not None
        if action.type is ActionType.PASS:
            self.dalje.append(seat)
            self.calls.append(f"{seat}: Dalje")
            nxt = self.seat(seat).next().index
            self.trick.leader = nxt
            self.to_act = nxt
            if self.hands is not None and self._stara_count(seat):
                events.extend(self._prove(self._claim_violation(seat, "false-dalje", None)))
            return events
        if action.type is ActionType.KONTRA:
            self.multiplier = 2 if action.value != "rekontra" else 4
            self.kontra_by = seat if action.value != "rekontra" else self.kontra_by
            self.calls.append(f"{seat}: {action.value or 'kontra'}")
            return events
        what, named = parse_announcement(action.value or "")
        self.calls.append(f"{seat}: {action.value}")
        if what is Kind.FIRST_TRICK:
            self.kind = Kind.FIRST_TRICK
            self.first_trick_by = seat
            events.append(Notice.of(BOTH_IN_ONE(), seat))
            return events
        self.kind = what
        self.soloist = seat
        self.scheme = Scheme(queens=what is Kind.SOLO, suit=named or Suit.DIAMONDS)
        label = "Solo" if what is Kind.SOLO else "Podsolo"
        said = ALONE(seat=seat, label=label, suit=self.scheme.suit.symbol)
        events.append(Notice.of(said, seat))
        return events

    def _other_legal_actions(self) -> list[Action]:
        seat, trick = self.to_act, self.trick
        if seat is None or trick is None:
            return []
        out: list[Action] = []
        if trick.number == 1 and self.stara_procedure:
            forced = self.compulsory and seat == self.dealer
            out += [Action(seat, ActionType.ANNOUNCE, value=v) for v in ANNOUNCEMENTS
                    if not forced or v.startswith("solo")]  # fmt: skip
            if forced:
                return out
            if self.opening and self.hands is not None:
                staras = self._stara_count(seat)
                if staras == 0 and len(self.dalje) < 3:
                    out.insert(0, Action(seat, ActionType.PASS))
                if staras == 2 and self.kind is Kind.NORMAL:
                    out.append(Action(seat, ActionType.ANNOUNCE, value="first-trick"))
            elif self.opening and len(self.dalje) < 3:
                out.insert(0, Action(seat, ActionType.PASS))
        if self.kind in (Kind.SOLO, Kind.PODSOLO) and seat not in {p for p, _ in trick.plays}:
            if trick.number == 2 and seat != self.soloist and self.multiplier == 1:
                out.append(Action(seat, ActionType.KONTRA, value="kontra"))
            if trick.number == 3 and seat == self.soloist and self.multiplier == 2:
                out.append(Action(seat, ActionType.KONTRA, value="rekontra"))
        return out

    def legal_plays(self) -> list[Card]:
        if self.trick is not None and self.trick.number == 1 and self.to_act is not None:
            if self.compulsory and self.to_act == self.dealer and self.stara_procedure:
                return []
            if self.opening and self.kind is Kind.NORMAL and self.hands is not None:
                if not self._stara_count(self.to_act) and len(self.dalje) < 3:
                    return []  # leading claims a Stara: without one, say "Dalje" or announce
        return super().legal_plays()

    # -- play ----------------------------------------------------------------------------------
    def _validate(self, action: Action) -> None:
        if action.type is ActionType.PLAY and action.seat == self.to_act and self.trick:
            if self.trick.number == 1 and self.compulsory and action.seat == self.dealer:
                if self.stara_procedure:
                    self._check_compulsory(action)
        super()._validate(action)

    def _apply(self, action: Action) -> list[Event]:
        if action.type is ActionType.PLAY and self.trick is not None:
            self.scheme_at[(self.trick.number, len(self.trick.plays))] = self.scheme
        known = self.known_staras
        events = super()._apply(action)
        if self.known_staras != known:
            events.append(Notice.of(SHOWN_BY_CARDS(what=self._staras_said())))
        return events

    def _scheme_for(self, trick: Trick) -> Scheme:
        return self.scheme_at.get((trick.number, len(trick.plays)), self.scheme)

    def winner_index(self, trick: Trick) -> int:
        return winner_index(trick.cards, self.scheme)

    def _current_winner(self, trick: Trick, scheme: Scheme) -> Card | None:
        if not trick.plays:
            return None
        cards = tuple(trick.cards)
        key = (scheme, cards)  # the duties ask this once per pair of cards in a hand: cache it
        winner = self._winners.get(key)
        if winner is None:
            winner = self._winners[key] = cards[winner_index(cards, scheme)]
        return winner

    def duty(self, trick: Trick, seat: int, card: Card, other: Card) -> str | None:
        return self.duties(trick, seat)(card, other)

    def duties(self, trick: Trick, seat: int) -> Callable[[Card, Card], str | None]:
        scheme = self._scheme_for(trick)
        lead = trick.lead
        winner = self._current_winner(trick, scheme)
        stara_round = trick.number == 1 and self.stara_procedure
        second_stara = (  # the second Stara's duty applies to this seat now (§15.4)
            stara_round
            and self.kind is Kind.NORMAL
            and not self._suspecting
            and seat not in self.dalje
            and seat != trick.leader
            and lead is not None
            and not _is_stara(lead)
            and winner is not None
        )
        last = len(trick.plays) >= 3
        plain = duties(lead, winner, scheme)
        if not stara_round:
            return plain  # past the first trick's Stara duties: the plain duties alone

        def judge(card: Card, other: Card) -> str | None:
            if stara_round and lead is None:
                # the first lead claims a Stara: a trump, not the Q♣ (AMB. 75)
                if not scheme.is_trump(card):
                    return "first-lead-trump" if scheme.is_trump(other) else None
                if _is_stara(card) and scheme.is_trump(other) and not _is_stara(other):
                    return "first-lead-stara"
                return None
            if (
                second_stara
                and _is_stara(other)
                and not _is_stara(card)
                and (not last or not beats(card, winner, scheme))  # type: ignore[arg-type]
            ):
                return "second-stara"  # not last: play the Q♣; last: win the trick (§15.4)
            return plain(card, other)

        return judge

    def _suspect(self, trick: Trick, seat: int, card: Card, events: list[Event]) -> None:
        self._suspecting = True  # the second-Stara duty is no suspicion: most seats lack a Q♣
        try:
            super()._suspect(trick, seat, card, events)
        finally:
            self._suspecting = False

    def constraint_text(self, trick: Trick, seat: int, card: Card) -> Said | None:
        scheme = self._scheme_for(trick)
        lead = trick.lead
        if lead is None:
            return None
        led = scheme.eff(lead)
        name = "trump" if led == TRUMP else Suit(led).symbol
        if scheme.eff(card) != led:
            if scheme.is_trump(card):
                return NO_LED(trick=trick.number, led=name)
            return NO_LED_NO_TRUMP(trick=trick.number, led=name)
        if (
            trick.number == 1
            and self.kind is Kind.NORMAL
            and seat not in self.dalje
            and not _is_stara(card)
            and not _is_stara(lead)
        ):
            winner = self._current_winner(trick, scheme)
            if winner is not None and (len(trick.plays) < 3 or not beats(card, winner, scheme)):
                return NO_STARA()
        return None

    def public_witness(self, trick: Trick, seat: int, card: Card) -> tuple[str, Said] | None:
        scheme = self._scheme_for(trick)
        if trick.number == 1 and not trick.plays and self.stara_procedure:
            if not scheme.is_trump(card):
                return ("first-lead-trump", STARA_LEAD(seat=seat, card=card))
        return None

    def _immediate(self, trick: Trick, seat: int, card: Card) -> list[Violation]:
        found = super()._immediate(trick, seat, card)
        if self.hands is not None and trick.number == 1 and not trick.plays:
            if self.kind is Kind.NORMAL and not self._stara_count(seat):
                found.append(self._claim_violation(seat, "false-stara-lead", card))
        if _is_stara(card):
            self.stara_holders[card] = seat
            claim = self._stara_claims(trick, seat, card)
            if claim is not None:
                found.append(claim)
        return found

    # -- what the cards show about the Staras --------------------------------------------------
    def _claim_violation(self, seat: int, rule: str, card: Card | None) -> Violation:
        trick = self.trick.number if self.trick is not None else 1
        return Violation.of(CLAIMS[rule](seat=seat), seat=seat, rule=rule, trick=1, card=card,
                            witness=None, proven_at_trick=trick)  # fmt: skip

    def _prove(self, violation: Violation) -> list[Event]:
        from referee.events import ViolationProven

        self.proven.append(violation)
        self._violate(violation)
        return [ViolationProven(violation), *self._finish(self._penalty(violation))]

    def _stara_claims(self, trick: Trick, seat: int, card: Card) -> Violation | None:
        """A Q♣ played by ``seat`` proves a false claim of the Stara procedure (hidden hands)."""
        if not self.stara_procedure or self.hands is not None:
            return None
        number = trick.number
        if seat in self.dalje:
            return Violation.of(
                DALJE_STARA(seat=seat, card=card, proven=number),
                seat=seat, rule="false-dalje", trick=1, card=None, witness=card,
                proven_at_trick=number,
            )  # fmt: skip
        if self.first_trick_by is not None and seat != self.first_trick_by:
            return Violation.of(
                BOTH_STARAS(seat=self.first_trick_by, other=seat, card=card, proven=number),
                seat=self.first_trick_by, rule="false-first-trick", trick=1, card=None,
                witness=card, proven_at_trick=number,
            )  # fmt: skip
        leader = self.leader if self.leader is not None else trick.leader
        if self.kind is Kind.NORMAL and len(self.stara_holders) == 2:
            if leader not in self.stara_holders.values():
                first = self.tricks[0].plays[0][1] if self.tricks else trick.plays[0][1]
                seats = sorted(set(self.stara_holders.values()))
                return Violation.of(
                    STARA_LEAD_FALSE(seat=leader, seats=str(seats)),
                    seat=leader, rule="false-stara-lead", trick=1, card=first, witness=card,
                    proven_at_trick=number,
                )  # fmt: skip
        return None

    @property
    def known_staras(self) -> str:
        """What the cards have shown about the Staras' holders (empty until both are out)."""
        said = self._staras_said()
        return "" if said is None else said.text

    def _staras_said(self) -> Said | None:
        if len(self.stara_holders) < 2 or not self.stara_procedure:
            return None
        holders = sorted(set(self.stara_holders.values()))
        if len(holders) == 1:
            return HELD_BOTH(seat=holders[0])
        return STARAS_ARE(seat=holders[0], other=holders[1])

    def _after_trick(self, trick: Trick) -> list[Event]:
        if trick.number != 1 or not self.stara_procedure:
            return []
        lead, won = trick.leader, trick.winner
        assert won is not None
        if self.kind is Kind.FIRST_TRICK:
            said = (FIRST_PARTNER(seat=won, other=lead) if won != lead
                    else FIRST_ALONE(seat=lead))  # fmt: skip
        elif won != lead:
            said = PARTNERS(seat=min(lead, won), other=max(lead, won))
        else:
            said = HIDDEN_SOLO(seat=lead)
        self.known = self.known or said.text
        return [Notice.of(said)]

    # -- sides and scores ----------------------------------------------------------------------
    def declarers(self) -> list[int]:
        """The declaring seats as far as the cards show (the full truth once all are played)."""
        if self.soloist is not None:
            return [self.soloist]
        leader = self.leader
        if leader is None:
            return []
        first = self.tricks[0].winner if self.tricks else None
        if self.kind is Kind.FIRST_TRICK:
            return sorted({leader, first if first is not None else leader})
        holders = set(self.stara_holders.values())
        if len(self.stara_holders) == 2:
            return sorted(holders)
        if holders - {leader}:
            return sorted(holders | {leader})
        return sorted({leader, first if first is not None else leader})

    def _side_points(self, seats: list[int]) -> tuple[int, int]:
        points = sum(self.game.card_points(c) for s in seats for c in self.taken[s])
        tricks = sum(1 for t in self.tricks if t.winner in seats)
        return points, tricks

    def _scores(self, seats: list[int], points: int, tricks: int) -> tuple[dict[str, int], Said]:
        n = self.tricks_per_deal
        scores = {side: 0 for side in self.game.sides}
        if len(seats) == 1:
            soloist = seats[0]
            passed, per = solo_scores(soloist, points, tricks, n, self.multiplier)
            for s, v in per.items():
                scores[str(s)] = v
            label = {Kind.SOLO: "Solo", Kind.PODSOLO: "Podsolo"}.get(self.kind, "Prikriveni Solo")
            head = SOLO_BY(label=label, seat=soloist, times=self.multiplier)
        else:
            passed, per, bank = pair_scores(seats, points, tricks, n)
            for s, v in per.items():
                scores[str(s)] = v
            scores["Bank"] = bank
            head = PAIR(seat=seats[0], other=seats[1])
        kind = TOOK_PASS if passed else TOOK_FALL
        return scores, kind(head=head, points=points, tricks=tricks)

    def _penalty(self, violation: Violation) -> DealResult:
        if violation.rule in STARA_RULES:
            return self._annulled(violation)
        seats = self.declarers() or [violation.seat]
        offender_declares = violation.seat in seats
        # the offending side loses the deal: as if it took nothing (Švarc); the source is silent
        points, tricks = (0, 0) if offender_declares else (240, self.tricks_per_deal)
        scores, text = self._scores(seats, points, tricks)
        said = STOPPED(rule=violation.rule, seat=violation.seat, scored=text)
        return DealResult.of(scores, said, (violation,))

    def _annulled(self, violation: Violation) -> DealResult:
        """§15.4, AMBIGUITY 76: annulled; all points to the opponents of the Stara pair."""
        leader = self.leader if self.leader is not None else violation.seat
        first = self.tricks[0].winner if self.tricks else None
        pair = {leader, violation.seat} if violation.seat != leader else {leader}
        if len(pair) == 1 and first is not None:
            pair.add(first)
        scores = {side: 0 for side in self.game.sides}
        for s in range(4):
            if s not in pair:
                scores[str(s)] = 15
                scores["Bank"] -= 15
        said = ANNULLED(rule=violation.rule, seat=violation.seat, seats=str(sorted(pair)))
        return DealResult.of(scores, said, (violation,))

    def _final_result(self) -> DealResult:
        seats = self.declarers()
        points, tricks = self._side_points(seats)
        scores, said = self._scores(seats, points, tricks)
        extra: dict[str, Any] = {"declarers": seats, "card_points": points}
        if self.kind is Kind.SOLO and self.soloist is not None:
            extra["marks"] = {f"solo:{self.soloist}": 1}
        return DealResult.of(scores, said, extra=extra)

    def _snapshot_game(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "soloist": self.soloist,
            "trump_suit": self.scheme.suit.value,
            "queens_trump": self.scheme.queens,
            "multiplier": self.multiplier,
            "dalje": list(self.dalje),
            "calls": list(self.calls),
            "staras": {c.code: s for c, s in self.stara_holders.items()},
            "known": self.known_staras or self.known,
            "compulsory": self.compulsory,
        }
