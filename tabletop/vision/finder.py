"""Find face-up cards in a frame and warp each to a standard upright view.

Cards are the pale, unsaturated, roughly 5:7 quadrilaterals of the frame. The finder thresholds a "paper" map (how
bright and grey each pixel is, relative to its surroundings, so uneven light and any table colour work), takes the
outer contours, and fits a quadrilateral to each (``approxPolyDP``, else ``minAreaRect``). A blob that is several
cards lying edge to edge is split by eroding it until it comes apart. A second, relaxed paper measure (paler than
round it, no global threshold) adds cards in dim light or on pale tables where the first found none; those must
read as cards. On light wood, paper, linen or marble a card may be no paler than the table round it: the closed
outlines of faint edges, filled (a court card's picture inside, the table's veins or grain running off them cut
away: ``_outlined_regions``), add cards whose margins are grey paper; those too must read as cards. Where blobs
stay unexplained (cards overlapping, fanned, partly hidden, touching other paper), card-sized quads are hung on
their right-angled corners (``CornerCandidate``) for the reader to read at that one index corner and keep or
reject. In a fan, where each card lies on the one before, a card's corner is also where another card's side (a
faint straight line across white paper) meets the edge they share; a fan that fits a card's shape as a whole is
taken for its cards.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from tabletop.vision.boxes import share_of_smaller

__all__ = ["VIEW_W", "VIEW_H", "VIEW_MARGIN", "VIEW_CORNERS", "CardQuad", "CornerCandidate", "find_cards", "find_cards_and_corners",
           "warp_card", "WARP_BLOCK", "order_quad", "paper_mask"]

VIEW_W, VIEW_H = 200, 280
"""Size of the standard card view (portrait, 5:7)."""
VIEW_MARGIN = 4
"""Pixels of table kept round the card in the view, so an index near the card's edge stays whole."""
VIEW_CORNERS = np.array([[VIEW_MARGIN, VIEW_MARGIN], [VIEW_W - 1 - VIEW_MARGIN, VIEW_MARGIN],
                         [VIEW_W - 1 - VIEW_MARGIN, VIEW_H - 1 - VIEW_MARGIN], [VIEW_MARGIN, VIEW_H - 1 - VIEW_MARGIN]], np.float32)
"""Where a card's corners land in its view (top left, top right, bottom right, bottom left)."""

_WORK_SIZE = 512  # frames are analysed at most this wide (long side) for speed
CARD_ASPECT = 88 / 63
"""A card's long side over its short side (poker size, 63 × 88 mm): what every size guess from one side assumes."""
_ASPECT_RANGE = (1.15, 1.75)
_MIN_AREA = 0.004  # of the frame
_MAX_AREA = 0.6
_SKEW = 0.42  # |cos| of a corner angle: 65..115 degrees (perspective skews a card's corners a little)


def _length(vector: np.ndarray):
    """``np.linalg.norm(vector)``: the same arithmetic (a dot product, its square root, in the vector's float
    type), without its dispatch, which cost more than the sum itself on the few-element vectors measured here."""
    vector = np.asarray(vector)
    if not issubclass(vector.dtype.type, np.inexact):
        vector = vector.astype(float)
    vector = vector.ravel(order="K")
    return np.sqrt(vector.dot(vector))


def _lengths(rows: np.ndarray) -> np.ndarray:
    """``np.linalg.norm(rows, axis=1)`` of float rows: the same arithmetic, without its dispatch."""
    return np.sqrt(np.add.reduce(rows * rows, axis=1))


@dataclass(frozen=True)
class CardQuad:
    """One card found in a frame: its four corners (clockwise, starting at a short edge) in frame pixels."""

    corners: np.ndarray = field(compare=False)  # 4×2 float32
    fill: float = 1.0  # how much of the quadrilateral the paper blob covers
    verify: bool = False  # found only by the relaxed paper measure: a card only if it reads as one
    outlined: bool = False  # found only as a filled faint outline (``_outlined_regions``): a card only if read surely

    @property
    def box(self) -> tuple[int, int, int, int]:
        """Axis-aligned bounding box (x, y, w, h) in frame pixels."""
        x, y, w, h = cv2.boundingRect(self.corners.astype(np.float32))
        return int(x), int(y), int(w), int(h)

    @property
    def area(self) -> float:
        return float(cv2.contourArea(self.corners.astype(np.float32)))


def order_quad(points: np.ndarray) -> np.ndarray:
    """Order four points clockwise (image coordinates) starting at one end of a short edge."""
    pts = np.asarray(points, np.float32).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # clockwise on screen (y grows downwards)
    first = _length(pts[1] - pts[0]) + _length(pts[3] - pts[2])
    second = _length(pts[2] - pts[1]) + _length(pts[0] - pts[3])
    if first > second:  # make edge 0→1 a short edge: the card's top
        pts = pts[[1, 2, 3, 0]]
    # of the two short edges start at the one nearer the top of the frame (stable, not required)
    if pts[0:2, 1].mean() > pts[2:4, 1].mean():
        pts = pts[[2, 3, 0, 1]]
    return np.ascontiguousarray(pts)


