#!/usr/bin/env bash
# Train the corner-index finder (training.train_corner_finder) on a lent GPU machine (the
# workplace's `device` tool: one H200, 16 CPU cores, Python with torch, OpenCV, onnx and
# onnxruntime, no network), two variants side by side in one command of at most 10 minutes:
# A starts from the shipped card detector, B from scratch. Scenes are cut by data worker
# processes on the CPU, so the length is set in seconds.
#
# Here, before the call (the machine has no ../shared):
#     PYTHON=.venv/bin/python bash training/device_corners.sh --pack
# --pack copies the corner-boxes training photos and their labels to the ignored ./tmp/ (about
# 20 MB, carried); the photos kept out for tuning travel as empty files of the same names, so
# that the seeded split is the same there and none of them leaves this machine.
# The call:
#     run(command="bash training/device_corners.sh", carry=["tmp"], timeout_s=600)
# Back under $OUT: A.onnx, A.json, A.log, B.onnx, B.json, B.log and gpu.txt.
# `bash training/device_corners.sh reader` trains the box reader instead (training.train_corner_reader,
# version 2: A its net, B --wide; back: A.onnx, A.labels.json, B...). It also needs the
# artwork, fonts and card-crops faces that `training/device_classifier.sh --pack` puts in ./tmp/
# (pack with it first: its --pack empties tmp/real-photos).
# Settings from the environment: MAX_SECONDS=270 WORKERS=7 (per variant) BATCH=48 SEED=1.
# `DRY_RUN=1` runs the same command for a few seconds on the CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
PACK="${PACK:-tmp}"
export PACK PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
# shellcheck source=training/device_common.sh
source training/device_common.sh

if [[ "${1:-}" == "--pack" ]]; then
    rm -rf "$PACK/real-photos/corner-boxes"
    "$PY" - <<'EOF'
import os
import shutil
from pathlib import Path

from training.real_finder_crops import CORNERS, FOLDERS, photos

root = Path(os.environ["PACK"]) / "real-photos" / "corner-boxes"
for folder in FOLDERS:
    train, tune = photos(folder)
    for path in train + tune:
        image = root / folder / "images" / path.name
        image.parent.mkdir(parents=True, exist_ok=True)
        if path in tune:  # the name only: the photo stays here
            image.touch()
            continue
        shutil.copyfile(path, image)
        label = Path("labels") / f"{path.stem}.txt"
        (root / folder / label).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(CORNERS / folder / label, root / folder / label)
    print(f"{folder}: {len(train)} photos, {len(tune)} names kept out")
EOF
    du -sh "$PACK"
    exit 0
fi

open_run
[[ -d "$PACK/real-photos/corner-boxes" ]] || { echo "no photos: carry tmp/ (see --pack)" >&2; exit 2; }
export KIBIC_REAL_PHOTOS="$PACK/real-photos"
MAX_SECONDS="${MAX_SECONDS:-270}" WORKERS="${WORKERS:-7}" BATCH="${BATCH:-48}" SEED="${SEED:-1}"
device=cuda
if [[ -n "${DRY_RUN:-}" ]]; then
    device=cpu WORKERS=1 BATCH=2 MAX_SECONDS=10
fi
"$PY" -m training.gpu_check "$device" | tee "$OUT/gpu.txt"
if [[ "${1:-}" == "reader" ]]; then
    # the box reader (training.train_corner_reader): A its net, B --wide, both for MAX_SECONDS
    [[ -f "$PACK/fonts.tar.gz" ]] || { echo "no fonts: pack with device_classifier.sh first" >&2; exit 2; }
    # without the artwork (tmp/ must stay under the 64 MiB a call carries), the rendered faces
    # are the demo's design and the procedural designs
    [[ -d "$PACK/kibic-art/sheets" ]] && export KIBIC_ART_CACHE="$PACK/kibic-art"
    unpack_fonts "$PACK"
    common=(--device "$device" --workers "$WORKERS" --batch 256 --steps 1000000
            --max-seconds "$MAX_SECONDS" --seed "$SEED" --rendered 0.25 --version 2)
    "$PY" -m training.train_corner_reader "${common[@]}" --out "$OUT/A.onnx" >"$OUT/A.log" 2>&1 &
    a=$!
    "$PY" -m training.train_corner_reader "${common[@]}" --wide --out "$OUT/B.onnx" \
        >"$OUT/B.log" 2>&1 &
    b=$!
    status=0
    wait "$a" || status=1
    wait "$b" || status=1
    tail -n 3 "$OUT/A.log" "$OUT/B.log"
    exit "$status"
fi
common=(--device "$device" --workers "$WORKERS" --batch "$BATCH" --max-seconds "$MAX_SECONDS"
        --seed "$SEED")
"$PY" -m training.train_corner_finder "${common[@]}" --out "$OUT/A.onnx" >"$OUT/A.log" 2>&1 &
a=$!
"$PY" -m training.train_corner_finder "${common[@]}" --init-onnx none --lr 3e-3 \
    --out "$OUT/B.onnx" >"$OUT/B.log" 2>&1 &
b=$!
status=0
wait "$a" || status=1
wait "$b" || status=1
tail -n 3 "$OUT/A.log" "$OUT/B.log"
ls -l "$OUT"
exit "$status"
