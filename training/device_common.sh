# Shared by training/device_*.sh (sourced, not run): what a lent GPU machine lacks, packed here
# into the carried folder and unpacked there. Each function takes the folder it works in; PY is
# the Python to run (the caller's).

# pack_art DEST: the training themes' artwork sheets (the held-out themes stay here)
pack_art() {
    local art="${KIBIC_ART_CACHE:-.cache/kibic-art}" dest="$1/kibic-art"
    [[ -d "$art/sheets" ]] || { echo "no artwork in $art: run python -m training.artwork" >&2; exit 2; }
    rm -rf "$dest" && mkdir -p "$dest/sheets"
    cp "$art/copyright" "$dest/" 2>/dev/null || true
    local theme
    for theme in $(PYTHONPATH="$PWD" "$PY" -c "from training.artwork import TRAIN_THEMES as t; print(*t)"); do
        cp "$art/sheets/$theme.png" "$dest/sheets/"
    done
}

# pack_fonts DEST: the DejaVu fonts the procedural designs are drawn with, as fonts.tar.gz;
# without them (a warning) the designs of a seed differ there
pack_fonts() {
    local fonts="${KIBIC_FONT_DIR:-/usr/share/fonts/truetype/dejavu}"
    rm -f "$1/fonts.tar.gz"
    if compgen -G "$fonts/DejaVu*.ttf" >/dev/null; then
        # shellcheck disable=SC2046  # one word per font file
        tar -czf "$1/fonts.tar.gz" -C "$fonts" $(cd "$fonts" && ls DejaVu*.ttf)
    else
        echo "warning: no DejaVu fonts in $fonts; the procedural designs will differ" >&2
    fi
}

# unpack_fonts PACK: fonts.tar.gz, where there is one, outside the working tree (which travels),
# and KIBIC_FONT_DIR set to it
unpack_fonts() {
    [[ -f "$1/fonts.tar.gz" ]] || return 0
    local fonts="${TMPDIR:-/tmp}/kibic-fonts"
    mkdir -p "$fonts" && tar -xzf "$1/fonts.tar.gz" -C "$fonts"
    export KIBIC_FONT_DIR="$fonts"
}

# open_run: OUT (what comes back, default /tmp/device-out) made, Python unbuffered, PACK made
# absolute
open_run() {
    OUT="${OUT:-/tmp/device-out}"
    mkdir -p "$OUT"
    export PYTHONUNBUFFERED=1
    PACK="$(cd "$PACK" 2>/dev/null && pwd || echo "$PACK")"
}
