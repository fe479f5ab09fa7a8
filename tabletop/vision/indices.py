"""Find cards by their corner indices: a rank glyph with its suit pip just below it.

A card's outline needs contrast against the table, and a fanned or overlapped card shows no outline
at all; its index corner shows whatever the table. So the frame is also searched for indices: small
ink shapes (dark or coloured, darker than the pale paper round them) that come in pairs, a rank
glyph over a smaller suit pip of the same ink, close below it. The pair gives the card's upright
direction (from the glyph to the pip) and its scale (the glyph's height), so a card-sized quad can
be hung on the index for the reader to read at that one corner: the reader, not the finder, says
whether it is a card. Nothing here looks at the table's colour or brightness. Where ink runs together at about
ten pixels a glyph (a court card's pip into its picture's frame), the shapes that come apart at a deeper contrast
are taken too (``DEEP_INK``), as MSER takes the nested regions of two thresholds; a glyph that holds together only
fainter than its ink (bright light thins its strokes) too (``FAINT_INK``), and, round a solid suit pip no glyph took,
one fainter still (``LONE_GLYPH_INK``: overexposure and glare).
"""

from __future__ import annotations

import math
from collections import Counter
from typing import NamedTuple

import cv2
import numpy as np

from tabletop.vision.finder import CARD_ASPECT, CornerCandidate, _length, _lengths, _side_lines

__all__ = ["find_indices", "GLYPH_TO_CARD"]

GLYPH_TO_CARD = 0.10
"""Rank glyph height as a share of the card's height: rendered decks 0.075-0.125 (``render.random_style``),
the bidly faces 0.10, the Edje pinochle deck about 0.09 (measured on whole cards found)."""
_INDEX_INSET = 0.05
"""The index's top left lies about this share of the card's width and height in from its corner (rendered decks
0.03-0.08 and 0.03-0.07, the bidly faces 0.04 and 0.03)."""
_FINEST_LEVEL, _COARSEST_LEVEL = 1024, 400
"""Long sides of the finest and coarsest levels searched, each half the one before: a glyph is looked for where
it is 7-38 pixels tall, so together they see glyphs from 7 pixels tall at 1024 to 38 at 512 (a glyph a tenth
of a card as tall as the frame's short side in a 4:3 photo)."""
_LINEAR_SHRINK = 0.75
"""A level at least this share of the size it is made from is made by bilinear interpolation (every output pixel
still draws on the input pixels nearest it: no stroke is dropped), five times cheaper than an area resize by an
uneven ratio (1280x720 to 1024x576: 0.7 against 3.7 ms); a smaller one by averaging areas."""
_GLYPH_PX = (7, 26)
"""A rank glyph's size (its box's longer side, in level pixels) where it is looked for at one level."""
_GLYPH_MIN_AREA = 12
"""... and its least ink (level pixels)."""
PIP_MIN_PX, PIP_MIN_AREA = 4, 8
"""A suit pip's least size and ink (level pixels) at the finest level when that level is shrunk from the frame: the
reader reads the frame, where a pip this small at the level is a readable one (a full-HD card about 120 pixels
across has a 16-pixel glyph over a 12-pixel pip, 8 over 6 at 1024, and a pip of 7 was needed). Elsewhere a pip is
as large as a glyph must be (``_GLYPH_PX``, ``_GLYPH_MIN_AREA``): at the frame's own size smaller print is beyond
the reader (Edje's 504-pixel photos: print on a box read as a 3 over a pip at 0.89), and at a coarser level the
finer one sees the same index larger."""
_BACKGROUND_KERNEL = 31
"""Side of the square over which the paper's level round a glyph is taken (more than a glyph at any level)."""
_INK_CONTRAST = (14.0, 0.22)
"""A pixel is ink when it is this much darker than the paper round it: the larger of a level difference and a
share of the paper's level (so dim light and bright light both work)."""
_PAPER_SATURATION = 0.42
"""The paper round an index is grey or white ((max - min) / max of its colour below this; warm light makes white
paper about 0.3); cork, felt and wood round their specks and grain are more coloured."""
_PIP_SIZE = (0.4, 0.95)
"""A suit pip's height relative to its rank glyph's (rendered decks 0.55-0.95, real decks 0.6-0.9). Two pips of a
pip card, one over the other, are alike in size: up to 1.05 let them in as "tens" (a quick composite of the bidly
faces: precision 88 -> 92% at 0.95, Edje photos 499 -> 500 of 527 right, bidly deals 162 -> 159 cards)."""
_PIP_DISTANCE = (0.6, 1.9)
"""Centre distance from rank glyph to pip, in rank glyph sizes."""


class _Shape(NamedTuple):
    """One or more ink shapes: the pixels of their outlines (in level pixels) and the centre of all their pixels."""

    outline: np.ndarray
    centre: np.ndarray


