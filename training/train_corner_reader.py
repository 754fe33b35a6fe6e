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
  and of the middle of card-crops faces;
- with ``--gray SHARE``, that share of all samples (real and rendered, after light, blur and
  noise) turned grey and back to three channels: a grey photo tells a heart from a spade, a
  diamond from a club, by shape alone (experiment 32).
- with ``--print SHARE``, that share of the samples squares of printed matter
  (``training.clutter.printed_page``: text in any font and size, maybe ruled), as ``none``:
  the finder takes print for indices (experiment 43);
- with ``--hard SHARE``, that share of the samples the finder's own mistakes, as ``none``: the
  boxes it finds off every card on the edje-cards training photos (``training.hard_negatives``,
  experiment 44).
- with ``--tables SHARE``, that share of the samples the indices that show of card-crops'
  training faces laid as at a table, fanned or under other cards (``training.face_tables``,
  experiment 59).
- with ``--dense SHARE``, that share of the samples the corner-boxes training boxes with another
  index inside the square read around them (``crowded``): the indices of an overlapping row, where
  the square holds the next card's index too (experiment 92).
- with ``--rows SHARE``, that share of the samples the indices that show of card-crops' training
  faces laid in long overlapping rows (``training.face_tables.overlapping_row``, experiment 93).
- with ``--greyed SHARE``, that share of the samples cut around a box (the photos', the tables'
  and rows', the finder's mistakes and pieces) painted grey outside the box grown
  ``GREY_MARGIN`` times, as a reader whose labels file says ``input.greyed`` reads a crowded
  index (``vision.corner_finder``, experiment 95).
- with ``--pieces SHARE``, that share of the samples the finder's boxes in the middle of
  card-crops' training faces (pips, pieces of pictures) that the reader ``--init-onnx`` names
  (else the shipped one) reads as a card of another rank, as ``none``
  (``training.hard_negatives.from_faces``, experiment 84).

``--init-onnx READER`` starts from an exported reader (its batch norms folded into the convs,
then kept frozen) instead of from scratch: a fine-tune.

The still photos' box reader, version 4 (``models/kibic_corner_reader_still.onnx``, experiments 95
and 95c), is version 3 fine-tuned with 0.3 of its boxed samples greyed around the box::

    python -m training.train_corner_reader --init-onnx models/kibic_corner_reader.onnx \\
        --steps 1200 --batch 96 --lr 5e-4 --seed 92 --threads 1 --rendered 0.25 --pieces 0.1 \\
        --greyed 0.3 --version 4 --out models/kibic_corner_reader_still.onnx

The table's box reader, version 3 (experiment 84, models/MODEL_CARD.md), is version 2 fine-tuned
with the pieces of faces that version 2 reads as cards::

    python -m training.train_corner_reader --init-onnx V2.onnx --steps 1200 --lr 5e-4 \\
        --seed 5 --rendered 0.25 --pieces 0.1 --version 3 --out models/kibic_corner_reader.onnx

(run again, the same bytes; ``git show ecbbe7d:models/kibic_corner_reader.onnx`` is version 2).
Version 2 (experiment 44) is version 1 fine-tuned::

    python -m training.train_corner_reader --init-onnx V1.onnx --steps 1200 --lr 5e-4 \\
        --seed 3 --rendered 0.25 --version 2 --out models/kibic_corner_reader.onnx

(run again, the same outputs). Version 1 (``git show 227fc46:models/kibic_corner_reader.onnx``)::

    python -m training.train_corner_reader --steps 3000 --seed 1 --rendered 0.25

(made by this script as of commit ea2b5b9, which drew its samples in one stream seeded by
``--seed``; the script now draws per data worker, ``[seed, worker]``, so the same command makes
a model of the same recipe, not the same bytes). On a GPU machine with data workers:
``bash training/device_corners.sh reader`` (experiment 28).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from models import MODEL_DIR
from training import face_tables, hard_negatives
from training.corner_samples import LabelledPhoto, light, load
from vision import corner_finder, label_errata
from vision.corner_finder import READ_SIDE, READ_SIZE, grey_outside, greyed_around, square_cut
from vision.index_reader import preprocess
from vision.labels import NONE_LABEL

