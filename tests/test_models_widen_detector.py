"""``models.widen_detector``: a wider detector that starts out computing what the shipped one
computes (Net2WiderNet), and ``train_detector --init-width``, which trains from it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests import needs
from vision.detector import DEFAULT_DETECTOR, CardDetector

ROOT = Path(__file__).resolve().parent.parent


def _shipped():  # type: ignore[no-untyped-def]
    from models.train_detector import DetectorNet, load_onnx_weights

    net = DetectorNet(1.0)
    load_onnx_weights(net, DEFAULT_DETECTOR)
    return net


def _outputs(net, x: np.ndarray) -> np.ndarray:  # type: ignore[no-untyped-def]
    import torch

    from models.train_detector import Exported, freeze_norms

    net.train()
    freeze_norms(net)  # as training does: the folded norms stay identities
    with torch.no_grad():
        return Exported(net)(torch.from_numpy(x)).numpy()


def test_the_flow_names_every_conv_of_the_net() -> None:
    needs.torch()
    from torch import nn

    from models.train_detector import DetectorNet
    from models.widen_detector import _FLOW

    convs = {n for n, m in DetectorNet(1.5).named_modules() if isinstance(m, nn.Conv2d)}
    assert {name for name, _, _ in _FLOW} == convs


def test_the_widened_shipped_detector_gives_the_shipped_output() -> None:
    needs.torch()
    from models.widen_detector import widen

    x = np.random.default_rng(4).uniform(-1, 1, (2, 3, 96, 128)).astype(np.float32)
    narrow = _shipped()
    expected = _outputs(narrow, x)
    wide = widen(narrow, 1.5, seed=1, noise=0.0)
    params = sum(p.numel() for p in wide.parameters())
    assert params == 674_915  # DetectorNet(1.5), against 300_731 at width 1.0
    assert np.abs(_outputs(wide, x) - expected).max() < 1e-4
    # with noise on the copies it is near the shipped output, not equal to it
    noisy = np.abs(_outputs(widen(narrow, 1.5, seed=1), x) - expected).max()
    assert 1e-4 < noisy < 0.5


def test_a_narrower_target_or_a_net_with_live_norms_is_refused() -> None:
    torch = needs.torch()
    from models.train_detector import DetectorNet
    from models.widen_detector import widen

    with pytest.raises(ValueError, match=r"s2\.0: 8 channels is narrower than 16"):
        widen(_shipped(), 0.5)
    live = _shipped()
    with torch.no_grad():
        live.s4[0][1].running_var.fill_(4.0)  # a norm that still scales: not folded
    with pytest.raises(ValueError, match=r"s4\.0\.0: its norm is not a folded identity"):
        widen(live, 1.5)
    assert isinstance(widen(_shipped(), 1.0, noise=0.0), DetectorNet)


def test_a_short_run_from_the_widened_shipped_detector(tmp_path: Path) -> None:
    needs.torch()
    out = tmp_path / "w.onnx"
    cmd = [sys.executable, "-m", "models.train_detector", "--init-onnx", str(DEFAULT_DETECTOR),
           "--init-width", "1.0", "--width", "1.5", "--steps", "1", "--batch", "2",
           "--input", "128", "--workers", "0", "--seed", "6", "--out", str(out)]  # fmt: skip
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    meta = json.loads(out.with_suffix(".json").read_text())["training"]
    assert (meta["width"], meta["init_width"], meta["steps"]) == (1.5, 1.0, 1)
    raw, _ = CardDetector(out).raw(np.full((96, 128, 3), 90, np.uint8))
    assert raw.shape[0] == 11


def test_init_width_without_init_onnx_is_refused(tmp_path: Path) -> None:
    needs.torch()
    cmd = [sys.executable, "-m", "models.train_detector", "--init-width", "1.0",
           "--steps", "1", "--out", str(tmp_path / "x.onnx")]  # fmt: skip
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 2
    assert "--init-width goes with --init-onnx" in run.stderr