def find_indices(frame: np.ndarray, skip: list[np.ndarray] = (),
                 long_sides: tuple[float, float] = (0.0, math.inf)) -> list[CornerCandidate]:
    """Card quads hung on every rank-glyph-over-pip pair in ``frame`` (BGR), in frame pixels, but those on the
    cards ``skip`` (quads in frame pixels: whole cards already read) and those whose card's long side (in frame
    pixels) is outside ``long_sides`` (the deck's size, where whole cards give it): those are dropped before
    their edges are looked for, the costliest test.

    Each is a ``CornerCandidate`` with its index corner first; ``shown`` is the index zone's box.
    """
    height, width = frame.shape[:2]
    out: list[CornerCandidate] = []
    faint_glyphs: list[bool] = []  # whether each found's glyph held together only in faint ink (``FAINT_INK``)
    longest = max(height, width)
    side = min(longest, _FINEST_LEVEL)
    level = frame
    while side >= _COARSEST_LEVEL:
        scale = side / longest
        # each level from the one before (halving is an exact 2x2 average, twenty times cheaper than an area
        # resize by an uneven ratio from the frame: 0.1 against 1.9 ms from 1280x720 to 512x288)
        size = (round(width * scale), round(height * scale))
        if scale < 1 and size != level.shape[1::-1]:
            shrink = size[0] / level.shape[1]
            level = cv2.resize(level, size, interpolation=cv2.INTER_LINEAR if shrink >= _LINEAR_SHRINK else cv2.INTER_AREA)
        skipped = np.zeros(level.shape[:2], np.uint8)
        for quad in skip:
            cv2.fillConvexPoly(skipped, np.rint(np.asarray(quad) * scale).astype(np.int32), 1)
        # ink runs together across a blurred pixel where a glyph is about ten pixels tall: at the finest level (a
        # coarser one sees larger glyphs, that the finest sees too, or with wider gaps)
        finest = side == min(longest, _FINEST_LEVEL)
        pip = ((max(PIP_MIN_PX, _GLYPH_PX[0] * scale), max(PIP_MIN_AREA, _GLYPH_MIN_AREA * scale * scale))
               if finest else (_GLYPH_PX[0], _GLYPH_MIN_AREA))
        for corners, shown, in_parts, faint, by_pip in _level_indices(
                level, skipped, (long_sides[0] * scale, long_sides[1] * scale), in_parts=finest, pip=pip):
            corners = (corners / scale).astype(np.float32)
            x, y, w, h = shown
            out.append(CornerCandidate(corners, (int(x / scale), int(y / scale), int(w / scale), int(h / scale)),
                                       by_index=True, by_parts=in_parts, by_pip=by_pip))
            faint_glyphs.append(bool(faint))
        side //= 2
    # a card is spanned by two indices of its own ink only: one whose glyph held together only in faint ink may be
    # print or a shadow's edge, and a card spanned by it is hung as though measured (a fan's card given a far corner
    # on another card's index)
    return pair_indices([c for c, f in zip(out, faint_glyphs) if not f]) + out


PAIR_TURN = 0.94
"""A card's two indices are printed half a turn apart: their down directions (glyph to pip) are opposite within
about 20 degrees (|cos| at least this: a camera's perspective and the glyphs' own slant)."""
PAIR_ASPECT = (1.15, 1.8)
"""From one index corner to the other, along the first index's down and right: a card's height over its width
(poker 1.40, bridge 1.56, and a tilted camera's foreshortening)."""
PAIR_SIZE = (0.6, 1.6)
"""The card the two indices span, against the size their glyphs give (``GLYPH_TO_CARD``: decks vary)."""
PAIR_GLYPHS = 1.4
"""The two indices of one card are alike in size: at most this ratio apart (perspective)."""


def pair_indices(found: list[CornerCandidate]) -> list[CornerCandidate]:
    """Whole cards spanned by two indices found half a turn apart at opposite corners, each index used once.

    An index found alone gives its card's size only through a glyph-to-card ratio that varies from deck to deck,
    so its card's far corner is guessed and often read off its index. Two indices of one card give its corners
    exactly, whatever the table: the card is then read at both, as surely as a card found by its outline.
    """
    if len(found) < 2:
        return []
    origin = np.array([c.corners[0] for c in found], np.float64)
    axes = [_axes(c.corners) for c in found]
    right = np.array([a[0] for a in axes], np.float64)
    down = np.array([a[1] for a in axes], np.float64)
    short = np.array([a[2] for a in axes], np.float64)
    # every ordered pair (i, j), i < j, at once: index j as seen from index i
    turn = down @ down.T
    glyphs = short[None, :] / np.maximum(short[:, None], 1e-6)
    span = origin[None, :, :] - origin[:, None, :]
    across = np.einsum("ijk,ik->ij", span, right)
    along = np.einsum("ijk,ik->ij", span, down)
    back_right = np.einsum("ijk,jk->ij", -span, right)
    back_down = np.einsum("ijk,jk->ij", -span, down)
    with np.errstate(divide="ignore", invalid="ignore"):
        aspect = along / across
        size = across / (0.5 * (short[:, None] + short[None, :]))
    ok = (np.triu(np.ones(turn.shape, bool), 1) & (turn <= -PAIR_TURN)
          & (glyphs >= 1 / PAIR_GLYPHS) & (glyphs <= PAIR_GLYPHS) & (across > 0)
          & (aspect >= PAIR_ASPECT[0]) & (aspect <= PAIR_ASPECT[1]) & (size >= PAIR_SIZE[0]) & (size <= PAIR_SIZE[1])
          # seen from the second index the first must lie the same way: down and right of it
          & (back_right > 0) & (back_down > 0))
    pairs = []
    for i, j in zip(*np.nonzero(ok)):
        misfit = abs(math.log(size[i, j])) + abs(math.log(aspect[i, j] / CARD_ASPECT)) + (1 + turn[i, j])
        pairs.append((float(misfit), int(i), int(j), float(across[i, j]), float(along[i, j])))
    pairs.sort(key=lambda p: p[0])
    used: set[int] = set()
    out = []
    for _, i, j, across, along in pairs:
        if i in used or j in used:
            continue
        used.update((i, j))
        a, b = found[i].corners, found[j].corners
        right, down, _ = _axes(a)
        b_right, b_down, _ = _axes(b)
        # each far corner halfway between what either index says (a tilted camera's perspective)
        top_right = 0.5 * ((a[0] + across * right) + (b[0] + along * b_down))
        bottom_left = 0.5 * ((a[0] + along * down) + (b[0] + across * b_right))
        quad = np.array([a[0], top_right, b[0], bottom_left], np.float32)
        x, y, w, h = cv2.boundingRect(quad)
        out.append(CornerCandidate(quad, (int(x), int(y), int(w), int(h)), by_index=True, paired=True,
                                   by_parts=found[i].by_parts or found[j].by_parts))
    return out


