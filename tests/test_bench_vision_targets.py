"""The target lines ``benchmarks/bench_vision.py`` prints (issue #33's targets)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_vision.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_vision", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_cards_not_there_target_sums_the_parts_that_count_them() -> None:
    target = _bench().not_there_target
    crops = {"cards": 636, "not_there": None, "not_there_committed": None}  # one card a photo
    parts = {"threshold": 0.85, "edje": {"cards": 527, "not_there": 100, "not_there_committed": 0},
             "desk": {"cards": 170, "not_there": 29, "not_there_committed": 0}, "crops": crops}  # fmt: skip
    assert target(parts) == (
        "not met: 129 readings of cards not there for 697 cards (18.5 per 100, the target 1), "
        "0 at or above the commit threshold (the target 0)"
    )
    few = {"a": {"cards": 300, "not_there": 3, "not_there_committed": 0}}
    assert target(few).startswith("met: 3 readings")
    committed = {"a": {"cards": 300, "not_there": 1, "not_there_committed": 1}}
    assert target(committed).startswith("not met: 1 readings")
    assert target({"crops": crops}) == "not measured: no part counts them"


def test_the_table_targets_ask_for_the_share_read_right_and_no_wrong_commit() -> None:
    target = _bench().table_target
    assert target("flat", 131, 150, 3) == (
        "not met: 131 of 150 (87.3 %) read right in still photos (the target 99 %); at the "
        "table 3 wrong committed (the target 0)"
    )
    assert target("flat", 149, 150, 0).startswith("met: 149 of 150 (99.3 %)")
    assert target("flat", 150, 150, 1).startswith("not met")  # a wrong commit fails it
    assert target("fanned", 216, 240, 0).startswith("met: 216 of 240 (90.0 %)")
    assert target("fanned", 215, 240, 0).startswith("not met")
    assert target("flat", 150, 150, 0, 1) == (  # a wrong commit in motion fails it too
        "not met: 150 of 150 (100.0 %) read right in still photos (the target 99 %); at the "
        "table 0 wrong committed at rest, 1 in motion (the target 0)"
    )
    assert target("flat", 150, 150, 0, 0).startswith("met")


def test_the_speed_frames_carry_their_own_seeded_sensor_noise() -> None:
    """Experiment 73: the frames timed are never the same pixels twice, and the same each run."""
    import numpy as np

    noisy = _bench().noisy
    frame = np.full((90, 160, 3), 128, np.uint8)
    first, again, other = noisy(frame, 0), noisy(frame, 0), noisy(frame, 1)
    assert first.dtype == np.uint8 and first.shape == frame.shape
    assert np.array_equal(first, again) and not np.array_equal(first, other)
    spread = float((first.astype(np.float32) - 128).std())
    assert 1.8 < spread < 2.2  # sigma 2 grey levels
    assert noisy(np.zeros_like(frame), 3).max() < 20  # clipped at 0, not wrapped round to 255
