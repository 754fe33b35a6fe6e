"""A learned card detector for still photos (``models/kibic_detector.onnx``).

The photo is shrunk so that its longest side is the detector's input size (``long_side``,
by default the model's ``inference.long_side``: 384 px for the shipped model since experiment 11;
being larger than its training size, 320, it adds a second pass at 320 for wide cards, see
``CardDetector.detect``), padded at the right and bottom to multiples of 32 (grey) and scored
by a small fully convolutional net (``training/train_detector.py``, CenterNet-style): a heatmap
of card peaks at stride 4 and, per cell, the card's centre offset, long and short side and the
orientation of its long axis.
Peaks of the heatmap (3x3 local maxima over ``threshold``) become rotated rectangles, mapped
back to photo pixels and ordered like ``vision.finder.order_corners``, so that
``vision.finder.warp_card`` gives the upright crop the recogniser reads. Whole cards are
predicted also where they are partly covered (fans, piles) or partly out of frame; a model
with the visible-part channels (experiment 5) also says which box of each card shows. The shipped
model (since experiment 6, ``--peak visible``) peaks inside the part of each card that shows, so a card
under another is found on its strip and one cut by the photo's edge on what is in the photo;
its centre may then lie out of the photo (only peaks in the padding are dropped).

Run with onnxruntime on the CPU (imported when the first detector is made).
"""

from __future__ import annotations

import json
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.finder import FoundCard, order_corners, quad_iou
from vision.onnx_session import cpu_session

MODEL_DIR = Path(__file__).resolve().parent.parent / "models"
DEFAULT_DETECTOR = MODEL_DIR / "kibic_detector.onnx"


@dataclass(frozen=True)
class DetectedCard(FoundCard):
    """A found card with the detector's score (the heatmap peak, 0..1) and, from a model that
    predicts it, the box (photo px) of the part of the card that shows."""

    score: float = 0.0
    visible: tuple[float, float, float, float] | None = None


@dataclass(frozen=True)
class Letterbox:
    """How a photo was fitted into the model input: ``scale`` then padded right and bottom."""

    scale: float
    height: int  # of the shrunk photo inside the input
    width: int
    input_h: int
    input_w: int


def letterbox_geometry(h: int, w: int, long_side: int, multiple: int = 32) -> Letterbox:
    """The fit of an ``h`` x ``w`` photo into an input whose longest side is ``long_side``."""
    scale = long_side / max(h, w)
    nh, nw = max(1, round(h * scale)), max(1, round(w * scale))
    ih = int(np.ceil(nh / multiple) * multiple)
    iw = int(np.ceil(nw / multiple) * multiple)
    return Letterbox(scale, nh, nw, ih, iw)


def rotated_corners(cx: float, cy: float, long_side: float, short_side: float,
                    theta: float) -> np.ndarray:  # fmt: skip
    """The 4 corners of a rectangle centred at (cx, cy), its long side at angle ``theta``."""
    u = np.array([np.cos(theta), np.sin(theta)]) * long_side / 2
    v = np.array([-np.sin(theta), np.cos(theta)]) * short_side / 2
    c = np.array([cx, cy])
    return np.array([c - u - v, c + u - v, c + u + v, c - u + v], np.float32)


