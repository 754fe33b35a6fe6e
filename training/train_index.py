"""Train the corner-index reader (``vision.index_reader``) on real photographs and export it to
ONNX (needs the ``train`` extra). The still photos' model (version 3, experiment 40 of
models/MODEL_HISTORY.md; the model's labels file names its command too)::

    python -m training.train_index --steps 2000 --seed 2 --rendered 0.4 --lowres 0.3 \
        --dark 0.1 --grey 0.15 --detector-zoom 160 --version 3 --out models/kibic_index.onnx

about 6 minutes on one core of this project's 2-core CPU machine (version 1 was the same
command with ``--seed 1`` alone). The table's reader (version 4, experiments 132 and 133c) is
version 3 fine-tuned with rendered faces shown as the table shows them (``--table-seen``)::

    python -m training.train_index --init-onnx models/kibic_index.onnx --steps 800 --lr 0.0005 \
        --seed 2 --rendered 0.4 --lowres 0.3 --dark 0.1 --grey 0.15 --detector-zoom 160 \
        --table-seen 0.7 --version 4 --out models/kibic_index_table.onnx

Its real data (../shared/data/real-photos, see SETS.md), the training parts only:

- ``card-crops``: the 2,544 faces of ``training.real_crops.split()``'s training part, both corners
  of each labelled with its card;
- ``corner-boxes``: the training photos of ``training.real_finder_crops.photos()``, each card the
  shipped detector finds warped at face size; a corner is labelled with the card when one of
  the card's corner boxes lies inside it, else ``none`` (covered, out of the photo, or a card
  turned so that its corners are not index corners);
- ``none`` also for patches of the middle of card-crops faces (pips, pictures, no rank), one in
  nine samples.

Each sample is moved, scaled, turned a little, lit and blurred at random (seeded). Options
draw a share of the samples from rendered French faces (``--rendered``), show a share of those
faces as the table's camera sees them (``--table-seen``, experiment 132), or make a share of the
samples low-resolution (``--lowres``), corners of a dark deck (``--dark``), grey (``--grey``) or
with their ink in another colour (``--recolour``).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cv2
import numpy as np

from models import MODEL_DIR
from training.table_seen import table_seen
from vision import label_errata
from vision.index_reader import (
    FACE_H,
    FACE_W,
    INPUT_H,
    INPUT_W,
    REGION_H,
    REGION_W,
    corner_regions,
    face_of,
    preprocess,
)
from vision.labels import NONE_LABEL, labels_for_deck

DEFAULT_OUT = MODEL_DIR / "kibic_index.onnx"


def index_labels() -> tuple[str, ...]:
    """The model's classes: the 53 French-suited cards (``french:AS``) and ``none``."""
    from referee.cards import Deck

    return (*labels_for_deck(Deck.FRENCH_53), NONE_LABEL)


def corners_shown(corners: np.ndarray, points: np.ndarray) -> tuple[bool, bool]:
    """Whether any of ``points`` (photo pixels) lies in the top-left and in the bottom-right
    index corner of the card inside ``corners``, warped at face size."""
    if len(points) == 0:
        return False, False
    dst = np.array([[0, 0], [FACE_W, 0], [FACE_W, FACE_H], [0, FACE_H]], np.float32)
    matrix = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst)
    xy = cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float32), matrix)
    x, y = xy[:, 0, 0], xy[:, 0, 1]
    top_left = (x >= 0) & (x < REGION_W * FACE_W) & (y >= 0) & (y < REGION_H * FACE_H)
    bottom_right = (x > (1 - REGION_W) * FACE_W) & (x <= FACE_W) & (y > (1 - REGION_H) * FACE_H)
    bottom_right &= y <= FACE_H
    return bool(top_left.any()), bool(bottom_right.any())


def corner_boxes_regions(part: str, zoom_side: int = 0) -> tuple[list[np.ndarray], list[str]]:
    """(regions, labels) of the corner-boxes photos of ``part`` (train or tune), the cards found
    by the shipped detector with the zoom-out pass ``zoom_side`` (0: none, as versions 1 and 2
    were trained)."""
    from training.real_finder_crops import label_of, labelled_photos
    from vision.detector import CardDetector
    from vision.pipeline import find_in_still

    detector = CardDetector(zoom_side=zoom_side)
    regions: list[np.ndarray] = []
    labels: list[str] = []
    for _, _, image, boxes in labelled_photos(part):
        for card in find_in_still(image, detector=detector):
            code = label_of(np.asarray(card.corners), boxes)
            if code is None:
                continue
            points = np.array([(b.cx, b.cy) for b in boxes if b.code == code], np.float32)
            shown = corners_shown(np.asarray(card.corners), points)
            for region, seen in zip(corner_regions(face_of(image, card.corners)), shown,
                                    strict=True):  # fmt: skip
                regions.append(region)
                labels.append(f"french:{code}" if seen else NONE_LABEL)
    return regions, labels


