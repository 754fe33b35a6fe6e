"""``kibic run``: a real table — event store, runtime, lights, camera and dashboard together."""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kibic.config import TableConfig
from kibic.config_check import Finding
from kibic.runtime import TableRuntime
from kibic.store import EventStore, StoreDamaged

log = logging.getLogger(__name__)


def build_runtime(config: TableConfig) -> TableRuntime:
    sinks: list[Any] = []
    lights = None
    if config.lights.kind != "none":
        from kibic.lights import lights_from_config

        lights = lights_from_config(config)
        sinks.append(lights)
    if config.storage != ":memory:" and Path(config.storage).exists():
        from kibic.store_repair import check_store

        report = check_store(config.storage, config.table_id)
        if report.damage:  # the file's structure, then the table's first bad entry
            raise StoreDamaged(config.storage, report.damage)
    store = EventStore(config.storage, config.table_id)
    runtime = TableRuntime(
        store, table_id=config.table_id, game=config.game, names=config.names, sinks=sinks
    )
    if lights is not None:
        from kibic.lights import connect_buttons

        lights.attach(runtime)
        connect_buttons(runtime, lights.lights)
    return runtime


def sd_notify(message: str) -> bool:
    """Tell systemd ``message`` (READY=1, WATCHDOG=1) over $NOTIFY_SOCKET; False if unset."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]  # abstract namespace
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.connect(address)
        sock.sendall(message.encode("ascii"))
    return True


def watchdog(runtime: TableRuntime, stop: threading.Event) -> None:
    """Ping systemd's watchdog at half its interval while the event store still answers."""
    usec = int(os.environ.get("WATCHDOG_USEC", "0"))
    if not usec:
        return
    while not stop.wait(usec / 2_000_000):
        try:
            runtime.store.has("watchdog-probe")
        except Exception:  # noqa: BLE001 - a dead store must stop the pings
            log.exception("event store does not answer; letting the watchdog restart us")
            return
        sd_notify("WATCHDOG=1")


def run_table(config: TableConfig, *, findings: Sequence[Finding] = ()) -> int:
    """Serve the dashboard and feed the camera's sightings into the runtime until stopped.
    ``findings``: what the configuration cannot do (``kibic.config_check``), logged and shown
    on the dashboard."""
    import uvicorn

    from web.app import create_app

    for finding in findings:
        log.warning("configuration: %s", finding.message)
    runtime = build_runtime(config)
    stop = threading.Event()
    if config.camera.source != "none":
        from kibic.camera import camera_loop

        threading.Thread(target=camera_loop, args=(runtime, config, stop), daemon=True).start()
    threading.Thread(target=watchdog, args=(runtime, stop), daemon=True).start()
    sd_notify("READY=1")
    app = create_app(
        runtime,
        admin_password_hash=config.web.admin_password_hash,
        language=config.web.language,
        max_body_bytes=config.web.max_body_kb * 1024,
        findings=findings,
    )
    try:
        uvicorn.run(
            app,
            host=config.web.host,
            port=config.web.port,
            log_level="info",
            timeout_graceful_shutdown=2,  # open live feeds must not hold a restart back
        )
    finally:
        stop.set()
        runtime.close()
    return 0
