"""Reading a still image from disk, with errors a player can act on."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from tabletop.errors import InvalidInputError

__all__ = ["read_image"]


def read_image(path: str | Path) -> np.ndarray:
    """The BGR pixels of the image at ``path``.

    :raises InvalidInputError: if there is no file there or it is not an image OpenCV can read.
    """
    if not Path(path).is_file():
        raise InvalidInputError(f"no image at {path}: check the path", code="bad-image")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise InvalidInputError(f"can't read {path} as an image (use JPEG or PNG)", code="bad-image")
    return image
