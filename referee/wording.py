"""What the referee says, as facts: every refusal, evidence, score detail and notice has a
stable ``code``, its ``facts`` (seat, card, trick...) and one English template.

The English text is built from the facts here, in one place per kind; the dashboard words the
same facts in the table's language (``web.i18n_referee``). Every kind registers itself in
``KINDS`` when its module is imported, so the codes can be listed from the code itself.

>>> HELD = kind("example.held", "seat {seat} holds {card}", group="evidence")
>>> from referee.cards import Card
>>> said = HELD(seat=2, card=Card.parse("TD"))
>>> said.code, said.facts, said.text
('example.held', {'seat': 2, 'card': 'TD'}, 'seat 2 holds TD')
>>> Said.from_dict(said.to_dict()) == said
True
>>> del KINDS["example.held"]
"""

from __future__ import annotations

import enum
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from referee.errors import ActionError, RefereeError

if TYPE_CHECKING:
    from referee.actions import Action
    from referee.cards import Card

Fact = str | int

#: what a kind is for: a refused input, the proof of a violation, a score sheet's detail line,
#: a notice to the table, or a part of one of those (a constraint, a reason)
GROUPS: Final = ("refusal", "evidence", "detail", "notice", "part")


class Said:
    """One statement: its kind's ``code``, its ``facts``, and the statements it quotes
    (``inner``: by field name, one or more statements joined by '; ').

    A kind's statement keeps the values it was made of and works out its facts (and its text)
    only when they are read: the referee makes statements on its hot paths (refusals of the
    actions it tries, constraints of every play) that nobody may read.
    """

    __slots__ = ("code", "_facts", "_inner", "_values")

    def __init__(
        self,
        code: str,
        facts: dict[str, Fact] | None = None,
        inner: dict[str, tuple[Said, ...]] | None = None,
    ) -> None:
        self.code = code
        self._facts = {} if facts is None else facts
        self._inner = {} if inner is None else inner
        self._values: dict[str, object] | None = None

    @classmethod
    def of_values(cls, code: str, values: dict[str, object]) -> Said:
        """The statement of Python ``values`` (see ``facts_of``), worked out when first read;
        a mutable container among them is copied now, anything else not immutable is read now."""
        said = cls(code)
        said._values = {name: _kept(value) for name, value in values.items()}
        return said

    def _work_out(self) -> None:
        values = self._values
        if values is not None:
            self._facts, self._inner = facts_of(values)
            self._values = None

    @property
    def facts(self) -> dict[str, Fact]:
        if self._values is not None:
            self._work_out()
        return self._facts

    @property
    def inner(self) -> dict[str, tuple[Said, ...]]:
        if self._values is not None:
            self._work_out()
        return self._inner

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Said):
            return NotImplemented
        return self.code == other.code and self.facts == other.facts and self.inner == other.inner

    def __hash__(self) -> int:
        return hash(
            (self.code, tuple(sorted(self.facts.items())), tuple(sorted(self.inner.items())))
        )

    def __repr__(self) -> str:
        return f"Said(code={self.code!r}, facts={self.facts!r}, inner={self.inner!r})"

    def __reduce__(self) -> tuple[type[Said], tuple[str, dict[str, Fact], Any]]:
        return (Said, (self.code, self.facts, self.inner))

    @property
    def text(self) -> str:
        """The English text (the kind's template filled with the facts)."""
        return KINDS[self.code].english_text(self)

    def __str__(self) -> str:
        return self.text

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "facts": dict(self.facts)}
        if self.inner:
            out["inner"] = {k: [s.to_dict() for s in v] for k, v in self.inner.items()}
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Said:
        inner = {
            str(k): tuple(cls.from_dict(s) for s in v) for k, v in (data.get("inner") or {}).items()
        }
        return cls(str(data["code"]), dict(data.get("facts") or {}), inner)


def _referee_types() -> tuple[type[Card], type[Action]]:
    """The card and action classes, imported when first asked (cards and actions word their own
    refusals with this module) and kept (an import in a function is looked up at every call)."""
    global _REFEREE_TYPES
    if _REFEREE_TYPES is None:
        from referee.actions import Action
        from referee.cards import Card

        _REFEREE_TYPES = (Card, Action)
    return _REFEREE_TYPES


_REFEREE_TYPES: tuple[type[Card], type[Action]] | None = None


def _fact(value: object) -> Fact:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, str)):  # a tuple: `int | str` makes a union at every call
        return value
    if isinstance(value, _referee_types()[0]):
        return value.code
    if isinstance(value, enum.Enum):
        return _fact(value.value)
    if isinstance(value, Iterable):
        return " ".join(str(_fact(v)) for v in value)
    if value is None:
        return "—"
    return str(value)


#: values a statement keeps as they are until its facts are read (they cannot change meanwhile)
_IMMUTABLE: tuple[type, ...] = (int, str, tuple, frozenset, enum.Enum, type(None))


def _kept(value: object) -> object:
    """``value`` as a statement keeps it until its facts are read: an immutable value (cards,
    actions, statements, errors) as it is, a list, set or dict copied as a tuple, anything else
    read as a fact now."""
    if isinstance(value, _IMMUTABLE) or type(value) in _KEPT_AS_IS:
        return value
    if isinstance(value, (list, set, dict)):
        return tuple(value)
    if isinstance(value, (Said, RefereeError)):
        return value
    if not _KEPT_AS_IS:
        _KEPT_AS_IS.update(_referee_types())
        if type(value) in _KEPT_AS_IS:
            return value
    return _fact(value)


