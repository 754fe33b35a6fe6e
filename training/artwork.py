"""Real printed-deck artwork for training: Debian's aisleriot card themes, rendered to PNG.

The themes are SVG sheets of 13 x 5 cards (rows clubs, diamonds, hearts, spades, then the
black joker, red joker and back; columns ace .. king). They come from Debian's
``gnome-cards-data`` and ``aisleriot`` packages (GPL-3+, see their ``copyright`` files); they
are fetched and rendered into the project's own cache folder (``.cache/kibic-art`` in the
checkout, ignored by git; ``KIBIC_ART_CACHE`` names another) when first needed and never stored
in this repository:

    python -m training.artwork            # apt-get download + dpkg -x + rsvg-convert
    (needs ``apt-get install librsvg2-bin`` for rsvg-convert)

Only French-suited themes are listed. ``HELD_OUT_THEMES`` are never used for training: the
synthetic photo-like evaluation (``training.photo_eval``) draws its cards from them.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from vision.card_faces import FACE_H, FACE_W

PROJECT_CACHE = Path(__file__).resolve().parents[1] / ".cache"
CACHE = Path(os.environ.get("KIBIC_ART_CACHE", str(PROJECT_CACHE / "kibic-art")))
PACKAGES = ("gnome-cards-data", "aisleriot")
LICENCE = "GPL-3+ (Debian gnome-cards-data / aisleriot 3.22.23, card themes of aisleriot)"

TRAIN_THEMES = (
    "ancient_french", "anglo", "anglo_bitmap", "anglo_modern", "anglo_modern_4_color",
    "anglo_poker", "atlasnye", "bellot", "berlin", "bonded", "gnomangelo", "guyenne-classic",
    "neoclassical", "neoclassical_4_color", "orell", "plastic", "rheinland", "simplistic",
    "slavic_costumes", "tango", "tango_nuevo", "tarocco",
)  # fmt: skip
HELD_OUT_THEMES = ("paris", "tigullio", "dondorf", "lattmann", "atlasnye_skat")

_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
_SUITS = ("C", "D", "H", "S")


def _cell_label(row: int, col: int) -> str | None:
    if row < 4:
        return f"french:{_RANKS[col]}{_SUITS[row]}"
    if col in (0, 1):
        return "french:JK"
    if col == 2:
        return "back"
    return None


def fetch(cache_dir: Path = CACHE) -> Path:
    """Download the Debian packages and render every theme's sheet (idempotent)."""
    sheets = cache_dir / "sheets"
    if sheets.is_dir() and len(list(sheets.glob("*.png"))) >= len(TRAIN_THEMES):
        return sheets
    sheets.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for pkg in PACKAGES:
            subprocess.run(["apt-get", "download", pkg], cwd=tmp, check=True,
                           capture_output=True)  # fmt: skip
        for deb in glob.glob(f"{tmp}/*.deb"):
            subprocess.run(["dpkg", "-x", deb, f"{tmp}/root"], check=True)
        for svg in glob.glob(f"{tmp}/root/usr/share/aisleriot/cards/*.svgz"):
            name = Path(svg).name[: -len(".svgz")]
            if name not in TRAIN_THEMES + HELD_OUT_THEMES:
                continue
            subprocess.run(["rsvg-convert", "-w", "1950", "-o", str(sheets / f"{name}.png"), svg],
                           check=True, timeout=120)  # fmt: skip
        copyright_file = f"{tmp}/root/usr/share/doc/gnome-cards-data/copyright"
        if os.path.exists(copyright_file):
            shutil.copy(copyright_file, cache_dir / "copyright")
    return sheets


def cut_sheet(sheet: np.ndarray) -> dict[str, np.ndarray]:
    """The cards of one rendered sheet (BGRA) as FACE_H x FACE_W BGR faces on white."""
    h, w = sheet.shape[:2]
    ch, cw = h / 5, w / 13
    out: dict[str, np.ndarray] = {}
    for row in range(5):
        for col in range(13):
            label = _cell_label(row, col)
            if label is None:
                continue
            cell = sheet[int(row * ch) : int((row + 1) * ch), int(col * cw) : int((col + 1) * cw)]
            alpha = cell[..., 3]
            ys, xs = np.nonzero(alpha > 128)
            if len(xs) < 100:
                continue
            card = cell[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
            a = card[..., 3:].astype(np.float32) / 255
            bgr = card[..., :3].astype(np.float32) * a + 255 * (1 - a)
            face = cv2.resize(bgr.astype(np.uint8), (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)
            key = label if label not in out else label + "#2"
            out[key] = face
    return out


@cache
def theme_faces(name: str) -> dict[str, np.ndarray]:
    """Faces of one theme keyed by label (``french:QH``; ``french:JK`` and ``french:JK#2`` for
    the two jokers; ``back``), read from the cache (fetched on first use)."""
    path = fetch() / f"{name}.png"
    sheet = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if sheet is None or sheet.ndim != 3 or sheet.shape[2] != 4:
        return {}
    return cut_sheet(sheet)


def available() -> bool:
    """Whether the artwork can be used (cached already, or the tools to fetch it exist)."""
    if (CACHE / "sheets").is_dir() and any((CACHE / "sheets").glob("*.png")):
        return True
    return shutil.which("rsvg-convert") is not None and shutil.which("apt-get") is not None


if __name__ == "__main__":
    where = fetch()
    for theme in TRAIN_THEMES + HELD_OUT_THEMES:
        print(theme, len(theme_faces(theme)))
    print("sheets in", where)
