"""The printable table mat: the four ArUco markers where calibration looks for them.

``from_aruco`` maps the centres of markers 0 to 3 (``DICT_4X4_50``) to ``marker_centers``:
``MARKER_INSET`` mm in from both edges of the mat, top-left, top-right, bottom-right,
bottom-left as the camera sees it, each ``MARKER_SIDE`` mm wide. A club prints this mat (or
tapes the four markers to its own cloth at those places): ``kibic vision mat --out mat.svg``
writes it at its real size in millimetres, with the seats' zones drawn faintly and named.

Both drawings, the SVG and the raster one, come from ``marker_cells``, so what is printed is
what the tests find with ``TableCalibration.from_aruco``.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

import cv2
import numpy as np

from vision.calibration import (
    ARUCO_DICT,
    MARKER_IDS,
    MARKER_SIDE,
    marker_centers,
    seat_angle,
    wedge_zones,
)

Rect = tuple[float, float, float, float]  # x, y, width, height in mm


def marker_cells(mat_size: tuple[float, float]) -> list[Rect]:
    """The black cells of the four markers on the mat (mm): each marker is its bit grid with
    a one-cell black border, ``MARKER_SIDE`` mm wide, centred on its ``marker_centers``."""
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICT)
    cells = dictionary.markerSize + 2
    size = MARKER_SIDE / cells
    rects: list[Rect] = []
    for marker_id, (cx, cy) in zip(MARKER_IDS, marker_centers(mat_size), strict=True):
        bits = cv2.aruco.generateImageMarker(dictionary, marker_id, cells)
        x0, y0 = cx - MARKER_SIDE / 2, cy - MARKER_SIDE / 2
        for row, col in zip(*np.nonzero(bits == 0), strict=True):
            rects.append((x0 + int(col) * size, y0 + int(row) * size, size, size))
    return rects


def _label_at(mat_size: tuple[float, float], seat: int, n_seats: int) -> tuple[float, float]:
    """Where a seat's name is written: towards its edge, 70 % of the way from the centre."""
    w, h = mat_size
    angle = seat_angle(seat, n_seats)
    reach = min(w / 2 / max(abs(math.cos(angle)), 1e-9), h / 2 / max(abs(math.sin(angle)), 1e-9))
    return w / 2 + 0.7 * reach * math.cos(angle), h / 2 + 0.7 * reach * math.sin(angle)


def mat_svg(mat_size: tuple[float, float], n_seats: int) -> str:
    """The mat as an SVG document whose units are millimetres (print it at 100 %)."""
    w, h = mat_size
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}mm" height="{h:g}mm" '
        f'viewBox="0 0 {w:g} {h:g}">',
        f'<rect x="0" y="0" width="{w:g}" height="{h:g}" fill="white" stroke="#999" '
        'stroke-width="0.5"/>',
    ]
    for zone in wedge_zones(mat_size, n_seats, steps=1):
        cx, cy = (float(v) for v in zone[0])
        for x, y in (zone[1], zone[-1]):
            out.append(f'<line x1="{cx:.2f}" y1="{cy:.2f}" x2="{float(x):.2f}" y2="{float(y):.2f}" '
                       'stroke="#ccc" stroke-width="0.5" stroke-dasharray="4 4"/>')  # fmt: skip
    for seat in range(n_seats):
        x, y = _label_at(mat_size, seat, n_seats)
        out.append(f'<text x="{x:.1f}" y="{y:.1f}" font-size="14" fill="#aaa" '
                   f'text-anchor="middle" font-family="sans-serif">seat {seat}</text>')  # fmt: skip
    note = (f"Kibic table mat {w:g} x {h:g} mm: print at 100 %. The camera sees marker 0 "
            f"top left; seat 0 is the first name in the table's configuration.")  # fmt: skip
    out.append(f'<text x="{w / 2:.1f}" y="{h / 2 - 8:.1f}" font-size="8" fill="#aaa" '
               f'text-anchor="middle" font-family="sans-serif">{escape(note)}</text>')  # fmt: skip
    out.extend(f'<rect x="{x:.3f}" y="{y:.3f}" width="{s:.3f}" height="{t:.3f}" fill="black"/>'
               for x, y, s, t in marker_cells(mat_size))  # fmt: skip
    out.append("</svg>")
    return "\n".join(out) + "\n"


def mat_image(mat_size: tuple[float, float], px_per_mm: float) -> np.ndarray:
    """The mat's markers drawn on white (grey, ``px_per_mm`` pixels a millimetre)."""
    w, h = mat_size
    image = np.full((round(h * px_per_mm), round(w * px_per_mm)), 255, np.uint8)
    for x, y, s, t in marker_cells(mat_size):
        x0, y0 = round(x * px_per_mm), round(y * px_per_mm)
        image[y0 : round((y + t) * px_per_mm), x0 : round((x + s) * px_per_mm)] = 0
    return image
