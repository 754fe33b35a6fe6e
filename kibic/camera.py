"""The camera half of the runtime: frames → vision's tracker → sightings → the runtime.

``vision_feeder`` serves the demo (the synthetic table renders a transcript's plays, the
tracker reads them back); ``camera_loop`` serves a real table. Vision never sees game rules:
a misread card reaches the referee as what was seen, and a low-confidence one asks the table.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import closing
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from kibic.config import CameraConfig, TableConfig
from kibic.runtime import TableRuntime
from referee.actions import Action
from referee.cards import Card, Deck
from referee.table_refusals import (
    CAMERA_COLOUR,
    CAMERA_FRAME,
    CAMERA_GREY,
    CAMERA_MOVED,
    CAMERA_NOT_SAVED,
    CAMERA_STOPPED,
)

if TYPE_CHECKING:
    from vision.corner_finder import CornerFinder
    from vision.detector import CardDetector
    from vision.events import VisionEvent
    from vision.recognizer import Recognizer
    from vision.tracker import CardTracker, TrackerConfig

log = logging.getLogger(__name__)

Sighting = Any  # vision.events.CardSeen | vision.events.ConfirmationRequested


def model_available() -> bool:
    try:
        from vision.recognizer import DEFAULT_MODEL
    except ImportError:
        return False
    return Path(DEFAULT_MODEL).is_file()


class DemoCamera:
    """Renders each deal's plays on the synthetic table and reads them back with the tracker.

    The tracker's events are matched to the transcript's plays in order, by seat: an event of
    another seat means the camera did not see this play (the director enters it, and the event
    waits for its own play), and an event followed by this play's own is one the table did not
    make (it is passed over). So one card the camera missed costs one question, not the rest of
    the deal.
    """

    def __init__(self, runtime: TableRuntime, *, seed: int = 0) -> None:
        from vision.recognizer import table_recognizer

        self.runtime = runtime
        self.recognizer = table_recognizer()
        self.seed = seed
        self._deal: int | None = None
        self._sightings: list[Sighting] = []
        self._next = 0  # the first event of this deal not yet matched to a play
        self._plays = 0  # the plays of this deal matched so far
        self._source: Iterator[list[Sighting]] | None = None
        # what a table of the deck reads with besides the classic finder (``reading_paths``),
        # by deck: made once, as a table makes them once
        self._paths: dict[Deck, tuple[CornerFinder | None, CardDetector | None,
                                      Recognizer | None]] = {}  # fmt: skip
        self.read_back = 0
        self.confirmed = 0
        self.missed = 0  # plays the camera gave no event for (included in ``confirmed``)

    def _start(self, deal_no: int, plays: list[tuple[int, Card]]) -> None:
        from vision.synthetic import SyntheticTable
        from vision.tracker import CardTracker

        game = self.runtime.game
        deck = game.deck if game.deck is not Deck.FRENCH_52 else Deck.FRENCH_52
        table = SyntheticTable(
            plays, n_seats=game.players, deck=deck, seed=self.seed + deal_no, fast=True
        )
        if deck not in self._paths:
            self._paths[deck] = reading_paths(CameraConfig(deck=deck.value))
        index, detector, second = self._paths[deck]
        tracker = CardTracker(self.recognizer, table.calibration, deck=deck, corners=index,
                              detector=detector, second=second)  # fmt: skip
        self._deal, self._sightings, self._next, self._plays = deal_no, [], 0, 0
        # the synthetic table knows its own calibration; the demo enrols no deck
        self.runtime.set_camera_status({"source": f"synthetic:{self.seed + deal_no}",
                                        "deck": deck.value, "calibrated": True, "profile": None})  # fmt: skip
        self._source = _events(tracker, table)

    def _peek(self, index: int) -> Sighting | None:
        """The deal's ``index``-th event, reading frames until it comes (None: no more)."""
        assert self._source is not None
        while len(self._sightings) <= index:
            batch = next(self._source, None)
            if batch is None:
                return None
            self._sightings.extend(batch)
        return self._sightings[index]

    def sighting(
        self, deal_no: int, play_no: int, plays: list[tuple[int, Card]]
    ) -> Sighting | None:
        """The event that saw play ``play_no`` of deal ``deal_no``, or None if none did."""
        if self._deal != deal_no:
            self._start(deal_no, plays)
        while self._plays < play_no:  # a resumed deal: its earlier plays are in the store
            self._match(*plays[self._plays])
        return self._match(*plays[play_no])

    def _match(self, seat: int, card: Card | None) -> Sighting | None:
        self._plays += 1
        first, second = self._peek(self._next), self._peek(self._next + 1)
        if _saw(second, seat, card) and not _saw(first, seat, card) and _seat(first) != seat:
            self._next += 1  # an event of no play: pass it over
            first = second
        if first is None or _seat(first) != seat:
            return None  # not seen: the event, if any, belongs to a later play
        self._next += 1
        return first

    def __call__(self, deal_no: int, play_no: int, plays: list[tuple[int, Card]],
                 action: Action, entry_id: str) -> None:  # fmt: skip
        """Submit what the camera saw for this play; a doubtful reading goes to confirmation."""
        from vision.events import CardSeen

        seen = self.sighting(deal_no, play_no, plays)
        assert action.card is not None
        if isinstance(seen, CardSeen) and _saw(seen, action.seat, action.card):
            self.read_back += 1
            card = self.runtime.physical_card(seen.seat, seen.card)
            self.runtime.submit(
                Action.play(seen.seat, card, action.value),
                source="camera",
                entry_id=entry_id,
                crop=self.runtime.keep_crop(seen.crop),
            )
            return
        # Not read (or read differently): the table is asked, and the director confirms the card
        # actually on the table (the transcript's), as a person at the dashboard would.
        self.missed += seen is None
        candidates = tuple(getattr(seen, "candidates", ())) or (action.card,)
        confidences = tuple(getattr(seen, "confidences", ())) or (0.0,)
        if isinstance(seen, CardSeen):
            candidates, confidences = (seen.card,), (seen.confidence,)
        crop = getattr(seen, "crop", b"") or None
        request = self.runtime.request_confirmation(action.seat, candidates, confidences,
                                                    crop=crop)  # fmt: skip
        self.runtime.confirm_card(request, action.card, entry_id=entry_id, value=action.value)
        self.confirmed += 1


