"""One onnxruntime session on the CPU, as every model of Kibic is run: ``threads`` threads
within an operator, operators one after another (the table's frame loop is the parallelism).
onnxruntime is imported when the first session is made."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def cpu_session(path: str | Path | bytes, threads: int = 1) -> Any:
    """An ``onnxruntime.InferenceSession`` of the model at ``path`` (or serialized: bytes) on
    the CPU."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    model = path if isinstance(path, bytes) else str(path)
    return ort.InferenceSession(model, sess_options=options,
                                providers=["CPUExecutionProvider"])  # fmt: skip
