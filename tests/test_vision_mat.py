"""``kibic vision mat``: the printed mat is found by the calibration, at its real size."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import cv2
import numpy as np
import pytest

from kibic.cli import main
from vision.calibration import TableCalibration
from vision.synthetic import MAT_SIZE

SVG = "{http://www.w3.org/2000/svg}"


def _corners_on_mat(image: np.ndarray, px_per_mm: float, seats: int) -> np.ndarray:
    """The photo's corners, in mat millimetres, by the calibration from the mat's markers."""
    bgr = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR) if image.ndim == 2 else image
    cal = TableCalibration.from_aruco(bgr, mat_size=MAT_SIZE, n_seats=seats)
    assert cal.n_seats == seats
    h, w = image.shape[:2]
    # pixel centres: pixel (0, 0) covers the mat's first 1/px_per_mm mm
    pixels = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32) + 0.5
    return cal.to_table(pixels) - 0.5 / px_per_mm


def test_the_svg_mat_is_printed_at_its_size_and_calibrates_exactly(tmp_path: Path) -> None:
    """The SVG's own black rectangles, drawn again here at 2 px/mm, give back the mat."""
    out = tmp_path / "mat.svg"
    assert main(["vision", "mat", "--out", str(out), "--seats", "3"]) == 0
    root = ET.parse(out).getroot()
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == (
        "900mm", "700mm", "0 0 900 700")  # fmt: skip
    labels = sorted(
        t.text or "" for t in root.iter(f"{SVG}text") if (t.text or "").startswith("seat")
    )
    assert labels == ["seat 0", "seat 1", "seat 2"]
    scale = 2.0
    drawn = np.full((round(700 * scale), round(900 * scale)), 255, np.uint8)
    black = [r for r in root.iter(f"{SVG}rect") if r.get("fill") == "black"]
    for r in black:
        x, y, w, h = (float(r.get(k, "0")) for k in ("x", "y", "width", "height"))
        drawn[
            round(y * scale) : round((y + h) * scale), round(x * scale) : round((x + w) * scale)
        ] = 0
    corners = _corners_on_mat(drawn, scale, 3)
    assert corners == pytest.approx(np.array([[0, 0], [900, 0], [900, 700], [0, 700]]), abs=1.0)


def test_the_png_mat_calibrates_and_each_zone_is_its_seat(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    out = tmp_path / "mat.png"
    assert main(["vision", "mat", "--out", str(out), "--px-per-mm", "1.5"]) == 0
    assert capsys.readouterr().out == (
        f"{out}: the mat, 900 x 700 mm; the camera must see all four markers\n")  # fmt: skip
    image = cv2.imread(str(out), cv2.IMREAD_GRAYSCALE)
    assert image is not None
    assert image.shape == (1050, 1350)
    corners = _corners_on_mat(image, 1.5, 4)
    assert corners == pytest.approx(np.array([[0, 0], [900, 0], [900, 700], [0, 700]]), abs=1.0)
    cal = TableCalibration.from_aruco(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR),
                                      mat_size=MAT_SIZE, n_seats=4)  # fmt: skip
    # bottom, right, top, left edge of the photo: seats 0 to 3 in the order of play
    assert [cal.seat_at_pixel(p) for p in [(675, 950), (1250, 525), (675, 100), (100, 525)]] == [
        0, 1, 2, 3]  # fmt: skip


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--out", "{tmp}/mat.pdf"], "--out {tmp}/mat.pdf: give a .svg or a .png file"),
     (["--out", "{tmp}/mat.png", "--px-per-mm", "0.1"], "--px-per-mm 0.1 is not between 0.5 and 20"),
     (["--out", "{tmp}/gone/mat.svg"], "--out {tmp}/gone/mat.svg: [Errno 2] No such file or "
                                       "directory: '{tmp}/gone/mat.svg'")],
)  # fmt: skip
def test_what_cannot_be_written_is_named(tmp_path: Path, args: list[str], message: str) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["vision", "mat", *(a.format(tmp=tmp_path) for a in args)])
    assert str(stopped.value.code) == "kibic vision mat: " + message.format(tmp=tmp_path)
