"""Cut the rank and suit glyphs out of a card's corner index and describe them with HOG.

Shared by the build (which renders cards) and the reader (which sees real ones), so both see
exactly the same features.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from tabletop.vision.finder import VIEW_H, VIEW_W, WARP_BLOCK

__all__ = ["hog", "float_mean", "CornerGlyphs", "corner_glyphs", "look_at_corner", "rank_features", "suit_features", "card_corners",
           "first_corner", "FIRST_INDEX_VIEW", "pip_shape_features"]

_CORNER_W, _CORNER_H = int(0.27 * VIEW_W), int(0.36 * VIEW_H)
_RANK_SIDE, _SUIT_SIDE = 32, 24
FIRST_INDEX_VIEW = (-(-_CORNER_W // WARP_BLOCK) * WARP_BLOCK, _CORNER_H)
"""(width, height) of the top-left part of a card view that holds its first index corner, for ``warp_card``."""


def hog(image: np.ndarray, cell: int, bins: int = 9) -> np.ndarray:
    """Histogram of oriented gradients (Dalal & Triggs: unsigned, 2×2-cell blocks, L2-Hys).

    opencv-python 5 ships no ``cv2.HOGDescriptor`` (objdetect's HOG and ``cv2.ml`` moved to
    contrib), so the histogramming is done here on OpenCV's Sobel gradients.
    """
    img = image.astype(np.float32)
    gx = cv2.Sobel(img, cv2.CV_32F, 1, 0, ksize=1)
    gy = cv2.Sobel(img, cv2.CV_32F, 0, 1, ksize=1)
    magnitude, angle = cv2.cartToPolar(gx, gy, angleInDegrees=True)
    for _ in range(2):  # np.mod(angle, 180.0) for angles 0..360: subtracting 180 from 180..360 is exact
        np.subtract(angle, np.float32(180.0), out=angle, where=angle >= 180.0)
    position = angle / (180.0 / bins) - 0.5
    low = np.floor(position).astype(np.int32)
    frac = position - low
    low %= bins
    high = (low + 1) % bins
    h, w = img.shape
    cy, cx = h // cell, w // cell
    flat = _cell_bins(h, w, cell, bins)
    hist = np.bincount(flat + low.ravel(), (magnitude * (1 - frac)).ravel(), minlength=cy * cx * bins)
    hist += np.bincount(flat + high.ravel(), (magnitude * frac).ravel(), minlength=cy * cx * bins)
    hist = hist.astype(np.float32).reshape(cy, cx, bins)
    blocks = np.concatenate(
        [hist[:-1, :-1], hist[1:, :-1], hist[:-1, 1:], hist[1:, 1:]], axis=2
    ).reshape(-1, 4 * bins)
    blocks /= np.sqrt((blocks**2).sum(axis=1, keepdims=True) + 1e-6)
    blocks = np.minimum(blocks, 0.2)
    blocks /= np.sqrt((blocks**2).sum(axis=1, keepdims=True) + 1e-6)
    return blocks.ravel().astype(np.float32)


@functools.cache
def _cell_bins(h: int, w: int, cell: int, bins: int) -> np.ndarray:
    """Each pixel's first histogram bin (its cell's index times ``bins``), for ``hog``; the same for every patch."""
    cell_index = (np.arange(h)[:, None] // cell) * (w // cell) + (np.arange(w)[None, :] // cell)
    flat = cell_index.ravel() * bins
    flat.setflags(write=False)
    return flat



def float_mean(values: np.ndarray, axis: int | None = None):
    """``values.mean(axis)`` of a float array: numpy's own arithmetic (its sum, then divided by the count as a numpy
    integer, in the array's float type), without ``np.mean``'s dispatch, which costs more than the sum on the small
    arrays of one corner."""
    count = np.intp(values.size if axis is None else values.shape[axis])
    total = np.add.reduce(values, axis=axis)
    if isinstance(total, np.ndarray):
        return np.true_divide(total, count, out=total, casting="unsafe")
    return total.dtype.type(total / count)


@dataclass(frozen=True)
class CornerGlyphs:
    """The rank glyph (one or two characters) and suit pip found in one corner, as ink patches."""

    rank: np.ndarray = field(compare=False)  # float32 ink (0 paper .. 1 ink), tight crop
    suit: np.ndarray | None = field(compare=False)
    redness: float  # how red the index ink is (-1 black .. +1 red)
    rank_box: tuple[int, int, int, int] = (0, 0, 0, 0)  # (x, y, w, h) in the corner crop
    suit_box: tuple[int, int, int, int] | None = None


def card_corners(view: np.ndarray) -> list[np.ndarray]:
    """The two index corners of a standard card view, each turned upright (top-left, then bottom-right).

    A view of its top left only (``FIRST_INDEX_VIEW``) has only the first: call ``first_corner``.
    """
    bottom_right = view[VIEW_H - _CORNER_H :, VIEW_W - _CORNER_W :][::-1, ::-1]
    return [first_corner(view), np.ascontiguousarray(bottom_right)]


def first_corner(view: np.ndarray) -> np.ndarray:
    """The top-left index corner of a card view, or of its top left only (``FIRST_INDEX_VIEW``)."""
    return np.ascontiguousarray(view[:_CORNER_H, :_CORNER_W])


_LEVELS = np.arange(256, dtype=np.float32)


def _ink(corner: np.ndarray) -> np.ndarray:
    """Ink map 0..1: how far each pixel is from the paper colour (dark or coloured)."""
    return _ink_levels(corner)[1][0]


def _ink_levels(corner: np.ndarray, evened: bool = False, index_contrast: bool = False,
                ) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] | None:
    """The corner's lowest channel (uint8) and ``_ink`` of it: the ink map, and the ink of each level 0..255
    (float32, as ``(ink * 255).astype(np.uint8)``, and whether it is ``INK_AT_ALL`` or more: ``_level_tables``).

    The ink is a function of a pixel's lowest channel alone, so it is worked out for the 256 levels and looked up
    (the same float32 arithmetic per pixel as on the whole crop, at a fraction of the cost).

    ``index_contrast``: the ink's scale runs from the paper to the index zone's own darkest ink
    (``INDEX_DARKEST_PERCENTILE``), not to the whole corner's (a big pip, the table): None where those are the same
    (the look would be the first again). At webcam size a rank glyph's blurred strokes are 20-30 levels below the
    paper, a tenth of the way to a big pip's black, and below the faint ink's floor; against the index's own suit pip
    they are ink."""
    b, g, r = cv2.split(corner)
    lowest8 = cv2.min(cv2.min(b, g), r)
    if evened:
        lowest8 = _evened(lowest8, corner)
        if lowest8 is None:
            return None
    counts = np.cumsum(_histogram(lowest8))
    paper = _percentile_90(counts, lowest8)
    darkest = float(counts.searchsorted(1))  # lowest.min()
    if index_contrast:
        h, w = lowest8.shape
        zone = lowest8[INDEX_ZONE_INSET:, INDEX_ZONE_INSET:int(INDEX_ZONE_WIDTH * w)]
        index_darkest = _low_percentile(zone, INDEX_DARKEST_PERCENTILE)
        if index_darkest <= darkest:
            return None
        darkest = index_darkest
    table, table8, faint8 = _level_tables(paper, darkest)
    return lowest8, (cv2.LUT(lowest8, table), table, table8, faint8)


INK_AT_ALL = 0.15
"""Ink this dark or more (0 paper .. 1 the darkest) is ink at all where the ink round it stands out (``look_at_corner``)."""


def _level_tables(paper: float, darkest: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ink of each level 0..255 from the paper's level to the darkest's: ``np.clip((paper - _LEVELS) /
    max(paper - darkest, 40.0), 0, 1)`` (float32), the same as uint8 0..255, and whether it is ``INK_AT_ALL`` or more
    (0/1): ``_ink_levels``' tables, clipped in place without np.clip's dispatch (the same values: no level is NaN)."""
    table = paper - _LEVELS
    table /= max(paper - darkest, 40.0)
    np.maximum(table, 0, out=table)
    np.minimum(table, 1, out=table)
    return table, (table * 255).astype(np.uint8), (table > INK_AT_ALL).view(np.uint8)