DEFAULT_OUT = MODEL_DIR / "kibic_corner_reader.onnx"
FACE_H, FACE_W = 210, 150
# where a face's top-left index lies, as shares of the face (centre x, centre y, side)
INDEX_X, INDEX_Y, INDEX_SIDE = 0.11, 0.14, 0.30
TABLE_USES = 48  # index samples cut from each of face_tables' tables
GREY_MARGIN = 1.3  # --greyed: the photo outside a box grown this much painted grey (exp. 95)


def photo_sample(photo: LabelledPhoto, k: int, rng: np.random.Generator,
                 greyed: float = 0.0) -> np.ndarray:  # fmt: skip
    """The square around box ``k`` as the reader is trained on it; with the share ``greyed``,
    the photo outside the box (grown ``GREY_MARGIN`` times) painted grey first (no draw
    without it)."""
    cx, cy, w, h = (float(v) for v in photo.boxes[k])
    image = photo.image
    if greyed > 0 and rng.random() < greyed:
        image, cx, cy = greyed_around(image, (cx, cy, w, h), GREY_MARGIN)
    side = max(w, h) * rng.uniform(1.1, 1.5)
    cx, cy = cx + rng.uniform(-0.1, 0.1) * side, cy + rng.uniform(-0.1, 0.1) * side
    return square_cut(image, cx, cy, side, rng.uniform(0, 360), READ_SIZE)


def negative_sample(negative: hard_negatives.Negative, rng: np.random.Generator,
                    greyed: float = 0.0) -> np.ndarray:  # fmt: skip
    """``hard_negatives.sample`` of ``negative``; with the share ``greyed``, its patch painted
    grey outside its box (grown ``GREY_MARGIN`` times) first (no draw without it)."""
    if greyed > 0 and rng.random() < greyed:
        _, _, w, h = negative.box
        scale = hard_negatives.PATCH_PX / (hard_negatives.PATCH * READ_SIDE * max(w, h))
        mid = hard_negatives.PATCH_PX / 2
        patch = grey_outside(negative.patch, (mid, mid, w * scale, h * scale), GREY_MARGIN)
        negative = replace(negative, patch=patch)
    return hard_negatives.sample(negative, rng)


def crowded(photo: LabelledPhoto, k: int) -> bool:
    """Whether the square the reader reads around box ``k`` holds the centre of another of the
    photo's boxes (``vision.corner_finder.crowded``): an index in an overlapping row."""
    boxes = [(float(cx), float(cy), float(w), float(h)) for cx, cy, w, h in photo.boxes]
    return corner_finder.crowded([boxes[k]], boxes)[0]


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


def printed_sample(rng: np.random.Generator) -> np.ndarray:
    """A square of printed matter (``training.clutter.printed_page``: text lines in any font and
    size, maybe ruled), turned by any angle: what the finder takes for an index on a book, a
    score sheet or a card box (experiment 43)."""
    from training.clutter import printed_page

    side = 2 * READ_SIZE
    page = printed_page(rng, side, side)
    return square_cut(page, side / 2, side / 2, side * rng.uniform(0.45, 0.7),
                      rng.uniform(0, 360), READ_SIZE)  # fmt: skip


def finder_mistakes() -> list[hard_negatives.Negative]:
    """The shipped corner-index finder's boxes off every card on the edje-cards training photos
    (``training.hard_negatives``)."""
    from vision.corner_finder import CornerFinder
    from vision.real_sets import edje_photos

    out = hard_negatives.from_edje(edje_photos("train"), CornerFinder())
    if not out:
        raise ValueError("the finder made no mistake on the training photos: nothing for --hard")
    return out


