"""``kibic vision``: read cards in images, score a labelled folder, track a frame source."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from kibic import cli_vision_mat, cli_vision_profile, cli_vision_real, cli_vision_stills
from referee.cards import Card, Deck

if TYPE_CHECKING:
    import numpy as np

    from vision.calibration import TableCalibration
    from vision.events import VisionEvent

# The still-image card finder used by ``classify`` and ``eval`` unless ``--finder`` says:
# whichever did better on the photo-like development scenes (training.photo_eval seeds 0 and 2,
# 518 cards, with the shipped classifier): the learned detector found 76.8 % of the cards
# (classic 73.4 %) with 89 % of its detections on a card (classic 28 %), read the rank of
# 59.6 % of those it found (classic 59.2 %) and takes about 10 ms a photo instead of about a
# second. ``both`` finds a little more at the classic finder's cost and precision. See
# models/MODEL_CARD.md.
DEFAULT_FINDER = "learned"
FINDERS = ("classic", "learned", "both")
INDEX_MODEL_HELP = (
    "the corner-index reader that weighs the still-photo classifier's French "
    "readings (its .labels.json beside it); default the shipped one"
)
PHOTO_MODEL_HELP = (
    "another still-photo classifier (its .labels.json beside it), read as the shipped one is: "
    "with the gates and the corner-index reader"
)
PHOTO_CHECK_HELP = (
    "the still-photo check of the classifier's embedding (vision.photo_check; 'none': no "
    "check); default the shipped one, where it reads the still-photo classifier in use"
)
MODEL_HELP = ("the classifier (.onnx); default the still-photo one, or the table one "
              "with --profile")  # fmt: skip
Handler = Callable[[argparse.Namespace], int]  # a subcommand: its arguments in, the exit code out


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser("vision", help="camera card recognition")
    sub = parser.add_subparsers(dest="vision_command", required=True)

    classify = sub.add_parser("classify", help="every card found in each image")
    classify.add_argument("images", nargs="+", type=Path)
    classify.add_argument("--deck", type=Deck.parse, default=None, help="e.g. french-53, german-32")
    classify.add_argument("--json", action="store_true", help="one JSON document")
    classify.add_argument("--model", type=Path, default=None, help=MODEL_HELP)
    classify.add_argument("--index-model", type=Path, default=None, metavar="ONNX",
                          help=INDEX_MODEL_HELP)  # fmt: skip
    classify.add_argument("--photo-model", type=Path, default=None, metavar="ONNX",
                          help=PHOTO_MODEL_HELP)  # fmt: skip
    classify.add_argument("--photo-check", default=None, metavar="JSON", help=PHOTO_CHECK_HELP)
    classify.add_argument("--profile", type=Path, default=None,
                          help="the deck profile of the cards (kibic vision enrol)")  # fmt: skip
    classify.add_argument("--whole", action="store_true",
                          help="read each image as one card (a close crop): edge to edge, or "
                               "the card the detector finds covering a quarter of it or more, "
                               "turned or tilted, whichever reads surer, and never as no "
                               "card (read so, the card ranked first is given, always asked); "
                               "without it, an image "
                               "in which no card is found is read so and kept only at the "
                               "commit threshold or above")  # fmt: skip
    _finder_options(classify)
    classify.set_defaults(handler=_classify)

    evaluate = sub.add_parser("eval", help="accuracy on a folder of labelled images, or on "
                              "every real photo set (--real-sets)")  # fmt: skip
    evaluate.add_argument("folder", type=Path, nargs="?", default=None,
                          help="a folder of labelled images (not with --real-sets)")  # fmt: skip
    cli_vision_real.add_real_set_options(evaluate)
    evaluate.add_argument("--deck", type=Deck.parse, default=None)
    evaluate.add_argument("--json", action="store_true")
    evaluate.add_argument(
        "--boxes",
        choices=("visible", "whole", "either"),
        default="visible",
        help="compare the visible part of each card with the labels' boxes "
        "(Pascal VOC; default), the whole card with their 'wholebox', or either part of the "
        "card with the labels' boxes (for labels that mix the two)",
    )
    evaluate.add_argument(
        "--matching",
        choices=("best", "order"),
        default="best",
        help="pair labels and cards so that the most labels are found (default), or each "
        "label in the xml's order to its best unused card (Kibic up to experiment 16)",
    )
    evaluate.add_argument("--model", type=Path, default=None, help=MODEL_HELP)
    evaluate.add_argument("--index-model", type=Path, default=None, metavar="ONNX",
                          help=INDEX_MODEL_HELP)  # fmt: skip
    evaluate.add_argument("--photo-model", type=Path, default=None, metavar="ONNX",
                          help=PHOTO_MODEL_HELP)  # fmt: skip
    evaluate.add_argument("--photo-check", default=None, metavar="JSON", help=PHOTO_CHECK_HELP)
    evaluate.add_argument("--profile", type=Path, default=None,
                          help="the deck profile of the cards (kibic vision enrol)")  # fmt: skip
    _finder_options(evaluate)
    evaluate.set_defaults(handler=_eval)

    track = sub.add_parser("track", help="print the sightings from a frame source")
    track.add_argument(
        "--source",
        default="synthetic:0",
        help="picamera2, camera:0, video:P, folder:P, synthetic:SEED",
    )
    track.add_argument("--deck", type=Deck.parse, default=None,
                       help="default piquet-32; french-53 with --stills")  # fmt: skip
    track.add_argument("--seats", type=int, default=4)
    track.add_argument("--model", type=Path, default=None)
    track.add_argument("--profile", type=Path, default=None,
                       help="the deck profile of the cards in use (kibic vision enrol)")  # fmt: skip
    cli_vision_stills.add_options(track)
    track.set_defaults(handler=_naming_source_errors(_track, "track"))

    enrol = sub.add_parser("enrol", help="learn the deck in use: show each card once, in order")
    enrol.add_argument("--source", default="synthetic:0",
                       help="camera:0, video:P, folder:P, picamera2, or synthetic:SEED[:DESIGN] "
                            "(a generated enrolment of design DESIGN)")  # fmt: skip
    enrol.add_argument("--deck", type=Deck.parse, default=Deck.PIQUET_32)
    enrol.add_argument("--seats", type=int, default=4)
    enrol.add_argument("--order", default=None,
                       help="the cards in the order shown, e.g. 'AS KS QS'; default the "
                            "deck's own order (7C 8C ... AC 7D ... for piquet)")  # fmt: skip
    enrol.add_argument("--courts", action="store_true",
                       help="only the court cards (J Q K of each suit in the deck's order, and "
                            "a Joker): in French-suited decks the ones that look alike")  # fmt: skip
    enrol.add_argument("--out", type=Path, required=True, help="the deck profile (.npz)")
    enrol.add_argument("--add", action="store_true",
                       help="add to the profile already in --out instead of starting anew")  # fmt: skip
    enrol.add_argument("--model", type=Path, default=None)
    enrol.set_defaults(handler=_naming_source_errors(_enrol, "enrol"))
    cli_vision_profile.register(sub)
    cli_vision_real.register(sub)
    cli_vision_mat.register(sub)


def _input_size(text: str) -> int:
    """A detector input size in pixels, at least 64."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of pixels") from None
    if value < 64:
        raise argparse.ArgumentTypeError(f"{value} px is too small (at least 64)")
    return value


