"""``see``: find every face-up card in a frame and read it."""

from __future__ import annotations

import numpy as np

from tabletop.errors import InvalidInputError
from tabletop.vision.detection import Detection
from tabletop.vision.finder import find_cards, warp_card
from tabletop.vision.reader import Reader, shipped_reader

__all__ = ["see"]


def see(image: np.ndarray, reader: Reader | None = None) -> list[Detection]:
    """All face-up cards in a BGR frame, left to right then top to bottom, each read from both corners.

    Loads the shipped reader (``models/cards/``) on first use.

    :raises InvalidInputError: if ``image`` is not a BGR image.
    :raises SetupError: if the reader model is missing.
    """
    if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3 or image.size == 0:
        raise InvalidInputError("not a colour image (expected an H×W×3 BGR array)", code="bad-image")
    reader = reader or shipped_reader()
    detections = []
    for quad in find_cards(image):
        reading = reader.read(warp_card(image, quad))
        detections.append(Detection(reading.rank, reading.suit, quad.box, reading.confidence))
    detections.sort(key=lambda d: (d.box[1] // max(1, d.box[3]), d.box[0]))
    return detections
