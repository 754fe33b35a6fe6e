"""Train the corner-index box reader (``vision.corner_finder``) and export it to ONNX (needs the
``train`` extra).

It reads the square around one corner index that the corner-index finder found: the rank and
suit sign of one card, turned any way (the finder's boxes are axis-aligned; a fanned card's
index is turned with the card). Its classes are the 53 French-suited cards and ``none``.

Data, real photographs only (``../shared/data/real-photos``, SETS.md), the training parts:

- ``corner-boxes`` training photos: each labelled index box, cut square (1.1 to 1.5 times its
  longer side) around its centre (moved by up to a tenth of the side), turned by any angle;
- ``card-crops`` training faces (``training.real_crops.split``): the square around each of the
  two index corners, turned likewise;
- with ``--rendered SHARE``, that share from rendered French faces (the demo's design,
  procedural designs and the training artwork, as ``training.train_index``);
- ``none``, one sample in eight: squares of the corner-boxes photos that hold no index centre,
  and of the middle of card-crops faces.

The shipped model (version 1, models/MODEL_CARD.md)::

    python -m training.train_corner_reader --steps 3000 --seed 1 --rendered 0.25 \\
        --out models/kibic_corner_reader.onnx
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cv2
import numpy as np

from models import MODEL_DIR
from training.corner_samples import LabelledPhoto, light, load
from vision.corner_finder import READ_SIDE, READ_SIZE, square_cut
from vision.index_reader import preprocess
from vision.labels import NONE_LABEL

DEFAULT_OUT = MODEL_DIR / "kibic_corner_reader.onnx"
FACE_H, FACE_W = 210, 150
# where a face's top-left index lies, as shares of the face (centre x, centre y, side)
INDEX_X, INDEX_Y, INDEX_SIDE = 0.11, 0.14, 0.30


def photo_sample(photo: LabelledPhoto, k: int, rng: np.random.Generator) -> np.ndarray:
    cx, cy, w, h = photo.boxes[k]
    side = max(w, h) * rng.uniform(1.1, 1.5)
    cx, cy = cx + rng.uniform(-0.1, 0.1) * side, cy + rng.uniform(-0.1, 0.1) * side
    return square_cut(photo.image, cx, cy, side, rng.uniform(0, 360), READ_SIZE)


def face_sample(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The square around one of ``face``'s two index corners, turned; the face lies on a
    random colour so that what is outside it is not its own edge smeared."""
    face = cv2.resize(face, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)
    if rng.random() < 0.5:
        face = cv2.rotate(face, cv2.ROTATE_180)
    pad = 60
    canvas = np.empty((FACE_H + 2 * pad, FACE_W + 2 * pad, 3), np.uint8)
    canvas[:] = rng.integers(0, 256, 3)
    canvas[pad : pad + FACE_H, pad : pad + FACE_W] = face
    side = INDEX_SIDE * FACE_H * rng.uniform(0.85, 1.3)
    cx = pad + INDEX_X * FACE_W + rng.uniform(-0.08, 0.08) * side
    cy = pad + INDEX_Y * FACE_H + rng.uniform(-0.08, 0.08) * side
    return square_cut(canvas, cx, cy, side, rng.uniform(0, 360), READ_SIZE)


def none_sample(photos: list[LabelledPhoto], faces: list[np.ndarray],
                rng: np.random.Generator) -> np.ndarray:  # fmt: skip
    """A square with no index at its middle: of a photo away from every box, or the middle
    of a face."""
    if rng.random() < 0.5:
        face = cv2.resize(faces[int(rng.integers(len(faces)))], (FACE_W, FACE_H))
        cx, cy = rng.uniform(0.3, 0.7) * FACE_W, rng.uniform(0.3, 0.7) * FACE_H
        side = INDEX_SIDE * FACE_H * rng.uniform(0.8, 1.3)
        return square_cut(face, cx, cy, side, rng.uniform(0, 360), READ_SIZE)
    for _ in range(20):
        photo = photos[int(rng.integers(len(photos)))]
        h, w = photo.image.shape[:2]
        side = float(rng.uniform(20, 140))
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        near = np.abs(photo.boxes[:, :2] - (cx, cy)).max(axis=1) < 0.45 * side
        if not near.any():
            break
    return square_cut(photo.image, cx, cy, side, rng.uniform(0, 360), READ_SIZE)


