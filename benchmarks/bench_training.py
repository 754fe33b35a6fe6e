"""Training speed of the card classifier on this machine's CPU: float32 against bfloat16.

    python benchmarks/bench_training.py [--threads 1] [--batch 64] [--steps 15] [--json OUT]

Needs the training extra (torch). Times ``models.train.train_step`` (forward, loss, backward,
AdamW update) of ``CardNet(width=1.25)``, the shipped classifiers' size, on batches drawn by
the training stream (procedural faces; a step's cost does not depend on what the faces show).
The baseline is float32; ``--bf16`` (torch's autocast in bfloat16) is measured in the same run,
from the same initial weights, on the same batches. Prints the median milliseconds a step, the
samples a second and the ratio. Making the data is not timed: in training, the data
workers (``models.train --workers``) make it in parallel.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
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

from models.train import MODEL_LABELS, CardNet, Samples, train_step  # noqa: E402


def step_ms(batches: list[tuple[torch.Tensor, torch.Tensor]], bf16: bool, warmup: int = 3,
            ) -> list[float]:  # fmt: skip
    """Milliseconds of each timed step (after ``warmup`` untimed ones), from seed-0 weights."""
    torch.manual_seed(0)
    model = CardNet(len(MODEL_LABELS), width=1.25)
    model.train()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-4)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    times = []
    for k, (x, y) in enumerate(batches):
        t = time.perf_counter()
        train_step(model, opt, loss_fn, x, y, bf16=bf16)
        if k >= warmup:
            times.append((time.perf_counter() - t) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--steps", type=int, default=15, help="timed steps per precision")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    stream = iter(Samples(seed=7, batch=args.batch, pool_every=1000, designs_per_pool=4))
    batches = [next(stream) for _ in range(args.steps + 3)]
    results: dict[str, object] = {
        "model": "CardNet(width=1.25)",
        "batch": args.batch,
        "threads": args.threads,
        "torch": torch.__version__,
    }
    medians = {}
    for name, bf16 in (("float32", False), ("bfloat16", True)):
        median = statistics.median(step_ms(batches, bf16))
        medians[name] = median
        results[name] = {
            "step_ms_median": round(median, 1),
            "samples_per_s": round(args.batch * 1000 / median, 1),
        }
    results["bfloat16_speedup_vs_float32"] = round(medians["float32"] / medians["bfloat16"], 2)
    print(json.dumps(results, indent=1))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
