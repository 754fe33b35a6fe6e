"""Nothing in the project cites a working period (the word for one and its number): experiments have numbers
(models/MODEL_HISTORY.md), and code, docs and metadata cite those or the model card's sections."""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_repository_paths import matches_in_committed_files

# the word and a number of one or two digits, with a space or a hyphen between, also across a
# line break or a comment's "#"; a web session's status (a three-digit HTTP code) is not one
WORD = "session"  # the examples below are written with it, so this file cites no period itself
WORKING_PERIOD = re.compile(r"\b[Ss]essions?(?:[ -]|\s*\n\s*(?:#\s*)?)\d{1,2}\b")


def test_the_pattern_finds_working_periods_and_leaves_the_rest() -> None:
    assert WORKING_PERIOD.search(f"the gate (MODEL_HISTORY.md, {WORD} 13)")
    assert WORKING_PERIOD.search(f"## {WORD.title()}s 17 to 19: the evaluation")
    assert WORKING_PERIOD.search(f"the {WORD}-16 duplicate test")
    assert WORKING_PERIOD.search(f"it chose the gate, MODEL_HISTORY.md {WORD}\n    # 13): a nine")
    assert not WORKING_PERIOD.search(f"an ended or expired {WORD} 401")
    assert not WORKING_PERIOD.search("one onnxruntime session on 2 threads")
    assert not WORKING_PERIOD.search("the gate (MODEL_HISTORY.md, experiment 13)")


def test_no_committed_file_cites_a_working_period() -> None:
    found = matches_in_committed_files(WORKING_PERIOD, besides=Path(__file__))
    assert not found, "\n".join(found)