def _zoom_size(text: str) -> int:
    """The zoom-out pass's input size: 0 (none) or at least 64 pixels."""
    return 0 if text.strip() == "0" else _input_size(text)


def _floor(text: str) -> float:
    """A confidence floor: a number from 0 up to (not including) 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 <= value < 1.0:
        raise argparse.ArgumentTypeError(f"{value:g} is not from 0 up to 1")
    return value


def _floor_of(args: argparse.Namespace) -> float:
    """``read_cards``'s floor: ``--floor``, else ``vision.pipeline.READ_FLOOR``."""
    from vision.pipeline import READ_FLOOR

    return READ_FLOOR if args.floor is None else float(args.floor)


def _fraction(text: str) -> float:
    """A number strictly between 0 and 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"{value} is not between 0 and 1")
    return value


def _finder_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--finder", choices=FINDERS, default=None,
                        help=f"how cards are found: classic (OpenCV), learned (detector) or "
                             f"both (the detector, completed by the classic finder); "
                             f"default {DEFAULT_FINDER} when its model is there")  # fmt: skip
    parser.add_argument("--detector-model", type=Path, default=None,
                        help="the learned detector's ONNX file")  # fmt: skip
    parser.add_argument("--detector-size", type=_input_size, default=None, metavar="PX",
                        help="the detector's input size (longest side of the shrunk photo); "
                             "default the model's own (384 for the shipped one, with a pass "
                             "at its training size 320 for wide cards); a size larger than "
                             "the training size adds such a finer pass")  # fmt: skip
    parser.add_argument("--detector-threshold", type=_fraction, default=None, metavar="T",
                        help="the least heatmap peak taken for a card, 0..1; default the "
                             "model's own (0.2 for the shipped one; 0.3 at another --detector-size "
                             "larger than 320)")  # fmt: skip
    parser.add_argument("--detector-zoom", type=_zoom_size, default=None, metavar="PX",
                        help="the input size of the detector's zoom-out pass, for cards too "
                             "close to the camera for its other passes; 0 for none; default "
                             "the model's own (160 for the shipped one)")  # fmt: skip
    parser.add_argument("--no-refine", dest="refine", action="store_false",
                        help="keep the detector's quads as it gives them, not moved onto the "
                             "cards' edges in the photo (vision.refine)")  # fmt: skip
    parser.add_argument("--no-corners", dest="corners", action="store_false",
                        help="do not add the cards read by their corner indices alone "
                             "(vision.corner_finder: fanned and covered French-suited cards); "
                             "they are added by default when its models are there")  # fmt: skip
    parser.add_argument("--floor", type=_floor, default=None, metavar="F",
                        help="a card read below this confidence is no card; 0 lists every "
                             "reading; default 0.2 (experiment 42)")  # fmt: skip
    parser.add_argument("--corner-reader", type=Path, default=None, metavar="ONNX",
                        help="the corner-index box reader (.onnx, its .labels.json beside it); "
                             "default the shipped one")  # fmt: skip


def _naming_source_errors(handler: Handler, command: str) -> Handler:
    """``handler`` with a frame source that cannot be opened or read (a camera that is not
    there, a missing video or folder, an unknown source) ending it with one clear line."""

    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except (OSError, ValueError) as exc:
            raise SystemExit(f"kibic vision {command}: --source {args.source}: {exc}") from None

    return run


def _detector(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """(the learned detector or None for the classical finder, also use the classical one)"""
    from vision.detector import DEFAULT_DETECTOR, CardDetector

    path = args.detector_model or DEFAULT_DETECTOR
    finder = args.finder
    if finder is None:
        finder = DEFAULT_FINDER if path.exists() else "classic"
    if finder == "classic":
        return None, False
    detector = CardDetector(path, long_side=args.detector_size,
                            threshold=args.detector_threshold,
                            zoom_side=args.detector_zoom)  # fmt: skip
    return detector, finder == "both"


def corner_finder(reader: Path | None, command: str,
                  still: bool = False):  # type: ignore[no-untyped-def]  # fmt: skip
    """The corner-index finder with the box reader ``reader`` (default the shipped one: the
    still photos' with ``still``, else the table's); a reader that is not there, or has no
    labels beside it, ends ``kibic vision COMMAND`` with one line."""
    from vision.corner_finder import CornerFinder, still_reader

    if reader is None:
        return CornerFinder(reader_path=still_reader()) if still else CornerFinder()
    labels = reader.with_suffix(".labels.json")
    for path in (reader, labels):
        if not path.is_file():
            raise SystemExit(f"kibic vision {command}: --corner-reader {reader}: no file {path}")
    try:
        return CornerFinder(reader_path=reader)
    except (ValueError, KeyError) as exc:
        raise SystemExit(f"kibic vision {command}: --corner-reader {reader}: {exc}") from None


def _corners(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """The corner-index finder for still photos, or None (``--no-corners``, or not shipped)."""
    from vision.corner_finder import DEFAULT_FINDER, DEFAULT_READER

    reader = getattr(args, "corner_reader", None)
    if not getattr(args, "corners", False):
        if reader is not None:
            raise SystemExit("kibic vision: --corner-reader does not go with --no-corners")
        return None
    if reader is None and not (DEFAULT_FINDER.is_file() and DEFAULT_READER.is_file()):
        return None
    return corner_finder(reader, args.vision_command, still=True)


def _recognizer(model: Path | None, *, still: bool = False, profile: bool = False,
                index: Path | None = None, photo: Path | None = None,
                check: str | None = None):  # type: ignore[no-untyped-def]  # fmt: skip
    """The classifier ``--model`` names; else, for still photos read without a deck profile,
    the still-photo classifier (``--photo-model``, default the shipped one) with its gates (when
    shipped), its check (``--photo-check``) and the corner-index reader (``--index-model``,
    default the shipped one); else the table classifier, the one whose embeddings deck profiles
    hold, with the still-photo gates on the cards the table reads at rest where it reads a table
    (``table_recognizer``)."""
    from vision.recognizer import DEFAULT_MODEL, Recognizer, photo_recognizer, table_recognizer

    for option, path in (("--index-model", index), ("--photo-model", photo)):
        if path is None:
            continue
        if model is not None or profile or not still:
            raise SystemExit(f"kibic vision: {option} is a part of the still-photo reading: "
                             "not with --model or --profile")  # fmt: skip
        if not path.is_file() or not path.with_suffix(".labels.json").is_file():
            raise SystemExit(f"kibic vision: {option} {path}: no such model, or no "
                             f"{path.with_suffix('.labels.json').name} beside it")  # fmt: skip
    if check is not None:
        if model is not None or profile or not still:
            raise SystemExit("kibic vision: --photo-check is a part of the still-photo reading: "
                             "not with --model or --profile")  # fmt: skip
        if check != "none" and not Path(check).is_file():
            raise SystemExit(f"kibic vision: --photo-check {check}: no such file")
    if model is not None:
        return Recognizer(model)
    if still and not profile:
        try:
            return photo_recognizer(index=index, model=photo, check=check)
        except ValueError as exc:
            raise SystemExit(f"kibic vision: --photo-check {check}: {exc}") from None
    if still:  # a still photo read with a deck profile: the table classifier alone, as before
        return Recognizer(DEFAULT_MODEL)
    return table_recognizer()  # the table's reading (``track``, ``enrol``): experiment 115d


def _classify(args: argparse.Namespace) -> int:
    import cv2

    from vision.pipeline import read_cards, read_whole
    from vision.reliability import commit_threshold

    recognizer = _recognizer(args.model, still=True, profile=args.profile is not None,
                             index=args.index_model, photo=args.photo_model,
                             check=args.photo_check)  # fmt: skip
    detector, also_classic = _detector(args)
    profile = _profile(args.profile, args.deck, recognizer) if args.profile else None
    threshold = commit_threshold(recognizer.path)
    corners = _corners(args)
    out: dict[str, object] = {}
    status = 0
    for path in args.images:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            out[str(path)] = {"error": "cannot read image"}
            if not args.json:
                print(f"{path}: cannot read image (missing, or not an image)", file=sys.stderr)
            status = 1
            continue
        if args.whole:
            whole = read_whole(image, recognizer, deck=args.deck, profile=profile,
                               detector=detector, one_card=True)  # fmt: skip
            cards = [whole] if whole is not None else []
        else:
            cards = read_cards(image, recognizer, deck=args.deck, detector=detector,
                               also_classic=also_classic, profile=profile,
                               refine=args.refine, whole_if_none=threshold,
                               corners=corners, floor=_floor_of(args))  # fmt: skip
        out[str(path)] = [c.to_json() for c in cards]
        if not args.json:
            print(f"{path}: {len(cards)} card(s)")
            for c in cards:
                where = " ".join(f"({x:.0f},{y:.0f})" for x, y in c.corners)
                whole_note = "  (the whole image)" if c.found_by == "whole" else ""
                if not c.committable:
                    whole_note += "  (always asked)"
                elif c.confidence < threshold:  # as a table would: asked, not committed
                    whole_note += f"  (asked: below the commit threshold {threshold:g})"
                print(f"  {c.card.code:4} face {c.face:4} {c.deck.value:14} {c.confidence:.3f}  "
                      f"{where}{whole_note}")  # fmt: skip
    if args.json:
        print(json.dumps(out, indent=1, ensure_ascii=False))
    return status


def _eval(args: argparse.Namespace) -> int:
    from vision.evaluate import evaluate_folder, splits
    from vision.reliability import commit_threshold

    recognizer = _recognizer(args.model, still=True, profile=args.profile is not None,
                             index=args.index_model, photo=args.photo_model,
                             check=args.photo_check)  # fmt: skip
    detector, also_classic = _detector(args)
    if args.real_sets:
        if args.folder is not None or args.profile is not None:
            raise SystemExit("kibic vision eval: --real-sets reads the real photo sets; give "
                             "no folder and no --profile with it")  # fmt: skip
        return cli_vision_real.eval_real_sets(args, recognizer, detector, also_classic)
    cli_vision_real.refuse_real_set_options(args)
    profile = _profile(args.profile, args.deck, recognizer) if args.profile else None
    if args.folder is None:
        raise SystemExit("kibic vision eval: give a folder of labelled images, or --real-sets")
    if not Path(args.folder).is_dir():
        raise SystemExit(f"kibic vision eval: {args.folder} is not a folder")
    folders = list(splits(args.folder))
    if not folders:
        raise SystemExit(f"kibic vision eval: {args.folder} holds no images "
                         f"(nor train/test folders of images)")  # fmt: skip
    # as classify reads: the cards found by their corner indices too, and the photo read whole
    # where nothing is read at the commit threshold (read_cards' whole_if_none)
    corners = _corners(args)
    threshold = commit_threshold(recognizer.path)
    results = {}
    for folder in folders:
        report = evaluate_folder(folder, recognizer, deck=args.deck, detector=detector,
                                 also_classic=also_classic, profile=profile,
                                 boxes=args.boxes, refine=args.refine,
                                 matching=args.matching, floor=_floor_of(args),
                                 corners=corners, whole_if_none=threshold)  # fmt: skip
        s = results[folder.name] = report.summary()
        if not args.json:
            print(
                f"{folder}: {s['images']} images, {s['boxes']} cards, box recall "
                f"({args.boxes} boxes) {s['box_recall']:.2%}{_interval(s['box_recall_95'])}, "
                f"rank accuracy {s['rank_accuracy']:.2%}{_interval(s['rank_accuracy_95'])} "
                f"({s['found']} found, {s['detections']} detections)"
            )
            missed = ", ".join(f"{n} {cause}" for cause, n in report.misses.items() if n)
            if missed:
                print(f"  not found: {missed}")
    if args.json:
        print(json.dumps(results, indent=1))
    return 0


def _interval(bounds: object) -> str:
    """`` [95 % 90.2%-97.6%]``: a share's 95 % Wilson interval, for the eval's lines."""
    if not isinstance(bounds, list):
        return ""
    return f" [95 % {bounds[0]:.1%}-{bounds[1]:.1%}]"


class _MarkerWait:
    """Calibration from the mat's ArUco markers, tried frame by frame; says once, on the
    first frame without them, that it waits (markers hidden or out of the frame)."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.warned = False

    def calibrate(self, frame: np.ndarray) -> TableCalibration | None:
        from vision.calibration import TableCalibration
        from vision.synthetic import MAT_SIZE

        try:
            return TableCalibration.from_aruco(frame, mat_size=MAT_SIZE, n_seats=self.seats)
        except ValueError as exc:
            if not self.warned:
                print(f"calibration: {exc}; waiting for the mat's markers")
                self.warned = True
            return None


