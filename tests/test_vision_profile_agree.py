"""Deck profiles, experiment 11: centred closeness (``DeckProfile.centre``) and the tracker's
rule that a complete profile's nearest card must agree with the card read
(``TrackerConfig.profile_must_agree``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from referee.cards import Card, Deck
from vision.card_faces import design_for_seed, render_face
from vision.deck_profile import TAU, DeckProfile
from vision.events import CardSeen, ConfirmationRequested
from vision.recognizer import DEFAULT_MODEL, INPUT_H, INPUT_W, Prediction, Recognizer
from vision.synthetic import SyntheticTable
from vision.tracker import CardTracker, TrackerConfig, _Track


def _unit(v: np.ndarray) -> np.ndarray:
    return (v / np.linalg.norm(v)).astype(np.float32)


def _twins(centre: bool) -> DeckProfile:
    """KC and KS share a large common part (3 e0) and differ in a small one (e1 / e2)."""
    e = np.eye(4, dtype=np.float32)
    profile = DeckProfile(Deck.PIQUET_32, centre=centre)
    profile.add("french:KC", 3 * e[0] + e[1])
    profile.add("french:KS", 3 * e[0] + e[2])
    return profile


def test_centring_separates_twins_exactly() -> None:
    labels = ["french:KC", "french:KS"]
    crop = (3 * np.eye(4)[0] + np.eye(4)[1])[None]  # KC's reference itself
    # uncentred: cosine 1 with KC and 9 / 10 with KS
    z = np.exp(np.array([0.0, 0.9 - 1.0]) / TAU)
    assert _twins(False).closeness(crop, labels)[0] == pytest.approx(z / z.sum(), rel=1e-5)
    # centred: the mean (3 e0 + e1 / 2 + e2 / 2) / sqrt(10) drops out; what is left of the crop
    # and of KC points along e1 - e2, of KS along e2 - e1: cosines 1 and -1
    z = np.exp(np.array([0.0, -2.0]) / TAU)
    near = _twins(True).closeness(crop, labels)[0]
    assert near == pytest.approx(z / z.sum(), rel=1e-4)
    assert near[1] < 1e-15


def test_weigh_names_the_nearest_card() -> None:
    profile = _twins(True)
    labels = ["french:KC", "french:KS", "none"]
    probs = np.array([[0.2, 0.7, 0.1], [0.0, 0.0, 1.0]], np.float32)  # the classifier: KS, none
    crops = np.stack([3 * np.eye(4)[0] + np.eye(4)[1]] * 2)  # both nearest KC
    fused, nearest = profile.weigh(probs, labels, crops)
    assert nearest == ["french:KC", "french:KC"]
    assert fused == pytest.approx(profile.fuse(probs, labels, crops))
    assert fused[1, 2] == pytest.approx(1.0)  # "none" keeps the classifier's share
    assert profile.weigh(probs[:, 2:], ["none"], crops) == (pytest.approx(probs[:, 2:]),
                                                            [None, None])  # fmt: skip


def test_centre_is_saved_and_old_files_read_as_before(tmp_path: Path) -> None:
    path = tmp_path / "deck.npz"
    _twins(True).save(path)
    assert DeckProfile.load(path).centre is True
    _twins(False).save(path)
    assert DeckProfile.load(path).centre is False
    with np.load(path) as data:  # a file of experiment 10: no "centre"
        old = {k: data[k] for k in data.files if k != "centre"}
    np.savez(path, **old)  # type: ignore[arg-type]
    again = DeckProfile.load(path)
    assert again.centre is False
    assert sorted(again.references) == ["french:KC", "french:KS"]


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    if not DEFAULT_MODEL.exists():
        pytest.skip("no trained model")
    return Recognizer()


def _complete() -> DeckProfile:
    profile = DeckProfile(Deck.PIQUET_32)
    for k, label in enumerate(profile.labels):
        profile.add(label, np.eye(32, dtype=np.float32)[k])
    return profile


def _commit(recognizer: Recognizer, profile: DeckProfile | None, must_agree: bool,
            nearest: str | None) -> CardSeen | ConfirmationRequested | None:  # fmt: skip
    table = SyntheticTable([], n_seats=4, deck=Deck.PIQUET_32)
    tracker = CardTracker(recognizer, table.calibration, deck=Deck.PIQUET_32, profile=profile,
                          config=TrackerConfig(profile_must_agree=must_agree))  # fmt: skip
    reading = Prediction("french:KC", 0.95, (("french:KS", 0.05),), None, nearest)
    quad = np.array([[0, 0], [63, 0], [63, 88], [0, 88]], np.float32)
    track = _Track(center=np.zeros(2, np.float32), seat=2, corners=quad,
                   readings=[reading] * 3)  # fmt: skip
    return tracker._maybe_commit(track)  # noqa: SLF001


def test_a_disagreeing_profile_makes_the_tracker_ask(recognizer: Recognizer) -> None:
    asked = _commit(recognizer, _complete(), True, "french:KS")
    assert isinstance(asked, ConfirmationRequested)
    assert asked.candidates == (Card.parse("KC"), Card.parse("KS"))
    assert asked.confidences == (0.95, 0.05) and asked.seat == 2
    assert asked.profile_card == Card.parse("KS")  # why it asks
    # a profile's card the readings did not rank is offered too
    other = _commit(recognizer, _complete(), True, "french:QH")
    assert isinstance(other, ConfirmationRequested) and other.profile_card == Card.parse("QH")
    assert other.candidates == (Card.parse("KC"), Card.parse("KS"), Card.parse("QH"))
    assert other.confidences == (0.95, 0.05, 0.0)
    # the same readings are committed when the profile agrees, when the rule is off, and
    # when the profile is incomplete (its nearest card may be any enrolled one)
    partial = _complete()
    partial.forget_card("french:AS")
    for profile, must, nearest in ((_complete(), True, "french:KC"),
                                   (_complete(), False, "french:KS"),
                                   (partial, True, "french:KS"), (None, True, None)):  # fmt: skip
        seen = _commit(recognizer, profile, must, nearest)
        assert isinstance(seen, CardSeen) and seen.card == Card.parse("KC")
        assert seen.confidence == pytest.approx(0.95)


def test_predict_reports_the_nearest_card(recognizer: Recognizer) -> None:
    design = design_for_seed("french", 0)
    profile = DeckProfile(Deck.PIQUET_32, centre=True)
    faces = {label: render_face(label, design, (INPUT_H, INPUT_W)) for label in profile.labels}
    for label, face in faces.items():
        profile.add(label, recognizer.embed([face])[0])
    crops = [faces["french:QS"], faces["french:7H"]]
    read = recognizer.predict(crops, Deck.PIQUET_32, profile=profile)
    assert [(p.label, p.nearest) for p in read] == [("french:QS", "french:QS"),
                                                    ("french:7H", "french:7H")]  # fmt: skip
    assert [p.nearest for p in recognizer.predict(crops, Deck.PIQUET_32)] == [None, None]