class CardDetector:
    """Card quadrilaterals with a score in a BGR photo, by the ONNX detector."""

    def __init__(self, model_path: str | Path = DEFAULT_DETECTOR, threads: int = 1, *,
                 long_side: int | None = None, threshold: float | None = None,
                 nms_iou: float | None = None, smooth: bool = True,
                 zoom_side: int | None = None,
                 zoom_over_weaker: bool | None = None) -> None:  # fmt: skip
        """``long_side`` (the fine pass's input size), ``threshold`` (its least heatmap
        peak) and ``nms_iou`` (the quad IoU over which a weaker peak is the same card) default
        to the model's ``inference`` settings (``long_side``, ``threshold``, ``nms_iou``),
        else to its training size, 0.2 and 0.8; a ``long_side`` given larger than the training size
        takes the model's ``fine_threshold`` unless ``threshold`` is given. When the fine pass
        is larger than the training size, a second, coarse pass at the training size (at
        ``threshold``) finds the cards too big for the fine one (see ``detect``).
        ``zoom_side`` (default the model's ``zoom_side``; 0: none) is the input size of a
        last pass for the cards too big for the others (``zoom_width``, see ``detect``);
        ``zoom_over_weaker`` (default the model's) keeps a zoom-out card surer than the cards it
        holds (``_zoomed_out``)."""

        model_path = Path(model_path)
        meta = json.loads(model_path.with_suffix(".json").read_text())
        chosen = meta.get("inference", {})
        self.train_side = int(meta["input"]["long_side"])
        self.long_side = int(long_side or chosen.get("long_side", self.train_side))
        if self.long_side < 64:
            raise ValueError(f"detector input size {self.long_side} px is too small (at least 64)")
        self.multiple = int(meta["input"].get("multiple", 32))
        self.pad = int(meta["input"].get("pad", 128))
        self.stride = int(meta["output"]["stride"])
        self.size_ref = float(meta["output"]["size_ref"])
        # the pass at the training size (the coarse one under a fine pass): its threshold;
        # the widest card (in fine-pass input px) a fine pass is trusted with
        self.coarse_threshold = float(chosen.get("threshold", 0.2))
        self.max_fine_width = float(chosen.get("max_fine_width", 0.0))
        if threshold is None:
            # the model's own pass (``long_side`` not given) takes ``threshold``; another size
            # larger than the training size takes ``fine_threshold``
            fine = long_side is not None and self.long_side > self.train_side
            threshold = chosen.get("fine_threshold", self.coarse_threshold) if fine else None
        self.threshold = float(threshold if threshold is not None else self.coarse_threshold)
        if not 0.0 < self.threshold < 1.0:
            raise ValueError(f"detector threshold {self.threshold} is not between 0 and 1")
        self.nms_iou = float(nms_iou if nms_iou is not None else chosen.get("nms_iou", 0.8))
        if not 0.0 < self.nms_iou <= 1.0:
            raise ValueError(f"detector NMS IoU {self.nms_iou} is not in (0, 1]")
        # the zoom-out pass: its input size, and the least width of the cards it gives, in the
        # photo's short sides (experiment 39)
        self.zoom_side = int(chosen.get("zoom_side", 0) if zoom_side is None else zoom_side)
        if 0 < self.zoom_side < 64:
            raise ValueError(f"detector zoom-out size {self.zoom_side} px is too small "
                             "(at least 64, or 0 for none)")  # fmt: skip
        self.zoom_width = float(chosen.get("zoom_width", 0.5))
        self.zoom_threshold = float(chosen.get("zoom_threshold", 0.5))
        # a zoom-out card surer than every card of the other passes it holds is kept, those
        # cards dropped as its pieces (experiment 49)
        self.zoom_over_weaker = bool(
            chosen.get("zoom_over_weaker", False) if zoom_over_weaker is None else zoom_over_weaker
        )
        self.smooth = smooth  # average the regression over the peak's strong neighbours
        self._session: Any = cpu_session(model_path, threads)

    def prepare(self, image: np.ndarray, long_side: int | None = None,
                ) -> tuple[np.ndarray, Letterbox]:  # fmt: skip
        """The model input (1x3xHxW float32) for a BGR (or grey) image and its letterbox, at
        ``long_side`` (default the fine pass's size)."""
        if image.ndim == 2:
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        h, w = image.shape[:2]
        box = letterbox_geometry(h, w, long_side or self.long_side, self.multiple)
        small = cv2.resize(image, (box.width, box.height), interpolation=cv2.INTER_AREA)
        canvas = np.full((box.input_h, box.input_w, 3), self.pad, np.uint8)
        canvas[: box.height, : box.width] = small
        x = canvas.transpose(2, 0, 1)[None].astype(np.float32)
        x *= 1.0 / 127.5
        x -= 1.0
        return x, box

    def raw(self, image: np.ndarray, long_side: int | None = None,
            ) -> tuple[np.ndarray, Letterbox]:  # fmt: skip
        """The model output (7 x H/4 x W/4) for ``image`` at ``long_side`` and its letterbox."""
        x, box = self.prepare(image, long_side)
        out = self._session.run(None, {"input": x})[0]
        return np.asarray(out[0], np.float32), box

    def decode(self, out: np.ndarray, box: Letterbox,
               threshold: float | None = None) -> list[DetectedCard]:  # fmt: skip
        """Peaks of the heatmap (over ``threshold``, default the fine pass's) to cards in
        photo pixels, best first."""
        heat = out[0]
        least = self.threshold if threshold is None else threshold
        peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > least)
        ii, jj = np.nonzero(peaks)
        order = np.argsort(-heat[ii, jj])
        kept: list[DetectedCard] = []
        for k in order:
            i, j = int(ii[k]), int(jj[k])
            if not (j * self.stride < box.width and i * self.stride < box.height):
                continue  # a peak in the padding (a card's centre may lie out of the photo)
            cx, cy, log_l, log_s, c2, s2, *shows = self._at(out, i, j)
            long_side = self.size_ref * float(np.exp(log_l))
            short_side = self.size_ref * float(np.exp(log_s))
            theta = 0.5 * float(np.arctan2(s2, c2))
            quad = rotated_corners(cx, cy, long_side, short_side, theta) / box.scale
            quad = order_corners(quad)
            if any(quad_iou(quad, other.corners) > self.nms_iou for other in kept):
                continue
            visible = _visible(cx, cy, long_side, shows, box, quad) if shows else None
            kept.append(DetectedCard(quad, float(heat[i, j]), visible))
        return kept

    def _at(self, out: np.ndarray, i: int, j: int) -> tuple[float, ...]:
        """Centre (input px), log sides and 2t of the card peaking at cell (i, j): each
        cell's prediction in the 3x3 neighbourhood weighted by its heat."""
        s = self.stride
        oh, ow = out.shape[1:]
        i0, i1, j0, j1 = max(i - 1, 0), min(i + 2, oh), max(j - 1, 0), min(j + 2, ow)
        if not self.smooth:
            i0, i1, j0, j1 = i, i + 1, j, j + 1
        win = out[:, i0:i1, j0:j1]
        wts = win[0] * (win[0] >= 0.5 * out[0, i, j])
        wts = wts / wts.sum()
        ys = (np.arange(i0, i1, dtype=np.float32)[:, None] * s + (s - 1) / 2) + win[2] * s
        xs = (np.arange(j0, j1, dtype=np.float32)[None, :] * s + (s - 1) / 2) + win[1] * s
        vals = [xs, ys, *win[3:]]
        return tuple(float((v * wts).sum()) for v in vals)

    def detect(self, image: np.ndarray) -> list[DetectedCard]:
        """Every card found in a BGR photo (corners in its pixels), best score first.

        The fine pass (``long_side``, larger than the training size for the shipped model)
        separates the cards of tight fans and small cards better, but misses cards wider than
        the widest the model was trained on. So when the fine pass is larger than the
        training size, it keeps only the cards at most ``max_fine_width`` px wide in its input,
        and a coarse pass at the training size gives the wider ones.

        The model learnt cards whose short side is at most about 60 % of the photo's short
        side, so a card closer to the camera is missed by both, or found in pieces. A
        zoom-out pass (``zoom_side``, half the training size for the shipped model; experiment
        39) sees it at the size it learnt, and gives the cards wider than ``zoom_width`` of
        the photo's short side where the other passes found no card but its pieces."""
        from vision.rest_schedule import run_steps

        return run_steps(self.detect_in_steps(image))[0]

    def detect_with_zoom(self, image: np.ndarray) -> tuple[list[DetectedCard], list[DetectedCard]]:
        """``detect(image)``, and every card of the zoom-out pass alone at the coarse pass's
        threshold (``zoom_pass``), each pass run once: for a photo known to be one card
        (``vision.pipeline.read_whole``)."""
        from vision.rest_schedule import run_steps

        cards, zoomed = run_steps(self._passes(image))[0]
        return cards, zoomed if self.zoom_side > 0 else self.zoom_pass(image)

    def detect_in_steps(self, image: np.ndarray) -> Generator[None, None, list[DetectedCard]]:
        """``detect(image)``, the same cards, made in steps (the table tracker runs one step
        a frame): a generator that yields after the fine pass's input is made, after its net,
        after its cards are decoded with the coarse pass's input made, and after the coarse
        pass (when there is a zoom-out pass), and returns the cards."""
        cards, _ = yield from self._passes(image)
        return cards

    def _passes(self, image: np.ndarray,
                ) -> Generator[None, None, tuple[list[DetectedCard], list[DetectedCard]]]:  # fmt: skip
        """``detect_in_steps``, returning also every card of the zoom-out pass (none without
        one)."""
        x, box = self.prepare(image)
        yield
        out = np.asarray(self._session.run(None, {"input": x})[0][0], np.float32)
        yield  # the fine pass's peaks decoded apart from its net (experiment 72)
        found = self.decode(out, box)
        two_passes = self.long_side > self.train_side and self.max_fine_width > 0
        if not two_passes:
            if self.zoom_side <= 0:
                return found, []
            yield
            zoomed = self.zoom_pass(image)
            kept, pieces = self._zoomed_out(image, zoomed, found)
            cards = _without(found, pieces) + kept
            return sorted(cards, key=lambda c: -c.score), zoomed
        limit = self.max_fine_width / box.scale  # photo px
        fine = [c for c in found if _width(c.corners) <= limit]
        x, coarse = self.prepare(image, self.train_side)
        yield
        out = np.asarray(self._session.run(None, {"input": x})[0][0], np.float32)
        wide = [c for c in self.decode(out, coarse, self.coarse_threshold)
                if _width(c.corners) > limit]  # fmt: skip
        zoomed = []
        if self.zoom_side > 0:
            yield
            zoomed = self.zoom_pass(image)
            kept, pieces = self._zoomed_out(image, zoomed, wide + fine)
            wide, fine = _without(wide, pieces) + kept, _without(fine, pieces)
        return merge_passes(wide, fine, self.nms_iou), zoomed

    def _zoomed_out(self, image: np.ndarray, zoomed: list[DetectedCard],
                    others: list[DetectedCard],
                    ) -> tuple[list[DetectedCard], list[DetectedCard]]:  # fmt: skip
        """The cards of the zoom-out pass (``zoomed``) that peak over ``zoom_threshold`` and
        are wider than ``zoom_width`` of the photo's short side, and hold no card of the other
        passes (``others``) but pieces: a card found there that lies at least half inside one
        of them is less than ``ZOOM_PIECE`` of its area. A zoom-out card over a hand or a pile,
        whose cards the finer passes found, is not one card. (Decoded at a lower threshold, a
        peak over ``zoom_threshold`` is kept as it would be at it: only surer peaks drop one.)
        With ``zoom_over_weaker``, one surer than every card it holds is kept too, and those
        cards are its pieces. Returns (the zoom-out cards kept, the other cards that are their
        pieces)."""
        least = self.zoom_width * min(image.shape[:2])
        kept: list[DetectedCard] = []
        pieces: list[DetectedCard] = []
        for card in zoomed:
            if card.score <= self.zoom_threshold or _width(card.corners) <= least:
                continue
            held = [o for o in others if _holds(card, o, ZOOM_PIECE)]
            if not held:
                kept.append(card)
            elif self.zoom_over_weaker and all(o.score < card.score for o in held):
                kept.append(card)
                pieces += held
        return kept, pieces

    def zoom_pass(self, image: np.ndarray, threshold: float | None = None) -> list[DetectedCard]:
        """Every card of the zoom-out pass alone (at ``zoom_side``, else half the training
        size), peaks over ``threshold`` (default the coarse pass's), best first."""
        side = self.zoom_side or self.train_side // 2
        out, box = self.raw(image, side)
        return self.decode(out, box, self.coarse_threshold if threshold is None else threshold)


