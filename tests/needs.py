"""What a test needs that the dev extra does not install, and the reason its skip gives.

Only the training extra (torch) may be missing in CI: the root ``conftest.py`` turns every other
skip into a failure when ``CI=true``.
"""

from __future__ import annotations

from types import ModuleType

import pytest

TRAINING_EXTRA = "needs torch, the training extra (pip install -e '.[train]')"


def torch() -> ModuleType:
    """torch, or the test is skipped naming the training extra."""
    return pytest.importorskip("torch", reason=TRAINING_EXTRA)
