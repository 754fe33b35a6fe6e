"""Fits the still-photo check (``vision.photo_check``, experiment 71): a logistic regression on
the still-photo classifier's embedding that tells the detector's regions on cards from those on
anything else.

What it learns from (each region's embedding as the classifier computes it when reading):

- cards and no cards: the learned detector's regions on the edje-cards train photos at even
  places of their sorted list (a region is a card when the centre of its visible part lies in a
  labelled box, else no card: every visible card of those photos is labelled), and on table
  composites of card-crops' training faces (``training.table_eval --faces train``, given as
  ``--composites``; the same test on their labels);
- cards: the detector's regions on the corner-boxes training parts that hold one labelled
  card's corner boxes; card-crops' training faces, each photo whole; rendered faces of the
  three families from training designs (``training.synth``);
- no cards: generated printed pages and surfaces (``training.clutter``).

The edje-cards train photos at odd places are left out, to measure the check on.

The weight of each sample is set so that cards and no cards weigh the same. The L2 weight is the
one of ``L2S`` with the least out-of-fold log loss (five folds, by photo), and the threshold the
``QUANTILE`` quantile of the out-of-fold card probabilities of the cards among the detector's
regions that no other region covers by ``ISOLATED`` of its area or more (the ones the check is
asked about): about one such card in 200 falls under it.

    python -m training.photo_check --composites /tmp/ptrain-flat /tmp/ptrain-fanned \\
        --out models/kibic_photo_check.json --version 1
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from training.real_print import visible_box
from vision.detector import CardDetector
from vision.evaluate import centre_in, read_voc
from vision.finder import FoundCard, warp_card
from vision.photo_check import PhotoCheck, covered_shares
from vision.pipeline import find_in_still
from vision.recognizer import PHOTO_MODEL, Recognizer

log = logging.getLogger("kibic.training.photo_check")

L2S = (0.1, 0.3, 1.0, 3.0, 10.0)
QUANTILE = 0.005
ISOLATED = 0.1  # a region the other regions cover by less than this share is isolated
FOLDS = 5
SEED = 71


@dataclass
class Samples:
    """Embeddings with their class (1: card), fold group and whether a detector region."""

    feats: list[np.ndarray] = field(default_factory=list)
    card: list[int] = field(default_factory=list)
    group: list[int] = field(default_factory=list)
    region: list[bool] = field(default_factory=list)
    covered: list[float] = field(default_factory=list)  # of a region, by the other regions
    counts: dict[str, list[int]] = field(default_factory=dict)  # source -> [cards, no cards]

    def add(self, source: str, feats: np.ndarray, cards: Sequence[int], group: int,
            region: bool, covered: Sequence[float] | None = None) -> None:  # fmt: skip
        self.covered += list(covered) if covered is not None else [0.0] * len(cards)
        self.feats += list(feats)
        self.card += list(cards)
        self.group += [group] * len(cards)
        self.region += [region] * len(cards)
        tally = self.counts.setdefault(source, [0, 0])
        tally[0] += int(sum(cards))
        tally[1] += len(cards) - int(sum(cards))


def edje_fitting_photos() -> list[Path]:
    """The edje-cards train photos the check learns from: even places of the sorted list."""
    from vision.real_sets import edje_photos

    return edje_photos("train")[0::2]


def _regions(image: np.ndarray, detector: CardDetector,
             ) -> tuple[list[FoundCard], list[np.ndarray]]:  # fmt: skip
    """The detector's regions of ``image`` and their crops, as ``read_cards`` makes them."""
    found = find_in_still(image, detector=detector)
    return found, [warp_card(image, f.corners, repeat_edge=True) for f in found]


def _centre_on(found: FoundCard, boxes: Sequence[tuple[float, float, float, float]]) -> bool:
    """Whether the centre of the part of ``found`` that shows lies in one of ``boxes``."""
    return centre_in(visible_box(found), boxes)


def voc_regions(samples: Samples, source: str, photos: Sequence[Path], rec: Recognizer,
                detector: CardDetector, group0: int) -> int:  # fmt: skip
    """Each detector region of labelled ``photos`` as card (on a label) or no card."""
    for k, path in enumerate(photos):
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise ValueError(f"{path}: not an image")
        boxes = [box for _, box in read_voc(path.with_suffix(".xml"))]
        if not boxes:
            continue
        found, crops = _regions(image, detector)
        if crops:
            samples.add(source, rec.embed(crops), [int(_centre_on(f, boxes)) for f in found],
                        group0 + k, region=True,
                        covered=covered_shares([f.corners for f in found]))  # fmt: skip
    return group0 + len(photos)


