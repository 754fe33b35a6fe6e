"""Fuzz ``kibic referee replay`` with seeded mutations of every transcript in
``tests/transcripts``: whatever the damage, the CLI exits 0 or 2 and prints no traceback.
Hypothesis is derandomized, so every run tries the same mutations (the larger run is
``benchmarks/bench_fuzz.py``)."""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kibic.fuzz import load_transcripts, replay_outcome
from referee.transcript_mutations import mutate

TRANSCRIPTS = load_transcripts(Path(__file__).parent / "transcripts")
PER_TRANSCRIPT = 200  # x 13 transcripts: 2,600 mutations, about 20 s of CPU


@pytest.mark.parametrize("name", sorted(TRANSCRIPTS))
def test_no_mutation_of_a_transcript_reaches_a_traceback(name: str) -> None:
    with tempfile.TemporaryDirectory() as workdir:
        path = Path(workdir) / name
        codes: set[int | None] = set()

        @settings(
            max_examples=PER_TRANSCRIPT,
            derandomize=True,
            database=None,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(rng=st.randoms(use_true_random=False), as_json=st.booleans())
        def run(rng: random.Random, as_json: bool) -> None:
            outcome = replay_outcome(mutate(TRANSCRIPTS[name], rng), path, as_json=as_json)
            assert not outcome.crashed, outcome.trace or outcome.stderr
            codes.add(outcome.code)

        run()
        assert 2 in codes  # the mutations did break the transcript (and were refused)


def test_the_original_transcripts_replay_cleanly() -> None:
    with tempfile.TemporaryDirectory() as workdir:
        for name, data in TRANSCRIPTS.items():
            outcome = replay_outcome(json.dumps(data).encode(), Path(workdir) / name)
            assert (outcome.code, outcome.stderr) == (0, ""), name
