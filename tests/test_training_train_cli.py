"""`python -m training.train`: a short run end to end, in float32 and in bfloat16 (`--bf16`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests import needs
from vision.recognizer import Recognizer

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("bf16", [False, True])
def test_a_short_run_exports_a_model_the_recognizer_reads(tmp_path: Path, bf16: bool) -> None:
    needs.torch()
    out = tmp_path / "m.onnx"
    cmd = [sys.executable, "-m", "training.train", "--steps", "3", "--batch", "8", "--seed", "5",
           "--pool-samples", "8", "--out", str(out)] + (["--bf16"] if bf16 else [])  # fmt: skip
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    meta = json.loads(out.with_suffix(".labels.json").read_text())
    assert meta["training"]["steps_done"] == 3
    assert meta["training"]["command"].endswith(" --bf16") is bf16
    rec = Recognizer(out)
    crop = np.full((96, 64, 3), 200, np.uint8)
    pred = rec.predict([crop])[0]
    assert pred.label in meta["labels"]
    assert 0.0 < pred.confidence <= 1.0


def test_a_run_with_real_photos_names_them_in_its_record(tmp_path: Path) -> None:
    needs.torch()
    out = tmp_path / "m.onnx"
    cmd = [sys.executable, "-m", "training.train", "--steps", "2", "--batch", "8", "--seed", "5",
           "--pool-samples", "8", "--real-crops", "0.5", "--real-finder", "0.2",
           "--real-print", "0.3", "--out", str(out)]  # fmt: skip
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    training = json.loads(out.with_suffix(".labels.json").read_text())["training"]
    assert "--real-crops 0.5 --real-finder 0.2 --real-print 0.3" in training["command"]
    assert training["real_photos"].startswith("card-crops, its training part")
    assert training["real_finder_crops"].startswith("corner-boxes, its training part")
    assert training["real_print"].startswith("edje-cards train, its photos at even places")


@pytest.mark.parametrize(
    "flag", ["--real-crops", "--real-finder", "--real-print", "--real-pieces", "--real-close"]
)
def test_a_real_photo_share_out_of_range_is_refused_by_name(flag: str) -> None:
    needs.torch()
    run = subprocess.run([sys.executable, "-m", "training.train", flag, "1.5"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    assert run.returncode == 2
    assert f"{flag} 1.5 is not a share between 0 and 1" in run.stderr


def test_a_close_detector_that_is_not_there_is_refused_by_name(tmp_path: Path) -> None:
    needs.torch()
    missing = tmp_path / "det.onnx"
    run = subprocess.run([sys.executable, "-m", "training.train", "--real-close", "0.1",
                          "--close-detector", str(missing)], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)  # fmt: skip
    assert run.returncode == 2
    assert f"--close-detector {missing}: no such detector" in run.stderr


def test_a_pieces_reader_that_is_not_there_is_refused_by_name(tmp_path: Path) -> None:
    """``--pieces-classifier`` and ``--pieces-gate`` are checked where ``--real-pieces`` reads
    pieces with them, before any training."""
    needs.torch()
    missing = tmp_path / "gate.onnx"
    for flag in ("--pieces-classifier", "--pieces-gate"):
        run = subprocess.run([sys.executable, "-m", "training.train", "--real-pieces", "0.05",
                              flag, str(missing)], cwd=ROOT, capture_output=True, text=True,
                             timeout=120)  # fmt: skip
        assert run.returncode == 2
        assert f"{flag} {missing}: no such classifier" in run.stderr


def test_an_out_file_in_no_folder_is_refused_before_training(tmp_path: Path) -> None:
    """A run whose ``--out`` has no folder to be written in is refused at once, not after its
    training when the export fails."""
    needs.torch()
    out = tmp_path / "missing" / "m.onnx"
    run = subprocess.run([sys.executable, "-m", "training.train", "--steps", "1", "--out",
                          str(out)], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)  # fmt: skip
    assert run.returncode == 2
    assert f"--out {out}: no folder {out.parent} to write it in" in run.stderr