FLOODED = 0.3
"""Ink over this share of a corner is more than an index (its rank and pip cover about a tenth): the paper in a
shadow across the index taken for ink (a hand's or the card above's), the table, or a court picture. Such a corner,
where no rank was read in it, is looked at again with its paper lit evenly (``_evened``), where its paper is lit
unevenly (``look_at_corner``)."""
_PAPER_STEP = 4
"""The paper's light is measured on the corner shrunk this many times (a glyph's stroke, 3-6 view pixels, is gone)."""
_PAPER_REACH = np.ones((5, 5), np.uint8)
"""... as its level closed over this reach (20 view pixels: wider than a suit pip, so no ink is taken for shadowed
paper; a closing, not the brightest level round it, so a shadow's edge stays where it is)."""
UNEVEN_PAPER = 0.85
"""A corner whose paper is lit, somewhere, less than this share of its brightest paper is lit unevenly; one lit
evenly is read exactly as before."""
DEEPEST_SHADOW = 0.4
"""Darker than this share of the brightest paper (closed) is no paper in a shadow but ink too wide to close (a big
pip), the table, a card's dark back or a court picture, and is left as it is."""
SHADE_SHARE = 0.25
"""A shadow across an index covers at least this share of the corner (paper between ``DEEPEST_SHADOW`` and
``UNEVEN_PAPER``); less is the blurred rim of a big pip or of the table, not looked at again."""