def _track(args: argparse.Namespace) -> int:
    from vision.calibration import MarkerWatch
    from vision.sources import FrameSource, fit_frame, open_source
    from vision.synthetic import SyntheticTable, random_game
    from vision.tracker import CardTracker, TrackerConfig

    if args.stills is not None or args.tune_parts or args.train_parts:
        return cli_vision_stills.track_stills(args)
    cli_vision_stills.refuse_options(args)
    args.deck = args.deck or Deck.PIQUET_32
    from kibic.config import CameraConfig

    # the paths a table reads this deck with by default (``kibic run``), or as the options say
    index, detector, second = cli_vision_stills.table_paths(
        args, CameraConfig(deck=args.deck.value), args.deck
    )
    recognizer = _recognizer(args.model)
    profile = _profile(args.profile, args.deck, recognizer) if args.profile else None
    if args.source.startswith("synthetic"):
        seed = int(args.source.partition(":")[2] or 0)
        source: FrameSource = random_game(seed=seed, deck=args.deck, n_seats=args.seats)
    else:
        source = open_source(args.source)
    calibration: TableCalibration | None = (
        source.calibration if isinstance(source, SyntheticTable) else None
    )
    tracker: CardTracker | None = None
    start = time.perf_counter()
    frames = 0
    markers = _MarkerWait(args.seats)
    watch: MarkerWatch | None = None  # a knocked camera, once calibrated from the markers
    for raw in source:
        frames += 1
        frame, _ = fit_frame(raw)  # as the table reads: scaled to 1280 x 720's pixels at most
        if tracker is None:
            if calibration is None:
                calibration = markers.calibrate(frame)
                if calibration is None:
                    continue
                watch = MarkerWatch(calibration, n_seats=args.seats)
            config = TrackerConfig(second_check=bool(args.second_check))
            tracker = CardTracker(recognizer, calibration, deck=args.deck, profile=profile,
                                  config=config, corners=index, detector=detector,
                                  second=second)  # fmt: skip
        elif watch is not None and (moved := watch.check(frame)) is not None:
            tracker.calibration, shift = moved
            print(f"frame {tracker.frame_index + 1}: the camera moved ({shift:.0f} px); the seats "
                  f"were calibrated again from the mat's markers")  # fmt: skip
        _print_events(tracker.process(frame))
    if tracker is not None:
        _print_events(tracker.finish())  # the frames held for a reading at rest under way
    print(f"{frames} frames in {time.perf_counter() - start:.1f}s")
    return 0


