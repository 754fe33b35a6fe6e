"""Train the corner-index finder (``vision.corner_finder``) on the corner-boxes photos and export
it to ONNX (needs the ``train`` extra).

The card detector (``training.train_detector``) finds whole cards; where cards are fanned in a
hand or lie over one another, what shows of most of them is a strip with a corner index. This
net finds those indices: the card detector's net (``DetectorNet``, started from the shipped
``kibic_detector.onnx``) with a heatmap of index centres and, per cell, the offset to the
centre and the log width and height of the index's box (axis-aligned, as the labels are). Each
found box is then read by ``training.train_corner_reader``'s model.

Data: the training photos of corner-boxes (``training.real_finder_crops.photos``: desk, single,
gold-deck), real photographs only, each sample a ``--size`` square cut at a random scale and
turn (``training.corner_samples.scene``). The shipped model (version 1, models/MODEL_CARD.md:
variant A of ``training/device_corners.sh``, 2,239 steps in 271 s on a lent H200)::

    python -m training.train_corner_finder --device cuda --workers 7 --batch 48 \\
        --max-seconds 270 --seed 1 --out models/kibic_corners.onnx

The scenes are cut by the data workers, so the steps a run makes in its time depend on the
machine's cores.

``--faces SHARE`` cuts that share of the scenes from card-crops' training faces laid as at a
table (``training.face_tables``), and ``--fine-tune`` starts every conv, the heads too, from a
finder given as ``--init-onnx`` (experiment 58, not adopted: version 2 found 98 % of those
tables' indices, against 79 %, but read more cards that are not there).
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from models import MODEL_DIR
from training import face_tables
from training.corner_samples import LabelledPhoto, load, scene
from training.face_tables import Faces
from training.train_detector import DetectorNet, export, focal_loss, load_onnx_weights, normalise
from vision import label_errata

STRIDE = 4
SIZE_REF = 16.0  # px: the log sides are of (side / SIZE_REF)
CHANNELS = ["heat", "dx", "dy", "log_w", "log_h"]
TABLE_USES = 8  # training scenes cut from each of face_tables' tables
DEFAULT_OUT = MODEL_DIR / "kibic_corners.onnx"


def encode(boxes: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Targets at stride 4 for a ``size`` square scene: heat (1,h,w) with a Gaussian peak at
    each box's centre, regression (4,h,w) and its weight (1,h,w)."""
    n = size // STRIDE
    heat = np.zeros((n, n), np.float32)
    reg = np.zeros((4, n, n), np.float32)
    weight = np.zeros((n, n), np.float32)
    centres = np.arange(n, dtype=np.float32) * STRIDE + (STRIDE - 1) / 2
    ys, xs = centres[:, None], centres[None, :]
    for cx, cy, w, h in boxes:
        if min(w, h) < 2:
            continue
        sigma = float(np.clip(min(w, h) / STRIDE / 5, 0.6, 3.0)) * STRIDE
        g = np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * sigma**2)).astype(np.float32)
        j, i = int(np.clip(cx // STRIDE, 0, n - 1)), int(np.clip(cy // STRIDE, 0, n - 1))
        g[i, j] = 1.0
        np.maximum(heat, g, out=heat)
        take = (g > weight) & (g > 0.3)
        values = [(cx - xs) / STRIDE + 0 * ys, (cy - ys) / STRIDE + 0 * xs,
                  np.full((n, n), np.log(w / SIZE_REF)), np.full((n, n), np.log(h / SIZE_REF))]  # fmt: skip
        for k, value in enumerate(values):
            reg[k] = np.where(take, value, reg[k])
        weight = np.where(take, g, weight)
    return heat[None], reg, weight[None]


class Samples(torch.utils.data.IterableDataset):  # type: ignore[type-arg]
    """Endless batches of scenes; each worker has its own seeded stream. Desk photos (the most
    like a card table, and the fewest) are drawn ``desk_weight`` times as often."""

    def __init__(self, photos: list[LabelledPhoto], seed: int, batch: int, size: int,
                 desk_weight: float = 3.0, faces: Faces | None = None,
                 faces_share: float = 0.0) -> None:  # fmt: skip
        self.photos, self.seed, self.batch, self.size = photos, seed, batch, size
        weights = np.array([desk_weight if p.folder == "desk" else 1.0 for p in photos])
        self.p = weights / weights.sum()
        self.faces, self.faces_share = faces, faces_share if faces is not None else 0.0

    def __iter__(self):  # type: ignore[no-untyped-def]
        info = torch.utils.data.get_worker_info()
        rng = np.random.default_rng([self.seed, info.id if info else 0])
        tables = face_tables.TableStream(self.faces, TABLE_USES) if self.faces is not None else None
        while True:
            xs, heats, regs, weights = [], [], [], []
            for _ in range(self.batch):
                if tables is not None and rng.random() < self.faces_share:
                    photo = tables.next(rng)
                else:
                    photo = self.photos[int(rng.choice(len(self.photos), p=self.p))]
                image, boxes = scene(photo, rng, self.size)
                heat, reg, weight = encode(boxes, self.size)
                xs.append(normalise(image))
                heats.append(heat)
                regs.append(reg)
                weights.append(weight)
            yield tuple(torch.from_numpy(np.stack(v)) for v in (xs, heats, regs, weights))


def losses(out: torch.Tensor, heat: torch.Tensor, reg: torch.Tensor, weight: torch.Tensor
           ) -> tuple[torch.Tensor, torch.Tensor]:  # fmt: skip
    diff = F.smooth_l1_loss(out[:, 1:], reg, reduction="none", beta=0.1)
    scale = torch.tensor([1.0, 1.0, 2.0, 2.0], device=out.device).view(1, 4, 1, 1)
    rl = (diff * scale * weight).sum() / weight.sum().clamp(min=1)
    return focal_loss(out[:, :1], heat), rl


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--steps", type=int, default=100000)
    parser.add_argument("--max-seconds", type=float, default=240)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--size", type=int, default=320, help="the training scenes' side, px")
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--init-onnx", type=Path,
                        default=MODEL_DIR / "kibic_detector.onnx",
                        help="start the net (all but its regression head) from this card "
                             "detector; 'none' starts from scratch")  # fmt: skip
    parser.add_argument("--fine-tune", action="store_true",
                        help="--init-onnx is a corner-index finder: start every conv from it, "
                             "its heads too")  # fmt: skip
    parser.add_argument("--faces", type=float, default=0.0, metavar="SHARE",
                        help="that share of the scenes cut from card-crops' training faces laid "
                             "as at a table (training.face_tables)")  # fmt: skip
    parser.add_argument("--version", type=int, default=1, help="the model's version")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    if not 0 <= args.faces <= 1:
        parser.error(f"--faces must be a share from 0 to 1, not {args.faces:g}")
    if args.fine_tune and str(args.init_onnx) == "none":
        parser.error("--fine-tune starts from --init-onnx: not with --init-onnx none")
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    start = time.time()
    photos = load("train")
    print(f"{len(photos)} photos, {sum(len(p.boxes) for p in photos)} boxes, "
          f"{time.time() - start:.0f}s", flush=True)  # fmt: skip
    faces = None
    if args.faces > 0:
        faces = face_tables.indexed_faces(
            "train", args.init_onnx if args.fine_tune else DEFAULT_OUT
        )
        print(f"{len(faces.codes)} card-crops faces with an index found, "
              f"{time.time() - start:.0f}s", flush=True)  # fmt: skip
    model = DetectorNet(1.0, reg_channels=len(CHANNELS) - 1)
    frozen = str(args.init_onnx) != "none"
    if frozen:
        load_onnx_weights(model, args.init_onnx, skip=() if args.fine_tune else ("reg.1",))
    device = torch.device(args.device)
    model.to(device).train()
    if frozen:
        from training.train import freeze_norms

        freeze_norms(model)  # the exporter folded them: they stay the identity
    data = torch.utils.data.DataLoader(
        Samples(photos, args.seed, args.batch, args.size, faces=faces, faces_share=args.faces),
        batch_size=None,
        num_workers=args.workers, prefetch_factor=4 if args.workers else None,
        pin_memory=args.device != "cpu",
    )  # fmt: skip
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    step, run = 0, [0.0, 0.0]
    for step, batch in enumerate(data):  # noqa: B007
        elapsed = time.time() - start
        if step >= args.steps or elapsed > args.max_seconds:
            break
        lr = args.lr * min(1.0, (step + 1) / 100) * (0.1 if elapsed > 0.8 * args.max_seconds else 1)
        for group in opt.param_groups:
            group["lr"] = lr
        x, heat, reg, weight = (t.to(device, non_blocking=True) for t in batch)
        hl, rl = losses(model(x), heat, reg, weight)
        opt.zero_grad()
        (hl + rl).backward()
        opt.step()
        run = [0.98 * run[0] + 0.02 * hl.item(), 0.98 * run[1] + 0.02 * rl.item()]
        if (step + 1) % 100 == 0:
            print(f"step {step + 1} heat {run[0]:.3f} reg {run[1]:.3f} {elapsed:.0f}s", flush=True)
    model.cpu().eval()
    export(model, (args.size, args.size), args.out)
    meta = {
        "version": args.version,
        "input": {"channels": "BGR", "scale": "x/127.5-1", "multiple": 32, "pad": 128},
        "output": {"stride": STRIDE, "channels": CHANNELS, "size_ref": SIZE_REF},
        "training": {
            "name": f"corner-index finder, version {args.version}",
            "command": label_errata.command_prefix()
            + f"python -m training.train_corner_finder --device {args.device} "
            f"--workers {args.workers} --batch {args.batch} --max-seconds {args.max_seconds:g} "
            f"--steps {args.steps} --seed {args.seed} --size {args.size} --lr {args.lr:g}"
            + ("" if frozen else " --init-onnx none")
            + (f" --init-onnx {args.init_onnx} --fine-tune" if args.fine_tune else "")
            + (f" --faces {args.faces:g}" if faces is not None else "")
            + (f" --version {args.version}" if args.version != 1 else ""),
            "labels": label_errata.described(),
            "data": "corner-boxes training photos (training.real_finder_crops.photos), "
            f"{len(photos)} real photos"
            + (
                f"; card-crops' training faces laid as at a table (training.face_tables), "
                f"{len(faces.codes)} faces, {args.faces:g} of the scenes"
                if faces is not None
                else ""
            ),  # fmt: skip
            "steps": step,
            "seconds": round(time.time() - start),
            "machine": f"torch {torch.__version__}, {args.device}, {platform.machine()}",
        },
    }
    args.out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"done: {step} steps in {time.time() - start:.0f}s -> {args.out}", flush=True)


if __name__ == "__main__":
    main()
