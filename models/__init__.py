"""The shipped models: each ONNX file with its metadata beside it (``models/MODEL_CARD.md``).

Only what ships lives here; the code that trains and measures them is ``training``.

>>> version("kibic_cards.onnx")
'3.1'
>>> sorted(SHIPPED) == sorted(p.name for p in MODEL_DIR.glob("*.onnx"))
True
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

MODEL_DIR = Path(__file__).resolve().parent

# each shipped file and the metadata file read with it
SHIPPED = {
    "kibic_cards.onnx": "kibic_cards.labels.json",  # the table classifier
    "kibic_photo_cards.onnx": "kibic_photo_cards.labels.json",  # the still-photo classifier
    "kibic_photo_gate.onnx": "kibic_photo_gate.labels.json",  # its "no card" gate
    # its second gate, for pieces of cards
    "kibic_photo_gate_pieces.onnx": "kibic_photo_gate_pieces.labels.json",
    # its third gate, for the pieces that a classifier taught close cards reads as cards
    "kibic_photo_gate_pieces_2.onnx": "kibic_photo_gate_pieces_2.labels.json",
    "kibic_index.onnx": "kibic_index.labels.json",  # the corner-index reader of still photos
    "kibic_index_table.onnx": "kibic_index_table.labels.json",  # and of the table
    "kibic_corners.onnx": "kibic_corners.json",  # the corner-index finder
    "kibic_corner_reader.onnx": "kibic_corner_reader.labels.json",  # its box reader
    # the box reader of still photos
    "kibic_corner_reader_still.onnx": "kibic_corner_reader_still.labels.json",
    "kibic_detector.onnx": "kibic_detector.json",  # the still-photo detector
}


def path(name: str) -> Path:
    """The shipped file ``name`` (``"kibic_cards.onnx"``); a name not shipped is an error."""
    if name not in SHIPPED:
        raise KeyError(f"{name!r} is not a shipped model; shipped: {', '.join(SHIPPED)}")
    return MODEL_DIR / name


def command_path(file: str | Path) -> str:
    """A model file as a training command names it: relative to the repository where it lies
    in it (``models/kibic_detector.onnx``, wherever the checkout is), else as given.

    >>> command_path(MODEL_DIR / "kibic_detector.onnx")
    'models/kibic_detector.onnx'
    >>> command_path("/elsewhere/det.onnx")
    '/elsewhere/det.onnx'
    """
    resolved = Path(file).resolve()
    root = MODEL_DIR.parent
    return str(resolved.relative_to(root)) if resolved.is_relative_to(root) else str(file)


def metadata(name: str) -> dict[str, Any]:
    """The metadata of the shipped file ``name``: labels or outputs, input, training record."""
    meta = path(name).with_name(SHIPPED[name])
    data: dict[str, Any] = json.loads(meta.read_text(encoding="utf-8"))
    return data


def version(name: str) -> str:
    """The version of the shipped file ``name``, as the model card names it."""
    return str(metadata(name)["version"])