def face_pieces(reader: Path | None = None) -> list[hard_negatives.Negative]:
    """The shipped finder's boxes in the middle of card-crops' training faces that ``reader``
    (the reader a fine-tune starts from, else the shipped one) reads as a card of another rank
    (``training.hard_negatives.from_faces``)."""
    from training.real_crops import read, split
    from vision.corner_finder import DEFAULT_READER, CornerFinder

    train, _ = split()
    faces = ((crop.path.name, read(crop), crop.label) for crop in train)
    out = hard_negatives.from_faces(faces, CornerFinder(reader_path=reader or DEFAULT_READER))
    if not out:
        raise ValueError("the finder found no piece of a face to learn: nothing for --pieces")
    return out


def to_gray(image: np.ndarray, rng: np.random.Generator, share: float) -> np.ndarray:
    """``image`` turned grey (kept as three equal BGR channels) with probability ``share``;
    a ``share`` of 0 leaves it, and ``rng``, untouched."""
    if share <= 0 or rng.random() >= share:
        return image
    return cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


class Batches:
    """Endless training batches (images, labels), drawn with ``rng``: the data is loaded where
    it is first iterated (in each data worker, with ``torch_batches``)."""

    def __init__(self, seed: int, batch: int, rendered: float, gray: float = 0.0,
                 printed: float = 0.0, hard: float = 0.0, tables: float = 0.0,
                 pieces: float = 0.0, start: Path | None = None,
                 dense: float = 0.0, rows: float = 0.0, greyed: float = 0.0) -> None:  # fmt: skip
        self.seed, self.batch, self.rendered, self.gray = seed, batch, rendered, gray
        self.printed = printed  # the share of samples that are printed matter, as none
        self.hard = hard  # the share that are the finder's mistakes, as none
        self.tables = tables  # the share that are indices of faces laid as at a table
        self.pieces = pieces  # the share that are the finder's boxes on pips and pictures, as none
        self.start = start  # the reader a fine-tune starts from: it chooses those boxes
        self.dense = dense  # the share that are crowded boxes of the photos (``crowded``)
        self.rows = rows  # the share that are indices of faces laid in overlapping rows
        self.greyed = greyed  # the share of the boxed samples greyed around their box

    def stream(self, rng: np.random.Generator):  # type: ignore[no-untyped-def]
        from training.real_crops import face, read, split
        from training.train_index import index_labels, rendered_pool

        labels = index_labels()
        where = {label: i for i, label in enumerate(labels)}
        none = where[NONE_LABEL]
        photos = load("train")
        boxes = [(i, k) for i, p in enumerate(photos) for k, c in enumerate(p.codes)
                 if f"french:{c}" in where]  # fmt: skip
        dense = [(i, k) for i, k in boxes if crowded(photos[i], k)] if self.dense > 0 else []
        if self.dense > 0 and not dense:
            raise ValueError("--dense: no training box has another index in its square")
        train, _ = split()
        faces = [face(read(crop)) for crop in train]
        face_labels = [where[crop.label] for crop in train]
        pool = rendered_pool(self.seed) if self.rendered > 0 else None
        french = [label for label in labels if label != NONE_LABEL]
        mistakes = finder_mistakes() if self.hard > 0 else []
        pieces = face_pieces(self.start) if self.pieces > 0 else []
        laid = (
            face_tables.TableStream(face_tables.indexed_faces("train"), TABLE_USES, boxed=True)
            if self.tables > 0
            else None
        )

        rows = (
            face_tables.TableStream(
                face_tables.indexed_faces("train"),
                TABLE_USES,
                boxed=True,
                layout=face_tables.overlapping_row,
            )  # fmt: skip
            if self.rows > 0
            else None
        )

        def boxed(photo: LabelledPhoto, k: int) -> tuple[np.ndarray, int]:
            """The sample cut around box ``k`` of ``photo`` (greyed in the share ``greyed``)."""
            return photo_sample(photo, k, rng, self.greyed), where[f"french:{photo.codes[k]}"]

        def from_table(stream: face_tables.TableStream) -> tuple[np.ndarray, int]:
            photo = stream.next(rng)
            return boxed(photo, int(rng.integers(len(photo.codes))))

        def sample() -> tuple[np.ndarray, int]:
            if laid is not None and rng.random() < self.tables:  # (no draw without it)
                return from_table(laid)
            if self.printed > 0 and rng.random() < self.printed:  # (no draw without it)
                return printed_sample(rng), none
            if self.hard > 0 and rng.random() < self.hard:  # likewise
                return negative_sample(mistakes[int(rng.integers(len(mistakes)))], rng,
                                       self.greyed), none  # fmt: skip
            if self.pieces > 0 and rng.random() < self.pieces:  # likewise
                return negative_sample(pieces[int(rng.integers(len(pieces)))], rng,
                                       self.greyed), none  # fmt: skip
            if rows is not None and rng.random() < self.rows:  # likewise
                return from_table(rows)
            if self.dense > 0 and rng.random() < self.dense:  # likewise
                i, k = dense[int(rng.integers(len(dense)))]
                return boxed(photos[i], k)
            draw = rng.random()
            if draw < 0.125:
                return none_sample(photos, faces, rng), none
            if pool is not None and draw < 0.125 + self.rendered:
                label = french[int(rng.integers(len(french)))]
                return face_sample(pool.pick(label, rng), rng), where[label]
            if rng.random() < 0.5:
                i, k = boxes[int(rng.integers(len(boxes)))]
                return boxed(photos[i], k)
            j = int(rng.integers(len(faces)))
            return face_sample(faces[j], rng), face_labels[j]

        while True:
            drawn = [sample() for _ in range(self.batch)]
            x = preprocess([to_gray(light(image, rng), rng, self.gray) for image, _ in drawn])
            yield x, np.array([label for _, label in drawn], np.int64)


