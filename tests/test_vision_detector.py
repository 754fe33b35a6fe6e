"""The learned card detector (``models/kibic_detector.onnx``) on generated photos."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from referee.cards import Deck
from vision.card_faces import design_for_seed, render_face
from vision.detector import (
    DEFAULT_DETECTOR,
    CardDetector,
    DetectedCard,
    Letterbox,
    letterbox_geometry,
    merge_passes,
    rotated_corners,
)
from vision.finder import FoundCard, order_corners, warp_card
from vision.pipeline import read_cards
from vision.recognizer import INPUT_H, INPUT_W, Recognizer

pytestmark = pytest.mark.skipif(not DEFAULT_DETECTOR.exists(), reason="no detector model")


@pytest.fixture(scope="module")
def detector() -> CardDetector:
    return CardDetector()


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    a, b = a.astype(np.float32), b.astype(np.float32)
    inter, _ = cv2.intersectConvexConvex(a, b)
    return float(inter / (cv2.contourArea(a) + cv2.contourArea(b) - inter))


def _lay(canvas: np.ndarray, face: np.ndarray, center: tuple[float, float], angle: float,
         width: float) -> np.ndarray:  # fmt: skip
    """Paste ``face`` (upright) centred at ``center``, turned ``angle`` degrees clockwise,
    ``width`` px wide; the corners of the card, top-left of the face first, clockwise."""
    fh, fw = face.shape[:2]
    s = width / fw
    t = np.deg2rad(angle)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    local = np.array([[-fw, -fh], [fw, -fh], [fw, fh], [-fw, fh]], np.float64) * s / 2
    quad = (local @ rot.T + center).astype(np.float32)
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    m = cv2.getPerspectiveTransform(src, quad)
    h, w = canvas.shape[:2]
    cv2.warpPerspective(face, m, (w, h), dst=canvas, flags=cv2.INTER_AREA,
                        borderMode=cv2.BORDER_TRANSPARENT)  # fmt: skip
    return quad


def _table(h: int, w: int, color: tuple[int, int, int] = (40, 100, 35)) -> np.ndarray:
    rng = np.random.default_rng(0)
    img = np.full((h, w, 3), color, np.float32) + rng.normal(0, 4, (h, w, 3))
    return np.clip(img, 0, 255).astype(np.uint8)


def _face(code: str) -> np.ndarray:
    return render_face(f"french:{code}", design_for_seed("french", 0))


def test_three_cards_three_detections(detector: CardDetector) -> None:
    img = _table(960, 1280)
    truth = [
        _lay(img, _face("KH"), (300, 320), 10, 190),
        _lay(img, _face("7S"), (700, 600), -35, 200),
        _lay(img, _face("QD"), (1040, 330), 95, 180),
    ]
    found = detector.detect(img)
    assert len(found) == 3
    for quad in truth:
        assert max(_iou(quad, f.corners) for f in found) >= 0.7
    assert all(isinstance(f, FoundCard) and 0.3 < f.score <= 1.0 for f in found)


@pytest.mark.parametrize("color", [(40, 100, 35), (200, 205, 210), (30, 60, 110)])
def test_nothing_on_an_empty_table(detector: CardDetector, color: tuple[int, int, int]) -> None:
    assert detector.detect(_table(720, 960, color)) == []


def test_corners_ordered_and_warp_upright(detector: CardDetector) -> None:
    face = _face("KH")
    img = _table(800, 800)
    _lay(img, face, (400, 420), 90, 260)  # a landscape card
    (card,) = detector.detect(img)
    assert np.allclose(card.corners, order_corners(card.corners))
    sides = np.linalg.norm(card.corners - np.roll(card.corners, -1, axis=0), axis=1)
    assert sides[0] < sides[1]  # the first side is a short one: a portrait warp
    crop = warp_card(img, card.corners)
    assert crop.shape == (INPUT_H, INPUT_W, 3)
    assert crop.shape[0] > crop.shape[1]
    (pred,) = Recognizer().predict([crop], Deck.FRENCH_52)
    assert pred.label == "french:KH"  # the classifier reads the upright (or turned) crop


@pytest.mark.parametrize("shape", [(1280, 720), (720, 1280), (1000, 1000)])
def test_coordinates_map_back_from_the_letterbox(detector: CardDetector,
                                                 shape: tuple[int, int]) -> None:  # fmt: skip
    h, w = shape
    img = _table(h, w)
    center = (w * 0.62, h * 0.58)
    quad = _lay(img, _face("9C"), center, 20, min(h, w) * 0.25)
    (card,) = detector.detect(img)
    assert np.hypot(*(np.array(card.center) - center)) < 0.03 * min(h, w)
    assert _iou(quad, card.corners) >= 0.7


def test_letterbox_geometry() -> None:
    assert letterbox_geometry(960, 1280, 384) == Letterbox(0.3, 288, 384, 288, 384)
    assert letterbox_geometry(1280, 720, 384) == Letterbox(0.3, 384, 216, 384, 224)
    assert letterbox_geometry(100, 100, 384) == Letterbox(3.84, 384, 384, 384, 384)


def test_settings_come_from_the_model(detector: CardDetector) -> None:
    """The shipped model's inference settings (experiment 11): a pass at 384 and one at the
    training size 320, both at threshold 0.2; another larger size given takes threshold 0.3
    unless told; wrong settings are named."""
    assert (detector.train_side, detector.long_side, detector.threshold) == (320, 384, 0.2)
    assert (detector.coarse_threshold, detector.max_fine_width) == (0.2, 144.0)
    fine = CardDetector(long_side=576)
    assert (fine.long_side, fine.threshold, fine.coarse_threshold) == (576, 0.3, 0.2)
    assert CardDetector(long_side=384).threshold == 0.3
    plain = CardDetector(long_side=320)
    assert (plain.long_side, plain.threshold) == (320, 0.2)
    assert CardDetector(long_side=640, threshold=0.5).threshold == 0.5
    with pytest.raises(ValueError, match="input size 40 px is too small"):
        CardDetector(long_side=40)
    with pytest.raises(ValueError, match="threshold 1.2 is not between 0 and 1"):
        CardDetector(threshold=1.2)
    assert detector.nms_iou == 0.85  # experiment 16, rule K
    assert CardDetector(nms_iou=0.8).nms_iou == 0.8
    with pytest.raises(ValueError, match="NMS IoU 0.0 is not in"):
        CardDetector(nms_iou=0.0)
    # the zoom-out pass (experiment 39)
    assert (detector.zoom_side, detector.zoom_width, detector.zoom_threshold) == (160, 0.5, 0.5)
    assert CardDetector(zoom_side=0).zoom_side == 0
    with pytest.raises(ValueError, match="zoom-out size 40 px is too small"):
        CardDetector(zoom_side=40)


def _passes(detector: CardDetector, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The input sizes of the detector's model runs (recorded as their inputs are made)."""
    sizes: list[int] = []
    prepare = detector.prepare

    def counted(image: np.ndarray, long_side: int | None = None):  # type: ignore[no-untyped-def]
        sizes.append(long_side or detector.long_side)
        return prepare(image, long_side)

    monkeypatch.setattr(detector, "prepare", counted)
    return sizes


