"""Train the card recognition CNN on rendered faces and export it to ONNX (needs the ``train`` extra).

The shipped model (version 3.1, see MODEL_CARD.md) is version 3, trained on a lent GPU machine:

    python -m training.train --device cuda --workers 14 --batch 256 --width 1.25 --lr 0.004 \
        --seed 10 --art --art-share 0.6 --steps 200000 --max-seconds 330 --out /tmp/v3.onnx

fine-tuned for 55 min on this 2-core machine's CPU:

    python -m training.train --init-onnx /tmp/v3.onnx --width 1.25 --steps 100000 --batch 64 \
        --seed 30 --threads 2 --workers 1 --lr 0.0005 --art --art-share 0.6 --max-seconds 3300 \
        --out models/kibic_cards.onnx

On this 2-core machine's CPU in under an hour (55 min; below version 3, see MODEL_CARD.md):

    python -m training.train --steps 100000 --batch 64 --seed 20 --threads 1 --workers 1 \
        --lr 0.003 --art --art-share 0.6 --max-seconds 3300 --out /tmp/cpu1h.onnx

Version 2 (CPU, four stages: 2 procedural, then 2 with the artwork):

    python -m training.train --steps 4000 --seed 0 --threads 1 --lr 0.003 --out /tmp/stage1.onnx
    python -m training.train --steps 3500 --seed 1 --threads 1 --lr 0.001 \
        --init-onnx /tmp/stage1.onnx --out /tmp/v1.onnx
    python -m training.train --steps 5000 --seed 2 --threads 1 --lr 0.002 \
        --init-onnx /tmp/v1.onnx --art --art-share 0.6 --out /tmp/art1.onnx
    python -m training.train --steps 3500 --seed 3 --threads 1 --lr 0.0007 \
        --init-onnx /tmp/art1.onnx --art --art-share 0.6 --out /tmp/v2.onnx

``--art`` mixes in the printed-deck artwork of ``training.artwork``, fetched and rendered under
/tmp on first use. Samples are generated on the fly by ``training.synth`` in ``--workers``
processes, each with its own seeded stream (no data on disk). Step counts and seeds fix the
data; ``--max-seconds`` makes the learning-rate schedule follow the clock instead. The export
writes the ``.onnx`` file and a ``.labels.json`` beside it. ``--under-share S`` draws that
share of the card samples under the next card of a fan, only a strip of them showing
(``training.synth.cover_from_side``; with 0.1 it made the still-photo classifier
``kibic_photo_cards.onnx``, experiment 8: MODEL_HISTORY.md).
``--quad-error Q`` warps each card with the still-photo detector's larger errors of place, size
and angle (``training.synth.warp_face``, Q times the spread measured in experiment 8).
``--clutter-none C`` replaces that share of the samples by crops of printed paper, desks and
the middle of card faces, labelled ``none`` (``training.clutter``, experiment 13).
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from models import command_path
from training.clutter import KINDS as CLUTTER_KINDS
from training.clutter import clutter_none_sample
from training.onnx_features import add_features_output
from training.real_crops import SPLIT_SEED as REAL_SPLIT_SEED
from training.real_crops import TUNE_PER_CLASS as REAL_TUNE
from training.real_finder_crops import SPLIT_SEED as FINDER_SPLIT_SEED
from training.real_finder_crops import TUNE_SHARE as FINDER_TUNE
from training.real_print import MAX_OVERLAP
from training.synth import MODEL_LABELS, TRAIN_DESIGN_SEEDS, FacePool, augment, make_sample
from vision import label_errata
from vision.detector import DEFAULT_DETECTOR
from vision.labels import NONE_LABEL
from vision.recognizer import DEFAULT_MODEL, INPUT_H, INPUT_W, preprocess

NONE_INDEX = MODEL_LABELS.index(NONE_LABEL)


class CardNet(nn.Module):
    """A small VGG-like CNN: 96x64x3 -> len(MODEL_LABELS) logits; ``width`` scales the channels
    (1.0: 16-32-48-48-96, the version-1/2 net)."""

    def __init__(self, n_classes: int, width: float = 1.0) -> None:
        super().__init__()
        c1, c2, c3, c4 = (int(round(c * width)) for c in (16, 32, 48, 96))
        hidden = int(round(160 * width))

        def block(cin: int, cout: int) -> list[nn.Module]:
            return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]

        self.features = nn.Sequential(
            *block(3, c1), nn.MaxPool2d(2),  # 48x32
            *block(c1, c2), nn.MaxPool2d(2),  # 24x16
            *block(c2, c3), *block(c3, c3), nn.MaxPool2d(2),  # 12x8
            *block(c3, c4), nn.MaxPool2d(2),  # 6x4
        )  # fmt: skip
        self.head = nn.Sequential(
            nn.Flatten(), nn.Dropout(0.2), nn.Linear(c4 * 6 * 4, hidden), nn.ReLU(),
            nn.Linear(hidden, n_classes),
        )  # fmt: skip

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


def load_onnx_weights(model: CardNet, path: Path) -> None:
    """Start from an exported model: its convs have the batch norms folded in, so each BN
    becomes the identity plus the folded bias (and is kept frozen by ``freeze_norms``)."""
    copy_folded(path, [m for m in model.features if isinstance(m, nn.Conv2d)],
                [m for m in model.features if isinstance(m, nn.BatchNorm2d)],
                [m for m in model.head if isinstance(m, nn.Linear)])  # fmt: skip


def copy_folded(path: Path, convs: list[nn.Conv2d], norms: list[nn.BatchNorm2d],
                linears: list[nn.Linear]) -> None:  # fmt: skip
    """The weights of the exported ONNX at ``path`` into ``convs`` (each followed by its batch
    norm in ``norms``) and ``linears``, in the graph's order: each norm becomes the identity plus
    the bias the exporter folded into its conv. A graph of another shape is refused."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    init = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    conv_nodes = [n for n in graph.node if n.op_type == "Conv"]
    gemm_nodes = [n for n in graph.node if n.op_type == "Gemm"]
    if len(conv_nodes) != len(convs) or len(gemm_nodes) != len(linears):
        raise ValueError(f"{path}: {len(conv_nodes)} convs and {len(gemm_nodes)} linear layers, "
                         f"the net has {len(convs)} and {len(linears)}")  # fmt: skip
    with torch.no_grad():
        for conv, norm, node in zip(convs, norms, conv_nodes, strict=True):
            conv.weight.copy_(torch.from_numpy(init[node.input[1]].copy()))
            assert norm.running_mean is not None and norm.running_var is not None
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
            norm.weight.fill_(1.0)
            norm.bias.copy_(torch.from_numpy(init[node.input[2]].copy()))
        for linear, node in zip(linears, gemm_nodes, strict=True):
            linear.weight.copy_(torch.from_numpy(init[node.input[1]].copy()))
            linear.bias.copy_(torch.from_numpy(init[node.input[2]].copy()))


