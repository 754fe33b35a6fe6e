"""Committed files name no folder of a developer's machine: paths are relative to the repository
(the real photos are ``../shared/data/...``), so that a fresh clone reads the same anywhere."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# an absolute path under a home or work folder, or a scratch folder of a past experiment
# (/tmp/s13/...); "{tmp}/root/..." in code is a path inside a temporary folder, not one of these
MACHINE_PATH = re.compile(r"(?<![\w}.$/-])/(?:work|root|home|Users)/|/tmp/s\d+/")


def committed_text_files() -> list[Path]:
    names = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    return [ROOT / n.decode() for n in names if n and not n.endswith((b".onnx", b".npz"))]


def test_the_pattern_finds_machine_paths_and_leaves_relative_ones() -> None:
    assert MACHINE_PATH.search("kibic vision eval /work/shared/data/real-photos/x")
    assert MACHINE_PATH.search("written before (`/tmp/s22/decision.md`)")
    assert MACHINE_PATH.search("see /home/dule/kibic")
    assert not MACHINE_PATH.search("kibic vision eval ../shared/data/real-photos/x")
    assert not MACHINE_PATH.search('glob.glob(f"{tmp}/root/usr/share/aisleriot")')
    assert not MACHINE_PATH.search("--out /tmp/deck.npz")


def matches_in_committed_files(pattern: re.Pattern[str], *, besides: Path) -> list[str]:
    """``path:line: text`` of each match of ``pattern`` in the committed text files (a match
    may run over a line break), ``besides`` (the test that holds the pattern) left out."""
    files = committed_text_files()
    assert len(files) > 100
    found = []
    for path in files:
        if path == besides.resolve() or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # a binary file
        for match in pattern.finditer(text):
            number = text.count("\n", 0, match.start()) + 1
            line = text.splitlines()[number - 1].strip()
            found.append(f"{path.relative_to(ROOT)}:{number}: {line[:120]}")
    return found


def test_no_committed_file_names_a_path_of_a_developers_machine() -> None:
    found = matches_in_committed_files(MACHINE_PATH, besides=Path(__file__))
    assert not found, "\n".join(found)
