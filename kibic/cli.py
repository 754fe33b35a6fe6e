"""The ``kibic`` command. Each command group lives in its own ``kibic/cli_*.py`` module that
exposes ``register(subparsers)``; add a group by adding its module name to ``COMMAND_MODULES``."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

COMMAND_MODULES: tuple[str, ...] = (
    "kibic.cli_referee",
    "kibic.cli_app",
    "kibic.cli_vision",
    "kibic.cli_club",
    "kibic.cli_store",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kibic", description="Kibic card-table companion")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result = args.handler(args)
    except BrokenPipeError:  # the reader went away (``kibic ... | head``): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())
