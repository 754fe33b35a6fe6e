"""What vision tells the table runtime: a committed card sighting, or a request to confirm one."""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.cards import Card, Deck

Corners = tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class CardSeen:
    """A card that appeared at ``seat``'s place and was read stably and confidently.

    ``card`` is the logical card (copy index 0 even in doubled decks: copies look alike),
    ``face`` the physical face label, ``corners`` the card's four corners in frame pixels
    (clockwise from the upright top-left) and ``frame_index`` the frame that committed it.
    ``crop``: the warped card of the last stable reading as JPEG (``vision.crops``), or empty.
    """

    seat: int
    card: Card
    face: str
    deck: Deck
    confidence: float
    corners: Corners
    frame_index: int
    crop: bytes = field(default=b"", repr=False, compare=False)


@dataclass(frozen=True)
class ConfirmationRequested:
    """A card appeared at ``seat`` but was not read confidently: ask a person which it is.

    ``candidates`` are the likeliest cards, best first, with their ``confidences``.
    ``profile_card`` is set when the reason to ask is the deck profile, not a low confidence:
    the card the deck's enrolled cards look most like, which differs from the card read (it
    is among the candidates). ``crop``: the warped card the readings were made from, as JPEG.
    """

    seat: int
    candidates: tuple[Card, ...]
    confidences: tuple[float, ...]
    frame_index: int
    corners: Corners = ()
    profile_card: Card | None = None
    crop: bytes = field(default=b"", repr=False, compare=False)


VisionEvent = CardSeen | ConfirmationRequested