@pytest.fixture(scope="module")
def fine_detector() -> CardDetector:
    return CardDetector(long_side=576)


def test_wide_and_narrow_cards_in_one_photo(fine_detector: CardDetector,
                                            monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """With a fine pass at 576 px, a card wider than the model was trained for (384 px of a
    1280 px photo: 173 px at 576) comes from the coarse pass at 320, whole and once, and no
    piece of it from the fine pass; the narrow cards come from the fine pass."""
    detector = fine_detector
    img = _table(960, 1280)
    truth = [
        _lay(img, _face("AS"), (380, 480), 8, 384),
        _lay(img, _face("7H"), (900, 250), -20, 115),
        _lay(img, _face("QC"), (1050, 700), 40, 115),
    ]
    sizes = _passes(detector, monkeypatch)
    found = detector.detect(img)
    assert sizes == [576, 320, 160]  # and the zoom-out pass, which adds nothing here
    assert len(found) == 3
    for quad in truth:
        assert max(_iou(quad, f.corners) for f in found) >= 0.8
    cards = read_cards(img, Recognizer(), deck=Deck.FRENCH_52, detector=detector)
    assert sorted(c.card.code for c in cards) == ["7H", "AS", "QC"]


def test_one_pass_at_the_training_size(monkeypatch: pytest.MonkeyPatch) -> None:
    detector = CardDetector(long_side=320)
    img = _table(960, 1280)
    quad = _lay(img, _face("KH"), (300, 320), 10, 190)
    sizes = _passes(detector, monkeypatch)
    (card,) = detector.detect(img)
    assert sizes == [320, 160]
    assert _iou(quad, card.corners) >= 0.8
    alone = CardDetector(long_side=320, zoom_side=0)
    sizes = _passes(alone, monkeypatch)
    (card,) = alone.detect(img)
    assert sizes == [320]


def test_the_default_passes(detector: CardDetector, monkeypatch: pytest.MonkeyPatch) -> None:
    """The shipped default: a pass at 384, one at 320 and the zoom-out pass at 160; a card
    190 px wide in a 1280 px photo (57 px at 384, under 144) comes from the pass at 384, once."""
    img = _table(960, 1280)
    quad = _lay(img, _face("KH"), (300, 320), 10, 190)
    sizes = _passes(detector, monkeypatch)
    (card,) = detector.detect(img)
    assert sizes == [384, 320, 160]
    assert _iou(quad, card.corners) >= 0.8


def test_decode_a_single_peak(detector: CardDetector) -> None:
    """An exact output map: one peak -> one rotated card in photo pixels."""
    box = letterbox_geometry(960, 1280, detector.long_side)
    oh, ow = box.input_h // detector.stride, box.input_w // detector.stride
    out = np.zeros((7, oh, ow), np.float32)
    i, j = 20, 30
    out[0, i, j] = 0.9
    out[0, i, j + 1] = 0.5  # a neighbour, not a peak, seeing the same card
    truth = [0.25, -0.5, np.log(70 / 32), np.log(50 / 32), np.cos(np.pi / 3), np.sin(np.pi / 3)]
    out[1:, i, j] = truth
    out[1:, i, j + 1] = truth
    out[1, i, j + 1] -= 1.0  # the same centre seen from one cell to the right
    (card,) = detector.decode(out, box)
    s = detector.stride
    x, y = j * s + (s - 1) / 2 + 0.25 * s, i * s + (s - 1) / 2 - 0.5 * s  # input pixels
    expected = order_corners(rotated_corners(x, y, 70, 50, np.pi / 6) / box.scale)
    cx, cy = x / box.scale, y / box.scale
    assert isinstance(card, DetectedCard) and card.score == pytest.approx(0.9)
    assert np.allclose(card.corners, expected, atol=1e-3)
    assert np.allclose(card.center, (cx, cy), atol=1e-3)
    out[0, i, j] = 0.1  # under the threshold
    out[0, i, j + 1] = 0.2
    assert detector.decode(out, box) == []


def test_decode_keeps_the_middle_card_of_a_tight_pile(detector: CardDetector) -> None:
    """Two peaks whose cards overlap by quad IoU 0.82 (one card slid 7 px along its long side
    over another, as in a pile): two cards at the shipped duplicate test (0.85, experiment 16),
    one at the earlier 0.8."""
    box = letterbox_geometry(960, 1280, detector.long_side)
    oh, ow = box.input_h // detector.stride, box.input_w // detector.stride
    out = np.zeros((7, oh, ow), np.float32)
    card = [np.log(70 / 32), np.log(50 / 32), 1.0, 0.0]  # 70 x 50 input px, long side across
    out[0, 20, 30], out[1:, 20, 30] = 0.9, [0.0, 0.0, *card]
    out[0, 20, 32], out[1:, 20, 32] = 0.6, [-0.25, 0.0, *card]  # 7 input px to the right
    top, under = detector.decode(out, box)
    assert (top.score, under.score) == pytest.approx((0.9, 0.6))
    assert 0.8 < _iou(top.corners, under.corners) < 0.85
    assert _scores(CardDetector(nms_iou=0.8).decode(out, box)) == pytest.approx([0.9])


def test_decode_the_visible_part(detector: CardDetector) -> None:
    """A model with the visible-part channels: the box that shows, in photo pixels, cut to the
    card and to the photo; a model without them (7 channels) gives none."""
    box = letterbox_geometry(960, 1280, detector.long_side)
    oh, ow = box.input_h // detector.stride, box.input_w // detector.stride
    out = np.zeros((11, oh, ow), np.float32)
    i, j = 20, 30
    out[0, i, j] = 0.9
    # an upright card 50 x 70 input px whose right half is covered, and whose top reaches
    # past the photo's top edge in the prediction
    out[1:7, i, j] = [0.0, 0.0, np.log(70 / 32), np.log(50 / 32), -1.0, 0.0]
    out[7:, i, j] = [25 / 70, 2.0, 0.0, 35 / 70]
    s = detector.stride
    x, y = j * s + (s - 1) / 2, i * s + (s - 1) / 2
    (card,) = detector.decode(out, box)
    assert card.visible is not None
    x0, y0, x1, y1 = card.visible
    whole = card.corners
    assert (x0, x1, y1) == pytest.approx(((x - 25) / box.scale, x / box.scale,
                                          (y + 35) / box.scale), abs=1e-3)  # fmt: skip
    assert y0 == pytest.approx(float(whole[:, 1].min()), abs=1e-3)  # cut to the card
    (old,) = detector.decode(out[:7], box)
    assert old.visible is None and np.allclose(old.corners, card.corners)
    out[7:, i, j] = [-0.6, 0.5, -0.6, 0.5]  # an empty box: nothing said about the part shown
    assert detector.decode(out, box)[0].visible is None


def test_both_finders_count_each_card_once(detector: CardDetector) -> None:
    """The detector completed by the classical finder: cards both of them find are read once,
    and a card only the classical finder proposes is added."""
    from vision.pipeline import find_in_still

    img = _table(960, 1280)
    truth = [
        _lay(img, _face("KH"), (300, 320), 10, 190),
        _lay(img, _face("7S"), (700, 600), -35, 200),
    ]
    learned = detector.detect(img)
    both = find_in_still(img, detector=detector, also_classic=True, refine=False)
    assert len(learned) == 2
    assert len(both) >= 2
    assert all(np.allclose(a.corners, b.corners) for a, b in zip(both, learned, strict=False))
    for extra in both[2:]:  # anything the classical finder adds overlaps no detection
        assert all(_iou(extra.corners, f.corners) < 0.5 for f in learned)
    cards = read_cards(img, Recognizer(), deck=Deck.FRENCH_52, detector=detector, also_classic=True)
    assert sorted(c.card.code for c in cards) == ["7S", "KH"]
    assert all(max(_iou(q, np.array(c.corners, np.float32)) for q in truth) >= 0.7 for c in cards)


def test_refined_quads_lie_on_the_cards(detector: CardDetector) -> None:
    """Moved onto the cards' edges (``vision.refine``), the detector's quads fit the cards
    better: here each reaches IoU 0.95 with its card."""
    from vision.pipeline import find_in_still

    img = _table(960, 1280)
    truth = [
        _lay(img, _face("KH"), (300, 320), 10, 190),
        _lay(img, _face("7S"), (700, 600), -35, 200),
    ]
    plain = find_in_still(img, detector=detector, refine=False)
    refined = find_in_still(img, detector=detector)
    assert len(plain) == len(refined) == 2
    for before, after in zip(plain, refined, strict=True):
        fit_before = max(_iou(q, before.corners) for q in truth)
        fit_after = max(_iou(q, after.corners) for q in truth)
        assert fit_after >= 0.95 and fit_after >= fit_before, (fit_before, fit_after)


def test_decode_a_card_whose_centre_is_out_of_the_photo() -> None:
    """A peak on the strip of a card that shows at the photo's left edge: the card is kept with
    its centre out of the photo; a peak in the padding (below the photo) is not."""
    detector = CardDetector(long_side=320)  # 960 x 1280 at 320 is padded at the bottom
    box = letterbox_geometry(960, 1280, detector.long_side)
    oh, ow = box.input_h // detector.stride, box.input_w // detector.stride
    out = np.zeros((7, oh, ow), np.float32)
    out[0, 20, 1] = 0.9
    out[1:, 20, 1] = [-6.0, 0.0, np.log(70 / 32), np.log(50 / 32), -1.0, 0.0]  # centre 24 px left
    (card,) = detector.decode(out, box)
    s = detector.stride
    assert card.center[0] == pytest.approx((s + (s - 1) / 2 - 6 * s) / box.scale, abs=1e-3)
    assert card.center[0] < 0
    pad_row = int(np.ceil(box.height / s))  # the first row wholly in the padding (below)
    assert pad_row < oh, "this geometry must have padding at the bottom"
    out[0, 20, 1] = 0.0
    out[0, pad_row, 30] = 0.9
    out[1:, pad_row, 30] = [0.0, -6.0, np.log(70 / 32), np.log(50 / 32), -1.0, 0.0]
    assert detector.decode(out, box) == []


def _rect(x0: float, y0: float, x1: float, y1: float, score: float) -> DetectedCard:
    corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    return DetectedCard(corners, score)


def _scores(cards: list[DetectedCard]) -> list[float]:
    return [c.score for c in cards]


def test_the_two_passes_merge_best_score_first() -> None:
    """A fine-pass card inside a wide one is a piece of it only when the wide card scored
    higher; a weak wide detection no longer swallows a sure card (experiment 15, rule I)."""
    sure_small = _rect(100, 100, 160, 190, 0.9)  # 60 px wide, inside the wide ones below
    weak_wide = _rect(80, 80, 300, 400, 0.25)
    assert _scores(merge_passes([weak_wide], [sure_small], 0.8)) == [0.9, 0.25]
    strong_wide = _rect(80, 80, 300, 400, 0.95)
    assert _scores(merge_passes([strong_wide], [sure_small], 0.8)) == [0.95]
    # overlapping cards of either pass: the better one stays, in score order
    twin = _rect(102, 101, 161, 191, 0.5)
    other = _rect(500, 100, 560, 190, 0.3)
    assert _scores(merge_passes([], [other, twin, sure_small], 0.8)) == [0.9, 0.3]


def _close_card(code: str = "9D") -> tuple[np.ndarray, np.ndarray]:
    """A 640 x 480 photo of one card close to the camera, turned a little: its short side 80 %
    of the photo's (the model learnt at most about 60 %), a corner out of the photo."""
    img = _table(480, 640, (120, 150, 170))
    quad = _lay(img, _face(code), (330, 250), 12, 384)
    return img, quad


def test_a_card_too_close_for_the_other_passes_is_found_by_the_zoom_out_pass(
    detector: CardDetector,
) -> None:
    img, quad = _close_card()
    without = CardDetector(zoom_side=0).detect(img)
    assert all(_iou(quad, f.corners) < 0.5 for f in without)  # pieces of it, or nothing
    found = detector.detect(img)
    assert max(_iou(quad, f.corners) for f in found) >= 0.8
    (card,) = [c for c in read_cards(img, Recognizer(), deck=Deck.FRENCH_52, detector=detector)
               if c.confidence >= 0.5]  # fmt: skip
    assert card.card.code == "9D"


def test_a_zoom_out_card_is_one_card_not_a_hand(detector: CardDetector) -> None:
    """A zoom-out card is kept when it is wide (over half the photo's short side), sure (over
    0.5) and holds no card of the other passes but pieces of it (under a tenth of its area);
    over a hand whose cards the finer passes found surer, it is not one card. Since experiment
    49 it is kept also over cards all weaker than it, and those are its pieces, dropped."""
    image = np.zeros((480, 640, 3), np.uint8)
    big = _rect(100, 40, 400, 460, 0.8)  # 300 px wide: over 240
    index = _rect(110, 50, 150, 110, 0.6)  # 40 x 60: 2 % of its area
    hand = [_rect(110, 60, 250, 260, 0.9), _rect(230, 80, 370, 280, 0.85)]  # 22 % each
    kept, pieces = detector._zoomed_out(image, [big], [index])
    assert (_scores(kept), pieces) == ([0.8], [])
    assert detector._zoomed_out(image, [big], hand) == ([], [])
    assert detector._zoomed_out(image, [_rect(100, 40, 400, 460, 0.45)], []) == ([], [])  # unsure
    assert detector._zoomed_out(image, [_rect(100, 40, 300, 460, 0.8)], []) == ([], [])  # narrow
    # partial quads of the card itself, weaker than it: its pieces (experiment 49)
    partial = [_rect(110, 60, 250, 260, 0.35), _rect(150, 50, 390, 400, 0.25)]
    kept, pieces = detector._zoomed_out(image, [big], partial)
    assert (_scores(kept), pieces) == ([0.8], partial)
    one_surer = [*partial, _rect(230, 80, 370, 280, 0.85)]
    assert detector._zoomed_out(image, [big], one_surer) == ([], [])
    plain = CardDetector(zoom_over_weaker=False)  # as before experiment 49
    assert detector.zoom_over_weaker and not plain.zoom_over_weaker
    assert plain._zoomed_out(image, [big], partial) == ([], [])


def test_a_photo_known_to_be_one_card_gets_every_peak_of_the_zoom_out_pass(
    detector: CardDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``detect_with_zoom``: the cards ``detect`` gives, and the zoom-out pass's cards at the
    coarse threshold (for ``vision.pipeline.read_whole``), each pass run once."""
    img, quad = _close_card()
    sizes = _passes(detector, monkeypatch)
    cards, zoomed = detector.detect_with_zoom(img)
    assert sizes == [384, 320, 160]
    assert [c.score for c in cards] == [c.score for c in detector.detect(img)]
    assert all(c.score > detector.coarse_threshold for c in zoomed)
    assert max(_iou(quad, c.corners) for c in zoomed) >= 0.8
