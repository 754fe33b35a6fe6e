"""The camera half of the runtime: frames → vision's tracker → sightings → the runtime.

``vision_feeder`` serves the demo (the synthetic table renders a transcript's plays, the
tracker reads them back); ``camera_loop`` serves a real table. Vision never sees game rules:
a misread card reaches the referee as what was seen, and a low-confidence one asks the table.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kibic.config import TableConfig
from kibic.runtime import TableRuntime
from referee.actions import Action
from referee.cards import Card, Deck

log = logging.getLogger(__name__)

Sighting = Any  # vision.events.CardSeen | vision.events.ConfirmationRequested


def model_available() -> bool:
    try:
        from vision.recognizer import DEFAULT_MODEL
    except ImportError:
        return False
    return Path(DEFAULT_MODEL).is_file()


class DemoCamera:
    """Renders each deal's plays on the synthetic table and reads them back with the tracker."""

    def __init__(self, runtime: TableRuntime, *, seed: int = 0) -> None:
        from vision.recognizer import Recognizer

        self.runtime = runtime
        self.recognizer = Recognizer()
        self.seed = seed
        self._deal: int | None = None
        self._sightings: list[Sighting] = []
        self._source: Iterator[list[Sighting]] | None = None
        self.read_back = 0
        self.confirmed = 0

    def _start(self, deal_no: int, plays: list[tuple[int, Card]]) -> None:
        from vision.synthetic import SyntheticTable
        from vision.tracker import CardTracker

        game = self.runtime.game
        deck = game.deck if game.deck is not Deck.FRENCH_52 else Deck.FRENCH_52
        table = SyntheticTable(
            plays, n_seats=game.players, deck=deck, seed=self.seed + deal_no, fast=True
        )
        tracker = CardTracker(self.recognizer, table.calibration, deck=deck)
        self._deal, self._sightings = deal_no, []
        # the synthetic table knows its own calibration; the demo enrols no deck
        self.runtime.set_camera_status({"source": f"synthetic:{self.seed + deal_no}",
                                        "deck": deck.value, "calibrated": True, "profile": None})  # fmt: skip
        self._source = (tracker.process(frame) for frame in table)

    def sighting(
        self, deal_no: int, play_no: int, plays: list[tuple[int, Card]]
    ) -> Sighting | None:
        if self._deal != deal_no:
            self._start(deal_no, plays)
        assert self._source is not None
        while len(self._sightings) <= play_no:
            batch = next(self._source, None)
            if batch is None:
                return None
            self._sightings.extend(batch)
        return self._sightings[play_no]

    def __call__(self, deal_no: int, play_no: int, plays: list[tuple[int, Card]],
                 action: Action, entry_id: str) -> None:  # fmt: skip
        """Submit what the camera saw for this play; a doubtful reading goes to confirmation."""
        from vision.events import CardSeen

        seen = self.sighting(deal_no, play_no, plays)
        assert action.card is not None
        if isinstance(seen, CardSeen) and seen.seat == action.seat and seen.card == action.card:
            self.read_back += 1
            self.runtime.submit(
                Action.play(seen.seat, seen.card, action.value), source="camera", entry_id=entry_id
            )
            return
        # Not read (or read differently): the table is asked, and the director confirms the card
        # actually on the table (the transcript's), as a person at the dashboard would.
        candidates = tuple(getattr(seen, "candidates", ())) or (action.card,)
        confidences = tuple(getattr(seen, "confidences", ())) or (0.0,)
        if isinstance(seen, CardSeen):
            candidates, confidences = (seen.card,), (seen.confidence,)
        request = self.runtime.request_confirmation(action.seat, candidates, confidences)
        self.runtime.confirm_card(request, action.card, entry_id=entry_id, value=action.value)
        self.confirmed += 1


def vision_feeder(runtime: TableRuntime) -> DemoCamera | None:
    """The demo's camera, or None when no trained model is shipped (plays go in directly)."""
    if not model_available():
        return None
    return DemoCamera(runtime)


