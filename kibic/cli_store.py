"""``kibic store check`` and ``kibic store salvage``: find the damaged entries of an event
store, and copy the good part of a damaged one to a new file."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from kibic.store import StoreDamaged, StoreError
from kibic.store_repair import check_store, salvage

#: the exit status of a damaged store (``kibic run`` too; the systemd unit does not restart it)
EXIT_DAMAGED = 65


def register(subparsers: Any) -> None:
    store = subparsers.add_parser("store", help="check or salvage a table's event store")
    sub = store.add_subparsers(dest="store_command", required=True)
    check = sub.add_parser("check", help="check every entry's checksum (exit 65 if damaged)")
    check.add_argument("file")
    check.add_argument("--table", default=None, help="check this table only")
    check.set_defaults(handler=cmd_check)
    sal = sub.add_parser("salvage", help="write each table's entries before the first bad one")
    sal.add_argument("file")
    sal.add_argument("--out", required=True, help="the new store to write (must not exist)")
    sal.set_defaults(handler=cmd_salvage)


def recovery_hint(path: str) -> str:
    return (
        f"to recover: `kibic store check {path}` lists every damaged entry; "
        f"`kibic store salvage {path} --out NEW.sqlite` copies each table's entries before its "
        "first bad one to a new file; point `storage` in the configuration at the new file "
        "and keep the damaged one for inspection"
    )


def cmd_check(args: argparse.Namespace) -> int:
    try:
        report = check_store(args.file, args.table)
    except StoreDamaged as exc:
        print(f"kibic: {exc}", file=sys.stderr)
        return EXIT_DAMAGED
    except StoreError as exc:
        print(f"kibic: {exc}", file=sys.stderr)
        return 2
    for table, count in report.entries.items():
        first = report.first_bad(table)
        state = "ok" if first is None else f"damaged from entry {first.seq}"
        print(f"table {table!r}: {count} entries, {state}")
    if not report.chained:
        print(f"{args.file} has no checksums yet (an older store): `kibic run` adds them")
    if args.table and not report.entries.get(args.table) and not report.damage:
        print(f"kibic: no table {args.table!r} in {args.file}", file=sys.stderr)
        return 2
    for table, picture in report.damaged_pictures:
        print(f"table {table!r}: the camera's picture {picture} is damaged (its bytes no longer "
              "match its id): it is not shown; the log does not depend on it")  # fmt: skip
    for damage in report.damage:
        print(f"kibic: damaged: {damage}", file=sys.stderr)
    if report.damage:
        print(f"kibic: {recovery_hint(args.file)}", file=sys.stderr)
        return EXIT_DAMAGED
    return 0


def cmd_salvage(args: argparse.Namespace) -> int:
    try:
        result = salvage(args.file, args.out)
    except StoreError as exc:
        print(f"kibic: {exc}", file=sys.stderr)
        return EXIT_DAMAGED if isinstance(exc, StoreDamaged) else 2
    for item in result:
        why = f" (first bad: {item.first_bad})" if item.first_bad else ""
        print(f"table {item.table!r}: kept {item.kept} entries, dropped {item.dropped}{why}")
    kept = sum(i.kept for i in result)
    dropped = sum(i.dropped for i in result)
    print(f"wrote {args.out}: kept {kept} entries, dropped {dropped}")
    return 0
