"""How the still path joins the cards read by their corner indices to the cards found whole
(``vision.still_index``): one card read two ways at its corner, and an index card drawn whole."""

from __future__ import annotations

import numpy as np
import pytest

from referee.cards import Card, Deck
from vision.index_place import INDEX_AT
from vision.pipeline import READ_FLOOR, ImageCard
from vision.recognizer import Prediction
from vision.still_index import backed, outweighs, placed_whole, with_index_cards

# a portrait card 100 x 140 px with its top-left corner at (100, 0), and where its index lies
CARD = np.array([[100, 0], [200, 0], [200, 140], [100, 140]], np.float32)
TOP_LEFT = (100 + INDEX_AT[0] * 100, INDEX_AT[1] * 140)


def _box(x: float, y: float, side: float = 10.0) -> tuple[float, float, float, float]:
    return x - side / 2, y - side / 2, x + side / 2, y + side / 2


def _card(code: str, corners: np.ndarray, confidence: float = 0.9,
          alternatives: tuple[tuple[str, float], ...] = (),
          index_box: tuple[float, float, float, float] | None = None) -> ImageCard:  # fmt: skip
    """A card found whole at ``corners``, or with ``index_box`` one read by that index."""
    label = f"french:{code}"
    alternatives = tuple((f"french:{c}", p) for c, p in alternatives)
    if index_box is not None:
        x0, y0, x1, y1 = index_box
        corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    return ImageCard(card=Card.parse(code), face=code, deck=Deck.FRENCH_53,
                     confidence=confidence, corners=tuple((float(x), float(y)) for x, y in corners),
                     prediction=Prediction(label, confidence, alternatives),
                     found_by="finder" if index_box is None else "index", index_box=index_box,
                     visible=index_box)  # fmt: skip


def test_a_reading_is_backed_by_the_others_probability_of_its_card() -> None:
    face = Prediction("french:QC", 0.45, (("french:TC", 0.2), ("french:9C", 0.06)))
    index = Prediction("french:TC", 0.6, (("french:4S", 0.1), ("french:8C", 0.05)))
    assert backed(index, face) == pytest.approx(0.6 * 0.2)
    # the face's card is not among the index's readings: at most its least, 0.05
    assert backed(face, index) == pytest.approx(0.45 * 0.05)
    assert outweighs(index, face)
    # a face sure of its card, or one that does not name the index's card, is not outweighed
    assert not outweighs(index, Prediction("french:QC", 0.9, (("french:TC", 0.02),)))
    assert not outweighs(index, Prediction("french:QC", 0.3, (("french:9C", 0.2),)))


def test_an_index_at_the_corner_of_a_misread_card_reads_it_asked() -> None:
    found = [_card("QC", CARD, 0.45, (("TC", 0.2), ("9C", 0.06)))]
    index = _card("TC", CARD, 0.6, (("4S", 0.1),), index_box=_box(*TOP_LEFT))
    kept = with_index_cards(found, [index])
    assert len(kept) == 1  # one card, not two
    card = kept[0]
    assert (card.card.code, card.found_by, card.index_box) == ("TC", "finder", index.index_box)
    assert card.corners == found[0].corners
    # contested by the face's reading: at most 1 - 0.45, the face's card offered
    assert card.confidence == pytest.approx(0.55)
    assert ("french:QC", 0.45) in card.prediction.alternatives


def test_an_index_the_face_outweighs_stays_a_card_below_the_face() -> None:
    found = [_card("AC", CARD, 0.9, (("TC", 0.02),))]
    index = _card("6C", CARD, 0.46, (("AC", 0.1),), index_box=_box(*TOP_LEFT))
    kept = with_index_cards(found, [index])
    assert [(c.card.code, c.found_by) for c in kept] == [("AC", "finder"), ("6C", "index")]
    assert kept[0] == found[0]
    assert kept[1].confidence == pytest.approx(0.1)  # 1 - 0.9: the still path drops it
    assert kept[1].confidence < READ_FLOOR


def test_an_index_on_two_cards_or_in_the_middle_of_one_is_left_as_it_is() -> None:
    face = (("TC", 0.3),)
    index = _card("TC", CARD, 0.6, index_box=_box(*TOP_LEFT))
    two = [_card("QC", CARD, 0.4, face), _card("KC", CARD + [-50, 0], 0.4, face)]
    assert with_index_cards(two, [index]) == [*two, index]
    middle = _card("TC", CARD, 0.6, index_box=_box(150, 70))
    one = [_card("QC", CARD, 0.4, face)]
    assert with_index_cards(one, [middle]) == [*one, middle]


def test_a_joker_read_by_its_index_alone_is_a_card_only_at_a_corner() -> None:
    """Experiment 64: a Joker's index on no card found, or in the middle of one, is no card
    (its index is a word or a picture, as print is); in a card's index corner it is that card
    read two ways."""
    found = [_card("QC", CARD, 0.4, (("JK", 0.3),))]
    alone = _card("JK", CARD, 0.95, index_box=_box(400, 300))
    middle = _card("JK", CARD, 0.95, index_box=_box(150, 70))
    assert with_index_cards(found, [alone, middle]) == found
    assert with_index_cards([], [alone]) == []
    corner = _card("JK", CARD, 0.7, (("QC", 0.2),), index_box=_box(*TOP_LEFT))
    kept = with_index_cards(found, [corner])
    assert [(c.card.code, c.found_by) for c in kept] == [("JK", "finder")]
    assert kept[0].confidence == pytest.approx(0.6)  # contested by QC at 0.4
    # a card found whole and read as the Joker keeps a Joker index read elsewhere, the surer
    joker = [_card("JK", CARD, 0.5)]
    assert with_index_cards(joker, [alone]) == [*joker, alone]