def _events(tracker: CardTracker, frames: Iterable[np.ndarray]) -> Iterator[list[Sighting]]:
    """The events of each frame, then those of the frames still held at the end (the reading
    at rest under way made at once: ``CardTracker.finish``)."""
    for frame in frames:
        yield tracker.process(frame)
    yield tracker.finish()


def _seat(seen: Sighting | None) -> int | None:
    return getattr(seen, "seat", None)


def _saw(seen: Sighting | None, seat: int, card: Card | None) -> bool:
    """Did ``seen`` read ``card`` at ``seat``? (A doubled deck's copies look alike.)"""
    from vision.events import CardSeen

    return (
        isinstance(seen, CardSeen)
        and seen.seat == seat
        and card is not None
        and replace(seen.card, copy=card.copy) == card
    )


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
        self.stopped: str | None = None  # why no frames come, while none do
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
            **({"stopped": self.stopped} if self.stopped else {}),
        })  # fmt: skip

    def stop(self, why: str) -> None:
        """No frames come (``why``): the dashboard's camera line says so, and one alert."""
        if why != self.stopped:
            self.runtime.alert(CAMERA_STOPPED(why=why))
        self.stopped = why
        self.report()

    def resume(self) -> None:
        """Frames come again."""
        if self.stopped is not None:
            self.stopped = None
            self.report()

    def learn(self) -> None:
        """Apply what people answered since the last frame; report when the profile changed."""
        learner = self.learner
        if not learner.apply() and learner.forgotten == self._forgotten:
            return
        self._forgotten = learner.forgotten
        if learner.save_error is not None and learner.save_error != self._error:
            self.runtime.alert(CAMERA_NOT_SAVED(why=learner.save_error))
        self._error = learner.save_error
        self.report()


def table_tracker_config(config: TableConfig) -> TrackerConfig:
    """The tracker's settings at a real table: its commit threshold is ``[camera]
    commit_threshold``, else the table classifier's (``commit_threshold`` in its labels file),
    else the tracker's default (``vision.reliability.commit_threshold``); what it takes for a
    hand is ``[camera] hand_check`` (``vision.hands``); ``[camera] second_check`` says whether
    the second classifier checks the cards about to be committed (experiment 51);
    ``[camera] rest_steps_per_frame`` how many steps of the reading at rest a frame makes;
    ``[camera] ask_after_frames`` how many frames in motion a card the table cannot decide there
    waits before it is asked (0: until the picture rests; experiments 134 and 134b)."""
    from vision.hands import HandCheck, HandConfig
    from vision.recognizer import DEFAULT_MODEL
    from vision.reliability import commit_threshold
    from vision.tracker import TrackerConfig

    threshold = config.camera.commit_threshold
    if threshold is None:
        threshold = commit_threshold(DEFAULT_MODEL)
    hands = HandConfig(check=HandCheck(config.camera.hand_check))
    steps = config.camera.rest_steps_per_frame
    bound = config.camera.ask_after_frames
    return TrackerConfig(min_confidence=threshold, hands=hands,
                         second_check=config.camera.second_check,
                         rest_steps_per_frame=steps or TrackerConfig.rest_steps_per_frame,
                         undecided_ask_after=(TrackerConfig.undecided_ask_after if bound is None
                                              else bound or None))  # fmt: skip


