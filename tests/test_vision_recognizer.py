"""The shipped ONNX model on rendered faces, and the deck restriction."""

from __future__ import annotations

import numpy as np
import pytest

from referee.cards import Card, Deck
from vision.card_faces import design_for_seed, render_face
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


def test_the_still_photo_gate_turns_only_what_it_is_sure_of_into_no_card() -> None:
    """Printed pages (``training.clutter``): the still-photo classifier reads most as cards
    (Jokers mostly); with its gate each one the gate is at least 0.7 sure of is 'none', with
    the classifier's reading first among the alternatives, and every other reading is kept.
    The clean faces of a deck are all still read."""
    from training.clutter import printed_page
    from vision.recognizer import GATE_THRESHOLD, PHOTO_GATE, PHOTO_MODEL

    rng = np.random.default_rng(0)
    pages = [printed_page(rng, INPUT_H, INPUT_W) for _ in range(20)]
    labels = labels_for_deck(Deck.FRENCH_53)
    design = design_for_seed("french", 0)
    faces = [render_face(label, design, (INPUT_H, INPUT_W)) for label in labels]
    plain = Recognizer(PHOTO_MODEL)
    gated = Recognizer(PHOTO_MODEL, gate=PHOTO_GATE)
    assert gated.gate is not None
    before = plain.predict(pages + faces, Deck.FRENCH_53)
    after = gated.predict(pages + faces, Deck.FRENCH_53)
    sure = gated.gate.probabilities(pages + faces, Deck.FRENCH_53)[:, -1] >= GATE_THRESHOLD
    assert sum(p.is_card for p in before[:20]) >= 15
    assert not any(p.is_card for p in after[:20])
    for b, a, s in zip(before, after, sure, strict=True):
        if s and b.is_card:
            assert (a.label, a.alternatives[0]) == ("none", (b.label, b.confidence))
        else:
            assert a == b
    assert [p.label for p in after[20:]] == list(labels)