def corner_box_cards(samples: Samples, rec: Recognizer, detector: CardDetector,
                     group0: int) -> int:  # fmt: skip
    """The detector's regions of the corner-boxes training parts that hold one card's boxes."""
    from training.real_finder_crops import FOLDERS, label_of, photos, read_labels

    paths = [p for folder in FOLDERS for p in photos(folder)[0]]
    for k, path in enumerate(paths):
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise ValueError(f"{path}: not an image")
        h, w = image.shape[:2]
        boxes = read_labels(path.parent.parent / "labels" / f"{path.stem}.txt", w, h)
        found, crops = _regions(image, detector)
        shares = covered_shares([f.corners for f in found])
        kept = [i for i, f in enumerate(found)
                if label_of(np.asarray(f.corners, np.float32), boxes) is not None]  # fmt: skip
        if kept:
            samples.add("corner-boxes train", rec.embed([crops[i] for i in kept]),
                        [1] * len(kept), group0 + k, region=True,
                        covered=[shares[i] for i in kept])  # fmt: skip
    return group0 + len(paths)


def card_crop_faces(samples: Samples, rec: Recognizer, group0: int) -> int:
    """card-crops' training faces, each photo whole."""
    from training.real_crops import read, split

    train, _ = split()
    for start in range(0, len(train), 64):
        batch = [read(c) for c in train[start : start + 64]]
        samples.add("card-crops train", rec.embed(batch), [1] * len(batch),
                    group0 + start // 64, region=False)  # fmt: skip
    return group0 + len(train) // 64 + 1


def generated(samples: Samples, rec: Recognizer, per_family: int, n_clutter: int,
              group0: int) -> int:  # fmt: skip
    """Rendered faces of training designs (cards), printed pages and surfaces (no cards)."""
    from training.clutter import clutter_none_sample
    from training.synth import MODEL_LABELS, FacePool, augment, make_sample

    rng = np.random.default_rng(SEED)
    pool = FacePool.build([11, 22, 33, 44])
    for family in ("french", "german", "serbian"):
        idx = [i for i, lb in enumerate(MODEL_LABELS) if lb.startswith(family + ":")]
        crops = [make_sample(int(rng.choice(idx)), rng, pool) for _ in range(per_family)]
        samples.add("rendered", rec.embed(crops), [1] * len(crops), group0, region=False)
        group0 += 1
    crops = [augment(clutter_none_sample(rng, pool, ("page", "surface")), rng)
             for _ in range(n_clutter)]  # fmt: skip
    samples.add("generated print and surfaces", rec.embed(crops), [0] * len(crops), group0,
                region=False)  # fmt: skip
    return group0 + 1


def fit_logistic(x: np.ndarray, y: np.ndarray, weight: np.ndarray, l2: float,
                 steps: int = 30) -> tuple[np.ndarray, float]:  # fmt: skip
    """Weighted L2 logistic regression by Newton's method on standardised ``x``: (weights, bias)
    on ``x`` as it is. The loss is the weighted mean log loss + l2 / 2 |w|^2 (bias free)."""
    mean, std = x.mean(axis=0), x.std(axis=0) + 1e-6
    z = np.hstack([(x - mean) / std, np.ones((len(x), 1))])
    wsum = weight / weight.sum()
    beta = np.zeros(z.shape[1])
    ridge = np.full(z.shape[1], l2)
    ridge[-1] = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ beta, -60, 60)))
        grad = z.T @ (wsum * (p - y)) + ridge * beta
        hess = (z * (wsum * p * (1 - p))[:, None]).T @ z + np.diag(ridge + 1e-9)
        step = np.linalg.solve(hess, grad)
        beta -= step
        if float(np.abs(step).max()) < 1e-6:
            break
    w = beta[:-1] / std
    return w, float(beta[-1] - (beta[:-1] * mean / std).sum())


def _probability(x: np.ndarray, w: np.ndarray, b: float) -> np.ndarray:
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(x @ w + b, -60, 60))))


def balanced(y: np.ndarray) -> np.ndarray:
    """Sample weights under which cards and no cards weigh the same."""
    pos = max(int(y.sum()), 1)
    neg = max(len(y) - int(y.sum()), 1)
    return np.where(y == 1, 0.5 / pos, 0.5 / neg)


