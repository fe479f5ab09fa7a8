"""``see``: find every face-up card in a frame and read it."""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import itertools
import math
import platform
from dataclasses import replace
from typing import NamedTuple

import cv2
import numpy as np

from tabletop.errors import InvalidInputError
from tabletop.vision.detection import Detection
from tabletop.vision.finder import (CARD_ASPECT, DECK_SPREAD, SIZE_LADDER, VIEW_CORNERS, VIEW_H, VIEW_MARGIN, VIEW_W, CardQuad,
                                   CornerCandidate, _length, _lengths, find_cards_and_corners, warp_card)
from tabletop.vision.glyphs import FIRST_INDEX_VIEW
from tabletop.vision.indices import find_indices
from tabletop.vision.layout import LAYOUT_FREE, lies_at, pattern_places
from tabletop.vision.reader import Reader, shipped_reader

__all__ = ["see", "Hypothesis"]


class Hypothesis(NamedTuple):
    """One card hypothesis the reader read (``see(..., trace=[])`` collects them): where the cards are lost.

    ``corners`` in frame pixels, index corner first; ``kind`` is ``"outline"`` (a whole card found by its
    outline) or ``"corner"`` (a card hung on one index corner: a paper corner, or an index found by its ink).
    """

    corners: np.ndarray
    kind: str
    reading: object  # reader.Reading