def pages_and_middles() -> list[np.ndarray]:
    """20 printed pages and the middles of three rendered French designs' faces (a piece of a
    card, as the detector finds them in close photos), at the classifier's size."""
    import cv2

    from training.clutter import printed_page

    rng = np.random.default_rng(0)
    crops = [printed_page(rng, INPUT_H, INPUT_W) for _ in range(20)]
    for seed in range(3):
        design = design_for_seed("french", seed)
        for label in labels_for_deck(Deck.FRENCH_53):
            face = render_face(label, design, (INPUT_H * 3, INPUT_W * 3))
            middle = face[INPUT_H * 3 // 4 : INPUT_H * 9 // 4, INPUT_W * 3 // 4 : INPUT_W * 9 // 4]
            crops.append(cv2.resize(middle, (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA))
    return crops


def test_two_gates_turn_into_no_card_what_either_is_sure_of() -> None:
    """The still-photo classifier with the first two shipped gates (experiment 87): on printed
    pages and on the middles of rendered faces, a crop is 'none' exactly where 3.7b or 3.7d
    alone is at least 0.7 sure, its confidence the surer gate's. Each gate drops some crops the
    other keeps, so neither alone gives the same readings; the order of the gates does not
    matter."""
    from vision.recognizer import GATE_THRESHOLD, PHOTO_GATE, PHOTO_GATE_PIECES, PHOTO_MODEL

    crops = pages_and_middles()
    deck = Deck.FRENCH_53
    first, pieces = Recognizer(PHOTO_GATE), Recognizer(PHOTO_GATE_PIECES)
    none_first = first.probabilities(crops, deck)[:, -1]
    none_pieces = pieces.probabilities(crops, deck)[:, -1]
    only_pieces = (none_pieces >= GATE_THRESHOLD) & (none_first < GATE_THRESHOLD)
    only_first = (none_first >= GATE_THRESHOLD) & (none_pieces < GATE_THRESHOLD)
    assert only_pieces.sum() >= 5 and only_first.sum() >= 1
    plain = Recognizer(PHOTO_MODEL).predict(crops, deck)
    both = Recognizer(PHOTO_MODEL, gate=[PHOTO_GATE, PHOTO_GATE_PIECES]).predict(crops, deck)
    swapped = Recognizer(PHOTO_MODEL, gate=[PHOTO_GATE_PIECES, PHOTO_GATE]).predict(crops, deck)
    assert [(p.label, p.confidence) for p in both] == [(p.label, p.confidence) for p in swapped]
    for p, b, q1, q2 in zip(plain, both, none_first, none_pieces, strict=True):
        if max(q1, q2) >= GATE_THRESHOLD and p.is_card:
            assert (b.label, b.alternatives[0]) == ("none", (p.label, p.confidence))
            assert b.confidence == pytest.approx(max(q1, q2), abs=1e-6)
        else:
            assert b == p


def test_the_third_gate_drops_pieces_the_first_two_keep() -> None:
    """The still path is given three gates (experiments 99 and 99b): the third, 3.8d, is at
    least 0.7 sure that some pieces are no card where neither 3.7b nor 3.7d is, and the shipped
    reader reads exactly those as 'none' where the reader given only the first two (``gates``)
    reads them as cards."""
    from vision.recognizer import (
        GATE_THRESHOLD,
        PHOTO_GATE,
        PHOTO_GATE_PIECES,
        PHOTO_GATE_PIECES_2,
        photo_recognizer,
    )

    crops = pages_and_middles()
    deck = Deck.FRENCH_53
    sure = [Recognizer(g).probabilities(crops, deck)[:, -1] >= GATE_THRESHOLD
            for g in (PHOTO_GATE, PHOTO_GATE_PIECES, PHOTO_GATE_PIECES_2)]  # fmt: skip
    only_third = sure[2] & ~sure[0] & ~sure[1]
    assert only_third.sum() >= 5
    shipped = photo_recognizer()
    assert [g.path for g in shipped.gates] == [PHOTO_GATE, PHOTO_GATE_PIECES, PHOTO_GATE_PIECES_2]
    two = photo_recognizer(gates=[PHOTO_GATE, PHOTO_GATE_PIECES])
    assert [g.path for g in two.gates] == [PHOTO_GATE, PHOTO_GATE_PIECES]
    by_three, by_two = shipped.predict(crops, deck), two.predict(crops, deck)
    for third, t, w in zip(only_third, by_three, by_two, strict=True):
        if third and w.is_card:
            assert (t.label, t.alternatives[0]) == ("none", (w.label, w.confidence))
        else:  # a crop the first two drop keeps the surest gate's confidence
            assert t.label == w.label and (t.is_card or t.confidence >= w.confidence)
            assert t == w or not w.is_card
    assert sum(third and w.is_card for third, w in zip(only_third, by_two, strict=True)) >= 3


def test_the_table_reads_with_the_table_classifier_and_the_still_photo_gates() -> None:
    """Experiments 115c and 115d: the table's classifier (3.1, rendered cards only) is read with
    the three still-photo gates (the tracker reads them on its learned cards): printed pages and the middles of rendered faces that 3.1 reads as cards
    and a gate is sure of are 'none'; every clean face of every deck at the table keeps 3.1's
    reading."""
    from vision.recognizer import DEFAULT_MODEL, GATE_THRESHOLD, shipped_gates, table_recognizer

    table = table_recognizer()
    assert table.path == DEFAULT_MODEL and len(shipped_gates()) == 3
    assert [g.path for g in table.gates] == shipped_gates()
    crops = pages_and_middles()
    deck = Deck.FRENCH_53
    plain = Recognizer(DEFAULT_MODEL).predict(crops, deck)
    gated = table.predict(crops, deck)
    sure = np.max([g.probabilities(crops, deck)[:, -1] for g in table.gates], axis=0)
    dropped = 0
    for p, g, q in zip(plain, gated, sure, strict=True):
        if q >= GATE_THRESHOLD and p.is_card:
            assert (g.label, g.alternatives[0]) == ("none", (p.label, p.confidence))
            dropped += 1
        else:
            assert g == p
    assert dropped >= 5
    for deck in Deck:
        labels = labels_for_deck(deck)
        design = design_for_seed(labels[0].split(":")[0], 0)
        faces = [render_face(label, design, (INPUT_H, INPUT_W)) for label in labels]
        assert [p.label for p in table.predict(faces, deck)] == list(labels)
