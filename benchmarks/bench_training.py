"""Training speed of the card classifier and the card detector on this machine's CPU: float32
against bfloat16, and the cost of making their data.

    python benchmarks/bench_training.py [--nets classifier,detector] [--threads 1]
        [--batch 64] [--detector-batch 16] [--steps 15] [--json OUT]

Needs the training extra (torch). For each net it times its training step (forward, loss,
backward, AdamW update): ``training.train.train_step`` of ``CardNet(width=1.25)``, the shipped
classifiers' size, and ``training.train_detector.detector_step`` of ``DetectorNet(width=1.0)``
at the shipped detector's input (320 px). The batches come from each net's own training
stream (the classifier's procedural faces; the detector's scenes with the shipped recipe's
options), drawn once before any timing. The baseline is float32; ``--bf16`` (torch's autocast
in bfloat16) is measured in the same run, from the same initial weights, on the same batches.

Prints, per net, the median milliseconds a step and the samples a second of each precision,
their ratio, and the median milliseconds it took one process to make a batch of data. In
training, data workers make the data in parallel (``--workers``), so on a machine with few
cores the slower of the two bounds the rate.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

try:
    import torch
    from torch import nn
except ImportError:  # the training extra is not installed: `make bench` goes on without this
    sys.stderr.write(
        "bench_training: skipped, torch is not installed (pip install -e '.[train]')\n"
    )
    sys.exit(0)

from training.train import MODEL_LABELS, CardNet, Samples, train_step  # noqa: E402
from training.train_detector import (  # noqa: E402
    DetectorNet,
    Scenes,
    detector_step,
    input_shape,
)

WARMUP = 3  # untimed steps first (allocator, autocast caches)

Batch = tuple[torch.Tensor, ...]


def draw(stream: Iterator[Batch], n: int) -> tuple[list[Batch], list[float]]:
    """``n`` batches from ``stream`` and the milliseconds each took to make."""
    batches, times = [], []
    for _ in range(n):
        t = time.perf_counter()
        batches.append(next(stream))
        times.append((time.perf_counter() - t) * 1000)
    return batches, times


def step_ms(batches: Sequence[Batch], bf16: bool, make: Callable[[], nn.Module],
            step: Callable[[nn.Module, torch.optim.Optimizer, Batch, bool], object],
            ) -> list[float]:  # fmt: skip
    """Milliseconds of each timed step (after ``WARMUP`` untimed ones), from seed-0 weights."""
    torch.manual_seed(0)
    model = make()
    model.train()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-4)
    times = []
    for k, batch in enumerate(batches):
        t = time.perf_counter()
        step(model, opt, batch, bf16)
        if k >= WARMUP:
            times.append((time.perf_counter() - t) * 1000)
    return times


def classifier(args: argparse.Namespace) -> dict[str, object]:
    stream = iter(Samples(seed=7, batch=args.batch, pool_every=1000, designs_per_pool=4))
    next(stream)  # the first batch also builds the pool of designs: not a batch's cost
    batches, data_ms = draw(stream, args.steps + WARMUP)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)

    def step(model: nn.Module, opt: torch.optim.Optimizer, batch: Batch, bf16: bool) -> object:
        return train_step(model, opt, loss_fn, batch[0], batch[1], bf16=bf16)

    return measure("CardNet(width=1.25)", args.batch, batches, data_ms,
                   lambda: CardNet(len(MODEL_LABELS), width=1.25), step, args.steps)  # fmt: skip


def detector(args: argparse.Namespace) -> dict[str, object]:
    stream = iter(Scenes(seed=7, batch=args.detector_batch, shape=input_shape(320),
                         peak="visible", keep_shown=True, large_share=0.5))  # fmt: skip
    next(stream)  # the first batch also loads the artwork: not a batch's cost
    batches, data_ms = draw(stream, args.steps + WARMUP)

    def step(model: nn.Module, opt: torch.optim.Optimizer, batch: Batch, bf16: bool) -> object:
        x, heat, reg, weight = batch  # the scenes' input, heatmap, regression and weights
        return detector_step(model, opt, x, heat, reg, weight, bf16=bf16)

    return measure("DetectorNet(width=1.0), input 320", args.detector_batch, batches, data_ms,
                   lambda: DetectorNet(width=1.0), step, args.steps)  # fmt: skip


def measure(name: str, batch: int, batches: Sequence[Batch], data_ms: list[float],
            make: Callable[[], nn.Module],
            step: Callable[[nn.Module, torch.optim.Optimizer, Batch, bool], object],
            steps: int) -> dict[str, object]:  # fmt: skip
    result: dict[str, object] = {"model": name, "batch": batch, "timed_steps": steps}
    medians = {}
    for label, bf16 in (("float32", False), ("bfloat16", True)):
        median = statistics.median(step_ms(batches, bf16, make, step))
        medians[label] = median
        result[label] = {
            "step_ms_median": round(median, 1),
            "samples_per_s": round(batch * 1000 / median, 1),
        }
    result["bfloat16_speedup_vs_float32"] = round(medians["float32"] / medians["bfloat16"], 2)
    data = statistics.median(data_ms[WARMUP:])
    result["data_ms_per_batch_median"] = round(data, 1)
    result["data_samples_per_s_one_process"] = round(batch * 1000 / data, 1)
    return result


NETS = {"classifier": classifier, "detector": detector}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nets", default="classifier,detector",
                        help=f"which nets, comma-separated: {', '.join(NETS)}")  # fmt: skip
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--batch", type=int, default=64, help="the classifier's batch")
    parser.add_argument("--detector-batch", type=int, default=16)
    parser.add_argument("--steps", type=int, default=15, help="timed steps per precision")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    nets = [n.strip() for n in args.nets.split(",") if n.strip()]
    unknown = [n for n in nets if n not in NETS]
    if unknown or not nets:
        parser.error(f"--nets {args.nets!r}: choose from {', '.join(NETS)}")
    torch.set_num_threads(args.threads)
    results: dict[str, object] = {"threads": args.threads, "torch": torch.__version__}
    for name in nets:
        results[name] = NETS[name](args)
    print(json.dumps(results, indent=1))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
