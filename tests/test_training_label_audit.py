"""Sheets to look at labels by (training.label_audit, experiment 101): where the reader and the
labels disagree, and never on the edje test split."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.cards import Card, Deck
from training.label_audit import (
    MISREAD,
    NOT_NAMED,
    TILE,
    Doubt,
    card_crops_doubts,
    corner_boxes_doubts,
    doubts_of,
    sheet,
)
from vision.pipeline import ImageCard
from vision.recognizer import Prediction


@pytest.mark.parametrize(("name", "part", "says"), [
    ("edje-cards", "test", "evaluation only"),
    ("edje-cards", "tune", "no tuning part"),
    ("card-crops", "test", "evaluation only"),
    ("deck-photos", "train", "unknown set 'deck-photos'"),
])  # fmt: skip
def test_the_edje_test_split_and_unknown_sets_are_refused(name: str, part: str, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        doubts_of(name, part)


def _photo(path: Path, size: tuple[int, int] = (224, 224)) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), np.full((*size, 3), 200, np.uint8))
    return path


def test_a_card_crops_photo_read_as_another_than_its_card_is_a_doubt(tmp_path: Path) -> None:
    # QC-27 shows the queen of diamonds (an erratum): read QD it is no doubt; QC-26 read QD is,
    # and so is nothing where nothing is read
    paths = [_photo(tmp_path / "QC" / name) for name in ("QC-26.jpg", "QC-27.jpg", "QC-28.jpg")]
    readings = {"QC-26": ("QD", 0.91), "QC-27": ("QD", 0.94), "QC-28": None}
    seen: list[str] = []

    def read(image: np.ndarray) -> tuple[str, float] | None:
        seen.append(paths[len(seen)].stem)
        return readings[seen[-1]]

    (doubt,) = card_crops_doubts(paths, read)
    assert (Path(doubt.photo).name, doubt.kind, doubt.label, doubt.read) == (
        "QC-26.jpg", MISREAD, "QC", "QD")  # fmt: skip
    assert doubt.box == (0.0, 0.0, 224.0, 224.0)  # the whole photo
    assert doubt.caption() == "QC-26 QC>QD 0.91"


def _card(code: str, confidence: float, corners: list[tuple[float, float]],
          index_box: tuple[float, float, float, float] | None = None) -> ImageCard:  # fmt: skip
    return ImageCard(Card.parse(code), f"french:{code}", Deck.FRENCH_53, confidence,
                     tuple(corners), Prediction(f"french:{code}", confidence, ()),
                     index_box=index_box)  # fmt: skip


class _Reads:
    def __init__(self, cards: list[ImageCard]) -> None:
        self._cards = cards

    def cards(self, image: np.ndarray) -> list[ImageCard]:
        return self._cards


def test_a_labelled_card_read_as_another_and_a_card_no_label_names_are_doubts(
    tmp_path: Path,
) -> None:
    # a 400 x 400 photo with the 5C's two corner boxes (around (60, 60) and (180, 240)) and the
    # 9H's one (around (330, 60)): the 5C read 6C, the 9H read right, a KS read off both
    photo = _photo(tmp_path / "desk" / "images" / "x-0001.jpg", (400, 400))
    labels = tmp_path / "desk" / "labels"
    labels.mkdir()
    (labels / "x-0001.txt").write_text(
        "5C 0.15 0.15 0.05 0.1\n5C 0.45 0.6 0.05 0.1\n9H 0.825 0.15 0.05 0.1\n"
    )
    reads = _Reads([
        _card("6C", 0.7, [(30, 30), (210, 30), (210, 270), (30, 270)]),
        _card("9H", 0.9, [(300, 30), (390, 30), (390, 200), (300, 200)]),
        _card("KS", 0.4, [(250, 300), (300, 300), (300, 380), (250, 380)], (250, 300, 270, 330)),
    ])  # fmt: skip
    doubts = corner_boxes_doubts([photo], reads)  # type: ignore[arg-type]
    kinds = sorted(((d.kind, d.label, d.read) for d in doubts), key=str)
    assert kinds == [(NOT_NAMED, "5C", "6C"), (NOT_NAMED, None, "KS"), (MISREAD, "5C", "6C")]
    misread = next(d for d in doubts if d.kind == MISREAD)
    assert misread.box == pytest.approx((50.0, 40.0, 70.0, 80.0))  # the label's first box
    unnamed = next(d for d in doubts if d.read == "KS")
    assert unnamed.box == (250.0, 300.0, 270.0, 330.0)  # the reading's index box
    assert unnamed.caption() == "x-0001 ->KS 0.40 *"


def test_a_sheet_lays_the_tiles_in_rows_with_each_box_drawn(tmp_path: Path) -> None:
    photo = _photo(tmp_path / "a.jpg", (300, 400))
    doubts = [Doubt(str(photo), MISREAD, "5C", "6C", 0.5, (100.0 + k, 100.0, 140.0, 160.0))
              for k in range(6)]  # fmt: skip
    out = sheet(doubts, columns=5)
    assert out.shape == (2 * (TILE + 22), 5 * TILE, 3)
    magenta = np.all(out == (255, 0, 255), axis=2)
    assert magenta[: TILE + 22, :TILE].any() and not magenta[TILE + 22 :, TILE:].any()
    with pytest.raises(ValueError, match="no doubts"):
        sheet([])
