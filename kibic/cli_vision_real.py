"""``kibic vision eval --real-sets`` and ``kibic vision threshold``: the real photo sets.

Every part of the real sets on its own line (``vision.real_sets``), with its calibration and
what the commit threshold does to it; and the commit threshold the tuning sets support
(``vision.reliability``). The edje-cards test split is read only with ``--edje-test``, by
``eval`` alone: ``threshold`` never reads it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vision.real_sets import Reader, SetReport
    from vision.recognizer import Recognizer


def _limit(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of photos") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value}: at least one photo a set")
    return value


def _threshold(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 < value <= 1.0:
        raise argparse.ArgumentTypeError(f"{value} is not in (0, 1]")
    return value


def _sampling_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--held-out", action="store_true",
                        help="only the parts no training used: the tune parts of card-crops "
                             "(training.real_crops.split) and of corner-boxes "
                             "(training.real_finder_crops)")  # fmt: skip
    parser.add_argument("--limit", type=_limit, default=None, metavar="N",
                        help="read a seeded sample of N photos of each part")  # fmt: skip


def add_real_set_options(parser: argparse.ArgumentParser) -> None:
    """``eval``'s options for the real sets."""
    parser.add_argument("--real-sets", action="store_true",
                        help="every real photo set of ../shared/data/real-photos, each part "
                             "on its own line (deck french-53 unless --deck)")  # fmt: skip
    _sampling_options(parser)
    parser.add_argument("--edje-test", action="store_true",
                        help="also the edje-cards test split: evaluation only, never used to "
                             "choose anything")  # fmt: skip
    parser.add_argument("--threshold", type=_threshold, default=None, metavar="T",
                        help="the commit threshold the readings are counted at (default the "
                             "classifier's commit_threshold, else the table's default 0.85)")  # fmt: skip


def refuse_real_set_options(args: argparse.Namespace) -> None:
    """The real sets' options given without ``--real-sets``: one clear error."""
    given = [name for name, on in (("--held-out", args.held_out), ("--edje-test", args.edje_test),
                                   ("--limit", args.limit is not None),
                                   ("--threshold", args.threshold is not None)) if on]  # fmt: skip
    if given:
        raise SystemExit(f"kibic vision eval: {', '.join(given)} only go with --real-sets")


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from kibic.cli_vision import _finder_options
    from referee.cards import Deck

    threshold = sub.add_parser("threshold", help="the commit threshold the real tuning sets "
                               "support")  # fmt: skip
    _sampling_options(threshold)
    threshold.add_argument("--target", type=_threshold, default=0.999,
                           help="the least share right of the committed readings, shown by "
                                "the 95 %% lower Wilson bound (default 0.999)")  # fmt: skip
    threshold.add_argument("--deck", type=Deck.parse, default=None)
    threshold.add_argument("--model", type=Path, default=None,
                           help="the classifier (.onnx); default the table's")  # fmt: skip
    threshold.add_argument("--json", action="store_true")
    _finder_options(threshold)
    threshold.set_defaults(handler=_threshold_command)


def _reader(args: argparse.Namespace, recognizer: Recognizer, detector: Any,
            also_classic: bool) -> Reader:  # fmt: skip
    from kibic.cli_vision import _corners, _floor_of
    from vision.real_sets import DECK, Reader
    from vision.reliability import commit_threshold

    # as ``classify`` reads: the photo read whole where no card is read at the classifier's
    # commit threshold (experiment 83; where nothing at all is read, kept down to the read
    # floor and asked, experiment 79)
    return Reader(recognizer, deck=args.deck or DECK, detector=detector,
                  also_classic=also_classic, refine=args.refine,
                  whole_if_none=commit_threshold(recognizer.path), corners=_corners(args),
                  floor=_floor_of(args))  # fmt: skip


def _reports(args: argparse.Namespace, reader: Reader, include_test: bool) -> list[SetReport]:
    from vision.real_sets import evaluate_real_sets

    try:
        return list(evaluate_real_sets(reader, held_out=args.held_out,
                                       include_test=include_test, limit=args.limit))  # fmt: skip
    except FileNotFoundError as exc:
        raise SystemExit(f"kibic vision: {exc}") from None


