"""What a training run on a lent machine prints first (``training/device_*.sh``): the versions of
its libraries, the fonts the procedural designs are drawn with, and the GPU torch sees.

    python -m training.gpu_check cuda    # fails when torch sees no GPU
"""

from __future__ import annotations

import sys


def main() -> None:
    import cv2
    import onnxruntime
    import torch

    from vision.card_faces import truetype_fonts

    print(
        "torch", torch.__version__, "cv2", cv2.__version__, "onnxruntime", onnxruntime.__version__
    )
    print("fonts", len(truetype_fonts()))
    if sys.argv[1:] == ["cuda"]:
        if not torch.cuda.is_available():
            raise SystemExit("no GPU seen by torch")
        print(torch.cuda.get_device_name(0))


if __name__ == "__main__":
    main()
