"""The table reads its cards' corners with a reader of its own (experiment 133c): the still-photo
corner-index reader fine-tuned with rendered faces shown as the table shows them
(``training.table_seen``); still photos keep theirs."""

from __future__ import annotations

import numpy as np

from kibic.camera import second_opinion
from kibic.config import CameraConfig
from referee.cards import Deck
from training.table_seen import table_seen
from vision.card_faces import design_for_seed, render_face
from vision.index_reader import IndexReader
from vision.recognizer import PHOTO_INDEX, PHOTO_MODEL, TABLE_INDEX, photo_recognizer


def test_the_tables_second_opinion_reads_corners_with_the_tables_reader() -> None:
    table = second_opinion(CameraConfig(deck=Deck.FRENCH_53.value))
    still = photo_recognizer()
    assert table is not None and table.index is not None and still.index is not None
    assert table.index.path == TABLE_INDEX and still.index.path == PHOTO_INDEX
    # the same classifier and gates: only the corners are read otherwise
    assert table.path == still.path == PHOTO_MODEL
    assert [g.path for g in table.gates] == [g.path for g in still.gates]
    assert second_opinion(CameraConfig(deck=Deck.FRENCH_53.value, second_opinion=False)) is None


def _read(path: object, faces: list[np.ndarray], cards: list[str]) -> tuple[int, int]:
    """Of ``faces`` (of ``cards``), how many ``path``'s reader reads as their card, and how many
    as another suit of the same rank at 0.85 or above."""
    reader = IndexReader(path)  # type: ignore[arg-type]
    probs = reader.read(faces)
    read = [reader.cards[i].split(":")[1] for i in probs.argmax(axis=1)]
    sure = probs.max(axis=1) >= 0.85
    own = sum(r == c for r, c in zip(read, cards, strict=True))
    swapped = sum(bool(s) and r[0] == c[0] and r != c
                  for r, c, s in zip(read, cards, sure, strict=True))  # fmt: skip
    return own, swapped


def test_faces_as_the_table_shows_them_are_read_better_by_the_tables_reader() -> None:
    # each card of the French deck four times, each face of a design no reader learnt (the
    # benchmark's held-out designs), pasted small into a frame of the table and warped back
    rng = np.random.default_rng(0)
    faces, cards = [], []
    for i in range(208):
        card = "23456789TJQKA"[i % 13] + "CDHS"[(i // 13) % 4]
        face = render_face(f"french:{card}", design_for_seed("french", 100_003 + i))
        faces.append(table_seen(face, rng))
        cards.append(card)
    still_own, still_swapped = _read(PHOTO_INDEX, faces, cards)
    table_own, table_swapped = _read(TABLE_INDEX, faces, cards)
    assert table_own >= still_own + 8  # 197 against 184 of 208 when written
    assert table_swapped <= still_swapped  # 0 against 4
    assert table_own >= 0.9 * len(faces)
