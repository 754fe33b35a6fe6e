"""From frames to committed sightings: find, read, track, and commit only what is stable.

A track follows one card lying on the mat. Each frame where no hand is over it, the card is
read (a card found where it lay in the last frame, whose picture has not changed since it was
read, keeps that reading: ``vision.reading_reuse``, ``reuse_level``; experiment 73); once
``stable_frames`` readings in a row agree, the track commits once: a ``CardSeen``
when the mean confidence reaches ``min_confidence``, otherwise a ``ConfirmationRequested``
with the likeliest candidates. A hand over a card (``vision.hands``: a skin-coloured region
that is neither the table's own colour nor a card's print) hides it from both reading and
forgetting; a card gone from view for ``forget_after`` clear frames is
forgotten, so the next card put in its place is a new play. Where another card is read
surely at a track's place before the track was forgotten (taken and put under one hand), the
table is asked about it (``ConfirmationRequested``), never told.

With a ``profile`` of the deck in use (``vision.deck_profile``), each reading is weighed by how
close the crop is to that deck's enrolled cards, and once every card of the deck is enrolled
the least confidence committed without asking is ``min_confidence_profiled``; a play is then
committed only if the card read is also the one nearest to the deck's references in each of
its stable readings (``profile_must_agree``), else a person is asked.

With a corner-index finder (``corners``, ``vision.tracker_index``; French-suited decks of one
copy of each card), cards that show only a strip with their index (fanned, under the next card)
are found and read by that index too, and an index on a card found whole confirms or contests
its reading. A card read by its index is committed at ``min_confidence`` (a deck profile
neither lowers it nor learns from it), else asked. With the learned card detector
(``detector``, ``vision.tracker_learned``), the cards the classic finder misses (on a light or
grained table, small ones) are found too and read like the cards found whole, and the cards of
a fan or a pile each on its own outline (``learned_apart``, experiment 116c: a covered card is
committed only where an index of its own agrees with its face; since experiment 117 its corners
are read by the second classifier's corner-index reader too, ``covered_by_corners``; since
experiment 118 every card at rest is, ``corners_at_rest``: where its corners name the card read,
they are one more index of its own, confirming and backing it, never counting against it;
since experiment 120 the cards of a tight fan are kept apart where their corners read them,
and a classic quad around two such cards is no card, ``tight_fans``). Both cost more
than the rest of a frame, so they read only while the table is at rest: one reading of the
first frame at rest since the picture last changed stands for the first ``stable_frames``
frames at rest (``still_level``), and its work is spread over frames, ``rest_steps_per_frame``
steps a frame (``vision.rest_schedule``). A frame whose reading is not done yet is held, with
every frame after it, and they are applied in order once it is: their events come a few frames
late, each with the index of the frame it was decided on. In a frame of no colour, no card
read by its whole face is committed (``vision.tracker_learned.colourless``). A recognizer with
gates (``vision.recognizer.table_recognizer``) has them read at rest, a gate a step, on the
learned cards and on the classic finder's quads of the picture at rest: the frames that reading
stands for take their verdict for the card found at the same place (experiments 115d and 115e).

With a ``second`` classifier (the still-photo classifier, trained further on real photographs:
``vision.recognizer.photo_recognizer``), a card read by its face below the commit threshold is
read again by it when it is decided, on its latest crop: read as the same card, the surer of the
two confidences stands (so it may be committed); read as another card, that card is offered
too when the table is asked. It costs one reading a doubtful card. With ``second_check`` (an
option, off; experiments 51 and 52) it also reads a card about to be committed by its face at
or above the threshold, weighed by its corner-index reader on the card warped at face size
from the frame it was last read in: when it reads another card, the card is asked, both
offered. The table classifier learnt from rendered cards only and is sure of some real printed
designs it misreads; the check costs one reading a committed card, and keeps a reference to
each track's last frame. With ``pip_check`` (an option, off; experiment 56) a French-suited card
about to be committed is asked when its face in that frame shows more pips than its rank has
(``vision.pips``).

Vision knows decks (which faces exist) but never rules: it reports what it saw.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from referee.cards import Deck
from vision.calibration import TableCalibration
from vision.crops import encode_crop
from vision.deck_profile import DeckProfile
from vision.events import CardSeen, ConfirmationRequested, Corners, VisionEvent
from vision.finder import FoundCard, find_cards, warp_card
from vision.hands import HandCheck, covered, find_hands, print_of
from vision.index_reader import face_of
from vision.labels import NONE_LABEL, card_for_label, family_of, index_readable
from vision.pips import contradicts, count_pips
from vision.reading_reuse import KeptReadings
from vision.recognizer import Prediction, Recognizer
from vision.rest_schedule import RestReading, RestSchedule, ScheduleConfig
from vision.tracker_config import TrackerConfig
from vision.tracker_corners import agreeing as corners_agreeing
from vision.tracker_corners import (
    by_corners,
    corner_sighting,
    corners_offered,
    ranked,
    surely_by_corners,
    two_cards,
)
from vision.tracker_index import (
    ASKED_ALWAYS,
    IndexPrediction,
    IndexSighting,
    confirm_or_contest,
    loose_cards,
    on_quad,
    sightings_in_steps,
)
from vision.tracker_learned import (
    SAME_IOU,
    TIGHT_IOU,
    LearnedCard,
    learned_in_steps,
    not_committable,
    on_marker,
    overlaps,
    same_card,
)

if TYPE_CHECKING:
    from collections.abc import Generator

    from vision.corner_finder import CornerFinder
    from vision.detector import CardDetector
    from vision.index_reader import IndexReader

# called with a committed event, the readings it was decided on and their crops
OnCommit = Callable[[VisionEvent, list[Prediction], list[np.ndarray]], None]
# a card seen: its place (frame px and mat mm), seat, reading and picture
_Read = tuple[FoundCard, np.ndarray, int, Prediction, np.ndarray]
# the classic finder's cards read by one gate in one step of the reading at rest (experiment 115e)
GATED_PER_STEP = 4


@dataclass(frozen=True, eq=False)
class AtRest:
    """What was read in a picture at rest: its corner indices (None without the corner path),
    the learned detector's cards apart from the classic finder's, and the classic finder's
    quads (``whole``) with, in their order, each gate's probability that the card there is none
    (``whole_nones``, experiment 115e; empty without gates) and the corner-index reader's card
    probabilities of its corners (``whole_corners``, experiment 118; empty where not read)."""

    sightings: list[IndexSighting] | None
    learned: list[LearnedCard]
    whole: list[np.ndarray] = field(default_factory=list)
    whole_nones: list[tuple[float, ...]] = field(default_factory=list)
    whole_corners: list[np.ndarray] = field(default_factory=list)

    def quad_under(self, corners: np.ndarray) -> int | None:
        """The place in ``whole`` of the first quad at rest that ``corners`` (a card found in
        a later frame) overlaps, None where none."""
        return next((k for k, quad in enumerate(self.whole) if overlaps(corners, quad)), None)


@dataclass(frozen=True, eq=False)
class _Seen:
    """What the classic path saw in one frame, before it is applied to the tracks."""

    frame_index: int
    calibration: TableCalibration
    found: list[FoundCard]
    hands: list[np.ndarray]
    visible: list[tuple[FoundCard, np.ndarray, int]]
    predictions: list[Prediction]
    crops: list[np.ndarray]
    reading: RestReading[AtRest] | None  # the reading at rest that stands for it, if any
    frame: np.ndarray | None = None  # the frame itself (not a copy): the second check's faces


@dataclass(eq=False)
class _Track:
    center: np.ndarray  # mat mm
    seat: int
    corners: np.ndarray
    readings: list[Prediction] = field(default_factory=list)
    crops: list[np.ndarray] = field(default_factory=list)  # of the readings, for on_commit
    last_crop: np.ndarray | None = None  # of the latest reading: the picture kept at commit
    # the frame of the latest reading (``second_check``, ``pip_check``)
    last_frame: np.ndarray | None = None
    missing: int = 0
    committed: bool = False
    by_index: bool = False  # last seen by its corner index alone
    at_rest: bool = False  # last seen only by a reading at rest (its index, the learned detector)
    decided: str | None = None  # the label it was committed or asked on
    # frames it was left undecided in motion (its corners reading no card, 129, or contesting
    # its face, 131b) since it was last decided (``undecided_ask_after``, experiments 134 and
    # 134b)
    undecided: int = 0


class CardTracker:
    """Turns frames into ``CardSeen`` / ``ConfirmationRequested`` events for one table."""

    def __init__(self, recognizer: Recognizer, calibration: TableCalibration, *, deck: Deck,
                 config: TrackerConfig | None = None, profile: DeckProfile | None = None,
                 on_commit: OnCommit | None = None, corners: CornerFinder | None = None,
                 detector: CardDetector | None = None,
                 second: Recognizer | None = None) -> None:  # fmt: skip
        """``on_commit`` is called with each event, the readings it was decided on (their
        embeddings kept on them) and their crops: deck enrolment learns from it (not from a
        card read by its index). ``corners``: the corner-index finder, for a French-suited
        deck of one copy of each card (else ValueError). ``detector``: the learned card
        detector, read at rest. ``second``: a second classifier, asked about a card read by its
        face below the commit threshold when it is decided (experiment 38), and with
        ``config.second_check`` about one at or above it (experiment 51)."""
        if profile is not None:
            profile.check_deck(deck)
        if corners is not None and not index_readable(deck):
            raise ValueError(f"the corner-index path reads French-suited decks of one copy of "
                             f"each card, not {deck.value}")  # fmt: skip
        self.corners = corners
        self.detector = detector
        self.second = second
        self.recognizer = recognizer
        self.calibration = calibration
        self.deck = deck
        self.config = config or TrackerConfig()
        cfg = self.config
        if corners is not None:
            corners.prepare(cfg.index_finder_parts)
        self.schedule = (
            RestSchedule(self._rest_steps, ScheduleConfig(
                stable_frames=cfg.stable_frames, still_level=cfg.still_level,
                still_width=cfg.still_width, steps_per_frame=cfg.rest_steps_per_frame))
            if corners is not None or detector is not None else None
        )  # fmt: skip
        self._held: list[_Seen] = []  # seen, not applied yet: a reading they wait for
        # the readings of the cards whose pictures have not changed, not made again
        self.kept_readings = KeptReadings(cfg.reuse_level, cfg.reuse_shift)
        self.profile = profile
        self.on_commit = on_commit
        self.frame_index = -1
        self.tracks: list[_Track] = []

    def _hands(self, frame: np.ndarray, found: list[FoundCard]) -> list[np.ndarray]:
        """Contours (frame pixels) of the hands over the table (``vision.hands``)."""
        w, h = self.calibration.mat_size
        view = self.calibration.to_image(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32))
        return find_hands(frame, card_area_px=self._expected_card_area(), view=view,
                          cards=[card.corners for card in found], config=self.config.hands)  # fmt: skip

    def _rest_steps(self, picture: np.ndarray, found: list[FoundCard]
                    ) -> Generator[None, None, AtRest]:  # fmt: skip
        """The steps of the reading of ``picture`` at rest (``found``: the classic finder's
        cards in it): its corner indices, then the learned detector's other cards."""
        cfg = self.config
        indices = None
        if self.corners is not None:
            indices = yield from sightings_in_steps(
                picture, self.corners, self.deck, parts=cfg.index_finder_parts,
                boxes_per_step=cfg.index_boxes_per_step)  # fmt: skip
        learned: list[LearnedCard] = []
        if self.detector is not None:
            if indices is not None:
                yield
            learned = yield from learned_in_steps(
                picture, [card.corners for card in found], self.detector, self.recognizer,
                self.deck, profile=self.profile, keep_features=self.on_commit is not None,
                per_step=cfg.learned_per_step, apart=cfg.learned_apart,
                index=self._corners_reader, every=self._corners_at_rest,
                tight=self._tight_fans)  # fmt: skip
        whole_nones: list[tuple[float, ...]] = []
        if self.recognizer.gates and found:  # each gate a step a few crops (experiment 115e)
            crops = [warp_card(picture, card.corners) for card in found]
            nones = yield from self.recognizer.gate_in_steps(crops, self.deck, GATED_PER_STEP)
            whole_nones = [tuple(float(n[k]) for n in nones) for k in range(len(found))]
        whole_corners: list[np.ndarray] = []
        reader = self._corners_reader
        if self._corners_at_rest and reader is not None:  # four a step (experiment 118)
            for k in range(0, len(found), GATED_PER_STEP):
                yield
                part = found[k : k + GATED_PER_STEP]
                probs = reader.read([face_of(picture, card.corners) for card in part])
                whole_corners += list(probs)
        whole = [card.corners for card in found]
        return AtRest(indices, learned, whole, whole_nones, whole_corners)

    @property
    def _corners_reader(self) -> IndexReader | None:
        """The corner-index reader that reads a covered learned card by its corners (experiment
        117): the ``second`` classifier's, with ``covered_by_corners``, for a deck it reads."""
        if not (self.config.learned_apart and self.config.covered_by_corners):
            return None
        if self.second is None or not index_readable(self.deck):
            return None
        return self.second.index

    @property
    def _tight_fans(self) -> bool:
        """Whether the cards of a tight fan are kept apart (experiments 119c and 120): with the
        learned cards apart and the corner-index reader that must read them."""
        return (self.config.learned_apart and self.config.tight_fans
                and self._corners_reader is not None)  # fmt: skip

    @property
    def _weak_by_corners(self) -> bool:
        """Whether a card its face reads weakly is read by its corners where they read another
        card surely (experiment 122): with every card read by its corners at rest."""
        return self.config.weak_face_by_corners and self._corners_at_rest

    @property
    def _corners_in_motion(self) -> bool:
        """Whether a card decided in motion by its face is checked by its corners on that
        frame (experiments 128 to 131b): with the corner-index reader."""
        return self.config.corners_in_motion and self._corners_reader is not None

    @property
    def _keeps_frames(self) -> bool:
        """Whether a card's track keeps the frame it was last read in: the checks at commit
        that read its face again (``second_check``, ``pip_check``, ``corners_in_motion``)."""
        cfg = self.config
        return cfg.second_check or cfg.pip_check or self._corners_in_motion

    @property
    def _corners_at_rest(self) -> bool:
        """Whether every card at rest is read by its corners (experiment 118): with the corner
        finder and the corner-index reader."""
        return (self.config.corners_at_rest and self.corners is not None
                and self._corners_reader is not None)  # fmt: skip

    def _own_corners(self, read: _Read, probs: np.ndarray) -> IndexSighting | None:
        """The reading by its corners at rest of ``read``, a card the classic finder found in a
        frame, read as a card: ``probs``, those of the quad at rest it overlaps (experiment
        118)."""
        card, _, _, pred, _ = read
        reader = self._corners_reader
        if reader is None or not pred.is_card:
            return None
        return corner_sighting(card, probs, reader)

    @property
    def frames_to_settle(self) -> int:
        """Frames of a table at rest until each card on it is committed or asked (with a
        reading at rest: one more, the first frame has none before it to be still against,
        and then ``finish``)."""
        return self.config.stable_frames + (self.schedule is not None)

    @property
    def held(self) -> int:
        """Frames seen and not applied yet: they wait for a reading at rest."""
        return len(self._held)

    def _expected_card_area(self) -> float:
        """A card's area in pixels at the mat centre (63 x 88 mm)."""
        w, h = self.calibration.mat_size
        quad = np.array([[w / 2, h / 2], [w / 2 + 63, h / 2], [w / 2 + 63, h / 2 + 88],
                           [w / 2, h / 2 + 88]], dtype=np.float32)  # fmt: skip
        return float(cv2.contourArea(self.calibration.to_image(quad)))

    def process(self, frame: np.ndarray) -> list[VisionEvent]:
        """Take one BGR frame; return the sightings it committed (usually none; with the
        corner path, also those of held frames whose reading is done)."""
        self.frame_index += 1
        seen = self._see(frame, find_cards(frame, self.config.finder))
        if self.schedule is None:
            return self._apply(seen)
        seen = replace(seen, reading=self.schedule.reading_for(frame, _as_cards(seen)))
        self._held.append(seen)
        self.schedule.advance()
        return self._release()

    def finish(self) -> list[VisionEvent]:
        """At the end of the frames: the readings at rest under way made at once and every
        held frame applied; their events."""
        if self.schedule is not None:
            self.schedule.finish()
        return self._release()

    def _release(self) -> list[VisionEvent]:
        """The held frames applied, oldest first, up to the first whose reading is not done."""
        events: list[VisionEvent] = []
        while self._held and (self._held[0].reading is None or self._held[0].reading.done):
            seen = self._held.pop(0)
            events += self._apply(seen)
        return events

    def _see(self, frame: np.ndarray, found: list[FoundCard]) -> _Seen:
        """The classic path on ``frame``, where the classic finder found ``found``: the hands,
        and the readings of the cards on the mat under no hand (no reading at rest yet)."""
        hands = self._hands(frame, found)
        centers = (
            self.calibration.to_table(np.array([f.center for f in found], np.float32))
            if found
            else np.zeros((0, 2), np.float32)
        )
        visible: list[tuple[FoundCard, np.ndarray, int]] = []
        for card, center in zip(found, centers, strict=True):
            seat = self.calibration.seat_at_table((float(center[0]), float(center[1])))
            if seat is not None and not covered(card.corners, hands):
                visible.append((card, center, seat))
        crops = [warp_card(frame, card.corners) for card, _, _ in visible]
        keep = self.on_commit is not None
        profile = self.profile
        predictions = self.kept_readings.read(
            crops, [card.corners for card, _, _ in visible],
            lambda fresh: self.recognizer.predict(fresh, self.deck, profile=profile,
                                                  keep_features=keep, gated=False),
            key=(id(profile), profile.version if profile is not None else 0, keep),
        )  # fmt: skip
        return _Seen(self.frame_index, self.calibration, found, hands, visible,
                     not_committable(list(predictions), frame), crops, None,
                     frame if self._keeps_frames else None)  # fmt: skip

    def _apply(self, seen: _Seen) -> list[VisionEvent]:
        """The tracks updated with what ``seen``'s frame showed (and what its reading at rest
        read, when one stands for it and is done); the events it commits."""
        cfg = self.config
        hands, frame_index, reading = seen.hands, seen.frame_index, seen.reading
        at_rest = reading.result if reading is not None else None
        whole: list[_Read] = [(card, center, seat, pred, crop) for (card, center, seat), pred, crop
                              in zip(seen.visible, seen.predictions, seen.crops, strict=True)]  # fmt: skip
        agreeing: set[int] = set()
        own: dict[int, IndexSighting] = {}  # cards' corners read at rest (experiment 118)
        if at_rest is not None and (at_rest.whole_nones or at_rest.whole_corners):
            for n, read in enumerate(whole):
                if (k := at_rest.quad_under(read[0].corners)) is None:
                    continue  # on no quad at rest: read as its frame reads it
                if at_rest.whole_nones:
                    whole[n] = read = self._gated(read, at_rest.whole_nones[k])
                sighting = (self._own_corners(read, at_rest.whole_corners[k])
                            if at_rest.whole_corners else None)  # fmt: skip
                if sighting is not None:
                    own[id(read[0])] = sighting
        learned = (self._learned(seen, at_rest.learned, agreeing, own)
                   if at_rest is not None else [])  # fmt: skip
        if self._tight_fans and len(learned) > 1:
            kept = [(card.corners, pred.label) for card, _, _, pred, _ in learned]
            whole = [read for read in whole if not two_cards(read[0].corners, kept)]
        loose: list[_Read] = []
        if reading is not None and at_rest is not None and at_rest.sightings is not None:
            whole, learned, loose = self._with_indices(reading.picture, seen, whole, learned,
                                                       at_rest.sightings, agreeing, own)  # fmt: skip

        matched: set[int] = set()
        reads = [(*read, False, False) for read in whole]
        reads += [(*read, False, True) for read in learned]
        reads += [(*read, True, True) for read in loose]
        for card, center, seat, pred, crop, by_index, by_rest in reads:
            track = self._nearest(center, matched) or self._under(
                seen.calibration, card.corners, center, by_index, matched
            )
            if track is None:
                track = _Track(center=center, seat=seat, corners=card.corners)
                self.tracks.append(track)
            matched.add(id(track))
            track.center, track.corners, track.missing = center, card.corners, 0
            track.by_index, track.at_rest = by_index, by_rest
            if pred.is_card:
                track.last_crop, track.last_frame = crop, seen.frame
                track.readings.append(pred)
                del track.readings[: -cfg.stable_frames]  # only the latest are ever used
                if self.on_commit is not None:
                    track.crops.append(crop)
                    del track.crops[: -cfg.stable_frames]
            else:
                track.readings.clear()
                track.crops.clear()
        events: list[VisionEvent] = []
        # with readings at rest and ``decide_at_rest`` (an option), a card is decided only on a
        # frame one stands for: in motion the classic path alone reads it (experiment 126)
        decides = self.schedule is None or reading is not None or not cfg.decide_at_rest
        for track in list(self.tracks):
            if id(track) not in matched:
                if covered(track.corners, hands):
                    continue  # under a hand: neither read nor forgotten
                if track.at_rest and at_rest is None:
                    continue  # seen only at rest, and this frame was not read at rest
                track.missing += 1
                if track.missing >= cfg.forget_after:
                    self.tracks.remove(track)
                continue
            event = (
                self._maybe_commit(track, frame_index, moving=reading is None) if decides else None
            )
            if event is not None:
                events.append(event)
                by_index = any(isinstance(p, IndexPrediction) for p in track.readings)
                if self.on_commit is not None and not by_index:
                    self.on_commit(event, track.readings, track.crops)
        return events

    def _learned(self, seen: _Seen, cards: list[LearnedCard], agreeing: set[int],
                 own: dict[int, IndexSighting] | None = None) -> list[_Read]:  # fmt: skip
        """The learned detector's ``cards`` that ``seen``'s frame shows as cards of their own
        (read as a card at ``index_floor`` or above, or at ``agreeing_floor`` or above for an
        index on it to agree with in ``_with_indices``, apart from the cards the classic finder
        found in it but those it read as no card, on none of the mat's markers, on the table at
        a seat, under no hand but its own print), as ``seen.visible`` with a reading and a
        picture. With ``learned_apart``, a card overlapping another is kept where ``_apart``;
        read by its corners (``_by_corners``) as another card surely, it is read so, and where
        they read its face's card its ``FoundCard``'s id joins ``agreeing`` (experiment 117).
        With every card read by its corners at rest, a card read by its face gives ``own`` its
        corners' reading (experiment 118); with ``weak_face_by_corners`` (an option), a card that
        overlaps none read weakly by its face is read by its corners where they read another
        card surely (experiment 122)."""
        out: list[_Read] = []
        classic = _as_cards(seen)
        least = self.config.index_floor
        if self.corners is not None:  # an index on it may agree (``_with_indices``)
            least = min(least, self.config.agreeing_floor)
        labels = {id(card): pred.label for (card, _, _), pred
                  in zip(seen.visible, seen.predictions, strict=True)}  # fmt: skip
        reader = self._corners_reader

        def read_elsewhere(card: LearnedCard) -> set[str]:
            """The cards read in the picture by the classic cards and the other learned cards
            (their faces, and the readings kept so far)."""
            faces = {other.prediction.label for other in cards if other is not card}
            return (set(labels.values()) | faces | {r[3].label for r in out}) - {NONE_LABEL}

        for card in cards:
            pred = card.prediction
            quad = card.found.corners
            others = [(other.corners, labels.get(id(other))) for other in classic]
            others += [(r[0].corners, r[3].label) for r in out]
            over = [lab for q, lab in others if overlaps(quad, q)]
            read = by_corners(card.corners_read, reader, over) if reader is not None else None
            sure = read is not None and read.confidence >= self.config.index_floor
            if card.tight and not sure:
                continue  # two outlines of one card, or a tight fan unread (experiment 119b)
            if read is not None and sure and read.label != pred.label:
                pred = read  # a covered card read by its corners, not its face (experiment 117)
            if (not over and self._weak_by_corners and reader is not None
                    and card.corners_read is not None):  # fmt: skip
                pred = surely_by_corners(pred, ranked(card.corners_read, reader),
                                         self.config.index_floor, self.config.min_confidence,
                                         read_elsewhere(card))  # fmt: skip
            if card.tight and pred.label in read_elsewhere(card):
                continue  # a card read elsewhere in the picture: one copy of each (119c)
            if not pred.is_card or pred.confidence < least:
                continue  # (below the index floor: kept where an index on it agrees)
            if not self.config.learned_apart:
                if any(overlaps(quad, other.corners) for other in classic):
                    continue
            else:
                if not self._apart(quad, pred, others):
                    continue
                if (read is not None and read.label == pred.label and pred is not read
                        and read.confidence >= self.config.agreeing_floor):  # fmt: skip
                    agreeing.add(id(card.found))  # its corners agree with its face
                if self.corners is None and any(overlaps(quad, q) for q, _ in others):
                    if id(card.found) not in agreeing:
                        pred = replace(pred, committable=False)  # covered: nothing proves it
            center = seen.calibration.to_table(np.array([card.found.center], np.float32))[0]
            if on_marker(center, seen.calibration.mat_size):
                continue
            seat = seen.calibration.seat_at_table((float(center[0]), float(center[1])))
            hands = seen.hands
            if self.config.hands.check is HandCheck.TABLE:  # its own print is no hand
                hands = [hand for hand in hands if not print_of(hand, card.found.corners)]
            if seat is None or covered(card.found.corners, hands):
                continue
            if (own is not None and self._corners_at_rest and reader is not None
                    and card.corners_read is not None and pred is card.prediction):  # fmt: skip
                own[id(card.found)] = corner_sighting(card.found, card.corners_read, reader)
            out.append((card.found, center, seat, pred, card.crop))
        return out

    def _apart(self, quad: np.ndarray, pred: Prediction,
               others: list[tuple[np.ndarray, str | None]]) -> bool:  # fmt: skip
        """Whether a learned card at ``quad`` read ``pred`` is a card of its own beside the
        ``others`` (quads and the cards read on them, None where not read): it is the same card
        as none of them (``same_card``), and where it overlaps one (a fan, a pile: experiment
        116), read at the index floor or above as another card than each it overlaps."""
        over = [label for other, label in others if overlaps(quad, other)]
        if not over:
            return True
        iou = SAME_IOU if self._tight_fans else TIGHT_IOU
        if any(same_card(quad, other, iou) for other, _ in others):
            return False
        return pred.confidence >= self.config.index_floor and pred.label not in over

    def _with_indices(self, picture: np.ndarray, seen: _Seen, whole: list[_Read],
                      learned: list[_Read], indices: list[IndexSighting],
                      corners_agree: set[int] | None = None,
                      own: dict[int, IndexSighting] | None = None,
                      ) -> tuple[list[_Read], list[_Read], list[_Read]]:  # fmt: skip
        """The cards found ``whole`` (by the classic finder in ``seen``'s frame) and those of
        the ``learned`` detector, their readings confirmed or contested by the indices on them
        (a learned card with an index on it that reads another card at ``index_floor`` or
        above left to the corner path; one whose indices read another card less surely and
        none its own card at the floor asked, experiment 65; one read below the index floor
        kept only where an index on it reads its card at ``agreeing_floor`` or above, asked
        unless that index is at the index floor, experiments 112 and 112b),
        and the cards read by the indices on no card found (with a picture cut from
        ``picture``, the frame the indices were read in: on the table, at a seat, under no
        hand). With ``learned_apart``, a learned card that overlaps a card read or kept counts
        only the indices on no such card, and is asked unless one of them reads its card at
        ``agreeing_floor`` or above, or its corners agreed (``corners_agree``: the ids of their
        ``FoundCard``; experiments 116c and 117). A card's ``own`` corners read at rest, where
        they name the card read, are one more index on it (experiment 118); with
        ``weak_face_by_corners`` (an option), where its face reads it weakly and they read another
        card surely, they are its reading (experiment 122)."""
        threshold = self.config.min_confidence
        calibration, hands = seen.calibration, seen.hands
        own = own or {}
        read: list[np.ndarray] = []  # the cards found and read as a card
        confirmed: list[_Read] = []
        faces = ([(id(c), p.label) for c, _, _, p, _ in whole + learned if p.is_card]
                 if self._weak_by_corners else [])  # fmt: skip
        for card, center, seat, pred, crop in whole:
            if pred.is_card:
                read.append(card.corners)
                sighting = own.get(id(card))
                if self._weak_by_corners and sighting is not None:
                    elsewhere = {label for i, label in faces if i != id(card)}
                    pred = surely_by_corners(pred, sighting.prediction, self.config.index_floor,
                                             threshold, elsewhere)  # fmt: skip
                on_card = [s for s in indices if on_quad(s, card.corners)]
                on_card += corners_agreeing(pred, sighting)
                pred = confirm_or_contest(pred, on_card, threshold)
                pred = corners_offered(pred, sighting)
            confirmed.append((card, center, seat, pred, crop))
        kept: list[_Read] = []
        floor = self.config.index_floor
        whole_read = list(read)
        for card, center, seat, pred, crop in learned:
            on_card = [s for s in indices if on_quad(s, card.corners)]
            shared: list[np.ndarray] = []
            if self.config.learned_apart:  # not the indices it shares with a card it overlaps
                shared = [q for q in whole_read + [c.corners for c, *_ in kept]
                          if overlaps(card.corners, q)]  # fmt: skip
                on_card = [s for s in on_card if not any(on_quad(s, q) for q in shared)]
            sighting = own.get(id(card))
            on_card += corners_agreeing(pred, sighting)
            if shared and id(card) not in (corners_agree or set()) and not any(
                    s.prediction.label == pred.label
                    and s.prediction.confidence >= self.config.agreeing_floor
                    for s in on_card):  # fmt: skip
                pred = replace(pred, committable=False)  # covered: its index proves it
            if pred.confidence < floor:  # read weakly: a card where an index on it agrees
                agreeing = [s.prediction.confidence for s in on_card
                            if s.prediction.label == pred.label]  # fmt: skip
                if max(agreeing, default=0.0) < self.config.agreeing_floor:
                    continue  # no card (experiment 112)
                if max(agreeing) < floor:  # asked; as sure as its index alone at the floor
                    pred = replace(pred, committable=False)
            against = [s.prediction.confidence for s in on_card
                       if s.prediction.is_card and s.prediction.label != pred.label]  # fmt: skip
            if any(p >= floor for p in against):
                continue  # a card under others, outlined over their indices
            read.append(card.corners)
            backed = any(s.prediction.label == pred.label and s.prediction.confidence >= floor
                         for s in on_card)  # fmt: skip
            pred = confirm_or_contest(pred, on_card, threshold)
            if against and not backed:  # an index reads another card, less surely: asked
                pred = replace(pred, committable=False)
            pred = corners_offered(pred, sighting)
            kept.append((card, center, seat, pred, crop))
        # under a hand, off the mat, or read: the indices on them are not loose
        hidden = [card.corners for card in seen.found
                  if not any(card is c for c, _, _ in seen.visible)]  # fmt: skip
        free = [s for s in indices if not any(on_quad(s, quad) for quad in hidden + read)]
        taken = {p.label for _, _, _, p, _ in confirmed + kept if p.is_card}
        out: list[_Read] = []
        for s in loose_cards(free, taken, self.config.index_floor):
            quad = s.quad()
            center = calibration.to_table(np.array([s.center], np.float32))[0]
            at = calibration.seat_at_table((float(center[0]), float(center[1])))
            if at is None or covered(quad, hands):
                continue
            out.append((FoundCard(quad), center, at, s.prediction, s.picture(picture)))
        return confirmed, kept, out

    @property
    def min_confidence(self) -> float:
        """The least mean confidence committed without asking: lower with a complete profile."""
        if self.profile is not None and not self.profile.missing:
            return self.config.min_confidence_profiled
        return self.config.min_confidence

    def _agrees(self, readings: list[Prediction]) -> bool:
        """Whether the readings may be committed as far as the deck profile goes: always,
        unless ``profile_must_agree`` and the profile is complete, and then only if each
        reading's card is the one its crop is nearest to among the enrolled cards."""
        if not self.config.profile_must_agree or self.profile is None or self.profile.missing:
            return True
        return all(p.nearest is None or p.nearest == p.label for p in readings)

    def _under(self, calibration: TableCalibration, corners: np.ndarray, center: np.ndarray,
               by_index: bool, taken: set[int]) -> _Track | None:  # fmt: skip
        """The other way of seeing the same card: for a card found whole (``corners``, frame
        px), a track seen by its index alone whose place lies on it; for a card read by its
        index (``center``, mat mm), the track of a card found whole that it lies on."""
        pixel = calibration.to_image(center.reshape(1, 2))[0]
        for track in self.tracks:
            if id(track) in taken or track.by_index == by_index:
                continue
            if by_index:
                quad, point = track.corners, pixel
            else:
                quad, point = corners, calibration.to_image(track.center.reshape(1, 2))[0]
            inside = cv2.pointPolygonTest(np.asarray(quad, np.float32).reshape(-1, 1, 2),
                                          (float(point[0]), float(point[1])), False)  # fmt: skip
            if inside >= 0:
                return track
        return None

    def _nearest(self, center: np.ndarray, taken: set[int]) -> _Track | None:
        """The track not ``taken`` nearest ``center`` (mat mm), closer than ``match_distance``."""
        best, best_d = None, self.config.match_distance
        x, y = float(center[0]), float(center[1])
        for track in self.tracks:
            if id(track) in taken:
                continue
            d = math.hypot(float(track.center[0]) - x, float(track.center[1]) - y)
            if d < best_d:
                best, best_d = track, d
        return best

    def _maybe_commit(self, track: _Track, frame_index: int | None = None,
                      moving: bool = False) -> VisionEvent | None:  # fmt: skip
        """The event ``track`` commits, decided on frame ``frame_index`` (by default the
        latest frame taken), or None; ``moving``: no reading at rest stands for that frame."""
        if frame_index is None:
            frame_index = self.frame_index
        n = self.config.stable_frames
        if len(track.readings) < n:
            return None
        recent = track.readings[-n:]
        if len({p.label for p in recent}) != 1:
            return None
        if track.committed and recent[-1].label == track.decided:
            return None  # the card it was decided on, still there
        confidence = float(np.mean([p.confidence for p in recent]))
        if track.committed:
            # another card read surely where one was decided, and no frame between forgot the
            # old one (a card taken under a hand and another put there): asked, never committed
            if confidence < self.config.min_confidence:
                return None
            track.decided = recent[-1].label
            return self._asked(track, recent, frame_index, agrees=True)
        track.committed = True
        track.decided = recent[-1].label
        corners: Corners = tuple((float(x), float(y)) for x, y in track.corners)
        agrees = self._agrees(recent)
        by_index = [p for p in recent if isinstance(p, IndexPrediction)]
        threshold = self.config.min_confidence if by_index else self.min_confidence
        # the Joker, by its index or its whole face, is always asked (``ASKED_ALWAYS``), and so
        # is a reading made not committable (a Joker's index, a face read in a frame of no colour)
        committable = all(p.committable for p in recent) and track.decided not in ASKED_ALWAYS
        vetoed = False
        now: IndexPrediction | None = None  # in motion, its corners read on this frame (128)
        checked = moving and not by_index and self._corners_in_motion
        if checked:
            now = self._corners_now(track)
            if self._unread(now) and self.config.unread_undecided_in_motion and self._wait(track):
                track.committed, track.decided = False, None  # left to a later frame (129)
                return None
        if confidence < threshold and not by_index and self.second is not None:
            other = self._second_opinion(track)
            if other is not None and other.label == recent[-1].label:
                confidence = max(confidence, other.confidence)  # read so by both: the surer
            elif other is not None and other.is_card:
                recent = [*recent, other]  # asked, the other classifier's card offered too
        elif (self.config.second_check and not by_index and self.second is not None
              and agrees and committable):  # fmt: skip
            other = self._second_opinion(track, face=True)
            if other is not None and other.is_card and other.label != recent[-1].label:
                recent, vetoed = [*recent, other], True  # asked, both cards offered
        if checked and not vetoed and confidence >= threshold and agrees and committable:
            if now is None or self._unread(now):
                vetoed = True  # asked: its corners read no card on that frame (128)
            elif self._contested(now, recent[-1]):
                if self.config.contested_undecided_in_motion and self._wait(track):
                    track.committed, track.decided = False, None  # left to a later frame (131b)
                    return None
                if (
                    self.config.corners_contest_in_motion
                    or self.config.contested_undecided_in_motion
                ):
                    recent, vetoed = [*recent, now], True  # asked: its corners read another card
        if (self.config.pip_check and not vetoed and confidence >= threshold and agrees
                and committable and self._too_many_pips(track)):  # fmt: skip
            vetoed = True  # asked: the face shows more pips than the card read has
        if confidence >= threshold and agrees and committable and not vetoed:
            best, track.undecided = recent[-1], 0
            return CardSeen(seat=track.seat, card=best.card, face=best.face, deck=self.deck,
                            confidence=confidence, corners=corners,
                            frame_index=frame_index, crop=self._picture(track))  # fmt: skip
        if (now is not None and not self._unread(now) and now.is_card
                and self.config.corners_offered_in_motion
                and now.label not in {p.label for p in recent}):  # fmt: skip
            recent = [*recent, now]  # its corners' card offered too (experiment 130)
        return self._asked(track, recent, frame_index, agrees)

    def _wait(self, track: _Track) -> bool:
        """Whether ``track``, undecided in motion (129, 131b), is left to a later frame once
        more: unless it was left so on ``undecided_ask_after`` frames since it was last decided,
        when it is asked (experiments 134 and 134b); a decision starts the count again."""
        limit = self.config.undecided_ask_after
        if limit is not None and track.undecided >= limit:
            return False
        track.undecided += 1
        return True

    def _unread(self, corners: IndexPrediction | None) -> bool:
        """Whether a card's ``corners``, read in motion (None: not read), read no card: their
        best card below ``corners_readable`` (experiment 128)."""
        return corners is None or corners.confidence < self.config.corners_readable

    def _contested(self, corners: IndexPrediction, face: Prediction) -> bool:
        """Whether a card's ``corners``, read in motion, read a card other than the ``face``'s at
        ``min_confidence`` or above (experiments 127c and 131); with ``contest_by_rank``, one of
        another rank (131b: at the table's size an index shows its rank, its suit sign is a blob
        of a few pixels)."""
        if not (corners.is_card and corners.label != face.label
                and corners.confidence >= self.config.min_confidence):  # fmt: skip
            return False
        return not self.config.contest_by_rank or corners.card.rank != face.card.rank

    def _gated(self, read: _Read, nones: tuple[float, ...]) -> _Read:
        """``read``, a card of this frame read by the classic finder, as the gates read at rest
        judge the quad of the picture at rest that it overlaps (``nones``: each gate's
        probability that it is no card; experiment 115e)."""
        card, center, seat, pred, crop = read
        if not pred.is_card:
            return read
        (pred,) = self.recognizer.with_gates([pred], [np.array([q]) for q in nones])
        return card, center, seat, pred, crop

    @staticmethod
    def _last_face(track: _Track) -> np.ndarray | None:
        """The track's card warped at face size from the frame it was last read in
        (``vision.index_reader.face_of``; None where that frame is not kept)."""
        if track.last_frame is None:
            return None
        return face_of(track.last_frame, np.asarray(track.corners, np.float32))

    def _too_many_pips(self, track: _Track) -> bool:
        """Whether the card ``track`` is decided on, of a French-suited deck, shows more pips on
        its face in the frame it was last read in than its rank has (``vision.pips``)."""
        face = self._last_face(track)
        if family_of(self.deck) != "french" or face is None or track.decided is None:
            return False
        return contradicts(track.decided.split(":")[-1], count_pips(face))

    def _corners_now(self, track: _Track) -> IndexPrediction | None:
        """The track's card read by its two corners on the frame it was last read in, warped
        from its outline (None: no such frame, or no corner-index reader; experiment 128)."""
        reader, face = self._corners_reader, self._last_face(track)
        if reader is None or face is None:
            return None
        return ranked(reader.read([face])[0], reader)

    def _second_opinion(self, track: _Track, face: bool = False) -> Prediction | None:
        """The second classifier's reading of the track's latest crop (None: no crop); with
        ``face``, weighed by its corner-index reader on the card warped at face size from the
        frame it was last read in (``vision.index_reader.face_of``), where that frame is kept."""
        if self.second is None or track.last_crop is None:
            return None
        warped = self._last_face(track) if face else None
        faces = None if warped is None else [warped]
        return self.second.predict([track.last_crop], self.deck, faces=faces)[0]

    def _asked(self, track: _Track, recent: list[Prediction], frame_index: int, agrees: bool
               ) -> ConfirmationRequested:  # fmt: skip
        """The question about ``track``'s card: its likeliest cards over ``recent``."""
        track.undecided = 0  # decided: frames left undecided count again from here (134)
        n = len(recent)
        corners: Corners = tuple((float(x), float(y)) for x, y in track.corners)
        scores: dict[str, float] = {}
        for p in recent:
            for label, prob in ((p.label, p.confidence), *p.alternatives):
                scores[label] = scores.get(label, 0.0) + prob
        ordered = sorted(scores.items(), key=lambda item: -item[1])
        ranked = [(label, s / n) for label, s in ordered if label != NONE_LABEL][:3]
        profile_label = None
        if not agrees:  # the profile's own nearest card, named and offered
            profile_label = next(p.nearest for p in recent if p.nearest not in (None, p.label))
            if profile_label not in {label for label, _ in ranked}:
                ranked.append((profile_label, scores.get(profile_label, 0.0) / n))
        return ConfirmationRequested(
            seat=track.seat,
            candidates=tuple(card_for_label(label) for label, _ in ranked),
            confidences=tuple(round(s, 4) for _, s in ranked),
            frame_index=frame_index,
            corners=corners,
            profile_card=card_for_label(profile_label) if profile_label else None,
            crop=self._picture(track),
        )

    @staticmethod
    def _picture(track: _Track) -> bytes:
        """The track's latest read crop as JPEG, the camera's picture kept with the sighting."""
        return encode_crop(track.last_crop) if track.last_crop is not None else b""


def _as_cards(seen: _Seen) -> list[FoundCard]:
    """The classic finder's cards of ``seen`` but those read as no card (a region that is no
    card gives way to the learned detector's outline)."""
    none = [card for (card, _, _), pred in zip(seen.visible, seen.predictions, strict=True)
            if not pred.is_card]  # fmt: skip
    return [card for card in seen.found if not any(card is other for other in none)]