def index_cards_on(camera: CameraConfig) -> bool:
    """Whether the table's tracker also finds and reads cards by their corner indices:
    ``[camera] index_cards`` when given, else ``vision.tracker_index.DEFAULT_ON`` for a deck
    the corner-index reader reads (French-suited, one copy of each card), never for another."""
    from vision.labels import index_readable
    from vision.tracker_index import DEFAULT_ON

    if not index_readable(Deck.parse(camera.deck)):
        return False
    return DEFAULT_ON if camera.index_cards is None else camera.index_cards


def learned_cards_on(camera: CameraConfig) -> bool:
    """Whether the table's tracker also finds cards by the learned detector at rest:
    ``[camera] learned_cards`` when given, else ``vision.tracker_learned.DEFAULT_ON``."""
    from vision.tracker_learned import DEFAULT_ON

    return DEFAULT_ON if camera.learned_cards is None else camera.learned_cards


def second_opinion(camera: CameraConfig) -> Recognizer | None:
    """The second classifier of the table's tracker: the still-photo classifier with the table's
    corner-index reader, unless ``[camera] second_opinion`` is false or it is not shipped
    (``vision.recognizer.table_second_opinion``)."""
    from vision.recognizer import PHOTO_MODEL, table_second_opinion

    if camera.second_opinion is False or not PHOTO_MODEL.is_file():
        return None
    return table_second_opinion()


class ColourWatch:
    """Says on the dashboard when the camera's picture loses its colour and when it has it
    again: in a frame of no colour every card read by its face is asked
    (``vision.tracker_learned.colourless``), and the director should know why. The colour is
    looked at on the first frame and every ``every`` frames after it."""

    def __init__(self, runtime: TableRuntime, every: int = 150) -> None:
        self.runtime, self.every = runtime, every
        self.frames = 0
        self.grey = False

    def check(self, frame: np.ndarray) -> None:
        from vision.tracker_learned import colourless

        self.frames += 1
        if (self.frames - 1) % self.every:
            return
        grey = colourless(frame)
        if grey != self.grey:
            self.runtime.alert(CAMERA_GREY() if grey else CAMERA_COLOUR())
        self.grey = grey


def reading_paths(camera: CameraConfig, index: Callable[[], CornerFinder] | None = None,
                  ) -> tuple[CornerFinder | None, CardDetector | None, Recognizer | None]:  # fmt: skip
    """What a table of ``camera``'s settings reads its deck with besides the classic finder,
    each None when off: the corner-index finder (``index_cards_on``; made by ``index``, default
    the shipped one), the learned detector (``learned_cards_on``) and the second classifier
    (``second_opinion``)."""
    finder = None
    if index_cards_on(camera):
        from vision.corner_finder import CornerFinder

        finder = (index or CornerFinder)()
    detector = None
    if learned_cards_on(camera):
        from vision.detector import CardDetector

        detector = CardDetector()
    return finder, detector, second_opinion(camera)


# seconds between tries to reopen a live camera that failed or stopped giving frames
RETRY_SECONDS = 5.0


def frames(spec: str, status: CameraStatus, stop: threading.Event, *,
           opener: Callable[[str], Any] | None = None,
           retry: float = RETRY_SECONDS) -> Generator[np.ndarray, None, None]:  # fmt: skip
    """The frames of the source ``spec`` until ``stop``. When the source cannot be opened,
    fails or ends, ``status`` says why on the dashboard (and raises one alert). A live camera
    (``camera:N``, ``picamera2``: unplugged, or its driver failed) is opened again every
    ``retry`` seconds, and the camera line clears with its first frame; a file, a folder or
    the synthetic table just ends."""
    from vision.sources import as_bgr, open_source

    opener = opener or open_source
    live = spec.partition(":")[0] in ("camera", "picamera2")
    while not stop.is_set():
        source = None
        try:
            source = opener(spec)
            for frame in source:
                status.resume()
                yield as_bgr(frame)
                if stop.is_set():
                    return
            why = "the camera gives no more frames" if live else "the source ended"
        except Exception as exc:  # noqa: BLE001 - a driver's failure is shown, not a crash
            log.warning("camera %s: %s", spec, exc)
            why = f"{spec}: {exc}" if str(exc) else f"{spec}: {type(exc).__name__}"
        finally:
            if source is not None:
                source.close()
        status.stop(why)
        if not live or stop.wait(retry):
            return