# a card of the finer passes inside a zoom-out card is a piece of it (an index, a pip read
# as a card) when it covers less than this share of its area (experiment 39)
ZOOM_PIECE = 0.1


def _without(cards: list[DetectedCard], pieces: list[DetectedCard]) -> list[DetectedCard]:
    """``cards`` but those among ``pieces`` (the very objects)."""
    drop = {id(p) for p in pieces}
    return [c for c in cards if id(c) not in drop]


def _holds(big: FoundCard, card: FoundCard, piece: float) -> bool:
    """Whether ``card`` lies at least half inside ``big`` and is not a piece of it (at least
    ``piece`` of its area)."""
    area = cv2.contourArea(card.corners)
    inter, _ = cv2.intersectConvexConvex(card.corners, big.corners)
    return float(inter) >= 0.5 * area and area >= piece * cv2.contourArea(big.corners)


def merge_passes(wide: list[DetectedCard], fine: list[DetectedCard],
                 nms_iou: float) -> list[DetectedCard]:  # fmt: skip
    """The cards of both passes, best score first: a card overlapping a better one by more than
    ``nms_iou`` is dropped, and so is a fine-pass card that is a piece of a better wide card.

    Experiment 15: the wide cards used to be merged first whatever their score, so a weak wide
    detection could swallow a sure fine one inside it (on the real photos' train split, two
    cards; 524 found against 522, no other set changed; MODEL_HISTORY.md, rule I)."""
    candidates = sorted([(c, True) for c in wide] + [(c, False) for c in fine],
                        key=lambda t: -t[0].score)  # fmt: skip
    kept: list[DetectedCard] = []
    kept_wide: list[DetectedCard] = []
    for card, is_wide in candidates:
        if any(quad_iou(card.corners, other.corners) > nms_iou for other in kept):
            continue
        if not is_wide and any(_part_of(card, other) for other in kept_wide):
            continue
        kept.append(card)
        if is_wide:
            kept_wide.append(card)
    return kept