def see(image: np.ndarray, reader: Reader | None = None, trace: list[Hypothesis] | None = None) -> list[Detection]:
    """All face-up cards in a BGR frame, left to right then top to bottom, each read from both corners.

    Loads the shipped reader (``models/cards/``) on first use. ``trace``, a list, receives every hypothesis
    read (the bench's breakdown of where cards are lost: not found, misread, unsure, or dropped).

    :raises InvalidInputError: if ``image`` is not a BGR image.
    :raises SetupError: if the reader model is missing.
    """
    if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3 or image.size == 0:
        raise InvalidInputError("not a colour image (expected an H×W×3 BGR array)", code="bad-image")
    reader = reader or shipped_reader()
    _keep_freed_memory()
    read: dict[bytes, object] = {}  # a quad read to be let in is not read again with the cards found

    def reading(quad: CardQuad):
        key = quad.corners.tobytes()
        if key not in read:
            read[key] = reader.read(warp_card(image, quad))
            if trace is not None:
                trace.append(Hypothesis(quad.corners, "outline", read[key]))
        return read[key]

    quads, partial = find_cards_and_corners(image, lambda quad: _found_card(quad, reading(quad)),
                                            lambda quad: not _weak(reading(quad)))
    readings = [reading(quad) for quad in quads]
    trusted = [i for i, (q, r) in enumerate(zip(quads, readings))
               if not q.verify or _found_card(q, r)]
    if len(trusted) < len(quads):  # quads of the relaxed paper measure are cards only if they read as cards
        renumber = {old: new for new, old in enumerate(trusted)}
        quads, readings = [quads[i] for i in trusted], [readings[i] for i in trusted]
        partial = [replace(c, under=renumber.get(c.under, -1)) for c in partial]
    # a card-shaped outline read weakly, or at one index only, may be several cards (four laid in a square have a
    # card's shape): its corners and the indices inside it are read too, and replace it where they read surer
    weak = {i for i, r in enumerate(readings) if _weak(r)}
    # every index in view that no whole card read as a card holds: a card seen by its index corner (fanned, on a
    # table its outline does not stand out from)
    read_whole = [q for i, (q, r) in enumerate(zip(quads, readings)) if _reads_as_card(r) and i not in weak]
    deck = _deck_long_side(quads, readings)
    long_sides = (0.0, np.inf) if deck is None else (DECK_SPREAD[0] * deck, INDEX_FROM_FRAME * deck)
    partial += [c for c in find_indices(image, [q.corners for q in read_whole], long_sides)
                if not any(_holds(q, _box_centre(c.shown)) for q in read_whole)]
    partial = _one_deck(partial, quads, readings)
    partial = [c for c in partial if c.under < 0 or c.under in weak]
    hidden = _partly_hidden(image, partial, _whole_short_side(quads, readings), reader, trace,
                            _sure_whole(quads, readings))
    hidden = _indices_beside(image, hidden, reader, trace)
    # a corner read replaces a weakly read whole card only when it is the surer reading
    hidden = [(r, c) for r, c in hidden if c.under < 0 or r.confidence > readings[c.under].confidence]
    hidden = [(r, _read_at_index(r, c, quads, readings, weak)) for r, c in hidden]
    hidden = [(r, c) for r, c in hidden if not _read_again_at_index(r, c, quads, readings, weak)]
    replacing = {c.under for _, c in hidden if c.under >= 0}
    hidden = _once_by_index(hidden, [r for i, r in enumerate(readings) if _reads_as_card(r) and i not in replacing])
    replaced = {c.under for _, c in hidden if c.under >= 0}  # a badly fitted whole card, read at a corner instead
    hidden = _rest_of_pattern(image, [(r, q.corners) for i, (q, r) in enumerate(zip(quads, readings)) if i not in replaced],
                              hidden, reader, trace)
    hidden = _surer_at_frame_shape(image, hidden, _sure_whole(quads, readings), _whole_short_side(quads, readings),
                                   reader, trace)
    detections = [Detection(r.rank, r.suit, q.box, r.confidence)
                  for i, (q, r) in enumerate(zip(quads, readings)) if i not in replaced]
    solid = [q for i, q in enumerate(quads) if i not in replaced]
    others = [c for r, c in hidden if r.suit is not None]  # a read naming no suit (no pip under its rank: a doubtful
    # card, hung any way round) hides no card it lies on (a "2" hung sideways across a fan took a six's whole strip)
    detections += [Detection(r.rank, r.suit, _shown(c, [o for o in others if o is not c], solid, image.shape), r.confidence)
                   for r, c in hidden]
    detections.sort(key=lambda d: (d.box[1] // max(1, d.box[3]), d.box[0]))
    return detections


FREED_MEMORY_KEPT = (64 << 20, 256 << 20)
"""(largest block taken from the heap, freed memory kept on it) in bytes: ``_keep_freed_memory``."""


@functools.cache
def _keep_freed_memory() -> None:
    """Let the C library keep the memory a frame's arrays are freed into, for the next frame's (glibc only).

    A frame makes a few dozen arrays of a frame's size at 1024 and 512 pixels (OpenCV's and numpy's, through
    malloc). By default glibc hands blocks from 128 KB up back to the system when they are freed and maps them
    afresh, so each frame paid about 2,400 page faults, 6-7 ms of system time at 1280x720 (a tenth of the frame's
    CPU), for nothing. Blocks up to 64 MB now come from the heap, and up to 256 MB freed on it stay there (a
    24-megapixel photo itself, 72 MB, is still mapped and unmapped). Nothing read changes; set once a process."""
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        m_trim_threshold, m_mmap_threshold = -1, -3  # <malloc.h>
        largest, kept = FREED_MEMORY_KEPT
        libc.mallopt(m_mmap_threshold, largest)
        libc.mallopt(m_trim_threshold, kept)
    except (OSError, AttributeError):  # no such library or call: the default, slower by page faults only
        pass


INDEX_NEEDS_SUIT = True
"""A card seen only by an index found from its ink is kept only if its suit pip reads too (the pair must be an
index, not two specks of a carpet)."""
INDEX_MIN_CONFIDENCE = 0.6
"""... and only if it reads at least this surely."""


PARTS_MIN_CONFIDENCE = 0.8
"""... and an index found only in parts of its ink (``indices.DEEP_INK``: a court card's pip run into its picture)
at least this surely: print and a rug's weave come apart into glyph-like parts too (Edje photos: of 32 such reads,
11 of 12 at or above it right, 6 of 20 below it) ..."""
PARTS_AT_SCALE = (0.65, 0.1)
"""... or at least ``PARTS_AT_SCALE[0]`` surely when the card hung on it is the frame's card size (``_photo_short_side``)
within ``PARTS_AT_SCALE[1]`` either way: the index and the card it heads fit one deck's print (bidly deals: a jack's and
two kings' pips run into their pictures, read 0.68-0.79 at 1.0 of the size, each right)."""


def _parts_sure(reading, cand, scale: float | None) -> bool:
    """True if ``cand``, an index found only in parts of its ink, read ``reading`` is believed (``PARTS_MIN_CONFIDENCE``,
    ``PARTS_AT_SCALE``)."""
    if reading.confidence >= PARTS_MIN_CONFIDENCE:
        return True
    least, spread = PARTS_AT_SCALE
    return scale is not None and reading.confidence >= least and abs(cand.short_side / scale - 1.0) <= spread


def _reads_as_index(reading) -> bool:
    return (reading.suit is not None or not INDEX_NEEDS_SUIT) and reading.confidence >= INDEX_MIN_CONFIDENCE


_SAME_INDEX = 0.3
"""Two hypotheses whose index corners lie this share of a short side apart are one card (``_partly_hidden``
keeps the surer): an index hypothesis on the corner of one already read surely is not read."""
_WEAK = 0.5
"""A whole card read less surely than this may be a bad fit: its blob's corners are read as well."""
_PARTIAL_MIN_CONFIDENCE = 0.5
"""A partly hidden card is kept only when its one visible index reads at least this surely (the verifier)."""


def _weak(reading) -> bool:
    """True if a whole card read ``reading`` may be a bad fit, or several cards (``_WEAK``): the cards hung inside it
    (its blob's corners, the indices in it) are read too."""
    return reading.rank is None or reading.confidence < _WEAK or not _two_agree(reading)


def _deck_long_side(quads: list, readings: list) -> float | None:
    """The long side of this frame's deck: the median of the whole cards read surely (both indices agreeing), or
    None when there are none."""
    sure = [_long_side(corners) for corners in _sure_whole(quads, readings)]
    return _median(sure) if sure else None


def _sure_whole(quads: list, readings: list) -> list[np.ndarray]:
    """The corners of this frame's whole cards read surely (both indices agreeing)."""
    return [q.corners for q, r in zip(quads, readings) if _reads_as_card(r) and _two_agree(r)]


def _median(values: list[float]) -> float:
    """``float(np.median(values))`` of a short list of floats: the same value (the middle one, or the two middle ones'
    sum halved), without numpy's array and dispatch, which cost more than the sort (asked once a hypothesis read)."""
    ordered = sorted(values)
    middle = len(ordered) // 2
    return float(ordered[middle]) if len(ordered) % 2 else float((ordered[middle - 1] + ordered[middle]) / 2)


def _one_deck(partial: list, quads: list, readings: list) -> list:
    """The corner candidates of a size one deck's cards can have in this frame: no smaller or larger than a
    camera's tilt makes the whole cards read surely (both indices agreeing), when there are any."""
    deck = _deck_long_side(quads, readings)
    if deck is None:
        return partial
    return [c for c in partial if DECK_SPREAD[0] <= _long_side(c.corners) / deck <= DECK_SPREAD[1]]


PHOTO_SCALE_READS = 5
"""Cards read surely at an index corner (``SURE_AT_BOTH``, a suit named) that give a frame's card size when no whole
card gives it (``_photo_short_side``)."""


def _sure_short_side(read: list[tuple]) -> float | None:
    """The frame's card size as the cards read surely at both corners give it (read: (reading, hypothesis); their short
    sides' median, a suit named), or None."""
    sure = [c.short_side for r, c in read if _two_agree(r) and r.confidence >= SURE_AT_BOTH and r.suit is not None]
    return _median(sure) if sure else None


def _of_frame_size(cand, read: list[tuple]) -> bool:
    """True if ``cand``, a card hung at a size guessed (from a corner's edges, an index's glyph, the finder's ladder),
    may be of this frame's deck: within ``DECK_SPREAD`` of the size of the cards read surely at both corners so far
    (``_sure_short_side``: measured by their two indices), or any size while none is. One deck's cards lie within a
    camera's tilt of each other, as ``_one_deck`` keeps them by the whole cards read; where none is, a corner read
    surely gives the size (the ladder tries some 14 sizes a corner: speed frames, 79 -> 60 hypotheses read a frame
    with ``_far_index``'s sizes from the frame's, the cards read the same)."""
    frame = _sure_short_side(read)
    largest = INDEX_FROM_FRAME if cand.by_index else DECK_SPREAD[1]
    return frame is None or DECK_SPREAD[0] <= cand.short_side / frame <= largest


INDEX_FROM_FRAME = 1.5
"""A card hung on an index found by its ink alone (its size from its glyph's height, ``indices.GLYPH_TO_CARD``) is
looked for and read only up to this many times the frame's card size (``_of_frame_size``; in ``find_indices``, the
whole cards'), not a camera's whole tilt (``DECK_SPREAD``): a glyph over a pip hung larger is mostly a big pip over
another in a card's middle (speed frames: the index guesses read as cards lie within 1.31 of the frame's size, the 3-4 a
frame hung 1.37-1.67 times it read no card, a glyph read each; at 1.35 a held-out composite lost a queen's index read
surely at 1.35-1.5)."""


def _photo_short_side(read: list[tuple]) -> float | None:
    """The short side of this frame's cards as its corner reads give it (read: (reading, hypothesis)): the median of
    those read surely, a suit named, or None when fewer than ``PHOTO_SCALE_READS`` are (a fan's cards show one index
    each, so no card of a deal photo is read at both corners, and no whole card gives the deck's size)."""
    sure = [c.short_side for r, c in read if r.suit is not None and r.confidence >= SURE_AT_BOTH]
    return _median(sure) if len(sure) >= PHOTO_SCALE_READS else None


def _whole_short_side(quads: list, readings: list) -> float | None:
    """The short side of this frame's whole cards read surely at both corners (their median), or None."""
    sure = [_short_side(corners) for corners in _sure_whole(quads, readings)]
    return _median(sure) if sure else None


def _frame_short_side(read: list[tuple], whole_short: float | None) -> float | None:
    """The frame's card size (a short side) a card read at one corner is measured against: its corner reads'
    (``_photo_short_side``: several read surely), else its whole cards' (``whole_short``), else the cards read surely at
    both corners (``_sure_short_side``), or None."""
    for scale in (_photo_short_side(read), whole_short, _sure_short_side(read)):
        if scale is not None:
            return scale
    return None


def _at_photo_scale(read: list[tuple]) -> list[tuple]:
    """The corner reads of a size one deck's cards can have in this frame (``DECK_SPREAD`` of ``_photo_short_side``): a
    view hung 2-3 times too large on a fan's corner holds the index whole, and of the sizes that read at one corner
    the larger is believed (``_larger_on_same_corner``)."""
    scale = _photo_short_side(read)
    if scale is None:
        return read
    return [(r, c) for r, c in read if DECK_SPREAD[0] <= c.short_side / scale <= DECK_SPREAD[1]]


RESCALE_FROM = 0.1
"""A card read at one index corner, hung at a size guessed (from its glyph, a paper corner's edges, the finder's
ladder) this share or more off the frame's card size (``_photo_short_side``), is read again hung at that size
(``_hung_at_scale``)."""


def _hung_at_scale(image: np.ndarray, read: list[tuple], reader: Reader, scale: float | None,
                   trace: list[Hypothesis] | None = None, suited: bool = False, whole: list | None = None) -> list[tuple]:
    """``read`` (reading, hypothesis) with each card read at one corner off the frame's card size ``scale`` hung again at
    it on the same index corner, where it reads the same rank more surely there, or names the same card (rank and
    suit) at least as surely as an index found in parts is believed at that size (``PARTS_AT_SCALE``): two sizes
    agreeing, one of them the deck's, measure the card (bidly deals: a jack of diamonds hung 1.4 times too large
    from its glyph, a king of clubs from a paper corner's short edges). ``suited`` (a ``scale`` the whole cards give,
    not the corner reads themselves): the card hung again is believed only where it reads more surely, surely
    (``SURE_AT_BOTH``), and names a suit the first read did not contradict (an Edje photo's print hung at a whole
    card's size read a jack with no suit, 0.65; a composite's five read surely read again unsurely; a held-out webcam
    scene's two of clubs, 0.76, read again a two of diamonds, 0.76, on no card)."""
    if scale is None:
        return read
    aspect = _frame_aspect(read, whole) or CARD_ASPECT
    out = []
    for reading, cand in read:
        if not _two_agree(reading) and abs(cand.short_side / scale - 1.0) > RESCALE_FROM:
            corners = _at_size(cand.corners, scale)
            again = _read_traced(image, corners, reader, trace)
            surer = again.confidence > reading.confidence
            agreeing = _same_card(again, reading) and again.confidence >= PARTS_AT_SCALE[0]
            # at a size the whole cards give, only a sure read naming a suit none read before contradicts
            # (a held-out webcam scene: a two of clubs at 0.76 hung again read a two of diamonds at 0.76, no card)
            believed = (surer and again.suit is not None and again.confidence >= SURE_AT_BOTH
                        and reading.suit in (None, again.suit)) if suited else surer or agreeing
            if again.rank is reading.rank and believed:
                reading, cand = again, replace(cand, corners=corners, confirm=False)
        if not _two_agree(reading) and _off_shape(cand.corners, scale, aspect):
            reading, cand = _at_frame_shape(image, reading, cand, reader, scale, aspect, trace)
        out.append((reading, cand))
    return out


LONE_AT_SHAPE = 0.7
"""A card kept, read at one index corner at least this surely (a lone corner's cap, ``reader._ONE_CORNER_PENALTY``, on a
rank read at 0.88 or more) but not surely, is read again at the frame's card shape (``_surer_at_frame_shape``)."""


def _surer_at_frame_shape(image: np.ndarray, hidden: list[tuple], whole: list, whole_short: float | None, reader: Reader,
                          trace: list[Hypothesis] | None = None) -> list[tuple]:
    """``hidden`` (reading, hypothesis: the cards kept that were read at a corner), each card read at one index corner
    unsurely (``LONE_AT_SHAPE`` to ``SURE_AT_BOTH``), naming a suit, and hung off the frame's card shape (``_off_shape``:
    its short side, and its long side over its short, as the cards measured give them, ``_frame_aspect``), read again
    hung at that shape on the same index: where its index reads the same card (rank and suit) surely there (the lone
    index verifier's, ``reader.LONE_VERIFIED``), that reading is taken. Only how surely a card kept is read changes:
    where it lies, which cards are kept and the searches made from them are as before (done last for that: hung
    anew earlier, a fan's cards read surer led the searches beside them elsewhere, bidly deal 5 lost its queen of
    hearts). A size and shape guessed from an index's glyph or a paper corner's edges put the index where the
    verifier, built on cards hung at their size, doubts it (training composites: of 41 cards read right unsurely that
    read surely at their true corners, most hung 0.6-0.9 or 1.1-1.5 of their true long or short side)."""
    scale = _frame_short_side(hidden, whole_short)
    aspect = _frame_aspect(hidden, whole)
    if scale is None or aspect is None:
        return hidden
    out = []
    for reading, cand in hidden:
        if (LONE_AT_SHAPE <= reading.confidence < SURE_AT_BOTH and not _two_agree(reading) and reading.suit is not None
                and _off_shape(cand.corners, scale, aspect)):
            corners = _at_shape(cand.corners, scale, aspect)
            again = _read_traced(image, corners, reader, trace)
            if _same_card(again, reading) and again.confidence >= SURE_AT_BOTH:
                reading = replace(again, glyph=reading.glyph, corners_read=reading.corners_read, agree=reading.agree)
        out.append((reading, cand))
    return out


RESHAPE_FROM = 0.1
"""A card read at one index corner whose short side or long side (against its short) is this share or more off the
frame's card shape (``_frame_aspect``) is hung again at that shape on the same index corner (``_at_frame_shape``)."""


def _off_shape(corners: np.ndarray, short: float, aspect: float) -> bool:
    """True if ``corners`` are ``RESHAPE_FROM`` or more off the short side ``short`` or the long side over it ``aspect``."""
    return (abs(float(_length(corners[1] - corners[0])) / short - 1.0) > RESHAPE_FROM
            or abs(_aspect(corners) / aspect - 1.0) > RESHAPE_FROM)


def _at_frame_shape(image: np.ndarray, reading, cand, reader: Reader, short: float, aspect: float,
                    trace: list[Hypothesis] | None = None) -> tuple:
    """(reading, hypothesis): ``cand``, a card read at one index corner, hung again on that corner at the frame's card
    shape (the short side ``short``, the long ``aspect`` times it) where both its indices read its rank there, surely,
    naming a suit its first read did not contradict: its two indices agreeing at the deck's shape measure it. A corner's
    card is hung at a size and shape guessed (its glyph's height, a paper corner's edges), often squat or long
    (training composites: of 41 cards read right at one corner that read surely at their true corners, most were hung
    0.6-0.9 or 1.1-1.5 of the true long or short side); scaled as hung (``_hung_at_scale``), its far index still falls
    off the card's. Else ``(reading, cand)`` as they are."""
    corners = _at_shape(cand.corners, short, aspect)
    again = _read_traced(image, corners, reader, trace)
    if again.rank is not reading.rank or again.confidence < SURE_AT_BOTH or again.suit is None:
        return reading, cand
    if _two_agree(again) and reading.suit in (None, again.suit):
        return again, replace(cand, corners=corners, confirm=False)
    return reading, cand


def _aspect(corners: np.ndarray) -> float:
    """A card hypothesis's long side (its index corner down) over its short side (across)."""
    return float(_length(corners[3] - corners[0])) / max(1e-6, float(_length(corners[1] - corners[0])))


def _frame_aspect(read: list[tuple], whole: list | None) -> float | None:
    """The long side over the short of this frame's cards, as the cards measured give it: the median of the whole cards
    read surely at both corners (``whole``, their corners) and of the cards read surely at both index corners, or None
    when there are none."""
    shapes = [_long_side(c) / max(1e-6, _short_side(c)) for c in (whole or [])]
    shapes += [_aspect(c.corners) for r, c in read if _two_agree(r) and r.confidence >= SURE_AT_BOTH and r.suit is not None]
    return _median(shapes) if shapes else None


def _at_shape(corners: np.ndarray, short: float, aspect: float) -> np.ndarray:
    """``corners`` (index corner first) hung again on their index corner, along the same sides, at the short side
    ``short`` and the long side ``aspect`` times it: stretched along each side from the index corner, so a card's
    perspective stays (hung at its own shape, a card is hung as it was)."""
    origin = corners[0]
    across, down = corners[1] - origin, corners[3] - origin
    sides = np.column_stack([across, down]).astype(np.float64)
    if abs(float(np.linalg.det(sides))) < 1e-6:
        return corners
    stretch = np.diag([short / max(1e-6, float(_length(across))), short * aspect / max(1e-6, float(_length(down)))])
    to_shape = sides @ stretch @ np.linalg.inv(sides)
    return (origin + (corners - origin) @ to_shape.T).astype(np.float32)


INDEX_RESCALES = 6
"""At most this many cards a frame hung on an index found by its ink, that read a rank but not as an index, are read
again at the frame's card size (``_index_at_scale``), surest first."""


def _index_at_scale(image: np.ndarray, unsuited: list[tuple], reader: Reader, scale: float | None,
                    trace: list[Hypothesis] | None = None) -> list[tuple]:
    """The cards of ``unsuited`` (reading, hypothesis: hung on an index found by its ink, read a rank but no suit or
    not surely, ``_reads_as_index``) that read as an index, and the same rank, hung again on the same index corner at
    the frame's card size ``scale``, where they were hung at a size ``RESCALE_FROM`` or more off it: a size guessed
    from a glyph's height puts the suit pip outside where the reader looks for it (composites: a nine hung at twice
    its size, a jack and two kings at 1.2-1.3 times, their rank read and no suit). Kept only when read surely
    (``SURE_AT_BOTH``): a table's print read so gives 0.66-0.79 (training tables: 8 of 8 cards read so at 0.8 or more
    right, 6 of 11 below it on no card)."""
    if scale is None:
        return []
    out = []
    for reading, cand in sorted(unsuited, key=lambda rc: -rc[0].confidence)[:INDEX_RESCALES]:
        if abs(cand.short_side / scale - 1.0) <= RESCALE_FROM:
            continue
        corners = _at_size(cand.corners, scale)
        again = _read_traced(image, corners, reader, trace)
        if (again.rank is reading.rank and again.confidence >= SURE_AT_BOTH and _reads_as_index(again)
                and again.glyph is not None):
            # hung anew on its one index (a card spanned by two indices no longer is): the index is the part in view
            out.append((again, replace(cand, corners=corners, shown=_index_zone(again, corners), confirm=False,
                                       paired=False)))
    return out


def _holds(quad: CardQuad, point: np.ndarray) -> bool:
    """True if ``point`` lies inside the whole card ``quad``."""
    return cv2.pointPolygonTest(quad.corners.astype(np.float32), (float(point[0]), float(point[1])), False) >= 0


def _box_centre(box: tuple[int, int, int, int]) -> np.ndarray:
    x, y, w, h = box
    return np.array([x + w / 2, y + h / 2], np.float32)


def _long_side(corners: np.ndarray) -> float:
    e = _lengths(corners[[1, 2, 3, 0]] - corners)
    return float(max(e[0] + e[2], e[1] + e[3]) / 2)


def _short_side(corners: np.ndarray) -> float:
    e = _lengths(corners[[1, 2, 3, 0]] - corners)
    return float(min(e[0] + e[2], e[1] + e[3]) / 2)


OUTLINED_MIN_CONFIDENCE = 0.8
"""A whole card found only as a filled faint outline (``CardQuad.outlined``) is kept only if it reads at least this
surely (``books.SURE``) and names a suit; else it takes nothing away, and the corners and indices in its area are
looked for as if it were not there. Such a quad may fall short of a card (a fan's top card, short of its free
corner by 9 pixels, read 'five' with no suit at 0.53) or span several (bidly deal 2: 'king', no suit, 0.65, over the
king of clubs whose index reads 0.97)."""


def _found_card(quad: CardQuad, reading) -> bool:
    """True if a quad that is a card only if it reads as one (``CardQuad.verify``) does."""
    if quad.outlined:
        return reading.rank is not None and reading.suit is not None and reading.confidence >= OUTLINED_MIN_CONFIDENCE
    return _reads_as_card(reading)


def _reads_as_card(reading) -> bool:
    return reading.rank is not None and reading.confidence >= _PARTIAL_MIN_CONFIDENCE


def _partly_hidden(image: np.ndarray, partial: list, whole_short: float | None, reader: Reader,
                   trace: list[Hypothesis] | None = None, whole: list | None = None) -> list[tuple]:
    """Cards seen only by one index corner: read that corner; keep confident reads, one per card. ``whole_short``:
    the frame's card size as its whole cards give it (``_whole_short_side``), or None."""
    read = []
    unsuited = []  # cards hung on an index found by its ink that read a rank but not as an index (``_index_at_scale``)
    # cards spanned by their two indices first: read surely at both, they spare the other hypotheses on their index
    # and give the frame's card size (``_of_frame_size``); sizes only guessed (the finder's ladder) last
    for cand in sorted(partial, key=lambda c: (not c.paired, c.confirm)):
        if any(_two_agree(r) and _reads_as_card(r) and _same_index(cand, c) for r, c in read):
            continue  # an index already read surely from both corners of a hypothesis hung on it: the same card
        if not cand.paired and not _of_frame_size(cand, read):
            continue
        reading = _read_traced(image, cand.corners, reader, trace)
        if _reads_as_card(reading) and (not cand.by_index or _reads_as_index(reading)):
            read.append((reading, cand))
        elif cand.by_index and reading.rank is not None:
            unsuited.append((reading, cand))
    read = _measured_by_far_index(image, read, reader, trace)
    read = _at_photo_scale(read)
    photo = _photo_short_side(read)
    scale = _frame_short_side(read, whole_short)
    read = _hung_at_scale(image, read, reader, scale, trace, suited=photo is None, whole=whole)
    read += _index_at_scale(image, unsuited, reader, scale, trace)
    read = [(r, c) for r, c in read if not c.by_parts or _parts_sure(r, c, photo)]
    # a guessed size is right if the card's two indices agree at it, or if the next size guessed reads the same
    guessed = [(r, c) for r, c in read if c.confirm and not _two_agree(r)]
    measured = [c for _, c in read if not c.confirm]
    steady = {id(c) for r, c in guessed
              if any(o is not c and r2.rank is r.rank and _next_size(c, o) for r2, o in guessed)
              or any(_larger_on_same_corner(c, o) and c.short_side <= _GROWN * o.short_side for o in measured)}
    read = [(r, c) for r, c in read if not c.confirm or _two_agree(r) or id(c) in steady]
    read = [(r, c) for r, c in read if _two_agree(r) or not any(_larger_on_same_corner(other, c) for _, other in read)]
    read.sort(key=_surest_first)
    kept: list = []
    for reading, cand in read:
        # two index reads from ink apart in the frame are two cards whatever they read (``_other_ink``: a tight fan's
        # indices a fifth of a card apart, bidly deals; a book laid as a fan or a slid pile)
        if any(_on_far_index(reading, cand, seen, other)
               or not _other_ink(reading, cand, seen, other) and _one_card(reading, cand, seen, other)
               for seen, other in kept):
            continue
        kept.append((reading, cand))
    return kept


def _surest_first(read: tuple) -> tuple:
    """The order in which corner reads (reading, hypothesis) are kept, one per card: surest first, but a card hung on
    an index found by its pip alone (``CornerCandidate.by_pip``) after the sure reads of every other hypothesis, which it
    replaces none of however surely it reads (its square quad, turned by a faint glyph's specks, put a fan's next
    places off: a held-out fan's nine of hearts and nine of spades, found by the pattern of its first nines, were lost
    in the frame where the nine of diamonds read 0.986 by its pip instead of 0.967 by its paper corner)."""
    reading, cand = read
    return reading.confidence < SURE_AT_BOTH, cand.by_pip, -reading.confidence


def _on_far_index(reading, cand, seen, other) -> bool:
    """True if one of two corner hypotheses, read as the same rank naming no other suit, is hung on the far index of the
    other, a card read at both corners (its far corner lies where its far index reads): that index read again (Edje
    photos: a jack of hearts read at both corners, and again at its first index hung a little turned, as a jack naming
    no suit). A read naming another suit there is another card (held-out composites: a fan's two of diamonds where a two
    of hearts read at both corners had its far index, read on the diamond's index)."""
    for (a, a_read), (b, b_read) in (((cand, reading), (other, seen)), ((other, seen), (cand, reading))):
        if (_two_agree(b_read) and a_read.rank is b_read.rank and a_read.suit in (None, b_read.suit)
                and _same_index(a, _turned(b))):
            return True
    return False


BESIDE_SEEDS = 24
"""Cards read surely at one index corner whose index strip is searched for the indices beside it (``_indices_beside``),
surest first (a deal's four fans of 13 need several each: with 4, bidly's deal 7 lost its jack of spades; with 12,
deals 1, 4 and 5 a queen of hearts, a ten of diamonds and a queen of hearts; 52 finds no more than 24)."""
BESIDE_REACH = 1.0
"""... up to this share of the card's width either way along its top edge (a squared pile slid open shows its
cards' indices a fifth to a third of a width apart; four of them span about a width)."""
BESIDE_GLYPH = (0.3, 1.4)
"""Ink beside an index read may be another index's rank glyph, or its upper part (a pale red glyph comes apart in
blur), when it is this tall and no wider against the read glyph (the same deck: perspective and a fan's turn only)
and its top lies within ``BESIDE_TOP`` of the read glyph's height of that glyph's."""
BESIDE_TOP = 0.4
BESIDE_WITH_PIP = 2.2
"""... or up to this tall where the suit pip below it has run into it (bidly's deal 7: a jack's hook touching its
heart)."""
BESIDE_TURN = math.radians(50)
"""A card read beside another is one of its fan or pile when it lies within this turn of it (``_fan_turn``: a fan of
four at 15 degrees a card spans 45)."""
BESIDE_TURN_FROM = 0.15
"""... and lies at least this share of a width along the strip from it (nearer, a corner misplaced by a few pixels
would give a turn many times too large)."""
BESIDE_NUDGES = (0.04, 0.08)
"""Where a card found beside another does not read surely, it is read again moved this share of a width towards its
glyph (no further than the glyph: ``_indices_beside``)."""
BESIDE_MIN_CONFIDENCE = 0.7
"""A card found beside another is kept when it reads at least this surely, a suit named: it lies at the size and the
way round of a card read surely beside it, where a fan's or a pile's next index lies (bidly deals: a jack of spades
and a king and a queen of hearts by their pictures' frames, an ace of hearts in a hand's shadow, read 0.71-0.77, each
right). Below ``books.SURE`` it names a card and counts for no book."""
BESIDE_TRIED = 0.05
"""Two slid quads whose index corners lie closer than this share of a short side are read once (the reader's own
leeway: an index read at a corner a twentieth of a width off still reads)."""
BESIDE_DIGITS = 0.85
"""Ink whose left edge lies less than this share of a glyph's height right of another's is that glyph's second
digit (a ten's nought: its digits' centres lie 0.5-0.65 of a height apart), not an index of its own ..."""
BESIDE_ONE = 0.4
"""... when the ink before it is no wider than this share of a glyph's height (a ten's one: in a tight fan the next
card's index lies 0.7 of a height from a three)."""
BESIDE_INK = (14.0, 0.22)
"""A pixel in the index strip is ink when its darkest channel (black and red print alike) is this much darker than
the paper round it (``_beside``): the larger of a level difference and a share of that level (``indices``' ink contrast)."""


BESIDE_LONE_TURNS = tuple(math.radians(d) for d in (-12, 12))
"""A card read surely at both its indices with no card read in its index strip (a fan's top card: the others' pale
indices, turned against it, found by nothing) is looked beside turned by each of these about its index corner, the
strip before it along its top edge turned back, the one after it on (a fan on the table turns each card by 8-20
degrees; the books bench's fan of fours turned 12.5 is found from -8 to -16): the next card's glyph lies level with its
own there, ``BESIDE_LONE_TOP`` of a glyph's height at most off its top ..."""
BESIDE_LONE_TOP = 1.0
BESIDE_LONE_INK = (8.0, 0.1)
"""... and is ink at this lower contrast (``BESIDE_INK``: a pale red four in overexposed light was not)."""
BESIDE_LONE_SEEDS = 1
"""At most this many such cards a frame, surest first (time: a book's fan or pile has one top card; the speed set's HD
frames have 2-3 cards read so)."""
BESIDE_LONE_PAPER = ((0.04, 0.14), (0.15, 0.35))
"""... looked beside only where the patch this far beyond either side edge (a share of its width) and this far down
its height is card paper (as light as ``PATTERN_PAPER`` asks of a pattern's place against its middle): a fan's or a
slid pile's next card lies there, the table beside a card laid alone."""


def _paper_beside(image: np.ndarray, corners: np.ndarray) -> tuple[bool, bool]:
    """Whether card paper lies just beyond the side edge of the card with ``corners`` before its index corner (against
    its top edge's way) and beyond the side edge after it (``BESIDE_LONE_PAPER``)."""
    (out_from, out_to), (down_from, down_to) = BESIDE_LONE_PAPER
    across, down = corners[1] - corners[0], corners[3] - corners[0]
    height, width = image.shape[:2]

    def level(us: tuple[float, float], vs: tuple[float, float]) -> float:
        points = np.array([corners[0] + u * across + v * down for u in us for v in vs])
        x0, y0 = np.floor(points.min(axis=0)).astype(int)
        x1, y1 = np.ceil(points.max(axis=0)).astype(int)
        patch = image[max(0, y0):min(height, y1 + 1), max(0, x0):min(width, x1 + 1)]
        return float(np.median(patch.min(axis=2))) if patch.size else 0.0

    paper = PATTERN_PAPER[1] * level((0.3, 0.7), (0.35, 0.65))
    return tuple(level(us, (down_from, down_to)) >= paper for us in ((-out_to, -out_from), (1 + out_from, 1 + out_to)))


BESIDE_LONE_ALIKE = 0.5
"""... and a place found so is read only where its glyph looks like the card's own (normalised correlation of their
darkest channels): a book's cards share a rank."""


def _glyph_likeness(image: np.ndarray, glyph: tuple, at: np.ndarray, corners: np.ndarray) -> float:
    """Normalised correlation between the glyph box ``glyph`` (view pixels) of the card view of ``at`` and of
    ``corners``."""
    gx, gy, gw, gh = glyph
    pad = 2
    size = (int(gw) + 2 * pad, int(gh) + 2 * pad)
    shift = np.array([[1, 0, pad - gx], [0, 1, pad - gy], [0, 0, 1]], np.float64)
    views = [cv2.warpPerspective(image, shift @ cv2.getPerspectiveTransform(c.astype(np.float32), VIEW_CORNERS), size,
                                 flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).min(axis=2).astype(np.float32)
             for c in (at, corners)]
    if views[0].std() < 1e-3 or views[1].std() < 1e-3:
        return 0.0
    return float(cv2.matchTemplate(views[1], views[0], cv2.TM_CCOEFF_NORMED)[0, 0])


def _turned_about(corners: np.ndarray, pivot: np.ndarray, angle: float) -> np.ndarray:
    """``corners`` turned by ``angle`` radians about ``pivot`` (in the frame)."""
    spin = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]], np.float32)
    return ((corners - pivot) @ spin.T + pivot).astype(np.float32)


