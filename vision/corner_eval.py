"""How well the corner-index finder and reader (``vision.corner_finder``) do on photos with a box
on every corner index (corner-boxes; ``evaluate``, the measure of experiments 28 and 44).

Per index: a labelled box is found when a found box's centre lies inside it, or its centre
inside the found box (each found box answers one label). Per card (the codes labelled in a
photo): found when one of its boxes is; read right when ``cards_of`` names it from an index
that lies on one of its boxes. A card named in a photo that holds no such card is a false
reading; those at or above the commit threshold are the ones that would be committed.

An evaluation tool: it reads the labelled photos through ``training`` (the table never needs it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from vision.corner_finder import CornerFinder, FoundIndex, cards_of


@dataclass
class CornerReport:
    name: str
    photos: int = 0
    boxes: int = 0  # labelled index boxes (face-down cards left out)
    boxes_found: int = 0
    found_boxes: int = 0  # boxes the finder gave
    cards: int = 0
    cards_found: int = 0
    cards_right: int = 0
    false_cards: list[float] = field(default_factory=list)  # their confidences
    readings: list[tuple[float, bool]] = field(default_factory=list)  # per card found

    def line(self, threshold: float) -> str:
        def pct(a: int, b: int) -> str:
            return f"{100 * a / b:.1f} %" if b else "-"

        committed = [right for conf, right in self.readings if conf >= threshold]
        wrong = sum(not r for r in committed) + sum(c >= threshold for c in self.false_cards)
        return (f"{self.name}: {self.photos} photos; indices found {pct(self.boxes_found, self.boxes)} "
                f"of {self.boxes} ({self.found_boxes} boxes given); cards found "
                f"{pct(self.cards_found, self.cards)} of {self.cards}, read right "
                f"{pct(self.cards_right, self.cards_found)}; at {threshold:g}: "
                f"{sum(committed)} right, {wrong} wrong committed "
                f"({len(self.false_cards)} false cards in all)")  # fmt: skip


def _on(index: FoundIndex, box: np.ndarray) -> bool:
    cx, cy, w, h = box
    fx, fy, fw, fh = index.box
    inside = abs(fx - cx) <= w / 2 and abs(fy - cy) <= h / 2
    holds = abs(cx - fx) <= fw / 2 and abs(cy - fy) <= fh / 2
    return inside or holds


def score_photo(report: CornerReport, indices: list[FoundIndex], boxes: np.ndarray,
                codes: Sequence[str]) -> None:  # fmt: skip
    """Add one photo's finding and reading to ``report``."""
    keep = [k for k, code in enumerate(codes) if code != "back"]
    report.photos += 1
    report.boxes += len(keep)
    report.found_boxes += len(indices)
    used: set[int] = set()
    hit: dict[int, int] = {}  # label box -> found index
    for k in keep:
        for i, index in enumerate(indices):
            if i not in used and _on(index, boxes[k]):
                used.add(i)
                hit[k] = i
                break
    report.boxes_found += len(hit)
    labelled = {codes[k] for k in keep}
    report.cards += len(labelled)
    cards = cards_of(indices)
    for code in sorted(labelled):
        mine = [hit[k] for k in keep if codes[k] == code and k in hit]
        if not mine:
            continue
        report.cards_found += 1
        on_mine = [c for c in cards if any(indices[i] in c.indices for i in mine)]
        read = max(on_mine, key=lambda c: c.confidence) if on_mine else None
        right = read is not None and read.label == f"french:{code}"
        report.cards_right += right
        report.readings.append((read.confidence if read else 0.0, right))
    for card in cards:
        if card.label.removeprefix("french:") not in labelled:
            report.false_cards.append(card.confidence)


def evaluate(finder: CornerFinder, part: str = "tune") -> list[CornerReport]:
    """One report per corner-boxes folder for ``part`` (train or tune)."""
    from training.corner_samples import load
    from training.real_finder_crops import FOLDERS

    reports = []
    for folder in FOLDERS:
        report = CornerReport(f"corner-boxes {folder} {part} part")
        for photo in load(part, (folder,)):
            score_photo(report, finder.indices(photo.image), photo.boxes, photo.codes)
        reports.append(report)
    return reports


FACE_TABLES = 40  # scenes of evaluate_face_tables
FACE_TABLES_SEED = 1000


def evaluate_face_tables(finder: CornerFinder, tables: int = FACE_TABLES,
                         seed: int = FACE_TABLES_SEED) -> CornerReport:  # fmt: skip
    """The finder and reader on card-crops' tuning faces laid as at a table
    (``training.face_tables``: flat rows, fanned hands of two or three, tricks thrown over one
    another), each index that shows boxed: where fanned and covered cards are lost, in the
    finding or in the reading. The faces are those whose top-left index finder version 1 and
    box reader version 2 found on the face alone, pinned (``face_tables.indexed_faces``), so
    that another finder or reader is measured on the same tables."""
    from training import face_tables

    faces = face_tables.indexed_faces("tune")
    report = CornerReport("card-crops tune faces laid as at a table")
    rng = np.random.default_rng(seed)
    for _ in range(tables):
        photo = face_tables.table(rng, faces)
        score_photo(report, finder.indices(photo.image), photo.boxes, photo.codes)
    return report
