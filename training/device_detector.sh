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
#
# Experiment 30, real photographs (training.real_scenes), two doses side by side from the
# shipped detector, half the workers each (A.onnx, B.onnx and their .json, .pt, .log):
#     REAL=1 PYTHON=.venv/bin/python bash training/device_detector.sh --pack
#         # + card-crops' training faces and edje train's photos but every fifth (about 43 MB)
#     run(command="INIT_ONNX=models/kibic_detector.onnx WIDTH=1.0 LR=5e-4 MAX_SECONDS=330 \
#                  bash training/device_detector.sh real", carry=["tmp"], timeout_s=600)
# A: --real-faces 0.3 --real-photos 0.25; B: --real-faces 0.3 --real-photos 0.5 (EXTRA_A,
# EXTRA_B override them).
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

PY="${PYTHON:-python3}"
# shellcheck source=training/device_common.sh
source training/device_common.sh
if [[ "${1:-}" == "--pack" ]]; then
    pack_art tmp  # first: without the artwork nothing is packed
    rm -rf tmp/fonts tmp/real-photos
    pack_fonts tmp
    if [[ -n "${REAL:-}" ]]; then  # the real photographs training.real_scenes reads
        PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" "$PY" - <<'EOF2'
from pathlib import Path

import cv2

from training.real_crops import pack
from training.real_scenes import edje_split

root = Path("tmp/real-photos")
train, tune = pack(root, scale=2 / 3)  # the scenes lay a face at most 290 px long
fit, hold = edje_split()
edje = root / "edje-cards" / "images" / "train"
edje.mkdir(parents=True, exist_ok=True)
for photo in fit:
    image = cv2.imread(str(photo), cv2.IMREAD_COLOR)
    scale = 640 / max(image.shape[:2])  # the detector reads them at 320 at most
    if scale < 1:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    cv2.imwrite(str(edje / photo.name), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    xml = photo.with_suffix(".xml")
    (edje / xml.name).write_bytes(xml.read_bytes())
for photo in hold:  # held out to decide on: the name only
    (edje / photo.name).touch()
print(f"card-crops: {train} faces, {tune} names kept out; "
      f"edje train: {len(fit)} photos, {len(hold)} names kept out")
EOF2
    fi
    du -sh tmp
    exit 0
fi

OUT="${OUT:-/tmp/device-out}"
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
[[ -d tmp/kibic-art/sheets ]] && export KIBIC_ART_CACHE="$PWD/tmp/kibic-art"
unpack_fonts tmp
[[ -d tmp/real-photos ]] && export KIBIC_REAL_PHOTOS="$PWD/tmp/real-photos"
[[ -n "${KIBIC_ART_CACHE:-}" ]] || { echo "no artwork: carry tmp/ (see --pack)" >&2; exit 2; }
if [[ "${1:-}" == "real" && -z "${KIBIC_REAL_PHOTOS:-}" ]]; then
    echo "no real photos: pack with REAL=1 (or set KIBIC_REAL_PHOTOS)" >&2
    exit 2
fi

WIDTH="${WIDTH:-1.5}" LR="${LR:-3e-3}" BATCH="${BATCH:-32}" SEED="${SEED:-22}"
MAX_SECONDS="${MAX_SECONDS:-420}" WORKERS="${WORKERS:-14}"
device=cuda steps=1000000 threads=2
if [[ -n "${DRY_RUN:-}" ]]; then
    device=cpu steps=3 threads=1 WORKERS=1 BATCH=2 MAX_SECONDS=120
fi
init=()
[[ -n "${INIT_ONNX:-}" ]] && init=(--init-onnx "$INIT_ONNX")

"$PY" -m training.gpu_check "$device" | tee "$OUT/gpu.txt"

# stage 9's scenes (see models/MODEL_CARD.md, "The still-photo detector"); NAME.onnx read as
# the shipped detector is read: its inference settings (passes, thresholds, NMS)
train() {  # NAME WORKERS SEED EXTRA...
    local name="$1" workers="$2" seed="$3"
    shift 3
    "$PY" -m training.train_detector --device "$device" --workers "$workers" \
        --threads "$threads" --bf16 --width "$WIDTH" --peak visible --keep-shown \
        --large-share 0.5 --input 320 --steps "$steps" --batch "$BATCH" --lr "$LR" \
        --max-seconds "$MAX_SECONDS" --seed "$seed" "${init[@]}" "$@" \
        --out "$OUT/$name.onnx" >"$OUT/$name.log" 2>&1
    "$PY" - "$OUT/$name.json" <<'EOF'
import json, sys
shipped = json.load(open("models/kibic_detector.json"))
path = sys.argv[1]
meta = json.load(open(path))
meta["inference"] = shipped["inference"]
json.dump(meta, open(path, "w"), indent=1)
EOF
}

if [[ "${1:-}" == "real" ]]; then
    # experiment 30: two doses of real photographs side by side, half the workers each
    half=$(( WORKERS > 1 ? WORKERS / 2 : 1 ))
    # shellcheck disable=SC2086  # the EXTRA_* are lists of options
    train A "$half" "$SEED" ${EXTRA_A:---real-faces 0.3 --real-photos 0.25} &
    a=$!
    # shellcheck disable=SC2086
    train B "$half" "$((SEED + 1))" ${EXTRA_B:---real-faces 0.3 --real-photos 0.5} &
    b=$!
    status=0
    wait "$a" || status=$?
    wait "$b" || status=$?
    tail -n 3 "$OUT"/A.log "$OUT"/B.log
    ls -la "$OUT"
    exit "$status"
fi
# shellcheck disable=SC2086  # EXTRA is a list of options
train det "$WORKERS" "$SEED" ${EXTRA:-} || { cat "$OUT/det.log"; exit 1; }
mv "$OUT/det.log" "$OUT/train.log"
tail -n 3 "$OUT/train.log"
ls -la "$OUT"
