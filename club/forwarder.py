"""What a table runs to send its event log to the club server (standard library only).

The forwarder reads the table's SQLite store (a second connection; WAL lets the runtime keep
writing), asks the server how far it has stored, and sends what follows in order, in batches.
Any failure (refused connection, a cut, a timeout, a 5xx) is retried after an exponential
back-off with seeded jitter; the table's refereeing never waits for it. A table that was
offline for hours simply catches up: the server's cursor says where to start. An event the
server refuses (it does not replay on the log) stops forwarding with an error naming it, once
the events before it are stored.
"""

from __future__ import annotations

import http.client
import json
import logging
import random
import threading
import time
import zlib
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlsplit

from kibic.store import EventStore, StoreDamaged

log = logging.getLogger(__name__)


class ForwardError(Exception):
    """Forwarding cannot go on without a person: a rejected key or a diverged log."""


class BatchRefusedError(ForwardError):
    """The server refused an event of the batch (422): it does not replay on the stored log."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.index = index


class TransientError(Exception):
    """The server could not take the request now (5xx, bad gateway): retry later."""


@dataclass(frozen=True)
class Backoff:
    """Exponential back-off: ``base * 2**(n-1)`` capped at ``cap``, times a jitter in
    ``[1 - jitter, 1]`` drawn from the forwarder's seeded generator."""

    base: float = 0.5
    cap: float = 30.0
    jitter: float = 0.5

    def delay(self, failures: int, rng: random.Random) -> float:
        raw = min(self.cap, self.base * 2 ** max(0, failures - 1))
        return raw * (1.0 - self.jitter * rng.random())


@dataclass
class ForwarderStats:
    requests: int = 0
    failures: int = 0
    sent: int = 0
    latencies: list[float] = field(default_factory=list)


class Forwarder:
    def __init__(
        self,
        store: EventStore,
        *,
        server: str,
        key: str,
        batch: int = 200,
        timeout: float = 10.0,
        backoff: Backoff | None = None,
        poll: float = 0.5,
        seed: int | None = None,
        keep_latencies: bool = False,
    ) -> None:
        parts = urlsplit(server)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"the server must be an http(s) URL, not {server!r}")
        self.store = store
        self.table_id = store.table_id
        self._https = parts.scheme == "https"
        self._host = parts.hostname
        self._port = parts.port or (443 if self._https else 80)
        self._prefix = parts.path.rstrip("/")
        self._key = key
        self.batch = batch
        self.timeout = timeout
        self.backoff = backoff or Backoff()
        self.poll = poll
        self.rng = random.Random(zlib.crc32(self.table_id.encode()) if seed is None else seed)
        self.stats = ForwarderStats()
        self._keep_latencies = keep_latencies
        self._conn: http.client.HTTPConnection | None = None
        #: how far the server has stored this table's log (None: not asked yet)
        self.stored_upto: int | None = None

    # -- the wire ------------------------------------------------------------------------------
    def _connection(self) -> http.client.HTTPConnection:
        if self._conn is None:
            cls = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
            self._conn = cls(self._host, self._port, timeout=self.timeout)
        return self._conn

    def _drop(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _request(self, method: str, path: str, body: dict[str, object] | None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {self._key}", "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body, ensure_ascii=False).encode("utf-8")
            headers["Content-Type"] = "application/json"
        conn = self._connection()
        started = time.perf_counter()
        self.stats.requests += 1
        try:
            conn.request(method, self._prefix + path, body=data, headers=headers)
            response = conn.getresponse()
            raw = response.read()
        except BaseException:
            self._drop()
            raise
        if self._keep_latencies:
            self.stats.latencies.append(time.perf_counter() - started)
        if response.status >= 500 or response.status in (408, 429):
            self._drop()
            raise TransientError(f"server answered {response.status}")
        try:
            answer = json.loads(raw)
        except ValueError:
            self._drop()
            raise TransientError(f"unreadable answer ({response.status}, {raw[:80]!r})") from None
        if response.status in (401, 403):
            raise ForwardError(f"the club server refused table {self.table_id!r}: {answer}")
        if response.status == 409:
            raise ForwardError(f"the club server holds a different log: {answer}")
        detail = answer.get("detail") if isinstance(answer, dict) else None
        if response.status == 422 and isinstance(detail, dict) and "seq" in detail:
            raise BatchRefusedError(f"the club server refused event seq {detail['seq']} "
                                    f"(id {detail.get('event_id')!r}): {detail.get('reason')}",
                                    int(detail.get("index", -1)))  # fmt: skip
        if response.status >= 400:
            raise ForwardError(f"the club server answered {response.status}: {answer}")
        if not isinstance(answer, dict) or not isinstance(answer.get("stored_upto"), int):
            self._drop()
            raise TransientError(f"unexpected answer ({response.status}, {raw[:80]!r})")
        return answer

    def _path(self, tail: str) -> str:
        return f"/api/v1/tables/{quote(self.table_id, safe='')}/{tail}"

    def fetch_cursor(self) -> int:
        answer = self._request("GET", self._path("cursor"), None)
        self.stored_upto = int(answer["stored_upto"])
        return self.stored_upto

    def send_pending(self) -> int:
        """Send one batch of what the server lacks; return how many entries were sent."""
        if self.stored_upto is None:
            self.fetch_cursor()
        assert self.stored_upto is not None
        try:
            pending = self.store.entries(after=self.stored_upto)[: self.batch]
        except StoreDamaged as exc:  # a person must look: never sent, never retried in a loop
            raise ForwardError(f"table {self.table_id}: not forwarded: {exc}") from exc
        if not pending:
            return 0
        try:
            answer = self._request("POST", self._path("events"),
                                   {"events": [e.to_dict() for e in pending]})  # fmt: skip
        except BatchRefusedError as exc:
            if 0 < exc.index < len(pending):  # the events before the refused one are good
                answer = self._request("POST", self._path("events"),
                                       {"events": [e.to_dict() for e in pending[: exc.index]]})  # fmt: skip
                self.stored_upto = int(answer["stored_upto"])
                self.stats.sent += exc.index
            raise
        self.stored_upto = int(answer["stored_upto"])
        self.stats.sent += len(pending)
        return len(pending)

    # -- loops ---------------------------------------------------------------------------------
    def step(self) -> int:
        """``send_pending`` with transient failures counted and re-raised as TransientError."""
        try:
            return self.send_pending()
        except (OSError, http.client.HTTPException, TransientError) as exc:
            self.stats.failures += 1
            raise TransientError(str(exc) or type(exc).__name__) from exc

    def run(self, stop: threading.Event, *, until_caught_up: bool = False) -> int:
        """Forward until ``stop`` is set (or, with ``until_caught_up``, until nothing is left);
        returns the server's cursor. Raises ForwardError when a person must step in."""
        failures = 0
        while not stop.is_set():
            try:
                sent = self.step()
            except TransientError as exc:
                failures += 1
                delay = self.backoff.delay(failures, self.rng)
                log.info("table %s: forwarding failed (%s), retry in %.2fs", self.table_id, exc,
                         delay)  # fmt: skip
                stop.wait(delay)
                continue
            failures = 0
            if sent == 0:
                if until_caught_up:
                    break
                stop.wait(self.poll)
        self._drop()
        return self.stored_upto or 0

    def close(self) -> None:
        self._drop()