def eval_real_sets(args: argparse.Namespace, recognizer: Recognizer, detector: Any,
                   also_classic: bool) -> int:  # fmt: skip
    from vision.reliability import commit_threshold

    threshold = args.threshold or commit_threshold(recognizer.path)
    reader = _reader(args, recognizer, detector, also_classic)
    results: dict[str, object] = {}
    if not args.json:
        print(f"classifier {recognizer.path.name}, deck {reader.deck.value}, commit threshold "
              f"{threshold:g}" + (f", {args.limit} photos a part" if args.limit else "")
              + (f", corner reader {args.corner_reader}" if args.corner_reader else ""))  # fmt: skip
    for report in _reports(args, reader, args.edje_test):
        s = results[report.name] = report.summary(threshold)
        if not args.json:
            print_report(report.name, s)
    if args.json:
        print(json.dumps(results, indent=1))
    return 0


def _pct(value: object, bounds: object) -> str:
    if not isinstance(value, float):
        return "-"
    if not isinstance(bounds, list):
        return f"{value:.1%}"
    return f"{value:.1%} [95 % {bounds[0]:.1%}-{bounds[1]:.1%}]"


def print_report(name: str, s: dict[str, Any]) -> None:
    """One part's line, and its reliability table."""
    found = "read as a card" if name.startswith("card-crops") else "found"
    whole = f", {s['read_whole']} read whole" if s["read_whole"] else ""
    ece = "-" if s["ece"] is None else f"{s['ece']:.3f}"
    print(f"{name}: {s['images']} photos, {s['cards']} cards; {found} "
          f"{_pct(s['box_recall'], s['box_recall_95'])}{whole}; {s['measure']} accuracy "
          f"{_pct(s['accuracy'], s['accuracy_95'])}; at {s['threshold']:g}: {s['committed']} "
          f"committed, {s['asked']} asked, {s['wrong_committed']} wrong "
          f"({_pct(_of(s['wrong_committed'], s['committed']), s['wrong_committed_95'])} of "
          f"committed){_not_there(s)}; ECE {ece}")  # fmt: skip
    rows = [b for b in s["reliability"] if b["count"]]
    if rows:
        print("  confidence  readings  mean conf  right")
        for b in rows:
            print(f"  {b['bin']:10}  {b['count']:8d}  {b['mean_confidence']:9.3f}  "
                  f"{b['accuracy']:.3f}")  # fmt: skip


def _not_there(s: dict[str, Any]) -> str:
    """The readings of cards not in their photo (not for photos that are one card each)."""
    if s["not_there"] is None:
        return ""
    return (f"; readings of cards not there {s['not_there']} ({s['not_there_per_100_cards']:.1f} "
            f"per 100 cards; {s['not_there_on_a_labelled_card']} where a labelled card lies), "
            f"{s['not_there_committed']} committed")  # fmt: skip


def _of(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def _threshold_command(args: argparse.Namespace) -> int:
    from kibic.cli_vision import _detector
    from vision.real_sets import READ_AGAIN
    from vision.recognizer import DEFAULT_MODEL, Recognizer
    from vision.reliability import choose_threshold, commit_threshold

    recognizer = Recognizer(args.model or DEFAULT_MODEL)
    detector, also_classic = _detector(args)
    reader = _reader(args, recognizer, detector, also_classic)
    reports = _reports(args, reader, include_test=False)
    pooled = [r for report in reports if report.name not in READ_AGAIN for r in report.readings]
    out: dict[str, object] = {}
    for report in reports:
        out[report.name] = _choice_json(choose_threshold(report.readings, args.target))
    choice = choose_threshold(pooled, args.target)
    out["all"] = _choice_json(choice)
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print(f"classifier {recognizer.path.name} (its commit threshold now "
          f"{commit_threshold(recognizer.path):g}), deck {reader.deck.value}, target "
          f"{args.target:g} right (95 % lower Wilson bound); tuning sets"
          + (" (held-out parts)" if args.held_out else ""))  # fmt: skip
    for report in reports:
        print(f"{report.name}: {choose_threshold(report.readings, args.target).describe()}")
    print(f"all {len(pooled)} readings: {choice.describe()}")
    return 0


def _choice_json(choice: Any) -> dict[str, object]:
    return {
        "readings": choice.readings,
        "threshold": choice.threshold,
        "committed": choice.committed,
        "wrong": choice.wrong,
        "lower_bound": None if choice.lower_bound is None else round(choice.lower_bound, 5),
        "best_threshold": choice.best_threshold,
        "readings_needed": choice.needed,
    }
