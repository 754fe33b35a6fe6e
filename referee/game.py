"""A game is a rules class: facts as class attributes, variants as an immutable options object.

Options are nameable in one string, e.g. ``veliki-satir(players=3)``; see ``referee.registry``.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, cast

from typing_extensions import TypeVar

from referee.cards import Card, Deck
from referee.deal import Deal, Mode
from referee.errors import OptionsError
from referee.wording import refusal

R_OPTION_VALID = refusal("options.option_valid", "option {name!r}: {raw!r} is not a valid {kind}")
R_INVALID = refusal("options.invalid", "{reason}")
R_TAKES = refusal("options.takes", "{name} takes {expected}, not {given}")
R_UNKNOWN_OPTION_KNOWN = refusal(
    "options.unknown_option_known", "unknown option {key!r} (known: {known})"
)


@dataclass(frozen=True)
class GameOptions:
    """Base of every game's options (frozen; fields must have defaults)."""

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> GameOptions:
        fields = {f.name: f for f in dataclasses.fields(cls)}
        kwargs: dict[str, Any] = {}
        for key, raw in data.items():
            name = key.replace("-", "_")
            if name not in fields:
                known = ", ".join(sorted(fields)) or "none"
                raise R_UNKNOWN_OPTION_KNOWN.error(OptionsError, key=key, known=known)
            kwargs[name] = _coerce(name, fields[name].type, raw)
        try:
            return cls(**kwargs)
        except (TypeError, ValueError) as exc:
            raise R_INVALID.error(OptionsError, reason=str(exc)) from None

    def to_mapping(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def non_default(self) -> dict[str, Any]:
        default = type(self)()
        return {k: v for k, v in self.to_mapping().items() if getattr(default, k) != v}


def _coerce(name: str, annotation: Any, raw: Any) -> Any:
    kind = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    text = str(raw).strip()
    try:
        if kind == "bool":
            if isinstance(raw, bool):
                return raw
            if text.lower() in ("1", "true", "yes", "on"):
                return True
            if text.lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError
        if kind == "int":
            if isinstance(raw, bool):
                raise ValueError
            return int(text)
        if kind == "float":
            return float(text)
    except ValueError:
        raise R_OPTION_VALID.error(OptionsError, name=name, raw=raw, kind=kind) from None
    return text if kind == "str" else raw


#: a game's options class: ``Game[UltiOptions]`` reads ``options`` as Ulti's (``Game``: the base's)
OptionsT = TypeVar("OptionsT", bound=GameOptions, default=GameOptions, covariant=True)


class PartijaTracker(Protocol):
    """A game's own rule for ending a partija, fed every finished deal."""

    def record(self, result: Any, next_dealer: int) -> bool:
        """Take a finished deal (a DealResult) and the next dealer; True ends the partija."""
        ...


class Game(ABC, Generic[OptionsT]):
    """Base of every rules class. Subclasses set the class facts and implement ``new_deal``."""

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    title: ClassVar[str] = ""
    Options: ClassVar[type[GameOptions]] = GameOptions
    #: four players in two fixed partnerships, partners opposite (RULES.md §0.3)
    partners_opposite: ClassVar[bool] = False
    #: units of the score: 10 means scores are tenths written as P.R (Satir games)
    score_scale: ClassVar[int] = 1

    def __init__(self, options: GameOptions | None = None) -> None:
        opts = options if options is not None else self.Options()
        if not isinstance(opts, self.Options):
            raise R_TAKES.error(
                OptionsError,
                name=self.name,
                expected=self.Options.__name__,
                given=type(opts).__name__,
            )
        #: of the game's own options class, checked above
        self.options = cast(OptionsT, opts)
        #: each seat's side label, worked out when first asked (not a cached property: compiled
        #: with mypyc, a cached property is worked out every time)
        self._side_labels: dict[int, str] | None = None
        self.validate_options()

    def validate_options(self) -> None:  # noqa: B027 - a hook with a do-nothing default
        """Raise OptionsError if the combination of options is not playable."""

    # -- facts that may depend on options ------------------------------------------------------
    @property
    @abstractmethod
    def players(self) -> int: ...

    @property
    @abstractmethod
    def deck(self) -> Deck: ...

    @property
    def sides(self) -> tuple[str, ...]:
        """Score labels: 'A' (seats 0, 2) and 'B' (seats 1, 3) when four play in partnerships
        opposite (``partners_opposite``), else one label per seat."""
        if self.partners_opposite and self.players == 4:
            return ("A", "B")
        return tuple(str(s) for s in range(self.players))

    def side_of(self, seat: int) -> str:
        labels = self._side_labels
        if labels is None:  # worked out once (a game's options do not change)
            labels = self._side_labels = {s: self._side_label(s) for s in range(self.players)}
        return labels.get(seat) or self._side_label(seat)

    def seats_of(self, side: object) -> tuple[int, ...]:
        """The seats that play for ``side`` (none for a score column with no seat, such as
        Dvoglavac's bank)."""
        return tuple(s for s in range(self.players) if self.side_of(s) == side)

    def _side_label(self, seat: int) -> str:
        if self.sides == ("A", "B"):
            return "AB"[seat % 2]
        return str(seat)

    @property
    def spec(self) -> str:
        """The name-and-options string that ``load_game`` reads back."""
        extra = self.options.non_default()
        if not extra:
            return self.name
        inner = ",".join(f"{k.replace('_', '-')}={_fmt(v)}" for k, v in extra.items())
        return f"{self.name}({inner})"

    @property
    def card_points_total(self) -> int:
        """Sum of card points over the deck (for games that count cards, the card count)."""
        return sum(self.card_points(c) for c in self.deck.cards)

    def card_points(self, card: Card) -> int:
        return 1

    #: the rules class's deal; ``new_deal`` builds one
    deal_class: ClassVar[type[Deal]]

    def new_deal(
        self,
        *,
        dealer: int = 0,
        hands: Mapping[int, Sequence[Card]] | None = None,
        setup: Mapping[str, Any] | None = None,
        mode: Mode = Mode.TABLE,
    ) -> Deal:
        """A new deal: ``hands`` when they are known, ``setup`` for the game's own fields."""
        return self.deal_class(self, dealer=dealer, hands=hands, setup=setup, mode=mode)

    def deal_cards(
        self, rng: Any, *, dealer: int = 0
    ) -> tuple[dict[int, list[Card]], dict[str, Any]]:
        """Shuffle and deal with ``rng`` (a random.Random): hands and the deal's setup fields."""
        cards = list(self.deck.cards)
        rng.shuffle(cards)
        per = len(cards) // self.players
        hands = {s: cards[s * per : (s + 1) * per] for s in range(self.players)}
        return hands, {}

    # -- partija and match bookkeeping (see referee.match) -------------------------------------
    partija_target: ClassVar[int] = 0
    partija_strictly_above: ClassVar[bool] = False
    match_target: ClassVar[int] = 1

    def correct(self, totals: dict[str, int]) -> dict[str, int]:
        """The negative-score correction the rules prescribe (default: none)."""
        return totals

    def partija_winner(self, totals: Mapping[str, int]) -> str | None:
        """The side that won the partija with these totals, or None to play on."""
        target = self.partija_target
        if target <= 0:
            return None
        reached = [
            s
            for s, v in totals.items()
            if (v > target if self.partija_strictly_above else v >= target)
        ]
        if not reached:
            return None
        best = max(totals[s] for s in reached)
        leaders = [s for s in reached if totals[s] == best]
        others = [v for s, v in totals.items() if s not in leaders]
        if len(leaders) > 1 or (others and max(others) == best):
            return None  # equal totals at the target: another deal (AMBIGUITY 9)
        return leaders[0]

    def partija_winner_with_marks(
        self, totals: Mapping[str, int], marks: Mapping[str, int]
    ) -> str | None:
        """Like ``partija_winner``, also seeing the partija's tally marks (``Match.marks``, summed
        from ``DealResult.extra["marks"]``): Dvoglavi Lav sweeps, Dvoglavac solos. Default:
        ``partija_winner``."""
        return self.partija_winner(totals)

    def partija_tracker(self) -> PartijaTracker | None:
        """A fresh tracker of the game's own end-of-partija rule, or None (the default)."""
        return None

    def next_deal_rule(
        self, totals: Mapping[str, int], marks: Mapping[str, int]
    ) -> tuple[int | None, dict[str, Any]]:
        """A dealer the rules force for the next deal (or None) and setup fields it must carry
        (Dvoglavac's compulsory solo). Default: no such rule."""
        return None, {}

    def partija_leader(self, totals: Mapping[str, int]) -> str:
        """Who wins a partija that a tracker ended: the highest total (the first side on ties)."""
        return max(self.sides, key=lambda side: (totals.get(side, 0), -self.sides.index(side)))

    def match_result(
        self, partije: Sequence[tuple[str, Mapping[str, int]]], winner: str
    ) -> dict[str, int] | None:
        """The net result of a finished match, where the rules prescribe one (default: none)."""
        return None

    def final_result(self, match: Any, winner: str) -> dict[str, int] | None:
        """The net result the rules prescribe for a finished ``match`` (``referee.match.Match``),
        from its partije (``match_result``) unless the game needs its sheet's deals too."""
        history = list(zip(match.partija_winners, match.partija_totals, strict=True))
        return self.match_result(history, winner)

    def partija_points(self, totals: Mapping[str, int], winner: str) -> dict[str, int]:
        """Match points the finished partija gives each side (default: 1 to the winner)."""
        return {s: int(s == winner) for s in totals}

    def next_partija_totals(self, totals: Mapping[str, int], winner: str) -> dict[str, int]:
        """Totals a new partija starts from (default: all zero; some games carry over)."""
        return {s: 0 for s in totals}

    def next_dealer(self, dealer: int, *, partija_over: bool) -> int:
        return (dealer + 1) % self.players

    def next_dealer_after(self, dealer: int, result: Any, *, partija_over: bool) -> int:
        """The next dealer once ``result`` (a DealResult) is known; games where the winner of a
        deal deals next (gin rummy) override this. Default: ``next_dealer``."""
        return self.next_dealer(dealer, partija_over=partija_over)

    def first_dealer_of_partija(self, due: int, winner: str) -> int:
        """The dealer of a new partija, given the seat ``due`` to deal and the side that won the
        last one (Ružička skips a due dealer of the winning side). Default: ``due``."""
        return due

    def format_score(self, units: int) -> str:
        if self.score_scale == 10:
            sign = "-" if units < 0 else ""
            return f"{sign}{abs(units) // 10}.{abs(units) % 10}"
        return str(units)


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
