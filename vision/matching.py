"""One-to-one matching of labelled boxes to found cards, for the evaluation.

``match_boxes`` gives each labelled box at most one found card and each found card at most one
label, with an overlap (IoU) of at least ``least``: as many labels found as possible, and among
the matchings that find that many, the one with the largest total IoU. The answer does not
depend on the order in which the labels or the cards come (up to exact ties of IoU).

It is an assignment problem, solved by SciPy's ``linear_sum_assignment`` (the evaluation
extra: ``pip install -e '.[eval]'``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

Matrix = Sequence[Sequence[float]]


def match_boxes(overlaps: Matrix, least: float = 0.5) -> dict[int, int]:
    """Label index -> found-card index, from ``overlaps[label][card]`` (IoU): the most labels
    matched at IoU >= ``least``, then the largest total IoU."""
    n = len(overlaps)
    m = len(overlaps[0]) if n else 0
    if n == 0 or m == 0:
        return {}
    optimize = scipy_optimize()
    # a match is worth more than any sum of IoUs (each at most 1), so the count comes first; a
    # pair under ``least`` costs nothing, as an unmatched label does
    iou = np.asarray(overlaps, np.float64)
    cost = np.where(iou >= least, -(n + 1.0 + iou), 0.0)
    rows, cols = optimize.linear_sum_assignment(cost)
    return {int(i): int(j) for i, j in zip(rows, cols, strict=True) if iou[i, j] >= least}


def scipy_optimize():  # type: ignore[no-untyped-def]
    """``scipy.optimize``, or an ImportError naming the extra that installs it."""
    try:
        from scipy import optimize
    except ImportError:
        raise ImportError("the evaluation needs SciPy: pip install -e '.[eval]'") from None
    return optimize