def is_court(label: str) -> bool:
    """French J/Q/K and German Unter/Ober/König (not the Joker)."""
    family, face = label.split(":") if ":" in label else ("", label)
    if family == "french":
        return face[0] in "JQK" and face != "JK"
    return family == "german" and face[-1] in "UOK"


def label_weights(court_weight: float) -> np.ndarray:
    """Sampling probabilities of the classes, court cards ``court_weight`` times the others."""
    w = np.array([court_weight if is_court(label) else 1.0 for label in MODEL_LABELS])
    return w / w.sum()


def one_cycle(progress: float, max_lr: float, warmup: float = 0.15) -> float:
    """OneCycleLR's shape (cosine up from max_lr/25, cosine down to ~0) as a function of the
    fraction of training done."""
    low = max_lr / 25
    if progress < warmup:
        return low + (max_lr - low) * (1 - math.cos(math.pi * progress / warmup)) / 2
    rest = (progress - warmup) / (1 - warmup)
    return low / 1e4 + (max_lr - low / 1e4) * (1 + math.cos(math.pi * rest)) / 2


def freeze_norms(model: nn.Module) -> None:
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


def train_step(model: nn.Module, opt: torch.optim.Optimizer, loss_fn: nn.Module,
               x: torch.Tensor, y: torch.Tensor, bf16: bool = False,
               ) -> tuple[torch.Tensor, torch.Tensor]:  # fmt: skip
    """One optimiser step on (x, y): the logits (float32) and the loss. With ``bf16`` the
    network runs under torch's autocast in bfloat16 (the loss and the update stay float32)."""
    device_type = x.device.type
    with torch.autocast(device_type, dtype=torch.bfloat16, enabled=bf16):
        out = model(x)
    out = out.float()
    loss = loss_fn(out, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return out, loss


def as_none(rng: np.random.Generator, share: float, kept: list[np.ndarray],
            labels: np.ndarray, crops: list[np.ndarray]) -> None:  # fmt: skip
    """Replace that ``share`` of the batch (``labels``, ``crops``) by crops drawn from ``kept``,
    as none: turned half a turn half the time, then augmented."""
    for i in np.flatnonzero(rng.random(len(crops)) < share):
        crop = kept[int(rng.integers(len(kept)))].copy()
        if rng.random() < 0.5:
            crop = cv2.rotate(crop, cv2.ROTATE_180)
        labels[i], crops[i] = NONE_INDEX, augment(crop, rng, None)


def as_cards(rng: np.random.Generator, share: float,
             kept: tuple[list[np.ndarray] | np.ndarray, np.ndarray], labels: np.ndarray,
             crops: list[np.ndarray]) -> None:  # fmt: skip
    """Replace that ``share`` of the batch (``labels``, ``crops``) by crops drawn from ``kept``
    (crops, their label indices) as their cards: turned half a turn half the time, then
    augmented."""
    for i in np.flatnonzero(rng.random(len(crops)) < share):
        k = int(rng.integers(len(kept[1])))
        crop = kept[0][k].copy()
        if rng.random() < 0.5:
            crop = cv2.rotate(crop, cv2.ROTATE_180)
        labels[i], crops[i] = kept[1][k], augment(crop, rng, None)


class Samples(torch.utils.data.IterableDataset):  # type: ignore[type-arg]
    def __init__(self, seed: int, batch: int, pool_every: int, designs_per_pool: int,
                 themes: tuple[str, ...] = (), art_share: float = 0.6,
                 court_weight: float = 1.0, under: float = 0.0,
                 quad_error: float = 0.0, clutter: float = 0.0,
                 clutter_kinds: tuple[str, ...] = tuple(CLUTTER_KINDS),
                 real_share: float = 0.0, finder_share: float = 0.0,
                 print_share: float = 0.0, pieces_share: float = 0.0,
                 close_share: float = 0.0,
                 close_detectors: tuple[str, ...] = (),
                 pieces_reader: tuple[str, tuple[str, ...]] | None = None,
                 ) -> None:  # fmt: skip
        self.seed, self.batch = seed, batch
        # of samples that are close cards' quads as ``close_detectors`` find them whole, as the
        # card (training.real_close: card-crops' training part)
        self.close_share, self.close_detectors = close_share, close_detectors
        # of samples that are the detector's pieces of real faces, as none (training.real_pieces:
        # card-crops' training part)
        self.pieces_share = pieces_share
        # the still-photo classifier and gates that read the pieces (None: the shipped ones)
        self.pieces_reader = pieces_reader
        # of samples that are real print and surfaces as the still-photo detector found them,
        # as none (training.real_print: edje-cards train, its photos at even places)
        self.print_share = print_share
        self.real_share = real_share  # of samples drawn from real photos (training.real_crops)
        # of samples that are real cards as the still-photo finder cut them (real_finder_crops)
        self.finder_share = finder_share
        self.clutter = clutter  # the share of samples drawn as clutter (training.clutter), none
        self.clutter_kinds = clutter_kinds
        self.under = under  # the share of cards drawn under the next card of a fan
        self.quad_error = quad_error  # the still-photo detector's quad errors (synth.warp_face)
        self.court_weight = court_weight
        self.themes, self.art_share = themes, art_share
        self.pool_every, self.designs_per_pool = pool_every, designs_per_pool

    def __iter__(self):  # type: ignore[no-untyped-def]
        info = torch.utils.data.get_worker_info()
        workers = 1 if info is None else info.num_workers
        # one worker: the stream of the version-1/2 recipes; several: one stream per worker
        rng = np.random.default_rng(
            self.seed if info is None or workers == 1 else [self.seed, info.id]
        )
        n = len(MODEL_LABELS)
        step = 0
        pool = None
        real: dict[str, list[np.ndarray]] = {}
        if self.real_share > 0.0:
            from training.real_crops import faces_by_label, split

            real = faces_by_label(split()[0])  # the training part only
        found: tuple[np.ndarray, np.ndarray] | None = None
        if self.finder_share > 0.0:
            from training.real_finder_crops import extract

            crops_found, codes, _ = extract("train")  # the training part only
            found = crops_found, np.array([MODEL_LABELS.index(f"french:{c}") for c in codes])
        printed: list[np.ndarray] = []
        if self.print_share > 0.0:
            from training.real_print import extract as extract_print

            printed = extract_print()
        pieces: list[np.ndarray] = []
        if self.pieces_share > 0.0:
            from training.real_pieces import extract as extract_pieces

            reader = None
            if self.pieces_reader is not None:
                from vision.recognizer import photo_recognizer

                model, gates = self.pieces_reader
                reader = photo_recognizer(model=model, gates=gates)
            pieces = extract_pieces(classifier=reader)
        close: tuple[list[np.ndarray], np.ndarray] | None = None
        if self.close_share > 0.0:
            from training.real_close import extract as extract_close

            close_crops: list[np.ndarray] = []
            close_labels: list[int] = []
            for path in self.close_detectors:
                crops_close, names = extract_close(path)
                close_crops += crops_close
                close_labels += [MODEL_LABELS.index(name) for name in names]
            close = close_crops, np.array(close_labels)
        while True:
            if step % self.pool_every == 0:
                seeds = [0] + [
                    int(s) for s in rng.choice(TRAIN_DESIGN_SEEDS, self.designs_per_pool)
                ]
                pool = FacePool.build(seeds, self.themes)
                pool.art_share = self.art_share
                pool.real, pool.real_share = real, self.real_share
            assert pool is not None
            if self.court_weight == 1.0:
                labels = rng.integers(n, size=self.batch)
            else:  # court cards drawn more often: their suit shows only in the small index
                labels = rng.choice(n, size=self.batch, p=label_weights(self.court_weight))
            crops = [make_sample(int(k), rng, pool, self.under, self.quad_error) for k in labels]
            if self.clutter > 0.0:  # (no draw without it: the older recipes' stream is kept)
                for i in np.flatnonzero(rng.random(self.batch) < self.clutter):
                    labels[i] = NONE_INDEX
                    crops[i] = augment(
                        clutter_none_sample(rng, pool, self.clutter_kinds), rng, None
                    )
            if found is not None:  # real cards as the finder cut them, lightly augmented
                as_cards(rng, self.finder_share, found, labels, crops)
            if close is not None:  # close cards' quads as a detector finds them whole
                as_cards(rng, self.close_share, close, labels, crops)
            if printed:  # real print and surfaces the detector found, as none
                as_none(rng, self.print_share, printed, labels, crops)
            if pieces:  # the detector's pieces of real faces, as none
                as_none(rng, self.pieces_share, pieces, labels, crops)
            yield torch.from_numpy(preprocess(crops)), torch.from_numpy(labels.astype(np.int64))
            step += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=4000)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="data worker processes")
    parser.add_argument("--device", default="cpu", help="cpu or cuda")
    parser.add_argument("--width", type=float, default=1.0, help="channel multiplier")
    parser.add_argument("--court-weight", type=float, default=1.0,
                        help="draw court cards this many times as often")  # fmt: skip
    parser.add_argument("--under-share", type=float, default=0.0,
                        help="share of cards drawn under the next card of a fan, only a strip "
                             "showing (training.synth.cover_from_side)")  # fmt: skip
    parser.add_argument("--quad-error", type=float, default=0.0,
                        help="warp cards with this many times the still-photo detector's "
                             "errors of place, size and angle (training.synth.warp_face)")  # fmt: skip
    parser.add_argument("--clutter-none", type=float, default=0.0,
                        help="share of samples drawn as clutter the detector boxes (none)")  # fmt: skip
    parser.add_argument("--clutter-kinds", default=",".join(CLUTTER_KINDS),
                        help="which clutter (training.clutter.KINDS), comma-separated")  # fmt: skip
    parser.add_argument("--pool-samples", type=int, default=19_200,
                        help="samples drawn from one pool of designs before the next")  # fmt: skip
    parser.add_argument("--max-seconds", type=float, default=None,
                        help="stop early (and still export) after this long")  # fmt: skip
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--bf16", action="store_true",
                        help="run the network in bfloat16 where torch's autocast does (CPU "
                             "with AVX-512 BF16 or AMX: about twice the steps a second)")  # fmt: skip
    parser.add_argument("--out", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--init", type=Path, default=None, help="start from a saved state dict")
    parser.add_argument("--init-onnx", type=Path, default=None, help="fine-tune an exported model")
    parser.add_argument(
        "--art",
        action="store_true",
        help="also train on printed-deck artwork (training.artwork TRAIN_THEMES)",
    )
    parser.add_argument("--art-share", type=float, default=0.6)
    parser.add_argument("--real-finder", type=float, default=0.0, metavar="SHARE",
                        help="replace this share of the samples by real cards as the still-"
                             "photo finder cuts them (training.real_finder_crops: corner-boxes, "
                             "its training part)")  # fmt: skip
    parser.add_argument("--real-crops", type=float, default=0.0, metavar="SHARE",
                        help="draw this share of the French samples from real photos of cards "
                             "(training.real_crops: card-crops, its training part)")  # fmt: skip
    parser.add_argument("--real-print", type=float, default=0.0, metavar="SHARE",
                        help="replace this share of the samples by real print and surfaces "
                             "the still-photo detector found, as none (training.real_print: "
                             "edje-cards train, its photos at even places)")  # fmt: skip
    parser.add_argument("--real-pieces", type=float, default=0.0, metavar="SHARE",
                        help="replace this share of the samples by the still-photo detector's "
                             "pieces of real faces that the classifier reads as other cards, as "
                             "none (training.real_pieces: card-crops, its training part)")  # fmt: skip
    parser.add_argument("--real-close", type=float, default=0.0, metavar="SHARE",
                        help="replace this share of the samples by close cards' quads as "
                             "--close-detector finds them whole, as the card (training."
                             "real_close: card-crops, its training part)")  # fmt: skip
    parser.add_argument("--close-detector", type=Path, action="append", default=None,
                        help="a detector (its JSON beside it) whose close quads --real-close "
                             "draws; repeat for several (default the shipped one)")  # fmt: skip
    parser.add_argument("--pieces-classifier", type=Path, default=None,
                        help="the still-photo classifier that --real-pieces reads the pieces "
                             "with (default the shipped one)")  # fmt: skip
    parser.add_argument("--pieces-gate", type=Path, action="append", default=None,
                        help="a gate of that classifier, in place of the shipped gates; repeat "
                             "for several")  # fmt: skip
    parser.add_argument("--save-state", type=Path, default=None, help="also save the state dict")
    args = parser.parse_args()
    if not 0.0 <= args.under_share <= 1.0:
        parser.error(f"--under-share {args.under_share:g} is not a share between 0 and 1")
    if not 0.0 <= args.clutter_none <= 1.0:
        parser.error(f"--clutter-none {args.clutter_none:g} is not a share between 0 and 1")
    kinds = tuple(k.strip() for k in args.clutter_kinds.split(",") if k.strip())
    if not kinds or any(k not in CLUTTER_KINDS for k in kinds):
        parser.error(
            f"--clutter-kinds {args.clutter_kinds!r}: choose from {', '.join(CLUTTER_KINDS)}"
        )
    if not 0.0 <= args.real_crops <= 1.0:
        parser.error(f"--real-crops {args.real_crops:g} is not a share between 0 and 1")
    if args.real_crops > 0.0:
        from training.real_crops import CROPS, available

        if not available():
            parser.error(f"--real-crops: no card-crops photos in {CROPS} (set KIBIC_REAL_PHOTOS)")
    if not 0.0 <= args.real_finder <= 1.0:
        parser.error(f"--real-finder {args.real_finder:g} is not a share between 0 and 1")
    if not 0.0 <= args.real_print <= 1.0:
        parser.error(f"--real-print {args.real_print:g} is not a share between 0 and 1")
    if not 0.0 <= args.real_pieces <= 1.0:
        parser.error(f"--real-pieces {args.real_pieces:g} is not a share between 0 and 1")
    if not 0.0 <= args.real_close <= 1.0:
        parser.error(f"--real-close {args.real_close:g} is not a share between 0 and 1")
    close_detectors = tuple(str(p) for p in (args.close_detector or [DEFAULT_DETECTOR]))
    for path in close_detectors if args.real_close else ():
        if not Path(path).is_file() or not Path(path).with_suffix(".json").is_file():
            parser.error(f"--close-detector {path}: no such detector (ONNX and JSON beside it)")
    pieces_reader: tuple[str, tuple[str, ...]] | None = None
    pieces_said = ""
    if args.real_pieces:  # named in the record whether given or shipped (experiment 100)
        from training.real_pieces import described, reader_paths

        model_path, gate_paths = reader_paths(args.pieces_classifier, args.pieces_gate)
        named = [("--pieces-classifier", model_path)] + [("--pieces-gate", g) for g in gate_paths]
        for flag, file in named:
            if not (file.is_file() and file.with_suffix(".labels.json").is_file()):
                parser.error(f"{flag} {file}: no such classifier (ONNX and labels JSON beside it)")
        pieces_reader = (command_path(model_path), tuple(command_path(g) for g in gate_paths))
        pieces_said = described(model_path, gate_paths)
    if not 0.0 <= args.quad_error <= 3.0:
        parser.error(f"--quad-error {args.quad_error:g} is not between 0 and 3")
    if not args.out.parent.is_dir():
        parser.error(f"--out {args.out}: no folder {args.out.parent} to write it in")

    torch.manual_seed(args.seed)
    if args.workers > 1:
        torch.multiprocessing.set_sharing_strategy("file_system")  # no fd limit per batch
    torch.set_num_threads(args.threads)
    model = CardNet(len(MODEL_LABELS), args.width)
    if args.init is not None:
        model.load_state_dict(torch.load(args.init))
    if args.init_onnx is not None:
        load_onnx_weights(model, args.init_onnx)
    themes: tuple[str, ...] = ()
    if args.art:
        from training.artwork import TRAIN_THEMES, fetch

        fetch()
        themes = TRAIN_THEMES
    data = torch.utils.data.DataLoader(
        Samples(args.seed, args.batch, pool_every=max(args.pool_samples // args.batch, 1),
                designs_per_pool=10, themes=themes, art_share=args.art_share,
                court_weight=args.court_weight, under=args.under_share,
                quad_error=args.quad_error, clutter=args.clutter_none,
                clutter_kinds=kinds, real_share=args.real_crops,
                finder_share=args.real_finder, print_share=args.real_print,
                pieces_share=args.real_pieces, close_share=args.real_close,
                close_detectors=close_detectors, pieces_reader=pieces_reader),
        batch_size=None, num_workers=args.workers, prefetch_factor=8,
        persistent_workers=False, pin_memory=args.device != "cpu",
    )  # fmt: skip
    device = torch.device(args.device)
    model.to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.steps,
                                                pct_start=0.15)  # fmt: skip
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    start = time.time()
    model.train()
    if args.init_onnx is not None:
        freeze_norms(model)
    running = 0.0
    correct = 0
    seen = 0
    steps_done = 0
    for step, (x, y) in enumerate(data):
        if step >= args.steps:
            break
        if args.max_seconds is not None:
            # the schedule follows whichever runs out first, the steps or the time
            progress = max(step / args.steps, (time.time() - start) / args.max_seconds)
            if progress >= 1.0:
                print(f"stopped by --max-seconds at step {step}", flush=True)
                break
            for group in opt.param_groups:
                group["lr"] = one_cycle(progress, args.lr)
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        out, loss = train_step(model, opt, loss_fn, x, y, bf16=args.bf16)
        if args.max_seconds is None:
            sched.step()
        steps_done = step + 1
        running += float(loss.detach())
        correct += int((out.argmax(1) == y).sum())
        seen += len(y)
        if (step + 1) % 200 == 0:
            print(f"step {step + 1} loss {running / 200:.3f} acc {correct / seen:.3f} "
                  f"{time.time() - start:.0f}s", flush=True)  # fmt: skip
            running, correct, seen = 0.0, 0, 0
    elapsed = time.time() - start
    if args.save_state is not None:
        torch.save(model.state_dict(), args.save_state)
    model.eval()
    model.to("cpu")
    dummy = torch.zeros(1, 3, INPUT_H, INPUT_W)
    torch.onnx.export(model, (dummy,), str(args.out), input_names=["input"],
                      output_names=["logits"], dynamic_axes={"input": {0: "n"}, "logits": {0: "n"}},
                      opset_version=17, dynamo=False)  # fmt: skip
    add_features_output(args.out)  # the embedding deck profiles compare (vision.deck_profile)
    meta = {
        "labels": list(MODEL_LABELS),
        "input": {"height": INPUT_H, "width": INPUT_W, "channels": "BGR", "scale": "x/127.5-1"},
        "training": {
            "command": label_errata.command_prefix()
            + f"python -m training.train --steps {args.steps} --batch {args.batch} "
            f"--seed {args.seed} --threads {args.threads} --lr {args.lr}"
            + (f" --init {args.init}" if args.init else "")
            + (f" --init-onnx {args.init_onnx}" if args.init_onnx else "")
            + (f" --art --art-share {args.art_share}" if args.art else "")
            + (f" --width {args.width}" if args.width != 1.0 else "")
            + (f" --workers {args.workers}" if args.workers != 1 else "")
            + (f" --pool-samples {args.pool_samples}" if args.pool_samples != 19_200 else "")
            + (f" --device {args.device}" if args.device != "cpu" else "")
            + (f" --court-weight {args.court_weight:g}" if args.court_weight != 1.0 else "")
            + (f" --under-share {args.under_share:g}" if args.under_share else "")
            + (f" --quad-error {args.quad_error:g}" if args.quad_error else "")
            + (f" --clutter-none {args.clutter_none:g}" if args.clutter_none else "")
            + (f" --real-crops {args.real_crops:g}" if args.real_crops else "")
            + (f" --real-finder {args.real_finder:g}" if args.real_finder else "")
            + (f" --real-print {args.real_print:g}" if args.real_print else "")
            + (f" --real-pieces {args.real_pieces:g}" if args.real_pieces else "")
            + (
                f" --pieces-classifier {pieces_reader[0]}"
                + "".join(f" --pieces-gate {p}" for p in pieces_reader[1])
                if pieces_reader is not None
                else ""
            )
            + (f" --real-close {args.real_close:g}" if args.real_close else "")
            + "".join(
                f" --close-detector {command_path(p)}" for p in close_detectors if args.real_close
            )
            + (f" --clutter-kinds '{','.join(kinds)}'" if kinds != tuple(CLUTTER_KINDS) else "")
            + (f" --max-seconds {args.max_seconds:g}" if args.max_seconds is not None else "")
            + (" --bf16" if args.bf16 else ""),
            "steps_done": steps_done,
            "artwork": (
                "training.artwork TRAIN_THEMES (Debian gnome-cards-data/aisleriot, GPL-3+)"
                if args.art
                else None
            ),
            "real_photos": (
                "card-crops, its training part (training.real_crops: seed "
                f"{REAL_SPLIT_SEED}, all but {REAL_TUNE} photos of each class)"
                if args.real_crops
                else None
            ),
            "real_finder_crops": (
                "corner-boxes, its training part (training.real_finder_crops: seed "
                f"{FINDER_SPLIT_SEED}, {1 - FINDER_TUNE:.0%} of each folder's photos)"
                if args.real_finder
                else None
            ),
            "real_print": (
                "edje-cards train, its photos at even places: the detector's regions on no "
                f"labelled card, as none (training.real_print, at most {MAX_OVERLAP:.0%} in a "
                "labelled box)"
                if args.real_print
                else None
            ),
            "real_pieces": (
                "card-crops, its training part: the detector's pieces of each face (under half "
                f"the photo, no index corner) read as a card of another rank by {pieces_said}, "
                "as none (training.real_pieces)"
                if args.real_pieces
                else None
            ),
            "real_close": (
                "card-crops, its training part: each face's quads covering half the photo or "
                f"more as {', '.join(command_path(p) for p in close_detectors)} find them, as "
                "the card (training.real_close)"
                if args.real_close
                else None
            ),
            "labels": (
                label_errata.described()
                if args.real_crops
                or args.real_finder
                or args.real_print
                or args.real_pieces
                or args.real_close
                else None
            ),
            "seconds": round(elapsed),
            "machine": f"{platform.machine()} {platform.processor() or ''} "
            f"torch {torch.__version__}, {args.device}, {args.threads} thread(s) + "
            f"{args.workers} data worker(s)",
        },
    }
    args.out.with_suffix(".labels.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False))
    print(f"done in {elapsed:.0f}s -> {args.out}")


if __name__ == "__main__":
    main()
