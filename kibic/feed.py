"""The table's live feed: a mailbox per subscriber (the dashboard's live views, a printout),
each message the events of one input with the state after it."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any


class Subscription:
    """A live-feed subscriber's mailbox (thread-safe). With a ``maxsize`` (the default, for
    live views that redraw from each message's state) old messages drop if it falls behind;
    ``maxsize=0`` keeps every message (a reader that must see each event, such as a printout)."""

    def __init__(self, feed: Feed, maxsize: int = 256) -> None:
        self._queue: queue.Queue[dict[str, Any]] = queue.Queue(maxsize)
        self._feed = feed

    def put(self, message: dict[str, Any]) -> None:
        while True:
            try:
                self._queue.put_nowait(message)
                return
            except queue.Full:
                try:
                    self._queue.get_nowait()
                except queue.Empty:
                    pass

    def get(self, timeout: float | None = None) -> dict[str, Any] | None:
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        self._feed.unsubscribe(self)


class Feed:
    """Every subscriber's mailbox; a message is made only when someone listens."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: list[Subscription] = []

    def subscribe(self, maxsize: int = 256) -> Subscription:
        """A mailbox of every later message (see ``Subscription``: 0 keeps them all)."""
        sub = Subscription(self, maxsize)
        with self._lock:
            self._subscribers.append(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            if sub in self._subscribers:
                self._subscribers.remove(sub)

    def publish(self, message: Callable[[], dict[str, Any]]) -> None:
        """The message ``message()`` gives, to each subscriber (not made when there is none)."""
        with self._lock:
            subscribers = list(self._subscribers)
        if not subscribers:
            return
        made = message()
        for sub in subscribers:
            sub.put(made)
