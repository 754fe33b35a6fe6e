"""Labels of the real photo sets found wrong by looking at the photo, put right where they are
read (``vision.evaluate.read_voc``; corner-boxes: ``training.real_finder_crops.read_labels``,
where an object's place is its line among the file's boxes; card-crops:
``training.real_crops.code_of``, where the label is the photo's folder and its one card is
object 0). Each entry names the label file, the object's place in it and the label it has, so
that an erratum never touches a label it was not written for; what the photo shows is the label
given instead. A corner index that a corner-boxes photo shows plainly and its file has no box
for is added after the file's own lines (``MISSING``). Only photos of the parts used for
training and tuning are ever looked at this way: the edje test split's labels are read as they
are. ``python -m training.label_audit`` lays the places where the reader and the labels
disagree in sheets to look at.

Each erratum names the experiment that found it. With ``KIBIC_LABELS_AS_OF=N`` in the
environment only those found up to experiment N are read: the labels as a model trained then
read them (the training records say which labels a model learnt from).

>>> fixed("IMG_2396.xml", 0, "nine"), fixed("IMG_2396.xml", 0, "ace"), fixed("x.xml", 0, "ten")
('ten', 'ace', 'ten')
"""

from __future__ import annotations

import hashlib
import os

AS_OF_VARIABLE = "KIBIC_LABELS_AS_OF"
Added = tuple[str, float, float, float, float]  # code, x centre, y centre, width, height

#: (label file, object index, label as written) -> (what the photo shows, the experiment
#: that found it)
ERRATA: dict[tuple[str, int, str], tuple[str, int]] = {
    # edje-cards train: the ten of diamonds, alone on a carpet, labelled nine (experiment 34)
    ("IMG_2396.xml", 0, "nine"): ("ten", 34),
    # corner-boxes desk, training part: both corner indices of the three of spades (a 3 in
    # each corner) labelled 4S, the 4S beside it labelled too; found by the table path
    # committing 3S there (experiment 55)
    ("desk-0006.txt", 4, "4S"): ("3S", 55),
    ("desk-0006.txt", 5, "4S"): ("3S", 55),
    # card-crops (experiment 101): photos filed under another card's folder, found among those
    # the still-photo classifier reads as another card, each looked at; taken only where the
    # indices and the pips (or a court card's indices at both corners) show the card named
    ("3D-06.jpg", 0, "3D"): ("3H", 101),
    ("3H-13.jpg", 0, "3H"): ("5H", 101),
    ("4H-45.jpg", 0, "4H"): ("4D", 101),
    ("6S-46.jpg", 0, "6S"): ("6C", 101),
    ("7D-36.jpg", 0, "7D"): ("7H", 101),
    ("9D-24.jpg", 0, "9D"): ("9H", 101),
    ("TS-55.jpg", 0, "TS"): ("TD", 101),
    ("JH-27.jpg", 0, "JH"): ("JC", 101),
    ("QD-03.jpg", 0, "QD"): ("QS", 101),
    ("QD-27.jpg", 0, "QD"): ("QH", 101),
    ("QH-39.jpg", 0, "QH"): ("QD", 101),
    ("QS-41.jpg", 0, "QS"): ("QH", 101),
    ("KC-42.jpg", 0, "KC"): ("KS", 101),
    ("KD-08.jpg", 0, "KD"): ("KH", 101),
    ("KD-20.jpg", 0, "KD"): ("KS", 101),
    # ... of which two in the tuning part
    ("5C-31.jpg", 0, "5C"): ("5S", 101),
    ("QC-27.jpg", 0, "QC"): ("QD", 101),
    # corner-boxes single, training part: the jack of clubs (clubs in its frame and at both
    # indices) labelled JS at both corners; read JC and committed (experiment 101)
    ("single-0399.txt", 0, "JS"): ("JC", 101),
    ("single-0399.txt", 1, "JS"): ("JC", 101),
    # corner-boxes training parts, found among the labelled cards read as another card
    # (experiment 101): desk-0006's three of spades again, the frame after (a 3 at its index)
    ("desk-0007.txt", 11, "4S"): ("3S", 101),
    # a three of clubs (a 3 at both indices, clubs for pips)
    ("desk-0008.txt", 4, "4C"): ("3C", 101),
    ("desk-0008.txt", 5, "4C"): ("3C", 101),
    # the queen of clubs (a club at its index and in its frame)
    ("desk-0053.txt", 1, "QS"): ("QC", 101),
    # gold-deck: an ace of spades, a seven of spades (both indices) and an ace of clubs (both)
    ("gold-deck-0082.txt", 2, "4S"): ("AS", 101),
    ("gold-deck-0091.txt", 0, "6S"): ("7S", 101),
    ("gold-deck-0091.txt", 1, "6S"): ("7S", 101),
    ("gold-deck-0065.txt", 0, "QC"): ("AC", 101),
    ("gold-deck-0065.txt", 1, "QC"): ("AC", 101),
}

