"""SubRosa declarations (zvanja, RULES.md §10.2-§10.5): shapes, values, inner declarations.

>>> from referee.cards import parse_cards
>>> value_of("niz", parse_cards("QH KH AH")), value_of("niz", parse_cards("KC AC 7C"))  # SR1, SR4
(15, 13)
>>> value_of("8-velikih", parse_cards("AH KH QH JH AS KS QS QD"))  # SR7: 25 + 20 + 15
60
>>> value_of("4-keca", parse_cards("AH AS AD AC"), egalite=True)  # SR8
60
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from referee.cards import Card, Rank, Suit, card_order
from referee.games.ruzicka_rules import BASE_POINTS, NATURAL, PlayRule
from referee.wording import Said, part, refusal

NAMED = part("subrosa.declaration_name", "{kind} {cards} = {value}")
NAMED_KRNJA = part(
    "subrosa.declaration_name_krnja", "krnja ({missing} missing) {kind} {cards} = {value}"
)

R_DECLARATION_CARD_SHOWN_TWICE = refusal(
    "subrosa.declaration_card_shown_twice", "declaration {text!r}: a card is shown twice"
)
R_DECLARATION = refusal(
    "subrosa.declaration_not_kind", "declaration {text!r}: {cards} is no {kind}"
)
R_DECLARATION_BIG_DECLARATIONS_MAY = refusal(
    "subrosa.declaration_big_declarations_may",
    "declaration {text!r}: only big declarations may be incomplete",
)
R_DECLARATION_MAY_INCOMPLETE_KRNJA = refusal(
    "subrosa.declaration_may_incomplete_krnja",
    "declaration {text!r}: only 35/40/45/50 may be incomplete (Krnja)",
)
R_DECLARATION_KRNJA_SHOWS_CARDS = refusal(
    "subrosa.declaration_krnja_shows_cards",
    "declaration {text!r}: Krnja shows {least} to {most} cards",
)
R_DECLARATION_SHOWS_CARDS = refusal(
    "subrosa.declaration_shows_cards", "declaration {text!r}: {kind} shows {size} cards"
)
R_UNKNOWN_DECLARATION_KNOWN_KRNJA = refusal(
    "subrosa.unknown_declaration_known_krnja",
    "unknown declaration {text!r} (known: {known}; krnja-...)",
)


class Kind(enum.Enum):
    SEQUENCE = "niz"
    SIX = "6-u-boji"
    POKER = "poker"
    EIGHT_BIG = "8-velikih"
    EIGHT_SMALL = "8-malih"  # 35
    FOUR_ACES = "4-keca"  # 40, Mali Prevrat
    RAINBOW = "sareni-niz"  # 45, Šareni Niz
    FOUR_SEVENS = "4-sedmice"  # 50, Veliki Prevrat
    SEVEN_SUIT = "7-u-boji"  # 75, redeal
    EIGHT_SUIT = "8-u-boji"  # the partija, or 45

    #: one object per kind, equal only to itself: hashed by identity in C, not in Python
    __hash__ = object.__hash__


ALIASES = {"mali-prevrat": Kind.FOUR_ACES, "veliki-prevrat": Kind.FOUR_SEVENS,
           "sareni": Kind.RAINBOW, "šareni-niz": Kind.RAINBOW}  # fmt: skip
#: the declarations that change the play, with their rule and their size (§10.4)
PLAY_CHANGING: dict[Kind, tuple[PlayRule, int, int]] = {
    Kind.EIGHT_SMALL: (PlayRule.EIGHT_SMALL, 35, 8),
    Kind.FOUR_ACES: (PlayRule.MALI_PREVRAT, 40, 4),
    Kind.RAINBOW: (PlayRule.SARENI_NIZ, 45, 8),
    Kind.FOUR_SEVENS: (PlayRule.VELIKI_PREVRAT, 50, 4),
}
EIGHT_CARD = {Kind.EIGHT_BIG, Kind.EIGHT_SMALL, Kind.RAINBOW, Kind.EIGHT_SUIT}
EGALITE_EXTRA = 20
WIN_PARTIJA = "partija"  # 8 u boji: "8-u-boji:partija" wins the partija at once
SMALL_RANKS = (Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN)


@dataclass(frozen=True)
class Declaration:
    """A declaration as shown: its kind, the cards face up, the face-down placeholders (Krnja)."""

    kind: Kind
    cards: tuple[Card, ...]
    value: int
    missing: int = 0  # Krnja: 1, 2 or 3 cards missing
    inner: tuple[tuple[str, int], ...] = ()
    win_partija: bool = False  # 8 u boji, taken as the partija

    @property
    def rule(self) -> PlayRule | None:
        entry = PLAY_CHANGING.get(self.kind)
        return entry[0] if entry else None

    @property
    def strength(self) -> int:
        """Order of the play-changing declarations (the strongest is in force)."""
        entry = PLAY_CHANGING.get(self.kind)
        return entry[1] if entry else 0

    @property
    def big(self) -> bool:
        """A big declaration (§10.4); 8 Velikih stays a small one whatever its inner value."""
        return self.kind in PLAY_CHANGING or self.kind in (Kind.SEVEN_SUIT, Kind.EIGHT_SUIT)

    @property
    def name(self) -> str:
        return self.said.text

    @property
    def said(self) -> Said:
        """The declaration as a statement (its kind, cards and value)."""
        if self.missing:
            return NAMED_KRNJA(missing=self.missing, kind=self.kind.value, cards=self.cards,
                               value=self.value)  # fmt: skip
        return NAMED(kind=self.kind.value, cards=self.cards, value=self.value)


def parse_kind(text: str) -> tuple[Kind, int, bool]:
    """``niz``, ``krnja-4-keca``, ``8-u-boji:partija`` -> (kind, Krnja flag, partija flag)."""
    raw = text.strip().lower().replace("_", "-").replace(" ", "-")
    raw, _, option = raw.partition(":")
    krnja = raw.startswith("krnja-")
    if krnja:
        raw = raw[len("krnja-") :]
    kind = ALIASES.get(raw)
    if kind is None:
        try:
            kind = Kind(raw)
        except ValueError:
            known = ", ".join(k.value for k in Kind)
            raise R_UNKNOWN_DECLARATION_KNOWN_KRNJA.error(text=text, known=known) from None
    return kind, int(krnja), option == WIN_PARTIJA


def _big_values(cards: Iterable[Card]) -> int:
    return sum(BASE_POINTS.get(c.rank, 0) for c in cards)


def _one_suit(cards: Sequence[Card]) -> bool:
    return len({c.suit for c in cards}) == 1


def is_run(cards: Sequence[Card]) -> bool:
    """3 to 5 cards of one suit in consecutive cyclic order 7-8-...-A-7 (K-A-7 wraps)."""
    if not 3 <= len(cards) <= 5 or not _one_suit(cards):
        return False
    return frozenset(_PLACE[c.rank] for c in cards) in _RUNS[len(cards)]


#: each rank's place in the cyclic order, and the runs of 3 to 5 places (K-A-7 wraps)
_PLACE = {rank: i for i, rank in enumerate(NATURAL)}
_RUNS = {n: {frozenset((s + i) % 8 for i in range(n)) for s in range(8)} for n in (3, 4, 5)}


def small_value(kind: Kind, cards: Sequence[Card]) -> int | None:
    """The value of a small declaration of this shape, or None if the cards do not form it."""
    if kind is Kind.SEQUENCE and is_run(cards):
        return {3: 6, 4: 10, 5: 15}[len(cards)] + _big_values(cards)
    if kind is Kind.SIX and len(cards) == 6 and _one_suit(cards):
        return 20 + _big_values(cards)
    if kind is Kind.POKER and len(cards) == 4 and len({c.rank for c in cards}) == 1:
        rank = cards[0].rank
        if rank in (Rank.EIGHT, Rank.NINE, Rank.TEN):
            return 20
        if rank in (Rank.JACK, Rank.QUEEN, Rank.KING):
            return 30
    return None


def _fits(kind: Kind, cards: Sequence[Card]) -> bool:
    """Do ``cards`` belong to a declaration of ``kind`` (all of it, or part of it for Krnja)?"""
    ranks = [c.rank for c in cards]
    match kind:
        case Kind.EIGHT_BIG:
            return all(r >= Rank.JACK for r in ranks)
        case Kind.EIGHT_SMALL:
            return all(r in SMALL_RANKS for r in ranks)
        case Kind.FOUR_ACES:
            return all(r is Rank.ACE for r in ranks)
        case Kind.FOUR_SEVENS:
            return all(r is Rank.SEVEN for r in ranks)
        case Kind.RAINBOW:
            return len(set(ranks)) == len(ranks)
        case Kind.SEVEN_SUIT | Kind.EIGHT_SUIT:
            return _one_suit(cards)
    return False


def _kinds_fitting(card: Card) -> frozenset[Kind]:
    """The kinds ``card`` fits (``_fits`` of the card alone), worked out once per card."""
    kinds = _FITTING.get(card)
    if kinds is None:
        kinds = _FITTING[card] = frozenset(k for k in Kind if _fits(k, (card,)))
    return kinds


#: ``_kinds_fitting`` by card
_FITTING: dict[Card, frozenset[Kind]] = {}

SIZES = {Kind.EIGHT_BIG: 8, Kind.EIGHT_SMALL: 8, Kind.FOUR_ACES: 4, Kind.FOUR_SEVENS: 4,
         Kind.RAINBOW: 8, Kind.SEVEN_SUIT: 7, Kind.EIGHT_SUIT: 8}  # fmt: skip


#: a small declaration found among cards: its cards, its name (``niz 4``, ``6 u boji``,
#: ``poker Q``) and its value
Candidate = tuple[frozenset[Card], str, int]
POKER_RANKS = (Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING)


def _candidates(cards: Sequence[Card]) -> list[Candidate]:
    """Every small declaration inside ``cards`` (for the inner declarations): the runs and the
    6 u boji of each suit, then the pokers."""
    out: list[Candidate] = []
    by_suit: dict[Suit | None, list[Card]] = {}
    for card in cards:
        suited = by_suit.get(card.suit)
        if suited is None:
            by_suit[card.suit] = [card]
        else:
            suited.append(card)
    for suited in by_suit.values():
        out.extend(_in_suit(tuple(suited)))
    if len(by_suit) < 4:
        return out  # a poker holds a card of every suit
    ranks = [c.rank for c in cards]
    for rank in POKER_RANKS:
        if ranks.count(rank) == 4:
            same = [c for c in cards if c.rank is rank]
            out.append((frozenset(same), f"poker {rank.code}", small_value(Kind.POKER, same) or 0))
    return out


def _in_suit(suited: tuple[Card, ...]) -> tuple[Candidate, ...]:
    """The runs and the 6 u boji among cards of one suit, worked out once per holding (a hand's
    declarations are listed at every turn of a first round)."""
    known = _IN_SUIT.get(suited)
    if known is not None:
        return known
    out: list[Candidate] = []
    for n in (3, 4, 5):
        for combo in itertools.combinations(suited, n):
            if is_run(combo):
                out.append((frozenset(combo), f"niz {n}", small_value(Kind.SEQUENCE, combo) or 0))
    for combo in itertools.combinations(suited, 6):
        out.append((frozenset(combo), "6 u boji", small_value(Kind.SIX, combo) or 0))
    known = tuple(out)
    if len(_IN_SUIT) < _IN_SUIT_LIMIT:
        _IN_SUIT[suited] = known
    return known


#: ``_in_suit`` by holding, in the order given (255 holdings of each suit in card order)
_IN_SUIT: dict[tuple[Card, ...], tuple[Candidate, ...]] = {}
_IN_SUIT_LIMIT = 4096


def inner_declarations(cards: Sequence[Card]) -> tuple[tuple[str, int], ...]:
    """AMBIGUITY 32 (a): small declarations inside the cards, each card used once, the best sum.

    >>> from referee.cards import parse_cards
    >>> inner_declarations(parse_cards("AH KH QH JH AS KS QS QD"))
    (('niz 4', 20), ('niz 3', 15))
    """
    candidates = sorted(_candidates(cards), key=lambda c: (-c[2], c[1]))
    best: tuple[int, tuple[tuple[str, int], ...]] = (0, ())

    def search(
        i: int, used: frozenset[Card], total: int, chosen: tuple[tuple[str, int], ...]
    ) -> None:
        nonlocal best
        if total > best[0]:
            best = (total, chosen)
        for j in range(i, len(candidates)):
            group, name, value = candidates[j]
            if not group & used:
                search(j + 1, used | group, total + value, (*chosen, (name, value)))

    search(0, frozenset(), 0, ())
    return best[1]


def declare(text: str, cards: Sequence[Card], *, egalite: bool = False) -> Declaration:
    """Check the shape of a declaration and compute its value; ActionError names what is wrong."""
    kind, krnja, partija = parse_kind(text)
    cards = tuple(cards)
    if len(set(cards)) != len(cards):
        raise R_DECLARATION_CARD_SHOWN_TWICE.error(text=text)
    if kind in (Kind.SEQUENCE, Kind.SIX, Kind.POKER):
        if krnja:
            raise R_DECLARATION_BIG_DECLARATIONS_MAY.error(text=text)
        value = small_value(kind, cards)
        if value is None:
            raise R_DECLARATION.error(text=text, cards=cards, kind=kind.value)
        return Declaration(kind, cards, value)
    size = SIZES[kind]
    missing = size - len(cards)
    if krnja:
        if kind not in PLAY_CHANGING:
            raise R_DECLARATION_MAY_INCOMPLETE_KRNJA.error(text=text)
        if not 1 <= missing <= 3:
            raise R_DECLARATION_KRNJA_SHOWS_CARDS.error(text=text, least=size - 3, most=size - 1)
    elif missing:
        raise R_DECLARATION_SHOWS_CARDS.error(text=text, kind=kind.value, size=size)
    if not _fits(kind, cards):
        raise R_DECLARATION.error(text=text, cards=cards, kind=kind.value)
    if kind is Kind.SEVEN_SUIT:
        return Declaration(kind, cards, 75)
    if kind is Kind.EIGHT_SUIT:
        return Declaration(kind, cards, 45, win_partija=partija)
    inner = inner_declarations(cards) if not missing else ()
    if kind is Kind.EIGHT_BIG:
        base = 25
    else:
        base = PLAY_CHANGING[kind][1] + (EGALITE_EXTRA if egalite else 0)
    return Declaration(kind, cards, base + sum(v for _, v in inner), missing, inner)


def value_of(text: str, cards: Sequence[Card], *, egalite: bool = False) -> int:
    return declare(text, cards, egalite=egalite).value


def possible(
    hand: Sequence[Card], *, first_card: bool, first_round: bool
) -> list[tuple[str, tuple[Card, ...]]]:
    """The declarations a hand can show now, as (name, cards) — one canonical choice of cards
    each; Krnja shows every fitting card of the hand. 8-card ones only at the first card."""
    hand = sorted(hand, key=card_order)
    out: list[tuple[str, tuple[Card, ...]]] = []
    for group, name, _v in _candidates(hand):
        kind = (
            Kind.POKER
            if name.startswith("poker")
            else Kind.SIX
            if name == "6 u boji"
            else Kind.SEQUENCE
        )
        out.append((kind.value, tuple(sorted(group, key=card_order))))
    fits = [_kinds_fitting(c) for c in hand]  # what each card fits, asked once per card
    longest: tuple[Card, ...] | None = None
    for kind, name, size in _SHOWN_NOW[first_card, first_round]:
        if kind is Kind.RAINBOW:
            fitting = tuple(sorted({c.rank: c for c in reversed(hand)}.values(), key=card_order))
        elif kind is Kind.SEVEN_SUIT or kind is Kind.EIGHT_SUIT:
            if longest is None:
                longest = _longest_suit(hand)
            fitting = longest
        else:
            fitting = tuple([c for i, c in enumerate(hand) if kind in fits[i]])
        if len(fitting) == size:
            out.append((name, fitting))
            if kind is Kind.EIGHT_SUIT:
                out.append((f"{name}:{WIN_PARTIJA}", fitting))
        elif kind in PLAY_CHANGING and first_round and 1 <= size - len(fitting) <= 3:
            out.append((f"krnja-{name}", fitting))
    return sorted(out)  # by name, then by cards


def _longest_suit(hand: list[Card]) -> tuple[Card, ...]:
    """The cards of the hand's longest suit (7 or 8 of them make 7 or 8 u boji: one suit)."""
    by_suit: dict[Suit | None, list[Card]] = {}
    for card in hand:
        by_suit.setdefault(card.suit, []).append(card)
    longest: list[Card] = max(by_suit.values(), key=len)
    return tuple(longest)


#: the big declarations ``possible`` looks for, with their names and sizes, by (first card,
#: first round): 8-card ones only at the first card, 7 u boji only in the first round of the deal
_SHOWN_NOW = {
    (first_card, first_round): [
        (kind, kind.value, size)
        for kind, size in SIZES.items()
        if (first_card or kind not in EIGHT_CARD) and (first_round or kind is not Kind.SEVEN_SUIT)
    ]
    for first_card in (False, True)
    for first_round in (False, True)
}
