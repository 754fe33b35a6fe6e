"""Dashboard latency: GET /api/state and the live feed, with 20 dashboards open during a fast game.

Process A (this one) serves the app with uvicorn on 127.0.0.1 (a free port) and drives a table
runtime: Veliki Satir with seeded known hands, one play every ``--interval`` seconds. Process B
runs the dashboards: ``--clients`` SSE connections to GET /api/live that, like the page script,
re-fetch ``/partials/table`` after each message (one request at a time per dashboard), and a poller
timing GET /api/state every 10 ms runs in a third process. All clocks are the system's monotonic clock.

Printed: p50 / p99 / max of
- GET /api/state with no dashboard open (the baseline, same run),
- GET /api/state during the game with the dashboards open,
- live feed: from the call of ``runtime.submit`` to the SSE message arriving at a dashboard.

Then, in Debian's Chromium (Playwright) on the table view ``/table``, ``--revokes`` times: the
delay from ``runtime.submit`` of a proven revoke to the violation taking over the view, beside
the baseline of the same runs, a legal card appearing at its seat. Both are timed by the
system's wall clock: the page records ``Date.now()`` when its DOM changes (a MutationObserver
added by this script), this process before the submit. Printed, never asserted.

Bounded: ``--deals`` deals (53 inputs each), then it stops by itself. Loopback only.
Run: .venv/bin/python benchmarks/bench_web.py [--clients 20] [--deals 2] [--interval 0.02]
     [--revokes 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import random
import statistics
import sys
import time
from multiprocessing.synchronize import Event as EventType
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx  # noqa: E402

from kibic.config import hash_password  # noqa: E402
from kibic.runtime import TableRuntime  # noqa: E402
from kibic.store import EventStore  # noqa: E402
from referee.actions import Action, ActionType  # noqa: E402
from referee.registry import load_game  # noqa: E402
from web.app import create_app  # noqa: E402
from web.server import BackgroundServer  # noqa: E402

NAMES = ["Ana", "Bora", "Ceca", "Duško"]
POLL_S = 0.01


def percentiles(values: list[float]) -> str:
    if not values:
        return "no samples"
    ms = sorted(v * 1000 for v in values)
    p50 = statistics.median(ms)
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    return f"p50 {p50:8.2f} ms   p99 {p99:8.2f} ms   max {ms[-1]:8.2f} ms   (n={len(ms)})"


# -- process B: the dashboards and the poller ----------------------------------------------------


def _seq(line: str) -> int:
    """The seq of a live message; the hub writes it first, so no need to parse the state."""
    head = line[: line.find(",")]
    if head.startswith('data: {"seq":'):
        return int(head[len('data: {"seq":') :])
    return int(json.loads(line[6:])["seq"])


async def _dashboard(
    client: httpx.AsyncClient, arrivals: dict[int, float], stop: asyncio.Event
) -> None:
    dirty = asyncio.Event()

    async def refresher() -> None:
        while not stop.is_set():
            await dirty.wait()
            dirty.clear()
            await client.get("/partials/table")

    task = asyncio.create_task(refresher())
    try:
        async with client.stream("GET", "/api/live") as response:
            async for line in response.aiter_lines():
                if line.startswith("data: "):
                    now = time.perf_counter()
                    seq = _seq(line)
                    arrivals.setdefault(seq, now)
                    dirty.set()
                if stop.is_set():
                    break
    finally:
        task.cancel()


def poller_process(url: str, ready: EventType, done: EventType, out: Any) -> None:
    """GET /api/state every POLL_S (its own process, so the dashboards do not delay it)."""
    samples: list[float] = []
    with httpx.Client(base_url=url, timeout=30.0) as client:
        ready.wait(60)
        while not done.is_set() and len(samples) < 100_000:
            start = time.perf_counter()
            client.get("/api/state").raise_for_status()
            samples.append(time.perf_counter() - start)
            time.sleep(POLL_S)
    out.put(samples)


async def _clients_main(
    url: str, clients: int, ready: EventType, done: EventType
) -> list[dict[int, float]]:
    stop = asyncio.Event()
    arrivals: list[dict[int, float]] = [{} for _ in range(clients)]
    limits = httpx.Limits(max_connections=2 * clients + 4)
    async with httpx.AsyncClient(base_url=url, timeout=30.0, limits=limits) as client:
        tasks = [asyncio.create_task(_dashboard(client, a, stop)) for a in arrivals]
        while sum(1 for a in arrivals if a) < clients:  # every dashboard has its first message
            await asyncio.sleep(0.02)
        ready.set()
        while not done.is_set():
            await asyncio.sleep(0.05)
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return arrivals


def clients_process(url: str, clients: int, ready: EventType, done: EventType, out: Any) -> None:
    out.put(asyncio.run(_clients_main(url, clients, ready, done)))


# -- process A: the server and the game ----------------------------------------------------------


def idle_state_latency(url: str, count: int) -> list[float]:
    samples = []
    with httpx.Client(base_url=url, timeout=10.0) as client:
        for _ in range(count):
            start = time.perf_counter()
            client.get("/api/state").raise_for_status()
            samples.append(time.perf_counter() - start)
    return samples


def play_game(runtime: TableRuntime, *, deals: int, interval: float, seed: int) -> dict[int, float]:
    """Submit every input of ``deals`` deals; the submit time of each by the seq it produced."""
    rng = random.Random(seed)
    game = load_game("veliki-satir")
    sent: dict[int, float] = {}
    for number in range(deals):
        dealer = (3 + number) % 4
        hands, _ = game.deal_cards(rng, dealer=dealer)
        runtime.start_deal(hands=hands, dealer=dealer)
        forehand = (dealer + 1) % 4
        action = Action(forehand, ActionType.CONTRACT, value="zatvoreno")
        deal = runtime.deal
        assert deal is not None
        while True:
            start = time.perf_counter()
            runtime.submit(action)
            sent[runtime.seq] = start
            if deal.is_over:
                break
            time.sleep(interval)
            seat = deal.to_act  # type: ignore[attr-defined]
            action = Action.play(seat, rng.choice(deal.legal_plays()))  # type: ignore[attr-defined]
    return sent


#: recorded in the page: when a card first shows at a seat, when the takeover first shows
WATCH_JS = """
window.kibicSeen = {cards: {}, takeover: null};
new MutationObserver(() => {
  const now = Date.now();
  document.querySelectorAll('#tableview .tv-seat[data-card]').forEach((seat) => {
    const key = seat.dataset.seat + ':' + seat.dataset.card;
    if (!(key in window.kibicSeen.cards)) window.kibicSeen.cards[key] = now;
  });
  const takeover = document.getElementById('takeover');
  if (takeover && !takeover.hidden && window.kibicSeen.takeover === null) {
    window.kibicSeen.takeover = now;
  }
}).observe(document, {subtree: true, childList: true, attributes: true});
"""


def _seen_at(tab: Any, expression: str, timeout_s: float = 10.0) -> float:
    """The page's recorded time (ms) once ``expression`` has one (polled: the time is the
    page's own, so how often it is asked does not matter)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = tab.evaluate(expression)
        if value is not None:
            return float(value)
        time.sleep(0.005)
    raise TimeoutError(f"the page never showed {expression}")