def warp_card(frame: np.ndarray, quad: CardQuad | np.ndarray, top_left: tuple[int, int] | None = None) -> np.ndarray:
    """The card under ``quad`` warped to the standard ``VIEW_H`` × ``VIEW_W`` upright view (with a thin margin).

    ``top_left`` (width, height): only that top-left part of the view, pixel for pixel the same as the whole
    view's, for a width that is a multiple of ``WARP_BLOCK`` (or the view's). A card read at one index corner
    needs a tenth of the view, and warping is most of the cost of reading a card hypothesis.
    """
    corners = quad.corners if isinstance(quad, CardQuad) else order_quad(quad)
    target = VIEW_CORNERS
    matrix = cv2.getPerspectiveTransform(corners.astype(np.float32), target)
    size = (VIEW_W, VIEW_H) if top_left is None else top_left
    return cv2.warpPerspective(frame, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


WARP_BLOCK = 64
"""OpenCV warps a view in blocks this many pixels wide (16 rows by 1024 pixels). A view that ends inside a block
has its last columns computed another way (up to 1 grey level apart here and there), one that ends at a
block's edge is the whole view's top left exactly (``test_partial_warp_is_the_views_top_left``)."""


def _paper_score(small: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How much each pixel looks like card paper (bright and grey: its lowest channel less half its colour's
    spread), and that score's mean round it (a sixth of the frame): both paper measures start from them."""
    b, g, r = cv2.split(small)
    paper = cv2.min(cv2.min(b, g), r).astype(np.float32)  # white and grey stay high; colours and dark go low
    spread = cv2.max(cv2.max(b, g), r).astype(np.float32) - paper
    score = paper - 0.5 * spread
    size = max(small.shape[:2])
    return score, cv2.blur(score, (size // 6 | 1, size // 6 | 1))


def paper_mask(small: np.ndarray, scored: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Binary mask (uint8 0/255) of card-paper pixels: bright, grey and brighter than their surroundings.
    ``scored``: ``_paper_score(small)``, if already worked out."""
    score, background = scored if scored is not None else _paper_score(small)
    score8 = np.clip(score, 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(score8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    global_mask = score > max(otsu, 90)
    local_mask = score > background + 20
    mask = ((global_mask & local_mask) | (score > 235)).astype(np.uint8) * 255
    k = 3
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    # a thin dark line across a card (a cord, a court picture's frame near the edge) must not cut its paper in two
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    return mask


def local_paper_mask(small: np.ndarray, scored: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Binary mask of pixels paler and greyer than their surroundings, with no global threshold (dim light).
    ``scored``: ``_paper_score(small)``, if already worked out."""
    score, background = scored if scored is not None else _paper_score(small)
    mask = ((score > background + 18) & (score > 60)).astype(np.uint8) * 255
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def _blob_quads(mask: np.ndarray, frame_area: float, edges: np.ndarray) -> tuple[list[CardQuad], list[np.ndarray]]:
    """Card quads fitted to the blobs of a paper mask (split where cards touch), and the blobs."""
    candidates: list[CardQuad] = []
    blobs = []
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < _MIN_AREA * frame_area:
            continue
        blobs.append(contour)
        fitted = _fit_quads(contour, frame_area)
        if not fitted and area > 1.6 * _MIN_AREA * frame_area:
            # split within the blob's box (with room for the erosions): same result, far less work
            x, y, w, h = cv2.boundingRect(contour)
            pad = 20
            x0, y0 = max(0, x - pad), max(0, y - pad)
            x1, y1 = min(mask.shape[1], x + w + pad), min(mask.shape[0], y + h + pad)
            blob = np.zeros((y1 - y0, x1 - x0), np.uint8)
            cv2.drawContours(blob, [contour - np.array([x0, y0])], -1, 255, -1)
            offset = np.array([x0, y0], np.float32)
            fitted = [(q + offset, f) for q, f in _split(blob, frame_area, edges[y0:y1, x0:x1])]
        candidates += [CardQuad(order_quad(q), float(f)) for q, f in fitted]
    return candidates, blobs


EDGE_THRESHOLDS = (40, 120)
"""Canny's two thresholds for the edges that close regions (cards on pale tables, where paper alone merges)."""
FAINT_EDGE_THRESHOLDS = (20, 60)
"""... and for the faint edges whose closed outlines are filled (``_outlined_regions``): a greyish card on a light table
in mixed light steps the grey level by 15-30 across its side, which the strong edges miss (a square book of fives on
paper, a webcam's 640x480)."""


def _edge_mask(blurred: np.ndarray, thresholds: tuple[int, int] = EDGE_THRESHOLDS) -> np.ndarray:
    """Edges (dilated, uint8 0/255) of the blurred grey frame."""
    edges = cv2.Canny(blurred, *thresholds)
    return cv2.dilate(edges, np.ones((3, 3), np.uint8))


OUTLINE_OPEN = 7
"""Side (work pixels, at ``_WORK_SIZE``) of the opening that cuts thin lines off a filled outline
(``_outlined_regions``): a marble's veins, wood grain or a cloth's print running into a card's edge are a dilated
edge's 3 pixels wide, a card at the smallest size found (``_MIN_AREA``) some 25 pixels across."""


def _outlined_regions(edges: np.ndarray) -> np.ndarray:
    """The regions closed by ``edges`` filled with all they hold, thin lines running off them cut away.

    A card on a pale table (light wood, paper, marble, linen) is not brighter than round it, but its outline is a
    closed edge; inside it a court card's picture and its pips cut the paper into pieces that fit no card, and the
    table's own lines (veins, grain) joining its outline make it no card's shape either. Filled, with those lines
    opened away, it is a card's solid shape again.
    """
    height, width = edges.shape
    enclosed = np.full((height + 2, width + 2), 255, np.uint8)
    enclosed[1:-1, 1:-1] = 255 - edges
    cv2.floodFill(enclosed, None, (0, 0), 0)  # what the picture's border reaches without crossing an edge
    filled = edges | enclosed[1:-1, 1:-1]
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (OUTLINE_OPEN, OUTLINE_OPEN))
    opened = cv2.morphologyEx(filled, cv2.MORPH_OPEN, kernel)
    return cv2.erode(opened, np.ones((3, 3), np.uint8))  # the edges' own dilation (``_edge_mask``) taken off again


SIDE_MIDDLE = (0.2, 0.8)
"""The share of each side of a quad fitted to a filled outline whose outline points a straight line is fitted to
(``_sharp_corners``): a card's rounded corners and the opening's rounding lie outside it."""
SIDE_NEAR = 2.5
"""... the outline points within this many work pixels of the side."""


def _sharp_corners(regions: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """``quad`` (work pixels, fitted to a region of ``regions``) with its corners where straight lines fitted to the
    middles of the region's sides meet: where a card's sides meet, as a paper blob's quad is hung and as the whole
    cards' corners are compared with the corners of the blobs round them (``_card_under``). The quad as it was
    where a side shows too few points or a corner would move more than a tenth of the quad's shorter side."""
    contours, _ = cv2.findContours(regions, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    centre = quad.mean(axis=0)
    holding = [c for c in contours if cv2.pointPolygonTest(c, (float(centre[0]), float(centre[1])), False) >= 0]
    if not holding:
        return quad
    points = holding[0].reshape(-1, 2).astype(np.float32)
    lines = []
    for i in range(4):
        start, end = quad[i], quad[(i + 1) % 4]
        along = end - start
        length = float(_length(along))
        if length < 1:
            return quad
        along = along / length
        rel = points - start
        t = rel @ along / length
        off = np.abs(rel[:, 0] * along[1] - rel[:, 1] * along[0])
        near = points[(t >= SIDE_MIDDLE[0]) & (t <= SIDE_MIDDLE[1]) & (off <= SIDE_NEAR)]
        if len(near) < 5:
            return quad
        vx, vy, x0, y0 = cv2.fitLine(near, cv2.DIST_L2, 0, 0.01, 0.01).ravel()
        p0 = np.array([x0, y0], np.float32)
        lines.append((p0, p0 + np.array([vx, vy], np.float32)))
    sharp = []
    for i in range(4):
        point = _intersect(*lines[i - 1], *lines[i])
        if point is None:
            return quad
        sharp.append(point)
    sharp = np.array(sharp, np.float32)
    shorter = min(float(_length(quad[1] - quad[0])), float(_length(quad[2] - quad[1])))
    if float(_lengths(sharp - quad).max()) > 0.1 * shorter:
        return quad
    return sharp


MARGIN_SATURATION = 0.42
"""A card's margin is grey or white paper: the median of (max - min) / max of its colour below this (warm light makes
white paper about 0.3, as ``indices._PAPER_SATURATION``). A filled outline (``_outlined_regions``) of a region of
dark wood or a book's cover is more coloured."""
MARGIN_BAND = 0.12
"""The margin band looked at: this share of the quad's size in from its outline."""


def _grey_margin(small: np.ndarray, quad: np.ndarray) -> bool:
    """True if the band just inside ``quad`` (work pixels) is grey or white, as a card's margin is."""
    x, y, w, h = cv2.boundingRect(quad.astype(np.float32))
    x0, y0, x1, y1 = max(0, x), max(0, y), min(small.shape[1], x + w), min(small.shape[0], y + h)
    if x1 <= x0 or y1 <= y0:
        return False
    offset = np.array([x0, y0], np.float32)
    centre = quad.mean(axis=0)
    band = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(band, np.rint(quad - offset).astype(np.int32), 255)
    cv2.fillConvexPoly(band, np.rint(centre + (1 - MARGIN_BAND) * (quad - centre) - offset).astype(np.int32), 0)
    pixels = small[y0:y1, x0:x1][band > 0].astype(np.float32)
    if not len(pixels):
        return False
    high = pixels.max(axis=1)
    saturation = (high - pixels.min(axis=1)) / np.maximum(high, 1)
    return float(np.median(saturation)) < MARGIN_SATURATION


def _quad_aspect(quad: np.ndarray) -> float:
    sides = _lengths(quad[[1, 2, 3, 0]] - quad)
    first, second = sides[0] + sides[2], sides[1] + sides[3]
    return max(first, second) / max(1e-6, min(first, second))


def _square_cornered(quad: np.ndarray, tolerance: float = _SKEW) -> bool:
    """True if every corner is a right angle within ``tolerance`` (cos): a card seen from above, not a wedge."""
    for i in range(4):
        a, b = quad[i - 1] - quad[i], quad[(i + 1) % 4] - quad[i]
        cos = float(a @ b) / max(1e-6, float(_length(a) * _length(b)))
        if abs(cos) > tolerance:
            return False
    return True


def _fit_quads(contour: np.ndarray, frame_area: float) -> list[tuple[np.ndarray, float]]:
    """A card-shaped quadrilateral for one blob (``approxPolyDP`` on its hull, else ``minAreaRect``)."""
    hull = cv2.convexHull(contour)
    area = cv2.contourArea(hull)
    if not (_MIN_AREA * frame_area <= area <= _MAX_AREA * frame_area):
        return []
    for epsilon in (0.02, 0.035, 0.05):
        approx = cv2.approxPolyDP(hull, epsilon * cv2.arcLength(hull, True), True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float32)
            qarea = cv2.contourArea(quad)
            if (cv2.isContourConvex(approx) and 0.9 < qarea / area < 1.08 and _square_cornered(quad)
                    and _ASPECT_RANGE[0] <= _quad_aspect(quad) <= _ASPECT_RANGE[1]):
                return [(quad, min(1.0, area / qarea))]
            break
        if len(approx) < 4:
            break
    rect = cv2.minAreaRect(hull)
    (w, h) = rect[1]
    if min(w, h) < 1:
        return []
    aspect = max(w, h) / min(w, h)
    fill = area / (w * h)
    if _ASPECT_RANGE[0] <= aspect <= _ASPECT_RANGE[1] and fill > 0.88:
        return [(cv2.boxPoints(rect).astype(np.float32), fill)]
    return []


def _split(blob: np.ndarray, frame_area: float, edges: np.ndarray | None = None) -> list[tuple[np.ndarray, float]]:
    """Split a blob of touching or overlapping cards: along the edges inside it, else by eroding it."""
    if edges is not None:
        parts = cv2.bitwise_and(blob, cv2.bitwise_not(edges))
        contours, _ = cv2.findContours(parts, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        found = []
        for contour in contours:
            if cv2.contourArea(contour) >= _MIN_AREA * frame_area:
                found += _fit_quads(contour, frame_area)
        if found:
            return found
    for radius in (3, 6, 10, 15):
        kernel = _disc(radius)
        eroded = cv2.erode(blob, kernel)
        contours, _ = cv2.findContours(eroded, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        found = []
        for contour in contours:
            # grown back within the part's box, with room for the kernel and a clear frame for findContours:
            # the part is empty outside it, so the same outline as on the whole blob
            x, y, w, h = cv2.boundingRect(contour)
            x0, y0 = max(0, x - radius - 2), max(0, y - radius - 2)
            x1, y1 = min(blob.shape[1], x + w + radius + 2), min(blob.shape[0], y + h + radius + 2)
            part = np.zeros((y1 - y0, x1 - x0), np.uint8)
            cv2.drawContours(part, [contour], -1, 255, -1, offset=(-x0, -y0))
            part = cv2.dilate(part, kernel) & blob[y0:y1, x0:x1]
            cs, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(x0, y0))
            if cs:
                found += _fit_quads(max(cs, key=cv2.contourArea), frame_area)
        if len(contours) > 1 and found:
            return found
    return []


@functools.cache
def _disc(radius: int) -> np.ndarray:
    """``_split``'s structuring element: an ellipse ``2 * radius + 1`` pixels across (made once a radius)."""
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    disc.setflags(write=False)
    return disc


def _paper_fraction(mask: np.ndarray, quad: np.ndarray) -> float:
    """Fraction of a quad's margin band that is paper: card faces have pale margins."""
    region = np.zeros_like(mask)
    cv2.fillConvexPoly(region, quad.astype(np.int32), 255)
    inner = cv2.erode(region, np.ones((7, 7), np.uint8))
    band = (region > 0) & (inner == 0) | (region > 0)
    return float((mask[band] > 0).mean()) if band.any() else 0.0


def _region_paper(mask: np.ndarray, contour: np.ndarray) -> float:
    """Fraction of the region inside ``contour`` that is paper."""
    x, y, w, h = cv2.boundingRect(contour)
    region = np.zeros((h, w), np.uint8)
    cv2.drawContours(region, [contour - np.array([x, y])], -1, 255, -1)
    inside = region > 0
    return float((mask[y : y + h, x : x + w][inside] > 0).mean()) if inside.any() else 0.0


def _within(points: np.ndarray, width: int, height: int) -> bool:
    """True if every point lies in the picture (plain floats: a few comparisons, not numpy's per-call cost)."""
    return all(0 <= x <= width - 1 and 0 <= y <= height - 1 for x, y in np.asarray(points).tolist())


def _cut_by_frame(corners: np.ndarray, width: int, height: int, margin: float = 2.5) -> bool:
    """True if an edge of the quad runs along the frame border: a shape cut off by the picture's edge."""
    points = np.asarray(corners).tolist()  # plain floats: a few comparisons, not numpy's per-call cost
    return any(_along_frame(a, b, width, height, margin) for a, b in zip(points, points[1:] + points[:1]))


def _along_frame(a: list[float], b: list[float], width: int, height: int, margin: float = 2.5) -> bool:
    """True if the edge from ``a`` to ``b`` (plain floats) runs along the frame border (``_cut_by_frame``)."""
    for axis, limit in ((0, 0), (0, width - 1), (1, 0), (1, height - 1)):
        if abs(a[axis] - limit) < margin and abs(b[axis] - limit) < margin:
            return True
    return False


def find_cards(frame: np.ndarray) -> list[CardQuad]:
    """All face-up cards in a BGR frame, largest first."""
    return find_cards_and_corners(frame)[0]


@dataclass(frozen=True)
class CornerCandidate:
    """A card seen only in part: a card-sized quad hung on one visible index corner of a paper blob.

    ``corners`` are clockwise with ``corners[0]`` the index corner, so ``warp_card`` puts that corner
    at the view's top left (the only corner to read). ``shown`` is the box (x, y, w, h) of the part
    of the card in view.
    """

    corners: np.ndarray = field(compare=False)
    shown: tuple[int, int, int, int]
    under: int = -1  # index (in the whole cards returned) of the card whose area holds the index corner
    confirm: bool = False  # a size guessed, not measured: a card only if its opposite index reads the same rank
    by_index: bool = False  # hung on an index found by its ink alone (``indices.find_indices``), no outline seen
    paired: bool = False  # spanned by its two indices (``indices.pair_indices``): its corners measured, not guessed
    by_parts: bool = False  # its index found only in parts of its ink that come apart at a deeper contrast,
    # or on a pip another index took (``indices.PIP_TAKERS``): kept only if read surely
    by_pip: bool = False  # its rank glyph found only round its suit pip, fainter than ink (``indices.LONE_GLYPH_INK``):
    # hung by the glyph's specks and the pip alone, square (no card edge, no perspective), it adds a card that no
    # other hypothesis reads surely and replaces none that does

    @functools.cached_property
    def short_side(self) -> float:  # asked many times of each hypothesis when they are compared: worked out once
        return float(_length(self.corners[1] - self.corners[0]))


def find_cards_and_corners(frame: np.ndarray, accept: Callable[[CardQuad], bool] | None = None,
                           settled: Callable[[CardQuad], bool] | None = None,
                           ) -> tuple[list[CardQuad], list[CornerCandidate]]:
    """Whole cards (largest first) and, where paper blobs are left unexplained, partly hidden card candidates.

    ``accept`` says whether a quad that is a card only if it reads as one (``CardQuad.verify``, in frame
    pixels) is a card: it is asked before the paper left unexplained is looked at for partly hidden cards, so
    a quad refused neither explains paper nor gives the deck's size. Without it every such quad is kept.
    ``settled`` says whether a whole card (in frame pixels) is read surely: no card is hung on a corner inside it (the
    caller reads the cards hung inside a whole card only where that card reads weakly, ``pipeline.see``), and a card
    of a size off theirs (``DECK_SPREAD``) is hung only where it decides which are kept (``_sizes_at_corner``).
    """
    if frame is None or frame.ndim != 3 or frame.size == 0:
        return [], []
    h, w = frame.shape[:2]
    scale = min(1.0, _WORK_SIZE / max(h, w))
    small = cv2.resize(frame, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_AREA) if scale < 1 else frame
    scored = _paper_score(small)
    mask = paper_mask(small, scored)
    blurred = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    edges = _edge_mask(blurred)
    frame_area = float(mask.shape[0] * mask.shape[1])
    candidates, blobs = _blob_quads(mask, frame_area, edges)
    # cards in dim light or on a pale table are not paper by the global measure, only brighter than round them
    relaxed, relaxed_blobs = _blob_quads(local_paper_mask(small, scored), frame_area, edges)
    # second source: regions closed by edges, kept only where they are mostly paper
    edge_blobs: list[np.ndarray] = []
    contours, hierarchy = cv2.findContours(255 - edges, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    for contour, links in zip(contours, hierarchy[0] if hierarchy is not None else []):
        if cv2.contourArea(contour) < _MIN_AREA * frame_area:
            continue
        if links[3] != -1:
            # a hole traces the outside of an edge: of a card's whole outline where the edges of its picture or
            # pips cut the paper inside into pieces that fit no card (a court card); a card only if it reads as one
            relaxed += [CardQuad(order_quad(q), f * 0.97) for q, f in _fit_quads(contour, frame_area)]
            continue
        for q, f in _fit_quads(contour, frame_area):
            if _paper_fraction(mask, q) > 0.25:
                candidates.append(CardQuad(order_quad(q), f * 0.99))
            else:  # a card's outline in shadow or on a pale table: a card only if it reads as one
                relaxed.append(CardQuad(order_quad(q), f * 0.98))
        if cv2.contourArea(contour) <= 2 * _MAX_AREA * frame_area / 3 and _region_paper(mask, contour) > 0.6:
            edge_blobs.append(contour)  # a paper region closed by edges: its corners may be a card's
    # third source: outlines filled (a court card on a pale table, its outline joined by the table's lines)
    faint = _edge_mask(blurred, FAINT_EDGE_THRESHOLDS)
    # (a region is one card or none: cards are not cut apart here, where a part's quad fell short of a fan's top
    # card's free corner, and a card was hung outward on the corner it left uncovered)
    regions = _outlined_regions(faint)
    for contour in cv2.findContours(regions, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
        if cv2.contourArea(contour) >= _MIN_AREA * frame_area:
            relaxed += [CardQuad(order_quad(_sharp_corners(regions, q)), f * 0.96, outlined=True)
                        for q, f in _fit_quads(contour, frame_area) if _grey_margin(small, q)]
    height, width = mask.shape
    candidates = [c for c in candidates if not _cut_by_frame(c.corners, width, height)]
    kept: list[CardQuad] = []
    for cand in sorted(candidates, key=lambda q: -q.fill * q.area):
        if all(share_of_smaller(cand.box, other.box) < 0.5 or other.area > _HOLDER * cand.area for other in kept):
            kept.append(cand)
    # the relaxed measure only adds cards where the others found none (they must then read as cards)
    for cand in sorted(relaxed, key=lambda q: -q.fill * q.area):
        if not _cut_by_frame(cand.corners, width, height) and all(share_of_smaller(cand.box, other.box) < 0.3 for other in kept):
            kept.append(CardQuad(cand.corners, cand.fill, verify=True, outlined=cand.outlined))
    # a quad holding much smaller cards is the paper they lie on (a folder, a sheet), not a card
    kept = [q for q in kept if not any(q.area > _HOLDER * o.area and share_of_smaller(q.box, o.box) > 0.8 for o in kept)]
    kept.sort(key=lambda q: -q.area)
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    kept = [q for q in kept if not _several_cards(gray, q.corners)]  # a fan that looks like one card is its cards
    if accept is not None:
        kept = [q for q in kept if not q.verify or accept(CardQuad(order_quad(q.corners / scale), q.fill, True, q.outlined))]
    quads = [CardQuad(order_quad(q.corners / scale), q.fill, q.verify, q.outlined) for q in kept]
    sure = [settled is not None and settled(q) for q in quads]
    partial = _corner_candidates(blobs + relaxed_blobs, kept, mask.shape, frame_area, edge_blobs, gray, sure)
    corners = [CornerCandidate((c.corners / scale).astype(np.float32),
                               tuple(int(round(v / scale)) for v in c.shown), c.under, c.confirm) for c in partial]
    return quads, corners


SIZE_LADDER = 1.2  # step between the card sizes tried at a corner when nothing gives the card's size
DECK_SPREAD = (0.6, 1 / 0.6)
"""Sizes of one deck's cards across a frame, relative to those read surely: the perspective of a camera
tilted up to about 40 degrees."""
DECK_EDGE = 0.01
"""A size this share or less outside ``DECK_SPREAD`` is hung as inside it (the caller measures it in frame pixels)."""
_HOLDER = 3.5  # a quad this many times a card's area can hold cards: paper under them, not a card
_CORNER_ANGLE = 0.34  # |cos| of the angle between a corner's edges: within 70..110 degrees
_CORNER_COVER = 0.93  # share of a hypothesised card that must be paper (or a card lying on it)
_COVERED_BY_OTHER = 0.5  # ... or at least this share when its index corner is all paper (a book, a cloth lies on it)


def _zone_cover(zone: np.ndarray, mask: np.ndarray) -> float:
    """Share of the quadrilateral ``zone`` that ``mask`` covers."""
    x, y, w, h = cv2.boundingRect(zone.astype(np.float32))
    x0, y0, x1, y1 = max(0, x), max(0, y), min(mask.shape[1], x + w), min(mask.shape[0], y + h)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    region = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(region, (zone - np.array([x0, y0], np.float32)).astype(np.int32), 255)
    inside = np.count_nonzero(region)
    return np.count_nonzero(region & mask[y0:y1, x0:x1]) / inside if inside else 0.0


def _long_edges(polygon: np.ndarray, min_len: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """The polygon's edges at least ``min_len`` long, in order round it (short edges are rounded corners, nicks)."""
    pts = polygon.reshape(-1, 2).astype(np.float32)
    return [(pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts))
            if _length(pts[(i + 1) % len(pts)] - pts[i]) >= min_len]


def _intersect(a0: np.ndarray, a1: np.ndarray, b0: np.ndarray, b1: np.ndarray) -> np.ndarray | None:
    da, db = a1 - a0, b1 - b0
    den = da[0] * db[1] - da[1] * db[0]
    if abs(den) < 1e-6:
        return None
    t = ((b0[0] - a0[0]) * db[1] - (b0[1] - a0[1]) * db[0]) / den
    return a0 + t * da


STEP_LEVELS = 6
"""A card's side steps the grey level across it by more than this many levels on well lit paper (``_side_lines``) ..."""
STEP_SHARE = 0.03
"""... and by more than this share of the light where the paper is darker (6 levels at 200): a shadow or dim light
dims the step across an edge as it dims the paper (a card's side in a hard shadow on the bidly deals stepped 4 levels
on paper at 100) ..."""
STEP_FLOOR = 3
"""... but never by less than this (the camera's noise). Only the edges of a fan's or a pile's cards are looked for so
(``_fan_lines``: a squared pile in mixed light and cards in dim light are found by them); ``indices._card_edges``
keeps the fixed ``STEP_LEVELS``: its lines only vouch for an index found in ink, and on the Edje photos' busy
tables the shadow share let print in (6 more unsure reads on no card, none more right); ``_several_cards`` too (no
set read anything more with it, and the share costs a little CPU on every line looked for)."""


def _side_lines(gray: np.ndarray, start: np.ndarray, along: np.ndarray, down: np.ndarray, first: float, last: float,
                depths: tuple[float, float], need: float = 0.85, floor: float = STEP_LEVELS) -> list[float]:
    """Offsets (from ``start`` towards ``along``) of straight lines parallel to ``down`` over the given depth range.

    A card laid on another shows its side as a faint step or shadow line even where both are white: the
    brightness across it changes the same way all along it, from the start of the range (a pip's or a
    picture's edge does not run so far, nor start at a card's edge). A step is a share of the light
    (``STEP_SHARE``) of at least ``floor`` grey levels and at most ``STEP_LEVELS``.
    """
    height, width = gray.shape
    offsets = np.arange(first, last, 1.0, dtype=np.float32)
    if len(offsets) < 3:
        return []
    ds = _depth_range(depths[0], depths[1])
    grid = np.arange(first - 2, last + 2, 1.0, dtype=np.float32)[: len(offsets) + 4]  # offsets and 2 either side
    # the cards of a fan lie a few degrees apart: every slant is sampled (angle, offset, depth), x and y apart,
    # each the same float32 sum as start + offset * along + depth * slant
    slants = (_FAN_COS * down + _FAN_SIN * along).astype(np.float32)  # the same sums as angle by angle, at once
    base_x, base_y = start[0] + grid * along[0], start[1] + grid * along[1]
    deep_x, deep_y = ds[None, :] * slants[:, :1], ds[None, :] * slants[:, 1:]
    flat = gray.reshape(-1)

    def steps(angle: np.ndarray, at: np.ndarray, depth: slice) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """Rising and falling steps across the offsets ``at`` (indices into ``grid``, 2 before to 2 after) along
        the slants ``angle`` (indices, broadcast with ``at``) over ``depth``, and where both ends are in the picture:
        None where all are (most lines looked for: the masks are then not worked out)."""
        # both ends at once (2 before and 2 after each offset), each the same sums as apart
        where = np.stack(np.broadcast_arrays(at, at + 4))
        xs = np.rint(base_x[where][..., None] + deep_x[angle, depth]).astype(np.int32)
        ys = np.rint(base_y[where][..., None] + deep_y[angle, depth]).astype(np.int32)
        if xs.min() >= 0 and xs.max() < width and ys.min() >= 0 and ys.max() < height:
            values = flat[ys * width + xs].astype(np.int16)
            both = None
        else:
            ok = (xs >= 0) & (xs < width) & (ys >= 0) & (ys < height)
            index = ys * width + xs
            index[~ok] = 0  # off the picture: any pixel, never counted
            values = flat[index].astype(np.int16)
            both = ok[0] & ok[1]
        step = values[1] - values[0]
        if floor >= STEP_LEVELS:
            rising, falling = step > STEP_LEVELS, step < -STEP_LEVELS
        else:
            # a step of a share of the light (``STEP_SHARE``: of the mean of its two sides), from ``floor`` to
            # ``STEP_LEVELS`` levels: on paper lit above 200 the same fixed step as ever
            least = np.clip((values[0] + values[1]) * np.float32(STEP_SHARE / 2), floor, STEP_LEVELS)
            rising, falling = step > least, step < -least
        return (rising, falling, None) if both is None else (rising & both, falling & both, both)

    # a line runs from its very start (a court picture's frame begins a little way in from the card's edge):
    # the first 4 depths first, on every slant and offset, then all depths where those show a line's start
    angle, at = np.arange(len(_FAN_ANGLES))[:, None], np.arange(len(offsets))[None, :]
    rising, falling, both = steps(angle, at, slice(0, 4))
    # 3 of the 4 (a share of 0.75) rising or falling, all 4 in the picture
    starts = (np.add.reduce(rising.view(np.uint8), axis=-1) >= 3) | (np.add.reduce(falling.view(np.uint8), axis=-1) >= 3)
    if both is not None:
        starts &= np.logical_and.reduce(both, axis=-1)
    angle, at = np.nonzero(starts)
    line = np.zeros(len(offsets), bool)
    if len(at):
        rising, falling, both = steps(angle, at, slice(None))
        depth = ds.size
        share = np.maximum(np.count_nonzero(rising, axis=1) / depth, np.count_nonzero(falling, axis=1) / depth)
        kept = share >= need
        if both is not None:
            kept &= both.all(axis=1)
        line[at[kept]] = True
    on = np.flatnonzero(line)
    if not len(on):
        return []
    # each line is a few offsets wide: its middle (the mean of each run of offsets, as np.split's runs gave it)
    ends = (np.flatnonzero(np.diff(on) != 1) + 1).tolist()
    wide = offsets.astype(np.float64)
    return [float(np.mean(wide[on[a] : on[b - 1] + 1])) for a, b in zip([0, *ends], [*ends, len(on)])]


SIDE_DEPTHS = 24
"""Depths along a side at which its step is looked for (``_side_lines``), evenly from the range's start to its end."""
_DEPTH_STEPS = np.arange(SIDE_DEPTHS, dtype=np.float64)
_DEPTH_STEPS.setflags(write=False)


def _depth_range(low: float, high: float) -> np.ndarray:
    """``np.linspace(low, high, SIDE_DEPTHS, dtype=np.float32)``: the same arithmetic as numpy's (in double, the step
    times each count plus the start, the end set exactly), without its dispatch, which cost more than the rest of a
    short side's search; numpy's own for other than plain floats."""
    if type(low) is not float or type(high) is not float:
        return np.linspace(low, high, SIDE_DEPTHS, dtype=np.float32)
    step = (high - low) / (SIDE_DEPTHS - 1)
    depths = _DEPTH_STEPS / (SIDE_DEPTHS - 1) * (high - low) if step == 0 else _DEPTH_STEPS * step
    depths += low
    depths[-1] = high
    return depths.astype(np.float32)


_FAN_ANGLES = (-0.07, -0.035, 0.0, 0.035, 0.07)
_FAN_COS, _FAN_SIN = np.cos(np.array(_FAN_ANGLES))[:, None], np.sin(np.array(_FAN_ANGLES))[:, None]


def _fan_lines(corner: np.ndarray, a: np.ndarray, b: np.ndarray, short_side: float, long_side: float,
               gray: np.ndarray) -> list[float]:
    """Offsets from ``corner`` (towards ``a``) of the corners of the cards of a fan along a top edge they share.

    Each card laid on another shows its side as a straight line parallel to ``b`` (the cards' long sides), from
    that edge at least half a card down: where one meets the edge, another card's corner is. A line a card's
    width away is the first card's own far side, not another's.
    """
    offsets = _side_lines(gray, corner, a, b, 0.2 * short_side, 2.5 * short_side, (0.03 * long_side, 0.5 * long_side),
                          floor=STEP_FLOOR)
    return [t for t in offsets if abs(t - short_side) > 0.1 * short_side][:3]


_SHARED_EDGE_AT = np.linspace(0.1, 0.4, 12, dtype=np.float32)[:, None]
"""Where along a card's width ``_shares_edge`` looks (shares of it)."""
_SHARED_EDGE_AT.setflags(write=False)


def _shares_edge(blob: np.ndarray, spot: np.ndarray, a: np.ndarray, b: np.ndarray, short_side: float) -> bool:
    """True if the paper's edge runs on from ``spot`` along ``a``: paper on the ``b`` side, none beyond.

    Looked at over 0.4 of a card's width, 5 pixels each side: the cards of a fan lie a few degrees apart.
    """
    height, width = blob.shape
    along = spot + _SHARED_EDGE_AT * short_side * a
    inside, outside = along + 5 * b, along - 5 * b

    def paper(points: np.ndarray) -> np.ndarray:
        xs, ys = np.rint(points[:, 0]).astype(int), np.rint(points[:, 1]).astype(int)
        ok = (xs >= 0) & (xs < width) & (ys >= 0) & (ys < height)
        values = np.zeros(len(points), bool)
        values[ok] = blob[ys[ok], xs[ok]] > 0
        return values

    return bool(paper(inside).mean() >= 0.7 and (~paper(outside)).mean() >= 0.7)


def _several_cards(gray: np.ndarray, quad: np.ndarray) -> bool:
    """True if a card-shaped quad is several cards of a fan: a line parallel to its short sides runs right across it."""
    c = quad.astype(np.float32)
    across, along = c[1] - c[0], c[3] - c[0]
    short, long = float(_length(across)), float(_length(along))
    if short < 20 or long < 20:
        return False
    return bool(_side_lines(gray, c[0], along / long, across / short, 0.15 * long, 0.85 * long,
                            (0.04 * short, 0.96 * short), need=0.9))


def _hang_card(spot: np.ndarray, a: np.ndarray, b: np.ndarray, long_side: float, blob: np.ndarray,
               blob_dilated: np.ndarray, covered: np.ndarray, under: int, strip: float | None,
               on_paper_only: bool = False) -> tuple[CornerCandidate, bool] | None:
    """A card of ``long_side`` hung on the corner ``spot`` (short side along ``a``, long along ``b``), if it
    fits: its index corner in the picture, on paper (or its index corner on paper with something lying on the
    rest), and enough of it in view (up to ``strip`` along ``a`` in a fan). Also whether it lies wholly on paper.
    ``on_paper_only``: None as soon as it is seen not to lie wholly on paper (the sizes only guessed).
    """
    height, width = blob.shape
    short_side = long_side / CARD_ASPECT
    across, down = short_side * a, long_side * b
    top_right = spot + across
    quad = np.array([spot, top_right, top_right + down, spot + down], np.float32)
    # work in the quad's bounding box only (same result as on the whole frame, faster)
    xs, ys = quad[:, 0].tolist(), quad[:, 1].tolist()
    x0, y0 = max(0, math.floor(min(xs))), max(0, math.floor(min(ys)))
    x1, y1 = min(width, math.ceil(max(xs)) + 1), min(height, math.ceil(max(ys)) + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    index_zone = spot + _INDEX_ZONE @ np.array([across, down], np.float32)
    if not _within(index_zone, width, height):
        return None  # a card running off the picture is read only if its index corner is in it
    region = np.zeros((y1 - y0, x1 - x0), np.uint8)
    offset = np.array([x0, y0], np.float32)
    cv2.fillConvexPoly(region, (quad - offset).astype(np.int32), 255)
    inside = np.count_nonzero(region)
    if inside < 0.35 * short_side * long_side:
        return None
    cover = np.count_nonzero(region & blob_dilated[y0:y1, x0:x1]) / inside
    if on_paper_only and cover < _CORNER_COVER:
        return None
    if cover < _CORNER_COVER and (cover < _COVERED_BY_OTHER
                                  or _zone_cover(index_zone, blob_dilated) < _CORNER_COVER):
        return None  # not on paper, unless its index corner is and something else lies on the rest
    shown = region & blob[y0:y1, x0:x1]
    if under < 0:
        shown &= ~covered[y0:y1, x0:x1]
    if strip is not None and strip < short_side:
        band = np.zeros_like(region)
        cv2.fillConvexPoly(band, (np.array([spot, spot + strip * a, spot + strip * a + long_side * b,
                                            spot + long_side * b], np.float32) - offset).astype(np.int32), 255)
        shown &= band
    if np.count_nonzero(shown) < 0.15 * inside:
        return None
    sx, sy, sw, sh = cv2.boundingRect(shown)
    # every size that fits is a candidate: the reader's confidence picks among them
    return CornerCandidate(quad, (int(sx + x0), int(sy + y0), int(sw), int(sh)), under), cover >= _CORNER_COVER


def _paper_round(blob: np.ndarray, contour: np.ndarray, bite: int) -> np.ndarray:
    """The paper a card hung on ``blob`` may lie on: the blob a little grown, its bites closed.

    Worked in the blob's box (with room for both): the blob is empty outside it, so the same result as on the
    whole frame.
    """
    height, width = blob.shape
    bx, by, bw, bh = cv2.boundingRect(contour)
    pad = bite // 2 + 2
    bx0, by0, bx1, by1 = max(0, bx - pad), max(0, by - pad), min(width, bx + bw + pad), min(height, by + bh + pad)
    grown = np.zeros_like(blob)
    grown[by0:by1, bx0:bx1] = cv2.dilate(blob[by0:by1, bx0:bx1], np.ones((5, 5), np.uint8))
    # dark pips and court pictures touching a card's edge bite into its paper blob: they are still card
    grown[by0:by1, bx0:bx1] = cv2.morphologyEx(grown[by0:by1, bx0:bx1], cv2.MORPH_CLOSE,
                                               cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (bite, bite)))
    return grown


_INDEX_ZONE = np.array([[0, 0], [0.3, 0], [0.3, 0.4], [0, 0.4]], np.float32)
"""Corners of a card's index zone, in shares of its short and long sides from its index corner."""


CORNER_REACH = 0.08
"""Two long edges of a blob's outline meet at a corner when their lines cross within this share of the outline's
length from the edges' ends (a card's rounded corner cuts the outline short of the crossing)."""
OUTLINE_DETAIL = 0.008
"""The outline is simplified to this share of its length (at least 2 pixels) before its straight edges are taken."""
EDGE_MIN_SHARE = 0.12
"""A blob edge shorter than this share of the smallest card's long side (at least 6 pixels) is a rounded corner or
a nick, not a card's side."""
EXPLAINED_CARD = 0.25
EXPLAINED_BLOB = 0.1
"""A blob is explained by the whole cards found when what they leave of it is less than this share of a card's area
(``EXPLAINED_CARD``) or of the blob (``EXPLAINED_BLOB``)."""
BITE_SHARE = 0.04
"""The bites pips and court pictures take out of a card's paper blob, as a share of the frame's long side."""


@dataclass(frozen=True)
class _Corner:
    """A right-angled corner of a blob's outline: where it is, the directions of its two edges (``a`` then ``b``
    clockwise, as a card's top and left side run from its index corner) and their lengths."""

    point: np.ndarray
    a: np.ndarray
    b: np.ndarray
    a_length: float
    b_length: float


def _blob_corners(contour: np.ndarray, min_long: float, width: int, height: int) -> list[_Corner]:
    """The right-angled corners where two long straight edges of a blob's outline meet (not along the picture's
    border, where the view ends rather than a card)."""
    perimeter = cv2.arcLength(contour, True)
    polygon = cv2.approxPolyDP(contour, max(2.0, OUTLINE_DETAIL * perimeter), True)
    edges = _long_edges(polygon, max(6.0, EDGE_MIN_SHARE * min_long))
    if len(edges) < 2:
        return []
    corners = []
    # an edge along the picture's border is where the view ends, not a card's edge (each edge meets two others)
    on_border = [_along_frame(p0.tolist(), p1.tolist(), width, height) for p0, p1 in edges]
    for i, ((p0, p1), (q0, q1)) in enumerate(zip(edges, edges[1:] + edges[:1])):
        point = _intersect(p0, p1, q0, q1)
        reach = CORNER_REACH * perimeter
        if point is None or _length(point - p1) > reach or _length(point - q0) > reach:
            continue
        if on_border[i] or on_border[(i + 1) % len(edges)]:
            continue
        d1, d2 = p0 - point, q1 - point
        l1, l2 = float(_length(d1)), float(_length(d2))
        if l1 < 1 or l2 < 1:
            continue
        d1, d2 = d1 / l1, d2 / l2
        if abs(float(d1 @ d2)) > _CORNER_ANGLE:
            continue
        cross = d1[0] * d2[1] - d1[1] * d2[0]
        (a, la), (b, lb) = ((d1, l1), (d2, l2)) if cross > 0 else ((d2, l2), (d1, l1))
        corners.append(_Corner(point, a, b, la, lb))
    return corners


def _card_under(point: np.ndarray, kept: list[CardQuad], limit: float) -> int:
    """The index of the first whole card found that holds ``point`` (deeper than ``limit`` pixels inside it; a
    negative limit reaches outside), or -1."""
    for index, quad in enumerate(kept):
        if cv2.pointPolygonTest(quad.corners.astype(np.float32), (float(point[0]), float(point[1])), True) > limit:
            return index
    return -1


def _deck_long_side(kept: list[CardQuad]) -> float | None:
    """The median long side of the whole cards found (one deck), or None when there are none."""
    sides = []
    for quad in kept:
        e = _lengths(quad.corners[[1, 2, 3, 0]] - quad.corners)
        sides.append(max(e[0] + e[2], e[1] + e[3]) / 2)
    return float(np.median(sides)) if sides else None


def _corner_candidates(blobs: list[np.ndarray], kept: list[CardQuad], shape: tuple[int, int],
                       frame_area: float, new_only: list[np.ndarray] = (),
                       gray: np.ndarray | None = None, settled: list[bool] = ()) -> list[CornerCandidate]:
    """Card quads hung on the right-angled corners of paper blobs that the whole cards found leave unexplained.

    A card under another, or one touching other paper, still shows its outline near its index
    corner: two straight blob edges meeting at a right angle. The card's size comes from the
    whole cards found (one deck) or from the edges themselves; the hypothesis must lie on paper.
    Along each corner's edge, the cards of a fan are hung where their sides meet it, each shown up
    to the side of the next. ``new_only`` blobs (regions closed by edges) give cards only where no whole card
    was found. ``settled``: which whole cards are read surely (none is hung inside those, and their size bounds the
    sizes kept: ``DECK_SPREAD``).
    """
    height, width = shape
    covered = np.zeros(shape, np.uint8)
    for quad in kept:
        cv2.fillConvexPoly(covered, quad.corners.astype(np.int32), 255)
    known_long = _deck_long_side(kept)
    sure_long = _deck_long_side([q for q, sure in zip(kept, settled) if sure])
    deck = None if sure_long is None else (DECK_SPREAD[0] * sure_long, DECK_SPREAD[1] * sure_long)
    min_long = np.sqrt(_MIN_AREA * frame_area * CARD_ASPECT)
    max_long = np.sqrt(_MAX_AREA * frame_area * CARD_ASPECT)  # as large as a whole card may be (a phone held upright)
    unit = (known_long / CARD_ASPECT) * known_long if known_long else min_long * min_long / CARD_ASPECT
    out: list[CornerCandidate] = []
    scanned: dict[tuple[int, ...], list[float]] = {}  # fan lines by corner: several paper measures give one corner
    bite = max(5, int(BITE_SHARE * max(shape)) | 1)  # odd
    uncovered = ~covered
    for number, contour in enumerate(list(blobs) + list(new_only)):
        blob = np.zeros(shape, np.uint8)
        cv2.drawContours(blob, [contour], -1, 255, -1)
        x, y, w, h = cv2.boundingRect(contour)  # the blob lies in its outline's box: counted there
        inside = blob[y : y + h, x : x + w]
        left = np.count_nonzero(inside & uncovered[y : y + h, x : x + w])
        explained = left < EXPLAINED_CARD * unit or left < EXPLAINED_BLOB * float(np.count_nonzero(inside))
        blob_paper = _LazyPaper(blob, contour, bite)
        for corner in _blob_corners(contour, min_long, width, height):
            out += _cards_at_corner(corner, blob, blob_paper, covered, kept, known_long, (min_long, max_long),
                                    explained, only_new=number >= len(blobs), gray=gray, scanned=scanned,
                                    settled=settled, deck=deck)
    return out


class _LazyPaper:
    """The paper round a blob a card may lie on (``_paper_round``), made when a card is first hung on the blob
    (most blobs' corners hold none)."""

    def __init__(self, blob: np.ndarray, contour: np.ndarray, bite: int) -> None:
        self.blob, self.contour, self.bite = blob, contour, bite
        self._grown: np.ndarray | None = None

    def get(self) -> np.ndarray:
        if self._grown is None:
            self._grown = _paper_round(self.blob, self.contour, self.bite)
        return self._grown


def _fan_spots(corner: _Corner, blob: np.ndarray, size: float, gray: np.ndarray | None, explained: bool,
               scanned: dict) -> list[float]:
    """Offsets along the corner's edge ``a`` of the cards hung there: 0 (the corner's own card) and, in a fan,
    where another card's side meets the shared edge and continues it (paper on the card's side, none beyond)."""
    fan: list[float] = []
    if gray is not None and not explained:  # the same corner comes from several paper measures: look once
        key = (*np.rint(corner.point / 2).astype(int).tolist(), *np.rint(corner.a * 20).astype(int).tolist(), int(size / 4))
        if key not in scanned:
            scanned[key] = _fan_lines(corner.point, corner.a, corner.b, size / CARD_ASPECT, size, gray)
        fan = scanned[key]
    return [0.0] + [t for t in fan if _shares_edge(blob, corner.point + t * corner.a, corner.a, corner.b, size / CARD_ASPECT)]


def _cards_at_corner(corner: _Corner, blob: np.ndarray, paper: _LazyPaper, covered: np.ndarray,
                     kept: list[CardQuad], known_long: float | None, size_range: tuple[float, float],
                     explained: bool, only_new: bool, gray: np.ndarray | None, scanned: dict,
                     settled: list[bool] = (), deck: tuple[float, float] | None = None) -> list[CornerCandidate]:
    """The cards hung on one blob corner: the corner's own card and each card of a fan along its edge, each of
    the sizes that fit (``_sizes_at_corner``); none where a whole card found explains it, nor inside a whole card
    read surely (``settled``)."""
    a, b = corner.a, corner.b
    size = known_long or corner.b_length
    offsets = _fan_spots(corner, blob, size, gray, explained, scanned)
    out: list[CornerCandidate] = []
    for k, offset in enumerate(offsets):
        # a card of a fan shows up to the side of the next card laid on it
        strip = offsets[k + 1] - offset if k + 1 < len(offsets) else None
        spot, in_fan = corner.point + offset * a, k > 0
        # a fan's next spot lies on the edge of the card it is laid on: look just inside it, in its index
        probe = spot + 0.1 * size / CARD_ASPECT * a + 0.1 * size * b if in_fan else spot
        under = _card_under(probe, kept, 3 if in_fan else -3)  # a whole card there: read only if it reads badly
        if (under < 0 and explained) or (under >= 0 and (only_new or under < len(settled) and settled[under])):
            continue  # (a card read surely there: the reader's is the card, its own corners not hung again)
        longs = {known_long} if known_long else set()
        longs |= {corner.b_length} if in_fan else {corner.b_length, corner.a_length * CARD_ASPECT}  # a fan's edge is not one card's width

        def hang(long_side: float, on_paper_only: bool = False, spot=spot, under=under, strip=strip):
            return _hang_card(spot, a, b, long_side, blob, paper.get(), covered, under, strip, on_paper_only)

        out += _sizes_at_corner(hang, longs, size_range, ladder=known_long is None and not in_fan, deck=deck)
    return out


def _sizes_at_corner(hang: Callable, longs: set[float], size_range: tuple[float, float],
                     ladder: bool, deck: tuple[float, float] | None = None) -> list[CornerCandidate]:
    """The cards of the sizes ``longs`` (long sides) that ``hang`` (``_hang_card`` on one corner) fits, and with
    ``ladder`` those of a ladder of sizes over ``size_range`` that lie wholly on paper (``confirm``: sizes only
    guessed). A card partly under a book or a cloth is kept only where no card lying wholly on paper fits.

    ``deck``: the long sides of one deck's cards in this frame (``DECK_SPREAD`` of the whole cards read surely), where
    the caller keeps cards of those sizes only: a size outside them is hung only where none inside lies wholly on
    paper (it then decides whether those partly covered are kept), and is left out of what is returned."""
    min_long, max_long = size_range
    tried: list[float] = []
    for long_side in sorted(longs):
        if not (min_long <= long_side <= max_long) or any(abs(long_side - t) < 0.06 * t for t in tried):
            continue
        tried.append(long_side)
    inside = [t for t in tried if deck is None or deck[0] * (1 - DECK_EDGE) <= t <= deck[1] * (1 + DECK_EDGE)]
    hung = {t: hang(t) for t in inside}
    if not any(h is not None and h[1] for h in hung.values()):
        hung.update({t: hang(t) for t in tried if t not in hung})
    on_paper = [hung[t][0] for t in tried if t in hung and hung[t] is not None and hung[t][1]]
    partly_covered = [hung[t][0] for t in tried if t in hung and hung[t] is not None and not hung[t][1]]
    guessed: list[CornerCandidate] = []
    if ladder:
        # no whole card gives the deck's size, and the corner's edges may be cut short (a pen, paper lying on
        # them) or run on (the card lies on paper): try a ladder of sizes where the card lies wholly on paper; one
        # is kept only if the card's two indices agree at it
        long_side = min_long
        while long_side <= max_long:
            if not any(abs(long_side - t) < 0.06 * t for t in tried):
                hung = hang(long_side, on_paper_only=True)
                if hung is not None and hung[1]:
                    guessed.append(replace(hung[0], confirm=True))
            long_side *= SIZE_LADDER
    return (on_paper or partly_covered) + guessed