def _visible(cx: float, cy: float, long_side: float, shows: list[float], box: Letterbox,
             quad: np.ndarray) -> tuple[float, float, float, float] | None:  # fmt: skip
    """The visible part's box in photo px: the predicted distances from the centre (in long
    sides, input px) cut to the photo and to the card's own box; None when that is empty."""
    left, top, right, bottom = shows
    x0 = max(cx - left * long_side, 0.0) / box.scale
    y0 = max(cy - top * long_side, 0.0) / box.scale
    x1 = min(cx + right * long_side, float(box.width)) / box.scale
    y1 = min(cy + bottom * long_side, float(box.height)) / box.scale
    x0, y0 = max(x0, float(quad[:, 0].min())), max(y0, float(quad[:, 1].min()))
    x1, y1 = min(x1, float(quad[:, 0].max())), min(y1, float(quad[:, 1].max()))
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def _part_of(small: FoundCard, big: FoundCard) -> bool:
    """Whether ``small`` is a piece of ``big`` (a fine-pass detection of part of a wide card):
    clearly narrower, and at least half of it inside ``big``."""
    if _width(small.corners) >= 0.85 * _width(big.corners):
        return False  # about the same size: two cards of one deck, as in a fan
    inter, _ = cv2.intersectConvexConvex(small.corners, big.corners)
    return float(inter) >= 0.5 * cv2.contourArea(small.corners)


def _width(quad: np.ndarray) -> float:
    """The short side of the rectangle that best fits a card's corners."""
    _, (w, h), _ = cv2.minAreaRect(quad.astype(np.float32))
    return float(min(w, h))
