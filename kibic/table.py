"""``kibic run``: a real table — event store, runtime, lights, camera and dashboard together."""

from __future__ import annotations

import logging
import threading
from typing import Any

from kibic.config import TableConfig
from kibic.runtime import TableRuntime
from kibic.store import EventStore

log = logging.getLogger(__name__)


def build_runtime(config: TableConfig) -> TableRuntime:
    sinks: list[Any] = []
    if config.lights.kind != "none":
        from kibic.lights import lights_from_config

        sinks.append(lights_from_config(config))
    store = EventStore(config.storage, config.table_id)
    return TableRuntime(
        store, table_id=config.table_id, game=config.game, names=config.names, sinks=sinks
    )


def run_table(config: TableConfig) -> int:
    """Serve the dashboard and feed the camera's sightings into the runtime until stopped."""
    import uvicorn

    from web.app import create_app

    runtime = build_runtime(config)
    stop = threading.Event()
    if config.camera.source != "none":
        from kibic.camera import camera_loop

        threading.Thread(target=camera_loop, args=(runtime, config, stop), daemon=True).start()
    app = create_app(
        runtime, admin_password_hash=config.web.admin_password_hash, language=config.web.language
    )
    try:
        uvicorn.run(app, host=config.web.host, port=config.web.port, log_level="info")
    finally:
        stop.set()
        runtime.close()
    return 0