def wide_net(classes: int):  # type: ignore[no-untyped-def]
    """The index reader's net (``training.train_index.build_net``) with twice the channels and
    one more block."""
    import torch.nn as nn

    def block(i: int, o: int) -> list[nn.Module]:
        return [nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU()]

    return nn.Sequential(
        *block(3, 32), nn.MaxPool2d(2),
        *block(32, 64), *block(64, 64), nn.MaxPool2d(2),
        *block(64, 128), *block(128, 128), nn.MaxPool2d(2),
        *block(128, 192), *block(192, 192), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        nn.Linear(192, classes),
    )  # fmt: skip


def torch_batches(batches: Batches, workers: int):  # type: ignore[no-untyped-def]
    """``batches`` as a torch DataLoader over ``workers`` processes (0: this one), each
    drawing with its own seeded stream."""
    import torch

    class Stream(torch.utils.data.IterableDataset):  # type: ignore[type-arg]
        def __iter__(self):  # type: ignore[no-untyped-def]
            info = torch.utils.data.get_worker_info()
            rng = np.random.default_rng([batches.seed, info.id if info else 0])
            for x, y in batches.stream(rng):
                yield torch.from_numpy(x), torch.from_numpy(y)

    return torch.utils.data.DataLoader(Stream(), batch_size=None, num_workers=workers,
                                       prefetch_factor=4 if workers else None)  # fmt: skip