def _indices_beside(image: np.ndarray, hidden: list[tuple], reader: Reader,
                    trace: list[Hypothesis] | None = None) -> list[tuple]:
    """``hidden`` (corner reads: (reading, hypothesis)) with the cards of a squared pile or a fan whose indices show
    beside one read surely and that no hypothesis read surely: a pile slid open shows each card's index in a strip a
    fifth of a card wide, where the finder sees no corner and the index finder's glyph and pip run into the next
    card's print.

    Each such card lies the way the one read lies and is printed alike, so the ink along the read card's index strip
    (its top edge, ``BESIDE_REACH`` either way; at both its indices where both were read) is looked at in that card's
    own view: each glyph as tall as the read one, its top level with it, may be a card's index, and the read card's
    quad slid along its top edge by as much as that glyph lies from the read one's is that card, read at its index
    corner. Kept when it reads an index (its suit too) surely and is not a card already read (``_one_card``, and
    ``_once_by_index`` after); an unsure read of the same card there gives way to it. A card read surely at both its
    indices that no other lies in the strip of (a fan's top card) is looked beside too, turned (``BESIDE_LONE_TURNS``),
    and only ink whose glyph looks like its own is read (``BESIDE_LONE_ALIKE``)."""
    # a card of a pile or a fan has another's index beside its own along its index strip (either card hung at
    # either of its index corners)
    beside = {id(x) for c in (c for _, c in hidden) for o in (o for _, o in hidden)
              if o is not c and any(_in_strip(p, c.corners, turned) for p in (o.corners[0], o.corners[2]) for turned in (False, True))
              and _overlap_share(c, o) >= BESIDE_OVERLAP for x in (c, o)}
    in_strip = [(r, c) for r, c in hidden if id(c) in beside]
    seeds = [(r, c) for r, c in sorted(in_strip, key=lambda rc: -rc[0].confidence)
             if r.suit is not None and r.confidence >= SURE_AT_BOTH][:BESIDE_SEEDS]
    # and a card read surely at both its indices alone, card paper beyond its side by its index: the top card of a
    # fan or a pile whose others' indices nothing found
    # (the paper looked at last, for the surest only until one has it: its medians are the costly part)
    paper_sides: dict[int, tuple[bool, bool]] = {}
    lone_seeds = ((r, c) for r, c in sorted(hidden, key=lambda rc: -rc[0].confidence)
                  if id(c) not in beside and _two_agree(r) and r.suit is not None and r.confidence >= SURE_AT_BOTH
                  and any(paper_sides.setdefault(id(c), _paper_beside(image, c.corners))))
    seeds += list(itertools.islice(lone_seeds, BESIDE_LONE_SEEDS))
    hidden = list(hidden)
    tried: list[np.ndarray] = []
    for seed, cand in seeds:
        strips = []  # (the index read, its quad): the index corner hung on, and the far one where it was read too
        lone = id(cand) not in beside
        for corners in [cand.corners] + ([cand.corners[[2, 3, 0, 1]]] if _two_agree(seed) and not lone else []):
            first = seed if corners is cand.corners and seed.glyph is not None else _read_corners(image, corners, reader)
            if first.rank is seed.rank and first.glyph is not None:
                strips.append((first, corners, BESIDE_TOP, BESIDE_INK, 0))
        if lone:  # the cards of its fan are turned against it by a step no card read gives; its index corner's only
            # a fan's cards before its top card along the top edge are turned back, those after it on
            strips = [(first, _turned_about(at, at[0], turn), BESIDE_LONE_TOP, BESIDE_LONE_INK, 1 if turn > 0 else -1)
                      for first, at, _, _, _ in strips[:1] for turn in BESIDE_LONE_TURNS
                      if paper_sides[id(cand)][turn > 0]]  # only a side with card paper beyond it
        for corners, seed_inset, first in [(c, first.glyph[0], first) for first, at, level, contrast, side in strips
                                           for c in _beside(image, first, at, _fan_turn(at, hidden), level, contrast, side)]:
            if lone and _glyph_likeness(image, first.glyph, cand.corners, corners) < BESIDE_LONE_ALIKE:
                continue  # no glyph of its rank there: a book's card would be
            short = cand.short_side
            if any(_length(corners[0] - t) < BESIDE_TRIED * short for t in tried):
                continue
            there = [(r, c) for r, c in hidden if _length(corners[0] - c.corners[0]) < _OWN_INDEX * min(short, c.short_side)]
            if any(r.confidence >= SURE_AT_BOTH for r, _ in there):
                continue  # a card read surely there already
            tried.append(corners[0])
            reading = _read_traced(image, corners, reader, trace)
            across = (corners[1] - corners[0]) / VIEW_W  # a view pixel along the top edge, in the frame
            best = (reading, corners)
            for nudge in BESIDE_NUDGES:
                if lone or best[0].suit is not None and best[0].confidence >= SURE_AT_BOTH or nudge * VIEW_W > seed_inset - 2:
                    break
                # the card's edge nearer its glyph than the card read beside it has its: the print of the card under
                # it (a pip cut by its edge) lay in the view left of its glyph
                corners = (corners + nudge * VIEW_W * across).astype(np.float32)
                again = _read_traced(image, corners, reader, trace)
                if again.suit is not None and (best[0].suit is None or again.confidence > best[0].confidence):
                    best = (again, corners)  # the surest of the places read
            reading, corners = best
            if reading.suit is None or reading.confidence < BESIDE_MIN_CONFIDENCE or reading.glyph is None:
                continue
            other = replace(cand, corners=corners, shown=_index_zone(reading, corners), under=-1, confirm=False,
                            paired=False, by_index=True, by_parts=False)
            # an unsure read of the same card there gives way to this surer one
            rest = [(r, c) for r, c in hidden if not any(c is c2 and _same_card(r, reading) for _, c2 in there)]
            if any(not _other_ink(reading, other, seen, c) and _one_card(reading, other, seen, c) for seen, c in rest):
                continue
            if reading.confidence < SURE_AT_BOTH and any(_glyph_on_glyph(reading, other, seen, c) for seen, c in rest):
                continue  # an index read already, read again less surely with another suit (hung across a fan's turn)
            hidden = rest + [(reading, other)]
    return hidden


