"""The club pages' live updates: a counter of the club store's changes, sent to every open
page as Server-Sent Events (``GET /events``), the way the table's dashboard does its own
(``web.live``), but with no state in the message: a page re-fetches itself when told.

Wire format: ``data: {"changes": N}\\n\\n``; the first message is the current count, then one
per change (changes close together may be sent as one); a comment line ``: keep-alive``
after ``keepalive_s`` seconds without one. The count starts at 0 with the server process.

>>> import asyncio
>>> feed = ChangeFeed()
>>> async def two() -> list[str]:
...     stream = feed.stream(keepalive_s=5, limit=2)
...     first = await anext(stream)
...     feed.changed()
...     return [first, await anext(stream)]
>>> asyncio.run(two())
['data: {"changes":0}\\n\\n', 'data: {"changes":1}\\n\\n']
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import AsyncIterator

KEEPALIVE = ": keep-alive\n\n"


def frame(count: int) -> str:
    return f"data: {json.dumps({'changes': count}, separators=(',', ':'))}\n\n"


class ChangeFeed:
    """``changed()`` from any thread (the routes run in the thread pool) wakes every stream."""

    def __init__(self) -> None:
        self._count = 0
        self._lock = threading.Lock()
        self._waiters: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()

    @property
    def count(self) -> int:
        return self._count

    @property
    def listeners(self) -> int:
        return len(self._waiters)

    def changed(self) -> None:
        with self._lock:
            self._count += 1
            waiters = list(self._waiters)
        for loop, event in waiters:
            with contextlib.suppress(RuntimeError):  # that loop has closed: its page is gone
                loop.call_soon_threadsafe(event.set)

    async def stream(self, *, keepalive_s: float, limit: int | None = None) -> AsyncIterator[str]:
        """One page's stream; ``limit`` ends it after that many data messages (tests)."""
        waiter = (asyncio.get_running_loop(), asyncio.Event())
        with self._lock:
            self._waiters.add(waiter)
        try:
            sent = self._count
            yield frame(sent)
            messages = 1
            while limit is None or messages < limit:
                try:
                    await asyncio.wait_for(waiter[1].wait(), timeout=keepalive_s)
                except TimeoutError:
                    yield KEEPALIVE
                    continue
                waiter[1].clear()
                if self._count != sent:
                    sent = self._count
                    messages += 1
                    yield frame(sent)
        finally:
            with self._lock:
                self._waiters.discard(waiter)
