"""Live reading of a still table: read the first frame whole, then only the parts of the picture that changed.

A camera over a card table is still and the cards mostly are too: from one frame to the next the picture differs by
sensor noise, a flicker of the light and now and then a hand passing. :class:`Tracker` reads its first frame with
:func:`~tabletop.vision.pipeline.see`; for each next frame it compares small blocks of the picture (their mean grey,
the light's overall gain taken out) with the pixels its reads were made from, and re-reads with ``see`` only a crop
round the blocks that changed (a card's length of margin, so every card the change touches lies whole in it). The
cards read there replace the ones read before there; every other card is kept as read. A change over much of the
picture (the camera bumped, a light switched, an arm across the table) is read whole again. A part that keeps moving
(a hand passing: changed in this frame and the one before) is read when it stops, its cards unseen meanwhile; and a
picture that comes back to one seen still before (the hand gone) takes back the cards read then, without reading.

On a still table its output is the first frame's ``see`` exactly; where a card is added, taken or moved, the cards
there are ``see``'s on the crop of the new frame (the tests hold it to ``see`` on the whole new frame).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tabletop.vision.detection import Detection
from tabletop.vision.pipeline import see
from tabletop.vision.reader import Reader

__all__ = ["Tracker", "read_look", "BLOCK", "TILE", "NOISE_SIGMAS", "LEAST_CHANGE", "LIGHT_STEP", "WHOLE_SHARE",
           "PASSING_MOST", "STILL_KEPT"]

BLOCK = 8
"""Pixels are compared as the mean grey of BLOCK x BLOCK blocks: sensor noise averages down 8 times, while a card's
edge moved two pixels or an index glyph changed still moves a block's mean by tens of grey levels."""
TILE = 4
"""Blocks per side of a tile, the unit a change is marked in (32 px): a tile changed where any of its blocks did."""
NOISE_SIGMAS = 7.0
"""A block has changed where it differs from its reference by this many times the frame's own noise (the spread of
all blocks' differences, nearly all of which are noise on a still table)."""
LEAST_CHANGE = 6.0
"""...and by at least this many grey levels besides what the gain moved it (a clean frame's noise is near zero, and
MJPG rounds it away). Measured on still MJPG videos of composited tables (``scenes.still_frames``, every light, webcam
to full HD): of 882 frames (seeds 881000-5) and 735 more not tuned on (881100-4), no block passed its bar, the worst
at 0.55 of it; nor in 1515 frames of the 296 Edje and 7 bidly photos held still with grain and flicker (worst 0.57)."""
LIGHT_STEP = 0.15
"""The light's overall gain changing by more than this share since the reads were made: read the frame whole."""
WHOLE_SHARE = 0.5
"""Crops to re-read covering more than this share of the frame: read the frame whole instead (one read, and
exactly ``see``)."""
_LIT = 60.0
"""Blocks gauging the light's gain are at least this bright (a dark block's few grey levels, rounded by the codec, do
not follow a flicker of a few per cent: a dim table's gain read 1.00 from them when its bright blocks moved 4.5%)."""
_BURNT = 250.0
"""A block this bright is burnt out (glare): it shows nothing, and does not follow the light's gain."""
PASSING_MOST = 8
"""Frames in a row (about half a second of video) a moving part is left unread before it is read moving: a camera
that keeps shaking is read, not blind."""
STILL_KEPT = 3
"""Still pictures remembered (``_settle``): a hand that pauses over the cards makes one; the table before it, another."""
_CARD_SHARE = 0.15
"""A card's long side as a share of the frame's width, before the first frame's cards measure it."""
_INNER = 0.5
"""Cards whose box centre lies within this many card lengths of a change are read again (a card's box touching the
change has its centre within half its long side of it)."""
_MARGIN = 0.6
"""...and the crop read reaches this many card lengths further, so each such card lies whole in it with table round
(a tenth of a card)."""