PATTERN_READS = 12
"""At most this many reads a frame of the places where the rest of a book's pattern must lie (``_rest_of_pattern``)."""
PATTERN_UNREAD = 2
"""Of the places of a book's last card (three of its rank read) that read no rank where they lie, this many a frame
(the likeliest) are read again moved by ``PATTERN_NUDGES``, on reads of their own once the places are read
(``PATTERN_READS``): a place a tenth of a card off its index reads nothing there (a held-out full-HD row: the fourth
king's place, 0.09 of a width off). Where two are read, a pattern's places are many guesses (one to three steps
apart) and moved about found no card in the held-out book scenes: 8 reads a frame for nothing (HD speed frames, each
with a row of two)."""
BOOK_CARDS = 4
"""A book is four cards of a rank: no place of its pattern is read once four suits are."""


def _rest_of_pattern(image: np.ndarray, whole: list[tuple], hidden: list[tuple], reader: Reader,
                     trace: list[Hypothesis] | None = None) -> list[tuple]:
    """``hidden`` (corner reads: (reading, hypothesis)) with the cards of a book's pattern that no hypothesis read: where
    two or three cards of a rank read surely (``whole``, (reading, corners), and ``hidden``), each naming its own suit,
    lie as a row, a fan, a slid pile or a square lies, the places the others must lie (``layout.pattern_places``) are
    read at the read cards' size and way round, and moved where they read the rank unsurely: to the glyph read there,
    then a little about (``_read_near``);
    where three are read, the likeliest that read no rank at all are read moved too (``PATTERN_UNREAD``). A card read
    there is kept when it reads the rank surely (``SURE_AT_BOTH``) naming a suit none of them names; an unsure read
    of its rank there gives way to it (``_taken_at``)."""
    sure = [(r, c.corners, True) for r, c in hidden] + [(r, corners, False) for r, corners in whole]
    sure = [(r, corners, corner) for r, corners, corner in sure
            if r.rank is not None and r.suit is not None and r.confidence >= SURE_AT_BOTH]
    frame = _pattern_short_side(sure)
    sure = [(r, _at_size(corners, frame) if corner else corners, corner) for r, corners, corner in sure]
    ranks: dict = {}
    for r, corners, corner in sure:
        ranks.setdefault(r.rank, []).append((r, corners, corner))
    height, width = image.shape[:2]
    left, unread_left = PATTERN_READS, PATTERN_UNREAD
    hidden = list(hidden)
    for rank, cards in sorted(ranks.items(), key=lambda kv: -len(kv[1])):
        suits = {r.suit for r, _, _ in cards}
        if len(suits) < len(cards):
            continue  # a card read twice, or a suit misread: no pattern to go by
        # a card read at its index corner first: its corners start at the index that shows
        cards = sorted(cards, key=lambda c: not c[2])
        read = [corners for _, corners, _ in cards]
        glyphs = [r.glyph for r, _, corner in cards if corner and r.glyph is not None]
        own = tuple(np.median(np.array(glyphs, np.float32), axis=0)) if glyphs else None
        whole_only = not any(corner for _, _, corner in cards)
        taken = [corners for _, corners, _ in sure]
        unread = []  # places that read no rank where they lie
        for place in pattern_places(read, both=[_two_agree(r) for r, _, _ in cards]):
            if left <= 0:
                break
            x, y = place[0]
            if not (0 <= x < width and 0 <= y < height):
                continue
            if any(lies_at(place, corners) for corners in taken):
                continue  # a card read surely there
            if not _paper_like(image, place, read[0]):
                continue  # the table, not a card
            reading, corners, used = _read_near(image, place, reader, left, whole_only, trace, own=own)
            left -= used
            if reading.rank is None and used == 1:
                unread.append(place)
            hidden = _taken_at(rank, suits, reading, corners, hidden, taken)
        for place in unread if len(cards) == BOOK_CARDS - 1 else []:  # the likeliest of them moved about
            if unread_left <= 0 or len(suits) >= BOOK_CARDS:
                break
            if any(lies_at(place, corners) for corners in taken):
                continue  # a card found there since
            unread_left -= 1
            reading, corners, _ = _read_near(image, place, reader, len(PATTERN_NUDGES), False, trace, moved_only=True)
            hidden = _taken_at(rank, suits, reading, corners, hidden, taken)
    return hidden