def revoke_runs(runs: int, seed: int) -> tuple[list[float], list[float]] | None:
    """Per run: the delays (s) from submit to a legal card at its seat, and to the takeover of
    the revoke that ends the run. ``None`` without Chromium."""
    from tests.browser_support import CHROMIUM, chromium_tab

    if not CHROMIUM.exists():
        return None
    cards: list[float] = []
    takeovers: list[float] = []
    game = load_game("veliki-satir")
    for run in range(runs):
        rng = random.Random(seed + run)
        runtime = TableRuntime(EventStore(":memory:", "bench"), game="veliki-satir", names=NAMES)
        runtime.start_game("veliki-satir", names=NAMES)
        hands, _ = game.deal_cards(rng, dealer=3)
        runtime.start_deal(hands=hands, dealer=3)
        runtime.submit(Action(0, ActionType.CONTRACT, value="zatvoreno"))
        deal = runtime.deal
        assert deal is not None
        app = create_app(runtime, admin_password_hash=hash_password("bench", rounds=1000))
        with BackgroundServer(app) as server, chromium_tab(server.url) as found:
            tab = found.tab
            tab.add_init_script(WATCH_JS)
            tab.goto(server.url + "/table")
            tab.wait_for_selector("#live-status.ok", state="attached")
            while True:
                seat = deal.to_act  # type: ignore[attr-defined]
                legal = deal.legal_plays()  # type: ignore[attr-defined]
                wrong = sorted(deal.hands[seat] - set(legal))  # type: ignore[attr-defined]
                if wrong and len(cards) >= 4 * (run + 1):
                    sent = time.time() * 1000
                    runtime.submit(Action.play(seat, wrong[0]))
                    shown = _seen_at(tab, "window.kibicSeen.takeover")
                    takeovers.append((shown - sent) / 1000)
                    break
                card = rng.choice(legal)
                sent = time.time() * 1000
                runtime.submit(Action.play(seat, card))
                key = f"{seat}:{card.code}"
                shown = _seen_at(tab, f"window.kibicSeen.cards['{key}'] ?? null")
                cards.append((shown - sent) / 1000)
                time.sleep(0.05)
        runtime.close()
    return cards, takeovers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--interval", type=float, default=0.02, help="seconds between plays")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--revokes", type=int, default=5, help="table-view runs in Chromium")
    args = parser.parse_args(argv)

    runtime = TableRuntime(EventStore(":memory:", "bench"), game="veliki-satir", names=NAMES)
    app = create_app(runtime, admin_password_hash=hash_password("bench", rounds=1000))
    ctx = mp.get_context("spawn")
    with BackgroundServer(app) as server:
        idle = idle_state_latency(server.url, 200)
        ready, done, out, polled = ctx.Event(), ctx.Event(), ctx.Queue(), ctx.Queue()
        procs = [
            ctx.Process(
                target=clients_process,
                args=(server.url, args.clients, ready, done, out),
                daemon=True,
            ),
            ctx.Process(target=poller_process, args=(server.url, ready, done, polled), daemon=True),
        ]
        for proc in procs:
            proc.start()
        try:
            if not ready.wait(60):
                print("bench_web: the dashboards did not connect", file=sys.stderr)
                return 1
            started = time.perf_counter()
            sent = play_game(runtime, deals=args.deals, interval=args.interval, seed=args.seed)
            elapsed = time.perf_counter() - started
            time.sleep(0.5)  # let the last messages arrive
            done.set()
            all_arrivals = out.get(timeout=60)
            state_samples = polled.get(timeout=60)
        finally:
            done.set()
            for proc in procs:
                proc.join(10)
                if proc.is_alive():
                    proc.terminate()
    runtime.close()

    live: list[float] = []
    missing = 0
    for arrivals in all_arrivals:
        for seq, start in sent.items():
            if seq in arrivals:
                live.append(arrivals[seq] - start)
            else:
                missing += 1
    print(
        f"Kibic web, {args.clients} dashboards (SSE + partial re-fetch), {len(sent)} inputs in "
        f"{elapsed:.1f} s ({len(sent) / elapsed:.0f}/s), loopback"
    )
    print(f"{'GET /api/state, no dashboards':<40} {percentiles(idle)}")
    print(f"{'GET /api/state, during the game':<40} {percentiles(state_samples)}")
    print(f"{'live: submit -> SSE message':<40} {percentiles(live)}")
    if missing:
        print(f"live messages not received: {missing} of {len(sent) * args.clients}")
    delays = revoke_runs(args.revokes, args.seed) if args.revokes else None
    if delays is None:
        print("table view in the browser: not measured (no Chromium at /usr/bin/chromium)")
    else:
        cards, takeovers = delays
        print(f"table view in Chromium, {args.revokes} games (wall clock, page and this process)")
        print(f"{'submit -> card at its seat (baseline)':<40} {percentiles(cards)}")
        print(f"{'submit -> proven revoke takes over':<40} {percentiles(takeovers)}")
        if cards and takeovers:
            ratio = statistics.median(takeovers) / statistics.median(cards)
            print(f"{'revoke / card, medians':<40} {ratio:.2f}")
    return 0 if missing == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