def card_crops_regions(part: str) -> tuple[list[np.ndarray], list[str], list[np.ndarray]]:
    """(regions, labels, faces) of the card-crops faces of ``part`` (train or tune)."""
    from training.real_crops import face, read, split

    train, tune = split()
    regions: list[np.ndarray] = []
    labels: list[str] = []
    faces: list[np.ndarray] = []
    for crop in train if part == "train" else tune:
        f = face(read(crop))
        faces.append(f)
        for region in corner_regions(f):
            regions.append(region)
            labels.append(crop.label)
    return regions, labels, faces


def augment(region: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    h, w = region.shape[:2]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), rng.uniform(-8, 8), rng.uniform(0.85, 1.2))
    matrix = np.asarray(turn, np.float64)
    matrix[:, 2] += rng.uniform(-0.1, 0.1, 2) * (w, h)
    out = cv2.warpAffine(region, matrix, (w, h), borderMode=cv2.BORDER_REPLICATE)
    lit: np.ndarray = out.astype(np.float32) * rng.uniform(0.6, 1.3) + rng.uniform(-40, 40)
    if rng.random() < 0.3:
        lit = cv2.GaussianBlur(lit, (3, 3), rng.uniform(0.3, 1.2))
    lit += rng.normal(0.0, rng.uniform(0.0, 8.0), lit.shape)
    return np.clip(lit, 0, 255).astype(np.uint8)


