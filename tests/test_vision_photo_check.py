"""The still-photo check of the classifier's embedding (``vision.photo_check``, experiment 71)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision.labels import NONE_LABEL
from vision.photo_check import PhotoCheck, covered_shares
from vision.pipeline import checked
from vision.recognizer import Prediction


def _square(x: float, y: float, side: float = 10.0) -> np.ndarray:
    return np.array([[x, y], [x + side, y], [x + side, y + side], [x, y + side]], np.float32)


def _check(threshold: float = 0.5) -> PhotoCheck:
    # P(card) = sigmoid(4 * f0 - 2 * f1): f = (1, 0) a card (0.98), (0, 1) no card (0.12)
    return PhotoCheck(np.array([4.0, -2.0], np.float32), 0.0, threshold, "abc", isolated=0.1,
                      version="t")  # fmt: skip


def test_a_check_saved_is_loaded_the_same(tmp_path: Path) -> None:
    path = tmp_path / "check.json"
    _check().save(path)
    loaded = PhotoCheck.load(path)
    assert loaded.threshold == 0.5 and loaded.isolated == 0.1 and loaded.version == "t"
    assert loaded.model_fingerprint == "abc"
    feats = np.array([[1.0, 0.0], [0.0, 1.0]], np.float32)
    assert np.allclose(loaded.card_probability(feats), _check().card_probability(feats))
    assert np.allclose(loaded.card_probability(feats), [1 / (1 + np.exp(-4)), 1 / (1 + np.exp(2))])


def test_a_check_file_without_its_threshold_is_named(tmp_path: Path) -> None:
    path = tmp_path / "check.json"
    _check().save(path)
    data = json.loads(path.read_text())
    del data["threshold"]
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=r"check.json: no 'threshold'"):
        PhotoCheck.load(path)


def test_a_check_reads_only_its_own_classifier_and_embedding_size() -> None:
    check = _check()
    check.bind("abc")
    with pytest.raises(ValueError, match="reads the embedding of classifier abc, not of xyz"):
        check.bind("xyz")
    with pytest.raises(ValueError, match="embeddings of 2 values"):
        check.card_probability(np.zeros((1, 3), np.float32))


def test_the_share_of_a_quad_that_another_covers() -> None:
    # a and b overlap over half of each; c lies apart; d lies inside a quarter of a
    shares = covered_shares([_square(0, 0), _square(5, 0), _square(50, 50), _square(0, 0, 5)])
    assert shares[0] == pytest.approx(0.5)
    assert shares[1] == pytest.approx(0.5)
    assert shares[2] == 0.0
    assert shares[3] == pytest.approx(1.0)


def _pred(label: str, feats: list[float]) -> Prediction:
    return Prediction(label, 0.6, (("french:2C", 0.2),), np.array(feats, np.float32))


def test_only_an_isolated_region_the_check_doubts_is_no_card() -> None:
    """A region lying apart that the check scores under its threshold is read as no card, its
    reading kept first among the alternatives; the same embedding on a card in a pile (covered
    by half) is kept, and so is a region lying apart that the check takes for a card."""
    quads = [_square(0, 0), _square(100, 0), _square(105, 0), _square(200, 0)]
    preds = [_pred("french:QS", [0, 1]), _pred("french:KD", [0, 1]),
             _pred("french:3H", [0, 1]), _pred("french:AS", [1, 0])]  # fmt: skip
    out = checked(preds, quads, _check())
    assert out[0].label == NONE_LABEL
    assert out[0].confidence == pytest.approx(1 - 1 / (1 + np.exp(2)))
    assert out[0].alternatives[0] == ("french:QS", 0.6)
    assert [p.label for p in out[1:]] == ["french:KD", "french:3H", "french:AS"]
    assert all(p.features is None for p in out)


def test_a_region_read_as_no_card_is_left_as_it_is() -> None:
    none = Prediction(NONE_LABEL, 0.9, (), np.array([0, 1], np.float32))
    assert checked([none], [_square(0, 0)], _check())[0].label == NONE_LABEL


def test_the_fit_tells_two_clouds_apart_on_the_embedding_as_it_is() -> None:
    """``training.photo_check.fit_logistic`` standardises the embedding to fit and gives the
    weights back on the embedding as it is: cards around (3, 100), no cards around (0, 100)."""
    from training.photo_check import balanced, fit_logistic

    rng = np.random.default_rng(0)
    cards = rng.normal((3.0, 100.0), 0.5, size=(200, 2))
    none = rng.normal((0.0, 100.0), 0.5, size=(50, 2))
    x = np.vstack([cards, none])
    y = np.array([1.0] * 200 + [0.0] * 50)
    w, b = fit_logistic(x, y, balanced(y), l2=0.01)
    p = 1 / (1 + np.exp(-(x @ w + b)))
    assert (p[:200] > 0.5).mean() > 0.98 and (p[200:] < 0.5).mean() > 0.98
    assert abs(w[1]) < abs(w[0]) / 10  # the second value carries nothing


def test_the_still_photo_classifier_takes_only_a_check_of_its_own_embedding(
    tmp_path: Path,
) -> None:
    """``photo_recognizer(check=...)``: a check fitted on the shipped still-photo classifier's
    embedding is used; one bound to another classifier is refused by name; ``none``: no check."""
    from vision.recognizer import photo_recognizer

    plain = photo_recognizer(check="none")
    assert plain.check is None
    size = plain.embed([np.zeros((96, 64, 3), np.uint8)]).shape[1]
    own = PhotoCheck(np.zeros(size, np.float32), 0.0, 0.5, plain.fingerprint, version="own")
    own.save(tmp_path / "own.json")
    assert photo_recognizer(check=tmp_path / "own.json").check is not None
    other = PhotoCheck(np.zeros(size, np.float32), 0.0, 0.5, "abc", version="other")
    other.save(tmp_path / "other.json")
    with pytest.raises(ValueError, match="reads the embedding of classifier abc"):
        photo_recognizer(check=tmp_path / "other.json")
