"""Deck enrolment: learn a table's deck profile by showing its cards to the camera.

The cards are put on the mat one after another in a known order (by default the deck's own:
``Deck.cards``, e.g. 7C 8C ... AC 7D ... for piquet), each left until it has been read and
then taken away or covered by the next. Every card the tracker commits, confirmed or not, is
kept; at the end the sightings are matched to the order (``DeckEnrolment.finish``: a card
the camera missed, or saw twice, does not shift the others onto wrong names), and the
embeddings of each matched sighting become that card's references (``vision.deck_profile``).
Where the classifier alone read something else, the enrolment says so: either the design is
strange (what the profile is for) or the order was broken.

Vision still knows no rules: the order is the deck's, not a game's.
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from referee.cards import Card, Deck, Rank
from referee.faces import face_label
from vision.calibration import TableCalibration
from vision.deck_profile import DeckProfile
from vision.events import CardSeen, ConfirmationRequested, VisionEvent
from vision.labels import FAMILY_DECK, NONE_LABEL, family_of
from vision.recognizer import Prediction, Recognizer
from vision.tracker import CardTracker, TrackerConfig

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Enrolled:
    """A card of the order matched to a sighting, with what the classifier alone made of it;
    ``taken`` when its embeddings went into the profile."""

    card: Card
    label: str
    read_as: str  # the classifier's best reading of the sighting, alone
    confidence: float
    taken: bool = True

    @property
    def agrees(self) -> bool:
        return self.read_as == self.label


@dataclass(frozen=True)
class Sighted:
    """A card the tracker committed during enrolment, before the sightings are matched to
    the order: ``expected`` is the card it is if none was missed or repeated so far."""

    index: int
    expected: Card | None
    read_as: str
    confidence: float


@dataclass
class _Sighting:
    views: list[np.ndarray]
    logp: np.ndarray  # log probability of each card of the order, the model alone
    read_as: str
    confidence: float


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


COURTS = frozenset({Rank.JACK, Rank.QUEEN, Rank.KING, Rank.JOKER})


def court_order(deck: Deck) -> list[Card]:
    """The deck's court cards (jacks, queens, kings and a Joker) in the deck's order: in a
    French-suited deck the cards that look alike, whose enrolment alone gives most of a full
    one's gain (models/MODEL_HISTORY.md, experiment 11)."""
    return [card for card in enrolment_order(deck) if card.rank in COURTS]


