"""Card finding on generated frames: exactly the cards laid, at the right places."""

from __future__ import annotations

import cv2
import numpy as np

from referee.cards import Deck
from vision.card_faces import design_for_seed, render_face
from vision.finder import find_cards, order_corners, warp_card
from vision.recognizer import INPUT_H, INPUT_W
from vision.synthetic import SyntheticTable, random_plays


def test_order_corners_starts_on_a_short_side_clockwise() -> None:
    landscape = np.array([[10, 10], [110, 10], [110, 80], [10, 80]], np.float32)
    ordered = order_corners(landscape[[2, 0, 3, 1]])
    assert np.linalg.norm(ordered[1] - ordered[0]) < np.linalg.norm(ordered[2] - ordered[1])
    # clockwise on screen: the signed area (y down) is positive
    x, y = ordered[:, 0], ordered[:, 1]
    assert 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) > 0


def test_finds_each_laid_card_at_its_place() -> None:
    table = SyntheticTable(random_plays(Deck.PIQUET_32, 4, seed=2, count=4), n_seats=4,
                           deck=Deck.PIQUET_32, seed=2, fast=True)  # fmt: skip
    frame = table.render(table.placements[3].settled_frame)
    found = find_cards(frame)
    assert len(found) == 4
    truth = table.calibration.to_image(np.array([p.center for p in table.placements], np.float32))
    for center in truth:
        nearest = min(np.hypot(*(np.array(f.center) - center)) for f in found)
        assert nearest < 3.0


def test_nothing_found_on_an_empty_mat() -> None:
    table = SyntheticTable(random_plays(Deck.PIQUET_32, 4, seed=1, count=1), n_seats=4,
                           deck=Deck.PIQUET_32, seed=1, fast=True)  # fmt: skip
    assert find_cards(table.render(0)) == []


def test_warp_recovers_an_upright_face() -> None:
    face = render_face("french:KH", design_for_seed("french", 0))
    canvas = np.full((400, 400, 3), (40, 90, 30), np.uint8)
    matrix = cv2.getRotationMatrix2D((75, 105), 0, 1.0)
    matrix[:, 2] += (120, 90)
    cv2.warpAffine(face, matrix, (400, 400), dst=canvas, borderMode=cv2.BORDER_TRANSPARENT)
    rotated = cv2.rotate(canvas, cv2.ROTATE_90_CLOCKWISE)  # a landscape card
    (card,) = find_cards(rotated)
    crop = warp_card(rotated, card.corners)
    assert crop.shape == (INPUT_H, INPUT_W, 3)
    expected = cv2.resize(face, (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA)
    diffs = [
        np.abs(c.astype(int) - expected.astype(int)).mean()
        for c in (crop, cv2.rotate(crop, cv2.ROTATE_180))
    ]
    assert min(diffs) < 20


def test_warp_fills_the_part_outside_the_frame_black_or_with_the_edge() -> None:
    # a card whose left third lies outside a grey frame with a light strip along its edge
    frame = np.full((300, 300, 3), 90, np.uint8)
    frame[:, :4] = 200
    corners = np.array([[-50, 20], [100, 20], [100, 230], [-50, 230]], np.float32)
    third = INPUT_W // 3 - 2  # crop columns that map outside the frame
    black = warp_card(frame, corners)
    assert black[:, :third].max() == 0
    assert black[:, INPUT_W // 2 :].min() == 90
    edge = warp_card(frame, corners, repeat_edge=True)
    assert (edge[:, :third] == 200).all()  # the frame's edge column, repeated
    assert (edge[:, INPUT_W // 2 :] == 90).all()


def _lay(canvas: np.ndarray, face: np.ndarray, center: tuple[float, float], angle: float,
         width: float) -> tuple[float, float, float, float]:  # fmt: skip
    """Draw ``face`` rotated on ``canvas`` with a dark outline; its bounding box."""
    h, w = face.shape[:2]
    scale = width / w
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, scale)
    matrix[:, 2] += np.array(center) - (w / 2, h / 2)
    corners = cv2.transform(np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float32), matrix)[0]
    cv2.warpAffine(face, matrix, canvas.shape[1::-1], dst=canvas,
                   borderMode=cv2.BORDER_TRANSPARENT)  # fmt: skip
    cv2.polylines(canvas, [corners.round().astype(np.int32)], True, (60, 60, 60), 2)
    x0, y0 = corners.min(axis=0)
    x1, y1 = corners.max(axis=0)
    return float(x0), float(y0), float(x1), float(y1)


def _found(box: tuple[float, float, float, float], frame: np.ndarray) -> bool:
    from vision.evaluate import iou
    from vision.finder import STILL_IMAGE

    return any(iou(box, f.bbox()) >= 0.5 for f in find_cards(frame, STILL_IMAGE))


def test_still_images_complete_cards_covered_in_a_row() -> None:
    design = design_for_seed("french", 4)
    canvas = np.full((600, 800, 3), (40, 90, 30), np.uint8)
    boxes = [
        _lay(canvas, render_face(label, design), (250 + 70 * i, 300), 10, 150)
        for i, label in enumerate(("french:9H", "french:KS", "french:AD", "french:TC"))
    ]  # the finder for the table (not completing covered cards) finds only the top one
    for box in boxes:
        assert _found(box, canvas)


def test_still_images_find_cards_on_a_light_table() -> None:
    design = design_for_seed("french", 6)
    canvas = np.full((600, 800, 3), (175, 200, 215), np.uint8)  # a light wooden table
    box = _lay(canvas, render_face("french:QC", design), (400, 300), 25, 160)
    assert _found(box, canvas)
