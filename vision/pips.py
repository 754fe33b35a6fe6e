"""Counting the pips of a French-suited card face: a check that no learned reader shares.

Every reader here (the table classifier, the still-photo classifier, the corner-index readers)
learnt what a rank looks like, and on a printed design none of them saw they can agree on the
wrong rank: a nine read as a two, a ten as a queen (experiments 51 to 54, models/MODEL_HISTORY.md).
The pips in the middle of a number card say its rank in another way: there are as many as the
rank says. This module counts them with plain image processing (OpenCV): the face's ink is what
is darker than its paper in every colour channel (red and black pips alike), and the pips are
the largest group of ink blobs of one size, away from the corner indices. A picture card or an
ace's large pip shows as one large blob in the middle, or as ink that is mostly not pips.

The count is a veto, never a reading: a card is *contradicted* only when more pips of one size
show than its rank allows (a two showing nine pips, a queen showing seven). A card partly
covered shows fewer, never more, so covering alone never contradicts a card; another card lying
over it might, and then the table is asked, which is what a doubt should cost.

At the table it is an option, off (``TrackerConfig.pip_check``, ``kibic vision track
--pip-check``): on the composites of real faces it stopped none of the wrong commits, whose
faces show in their middle the rank they were read as, or a picture (experiment 56).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# of the face's area: one pip of a ten is about 1.5 %, a two's about 4 %, an ace's 8 to 20 %
PIP_AREA = (0.004, 0.06)
SAME_SIZE = 1.7  # the largest to the smallest area of pips counted together
MIN_CONTRAST = 40  # grey levels between the paper and the ink threshold; less: no count
# the pips' field: the face's middle, clear of its edges (of its width and height) ...
FIELD_X = (0.12, 0.88)
FIELD_Y = (0.06, 0.94)
# ... and of its four corners, where the indices lie (a pip of a four to a ten lies nearer the
# middle, across or along)
INDEX_CORNER = (0.2, 0.3)
# the pips counted are at least this share of the field's ink: where they are less, the rest is
# a picture (a court card's figure, broken by its lines into blobs of many sizes), not pips
PIPS_OF_INK = 0.6
# at most this many pips a face of each rank may show; ranks absent (the Joker) are not checked
ALLOWED = {str(n): n for n in range(2, 10)} | {"T": 10, "J": 0, "Q": 0, "K": 0, "A": 1}


@dataclass(frozen=True)
class PipCount:
    """What a face shows: ``pips`` ink blobs of one size in its field (0: none, or no ink told
    from the paper), and whether something ``large`` is in its middle (a picture, an ace's
    pip): one blob too large for a pip, or ink that is mostly not the pips."""

    pips: int
    large: bool


def ink(face: np.ndarray) -> np.ndarray | None:
    """A 0/1 mask of the ink on a BGR ``face``: darker than the paper in every channel, by Otsu's
    threshold over the face's inner part; None when ink and paper are too close to tell."""
    if face.ndim != 3 or face.shape[2] != 3:
        raise ValueError(f"a face is a BGR image, not an array of shape {face.shape}")
    darkest = cv2.GaussianBlur(face.min(axis=2), (3, 3), 0)
    h, w = darkest.shape
    inner = np.ascontiguousarray(darkest[h // 10 : h - h // 10, w // 10 : w - w // 10])
    level, _ = cv2.threshold(inner, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if float(np.percentile(inner, 90)) - level < MIN_CONTRAST:
        return None
    return (darkest < level).astype(np.uint8)


def count_pips(face: np.ndarray) -> PipCount:
    """The pips ``face`` (a card warped upright, any size) shows."""
    mask = ink(face)
    if mask is None:
        return PipCount(0, False)
    h, w = mask.shape
    n, _, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    area = float(h * w)
    sizes: list[float] = []
    field = 0.0  # the field's ink, in shares of the face
    large = False
    for i in range(1, n):
        x, y = centroids[i]
        if not (FIELD_X[0] * w < x < FIELD_X[1] * w and FIELD_Y[0] * h < y < FIELD_Y[1] * h):
            continue
        across, along = min(x, w - x) / w, min(y, h - y) / h
        if across < INDEX_CORNER[0] and along < INDEX_CORNER[1]:
            continue
        bw, bh, size = (int(v) for v in stats[i, 2:5])
        share = size / area
        if bw > 0.6 * w and bh > 0.6 * h and size < 0.2 * bw * bh:
            continue  # a frame drawn round the middle
        field += share
        if share > PIP_AREA[1] and 0.25 * w < x < 0.75 * w and 0.25 * h < y < 0.75 * h:
            large = True
        elif PIP_AREA[0] <= share <= PIP_AREA[1]:
            if size < 0.3 * bw * bh or max(bw, bh) > 3 * min(bw, bh):
                continue  # a stroke or a line, not a pip
            sizes.append(share)
    ordered = np.sort(np.asarray(sizes))
    best = np.zeros(0)
    for s in ordered:
        group = ordered[(ordered >= s) & (ordered <= s * SAME_SIZE)]
        if len(group) > len(best):
            best = group
    if len(best) and float(best.sum()) < PIPS_OF_INK * field:
        return PipCount(0, True)  # a picture with pips beside it
    return PipCount(len(best), large)


def contradicts(code: str, count: PipCount) -> bool:
    """Whether ``count`` shows more pips than the card ``code`` (``TD``, ``QS``) has: a face with
    a large blob in its middle, or fewer than two pips, contradicts nothing, nor does anything
    contradict the Joker (``JK``)."""
    allowed = ALLOWED.get(code[0]) if len(code) == 2 and code != "JK" else None
    if allowed is None or count.large or count.pips < 2:
        return False
    return count.pips > allowed
