"""The throw-away PostgreSQL server shared by the club tests (one per test module)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from club.testing import PostgresServer, PostgresUnavailable


@pytest.fixture(scope="module")
def postgres() -> Iterator[PostgresServer]:
    try:
        server = PostgresServer()
    except PostgresUnavailable as exc:
        pytest.skip(
            f"PostgreSQL server binaries not installed ({exc}); install them: apt-get install postgresql (make test does as root: make system-deps)"
        )
    server.start()
    try:
        yield server
    finally:
        server.stop()
