"""A deck profile: how the cards of one physical deck look to the classifier.

Every card at a table comes from one deck. A card design the classifier never saw leaves it
unsure mostly between cards that differ in a small detail, such as a king of clubs and of
spades whose suit shows only in a 5 px index sign. Shown each card of the deck once under the
camera (``kibic vision enrol``, ``vision.enrol``), a profile keeps a few embeddings per card:
the classifier's ``features`` output (``models/onnx_features.py``), scaled to unit length.

At play, a reading's probabilities over the deck's cards are multiplied by how close its crop
is to each card's references: a softmax over the best cosine similarity per card, at
temperature ``tau``. The classifier's share for "no card" is left as it was, so a profile never
turns an empty crop into a card. A card without references (a profile still being learnt)
counts as close as the closest card that has some, so a partial profile can only lower the
cards whose references look unlike the crop, never favour an enrolled card over its
unenrolled twin.

The figures (held-out designs at synthetic tables, ``benchmarks/bench_vision.py``) are in
models/MODEL_CARD.md.

A profile is saved as a ``.npz`` file: the deck, the labels and the embeddings.
"""

from __future__ import annotations

import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from referee.cards import Deck
from vision.labels import labels_for_deck

# chosen on generated crops of held-out designs and on tables of development designs
# (seeds 100 200 and up, never the benchmark's): 0.02 and 0.03 gave wrong cards, 0.05 none
TAU = 0.05


class ProfileError(ValueError):
    """A deck profile that cannot be used: the message names what is wrong."""


def unit(rows: np.ndarray) -> np.ndarray:
    """Each row scaled to length 1 (rows of zeros stay zero)."""
    rows = np.asarray(rows, np.float32)
    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    return rows / np.maximum(norms, 1e-12)


@dataclass
class DeckProfile:
    """Reference embeddings for the cards of one deck, at most ``per_label`` a card."""

    deck: Deck
    references: dict[str, list[np.ndarray]] = field(default_factory=dict)
    per_label: int = 8
    tau: float = TAU

    @property
    def labels(self) -> tuple[str, ...]:
        """The deck's card labels (model labels such as ``french:AS``), in deck order."""
        return tuple(labels_for_deck(self.deck))

    @property
    def missing(self) -> list[str]:
        """The deck's labels with no reference yet."""
        return [label for label in self.labels if not self.references.get(label)]

    @property
    def dim(self) -> int | None:
        for refs in self.references.values():
            if refs:
                return int(refs[0].shape[0])
        return None

    def check_deck(self, deck: Deck | None) -> None:
        """Raise ``ProfileError`` unless the profile is of ``deck`` (None: any)."""
        if deck is not None and self.deck is not deck:
            raise ProfileError(f"the deck profile is of the {self.deck.value} deck, "
                               f"the table's is {deck.value}")  # fmt: skip

    def add(self, label: str, features: np.ndarray) -> None:
        """Keep ``features`` (one embedding) as a reference of ``label``; the oldest beyond
        ``per_label`` is dropped."""
        if label not in self.labels:
            raise ProfileError(f"{label!r} is not a card of the {self.deck.value} deck")
        vec = unit(np.asarray(features, np.float32).reshape(-1))
        if self.dim is not None and vec.shape[0] != self.dim:
            raise ProfileError(f"embedding of size {vec.shape[0]}, the profile's are {self.dim}")
        refs = self.references.setdefault(label, [])
        refs.append(vec)
        del refs[: max(0, len(refs) - self.per_label)]

    def closeness(self, features: np.ndarray, labels: Sequence[str]) -> np.ndarray:
        """(n, len(labels)) probabilities: softmax over the best cosine similarity of each
        row of ``features`` to each label's references; a label without references counts as
        similar as the row's most similar label."""
        feats = unit(np.atleast_2d(features))
        n, k = feats.shape[0], len(labels)
        enrolled = [j for j, label in enumerate(labels) if self.references.get(label)]
        if not enrolled:
            return np.full((n, k), 1.0 / max(k, 1), np.float32)
        if feats.shape[1] != self.dim:
            raise ProfileError(f"embedding of size {feats.shape[1]}, the profile's are {self.dim}")
        best = np.empty((n, len(enrolled)), np.float32)
        for col, j in enumerate(enrolled):
            best[:, col] = (feats @ np.stack(self.references[labels[j]]).T).max(axis=1)
        sims = np.repeat(best.max(axis=1, keepdims=True), k, axis=1)
        sims[:, enrolled] = best
        z = np.exp((sims - sims.max(axis=1, keepdims=True)) / self.tau)
        return (z / z.sum(axis=1, keepdims=True)).astype(np.float32)

    def fuse(self, probs: np.ndarray, labels: Sequence[str], features: np.ndarray) -> np.ndarray:
        """Readings ``probs`` (n, len(labels), rows summing to 1) weighed by closeness to the
        deck's references. The deck's cards share what the classifier left to cards; every
        other column ("none" included) keeps its value."""
        probs = np.asarray(probs, np.float32)
        deck_labels = set(self.labels)
        cols = [j for j, label in enumerate(labels) if label in deck_labels]
        if not cols:
            return probs
        near = self.closeness(features, [labels[j] for j in cols])
        cards = probs[:, cols]
        mass = cards.sum(axis=1, keepdims=True)
        weighed = cards * near
        total = weighed.sum(axis=1, keepdims=True)
        fused = probs.copy()
        fused[:, cols] = np.where(total > 0, weighed / np.maximum(total, 1e-30) * mass, cards)
        return fused

    def save(self, path: str | Path) -> None:
        labels, rows = [], []
        for label in self.labels:
            for vec in self.references.get(label, []):
                labels.append(label)
                rows.append(vec)
        feats = np.stack(rows) if rows else np.zeros((0, 0), np.float32)
        with open(path, "wb") as out:
            np.savez_compressed(out, deck=np.array(self.deck.value), labels=np.array(labels),
                                features=feats.astype(np.float32), per_label=self.per_label,
                                tau=self.tau)  # fmt: skip

    @classmethod
    def load(cls, path: str | Path) -> DeckProfile:
        """A saved profile; a missing, damaged or foreign file raises ``ProfileError``."""
        try:
            with np.load(path, allow_pickle=False) as data:
                deck = Deck.parse(str(data["deck"]))
                labels = [str(x) for x in data["labels"]]
                feats = np.asarray(data["features"], np.float32)
                per_label, tau = int(data["per_label"]), float(data["tau"])
        except FileNotFoundError:
            raise ProfileError(f"deck profile {path}: no such file") from None
        except (OSError, EOFError, KeyError, ValueError, zipfile.BadZipFile) as exc:
            raise ProfileError(f"deck profile {path}: not a Kibic deck profile ({exc})") from None
        if len(labels) != len(feats):
            raise ProfileError(f"deck profile {path}: {len(labels)} labels, {len(feats)} rows")
        profile = cls(deck, per_label=per_label, tau=tau)
        for label, vec in zip(labels, feats, strict=True):
            profile.add(label, vec)
        return profile