def _taken_at(rank, suits: set, reading, place: np.ndarray, hidden: list[tuple], taken: list) -> list[tuple]:
    """``hidden`` with the card ``reading`` read at a pattern's ``place`` in it, where it reads ``rank`` surely
    (``SURE_AT_BOTH``) naming a suit none of ``suits`` names (then added to ``suits``, and its place to ``taken``); an
    unsure read of its rank there gives way to it."""
    if (reading.rank is not rank or reading.suit is None or reading.suit in suits
            or reading.confidence < SURE_AT_BOTH or reading.glyph is None):
        return hidden
    suits.add(reading.suit)
    taken.append(place)
    short = _length(place[1] - place[0])
    cand = CornerCandidate(corners=place, shown=_index_zone(reading, place), by_index=True)
    hidden = [(r, c) for r, c in hidden if not (r.rank is rank and r.confidence < reading.confidence
                                                and _length(c.corners[0] - place[0]) < LAYOUT_FREE * short)]
    return hidden + [(reading, cand)]


def _pattern_short_side(sure: list[tuple]) -> float | None:
    """The frame's card size for a book's pattern (``sure``: (reading, corners, read at a corner)): the median short
    side of the cards read surely at both corners (a whole card's outline, or both indices of a card hung on one), or
    None when none is. A card read at one index corner only is hung at a size guessed from its glyph or a paper
    corner's edges, a tenth too large as often as not (books bench: median 1.10 of the truth, 29 of 80 more than 12%
    off); hung at this size, 14 are (and of the cards read at both corners, whose far index may be the next card's of
    the same rank in a fan or a pile, 16 of 110 -> 11): two cards hung at sizes 15% apart make no pattern."""
    sizes = [_length(corners[1] - corners[0]) for r, corners, _ in sure if _two_agree(r)]
    return _median(sizes) if sizes else None


def _at_size(corners: np.ndarray, short: float | None) -> np.ndarray:
    """``corners`` (index corner first) scaled about their index corner to the short side ``short`` (None: as they are)."""
    if short is None:
        return corners
    origin = corners[0]
    return (origin + (corners - origin) * (short / max(1e-6, float(_length(corners[1] - origin))))).astype(np.float32)


PATTERN_PAPER = (0.3, 0.8)
"""A place of a pattern is read only where its middle (this share of a short side square) is as light as the middle of
a card read, at this share of its level or more (medians: a pip or two do not count): where it lies on a card, the
card itself or the one over it in a fan or a pile, and not on a darker table (a row of two laid in the pairs game
has none beside it; on a pale table the places are read all the same)."""


def _paper_like(image: np.ndarray, place: np.ndarray, card: np.ndarray) -> bool:
    """True if the middle of ``place`` is nearly as light as the middle of the card read at ``card`` (``PATTERN_PAPER``)."""
    share, level = PATTERN_PAPER
    height, width = image.shape[:2]

    def middle(corners: np.ndarray) -> float:
        cx, cy = corners.mean(axis=0)
        half = max(1, int(share * _length(corners[1] - corners[0]) / 2))
        x0, y0 = max(0, int(cx) - half), max(0, int(cy) - half)
        patch = image[y0:min(height, int(cy) + half), x0:min(width, int(cx) + half)]
        return float(np.median(patch.min(axis=2))) if patch.size else 0.0

    return middle(place) >= level * middle(card)


PATTERN_NUDGES = ((0.0, 0.0), (-0.06, 0.0), (0.06, 0.0), (0.0, -0.06), (0.0, 0.06))
"""Where a pattern's place does not read surely, it is read again moved by these shares of its width along its top
edge and down its side: two or three cards' corners, each hung on its index to a few pixels, put the next a little
off, more so three steps on and round a fan's turn (the reader's own leeway is about 0.05)."""


PATTERN_SNAP = 0.3
"""Where a pattern's place reads a rank unsurely, it is read again moved so that the rank glyph it reads lies where the
read cards' glyphs lie in their views (their index corners as read: two or three cards' corners put the next a tenth
of a card off, which the reader's leeway of about 0.05 does not cover), when that is no more than this share of its
short side away."""


PATTERN_SNAP_GLYPH = (0.7, 1.4)
"""... and only to a glyph whose width and height are within these shares of the read cards' glyph's."""


def _snapped(place: np.ndarray, glyph: tuple, own: tuple) -> np.ndarray | None:
    """``place`` moved so that the glyph read in its view at ``glyph`` (x, y, w, h in view pixels) lies at ``own``
    (the read cards' glyph), or None when that is further than ``PATTERN_SNAP`` or the glyph is not one of theirs
    (``PATTERN_SNAP_GLYPH``: a pip's part, a court picture's)."""
    low, high = PATTERN_SNAP_GLYPH
    if not all(low <= seen / max(1.0, mine) <= high for seen, mine in ((glyph[2], own[2]), (glyph[3], own[3]))):
        return None
    to_frame = cv2.getPerspectiveTransform(VIEW_CORNERS, place.astype(np.float32))
    points = np.array([[[glyph[0] + glyph[2] / 2, glyph[1] + glyph[3] / 2]], [[own[0] + own[2] / 2, own[1] + own[3] / 2]]],
                      np.float32)
    seen, wanted = cv2.perspectiveTransform(points, to_frame)[:, 0]
    shift = seen - wanted
    if _length(shift) > PATTERN_SNAP * _length(place[1] - place[0]):
        return None
    return (place + shift).astype(np.float32)


def _read_near(image: np.ndarray, place: np.ndarray, reader: Reader, left: int, either_way: bool,
               trace: list[Hypothesis] | None = None, moved_only: bool = False, own: tuple | None = None) -> tuple:
    """(reading, corners, reads made): the surest read naming a suit of ``place`` moved by ``PATTERN_NUDGES``, up to
    ``left`` reads, stopping at a sure one, and moved only where the place itself reads a rank, even unsurely (an index
    lies there, a little off: where no rank is read, mostly no index lies). Where the place itself reads no rank and
    the pattern is of whole cards (``either_way``: a whole card's outline starts at either index corner), the card
    turned half round is read too. ``moved_only``: a place read already that read no rank, read moved only. ``own``:
    the read cards' rank glyph (x, y, w, h in their views); where the place itself reads a rank unsurely, it is read
    next moved to the glyph read there (``_snapped``)."""
    across, down = place[1] - place[0], place[3] - place[0]
    best, used = None, 0
    for k, (u, v) in enumerate(PATTERN_NUDGES[1:] if moved_only else PATTERN_NUDGES):
        if used >= left:
            break
        corners = (place + u * across + v * down).astype(np.float32)
        reading = _read_corners(image, corners, reader)
        used += 1
        if k == 0 and not moved_only and either_way and reading.rank is None and used < left:
            turned = corners[[2, 3, 0, 1]]
            again = _read_corners(image, turned, reader)
            used += 1
            if again.rank is not None:
                reading, corners, place = again, turned, turned
                across, down = place[1] - place[0], place[3] - place[0]
        if trace is not None:
            trace.append(Hypothesis(corners, "corner", reading))
        if best is None or (reading.suit is not None and (best[0].suit is None or reading.confidence > best[0].confidence)):
            best = (reading, corners)
        if best[0].suit is not None and best[0].confidence >= SURE_AT_BOTH:
            break
        if k == 0 and not moved_only and reading.rank is None:
            break
        if k == 0 and own is not None and reading.glyph is not None and used < left:
            # the glyph read there says where the card's index corner is
            snapped = _snapped(corners, reading.glyph, own)
            if snapped is not None:
                again = _read_traced(image, snapped, reader, trace)
                used += 1
                if again.suit is not None and (best[0].suit is None or again.confidence > best[0].confidence):
                    best = (again, snapped)
                if best[0].suit is not None and best[0].confidence >= SURE_AT_BOTH:
                    break
    return best[0], best[1], used


def _glyph_on_glyph(reading, cand, seen, other) -> bool:
    """True if the rank glyph ``cand`` was read at lies on the one ``other`` was read at (less than ``GLYPHS_APART`` of
    the larger's height apart in the frame): one index read twice."""
    a, b = _glyph_in_frame(reading, cand), _glyph_in_frame(seen, other)
    return a is not None and b is not None and float(_length(a[0] - b[0])) < GLYPHS_APART * max(a[1], b[1])


BESIDE_STRIP = ((0.05, 1.0), (-0.3, 0.3))
"""Where another card's index corner lies beside a card's in a slid pile or a fan: this far either way along its top
edge (a share of its width) and down its height from its index corner (its index strip) ..."""
BESIDE_OVERLAP = 0.1
"""... and the two cards overlapping by this share of the smaller at least (a card laid touching it in a row has its
index corner in that strip too, but lies beside it, not on it)."""


def _overlap_share(a, b) -> float:
    """The share of the smaller of two card hypotheses that the other covers."""
    inter, _ = cv2.intersectConvexConvex(a.corners.astype(np.float32), b.corners.astype(np.float32))
    smaller = min(abs(cv2.contourArea(a.corners.astype(np.float32))), abs(cv2.contourArea(b.corners.astype(np.float32))))
    return float(inter) / max(1.0, smaller)


