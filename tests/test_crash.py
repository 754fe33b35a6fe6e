"""Crash safety: the demo process is killed with SIGKILL at 50 random points and restarted;
the replayed state equals an uninterrupted run's and no event is lost or doubled."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

KILLS = 50


def demo_cmd(store: Path, state: Path) -> list[str]:
    return [sys.executable, "-m", "kibic.cli", "demo", "--headless", "--no-vision", "--quiet",
            "--game", "veliki-satir", "--deals", "2", "--seed", "11", "--delay", "0.004",
            "--store", str(store), "--state-out", str(state)]  # fmt: skip


def stored(store: Path) -> list[tuple[int, str, str, str]]:
    with sqlite3.connect(store) as db:
        try:
            rows = db.execute("SELECT seq, id, kind, payload FROM events ORDER BY seq").fetchall()
        except sqlite3.OperationalError:
            return []  # killed after the file was created but before the schema was written
    return [(seq, "game" if kind == "game_started" else eid, kind, payload)
            for seq, eid, kind, payload in rows]  # fmt: skip


def test_sigkill_at_random_points_loses_and_doubles_nothing(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    ref_store, ref_state = tmp_path / "ref.sqlite3", tmp_path / "ref.json"
    start = time.monotonic()
    subprocess.run(demo_cmd(ref_store, ref_state), check=True, env=env, timeout=120)
    full_run = time.monotonic() - start
    reference = json.loads(ref_state.read_text())

    rng = random.Random(2026)
    total = len(stored(ref_store))
    store, state = tmp_path / "crash.sqlite3", tmp_path / "crash.json"
    kills = 0
    progress = []
    while kills < KILLS:
        done = len(stored(store)) if store.exists() else 0
        if done >= total - 2:
            _remove(store)  # near the end: start a fresh game for more kill points
            done = 0
        # kill once the log reaches a random point of the game, plus a random bit of a write
        target = rng.randint(done + 1, total - 1)
        proc = subprocess.Popen(demo_cmd(store, state), env=env, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            if store.exists() and len(stored(store)) >= target:
                break
            time.sleep(0.002)
        time.sleep(rng.uniform(0, 0.004))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            kills += 1
            progress.append(len(stored(store)))
        elif len(stored(store)) == total:
            _remove(store)  # the game finished before the kill: start it again
    del full_run
    subprocess.run(demo_cmd(store, state), check=True, env=env, timeout=120)
    assert json.loads(state.read_text()) == reference
    ref_rows, rows = stored(ref_store), stored(store)
    assert [r[1:] for r in rows] == [r[1:] for r in ref_rows]  # same events, once each, in order
    assert len({r[1] for r in rows}) == len(rows)
    assert len(set(progress)) > 10, "kills should land at many different points of the game"


def _remove(store: Path) -> None:
    for path in (store, Path(f"{store}-wal"), Path(f"{store}-shm")):
        path.unlink(missing_ok=True)
