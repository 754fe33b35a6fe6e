"""Golden legal-play counts (perft, depth 4) from fixed seeded deals of every game."""

import json

import pytest

from referee.perft import DEPTH, counts, golden_path, specs
from referee.registry import load_game


@pytest.mark.parametrize("spec", specs())
def test_perft_matches_golden(spec: str) -> None:
    path = golden_path(spec)
    if not path.exists():
        pytest.fail(f"no golden file for {spec}: run python -m referee.perft --write '{spec}'")
    golden = json.loads(path.read_text(encoding="utf-8"))
    assert golden["depth"] == DEPTH
    assert counts(load_game(spec)) == golden