def _in_strip(point: np.ndarray, corners: np.ndarray, turned: bool = False) -> bool:
    """True if ``point`` lies in the index strip (``BESIDE_STRIP``) of the card with ``corners`` (index corner first),
    or in its far index's where ``turned``."""
    u, v = _along_and_down(point, corners[[2, 3, 0, 1]] if turned else corners)
    return BESIDE_STRIP[0][0] <= abs(u) <= BESIDE_STRIP[0][1] and BESIDE_STRIP[1][0] <= v <= BESIDE_STRIP[1][1]


def _along_and_down(point: np.ndarray, corners: np.ndarray) -> tuple[float, float]:
    """Where ``point`` lies against the card with ``corners`` (index corner first): how far along its top edge and
    down its height from its index corner, as shares of its width and height (u, v)."""
    across, down = corners[1] - corners[0], corners[3] - corners[0]
    offset = point - corners[0]
    return (float(offset @ across) / max(1e-6, float(across @ across)),
            float(offset @ down) / max(1e-6, float(down @ down)))


def _index_zone(reading, corners: np.ndarray) -> tuple[int, int, int, int]:
    """The box (x, y, w, h) in the frame of the index a card hypothesis was read at: its rank glyph and the suit pip
    below it (a glyph's height again and a little), as ``indices`` gives the part of a card found by its index."""
    gx, gy, gw, gh = reading.glyph
    target = VIEW_CORNERS
    from_view = cv2.getPerspectiveTransform(target, corners.astype(np.float32))
    zone = np.float32([[gx, gy], [gx + gw, gy], [gx + gw, gy + 2.2 * gh], [gx, gy + 2.2 * gh]])
    x, y, w, h = cv2.boundingRect(cv2.perspectiveTransform(zone[None], from_view)[0])
    return int(x), int(y), int(w), int(h)


def _fan_turn(at: np.ndarray, hidden: list[tuple]) -> float:
    """How far (radians, in the frame) the cards beside the card ``at`` (corners, index corner first) are turned against
    it per view pixel along its index strip: the median over the cards read whose index corner lies along that strip
    (as far as the strip searched and a card's width beyond, where the card at the fan's far end lies) lying within
    ``BESIDE_TURN`` of its way. A fan's cards are turned about a pivot below them by
    the same step each, so the turn grows with the distance along the strip; a slid pile's hardly turn."""
    m = VIEW_MARGIN
    width = VIEW_W - 1 - 2 * m
    across = at[1] - at[0]
    heading = math.atan2(float(across[1]), float(across[0]))
    rates = []
    for r, o in hidden:
        ends = [(o.corners[0], o.corners[1] - o.corners[0])]
        if _two_agree(r):  # its far corner measured where its far index reads
            ends.append((o.corners[2], o.corners[3] - o.corners[2]))
        for corner, other in ends:
            u, v = _along_and_down(corner, at)
            if not (BESIDE_TURN_FROM <= abs(u) <= 1 + BESIDE_REACH and BESIDE_STRIP[1][0] <= v <= BESIDE_STRIP[1][1]):
                continue
            turn = (math.atan2(float(other[1]), float(other[0])) - heading + math.pi) % (2 * math.pi) - math.pi
            if abs(turn) <= BESIDE_TURN:
                rates.append(turn / (u * width))
    return float(np.median(rates)) if rates else 0.0


BESIDE_LINE = 1.3
"""Ink running straight this many glyph heights or more, near the strip's length or across it (``BESIDE_LINE_TURNS``),
is a line, not print: a court picture's frame that a queen's or a jack's glyph touches, a card's side. It is taken out
before the glyphs are looked for (a glyph joined to it was as tall as the frame and looked for no more)."""
BESIDE_LINE_TURNS = tuple(math.radians(d) for d in (-20, -10, 0, 10, 20))


def _lines(ink: np.ndarray, length: float) -> np.ndarray:
    """The pixels of ``ink`` (0/1) on straight runs at least ``length`` long across or along it, within
    ``BESIDE_LINE_TURNS``, grown by a pixel (the glyph pixels that touch a line go with it)."""
    reach = max(3, int(round(length)))
    lines = np.zeros_like(ink)
    for base in (0.0, math.pi / 2):
        for turn in BESIDE_LINE_TURNS:
            kernel = np.zeros((reach, reach), np.uint8)
            dx, dy = math.cos(base + turn) * (reach - 1) / 2, math.sin(base + turn) * (reach - 1) / 2
            centre = (reach - 1) / 2
            cv2.line(kernel, (int(round(centre - dx)), int(round(centre - dy))),
                     (int(round(centre + dx)), int(round(centre + dy))), 1, 1)
            lines |= cv2.morphologyEx(ink, cv2.MORPH_OPEN, kernel)
    return cv2.dilate(lines, np.ones((3, 3), np.uint8))


BESIDE_SIDE_KEEP = 3.0
"""Where ``_beside`` looks at one side of a card alone, its strip runs this many glyph heights past the read glyph on
the other (the read glyph whole, and the paper round it for the closing that finds ink)."""


def _beside(image: np.ndarray, seed, at: np.ndarray, turn: float = 0.0, level: float = BESIDE_TOP,
            contrast: tuple[float, float] = BESIDE_INK, side: int = 0) -> list[np.ndarray]:
    """Quads of the cards whose index glyphs lie beside ``seed``'s (read at the index corner of the quad ``at``) along
    its card's top edge (``_indices_beside``), nearest first; each turned about its index corner by ``turn`` radians
    a view pixel it lies along the strip (``_fan_turn``). ``side``: -1 or 1, only the strip before or after the card
    along its top edge is looked at (0: both); ``level`` and ``contrast``: ``BESIDE_TOP`` and ``BESIDE_INK``."""
    gx, gy, gw, gh = seed.glyph
    m = VIEW_MARGIN
    width = VIEW_W - 1 - 2 * m
    target = VIEW_CORNERS
    to_view = cv2.getPerspectiveTransform(at.astype(np.float32), target)
    reach = int(BESIDE_REACH * width)
    # the strip's view columns: one side looked at alone stops this many glyph heights past the read glyph (the card's
    # own print beyond it is no card beside it)
    keep = int(BESIDE_SIDE_KEEP * gh)
    start = -reach if side <= 0 else max(0, int(gx) - keep)
    end = VIEW_W + reach if side >= 0 else min(VIEW_W, int(gx + gw) + keep)
    before = -start
    top, bottom = int(gy - gh), int(gy + 2 * gh)
    shift = np.array([[1, 0, before], [0, 1, -top], [0, 0, 1]], np.float64)
    strip = cv2.warpPerspective(image, shift @ to_view, (end - start, bottom - top), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    looked = side
    dark = strip.min(axis=2)
    side = 2 * int(gh) + 1
    # the paper round a glyph: the lightest a glyph's height and more round it, the darkest of those a glyph's height
    # and more round (a closing: a hard shadow's edge stays where it is, and the paper in the shadow is not all ink)
    paper = cv2.morphologyEx(dark, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (side, side))).astype(np.float32)
    ink = (dark < paper - np.maximum(contrast[0], contrast[1] * paper)).astype(np.uint8)
    ink[_lines(ink, BESIDE_LINE * gh) > 0] = 0
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink, 8, cv2.CV_32S)
    glyph_top = gy - top
    lefts = sorted((int(x), int(y) - glyph_top, int(w)) for x, y, w, h, _ in stats[1:]
                   if BESIDE_GLYPH[0] * gh <= h <= BESIDE_WITH_PIP * gh and w <= BESIDE_GLYPH[1] * gh
                   and abs(y - glyph_top) <= level * gh)
    starts: list[tuple[int, int]] = []
    one_wide = 0
    for x, lower, w in lefts:
        if starts and x - starts[-1][0] < BESIDE_DIGITS * gh and one_wide <= BESIDE_ONE * gh:
            continue  # the second digit of a ten
        starts.append((x, lower))
        one_wide = w
    from_view = np.linalg.inv(to_view)
    out = []
    for x, lower in sorted(starts, key=lambda s: abs(s[0] - before - gx)):
        moved = x - before - gx  # view pixels along the top edge from the read glyph to this one
        if abs(moved) < BESIDE_DIGITS * gh or moved * looked < 0:
            continue  # the read glyph itself, or ink on the side not looked at
        moved_view = np.vstack([target, [[gx + moved, gy + lower]]]).astype(np.float32) + np.float32([moved, lower])
        moved_view[4] = (gx + moved, gy + lower)  # the glyph found: the card is turned about it, where its ink is
        points = cv2.perspectiveTransform(moved_view[None], from_view)[0]
        corners, glyph_at = points[:4], points[4]
        angle = turn * moved
        if angle:
            spin = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]], np.float32)
            corners = (corners - glyph_at) @ spin.T + glyph_at
        out.append(corners.astype(np.float32))
    return out


def _one_card(reading, cand, seen, other) -> bool:
    """True if two corner hypotheses read ``reading`` and ``seen`` are one card: hung on one index, or hypothesised
    from its other corner (it reads the same, or each index corner lies on the other) or at another size.

    Two cards of a tight fan have close centres but read apart. Two of one rank in a squared pile or a fan (a book
    laid as people lay it) have close centres and read alike, but a deck holds each card once: where each shows its
    own index (neither hung on the other's index, nor on its far corner) and their suits read apart, they are two.
    """
    if _same_index(cand, other) and not _apart_in_pile(reading, cand, seen, other):
        return True
    close = _length(cand.corners.mean(axis=0) - other.corners.mean(axis=0)) < 0.4 * min(cand.short_side,
                                                                                                other.short_side)
    crossed = _on(cand.corners[0], other) and _on(other.corners[0], cand)
    if close and (crossed or (seen.rank is reading.rank and not _own_indices(reading, cand, seen, other))):
        return True
    return _same_card(seen, reading) and (_on(cand.corners[0], other) or _on(other.corners[0], cand))


_OWN_INDEX = 0.15
"""Two indices of a squared pile lie at least a glyph's width apart (this share of a short side): hypotheses of one
index hung from its paper corner or its ink lie closer (the index's inset is guessed to about 0.05)."""


def _apart_in_pile(reading, cand, seen, other) -> bool:
    """True if two hypotheses hung near one index are two cards of one rank slid on each other: their suits read
    apart and their index corners lie more than ``_OWN_INDEX`` of a short side apart, the cards the same way round."""
    if reading.suit is None or seen.suit is None or reading.suit is seen.suit:
        return False
    return bool(_length(cand.corners[0] - other.corners[0]) > _OWN_INDEX * min(cand.short_side, other.short_side))


def _own_indices(reading, cand, seen, other) -> bool:
    """True if two hypotheses of one rank are two cards by their indices: their suits read apart, and they are not
    one card hypothesised from both its corners (turned half round, one's index corner on the other's far corner).

    A far corner is where the card ends only where its far index was read (``_two_agree``: measured); a size
    guessed from a glyph or from paper may put it anywhere near, so with none measured either end is enough."""
    if reading.suit is None or seen.suit is None or reading.suit is seen.suit:
        return False
    u, v = cand.corners[1] - cand.corners[0], other.corners[1] - other.corners[0]
    if float(u @ v) >= 0:
        return True  # lying the same way round, each hung on its own index
    short = min(cand.short_side, other.short_side)
    ends = []  # (an index corner, the other's far corner), measured far corners only where there are any
    if _two_agree(seen):
        ends.append((cand.corners[0], other.corners[2]))
    if _two_agree(reading):
        ends.append((other.corners[0], cand.corners[2]))
    if ends:  # a far corner measured where its index reads lies on that index: a pile's next index lies further
        return all(float(_length(a - b)) >= _OWN_INDEX * short for a, b in ends)
    ends = [(cand.corners[0], other.corners[2]), (other.corners[0], cand.corners[2])]
    return all(float(_length(a - b)) >= _SAME_INDEX * short for a, b in ends)


