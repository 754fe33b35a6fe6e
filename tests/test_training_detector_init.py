"""``training.train_detector --init-onnx``: fine-tuning starts from an exported detector."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests import needs
from vision.detector import DEFAULT_DETECTOR


def test_the_shipped_detector_loads_into_the_training_net_and_gives_its_output() -> None:
    torch = needs.torch()
    import onnxruntime as ort

    from training.train_detector import DetectorNet, Exported, freeze_norms, load_onnx_weights

    net = DetectorNet()
    load_onnx_weights(net, DEFAULT_DETECTOR)
    net.train()
    freeze_norms(net)  # as training does after --init-onnx: the folded norms stay identities
    x = np.random.default_rng(3).uniform(-1, 1, (2, 3, 96, 128)).astype(np.float32)
    with torch.no_grad():
        ours = Exported(net)(torch.from_numpy(x)).numpy()
    session = ort.InferenceSession(str(DEFAULT_DETECTOR), providers=["CPUExecutionProvider"])
    theirs = session.run(None, {"input": x})[0]
    assert ours.shape == theirs.shape == (2, 11, 24, 32)
    assert np.abs(ours - theirs).max() < 1e-4


def test_a_detector_of_another_width_is_refused_by_name() -> None:
    needs.torch()
    from training.train_detector import DetectorNet, load_onnx_weights

    with pytest.raises(ValueError, match=r"s2\.0 is \(16, 3, 3, 3\), the net's \(8, 3, 3, 3\)"):
        load_onnx_weights(DetectorNet(width=0.5), DEFAULT_DETECTOR)


def test_init_and_init_onnx_together_are_refused(tmp_path: Path) -> None:
    needs.torch()
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-m", "training.train_detector", "--init", str(tmp_path / "a.pt"),
         "--init-onnx", str(DEFAULT_DETECTOR), "--steps", "1", "--out", str(tmp_path / "d.onnx")],
        capture_output=True, text=True, cwd=Path(__file__).resolve().parent.parent,
    )  # fmt: skip
    assert run.returncode == 2 and "give --init or --init-onnx, not both" in run.stderr