@dataclass
class _Region:
    """A rectangle of the frame (x0, y0, x1, y1), half-open."""

    x0: int
    y0: int
    x1: int
    y1: int

    def grown(self, by: float, w: int, h: int) -> "_Region":
        b = int(round(by))
        return _Region(max(0, self.x0 - b), max(0, self.y0 - b), min(w, self.x1 + b), min(h, self.y1 + b))

    def meets(self, other: "_Region") -> bool:
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1

    def joined(self, other: "_Region") -> "_Region":
        return _Region(min(self.x0, other.x0), min(self.y0, other.y0), max(self.x1, other.x1), max(self.y1, other.y1))

    def holds(self, x: float, y: float) -> bool:
        return self.x0 <= x < self.x1 and self.y0 <= y < self.y1

    @property
    def area(self) -> int:
        return (self.x1 - self.x0) * (self.y1 - self.y0)


class Tracker:
    """Reads the frames of a still camera in order, re-reading only what changed (see the module's docstring).

    ``counts`` tallies how each frame was read: ``"whole"``, ``"crops"`` (some parts re-read), ``"kept"``
    (nothing changed: the cards read before, as they were) or ``"back"`` (the last still picture again, after a
    hand passed: its cards as read then); ``"passing"`` counts the frames in which a moving part was left unread.
    """

    def __init__(self, reader: Reader | None = None) -> None:
        self.reader = reader
        self.detections: list[Detection] = []
        self._reference: np.ndarray | None = None  # block means of the pixels the reads were made from
        self._shape: tuple[int, ...] | None = None
        self._card = 0.0
        self._still: list[tuple[np.ndarray, list[Detection]]] = []  # the last still pictures and their cards
        self.counts = {"whole": 0, "crops": 0, "kept": 0, "back": 0, "passing": 0}
        self._previous: np.ndarray | None = None  # the last frame's blocks
        self._moving = np.zeros((0, 0), bool)  # its tiles changed from the frame before it
        self._passing = 0  # frames in a row in which a part was left unread as moving
        self.last_regions: list[tuple[int, int, int, int]] = []  # the crops (x, y, w, h) the last frame re-read

    def see(self, frame: np.ndarray) -> list[Detection]:
        """The cards in ``frame`` (as :func:`see` returns them), the frame being the next one from the camera."""
        self.last_regions = []
        if self._reference is None or frame.shape != self._shape:
            return self._read_whole(frame)
        blocks = _blocks(frame)
        gain = _gain(self._reference, blocks)
        if gain is None or abs(gain - 1.0) > LIGHT_STEP:
            return self._read_whole(frame, blocks)
        changed = _changed_tiles(self._reference, blocks, gain)
        moving, self._moving, self._previous = self._moving, self._moved(blocks), blocks
        if not changed.any():
            self.counts["kept"] += 1
            self._settle()
            return self.detections
        if self._back_to_still(blocks):
            return self.detections
        h, w = frame.shape[:2]
        inner = _merged([r.grown(_INNER * self._card, w, h) for r in _regions(changed)])
        crops = _merged([r.grown(_MARGIN * self._card, w, h) for r in inner])
        # a part still moving (changed from the frame before, as it had from the one before that: a hand passing) is
        # read once it stops (or after PASSING_MOST frames); meanwhile the cards there are not seen
        passing = moving & self._moving
        self._passing = self._passing + 1 if passing.any() else 0
        if self._passing > PASSING_MOST:
            passing[:] = False
        if sum(c.area for c in crops) > WHOLE_SHARE * w * h and not passing.any():
            return self._read_whole(frame, blocks)
        kept = [d for d in self.detections if not any(r.holds(*_centre(d.box)) for r in inner)]
        if passing.any():
            self.counts["passing"] += 1
            inner = [r for r in inner if not _meets_tiles(r, passing)]
            crops = _merged([r.grown(_MARGIN * self._card, w, h) for r in inner])
            if sum(c.area for c in crops) > WHOLE_SHARE * w * h:
                crops = [_Region(0, 0, w, h)]
        reference = self._reference.copy()  # a still picture's stays as it was
        for crop in crops:
            found = see(np.ascontiguousarray(frame[crop.y0:crop.y1, crop.x0:crop.x1]), self.reader)
            kept += [m for m in (_moved(d, crop.x0, crop.y0) for d in found) if any(r.holds(*_centre(m.box)) for r in inner)
                     and crop.holds(*_centre(m.box))]
            self.last_regions.append((crop.x0, crop.y0, crop.x1 - crop.x0, crop.y1 - crop.y0))
        for read in inner:  # the cards there are read from this frame's pixels now
            rows, cols = slice(read.y0 // BLOCK, -(-read.y1 // BLOCK)), slice(read.x0 // BLOCK, -(-read.x1 // BLOCK))
            reference[rows, cols] = blocks[rows, cols]
        kept.sort(key=lambda d: (d.box[1] // max(1, d.box[3]), d.box[0]))  # see()'s order
        self.detections, self._reference = kept, reference
        self.counts["crops"] += bool(crops)
        return kept

    def _moved(self, blocks: np.ndarray) -> np.ndarray:
        """The tiles changed since the last frame (none for the first, or after a change of size)."""
        if self._previous is None or self._previous.shape != blocks.shape:
            return np.zeros(_tiles_shape(blocks), bool)
        gain = _gain(self._previous, blocks)
        if gain is None:
            return np.ones(_tiles_shape(blocks), bool)
        return _changed_tiles(self._previous, blocks, gain)

    def _settle(self) -> None:
        """Remember the picture as still (read, and the same in the next frame), with its cards: ``STILL_KEPT``."""
        if not self._still or self._still[-1][1] is not self.detections:
            self._still = self._still[-(STILL_KEPT - 1):] + [(self._reference, self.detections)]

    def _back_to_still(self, blocks: np.ndarray) -> bool:
        """True if the frame shows one of the last still pictures again (a hand that passed over the cards, paused,
        and left): its cards are as read then, and are taken back without reading."""
        for reference, detections in reversed(self._still):
            gain = _gain(reference, blocks)
            if gain is not None and abs(gain - 1.0) <= LIGHT_STEP and not _changed_tiles(reference, blocks, gain).any():
                self._reference, self.detections = reference, detections
                self.counts["back"] += 1
                return True
        return False

    def _read_whole(self, frame: np.ndarray, blocks: np.ndarray | None = None) -> list[Detection]:
        self.detections = see(frame, self.reader)
        blocks = _blocks(frame) if blocks is None else blocks
        self._moving = self._moved(blocks) if self._previous is not None else np.zeros(_tiles_shape(blocks), bool)
        self._reference = self._previous = blocks
        self._shape = frame.shape
        self._card = _card_length(self.detections, frame.shape[1])
        self.counts["whole"] += 1
        self._settle()
        h, w = frame.shape[:2]
        self.last_regions = [(0, 0, w, h)]
        return self.detections


def read_look(frames: list[np.ndarray], reader: Reader | None = None) -> list[list[Detection]]:
    """The cards in each frame of a look (a camera's half second, in order), read by one :class:`Tracker`: the first
    frame whole, the rest where they changed. A frame in which nothing changed since the one before is no new
    evidence and gives no entry of its own (a still table's look is one reading, as a photo's is)."""
    tracker = Tracker(reader)
    seen: list[list[Detection]] = []
    for frame in frames:
        if frame is None:
            continue
        detections = tracker.see(frame)
        if not seen or detections is not seen[-1]:
            seen.append(detections)
    return seen


def _blocks(frame: np.ndarray) -> np.ndarray:
    """The frame's mean grey per BLOCK x BLOCK block (float32; a partial block at the edge is averaged as it is)."""
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    h, w = gray.shape
    return cv2.resize(gray.astype(np.float32), (-(-w // BLOCK), -(-h // BLOCK)), interpolation=cv2.INTER_AREA)


def _gain(reference: np.ndarray, blocks: np.ndarray) -> float | None:
    """How much brighter the reference is than the frame overall (the median ratio of blocks lit and not burnt out):
    a flicker of the light or the camera's exposure, taken out before blocks are compared. None where none is."""
    lit = (reference > _LIT) & (blocks > _LIT) & (reference < _BURNT) & (blocks < _BURNT)  # white follows no gain
    if lit.sum() < 16:  # a dim table: its dark blocks too (their few grey levels, rounded by the codec, gauge it worse)
        lit = (reference > 20) & (blocks > 20) & (reference < _BURNT) & (blocks < _BURNT)
    if lit.sum() < 16:
        return None
    return float(np.median(reference[lit] / blocks[lit]))


def _changed_tiles(reference: np.ndarray, blocks: np.ndarray, gain: float) -> np.ndarray:
    """Per TILE x TILE blocks, True where a block of the frame (its gain taken out) differs from the reference by more
    than the noise allows. A block near white may clip in one frame and not the other, so its mean does not follow
    the gain: it may differ by as much as the gain changed it, besides the noise."""
    evened = blocks * gain
    diff = np.abs(evened - reference)
    diff[(blocks >= _BURNT) & (reference >= _BURNT)] = 0.0  # burnt out by glare in both: alike, whatever the gain
    noise = 1.4826 * float(np.median(diff))  # the spread of the differences, as a Gaussian's sigma
    allowed = max(LEAST_CHANGE, NOISE_SIGMAS * noise) + abs(1.0 - gain) * np.maximum(reference, evened)
    changed = diff > allowed
    h, w = changed.shape
    padded = np.zeros((-(-h // TILE) * TILE, -(-w // TILE) * TILE), bool)
    padded[:h, :w] = changed
    return padded.reshape(padded.shape[0] // TILE, TILE, padded.shape[1] // TILE, TILE).any(axis=(1, 3))


def _tiles_shape(blocks: np.ndarray) -> tuple[int, int]:
    return -(-blocks.shape[0] // TILE), -(-blocks.shape[1] // TILE)


def _meets_tiles(region: _Region, tiles: np.ndarray) -> bool:
    """True if any of ``tiles`` (a tile mask) lies in ``region`` (frame pixels)."""
    side = TILE * BLOCK
    return bool(tiles[region.y0 // side:-(-region.y1 // side), region.x0 // side:-(-region.x1 // side)].any())


def _regions(changed: np.ndarray) -> list[_Region]:
    """The bounding rectangles (frame pixels) of the connected groups of changed tiles."""
    count, _, stats, _ = cv2.connectedComponentsWithStats(changed.astype(np.uint8), connectivity=8)
    side = TILE * BLOCK
    return [_Region(int(x) * side, int(y) * side, int(x + w) * side, int(y + h) * side)
            for x, y, w, h, _ in stats[1:count]]


def _merged(regions: list[_Region]) -> list[_Region]:
    """The rectangles with every two that meet joined into one, until none meet."""
    out = list(regions)
    joined = True
    while joined:
        joined = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                if out[i].meets(out[j]):
                    out[i] = out[i].joined(out.pop(j))
                    joined = True
                    break
            if joined:
                break
    return out


def _centre(box: tuple[int, int, int, int]) -> tuple[float, float]:
    return box[0] + box[2] / 2, box[1] + box[3] / 2


def _moved(d: Detection, dx: int, dy: int) -> Detection:
    x, y, w, h = d.box
    return Detection(d.rank, d.suit, (x + dx, y + dy, w, h), d.confidence)


def _card_length(detections: list[Detection], width: int) -> float:
    """A card's long side in the frame: the upper quartile of the cards read (a corner read's box is a part of its card,
    so the largest boxes count), or a share of the frame's width when none were."""
    sides = sorted(max(d.box[2], d.box[3]) for d in detections if d.rank is not None)
    if not sides:
        return _CARD_SHARE * width
    return float(max(sides[3 * len(sides) // 4], 0.5 * _CARD_SHARE * width))
