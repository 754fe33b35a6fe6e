"""Train the card detector (``vision.detector``) on generated scenes and export it to ONNX.

A CenterNet-style fully convolutional net: a letterboxed BGR photo (longest side ``--input``
px, the other side padded to a multiple of 32) in; at stride 4 out come a card-centre heatmap
(focal loss on Gaussian peaks) and, per cell, the card's centre offset, log long and short side,
the long axis' orientation as cos 2t, sin 2t, and (since experiment 5) the box of the part of the
card that shows: the distances from the centre to its left, top, right and bottom edges, in
long sides (a card under another card, a hand or the photo's edge shows only part). With
``--peak visible`` (experiment 6) a card's peak is put inside the part of it that shows, not at its
centre, so that the strip of a covered card is where it is found. Scenes come from
``training.detector_scenes`` (training themes and procedural faces only), generated on the fly
by ``--workers`` processes, each seeded from ``--seed`` and its worker id. ``--bf16`` runs the
network in bfloat16 (experiment 15): on a 2-core CPU it pays only with two scene workers, as
making a scene costs about what a float32 step of it does.

    python -m training.train_detector --steps 3000 --batch 12 --workers 1 --threads 1 \\
        --max-seconds 3000 --out models/kibic_detector.onnx

Writes the ONNX file and a JSON file beside it (same stem) with the input size, stride,
normalisation and the training run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import cast

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from training import real_scenes
from training.detector_scenes import FaceSource, letterbox_scene
from training.train import freeze_norms  # the classifier's: folded norms stay frozen
from vision import label_errata

STRIDE = 4
# heat, dx, dy, log(long/32), log(short/32), cos 2t, sin 2t, then the visible part's box
OUT_CHANNELS = 11
CHANNELS = ["heat", "dx", "dy", "log_long", "log_short", "cos2t", "sin2t",
            "vis_left", "vis_top", "vis_right", "vis_bottom"]  # fmt: skip
BASE_CHANNELS = 7  # the detectors of experiments 2 to 4 had these alone
SIZE_REF = 32.0
Visible = tuple[float, float, float, float] | None
Anchor = tuple[float, float, float] | None  # x, y, depth (px): see detector_scenes.Card.anchor
# with anchors: a card of which only a strip thinner than this (in short sides) shows is no target
MIN_SHOW = 0.12


def input_shape(long_side: int) -> tuple[int, int]:
    """Training input (height, width): a 4:3 landscape canvas, sides multiples of 32."""
    short = int(np.ceil(long_side * 0.75 / 32) * 32)
    return short, long_side


def encode(cards_corners: list[np.ndarray], shape: tuple[int, int],
           visible: list[Visible] | None = None, anchors: list[Anchor] | None = None,
           min_show: float = MIN_SHOW) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """Targets at stride 4: heat (1,h,w), regression (10,h,w), regression weights (2,h,w): one
    for the whole card's channels, one for the visible part's (nought where it is unknown).

    Without ``anchors`` each card peaks at its centre. With them (``--peak visible``) it peaks
    at its anchor, inside the part that shows, so that a card under another is found where it
    is seen; a card of which no strip at least ``MIN_SHOW`` short sides thick shows is no
    target. The regression always points to the whole card's centre."""
    h, w = shape[0] // STRIDE, shape[1] // STRIDE
    heat = np.zeros((h, w), np.float32)
    reg = np.zeros((OUT_CHANNELS - 1, h, w), np.float32)
    weight = np.zeros((h, w), np.float32)
    vweight = np.zeros((h, w), np.float32)
    visible = visible if visible is not None else [None] * len(cards_corners)
    peaks: list[Anchor] = anchors if anchors is not None else [None] * len(cards_corners)
    owner = np.zeros((h, w), np.float32)  # the Gaussian value of the card owning each cell
    ys = np.arange(h, dtype=np.float32)[:, None] * STRIDE + (STRIDE - 1) / 2
    xs = np.arange(w, dtype=np.float32)[None, :] * STRIDE + (STRIDE - 1) / 2
    for q, shows, anchor in zip(cards_corners, visible, peaks, strict=True):
        q = q.astype(np.float32)
        e = np.roll(q, -1, axis=0) - q  # e[0] = q1 - q0, ...
        a = (np.linalg.norm(e[0]) + np.linalg.norm(e[2])) / 2
        b = (np.linalg.norm(e[1]) + np.linalg.norm(e[3])) / 2
        v = (e[1] - e[3]) / 2 if b >= a else (e[0] - e[2]) / 2
        long_side, short_side = max(a, b), min(a, b)
        if short_side < 3:
            continue
        t = float(np.arctan2(v[1], v[0]))
        cx, cy = q.mean(axis=0)
        px, py, thick = cx, cy, short_side
        if anchors is not None:
            if anchor is None or 2 * anchor[2] < min_show * short_side:
                continue
            # the least of a numpy and a Python float, as the targets were always made (bit for bit)
            px, py, thick = anchor[0], anchor[1], min(short_side, 2 * anchor[2])  # type: ignore[arg-type]
        sigma = float(np.clip(thick / STRIDE / 8, 0.7, 3.0)) * STRIDE
        g = np.exp(-((xs - px) ** 2 + (ys - py) ** 2) / (2 * sigma**2)).astype(np.float32)
        # the peak cell is exactly 1
        j, i = int(np.clip(px // STRIDE, 0, w - 1)), int(np.clip(py // STRIDE, 0, h - 1))
        g[i, j] = 1.0
        np.maximum(heat, g, out=heat)
        take = (g > owner) & (g > 0.3)
        owner = np.where(take, g, owner)
        vals = [
            (cx - xs) / STRIDE + 0 * ys,
            (cy - ys) / STRIDE + 0 * xs,
            np.full((h, w), np.log(long_side / SIZE_REF)),
            np.full((h, w), np.log(short_side / SIZE_REF)),
            np.full((h, w), np.cos(2 * t)),
            np.full((h, w), np.sin(2 * t)),
        ]
        x0, y0, x1, y1 = shows if shows is not None else (cx, cy, cx, cy)
        vals += [np.full((h, w), (cx - x0) / long_side), np.full((h, w), (cy - y0) / long_side),
                 np.full((h, w), (x1 - cx) / long_side), np.full((h, w), (y1 - cy) / long_side)]  # fmt: skip
        for k, val in enumerate(vals):
            reg[k] = np.where(take, val, reg[k])
        weight = np.where(take, g, weight)
        vweight = np.where(take, g if shows is not None else 0.0, vweight)
    return heat[None], reg, np.stack([weight, vweight])


def normalise(img: np.ndarray) -> np.ndarray:
    """BGR uint8 HxWx3 -> float32 3xHxW in [-1, 1] (as ``vision.detector``)."""
    return img.transpose(2, 0, 1).astype(np.float32) / 127.5 - 1.0


class Scenes(torch.utils.data.IterableDataset):  # type: ignore[type-arg]
    """Endless batches of generated scenes; each worker has its own seeded stream."""

    def __init__(self, seed: int, batch: int, shape: tuple[int, int], refresh: int = 150,
                 peak: str = "centre", keep_shown: bool = False,
                 min_show: float = MIN_SHOW, large_share: float = 0.0,
                 cover_share: float = 0.0, real_faces: float = 0.0, real_photos: float = 0.0,
                 real_pool: int = 400, close_share: float = 0.0) -> None:  # fmt: skip
        self.seed, self.batch, self.shape, self.refresh = seed, batch, shape, refresh
        self.min_show = min_show  # the thinnest strip (short sides) that is a target
        self.peak = peak  # "centre" (experiments 2 to 5) or "visible" (see encode)
        self.keep_shown = keep_shown  # also cards whose centre is out of the photo
        self.large_share = large_share  # share of scenes of a few large cards (make_scene)
        self.cover_share = cover_share  # share of scenes with a card partly under a cover
        self.close_share = close_share  # share of scenes of one card filling the photo
        self.real_faces = real_faces  # share of scenes laid with real faces (real_scenes)
        self.real_photos = real_photos  # share of samples that are edje train photos
        self.real_pool = real_pool  # real faces each worker holds

    def __iter__(self):  # type: ignore[no-untyped-def]
        info = torch.utils.data.get_worker_info()
        wid = info.id if info is not None else 0
        rng = np.random.default_rng([self.seed, wid])
        source = FaceSource(rng)
        photos: list[real_scenes.LabelledPhoto] = []
        if self.real_faces > 0.0:
            source.real = real_scenes.real_faces(rng, self.real_pool)
            source.real_share = self.real_faces
        if self.real_photos > 0.0:
            photos = real_scenes.load_photos(real_scenes.edje_split()[0])
        made = 0
        while True:
            xs, heats, regs, weights = [], [], [], []
            for _ in range(self.batch):
                if photos and rng.random() < self.real_photos:
                    img, boxes = real_scenes.photo_sample(
                        rng, photos[int(rng.integers(len(photos)))], self.shape
                    )
                    corners, real_anchors = real_scenes.box_targets(boxes)
                    heat, reg, weight = encode(corners, self.shape, None, real_anchors,
                                               self.min_show)  # fmt: skip
                    weight[:] = 0.0  # the boxes teach the heat alone (training.real_scenes)
                    xs.append(normalise(img))
                    heats.append(heat)
                    regs.append(reg)
                    weights.append(weight)
                    continue
                if made and made % self.refresh == 0:
                    source.refresh()
                try:
                    img, cards = letterbox_scene(
                        rng,
                        source,
                        self.shape,
                        keep_shown=self.keep_shown,
                        large_share=self.large_share,
                        cover_share=self.cover_share,
                        close_share=self.close_share,
                    )
                except Exception as err:  # noqa: BLE001  a rare bad draw must not stop a run
                    print(f"worker {wid}: scene {made} failed ({err!r}), drawing another",
                          flush=True)  # fmt: skip
                    continue
                made += 1
                anchors = [c.anchor for c in cards] if self.peak == "visible" else None
                heat, reg, weight = encode([c.corners for c in cards], self.shape,
                                           [c.visible for c in cards], anchors,
                                           self.min_show)  # fmt: skip
                xs.append(normalise(img))
                heats.append(heat)
                regs.append(reg)
                weights.append(weight)
            yield (torch.from_numpy(np.stack(xs)), torch.from_numpy(np.stack(heats)),
                   torch.from_numpy(np.stack(regs)), torch.from_numpy(np.stack(weights)))  # fmt: skip


def _conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU(inplace=True))  # fmt: skip


class DetectorNet(nn.Module):
    """Encoder to stride 32, a small feature pyramid back to stride 4, two heads."""

    def __init__(self, width: float = 1.0, reg_channels: int = OUT_CHANNELS - 1) -> None:
        super().__init__()
        c = [max(8, int(round(v * width))) for v in (16, 24, 32, 48, 64, 96)]
        self.s2 = _conv(3, c[0], 2)
        self.s4 = nn.Sequential(_conv(c[0], c[1], 2), _conv(c[1], c[1]))
        self.s8 = nn.Sequential(_conv(c[1], c[2], 2), _conv(c[2], c[2]))
        self.s16 = nn.Sequential(_conv(c[2], c[3], 2), _conv(c[3], c[3]), _conv(c[3], c[3]))
        self.s32 = nn.Sequential(_conv(c[3], c[4], 2), _conv(c[4], c[5]), _conv(c[5], c[5]))
        f = c[2]
        self.lat32 = nn.Conv2d(c[5], f, 1)
        self.lat16 = nn.Conv2d(c[3], f, 1)
        self.lat8 = nn.Conv2d(c[2], f, 1)
        self.lat4 = nn.Conv2d(c[1], f, 1)
        self.smooth16 = _conv(f, f)
        self.smooth8 = _conv(f, f)
        self.smooth4 = _conv(f, f)
        self.heat = nn.Sequential(_conv(f, f), nn.Conv2d(f, 1, 1))
        self.reg = nn.Sequential(_conv(f, f), nn.Conv2d(f, reg_channels, 1))
        nn.init.constant_(self.heat[-1].bias, -2.19)  # type: ignore[arg-type]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x4 = self.s4(self.s2(x))
        x8 = self.s8(x4)
        x16 = self.s16(x8)
        x32 = self.s32(x16)
        p = self.lat32(x32)
        p = self.smooth16(F.interpolate(p, scale_factor=2.0, mode="nearest") + self.lat16(x16))
        p = self.smooth8(F.interpolate(p, scale_factor=2.0, mode="nearest") + self.lat8(x8))
        p = self.smooth4(F.interpolate(p, scale_factor=2.0, mode="nearest") + self.lat4(x4))
        return torch.cat([self.heat(p), self.reg(p)], dim=1)  # heat as logits


class Exported(nn.Module):
    """The exported graph: heat as a probability."""

    def __init__(self, net: DetectorNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = self.net(x)
        return torch.cat([torch.sigmoid(out[:, :1]), out[:, 1:]], dim=1)


def focal_loss(logits: torch.Tensor, heat: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss, per positive."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    pos = heat.ge(0.999).float()
    neg = 1 - pos
    pos_loss = -torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = -torch.log(1 - p) * p**2 * (1 - heat) ** 4 * neg
    n = pos.sum().clamp(min=1)
    return (pos_loss.sum() + neg_loss.sum()) / n


def losses(out: torch.Tensor, heat: torch.Tensor, reg: torch.Tensor, weight: torch.Tensor
           ) -> tuple[torch.Tensor, torch.Tensor]:  # fmt: skip
    hl = focal_loss(out[:, :1], heat)
    diff = F.smooth_l1_loss(out[:, 1:], reg, reduction="none", beta=0.1)
    base = BASE_CHANNELS - 1
    scale = torch.tensor([1.0, 1.0, 2.0, 2.0, 2.0, 2.0], device=out.device).view(1, base, 1, 1)
    rl = (diff[:, :base] * scale * weight[:, :1]).sum() / weight[:, :1].sum().clamp(min=1)
    # the visible part, in long sides: weighed like the log sides
    vl = (diff[:, base:] * 4.0 * weight[:, 1:]).sum() / weight[:, 1:].sum().clamp(min=1)
    return hl, rl + vl


def detector_step(model: nn.Module, opt: torch.optim.Optimizer, x: torch.Tensor,
                  heat: torch.Tensor, reg: torch.Tensor, weight: torch.Tensor,
                  bf16: bool = False) -> tuple[torch.Tensor, torch.Tensor]:  # fmt: skip
    """One optimiser step on a batch of scenes: the heatmap and regression losses. With
    ``bf16`` the network runs under torch's autocast in bfloat16; its output is cast back, so
    the losses and the update stay float32 (``training.train.train_step`` does the same)."""
    with torch.autocast(x.device.type, dtype=torch.bfloat16, enabled=bf16):
        out = model(x)
    hl, rl = losses(out.float(), heat, reg, weight)
    opt.zero_grad()
    (hl + rl).backward()
    opt.step()
    return hl, rl


def load_state(model: DetectorNet, state: dict[str, torch.Tensor]) -> None:
    """Load a saved state; a state of a detector without the visible-part channels (experiments 2
    to 4) gives the whole-card channels, and the new ones start from a plain guess (the
    centre to the edges of an upright card: half its short and long side)."""
    head = "reg.1."
    old = state[head + "weight"].shape[0]
    if old < OUT_CHANNELS - 1:
        last = cast(nn.Conv2d, model.reg[1])
        weight, bias = last.weight.detach().clone(), cast(torch.Tensor, last.bias).detach().clone()
        weight[:old] = state[head + "weight"]
        weight[old:] *= 0.1
        bias[:old] = state[head + "bias"]
        bias[old:] = torch.tensor([0.36, 0.5, 0.36, 0.5])
        state = {**state, head + "weight": weight, head + "bias": bias}
    model.load_state_dict(state)


def load_onnx_weights(model: DetectorNet, path: Path, skip: tuple[str, ...] = ()) -> None:
    """Start from an exported detector (the shipped ``kibic_detector.onnx``, say), whose
    saved state may be gone. The exporter folded each batch norm into the conv before it, so
    such a norm becomes the identity plus the folded bias; ``freeze_norms`` keeps it so.
    Each ONNX Conv is matched to its module by the node's name (``/net/s4/s4.0/s4.0.0/Conv``
    is ``s4.0.0``); a graph of another shape is refused, naming what did not fit. The convs
    named in ``skip`` (a head of another shape, say) keep their own start."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    init = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    modules = dict(model.named_modules())
    convs = [n for n in graph.node if n.op_type == "Conv"]
    expected = [name for name, m in modules.items() if isinstance(m, nn.Conv2d)]
    names = [n.name.removeprefix("/net/").split("/")[-2] for n in convs]
    if sorted(names) != sorted(expected):
        raise ValueError(f"{path}: its convs {sorted(set(names) ^ set(expected))} do not fit "
                         f"a DetectorNet of this width")  # fmt: skip
    with torch.no_grad():
        for node, name in zip(convs, names, strict=True):
            if name in skip:
                continue
            conv = cast(nn.Conv2d, modules[name])
            weight = torch.from_numpy(init[node.input[1]].copy())
            if tuple(weight.shape) != tuple(conv.weight.shape):
                raise ValueError(f"{path}: {name} is {tuple(weight.shape)}, the net's "
                                 f"{tuple(conv.weight.shape)}")  # fmt: skip
            bias = torch.from_numpy(init[node.input[2]].copy())
            conv.weight.copy_(weight)
            norm = norm_after(modules, name)
            if norm is not None:
                set_folded(norm, bias)
            else:
                cast(torch.Tensor, conv.bias).copy_(bias)


def norm_after(modules: dict[str, nn.Module], conv: str) -> nn.BatchNorm2d | None:
    """The batch norm right after the conv named ``conv`` (``s4.0.0`` -> ``s4.0.1``), if any."""
    parent, _, index = conv.rpartition(".")
    norm = modules.get(f"{parent}.{int(index) + 1}") if index.isdigit() else None
    return norm if isinstance(norm, nn.BatchNorm2d) else None


def set_folded(norm: nn.BatchNorm2d, bias: torch.Tensor) -> None:
    """Make ``norm`` what the exporter folded it into: the identity plus ``bias``."""
    assert norm.running_mean is not None and norm.running_var is not None
    norm.running_mean.zero_()
    norm.running_var.fill_(1.0 - norm.eps)
    norm.weight.fill_(1.0)
    norm.bias.copy_(bias)


def export(model: DetectorNet, shape: tuple[int, int], out: Path) -> None:
    """ONNX (opset 17), dynamic batch and spatial size; the TorchScript exporter, else dynamo."""
    dummy = torch.zeros(1, 3, *shape)
    kwargs: dict[str, object] = dict(
        input_names=["input"],
        output_names=["output"],
        dynamic_axes={"input": {0: "n", 2: "h", 3: "w"}, "output": {0: "n", 2: "oh", 3: "ow"}},
        opset_version=17,
    )
    try:
        torch.onnx.export(Exported(model), (dummy,), str(out), dynamo=False, **kwargs)  # type: ignore[arg-type]
    except Exception as err:  # noqa: BLE001
        print(f"TorchScript export failed ({err!r}), trying dynamo", flush=True)
        torch.onnx.export(Exported(model), (dummy,), str(out), dynamo=True, **kwargs)  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--batch", type=int, default=12)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", default="cpu", help="cpu or cuda")
    parser.add_argument("--workers", type=int, default=1, help="scene generator processes")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (CPU)")
    parser.add_argument("--input", type=int, default=384, help="longest input side (px)")
    parser.add_argument("--width", type=float, default=1.0, help="channel multiplier")
    parser.add_argument("--max-seconds", type=float, default=None,
                        help="stop early (and still export) after this long")  # fmt: skip
    parser.add_argument("--peak", choices=("centre", "visible"), default="centre",
                        help="where a card's heat peaks: its centre, or inside the part that "
                             "shows (a covered card is found where it is seen)")  # fmt: skip
    parser.add_argument("--keep-shown", action="store_true",
                        help="also train on the cards whose centre is out of the photo but part "
                             "of which shows (with --peak visible)")  # fmt: skip
    parser.add_argument("--min-show", type=float, default=MIN_SHOW,
                        help="with --peak visible: the thinnest strip (in short sides) of a "
                             f"covered card that is still a target (default {MIN_SHOW})")  # fmt: skip
    parser.add_argument("--large-share", type=float, default=0.0,
                        help="share of scenes of a few large cards, the size they have in "
                             "close-up photos (training.detector_scenes.LARGE_WIDTH)")  # fmt: skip
    parser.add_argument("--cover-share", type=float, default=0.0,
                        help="share of scenes in which one card is partly under something that "
                             "is not a card: a rug, a cloth, a book (detector_scenes.draw_cover)")  # fmt: skip
    parser.add_argument("--close-share", type=float, default=0.0,
                        help="share of scenes of one card filling most of the photo or running "
                             "past its edges (detector_scenes.CLOSE_WIDTH, experiment 91)")  # fmt: skip
    parser.add_argument("--real-faces", type=float, default=0.0,
                        help="share of scenes laid with real card faces from card-crops' "
                             "training part (training.real_scenes)")  # fmt: skip
    parser.add_argument("--real-photos", type=float, default=0.0,
                        help="share of samples that are edje-cards train photos (all but every "
                             "fifth, held out to decide on); they teach the heat alone")  # fmt: skip
    parser.add_argument("--bf16", action="store_true",
                        help="run the network in bfloat16 where torch's autocast does (CPU "
                             "with AVX-512 BF16 or AMX, or CUDA); losses and update stay "
                             "float32")  # fmt: skip
    parser.add_argument("--out", type=Path, default=Path("models/kibic_detector.onnx"))
    parser.add_argument("--init", type=Path, default=None,
                        help="start from a state dict saved by an earlier run (.pt)")  # fmt: skip
    parser.add_argument("--init-onnx", type=Path, default=None,
                        help="start from an exported detector (.onnx, e.g. the shipped one); "
                             "its batch norms are folded, so they stay frozen")  # fmt: skip
    parser.add_argument("--export-only", type=Path, default=None,
                        help="export a saved state dict (.pt) and stop")  # fmt: skip
    args = parser.parse_args()
    if args.keep_shown and args.peak != "visible":
        parser.error("--keep-shown needs --peak visible (a card whose centre is out of the "
                     "photo has no peak there)")  # fmt: skip
    if not 0.0 <= args.large_share <= 1.0:
        parser.error(f"--large-share {args.large_share:g} is not between 0 and 1")
    if not 0.0 <= args.cover_share <= 1.0:
        parser.error(f"--cover-share {args.cover_share:g} is not between 0 and 1")
    for name in ("real_faces", "real_photos", "close_share"):
        share = getattr(args, name)
        if not 0.0 <= share <= 1.0:
            parser.error(f"--{name.replace('_', '-')} {share:g} is not between 0 and 1")
    if not 0.0 < args.min_show < 1.0:
        parser.error(f"--min-show {args.min_show:g} is not between 0 and 1 short side")
    if args.export_only is not None:
        net = DetectorNet(args.width)
        net.load_state_dict(torch.load(args.export_only, map_location="cpu"))
        export(net.eval(), input_shape(args.input), args.out)
        print(f"exported {args.out}", flush=True)
        return

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    torch.backends.cudnn.benchmark = True
    shape = input_shape(args.input)
    device = torch.device(args.device)
    model = DetectorNet(args.width)
    if args.init is not None and args.init_onnx is not None:
        parser.error("give --init or --init-onnx, not both")
    if args.init is not None:  # continue from a saved state (a fresh schedule)
        load_state(model, torch.load(args.init, map_location="cpu"))
    if args.init_onnx is not None:
        load_onnx_weights(model, args.init_onnx)
    model.to(device)
    data = torch.utils.data.DataLoader(
        Scenes(args.seed, args.batch, shape, peak=args.peak, keep_shown=args.keep_shown,
               min_show=args.min_show, large_share=args.large_share,
               cover_share=args.cover_share, real_faces=args.real_faces,
               real_photos=args.real_photos, close_share=args.close_share),
        batch_size=None, num_workers=args.workers,
        prefetch_factor=4 if args.workers else None, pin_memory=args.device != "cpu",
    )  # fmt: skip
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    start = time.time()
    first_batch = None
    model.train()
    if args.init_onnx is not None:
        freeze_norms(model)
    run_h = run_r = 0.0
    count = 0
    step = 0
    stopped = None
    for step, (x, heat, reg, weight) in enumerate(data):  # noqa: B007
        if first_batch is None:
            first_batch = time.time() - start
        if step >= args.steps:
            break
        elapsed = time.time() - start
        if args.max_seconds is not None and elapsed > args.max_seconds:
            stopped = f"stopped at step {step} after {elapsed:.0f}s (--max-seconds)"
            print(stopped, flush=True)
            break
        # warm-up, then cosine to zero over the steps or the seconds, whichever runs out first
        progress = step / args.steps
        if args.max_seconds is not None:
            progress = max(
                progress, (elapsed - first_batch) / max(args.max_seconds - first_batch, 1)
            )
        factor = min(1.0, (step + 1) / 100) * 0.5 * (1 + np.cos(np.pi * min(progress, 1.0)))
        for group in opt.param_groups:
            group["lr"] = args.lr * float(factor)
        x, heat = x.to(device, non_blocking=True), heat.to(device, non_blocking=True)
        reg, weight = reg.to(device, non_blocking=True), weight.to(device, non_blocking=True)
        hl, rl = detector_step(model, opt, x, heat, reg, weight, bf16=args.bf16)
        run_h += float(hl.detach())
        run_r += float(rl.detach())
        count += 1
        if (step + 1) % 100 == 0:
            rate = (step + 1) * args.batch / max(time.time() - start - first_batch, 1e-6)
            print(f"step {step + 1} heat {run_h / count:.3f} reg {run_r / count:.3f} "
                  f"{time.time() - start:.0f}s {rate:.1f} samples/s", flush=True)  # fmt: skip
            run_h = run_r = 0.0
            count = 0
    steps_done = step if stopped or step >= args.steps else step + 1
    seconds = time.time() - start
    model.eval().to("cpu")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    machine = f"{platform.machine()} {os.cpu_count()} CPUs, {platform.platform()}"
    if args.device.startswith("cuda") and torch.cuda.is_available():
        machine += f", {torch.cuda.get_device_name(0)}"
    meta = {
        "input": {
            "long_side": args.input,
            "multiple": 32,
            "channels": "BGR",
            "scale": "x/127.5-1",
            "pad": 128,
            "letterbox": "top-left",
        },
        "output": {
            "stride": STRIDE,
            "channels": CHANNELS,
            "size_ref": SIZE_REF,
        },
        "training": {
            "command": label_errata.command_prefix()
            + "python -m training.train_detector "
            + " ".join(sys.argv[1:]),
            "labels": label_errata.described(),
            "steps": steps_done,
            "batch": args.batch,
            "samples": steps_done * args.batch,
            "seconds": round(seconds, 1),
            "stopped_early": stopped,
            "machine": machine,
            "torch": torch.__version__,
            "device": args.device,
            "workers": args.workers,
            "width": args.width,
            "init_onnx": None if args.init_onnx is None else str(args.init_onnx),
            "peak": args.peak,
            "keep_shown": args.keep_shown,
            "large_share": args.large_share,
            "cover_share": args.cover_share,
            "close_share": args.close_share,
            "real_faces": args.real_faces,
            "real_photos": args.real_photos,
            "bf16": args.bf16,
        },
    }
    args.out.with_suffix(".json").write_text(json.dumps(meta, indent=1))
    torch.save(model.state_dict(), args.out.with_suffix(".pt"))  # in case the export fails
    export(model, shape, args.out)
    print(f"exported {args.out} after {steps_done} steps, {seconds:.0f}s", flush=True)


if __name__ == "__main__":
    main()
