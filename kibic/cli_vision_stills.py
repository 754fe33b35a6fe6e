"""``kibic vision track --stills FOLDER``: the table's camera path on folders of real photos."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kibic.config import CameraConfig
    from referee.cards import Deck
    from vision.stills import StillsReport


def add_options(track: argparse.ArgumentParser) -> None:
    track.add_argument("--stills", type=Path, nargs="*", default=None, metavar="FOLDER",
                       help="folders of labelled still photos (VOC .xml beside each photo, or "
                            "images/ and labels/ with corner boxes): each photo goes through "
                            "the table's camera path; committed right / wrong and asked per "
                            "folder")  # fmt: skip
    track.add_argument("--corners", default=None, metavar="x,y,x,y,x,y,x,y",
                       help="with --stills: the table's corners in each photo (pixels, "
                            "top-left, top-right, bottom-right, bottom-left), or 'frame' for "
                            "each photo's own edges; default [calibration] corners of "
                            "--config")  # fmt: skip
    track.add_argument("--config", type=Path, default=None,
                       help="with --stills: a table's configuration, for its [calibration] "
                            "corners, its camera deck and its commit threshold")  # fmt: skip
    track.add_argument("--tune-parts", action="store_true",
                       help="with --stills: also the tune parts of the corner-boxes real photos "
                            "(desk, single, gold-deck), each on its own line")  # fmt: skip
    track.add_argument("--train-parts", action="store_true",
                       help="with --stills: also their training parts (the detector and the "
                            "corner readers learnt from them), each on its own line")  # fmt: skip
    track.add_argument("--index-cards", action=argparse.BooleanOptionalAction, default=None,
                       help="with --stills: also find and read cards by their corner indices "
                            "(French-suited decks of one copy of each card); default [camera] "
                            "index_cards of --config, else the deck's default")  # fmt: skip
    track.add_argument("--learned-cards", action=argparse.BooleanOptionalAction, default=None,
                       help="with --stills: also find cards by the learned detector on the "
                            "pictures at rest; default [camera] learned_cards of --config, "
                            "else on")  # fmt: skip
    track.add_argument("--second-opinion", action=argparse.BooleanOptionalAction, default=None,
                       help="with --stills: a card read below the commit threshold is read again "
                            "by the still-photo classifier; default [camera] second_opinion of "
                            "--config, else on")  # fmt: skip
    track.add_argument("--second-check", action=argparse.BooleanOptionalAction, default=None,
                       help="with the second opinion on: a card about to be "
                            "committed is read by the still-photo classifier too, and asked "
                            "when it reads another card; default [camera] second_check of "
                            "--config, else off")  # fmt: skip
    track.add_argument("--pip-check", action=argparse.BooleanOptionalAction, default=None,
                       help="a French-suited card about to be committed is asked when its face "
                            "shows more pips than its rank has (experiment 56); default off")  # fmt: skip
    track.add_argument("--corner-reader", type=Path, default=None, metavar="ONNX",
                       help="with --stills and the index cards on: the corner-index box reader "
                            "(.onnx, its .labels.json beside it); default the shipped one")  # fmt: skip
    track.add_argument("--hand-check", choices=("skin", "table"), default=None,
                       help="with --stills: what is taken for a hand over a card: any "
                            "skin-coloured region (skin), or one that is neither the table's "
                            "own colour nor a card's print (table); default [camera] "
                            "hand_check of --config, else table")  # fmt: skip
    track.add_argument("--moving", type=int, default=0, metavar="N",
                       help="with --stills: each photo shown N frames in motion first (each "
                            "other one brighter, as for a hand moving or the light changing), "
                            "then at rest: the cards a table decides in motion")  # fmt: skip
    track.add_argument("--each", action="store_true",
                       help="with --stills: also each wrong commit and each card missed")  # fmt: skip
    track.add_argument("--json", action="store_true", help="with --stills: one JSON document")


def refuse_options(args: argparse.Namespace) -> None:
    names = ("corners", "config", "hand_check", "each", "json", "tune_parts", "train_parts",
             "moving")  # fmt: skip
    given = [f"--{name.replace('_', '-')}" for name in names if getattr(args, name)]
    if given:
        raise SystemExit(f"kibic vision track: {', '.join(given)} only go with --stills")


def table_paths(args: argparse.Namespace, camera: CameraConfig, deck: Deck) -> tuple[Any, Any, Any]:
    """The corner-index finder, the learned detector and the second classifier a table of
    ``camera``'s settings reads ``deck`` with (each None when off: ``kibic.camera.reading_paths``,
    as ``kibic run`` does); ``--index-cards``, ``--learned-cards`` and ``--second-opinion`` (and
    their ``--no-``) say otherwise, ``--corner-reader`` names another box reader."""
    from kibic.camera import index_cards_on, reading_paths
    from kibic.cli_vision import corner_finder
    from vision.labels import index_readable

    if args.index_cards and not index_readable(deck):
        raise SystemExit(f"kibic vision track: --index-cards: the corner-index reader reads "
                         f"French-suited decks of one copy of each card, not {deck.value}")  # fmt: skip
    given = {"index_cards": args.index_cards, "learned_cards": args.learned_cards,
             "second_opinion": args.second_opinion}  # fmt: skip
    camera = replace(camera, deck=deck.value,
                     **{name: value for name, value in given.items() if value is not None})  # fmt: skip
    if args.corner_reader is not None and not index_cards_on(camera):
        raise SystemExit("kibic vision track: --corner-reader goes with the index cards on")
    return reading_paths(camera, lambda: corner_finder(args.corner_reader, "track"))


def track_stills(args: argparse.Namespace) -> int:
    from kibic.camera import table_tracker_config
    from kibic.cli_vision import _profile
    from kibic.config import CameraConfig, ConfigError, TableConfig, load_config
    from referee.cards import Deck
    from vision.hands import HandCheck, HandConfig
    from vision.recognizer import DEFAULT_MODEL, Recognizer, table_recognizer
    from vision.reliability import commit_threshold
    from vision.stills import (
        StillsReport,
        corner_boxes_parts,
        labelled,
        parse_corners,
        track_photos,
    )
    from vision.tracker import TrackerConfig

    config: TableConfig | None = None
    if args.config is not None:
        try:
            config = load_config(args.config)
        except ConfigError as exc:
            raise SystemExit(f"kibic vision track: {exc}") from None
    if args.corners is not None:
        try:
            corners = parse_corners(args.corners)
        except ValueError as exc:
            raise SystemExit(f"kibic vision track: --corners: {exc}") from None
    elif config is not None and config.camera.corners:
        corners = config.camera.corners
    else:
        raise SystemExit("kibic vision track: --stills needs the table's corners: --corners "
                         "x,y,x,y,x,y,x,y (or 'frame'), or --config with [calibration] "
                         "corners")  # fmt: skip
    deck = args.deck or (Deck.parse(config.camera.deck) if config else Deck.FRENCH_53)
    model = args.model or DEFAULT_MODEL
    if config is not None and args.model is None:
        tracker_config = table_tracker_config(config)
    else:
        tracker_config = TrackerConfig(min_confidence=commit_threshold(model))
    hand_check = args.hand_check or (config.camera.hand_check if config is not None else "table")
    tracker_config = replace(tracker_config, hands=HandConfig(check=HandCheck(hand_check)))
    if args.second_check is not None:
        tracker_config = replace(tracker_config, second_check=args.second_check)
    if args.pip_check is not None:
        tracker_config = replace(tracker_config, pip_check=args.pip_check)
    if args.moving < 0:
        raise SystemExit(f"kibic vision track: --moving: {args.moving} frames is below 0")
    camera = config.camera if config is not None else CameraConfig()
    index, detector, second = table_paths(args, camera, deck)
    use_index = index is not None
    recognizer = Recognizer(model) if args.model else table_recognizer()
    profile = _profile(args.profile, deck, recognizer) if args.profile else None
    results: dict[str, object] = {}
    if not args.json:
        print(f"classifier {model.name}, deck {deck.value}, commit threshold "
              f"{tracker_config.min_confidence:g}, corners "
              f"{'each photo' + chr(39) + 's edges' if corners is None else corners}, "
              f"index cards {'on' if use_index else 'off'}, "
              f"learned cards {'on' if detector is not None else 'off'}, "
              f"second opinion {'on' if second is not None else 'off'}"
              f"{' with the check' if second is not None and tracker_config.second_check else ''}, "
              f"hand check {tracker_config.hands.check.value}"
              + (", pip check" if tracker_config.pip_check else "")
              + (f", corner reader {args.corner_reader}" if args.corner_reader else "")
              + (f", deck profile {args.profile}" if profile is not None else "")
              + (f", {args.moving} frames in motion first" if args.moving else ""))  # fmt: skip
    parts: list[tuple[str, Path | list[tuple[Path, Path, str]]]] = [
        (str(folder), folder) for folder in args.stills or ()
    ]
    for part, wanted in (("tune", args.tune_parts), ("train", args.train_parts)):
        if not wanted:
            continue
        try:
            parts += corner_boxes_parts(part)
        except (OSError, ValueError) as exc:
            raise SystemExit(f"kibic vision track: --{part}-parts: {exc}") from None
    if not parts:
        raise SystemExit(
            "kibic vision track: --stills needs a FOLDER, or --tune-parts or --train-parts"
        )
    reports: list[StillsReport] = []
    for name, where in parts:
        try:
            photos = list(labelled(where) if isinstance(where, Path) else where)
            report = track_photos(name, photos, recognizer, deck=deck, corners=corners,
                                  seats=args.seats, config=tracker_config, index=index,
                                  detector=detector, second=second, profile=profile,
                                  moving=args.moving)  # fmt: skip
        except (OSError, ValueError) as exc:
            raise SystemExit(f"kibic vision track: --stills {name}: {exc}") from None
        reports.append(report)
        results[name] = report.summary()
        if not args.json:
            print(_line(report))
            if args.each:
                for line in report.mistakes + report.misses:
                    print(f"  {line}")
    if len(reports) > 1:  # the parts together: what their commits show, summed
        together = StillsReport.together(f"the {len(reports)} parts together", reports)
        results[together.name] = together.summary()
        if not args.json:
            print(_line(together))
    if args.json:
        print(json.dumps(results, indent=1))
    return 0


def _line(report: StillsReport) -> str:
    """A part's line of the report: its counts and their 95 % intervals."""
    s = report.summary()
    return (f"{report.name}: {s['photos']} photos, {s['cards']} cards: committed right "
            f"{s['committed_right']}, committed wrong {s['committed_wrong']} "
            f"({s['committed_where_no_card']} where no card is), asked {s['asked']}"
            + f" ({s['asked_offering_the_card']} offering the card"
            + (f", {s['asked_where_no_card']} where no card is"
               if s["asked_where_no_card"] else "") + "), missed "
            f"{s['missed']}" + (f", {s['events_on_no_label']} on no labelled card"
                                if s["events_on_no_label"] else "")
            + _shares(report, s))  # fmt: skip


def _shares(report: StillsReport, summary: dict[str, Any]) -> str:
    """The report line's 95 % intervals (``summary``, the report's): of the cards, those
    committed right; of the cards committed, the low end of those right."""
    out = ""
    if isinstance(cards := summary["committed_right_95"], list):
        share = 100 * report.committed_right / report.cards
        out += f"; committed right {share:.1f} % [{100 * cards[0]:.1f}-{100 * cards[1]:.1f}]"
    if isinstance(right := summary["right_when_committed_95"], list):
        out += f", right when committed at least {100 * right[0]:.2f} %"
    return out
