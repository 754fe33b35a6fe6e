"""Checking a whole event store file and salvaging the good part of a damaged one
(``kibic store check`` and ``kibic store salvage``; ``kibic run`` checks before it starts)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from kibic.store import CROPS, EventStore, NotAStore, StoreError, crop_id
from kibic.store_chain import (
    DAMAGE_ERRORS,
    Damage,
    RawRow,
    chain_of,
    head_damage,
    lenient_text,
    read_head,
    read_rows,
    verify_rows,
)


@dataclass
class StoreReport:
    """What ``check_store`` found: every table's entry count and everything damaged."""

    path: str
    entries: dict[str, int] = field(default_factory=dict)
    damage: list[Damage] = field(default_factory=list)
    chained: bool = True
    #: (table, id) of each camera picture whose bytes no longer match its id: never served,
    #: and no entry of the log depends on its bytes, so the store is still sound
    damaged_pictures: list[tuple[str, str]] = field(default_factory=list)

    def first_bad(self, table: str) -> Damage | None:
        return next((d for d in self.damage if d.table == table), None)


def _open_read_only(path: str) -> sqlite3.Connection:
    file = Path(path)
    if not file.is_file():
        raise StoreError(f"no event store at {path}")
    if file.stat().st_size == 0:
        raise NotAStore(path, "the file is empty: 0 bytes")
    quiet = not Path(f"{path}-wal").exists()
    uri = f"{file.resolve().as_uri()}?mode=ro" + ("&immutable=1" if quiet else "")
    db = sqlite3.connect(uri, uri=True)
    db.text_factory = lenient_text
    try:
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except DAMAGE_ERRORS as exc:
        db.close()
        raise NotAStore(path, f"SQLite: {exc}") from None
    if "events" not in names:
        db.close()
        raise NotAStore(path, "it has no events table")
    return db


def _chained(db: sqlite3.Connection) -> bool:
    try:
        columns = {r[1] for r in db.execute("PRAGMA table_info(events)")}
        heads = db.execute("SELECT 1 FROM sqlite_master WHERE name='chain_heads'").fetchone()
    except DAMAGE_ERRORS:
        return True  # its chain is what says what can be read
    return "hash" in columns and heads is not None


def _table_ids(db: sqlite3.Connection, chained: bool, report: StoreReport) -> list[str]:
    found: set[str] = set()
    queries = ["SELECT DISTINCT table_id FROM events NOT INDEXED"]
    if chained:
        queries.append("SELECT table_id FROM chain_heads")
    for sql in queries:
        try:
            found.update(r[0] for r in db.execute(sql) if isinstance(r[0], str))
        except DAMAGE_ERRORS as exc:
            report.damage.append(Damage("", 0, f"its table list cannot be read (SQLite: {exc})"))
    return sorted(found)


def _table_damage(
    db: sqlite3.Connection, table: str, chained: bool, *, every: bool
) -> tuple[list[RawRow], list[Damage]]:
    head = read_head(db, table) if chained else None
    rows, stopped = read_rows(db, table, with_hash=chained, scan=True)
    if not chained:
        return rows, [Damage(table, rows[-1].seq + 1 if rows else 1, stopped)] if stopped else []
    damage = verify_rows(table, rows, every=every)
    if stopped:
        damage.append(Damage(table, rows[-1].seq + 1 if rows else 1, stopped))
    elif every or not damage:
        damage += head_damage(table, head, rows)
    damage.sort(key=lambda d: d.seq)
    return rows, damage


def check_store(path: str, table: str | None = None) -> StoreReport:
    """Check every table of the store (or ``table``): SQLite's integrity check, then each
    table's hash chain from its first entry to its recorded head."""
    db = _open_read_only(path)
    report = StoreReport(path)
    try:
        report.chained = _chained(db)
        try:
            problems = [r[0] for r in db.execute("PRAGMA integrity_check(20)")]
        except DAMAGE_ERRORS as exc:
            problems = [str(exc)]
        if problems != ["ok"]:
            said = "; ".join(problems[:3]) + (" ..." if len(problems) > 3 else "")
            report.damage.append(Damage("", 0, f"SQLite's integrity check fails: {said}"))
        for name in [table] if table else _table_ids(db, report.chained, report):
            rows, damage = _table_damage(db, name, report.chained, every=True)
            report.entries[name] = len(rows)
            report.damage += damage
        report.damaged_pictures = [(t, i) for t, i in _crop_ids(db) if table is None or t == table]
    finally:
        db.close()
    return report


