"""The faces of card-crops' tuning part that are not a whole card, as a table would show one.

Card-crops (``training.real_crops``) holds photos and scans gathered from the web: some are a
close crop of part of a card, a card turned or seen in perspective inside the photo, a card in
a hand, or one whose top-left corner index is cut off. Laid on a table as a face
(``training.table_eval``), such a photo makes a card no table can show: a nine with two pips in
its middle, a fanned card without the corner by which it is read.

Each of the 624 faces of the tuning part (the Jokers left out) was looked at on a 100 x 140
thumbnail, by eye, without any reading of a model, and left out here unless all of these hold:
the card's edges are at or just inside the photo's on all four sides; it stands upright (not
turned by more than a few degrees, not in perspective); its top-left index (rank and suit) is
in the photo; nothing lies over the card. 139 are left out, 485 kept (2026-12-05, experiment
57 in models/MODEL_HISTORY.md). A face judged on a thumbnail may be judged wrongly either way;
the list is a better table than all the faces, not a perfect one. The training part is not
looked at.
"""

from __future__ import annotations

# the photos' names (``images/<CODE>/<NAME>.jpg``) without their suffix
NOT_WHOLE: frozenset[str] = frozenset(
    """
    2C-47 2H-47 2H-49 2H-50 2S-13 2S-50 2S-53 3C-42 3C-54 3D-11 3H-37 3H-40 3H-57 3S-20
    4C-03 4C-22 4C-37 4C-40 4C-43 4C-51 4C-58 4D-12 4H-23 4H-39 4H-53 4S-29 5C-02 5C-08
    5C-10 5C-27 5C-31 5C-35 5D-41 5H-02 5H-35 5H-55 5S-03 5S-16 5S-36 5S-43 6C-40 6C-51
    6C-53 6C-56 6D-00 6D-44 6H-01 6H-23 6S-05 6S-31 6S-39 6S-51 7C-24 7C-39 7D-06 7D-17
    7D-53 7D-54 7H-32 7H-43 7S-00 7S-25 7S-40 8C-02 8C-04 8C-34 8C-52 8D-00 8D-52 8D-58
    8H-36 8S-04 8S-40 8S-54 9C-05 9C-51 9D-23 9H-37 9S-03 9S-50 AC-50 AD-44 AH-09 AH-10
    AH-30 AH-34 AH-59 AS-56 AS-57 JC-02 JC-31 JC-47 JC-53 JD-01 JD-02 JD-47 JH-24 JH-41
    JH-45 JS-42 JS-49 KC-04 KC-26 KC-51 KD-07 KD-44 KD-51 KH-08 KH-26 KH-31 KH-47 KS-29
    KS-35 KS-58 KS-59 QC-33 QD-17 QD-46 QH-35 QH-46 QS-00 QS-22 QS-45 QS-56 TC-16 TC-34
    TC-48 TC-54 TD-00 TD-22 TD-26 TD-38 TD-49 TH-22 TH-38 TH-50 TS-02 TS-12 TS-48
    """.split()
)
