"""`training/device_detector.sh`, the detector's training run prepared for a lent GPU machine:
its dry run (the same command on the CPU for a few steps) and its packing of the artwork and
fonts the machine lacks; and `KIBIC_FONT_DIR`, where the procedural designs' fonts are read."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from tests import needs
from training.artwork import CACHE
from vision import card_faces as render
from vision.detector import CardDetector

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "training" / "device_detector.sh"
FONTS = Path(render.FONT_DIR)


@pytest.fixture
def fresh_fonts() -> Iterator[None]:
    render._ttf_fonts.cache_clear()
    yield
    render._ttf_fonts.cache_clear()


def _has_pillow() -> bool:
    try:
        import PIL  # noqa: F401
    except ImportError:
        return False
    return True


def test_the_fonts_are_read_from_kibic_font_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_fonts: None
) -> None:
    font = next(iter(sorted(FONTS.glob("DejaVu*.ttf"))), None)
    if font is None:
        pytest.skip("needs fonts-dejavu-core and fonts-dejavu-extra (apt-get install them)")
    shutil.copy(font, tmp_path / font.name)
    (tmp_path / "Other.ttf").write_bytes(font.read_bytes())  # not a DejaVu file: not taken
    monkeypatch.setenv("KIBIC_FONT_DIR", str(tmp_path))
    expected = (str(tmp_path / font.name),) if _has_pillow() else ()
    assert render.truetype_fonts() == expected


def test_no_fonts_in_kibic_font_dir_means_the_hershey_fonts_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_fonts: None
) -> None:
    monkeypatch.setenv("KIBIC_FONT_DIR", str(tmp_path))
    assert render.truetype_fonts() == ()
    design = render.design_for_seed("french", 7)
    assert 0 <= design.font < len(render.HERSHEY)


def _script_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIBIC_")}
    env.update(PYTHON=sys.executable, OUT=str(tmp_path / "out"), **extra)
    return env


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("from_shipped", [False, True])
def test_the_dry_run_trains_and_exports_a_detector(tmp_path: Path, from_shipped: bool) -> None:
    needs.torch()
    if not (CACHE / "sheets").is_dir() or (ROOT / "tmp").exists():
        pytest.skip("needs the rendered artwork (python -m training.artwork) and no packed ./tmp")
    start = {"INIT_ONNX": "models/kibic_detector.onnx", "WIDTH": "1.0"} if from_shipped else {}
    env = _script_env(tmp_path, DRY_RUN="1", KIBIC_ART_CACHE=str(CACHE), SEED="5", **start)
    run = subprocess.run(["bash", str(SCRIPT)], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=600)  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:] + run.stdout[-2000:]
    out = tmp_path / "out"
    meta = json.loads((out / "det.json").read_text())["training"]
    width = 1.0 if from_shipped else 1.5  # from scratch, 1.5 times as wide as the shipped net
    assert (meta["device"], meta["width"], meta["bf16"], meta["steps"]) == ("cpu", width, True, 3)
    assert "--peak visible --keep-shown --large-share 0.5" in meta["command"]
    assert meta["init_onnx"] == ("models/kibic_detector.onnx" if from_shipped else None)
    shipped = json.loads((ROOT / "models" / "kibic_detector.json").read_text())["inference"]
    assert json.loads((out / "det.json").read_text())["inference"] == shipped
    assert "fonts" in (out / "gpu.txt").read_text()
    assert "exported" in (out / "train.log").read_text()
    det = CardDetector(out / "det.onnx")
    raw, _ = det.raw(np.full((96, 128, 3), 90, np.uint8))
    assert raw.shape == (11, 288 // 4, 384 // 4)  # the shipped settings' pass at 384 px
    assert np.all((raw[0] > 0.0) & (raw[0] < 1.0))  # the exported graph's sigmoid


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_without_artwork_the_run_stops_and_says_why(tmp_path: Path) -> None:
    if (ROOT / "tmp").exists():
        pytest.skip("a packed ./tmp is present")
    run = subprocess.run(["bash", str(SCRIPT)], cwd=ROOT, env=_script_env(tmp_path),
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert run.returncode == 2
    assert "no artwork: carry tmp/" in run.stderr
    assert not (tmp_path / "out" / "det.onnx").exists()


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_pack_without_artwork_names_the_folder(tmp_path: Path) -> None:
    missing = tmp_path / "no-art"
    run = subprocess.run(["bash", str(SCRIPT), "--pack"], cwd=ROOT,
                         env=_script_env(tmp_path, KIBIC_ART_CACHE=str(missing)),
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert run.returncode == 2
    assert f"no artwork in {missing}" in run.stderr


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_the_real_photo_run_trains_two_doses_side_by_side(tmp_path: Path) -> None:
    """Experiment 30's run (training.real_scenes): A and B differ only in the share of edje
    train photos among the samples, both from the shipped detector."""
    needs.torch()
    if not (CACHE / "sheets").is_dir() or (ROOT / "tmp").exists():
        pytest.skip("needs the rendered artwork (python -m training.artwork) and no packed ./tmp")
    from training.real_crops import REAL_PHOTOS

    env = _script_env(tmp_path, DRY_RUN="1", KIBIC_ART_CACHE=str(CACHE), WIDTH="1.0",
                      KIBIC_REAL_PHOTOS=str(REAL_PHOTOS), INIT_ONNX="models/kibic_detector.onnx")  # fmt: skip
    run = subprocess.run(["bash", str(SCRIPT), "real"], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=600)  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:] + run.stdout[-2000:]
    out = tmp_path / "out"
    runs = {name: json.loads((out / f"{name}.json").read_text()) for name in ("A", "B")}
    assert {n: (m["training"]["real_faces"], m["training"]["real_photos"]) for n, m in runs.items()} \
        == {"A": (0.3, 0.25), "B": (0.3, 0.5)}  # fmt: skip
    assert all(m["training"]["init_onnx"] == "models/kibic_detector.onnx" for m in runs.values())
    assert all(m["inference"] == runs["A"]["inference"] for m in runs.values())
    assert CardDetector(out / "B.onnx").raw(np.full((96, 128, 3), 90, np.uint8))[0].shape[0] == 11


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_the_real_photo_run_without_photos_says_why(tmp_path: Path) -> None:
    if not (CACHE / "sheets").is_dir() or (ROOT / "tmp").exists():
        pytest.skip("needs the rendered artwork (python -m training.artwork) and no packed ./tmp")
    env = _script_env(tmp_path, DRY_RUN="1", KIBIC_ART_CACHE=str(CACHE))
    run = subprocess.run(["bash", str(SCRIPT), "real"], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=120)  # fmt: skip
    assert run.returncode == 2
    assert "no real photos: pack with REAL=1" in run.stderr
