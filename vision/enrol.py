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

import os
import queue
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from referee.cards import Card, Deck
from referee.faces import face_label
from vision.calibration import TableCalibration
from vision.deck_profile import DeckProfile
from vision.events import CardSeen, ConfirmationRequested, VisionEvent
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
        for view in card_views(self.recognizer, readings, crops, turned=self.turned):
            self.profile.add(label, view)
        if isinstance(event, CardSeen):
            read_as = label_of(event.card, self.deck)
        else:
            read_as = "?"
        self.enrolled.append(Enrolled(card, label, read_as, float(event_confidence(event))))


def card_views(recognizer: Recognizer, readings: list[Prediction], crops: list[np.ndarray],
               *, turned: bool = True) -> list[np.ndarray]:  # fmt: skip
    """The embeddings to keep for one committed card: the mean of its stable readings' and,
    with ``turned``, of its crops turned round (as a player across the table puts it down)."""
    views: list[np.ndarray] = []
    feats = [p.features for p in readings if p.features is not None]
    if feats:
        views.append(np.mean(np.stack(feats), axis=0))
    if crops and turned:
        flipped = recognizer.embed([np.ascontiguousarray(c[::-1, ::-1]) for c in crops])
        views.append(flipped.mean(axis=0))
    return views


class ConfirmationLearner:
    """Learns the table's deck profile from the cards people confirm during play.

    Give ``on_commit`` to the tracker; call ``asked(event, request_id)`` once a
    ``ConfirmationRequested`` is put to the table, ``confirmed(request_id, card)`` from any
    thread when a person answers, and ``apply()`` in the tracker's thread (every frame): each
    confirmed card's views become references of that card, and the profile is saved to
    ``path`` (written whole, then renamed over the old file) when one is given. A person's
    answer is the truth the referee goes by, so it is the one thing learnt during play; a
    card the camera committed by itself is never taken as a reference.
    """

    def __init__(self, recognizer: Recognizer, profile: DeckProfile,
                 path: str | Path | None = None, *, keep: int = 64) -> None:  # fmt: skip
        self.recognizer = recognizer
        self.profile = profile
        self.path = Path(path) if path else None
        self.keep = keep
        self.learnt = 0
        self._views: dict[int, list[np.ndarray]] = {}  # by id() of a request not yet put
        self._pending: dict[str, list[np.ndarray]] = {}  # by the table's request id
        self._answers: queue.Queue[tuple[str, Card]] = queue.Queue()

    def on_commit(self, event: VisionEvent, readings: list[Prediction],
                  crops: list[np.ndarray]) -> None:  # fmt: skip
        if isinstance(event, ConfirmationRequested):
            self._views[id(event)] = card_views(self.recognizer, readings, crops)
            _trim(self._views, self.keep)

    def asked(self, event: VisionEvent, request_id: str) -> None:
        views = self._views.pop(id(event), None)
        if views:
            self._pending[request_id] = views
            _trim(self._pending, self.keep)

    def confirmed(self, request_id: str, card: Card) -> None:
        """A person's answer (any thread)."""
        self._answers.put((request_id, card))

    def apply(self) -> int:
        """Learn the answers given since the last call; how many cards were learnt."""
        learnt = 0
        while True:
            try:
                request_id, card = self._answers.get_nowait()
            except queue.Empty:
                break
            views = self._pending.pop(request_id, None)
            if not views or card.logical not in {c.logical for c in self.profile.deck.cards}:
                continue
            for view in views:
                self.profile.add(label_of(card, self.profile.deck), view)
            learnt += 1
        if learnt and self.path is not None:
            tmp = self.path.with_name(self.path.name + ".tmp")
            self.profile.save(tmp)
            os.replace(tmp, self.path)
        self.learnt += learnt
        return learnt


def _trim(store: dict[Any, list[np.ndarray]], keep: int) -> None:
    while len(store) > keep:
        del store[next(iter(store))]  # the oldest


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
