"""The camera looking down at the table: a thin, strict wrapper round ``cv2.VideoCapture``."""

from __future__ import annotations

from pathlib import Path
from types import TracebackType

import time

import cv2
import numpy as np

from tabletop.errors import SetupError

__all__ = ["Camera", "is_dark", "DARK_LEVEL", "LOOK_SECONDS", "LOOK_FRAMES"]

DARK_LEVEL = 28.0
"""Mean brightness (0..255) below which a frame is too dark to read cards."""
LOOK_SECONDS = 0.5
"""How long a look at the table lasts: long enough that a hand passing over or a flicker of light is not all
the camera sees, short enough that an answer is not kept waiting."""
LOOK_FRAMES = 5
"""At most this many frames of a look are read for cards (spread over it), to bound the time spent reading."""
_ASSUMED_FPS = 15.0  # when the device or file does not say


def is_dark(frame: np.ndarray, level: float = DARK_LEVEL) -> bool:
    """True if the frame is too dark (or too flat) to show cards: a covered lens, lights off."""
    if frame is None or frame.size == 0:
        return True
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    return float(gray.mean()) < level or float(np.percentile(gray, 99)) < 2 * level


class Camera:
    """A camera (device index) or a video file (path), read one frame at a time.

    Every failure is a :class:`~tabletop.errors.SetupError` whose reason says what to do, so
    the game can say it and go on without vision.
    """

    def __init__(self, source: int | str, *, dark_level: float = DARK_LEVEL) -> None:
        self.source = source
        self.dark_level = dark_level
        if isinstance(source, str) and not source.isdigit() and not Path(source).exists():
            raise SetupError(f"no video file at {source}: check the path", code="no-camera")
        if isinstance(source, str) and source.isdigit():
            source = int(source)
        # OpenCV logs every backend it tries for a camera that is not there (V4L2, FFMPEG's exception
        # text, obsensor) straight to stderr, above the one plain sentence below: quiet while opening.
        logging = cv2.utils.logging
        level = logging.getLogLevel()
        logging.setLogLevel(logging.LOG_LEVEL_SILENT)
        try:
            self._capture: cv2.VideoCapture | None = cv2.VideoCapture(source)
        finally:
            logging.setLogLevel(level)
        if not self._capture.isOpened():
            self._capture.release()
            self._capture = None
            raise SetupError(
                f"no camera {self.source}: plug one in or pick another with --camera N; the game goes on without it",
                code="no-camera",
            )

    def read(self) -> np.ndarray:
        """The next frame (BGR).

        :raises SetupError: if the camera is closed or stops sending frames, or the frame is dark.
        """
        if self._capture is None:
            raise SetupError(f"camera {self.source} is closed", code="camera-closed")
        ok, frame = self._capture.read()
        if not ok or frame is None or frame.size == 0:
            raise SetupError(f"camera {self.source} stopped sending pictures: check its cable", code="camera-stopped")
        if is_dark(frame, self.dark_level):
            raise SetupError("the camera sees only darkness: turn on a light or uncover the lens", code="camera-dark")
        return frame

    def frames(self, n: int) -> list[np.ndarray]:
        """``n`` consecutive frames (see :meth:`read` for the errors)."""
        return [self.read() for _ in range(max(0, n))]

    def look(self, seconds: float = LOOK_SECONDS, most: int = LOOK_FRAMES) -> list[np.ndarray]:
        """The frames of about ``seconds`` of video, at most ``most`` of them spread evenly over it (at least two).

        A live camera is read for the whole time, which also drains the stale frames its driver buffered;
        a video file gives as many frames as it holds in that time at its frame rate.

        :raises SetupError: as :meth:`read`, on the first frame; a camera that stops part way gives what it sent.
        """
        rate = float(self._capture.get(cv2.CAP_PROP_FPS)) if self._capture is not None else 0.0
        if not rate or rate != rate or rate > 240:  # 0 or NaN when unknown
            rate = _ASSUMED_FPS
        wanted = max(2, int(round(rate * seconds)))
        live = not (isinstance(self.source, str) and not self.source.isdigit())
        frames = [self.read()]
        start = time.monotonic()
        while len(frames) < wanted and (not live or time.monotonic() - start < seconds):
            try:
                frames.append(self.read())
            except SetupError:
                break
        if len(frames) <= most:
            return frames
        picks = np.linspace(0, len(frames) - 1, max(2, most)).round().astype(int)
        return [frames[i] for i in picks]

    def close(self) -> None:
        """Release the device; safe to call twice."""
        if self._capture is not None:
            self._capture.release()
            self._capture = None

    def __enter__(self) -> "Camera":
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass
