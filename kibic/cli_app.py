"""``kibic demo``, ``kibic run``, ``kibic replay``, ``kibic export``, ``kibic hash-password``."""

from __future__ import annotations

import argparse
import getpass
import json
import sys
import threading
from typing import Any

from kibic.config import ConfigError, hash_password, load_config
from kibic.demo import (
    DEMO_NAMES,
    deal_header,
    default_store,
    demo_transcript,
    describe,
    play_transcript,
    preferred_game,
    side_name,
    write_state,
)
from kibic.runtime import TableRuntime
from kibic.store import EventStore, StoreDamaged, StoreError, StoreUnreplayable
from referee.errors import RefereeError

DEMO_PASSWORD = "kibic"
#: ``kibic run`` could not open its event store (not damaged: systemd may restart it)
EXIT_STORE_UNAVAILABLE = 74


def register(subparsers: Any) -> None:
    demo = subparsers.add_parser("demo", help="play a recorded game through the whole pipeline")
    demo.add_argument("--game", default=None, help="game (default: Ružička when available)")
    demo.add_argument("--deals", type=int, default=0, help="deals (0: until a partija is won)")
    demo.add_argument("--seed", type=int, default=7)
    demo.add_argument("--headless", action="store_true", help="no dashboard server")
    demo.add_argument("--fast", action="store_true", help="no pauses between plays")
    demo.add_argument("--delay", type=float, default=None, help="seconds between plays")
    demo.add_argument("--no-vision", action="store_true", help="feed plays without the camera")
    demo.add_argument("--store", default=None, help="SQLite file (resumes if it exists)")
    demo.add_argument("--state-out", default=None, help="write the final state as JSON")
    demo.add_argument("--port", type=int, default=8000)
    demo.add_argument("--quiet", action="store_true")
    demo.add_argument("--serve", action="store_true", help="keep the dashboard up afterwards")
    demo.set_defaults(handler=cmd_demo)

    run = subparsers.add_parser("run", help="run a real table from a TOML configuration")
    run.add_argument("config")
    run.set_defaults(handler=cmd_run)

    rep = subparsers.add_parser("replay", help="print the state rebuilt from a table's event store")
    rep.add_argument("store")
    rep.add_argument("--table", default=None, help="the table id (default: the store's only table)")
    rep.set_defaults(handler=cmd_replay_store)

    exp = subparsers.add_parser("export", help="export a table's game as transcript JSON or CSV")
    exp.add_argument("store")
    exp.add_argument("--table", default=None, help="the table id (default: the store's only table)")
    exp.add_argument("--format", choices=("json", "csv"), default="json")
    exp.set_defaults(handler=cmd_export)

    hp = subparsers.add_parser("hash-password", help="hash an admin password for the config")
    hp.add_argument("--password", default=None)
    hp.set_defaults(handler=cmd_hash_password)


def _open_runtime(store: str, table: str | None) -> TableRuntime:
    """The table's state rebuilt from a store opened read-only: reading never writes, and a
    table the store does not hold is refused naming the tables it does hold."""
    events = EventStore(store, table or "", readonly=True)
    try:
        held = events.tables()
        if table is None and len(held) == 1:
            table = held[0]
        if table is None or table not in held:
            listed = ", ".join(repr(t) for t in held) if held else "none"
            said = "name one with --table" if table is None else f"no table {table!r} in it"
            raise StoreError(f"{store}: {said}; the store holds the tables: {listed}")
        events.table_id = table
        return TableRuntime(events, table_id=table)
    except BaseException:
        events.close()
        raise