def out_of_fold(x: np.ndarray, y: np.ndarray, groups: np.ndarray, l2: float) -> np.ndarray:
    """Each sample's card probability from the fit on the other folds (folds by group)."""
    fold = groups % FOLDS
    out = np.zeros(len(y))
    for f in range(FOLDS):
        train = fold != f
        w, b = fit_logistic(x[train], y[train], balanced(y[train]), l2)
        out[~train] = _probability(x[~train], w, b)
    return out


def log_loss(y: np.ndarray, p: np.ndarray) -> float:
    p = np.clip(p, 1e-7, 1 - 1e-7)
    return float(np.sum(balanced(y) * -(y * np.log(p) + (1 - y) * np.log(1 - p))))


def fit(samples: Samples) -> tuple[np.ndarray, float, float, dict[str, object]]:
    """(weights, bias, threshold, what was chosen) from ``samples`` (module docstring)."""
    x = np.asarray(samples.feats, np.float64)
    y = np.asarray(samples.card, np.float64)
    groups = np.asarray(samples.group)
    # the regions the check is asked about (``vision.photo_check``)
    region = np.asarray(samples.region) & (np.asarray(samples.covered) < ISOLATED)
    losses: dict[float, float] = {}
    oof: dict[float, np.ndarray] = {}
    for l2 in L2S:
        oof[l2] = out_of_fold(x, y, groups, l2)
        losses[l2] = log_loss(y, oof[l2])
        log.info("l2 %g: out-of-fold log loss %.4f", l2, losses[l2])
    l2 = min(L2S, key=lambda v: losses[v])
    cards = oof[l2][(y == 1) & region]
    threshold = float(np.quantile(cards, QUANTILE))
    no_cards = oof[l2][(y == 0) & region]
    w, b = fit_logistic(x, y, balanced(y), l2)
    chosen = {"l2": l2, "out_of_fold_log_loss": {str(k): round(v, 4) for k, v in losses.items()},
              "out_of_fold_regions": {"cards": int(len(cards)), "no_cards": int(len(no_cards)),
                                      "no_cards_under_threshold": int((no_cards < threshold).sum())}}  # fmt: skip
    return w.astype(np.float32), b, threshold, chosen


def gather(composites: Sequence[Path], rec: Recognizer, detector: CardDetector,
           per_family: int, n_clutter: int) -> Samples:  # fmt: skip
    samples = Samples()
    group = voc_regions(samples, "edje-cards train, even places", edje_fitting_photos(), rec,
                        detector, 0)  # fmt: skip
    for folder in composites:
        photos = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".png"))
        if not photos:
            raise FileNotFoundError(f"no composites in {folder}")
        group = voc_regions(samples, f"composites {folder.name}", photos, rec, detector, group)
    group = corner_box_cards(samples, rec, detector, group)
    group = card_crop_faces(samples, rec, group)
    generated(samples, rec, per_family, n_clutter, group)
    return samples


def _args(argv: Sequence[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description="Fit the still-photo check (vision.photo_check).")
    ap.add_argument("--composites", type=Path, nargs="*", default=[],
                    help="folders of table composites of card-crops' training faces")  # fmt: skip
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--version", default="1")
    ap.add_argument("--rendered", type=int, default=400, help="rendered faces a family")
    ap.add_argument("--clutter", type=int, default=1200, help="generated print and surfaces")
    return ap.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    args = _args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    start = time.perf_counter()
    rec = Recognizer(PHOTO_MODEL)
    samples = gather(args.composites, rec, CardDetector(), args.rendered, args.clutter)
    w, b, threshold, chosen = fit(samples)
    command = "python -m training.photo_check " + " ".join(
        [*(f"--composites {c}" for c in args.composites), f"--out {args.out}",
         f"--version {args.version}", f"--rendered {args.rendered}", f"--clutter {args.clutter}"]
    )  # fmt: skip
    meta = {"name": f"still-photo check version {args.version} (experiment 71)",
            "reads": PHOTO_MODEL.name, "command": command,
            "samples": {k: {"cards": v[0], "no_cards": v[1]} for k, v in samples.counts.items()},
            "chosen": chosen, "seconds": round(time.perf_counter() - start, 1)}  # fmt: skip
    PhotoCheck(
        w, b, threshold, rec.fingerprint, isolated=ISOLATED, version=args.version, meta=meta
    ).save(args.out)
    log.info("%s", json.dumps({k: v for k, v in meta.items() if k != "command"}, indent=1))
    log.info("threshold %.4f, written to %s", threshold, args.out)


if __name__ == "__main__":
    main()
