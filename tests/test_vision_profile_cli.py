"""``kibic vision profile``: what a deck profile holds, and forgetting a card in it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from kibic.cli import main
from referee.cards import Deck
from vision.deck_profile import DeckProfile


def _profile(path: Path) -> None:
    profile = DeckProfile(Deck.PIQUET_32)
    for k, label in enumerate(profile.labels):
        if label not in ("french:KH", "french:AH"):  # two cards not shown yet
            profile.add(label, np.eye(40)[k])
    profile.add("french:KS", np.eye(40)[35], "req-1")
    profile.add("french:KS", np.eye(40)[36], "req-1")
    profile.add("french:7C", np.eye(40)[37], "req-2")
    profile.save(path)


def test_show_a_profile(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deck.npz"
    _profile(path)
    assert main(["vision", "profile", str(path)]) == 0
    text = capsys.readouterr().out
    assert f"{path}: a profile of the piquet-32 deck; 30 of 32 cards have references, " \
           "3 learnt at the table" in text  # fmt: skip
    assert "  KS   3 (2 learnt)\n" in text and "  8C   1\n" in text
    assert "no references: KH AH" in text
    assert main(["vision", "profile", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["enrolled"], doc["of"], doc["learnt"], doc["missing"]) == (30, 32, 3, ["KH", "AH"])
    assert doc["cards"][0] == {"card": "7C", "label": "french:7C", "references": 2, "learnt": 1}


def test_forget_cards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deck.npz"
    _profile(path)
    assert main(["vision", "profile", str(path), "--forget", "KS 7C"]) == 0
    text = capsys.readouterr().out
    assert "forgot KS: 3 references\nforgot 7C: 2 references\n" in text
    assert "28 of 32 cards have references, 0 learnt" in text
    assert DeckProfile.load(path).missing == ["french:7C", "french:KH", "french:AH", "french:KS"]
    assert not (tmp_path / "deck.npz.tmp").exists()
    before = path.read_bytes()
    with pytest.raises(SystemExit, match="--forget: 2C not in the piquet-32 deck; nothing changed"):
        main(["vision", "profile", str(path), "--forget", "AS 2C"])
    with pytest.raises(SystemExit, match="--forget: unknown card 'ZZ'"):
        main(["vision", "profile", str(path), "--forget", "ZZ"])
    assert path.read_bytes() == before
    with pytest.raises(SystemExit, match="no such file"):
        main(["vision", "profile", str(tmp_path / "none.npz")])
