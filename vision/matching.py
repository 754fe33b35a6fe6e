"""One-to-one matching of labelled boxes to found cards, for the evaluation.

``match_boxes`` gives each labelled box at most one found card and each found card at most one
label, with an overlap (IoU) of at least ``least``: as many labels found as possible, and among
the matchings that find that many, the one with the largest total IoU. The answer does not
depend on the order in which the labels or the cards come (up to exact ties of IoU).

It is an assignment problem, solved by the Hungarian method with row and column potentials
(H. W. Kuhn, "The Hungarian method for the assignment problem", 1955; J. Munkres, 1957), in
O(n^2 m) for n labels and m cards. Evaluations have a handful of cards a photo, so plain Python
is fast enough and no solver library is needed.
"""

from __future__ import annotations

from collections.abc import Sequence

Matrix = Sequence[Sequence[float]]


def assign(cost: Matrix) -> list[int]:
    """The column of each row (n rows, at most as many columns) with the least total cost,
    each column used at most once."""
    n = len(cost)
    if n == 0:
        return []
    m = len(cost[0])
    if m < n:
        raise ValueError(f"{n} rows cannot each have one of {m} columns")
    inf = float("inf")
    u = [0.0] * (n + 1)  # row potentials
    v = [0.0] * (m + 1)  # column potentials
    row_of = [0] * (m + 1)  # the row (1-based) given each column; column 0 is the free slot
    came = [0] * (m + 1)
    for i in range(1, n + 1):
        row_of[0] = i
        col = 0
        slack = [inf] * (m + 1)
        done = [False] * (m + 1)
        while row_of[col] != 0:  # grow a tree of tight edges until a free column is reached
            done[col] = True
            r = row_of[col]
            delta, nxt = inf, 0
            for j in range(1, m + 1):
                if done[j]:
                    continue
                reduced = cost[r - 1][j - 1] - u[r] - v[j]
                if reduced < slack[j]:
                    slack[j], came[j] = reduced, col
                if slack[j] < delta:
                    delta, nxt = slack[j], j
            for j in range(m + 1):
                if done[j]:
                    u[row_of[j]] += delta
                    v[j] -= delta
                else:
                    slack[j] -= delta
            col = nxt
        while col:  # flip the path back to the root
            prev = came[col]
            row_of[col] = row_of[prev]
            col = prev
    out = [-1] * n
    for j in range(1, m + 1):
        if row_of[j]:
            out[row_of[j] - 1] = j - 1
    return out


def match_boxes(overlaps: Matrix, least: float = 0.5) -> dict[int, int]:
    """Label index -> found-card index, from ``overlaps[label][card]`` (IoU): the most labels
    matched at IoU >= ``least``, then the largest total IoU."""
    n = len(overlaps)
    m = len(overlaps[0]) if n else 0
    if n == 0 or m == 0:
        return {}
    # a match is worth more than any sum of IoUs (each at most 1), so the count comes first;
    # n spare columns let every label go unmatched at no cost
    worth = n + 1.0
    cost = [[-(worth + o) if o >= least else 0.0 for o in row] + [0.0] * n for row in overlaps]
    pairs = assign(cost)
    return {i: j for i, j in enumerate(pairs) if j < m and overlaps[i][j] >= least}
