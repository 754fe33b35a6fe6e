"""The live feed: one runtime subscription fanned out to every dashboard as Server-Sent Events.

The runtime's subscription is blocking and thread-safe; one pump thread reads it, encodes each
message once, and hands it to the event loop, which puts it in every client's bounded queue.
So twenty dashboards cost one thread and one JSON encoding per change, not twenty.

Wire format (GET /api/live): each message is ``data: {"seq", "events", "state"}\\n\\n`` on one
line; a comment line ``: keep-alive`` is sent after ``keepalive_s`` seconds without a message.
The first message is the current state (``events`` empty), so a client starts in sync.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

from web.deps import Runtime, Subscription

log = logging.getLogger(__name__)

KEEPALIVE = ": keep-alive\n\n"


@dataclass(frozen=True)
class Frame:
    """One encoded SSE message and the table sequence number it carries."""

    seq: int
    text: str


def encode(message: dict[str, Any]) -> Frame:
    body = json.dumps(message, ensure_ascii=False, separators=(",", ":"), default=str)
    return Frame(int(message.get("seq", 0)), f"data: {body}\n\n")


class LiveHub:
    """Fan-out of the runtime's messages to any number of asyncio consumers."""

    def __init__(self, runtime: Runtime, *, queue_size: int = 256, poll_s: float = 0.1) -> None:
        self.runtime = runtime
        self.queue_size = queue_size
        self.poll_s = poll_s
        self._clients: set[asyncio.Queue[Frame]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._subscription: Subscription | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.dropped = 0

    @property
    def clients(self) -> int:
        return len(self._clients)

    # -- lifecycle (called from the app's lifespan) ------------------------------------------
    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop.clear()
        self._subscription = self.runtime.subscribe()
        self._thread = threading.Thread(target=self._pump, name="kibic-live-hub", daemon=True)
        self._thread.start()

    async def stop(self) -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            await asyncio.to_thread(thread.join, 5.0)
        if self._subscription is not None:
            self._subscription.close()
            self._subscription = None

    # -- the pump thread ---------------------------------------------------------------------
    def _pump(self) -> None:
        subscription, loop = self._subscription, self._loop
        assert subscription is not None and loop is not None
        while not self._stop.is_set():
            try:
                message = subscription.get(self.poll_s)
            except Exception:  # a broken subscription must not kill the feed silently
                log.exception("live feed: the runtime subscription failed")
                self._stop.wait(self.poll_s)
                continue
            if message is None:
                continue
            frame = encode(message)
            try:
                loop.call_soon_threadsafe(self._publish, frame)
            except RuntimeError:  # the loop is closed: the app is shutting down
                return

    def _publish(self, frame: Frame) -> None:
        for queue in self._clients:
            if queue.full():  # a stalled client loses its oldest message, never blocks others
                with contextlib.suppress(asyncio.QueueEmpty):
                    queue.get_nowait()
                self.dropped += 1
            queue.put_nowait(frame)

    # -- consumers ---------------------------------------------------------------------------
    @contextlib.contextmanager
    def listen(self) -> Iterator[asyncio.Queue[Frame]]:
        queue: asyncio.Queue[Frame] = asyncio.Queue(maxsize=self.queue_size)
        self._clients.add(queue)
        try:
            yield queue
        finally:
            self._clients.discard(queue)

    async def stream(self, *, keepalive_s: float, limit: int | None = None) -> AsyncIterator[str]:
        """The text of one client's SSE stream: current state, then every change, keep-alives.

        ``limit`` ends the stream after that many data messages (for scripts and tests).
        """
        with self.listen() as queue:
            snapshot = await asyncio.to_thread(self.runtime.snapshot)
            first = encode({"seq": snapshot.get("seq", 0), "events": [], "state": snapshot})
            yield first.text
            sent, first_seq = 1, first.seq
            while limit is None or sent < limit:
                try:
                    frame = await asyncio.wait_for(queue.get(), timeout=keepalive_s)
                except TimeoutError:
                    yield KEEPALIVE
                    continue
                if frame.seq < first_seq:
                    continue  # older than the state this client was sent first
                # (a frame of the same seq still goes out: its events are news to the client)
                sent += 1
                yield frame.text