def lowres(region: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``region`` as a camera over a table sees it: scaled down (to 35 to 80 %) and back up."""
    h, w = region.shape[:2]
    f = rng.uniform(0.35, 0.8)
    small = cv2.resize(
        region, (max(4, int(w * f)), max(4, int(h * f))), interpolation=cv2.INTER_AREA
    )
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def grey(region: np.ndarray) -> np.ndarray:
    """``region`` as a camera in grey or night mode sees it."""
    return cv2.cvtColor(cv2.cvtColor(region, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


def dark(region: np.ndarray) -> np.ndarray:
    """``region`` as a card of a dark deck: the paper and the black ink swap brightness (black
    paper, white or pale ink), coloured ink keeps its colour."""
    hsv = cv2.cvtColor(region, cv2.COLOR_BGR2HSV)
    if np.median(hsv[..., 2]) < 128:
        return region  # a dark card already
    plain = hsv[..., 1] < 80  # paper and black ink; red ink is saturated
    hsv[..., 2] = np.where(plain, 255 - hsv[..., 2], hsv[..., 2])
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)


def recolour(region: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``region`` with its ink given one colour drawn at random (red clubs, a green or grey
    heart, gold spades: real designs that do so, experiment 47), so that a suit is told by its
    shape. How much ink each pixel holds is how much darker than the paper it is; a dark
    deck's corner (pale ink on dark paper) is left as it is."""
    lum = cv2.cvtColor(region, cv2.COLOR_BGR2GRAY).astype(np.float32)
    if np.median(lum) < 128:
        return region
    paper_lum, ink_lum = float(np.percentile(lum, 90)), float(np.percentile(lum, 2))
    ink = np.clip((paper_lum - lum) / max(paper_lum - ink_lum, 20.0), 0.0, 1.0)[..., None]
    bare = ink[..., 0] < 0.2  # the paper: never empty (a tenth of it is at paper_lum or over)
    paper = np.median(region[bare], axis=0)
    colour = rng.uniform(0, 255, 3) * rng.uniform(0.2, 0.8)  # darker than the paper
    out = paper[None, None, :] * (1.0 - ink) + colour[None, None, :] * ink
    return np.clip(out, 0, 255).astype(np.uint8)


def rendered_pool(seed: int, designs: int = 40):  # type: ignore[no-untyped-def]
    """Rendered French faces: the demo's design (0), ``designs`` procedural training designs and
    the training artwork themes (``training.synth.FacePool``)."""
    from training.artwork import TRAIN_THEMES, available
    from training.synth import TRAIN_DESIGN_SEEDS, FacePool

    rng = np.random.default_rng([seed, 26])
    seeds = [0] + [int(s) for s in rng.choice(TRAIN_DESIGN_SEEDS, designs, replace=False)]
    return FacePool.build(seeds, TRAIN_THEMES if available() else ())


def middle_patch(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A corner-sized patch of the middle of a face: pips or a picture, no index."""
    h, w = face.shape[:2]
    ph, pw = int(REGION_H * h), int(REGION_W * w)
    y = int(rng.integers(int(0.2 * h), h - ph - int(0.2 * h) + 1))
    x = int(rng.integers(int(0.25 * w), w - pw - int(0.25 * w) + 1))
    return cv2.resize(face[y : y + ph, x : x + pw], (INPUT_W, INPUT_H),
                      interpolation=cv2.INTER_AREA)  # fmt: skip


def build_net(classes: int):  # type: ignore[no-untyped-def]
    import torch.nn as nn

    def block(i: int, o: int) -> list[nn.Module]:
        return [nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU()]

    return nn.Sequential(
        *block(3, 16), nn.MaxPool2d(2),
        *block(16, 32), *block(32, 32), nn.MaxPool2d(2),
        *block(32, 64), *block(64, 64), nn.MaxPool2d(2),
        *block(64, 96), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(96, classes),
    )  # fmt: skip


def start_from(net, path: Path) -> None:  # type: ignore[no-untyped-def]
    """Load the exported reader at ``path`` into ``net`` (``build_net``'s plain sequence) for a
    fine-tune: each batch norm becomes the identity plus the bias the exporter folded into its
    conv, and is kept so by ``training.train.freeze_norms``."""
    import torch.nn as nn

    from training.train import copy_folded

    copy_folded(path, [m for m in net if isinstance(m, nn.Conv2d)],
                [m for m in net if isinstance(m, nn.BatchNorm2d)],
                [m for m in net if isinstance(m, nn.Linear)])  # fmt: skip


# the options that draw or change a share of the samples (each 0 by default)
SHARE_OPTIONS = {
    "rendered": "draw this share of the samples from rendered French faces (procedural designs "
    "and the training artwork)",
    "lowres": "scale this share of the samples down and up, as a table's camera sees a card",
    "grey": "turn this share of the samples grey, as a camera in grey or night mode sees a card",
    "dark": "turn this share of the samples into cards of a dark deck (black paper, pale ink)",
    "recolour": "give the ink of this share of the samples one colour drawn at random, so "
    "that a suit is read by its shape",
    "table-seen": "show this share of the rendered faces as the table's camera sees them before "
    "their corners are cut (training.table_seen)",
}


def main() -> None:
    import torch
    import torch.nn.functional as F

    from training.train import freeze_norms

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--batch", type=int, default=96)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    for name, text in SHARE_OPTIONS.items():
        parser.add_argument(f"--{name}", type=float, default=0.0, metavar="SHARE", help=text)
    parser.add_argument("--detector-zoom", type=int, default=0, metavar="PX",
                        help="the detector's zoom-out pass when it finds corner-boxes' cards "
                             "(0: none, as versions 1 and 2 were trained)")  # fmt: skip
    parser.add_argument("--init-onnx", type=Path, default=None, metavar="READER",
                        help="fine-tune this exported reader (its norms folded, then frozen)")  # fmt: skip
    parser.add_argument("--version", default="1", help="the version named in the labels file")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    labels = index_labels()
    where = {label: i for i, label in enumerate(labels)}
    start = time.time()
    crops_regions, crops_labels, faces = card_crops_regions("train")
    desk_regions, desk_labels = corner_boxes_regions("train", args.detector_zoom)
    regions = crops_regions + desk_regions
    targets = np.array([where[label] for label in crops_labels + desk_labels])
    none = where[NONE_LABEL]
    print(f"{len(regions)} corners ({int((targets == none).sum())} none) from "
          f"{len(faces)} card-crops faces and {len(desk_regions) // 2} corner-boxes cards, "
          f"{time.time() - start:.0f}s", flush=True)  # fmt: skip

    pool = rendered_pool(args.seed) if args.rendered > 0 else None
    french = [label for label in labels if label != NONE_LABEL]

    def rendered_sample() -> tuple[np.ndarray, int]:
        assert pool is not None
        label = french[int(rng.integers(len(french)))]
        face = pool.pick(label, rng)
        if args.table_seen > 0 and rng.random() < args.table_seen:  # (no draw without it)
            face = table_seen(face, rng)
        corner = corner_regions(face)[int(rng.integers(2))]
        return corner, where[label]

    model = build_net(len(labels))
    if args.init_onnx is not None:
        start_from(model, args.init_onnx)
    opt = torch.optim.AdamW(model.parameters(), args.lr, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(opt, args.lr, total_steps=args.steps)
    extra = args.batch // 8  # middle-of-face patches, labelled none
    for step in range(args.steps):
        pick = rng.integers(len(regions), size=args.batch)
        chosen = [regions[i] for i in pick]
        y = np.concatenate([targets[pick], np.full(extra, none)])
        if pool is not None:  # (no draw without it: version 1's stream is kept)
            for k in np.flatnonzero(rng.random(args.batch) < args.rendered):
                chosen[k], y[k] = rendered_sample()
        if args.lowres > 0:
            chosen = [lowres(r, rng) if rng.random() < args.lowres else r for r in chosen]
        if args.dark > 0:  # (no draw without it: version 2's stream is kept)
            chosen = [dark(r) if rng.random() < args.dark else r for r in chosen]
        if args.recolour > 0:  # (no draw without it: version 3's stream is kept)
            chosen = [recolour(r, rng) if rng.random() < args.recolour else r for r in chosen]
        if args.grey > 0:
            chosen = [grey(r) if rng.random() < args.grey else r for r in chosen]
        batch = [augment(r, rng) for r in chosen]
        batch += [augment(middle_patch(faces[rng.integers(len(faces))], rng), rng)
                  for _ in range(extra)]  # fmt: skip
        model.train()
        if args.init_onnx is not None:
            freeze_norms(model)
        loss = F.cross_entropy(model(torch.from_numpy(preprocess(batch))),
                               torch.from_numpy(y), label_smoothing=0.05)  # fmt: skip
        opt.zero_grad()
        loss.backward()
        opt.step()
        schedule.step()
        if (step + 1) % 250 == 0:
            print(f"step {step + 1} loss {loss.item():.3f} {time.time() - start:.0f}s", flush=True)
    model.eval()
    dummy = torch.zeros(1, 3, INPUT_H, INPUT_W)
    torch.onnx.export(model, (dummy,), str(args.out), input_names=["input"],
                      output_names=["logits"], dynamic_axes={"input": {0: "n"}, "logits": {0: "n"}},
                      opset_version=17, dynamo=False)  # fmt: skip
    meta = {
        "version": int(args.version) if args.version.isdigit() else args.version,
        "labels": list(labels),
        "input": {"height": INPUT_H, "width": INPUT_W, "channels": "BGR", "scale": "x/127.5-1",
                  "region": {"height": REGION_H, "width": REGION_W, "face": [FACE_H, FACE_W]}},
        "training": {
            "name": f"corner-index reader, version {args.version}",
            "command": label_errata.command_prefix()
            + f"python -m training.train_index --steps {args.steps} --batch {args.batch} "
            f"--lr {args.lr} --seed {args.seed} --threads {args.threads}"
            + (f" --rendered {args.rendered:g}" if args.rendered else "")
            + (f" --lowres {args.lowres:g}" if args.lowres else "")
            + (f" --dark {args.dark:g}" if args.dark else "")
            + (f" --grey {args.grey:g}" if args.grey else "")
            + (f" --recolour {args.recolour:g}" if args.recolour else "")
            + (f" --table-seen {args.table_seen:g}" if args.table_seen else "")
            + (f" --detector-zoom {args.detector_zoom}" if args.detector_zoom else "")
            + (f" --init-onnx {args.init_onnx}" if args.init_onnx else "")
            + f" --version {args.version}",
            "data": "card-crops training part (training.real_crops.split) and corner-boxes "
            "training photos (training.real_finder_crops.photos)"
            + (", and rendered French faces (rendered_pool)" if args.rendered else
               ", real photographs only"),
            "labels": label_errata.described(),
            "corners": len(regions),
            "seconds": round(time.time() - start),
            "machine": f"torch {torch.__version__}, cpu, {args.threads} thread(s)",
        },
    }  # fmt: skip
    args.out.with_suffix(".labels.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"done in {time.time() - start:.0f}s -> {args.out}", flush=True)


if __name__ == "__main__":
    main()