def _measured_by_far_index(image: np.ndarray, read: list[tuple], reader: Reader,
                           trace: list[Hypothesis] | None = None) -> list[tuple]:
    """The cards read at one index corner only, surest first (up to ``FAR_INDEX_SEARCHES``, one search an
    hypothesis), hung again at the size and shape at which their far index reads the same rank, where there is one."""
    searched: list = []
    done = {id(c) for r, c in read if _two_agree(r) and r.confidence >= SURE_AT_BOTH}
    for reading, cand in sorted(read, key=lambda rc: -rc[0].confidence):
        if len(searched) >= FAR_INDEX_SEARCHES:
            break
        if reading.suit is None:
            continue  # not an index (its rank glyph has a suit pip below it): a card's far index is not looked for
        if id(cand) in done or any(_same_index(cand, c) and _same_far_corner(cand, c) for c in searched):
            continue  # looked for already: the sizes tried round one far corner cover those near it
        if any(_same_index(cand, c) for r, c in read if id(c) in done):
            continue  # read surely at both corners already, hung another way
        searched.append(cand)
        found = _far_index(image, cand.corners, reading, reader, _sure_short_side(read))
        if found is not None and found[0].confidence >= min(reading.confidence, SURE_AT_BOTH):
            # (a far index that leaves a card read surely at its first unsure is another card's: a fan's or a
            # pile's next card, of the same rank, lies where a size guessed for this one looks for its far index)
            both, corners = found
            measured = replace(cand, corners=corners, confirm=False)
            read = [(both, measured) if c is cand else (r, c) for r, c in read]
            done.add(id(measured))
            if trace is not None:
                trace.append(Hypothesis(corners, "corner", both))
    return read


def _same_far_corner(a, b) -> bool:
    """True if two hypotheses hung on one index put its card's far corner within a tenth of a short side."""
    return float(_length(a.corners[2] - b.corners[2])) < 0.1 * min(a.short_side, b.short_side)


def _read_traced(image: np.ndarray, corners: np.ndarray, reader: Reader, trace: list[Hypothesis] | None):
    """``_read_corners``, the hypothesis and its reading added to ``trace`` (when tracing)."""
    reading = _read_corners(image, corners, reader)
    if trace is not None:
        trace.append(Hypothesis(corners, "corner", reading))
    return reading


def _read_corners(image: np.ndarray, corners: np.ndarray, reader: Reader):
    """The reading of a card hypothesis at its index corner, and at both when the far one reads the same rank.

    Each index is warped on its own, as the top left of a view (the card turned half round for the far one): a
    tenth of the view each, and the far one only when the first names a rank.
    """
    turned = CardQuad(corners[[2, 3, 0, 1]])
    # both indices where the card's opposite index is in view and reads the same (the hypothesis is a whole card),
    # else the first alone
    return reader.read_first_or_both(warp_card(image, CardQuad(corners), FIRST_INDEX_VIEW),
                                     lambda: warp_card(image, turned, FIRST_INDEX_VIEW))


FAR_INDEX_SIZES = (1.0, 0.92, 1.08, 0.84, 1.18, 1.3)
"""Sizes (against the one hung) at which a card read at one index corner is looked at again for its far index,
nearest first. A card's size is guessed from its glyph's height or from paper edges that other cards or the
table's own pale paper cut short or run on; its two indices agreeing at a size measure it (and a card read
at both corners is read as surely as one found by its outline: what a book counts)."""
FAR_INDEX_STRETCH = (1.0, 1.06, 1.12, 1.18)
"""... at each size, the card's long side against its short one as hung (poker cards, 1.40), and up to a bridge
card's (1.56): decks differ."""


SURE_AT_BOTH = 0.8
"""A card read at both corners this surely (what ``books.SURE`` counts) is not looked at again."""
FAR_INDEX_SEARCHES = 8
"""At most this many cards a frame are looked at again for their far index (time stays bounded: about 10 ms
each on one core at 1280x720)."""


FAR_INDEX_FROM_FRAME = 1.35
"""Where the cards read surely at both corners give the frame's card size, a card's far index is looked for at the
sizes (``FAR_INDEX_SIZES``) within this factor of it, nearest it first: one deck's cards lie within a camera's tilt of
each other (speed frames: every size found within 1.35 of the frame's, most within 1.1, found first there)."""


def _far_index(image: np.ndarray, corners: np.ndarray, first, reader: Reader,
               frame_short: float | None = None) -> tuple | None:
    """The card hung on the same index corner at the nearest size and shape (``FAR_INDEX_SIZES``,
    ``FAR_INDEX_STRETCH``) at which both its indices read ``first``'s rank: (reading, corners), or None. Nearest the
    frame's card size ``frame_short`` (a short side), where it is known, and within ``FAR_INDEX_FROM_FRAME`` of it;
    else nearest the size hung.

    The far index alone is read at each size (a warp of a tenth of the view and one corner read), the first
    again only where the far one names a rank.
    """
    origin = corners[0]
    across, down = corners[1] - origin, corners[3] - origin
    height, width = image.shape[:2]
    measured = measure_card(image, corners)
    if measured is not None:
        found = _both_at(image, measured, first, reader)
        if found is not None:
            return found
    sizes = FAR_INDEX_SIZES
    if frame_short is not None:
        wanted = frame_short / max(1e-6, float(_length(across)))
        off = {size: abs(math.log(size / wanted)) for size in sizes}
        sizes = sorted((size for size in sizes if off[size] <= math.log(FAR_INDEX_FROM_FRAME)), key=off.get)
    for size in sizes:
        for stretch in FAR_INDEX_STRETCH:
            if size == stretch == 1.0:
                continue  # the size hung, read already
            a, d = size * across, size * stretch * down
            scaled = np.array([origin, origin + a, origin + a + d, origin + d], np.float32)
            far = scaled[2]
            if not (0 <= far[0] < width and 0 <= far[1] < height):
                continue
            found = _both_at(image, scaled, first, reader)
            if found is not None:
                return found
    return None


def _both_at(image: np.ndarray, corners: np.ndarray, first, reader: Reader) -> tuple | None:
    """(reading, corners) if the card ``corners`` reads ``first``'s rank at both indices, and its suit where it names
    one, else None: the far index first (the card turned half round), the first again only where the far one
    names its rank. (In a slid pile of a book the far index of each card under the top one is hidden, and the top
    card's, of the same rank, lies where a larger size looks for it.)"""
    read = reader.read_first_naming(warp_card(image, CardQuad(corners[[2, 3, 0, 1]]), FIRST_INDEX_VIEW),
                                    lambda: warp_card(image, CardQuad(corners), FIRST_INDEX_VIEW), first.rank)
    if read is None:
        return None  # the far index names another rank, or none: the first is not read again
    far, both = read
    if (both.rank is first.rank and _two_agree(both) and _reads_as_card(both)
            and not _suits_apart(first, far, both)):
        return replace(both, glyph=None), corners  # its glyph is the far index's, in the card turned half round
    return None


MARGIN_STRIP = (0.04, 0.06, 0.08)
"""Where a card's plain margin runs, in shares of its size from its side: down its left side (below its index)
and along its top (right of its index) nothing is printed up to the far corner, whatever the card."""
MARGIN_FROM, MARGIN_TO = 0.35, 1.5
"""A card's far side is looked for along its margins from this share of its hung size to that share."""
MARGIN_STEP = (12.0, 0.1)
"""The margin's paper ends where its level departs from the paper's by more than the larger of these (grey
levels, share of the paper's level), three pixels on end: the table, a shadow, another card's edge."""


def measure_card(image: np.ndarray, corners: np.ndarray) -> np.ndarray | None:
    """The card hung on the index corner ``corners[0]`` (its top edge towards ``corners[1]``, its side towards
    ``corners[3]``), its width and height measured where its plain margins end, or None where one does not end.

    Works on the few hundred pixels along the two margins: no edge map of the frame.
    """
    origin = corners[0].astype(np.float64)
    across, down = corners[1] - origin, corners[3] - origin
    short, long = float(_length(across)), float(_length(down))
    if short < 8 or long < 8:
        return None
    a, b = across / short, down / long
    width = _margin_end(image, origin, b * long, a, short)  # along the top margin, across the card
    height = _margin_end(image, origin, a * short, b, long)  # down the left margin
    if width is None or height is None or not 1.15 <= height / width <= 1.8:
        return None
    return np.array([origin, origin + width * a, origin + width * a + height * b, origin + height * b], np.float32)


