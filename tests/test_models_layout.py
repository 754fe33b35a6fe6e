"""``models/`` is what ships (the ONNX files, their metadata, the model card and the experiment
log, and the small loader ``models``); the code that trains them is ``training``, which the
running application never imports."""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

import pytest

import models

ROOT = Path(__file__).resolve().parent.parent
# the modules of vision that say they are evaluation tools and read training's data splits
EVALUATION_TOOLS = {"vision/real_sets.py", "vision/stills.py", "vision/corner_eval.py"}


def _tracked(folder: str) -> list[str]:
    out = subprocess.run(["git", "ls-files", folder], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout  # fmt: skip
    return out.split()


def _imports_training(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        else:
            continue
        if any(n.split(".")[0] == "training" for n in names):
            return True
    return False


def test_models_holds_only_what_ships() -> None:
    shipped = set(models.SHIPPED) | set(models.SHIPPED.values())
    kept = shipped | {"__init__.py", "MODEL_CARD.md", "MODEL_HISTORY.md"}
    assert {Path(n).name for n in _tracked("models")} == kept


def test_the_application_imports_nothing_of_training() -> None:
    found = []
    for package in ("referee", "vision", "firmware_bridge", "web", "kibic", "club", "models"):
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name not in EVALUATION_TOOLS and _imports_training(path):
                found.append(name)
    assert found == []


def test_each_evaluation_tool_says_it_is_one() -> None:
    for name in EVALUATION_TOOLS:
        doc = ast.get_docstring(ast.parse((ROOT / name).read_text(encoding="utf-8"))) or ""
        assert "evaluation tool" in doc, name


def test_each_shipped_model_names_its_version_as_the_model_card_does() -> None:
    card = (ROOT / "models" / "MODEL_CARD.md").read_text(encoding="utf-8")
    for name in models.SHIPPED:
        version = models.version(name)
        assert f"version {version}" in card, (name, version)
        training = models.metadata(name)["training"]
        assert f"version {version}" in training["name"], (name, training["name"])


def test_a_name_not_shipped_is_refused_naming_the_shipped_ones() -> None:
    with pytest.raises(KeyError, match="kibic_cards.onnx"):
        models.path("kibic_cards.pt")
