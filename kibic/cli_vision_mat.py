"""``kibic vision mat``: the table mat to print, with the markers calibration looks for.

``--out mat.svg`` gives a drawing whose units are millimetres (print it at 100 %, or have a
print shop print it on cloth); ``--out mat.png`` a raster of the markers alone, ``--px-per-mm``
pixels a millimetre. The mat's size is the one ``kibic run`` calibrates with
(``vision.synthetic.MAT_SIZE``, 900 x 700 mm).
"""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("mat", help="the table mat to print, with its ArUco markers")
    parser.add_argument("--out", type=Path, required=True, help="mat.svg (to print) or mat.png")
    parser.add_argument("--seats", type=int, choices=(2, 3, 4), default=4,
                        help="the seats whose zones are drawn (SVG)")  # fmt: skip
    parser.add_argument("--px-per-mm", type=float, default=4.0,
                        help="the PNG's resolution (4 is about 100 dpi)")  # fmt: skip
    parser.set_defaults(handler=_mat_command)


def _mat_command(args: argparse.Namespace) -> int:
    import cv2

    from vision.mat import mat_image, mat_svg
    from vision.synthetic import MAT_SIZE

    suffix = args.out.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise SystemExit(f"kibic vision mat: --out {args.out}: give a .svg or a .png file")
    if not 0.5 <= args.px_per_mm <= 20:
        raise SystemExit(f"kibic vision mat: --px-per-mm {args.px_per_mm:g} is not between 0.5 "
                         f"and 20")  # fmt: skip
    try:
        if suffix == ".svg":
            args.out.write_text(mat_svg(MAT_SIZE, args.seats), encoding="utf-8")
        elif not cv2.imwrite(str(args.out), mat_image(MAT_SIZE, args.px_per_mm)):
            raise OSError("OpenCV could not write it")
    except OSError as exc:
        raise SystemExit(f"kibic vision mat: --out {args.out}: {exc}") from None
    w, h = MAT_SIZE
    print(f"{args.out}: the mat, {w:g} x {h:g} mm; the camera must see all four markers")
    return 0
