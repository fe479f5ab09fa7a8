"""Reading a still image from disk, with errors a player can act on, in bounded time and memory.

The image's size is read from its header first (Pillow reads only the header), so a small file
that claims a huge picture (a decompression bomb) is refused before a pixel is decoded; then
OpenCV decodes the bytes already read.
"""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import cv2
import numpy as np

from tabletop.errors import InvalidInputError
from tabletop.files import FileProblem, read_bounded

__all__ = ["read_image", "MAX_PIXELS", "MAX_IMAGE_BYTES"]

MAX_PIXELS = 50_000_000           # 50 megapixels: more than any phone or webcam photo of a table
MAX_IMAGE_BYTES = 100 * 1024 * 1024


def read_image(path: str | Path) -> np.ndarray:
    """The BGR pixels of the image at ``path``.

    :raises InvalidInputError: if there is no file there, it is not an image OpenCV can read, or it
        is bigger than :data:`MAX_PIXELS` pixels or :data:`MAX_IMAGE_BYTES` bytes.
    """
    data = _read_bounded(Path(path))
    width, height = _header_size(data, path)
    if width * height > MAX_PIXELS:
        raise InvalidInputError(
            f"{path} is {width}x{height} pixels, more than the {MAX_PIXELS // 1_000_000} megapixels tabletop reads: "
            "use a smaller photo", code="image-too-big")
    image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise InvalidInputError(f"can't read {path} as an image (use JPEG or PNG)", code="bad-image")
    return image


def _read_bounded(path: Path) -> bytes:
    try:
        return read_bounded(path, MAX_IMAGE_BYTES)
    except FileProblem as problem:
        if problem.kind == "missing":
            raise InvalidInputError(f"no image at {path}: check the path", code="bad-image") from None
        if problem.kind == "cannot-open":
            raise InvalidInputError(f"can't open {path} ({problem.strerror}): check the path", code="bad-image") from None
        if problem.kind in ("folder", "special"):
            raise InvalidInputError(f"no image at {path} (not a regular file): check the path", code="bad-image") from None
        if problem.kind == "too-big":
            raise InvalidInputError(f"{path} is over {MAX_IMAGE_BYTES // 2**20} MB, too big for a photo: use a smaller one",
                                    code="image-too-big") from None
        raise InvalidInputError(f"can't read {path} ({problem.strerror}): check the file", code="bad-image") from None


def _header_size(data: bytes, path: str | Path) -> tuple[int, int]:
    """(width, height) as the header claims, without decoding the pixels."""
    from PIL import Image  # Pillow reads only the header on open

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # DecompressionBombWarning: we decide below
            with Image.open(io.BytesIO(data)) as picture:
                return picture.size
    except Image.DecompressionBombError:
        raise InvalidInputError(f"{path} claims a picture of more than the {MAX_PIXELS // 1_000_000} megapixels "
                                "tabletop reads: use a smaller photo", code="image-too-big") from None
    except Exception:  # Pillow's errors for a damaged or unknown file vary (OSError, SyntaxError, ...)
        raise InvalidInputError(f"can't read {path} as an image (use JPEG or PNG)", code="bad-image") from None