def cmd_demo(args: argparse.Namespace) -> int:
    spec = args.game or preferred_game()
    try:
        transcript = demo_transcript(spec, deals=args.deals, seed=args.seed)
    except RefereeError as exc:
        print(f"kibic: {exc}", file=sys.stderr)
        return 2
    from referee.registry import load_game

    game = load_game(spec)
    store_path = default_store(args.store)
    names = DEMO_NAMES.get(game.players, [str(i) for i in range(game.players)])
    sinks = _demo_sinks(game.players)
    try:
        runtime = TableRuntime(
            EventStore(store_path, "demo"), table_id="demo", game=game.spec, names=names,
            sinks=sinks,
        )  # fmt: skip
    except StoreError as exc:  # a damaged or foreign --store: said, never replayed
        from kibic.cli_store import EXIT_DAMAGED

        print(f"kibic: {exc}", file=sys.stderr)
        return EXIT_DAMAGED if isinstance(exc, StoreDamaged) else 2
    for sink in sinks:  # the simulated lights follow the game, as a table's do
        sink.attach(runtime)
    echo = (lambda _line: None) if args.quiet else print
    sub = runtime.subscribe(maxsize=0)  # the printout shows every trick, however slow it is
    stop = threading.Event()
    deals = len(transcript["deals"])
    before = int(runtime.snapshot()["deal_number"])  # deals a resumed store began: no header

    def printer() -> None:
        shown = before
        while True:
            message = sub.get(0.05)
            if message is None:
                if stop.is_set():  # the game is over and every message is printed
                    return
                continue
            header = deal_header(message["state"], shown, deals)
            if header:
                shown = int(message["state"]["deal_number"])
                echo(header)
            for event in message["events"]:
                line = describe(event, runtime.names, runtime.game)
                if line:
                    echo(line)

    thread = threading.Thread(target=printer, daemon=True)
    thread.start()
    server = None
    if not args.headless:
        server = _start_dashboard(runtime, args.port)
        echo(f"Dashboard: http://127.0.0.1:{args.port}  (admin password: {DEMO_PASSWORD})")
    delay = args.delay if args.delay is not None else (0.0 if args.fast else 0.4)
    feeder = None if args.no_vision else _vision_feeder(runtime, spec)
    echo(f"{game.title} — {', '.join(names)} — event store {store_path}")
    play_transcript(runtime, transcript, delay=delay, feed_play=feeder)
    stop.set()
    thread.join()
    sub.close()  # nothing reads it now (the dashboard may stay up with --serve)
    match = runtime.snapshot()["match"]
    last = match["rows"][-1]["totals"] if match["rows"] else match["totals"]
    totals = " : ".join(f"{side_name(s, names, game)} {v}" for s, v in last.items())
    won = ", ".join(side_name(s, names, game) for s in match["partija_winners"]) or "-"
    echo(f"Zbir (totals): {totals}  partije dobili (partije won by): {won}")
    if feeder is not None:
        from web.plural import fill

        echo(fill("Kamera (camera): {read:karta pročitana|karte pročitane|karata pročitano} "
                  "(cards read), {asked:potvrđena ručno|potvrđene ručno|potvrđeno ručno} "
                  "(confirmed by hand), od toga {missed:nije viđena|nisu viđene|nije viđeno} "
                  "(of them not seen)", {"read": feeder.read_back, "asked": feeder.confirmed,
                                          "missed": feeder.missed}))  # fmt: skip
    write_state(runtime, args.state_out)
    if server is not None and args.serve:
        echo("Demo finished; the dashboard stays up. Ctrl-C to stop.")
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
    runtime.close()
    return 0


def _demo_sinks(players: int) -> list[Any]:
    try:
        from kibic.lights import simulated_lights
    except ImportError:
        return []
    return [simulated_lights(players)]


def _vision_feeder(runtime: TableRuntime, spec: str) -> Any:
    try:
        from kibic.camera import vision_feeder
    except ImportError:
        return None
    return vision_feeder(runtime)


def _start_dashboard(runtime: TableRuntime, port: int) -> Any:
    try:
        import uvicorn

        from web.app import create_app
    except ImportError:
        print("kibic: the dashboard is not available (web package missing)", file=sys.stderr)
        return None
    app = create_app(runtime, admin_password_hash=hash_password(DEMO_PASSWORD))
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=1
    )
    server = uvicorn.Server(config)
    threading.Thread(target=server.run, daemon=True).start()
    return server


def cmd_run(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(f"kibic: {exc}", file=sys.stderr)
        return 2
    from kibic.cli_store import EXIT_DAMAGED, recovery_hint
    from kibic.config_check import check_config
    from kibic.table import run_table

    findings = check_config(config)
    for finding in findings:  # said at start; the dashboard shows them too
        print(f"kibic: warning: {finding.message}", file=sys.stderr, flush=True)
    try:
        return run_table(config, findings=findings)
    except StoreUnreplayable as exc:  # sound checksums, an entry the referee refuses
        print(f"kibic: refusing to start: {exc}", file=sys.stderr)
        print("kibic: the entries before it replay; keep the file for inspection and point "
              "`storage` in the configuration at a new file to start a new game", file=sys.stderr)  # fmt: skip
        return EXIT_DAMAGED
    except StoreDamaged as exc:  # never replayed, never restarted in a loop (the unit)
        print(f"kibic: refusing to start: {exc}", file=sys.stderr)
        print(f"kibic: {recovery_hint(exc.path)}", file=sys.stderr)
        return EXIT_DAMAGED
    except StoreError as exc:  # cannot open (permissions, a missing mount): worth a restart
        print(f"kibic: {exc}", file=sys.stderr)
        return EXIT_STORE_UNAVAILABLE


def cmd_replay_store(args: argparse.Namespace) -> int:
    try:
        runtime = _open_runtime(args.store, args.table)
    except (StoreError, RefereeError) as exc:
        print(f"kibic: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(runtime.state_digest(), ensure_ascii=False, indent=2))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    try:
        runtime = _open_runtime(args.store, args.table)
    except (StoreError, RefereeError) as exc:
        print(f"kibic: {exc}", file=sys.stderr)
        return 2
    if args.format == "csv":
        sys.stdout.write(runtime.export_csv())
    else:
        print(json.dumps(runtime.export_transcript(), ensure_ascii=False, indent=2))
    return 0


def cmd_hash_password(args: argparse.Namespace) -> int:
    password = args.password or getpass.getpass("Admin password: ")
    print(hash_password(password))
    return 0
