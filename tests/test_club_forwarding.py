"""Forwarding from a table: back-off, catching up after being offline, the ``kibic club`` CLI
(issue-key, forward --once) against a club server process on the embedded SQLite default."""

from __future__ import annotations

import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from club.forwarder import Backoff, Forwarder, ForwardError
from club.simulate import PlannedGame, SimTable
from club.testing import REPO, ClubServerProcess, free_port
from kibic.store import EventStore


def test_backoff_doubles_up_to_the_cap_with_seeded_jitter() -> None:
    backoff = Backoff(base=0.5, cap=4.0, jitter=0.5)
    rng = random.Random(1)
    delays = [backoff.delay(n, rng) for n in range(1, 7)]
    ceilings = [0.5, 1.0, 2.0, 4.0, 4.0, 4.0]
    assert all(c / 2 <= d <= c for d, c in zip(delays, ceilings, strict=True))
    again = random.Random(1)
    assert [backoff.delay(n, again) for n in range(1, 7)] == delays  # seeded: reproducible
    assert Backoff(jitter=0.0).delay(3, rng) == 2.0


def kibic(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kibic.cli", *args], cwd=REPO, text=True,
                          capture_output=True, timeout=120)  # fmt: skip


@pytest.fixture()
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'club.sqlite3'}"


def table(tmp_path: Path, table_id: str, seed: int) -> SimTable:
    games = [PlannedGame("subrosa", 2, seed, ("SR001", "SR002", "SR003", "SR004"))]
    return SimTable(table_id, tmp_path / f"{table_id}.sqlite3", games)


def test_a_table_offline_for_a_while_catches_up_by_itself(tmp_path: Path, sqlite_url: str) -> None:
    key_run = kibic("club", "issue-key", "t1", "--db", sqlite_url)
    assert key_run.returncode == 0, key_run.stderr
    key = key_run.stdout.strip()
    assert len(key) >= 40
    sim = table(tmp_path, "t1", seed=4)
    sim.play()  # the whole game is played while the club server is down
    assert sim.error is None
    local = EventStore(sim.path, "t1")
    total = len(local.entries())
    port = free_port()
    forwarder = Forwarder(local, server=f"http://127.0.0.1:{port}", key=key, batch=25, timeout=2,
                          backoff=Backoff(base=0.05, cap=0.2), poll=0.05)  # fmt: skip
    stop = threading.Event()
    runner = threading.Thread(target=forwarder.run, args=(stop,))
    runner.start()
    time.sleep(0.6)
    assert forwarder.stats.failures >= 3 and forwarder.stored_upto is None
    server = ClubServerProcess(sqlite_url, port=port).start()
    try:
        deadline = time.monotonic() + 30
        while forwarder.stored_upto != total and time.monotonic() < deadline:
            time.sleep(0.05)
        stop.set()
        runner.join(timeout=10)
        assert forwarder.stored_upto == total
        assert forwarder.stats.sent == total  # batches of 25, nothing sent twice
        # a second forwarder (the table restarted) finds nothing to send
        again = Forwarder(local, server=server.url, key=key)
        assert again.run(threading.Event(), until_caught_up=True) == total
        assert again.stats.sent == 0
        # a wrong key stops forwarding with a clear error instead of retrying for ever
        with pytest.raises(ForwardError, match="refused table 't1'"):
            Forwarder(local, server=server.url, key="wrong").run(threading.Event())
    finally:
        server.stop()
        local.close()


def test_cli_forward_once_sends_the_store_and_reports_the_cursor(
    tmp_path: Path, sqlite_url: str
) -> None:
    key = kibic("club", "issue-key", "t2", "--db", sqlite_url).stdout.strip()
    sim = table(tmp_path, "t2", seed=5)
    sim.play()
    total = len(EventStore(sim.path, "t2").entries())
    server = ClubServerProcess(sqlite_url).start()
    try:
        run = kibic("club", "forward", str(sim.path), "--table", "t2", "--server", server.url,
                    "--key", key, "--once")  # fmt: skip
        assert run.returncode == 0, run.stderr
        assert run.stdout.strip() == f"table t2: the club server holds the log up to seq {total}"
        bad = kibic("club", "forward", str(sim.path), "--table", "t2", "--server", server.url,
                    "--key", "nope", "--once")  # fmt: skip
        assert bad.returncode == 1 and "refused table 't2'" in bad.stderr
    finally:
        server.stop()
    assert kibic("club", "issue-key", "bad id!", "--db", sqlite_url).returncode == 2
    added = kibic("club", "add-player", "SR100", "Mika Alas", "--db", sqlite_url)
    assert added.stdout == "SR100\tMika Alas\n"
    assert kibic("club", "add-player", "SR100", "Again", "--db", sqlite_url).returncode == 2
