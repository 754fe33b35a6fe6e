"""With CI=true a missing dependency fails the test, naming it; only the training extra may be
skipped. Outside CI every skip is listed, with its reason, on a line at the end of the run."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import pytest
from tests import needs

def test_needs_torch():
    needs.torch()
    import torch  # noqa: F401  (when torch is installed the probe asks for a module that is not)
    pytest.importorskip("kibic_no_such_module", reason=needs.TRAINING_EXTRA)

def test_needs_a_browser():
    pytest.skip("needs Debian's chromium (apt-get install chromium)")

def test_runs():
    assert True
"""


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeconftest((ROOT / "conftest.py").read_text(encoding="utf-8"))
    (pytester.path / "tests").mkdir()
    (pytester.path / "tests" / "__init__.py").write_text("")
    (pytester.path / "tests" / "needs.py").write_text((ROOT / "tests" / "needs.py").read_text())
    (pytester.path / "tests" / "test_probe.py").write_text(PROBE)
    return pytester


def test_in_ci_a_missing_dependency_fails_naming_it(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CI", "true")
    result = project.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, skipped=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "skipped 1: 1 x needs torch, the training extra*",
            "FAILED *test_needs_a_browser - CI=true and this test would be skipped: needs "
            "Debian's chromium (apt-get install chromium)*",
        ]
    )


def test_outside_ci_the_run_ends_listing_each_skip_and_why(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    result = project.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, skipped=2)
    result.stdout.fnmatch_lines(
        [
            "skipped 2: 1 x needs torch, the training extra (pip install -e '.[train]'); "
            "1 x needs Debian's chromium (apt-get install chromium)"
        ]
    )
