"""A deck profile: how the cards of one physical deck look to the classifier.

Every card at a table comes from one deck. A card design the classifier never saw leaves it
unsure mostly between cards that differ in a small detail, such as a king of clubs and of
spades whose suit shows only in a 5 px index sign. Shown each card of the deck once under the
camera (``kibic vision enrol``, ``vision.enrol``), a profile keeps a few embeddings per card:
the classifier's ``features`` output (``training/onnx_features.py``), scaled to unit length.

At play, a reading's probabilities over the deck's cards are multiplied by how close its crop
is to each card's references: a softmax over the best cosine similarity per card, at
temperature ``tau``, after the mean of the references is taken from both (``centre``, since
experiment 11). The card nearest by the references alone is reported too (``weigh``): with a
complete profile the tracker commits a play only when it is the card read
(``vision.tracker_config.TrackerConfig.profile_must_agree``). The classifier's share for "no
card" is left as it was, so a profile never turns an empty crop into a card. A card without
references (a profile still being learnt) counts as close as the closest card that has some, so
a partial profile can only lower the cards whose references look unlike the crop, never favour
an enrolled card over its unenrolled twin.

The figures (held-out designs at synthetic tables, ``benchmarks/bench_vision.py``) are in
models/MODEL_CARD.md.

A profile is saved as a ``.npz`` file: the deck, the labels, the embeddings and where each
came from (``""`` for an enrolment, the table's request id for a card a person confirmed, so
that undoing that play forgets it again: ``forget``).
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from referee.cards import Deck
from vision.labels import labels_for_deck

# Profiles are centred (``closeness``) since experiment 11, at TAU 0.03 with the tracker's rule
# that the profile must agree (``TrackerConfig.profile_must_agree``): chosen on tables of
# development designs 100 240 to 100 287 (4,752 plays each of 0.03 / 0.05 centred, the
# shipped uncentred 0.05, all with the rule): 0.03 committed the most plays right and no
# wrong card (models/MODEL_HISTORY.md, experiment 11). Files saved before keep their tau and read
# uncentred. (Experiment 3 chose 0.05 uncentred: 0.02 and 0.03 uncentred gave wrong cards.)
TAU = 0.03
CENTRE = True


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
    # beside each reference: where it came from ("" enrolled, else a confirmation's request id)
    sources: dict[str, list[str]] = field(default_factory=dict)
    # the classifier whose embeddings these are (``recognizer.model_fingerprint``); "" until
    # a classifier first reads with the profile (and in files from before experiment 8)
    model: str = ""
    # subtract the mean of the references before the cosine (see ``closeness``); files saved
    # before experiment 11 load with False, so they read as they did
    centre: bool = CENTRE
    # the references stacked once per change (add, forget), not once per frame
    _version: int = field(default=0, repr=False, compare=False)
    _stacks: dict[tuple[tuple[str, ...], bool],
                  tuple[int, np.ndarray, np.ndarray, np.ndarray | None]] = field(
        default_factory=dict, repr=False, compare=False
    )  # fmt: skip

    def bind_model(self, fingerprint: str) -> None:
        """Tie the profile to the classifier ``fingerprint`` reading with it; raise
        ``ProfileError`` when it holds another classifier's embeddings."""
        if not self.model:
            self.model = fingerprint
        elif self.model != fingerprint:
            raise ProfileError(f"the deck profile holds the embeddings of classifier "
                               f"{self.model}, not of {fingerprint} in use: enrol the deck "
                               f"again (kibic vision enrol)")  # fmt: skip

    @property
    def version(self) -> int:
        """A count of the changes to the references (add, forget): readings made with the
        profile stand as long as it is the same."""
        return self._version

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

    def add(self, label: str, features: np.ndarray, source: str = "") -> None:
        """Keep ``features`` (one embedding) as a reference of ``label``, noting its ``source``
        (see ``forget``); the oldest beyond ``per_label`` is dropped."""
        if label not in self.labels:
            raise ProfileError(f"{label!r} is not a card of the {self.deck.value} deck")
        vec = unit(np.asarray(features, np.float32).reshape(-1))
        if self.dim is not None and vec.shape[0] != self.dim:
            raise ProfileError(f"embedding of size {vec.shape[0]}, the profile's are {self.dim}")
        refs = self.references.setdefault(label, [])
        origin = self._sources_of(label)
        self._version += 1
        refs.append(vec)
        origin.append(source)
        drop = max(0, len(refs) - self.per_label)
        del refs[:drop], origin[:drop]

    def _sources_of(self, label: str) -> list[str]:
        origin = self.sources.setdefault(label, [])
        origin[:0] = [""] * (len(self.references.get(label, [])) - len(origin))
        return origin

    def forget(self, source: str) -> list[str]:
        """Drop every reference that came from ``source`` (a confirmation undone at the table);
        the labels that lost one, in deck order."""
        if not source:
            raise ProfileError("forget needs a source: enrolled references are dropped by card")
        lost = []
        for label in self.labels:
            refs = self.references.get(label, [])
            origin = self._sources_of(label)
            keep = [k for k, where in enumerate(origin) if where != source]
            if len(keep) < len(refs):
                self._version += 1
                self.references[label] = [refs[k] for k in keep]
                self.sources[label] = [origin[k] for k in keep]
                if not keep:
                    del self.references[label], self.sources[label]
                lost.append(label)
        return lost

    def forget_card(self, label: str) -> int:
        """Drop all references of ``label`` (it is then unenrolled); how many there were."""
        if label not in self.labels:
            raise ProfileError(f"{label!r} is not a card of the {self.deck.value} deck")
        self.sources.pop(label, None)
        self._version += 1
        return len(self.references.pop(label, []))

    def coverage(self) -> dict[str, int]:
        """The deck's cards with references (``enrolled``), of how many (``of``), and the
        references learnt from confirmations at the table (``learnt``)."""
        return {"enrolled": len(self.labels) - len(self.missing), "of": len(self.labels),
                "learnt": sum(self.learnt(label) for label in self.references)}  # fmt: skip

    def learnt(self, label: str) -> int:
        """How many of ``label``'s references came from confirmations at the table."""
        return sum(1 for where in self._sources_of(label) if where)

    def closeness(self, features: np.ndarray, labels: Sequence[str]) -> np.ndarray:
        """(n, len(labels)) probabilities: softmax over the best cosine similarity of each
        row of ``features`` to each label's references; a label without references counts as
        similar as the row's most similar label.

        With ``centre`` the mean of the references is taken from the crop's embedding and
        from every reference before the cosine ("CL2N" of SimpleShot, Wang et al. 2019): what
        all cards of the deck share drops out, and twins such as a queen of spades and of
        clubs differ by more."""
        feats = unit(np.atleast_2d(features))
        n, k = feats.shape[0], len(labels)
        enrolled = [j for j, label in enumerate(labels) if self.references.get(label)]
        if not enrolled:
            return np.full((n, k), 1.0 / max(k, 1), np.float32)
        if feats.shape[1] != self.dim:
            raise ProfileError(f"embedding of size {feats.shape[1]}, the profile's are {self.dim}")
        stacked, starts, mean = self._stacked(labels, enrolled)
        if mean is not None:
            feats = unit(feats - mean)
        best = np.maximum.reduceat(feats @ stacked.T, starts, axis=1)
        sims = np.repeat(best.max(axis=1, keepdims=True), k, axis=1)
        sims[:, enrolled] = best
        z = np.exp((sims - sims.max(axis=1, keepdims=True)) / self.tau)
        return (z / z.sum(axis=1, keepdims=True)).astype(np.float32)

    def _stacked(self, labels: Sequence[str], enrolled: list[int]
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:  # fmt: skip
        """(every reference of the ``enrolled`` labels as rows, where each label's rows
        start, and with ``centre`` their mean, taken from the rows, which are then scaled to
        unit length again), made again only after the references changed."""
        key = (tuple(labels), self.centre)
        cached = self._stacks.get(key)
        if cached is None or cached[0] != self._version:
            rows = [self.references[labels[j]] for j in enrolled]
            starts = np.cumsum([0] + [len(refs) for refs in rows[:-1]])
            stacked = np.stack([vec for refs in rows for vec in refs])
            mean = stacked.mean(axis=0) if self.centre else None
            if mean is not None:
                stacked = unit(stacked - mean)
            cached = (self._version, stacked, starts, mean)
            if len(self._stacks) > 8:  # a few label orders are ever asked for
                self._stacks.clear()
            self._stacks[key] = cached
        return cached[1], cached[2], cached[3]

    def fuse(self, probs: np.ndarray, labels: Sequence[str], features: np.ndarray) -> np.ndarray:
        """Readings ``probs`` (n, len(labels), rows summing to 1) weighed by closeness to the
        deck's references. The deck's cards share what the classifier left to cards; every
        other column ("none" included) keeps its value."""
        return self.weigh(probs, labels, features)[0]

    def weigh(self, probs: np.ndarray, labels: Sequence[str], features: np.ndarray
              ) -> tuple[np.ndarray, list[str | None]]:  # fmt: skip
        """``fuse``'s readings, and for each row the deck card its crop is nearest to by the
        references alone (None when ``labels`` hold none of the deck's cards)."""
        probs = np.asarray(probs, np.float32)
        deck_labels = set(self.labels)
        cols = [j for j, label in enumerate(labels) if label in deck_labels]
        if not cols:
            return probs, [None] * len(probs)
        near = self.closeness(features, [labels[j] for j in cols])
        nearest: list[str | None] = [labels[cols[int(i)]] for i in near.argmax(axis=1)]
        cards = probs[:, cols]
        mass = cards.sum(axis=1, keepdims=True)
        weighed = cards * near
        total = weighed.sum(axis=1, keepdims=True)
        fused = probs.copy()
        fused[:, cols] = np.where(total > 0, weighed / np.maximum(total, 1e-30) * mass, cards)
        return fused, nearest

    def save(self, path: str | Path) -> None:
        """Write the profile to ``path`` whole, then rename it over the old file, so that a
        power cut mid-write leaves the old profile, never half a new one."""
        labels, rows, origins = [], [], []
        for label in self.labels:
            for vec, where in zip(self.references.get(label, []), self._sources_of(label),
                                  strict=True):  # fmt: skip
                labels.append(label)
                rows.append(vec)
                origins.append(where)
        feats = np.stack(rows) if rows else np.zeros((0, 0), np.float32)
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "wb") as out:
            np.savez_compressed(out, deck=np.array(self.deck.value), labels=np.array(labels),
                                features=feats.astype(np.float32), per_label=self.per_label,
                                tau=self.tau, centre=self.centre,
                                sources=np.array(origins, dtype=str),
                                model=np.array(self.model))  # fmt: skip
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: str | Path) -> DeckProfile:
        """A saved profile; a missing, damaged or foreign file raises ``ProfileError``."""
        try:
            with np.load(path, allow_pickle=False) as data:
                deck = Deck.parse(str(data["deck"]))
                labels = [str(x) for x in data["labels"]]
                feats = np.asarray(data["features"], np.float32)
                per_label, tau = int(data["per_label"]), float(data["tau"])
                # files of experiment 3 have no sources: everything in them was enrolled
                origins = ([str(x) for x in data["sources"]] if "sources" in data.files
                           else [""] * len(labels))  # fmt: skip
                model = str(data["model"]) if "model" in data.files else ""
                centre = bool(data["centre"]) if "centre" in data.files else False
        except FileNotFoundError:
            raise ProfileError(f"deck profile {path}: no such file") from None
        except (OSError, EOFError, KeyError, ValueError, zipfile.BadZipFile) as exc:
            raise ProfileError(f"deck profile {path}: not a Kibic deck profile ({exc})") from None
        if not len(labels) == len(feats) == len(origins):
            raise ProfileError(f"deck profile {path}: {len(labels)} labels, {len(feats)} rows, "
                               f"{len(origins)} sources")  # fmt: skip
        profile = cls(deck, per_label=per_label, tau=tau, model=model, centre=centre)
        for label, vec, where in zip(labels, feats, origins, strict=True):
            profile.add(label, vec, where)
        return profile
