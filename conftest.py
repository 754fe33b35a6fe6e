"""Skips that are allowed, and the line that names every skip at the end of the run.

With ``CI=true`` a test skipped for anything but the training extra (torch) fails instead,
saying what it needed: CI installs everything else (``make test`` runs ``make system-deps``).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator

import pytest

from tests.needs import TRAINING_EXTRA

ALLOWED_IN_CI = (TRAINING_EXTRA,)
pytest_plugins = ["pytester"]  # tests/test_ci_skips.py runs pytest on a small project


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return reason.removeprefix("Skipped: ")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report: pytest.TestReport = outcome.get_result()  # type: ignore[attr-defined]
    if report.skipped and not hasattr(report, "wasxfail") and in_ci():
        reason = skip_reason(report)
        if not reason.startswith(ALLOWED_IN_CI):
            report.outcome = "failed"
            report.longrepr = (
                f"CI=true and this test would be skipped: {reason}. CI must run it: install "
                "what it names (`make test` as root on Debian does, via make system-deps)."
            )


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    reasons = Counter(
        skip_reason(r) for r in terminalreporter.stats.get("skipped", []) if r.skipped
    )
    if not reasons:
        terminalreporter.write_line("skipped: none")
        return
    listed = "; ".join(f"{count} x {reason}" for reason, count in reasons.most_common())
    terminalreporter.write_line(f"skipped {sum(reasons.values())}: {listed}")
