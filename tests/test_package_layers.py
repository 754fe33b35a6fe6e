"""The packages' layers: the dashboard (``web``) is a library the application (``kibic``) uses,
so nothing in ``web`` imports ``kibic`` (the director's password check is ``web.auth``)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _imported(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_the_dashboard_imports_nothing_of_the_application() -> None:
    reaching_up = {
        str(path.relative_to(ROOT)): sorted(
            n for n in _imported(path) if n.split(".")[0] == "kibic"
        )
        for path in sorted((ROOT / "web").rglob("*.py"))
    }
    assert {p: names for p, names in reaching_up.items() if names} == {}


def test_the_password_is_hashed_and_checked_by_web_auth() -> None:
    from kibic.config import hash_password as named_by_the_cli
    from web.auth import hash_password, verify_password

    assert named_by_the_cli is hash_password
    stored = hash_password("tajna", salt=b"0123456789abcdef", rounds=1000)
    assert stored.startswith("pbkdf2_sha256$1000$30313233")
    assert verify_password(stored, "tajna") and not verify_password(stored, "Tajna")
