"""Wrong admin passwords, throttled per client address, and the PBKDF2 work bounded.

An address may get the password wrong ``free_failures`` times (5) within ``window_s`` (15 min);
after that each wrong password makes it wait a delay that doubles (2 s, 4 s, 8 s ... 300 s)
before its next try is even hashed: the try is answered 429 with ``Retry-After`` at no cost,
by the API (header password) and by the login page alike. A right password clears the address;
so does ``window_s`` without a wrong one. At most ``concurrent`` PBKDF2 checks run at once, so
guesses from many addresses cannot take every core from the table.

>>> now = [0.0]
>>> throttle = PasswordThrottle(clock=lambda: now[0])
>>> for _ in range(4): throttle.failed("10.0.0.9")
>>> throttle.wait_s("10.0.0.9")
0.0
>>> throttle.failed("10.0.0.9"); throttle.wait_s("10.0.0.9"), throttle.wait_s("10.0.0.7")
(2.0, 0.0)
>>> now[0] = 2.0; throttle.failed("10.0.0.9"); throttle.wait_s("10.0.0.9")
4.0
>>> now[0] = 2.0 + 15 * 60; throttle.failed("10.0.0.9"); throttle.wait_s("10.0.0.9")
0.0
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

import anyio
import anyio.to_thread

from web.auth import verify_password


class PasswordThrottle:
    def __init__(
        self,
        *,
        free_failures: int = 5,
        first_delay_s: float = 2.0,
        max_delay_s: float = 300.0,
        window_s: float = 15 * 60.0,
        concurrent: int = 2,
        max_addresses: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if free_failures < 1:
            raise ValueError(f"free_failures must be at least 1, not {free_failures}")
        self.free_failures = free_failures
        self.window_s = window_s
        self.first_delay_s = first_delay_s
        self.max_delay_s = max_delay_s
        self.concurrent = concurrent
        self.max_addresses = max_addresses
        self.clock = clock
        # per address: wrong passwords in a row, waiting until, the last wrong one's time
        self._failures: OrderedDict[str, tuple[int, float, float]] = OrderedDict()
        self._limiter: anyio.CapacityLimiter | None = None
        self.hashed = 0  # PBKDF2 checks run (for tests and the status)

    def wait_s(self, address: str) -> float:
        """Seconds ``address`` must still wait before its next password is checked."""
        entry = self._failures.get(address)
        return 0.0 if entry is None else max(0.0, entry[1] - self.clock())

    def failed(self, address: str) -> None:
        now = self.clock()
        count, _, last = self._failures.pop(address, (0, 0.0, now))
        count = 1 if now - last >= self.window_s else count + 1  # a quiet window forgets
        over = count - self.free_failures  # the free_failures-th wrong one waits first_delay_s
        delay = 0.0 if over < 0 else min(self.max_delay_s, self.first_delay_s * 2 ** min(over, 32))
        self._failures[address] = (count, now + delay, now)
        while len(self._failures) > self.max_addresses:
            self._failures.popitem(last=False)  # the longest-standing address goes first

    def succeeded(self, address: str) -> None:
        self._failures.pop(address, None)

    async def check(self, address: str, stored_hash: str, password: str) -> bool | None:
        """True for the right password, False for a wrong one, None when ``address`` must wait
        (also when a guess of its own failed while this one queued for a hashing slot)."""
        if self.wait_s(address) > 0:
            return None
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self.concurrent)
        async with self._limiter:
            if self.wait_s(address) > 0:
                return None
            self.hashed += 1
            right = await anyio.to_thread.run_sync(verify_password, stored_hash, password)
        if right:
            self.succeeded(address)
        else:
            self.failed(address)
        return right
