#!/usr/bin/env bash
# One training run of the still-photo detector on a lent GPU machine (the workplace's `device`
# tool: one H200, 16 CPU cores, Python with torch, OpenCV, onnx and onnxruntime, no network),
# sized to fit one command of at most 10 minutes. The scenes are made by 14 worker processes
# on the CPU (the GPU waits on them), so the run's length is set in seconds, not steps.
#
# Here, before the call (the machine has no network, no rsvg-convert and no fonts-dejavu):
#     python -m training.artwork                       # renders .cache/kibic-art (needs librsvg2-bin)
#     bash training/device_detector.sh --pack          # copies the artwork and fonts to ./tmp/
# The call (./tmp/ is ignored by git, so it travels only when carried, about 30 MB):
#     run(command="bash training/device_detector.sh", carry=["tmp"], timeout_s=600)
# What comes back under $OUT: det.onnx, det.json (the run's record, with the shipped detector's
# inference settings), det.pt, train.log and gpu.txt.
# Then, here:
#     kibic vision eval ../shared/data/real-photos/edje-cards/images --deck french-53 \
#         --detector-model <files_at>/det.onnx
# The settings are read from the environment (the defaults: stage 9's scenes from scratch,
# 1.5x as wide as the shipped net, 0.67 M parameters, about 2.7 MB of ONNX):
#     WIDTH=1.5 LR=3e-3 BATCH=32 SEED=22 MAX_SECONDS=420 WORKERS=14 INIT_ONNX= EXTRA=
# INIT_ONNX=models/kibic_detector.onnx WIDTH=1.0 goes on from the shipped detector instead (then
# a lower LR, say 5e-4). `DRY_RUN=1` runs the same command for a few steps on the CPU.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" == "--pack" ]]; then
    art="${KIBIC_ART_CACHE:-.cache/kibic-art}"
    [[ -d "$art/sheets" ]] || { echo "no artwork in $art: run python -m training.artwork" >&2; exit 2; }
    fonts="${KIBIC_FONT_DIR:-/usr/share/fonts/truetype/dejavu}"
    mkdir -p tmp
    rm -rf tmp/kibic-art tmp/fonts
    cp -r "$art" tmp/kibic-art
    if compgen -G "$fonts/DejaVu*.ttf" >/dev/null; then
        mkdir -p tmp/fonts && cp "$fonts"/DejaVu*.ttf tmp/fonts/
    else
        echo "warning: no DejaVu fonts in $fonts; the procedural designs will differ" >&2
    fi
    du -sh tmp
    exit 0
fi

PY="${PYTHON:-python3}"
OUT="${OUT:-/tmp/device-out}"
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
[[ -d tmp/kibic-art/sheets ]] && export KIBIC_ART_CACHE="$PWD/tmp/kibic-art"
[[ -d tmp/fonts ]] && export KIBIC_FONT_DIR="$PWD/tmp/fonts"
[[ -n "${KIBIC_ART_CACHE:-}" ]] || { echo "no artwork: carry tmp/ (see --pack)" >&2; exit 2; }

WIDTH="${WIDTH:-1.5}" LR="${LR:-3e-3}" BATCH="${BATCH:-32}" SEED="${SEED:-22}"
MAX_SECONDS="${MAX_SECONDS:-420}" WORKERS="${WORKERS:-14}"
device=cuda steps=1000000 threads=2
if [[ -n "${DRY_RUN:-}" ]]; then
    device=cpu steps=3 threads=1 WORKERS=1 BATCH=2 MAX_SECONDS=120
fi
init=()
[[ -n "${INIT_ONNX:-}" ]] && init=(--init-onnx "$INIT_ONNX")

"$PY" -m training.gpu_check "$device" | tee "$OUT/gpu.txt"

# stage 9's scenes (see models/MODEL_CARD.md, "The still-photo detector"), from scratch
# shellcheck disable=SC2086  # EXTRA is a list of options
"$PY" -m training.train_detector --device "$device" --workers "$WORKERS" --threads "$threads" \
    --bf16 --width "$WIDTH" --peak visible --keep-shown --large-share 0.5 --input 320 \
    --steps "$steps" --batch "$BATCH" --lr "$LR" --max-seconds "$MAX_SECONDS" --seed "$SEED" \
    "${init[@]}" ${EXTRA:-} --out "$OUT/det.onnx" 2>&1 | tee "$OUT/train.log"
# read as the shipped detector is read: its inference settings (passes, thresholds, NMS)
"$PY" - "$OUT/det.json" <<'EOF'
import json, sys
shipped = json.load(open("models/kibic_detector.json"))
path = sys.argv[1]
meta = json.load(open(path))
meta["inference"] = shipped["inference"]
json.dump(meta, open(path, "w"), indent=1)
EOF
ls -la "$OUT"