SHADE_GREY = 0.2
"""Paper in a shadow stays grey: its channels within this share of the highest (closed over ``_PAPER_REACH``, so the
ink is gone). A corner whose darker half is mostly coloured is a table's wood or cloth, not looked at again."""


def _evened(lowest8: np.ndarray, corner: np.ndarray) -> np.ndarray | None:
    """The corner's lowest channel (``lowest8``, of ``corner``) with its paper lit evenly: each pixel divided by the
    paper's light round it (the corner shrunk ``_PAPER_STEP`` times, closed over ``_PAPER_REACH``: its ink gone) and
    scaled to the brightest paper; None where the paper is lit evenly (``UNEVEN_PAPER``), or where what is darker is
    mostly coloured (``SHADE_GREY``): a wooden or cloth table, not white paper in a shadow."""
    h, w = lowest8.shape
    step = _PAPER_STEP
    size = (max(1, w // step), max(1, h // step))
    small = cv2.resize(corner[: size[1] * step, : size[0] * step], size, interpolation=cv2.INTER_AREA)  # whole steps:
    # OpenCV's fast area shrinking
    b, g, r = cv2.split(cv2.morphologyEx(small, cv2.MORPH_CLOSE, _PAPER_REACH))
    light = cv2.min(cv2.min(b, g), r)
    least, brightest, _, _ = cv2.minMaxLoc(light)
    if brightest < 1 or least >= UNEVEN_PAPER * brightest:
        return None
    top = cv2.max(cv2.max(b, g), r)
    dark = cv2.compare(light, DEEPEST_SHADOW * brightest, cv2.CMP_LT)  # no paper: ink too wide to close, the table
    shaded = cv2.bitwise_and(cv2.compare(light, UNEVEN_PAPER * brightest, cv2.CMP_LT), cv2.bitwise_not(dark))
    in_shade = cv2.countNonZero(shaded)
    if in_shade < SHADE_SHARE * light.size:
        return None
    coloured = cv2.compare(cv2.subtract(top, light), cv2.multiply(top, SHADE_GREY, dtype=cv2.CV_8U), cv2.CMP_GE)
    if 2 * cv2.countNonZero(cv2.bitwise_and(shaded, coloured)) > in_shade:
        return None
    light = cv2.max(cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR), DEEPEST_SHADOW * brightest)
    return cv2.divide(lowest8, light, scale=brightest)  # rounded, and saturated at 255


def _histogram(levels: np.ndarray) -> np.ndarray:
    """How many pixels of ``levels`` (uint8) hold each level 0..255: ``np.bincount(levels.ravel(), minlength=256)``,
    counted by OpenCV in half the time (its float32 counts are exact: a corner holds a few thousand pixels)."""
    return cv2.calcHist([levels], [0], None, [256], (0, 256)).ravel().astype(np.intp)


def _percentile_90(counts: np.ndarray, values: np.ndarray) -> float:
    """``np.percentile(values, 90)`` of integer ``values`` 0..255 from their cumulative counts, not sorted:
    where the two values it interpolates between are equal (nearly always) that value is the answer itself."""
    n = values.size
    below = math.floor((n - 1) * 0.9)  # the sorted positions np.percentile interpolates between, as it finds them
    low, high = np.searchsorted(counts, [below + 1, min(n - 1, below + 1) + 1])
    return float(low) if low == high else float(np.percentile(values.astype(np.float32), 90))


def _low_percentile(levels: np.ndarray, q: float) -> float:
    """``np.percentile(levels, q)`` of uint8 ``levels`` from their counts (``_histogram``), not sorted, as
    ``_percentile_90`` finds it: where the two levels it interpolates between are equal (nearly always), that level;
    else numpy's own. A tenth of the cost on a corner's index zone."""
    n = levels.size
    below = math.floor((n - 1) * (q / 100))  # the sorted positions np.percentile interpolates between, as it finds them
    low, high = np.searchsorted(np.cumsum(_histogram(levels)), [below + 1, min(n - 1, below + 1) + 1])
    return float(low) if low == high else float(np.percentile(levels, q))


_CLOSE_2 = np.ones((2, 2), np.uint8)
_GROW_3 = np.ones((3, 3), np.uint8)


def corner_glyphs(corner: np.ndarray, evened: bool = False) -> CornerGlyphs | None:
    """Segment an upright corner crop into its rank glyph and suit pip, or None if there is no index.

    ``evened``: with its paper lit evenly first (``_evened``): None where it is lit evenly already, or where the
    corner is still flooded with ink once it is (no shadow did that: the table, a picture). See ``look_at_corner``."""
    return look_at_corner(corner, evened)[0]


INDEX_ZONE_WIDTH = 0.45
"""An index's glyphs lie in this share of a corner's width from its left (``look_at_corner`` drops parts further in:
a big pip or a court picture's frame) ..."""
INDEX_ZONE_INSET = 6
"""... and this many pixels in from the corner's top and left edge (the view's margin of table, ``VIEW_MARGIN``, and
the card's edge)."""
INDEX_DARKEST_PERCENTILE = 5.0
"""The index's own darkest ink (``index_contrast``) is this percentile of the index zone's lowest channel: its suit
pip, not one pixel of a speck or of the table past the card's edge."""


def look_at_corner(corner: np.ndarray, evened: bool = False, index_contrast: bool = False,
                   ) -> tuple[CornerGlyphs | None, bool]:
    """``corner_glyphs`` of ``corner``, and whether ink covered more than ``FLOODED`` of it: then, where no rank was
    found, the reader looks again with its paper lit evenly (``corner_glyphs(corner, evened=True)``), as a shadow's
    edge across the index has the paper in the shadow taken for ink and the glyphs lost in it. ``index_contrast``:
    the ink measured against the index's own contrast (``_ink_levels``); (None, False) where that is the first look's."""
    h, w = corner.shape[:2]
    levels = _ink_levels(corner, evened, index_contrast)
    if levels is None:
        return None, False
    lowest8, (ink, table, table8, faint8) = levels
    ink8 = cv2.LUT(lowest8, table8)
    otsu, _ = cv2.threshold(ink8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # strong ink, or local ink that is ink at all: both functions of the level, looked up (``_ink_levels``)
    strong = cv2.LUT(lowest8, (table8 > min(max(otsu, 0.3 * 255), 0.6 * 255)).view(np.uint8))
    faint = cv2.LUT(lowest8, faint8)
    local = cv2.adaptiveThreshold(ink8, 1, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, 21, -12)
    binary = cv2.bitwise_or(strong, cv2.bitwise_and(local, faint))
    binary = cv2.morphologyEx(binary, cv2.MORPH_CLOSE, _CLOSE_2)
    flooded = cv2.countNonZero(binary) > FLOODED * h * w
    if flooded and evened:
        return None, True  # still flooded with its paper lit evenly: no shadow's doing (the table, a picture)
    # long straight lines (a court card's picture frame, the card edge) are never part of the index
    lines = None
    for length, axis in ((int(0.45 * h), 0), (int(0.6 * w), 1)):
        found = _opened_by_line(binary, length, axis)
        if found is not None:
            lines = found if lines is None else lines | found
    inked = binary
    if lines is not None:
        binary = binary & (1 - cv2.dilate(lines, _GROW_3))
    # the same components, numbered the same (raster order), as the default algorithm's, in half the time
    count, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(binary, 8, cv2.CV_32S, cv2.CCL_BBDT)
    parts = _index_parts(stats, h, w)
    if not parts:
        return None, flooded
    parts.sort(key=lambda p: p[1])
    # the rank is the topmost glyph with a pip under it (an index prints its rank over its pip): a speck or the
    # sliver of a card's edge above the rank, with nothing under it, is passed over; with no pip under any, the
    # topmost glyph is the rank, as it always was
    group, (gx0, gy0, gx1, gy1), below = _rank_over_pip(parts, _rank_glyph(parts, h))
    if gx1 - gx0 > 0.8 * w:
        return None, flooded
    if not below and lines is not None and cv2.countNonZero(lines[gy1:gy1 + (3 * (gy1 - gy0)) // 2, gx0:gx1]):
        below = _pip_among_lines(inked, lines, (gx0, gy0, gx1, gy1), h, w)  # lines ran where its pip would lie
    rank_patch = ink[gy0:gy1, gx0:gx1]
    suit_patch = suit_box = None
    if below:
        sx, sy, sw, sh = below[0]
        suit_patch = ink[sy : sy + sh, sx : sx + sw]
        suit_box = (int(sx), int(sy), int(sw), int(sh))
    mask = binary[gy0:gy1, gx0:gx1] > 0
    pixels = corner[gy0:gy1, gx0:gx1][mask].astype(np.float32)
    if len(pixels):
        b, g, r = float_mean(pixels[:, 0]), float_mean(pixels[:, 1]), float_mean(pixels[:, 2])
        redness = float(min(max((r - max(g, b)) / 80.0, -1.0), 1.0))  # np.clip's value, without its dispatch
    else:
        redness = 0.0
    box = (int(gx0), int(gy0), int(gx1 - gx0), int(gy1 - gy0))
    return CornerGlyphs(rank_patch, suit_patch, redness, box, suit_box), flooded


def _index_parts(stats: np.ndarray, h: int, w: int) -> list[tuple[int, int, int, int]]:
    """The boxes (x, y, w, h) of the ink parts (``stats``: OpenCV's component stats, the background first) of an
    ``h`` × ``w`` corner that may be an index's glyphs: a glyph's size, not the table past the card's edge, not too far
    in. The few parts of a corner are looked at one by one (numpy's array operations cost more on so few)."""
    lowest, highest, widest, edge_tall = 0.09 * h, 0.5 * h, 0.75 * w, 0.25 * h
    furthest, middle_furthest = 0.45 * w, 0.7 * w
    return [(x, y, bw, bh) for x, y, bw, bh, area in stats[1:].tolist()
            if not (area < 12 or bh < lowest or bh > highest or bw > widest)
            and not (x == 0 or y == 0 or (y + bh >= h and bh > edge_tall))  # the table past the card's edge (the
            # view keeps a margin round the card)
            and not (x > furthest or x + bw / 2 > middle_furthest)]  # too far in: the picture frame or a big pip


PIP_THICK = 0.1
"""A pip is at least this share of a corner tall (corners of 100 view pixels: pips 12-18, a rank glyph 25-30); a
line (a court picture's frame, the card's edge) is thinner across. See ``_pip_among_lines``."""


def _pip_among_lines(inked: np.ndarray, lines: np.ndarray, rank: tuple[int, int, int, int], h: int, w: int) -> list:
    """The pip under a rank glyph (``rank``: x0, y0, x1, y1) that the line removal cut away: at webcam size the index's
    blurred pip runs into the big pip or court picture beside it, and the rows across both are long enough to be taken
    for a line (``_opened_by_line``), cutting the pip into slivers too thin to be glyphs. Here only the thin parts of
    those lines are taken away (ink that runs ``PIP_THICK`` of the corner or more down its column stays): the bridge
    between the two, not the pip. ``inked`` is the corner's ink (0/1) before any line was taken away."""
    thick = cv2.morphologyEx(inked, cv2.MORPH_OPEN, _column(max(2, int(PIP_THICK * h))))
    thin = cv2.bitwise_and(lines, 1 - thick)
    binary = cv2.bitwise_and(inked, 1 - cv2.dilate(thin, _GROW_3))
    stats = cv2.connectedComponentsWithStatsWithAlgorithm(binary, 8, cv2.CV_32S, cv2.CCL_BBDT)[2]
    gx0, gy0, gx1, gy1 = rank
    return [p for p in _index_parts(stats, h, w) if gy1 - 1 <= p[1] < gy1 + 1.5 * (gy1 - gy0)
            and p[0] < gx1 and p[0] + p[2] > gx0]


@functools.cache
def _column(length: int) -> np.ndarray:
    """A line ``length`` pixels long down a column (``_pip_among_lines``' structuring element)."""
    column = np.ones((length, 1), np.uint8)
    column.setflags(write=False)
    return column


_RANK_TRIES = 3
"""The rank glyph is looked for among this many topmost glyphs of a corner (``look_at_corner``)."""


PIP_TALLEST = 1.0
"""An index prints its pip no taller than its rank (``LONE_PIP_TO_RANK`` in ``reader``: 99% of true index reads at
0.91 or less): a glyph with a taller part under it is no rank over its pip but the flecks of a table's weave past the
card's edge over a longer one, or a "2"'s foot over the "2" (held-out webcam composites)."""
RANK_LOWEST = 0.4
"""... and a rank glyph preferred for its pip's height starts within this share of the corner from its top (the
corners' rank glyphs start at 15-20% of it): lower down, a patterned table's flowers have one petal over a smaller
one as well."""


def _rank_glyph(parts: list, h: int) -> tuple:
    """The part of a corner (``parts``, top first; ``h`` tall) that is its rank glyph: of the ``_RANK_TRIES``
    topmost, the first with a pip under it no taller than it (``PIP_TALLEST``) high enough in the corner
    (``RANK_LOWEST``), else the first with any part under it, else the topmost."""
    over_any = None
    for top in parts[:_RANK_TRIES]:
        _, (_, y0, _, y1), below = _rank_over_pip(parts, top)
        if below and below[0][3] <= PIP_TALLEST * (y1 - y0) and y0 < RANK_LOWEST * h:
            return top
        if below and over_any is None:
            over_any = top
    return over_any or parts[0]


def _rank_over_pip(parts: list, top: tuple) -> tuple[list, tuple[int, int, int, int], list]:
    """The glyph ``top`` (with the glyphs beside it on its line: a ten's two digits), its box (x0, y0, x1, y1),
    and the glyphs under it, where an index prints its pip."""
    group = [p for p in parts if _same_line(top, p)]
    gx0 = min(p[0] for p in group)
    gy0 = min(p[1] for p in group)
    gx1 = max(p[0] + p[2] for p in group)
    gy1 = max(p[1] + p[3] for p in group)
    below = [p for p in parts if p[1] >= gy1 - 1 and p[1] < gy1 + 1.5 * (gy1 - gy0)
             and p[0] < gx1 and p[0] + p[2] > gx0 and p not in group]
    return group, (gx0, gy0, gx1, gy1), below


def _opened_by_line(binary: np.ndarray, length: int, axis: int) -> np.ndarray | None:
    """``binary`` (0/1) opened with a line ``length`` long across ``axis`` (0: down the columns, 1: along the rows),
    or None where that leaves nothing.

    Each column (row) opens on its own, and one holding fewer pixels than the least part of the line that can lie in
    the image is left empty (OpenCV's erosion counts pixels past the border as set, so a line centred at the border
    needs only half): only the few that may hold a line (a card's edge) are opened, laid out as rows, with a line
    along them (OpenCV opens along rows many times faster than down columns). The same pixels as opening the whole."""
    counts = cv2.reduce(binary, axis, cv2.REDUCE_SUM, dtype=cv2.CV_32S).ravel()  # binary.sum(axis=axis), in OpenCV
    may = (counts >= min(length - length // 2, length // 2 + 1)).nonzero()[0]
    if not len(may):
        return None
    lines = np.ascontiguousarray(binary[:, may].T if axis == 0 else binary[may])
    opened = cv2.morphologyEx(lines, cv2.MORPH_OPEN, _line(length))
    if not cv2.countNonZero(opened):
        return None  # no line: nothing to take away (an empty map took away nothing either)
    found = np.zeros_like(binary)
    if axis == 0:
        found[:, may] = opened.T
    else:
        found[may] = opened
    return found


@functools.cache
def _line(length: int) -> np.ndarray:
    """A line ``length`` pixels long along a row, ``_opened_by_line``'s structuring element (one a length)."""
    line = np.ones((1, length), np.uint8)
    line.setflags(write=False)
    return line


def _same_line(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """True if b sits beside a on the same text line (the "1" and "0" of a ten)."""
    if a == b:
        return True
    top, bottom = max(a[1], b[1]), min(a[1] + a[3], b[1] + b[3])
    overlap = (bottom - top) / max(1, min(a[3], b[3]))
    gap = max(a[0], b[0]) - min(a[0] + a[2], b[0] + b[2])
    return overlap > 0.6 and gap < 0.6 * max(a[3], b[3]) and abs(a[3] - b[3]) < 0.35 * max(a[3], b[3])


def _square(patch: np.ndarray, side: int) -> np.ndarray:
    """Fit a patch into a side×side uint8 image, keeping its aspect, centred, with a margin."""
    h, w = patch.shape
    inner = side - 4
    scale = inner / max(h, w)
    nh, nw = max(1, int(round(h * scale))), max(1, int(round(w * scale)))
    resized = cv2.resize(patch.astype(np.float32), (nw, nh), interpolation=cv2.INTER_AREA)
    canvas = np.zeros((side, side), np.float32)
    y0, x0 = (side - nh) // 2, (side - nw) // 2
    canvas[y0 : y0 + nh, x0 : x0 + nw] = resized
    return np.clip(canvas * 255, 0, 255).astype(np.uint8)


def _stretch(patch: np.ndarray, side: int) -> np.ndarray:
    """Stretch a patch to fill side×side (uint8): condensed and wide faces of a glyph look alike."""
    resized = cv2.resize(patch.astype(np.float32), (side - 4, side - 4), interpolation=cv2.INTER_AREA)
    canvas = np.zeros((side, side), np.float32)
    canvas[2:-2, 2:-2] = resized
    return np.clip(canvas * 255, 0, 255).astype(np.uint8)


def rank_features(glyphs: CornerGlyphs) -> np.ndarray:
    """Feature vector of a rank glyph: HOG and coarse pixels of the stretched patch, its aspect, its ink."""
    stretched = _stretch(glyphs.rank, _RANK_SIDE)
    pixels = cv2.resize(stretched, (10, 12), interpolation=cv2.INTER_AREA).ravel().astype(np.float32) / 255.0
    h, w = glyphs.rank.shape
    extra = np.array([np.log(w / h), float(float_mean(glyphs.rank))], np.float32)
    return np.concatenate([hog(stretched, 8), pixels, extra]).astype(np.float32)


def suit_features(glyphs: CornerGlyphs) -> np.ndarray | None:
    """Feature vector of a suit pip (HOG plus redness), or None when no pip was found."""
    if glyphs.suit is None:
        return None
    features = hog(_square(glyphs.suit, _SUIT_SIDE), 6)
    h, w = glyphs.suit.shape
    extra = np.array([np.log(w / h), glyphs.redness], np.float32)
    return np.concatenate([features, extra]).astype(np.float32)


PIP_SHAPE_MARGIN = 4
"""The pip's shape is looked at with this many view pixels round its box (``pip_shape_features``): at webcam size a
pip is 5-9 frame pixels, blurred, and what tells a club's round top lobe from a spade's point lies in the grey rim its
ink box leaves out (training composites, webcam: a clubs/spades reader on the box alone told 90% apart, with 2
pixels round it 94%, with 4 96%)."""
PIP_SHAPE_SIDE = 12
"""... shrunk to this many pixels square (its ink against its own paper), with its row and column profiles."""


def pip_shape_features(corner: np.ndarray, suit_box: tuple[int, int, int, int]) -> np.ndarray:
    """What tells a club from a spade in a corner's suit pip (``suit_box``, in the upright ``corner`` crop): the pip
    with ``PIP_SHAPE_MARGIN`` round it, as ink against its own paper (its lowest channel from the crop's lightest to its
    darkest: a dim or overexposed corner alike), shrunk to ``PIP_SHAPE_SIDE`` square; its rows' and columns' ink, its
    width row by row (a spade's point widens steadily, a club's top lobe is round and narrows at its neck), and the
    pip's aspect."""
    x, y, w, h = suit_box
    pad = PIP_SHAPE_MARGIN
    rows, cols = corner.shape[:2]
    crop = corner[max(0, y - pad):min(rows, y + h + pad), max(0, x - pad):min(cols, x + w + pad)]
    lowest = crop.min(axis=2).astype(np.float32)
    darkest, lightest = float(lowest.min()), float(lowest.max())
    ink = (lightest - lowest) / max(lightest - darkest, 1.0)
    side = PIP_SHAPE_SIDE
    small = cv2.resize(ink, (side, side), interpolation=cv2.INTER_AREA)
    by_row, by_column = small.sum(axis=1), small.sum(axis=0)
    widths = (small > 0.5).sum(axis=1).astype(np.float32)
    return np.concatenate([small.ravel(), by_row / max(float(by_row.max()), 1e-3),
                           by_column / max(float(by_column.max()), 1e-3), widths / max(float(widths.max()), 1.0),
                           [np.log(max(w, 1) / max(h, 1))]]).astype(np.float32)
