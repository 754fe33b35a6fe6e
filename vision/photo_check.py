"""Whether a region of a still photo is a card at all, read from the still-photo classifier's
own embedding (experiment 71).

The still-photo classifier and its gate learnt "no card" from generated print and surfaces
(experiment 13). On real photos most readings of cards that are not there are regions of real
print, covers and desks that the detector boxed. The check is a logistic regression on the
classifier's ``features`` output, fitted by ``training.photo_check`` on real regions (the
detector's regions on real photos, on a labelled card or on none) beside real and rendered
faces and generated print. It costs one dot product a region: the embedding is computed with
the reading.

It is asked only about an isolated region: one that the other regions found in the photo cover
by less than ``isolated`` of its area. A card in a pile or a fan, most of it under other cards,
looks as little like a card to it as print does; a card lying apart does not. An isolated
region it gives a card's probability under its threshold is no card
(``vision.pipeline.read_cards``).

The check is bound to the classifier whose embedding it read (its fingerprint): another
classifier's embedding, of the same size, would be weighed without any error, so a check
given another classifier raises ValueError.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np


@dataclass(frozen=True, eq=False)
class PhotoCheck:
    """P(card) = sigmoid(features . weights + bias); under ``threshold``: no card."""

    weights: np.ndarray
    bias: float
    threshold: float
    model_fingerprint: str  # of the classifier whose ``features`` it reads
    isolated: float = 0.1  # the most share of a region the other regions may cover
    version: str = ""
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def load(cls, path: str | Path) -> PhotoCheck:
        """The check saved at ``path`` (``save``); a file without its keys raises ValueError
        naming the file and the key."""
        data = json.loads(Path(path).read_text())
        try:
            weights = np.asarray(data["weights"], np.float32)
            return cls(weights, float(data["bias"]), float(data["threshold"]),
                       str(data["model_fingerprint"]), float(data["isolated"]),
                       str(data.get("version", "")),
                       {k: v for k, v in data.items() if k not in _KEYS})  # fmt: skip
        except KeyError as exc:
            raise ValueError(f"{path}: no {exc.args[0]!r} in the photo check") from None

    def save(self, path: str | Path) -> None:
        data = {"version": self.version, "model_fingerprint": self.model_fingerprint,
                "threshold": self.threshold, "isolated": self.isolated, "bias": self.bias,
                **self.meta,
                "weights": [round(float(w), 7) for w in self.weights]}  # fmt: skip
        Path(path).write_text(json.dumps(data, indent=1) + "\n")

    def bind(self, fingerprint: str) -> None:
        """ValueError unless the check reads the classifier of ``fingerprint``."""
        if fingerprint != self.model_fingerprint:
            raise ValueError(f"the photo check {self.version} reads the embedding of classifier "
                             f"{self.model_fingerprint}, not of {fingerprint}")  # fmt: skip

    def card_probability(self, features: np.ndarray) -> np.ndarray:
        """(n,) each embedding's probability of being a card's."""
        feats = np.asarray(features, np.float32)
        if feats.ndim != 2 or feats.shape[1] != len(self.weights):
            raise ValueError(f"the photo check reads embeddings of {len(self.weights)} values, "
                             f"not of shape {feats.shape}")  # fmt: skip
        z = feats @ self.weights + self.bias
        return np.asarray(1.0 / (1.0 + np.exp(-np.clip(z, -60.0, 60.0))), np.float64)


def covered_shares(quads: Sequence[np.ndarray]) -> list[float]:
    """For each quad, the largest share of its area that one other quad covers."""
    shapes = [np.asarray(q, np.float32).reshape(-1, 2) for q in quads]
    out = []
    for i, quad in enumerate(shapes):
        area = max(float(cv2.contourArea(quad)), 1.0)
        best = 0.0
        for j, other in enumerate(shapes):
            if i != j:
                inter, _ = cv2.intersectConvexConvex(quad, other)
                best = max(best, float(inter) / area)
        out.append(best)
    return out


_KEYS = ("weights", "bias", "threshold", "model_fingerprint", "isolated", "version")
