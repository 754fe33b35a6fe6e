"""Nothing in the project cites a working period ("session 13"): experiments have numbers
(models/MODEL_HISTORY.md), and code, docs and metadata cite those or the model card's sections."""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_repository_paths import matches_in_committed_files

# "session 13", "Sessions 17 to 19", "session-16", also across a line break or a comment's "#";
# a web session's status ("an expired session 401") is not one
WORKING_PERIOD = re.compile(r"\b[Ss]essions?(?:[ -]|\s*\n\s*(?:#\s*)?)\d{1,2}\b")


def test_the_pattern_finds_working_periods_and_leaves_the_rest() -> None:
    assert WORKING_PERIOD.search("the gate (MODEL_HISTORY.md, session 13)")
    assert WORKING_PERIOD.search("## Sessions 17 to 19: the evaluation")
    assert WORKING_PERIOD.search("the session-16 duplicate test")
    assert WORKING_PERIOD.search("it chose the gate, MODEL_HISTORY.md session\n    # 13): a nine")
    assert not WORKING_PERIOD.search("an ended or expired session 401")
    assert not WORKING_PERIOD.search("one onnxruntime session on 2 threads")
    assert not WORKING_PERIOD.search("the gate (MODEL_HISTORY.md, experiment 13)")


def test_no_committed_file_cites_a_working_period() -> None:
    found = matches_in_committed_files(WORKING_PERIOD, besides=Path(__file__))
    assert not found, "\n".join(found)
