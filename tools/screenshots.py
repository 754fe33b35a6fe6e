"""The README's pictures of the table view, made again from the demo's game.

The demo's game (``kibic demo``: its transcript, same game, seed and names) is fed into a table
runtime on an in-memory store: every deal before the last in full, the last one up to
``--plays`` cards, so that a trick lies on the felt. The dashboard is served on loopback and
Debian's Chromium (Playwright) photographs ``/table`` on a phone (390 x 844), a desktop
(1366 x 768) and a television (1920 x 1080). Every request off the machine is refused.

Run: PYTHONPATH=. .venv/bin/python tools/screenshots.py [--out docs] [--deals 2] [--plays 7]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kibic.config import hash_password  # noqa: E402
from kibic.demo import demo_runtime, preferred_game  # noqa: E402
from tests.browser_support import chromium_tab  # noqa: E402
from web.app import create_app  # noqa: E402
from web.server import BackgroundServer  # noqa: E402

SHOTS = {
    "table-view-phone.png": ({"width": 390, "height": 844}, True),
    "table-view-desktop.png": ({"width": 1366, "height": 768}, False),
    "table-view-tv.png": ({"width": 1920, "height": 1080}, False),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    parser.add_argument("--game", default=None, help="game (default: the demo's)")
    parser.add_argument("--deals", type=int, default=2, help="deals, the last one unfinished")
    parser.add_argument("--plays", type=int, default=7, help="cards played in the last deal")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--lang", default="en", choices=("sr", "en"))
    args = parser.parse_args(argv)
    runtime = demo_runtime(game=args.game or preferred_game(), deals=args.deals,
                           plays=args.plays, seed=args.seed)  # fmt: skip
    app = create_app(runtime, admin_password_hash=hash_password("screenshots"))
    args.out.mkdir(parents=True, exist_ok=True)
    with BackgroundServer(app) as server:
        for name, (viewport, mobile) in SHOTS.items():
            with chromium_tab(server.url, viewport=viewport, mobile=mobile) as found:
                found.tab.goto(f"{server.url}/table?lang={args.lang}")
                found.tab.wait_for_selector("#live-status.ok", state="attached")
                found.tab.screenshot(path=str(args.out / name), full_page=False)
                if found.blocked:
                    sys.stderr.write(f"refused requests off the machine: {found.blocked}\n")
                    return 1
            sys.stdout.write(f"{args.out / name}\n")
    runtime.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