def test_a_card_is_contested_by_one_index_at_most() -> None:
    found = [_card("KS", CARD, 0.33, (("KC", 0.33),))]
    first = _card("KC", CARD, 0.34, (("KS", 0.33), ("4C", 0.3)), index_box=_box(*TOP_LEFT))
    # the card now read KC names 4C, and 4C would outweigh it: a third reading is not taken
    second = _card("4C", CARD, 0.6, (("KC", 0.3),), index_box=_box(195, 130))
    kept = with_index_cards(found, [first, second])
    assert [(c.card.code, c.found_by) for c in kept] == [("KC", "finder"), ("4C", "index")]
    assert kept[1].confidence == pytest.approx(0.6)  # contested by KC at 0.34: 1 - 0.34 above


def test_the_still_path_draws_an_index_card_under_a_found_card_whole() -> None:
    cards = [_card("AS", CARD), _card("7C", CARD, index_box=_box(TOP_LEFT[0] - 40, TOP_LEFT[1])),
             _card("2D", CARD, index_box=_box(350, 250))]  # fmt: skip
    out = placed_whole((300, 400, 3), cards)
    assert out[0] == cards[0]
    assert np.array(out[1].corners).ravel().tolist() == pytest.approx(
        (CARD + [-40, 0]).ravel().tolist()
    )
    assert out[1].visible_bbox() == pytest.approx((60, 0, 100, 140), abs=2)
    assert out[1].index_box == cards[1].index_box  # the reading's index stays named
    assert out[2] == cards[2]  # under no card found whole: the index's box


def test_an_index_card_takes_the_region_found_whose_face_was_not_read() -> None:
    """``regions_of_indices`` (experiment 104): a card read by its index at the top-left corner
    of a region found whole whose face is read below the read floor is drawn as that region,
    its reading the index's; where the region's face is read at the floor or above, where the
    index lies on two regions or in the middle of one, it keeps what it had."""
    from vision.still_index import regions_of_indices

    weak = _card("QD", CARD, confidence=READ_FLOOR / 2)
    index = _card("4D", CARD, confidence=0.67, index_box=_box(*TOP_LEFT))
    (region, card) = regions_of_indices([weak, index], READ_FLOOR)
    assert region == weak
    assert card.corners == weak.corners and card.visible_bbox() == weak.visible_bbox()
    assert (card.card.code, card.confidence, card.found_by) == ("4D", 0.67, "index")
    assert card.index_box == index.index_box
    read = _card("QD", CARD, confidence=READ_FLOOR)
    assert regions_of_indices([read, index], READ_FLOOR)[1] == index
    other = _card("8S", CARD + [-50, 0], confidence=0.9)  # over the index too
    assert regions_of_indices([weak, other, index], READ_FLOOR)[2] == index
    middle = _card("4D", CARD, index_box=_box(150, 70))
    assert regions_of_indices([weak, middle], READ_FLOOR)[1] == middle


def test_an_index_card_drawn_whole_on_the_same_card_found_is_that_card() -> None:
    """``placed_whole`` (experiment 106): the ace of spades found whole, read weakly, and read
    surely by an index just outside its quad (kept apart by ``with_index_cards``): drawn whole,
    the index's card lies on the card found, so the two are one card, at the surer reading with
    the index's box. Another card's index in the same place is drawn whole beside it."""
    index_box = _box(TOP_LEFT[0] - 12, TOP_LEFT[1])
    found = _card("AS", CARD, confidence=0.3)
    (one,) = placed_whole((300, 400, 3), [found, _card("AS", CARD, 0.9, index_box=index_box)])
    assert (one.card.code, one.found_by, one.confidence) == ("AS", "finder", 0.9)
    assert one.corners == found.corners and one.index_box == index_box
    other = placed_whole((300, 400, 3), [found, _card("7C", CARD, 0.9, index_box=index_box)])
    assert [(c.card.code, c.found_by) for c in other] == [("AS", "finder"), ("7C", "index")]
    assert other[0] == found


def test_an_index_joins_the_card_it_lies_on_of_two_found_reading_it() -> None:
    # the card found, and after it a weak piece of it elsewhere that reads the same card
    piece = CARD + np.array([0, 200], np.float32)
    found = [_card("8C", CARD, 0.75), _card("8C", piece, 0.13)]
    index = _card("8C", CARD, 0.91, index_box=_box(*TOP_LEFT))
    kept = with_index_cards(found, [index])
    assert len(kept) == 2  # the index is no card of its own
    card = kept[0]
    assert (card.confidence, card.index_box, card.corners) == (0.91, index.index_box,
                                                               found[0].corners)  # fmt: skip
    assert kept[1] == found[1]
    # lying on neither, it is compared with the surer of the two: kept apart only if surer
    away = _card("8C", CARD, 0.5, index_box=_box(500, 500))
    assert with_index_cards(found, [away]) == found
    surer = _card("8C", CARD, 0.8, index_box=_box(500, 500))
    assert with_index_cards(found, [surer]) == [*found, surer]
