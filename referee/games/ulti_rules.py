"""Ulti facts: bids and their components, values, card orders, play duties, settlement
(RULES.md §13, source F2).

Where F2 and RULES.md are silent this module follows the standard Hungarian rules and says so:
a trump bid has exactly one "party" base (Passz, 40-100 or 20-100; 40-100 and 20-100 replace
the simple game, as in Hungarian Ulti), Ulti and Durchmars are added to it; Betli, Uver Betli
and the no-trump Durchmars stand alone.

>>> b = parse_bid("40-100-ulti")
>>> b.name, b.base_value, b.value(Component.ULTI)
('40-100-ulti', 8, 4)
>>> parse_bid("herc-ulti").value(Component.ULTI), parse_bid("herc-ulti").trump_fixed
(8, 'H')
>>> bid_beats(parse_bid("herc-passz"), parse_bid("passz")), bid_beats(parse_bid("betli"), parse_bid("ulti"))
(True, False)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from referee.cards import Card, Rank, Suit
from referee.errors import ActionError
from referee.wording import refusal

R_BID_EACH_COMPONENT_ONCE = refusal(
    "ulti.bid_each_component_once", "bid {text!r}: each component once, at least one"
)
R_ONE_PASSZ_STANDARD_HUNGARIAN = refusal(
    "ulti.one_passz_standard_hungarian",
    "{where}: one of Passz, 40-100, 20-100 (standard Hungarian reading)",
)
R_DURCHMARS_OPEN_DURCHMARS_BOTH = refusal(
    "ulti.durchmars_open_durchmars_both", "{where}: Durchmars or Open Durchmars, not both"
)
R_TRUMP_DURCHMARS_COMES_WITH = refusal(
    "ulti.trump_durchmars_comes_with",
    "{where}: a trump Durchmars comes with 20-100, 40-100 or Ulti",
)
R_UNKNOWN_BID_E_G = refusal(
    "ulti.unknown_bid_e_g", "unknown bid {text!r} (e.g. passz, 40-100-ulti, herc-betli)"
)
R_BETLI_UVER_BETLI_CANNOT = refusal(
    "ulti.betli_uver_betli_cannot", "{where}: Betli and Uver Betli cannot be combined"
)
R_UVER_BETLI_HAS_HERC = refusal(
    "ulti.uver_betli_has_herc", "{where}: Uver Betli has no Herc version"
)
R_TRUMP_BID_NEEDS_PASSZ = refusal(
    "ulti.trump_bid_needs_passz", "{where}: a trump bid needs Passz, 40-100 or 20-100"
)
R_OPEN_DURCHMARS_WITHOUT_TRUMP = refusal(
    "ulti.open_durchmars_without_trump", "{where}: Open Durchmars without trump is always 24"
)


class Component(enum.Enum):
    """A scored part of a bid (§13.6), with its base (non-Herc) value."""

    PASSZ = "passz"  # the simple game ("Pass", Igra)
    FORTY_HUNDRED = "40-100"
    TWENTY_HUNDRED = "20-100"
    ULTI = "ulti"
    DURCHMARS = "durchmars"
    OPEN_DURCHMARS = "open-durchmars"  # Otvoreni Durmarš (Redurchmars)
    BETLI = "betli"
    UVER_BETLI = "uver-betli"

    #: one object per component, equal only to itself: hashed by identity in C (an enum
    #: member's own hash is computed in Python each time; doublings are keyed by component)
    __hash__ = object.__hash__

    @property
    def base(self) -> int:
        return BASE_VALUES[self]


BASE_VALUES = {
    Component.PASSZ: 1, Component.FORTY_HUNDRED: 4, Component.TWENTY_HUNDRED: 8,
    Component.ULTI: 4, Component.DURCHMARS: 6, Component.OPEN_DURCHMARS: 24,
    Component.BETLI: 5, Component.UVER_BETLI: 20,
}  # fmt: skip
PARTY = (Component.PASSZ, Component.FORTY_HUNDRED, Component.TWENTY_HUNDRED)
DURCH = (Component.DURCHMARS, Component.OPEN_DURCHMARS)
BETLI_KINDS = (Component.BETLI, Component.UVER_BETLI)
ORDER = tuple(Component)

_WORDS = {
    "pass": "passz", "parti": "passz", "igra": "passz", "durmars": "durchmars",
    "durmarš": "durchmars", "redurchmars": "open-durchmars", "betl": "betli",
    "rebetli": "uver-betli", "piros": "herc",
}  # fmt: skip
_PHRASES = {
    "open-durchmars": "open-durchmars", "otvoreni-durmars": "open-durchmars",
    "otvoreni-durmarš": "open-durchmars", "uver-betli": "uver-betli", "uver-betl": "uver-betli",
    "40-100": "40-100", "20-100": "20-100",
}  # fmt: skip


@dataclass(frozen=True, order=True)
class Bid:
    """A set of components; ``herc`` fixes hearts as trump (trump bids) or doubles (no-trump)."""

    components: tuple[Component, ...]
    herc: bool = False
    # worked out once from the components (fields, not cached properties: compiled with mypyc,
    # a cached property is worked out every time, and the auction compares every bid):
    #: trump bids have a party base; Betli, Uver Betli and no-trump Durchmars have none
    trump_game: bool = field(init=False, repr=False, compare=False)
    betli: bool = field(init=False, repr=False, compare=False)
    #: all hands are laid open after the first trick (§13.6)
    open: bool = field(init=False, repr=False, compare=False)
    #: the auction ranks bids by the sum of the base values (AMBIGUITY 63)
    base_value: int = field(init=False, repr=False, compare=False)
    name: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        comps = self.components
        implicit = Component.ULTI in comps  # "ulti" means Passz + Ulti
        parts = (["herc"] if self.herc else []) + [
            c.value for c in comps if not (implicit and c is Component.PASSZ)
        ]
        for name, value in (
            ("trump_game", any(c in PARTY for c in comps)),
            ("betli", any(c in BETLI_KINDS for c in comps)),
            ("open", Component.OPEN_DURCHMARS in comps or Component.UVER_BETLI in comps),
            ("base_value", sum(c.base for c in comps)),
            ("name", "-".join(parts)),
        ):
            object.__setattr__(self, name, value)

    @property
    def trump_fixed(self) -> str | None:
        """'H' for Herc trump bids; None for no-trump bids; '?' when the soloist names it."""
        if not self.trump_game:
            return None
        return "H" if self.herc else "?"

    def value(self, component: Component) -> int:
        """Value of a component in this bid: Herc doubles all but Open Durchmars (AMBIGUITY 64)."""
        base = component.base
        if component is Component.OPEN_DURCHMARS or component is Component.UVER_BETLI:
            return base
        return 2 * base if self.herc else base

    def __str__(self) -> str:
        return self.name


def bid_beats(new: Bid, old: Bid | None) -> bool:
    """Higher sum of base values; at equal sums a Herc bid beats a non-Herc one (AMBIGUITY 63)."""
    if old is None:
        return True
    return (new.base_value, new.herc) > (old.base_value, old.herc)


def parse_bid(text: str) -> Bid:
    """Parse ``herc-40-100-ulti``, ``passz``, ``betli``, ``open-durchmars``...; validate it."""
    rest = text.strip().lower().replace(" ", "-").replace("_", "-").replace("+", "-")
    words: list[str] = []
    while rest.strip("-"):
        rest = rest.strip("-")
        for phrase in sorted(_PHRASES, key=len, reverse=True):
            if rest.startswith(phrase):
                words.append(_PHRASES[phrase])
                rest = rest[len(phrase) :]
                break
        else:
            word, _, rest = rest.partition("-")
            words.append(_WORDS.get(word, word))
    herc = "herc" in words
    names = [w for w in words if w != "herc"]
    try:
        comps = sorted({Component(w) for w in names}, key=ORDER.index)
    except ValueError:
        raise R_UNKNOWN_BID_E_G.error(text=text) from None
    if len(comps) != len(names) or not comps:
        raise R_BID_EACH_COMPONENT_ONCE.error(text=text)
    if Component.ULTI in comps and not set(comps) & set(PARTY):
        comps = sorted([Component.PASSZ, *comps], key=ORDER.index)  # "Ulti" is Passz + Ulti
    bid = Bid(tuple(comps), herc)
    check_bid(bid, text)
    return bid


def check_bid(bid: Bid, text: str = "") -> None:
    comps = set(bid.components)
    where = f"bid {text or bid.name!r}"
    party = comps & set(PARTY)
    if comps & set(BETLI_KINDS):
        if len(comps) != 1:
            raise R_BETLI_UVER_BETLI_CANNOT.error(where=where)
        if Component.UVER_BETLI in comps and bid.herc:
            raise R_UVER_BETLI_HAS_HERC.error(where=where)
        return
    if not party:
        # no-trump Durchmars stands alone (§13.6)
        if len(comps) != 1 or not comps & set(DURCH):
            raise R_TRUMP_BID_NEEDS_PASSZ.error(where=where)
        if Component.OPEN_DURCHMARS in comps and bid.herc:
            raise R_OPEN_DURCHMARS_WITHOUT_TRUMP.error(where=where)
        return
    if len(party) != 1:
        raise R_ONE_PASSZ_STANDARD_HUNGARIAN.error(where=where)
    if len(comps & set(DURCH)) > 1:
        raise R_DURCHMARS_OPEN_DURCHMARS_BOTH.error(where=where)
    if comps & set(DURCH) and Component.PASSZ in comps and Component.ULTI not in comps:
        raise R_TRUMP_DURCHMARS_COMES_WITH.error(where=where)


def all_bids() -> list[Bid]:
    """Every valid bid, lowest first (38 of them)."""
    out: list[Bid] = []
    for herc in (False, True):
        for party in PARTY:
            for ulti in (False, True):
                for durch in (None, *DURCH):
                    comps = (
                        [party] + ([Component.ULTI] if ulti else []) + ([durch] if durch else [])
                    )
                    bid = Bid(tuple(sorted(comps, key=ORDER.index)), herc)
                    try:
                        check_bid(bid)
                    except ActionError:
                        continue
                    out.append(bid)
        for single in (Component.BETLI, Component.DURCHMARS):
            out.append(Bid((single,), herc))
    out.append(Bid((Component.UVER_BETLI,)))
    out.append(Bid((Component.OPEN_DURCHMARS,)))
    return sorted(out, key=lambda b: (b.base_value, b.herc, b.name))


# -- cards ---------------------------------------------------------------------------------------
_TRUMP_ORDER = {Rank.ACE: 8, Rank.TEN: 7, Rank.KING: 6, Rank.QUEEN: 5, Rank.JACK: 4, Rank.NINE: 3,
                Rank.EIGHT: 2, Rank.SEVEN: 1}  # fmt: skip
_PLAIN_ORDER = {Rank.ACE: 8, Rank.KING: 7, Rank.QUEEN: 6, Rank.JACK: 5, Rank.TEN: 4, Rank.NINE: 3,
                Rank.EIGHT: 2, Rank.SEVEN: 1}  # fmt: skip


def strength(card: Card, *, trump_game: bool) -> int:
    """§13.2: with trumps 10 comes after the Ace (A 10 K O U 9 8 7); without, A K O U 10 9 8 7."""
    return (_TRUMP_ORDER if trump_game else _PLAIN_ORDER)[card.rank]


def card_points(card: Card) -> int:
    """Aces and tens 10 each (80 in the deck; the last trick adds 10: 90)."""
    return 10 if card.rank in (Rank.ACE, Rank.TEN) else 0


def beats(card: Card, best: Card, *, trump: Suit | None, trump_game: bool) -> bool:
    if card.suit is best.suit:
        return strength(card, trump_game=trump_game) > strength(best, trump_game=trump_game)
    return trump is not None and card.suit is trump


def winner_index(cards: list[Card], *, trump: Suit | None, trump_game: bool) -> int:
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trump=trump, trump_game=trump_game):
            best = i
    return best


def duty(
    played: list[Card], card: Card, other: Card, *, trump: Suit | None, trump_game: bool,
    overtake: bool,
) -> str | None:  # fmt: skip
    """§13.7 with AMBIGUITY 66 (a)+(c1): the rule broken by playing ``card`` on ``played`` had
    the player also held ``other``. ``overtake`` is False in Betli-type contracts."""
    return duties(played, trump=trump, trump_game=trump_game, overtake=overtake)(card, other)


def duties(
    played: list[Card], *, trump: Suit | None, trump_game: bool, overtake: bool
) -> Callable[[Card, Card], str | None]:
    """``duty`` on one trick position, as a function of ``(card, other)``."""
    if not played:
        return lambda card, other: None
    lead = played[0].suit
    best = played[winner_index(played, trump=trump, trump_game=trump_game)]

    def wins(c: Card) -> bool:
        return beats(c, best, trump=trump, trump_game=trump_game)

    def judge(card: Card, other: Card) -> str | None:
        if card.suit is not lead:
            if other.suit is lead:
                return "follow-suit"
            if trump is None or other.suit is not trump:
                return None
            if card.suit is not trump:
                return "must-trump"
            # both trumps, void in the led suit: overtrump the trick if possible
            if best.suit is trump and not wins(card) and wins(other):
                return "must-overtrump"
            return None
        if not overtake or other.suit is not lead:
            return None
        # following suit: beat the current winner if possible; a trumped trick needs no
        # overtaking
        if best.suit is lead and not wins(card) and wins(other):
            return "must-overtake"
        return None

    return judge


# -- settlement ----------------------------------------------------------------------------------
KONTRA_NAMES = ("", "kontra", "rekontra", "supkontra", "harskontra", "mortkontra", "fedakontra")
MAX_LEVEL = 6  # ×64


def component_amount(value: int, multiplier: int, success: bool, *, announced_ulti: bool) -> int:
    """§13.9: ``+v·m`` on success, ``-(v·m + u)`` on failure, ``u = v`` for an announced Ulti.

    >>> component_amount(4, 1, False, announced_ulti=True)  # U1
    -8
    >>> component_amount(4, 4, False, announced_ulti=True)  # U2
    -20
    >>> component_amount(8, 4, False, announced_ulti=True)  # U3
    -40
    """
    if success:
        return value * multiplier
    return -(value * multiplier + (value if announced_ulti else 0))


def marriage_suits(cards: Iterable[Card]) -> set[Suit]:
    """Suits of which ``cards`` hold both King and Ober (Queen)."""
    have = {(c.suit, c.rank) for c in cards}
    return {s for s in Suit if (s, Rank.KING) in have and (s, Rank.QUEEN) in have}