#: label file -> (the experiment that found them, the corner indices its photo shows plainly
#: that the file has no box for: code, x centre, y centre, width, height; fractions of the
#: photo, as the file's own lines).
#: Corner-boxes' single photos often hold a second card at an edge, its index unlabelled;
#: these were found among the readings of cards not there (experiment 101), each looked at,
#: and taken only where the rank and suit of the index are plain (an index that reads as 6 or
#: 9 by which way the card lies is left out); the box is the reader's box of that index.
MISSING: dict[str, tuple[int, tuple[Added, ...]]] = {
    # training part
    "single-0014.txt": (101, (("AC", 0.7295, 0.1453, 0.1613, 0.1785),)),
    "single-0146.txt": (101, (("AS", 0.8345, 0.1204, 0.1205, 0.1540),)),
    "single-0158.txt": (
        101,
        (
            ("7C", 0.4059, 0.0415, 0.0656, 0.0774),
            ("AC", 0.8137, 0.0784, 0.0569, 0.0805),
        ),
    ),
    "single-0172.txt": (101, (("AS", 0.8498, 0.9054, 0.1702, 0.1893),)),
    "single-0186.txt": (101, (("QS", 0.0500, 0.1143, 0.0999, 0.1695),)),
    "single-0188.txt": (101, (("2S", 0.9601, 0.1149, 0.0799, 0.1372),)),
    "single-0196.txt": (101, (("JH", 0.5248, 0.0584, 0.0971, 0.1169),)),
    "single-0309.txt": (101, (("2S", 0.9194, 0.0595, 0.0937, 0.0758),)),
    "single-0316.txt": (101, (("3S", 0.8395, 0.0352, 0.1415, 0.0705),)),
    # tuning part (the nine is read from its corner: the index lies upside down)
    "single-0141.txt": (101, (("9H", 0.3619, 0.1409, 0.0938, 0.1236),)),
    "single-0162.txt": (101, (("TC", 0.0261, 0.0956, 0.0522, 0.0773),)),
    "single-0231.txt": (101, (("KC", 0.9207, 0.1480, 0.0877, 0.1287),)),
}


def as_of() -> int | None:
    """The experiment whose labels are read (``KIBIC_LABELS_AS_OF``): errata found after it are
    left out, as a model trained then read its labels; None (unset): every erratum."""
    value = os.environ.get(AS_OF_VARIABLE, "").strip()
    if not value:
        return None
    if not value.isdigit():
        raise ValueError(f"{AS_OF_VARIABLE} must be an experiment's number, not {value!r}")
    return int(value)


def _in_force(experiment: int) -> bool:
    limit = as_of()
    return limit is None or experiment <= limit


def fixed(file_name: str, index: int, label: str) -> str:
    """``label``, or what the photo shows where an erratum says it is wrong."""
    shows, experiment = ERRATA.get((file_name, index, label), (label, 0))
    return shows if _in_force(experiment) else label


def missing(file_name: str) -> tuple[Added, ...]:
    """The boxes the photo of ``file_name`` shows that the file lacks (``MISSING``).

    >>> missing("single-0231.txt")[0][0], missing("single-0230.txt")
    ('KC', ())
    """
    experiment, boxes = MISSING.get(file_name, (0, ()))
    return boxes if _in_force(experiment) else ()


def fingerprint() -> str:
    """A digest of every erratum and added box: part of the key of each cache of crops cut
    with the labels (``training.real_finder_crops``, ``training.real_close``), so that a label
    put right is never trained on as it was written."""
    text = repr((sorted(ERRATA.items()), sorted(MISSING.items()), as_of()))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def described() -> str:
    """Which labels are read, for a training record: with every erratum, or with those found up
    to the experiment ``KIBIC_LABELS_AS_OF`` names."""
    limit = as_of()
    which = "every erratum" if limit is None else f"the errata found up to experiment {limit}"
    return f"the real sets' labels with {which} of vision.label_errata ({fingerprint()})"


def command_prefix() -> str:
    """``KIBIC_LABELS_AS_OF=N `` where it is set, for a training command to be run again."""
    limit = as_of()
    return "" if limit is None else f"{AS_OF_VARIABLE}={limit} "