#: the referee's own immutable types (cards, actions), filled when first needed
_KEPT_AS_IS: set[type] = set()


def facts_of(values: Mapping[str, object]) -> tuple[dict[str, Fact], dict[str, tuple[Said, ...]]]:
    """Facts from Python values: a card becomes its code, cards a space-separated list, an enum
    its value; an action becomes ``action`` (its English words) and ``action_seat``,
    ``action_type``, ``action_card``, ``action_cards``, ``action_value``; a statement (or an
    error that carries one) is quoted as an inner statement."""
    action_type = _referee_types()[1]
    facts: dict[str, Fact] = {}
    inner: dict[str, tuple[Said, ...]] = {}
    for name, value in values.items():
        if isinstance(value, Said):
            inner[name] = (value,)
        elif isinstance(value, RefereeError) and value.said is not None:
            inner[name] = (value.said,)
        elif isinstance(value, (tuple, list)) and value and all(isinstance(v, Said) for v in value):
            inner[name] = tuple(value)
        elif isinstance(value, action_type):
            facts[name] = str(value)
            facts[f"{name}_seat"] = value.seat
            facts[f"{name}_type"] = value.type.value
            if value.card is not None:
                facts[f"{name}_card"] = value.card.code
            if value.cards:
                facts[f"{name}_cards"] = _fact(value.cards)
            if value.value is not None:
                facts[f"{name}_value"] = value.value
        else:
            facts[name] = _fact(value)
    return facts, inner


@dataclass(frozen=True)
class Kind:
    """One kind of statement: its stable code, what it is for, its English template."""

    code: str
    english: str
    group: str
    #: what joins the statements a field quotes (a list of parts: '; ' or ', ')
    joiner: str = "; "
    #: the names the template fills (each a fact or an inner statement), parsed once (a field,
    #: not a cached property: compiled with mypyc, a cached property is worked out every time)
    fields: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = [f for _, f, _, _ in string.Formatter().parse(self.english) if f]
        fields = tuple(dict.fromkeys(n.split("!")[0].split(".")[0] for n in names))
        object.__setattr__(self, "fields", fields)

    def __call__(self, **values: object) -> Said:
        missing = [f for f in self.fields if f not in values]
        if missing:  # a field may be a fact an action gives (``action_seat``...)
            facts, inner = facts_of(values)
            missing = [f for f in missing if f not in facts and f not in inner]
        if missing:
            raise TypeError(f"{self.code}: no fact for {', '.join(missing)}")
        return Said.of_values(self.code, values)

    def refused(self, *, rule: str = "procedure", **values: object) -> Refused:
        """This refusal as a value, not raised: for listing actions by trying them."""
        return Refused(self, rule, values)

    def english_text(self, said: Said) -> str:
        quoted = {k: self.joiner.join(s.text for s in v) for k, v in said.inner.items()}
        return self.english.format(**said.facts, **quoted)

    def error(
        self, cls: type[RefereeError] = ActionError, *, rule: str = "procedure", **values: object
    ) -> RefereeError:
        """The refusal of this kind, as the referee's error (its message the English text)."""
        if "rule" in self.fields:
            values = {"rule": rule, **values}
        said = self(**values)
        if issubclass(cls, ActionError):  # its message is worded when first read
            return cls(None, rule=rule, said=said)
        error = cls(said.text)
        error.said = said
        return error


@dataclass(frozen=True, slots=True)
class Refused:
    """A refusal answered, not raised: its kind and values (``error()`` makes the error)."""

    kind: Kind
    rule: str
    values: dict[str, object]

    def error(self) -> RefereeError:
        return self.kind.error(ActionError, rule=self.rule, **self.values)


#: every kind, by code (filled as the referee's modules are imported)
KINDS: dict[str, Kind] = {}


def kind(code: str, english: str, *, group: str, joiner: str = "; ") -> Kind:
    """Register a kind; a code is registered once (two modules cannot share a code)."""
    if group not in GROUPS:
        raise ValueError(f"{code}: unknown group {group!r} (groups: {', '.join(GROUPS)})")
    known = KINDS.get(code)
    if known is not None and known.english != english:
        raise ValueError(f"{code}: registered twice with different texts")
    made = Kind(code, english, group, joiner)
    KINDS[code] = made
    return made


def refusal(code: str, english: str) -> Kind:
    return kind(code, english, group="refusal")


def evidence(code: str, english: str) -> Kind:
    return kind(code, english, group="evidence")


def detail(code: str, english: str, *, joiner: str = "; ") -> Kind:
    return kind(code, english, group="detail", joiner=joiner)


def notice(code: str, english: str, *, joiner: str = "; ") -> Kind:
    return kind(code, english, group="notice", joiner=joiner)


def part(code: str, english: str, *, joiner: str = "; ") -> Kind:
    return kind(code, english, group="part", joiner=joiner)


def load_all() -> dict[str, Kind]:
    """Every kind of every game (imports every module that registers kinds)."""
    import importlib

    from referee.registry import all_games

    all_games()
    for module in ("referee.deal", "referee.trick", "referee.setup", "referee.seats",
                   "referee.actions", "referee.match", "referee.table_refusals"):  # fmt: skip
        importlib.import_module(module)
    return KINDS
