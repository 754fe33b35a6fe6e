"""sd_notify for the systemd unit: READY and WATCHDOG datagrams on $NOTIFY_SOCKET."""

from __future__ import annotations

import socket
import threading
from pathlib import Path

import pytest

from kibic.runtime import TableRuntime
from kibic.store import EventStore
from kibic.table import sd_notify, watchdog


def test_sd_notify_and_watchdog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = str(tmp_path / "notify.sock")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(path)
    server.settimeout(5)
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "100000")
    assert sd_notify("READY=1")
    assert server.recv(64) == b"READY=1"
    runtime = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="mali-satir")
    stop = threading.Event()
    thread = threading.Thread(target=watchdog, args=(runtime, stop))
    thread.start()
    assert server.recv(64) == b"WATCHDOG=1"
    assert server.recv(64) == b"WATCHDOG=1"
    stop.set()
    thread.join(2)
    server.close()


def test_sd_notify_without_systemd(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert sd_notify("READY=1") is False
