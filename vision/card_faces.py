"""Procedural renderer of card faces for every deck family Kibic recognises.

Everything is drawn here with OpenCV primitives (and, when Pillow is installed, the DejaVu
TrueType fonts shipped by Debian's ``fonts-dejavu``), so the artwork is ours and MIT licensed.
A :class:`Design` is a set of style choices (fonts, index size, colours, court pictures); a
design is drawn from a seed, so training can see many designs and evaluation held-out ones.

Families (see ``vision.labels``): ``french`` (52 + Joker), ``german`` (Hungarian 32: Piros
hearts, Tök bells, Zöld leaves, Makk acorns; VII-X, Unter, Ober, König, Ász) and ``serbian``
(32 + Joker, our design from the rule text: numbers 1-4 in a Big house with big suit signs and
a small house with small ones; Ruža red, Dunja yellow, Zeleno green, Šišarka blue).

>>> img = render_face("french:AS", design_for_seed("french", 0))
>>> img.shape, img.dtype.name
((210, 150, 3), 'uint8')
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from vision.labels import split_label

FACE_H, FACE_W = 210, 150
Color = tuple[int, int, int]

FONT_DIR = "/usr/share/fonts/truetype/dejavu"  # Debian's fonts-dejavu; KIBIC_FONT_DIR overrides

HERSHEY = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_COMPLEX_SMALL,
)

# French pip layouts for 2..10, in face coordinates (x, y) of the pip area, y downwards.
_COLS = (0.30, 0.5, 0.70)
_PIPS: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.2), (0.5, 0.8)],
    3: [(0.5, 0.2), (0.5, 0.5), (0.5, 0.8)],
    4: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.8), (0.7, 0.8)],
    5: [(0.3, 0.2), (0.7, 0.2), (0.5, 0.5), (0.3, 0.8), (0.7, 0.8)],
    6: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)],
    7: [(0.3, 0.2), (0.7, 0.2), (0.5, 0.35), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)],
    8: [(0.3, 0.2), (0.7, 0.2), (0.5, 0.35), (0.3, 0.5), (0.7, 0.5), (0.5, 0.65), (0.3, 0.8),
        (0.7, 0.8)],
    9: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.4), (0.7, 0.4), (0.5, 0.5), (0.3, 0.6), (0.7, 0.6),
        (0.3, 0.8), (0.7, 0.8)],
    10: [(0.3, 0.2), (0.7, 0.2), (0.5, 0.3), (0.3, 0.4), (0.7, 0.4), (0.3, 0.6), (0.7, 0.6),
         (0.5, 0.7), (0.3, 0.8), (0.7, 0.8)],
}  # fmt: skip


@dataclass(frozen=True)
class Design:
    """Style choices for one printed deck."""

    family: str
    seed: int
    font: int  # index into HERSHEY, or -1-k for the k-th TrueType font
    index_h: float  # index glyph height, fraction of face height
    index_x: float  # left margin of the index, fraction of width
    paper: Color
    red: Color
    black: Color
    pip_scale: float
    border: int  # 0 none, 1 thin frame line
    court_seed: int
    roman: bool  # German numerals as VII..X


@cache
def _ttf_fonts() -> tuple[str, ...]:
    try:
        import PIL  # noqa: F401
    except ImportError:
        return ()
    # KIBIC_FONT_DIR: a copy of the fonts, on a machine without fonts-dejavu (a lent GPU)
    folder = os.environ.get("KIBIC_FONT_DIR", FONT_DIR)
    return tuple(sorted(glob.glob(os.path.join(folder, "DejaVu*.ttf"))))


def truetype_fonts() -> tuple[str, ...]:
    """The TrueType font files designs are drawn from here (none without Pillow): the
    procedural designs of a seed depend on them."""
    return _ttf_fonts()


def design_for_seed(family: str, seed: int) -> Design:
    """A deterministic design of ``family`` (seed 0 is the plain design used by the demo)."""
    rng = np.random.default_rng([seed, len(family)])
    fonts = _ttf_fonts()
    n_fonts = len(HERSHEY) + len(fonts)
    font = 0 if seed == 0 else int(rng.integers(n_fonts))
    if font >= len(HERSHEY):
        font = -1 - (font - len(HERSHEY))
    paper_v = 255 if seed == 0 else int(rng.integers(215, 256))
    tint = rng.integers(-12, 4, size=3) if seed else np.zeros(3, int)
    paper = tuple(int(np.clip(paper_v + t, 0, 255)) for t in tint)
    red = (30, 30, 200) if seed == 0 else (int(rng.integers(0, 70)), int(rng.integers(0, 60)),
                                           int(rng.integers(150, 235)))  # fmt: skip
    black = (20, 20, 20) if seed == 0 else tuple(int(v) for v in rng.integers(0, 60, size=3))
    return Design(
        family=family,
        seed=seed,
        font=font,
        index_h=0.085 if seed == 0 else float(rng.uniform(0.065, 0.11)),
        index_x=0.06 if seed == 0 else float(rng.uniform(0.035, 0.09)),
        paper=paper,  # type: ignore[arg-type]
        red=red,
        black=black,  # type: ignore[arg-type]
        pip_scale=1.0 if seed == 0 else float(rng.uniform(0.8, 1.2)),
        border=0 if seed == 0 else int(rng.integers(2)),
        court_seed=int(rng.integers(1 << 30)),
        roman=bool(seed == 0 or rng.random() < 0.7),
    )


# --------------------------------------------------------------------------- text


def _text_size(text: str, font: int, height: float) -> tuple[int, int]:
    if font >= 0:
        (w, h), _ = cv2.getTextSize(text, HERSHEY[font], 1.0, 1)
        scale = height / max(h, 1)
        return int(w * scale), int(height)
    pil_font = _pil_font(font, int(height * 1.35))
    left, top, right, bottom = pil_font.getbbox(text)
    return right - left, bottom - top


@cache
def _pil_font(font: int, px: int):  # type: ignore[no-untyped-def]
    from PIL import ImageFont

    return ImageFont.truetype(_ttf_fonts()[-1 - font], max(px, 6))


def _draw_text(img: np.ndarray, text: str, x: int, y: int, height: float, color: Color,
               font: int) -> tuple[int, int]:  # fmt: skip
    """Draw ``text`` with its top-left at (x, y); return its (width, height)."""
    if font >= 0:
        (w, h), _ = cv2.getTextSize(text, HERSHEY[font], 1.0, 1)
        scale = height / max(h, 1)
        thick = max(1, int(round(height / 9)))
        cv2.putText(img, text, (x, int(y + height)), HERSHEY[font], scale, color, thick,
                    cv2.LINE_AA)  # fmt: skip
        return int(w * scale), int(height)
    from PIL import Image, ImageDraw

    pil_font = _pil_font(font, int(height * 1.35))
    left, top, right, bottom = pil_font.getbbox(text)
    w, h = right - left, bottom - top
    if w <= 0 or h <= 0:
        return 0, 0
    mask_img = Image.new("L", (w + 2, h + 2), 0)
    ImageDraw.Draw(mask_img).text((1 - left, 1 - top), text, font=pil_font, fill=255)
    mask = np.asarray(mask_img, dtype=np.float32)[..., None] / 255.0
    y0, x0 = max(y, 0), max(x, 0)
    y1, x1 = min(y + h + 2, img.shape[0]), min(x + w + 2, img.shape[1])
    if y1 <= y0 or x1 <= x0:
        return w, h
    m = mask[y0 - y : y1 - y, x0 - x : x1 - x]
    region = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = (region * (1 - m) + np.array(color, np.float32) * m).astype(np.uint8)
    return w, h


# --------------------------------------------------------------------------- suit signs


def _circle(img: np.ndarray, c: tuple[float, float], r: float, color: Color) -> None:
    cv2.circle(img, (int(round(c[0] * 8)), int(round(c[1] * 8))), max(int(r * 8), 1), color, -1,
               cv2.LINE_AA, shift=3)  # fmt: skip


def _poly(img: np.ndarray, pts: list[tuple[float, float]], color: Color) -> None:
    arr = np.round(np.array(pts) * 8).astype(np.int32)
    cv2.fillPoly(img, [arr], color, cv2.LINE_AA, shift=3)


def draw_sign(img: np.ndarray, kind: str, cx: float, cy: float, s: float, color: Color,
              flip: bool = False) -> None:  # fmt: skip
    """Draw a suit sign of height ``s`` centred at (cx, cy); ``flip`` turns it upside down."""
    d = -1.0 if flip else 1.0

    def p(x: float, y: float) -> tuple[float, float]:
        return cx + d * x * s, cy + d * y * s

    r = 0.26 * s
    if kind == "H":
        _circle(img, p(-0.23, -0.2), r, color)
        _circle(img, p(0.23, -0.2), r, color)
        _poly(img, [p(-0.48, -0.12), p(0.48, -0.12), p(0.0, 0.5)], color)
    elif kind == "D":
        _poly(img, [p(0, -0.5), p(0.38, 0), p(0, 0.5), p(-0.38, 0)], color)
    elif kind == "S":
        _circle(img, p(-0.23, 0.12), r, color)
        _circle(img, p(0.23, 0.12), r, color)
        _poly(img, [p(-0.48, 0.04), p(0.48, 0.04), p(0.0, -0.5)], color)
        _poly(img, [p(0, 0.1), p(-0.17, 0.5), p(0.17, 0.5)], color)
    elif kind == "C":
        _circle(img, p(0, -0.24), 0.22 * s, color)
        _circle(img, p(-0.24, 0.1), 0.22 * s, color)
        _circle(img, p(0.24, 0.1), 0.22 * s, color)
        _poly(img, [p(0, 0.0), p(-0.17, 0.5), p(0.17, 0.5)], color)
    elif kind == "bell":  # Tök
        _circle(img, p(0, 0.05), 0.4 * s, color)
        _poly(img, [p(-0.4, 0.02), p(0.4, 0.02), p(0.4, 0.1), p(-0.4, 0.1)], (20, 60, 90))
        _circle(img, p(0, -0.42), 0.08 * s, (20, 60, 90))
    elif kind == "leaf":  # Zöld / Zeleno
        _poly(img, [p(0, -0.5), p(0.3, -0.2), p(0.35, 0.1), p(0, 0.4), p(-0.35, 0.1),
                    p(-0.3, -0.2)], color)  # fmt: skip
        _poly(img, [p(-0.03, 0.3), p(0.03, 0.3), p(0.03, 0.5), p(-0.03, 0.5)], (20, 70, 20))
    elif kind == "acorn":  # Makk
        _circle(img, p(0, 0.15), 0.3 * s, color)
        _poly(img, [p(-0.34, 0.0), p(0.34, 0.0), p(0.25, -0.3), p(-0.25, -0.3)], (20, 50, 80))
        _poly(img, [p(-0.04, -0.3), p(0.04, -0.3), p(0.04, -0.5), p(-0.04, -0.5)], (20, 50, 80))
    elif kind == "rose":  # Ruža
        for k in range(5):
            a = 2 * np.pi * k / 5
            _circle(img, p(0.22 * np.sin(a), -0.22 * np.cos(a)), 0.2 * s, color)
        _circle(img, p(0, 0), 0.14 * s, (40, 200, 240))
    elif kind == "quince":  # Dunja
        _circle(img, p(0, 0.12), 0.34 * s, color)
        _circle(img, p(0, -0.2), 0.22 * s, color)
        _poly(img, [p(0, -0.38), p(0.3, -0.5), p(0.1, -0.3)], (40, 140, 40))
    elif kind == "cone":  # Šišarka
        _poly(img, [p(0, -0.5), p(0.3, -0.1), p(0.25, 0.3), p(0, 0.5), p(-0.25, 0.3),
                    p(-0.3, -0.1)], color)  # fmt: skip
        for y in (-0.15, 0.05, 0.25):
            pa, pb = p(-0.22, y), p(0.22, y)
            cv2.line(img, (int(pa[0]), int(pa[1])), (int(pb[0]), int(pb[1])), (90, 40, 0), 1)
    else:
        raise ValueError(f"unknown sign {kind!r}")


# --------------------------------------------------------------------------- faces

_FRENCH_SIGN = {"C": "C", "D": "D", "H": "H", "S": "S"}
_GERMAN_SIGN = {"P": ("H", (40, 40, 210)), "T": ("bell", (30, 180, 240)),
                "Z": ("leaf", (40, 150, 40)), "M": ("acorn", (40, 90, 150))}  # fmt: skip
_SERBIAN_SIGN = {"r": ("rose", (50, 40, 210)), "d": ("quince", (30, 200, 235)),
                 "z": ("leaf", (50, 160, 50)), "š": ("cone", (180, 90, 20))}  # fmt: skip
_ROMAN = {"7": "VII", "8": "VIII", "9": "IX", "10": "X"}


def _court(img: np.ndarray, design: Design, key: str, box: tuple[int, int, int, int],
           accent: Color) -> None:  # fmt: skip
    """A colourful court picture, point-symmetric like a real double-headed court card."""
    x0, y0, x1, y1 = box
    rng = np.random.default_rng([design.court_seed, sum(key.encode())])
    half = np.full((y1 - y0, x1 - x0, 3), design.paper, np.uint8)
    h, w = half.shape[:2]
    palette = [accent, (40, 40, 190), (170, 80, 30), (40, 190, 230), (30, 30, 30), (60, 140, 60)]
    for _ in range(int(rng.integers(10, 18))):
        color = palette[int(rng.integers(len(palette)))]
        cx, cy = int(rng.integers(0, w)), int(rng.integers(0, h // 2 + 4))
        if rng.random() < 0.5:
            ax = (int(rng.integers(3, w // 3)), int(rng.integers(3, h // 5)))
            cv2.ellipse(half, (cx, cy), ax, float(rng.uniform(0, 180)), 0, 360, color, -1)
        else:
            pts = np.array([[cx + rng.integers(-w // 3, w // 3), cy + rng.integers(-h // 6, h // 6)]
                            for _ in range(3)], np.int32)  # fmt: skip
            cv2.fillPoly(half, [pts], color)
    cv2.circle(half, (w // 2, h // 5), max(w // 8, 3), (150, 190, 235), -1)  # a face
    top = half[: h // 2]
    half[h - h // 2 :] = cv2.rotate(top, cv2.ROTATE_180)[: h // 2]
    img[y0:y1, x0:x1] = half
    cv2.rectangle(img, (x0, y0), (x1 - 1, y1 - 1), accent, 1)


def render_face(label: str, design: Design, size: tuple[int, int] = (FACE_H, FACE_W)) -> np.ndarray:
    """Render the face of class ``label`` (``french:TH``, ``german:PO``, ``serbian:4Š``) as BGR."""
    family, face = split_label(label)
    H, W = FACE_H, FACE_W
    base = np.full((H, W, 3), design.paper, np.uint8)
    layer = np.full((H, W, 3), design.paper, np.uint8)  # drawn upright, copied rotated 180
    if family == "french":
        _french(base, layer, face, design)
    elif family == "german":
        _german(base, layer, face, design)
    elif family == "serbian":
        _serbian(base, layer, face, design)
    else:
        raise ValueError(f"unknown family {family!r}")
    paper = np.array(design.paper, np.int16)
    rot = cv2.rotate(layer, cv2.ROTATE_180)
    for part in (layer, rot):
        mask = np.abs(part.astype(np.int16) - paper).sum(axis=2) > 6
        base[mask] = part[mask]
    if design.border:
        m = int(W * 0.04)
        cv2.rectangle(base, (m, m), (W - 1 - m, H - 1 - m), design.black, 1, cv2.LINE_AA)
    if size != (H, W):
        return np.asarray(cv2.resize(base, (size[1], size[0]), interpolation=cv2.INTER_AREA))
    return base


def _index(layer: np.ndarray, design: Design, text: str, sign: str | None, color: Color,
           sign_color: Color | None = None) -> None:  # fmt: skip
    H, W = layer.shape[:2]
    ih = design.index_h * H
    x = int(design.index_x * W)
    y = int(0.04 * H)
    tw, th = _text_size(text, design.font, ih)
    if tw > W * 0.24:  # keep "10", "VIII" inside the margin
        ih *= W * 0.24 / tw
        tw = int(W * 0.24)
    cx = x + tw / 2
    _draw_text(layer, text, int(x), y, ih, color, design.font)
    if sign is not None:
        s = ih * 0.9
        draw_sign(layer, sign, max(cx, x + s / 2), y + ih * 1.3 + s / 2, s, sign_color or color)


def _french(base: np.ndarray, layer: np.ndarray, face: str, d: Design) -> None:
    H, W = base.shape[:2]
    if face == "JK":
        color = d.red if d.seed % 2 else d.black
        ih = d.index_h * H * 0.8
        y = int(0.04 * H)
        for ch in "JOKER":
            _draw_text(layer, ch, int(d.index_x * W), y, ih, color, d.font)
            y += int(ih * 1.25)
        _court(base, d, "JK", (int(W * 0.25), int(H * 0.2), int(W * 0.75), int(H * 0.8)), color)
        return
    rank, suit = face[:-1], face[-1]
    color = d.red if suit in "HD" else d.black
    text = "10" if rank == "T" else rank
    _index(layer, d, text, suit, color)
    if rank in "JQK":
        _court(base, d, face, (int(W * 0.2), int(H * 0.15), int(W * 0.8), int(H * 0.85)), color)
        draw_sign(base, suit, W * 0.3, H * 0.22, 0.09 * H, color)
        return
    n = 1 if rank == "A" else int(text)
    s = (0.32 if n == 1 else 0.13) * H * d.pip_scale
    if n == 1 and suit == "S":
        s *= 1.3
    _pips(base, layer, _PIPS[n], suit, s, color)


def _pips(base: np.ndarray, layer: np.ndarray, spots: list[tuple[float, float]], sign: str,
          s: float, color: Color) -> None:  # fmt: skip
    """Upper pips go on the rotated layer when their mirror image is also a pip."""
    H, W = base.shape[:2]
    keys = {(round(px, 3), round(py, 3)) for px, py in spots}
    for px, py in spots:
        x, y = W * 0.16 + px * W * 0.68, H * 0.12 + py * H * 0.76
        mirrored = (round(1 - px, 3), round(1 - py, 3)) in keys
        if mirrored and py < 0.5:
            draw_sign(layer, sign, x, y, s, color)
        elif not mirrored or abs(py - 0.5) < 1e-6:
            draw_sign(base, sign, x, y, s, color, flip=py > 0.5)


def _german(base: np.ndarray, layer: np.ndarray, face: str, d: Design) -> None:
    H, W = base.shape[:2]
    suit, rank = face[0], face[1:]
    sign, color = _GERMAN_SIGN[suit]
    text = _ROMAN[rank] if (rank in _ROMAN and d.roman) else rank
    _index(layer, d, text, None, d.black)
    draw_sign(layer, sign, W - W * 0.14, H * 0.08, 0.09 * H, color)
    if rank in ("U", "O", "K", "A"):
        box = (int(W * 0.18), int(H * 0.14), int(W * 0.82), int(H * 0.86))
        _court(base, d, face, box, color)
        if rank == "O":  # Ober: the sign above the head
            draw_sign(base, sign, W * 0.5, H * 0.2, 0.1 * H, color)
        elif rank == "U":  # Unter: the sign below the waist
            draw_sign(base, sign, W * 0.5, H * 0.62, 0.1 * H, color)
        elif rank == "A":  # Ász: two large signs
            draw_sign(base, sign, W * 0.5, H * 0.33, 0.2 * H, color)
            draw_sign(base, sign, W * 0.5, H * 0.67, 0.2 * H, color, flip=True)
        return
    n = int(rank)
    s = 0.13 * H * d.pip_scale
    _pips(base, layer, _PIPS[n], sign, s, color)


def _serbian(base: np.ndarray, layer: np.ndarray, face: str, d: Design) -> None:
    H, W = base.shape[:2]
    if face == "X":
        _court(base, d, "X", (int(W * 0.2), int(H * 0.15), int(W * 0.8), int(H * 0.85)), d.red)
        _draw_text(layer, "X", int(d.index_x * W), int(0.04 * H), d.index_h * H * 1.2, d.black,
                   d.font)  # fmt: skip
        return
    number, letter = int(face[0]), face[1]
    big = letter.isupper()
    sign, color = _SERBIAN_SIGN[letter.lower()]
    _index(layer, d, str(number), sign, d.black, sign_color=color)
    if big:  # the Big house: a double frame and big signs
        m = int(W * 0.12)
        cv2.rectangle(base, (m, m), (W - 1 - m, H - 1 - m), color, 3)
    s = (0.26 if big else 0.12) * H * d.pip_scale
    spots = {
        1: [(0.5, 0.5)],
        2: [(0.5, 0.27), (0.5, 0.73)],
        3: [(0.5, 0.2), (0.5, 0.5), (0.5, 0.8)],
        4: [(0.3, 0.27), (0.7, 0.27), (0.3, 0.73), (0.7, 0.73)],
    }[number]
    if big and number == 4:
        s *= 0.75
    for px, py in spots:
        x, y = W * 0.16 + px * W * 0.68, H * 0.12 + py * H * 0.76
        draw_sign(base, sign, x, y, s, color, flip=py > 0.5)