def _margin_end(image: np.ndarray, origin: np.ndarray, inward: np.ndarray, along: np.ndarray, size: float,
                ) -> float | None:
    """Where the plain margin that runs from ``origin`` along ``along`` (``inward`` * share in from the card's
    side) ends, in pixels from ``origin``, or None."""
    height, width = image.shape[:2]
    steps = np.arange(MARGIN_FROM * size, MARGIN_TO * size, 1.0)
    points = origin + np.array(MARGIN_STRIP)[:, None, None] * inward + steps[None, :, None] * along
    xs, ys = np.rint(points[..., 0]).astype(int), np.rint(points[..., 1]).astype(int)
    inside = (xs >= 0) & (xs < width) & (ys >= 0) & (ys < height)
    xs, ys = np.clip(xs, 0, width - 1), np.clip(ys, 0, height - 1)
    levels = image[ys, xs].mean(axis=2)  # (strips, steps)
    profile = np.median(levels, axis=0)
    profile[~inside.all(axis=0)] = -1.0  # off the picture: the margin ends there at the latest
    paper_part = profile[: max(3, len(steps) // 5)]
    paper = float(np.median(paper_part))
    if paper <= 0:
        return None
    away = np.abs(profile - paper) > max(MARGIN_STEP[0], MARGIN_STEP[1] * paper)
    run = away[:-2] & away[1:-1] & away[2:]
    ends = np.flatnonzero(run)
    if not len(ends):
        return None
    end = float(steps[ends[0]])
    return end if end > 0.6 * size else None


def _read_at_index(reading, cand, quads: list, readings: list, weak: set):
    """``cand``, a card found by its index ink alone, as the weakly read whole card it lies in (``under``) when that
    card names the same card less surely: the whole card read at its index (an index found in faint ink inside an
    outline read at 0.57 was dropped as that card read twice, and the outline with it)."""
    if cand.under >= 0 or not cand.by_index:
        return cand
    centre = _box_centre(cand.shown)
    for i in sorted(weak):
        if ((_same_card(readings[i], reading) or _its_own_index(reading, cand, quads[i], readings[i]))
                and reading.confidence > readings[i].confidence and _holds(quads[i], centre)):
            return replace(cand, under=i)
    return cand


OWN_INDEX_ZONE = (0.2, 0.3)
"""A card's own index (its rank glyph and pip) lies within this share of its width along its top edge, and of its
height down, from an index corner: about 0.05-0.17 and 0.05-0.3. A squared pile's next index lies a fifth of a width
or more along."""


def _its_own_index(reading, cand, quad, whole) -> bool:
    """True if ``cand``, a card found by its index ink alone and read ``reading``, lies at an index corner of the whole
    card ``quad`` read ``whole`` surely and names its rank, each read naming a suit: that card's own index read again,
    whatever suits they name (the reader's known slip on a sure read is a suit: clubs for spades at webcam size)."""
    if (not cand.by_index or reading.rank is None or reading.rank is not whole.rank or reading.suit is None
            or whole.suit is None or whole.confidence < SURE_AT_BOTH):
        return False  # (an unsure whole card is no second card of a book)
    centre = _box_centre(cand.shown)
    corners = quad.corners
    return any(0.0 <= u <= OWN_INDEX_ZONE[0] and 0.0 <= v <= OWN_INDEX_ZONE[1]
               for u, v in (_along_and_down(centre, corners), _along_and_down(centre, corners[[2, 3, 0, 1]])))


def _read_again_at_index(reading, cand, quads: list, readings: list, weak: set) -> bool:
    """True if ``cand``, a card found by its index ink alone, is a weakly read whole card's own index read again
    (``_its_own_index``) with another suit, no surer than the whole card: one card, which counted as two with two
    other cards of its rank would make a false book. (Where it is the surer read, ``_read_at_index`` lets it take the
    whole card's place; with the same suit ``_once_by_index`` drops it.)"""
    if cand.under >= 0 or reading.suit is None:
        return False
    return any(readings[i].suit is not reading.suit and _reads_as_card(readings[i])
               and readings[i].confidence >= reading.confidence and _its_own_index(reading, cand, quads[i], readings[i])
               for i in weak)


def _once_by_index(hidden: list[tuple], whole: list) -> list[tuple]:
    """Cards seen at one index corner, less one naming a card (rank and suit) already read as surely elsewhere in
    the frame (or read at all, for an index found by its ink alone): a family's deck holds each card once, and the other index of a card in a fan, hung at a size guessed from
    its glyph, can fall outside the first's quad (bidly deals: 3 cards read twice), and a king of a tight fan misread
    as the queen of its suit names the queen twice."""
    kept: list[tuple] = []
    for reading, cand in sorted(hidden, key=lambda rc: -rc[0].confidence):
        if any(_same_card(other, reading) and (cand.by_index or other.confidence >= reading.confidence)
               for other in whole + [r for r, _ in kept]):
            continue
        kept.append((reading, cand))
    return kept


def _same_card(a, b) -> bool:
    """True if two readings name the same card of the deck (rank and suit): one deck holds it once."""
    return a.rank is b.rank and a.suit is not None and a.suit is b.suit


def _larger_on_same_corner(big, small) -> bool:
    """True if ``big`` is hung on the index corner of ``small``, the same way round, as a card a tenth larger or
    more. A view hung too small cuts the index at the corner crop's edge and reads what is left of it (a nine's
    bowl as a queen); one too large still holds it whole, so of the sizes that read at one corner the larger
    is believed."""
    return big.short_side >= _LARGER * small.short_side and _same_corner(big, small)


def _same_index(a, b) -> bool:
    """True if two card hypotheses are hung on one index: their index corners within ``_SAME_INDEX`` of a short
    side, the cards lying the same way round (the corners of two cards laid side by side touch, turned apart)."""
    if _length(a.corners[0] - b.corners[0]) >= _SAME_INDEX * min(a.short_side, b.short_side):
        return False
    u, v = a.corners[1] - a.corners[0], b.corners[1] - b.corners[0]
    return float(u @ v) > 0.5 * float(_length(u) * _length(v))


def _same_corner(a, b) -> bool:
    """True if the two corner candidates are hung on the same index corner, the same way round."""
    if _length(a.corners[0] - b.corners[0]) > 0.1 * min(a.short_side, b.short_side):
        return False
    u, v = a.corners[1] - a.corners[0], b.corners[1] - b.corners[0]
    return float(u @ v) > 0.95 * float(_length(u) * _length(v))


_LARGER = 1.1
_GROWN = 1.5
"""A guessed size up to this much larger than a measured one that reads at its corner is believed over it: the
corner's edges end where paper or a pen cuts them, and a view up to 1.7 times too large still holds the index
whole (rendered cards: every confident one-corner read right at 1.0-1.7 times the card's size)."""


def _next_size(a, b) -> bool:
    """True if ``b`` is ``a`` hung on the same corner one step of the finder's ladder of sizes larger or smaller."""
    ratio = max(a.short_side, b.short_side) / max(1e-6, min(a.short_side, b.short_side))
    return SIZE_LADDER / 1.1 < ratio < SIZE_LADDER * 1.1 and _same_corner(a, b)


GLYPHS_APART = 0.8
"""Two index reads whose rank glyphs lie this many glyph heights apart in the frame are two indices."""


def _glyph_in_frame(reading, cand, far: bool = False) -> tuple[np.ndarray, float] | None:
    """Where the rank glyph of ``cand``'s index (in its corner crop) lies in the frame, and its height; ``far``: where
    the same glyph of its other index lies (a card's two indices are printed half a turn apart)."""
    if reading.glyph is None:
        return None
    x, y, w, h = reading.glyph
    target = VIEW_CORNERS
    to_view = cv2.getPerspectiveTransform(cand.corners.astype(np.float32), target)
    points = np.array([[[x + w / 2, y], [x + w / 2, y + h]]], np.float32)
    if far:
        points = np.array([VIEW_W - 1, VIEW_H - 1], np.float32) - points
    top, bottom = cv2.perspectiveTransform(points, np.linalg.inv(to_view))[0]
    return (top + bottom) / 2, float(_length(bottom - top))


def _other_ink(reading, cand, seen, other) -> bool:
    """True if two index reads hung on nearly one card read other cards from other ink: their rank glyphs lie apart
    in the frame, and where the two lie half a turn apart, neither glyph lies where the other's card has its other
    index. In a tight fan or a slid pile the indices lie a fifth of a card apart or less, and each is its own card
    (bidly deals; books laid so); one card read twice names one card, and is not let through here."""
    if _same_card(seen, reading):
        return False
    a, b = _glyph_in_frame(reading, cand), _glyph_in_frame(seen, other)
    if a is None or b is None:
        return False
    pairs = [(a, b)]
    if _turned_apart(cand, other):
        pairs += [(a, _glyph_in_frame(seen, other, far=True)), (b, _glyph_in_frame(reading, cand, far=True))]
    return all(float(_length(p[0] - q[0])) > GLYPHS_APART * max(p[1], q[1]) for p, q in pairs)


def _suits_apart(first, far, both) -> bool:
    """True if a card's far index names another suit than its first, or pulls the suit they name together below
    sure (``both`` names none where ``first`` did): not the same card's other index (a slid pile's top card's far
    index, of the same rank, lies where a larger size of a card under it looks for its own). A far index whose pip is
    not read is no contradiction (a row of cards on a dark table)."""
    if first.suit is None:
        return False
    return (far.suit is not None and far.suit is not first.suit) or both.suit is None


def _turned(cand):
    """``cand`` hung on its far index corner (turned half round)."""
    return replace(cand, corners=cand.corners[[2, 3, 0, 1]])


def _turned_apart(a, b) -> bool:
    """True if two card hypotheses lie more than a quarter turn apart (one card hung on both its index corners)."""
    u, v = a.corners[1] - a.corners[0], b.corners[1] - b.corners[0]
    return float(u @ v) < 0


def _two_agree(reading) -> bool:
    """True if both index corners were read and name the same rank."""
    return reading.corners_read == 2 and reading.agree


def _on(point: np.ndarray, cand) -> bool:
    """True if ``point`` lies on or inside the card ``cand`` (within a tenth of its short side)."""
    inside = cv2.pointPolygonTest(cand.corners.astype(np.float32), (float(point[0]), float(point[1])), True)
    return inside > -0.1 * cand.short_side


SHOWN_DETAIL = 240
"""Pixels to a card's short side at which the part of it in view is worked out (``_shown``)."""


def _shown(cand, others: list, quads: list, shape: tuple) -> tuple[int, int, int, int]:
    """Box of the part of a partly hidden card that no other card found covers (its own box if none is left).

    Worked out at most ``SHOWN_DETAIL`` pixels to the card's short side (a 24 MP photo's card is 1300 wide, and
    opening its region by a quarter of that cost 70 ms a card)."""
    others = [_as_large(o, cand) for o in others if not _lies_over(cand, o)]
    factor = min(1.0, SHOWN_DETAIL / max(1.0, cand.short_side))
    if factor < 1.0:
        small = replace(cand, corners=(cand.corners * factor).astype(np.float32),
                        shown=tuple(int(v * factor) for v in cand.shown))
        bx, by, bw, bh = _shown_at(small, [replace(o, corners=o.corners * factor) for o in others],
                                   [CardQuad(q.corners * factor) for q in quads],
                                   (max(1, int(shape[0] * factor)), max(1, int(shape[1] * factor))))
        return int(bx / factor), int(by / factor), int(math.ceil(bw / factor)), int(math.ceil(bh / factor))
    return _shown_at(cand, others, quads, shape)


def _as_large(other, cand):
    """``other`` hung on its index corner at least as large as ``cand``: one deck's cards are one size, and a card
    hung smaller than it is (a size guessed from its glyph, or a misfit) covers all the card it lies on from its
    index onwards, not only the small quad hung (a jack hung at half its size over an eight: the eight's whole box
    was given, centred on the jack). As hung where grown it would cover ``cand``'s own index, which is in view."""
    grow = cand.short_side / max(1e-6, other.short_side)
    if grow <= 1.0:
        return other
    origin = other.corners[0]
    grown = ((other.corners - origin) * grow + origin).astype(np.float32)
    inward = cand.corners[0] + 0.12 * (cand.corners[1] - cand.corners[0]) + 0.12 * (cand.corners[3] - cand.corners[0])
    if cv2.pointPolygonTest(grown, (float(inward[0]), float(inward[1])), False) >= 0:
        return other
    return replace(other, corners=grown)


def _lies_over(cand, other) -> bool:
    """True if ``cand`` lies over ``other``: its index corner (which shows) lies on ``other``, and ``other``'s does
    not lie on it. A card under it hides none of it (in a fan each card's index lies on the one under it; taking the
    card under for one over left a sliver, and the whole card's box was given, centred on the card over it)."""
    return _on(cand.corners[0], other) and not _on(other.corners[0], cand)


def _shown_at(cand, others: list, quads: list, shape: tuple) -> tuple[int, int, int, int]:
    """``_shown`` at the given scale."""
    x, y, w, h = cand.shown
    # worked within the shown box (nothing outside it counts): the same as on the whole frame, and a 24 MP
    # photo's whole frame is costly (a margin round it for the opening, but not past the frame's edge)
    pad = max(3, int(0.25 * cand.short_side)) + 1
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(shape[1], x + w + pad), min(shape[0], y + h + pad)
    if x1 <= x0 or y1 <= y0:
        return cand.shown
    origin = np.array([x0, y0], np.int32)
    region = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(region, cand.corners.astype(np.int32) - origin, 255)
    region[:, : max(0, x - x0)] = 0
    region[: max(0, y - y0)] = 0
    region[max(0, y + h - y0) :] = 0
    region[:, max(0, x + w - x0) :] = 0
    for other in [o.corners for o in others] + [q.corners for q in quads]:
        cv2.fillConvexPoly(region, other.astype(np.int32) - origin, 0)
    # slivers along another card's edge (where its size or ours is guessed a little off) are not the part in view:
    # the part in view is at least an index strip wide, a quarter of the card's short side (a tenth if none is)
    for share in (0.25, 0.1):
        side = max(3, int(share * cand.short_side))
        opened = cv2.morphologyEx(region, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (side, side)))
        if np.count_nonzero(opened) >= 0.1 * w * h:
            bx, by, bw, bh = cv2.boundingRect(opened)
            return int(bx + x0), int(by + y0), int(bw), int(bh)
    return cand.shown
