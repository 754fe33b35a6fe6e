"""How far a reading's confidence can be trusted, and the commit threshold it supports.

From (confidence, right) pairs, one a card read:

- ``reliability_bins``: the readings in ``BINS`` equal-width bins of confidence (0-0.1, ...,
  0.9-1.0; a confidence of exactly 1 falls in the last), each with its count, mean confidence
  and share right: the reliability diagram as a table;
- ``expected_calibration_error``: the mean gap between confidence and share right, each bin
  weighed by its count (Naeini, Cooper and Hauskrecht, AAAI 2015; Guo et al., ICML 2017);
- ``choose_threshold``: the lowest confidence threshold at which the readings at or above it
  are right with a 95 % lower Wilson bound of at least ``target``. No wrong reading at all is
  not enough: with every one of ``n`` readings right the lower bound is ``n / (n + z²)``, so
  showing 999 right in 1,000 takes at least 3,838 readings above the threshold, all right
  (``readings_needed``). A few hundred readings cannot show it, and the choice says so.

The commit threshold of a model (``commit_threshold``): the ``commit_threshold`` key of its
labels file when there is one, else ``DEFAULT_COMMIT_THRESHOLD``, the tracker's own default.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from vision.evaluate import wilson_interval
from vision.tracker import TrackerConfig

BINS = 10
Z95 = 1.96
DEFAULT_COMMIT_THRESHOLD = TrackerConfig.min_confidence  # 0.85
Reading = tuple[float, bool]  # a card's confidence, and whether it was read right


@dataclass(frozen=True)
class Bin:
    low: float
    high: float
    count: int
    mean_confidence: float | None  # None for an empty bin
    accuracy: float | None


def _checked(readings: Iterable[Reading]) -> list[Reading]:
    out = []
    for confidence, right in readings:
        if not 0.0 <= confidence <= 1.0 or math.isnan(confidence):
            raise ValueError(f"a confidence of {confidence} is not between 0 and 1")
        out.append((float(confidence), bool(right)))
    return out


def reliability_bins(readings: Iterable[Reading], bins: int = BINS) -> list[Bin]:
    """The readings in ``bins`` equal-width bins of confidence (see the module's docstring)."""
    if bins < 1:
        raise ValueError(f"{bins} bins: at least one")
    members: list[list[Reading]] = [[] for _ in range(bins)]
    for confidence, right in _checked(readings):
        members[min(int(confidence * bins), bins - 1)].append((confidence, right))
    out = []
    for k, held in enumerate(members):
        n = len(held)
        out.append(
            Bin(
                low=k / bins,
                high=(k + 1) / bins,
                count=n,
                mean_confidence=sum(c for c, _ in held) / n if n else None,
                accuracy=sum(r for _, r in held) / n if n else None,
            )
        )
    return out


def expected_calibration_error(readings: Iterable[Reading], bins: int = BINS) -> float | None:
    """Σ (bin count / all) · |share right − mean confidence| over the bins; None for none."""
    table = reliability_bins(readings, bins)
    total = sum(b.count for b in table)
    if total == 0:
        return None
    return sum(
        b.count / total * abs(b.accuracy - b.mean_confidence)
        for b in table
        if b.accuracy is not None and b.mean_confidence is not None
    )


def readings_needed(target: float, z: float = Z95) -> int:
    """The fewest readings, all right, whose lower Wilson bound reaches ``target``."""
    if not 0.0 < target < 1.0:
        raise ValueError(f"a target of {target} is not between 0 and 1")
    return math.ceil(target * z * z / (1.0 - target) - 1e-9)


@dataclass(frozen=True)
class ThresholdChoice:
    """The outcome of ``choose_threshold``. ``threshold`` is None when no threshold shows
    ``target``; then ``best_*`` name the threshold whose lower bound came closest."""

    target: float
    readings: int
    threshold: float | None
    committed: int  # readings at or above the threshold (or ``best_threshold``)
    wrong: int
    lower_bound: float | None  # of the share right among the committed
    best_threshold: float | None
    needed: int  # readings_needed(target)

    def describe(self) -> str:
        target = f"{self.target:g}"
        if self.threshold is not None:
            return (f"threshold {self.threshold:.4f}: {self.committed} of {self.readings} "
                    f"readings at or above it, {self.wrong} wrong; right with a 95 % lower "
                    f"bound of {self.lower_bound:.4f} >= {target}")  # fmt: skip
        if self.best_threshold is None:
            return f"no readings: nothing shows {target}"
        why = (
            f"the {self.readings} readings cannot show it (it takes at least {self.needed} "
            f"readings at or above the threshold, all right)"
            if self.readings < self.needed
            else "too many readings are wrong at every threshold"
        )
        return (
            f"no threshold shows {target}: {why}; the closest, at {self.best_threshold:.4f}: "
            f"{self.committed} readings, {self.wrong} wrong, lower bound {self.lower_bound:.4f}"
        )


def choose_threshold(readings: Iterable[Reading], target: float = 0.999,
                     z: float = Z95) -> ThresholdChoice:  # fmt: skip
    """The lowest threshold, among the readings' own confidences, at which the readings at or
    above it are right with a lower Wilson bound (``z``: 95 %) of at least ``target``."""
    needed = readings_needed(target, z)
    pairs = sorted(_checked(readings), key=lambda r: r[0])
    n = len(pairs)
    wrong_at_or_above = [0] * (n + 1)  # of pairs[i:]
    for i in range(n - 1, -1, -1):
        wrong_at_or_above[i] = wrong_at_or_above[i + 1] + (not pairs[i][1])
    best: tuple[float, float, int, int] | None = None  # (bound, threshold, committed, wrong)
    for i in range(n):
        if i and pairs[i - 1][0] == pairs[i][0]:
            continue  # the same threshold as the reading before
        committed, wrong = n - i, wrong_at_or_above[i]
        bounds = wilson_interval(committed - wrong, committed, z)
        assert bounds is not None
        low = bounds[0]
        if low >= target:
            return ThresholdChoice(target, n, pairs[i][0], committed, wrong, low, pairs[i][0],
                                   needed)  # fmt: skip
        if best is None or low > best[0]:
            best = (low, pairs[i][0], committed, wrong)
    if best is None:
        return ThresholdChoice(target, 0, None, 0, 0, None, None, needed)
    low, at, committed, wrong = best
    return ThresholdChoice(target, n, None, committed, wrong, low, at, needed)


@dataclass(frozen=True)
class AtThreshold:
    """What a threshold does to readings: committed (at or above it), asked (below), wrong
    (committed and not right), with the 95 % interval of the share wrong among committed."""

    threshold: float
    committed: int
    asked: int
    wrong: int

    @property
    def wrong_95(self) -> tuple[float, float] | None:
        return wilson_interval(self.wrong, self.committed)


def at_threshold(readings: Sequence[Reading], threshold: float,
                 committable: Sequence[bool] | None = None) -> AtThreshold:  # fmt: skip
    """What ``threshold`` does to ``readings``; a reading whose ``committable`` is False (a
    Joker) is asked whatever its confidence."""
    if committable is None:
        committable = [True] * len(readings)
    elif len(committable) != len(readings):
        raise ValueError(f"{len(committable)} committable flags for {len(readings)} readings")
    committed = [right for (confidence, right), may in zip(readings, committable, strict=True)
                 if may and confidence >= threshold]  # fmt: skip
    return AtThreshold(threshold, len(committed), len(readings) - len(committed),
                       sum(not r for r in committed))  # fmt: skip


def commit_threshold(model: str | Path) -> float:
    """The ``commit_threshold`` of a classifier's labels file (beside the .onnx), else
    ``DEFAULT_COMMIT_THRESHOLD``; a value that is not a number in (0, 1] raises ValueError
    naming the file."""
    labels = Path(model).with_suffix(".labels.json")
    if not labels.is_file():
        return DEFAULT_COMMIT_THRESHOLD
    value = json.loads(labels.read_text(encoding="utf-8")).get("commit_threshold")
    if value is None:
        return DEFAULT_COMMIT_THRESHOLD
    return check_threshold(value, f"{labels}: commit_threshold")


def check_threshold(value: object, where: str) -> float:
    """``value`` as a commit threshold, a number in (0, 1]; else ValueError naming ``where``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 1:
        raise ValueError(f"{where}: {value!r} is not a number in (0, 1]")
    return float(value)