def main() -> None:
    import torch
    import torch.nn.functional as F

    from training.train import freeze_norms
    from training.train_index import build_net, index_labels, start_from

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--batch", type=int, default=96)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rendered", type=float, default=0.0, metavar="SHARE")
    parser.add_argument("--gray", type=float, default=0.0, metavar="SHARE",
                        help="that share of the samples turned grey (after the other augmentations)")  # fmt: skip
    parser.add_argument("--print", dest="printed", type=float, default=0.0, metavar="SHARE",
                        help="that share of the samples squares of printed matter (text in any "
                             "font, maybe ruled), read as none (experiment 43)")  # fmt: skip
    parser.add_argument("--hard", type=float, default=0.0, metavar="SHARE",
                        help="that share of the samples the finder's boxes off every card on "
                             "the edje-cards training photos, read as none (experiment 44)")  # fmt: skip
    parser.add_argument("--tables", type=float, default=0.0, metavar="SHARE",
                        help="that share of the samples the indices that show of card-crops' "
                             "training faces laid as at a table (training.face_tables, "
                             "experiment 59)")  # fmt: skip
    parser.add_argument("--pieces", type=float, default=0.0, metavar="SHARE",
                        help="that share of the samples the finder's boxes on the pips and "
                             "pictures of card-crops' training faces, read as none "
                             "(experiment 84)")  # fmt: skip
    parser.add_argument("--dense", type=float, default=0.0, metavar="SHARE",
                        help="that share of the samples the corner-boxes training boxes with "
                             "another index in the square read around them: overlapping rows "
                             "(experiment 92)")  # fmt: skip
    parser.add_argument("--rows", type=float, default=0.0, metavar="SHARE",
                        help="that share of the samples the indices that show of card-crops' "
                             "training faces laid in long overlapping rows (experiment 93)")  # fmt: skip
    parser.add_argument("--greyed", type=float, default=0.0, metavar="SHARE",
                        help="that share of the samples cut around a box painted grey outside "
                             "the box; the reader then reads crowded indices so (experiment 95)")  # fmt: skip
    parser.add_argument("--init-onnx", type=Path, default=None, metavar="READER",
                        help="fine-tune this exported reader (its norms folded, then frozen)")  # fmt: skip
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--workers", type=int, default=0, help="data worker processes")
    parser.add_argument("--max-seconds", type=float, default=None,
                        help="train at most this long, then export (the learning rate follows "
                        "the steps or the time, whichever is further along)")  # fmt: skip
    parser.add_argument("--wide", action="store_true",
                        help="a wider net (twice the channels, one more block)")  # fmt: skip
    parser.add_argument("--version", type=int, default=1, help="the model's version")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    for option, share in (("--gray", args.gray), ("--print", args.printed), ("--hard", args.hard),
                          ("--tables", args.tables), ("--pieces", args.pieces),
                          ("--dense", args.dense), ("--rows", args.rows),
                          ("--greyed", args.greyed)):  # fmt: skip
        if not 0 <= share <= 1:
            parser.error(f"{option} must be a share from 0 to 1, not {share:g}")
    if args.init_onnx is not None and args.wide:
        parser.error("--init-onnx starts from a reader of the plain net: not with --wide")
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    start = time.time()
    labels = index_labels()
    device = torch.device(args.device)
    model = wide_net(len(labels)) if args.wide else build_net(len(labels))
    if args.init_onnx is not None:
        start_from(model, args.init_onnx)
    model = model.to(device)
    opt = torch.optim.AdamW(model.parameters(), args.lr, weight_decay=1e-4)
    step = 0
    shares = {"gray": args.gray, "printed": args.printed, "hard": args.hard,
              "tables": args.tables, "pieces": args.pieces, "start": args.init_onnx,
              "dense": args.dense, "rows": args.rows, "greyed": args.greyed}  # fmt: skip
    data = torch_batches(Batches(args.seed, args.batch, args.rendered, **shares), args.workers)
    for step, (x, y) in enumerate(data):  # noqa: B007
        elapsed = time.time() - start
        if step >= args.steps or (args.max_seconds is not None and elapsed > args.max_seconds):
            break
        # one cycle: warm up over the first tenth, then cosine down (of the steps, or the time
        # where that runs out first)
        done = step / args.steps
        if args.max_seconds is not None:
            done = max(done, elapsed / args.max_seconds)
        lr = args.lr * (
            done / 0.1 if done < 0.1 else 0.5 * (1 + np.cos(np.pi * (done - 0.1) / 0.9))
        )
        for group in opt.param_groups:
            group["lr"] = lr
        model.train()
        if args.init_onnx is not None:
            freeze_norms(model)
        loss = F.cross_entropy(model(x.to(device)), y.to(device), label_smoothing=0.05)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if (step + 1) % 250 == 0:
            print(f"step {step + 1} loss {loss.item():.3f} {elapsed:.0f}s", flush=True)
    model.cpu()
    model.eval()
    dummy = torch.zeros(1, 3, READ_SIZE, READ_SIZE)
    torch.onnx.export(model, (dummy,), str(args.out), input_names=["input"],
                      output_names=["logits"], dynamic_axes={"input": {0: "n"}, "logits": {0: "n"}},
                      opset_version=17, dynamo=False)  # fmt: skip
    meta = {
        "version": args.version,
        "labels": list(labels),
        "input": {
            "size": READ_SIZE,
            "side": READ_SIDE,
            "channels": "BGR",
            "scale": "x/127.5-1",
            **({"greyed": GREY_MARGIN} if args.greyed else {}),
        },
        "training": {
            "name": f"corner-index box reader, version {args.version}",
            "command": label_errata.command_prefix()
            + f"python -m training.train_corner_reader --steps {args.steps} "
            f"--batch {args.batch} --lr {args.lr:g} --seed {args.seed} --threads {args.threads}"
            + (f" --rendered {args.rendered:g}" if args.rendered else "")
            + (f" --gray {args.gray:g}" if args.gray else "")
            + (f" --print {args.printed:g}" if args.printed else "")
            + (f" --hard {args.hard:g}" if args.hard else "")
            + (f" --tables {args.tables:g}" if args.tables else "")
            + (f" --pieces {args.pieces:g}" if args.pieces else "")
            + (f" --dense {args.dense:g}" if args.dense else "")
            + (f" --rows {args.rows:g}" if args.rows else "")
            + (f" --greyed {args.greyed:g}" if args.greyed else "")
            + (f" --init-onnx {args.init_onnx}" if args.init_onnx else "")
            + (f" --device {args.device} --workers {args.workers}" if args.workers else "")
            + (f" --max-seconds {args.max_seconds:g}" if args.max_seconds else "")
            + (" --wide" if args.wide else "")
            + f" --version {args.version}",
            "steps": step,
            "labels": label_errata.described(),
            "data": "corner-boxes training photos and card-crops training faces, real "
            "photographs"
            + (", and rendered French faces" if args.rendered else "")
            + (f", {args.gray:g} of the samples turned grey" if args.gray else "")
            + (f", {args.printed:g} of them printed matter" if args.printed else "")
            + (
                f", {args.hard:g} of them the shipped finder's boxes off every card on the "
                "edje-cards training photos"
                if args.hard
                else ""
            )
            + (
                f", {args.tables:g} of them indices of training faces laid as at a table"
                if args.tables
                else ""
            )  # fmt: skip
            + (
                f", {args.pieces:g} of them the shipped finder's boxes on the pips and pictures "
                "of card-crops' training faces that the reader started from reads as a card of "
                "another rank, as none"
                if args.pieces
                else ""
            )  # fmt: skip
            + (
                f", {args.dense:g} of them the corner-boxes training boxes with another index in "
                "the square read around them"
                if args.dense
                else ""
            )  # fmt: skip
            + (
                f", {args.rows:g} of them indices of training faces laid in overlapping rows"
                if args.rows
                else ""
            )  # fmt: skip
            + (
                f", {args.greyed:g} of those cut around a box greyed outside it"
                if args.greyed
                else ""
            )  # fmt: skip
            + (f"; fine-tuned from {args.init_onnx}" if args.init_onnx else ""),
            "seconds": round(time.time() - start),
            "machine": f"torch {torch.__version__}, {args.device}, {args.threads} thread(s)",
        },
    }
    args.out.with_suffix(".labels.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"done in {time.time() - start:.0f}s -> {args.out}", flush=True)


if __name__ == "__main__":
    main()