class DeckEnrolment:
    """Feeds frames to a tracker, keeps every committed card, and at the end matches the
    sightings to the order (``finish``).

    Matching is a global alignment (Needleman-Wunsch) of the sightings against the order,
    scored by the classifier's own log probability of each pairing. A card the camera never
    committed, or one committed twice, costs a gap (log 1e-3) instead of shifting every later
    card onto the wrong name: a missed card stays out of the profile, an extra sighting is
    dropped. A pairing the classifier flatly contradicts (below 1e-3 for the named card while
    at least 0.9 sure of another) is reported and not taken.
    """

    GAP = float(np.log(1e-3))
    REFUSE_BELOW = 1e-3
    REFUSE_OTHER = 0.9

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
        self._order_labels = [label_of(c, deck) for c in self.order]
        self._index = {label: i for i, label in enumerate(recognizer.labels)}
        self.sightings: list[_Sighting] = []
        self.enrolled: list[Enrolled] = []  # filled by finish()
        self.missed: list[Card] = []
        self.extra: list[str] = []  # readings of sightings matched to no card
        self.finished = False
        self.tracker = CardTracker(recognizer, calibration, deck=deck, config=config,
                                   on_commit=self._keep)  # fmt: skip

    @property
    def done(self) -> bool:
        """As many sightings as cards in the order."""
        return len(self.sightings) >= len(self.order)

    def process(self, frame: np.ndarray) -> list[Sighted]:
        """Take one frame; return the cards it committed (usually none)."""
        before = len(self.sightings)
        self.tracker.process(frame)
        out = []
        for k in range(before, len(self.sightings)):
            seen = self.sightings[k]
            expected = self.order[k] if k < len(self.order) else None
            out.append(Sighted(k, expected, seen.read_as, seen.confidence))
        return out

    def run(self, frames: Iterable[np.ndarray]) -> DeckProfile:
        """Every frame until there are as many sightings as cards, then ``finish``."""
        for frame in frames:
            self.process(frame)
            if self.done:
                break
        return self.finish()

    def _keep(self, event: VisionEvent, readings: list[Prediction],
              crops: list[np.ndarray]) -> None:  # fmt: skip
        probs = self.recognizer.probabilities(crops, self.deck).mean(axis=0)
        cards = np.array([0.0 if label == NONE_LABEL else p
                          for label, p in zip(self.recognizer.labels, probs, strict=True)])  # fmt: skip
        best = int(np.argmax(cards))
        cols = [self._index[label] for label in self._order_labels]
        logp = np.log(np.maximum(probs[cols], 1e-9))
        views = card_views(self.recognizer, readings, crops, turned=self.turned)
        self.sightings.append(
            _Sighting(views, logp, self.recognizer.labels[best], float(cards[best]))
        )

    def alignment(self) -> list[tuple[int | None, int | None]]:
        """(sighting, card of the order) pairs, either side None for a gap, in order."""
        m, n = len(self.sightings), len(self.order)
        score = np.zeros((m + 1, n + 1))
        score[1:, 0] = self.GAP * np.arange(1, m + 1)
        score[0, 1:] = self.GAP * np.arange(1, n + 1)
        for i in range(1, m + 1):
            logp = self.sightings[i - 1].logp
            for j in range(1, n + 1):
                score[i, j] = max(score[i - 1, j - 1] + logp[j - 1],
                                  score[i - 1, j] + self.GAP, score[i, j - 1] + self.GAP)  # fmt: skip
        pairs: list[tuple[int | None, int | None]] = []
        i, j = m, n
        while i > 0 or j > 0:
            if (
                i > 0
                and j > 0
                and np.isclose(score[i, j], score[i - 1, j - 1] + self.sightings[i - 1].logp[j - 1])
            ):
                pairs.append((i - 1, j - 1))
                i, j = i - 1, j - 1
            elif i > 0 and np.isclose(score[i, j], score[i - 1, j] + self.GAP):
                pairs.append((i - 1, None))
                i -= 1
            else:
                pairs.append((None, j - 1))
                j -= 1
        return pairs[::-1]

    def finish(self) -> DeckProfile:
        """Match the sightings to the order and file the matched ones; the profile."""
        if self.finished:
            return self.profile
        self.finished = True
        for i, j in self.alignment():
            if j is None:
                assert i is not None
                self.extra.append(self.sightings[i].read_as)
                continue
            card, label = self.order[j], self._order_labels[j]
            if i is None:
                self.missed.append(card)
                continue
            seen = self.sightings[i]
            contradicted = (
                float(np.exp(seen.logp[j])) < self.REFUSE_BELOW
                and seen.confidence >= self.REFUSE_OTHER
                and seen.read_as != label
            )
            if not contradicted:
                for view in seen.views:
                    self.profile.add(label, view)
            self.enrolled.append(
                Enrolled(card, label, seen.read_as, seen.confidence, taken=not contradicted)
            )
        return self.profile


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
    ``path`` (``DeckProfile.save``) when one is given. A person's answer is the truth the
    referee goes by, so it is the one thing learnt during play; a card the camera committed by
    itself is never taken as a reference.

    A wrong answer is put right at the table by undoing the play: ``undone(request_id)`` (the
    runtime's undo listener) makes the next ``apply()`` forget the references that answer gave.

    A card the camera committed wrongly and a person then corrected (``corrected(seat, played,
    card)``, the runtime's correction listener) is a person's answer too: the views the camera
    committed ``played`` on at ``seat`` become references of ``card``, the card that lay there.
    """

    def __init__(self, recognizer: Recognizer, profile: DeckProfile,
                 path: str | Path | None = None, *, keep: int = 64) -> None:  # fmt: skip
        self.recognizer = recognizer
        self.profile = profile
        self.path = Path(path) if path else None
        self.keep = keep
        self.learnt = 0
        self.forgotten = 0
        self.save_error: str | None = None  # why the last save failed, if it did
        self._views: dict[int, list[np.ndarray]] = {}  # by id() of a request not yet put
        self._pending: dict[str, list[np.ndarray]] = {}  # by the table's request id
        self._committed: dict[tuple[int, Card], list[np.ndarray]] = {}  # by (seat, card read)
        self._corrections: queue.Queue[tuple[int, Card, Card]] = queue.Queue()
        self._answers: queue.Queue[tuple[str, Card | None]] = queue.Queue()  # None: undone

    def on_commit(self, event: VisionEvent, readings: list[Prediction],
                  crops: list[np.ndarray]) -> None:  # fmt: skip
        if isinstance(event, ConfirmationRequested):
            self._views[id(event)] = card_views(self.recognizer, readings, crops)
            _trim(self._views, self.keep)
        elif isinstance(event, CardSeen):  # kept in case a person corrects it
            key = (event.seat, event.card.logical)
            self._committed.pop(key, None)
            self._committed[key] = card_views(self.recognizer, readings, crops)
            _trim(self._committed, self.keep)

    def asked(self, event: VisionEvent, request_id: str) -> None:
        views = self._views.pop(id(event), None)
        if views:
            self._pending[request_id] = views
            _trim(self._pending, self.keep)

    def confirmed(self, request_id: str, card: Card) -> None:
        """A person's answer (any thread)."""
        self._answers.put((request_id, card))

    def undone(self, request_id: str) -> None:
        """The play that answered ``request_id`` was undone (any thread)."""
        self._answers.put((request_id, None))

    def corrected(self, seat: int, played: Card, card: Card) -> None:
        """A person corrected the card ``seat`` played as ``played`` to ``card`` (any thread)."""
        self._corrections.put((seat, played, card))

    def apply(self) -> int:
        """Learn the answers given since the last call, and forget those undone since; how
        many cards were learnt."""
        learnt = forgotten = 0
        deck_cards = {c.logical for c in self.profile.deck.cards}
        while True:
            try:
                seat, played, truth = self._corrections.get_nowait()
            except queue.Empty:
                break
            views = self._committed.pop((seat, played.logical), None)
            if not views or truth.logical not in deck_cards:
                continue
            source = f"correction:{seat}:{played.logical.code}:{truth.logical.code}"
            for view in views:
                self.profile.add(label_of(truth, self.profile.deck), view, source)
            learnt += 1
        while True:
            try:
                request_id, card = self._answers.get_nowait()
            except queue.Empty:
                break
            if card is None:
                forgotten += bool(self.profile.forget(request_id))
                continue
            views = self._pending.pop(request_id, None)
            if not views or card.logical not in deck_cards:
                continue
            for view in views:
                self.profile.add(label_of(card, self.profile.deck), view, request_id)
            learnt += 1
        if (learnt or forgotten) and self.path is not None:
            try:
                self.profile.save(self.path)
                self.save_error = None
            except OSError as exc:  # a full or read-only disk: keep learning in memory
                self.save_error = f"deck profile {self.path} not saved: {exc}"
                log.warning("%s", self.save_error)
        self.learnt += learnt
        self.forgotten += forgotten
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
