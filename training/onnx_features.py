"""Give an exported card classifier a second output, ``features``: the flattened output of
its last convolution block (``CardNet.features``), the embedding that deck profiles
(``vision.deck_profile``) compare.

The classifier's ``logits`` are untouched (the graph only gains an Identity node and an
output), so a model's readings stay exactly what they were. ``training.train`` calls this on
every export; for a model exported before:

    python -m training.onnx_features models/kibic_cards.onnx
"""

from __future__ import annotations

import argparse
from pathlib import Path

FEATURES = "features"


def add_features_output(path: Path) -> bool:
    """Add the ``features`` output to the ONNX classifier at ``path`` in place; False if it
    already has one. The embedding is the input of the head's Flatten node."""
    import onnx

    model = onnx.load(str(path))
    graph = model.graph
    if any(o.name == FEATURES for o in graph.output):
        return False
    flatten = [n for n in graph.node if n.op_type == "Flatten"]
    if len(flatten) != 1:
        raise ValueError(f"{path}: expected one Flatten node before the head, found {len(flatten)}")
    graph.node.append(onnx.helper.make_node("Identity", [flatten[0].output[0]], [FEATURES],
                                            name="features_identity"))  # fmt: skip
    graph.output.append(onnx.helper.make_tensor_value_info(FEATURES, onnx.TensorProto.FLOAT,
                                                           ["n", "d"]))  # fmt: skip
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", type=Path)
    args = parser.parse_args()
    added = add_features_output(args.model)
    status = "added" if added else "already there"
    print(f"{args.model}: features output {status}")


if __name__ == "__main__":
    main()
