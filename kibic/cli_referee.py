"""``kibic referee``: replay transcripts and list the games."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import Any

from referee.errors import RefereeError
from referee.registry import all_games
from referee.transcript import load_transcript, replay, summary

EXIT_BAD_INPUT = 2


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("referee", help="the referee engine: replay, games")
    sub = parser.add_subparsers(dest="referee_command", required=True)
    rep = sub.add_parser("replay", help="replay a transcript trick by trick")
    rep.add_argument("file", help="transcript JSON file")
    rep.add_argument("--json", action="store_true", help="print the result as JSON")
    rep.set_defaults(handler=cmd_replay)
    truth = sub.add_parser(
        "truth",
        help="seeded legal and rule-breaking deals of every game, refereed from the table alone",
    )
    truth.add_argument("--deals", type=int, default=200, help="legal deals per game")
    truth.add_argument("--broken", type=int, help="rule-breaking deals per game (default --deals)")
    truth.add_argument("--seed", type=int, default=0)
    truth.add_argument("--game", action="append", help="a game or variant (default: all)")
    truth.add_argument("--json", action="store_true", help="print the figures as JSON")
    truth.set_defaults(handler=cmd_truth)
    games = sub.add_parser("games", help="list every game and variant")
    games.add_argument("--json", action="store_true")
    games.set_defaults(handler=cmd_games)


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        rep = replay(load_transcript(args.file))
    except RefereeError as exc:
        print(f"kibic: {args.file}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    data = summary(rep)
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    print(f"{rep.game.title or rep.game.name} ({data['game']})")
    if any(t.get("rounds") for d in data["deals"] for t in d["tricks"]):
        print("Rounds [I] [II]...: - beside the pile, ? face down, ↩ back to the hand, ! brejk")
    for number, deal in enumerate(data["deals"], start=1):
        print(f"\nDeal {number} (dealer seat {deal['dealer']})")
        calls = deal["state"].get("calls")
        if calls:  # bids, contracts, announcements (games that list them in their snapshot)
            print("  Calls: " + ", ".join(str(c) for c in calls))
        else:  # every spoken or shown action: contracts, joker Jack, declarations, offers...
            spoken = [_call(c) for c in deal["calls"] if c["type"] not in QUIET_CALLS]
            if spoken:
                print("  Calls: " + ", ".join(spoken))
        for trick in deal["tricks"]:
            print("  " + format_trick(trick))
        for v in deal["violations"]:
            penalty = f"; penalty {v['penalty']}" if v["penalty"] else ""
            print(
                f"  VIOLATION seat {v['seat']}: {v['rule']} at trick {v['trick']}, proven at trick "
                f"{v['proven_at_trick']} — {v['evidence']}{penalty}"
            )
        print(f"  Score: {deal['score']}  ({deal['detail']})")
    print(f"\nTotals: {data['totals']}")
    match = data["match"]
    if match["partija_winners"]:
        print(f"Partije won: {match['partija_winners']}; match points {match['points']}")
    if match["winner"]:
        print(f"Match won by {match['winner']}")
    return 0


#: table actions that the trick lines already show (offers and knocks appear inside rounds)
QUIET_CALLS = {"offer", "knock", "reveal"}
#: how a round shows a card's mode: on the pile (nothing), beside it, face down, returned
MODE_MARKS = {"discard": "-", "offer": "?", "returned": "↩", "break": "!"}


def _call(call: dict[str, Any]) -> str:
    cards = " ".join(call.get("cards", []))
    card = call.get("card", "")
    what = " ".join(x for x in (call.get("value") or "", card, f"[{cards}]" if cards else "") if x)
    return f"{call['seat']}:{call['type']}" + (f" {what}" if what else "")


def format_trick(trick: dict[str, Any]) -> str:
    head = f"Trick {trick['number']:>2} (lead {trick['leader']}): "
    rounds = trick.get("rounds")
    if rounds:
        parts = []
        for i, rnd in enumerate(rounds, start=1):
            cards = " ".join(
                f"{s}:{c}{MODE_MARKS.get(rest[0], '') if rest else ''}"
                for s, c, *rest in rnd["plays"]
            )
            parts.append(f"[{_roman(i)}] {cards}")
        body = " ".join(parts)
    else:
        body = " ".join(f"{s}:{c}" for s, c, *_ in trick["plays"])
    return f"{head}{body} -> seat {trick['winner']}"


def _roman(n: int) -> str:
    return (
        ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"][n - 1] if n <= 10 else str(n)
    )


def cmd_games(args: argparse.Namespace) -> int:
    rows: list[dict[str, Any]] = []
    for cls in all_games():
        game = cls()
        rows.append(
            {
                "name": cls.name,
                "title": cls.title,
                "aliases": list(cls.aliases),
                "players": game.players,
                "deck": game.deck.value,
                "options": game.options.to_mapping(),
            }
        )
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    for row in rows:
        opts = ", ".join(f"{k}={v}" for k, v in row["options"].items())
        aliases = ", ".join(row["aliases"])
        print(f"{row['name']:<24} {row['title']:<24} {row['players']}p  {row['deck']:<14} "
              f"options: {opts or '-'}  aliases: {aliases or '-'}")  # fmt: skip
    return 0


def cmd_truth(args: argparse.Namespace) -> int:
    """Exit 0 when every game is clean, 1 otherwise (the deals at fault are printed)."""
    from referee.perft import specs
    from referee.truth import check_game, table_lines

    if args.deals < 0 or (args.broken is not None and args.broken < 0):
        print("kibic: --deals and --broken are counts (0 or more)", file=sys.stderr)
        return EXIT_BAD_INPUT
    wanted = args.game or specs()
    try:
        reports = [
            check_game(spec, deals=args.deals, broken=args.broken, seed=args.seed)
            for spec in wanted
        ]
    except RefereeError as exc:
        print(f"kibic: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        print(json.dumps([_truth_json(r) for r in reports], ensure_ascii=False, indent=2))
    else:
        for line in table_lines(reports):
            print(line)
        print(f"total {sum(r.seconds for r in reports):.1f} s")
        for r in reports:
            for example in r.examples:
                print(f"\n{r.spec}: {example['kind']} (seed {example['seed']})")
                print(json.dumps({k: v for k, v in example.items() if k not in ("kind", "seed")},
                                 ensure_ascii=False))  # fmt: skip
    return 0 if all(r.ok for r in reports) else 1


def _truth_json(report: Any) -> dict[str, Any]:
    # its fields, not vars(): a compiled referee's records have no __dict__
    data = {
        f.name: getattr(report, f.name) for f in dataclasses.fields(report) if f.name != "late_by"
    }
    data["late_by"] = {str(k): v for k, v in sorted(report.late_by.items())}
    data["ok"] = report.ok
    return data
