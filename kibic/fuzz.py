"""Fuzzing ``kibic referee replay``: the CLI run in-process on mutated transcripts, its output
captured as a terminal would take it (UTF-8, strict on stdout), each run classed by exit code,
and any exception that escapes the CLI kept as a traceback. Shared by the fuzz test and
``benchmarks/bench_fuzz.py``."""

from __future__ import annotations

import contextlib
import io
import json
import random
import traceback
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kibic.cli import main
from referee.transcript_mutations import mutate


@dataclass
class Outcome:
    """One run: the exit code (None when an exception escaped) and what it printed."""

    code: int | None
    stderr: str
    trace: str | None = None

    @property
    def crashed(self) -> bool:
        """An escaped exception, or a traceback printed: what a user must never see."""
        return self.trace is not None or "Traceback" in self.stderr or self.code not in (0, 2)


def replay_outcome(text: bytes, path: Path, *, as_json: bool = False) -> Outcome:
    """Write ``text`` to ``path`` and run ``kibic referee replay`` on it in this process."""
    path.write_bytes(text)
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
    err = io.StringIO()
    argv = ["referee", "replay", str(path), *(["--json"] if as_json else [])]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
            out.flush()
    except SystemExit as exc:  # argparse; not expected with a fixed argv
        return Outcome(exc.code if isinstance(exc.code, int) else 1, err.getvalue())
    except Exception:  # noqa: BLE001 - the point is to catch what escapes
        return Outcome(None, err.getvalue(), traceback.format_exc())
    return Outcome(code, err.getvalue())


@dataclass
class FuzzReport:
    tried: int = 0
    exits: Counter[str] = field(default_factory=Counter)
    crashes: list[tuple[str, int, bytes, str]] = field(default_factory=list)

    @property
    def tracebacks(self) -> int:
        return len(self.crashes)


def fuzz(transcripts: Mapping[str, Any], *, mutations: int, seed: int, workdir: Path) -> FuzzReport:
    """Run ``mutations`` seeded mutations spread over ``transcripts`` (name -> parsed JSON)."""
    report = FuzzReport()
    names = sorted(transcripts)
    path = workdir / "mutated.json"
    for i in range(mutations):
        name = names[i % len(names)]
        rng = random.Random(f"{seed}:{i}")
        text = mutate(transcripts[name], rng)
        outcome = replay_outcome(text, path, as_json=rng.random() < 0.5)
        report.tried += 1
        report.exits["traceback" if outcome.code is None else str(outcome.code)] += 1
        if outcome.crashed:
            report.crashes.append((name, i, text, outcome.trace or outcome.stderr))
    return report


def load_transcripts(folder: Path) -> dict[str, Any]:
    return {
        p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))
    }
