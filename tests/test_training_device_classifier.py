"""`training/device_classifier.sh`, the still-photo classifier's fine-tuning with real photographs
prepared for a lent GPU machine: what its packing takes along (and what it leaves here), and its
dry run (the same command on the CPU for a few steps)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from tests import needs
from training.artwork import CACHE, HELD_OUT_THEMES, TRAIN_THEMES, fetch
from training.real_crops import CROPS, split

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "training" / "device_classifier.sh"
pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIBIC_")}
    env.update(PYTHON=sys.executable, OUT=str(tmp_path / "out"), PACK=str(tmp_path / "pack"),
               TMPDIR=str(tmp_path), **extra)  # fmt: skip
    return env


def test_without_a_pack_the_run_stops_and_says_why(tmp_path: Path) -> None:
    run = subprocess.run(["bash", str(SCRIPT)], cwd=ROOT, env=_env(tmp_path),
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert run.returncode == 2
    assert "no artwork: carry tmp/" in run.stderr
    assert not (tmp_path / "out" / "A.onnx").exists()


def test_the_pack_takes_the_training_parts_and_the_run_trains_both_variants(
    tmp_path: Path,
) -> None:
    if not CROPS.is_dir():
        pytest.skip(f"needs the real photos (../shared/data/real-photos): {CROPS}")
    from training.real_finder_crops import extract

    fetch()  # the rendered artwork the pack copies (needs apt-get and rsvg-convert)

    extract("train")  # the finder crops' cache the pack copies
    env = _env(tmp_path, KIBIC_ART_CACHE=str(CACHE))
    pack = subprocess.run(["bash", str(SCRIPT), "--pack"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    assert pack.returncode == 0, pack.stderr[-2000:]
    packed = tmp_path / "pack"
    sheets = {p.stem for p in (packed / "kibic-art" / "sheets").glob("*.png")}
    assert sheets == set(TRAIN_THEMES) and not sheets & set(HELD_OUT_THEMES)
    train, tune = split()
    for crop in tune:  # kept out: the name travels, not the photo (in its folder, as filed)
        assert (packed / "real-photos" / "card-crops" / "images" / crop.path.parent.name
                / crop.path.name
                ).stat().st_size == 0  # fmt: skip
    face = cv2.imread(str(packed / "real-photos" / "card-crops" / "images"
                          / train[0].path.parent.name / train[0].path.name))  # fmt: skip
    assert face is not None and face.shape == (210, 150, 3)
    assert len(list((packed / "real-finder-crops").glob("train-*.npz"))) == 1

    needs.torch()
    run = subprocess.run(["bash", str(SCRIPT)], cwd=ROOT, env={**env, "DRY_RUN": "1"},
                         capture_output=True, text=True, timeout=900)  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:] + run.stdout[-2000:]
    out = tmp_path / "out"
    a = json.loads((out / "A.labels.json").read_text())["training"]
    b = json.loads((out / "B.labels.json").read_text())["training"]
    assert "--real-crops 0.5" in a["command"] and "--real-finder" not in a["command"]
    assert "--real-crops 0.5 --real-finder 0.15" in b["command"]
    assert b["real_finder_crops"] and a["real_photos"]
    fonts = (out / "gpu.txt").read_text()
    assert "fonts " in fonts and "fonts 0\n" not in fonts  # the packed fonts were found
