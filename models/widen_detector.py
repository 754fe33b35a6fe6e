"""A wider detector that starts out computing what a narrower one computes (Net2WiderNet).

Chen, Goodfellow and Shlens, "Net2Net: accelerating learning via knowledge transfer" (ICLR
2016), section 2.1: each channel of the wider layer copies one channel of the narrow layer (the
first ones copy themselves, the others a channel drawn at random), and the next layer divides
the weights it reads from a copied channel by the number of its copies. Through ReLUs and
identity norms the wider net's output equals the narrow one's; a little noise on the copies
lets them drift apart in training. Used to go on from the shipped detector with more capacity
(`python -m models.train_detector --init-onnx models/kibic_detector.onnx --init-width 1.0
--width 1.5`).

The norms must be what ``load_onnx_weights`` leaves them: the identity plus a bias (the
exporter folded each batch norm into its conv), kept so by ``freeze_norms``.
"""

from __future__ import annotations

from typing import cast

import numpy as np
import torch
from torch import nn

from models.train_detector import DetectorNet, norm_after, set_folded

# every conv of DetectorNet: (its module, the tensor it reads, the tensor it writes). The
# pyramid's laterals and smoothing convs all write "p": their outputs are added together.
_FLOW: tuple[tuple[str, str, str], ...] = (
    ("s2.0", "image", "s2"),
    ("s4.0.0", "s2", "s4a"),
    ("s4.1.0", "s4a", "x4"),
    ("s8.0.0", "x4", "s8a"),
    ("s8.1.0", "s8a", "x8"),
    ("s16.0.0", "x8", "s16a"),
    ("s16.1.0", "s16a", "s16b"),
    ("s16.2.0", "s16b", "x16"),
    ("s32.0.0", "x16", "s32a"),
    ("s32.1.0", "s32a", "s32b"),
    ("s32.2.0", "s32b", "x32"),
    ("lat32", "x32", "p"),
    ("lat16", "x16", "p"),
    ("lat8", "x8", "p"),
    ("lat4", "x4", "p"),
    ("smooth16.0", "p", "p"),
    ("smooth8.0", "p", "p"),
    ("smooth4.0", "p", "p"),
    ("heat.0.0", "p", "heat0"),
    ("heat.1", "heat0", "heat"),
    ("reg.0.0", "p", "reg0"),
    ("reg.1", "reg0", "reg"),
)
_FIXED = ("image", "heat", "reg")  # the input and the outputs keep their channels


def widen(narrow: DetectorNet, width: float, seed: int = 0, noise: float = 0.01) -> DetectorNet:
    """A ``DetectorNet(width)`` computing what ``narrow`` computes (to float rounding when
    ``noise`` is 0). ``noise``: the standard deviation, relative to each layer's weights', of
    the noise added to the copied channels' weights. Its norms are frozen identities."""
    wide = DetectorNet(width)
    old = dict(narrow.named_modules())
    new = dict(wide.named_modules())
    rng = np.random.default_rng(seed)
    maps: dict[str, np.ndarray] = {}
    for name, _src, dst in _FLOW:
        if dst in maps or dst in _FIXED:
            continue
        n = cast(nn.Conv2d, old[name]).out_channels
        m = cast(nn.Conv2d, new[name]).out_channels
        if m < n:
            raise ValueError(f"{name}: {m} channels is narrower than {n}")
        maps[dst] = np.concatenate([np.arange(n), rng.integers(0, n, size=m - n)])
    with torch.no_grad():
        for name, src, dst in _FLOW:
            a, b = cast(nn.Conv2d, old[name]), cast(nn.Conv2d, new[name])
            g_in = maps.get(src, np.arange(a.in_channels))
            g_out = maps.get(dst, np.arange(a.out_channels))
            copies = np.bincount(g_in, minlength=a.in_channels).astype(np.float32)
            w = a.weight[torch.from_numpy(g_out)][:, torch.from_numpy(g_in)]
            w = w / torch.from_numpy(copies[g_in]).view(1, -1, 1, 1)
            if noise > 0 and len(g_out) > a.out_channels:
                extra = slice(a.out_channels, None)
                scale = float(a.weight.std()) * noise
                gen = torch.Generator().manual_seed(int(rng.integers(2**31)))
                w[extra] += torch.randn(w[extra].shape, generator=gen) * scale
            b.weight.copy_(w)
            na, nb = norm_after(old, name), norm_after(new, name)
            if na is not None and nb is not None:
                if not _is_identity(na):
                    raise ValueError(f"{name}: its norm is not a folded identity")
                set_folded(nb, na.bias[torch.from_numpy(g_out)])
            elif a.bias is not None and b.bias is not None:
                b.bias.copy_(a.bias[torch.from_numpy(g_out)])
    return wide


def _is_identity(norm: nn.BatchNorm2d) -> bool:
    assert norm.running_mean is not None and norm.running_var is not None
    scale = norm.weight / torch.sqrt(norm.running_var + norm.eps)
    return bool(
        torch.allclose(scale, torch.ones_like(scale), atol=1e-5)
        and torch.allclose(norm.running_mean, torch.zeros_like(norm.running_mean))
    )
