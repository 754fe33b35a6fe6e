"""The referee's error tree: every error names what was wrong."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.wording import Said


class RefereeError(Exception):
    """Base class of every error the referee raises. ``said``: the same error as a statement
    (code and facts, ``referee.wording``) where its kind is registered, for wording it in
    another language; the message is its English text."""

    said: Said | None = None

    def __str__(self) -> str:
        if not self.args and self.said is not None:
            return self.said.text  # a refusal worded only when read
        return super().__str__()

    @property
    def code(self) -> str | None:
        return self.said.code if self.said is not None else None

    @property
    def facts(self) -> dict[str, Any]:
        return dict(self.said.facts) if self.said is not None else {}


class CardError(RefereeError, ValueError):
    """A card, suit, rank, face or deck could not be parsed or does not belong."""


class OptionsError(RefereeError, ValueError):
    """A game name or option string is malformed or names an unknown option."""


class UnknownGameError(OptionsError, KeyError):
    """No registered game has this name or alias."""

    def __str__(self) -> str:  # KeyError quotes its argument; we want a sentence
        return str(self.args[0]) if self.args else "unknown game"


class ActionError(RefereeError, ValueError):
    """An action cannot be applied: out of turn, wrong phase, unknown card, card played twice."""

    def __init__(
        self, message: str | None, *, rule: str = "procedure", said: Said | None = None
    ) -> None:
        """``message`` None: the English text of ``said``, worded when first read."""
        if message is None:
            if said is None:
                raise TypeError("an ActionError needs a message or a statement")
            super().__init__()
        else:
            super().__init__(message)
        self.rule = rule
        self.said = said

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled with its message worded (an error made with none is rebuilt with its text)
        return (type(self), (str(self),), self.__dict__)


class IllegalPlay(ActionError):
    """A play breaks a rule of the game (raised in strict mode; recorded in table mode)."""


class TranscriptError(RefereeError, ValueError):
    """A transcript file is malformed; the message names the deal and event."""