class CameraStatus:
    """What the dashboard shows of a table's camera, kept up to date from the camera thread:
    the source, the deck, whether the table is calibrated, how much of the deck the profile
    knows and whether it is saved. ``learn()`` applies the people's answers (and undos) to the
    profile; a profile the disk refuses is an alert on the dashboard, once, not a stop."""

    def __init__(self, runtime: TableRuntime, learner: Any, *, source: str, saved: bool) -> None:
        self.runtime = runtime
        self.learner = learner  # vision.enrol.ConfirmationLearner
        self.source = source
        self.saved = saved
        self.calibrated = False
        self._forgotten = 0
        self._error: str | None = None

    def report(self, *, calibrated: bool | None = None) -> None:
        if calibrated is not None:
            self.calibrated = calibrated
        profile = self.learner.profile
        self.runtime.set_camera_status({
            "source": self.source, "deck": profile.deck.value, "calibrated": self.calibrated,
            "profile": {**profile.coverage(),
                        "saved": self.saved and self.learner.save_error is None},
        })  # fmt: skip

    def learn(self) -> None:
        """Apply what people answered since the last frame; report when the profile changed."""
        learner = self.learner
        if not learner.apply() and learner.forgotten == self._forgotten:
            return
        self._forgotten = learner.forgotten
        if learner.save_error is not None and learner.save_error != self._error:
            self.runtime.alert(f"camera: {learner.save_error}")
        self._error = learner.save_error
        self.report()


def camera_loop(runtime: TableRuntime, config: TableConfig, stop: threading.Event) -> None:
    """Read frames from the configured source until ``stop``; feed every sighting."""
    from vision.calibration import TableCalibration
    from vision.deck_profile import DeckProfile
    from vision.enrol import ConfirmationLearner
    from vision.events import CardSeen
    from vision.recognizer import Recognizer
    from vision.sources import open_source
    from vision.synthetic import MAT_SIZE
    from vision.tracker import CardTracker

    cam = config.camera
    spec = {"opencv": f"camera:{cam.device}", "video": f"video:{cam.path}",
            "folder": f"folder:{cam.path}", "synthetic": "synthetic:0"}.get(cam.source, cam.source)  # fmt: skip
    source = open_source(spec)
    deck = Deck.parse(cam.deck)
    calibration: TableCalibration | None = None
    if cam.corners:
        calibration = TableCalibration.from_corners(
            cam.corners, mat_size=MAT_SIZE, n_seats=runtime.game.players
        )
    tracker: CardTracker | None = None
    recognizer = Recognizer()
    # the deck profile: the enrolled one, or one learnt from this session's confirmations
    profile = DeckProfile.load(cam.deck_profile) if cam.deck_profile else DeckProfile(deck)
    learner = ConfirmationLearner(recognizer, profile, cam.deck_profile or None)
    runtime.add_confirmation_listener(learner.confirmed)
    runtime.add_undo_listener(learner.undone)

    status = CameraStatus(runtime, learner, source=spec, saved=bool(cam.deck_profile))
    status.report(calibrated=calibration is not None)
    try:
        for frame in source:
            if stop.is_set():
                break
            if calibration is None:
                try:
                    calibration = TableCalibration.from_aruco(
                        frame, mat_size=MAT_SIZE, n_seats=runtime.game.players
                    )
                except ValueError as exc:
                    log.warning("calibration: %s", exc)
                    continue
                status.report(calibrated=True)
            if tracker is None:
                tracker = CardTracker(recognizer, calibration, deck=deck, profile=profile,
                                      on_commit=learner.on_commit)  # fmt: skip
            status.learn()
            for event in tracker.process(frame):
                if isinstance(event, CardSeen):
                    runtime.on_sighting(event.seat, event.card)
                else:
                    request = runtime.request_confirmation(
                        event.seat, event.candidates, event.confidences, event.profile_card
                    )
                    learner.asked(event, request)
    finally:
        source.close()
