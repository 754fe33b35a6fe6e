"""Refereeing truth at scale (RULES.md §16): legal play is never flagged, and a broken rule is
proven at the first card after which the table alone proves it, with the penalty the rules give.

Two kinds of seeded deals per game, each played on a :class:`~referee.table_view.TableMirror`
(a known-hands deal that lists the legal actions, and a table referee that sees only what the
table sees):

* *legal* deals: random legal play; any violation the table referee proves is a false
  accusation, and its score must equal the known-hands score;
* *broken* deals: random legal play up to a random moment, where the seat to play plays a card
  its duties forbid (not following suit, not trumping, not overtaking, a wrong payment, the
  Ulti 7 too early), or, in a quarter of the Ulti deals, a seat announces marriages it does
  not hold (§13.2: proven once the K or O it needs goes to another seat). From there the table referee alone carries on; the oracle knows every hand
  and names the first card after which the table proves the breach: the breaking seat plays a
  card it held then that the breach proves it had to play instead (§16.3), or lays it open
  (Ulti's open contracts), or the backs show it at once (rainbow Satir).

The oracle judges with the game's own duty relation (the rule texts' follow/trump/overtake
tables, tested on their own in each game's tests); what it checks is *when* the table may
know, which only the hands tell.

>>> report = check_game("veliki-satir", deals=3, seed=1)
>>> report.false_accusations, report.proven_unprovable, report.never_proven
(0, 0, 0)
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from referee.actions import Action, ActionType
from referee.cards import Card
from referee.deal import DealResult
from referee.events import CardPickedUp, ViolationProven
from referee.game import Game
from referee.games.fortuna_deal import BROKEN as FORTUNA_BROKEN
from referee.games.ulti_rules import marriage_suits
from referee.registry import load_game
from referee.table_view import TableMirror
from referee.trick import TrickDeal, trick_snapshot

#: RULES.md §3.7 and §8.5, in tenths: (each other side, the offending side) per deal type
SATIR_PENALTIES = {
    "veliki": {"zatvoreno": (100, 0), "aktivno": (200, 0), "pasivno": (50, -100)},
    "mali": {"zatvoreno": (60, 0), "aktivno": (120, 0), "pasivno": (20, -60)},
}
#: deals whose details are kept to print (false accusations, missed or late proofs...)
KEEP = 5


@dataclass
class GameTruth:
    """The figures of one game: legal deals, broken deals, and the deals worth printing."""

    spec: str
    legal_deals: int = 0
    false_accusations: int = 0
    score_mismatches: int = 0
    broken_deals: int = 0
    no_breach: int = 0  # the breaking moment came and no forbidden card was ever in hand
    provable: int = 0
    proven_on_time: int = 0
    proven_late: int = 0
    late_by: Counter[int] = field(default_factory=Counter)
    never_proven: int = 0
    proven_unprovable: int = 0  # proven before the table could know (or never could)
    wrong_accusations: int = 0  # another violation proven in a broken deal
    penalty_checked: int = 0
    penalty_wrong: int = 0
    seconds: float = 0.0
    examples: list[dict[str, Any]] = field(default_factory=list)
    breaks_rules: bool = True  # False: the game has no play duties to break

    @property
    def ok(self) -> bool:
        """No false accusation, no missed, early or late proof, every penalty right."""
        return not (
            self.proven_late
            or self.false_accusations
            or self.score_mismatches
            or self.never_proven
            or self.proven_unprovable
            or self.wrong_accusations
            or self.penalty_wrong
        )

    def keep(self, kind: str, mirror: TableMirror, seed: int, **extra: Any) -> None:
        if len(self.examples) < KEEP:
            self.examples.append({"kind": kind, "seed": seed, "deal": _transcript(mirror), **extra})


@dataclass(frozen=True)
class Breach:
    seat: int
    trick: int
    card: Card | None  # None: a false declaration
    witnesses: frozenset[Card]  # cards in the hand then, any of which proves the breach
    lead: bool = False  # the card led the trick
    marriages: tuple[int, bool] | None = None  # Ulti: the false announcement (20s, 40)


def check_game(spec: str, *, deals: int, broken: int | None = None, seed: int = 0) -> GameTruth:
    """``deals`` legal deals and ``broken`` (default: as many) broken deals of ``spec``."""
    game = load_game(spec)
    out = GameTruth(spec)
    start = time.perf_counter()
    for n in range(deals):
        _legal_deal(game, seed + n, out)
    for n in range(deals if broken is None else broken):
        _broken_deal(game, 1_000_000 + seed + n, out)
    out.seconds = time.perf_counter() - start
    return out


HEADER = (
    f"{'game':<26} {'legal':>6} {'false':>5} {'broken':>6} {'no-brk':>6} {'provable':>8} "
    f"{'on-time':>7} {'late':>5} {'never':>5} {'unprov':>6} {'penalty':>9} {'wrong':>5} "
    f"{'seconds':>7}  late by (cards: deals)"
)


def table_lines(reports: list[GameTruth]) -> list[str]:
    """The per-game table: legal deals and false accusations; broken deals, deals where no
    forbidden card came to hand, provable breaches, proven at the first proving card, late,
    never proven, proven before provable, penalties right/checked, other violations proven."""
    lines = [HEADER]
    for r in reports:
        if not r.breaks_rules:
            lines.append(
                f"{r.spec:<26} {r.legal_deals:>6} {r.false_accusations:>5} "
                f"{'no play duties to break':>58} {r.seconds:>7.1f}"
            )
            continue
        late = ", ".join(f"{k}: {v}" for k, v in sorted(r.late_by.items())) or "-"
        penalty = f"{r.penalty_checked - r.penalty_wrong}/{r.penalty_checked}"
        lines.append(
            f"{r.spec:<26} {r.legal_deals:>6} {r.false_accusations:>5} {r.broken_deals:>6} "
            f"{r.no_breach:>6} {r.provable:>8} {r.proven_on_time:>7} {r.proven_late:>5} "
            f"{r.never_proven:>5} {r.proven_unprovable:>6} {penalty:>9} "
            f"{r.wrong_accusations:>5} {r.seconds:>7.1f}  {late}"
        )
    return lines


def _mirror(game: Game, rng: random.Random, seed: int) -> TableMirror:
    dealer = seed % game.players
    hands, setup = game.deal_cards(rng, dealer=dealer)
    return TableMirror(game, dealer=dealer, hands=hands, setup=setup)


def _legal_deal(game: Game, seed: int, out: GameTruth) -> None:
    rng = random.Random(seed)
    mirror = _mirror(game, rng, seed)
    while not mirror.known.is_over:
        mirror.play(rng.choice(mirror.known.legal_actions()))
    out.legal_deals += 1
    if mirror.table.violations:
        out.false_accusations += 1
        out.keep("false accusation in legal play", mirror, seed)
    elif _scores(mirror.table.result) != _scores(mirror.known.result):
        out.score_mismatches += 1
        out.keep("table score differs from the known-hands score", mirror, seed)


def _has_duties(deal: Any) -> bool:
    return isinstance(deal, TrickDeal) and type(deal).duty is not TrickDeal.duty


def _broken_deal(game: Game, seed: int, out: GameTruth) -> None:
    rng = random.Random(seed)
    mirror = _mirror(game, rng, seed)
    if not _has_duties(mirror.known):
        out.breaks_rules = False
        return
    out.broken_deals += 1
    dealt = sum(len(h) for h in (mirror.known.initial_hands or {}).values())
    moment = rng.randrange(max(1, dealt * 2 // 3))
    plays = 0
    breach: tuple[Breach, Action] | None = None
    declare = game.name == "ulti" and rng.random() < 0.25  # a false marriage instead
    while not mirror.known.is_over:
        if declare:
            breach = _false_marriage(mirror, rng)
            if breach is not None:
                break
            declare = plays < game.players  # marriages are announced in trick 1 only
        elif plays >= moment:
            breach = _forbidden_play(mirror, rng)
            if breach is not None:
                break
        action = rng.choice(mirror.known.legal_actions())
        mirror.play(action)
        plays += action.type is ActionType.PLAY
    if breach is None:
        out.no_breach += 1
        return
    _follow(mirror, breach[0], breach[1], rng, seed, out)


def _forbidden_play(mirror: TableMirror, rng: random.Random) -> tuple[Breach, Action] | None:
    """A card the seat to play holds and may not play now, if any (chosen at random)."""
    known, table = mirror.known, mirror.table
    assert isinstance(known, TrickDeal) and isinstance(table, TrickDeal)
    if known.trick is None or known.to_act is None or known.hands is None:
        return None
    if known.phase.value != "play" or getattr(table, "to_act", None) != known.to_act:
        return None
    seat, trick = known.to_act, trick_snapshot(known.trick)
    hand = known.hands[seat]
    legal = set(known.legal_plays())
    choices = []
    for card in sorted(hand - legal):
        witnesses = frozenset(
            o for o in hand if o != card and known.duty(trick, seat, card, o) is not None
        )
        if witnesses and table.can(Action.play(seat, card)):
            choices.append(Breach(seat, trick.number, card, witnesses, not trick.plays))
    if not choices:
        return None
    chosen = rng.choice(choices)
    assert chosen.card is not None
    return chosen, Action.play(seat, chosen.card)


ANNOUNCEMENTS = ("40", "20", "20+20", "40+20", "20+20+20")


def _false_marriage(mirror: TableMirror, rng: random.Random) -> tuple[Breach, Action] | None:
    """Ulti: the seat to play announces marriages it does not hold with its first-trick card
    (§13.2; K and O in hand, or the soloist's talon)."""
    known: Any = mirror.known
    if known.phase.value != "play" or known.to_act is None or not known.trump_game:
        return None
    seat = known.to_act
    if seat in known.marriages or not known._in_first_trick_before_card(seat):
        return None
    held = set(known.hands[seat]) | (set(known.talon) if seat == known.soloist else set())
    suits = marriage_suits(held)
    false = []
    for text in ANNOUNCEMENTS:
        twenties, forty = text.count("20"), "40" in text
        action = Action(seat, ActionType.ANNOUNCE, value=text)
        lies = (forty and known.trump not in suits) or twenties > len(suits - {known.trump})
        if lies and mirror.table.can(action):
            false.append((Breach(seat, 1, None, frozenset(), marriages=(twenties, forty)), action))
    return rng.choice(false) if false else None


def _marriage_seen_false(table: Any, breach: Breach) -> bool:
    """The table has seen the K or O a false announcement needs go to another seat, or the
    deal has been played out (every card is then placed: the unplayed ones are the soloist's
    talon)."""
    assert breach.marriages is not None
    if len(table.played) == 30:
        return True
    twenties, forty = breach.marriages
    gone = {c for t in table.tricks for s, c in t.plays if s != breach.seat}
    if table.trick is not None:
        gone |= {c for s, c in table.trick.plays if s != breach.seat}
    for seat, cards in table.opened.items():
        if seat != breach.seat:
            gone |= set(cards)
    if breach.seat in table.opened:  # the rest of its hand is on the table
        mine = {c for t in table.tricks for s, c in t.plays if s == breach.seat}
        if table.trick is not None:
            mine |= {c for s, c in table.trick.plays if s == breach.seat}
        mine |= set(table.opened[breach.seat])
        if breach.seat == table.soloist:  # and the talon, face down, is his
            mine |= set(table.game.deck.cards) - set(table.played) - gone
        gone |= set(table.game.deck.cards) - mine
    open_suits = {c.suit for c in table.game.deck.cards if c.code[0] in "KQ" and c not in gone} - {
        c.suit for c in gone if c.code[0] in "KQ"
    }
    if forty and table.trump not in open_suits:
        return True
    return twenties > len(open_suits - {table.trump})


def _follow(
    mirror: TableMirror,
    breach: Breach,
    action: Action,
    rng: random.Random,
    seed: int,
    out: GameTruth,
) -> None:
    """Play the breach on the table and carry on with legal play from the real hands."""
    known, table = mirror.known, mirror.table
    assert isinstance(known, TrickDeal) and isinstance(table, TrickDeal) and known.hands
    hands = {s: set(h) for s, h in known.hands.items()}
    expected = 0 if _visible_at_once(mirror, breach) else None
    proven: int | None = None
    cards = 0  # cards played after the breach card
    current: Action | None = action
    while current is not None:
        events = table.play(current)
        if current.type is ActionType.PLAY and current.card is not None:
            hands[current.seat].discard(current.card)
            if current is not action:
                cards += 1
        if expected is None and (
            _marriage_seen_false(table, breach) if breach.marriages else _witnessed(current, breach)
        ):
            expected = cards
        for event in events:
            if isinstance(event, CardPickedUp) and event.card is not None:
                hands[event.seat].add(event.card)
            if isinstance(event, ViolationProven):
                v = event.violation
                if (v.seat, v.trick, v.card) == (breach.seat, breach.trick, breach.card):
                    proven = cards if proven is None else proven
                else:
                    out.wrong_accusations += 1
                    out.keep("another violation proven in a broken deal", mirror, seed,
                             breach=_describe(breach), violation=v.to_dict())  # fmt: skip
        current = None if table.is_over else _next_action(mirror, hands, rng)
    info = {"breach": _describe(breach), "expected_card": expected, "proven_card": proven}
    if expected is not None:
        out.provable += 1
    if proven is None:
        if expected is not None:
            out.never_proven += 1
            out.keep("provable breach never proven", mirror, seed, **info)
        return
    if expected is None or proven < expected:
        out.proven_unprovable += 1
        out.keep("proven before the table could know", mirror, seed, **info)
        return
    if proven == expected:
        out.proven_on_time += 1
    else:
        out.proven_late += 1
        out.late_by[proven - expected] += 1
        out.keep("proven late", mirror, seed, **info)
    out.penalty_checked += 1
    problem = _penalty_problem(table, breach)
    if problem is not None:
        out.penalty_wrong += 1
        out.keep("penalty differs from RULES.md", mirror, seed, problem=problem, **info)


def _visible_at_once(mirror: TableMirror, breach: Breach) -> bool:
    """The table sees the breach as it happens: the backs show the suits (rainbow Satir), the
    seat's hand lies open (Ulti's open contracts), or the first lead of Dvoglavac's Stara
    procedure, which tells the table the leader holds a Stara, a trump (§15.4)."""
    table = mirror.table
    if getattr(getattr(table, "facts", None), "rainbow", False):
        return True
    if getattr(table, "stara_procedure", False) and breach.trick == 1 and breach.lead:
        return (
            breach.card is not None and breach.card.code[:2] != "QC"
        )  # a Q♣ led is a trump: the claim holds
    opened = getattr(table, "opened", {})
    return breach.seat in opened


def _witnessed(action: Action, breach: Breach) -> bool:
    if action.seat != breach.seat:
        return False
    if action.type is ActionType.PLAY:
        return action.card in breach.witnesses
    if action.type is ActionType.OPEN:
        return bool(breach.witnesses & set(action.cards))
    return False


@contextmanager
def _hands_lent(deal: TrickDeal, hands: dict[int, set[Card]]) -> Iterator[None]:
    """Let the table deal list legal plays from the real hands for a moment."""
    if deal.hands is not None:
        yield
        return
    deal.hands = hands
    try:
        yield
    finally:
        deal.hands = None


def _next_action(
    mirror: TableMirror, hands: dict[int, set[Card]], rng: random.Random
) -> Action | None:
    table = mirror.table
    assert isinstance(table, TrickDeal)
    bid = getattr(table, "bid", None)
    if bid is not None and bid.open and table.tricks:
        opened = getattr(table, "opened", {})
        for other in range(table.players):
            if other not in opened:
                return Action(other, ActionType.OPEN, cards=tuple(sorted(hands[other])))
    trick, to_act = table.trick, table.to_act
    if trick is None or to_act is None:
        return None
    seat: int = to_act
    with _hands_lent(table, hands):
        plays = table.legal_plays()
        if mirror.game.name == "fortuna" and len(trick.plays) == table.players:
            may = table._may_continue(trick)  # type: ignore[attr-defined]
            options = [Action(seat, ActionType.PASS)] + [Action.play(seat, c) for c in plays]
            return rng.choice(options) if may else options[0]
    return Action.play(seat, rng.choice(plays))


def _penalty_problem(table: TrickDeal, breach: Breach) -> str | None:
    """What is wrong with the penalty applied, by RULES.md (None: it is right)."""
    result = table.result
    if result is None or not table.is_over:
        return "the deal did not stop at the proof"
    if not result.violations or result.violations[0].seat != breach.seat:
        return f"the deal's result names {result.violations} as the violation"
    expected = _expected_penalty(table, breach)
    if expected is not None and expected != result.scores:
        return f"scores {result.scores}, RULES.md gives {expected}"
    return None


def _expected_penalty(table: Any, breach: Breach) -> dict[str, int] | None:
    game, offender = table.game, breach.seat
    guilty = game.side_of(offender)
    name = game.name
    if name in ("veliki-satir", "velika-anarhija", "satir-u-duginim-bojama", "mali-satir"):
        victims, off = SATIR_PENALTIES["mali" if name == "mali-satir" else "veliki"][table.contract]
        return {side: (off if side == guilty else victims) for side in game.sides}
    if name == "ulti":
        return _ulti_penalty(table, offender)
    if name == "dvoglavi-lav" and not table.repom:
        # AMBIGUITY 50: a declarer's offence is a fall with D = 0, an opponent's a pass, O = 0
        return dict(table._scores(0 if guilty == table.declaring_side else 100))
    if name == "fortuna":
        # the soloist's revoke is a fall, a defender's a pass
        passed = offender != table.soloist
        return dict(table._score(passed, FORTUNA_BROKEN(rule="revoke", seat=offender)).scores)
    if name == "dvoglavac" and breach.lead and breach.trick == 1 and table.stara_procedure:
        # a wrong first lead breaks the Stara procedure: annulled, all points to the players
        # outside the Stara pair the table knows (the leader, the winner of trick 1), 15 each
        # from the Bank (§15.4, AMBIGUITY 76)
        first = table.tricks[0].winner if table.tricks else None
        pair = {offender} | ({first} if first is not None else set())
        scores = {side: 0 for side in game.sides}
        for seat in set(range(4)) - pair:
            scores[str(seat)] = 15
            scores["Bank"] -= 15
        return scores
    if name == "dvoglavac":
        seats = table.declarers() or [offender]
        declares = offender in seats
        points, tricks = (0, 0) if declares else (240, table.tricks_per_deal)
        return dict(table._scores(seats, points, tricks)[0])
    return None


def _ulti_penalty(table: Any, offender: int) -> dict[str, int]:
    """AMBIGUITY 69: every component of the offending side fails (payment mode, §13.9)."""
    soloist, bid = table.soloist, table.bid
    won = offender != soloist
    scores = {str(s): 0 for s in range(3)}
    for comp in bid.components:
        value = bid.value(comp)
        for d in table.defenders:
            m = table.multiplier(comp, d)
            extra = value if comp.value == "ulti" else 0
            amount = value * m if won else -(value * m + extra)
            if table.game.options.settlement == "writing":
                scores[str(soloist if amount > 0 else d)] += abs(amount)
            else:
                scores[str(soloist)] += amount
                scores[str(d)] -= amount
    return scores


def _scores(result: DealResult | None) -> dict[str, int] | None:
    return None if result is None else dict(result.scores)


def _describe(breach: Breach) -> str:
    if breach.card is None:
        twenties, forty = breach.marriages or (0, False)
        said = "+".join((["40"] if forty else []) + ["20"] * twenties)
        return f"seat {breach.seat} announced {said} in trick 1 without holding it"
    witnesses = " ".join(c.code for c in sorted(breach.witnesses))
    return (
        f"seat {breach.seat} played {breach.card.code} at trick {breach.trick} holding {witnesses}"
    )


def _transcript(mirror: TableMirror) -> dict[str, Any]:
    """The deal as the table referee saw it (a transcript ``kibic referee replay`` reads) and,
    beside it, the hands as they were dealt."""
    known, table = mirror.known, mirror.table
    hands = {str(s): [c.code for c in h] for s, h in (known.initial_hands or {}).items()}
    transcript = {
        "game": mirror.game.name,
        "options": mirror.game.options.non_default(),
        "deals": [table.to_transcript()],
    }
    return {"transcript": transcript, "hands": hands}