def main() -> None:
    import torch
    import torch.nn.functional as F

    from training.real_crops import face, read, split
    from training.train_index import build_net, index_labels, rendered_pool

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--batch", type=int, default=96)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rendered", type=float, default=0.0, metavar="SHARE")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    labels = index_labels()
    where = {label: i for i, label in enumerate(labels)}
    none = where[NONE_LABEL]
    start = time.time()
    photos = load("train")
    boxes = [(i, k) for i, p in enumerate(photos) for k, c in enumerate(p.codes)
             if f"french:{c}" in where]  # fmt: skip
    train, _ = split()
    faces = [face(read(crop)) for crop in train]
    face_labels = [where[crop.label] for crop in train]
    pool = rendered_pool(args.seed) if args.rendered > 0 else None
    french = [label for label in labels if label != NONE_LABEL]
    print(f"{len(boxes)} index boxes in {len(photos)} photos, {len(faces)} faces, "
          f"{time.time() - start:.0f}s", flush=True)  # fmt: skip

    def sample() -> tuple[np.ndarray, int]:
        draw = rng.random()
        if draw < 0.125:
            return none_sample(photos, faces, rng), none
        if pool is not None and draw < 0.125 + args.rendered:
            label = french[int(rng.integers(len(french)))]
            return face_sample(pool.pick(label, rng), rng), where[label]
        if rng.random() < 0.5:
            i, k = boxes[int(rng.integers(len(boxes)))]
            return photo_sample(photos[i], k, rng), where[f"french:{photos[i].codes[k]}"]
        j = int(rng.integers(len(faces)))
        return face_sample(faces[j], rng), face_labels[j]

    model = build_net(len(labels))
    opt = torch.optim.AdamW(model.parameters(), args.lr, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(opt, args.lr, total_steps=args.steps)
    for step in range(args.steps):
        drawn = [sample() for _ in range(args.batch)]
        x = preprocess([light(image, rng) for image, _ in drawn])
        y = torch.tensor([label for _, label in drawn])
        model.train()
        loss = F.cross_entropy(model(torch.from_numpy(x)), y, label_smoothing=0.05)
        opt.zero_grad()
        loss.backward()
        opt.step()
        schedule.step()
        if (step + 1) % 250 == 0:
            print(f"step {step + 1} loss {loss.item():.3f} {time.time() - start:.0f}s", flush=True)
    model.eval()
    dummy = torch.zeros(1, 3, READ_SIZE, READ_SIZE)
    torch.onnx.export(model, (dummy,), str(args.out), input_names=["input"],
                      output_names=["logits"], dynamic_axes={"input": {0: "n"}, "logits": {0: "n"}},
                      opset_version=17, dynamo=False)  # fmt: skip
    meta = {
        "version": 1,
        "labels": list(labels),
        "input": {"size": READ_SIZE, "side": READ_SIDE, "channels": "BGR", "scale": "x/127.5-1"},
        "training": {
            "name": "corner-index box reader, version 1",
            "command": f"python -m training.train_corner_reader --steps {args.steps} "
            f"--batch {args.batch} --lr {args.lr:g} --seed {args.seed} --threads {args.threads}"
            + (f" --rendered {args.rendered:g}" if args.rendered else ""),
            "data": "corner-boxes training photos and card-crops training faces, real "
            "photographs" + (", and rendered French faces" if args.rendered else ""),
            "seconds": round(time.time() - start),
            "machine": f"torch {torch.__version__}, cpu, {args.threads} thread(s)",
        },
    }
    args.out.with_suffix(".labels.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"done in {time.time() - start:.0f}s -> {args.out}", flush=True)


if __name__ == "__main__":
    main()