def _print_events(events: list[VisionEvent]) -> None:
    from vision.events import CardSeen

    for event in events:
        if isinstance(event, CardSeen):
            print(
                f"frame {event.frame_index}: seat {event.seat} played {event.card.code} "
                f"({event.face}, {event.confidence:.3f})"
            )
        else:
            cands = ", ".join(
                f"{c.code} {p:.2f}"
                for c, p in zip(event.candidates, event.confidences, strict=True)
            )
            print(f"frame {event.frame_index}: seat {event.seat} played ? confirm: {cands}")


def _profile(path: Path, deck: Deck | None, recognizer):  # type: ignore[no-untyped-def]
    """The deck profile at ``path``, of ``deck`` and made with ``recognizer``'s classifier."""
    from vision.deck_profile import DeckProfile, ProfileError

    try:
        profile = DeckProfile.load(path)
    except ProfileError as exc:
        raise SystemExit(f"kibic vision: {exc}") from None
    try:
        profile.bind_model(recognizer.fingerprint)
    except ProfileError as exc:
        raise SystemExit(f"kibic vision: {path}: {exc}") from None
    if deck is not None and profile.deck is not deck:
        raise SystemExit(f"kibic vision: {path} is a profile of the {profile.deck.value} deck, "
                         f"not {deck.value}")  # fmt: skip
    return profile


