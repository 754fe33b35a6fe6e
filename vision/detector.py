"""A learned card detector for still photos (``models/kibic_detector.onnx``).

The photo is shrunk so that its longest side is the model's input size (384 px), padded at
the right and bottom to multiples of 32 (grey) and scored by a small fully convolutional net
(``models/train_detector.py``, CenterNet-style): a heatmap of card centres at stride 4 and, per
cell, the card's centre offset, long and short side and the orientation of its long axis.
Peaks of the heatmap (3x3 local maxima over ``threshold``) become rotated rectangles, mapped
back to photo pixels and ordered like ``vision.finder.order_corners``, so that
``vision.finder.warp_card`` gives the upright crop the recogniser reads. Whole cards are
predicted also where they are partly covered (fans, piles) or partly out of frame.

Run with onnxruntime on the CPU (imported when the first detector is made).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.finder import FoundCard, order_corners

MODEL_DIR = Path(__file__).resolve().parent.parent / "models"
DEFAULT_DETECTOR = MODEL_DIR / "kibic_detector.onnx"


@dataclass(frozen=True)
class DetectedCard(FoundCard):
    """A found card with the detector's score (the heatmap peak, 0..1)."""

    score: float = 0.0


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


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    inter, _ = cv2.intersectConvexConvex(a, b)
    union = cv2.contourArea(a) + cv2.contourArea(b) - inter
    return float(inter / union) if union > 0 else 0.0


class CardDetector:
    """Card quadrilaterals with a score in a BGR photo, by the ONNX detector."""

    def __init__(self, model_path: str | Path = DEFAULT_DETECTOR, threads: int = 1, *,
                 threshold: float = 0.2, nms_iou: float = 0.8, smooth: bool = True) -> None:  # fmt: skip
        import onnxruntime as ort

        model_path = Path(model_path)
        meta = json.loads(model_path.with_suffix(".json").read_text())
        self.long_side = int(meta["input"]["long_side"])
        self.multiple = int(meta["input"].get("multiple", 32))
        self.pad = int(meta["input"].get("pad", 128))
        self.stride = int(meta["output"]["stride"])
        self.size_ref = float(meta["output"]["size_ref"])
        self.threshold = threshold
        self.nms_iou = nms_iou
        self.smooth = smooth  # average the regression over the peak's strong neighbours
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self._session: Any = ort.InferenceSession(
            str(model_path), options, providers=["CPUExecutionProvider"]
        )

    def prepare(self, image: np.ndarray) -> tuple[np.ndarray, Letterbox]:
        """The model input (1x3xHxW float32) for a BGR (or grey) image and its letterbox."""
        if image.ndim == 2:
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        h, w = image.shape[:2]
        box = letterbox_geometry(h, w, self.long_side, self.multiple)
        small = cv2.resize(image, (box.width, box.height), interpolation=cv2.INTER_AREA)
        canvas = np.full((box.input_h, box.input_w, 3), self.pad, np.uint8)
        canvas[: box.height, : box.width] = small
        x = canvas.transpose(2, 0, 1)[None].astype(np.float32)
        x *= 1.0 / 127.5
        x -= 1.0
        return x, box

    def raw(self, image: np.ndarray) -> tuple[np.ndarray, Letterbox]:
        """The model output (7 x H/4 x W/4) for ``image`` and its letterbox."""
        x, box = self.prepare(image)
        out = self._session.run(None, {"input": x})[0]
        return np.asarray(out[0], np.float32), box

    def decode(self, out: np.ndarray, box: Letterbox) -> list[DetectedCard]:
        """Peaks of the heatmap to cards in photo pixels, best first."""
        heat = out[0]
        peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > self.threshold)
        ii, jj = np.nonzero(peaks)
        order = np.argsort(-heat[ii, jj])
        kept: list[DetectedCard] = []
        for k in order:
            i, j = int(ii[k]), int(jj[k])
            cx, cy, log_l, log_s, c2, s2 = self._at(out, i, j)
            if not (0 <= cx < box.width and 0 <= cy < box.height):
                continue  # a peak in the padding
            long_side = self.size_ref * float(np.exp(log_l))
            short_side = self.size_ref * float(np.exp(log_s))
            theta = 0.5 * float(np.arctan2(s2, c2))
            quad = rotated_corners(cx, cy, long_side, short_side, theta) / box.scale
            quad = order_corners(quad)
            if any(_iou(quad, other.corners) > self.nms_iou for other in kept):
                continue
            kept.append(DetectedCard(quad, float(heat[i, j])))
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
        vals = [xs, ys, win[3], win[4], win[5], win[6]]
        return tuple(float((v * wts).sum()) for v in vals)

    def detect(self, image: np.ndarray) -> list[DetectedCard]:
        """Every card found in a BGR photo (corners in its pixels), best score first."""
        out, box = self.raw(image)
        return self.decode(out, box)
