"""The visible part of found cards, and evaluation against visible (VOC) or whole-card boxes."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.cards import Card, Deck
from tests import needs
from vision.evaluate import EvalReport, _score, read_voc
from vision.pipeline import ImageCard
from vision.recognizer import Prediction
from vision.visibility import clip_box, visible_boxes


def _quad(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)


def test_a_card_out_of_the_photo_is_cut_to_it() -> None:
    assert clip_box(_quad(-50, 10, 100, 200), 300, 400) == (0.0, 10.0, 100.0, 200.0)
    assert clip_box(_quad(250, 300, 400, 500), 300, 400) == (250.0, 300.0, 300.0, 400.0)
    assert clip_box(_quad(310, 10, 400, 100), 300, 400) is None  # wholly outside


def test_cards_known_to_lie_on_a_card_cut_it() -> None:
    quads = [_quad(0, 0, 100, 140), _quad(50, 0, 150, 140), _quad(20, 20, 40, 40)]
    # card 1 lies on card 0; card 2 lies wholly under card 0
    boxes = visible_boxes((200, 300, 3), quads, above=[{1}, set(), {0}])
    assert boxes[0] == pytest.approx((0.0, 0.0, 50.0, 140.0), abs=1.0)
    assert boxes[1] == (50.0, 0.0, 150.0, 140.0)
    assert boxes[2] is None
    # without an order, only the frame cuts
    assert visible_boxes((200, 300), quads)[0] == (0.0, 0.0, 100.0, 140.0)


def test_an_order_for_other_cards_is_refused() -> None:
    with pytest.raises(ValueError, match="2 sets of cards above for 3 cards"):
        visible_boxes((200, 300), [_quad(0, 0, 10, 10)] * 3, above=[set(), set()])


def _card(corners: np.ndarray, visible: tuple[float, float, float, float] | None) -> ImageCard:
    return ImageCard(
        card=Card.parse("QD"), face="french:QD", deck=Deck.FRENCH_52, confidence=0.9,
        corners=tuple((float(x), float(y)) for x, y in corners),
        prediction=Prediction("french:QD", 0.9, ()), visible=visible,
    )  # fmt: skip


def test_scoring_compares_the_visible_part_or_the_whole_card(tmp_path: Path) -> None:
    # a queen two-thirds out of a 300 px wide photo: the label boxes the third that shows
    xml = tmp_path / "q.xml"
    xml.write_text(
        "<annotation><object><name>queen</name>"
        "<bndbox><xmin>250</xmin><ymin>100</ymin><xmax>300</xmax><ymax>310</ymax></bndbox>"
        "<wholebox><xmin>250</xmin><ymin>100</ymin><xmax>400</xmax><ymax>310</ymax></wholebox>"
        "</object></annotation>"
    )
    quad = _quad(250, 100, 400, 310)
    card = _card(quad, visible_boxes((400, 300), [quad])[0])
    assert card.visible_bbox() == (250.0, 100.0, 300.0, 310.0)
    assert card.to_json()["visible_box"] == [250.0, 100.0, 300.0, 310.0]
    visible, whole = EvalReport(), EvalReport()
    _score(visible, "q", [card], read_voc(xml), "visible")
    _score(whole, "q", [card], read_voc(xml, "whole"), "whole")
    assert (visible.found, visible.rank_correct, whole.found) == (1, 1, 1)
    # the whole card against the visible label (how experiments 2-4 measured): IoU 1/3, missed
    old = EvalReport()
    _score(old, "q", [card], read_voc(xml), "whole")
    assert old.found == 0 and old.mistakes == ["q: queen not found (box off)"]
    with pytest.raises(ValueError, match="boxes must be one of visible, whole, either, not 'all'"):
        read_voc(xml, "all")


def test_the_detectors_view_of_the_visible_part_narrows_the_frame_cut() -> None:
    from vision.pipeline import _narrower

    assert _narrower((0.0, 0.0, 100.0, 140.0), (40.0, -5.0, 120.0, 90.0)) == (
        40.0,
        0.0,
        100.0,
        90.0,
    )
    assert _narrower((0.0, 0.0, 100.0, 140.0), None) == (0.0, 0.0, 100.0, 140.0)
    # a hint off the card says nothing
    assert _narrower((0.0, 0.0, 100.0, 140.0), (200.0, 0.0, 220.0, 10.0)) == (
        0.0,
        0.0,
        100.0,
        140.0,
    )


def test_training_targets_for_the_visible_part() -> None:
    needs.torch()
    from training.train_detector import STRIDE, encode

    # an upright card 40 x 56 px centred at (50.5, 50.5); its right half is covered
    q = np.array([[30.5, 22.5], [70.5, 22.5], [70.5, 78.5], [30.5, 78.5]], np.float32)
    other = q + np.float32([200, 0])  # another card, nothing known of what shows
    heat, reg, weight = encode([q, other], (128, 320), [(30.5, 22.5, 50.5, 78.5), None])
    i, j = int(50.5 // STRIDE), int(50.5 // STRIDE)
    assert heat[0, i, j] == 1.0 and weight.shape == (2, 32, 80)
    assert reg[6:, i, j] == pytest.approx([20 / 56, 28 / 56, 0.0, 28 / 56])
    assert weight[0, i, j] == weight[1, i, j] == 1.0
    k = int(250.5 // STRIDE)  # it trains its whole-card channels only
    assert heat[0, i, k] == 1.0 and weight[0, i, k] == 1.0 and weight[1, i, k] == 0.0


def test_a_cards_anchor_is_the_middle_of_what_shows() -> None:
    from training.detector_scenes import visible_anchor

    shows = np.zeros((100, 200), bool)
    shows[20:76, 30:70] = True  # a whole upright card, 40 x 56 px
    x, y, depth = visible_anchor(shows, (30, 20, 70, 76))
    assert (x, y) == pytest.approx((50.0, 48.0), abs=1.0) and depth == pytest.approx(20, abs=1)
    strip = np.zeros((100, 200), bool)
    strip[20:76, 120:132] = True  # the 12 px strip of a card under another, on its left
    x, y, depth = visible_anchor(strip, (120, 20, 132, 76))
    assert 120 < x < 132 and y == pytest.approx(48.0, abs=1.0) and depth == pytest.approx(6, abs=1)


def test_training_targets_peak_inside_the_visible_part_when_asked() -> None:
    needs.torch()
    from training.train_detector import STRIDE, encode

    q = np.array([[30.5, 22.5], [70.5, 22.5], [70.5, 78.5], [30.5, 78.5]], np.float32)
    thin = q + np.float32([200, 0])  # a card of which a 2 px strip shows: no target
    shows = [(30.5, 22.5, 42.5, 78.5), (230.5, 22.5, 232.5, 78.5)]
    heat, reg, weight = encode(
        [q, thin], (128, 320), shows, [(36.5, 50.5, 6.0), (231.5, 50.5, 1.0)]
    )
    i, j = int(50.5 // STRIDE), int(36.5 // STRIDE)
    assert heat[0, i, j] == 1.0 and heat[0, i, int(50.5 // STRIDE)] < 1.0
    centre = (j * STRIDE + (STRIDE - 1) / 2, i * STRIDE + (STRIDE - 1) / 2)
    # the regression at the peak points to the whole card's centre
    assert reg[0, i, j] == pytest.approx((50.5 - centre[0]) / STRIDE)
    assert reg[1, i, j] == pytest.approx((50.5 - centre[1]) / STRIDE)
    assert heat[0, :, 50:].max() == 0.0 and weight[:, :, 50:].max() == 0.0
    # --min-show 0.04: a strip 2 px thick on a card 40 px wide (0.05 of it) is a target
    heat, _, weight = encode(
        [q, thin], (128, 320), shows, [(36.5, 50.5, 6.0), (231.5, 50.5, 1.0)], min_show=0.04
    )
    assert heat[0, i, int(231.5 // STRIDE)] == 1.0 and weight[0, i, int(231.5 // STRIDE)] > 0


def test_scenes_can_keep_the_cards_whose_centre_is_out_of_the_photo() -> None:
    from training.artwork import HELD_OUT_THEMES
    from training.detector_scenes import FaceSource, make_scene

    extra = 0
    for seed in range(12):
        scenes = []
        for keep_shown in (False, True):
            rng = np.random.default_rng(seed)
            src = FaceSource(rng, themes=tuple(HELD_OUT_THEMES[:1]), designs_per_pool=1)
            scenes.append(make_scene(rng, src, (240, 320), keep_shown=keep_shown))
        (img, centred), (same, shown) = scenes
        assert np.array_equal(img, same)  # the same photo either way
        inside = [c for c in shown if 0 <= c.corners.mean(axis=0)[0] < 320
                  and 0 <= c.corners.mean(axis=0)[1] < 240]  # fmt: skip
        assert len(inside) == len(centred)
        for card in shown:
            if not any(card is c for c in inside):
                extra += 1
                assert card.anchor is not None
                assert 0 <= card.anchor[0] < 320 and 0 <= card.anchor[1] < 240
    assert extra > 0  # seeds 0-11 do lay cards across the photo's edge


def test_large_scenes_lay_a_few_cards_as_big_as_in_close_up_photos() -> None:
    from training.artwork import HELD_OUT_THEMES
    from training.detector_scenes import LARGE_COUNTS, LARGE_WIDTH, FaceSource, make_scene

    def card_width(corners: np.ndarray) -> float:
        sides = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
        return float(min(sides))

    def scenes(share: float) -> list[tuple[np.ndarray, list]]:
        rng = np.random.default_rng(4)
        src = FaceSource(rng, themes=tuple(HELD_OUT_THEMES[:1]), designs_per_pool=1)
        return [make_scene(rng, src, (240, 320), large_share=share) for _ in range(8)]

    large = scenes(1.0)
    assert sum(len(cards) for _, cards in large) >= len(large)  # a card whose centre is out
    for _, cards in large:  # of the photo is not kept, so a scene may have none
        assert len(cards) <= max(LARGE_COUNTS)
        for card in cards:  # the camera's tilt changes sizes a little
            assert (
                0.7 * LARGE_WIDTH[0] * 240 <= card_width(card.corners) <= 1.4 * LARGE_WIDTH[1] * 240
            )
    usual = scenes(0.0)
    assert any(len(cards) > max(LARGE_COUNTS) for _, cards in usual)


def test_close_scenes_hold_one_card_filling_most_of_the_photo() -> None:
    from training.artwork import HELD_OUT_THEMES
    from training.detector_scenes import CLOSE_WIDTH, FaceSource, make_scene

    def scenes(share: float, seed: int = 6) -> list[tuple[np.ndarray, list]]:
        rng = np.random.default_rng(seed)
        src = FaceSource(rng, themes=tuple(HELD_OUT_THEMES[:1]), designs_per_pool=1)
        return [make_scene(rng, src, (240, 320), keep_shown=True, close_share=share)
                for _ in range(8)]  # fmt: skip

    def short_side(corners: np.ndarray) -> float:
        return float(min(np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)))

    for img, cards in scenes(1.0):
        assert len(cards) == 1  # kept even where it runs past the photo's edges
        (card,) = cards
        # its short side: CLOSE_WIDTH of the photo's short side (the tilt changes it a little)
        assert 0.7 * CLOSE_WIDTH[0] * 240 <= short_side(card.corners) <= 1.4 * CLOSE_WIDTH[1] * 240
        assert card.visible is not None
        x0, y0, x1, y1 = card.visible
        assert (x1 - x0) * (y1 - y0) >= 0.3 * img.shape[0] * img.shape[1]
    # the usual scenes hold no card that large (0.6 of the short side at most, before tilt)
    usual = [card for _, cards in scenes(0.0) for card in cards]
    assert usual and all(short_side(c.corners) < 0.7 * 240 for c in usual)


def test_a_cover_hides_part_of_one_card_and_its_shadow_does_not() -> None:
    from training.detector_scenes import COVERED, draw_cover

    img = np.full((240, 320, 3), 60, np.uint8)
    quad = np.array([[120, 60], [200, 60], [200, 180], [120, 180]], np.float32)
    cv2.fillConvexPoly(img, quad.astype(np.int32), (255, 255, 255))
    card = np.zeros((240, 320), bool)
    card[60:180, 120:200] = True
    hidden, shaded = [], 0
    for seed in range(12):
        out = img.copy()
        mask = draw_cover(out, np.random.default_rng(seed), quad)
        assert mask.shape == (240, 320) and 0.0 <= mask.min() and mask.max() <= 1.0
        share = float((mask[card] > 0.5).mean())
        hidden.append(share)
        # roughly COVERED of the card: its extent along the cover's direction, not its area
        assert 0.5 * COVERED[0] <= share <= min(1.0, 1.3 * COVERED[1])
        # the shadow darkens some of the card outside the cover, which still shows
        shaded += bool((out[card & (mask < 0.01)] < 250).any())
    assert max(hidden) - min(hidden) > 0.2  # the depth of the cut varies
    assert shaded >= 6


def test_scenes_with_covers_keep_the_layout_and_shrink_what_shows() -> None:
    from training.artwork import HELD_OUT_THEMES
    from training.detector_scenes import FaceSource, make_scene

    def scenes(share: float) -> list[tuple[np.ndarray, list]]:
        rng = np.random.default_rng(5)
        src = FaceSource(rng, themes=tuple(HELD_OUT_THEMES[:1]), designs_per_pool=1)
        out = []
        for _ in range(8):  # each scene from its own stream, so the layouts pair up
            out.append(make_scene(np.random.default_rng(rng.integers(1 << 30)), src, (240, 320),
                                  large_share=1.0, cover_share=share))  # fmt: skip
        return out

    def area(box: tuple[float, float, float, float] | None) -> float:
        return 0.0 if box is None else (box[2] - box[0]) * (box[3] - box[1])

    plain, covered = scenes(0.0), scenes(1.0)
    shrunk = 0
    for (_, before), (_, after) in zip(plain, covered, strict=True):
        assert len(before) == len(after)
        for b, a in zip(before, after, strict=True):
            assert np.array_equal(b.corners, a.corners)  # the cards lie where they lay
            assert area(a.visible) <= area(b.visible) + 1e-6  # a cover only hides
        shrunk += any(
            area(a.visible) < 0.9 * area(b.visible) for b, a in zip(before, after, strict=True)
        )
    assert shrunk >= 6


def _label(tmp_path: Path, *objects: tuple[str, tuple[int, int, int, int]]) -> Path:
    xml = tmp_path / "pile.xml"
    body = "".join(
        f"<object><name>{name}</name><bndbox><xmin>{x0}</xmin><ymin>{y0}</ymin>"
        f"<xmax>{x1}</xmax><ymax>{y1}</ymax></bndbox></object>"
        for name, (x0, y0, x1, y1) in objects
    )
    xml.write_text(f"<annotation>{body}</annotation>")
    return xml


def test_either_box_finds_a_covered_card_labelled_whole_or_by_its_visible_part(
    tmp_path: Path,
) -> None:
    # a queen 150 x 210 at (100, 100), its right 70 % under another card: 45 px of it shows
    queen = _card(_quad(100, 100, 250, 310), (100.0, 100.0, 145.0, 310.0))
    whole_label = _label(tmp_path, ("queen", (100, 100, 250, 310)))
    visible, either = EvalReport(), EvalReport()
    _score(visible, "q", [queen], read_voc(whole_label), "visible")
    _score(either, "q", [queen], read_voc(whole_label), "either")
    assert (visible.found, visible.misses["box off"]) == (0, 1)  # IoU 0.3 with the strip
    assert (either.found, either.rank_correct) == (1, 1)
    strip_label = _label(tmp_path, ("queen", (100, 100, 146, 310)))
    either = EvalReport()
    _score(either, "q", [queen], read_voc(strip_label), "either")
    assert either.found == 1


def test_either_box_pairs_each_label_with_one_card(tmp_path: Path) -> None:
    # a king lying whole over the queen of the test above: two labels, two cards, two pairs,
    # the king's label with the king although the queen's whole box overlaps it too
    queen = _card(_quad(100, 100, 250, 310), (100.0, 100.0, 145.0, 310.0))
    king = ImageCard(
        card=Card.parse("KD"), face="french:KD", deck=Deck.FRENCH_52, confidence=0.9,
        corners=tuple((float(x), float(y)) for x, y in _quad(145, 100, 295, 310)),
        prediction=Prediction("french:KD", 0.9, ()),
    )  # fmt: skip
    xml = _label(tmp_path, ("king", (145, 100, 295, 310)), ("queen", (100, 100, 250, 310)))
    report = EvalReport()
    _score(report, "pile", [queen, king], read_voc(xml), "either")
    assert (report.found, report.rank_correct, report.mistakes) == (2, 2, [])
    # without the king found, the queen's whole box also overlaps the king's label (IoU 0.55),
    # but the queen's card goes to its own label (IoU 1): the king's stays missed
    alone = EvalReport()
    _score(alone, "pile", [queen], read_voc(xml), "either")
    assert (alone.found, alone.rank_correct) == (1, 1)
    assert alone.mistakes == ["pile: king not found (shared)"]
