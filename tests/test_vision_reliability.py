"""Calibration of the readings and the commit threshold (``vision.reliability``), by hand.

Six readings: 0.35 wrong; 0.85 right and 0.85 wrong; 0.95, 0.95 and 1.0 right. In ten bins of
confidence: 0.3-0.4 holds one (mean 0.35, none right), 0.8-0.9 two (mean 0.85, half right),
0.9-1.0 three (mean 0.9667, all right); ECE = 1/6 * 0.35 + 2/6 * 0.35 + 3/6 * 0.0333 = 0.19167.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from kibic.camera import camera_loop, table_tracker_config
from kibic.config import CameraConfig, ConfigError, TableConfig, parse_config
from kibic.runtime import TableRuntime
from kibic.store import EventStore
from vision.evaluate import wilson_interval
from vision.recognizer import DEFAULT_MODEL
from vision.reliability import (
    DEFAULT_COMMIT_THRESHOLD,
    at_threshold,
    choose_threshold,
    commit_threshold,
    expected_calibration_error,
    readings_needed,
    reliability_bins,
)
from vision.sources import open_source

READINGS = [(0.35, False), (0.85, True), (0.85, False), (0.95, True), (0.95, True), (1.0, True)]


def test_reliability_bins_by_hand() -> None:
    bins = reliability_bins(READINGS)
    assert len(bins) == 10 and (bins[0].low, bins[9].high) == (0.0, 1.0)
    filled = {round(b.low, 1): (b.count, b.mean_confidence, b.accuracy) for b in bins if b.count}
    assert filled.keys() == {0.3, 0.8, 0.9}
    assert filled[0.3] == (1, 0.35, 0.0)
    assert filled[0.8] == (2, pytest.approx(0.85), 0.5)
    assert filled[0.9] == (3, pytest.approx(2.9 / 3), 1.0)  # 1.0 falls in the last bin
    assert bins[0].mean_confidence is None and bins[0].accuracy is None


def test_expected_calibration_error_by_hand() -> None:
    assert expected_calibration_error(READINGS) == pytest.approx(0.191667, abs=1e-6)
    assert expected_calibration_error([(0.9, True)] * 9 + [(0.9, False)]) == pytest.approx(0.0)
    assert expected_calibration_error([]) is None
    with pytest.raises(ValueError, match="1.5 is not between 0 and 1"):
        expected_calibration_error([(1.5, True)])


def test_the_lowest_threshold_whose_lower_bound_reaches_the_target() -> None:
    # at 0.35: 4 of 6 right, lower bound 0.2999; at 0.85: 4 of 5, 0.3755; at 0.95: 3 of 3,
    # 3 / (3 + 1.96²) = 0.43849; at 1.0: 1 of 1, 0.2065
    choice = choose_threshold(READINGS, target=0.4)
    assert (choice.threshold, choice.committed, choice.wrong) == (0.95, 3, 0)
    assert choice.lower_bound == pytest.approx(3 / (3 + 1.96**2))
    assert choice.describe().startswith("threshold 0.9500: 3 of 6 readings at or above it")
    assert choose_threshold(READINGS, target=0.25).threshold == 0.35
    shy = choose_threshold(READINGS, target=0.5)  # 4 readings all right would show it
    assert shy.threshold is None and shy.best_threshold == 0.95 and shy.needed == 4
    assert "too many readings are wrong at every threshold" in shy.describe()
    few = choose_threshold(READINGS, target=0.7)  # 0.7 · 1.96² / 0.3 = 8.96: 9 are needed
    assert few.needed == 9 and "the 6 readings cannot show it" in few.describe()
    assert choose_threshold([], target=0.5).describe() == "no readings: nothing shows 0.5"


def test_999_in_1000_takes_3838_readings_all_right() -> None:
    assert readings_needed(0.999) == 3838
    assert wilson_interval(3838, 3838)[0] >= 0.999 > wilson_interval(3837, 3837)[0]  # type: ignore[index]
    few = choose_threshold([(0.99, True)] * 500, target=0.999)
    assert few.threshold is None and few.needed == 3838
    assert "the 500 readings cannot show it (it takes at least 3838 readings" in few.describe()
    many = choose_threshold([(0.99, True)] * 3900 + [(0.99, False)] * 10, target=0.999)
    assert many.threshold is None and "too many readings are wrong" in many.describe()


def test_committed_asked_and_wrong_at_a_threshold() -> None:
    at = at_threshold(READINGS, 0.85)
    assert (at.committed, at.asked, at.wrong) == (5, 1, 1)
    assert at.wrong_95 == wilson_interval(1, 5)
    assert at_threshold(READINGS, 0.99).wrong_95 == wilson_interval(0, 1)
    # a reading that may not be committed (a Joker) is asked whatever its confidence
    flags = [True] * len(READINGS)
    top = max(range(len(READINGS)), key=lambda k: READINGS[k][0])
    flags[top] = False
    assert at_threshold(READINGS, 0.85, flags).committed == at.committed - 1
    with pytest.raises(ValueError, match="1 committable flags for"):
        at_threshold(READINGS, 0.85, [True])


def test_a_models_commit_threshold_is_in_its_labels_file(tmp_path: Path) -> None:
    model = tmp_path / "m.onnx"
    assert commit_threshold(model) == DEFAULT_COMMIT_THRESHOLD == 0.85  # no labels file
    labels = tmp_path / "m.labels.json"
    labels.write_text(json.dumps({"labels": ["none"]}))
    assert commit_threshold(model) == 0.85
    labels.write_text(json.dumps({"labels": ["none"], "commit_threshold": 0.93}))
    assert commit_threshold(model) == 0.93
    labels.write_text(json.dumps({"labels": ["none"], "commit_threshold": "high"}))
    with pytest.raises(ValueError, match=r"m.labels.json: commit_threshold: 'high' is not"):
        commit_threshold(model)


def test_the_tables_commit_threshold_comes_from_its_configuration() -> None:
    base = {"table": {"game": "ruzicka"}}
    config = parse_config({**base, "camera": {"commit_threshold": 0.93}})
    assert config.camera.commit_threshold == 0.93
    assert table_tracker_config(config).min_confidence == 0.93
    default = parse_config(base)
    assert default.camera.commit_threshold is None
    assert table_tracker_config(default).min_confidence == commit_threshold(DEFAULT_MODEL)
    for bad in (1.5, 0, "high"):
        with pytest.raises(ConfigError, match="camera.commit_threshold"):
            parse_config({**base, "camera": {"commit_threshold": bad}})


def test_a_threshold_no_reading_reaches_asks_about_every_play(tmp_path: Path) -> None:
    """The configured threshold reaches the tracker of a running table: at 1.0 (a mean of three
    readings reaches it only when each is exactly 1) the camera commits far fewer plays, and
    asks about the rest, than at the default."""

    def run(threshold: float | None) -> tuple[int, int]:
        config = TableConfig(game="ruzicka", camera=CameraConfig(
            source="synthetic", deck="piquet-32", commit_threshold=threshold))  # fmt: skip
        store = EventStore(tmp_path / f"{threshold}.sqlite3", "t")
        runtime = TableRuntime(store, game="ruzicka")
        runtime.start_deal(dealer=3)
        # the shuffled deck's frames, which end (the configured synthetic source plays on)
        camera_loop(runtime, config, threading.Event(), opener=open_source)
        return len(runtime.deal.actions), len(runtime.snapshot()["pending"])  # type: ignore[union-attr]

    committed, asked = run(None)
    strict_committed, strict_asked = run(1.0)
    assert committed >= 24 and strict_asked > asked
    assert strict_committed < committed
