"""A model's graph cut into parts run one after another: the same output as the whole model,
its work spread over several calls (the table tracker runs one part a frame, so that no frame
pays for the whole of the corner-index finder: ``vision.rest_schedule``).

A cut falls between two nodes of the graph (kept in its topological order) where the work
before it is nearest its share of the whole: the multiply-adds of the convolutions (and one per
output element of any other node) at a nominal input shape, from onnx's shape inference. The
tensors alive across a cut are the outputs of the part before it and the inputs of the part
after it; a part holds the nodes its outputs need, constants included. Each part runs with the
same onnxruntime kernels as the whole model, so its output is the whole model's, bit for bit
(``tests/test_vision_rest_schedule.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from vision.onnx_session import cpu_session

MAX_CROSSING = 4  # a cut carries at most this many tensors from one part to the next


@dataclass(frozen=True)
class ModelPart:
    """One part of a cut model: its serialized ONNX, input and output names."""

    model: bytes
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]


def _shape_of(value: Any) -> list[int]:
    return [int(d.dim_value) for d in value.type.tensor_type.shape.dim]


def split_model(path: str | Path, parts: int, shape: tuple[int, ...]) -> list[ModelPart]:
    """The model at ``path`` cut into ``parts`` parts of about equal work at input ``shape``
    (its one input; a model with no such cut: ValueError)."""
    import onnx
    from onnx import helper, shape_inference

    model = onnx.load(str(path))
    graph = model.graph
    if len(graph.input) != 1:
        raise ValueError(f"{path}: a model of one input is cut, not {len(graph.input)}")
    sized = onnx.ModelProto()
    sized.CopyFrom(model)
    dims = sized.graph.input[0].type.tensor_type.shape.dim
    if len(dims) != len(shape):
        raise ValueError(f"{path}: its input has {len(dims)} dimensions, not {len(shape)}")
    for dim, size in zip(dims, shape, strict=True):
        dim.ClearField("dim_param")
        dim.dim_value = size
    inferred = shape_inference.infer_shapes(sized)
    values = {v.name: v for v in [*inferred.graph.value_info, *inferred.graph.output]}
    weights = {t.name: list(t.dims) for t in graph.initializer}
    nodes = list(graph.node)
    constant = {o for n in nodes if n.op_type == "Constant" for o in n.output}

    def cost(node: Any) -> float:
        out = values.get(node.output[0])
        size = float(np.prod(_shape_of(out))) if out is not None else 0.0
        if node.op_type == "Conv" and node.input[1] in weights:
            return size * float(np.prod(weights[node.input[1]][1:]))
        return size

    done = np.cumsum([cost(n) for n in nodes])
    source = graph.input[0].name
    finals = [o.name for o in graph.output]

    def crossing(k: int) -> list[str] | None:
        """The tensors made before node ``k`` and used from it on (None: no cut there)."""
        made = {o for n in nodes[:k] for o in n.output} - constant
        used = [i for n in nodes[k:] for i in n.input]
        if source in used or any(o in made for o in finals):
            return None
        alive = list(dict.fromkeys(i for i in used if i in made))
        return alive if 0 < len(alive) <= MAX_CROSSING else None

    cuts: list[tuple[int, list[str]]] = []
    for share in range(1, parts):
        target = done[-1] * share / parts
        after = cuts[-1][0] if cuts else 0
        options = [(abs(done[k - 1] - target), k, alive) for k in range(after + 1, len(nodes))
                   if (alive := crossing(k)) is not None]  # fmt: skip
        if not options:
            raise ValueError(f"{path}: no cut into {parts} parts")
        _, k, alive = min(options, key=lambda o: o[0])
        cuts.append((k, alive))
    bounds = [[source], *[alive for _, alive in cuts], finals]
    producer = {o: n for n in nodes for o in n.output}
    kinds = {v.name: v.type.tensor_type.elem_type for v in values.values()}
    kinds[source] = graph.input[0].type.tensor_type.elem_type
    out: list[ModelPart] = []
    for inputs, outputs in zip(bounds, bounds[1:], strict=False):
        need: set[str] = set()
        stack = list(outputs)
        while stack:
            name = stack.pop()
            if name in inputs or name in need or name not in producer:
                continue
            need.add(name)
            stack.extend(i for i in producer[name].input if i)
        chosen = [n for n in nodes if any(o in need for o in n.output)]
        used = {i for n in chosen for i in n.input}
        part = helper.make_graph(
            chosen, f"{graph.name}_part{len(out)}",
            [helper.make_tensor_value_info(i, kinds.get(i, 1), None) for i in inputs],
            [helper.make_tensor_value_info(o, kinds.get(o, 1), None) for o in outputs],
            [t for t in graph.initializer if t.name in used],
        )  # fmt: skip
        whole = helper.make_model(part, opset_imports=model.opset_import,
                                  ir_version=model.ir_version)  # fmt: skip
        out.append(ModelPart(whole.SerializeToString(), tuple(inputs), tuple(outputs)))
    return out


class PartedModel:
    """The parts of a cut model as onnxruntime sessions (``threads`` threads each)."""

    def __init__(self, path: str | Path, parts: int, shape: tuple[int, ...],
                 threads: int = 1) -> None:  # fmt: skip
        self.parts = split_model(path, parts, shape)
        self.sessions = [cpu_session(p.model, threads) for p in self.parts]

    def run(self, index: int, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Part ``index`` on ``feeds`` (its inputs by name): its outputs by name."""
        part = self.parts[index]
        outs = self.sessions[index].run(list(part.outputs),
                                        {name: feeds[name] for name in part.inputs})  # fmt: skip
        return dict(zip(part.outputs, (np.asarray(o) for o in outs), strict=True))
