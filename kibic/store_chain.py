"""The event store's hash chain: each entry's checksum is SHA-256 over the previous entry's
checksum and this entry's stored content, so a damaged or altered entry (one flipped bit in an
adjustment) no longer matches, and neither does anything that claims to follow it.

Rows are read as stored bytes with their SQLite types (``typeof``), so damage that changes a
value's type or leaves text that is not UTF-8 is found too rather than raising mid-replay.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass
from typing import Any

#: what reading a damaged file raises: SQLite's errors, and its messages (naming a damaged
#: schema) that are not UTF-8
DAMAGE_ERRORS = (sqlite3.DatabaseError, UnicodeDecodeError)

#: the checksum an entry's chain starts from (the table's first entry follows it)
GENESIS = "0" * 64

#: a row as the chain reads it: every field beside its SQLite type
ROW_SQL = (
    "SELECT seq, typeof(seq), typeof(id), CAST(id AS BLOB), typeof(kind), CAST(kind AS BLOB),"
    " typeof(payload), CAST(payload AS BLOB), typeof(ts), ts, {hash} FROM events {indexed}"
    " WHERE table_id=? AND seq>=? {order}"
)


@dataclass(frozen=True)
class Damage:
    """One thing wrong in a table's log: ``seq`` is the entry's sequence number (0: the file)."""

    table: str
    seq: int
    what: str

    def __str__(self) -> str:
        where = f"entry {self.seq}" if self.seq else "the file"
        return f"table {self.table!r}, {where}: {self.what}"


@dataclass(frozen=True)
class RawRow:
    seq: int
    fields: tuple[tuple[str, bytes], ...]  # (type, stored bytes) of id, kind, payload, ts
    ts: Any
    hash: str | None

    def text(self, index: int) -> str:
        return self.fields[index][1].decode("utf-8")


def lenient_text(data: bytes) -> str:
    """SQLite text as Python reads it from a store that may be damaged: bytes that are not
    UTF-8 become U+FFFD instead of raising mid-read (the chain, over stored bytes, finds them)."""
    return data.decode("utf-8", "replace")


def _field(kind: str, data: bytes) -> bytes:
    return f"{kind}:{len(data)}:".encode("ascii") + data


def entry_hash(previous: str, table: str, seq: int, fields: tuple[tuple[str, bytes], ...]) -> str:
    """The checksum of an entry: SHA-256 over the previous checksum and its canonical content."""
    digest = hashlib.sha256(previous.encode("utf-8", "replace"))
    digest.update(_field("text", table.encode("utf-8")))
    digest.update(_field("integer", str(seq).encode("ascii")))
    for kind, data in fields:
        digest.update(_field(kind, data))
    return digest.hexdigest()


def content_fields(
    entry_id: str, kind: str, payload: str, ts: float
) -> tuple[tuple[str, bytes], ...]:
    """The canonical content of an entry about to be written (as ``read_rows`` reads it back)."""
    return (
        ("text", entry_id.encode("utf-8")),
        ("text", kind.encode("utf-8")),
        ("text", payload.encode("utf-8")),
        ("real", float(ts).hex().encode("ascii")),
    )


def _ts_bytes(kind: str, value: Any) -> bytes:
    if isinstance(value, float):
        return value.hex().encode("ascii")
    if isinstance(value, bytes):
        return value
    return repr(value).encode("utf-8")


def read_rows(
    db: sqlite3.Connection,
    table: str,
    *,
    after: int = 0,
    with_hash: bool = True,
    scan: bool = False,
) -> tuple[list[RawRow], str | None]:
    """The table's rows with ``seq >= after`` in sequence order, and what stopped the read early
    (SQLite's message when a damaged page cannot be read), else None. ``scan``: read the table
    itself in storage order (not through its index, which may be the damaged part)."""
    sql = ROW_SQL.format(
        hash="hash" if with_hash else "NULL",
        indexed="NOT INDEXED" if scan else "",
        order="" if scan else "ORDER BY seq",
    )
    rows: list[RawRow] = []
    stopped: str | None = None
    try:
        cursor = db.execute(sql, (table, after))
        while True:
            row = cursor.fetchone()
            if row is None:
                break
            seq, seq_type = row[0], row[1]
            if seq_type != "integer":
                stopped = f"an entry's sequence number is damaged ({seq_type} {seq!r})"
                break
            fields = (
                (row[2], bytes(row[3] or b"")),
                (row[4], bytes(row[5] or b"")),
                (row[6], bytes(row[7] or b"")),
                (row[8], _ts_bytes(row[8], row[9])),
            )
            digest = row[10] if isinstance(row[10], str) else None
            rows.append(RawRow(seq, fields, row[9], digest))
    except DAMAGE_ERRORS as exc:
        stopped = f"the file is damaged where its entries are stored (SQLite: {exc})"
    rows.sort(key=lambda r: r.seq)
    return rows, stopped


def verify_rows(
    table: str, rows: list[RawRow], *, start: int = 1, previous: str = GENESIS, every: bool = True
) -> list[Damage]:
    """What is wrong in ``rows`` (a table's entries from seq ``start`` on, after the entry whose
    checksum is ``previous``): a missing or repeated sequence number, content that does not
    match its checksum. ``every``: go on past the first damage (``kibic store check``)."""
    found: list[Damage] = []
    expected = start
    spare: str | None = None  # the checksum the previous entry's content computes, if not its own
    for row in rows:
        if row.seq != expected:
            what = (
                f"entry {expected} is missing (the next stored is {row.seq})"
                if row.seq > expected
                else f"sequence number {row.seq} is stored twice"
            )
            found.append(Damage(table, expected if row.seq > expected else row.seq, what))
            if not every:
                return found
            expected = row.seq
        if row.hash is None:
            found.append(Damage(table, row.seq, "its checksum is missing"))
            spare = None
        else:
            computed = entry_hash(previous, table, row.seq, row.fields)
            # after a damaged checksum, this entry may follow the chain as it was written
            matches = computed == row.hash or (
                spare is not None and entry_hash(spare, table, row.seq, row.fields) == row.hash
            )
            if not matches:
                found.append(
                    Damage(table, row.seq, "its content does not match its checksum "
                           "(damaged or altered)")
                )  # fmt: skip
            else:
                problem = _content_problem(row)
                if problem:
                    found.append(Damage(table, row.seq, problem))
            spare = None if matches else computed
        if found and not every:
            return found
        previous = row.hash or previous
        expected = row.seq + 1
    return found


def _content_problem(row: RawRow) -> str | None:
    """Why a row whose checksum matches still cannot be replayed (written so from outside)."""
    types = [kind for kind, _ in row.fields]
    if types[:3] != ["text", "text", "text"] or types[3] not in ("real", "integer"):
        return f"a field has the wrong type ({', '.join(types)})"
    try:
        payload = json.loads(row.text(2))
    except (UnicodeDecodeError, ValueError) as exc:
        return f"its payload is not JSON ({exc})"
    if not isinstance(payload, dict):
        return "its payload is not a JSON object"
    return None


def read_head(db: sqlite3.Connection, table: str) -> tuple[int, str] | str | None:
    """The table's recorded last entry (``chain_heads``): (seq, checksum), None when it has
    none, or why it cannot be read. Read it *before* the rows: a writer may add entries in
    between, never take them away."""
    try:
        head = db.execute("SELECT seq, hash FROM chain_heads WHERE table_id=?", (table,)).fetchone()
    except DAMAGE_ERRORS as exc:
        return f"its chain head cannot be read (SQLite: {exc})"
    if head is None:
        return None
    seq, digest = head
    if not isinstance(seq, int) or not isinstance(digest, str):
        return "the table's chain head is damaged"
    return seq, digest


def head_damage(table: str, head: tuple[int, str] | str | None, rows: list[RawRow]) -> list[Damage]:
    """The head read before ``rows`` against them: a lost tail of the log is found (entries
    after the head are a writer's newer ones, checked by the chain)."""
    if isinstance(head, str):
        return [Damage(table, 0, head)]
    if head is None:
        return []
    seq, digest = head
    at = next((r for r in rows if r.seq == seq), None)
    if at is None:
        last = rows[-1].seq if rows else 0
        return [
            Damage(table, last + 1, f"the log ends early: its chain head records {seq} entries")
        ]
    if at.hash != digest:
        return [Damage(table, seq, "the table's chain head does not match this entry")]
    return []


def chain_of(table: str, rows: list[RawRow], previous: str = GENESIS) -> list[tuple[int, str]]:
    """The checksum of each row as the chain computes it (to add checksums to an older store)."""
    chained = []
    for row in rows:
        previous = entry_hash(previous, table, row.seq, row.fields)
        chained.append((row.seq, previous))
    return chained
