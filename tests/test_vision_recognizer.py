"""The shipped ONNX model on rendered faces, and the deck restriction."""

from __future__ import annotations

import numpy as np
import pytest

from models.render import design_for_seed, render_face
from referee.cards import Card, Deck
from vision.labels import labels_for_deck
from vision.recognizer import INPUT_H, INPUT_W, Recognizer, preprocess


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer()


def test_labels_cover_every_deck(recognizer: Recognizer) -> None:
    for deck in Deck:
        assert set(labels_for_deck(deck)) <= set(recognizer.labels)
    assert len(recognizer.labels) == 119 and recognizer.labels[-1] == "none"


def test_preprocess_layout() -> None:
    crop = np.zeros((INPUT_H, INPUT_W, 3), np.uint8)
    crop[..., 2] = 255
    batch = preprocess([crop])
    assert batch.shape == (1, 3, INPUT_H, INPUT_W)
    assert batch[0, 2].min() == 1.0 and batch[0, 0].max() == -1.0


@pytest.mark.parametrize("deck", [Deck.PIQUET_32, Deck.GERMAN_32, Deck.SERBIAN_33])
def test_reads_every_clean_face_of_a_deck(recognizer: Recognizer, deck: Deck) -> None:
    labels = labels_for_deck(deck)
    family = labels[0].split(":")[0]
    design = design_for_seed(family, 0)
    crops = [render_face(label, design, (INPUT_H, INPUT_W)) for label in labels]
    preds = recognizer.predict(crops, deck)
    assert [p.label for p in preds] == list(labels)
    assert [p.card for p in preds] == [c.logical for c in deck.cards]


def test_deck_restricts_the_answer(recognizer: Recognizer) -> None:
    face = render_face("german:PO", design_for_seed("german", 0), (INPUT_H, INPUT_W))
    (german,) = recognizer.predict([face], Deck.GERMAN_32)
    assert german.label == "german:PO" and german.card == Card.parse("QH") and german.face == "PO"
    (french,) = recognizer.predict([face], Deck.FRENCH_52)
    assert french.label.startswith("french:") or french.label == "none"
