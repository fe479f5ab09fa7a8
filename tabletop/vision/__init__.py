"""Vision: find face-up cards in a camera frame, read their corner indices, confirm books.

Public API used by the game loop and the CLI:

- :class:`Detection` and :func:`see` — the cards in one BGR frame.
- :class:`BookCheck` and :func:`check_book` — confirm a claimed book from a few frames.
- :class:`Camera` and :func:`is_dark` — the camera, with clear setup errors.
- :func:`model_status` — the shipped reader in ``models/cards/`` (built by
  ``python -m tabletop.vision.build``).
"""

from __future__ import annotations

from tabletop.vision.books import BookCheck, check_book
from tabletop.vision.camera import Camera, is_dark
from tabletop.vision.detection import Detection
from tabletop.vision.images import read_image
from tabletop.vision.pipeline import see
from tabletop.vision.store import model_status

__all__ = ["Detection", "see", "read_image", "BookCheck", "check_book", "Camera", "is_dark", "model_status"]