def _enrol(args: argparse.Namespace) -> int:
    from referee.cards import parse_cards
    from referee.errors import CardError
    from vision.enrol import DeckEnrolment, court_order, enrolment_order, enrolment_table
    from vision.sources import FrameSource, fit_frame, open_source
    from vision.synthetic import SyntheticTable

    if args.courts and args.order:
        raise SystemExit("kibic vision enrol: give --order or --courts, not both")
    try:
        order = list(parse_cards(args.order)) if args.order else enrolment_order(args.deck)
    except CardError as exc:
        raise SystemExit(f"kibic vision enrol: --order: {exc}") from None
    if args.courts:
        order = court_order(args.deck)
    if args.source.startswith("synthetic"):
        _, _, rest = args.source.partition(":")
        seed_text, _, design_text = rest.partition(":")
        source: FrameSource = enrolment_table(args.deck, n_seats=args.seats,
                                              seed=int(seed_text or 0),
                                              design_seed=int(design_text or 0), order=order)  # fmt: skip
    else:
        source = open_source(args.source)
    recognizer = _recognizer(args.model)
    base = _profile(args.out, args.deck, recognizer) if args.add else None
    enrolment: DeckEnrolment | None = None
    markers = _MarkerWait(args.seats)
    try:
        for raw in source:
            frame, _ = fit_frame(raw)  # as the table reads it
            if enrolment is None:
                if isinstance(source, SyntheticTable):
                    calibration = source.calibration
                elif (found := markers.calibrate(frame)) is not None:
                    calibration = found
                else:
                    continue
                try:
                    enrolment = DeckEnrolment(recognizer, calibration, deck=args.deck,
                                              order=order, profile=base)  # fmt: skip
                except ValueError as exc:
                    raise SystemExit(f"kibic vision enrol: {exc}") from None
            for seen in enrolment.process(frame):
                name = seen.expected.code if seen.expected else "-"
                read = seen.read_as.partition(":")[2]
                note = (
                    ""
                    if seen.expected and read == _face(seen.expected, args.deck)
                    else (f"  (the model alone reads {read})")
                )
                print(f"{seen.index + 1:3d}/{len(order)} {name:4s} {seen.confidence:.2f}{note}")
            if enrolment.done:
                break
    except KeyboardInterrupt:  # the person stops when every card has been shown
        print("stopped: matching what was seen")
    finally:
        source.close()
    if enrolment is None or not enrolment.sightings:
        raise SystemExit("kibic vision enrol: no card was seen; nothing saved")
    enrolment.finish()
    taken = [e for e in enrolment.enrolled if e.taken]
    if enrolment.missed:
        print("not seen (left out): " + " ".join(c.code for c in enrolment.missed))
    if enrolment.extra:
        print(f"seen but matched to no card of the order: {len(enrolment.extra)}")
    refused = [e for e in enrolment.enrolled if not e.taken]
    for e in refused:
        print(f"left out: {e.card.code}, the model is sure it is {e.read_as.partition(':')[2]}")
    if not taken:
        raise SystemExit("kibic vision enrol: no card could be matched; nothing saved")
    enrolment.profile.save(args.out)
    profile = enrolment.profile
    have = len(profile.labels) - len(profile.missing)
    tail = (
        f"; not yet: {len(profile.missing)} (show them with --add --order)"
        if profile.missing
        else ""
    )
    print(
        f"{args.out}: {len(taken)} cards taken; {have} of the {args.deck.value} deck's "
        f"{len(profile.labels)} faces{tail}"
    )
    return 0


def _face(card: Card, deck: Deck) -> str:
    from vision.enrol import label_of

    return label_of(card, deck).partition(":")[2]