def camera_loop(runtime: TableRuntime, config: TableConfig, stop: threading.Event, *,
                opener: Callable[[str], Any] | None = None,
                retry: float = RETRY_SECONDS) -> None:  # fmt: skip
    """Read frames from the configured source until ``stop``; feed every sighting. A source
    that fails is shown on the dashboard (see ``frames``; ``opener`` stands for
    ``vision.sources.open_source`` in tests)."""
    from vision.calibration import MarkerWatch, TableCalibration
    from vision.deck_profile import DeckProfile
    from vision.enrol import ConfirmationLearner
    from vision.events import CardSeen
    from vision.recognizer import table_recognizer
    from vision.sources import fit_frame
    from vision.synthetic import MAT_SIZE
    from vision.tracker import CardTracker

    cam = config.camera
    tracker_config = table_tracker_config(config)
    spec = {"opencv": f"camera:{cam.device}", "video": f"video:{cam.path}",
            "folder": f"folder:{cam.path}", "synthetic": "synthetic:0"}.get(cam.source, cam.source)  # fmt: skip
    deck = Deck.parse(cam.deck)
    calibration: TableCalibration | None = None
    # corners given by hand are in the camera's own pixels; the frames are read scaled down to
    # ``CAMERA_SIZE``'s pixels at most (``fit_frame``), and the calibration with them
    by_hand: TableCalibration | None = None
    scale = (1.0, 1.0)
    if cam.corners:
        calibration = by_hand = TableCalibration.from_corners(
            cam.corners, mat_size=MAT_SIZE, n_seats=runtime.game.players
        )
    tracker: CardTracker | None = None
    recognizer = table_recognizer()
    index, detector, second = reading_paths(cam)
    # the deck profile: the enrolled one, or one learnt from this session's confirmations
    profile = DeckProfile.load(cam.deck_profile) if cam.deck_profile else DeckProfile(deck)
    learner = ConfirmationLearner(recognizer, profile, cam.deck_profile or None)
    runtime.add_confirmation_listener(learner.confirmed)
    runtime.add_undo_listener(learner.undone)
    runtime.add_correction_listener(learner.corrected)

    if cam.source == "synthetic" and opener is None:
        from kibic.synthetic_game import SyntheticGame

        def opener(_spec: str) -> SyntheticGame:
            return SyntheticGame(runtime, deck=deck)

    status = CameraStatus(runtime, learner, source=spec, saved=bool(cam.deck_profile))
    status.report(calibrated=calibration is not None)

    colour = ColourWatch(runtime)
    by_markers = calibration is None  # corners given by hand are not checked again
    watch: MarkerWatch | None = None

    def read(frame: np.ndarray) -> None:
        """One frame, scaled down to the table's pixels: calibrate from the mat's markers until
        that works (or scale the corners given by hand with the frame), then track."""
        nonlocal calibration, tracker, watch, scale
        frame, fitted = fit_frame(frame)
        if by_hand is not None and fitted != scale:
            scale, calibration = fitted, by_hand.scaled(fitted)
            if tracker is not None:
                tracker.calibration = calibration
        if calibration is None:
            try:
                calibration = TableCalibration.from_aruco(
                    frame, mat_size=MAT_SIZE, n_seats=runtime.game.players
                )
            except ValueError as exc:
                log.warning("calibration: %s", exc)
                return
            status.report(calibrated=True)
        if by_markers and watch is None:
            watch = MarkerWatch(calibration, n_seats=runtime.game.players)
        elif watch is not None and (moved := watch.check(frame)) is not None:
            calibration, shift = moved
            if tracker is not None:  # its cards are in mat mm: those on the mat stay known
                tracker.calibration = calibration
            runtime.alert(CAMERA_MOVED(shift=f"{shift:.0f}"))
        if tracker is None:
            tracker = CardTracker(recognizer, calibration, deck=deck, profile=profile,
                                  config=tracker_config, on_commit=learner.on_commit,
                                  corners=index, detector=detector, second=second)  # fmt: skip
        status.learn()
        colour.check(frame)
        emit(tracker.process(frame))

    def emit(events: list[VisionEvent]) -> None:
        for event in events:
            if isinstance(event, CardSeen):
                runtime.on_sighting(event.seat, event.card, crop=event.crop or None)
            else:
                request = runtime.request_confirmation(
                    event.seat,
                    event.candidates,
                    event.confidences,
                    event.profile_card,
                    crop=event.crop or None,
                )
                learner.asked(event, request)

    failed: set[str] = set()  # what went wrong reading a frame, each said once
    with closing(frames(spec, status, stop, opener=opener, retry=retry)) as feed:
        for frame in feed:
            if stop.is_set():
                break
            try:
                read(frame)
            except Exception as exc:  # noqa: BLE001 - one bad frame must not stop the camera
                why = f"{type(exc).__name__}: {exc}"[:200]
                log.exception("camera: a frame could not be read")
                if why not in failed:
                    failed.add(why)
                    runtime.alert(CAMERA_FRAME(why=why))
        if tracker is not None and not stop.is_set():  # the source ended: the frames held too
            emit(tracker.finish())
