"""The table's camera path on real still photos (``kibic vision track --stills``).

Each photo is shown to a fresh ``CardTracker`` as a camera would show a table at rest (with
``moving``, after as many frames in motion: each other one ``MOTION_LEVEL`` levels brighter, so
that no reading at rest stands for them, as for a hand moving or the light changing): the
same frame ``stable_frames`` times, so that every card it finds and reads the same way each
time is committed (``CardSeen``) or asked about (``ConfirmationRequested``), as at a real
table: the classic finder, the warp to the table's corners (``TableCalibration.from_corners``),
the table classifier, the commit threshold, and where given the corner-index path
(``vision.tracker_index``; the frame then shown once more, see ``CardTracker.frames_to_settle``,
and the corner-index reading under way then finished, ``CardTracker.finish``).
The events are then scored against the photo's labels:

- a folder of Pascal VOC photos (``.xml`` beside each, rank names or card codes, as
  edje-cards; a label found wrong put right, ``vision.label_errata``): a committed card is first
  paired with the smallest labelled box of that very card that holds its quad's centre, else
  with the box of that card that its quad holds most of, half of it or more (a card of a fan
  outlined whole, labelled by the part that shows: experiment 116b); the other events with a
  labelled box by IoU >= 0.5 of the event's quad's box with the label's box
  (``vision.matching.match_boxes``), and an event left over (a card read by its corner index:
  its quad is the index's box) with the smallest labelled box left over that holds its quad's
  centre;
- a folder with ``images/`` and ``labels/`` (corner-boxes): an event takes the card of the
  corner boxes inside its quad when they name one card (``training.real_finder_crops.label_of``);
  a committed card whose quad holds the boxes of several cards, that very card among them, takes
  that card (experiment 66: a card found whole in a pile holds the indices of the cards over it).

A committed card is right when its rank (VOC rank labels) or its card matches the label's;
committed wrong when not, or when no label is under it (a card that is not there, VOC); an
event under no label of a corner-boxes photo (a face-down card, a card whose corner indices are
covered) is counted apart. A labelled card with no event is missed. An ask on a labelled card
offers it when the label names one of the cards it offers (experiment 68).

An evaluation tool: it reads the corner-boxes labels through ``training`` (the table never needs
it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from referee.cards import Card, Deck
from vision.calibration import TableCalibration
from vision.evaluate import iou, parse_label, read_voc, rounded_interval, wilson_interval
from vision.events import CardSeen, ConfirmationRequested, VisionEvent
from vision.matching import match_boxes
from vision.recognizer import Recognizer
from vision.sources import IMAGE_SUFFIXES, fit_frame
from vision.synthetic import MAT_SIZE
from vision.tracker import CardTracker, TrackerConfig

# a frame in motion: each other one this many levels (0-255) brighter than the photo, well over
# the tracker's ``still_level`` (experiment 126's run)
MOTION_LEVEL = 12

if TYPE_CHECKING:
    from vision.corner_finder import CornerFinder
    from vision.deck_profile import DeckProfile
    from vision.detector import CardDetector
    from vision.tracker import OnCommit


@dataclass
class StillsReport:
    name: str
    photos: int = 0
    cards: int = 0  # labelled cards
    committed_right: int = 0
    committed_wrong: int = 0
    not_there: int = 0  # of committed_wrong: committed where no card is labelled (VOC)
    asked: int = 0
    asked_not_there: int = 0  # of asked: asked where no card is labelled (VOC)
    asked_offering: int = 0  # of asked: those that offer the labelled card among their cards
    missed: int = 0
    unlabelled: int = 0  # events on no labelled card of a corner-boxes photo
    mistakes: list[str] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)  # each labelled card with no event

    @classmethod
    def together(cls, name: str, reports: Iterable[StillsReport]) -> StillsReport:
        """One report of the photos of ``reports``, their counts summed."""
        out = cls(name)
        for report in reports:
            for f in fields(cls):
                if f.name != "name":
                    setattr(out, f.name, getattr(out, f.name) + getattr(report, f.name))
        return out

    def summary(self) -> dict[str, object]:
        """The counts, with two 95 % Wilson intervals: of the labelled cards committed right
        (``committed_right_95``), and of the cards committed, those right
        (``right_when_committed_95``; its low end is what the commits show of "right 999
        times in 1,000"). None where there is nothing to count."""
        committed = self.committed_right + self.committed_wrong
        return {"photos": self.photos, "cards": self.cards,
                "committed_right": self.committed_right, "committed_wrong": self.committed_wrong,
                "committed_where_no_card": self.not_there, "asked": self.asked,
                "asked_where_no_card": self.asked_not_there,
                "asked_offering_the_card": self.asked_offering,
                "missed": self.missed, "events_on_no_label": self.unlabelled,
                "committed_right_95": rounded_interval(
                    wilson_interval(self.committed_right, self.cards)),
                "right_when_committed_95": rounded_interval(
                    wilson_interval(self.committed_right, committed))}  # fmt: skip


def parse_corners(text: str) -> tuple[tuple[float, float], ...] | None:
    """``x,y,x,y,x,y,x,y`` (top-left, top-right, bottom-right, bottom-left, pixels), or
    ``frame`` (None: each photo's own edges); else ValueError saying what is wrong."""
    if text.strip() == "frame":
        return None
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        raise ValueError(f"corners {text!r}: not numbers x,y,x,y,x,y,x,y") from None
    if len(values) != 8:
        raise ValueError(f"corners {text!r}: {len(values)} numbers, not 8 (four x,y points)")
    return tuple((values[k], values[k + 1]) for k in range(0, 8, 2))


def frame_corners(image: np.ndarray) -> tuple[tuple[float, float], ...]:
    h, w = image.shape[:2]
    return ((0.0, 0.0), (float(w), 0.0), (float(w), float(h)), (0.0, float(h)))


def track_still(image: np.ndarray, recognizer: Recognizer, *, deck: Deck,
                corners: Sequence[Sequence[float]], seats: int = 4,
                config: TrackerConfig | None = None,
                index: CornerFinder | None = None,
                detector: CardDetector | None = None,
                second: Recognizer | None = None, profile: DeckProfile | None = None,
                on_commit: OnCommit | None = None,
                moving: int = 0) -> list[VisionEvent]:  # fmt: skip
    """The events of a fresh tracker (with the corner-index finder ``index``, the learned
    ``detector``, the ``second`` classifier, the deck ``profile`` and ``on_commit``, when given)
    shown ``image`` in motion ``moving`` times (each other frame ``MOTION_LEVEL`` brighter),
    then as often as a table at rest takes to settle (``frames_to_settle``), its reading at
    rest then finished (``CardTracker.finish``). A photo of more pixels than the
    table's frames is read scaled down to as many, as the table reads its camera
    (``fit_frame``); the ``corners`` and the events' corners are in the photo's own pixels."""
    if moving < 0:
        raise ValueError(f"frames in motion: {moving} is below 0")
    picture, scale = fit_frame(image)
    calibration = TableCalibration.from_corners(corners, mat_size=MAT_SIZE, n_seats=seats)
    tracker = CardTracker(recognizer, calibration.scaled(scale), deck=deck, config=config,
                          corners=index, detector=detector, second=second, profile=profile,
                          on_commit=on_commit)  # fmt: skip
    events: list[VisionEvent] = []
    brighter = cv2.add(picture, np.full_like(picture, MOTION_LEVEL)) if moving else picture
    for k in range(moving):
        events.extend(tracker.process(brighter if k % 2 else picture))
    for _ in range(tracker.frames_to_settle):
        events.extend(tracker.process(picture))
    events += tracker.finish()
    if scale == (1.0, 1.0):
        return events
    sx, sy = scale
    return [replace(e, corners=tuple((x / sx, y / sy) for x, y in e.corners)) for e in events]


def _box(corners: Sequence[Sequence[float]]) -> tuple[float, float, float, float]:
    xs = [float(p[0]) for p in corners]
    ys = [float(p[1]) for p in corners]
    return min(xs), min(ys), max(xs), max(ys)


def _area(box: tuple[float, float, float, float]) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def _count(report: StillsReport, name: str, event: VisionEvent, label: str | None,
           right: bool) -> None:  # fmt: skip
    if not isinstance(event, CardSeen):
        report.asked += 1
        report.asked_offering += label is not None and any(
            _names_card(label, card) for card in event.candidates
        )
    elif right:
        report.committed_right += 1
    else:
        report.committed_wrong += 1
        report.mistakes.append(f"{name}: {label or 'no card'} committed as {event.card.code}")


def score_voc(report: StillsReport, name: str, events: list[VisionEvent],
              labels: list[tuple[str, tuple[float, float, float, float]]]) -> None:  # fmt: skip
    boxes = [_box(e.corners) for e in events]
    pairs: dict[int, int] = {}  # label -> event

    def under(j: int, fits: Callable[[str], bool]) -> int | None:
        """The smallest labelled box not paired yet that holds event ``j``'s quad's centre
        and whose label ``fits``."""
        x0, y0, x1, y1 = boxes[j]
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        held = [i for i, (label, b) in enumerate(labels)
                if i not in pairs and fits(label) and b[0] <= cx <= b[2] and b[1] <= cy <= b[3]]  # fmt: skip
        return min(held, key=lambda k: _area(labels[k][1])) if held else None

    # a committed card on a labelled box of that very card is that card (experiment 35: an
    # asked quad over two cards must not take its box by IoU)
    for j, event in enumerate(events):
        if (
            isinstance(event, CardSeen)
            and (i := under(j, partial(_names, event=event))) is not None
        ):
            pairs[i] = j
    # a committed card outlined whole over a labelled box of that card, the part that shows of
    # a card of a fan (experiment 116b): that card, where the quad holds half of the box or
    # more; then an ask so outlined, on the box of a card it offers
    for j in sorted(range(len(events)), key=lambda j: not isinstance(events[j], CardSeen)):
        if j not in pairs.values():
            event = events[j]
            held = [i for i, (label, b) in enumerate(labels) if i not in pairs
                    and _offers(label, event) and _held(b, event.corners) >= 0.5]  # fmt: skip
            if held:
                pairs[max(held, key=lambda i: _held(labels[i][1], event.corners))] = j
    rest_labels = [i for i in range(len(labels)) if i not in pairs]
    rest_events = [j for j in range(len(events)) if j not in pairs.values()]
    by_iou = match_boxes([[iou(labels[i][1], boxes[j]) for j in rest_events] for i in rest_labels])
    pairs.update({rest_labels[i]: rest_events[j] for i, j in by_iou.items()})
    # a card read by its corner index: its quad is the index's box, on the card's box
    for j in range(len(events)):
        if j not in pairs.values() and (i := under(j, lambda _label: True)) is not None:
            pairs[i] = j
    paired = {j: i for i, j in pairs.items()}
    report.cards += len(labels)
    report.missed += len(labels) - len(pairs)
    report.misses += [f"{name}: {label} missed" for i, (label, _) in enumerate(labels)
                      if i not in pairs]  # fmt: skip
    for j, event in enumerate(events):
        if j not in paired:
            report.not_there += isinstance(event, CardSeen)
            report.asked_not_there += not isinstance(event, CardSeen)
            _count(report, name, event, None, False)
            continue
        label = labels[paired[j]][0]
        _count(report, name, event, label, isinstance(event, CardSeen) and _names(label, event))


def _held(box: tuple[float, float, float, float], corners: Sequence[Sequence[float]]) -> float:
    """The share of ``box``'s area (x0, y0, x1, y1) that lies in the quad ``corners``."""
    x0, y0, x1, y1 = box
    rect = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    quad = cv2.convexHull(np.asarray(corners, np.float32).reshape(-1, 2))
    inter, _ = cv2.intersectConvexConvex(rect, quad)
    return float(inter) / _area(box) if _area(box) > 0 else 0.0


def _names(label: str, event: CardSeen) -> bool:
    """Whether the VOC ``label`` (a rank name or a card code) names ``event``'s card."""
    return _names_card(label, event.card)


def _offers(label: str, event: VisionEvent) -> bool:
    """Whether ``event`` names the VOC ``label``'s card: commits it, or asks it among its
    candidates."""
    if isinstance(event, CardSeen):
        return _names(label, event)
    return isinstance(event, ConfirmationRequested) and any(
        _names_card(label, card) for card in event.candidates
    )


def _names_card(label: str, card: Card) -> bool:
    rank, labelled = parse_label(label)
    return card.rank == rank if labelled is None else card.logical == labelled.logical


def score_corner_boxes(report: StillsReport, name: str, events: list[VisionEvent],
                       label_path: Path, shape: tuple[int, ...]) -> None:  # fmt: skip
    from training.real_finder_crops import codes_in, label_of, read_labels

    boxes = read_labels(label_path, shape[1], shape[0])
    codes = {b.code for b in boxes if b.code != "back"}
    report.cards += len(codes)
    seen: set[str] = set()
    for event in events:
        quad = np.asarray(event.corners, np.float32)
        label = label_of(quad, boxes)
        if label is None and isinstance(event, CardSeen):
            # a committed card whose quad holds the corner boxes of that very card among
            # others' is that card (experiment 66; the VOC scoring's rule of experiment 35)
            label = next((c for c in codes_in(quad, boxes) - {"back"}
                          if Card.parse(c).code == event.card.code), None)  # fmt: skip
        if label is None:
            report.unlabelled += 1
            continue
        seen.add(label)
        right = isinstance(event, CardSeen) and event.card.code == Card.parse(label).code
        _count(report, name, event, label, right)
    report.missed += len(codes - seen)
    report.misses += [f"{name}: {code} missed" for code in sorted(codes - seen)]


def photos_of(folder: Path) -> Iterator[tuple[Path, Path, str]]:
    """(photo, its label file, "voc" or "corners") of each labelled photo of ``folder``."""
    images = folder / "images" if (folder / "labels").is_dir() else folder
    for path in sorted(p for p in images.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES):
        if images is not folder:
            label = folder / "labels" / f"{path.stem}.txt"
            if label.is_file():
                yield path, label, "corners"
        elif path.with_suffix(".xml").is_file():
            yield path, path.with_suffix(".xml"), "voc"


def track_stills(folder: str | Path, recognizer: Recognizer, *, deck: Deck,
                 corners: Sequence[Sequence[float]] | None, seats: int = 4,
                 config: TrackerConfig | None = None,
                 index: CornerFinder | None = None, detector: CardDetector | None = None,
                 second: Recognizer | None = None, moving: int = 0) -> StillsReport:  # fmt: skip
    """Every labelled photo of ``folder`` through ``track_still``, scored (see the module's
    docstring); ``corners`` None: each photo's own edges are the table's."""
    folder = Path(folder)
    return track_photos(folder.name, labelled(folder), recognizer, deck=deck, corners=corners,
                        seats=seats, config=config, index=index, detector=detector,
                        second=second, moving=moving)  # fmt: skip


def labelled(folder: Path) -> list[tuple[Path, Path, str]]:
    """``photos_of(folder)``; ValueError when ``folder`` is no folder or holds none."""
    if not folder.is_dir():
        raise ValueError(f"{folder} is not a folder")
    found = list(photos_of(folder))
    if not found:
        raise ValueError(f"{folder} holds no labelled photos (VOC .xml beside them, or "
                         f"images/ and labels/)")  # fmt: skip
    return found


def corner_boxes_parts(part: str = "tune") -> list[tuple[str, list[tuple[Path, Path, str]]]]:
    """(name, photos as ``photos_of`` gives them) of each corner-boxes tune part (desk, single,
    gold-deck; ``training.real_finder_crops``): the real photos of the table path's tuning.
    ``part="train"``: their training parts instead (the detector and the corner readers learnt
    from them: not a held-out figure)."""
    from training.real_finder_crops import FOLDERS, photos

    if part not in ("tune", "train"):
        raise ValueError(f"part {part!r}: not 'tune' or 'train'")
    out = []
    for name in FOLDERS:
        train, tune = photos(name)
        out.append((f"corner-boxes {name} {part} part",
                    [(p, p.parent.parent / "labels" / f"{p.stem}.txt", "corners")
                     for p in (tune if part == "tune" else train)]))  # fmt: skip
    return out


def track_photos(name: str, photos: Iterable[tuple[Path, Path, str]], recognizer: Recognizer, *,
                 deck: Deck, corners: Sequence[Sequence[float]] | None, seats: int = 4,
                 config: TrackerConfig | None = None,
                 index: CornerFinder | None = None, detector: CardDetector | None = None,
                 second: Recognizer | None = None,
                 profile: DeckProfile | None = None, moving: int = 0) -> StillsReport:  # fmt: skip
    """``photos`` (photo, label file, "voc" or "corners") through ``track_still`` (shown
    ``moving`` frames in motion first), scored."""
    report = StillsReport(name)
    for path, label_path, kind in photos:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise ValueError(f"{path}: not an image")
        events = track_still(image, recognizer, deck=deck, seats=seats, config=config,
                             corners=corners or frame_corners(image), index=index,
                             detector=detector, second=second, profile=profile,
                             moving=moving)  # fmt: skip
        report.photos += 1
        if kind == "voc":
            score_voc(report, path.name, events, read_voc(label_path))
        else:
            score_corner_boxes(report, path.name, events, label_path, image.shape)
    return report