def _axes(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """A hung card's right and down directions (unit vectors) from its index corner, and its short side."""
    across, along = corners[1] - corners[0], corners[3] - corners[0]
    short = float(_length(across))
    return across / max(short, 1e-6), along / max(float(_length(along)), 1e-6), short


def _ink_mask(level: np.ndarray, nested: bool = True,
              ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None, np.ndarray | None]:
    """Pixels darker (in their lowest channel: black and red ink alike) than the grey paper round them: at the ink
    contrast, and (``nested``) at the deeper one (``DEEP_INK``), at the fainter one (``FAINT_INK``) and at the faintest
    (``LONE_GLYPH_INK``)."""
    b, g, r = cv2.split(level)  # once: OpenCV copies a strided channel view each time it is handed one
    lowest = cv2.min(cv2.min(b, g), r)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (_BACKGROUND_KERNEL, _BACKGROUND_KERNEL))
    paper = cv2.morphologyEx(lowest, cv2.MORPH_CLOSE, kernel)
    highest = cv2.max(cv2.max(b, g), r)
    paper_high = cv2.morphologyEx(highest, cv2.MORPH_CLOSE, kernel)
    # both tests on whole numbers through lookup tables of the paper's level (the same pixels as in floating point,
    # a third of the time): depth > need exactly when depth > floor(need), spread < limit when spread < ceil(limit)
    depth = cv2.subtract(paper, lowest)
    ink = cv2.compare(depth, cv2.LUT(paper, _NEED_FLOOR), cv2.CMP_GT)
    grey = cv2.compare(cv2.subtract(paper_high, paper), cv2.LUT(paper_high, _LIMIT_CEIL), cv2.CMP_LT)
    if not nested:
        return cv2.bitwise_and(ink, grey) // 255, None, None, None
    deep = cv2.compare(depth, cv2.LUT(paper, _DEEP_FLOOR), cv2.CMP_GT)
    faint = cv2.compare(depth, cv2.LUT(paper, _FAINT_FLOOR), cv2.CMP_GT)
    faintest = cv2.compare(depth, cv2.LUT(paper, _LONE_FLOOR), cv2.CMP_GT)
    return (cv2.bitwise_and(ink, grey) // 255, cv2.bitwise_and(deep, grey) // 255,
            cv2.bitwise_and(faint, grey) // 255, cv2.bitwise_and(faintest, grey) // 255)


DEEP_INK = 0.35
"""Ink at least this share of the paper's level darker than it. At about ten pixels a glyph, a court card's suit
pip runs into the frame of its picture, or into its rank glyph, across a pixel or two blurred half as dark as
ink: at this deeper contrast they come apart (the two levels of MSER's nested regions, at two thresholds)."""
PART_MIN_AREA = 6
"""A shape that comes apart at the deeper contrast has at least two parts of this many pixels."""
PARTS_MAX = 96
"""At most this many parts a level, those of the smallest shapes first (time stays bounded: cork's specks are one
web of ink at the ink contrast, and thousands of specks at the deeper one). Composites of the training tables
have up to about 30."""


def _parts_apart(labels: np.ndarray, stats: np.ndarray, centres: np.ndarray, deep: np.ndarray,
                 ) -> tuple[tuple[np.ndarray, np.ndarray], np.ndarray, np.ndarray] | None:
    """The parts of ink shapes (``labels``) that come apart at the deeper contrast (``deep``, within the shapes):
    the parts' label image and the labels in it of the parts kept (part i, counted from 1, is labelled
    ``kept[i - 1]``), their stats and centres, only for parts whose shape splits into two or more (a shape that
    stays whole is taken once)."""
    count, parts, part_stats, part_centres = cv2.connectedComponentsWithStatsWithAlgorithm(deep, 8, cv2.CV_32S,
                                                                                       cv2.CCL_BBDT)
    if count < 3:
        return None
    big = np.flatnonzero(part_stats[1:, cv2.CC_STAT_AREA] >= PART_MIN_AREA) + 1
    if len(big) < 2:
        return None
    # each part's shape: the label under the part's first pixel in raster order (its top row's leftmost), looked
    # for along every part's top row at once
    xs, ys, ws = (part_stats[big, i] for i in (cv2.CC_STAT_LEFT, cv2.CC_STAT_TOP, cv2.CC_STAT_WIDTH))
    starts = np.concatenate([[0], np.cumsum(ws)[:-1]])
    along = np.arange(int(ws.sum())) - np.repeat(starts, ws)
    row, col = np.repeat(ys, ws), np.repeat(xs, ws) + along
    hits = np.flatnonzero(parts[row, col] == np.repeat(big, ws))
    _, first = np.unique(np.searchsorted(starts, hits, side="right"), return_index=True)  # each part's first hit
    parent = labels[row[hits[first]], col[hits[first]]]
    split = np.bincount(parent, minlength=len(stats))[parent] >= 2
    split &= parent > 0
    if not split.any():
        return None
    keep = big[split]
    if len(keep) > PARTS_MAX:  # a table's texture that is one web of ink at the ink contrast: its specks come last
        keep = keep[np.argsort(stats[parent[split], cv2.CC_STAT_AREA], kind="stable")[:PARTS_MAX]]
        keep.sort()
    # part i (from 1, in the order kept) is row count + i - 1 of the stats; its pixels are those labelled keep[i - 1]
    # (looked up in a glyph's box only: relabelling the whole level cost more than finding the parts)
    return (parts, keep), part_stats[keep], part_centres[keep]


FAINT_INK = 0.12
"""Ink at least this share of the paper's level darker than it (about half the ink contrast). A rank glyph's strokes
are a pixel or two wide where it is about ten pixels tall, and a camera's blur spreads them: a red glyph in bright or
tinted light, or a thin "5" on a webcam, reaches only 0.15-0.2 of the paper's level where its solid pip beside it
reaches the full contrast, so at the ink contrast the glyph falls into specks and its index is never hypothesised.
Shapes that hold together only at this contrast are taken as rank glyphs too (``_grown_at_faint``), the shallower
of MSER's nested regions, as ``DEEP_INK`` is the deeper one."""
FAINT_GROWTH = 1.4
"""A shape at the faint contrast is taken when it holds two or more shapes of the ink contrast, or this many times
their ink: strokes that came apart or thinned at the ink contrast (a speck of a table's grain grows little)."""
FAINT_MAX = 64
"""At most this many faint shapes a level, the smallest first (time stays bounded on a busy table)."""


def _grown_at_faint(labels: np.ndarray, stats: np.ndarray, mask: np.ndarray, faint: np.ndarray, size: tuple[float, float],
                    ) -> tuple[tuple[np.ndarray, np.ndarray], np.ndarray, np.ndarray, list[np.ndarray]] | None:
    """The shapes of the faint ink (``faint``) of a rank glyph's size (``size``: least and most of its box's longer
    side) that hold more than the ink shapes (``labels``, ``stats`` of ``mask``) inside them: two or more of them, or
    ``FAINT_GROWTH`` times their ink. As ``_parts_apart``: their label image and the labels kept, stats and centres;
    and the labels of the ink shapes each holds."""
    count, shapes, shape_stats, shape_centres = cv2.connectedComponentsWithStatsWithAlgorithm(faint, 8, cv2.CV_32S,
                                                                                          cv2.CCL_BBDT)
    if count < 2 or len(stats) < 2:  # no faint shape, or no ink shape for one to hold
        return None
    longer = np.maximum(shape_stats[:, cv2.CC_STAT_WIDTH], shape_stats[:, cv2.CC_STAT_HEIGHT])
    sized = (longer >= size[0]) & (longer <= size[1])
    sized[0] = False
    if not sized.any():
        return None
    # every ink shape lies in one faint shape (ink is faint ink too): the one under its first pixel in raster order
    # (its top row's leftmost), looked for along every ink shape's top row at once
    inner = np.arange(1, len(stats))
    outer = shapes[stats[1:, cv2.CC_STAT_TOP], _first_in_top_row(labels, stats[1:], inner)]
    ink = np.bincount(outer, weights=stats[1:, cv2.CC_STAT_AREA], minlength=count)
    held = np.bincount(outer, minlength=count)
    keep = np.flatnonzero(sized & (held >= 1) & ((held >= 2) | (shape_stats[:, cv2.CC_STAT_AREA] >= FAINT_GROWTH * ink)))
    if len(keep) == 0:
        return None
    if len(keep) > FAINT_MAX:
        keep = np.sort(keep[np.argsort(shape_stats[keep, cv2.CC_STAT_AREA], kind="stable")[:FAINT_MAX]])
    order = np.argsort(outer, kind="stable")
    starts = np.searchsorted(outer[order], keep)
    held_in = [inner[order[a : a + n]] for a, n in zip(starts, held[keep])]
    return (shapes, keep), shape_stats[keep], shape_centres[keep], held_in


def _first_in_top_row(labels: np.ndarray, stats: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """The column of each shape's first pixel in raster order (``wanted``: their labels, ``stats`` their rows)."""
    xs, ys, ws = (stats[:, i] for i in (cv2.CC_STAT_LEFT, cv2.CC_STAT_TOP, cv2.CC_STAT_WIDTH))
    starts = np.concatenate([[0], np.cumsum(ws)[:-1]])
    along = np.arange(int(ws.sum())) - np.repeat(starts, ws)
    row, col = np.repeat(ys, ws), np.repeat(xs, ws) + along
    hits = np.flatnonzero(labels[row, col] == np.repeat(wanted, ws))
    _, first = np.unique(np.searchsorted(starts, hits, side="right"), return_index=True)
    return col[hits[first]]


_LEVELS = np.arange(256, dtype=np.float32)
_NEED_FLOOR = np.floor(np.maximum(_INK_CONTRAST[0], _INK_CONTRAST[1] * _LEVELS)).astype(np.uint8)
_DEEP_FLOOR = np.floor(np.maximum(_INK_CONTRAST[0], DEEP_INK * _LEVELS)).astype(np.uint8)
_FAINT_FLOOR = np.floor(np.maximum(_INK_CONTRAST[0], FAINT_INK * _LEVELS)).astype(np.uint8)
_LIMIT_CEIL = np.minimum(np.ceil(_PAPER_SATURATION * np.maximum(_LEVELS, 1)), 255).astype(np.uint8)


def _level_indices(level: np.ndarray, skipped: np.ndarray, long_sides: tuple[float, float], in_parts: bool = True,
                   pip: tuple[float, float] = (_GLYPH_PX[0], _GLYPH_MIN_AREA),
                   ) -> list[tuple[np.ndarray, tuple[int, int, int, int], bool, bool, bool]]:
    """The card quads hung on the indices of one level, their index zones' boxes, whether an index is doubtful (found
    only in parts of its ink (``_parts_apart``) or in faint ink (``_grown_at_faint``), or on a pip another glyph's
    index took: ``PIP_TAKERS``), whether its rank glyph held together only in faint ink, and whether it was found
    only round its lone suit pip (``_glyphs_over_lone_pips``). ``pip``: a suit pip's least size and ink
    (``PIP_MIN_PX``)."""
    mask, deep, faint, faintest = _ink_mask(level, in_parts)
    gray = cv2.cvtColor(level, cv2.COLOR_BGR2GRAY)
    # the same labels as the default algorithm's (numbered in raster order), three times faster on a busy table's
    # many specks (1024x576, 500 components: 1.1 against 3.4 ms)
    count, labels, stats, centres = cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_32S, cv2.CCL_BBDT)
    # shapes beyond the ink's own, numbered after them: inks that come apart at a deeper contrast, and glyphs that
    # hold together only at a fainter one; each source (label image, labels kept) from its first number on
    sources: list[tuple[int, np.ndarray, np.ndarray]] = []
    more = [_parts_apart(labels, stats, centres, deep) if in_parts else None,
            _grown_at_faint(labels, stats, mask, faint, (_GLYPH_PX[0], _GLYPH_PX[1] * 1.45)) if in_parts else None]
    faint_held = more[-1][3] if more[-1] is not None else []
    for extra in more:
        if extra is not None:
            sources.append((len(stats), *extra[0]))
            stats, centres = np.vstack([stats, extra[1]]), np.vstack([centres, extra[2]])
    faint_from = sources[-1][0] if more[-1] is not None else len(stats)  # faint shapes are glyphs only: a pip is solid
    x, y, w, h, area = (stats[1:, i] for i in range(5))
    size = np.maximum(w, h)
    fill = area / np.maximum(1, w * h)
    # every shape that may be a pip or a glyph (a glyph's own bounds are asked of the pairs below)
    ok = (size >= pip[0]) & (size <= _GLYPH_PX[1] * 1.45) & (area >= pip[1]) & (fill > 0.12)
    at = np.rint(centres[1:]).astype(int)
    ok &= skipped[np.clip(at[:, 1], 0, skipped.shape[0] - 1), np.clip(at[:, 0], 0, skipped.shape[1] - 1)] == 0
    ids = np.flatnonzero(ok)
    if len(ids) < 2:
        return []
    c = centres[1:][ids]
    s = size[ids].astype(np.float32)
    glyph_like = (s >= _GLYPH_PX[0]) & (area[ids] >= _GLYPH_MIN_AREA)
    faint = ids + 1 >= faint_from  # a shape that held together only in faint ink: a glyph, never a pip
    # every pair: a pip below a glyph, of a pip's size, at a pip's distance
    d = np.linalg.norm(c[:, None, :] - c[None, :, :], axis=2)
    ratio = s[None, :] / s[:, None]
    near = ((d >= _PIP_DISTANCE[0] * s[:, None]) & (d <= _PIP_DISTANCE[1] * s[:, None])
            & (ratio >= _PIP_SIZE[0]) & (ratio <= _PIP_SIZE[1]) & glyph_like[:, None] & (s[:, None] <= _GLYPH_PX[1] * 1.45)
            & ~faint[None, :])
    found = []
    outlines: dict[int, np.ndarray] = {}

    def outline(k: int) -> np.ndarray:
        """The glyph's outline pixels: its extents along any direction are those of all its pixels, at a
        fraction of the cost of projecting every pixel."""
        if k not in outlines:
            j = ids[k] + 1
            source, label = labels, j
            for first, image, kept in reversed(sources):
                if j >= first:
                    source, label = image, kept[j - first]
                    break
            outlines[k] = _outline_of(source, label, stats[j])
        return outlines[k]

    def glyph(*ks: int) -> _Shape:
        """The glyphs ``ks`` taken as one shape: their outlines and the centre of all their pixels."""
        if len(ks) == 1:
            return _Shape(outline(ks[0]), centres[ids[ks[0]] + 1])
        weights = stats[ids[list(ks)] + 1, cv2.CC_STAT_AREA].astype(np.float64)
        centre = (centres[ids[list(ks)] + 1] * weights[:, None]).sum(axis=0) / weights.sum()
        return _Shape(np.concatenate([outline(k) for k in ks]) if len(ks) > 1 else outline(ks[0]), centre)

    # each glyph keeps its likeliest pip and each pip its likeliest two glyphs (``PIP_TAKERS``; in a fan the next
    # card's glyph sits beside this one at a pip's distance: it is a worse fit than the pip below)
    fits = []
    for r, p in zip(*np.nonzero(near)):
        fit = _index_fit(glyph(r), glyph(p))
        if fit is not None:
            fits.append((fit[0], int(r), int(p), fit[1]))
    # an index in the ink's own shapes first: a faint glyph only hangs a pip no ink glyph took, and not where the ink
    # shapes it holds are taken (``FAINT_INK``: it adds an index the ink missed, never replaces one)
    fits.sort(key=lambda f: (faint[f[1]], f[0]))
    position = np.full(len(stats), -1)
    position[ids + 1] = np.arange(len(ids))
    ink_sizes = np.where(faint, 0, s)  # a faint glyph's shape is no ten's other digit beside an ink glyph
    glyphs_used: set[int] = set()
    pip_takers: Counter[int] = Counter()
    for _, r, p, hung in fits:
        if r in glyphs_used or pip_takers[p] >= PIP_TAKERS or r in pip_takers and p in glyphs_used:
            continue
        held = [int(k) for k in position[faint_held[ids[r] + 1 - faint_from]]] if faint[r] else []
        if any(k in glyphs_used or k in pip_takers for k in held):
            continue
        # a ten's other digit in the ink's own shapes (a faint shape beside an ink glyph is print or shadow round it)
        digits = [r] + _other_digits(r, p, c, s if faint[r] else ink_sizes)
        rank = glyph(*digits)
        if len(digits) > 1:  # a ten: hung on both its digits, or the "0" alone reads as a queen
            refit = _index_fit(rank, glyph(p))
            if refit is None:
                continue
            hung = refit[1]
        if not long_sides[0] <= _long_side(hung[0]) <= long_sides[1]:
            continue
        if _card_edges(gray, rank, glyph(p)) < EDGES_NEEDED:  # the costliest test: last
            continue
        glyphs_used.update(digits + [k for k in held if k >= 0])
        # an index on a pip another glyph's took is as doubtful as one found in parts: kept only if read surely
        doubtful = max(ids[digits + [p]]) + 1 >= count or pip_takers[p] > 0
        pip_takers[p] += 1
        found.append((*hung, doubtful, faint[r], False))
    if in_parts:
        # the ink's own shapes (``count`` of them: not parts of one) that no index took
        lone = [k for k in range(len(ids)) if ids[k] + 1 < count and k not in glyphs_used and k not in pip_takers
                and fill[ids[k]] >= LONE_PIP_FILL]
        found += _glyphs_over_lone_pips(lone, ids, labels, stats, c, s, mask, faintest, gray, long_sides)
    return found


LONE_GLYPH_INK = 0.07
"""On bright paper (overexposure, glare) a rank glyph's thin strokes fade to 0.07-0.12 of the paper's level darker than
it, fainter than ``FAINT_INK``, and fall into specks, while its solid suit pip below keeps the full ink contrast. Round a
pip no glyph took, a glyph is looked for in the pixels this share of the paper's level darker than it (at least
``LONE_GLYPH_FLOOR`` levels) but not ink nor beside ink, its specks joined across a pixel (a stroke the camera's blur
broke) into one shape: a faint glyph, not a pip, a picture or another glyph's rim."""
LONE_GLYPH_FLOOR = 8
LONE_GLYPH_PAPER = 220
"""... and only on paper at least this bright (the overexposed and glared cards whose glyphs fade were on paper of
240-255; on duller paper the faint contrast holds such a glyph, and a shadow's or a picture's faint shapes by a pip
are read for nothing: 30 such hung on 20 HD frames, one read surely)."""
_LONE_FLOOR = np.where(_LEVELS >= LONE_GLYPH_PAPER, np.floor(np.maximum(LONE_GLYPH_FLOOR, LONE_GLYPH_INK * _LEVELS)),
                       255).astype(np.uint8)
LONE_GLYPH_REACH = 4.0
"""A lone pip's glyph lies within this many pip sizes of it (its centre up to ``_PIP_DISTANCE[1]`` glyph sizes away, a
glyph up to 1 / ``_PIP_SIZE[0]`` pip sizes)."""
LONE_PIP_FILL = 0.45
"""A lone pip is solid: its ink fills at least this share of its box (a suit pip 0.55-0.85; a stroke or a speck of a
table's grain less)."""


def _glyphs_over_lone_pips(lone: list[int], ids: np.ndarray, labels: np.ndarray, stats: np.ndarray, centres: np.ndarray,
                           sizes: np.ndarray, ink: np.ndarray, faintest: np.ndarray, gray: np.ndarray,
                           long_sides: tuple[float, float]) -> list[tuple[np.ndarray, tuple, bool, bool, bool]]:
    """Indices whose rank glyph is too faint for the ink contrasts, found from their solid suit pip (``lone``: indices
    into ``ids``, the level's pip-sized ink shapes (``labels``, ``stats``) that no index took; ``centres`` and ``sizes``
    those of ``ids``): a faint shape (``LONE_GLYPH_INK``) at a glyph's place and size above the pip. Each as
    ``_level_indices`` gives them, doubtful (kept only if read surely), faint (it spans no card with another index) and
    found by its pip (``CornerCandidate.by_pip``: it replaces no other hypothesis of its card read surely)."""
    # faint pixels, not ink nor beside it (a pip's blurred rim), within a glyph's reach of a lone pip holding at least a
    # glyph's least ink (only bright paper has any: ``LONE_GLYPH_PAPER``); the box round those reaches is all labelled
    pale = cv2.bitwise_and(faintest, cv2.bitwise_not(cv2.dilate(ink, np.ones((3, 3), np.uint8))))
    height, width = pale.shape
    counted = cv2.integral(pale)
    pips, reaches, box = [], [], [width, height, 0, 0]
    for k in lone:
        (x, y), reach = centres[k].tolist(), int(math.ceil(LONE_GLYPH_REACH * float(sizes[k])))
        x0, y0 = max(0, int(x) - reach), max(0, int(y) - reach)
        x1, y1 = min(width, int(x) + reach + 2), min(height, int(y) + reach + 2)
        if counted[y1, x1] - counted[y0, x1] - counted[y1, x0] + counted[y0, x0] >= _GLYPH_MIN_AREA:
            pips.append(k)
            reaches.append(reach)
            box = [min(box[0], x0), min(box[1], y0), max(box[2], x1), max(box[3], y1)]
    if not pips:
        return []
    bx0, by0, bx1, by1 = box
    near_pip = np.zeros((by1 - by0, bx1 - bx0), np.uint8)
    for k, reach in zip(pips, reaches):
        cv2.circle(near_pip, (int(round(centres[k][0])) - bx0, int(round(centres[k][1])) - by0), reach, 1, -1)
    pale = cv2.morphologyEx(cv2.bitwise_and(pale[by0:by1, bx0:bx1], near_pip), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    count, shapes, shape_stats, shape_centres = cv2.connectedComponentsWithStatsWithAlgorithm(pale, 8, cv2.CV_32S,
                                                                                          cv2.CCL_BBDT)
    shape_centres = shape_centres + (bx0, by0)
    pips = np.array(pips)
    w, h, area = shape_stats[1:, 2], shape_stats[1:, 3], shape_stats[1:, 4]
    glyph_sizes = np.maximum(w, h).astype(np.float32)
    glyphs = np.flatnonzero((glyph_sizes >= _GLYPH_PX[0]) & (glyph_sizes <= _GLYPH_PX[1] * 1.45)
                            & (area >= _GLYPH_MIN_AREA) & (area > 0.12 * w * h))
    if not len(glyphs):
        return []
    # every pair: a faint glyph at a pip's distance from a pip of a pip's size for it (as ``_level_indices``'s pairs)
    g_size, p_size = glyph_sizes[glyphs][:, None], sizes[pips][None, :].astype(np.float32)
    apart = np.linalg.norm(shape_centres[1:][glyphs][:, None, :] - centres[pips][None, :, :], axis=2)
    near = ((apart >= _PIP_DISTANCE[0] * g_size) & (apart <= _PIP_DISTANCE[1] * g_size)
            & (p_size >= _PIP_SIZE[0] * g_size) & (p_size <= _PIP_SIZE[1] * g_size))
    fits = []
    for g, p in zip(*np.nonzero(near)):
        label = glyphs[g] + 1
        glyph = _Shape(_outline_of(shapes, label, shape_stats[label], (bx0, by0)), shape_centres[label])
        pip_label = ids[pips[p]] + 1
        pip = _Shape(_outline_of(labels, pip_label, stats[pip_label]), centres[pips[p]])
        fit = _index_fit(glyph, pip)
        if fit is not None:
            fits.append((fit[0], int(g), int(p), fit[1], glyph, pip))
    found = []
    used: set[tuple[str, int]] = set()
    for _, g, p, hung, glyph, pip in sorted(fits, key=lambda f: f[0]):
        if ("glyph", g) in used or ("pip", p) in used or not long_sides[0] <= _long_side(hung[0]) <= long_sides[1]:
            continue
        if _card_edges(gray, glyph, pip) < EDGES_NEEDED:
            continue
        used |= {("glyph", g), ("pip", p)}
        found.append((*hung, True, True, True))
    return found


def _outline_of(labels: np.ndarray, label: int, box: np.ndarray, offset: tuple[int, int] = (0, 0)) -> np.ndarray:
    """The outline pixels (float32) of the shape ``label`` of ``labels``, in its box (x, y, w, h), moved by ``offset``
    (where ``labels`` starts in the level)."""
    x0, y0, w, h = (int(v) for v in box[:4])
    shape = (labels[y0 : y0 + h, x0 : x0 + w] == label).astype(np.uint8)
    contours, _ = cv2.findContours(shape, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return (np.concatenate(contours).reshape(-1, 2) + (x0 + offset[0], y0 + offset[1])).astype(np.float32)


def _long_side(corners: np.ndarray) -> float:
    """A quad's long side: the mean of its two longer opposite sides (as ``pipeline`` measures a card)."""
    e = _lengths(corners[[1, 2, 3, 0]] - corners)
    return float(max(e[0] + e[2], e[1] + e[3]) / 2)


def _other_digits(rank: int, pip: int, centres: np.ndarray, sizes: np.ndarray) -> list[int]:
    """The glyphs beside ``rank`` on its line, of its height (the other digit of a "10"): within 0.25-0.8 of its
    size across the index, 0.3 along it (rendered and real tens: the digits' centres 0.5-0.65 apart). A fan's
    next index sits further off (the bidly deals: 1.1-1.3)."""
    down = centres[pip] - centres[rank]
    down = down / max(1e-6, float(_length(down)))
    right = np.array([down[1], -down[0]])
    offset = centres - centres[rank]
    across, along = offset @ right, offset @ down
    size = float(sizes[rank])
    beside = ((np.abs(across) >= 0.25 * size) & (np.abs(across) <= 0.8 * size) & (np.abs(along) <= 0.3 * size)
              & (sizes >= 0.7 * size) & (sizes <= 1.4 * size))
    beside[[rank, pip]] = False
    return [int(k) for k in np.flatnonzero(beside)[:1]]


PIP_TAKERS = 2
"""A suit pip hangs the indices of at most this many rank glyphs, the likeliest first. A part of a court card's picture
or of a big pip beside an index can pair with its pip at a better fit than its own rank glyph (a king of clubs in a
full-HD row: its big club's lobe, beside the small one, is a "glyph" over it); with one taker the pip was gone and
the index never hung. The reader tells which is a card; the second is doubtful (``by_parts``: kept only if read
surely), else Edje photos had 5 more unsure reads on no label. Books bench (12 a layout, 5 frames), one / two takers:
book card-frames with nothing on their index fan 70 / 59 of 220, row 36 / 33 of 240; read surely fan 92 / 102, row
163 / 167, square 200 / 203, pile 173 / 176; books 28 / 28 of 47, 0 / 0 false. Edje 509 / 509 of 527, bidly 285 /
285 of 350."""


EDGES_NEEDED = 1
"""Card edges (of the side and top by an index) that must show for a pair to be taken for an index: Edje photos
1 / 2 needed: 500 / 499 of 527 right, 56 / 44 reads on the background; bidly deals 164 / 138 cards."""


def _card_edges(gray: np.ndarray, rank_shape: _Shape, pip_shape: _Shape) -> int:
    """How many (up to ``EDGES_NEEDED``) of the card's two edges by an index (its side left of it, its top above it) show as straight lines
    a little way from it. Every index in view has its card's paper round it up to those edges (anything lying
    nearer would hide it); a carpet's or a cloth's specks that pair up like an index have no such edges."""
    rank, pip = rank_shape.outline, pip_shape.outline
    down = (pip_shape.centre - rank_shape.centre).astype(np.float32)
    down /= max(1e-6, float(_length(down)))
    right = np.array([down[1], -down[0]], np.float32)
    both = np.concatenate([rank, pip])
    along_down, along_right = both @ down, both @ right
    top, bottom = float((rank @ down).min()), float(along_down.max())
    left, far = float(along_right.min()), float(along_right.max())
    glyph_h = float((rank @ down).max()) - top + 1
    corner = left * right + top * down
    # the side: lines parallel to ``down`` left of the index, over the index's height
    found = int(bool(_side_lines(gray, corner, -right, down, 0.1 * glyph_h, 1.2 * glyph_h, (0.0, bottom - top),
                                 need=0.75)))
    if found >= EDGES_NEEDED:
        return found  # enough: the other is not looked for
    # the top: lines parallel to ``right`` above the index, over the index's width
    if _side_lines(gray, corner, -down, right, 0.1 * glyph_h, 1.2 * glyph_h, (0.0, far - left), need=0.75):
        found += 1
    return found


def _index_fit(rank_shape: _Shape, pip_shape: _Shape) -> tuple[float, tuple[np.ndarray, tuple]] | None:
    """How far ``rank`` over ``pip`` is from a typical index (0 is typical), and the card quad
    whose top-left index they are, or None if they do not sit as an index does: the pip below the glyph, a small
    gap between them, the pip smaller than the glyph."""
    rank, pip = rank_shape.outline, pip_shape.outline
    down = (pip_shape.centre - rank_shape.centre).astype(np.float32)
    down /= max(1e-6, float(_length(down)))
    right = np.array([down[1], -down[0]], np.float32)  # the card lies to the index's right (x right, y down)
    rank_down, pip_down = rank @ down, pip @ down
    rank_bottom = rank_down.max()
    glyph_h = float(rank_bottom - rank_down.min()) + 1
    gap = float(pip_down.min() - rank_bottom)
    if not (-0.15 * glyph_h <= gap <= 0.7 * glyph_h):
        return None  # (most pairs: the glyph's width is then not measured)
    rank_right, pip_right = rank @ right, pip @ right
    if float(rank_right.max() - rank_right.min()) + 1 > 1.6 * glyph_h:
        return None
    pip_h = float(pip_down.max() - pip_down.min()) + 1
    pip_w = float(pip_right.max() - pip_right.min()) + 1
    if not (_PIP_SIZE[0] * glyph_h <= pip_h <= _PIP_SIZE[1] * glyph_h) or pip_w > 1.35 * pip_h:
        return None
    # a typical index: the pip 0.75 of the glyph's height, 0.15 of it below
    misfit = abs(pip_h / glyph_h - 0.75) + abs(gap / glyph_h - 0.15)
    long_side = glyph_h / GLYPH_TO_CARD
    short_side = long_side / CARD_ASPECT
    left = min(float(rank_right.min()), float(pip_right.min()))
    top = float(rank_down.min())
    corner = (left - _INDEX_INSET * short_side) * right + (top - _INDEX_INSET * long_side) * down
    across, along = short_side * right, long_side * down
    quad = np.array([corner, corner + across, corner + across + along, corner + along], np.float32)
    zone = np.concatenate([rank, pip])
    x0, y0 = zone.min(axis=0)
    x1, y1 = zone.max(axis=0)
    return misfit, (quad, (int(x0), int(y0), int(math.ceil(x1 - x0)) + 1, int(math.ceil(y1 - y0)) + 1))
