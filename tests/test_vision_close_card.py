"""A card close to the camera, on a real photo: found whole by the detector's zoom-out pass,
not as the finer passes' weak partial quads of it read as other cards (experiment 49).

gold-deck-0046 is a photo of the corner-boxes gold-deck tune part (kept out of training): one
black king of clubs of the gold deck, a good third of the photo wide.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from referee.cards import Deck
from training.real_finder_crops import CORNERS
from vision.detector import CardDetector
from vision.pipeline import read_cards
from vision.recognizer import photo_recognizer

PHOTO = CORNERS / "gold-deck" / "images" / "gold-deck-0046.jpg"

pytestmark = pytest.mark.skipif(not PHOTO.is_file(), reason=f"needs {PHOTO} (shared data)")


def test_a_card_close_to_the_camera_is_one_card_not_its_weak_pieces() -> None:
    image = cv2.imread(str(PHOTO))
    recognizer = photo_recognizer()
    before = read_cards(image, recognizer, deck=Deck.FRENCH_53,
                        detector=CardDetector(zoom_over_weaker=False))  # fmt: skip
    codes = [c.card.code for c in before]
    assert len(codes) >= 4 and "KC" not in codes  # partial quads, read KS or JC at 0.2-0.5
    assert all(c.confidence < 0.85 for c in before)
    (card,) = read_cards(image, recognizer, deck=Deck.FRENCH_53, detector=CardDetector())
    assert (card.card.code, card.found_by) == ("KC", "finder")
    assert card.confidence > max(c.confidence for c in before)
    _, sides, _ = cv2.minAreaRect(np.asarray(card.corners, np.float32))
    assert min(sides) > 0.45 * min(image.shape[:2])  # the whole card, not a piece of it
