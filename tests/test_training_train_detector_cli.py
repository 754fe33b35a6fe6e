"""`python -m training.train_detector`: a short run end to end, in float32 and in bfloat16
(`--bf16`), and the training step it takes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests import needs
from vision.detector import CardDetector

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("bf16", [False, True])
def test_a_short_run_exports_a_detector_the_reader_loads(tmp_path: Path, bf16: bool) -> None:
    needs.torch()
    out = tmp_path / "d.onnx"
    cmd = [sys.executable, "-m", "training.train_detector", "--steps", "2", "--batch", "2",
           "--input", "128", "--width", "0.5", "--seed", "5", "--workers", "0",
           "--out", str(out)] + (["--bf16"] if bf16 else [])  # fmt: skip
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["training"]["steps"] == 2
    assert meta["training"]["bf16"] is bf16
    assert meta["training"]["command"].endswith(" --bf16") is bf16
    det = CardDetector(out)
    heat_and_regression, _ = det.raw(np.full((96, 128, 3), 90, np.uint8))
    assert heat_and_regression.shape == (11, 96 // 4, 128 // 4)
    heat = heat_and_regression[0]
    assert np.all((heat > 0.0) & (heat < 1.0))  # the exported graph's sigmoid


def test_the_float32_step_is_the_plain_one_and_bf16_stays_close() -> None:
    torch = needs.torch()
    from training.train_detector import DetectorNet, detector_step, losses

    torch.manual_seed(3)
    x = torch.randn(2, 3, 64, 96)
    heat = torch.rand(2, 1, 16, 24) ** 8
    reg = torch.randn(2, 10, 16, 24)
    weight = (torch.rand(2, 2, 16, 24) > 0.9).float()

    def fresh() -> tuple[DetectorNet, torch.optim.Optimizer]:
        torch.manual_seed(0)
        net = DetectorNet(width=0.5)
        return net, torch.optim.SGD(net.parameters(), lr=0.1)

    net, opt = fresh()
    hl, rl = losses(net(x), heat, reg, weight)
    opt.zero_grad()
    (hl + rl).backward()
    opt.step()
    plain = [p.detach().clone() for p in net.parameters()]

    net, opt = fresh()
    hl32, rl32 = detector_step(net, opt, x, heat, reg, weight, bf16=False)
    assert hl32.item() == hl.item() and rl32.item() == rl.item()
    assert all(torch.equal(a, b) for a, b in zip(plain, net.parameters(), strict=True))

    net, opt = fresh()
    hl16, rl16 = detector_step(net, opt, x, heat, reg, weight, bf16=True)
    assert hl16.dtype == torch.float32 and rl16.dtype == torch.float32
    assert hl16.item() == pytest.approx(hl.item(), rel=0.05)
    assert rl16.item() == pytest.approx(rl.item(), rel=0.05)


@pytest.mark.parametrize(("flag", "value"), [("--cover-share", "1.5"), ("--large-share", "-0.1")])
def test_a_share_out_of_range_is_refused_by_name(tmp_path: Path, flag: str, value: str) -> None:
    needs.torch()
    out = tmp_path / "d.onnx"
    cmd = [sys.executable, "-m", "training.train_detector", flag, value, "--out", str(out)]
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert f"{flag} {float(value):g} is not between 0 and 1" in run.stderr
    assert not out.exists()
