#!/usr/bin/env bash
# Fine-tune the still-photo classifier with real photographs on a lent GPU machine (the
# workplace's `device` tool: one H200, 16 CPU cores, Python with torch, OpenCV, onnx and
# onnxruntime, no network, no fonts), two variants side by side in one command of at most
# 10 minutes. The samples are made by data worker processes on the CPU (the GPU waits on them),
# so the length is set in seconds, not steps.
#
# Here, before the call (the machine has no network and no ../shared):
#     python -m training.artwork                 # renders .cache/kibic-art (needs librsvg2-bin)
#     python -m training.real_finder_crops       # caches the corner-boxes cards the finder cuts
#     PYTHON=.venv/bin/python bash training/device_classifier.sh --pack  # copies what the training reads to ./tmp/
# --pack puts in the ignored ./tmp/ (about 50 MB, carried): the training themes' artwork, the DejaVu fonts
# (tar.gz), the training part of card-crops as faces (FACE_H x FACE_W, JPEG quality 85; the
# photos kept out for tuning travel as empty files of the same names, so the seeded split is
# the same there and none of them leaves this machine) and the finder crops' training part.
# The call:
#     run(command="bash training/device_classifier.sh", carry=["tmp"], timeout_s=600)
# What comes back under $OUT: for each variant NAME (A: --real-crops, B: --real-crops and
# --real-finder) NAME.onnx, NAME.labels.json and NAME.log; and gpu.txt.
# Settings from the environment: MAX_SECONDS=400 WORKERS=7 (per variant) BATCH=256 LR=1e-3
# SEED=71 (variant B: SEED+1). `DRY_RUN=1` runs the same command for a few steps on the CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
PACK="${PACK:-tmp}"  # the packed data's folder (tests pack elsewhere)
export PACK PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
# shellcheck source=training/device_common.sh
source training/device_common.sh

if [[ "${1:-}" == "--pack" ]]; then
    fonts="${KIBIC_FONT_DIR:-/usr/share/fonts/truetype/dejavu}"
    compgen -G "$fonts/DejaVu*.ttf" >/dev/null || { echo "no DejaVu fonts in $fonts" >&2; exit 2; }
    rm -rf "$PACK/real-photos" "$PACK/real-finder-crops"
    mkdir -p "$PACK/real-finder-crops"
    pack_art "$PACK"
    pack_fonts "$PACK"
    "$PY" - <<'EOF'
import os
from pathlib import Path

from training.real_crops import pack
from training.real_finder_crops import CACHE, _cache_key

train, tune = pack(Path(os.environ["PACK"]) / "real-photos")
found = CACHE / f"train-{_cache_key()}.npz"
if not found.is_file():
    raise SystemExit(f"no {found}: run python -m training.real_finder_crops")
(Path(os.environ["PACK"]) / "real-finder-crops" / found.name).write_bytes(found.read_bytes())
print(f"card-crops: {train} faces, {tune} names kept out; finder crops: {found.name}")
EOF
    du -sh "$PACK"
    exit 0
fi

open_run
[[ -d "$PACK/kibic-art/sheets" ]] || { echo "no artwork: carry tmp/ (see --pack)" >&2; exit 2; }
export KIBIC_ART_CACHE="$PACK/kibic-art" KIBIC_REAL_PHOTOS="$PACK/real-photos"
unpack_fonts "$PACK"
# the finder crops' cache, where training.real_finder_crops looks for it
mkdir -p .cache/real-finder-crops && cp "$PACK"/real-finder-crops/*.npz .cache/real-finder-crops/

MAX_SECONDS="${MAX_SECONDS:-400}" WORKERS="${WORKERS:-7}" BATCH="${BATCH:-256}"
LR="${LR:-1e-3}" SEED="${SEED:-71}"
device=cuda threads=2
if [[ -n "${DRY_RUN:-}" ]]; then
    device=cpu threads=1 WORKERS=1 BATCH=4 MAX_SECONDS=20
fi

"$PY" -m training.gpu_check "$device" | tee "$OUT/gpu.txt"

# the shipped still-photo classifier (version 3.6) fine-tuned with real faces
common=(--device "$device" --workers "$WORKERS" --threads "$threads" --batch "$BATCH"
        --lr "$LR" --steps 1000000 --max-seconds "$MAX_SECONDS"
        --init-onnx models/kibic_photo_cards.onnx --width 1.25 --art --art-share 0.6
        --under-share 0.2 --quad-error 1 --real-crops 0.5)
"$PY" -m training.train "${common[@]}" --seed "$SEED" --out "$OUT/A.onnx" \
    >"$OUT/A.log" 2>&1 &
a=$!
"$PY" -m training.train "${common[@]}" --real-finder 0.15 --seed "$((SEED + 1))" \
    --out "$OUT/B.onnx" >"$OUT/B.log" 2>&1 &
b=$!
status=0
wait "$a" || status=1
wait "$b" || status=1
tail -n 3 "$OUT/A.log" "$OUT/B.log"
ls -l "$OUT"
exit "$status"
