"""The referee compiled to C with mypyc: an optional, faster copy of the same code.

``build``  compiles a copy of ``referee/`` into ``build/compiled-referee`` (the modules listed in
           ``INTERPRETED`` stay Python); without a C compiler or Python's headers it says so and
           leaves the referee interpreted.
``path``   prints that folder when it is built from the current sources (for ``PYTHONPATH``),
           else nothing.
``check``  plays seeded deals of every game and variant with the interpreted and the compiled
           referee, one process each, and compares every legal-action list, every event's
           ``to_dict()`` and the final snapshot, and the truth figures of deals with a rule
           broken (``referee.truth``); exits 1 if any game differs.
``digest`` prints those digests for the referee this process imports (what ``check`` runs).

Run: .venv/bin/python tools/compiled_referee.py build|path|check|digest
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "referee"
OUT = ROOT / "build" / "compiled-referee"
STAMP = OUT / "sources.sha256"
#: modules mypyc cannot compile as they are, left interpreted (none of them is on the hot path):
#: errors.py (exceptions inheriting builtins), events.py (dataclasses with ClassVar kinds),
#: cards.py (a card hashed by identity: a compiled class has no inherited hash),
#: transcript_mutations.py (lone surrogates in string literals), match.py (its frozen score-sheet
#: rows are deep-copied, which a compiled frozen dataclass refuses)
INTERPRETED = ("errors.py", "events.py", "cards.py", "transcript_mutations.py", "match.py")
DEALS = 50
BROKEN = 20


def sources_hash() -> str:
    """The referee's sources and this build's recipe (this file: what stays interpreted)."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    for path in sorted(SOURCE.rglob("*.py")):
        digest.update(str(path.relative_to(SOURCE)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def is_fresh() -> bool:
    return STAMP.exists() and STAMP.read_text().strip() == sources_hash()


def missing_toolchain() -> str | None:
    """Why a C extension cannot be built here, or None."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    include = sysconfig.get_paths()["include"]
    if not (Path(include) / "Python.h").exists():
        return f"no Python headers ({include}/Python.h)"
    try:
        import mypyc  # noqa: F401
    except ImportError:
        return "no mypyc (it comes with mypy, in the dev extra)"
    return None


def build() -> int:
    if is_fresh():
        print(f"compiled referee up to date: {OUT}")
        return 0
    why = missing_toolchain()
    if why is not None:
        print(f"{why}: the referee stays interpreted")
        return 0
    shutil.rmtree(OUT, ignore_errors=True)
    shutil.copytree(SOURCE, OUT / "referee", ignore=shutil.ignore_patterns("__pycache__"))
    modules = sorted(
        str(p.relative_to(OUT))
        for p in (OUT / "referee").rglob("*.py")
        if p.name not in INTERPRETED
    )
    start = time.perf_counter()
    env = {**os.environ, "MYPYC_OPT_LEVEL": "3"}
    command = [sys.executable, "-m", "mypyc", *modules]
    done = subprocess.run(command, cwd=OUT, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        print("mypyc failed: the referee stays interpreted", file=sys.stderr)
        shutil.rmtree(OUT, ignore_errors=True)
        return 1
    shutil.rmtree(OUT / "build", ignore_errors=True)
    STAMP.write_text(sources_hash() + "\n")
    print(f"compiled {len(modules)} referee modules in {time.perf_counter() - start:.0f} s: {OUT}")
    return 0


def digest_lines(deals: int = DEALS) -> list[str]:
    """Per game and variant: a hash of every legal-action list, event and final snapshot of
    ``deals`` seeded random deals, and of the truth figures of ``BROKEN`` deals with a rule
    broken (the table referee's proofs and penalties), and the number of actions played."""
    import dataclasses

    from referee.deal import Mode
    from referee.perft import specs
    from referee.registry import load_game
    from referee.truth import check_game

    lines = []
    for spec in specs():
        game = load_game(spec)
        digest = hashlib.sha256()
        actions = 0
        for seed in range(deals):
            rng = random.Random(seed)
            dealer = seed % game.players
            hands, setup = game.deal_cards(rng, dealer=dealer)
            deal = game.new_deal(dealer=dealer, hands=hands, setup=setup, mode=Mode.TABLE)
            while not deal.is_over:
                legal = deal.legal_actions()
                digest.update(json.dumps([a.to_dict() for a in legal]).encode())
                action = rng.choice(legal)
                deal.check(action)
                events = deal.play(action)
                digest.update(json.dumps([e.to_dict() for e in events], sort_keys=True).encode())
                actions += 1
            digest.update(json.dumps(deal.snapshot(), sort_keys=True, default=str).encode())
        truth = dataclasses.asdict(check_game(spec, deals=0, broken=BROKEN, seed=0))
        del truth["seconds"]
        digest.update(json.dumps(truth, sort_keys=True, default=str).encode())
        lines.append(f"{spec} {actions} {digest.hexdigest()}")
    return lines


def digest_in(compiled: bool) -> tuple[str, list[str]]:
    """(where ``referee.deal`` came from, the digest lines) in a fresh process."""
    env = dict(os.environ)
    paths = [str(OUT)] if compiled else []
    env["PYTHONPATH"] = os.pathsep.join([*paths, str(ROOT)])
    done = subprocess.run(
        [sys.executable, __file__, "digest"], env=env, capture_output=True, text=True, check=True
    )
    origin, *lines = done.stdout.splitlines()
    return origin, lines


def check() -> int:
    if not is_fresh():
        why = missing_toolchain()
        if why is not None:
            print(f"{why}: no compiled referee to compare")
            return 0
        print("no compiled referee built from these sources: run `make compiled` first")
        return 1
    origin_i, plain = digest_in(compiled=False)
    origin_c, compiled = digest_in(compiled=True)
    print(f"interpreted: {origin_i}\ncompiled:    {origin_c}")
    if not origin_c.endswith(".so") or origin_i.endswith(".so"):
        print("the two runs did not import the two referees")
        return 1
    differ = 0
    for a, b in zip(plain, compiled, strict=True):
        spec, actions, _ = a.split()
        same = a == b
        differ += not same
        print(f"{spec:<34} {actions:>7} actions in {DEALS} deals  {'same' if same else 'DIFFER'}")
    return 1 if differ else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=("build", "path", "check", "digest"))
    args = parser.parse_args(argv)
    if args.command == "build":
        return build()
    if args.command == "path":
        if is_fresh():
            print(OUT)
        return 0
    if args.command == "check":
        return check()
    import referee.deal

    print(referee.deal.__file__)
    print("\n".join(digest_lines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
