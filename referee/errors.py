"""The referee's error tree: every error names what was wrong."""

from __future__ import annotations


class RefereeError(Exception):
    """Base class of every error the referee raises."""


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

    def __init__(self, message: str, *, rule: str = "procedure") -> None:
        super().__init__(message)
        self.rule = rule


class IllegalPlay(ActionError):
    """A play breaks a rule of the game (raised in strict mode; recorded in table mode)."""


class TranscriptError(RefereeError, ValueError):
    """A transcript file is malformed; the message names the deal and event."""