@dataclass(frozen=True)
class Salvaged:
    table: str
    kept: int
    dropped: int
    first_bad: Damage | None


def salvage(path: str, out: str) -> list[Salvaged]:
    """Write every table's good prefix (each entry before its first bad one) to a new store at
    ``out``, with the same ids, sequence numbers and checksums, and the camera's pictures whose
    bytes match their ids; ``out`` must not exist."""
    if Path(out).exists():
        raise StoreError(f"{out} exists: salvage writes a new file only")
    db = _open_read_only(path)
    report = StoreReport(path)
    result: list[Salvaged] = []
    try:
        chained = _chained(db)
        kept: dict[str, list[RawRow]] = {}
        for table in _table_ids(db, chained, report):
            rows, damage = _table_damage(db, table, chained, every=False)
            bad = damage[0] if damage else None
            good = [r for r in rows if bad is None or r.seq < bad.seq]
            good = _readable(good)
            kept[table] = good
            held = max([len(rows), rows[-1].seq if rows else 0, _head_seq(db, table)])
            result.append(Salvaged(table, len(good), max(held - len(good), 0), bad))
        pictures = _good_crops(db)
    finally:
        db.close()
    _write(out, kept, pictures)
    return result


Crop = tuple[str, str, str, bytes, float]  # table, id, MIME type, bytes, time


def _good_crops(db: sqlite3.Connection) -> list[Crop]:
    """The camera's pictures whose bytes still match their ids (none in an older store)."""
    try:
        rows = db.execute("SELECT table_id, id, mime, data, ts FROM crops").fetchall()
    except DAMAGE_ERRORS:  # no crops table, or its pages are the damaged part
        return []
    return [r for r in rows if isinstance(r[3], bytes) and crop_id(r[3]) == r[1]]


def _crop_ids(db: sqlite3.Connection) -> list[tuple[str, str]]:
    """(table, id) of the camera's pictures whose bytes no longer match their ids."""
    try:
        rows = db.execute("SELECT table_id, id, data FROM crops").fetchall()
    except DAMAGE_ERRORS:  # no crops table (an older store), or its pages are damaged
        return []
    return [(str(r[0]), str(r[1])) for r in rows
            if not isinstance(r[2], bytes) or crop_id(r[2]) != r[1]]  # fmt: skip


def _head_seq(db: sqlite3.Connection, table: str) -> int:
    try:
        row = db.execute("SELECT seq FROM chain_heads WHERE table_id=?", (table,)).fetchone()
    except DAMAGE_ERRORS:
        return 0
    return row[0] if row and isinstance(row[0], int) else 0


def _readable(rows: list[RawRow]) -> list[RawRow]:
    """The rows up to the first that cannot be decoded (an older store has no chain to say)."""
    good = []
    for row in rows:
        try:
            [row.text(i) for i in range(3)]
            float(row.ts)
        except (UnicodeDecodeError, TypeError, ValueError):
            break
        good.append(row)
    return good


def _write(out: str, kept: dict[str, list[RawRow]], pictures: list[Crop]) -> None:
    EventStore(out, "").close()  # a new file with the schema, then the rows as they were
    db = sqlite3.connect(out, isolation_level=None)
    try:
        db.execute("BEGIN IMMEDIATE")
        for table, rows in kept.items():
            chained = chain_of(table, rows)  # equal to the stored checksums of a good prefix
            db.executemany(
                "INSERT INTO events (table_id, seq, id, kind, payload, ts, hash)"
                " VALUES (?,?,?,?,?,?,?)",
                [
                    (table, r.seq, r.text(0), r.text(1), r.text(2), float(r.ts), digest)
                    for r, (_, digest) in zip(rows, chained, strict=True)
                ],
            )
            if chained:
                db.execute("INSERT INTO chain_heads VALUES (?,?,?)", (table, *chained[-1]))
        if pictures:
            db.execute(CROPS)
            db.executemany("INSERT INTO crops VALUES (?,?,?,?,?)", pictures)
        db.execute("COMMIT")
    finally:
        db.close()
