"""`training/device_corners.sh`, the corner-index finder's training prepared for a lent GPU machine:
what its packing takes along (the training photos; the tuning photos' names only) and its dry
run (the same command on the CPU for a few seconds)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests import needs
from training.real_finder_crops import CORNERS, FOLDERS, photos

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "training" / "device_corners.sh"
pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIBIC_")}
    env.update(PYTHON=sys.executable, OUT=str(tmp_path / "out"), PACK=str(tmp_path / "pack"),
               **extra)  # fmt: skip
    return env


def test_without_a_pack_the_run_stops_and_says_why(tmp_path: Path) -> None:
    run = subprocess.run(["bash", str(SCRIPT)], cwd=ROOT, env=_env(tmp_path),
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert run.returncode == 2
    assert "no photos: carry tmp/" in run.stderr


def test_the_pack_takes_the_training_photos_and_the_run_trains_both_variants(
    tmp_path: Path,
) -> None:
    if not CORNERS.is_dir():
        pytest.skip(f"needs the real photos (../shared/data/real-photos): {CORNERS}")
    env = _env(tmp_path)
    pack = subprocess.run(["bash", str(SCRIPT), "--pack"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    assert pack.returncode == 0, pack.stderr[-2000:]
    packed = tmp_path / "pack" / "real-photos" / "corner-boxes"
    for folder in FOLDERS:
        train, tune = photos(folder)
        for path in tune:  # kept out: the name travels, not the photo nor its labels
            assert (packed / folder / "images" / path.name).stat().st_size == 0
            assert not (packed / folder / "labels" / f"{path.stem}.txt").exists()
        copied = packed / folder / "images" / train[0].name
        assert copied.read_bytes() == train[0].read_bytes()
        assert (packed / folder / "labels" / f"{train[0].stem}.txt").is_file()

    needs.torch()
    run = subprocess.run(["bash", str(SCRIPT)], cwd=ROOT, env={**env, "DRY_RUN": "1"},
                         capture_output=True, text=True, timeout=900)  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:] + run.stdout[-2000:]
    out = tmp_path / "out"
    a = json.loads((out / "A.json").read_text())["training"]
    b = json.loads((out / "B.json").read_text())["training"]
    assert "--device cpu" in a["command"] and "529 real photos" in a["data"]
    assert "--init-onnx" not in a["command"]  # A: from the shipped card detector
    assert b["command"].endswith("--lr 0.003 --init-onnx none")  # B: from scratch
