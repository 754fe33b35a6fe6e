"""``kibic club``: the club server, table keys, the player register, forwarding a table's log.

The club package (and its database libraries, the ``club`` extra) is imported only when one of
these commands runs, never when ``kibic`` starts.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from datetime import datetime
from typing import Any

EXIT_FAILED = 1
EXIT_BAD_INPUT = 2
DB_HELP = "database URL: postgresql://user@host/db, or a SQLite file (env KIBIC_CLUB_DB)"


def register(subparsers: Any) -> None:
    club = subparsers.add_parser("club", help="the club server: many tables, one results service")
    sub = club.add_subparsers(dest="club_command", required=True)
    default_db = os.environ.get("KIBIC_CLUB_DB", "var/club.sqlite3")

    serve = sub.add_parser("serve", help="run the club server")
    serve.add_argument("--db", default=default_db, help=DB_HELP)
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8100)
    serve.add_argument("--admin-token", default=os.environ.get("KIBIC_CLUB_ADMIN_TOKEN"))
    serve.add_argument("--timezone", default="Europe/Belgrade")
    serve.add_argument(
        "--language",
        choices=("en", "sr"),
        default="en",
        help="the pages' language when a link names none (?lang=)",
    )
    serve.add_argument("--log-level", default="info")
    serve.set_defaults(handler=cmd_serve)

    migrate = sub.add_parser("migrate", help="bring the club database to the newest schema")
    migrate.add_argument("--db", default=default_db, help=DB_HELP)
    migrate.set_defaults(handler=cmd_migrate)

    key = sub.add_parser("issue-key", help="issue (or replace) a table's forwarding key")
    key.add_argument("table")
    key.add_argument("--db", default=default_db, help=DB_HELP)
    key.set_defaults(handler=cmd_issue_key)

    player = sub.add_parser("add-player", help="add a player to the club's register")
    player.add_argument("club_id")
    player.add_argument("name")
    player.add_argument("--db", default=default_db, help=DB_HELP)
    player.set_defaults(handler=cmd_add_player)

    tour = sub.add_parser("add-tournament", help="declare a tournament (games started in a window)")
    tour.add_argument("slug")
    tour.add_argument("name")
    tour.add_argument("--start", required=True, help="ISO date-time, e.g. 2026-05-20T18:00")
    tour.add_argument("--end", default=None, help="ISO date-time (open-ended if omitted)")
    tour.add_argument("--tables", default="", help="comma-separated table ids (default: all)")
    tour.add_argument("--game", default=None, help="only games of this kind")
    tour.add_argument("--db", default=default_db, help=DB_HELP)
    tour.set_defaults(handler=cmd_add_tournament)

    fwd = sub.add_parser("forward", help="send a table's event log to the club server")
    fwd.add_argument("store", help="the table's SQLite event store")
    fwd.add_argument("--table", default="table-1")
    fwd.add_argument("--server", required=True, help="club server URL, e.g. http://club:8100")
    fwd.add_argument("--key", default=os.environ.get("KIBIC_CLUB_KEY"), help="env KIBIC_CLUB_KEY")
    fwd.add_argument("--once", action="store_true", help="exit when the server has everything")
    fwd.add_argument("--batch", type=int, default=200)
    fwd.set_defaults(handler=cmd_forward)


def _engine(url: str) -> Any:
    from club.db import make_engine, migrate

    engine = make_engine(url)
    migrate(engine)
    return engine


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from club.app import create_app
    from club.service import ClubSettings

    settings = ClubSettings(database_url=args.db, admin_token=args.admin_token,
                            timezone=args.timezone, language=args.language)  # fmt: skip
    # open pages hold their live feed: a restart waits for them 2 s at most
    uvicorn.run(create_app(settings), host=args.host, port=args.port, log_level=args.log_level,
                timeout_graceful_shutdown=2)  # fmt: skip
    return 0


def cmd_migrate(args: argparse.Namespace) -> int:
    from club.db import current_revision

    engine = _engine(args.db)
    print(f"club database at revision {current_revision(engine)}")
    return 0


def cmd_issue_key(args: argparse.Namespace) -> int:
    from club.storage import ClubStore, UnknownTable

    try:
        key = ClubStore(_engine(args.db)).issue_key(args.table)
    except UnknownTable as exc:
        print(f"kibic: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(key)
    return 0


def cmd_add_player(args: argparse.Namespace) -> int:
    from club.storage import ClubStore, RegisterError

    try:
        p = ClubStore(_engine(args.db)).add_player(args.club_id, args.name)
    except RegisterError as exc:
        print(f"kibic: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"{p.club_id}\t{p.name}")
    return 0


def cmd_add_tournament(args: argparse.Namespace) -> int:
    from club.storage import ClubStore, RegisterError, Tournament

    try:
        start = datetime.fromisoformat(args.start).timestamp()
        end = datetime.fromisoformat(args.end).timestamp() if args.end else None
    except ValueError as exc:
        print(f"kibic: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    tables = tuple(t.strip() for t in args.tables.split(",") if t.strip())
    try:
        ClubStore(_engine(args.db)).add_tournament(
            Tournament(args.slug, args.name, start, end, tables, args.game)
        )
    except RegisterError as exc:
        print(f"kibic: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(args.slug)
    return 0


def cmd_forward(args: argparse.Namespace) -> int:
    from pathlib import Path

    from club.forwarder import Forwarder, ForwardError
    from kibic.store import EventStore, StoreError

    if not args.key:
        print("kibic: a table key is needed (--key or KIBIC_CLUB_KEY)", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not Path(args.store).exists():
        print(f"kibic: no event store at {args.store}", file=sys.stderr)
        return EXIT_BAD_INPUT
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    stop = threading.Event()
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
    try:
        store = EventStore(args.store, args.table)
    except StoreError as exc:  # damaged, or not a Kibic store: a person must look
        print(f"kibic: not forwarded: {exc}", file=sys.stderr)
        return EXIT_FAILED
    try:
        forwarder = Forwarder(store, server=args.server, key=args.key, batch=args.batch)
        upto = forwarder.run(stop, until_caught_up=args.once)
    except (ForwardError, ValueError) as exc:
        print(f"kibic: {exc}", file=sys.stderr)
        return EXIT_FAILED
    finally:
        store.close()
    print(f"table {args.table}: the club server holds the log up to seq {upto}")
    return 0
