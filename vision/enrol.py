"""Deck enrolment: learn a table's deck profile by showing its cards to the camera.

The cards are put on the mat one after another in a known order (by default the deck's own:
``Deck.cards``, e.g. 7C 8C ... AC 7D ... for piquet), each left until it has been read and
then taken away or covered by the next. Every card the tracker commits, confirmed or not, is
taken to be the next card of the order; the embeddings of its stable readings become that
card's references (``vision.deck_profile``). Where the classifier alone read something else,
the enrolment says so: either the design is strange (what the profile is for) or the order
was broken, which the person enrolling can tell at once.

Vision still knows no rules: the order is the deck's, not a game's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from referee.cards import Card, Deck
from referee.faces import face_label
from vision.calibration import TableCalibration
from vision.deck_profile import DeckProfile
from vision.events import CardSeen, VisionEvent
from vision.labels import FAMILY_DECK, family_of
from vision.recognizer import Prediction, Recognizer
from vision.tracker import CardTracker, TrackerConfig


@dataclass(frozen=True)
class Enrolled:
    """One card taken into the profile, with what the classifier alone made of it."""

    card: Card
    label: str
    read_as: str  # the classifier's reading, or "?" when it asked for confirmation
    confidence: float

    @property
    def agrees(self) -> bool:
        return self.read_as == self.label


def label_of(card: Card, deck: Deck) -> str:
    """The model label of ``card`` printed in ``deck``'s family (e.g. ``french:AS``)."""
    family = family_of(deck)
    return f"{family}:{face_label(card.logical, FAMILY_DECK[family])}"


def enrolment_order(deck: Deck) -> list[Card]:
    """The deck's cards once each (a doubled deck's second copies are the same faces)."""
    seen: list[Card] = []
    for card in deck.cards:
        if card.logical not in seen:
            seen.append(card.logical)
    return seen


class DeckEnrolment:
    """Feeds frames to a tracker and files each committed card under the next expected one."""

    def __init__(self, recognizer: Recognizer, calibration: TableCalibration, *, deck: Deck,
                 order: Sequence[Card] | None = None, profile: DeckProfile | None = None,
                 config: TrackerConfig | None = None, turned: bool = True) -> None:  # fmt: skip
        if not recognizer.has_features:
            recognizer.embed([])  # raises, naming the model and the fix
        self.deck = deck
        self.order = list(order) if order is not None else enrolment_order(deck)
        unknown = [c.code for c in self.order if c.logical not in {x.logical for x in deck.cards}]
        if unknown:
            raise ValueError(f"not cards of the {deck.value} deck: {', '.join(unknown)}")
        self.profile = profile if profile is not None else DeckProfile(deck)
        self.recognizer = recognizer
        self.turned = turned
        self.enrolled: list[Enrolled] = []
        self.tracker = CardTracker(recognizer, calibration, deck=deck, config=config,
                                   on_commit=self._file)  # fmt: skip

    @property
    def done(self) -> bool:
        return len(self.enrolled) >= len(self.order)

    @property
    def next_card(self) -> Card | None:
        return None if self.done else self.order[len(self.enrolled)]

    def process(self, frame: np.ndarray) -> list[Enrolled]:
        """Take one frame; return the cards it enrolled (usually none)."""
        before = len(self.enrolled)
        self.tracker.process(frame)
        return self.enrolled[before:]

    def run(self, frames: Iterable[np.ndarray]) -> DeckProfile:
        """Every frame until the whole order is enrolled; the profile."""
        for frame in frames:
            self.process(frame)
            if self.done:
                break
        return self.profile

    def _file(self, event: VisionEvent, readings: list[Prediction],
              crops: list[np.ndarray]) -> None:  # fmt: skip
        card = self.next_card
        if card is None:
            return  # the order is complete: anything more is ignored
        label = label_of(card, self.deck)
        feats = [p.features for p in readings if p.features is not None]
        if feats:
            self.profile.add(label, np.mean(np.stack(feats), axis=0))
        if crops and self.turned:  # the card as a player across the table puts it down
            turned = self.recognizer.embed([np.ascontiguousarray(c[::-1, ::-1]) for c in crops])
            self.profile.add(label, turned.mean(axis=0))
        if isinstance(event, CardSeen):
            read_as = label_of(event.card, self.deck)
        else:
            read_as = "?"
        self.enrolled.append(Enrolled(card, label, read_as, float(event_confidence(event))))


def enrolment_table(
    deck: Deck,
    *,
    n_seats: int = 4,
    seed: int = 0,
    design_seed: int = 0,
    order: Sequence[Card] | None = None,
):  # type: ignore[no-untyped-def]
    """A synthetic table where the cards of ``order`` (default the deck's) are put down one at
    a time, each taken away before the next: an enrolment to test with, or to demonstrate."""
    from vision.synthetic import SyntheticTable

    cards = list(order) if order is not None else enrolment_order(deck)
    plays = [(k % n_seats, card) for k, card in enumerate(cards)]
    return SyntheticTable(plays, n_seats=n_seats, deck=deck, seed=seed, fast=True,
                          design_seed=design_seed, trick_size=1)  # fmt: skip


def event_confidence(event: VisionEvent) -> float:
    """The confidence of a sighting, or of the best candidate of a confirmation request."""
    if isinstance(event, CardSeen):
        return event.confidence
    confidences = getattr(event, "confidences", ())
    return float(confidences[0]) if confidences else 0.0
