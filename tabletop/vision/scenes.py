"""Composited table scenes: real and rendered card faces laid on procedurally varied tables.

The way the strongest card detectors are trained and measured: real photos of card faces (the
52 of ``shared/data/cards-dev/bidly/faces``, read from there, never copied into the project) and
the project's rendered faces (:mod:`tabletop.vision.render`) are pasted onto generated tables —
wood of many tones, cloth weaves, printed tablecloths, felt, cork, paper, stone — laid as people
lay them (scattered, in a row, touching, overlapping, fanned; books in a row, a 2×2 square, a small fan, a
squared pile with the indices showing), seen by a camera from a 640×480 webcam at an angle to a
24-megapixel phone photo from above, under even, graded, overexposed, dim, mixed or hard-shadowed
light, with blur, sensor noise and JPEG. Every card comes with exact labels: its rank and suit,
the four corners of its face in the image, how much of it shows, and whether each of its two
corner indices shows.

Generalisation is measured honestly by splits that a builder or tuner must respect:

- **tables**: each generator belongs to ``"train"`` or ``"held_out"``; the held-out ones are other
  algorithms, not other seeds (planked light and dark wood, linen, printed tablecloths, baize,
  cork, paper, marble), so a bench on them measures tables never trained or tuned on;
- **real faces**: :data:`HELD_OUT_FACES` (one card of every rank, suits in turn, and the four
  kings' court pictures are thereby partly unseen too) are never to be trained on;
- **rendered faces**: the train split draws its fonts from ``render.TRAIN_FONTS``, the held-out
  split from ``render.HELD_OUT_FONTS``.

The tables and the things beside the cards are generated in :mod:`tabletop.vision.tabletops`.
A scene is fixed by its seed and arguments: :func:`compose` draws every choice from one
``numpy.random.Generator``. Only cv2 and numpy are used here (rendered faces use Pillow through
:mod:`~tabletop.vision.render` for their fonts).
"""

from __future__ import annotations

import functools
import math
import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from tabletop.cards import Card, Rank, Suit
from tabletop.vision.tabletops import (TABLES, THINGS, Thing, make_table, make_thing, random_colour, rounded_mask,
                                       table_names, value_noise)

__all__ = [
    "FACES_DIR",
    "SPLITS",
    "TABLES",
    "LIGHTS",
    "LAYOUTS",
    "BOOK_LAYOUTS",
    "CAMERAS",
    "THINGS",
    "HELD_OUT_FACES",
    "Face",
    "PlacedCard",
    "Composite",
    "real_faces",
    "real_faces_available",
    "rendered_face",
    "table_names",
    "make_table",
    "compose",
    "composites",
    "frames",
]

FACES_DIR = Path(os.environ.get("TABLETOP_CARD_FACES",
                                Path(__file__).resolve().parents[3] / "shared" / "data" / "cards-dev" / "bidly" / "faces"))
"""Real photos of the 52 faces (``Ah.jpg``, ``10c.jpg`` …), 228×352; override with ``TABLETOP_CARD_FACES``."""

SPLITS = ("train", "held_out")

_SUIT_LETTERS = {Suit.CLUBS: "c", Suit.DIAMONDS: "d", Suit.HEARTS: "h", Suit.SPADES: "s"}
_SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
HELD_OUT_FACES: frozenset[Card] = frozenset(Card(rank, _SUIT_ORDER[i % 4]) for i, rank in enumerate(Rank))
"""Real faces never to be trained on: one of every rank (A♠ 2♥ 3♣ 4♦ 5♠ … K♠), so a bench can
report every rank on faces no model has seen."""

_REAL_BORDER = 2  # px of the photo's blue-grey backdrop round each cut-out face
_REAL_CORNER = 0.04  # corner radius as a share of the card's width
_REAL_INDEX = (0.0, 0.0, 0.17, 0.26)  # the top-left index (rank and suit) as shares of the face, x0 y0 x1 y1
INDEX_SHOWS = 0.9
"""Share of an index's zone that must be uncovered and in the frame for the index to count as showing."""


# --------------------------------------------------------------------------------------------- faces


@dataclass(frozen=True)
class Face:
    """One card face ready to paste: BGR pixels, an alpha mask with rounded corners, and where its
    top-left index lies (x0, y0, x1, y1 as shares of the face; the other index is the same zone
    turned half round)."""

    card: Card
    image: np.ndarray = field(compare=False, repr=False)
    mask: np.ndarray = field(compare=False, repr=False)
    index: tuple[float, float, float, float]
    source: str  # "real" or "rendered"

    @property
    def aspect(self) -> float:
        """Height over width."""
        return self.image.shape[0] / self.image.shape[1]

    def index_zones(self) -> tuple[np.ndarray, np.ndarray]:
        """The two index zones as 4×2 polygons in face pixels: top left, then bottom right."""
        h, w = self.image.shape[:2]
        x0, y0, x1, y1 = self.index
        top = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32) * [w, h]
        bottom = np.array([[1 - x1, 1 - y1], [1 - x0, 1 - y1], [1 - x0, 1 - y0], [1 - x1, 1 - y0]], np.float32) * [w, h]
        return top.astype(np.float32), bottom.astype(np.float32)


def real_faces_available(folder: Path | None = None) -> bool:
    """True if the 52 real face photos are where :func:`real_faces` looks."""
    folder = folder or FACES_DIR
    return all((folder / _face_file(card)).is_file() for card in Card.deck())


def _face_file(card: Card) -> str:
    return f"{card.rank.symbol}{_SUIT_LETTERS[card.suit]}.jpg"


@functools.cache
def _load_real_faces(folder: Path) -> dict[Card, Face]:
    faces = {}
    for card in Card.deck():
        path = folder / _face_file(card)
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise FileNotFoundError(f"no real card face at {path} (shared/data/cards-dev/bidly/faces, or set TABLETOP_CARD_FACES)")
        b = _REAL_BORDER
        image = np.ascontiguousarray(image[b:-b, b:-b])
        h, w = image.shape[:2]
        faces[card] = Face(card, image, rounded_mask(h, w, _REAL_CORNER * w), _REAL_INDEX, "real")
    return faces


def real_faces(split: str = "all", folder: Path | None = None) -> dict[Card, Face]:
    """The real face photos: ``"all"`` 52, ``"train"`` the 39 a model may learn from, ``"held_out"`` the 13 of
    :data:`HELD_OUT_FACES`.

    :raises FileNotFoundError: if the photos are not in ``folder`` (default :data:`FACES_DIR`).
    """
    faces = _load_real_faces(Path(folder or FACES_DIR))
    if split == "all":
        return dict(faces)
    if split not in SPLITS:
        raise ValueError(f"split must be 'all', 'train' or 'held_out', not {split!r}")
    return {c: f for c, f in faces.items() if (c in HELD_OUT_FACES) == (split == "held_out")}


def rendered_face(card: Card, rng: np.random.Generator, split: str = "train", style: object | None = None) -> Face:
    """A face drawn by :mod:`~tabletop.vision.render` in the split's fonts (or ``style``), corners rounded."""
    from tabletop.vision import render

    if style is None:
        style = render.random_style(rng, render.TRAIN_FONTS if split == "train" else render.HELD_OUT_FONTS)
    image = render.render_card(card, style, rng)  # type: ignore[arg-type]
    h, w = image.shape[:2]
    glyph = style.index_height * h  # type: ignore[attr-defined]
    wide = 1.7 * style.ten_squeeze if card.rank is Rank.TEN else 1.0  # type: ignore[attr-defined]
    x1 = style.index_x + (0.95 * glyph * style.squeeze * wide + 4) / w  # type: ignore[attr-defined]
    y1 = style.index_y + (glyph * (1.2 + style.suit_scale) + 4) / h  # type: ignore[attr-defined]
    return Face(card, image, rounded_mask(h, w, 0.035 * w), (0.0, 0.0, min(0.45, x1), min(0.45, y1)), "rendered")


# --------------------------------------------------------------------------------------------- cameras, light


@dataclass(frozen=True)
class CameraModel:
    """A camera: frame size (w, h), how far it leans from straight down (radians), the card width as a share of
    the frame's width, and its blur (px, at this frame size), noise and JPEG quality ranges."""

    name: str
    size: tuple[int, int]
    tilt: tuple[float, float]
    card: tuple[float, float]
    blur: tuple[float, float]
    noise: tuple[float, float]
    jpeg: tuple[int, int]


CAMERAS: dict[str, CameraModel] = {c.name: c for c in (
    CameraModel("webcam", (640, 480), (0.3, 0.7), (0.09, 0.15), (0.3, 1.2), (2.0, 5.0), (50, 85)),
    CameraModel("hd", (1280, 720), (0.1, 0.5), (0.07, 0.12), (0.3, 1.4), (1.5, 4.0), (60, 92)),
    CameraModel("fullhd", (1920, 1080), (0.05, 0.4), (0.06, 0.11), (0.4, 1.8), (1.0, 3.5), (70, 94)),
    CameraModel("phone", (6000, 4000), (0.0, 0.15), (0.07, 0.14), (0.8, 3.0), (1.0, 3.0), (82, 95)),
)}
"""A 640×480 webcam at an angle up to a 24-megapixel phone photo from above."""

LIGHTS = ("even", "gradient", "overexposed", "dim", "hard_shadow", "mixed", "glare")


def _camera_homography(w: int, h: int, tilt: float, direction: float) -> np.ndarray:
    """The table plane as a pinhole camera leaning ``tilt`` radians towards ``direction`` sees it, about the
    frame's centre."""
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    centred = (src - [w / 2, h / 2]) / (max(w, h) / 2)
    c, s = math.cos(direction), math.sin(direction)
    turn = np.array([[c, -s], [s, c]], np.float32)
    along = centred @ turn.T
    distance = 2.5
    depth = distance + along[:, 1] * math.sin(tilt)
    projected = np.stack([along[:, 0], along[:, 1] * math.cos(tilt)], axis=1) * (distance / depth)[:, None]
    dst = projected @ turn * (max(w, h) / 2) + [w / 2, h / 2]
    return cv2.getPerspectiveTransform(src, dst.astype(np.float32))


def _light_maps(rng: np.random.Generator, light: str, h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """A gain (h×w×3) and an added glow (h×w), at a small size: the caller scales them to the frame."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    xs, ys = xx / w - 0.5, yy / h - 0.5
    exposure = {"overexposed": (1.25, 1.6), "dim": (0.35, 0.6)}.get(light, (0.85, 1.1))
    gain = np.full((h, w), rng.uniform(*exposure), np.float32)
    slope = rng.uniform(0.0, 0.2) if light in ("even", "dim") else rng.uniform(0.3, 0.4 if light == "overexposed" else 0.9)
    a = rng.uniform(0, 2 * np.pi)
    gain *= 1 + slope * (xs * math.cos(a) + ys * math.sin(a))
    gain3 = np.repeat(gain[..., None], 3, axis=2) * rng.uniform(0.94, 1.06, 3).astype(np.float32)
    glow = np.zeros((h, w), np.float32)
    if light == "mixed":  # warm lamp on one side, cool daylight on the other
        side = xs * math.cos(a + 1) + ys * math.sin(a + 1)
        gain3[..., 0] *= 1 - 0.35 * side  # blue
        gain3[..., 2] *= 1 + 0.35 * side  # red
    if light == "hard_shadow":  # an arm, a phone or a lamp's edge: a dark shape with a sharp edge across the cards
        corners = int(rng.integers(4, 7))
        centre = rng.uniform(0.2, 0.8, 2) * [w, h]
        radius = rng.uniform(0.25, 0.6) * max(h, w)
        angles = np.sort(rng.uniform(0, 2 * np.pi, corners))
        pts = np.stack([centre[0] + radius * np.cos(angles) * rng.uniform(0.6, 1.4, corners),
                        centre[1] + radius * np.sin(angles) * rng.uniform(0.3, 1.0, corners)], axis=1)
        shade = np.zeros((h * 4, w * 4), np.uint8)
        cv2.fillPoly(shade, [np.round(pts * 4 * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
        shade = cv2.resize(shade, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
        gain3 *= (1 - rng.uniform(0.35, 0.65) * shade)[..., None]
    if light in ("glare", "overexposed") and rng.random() < (1.0 if light == "glare" else 0.4):
        cx, cy, r = rng.uniform(-0.4, 0.4), rng.uniform(-0.4, 0.4), rng.uniform(0.05, 0.2)
        glow = (rng.uniform(40, 110 if light == "overexposed" else 160) * np.exp(-((xs - cx) ** 2 + ((ys - cy) * h / w) ** 2) / (2 * r * r))).astype(np.float32)
    return gain3, glow


# --------------------------------------------------------------------------------------------- layouts

LAYOUTS = ("scattered", "row", "touching", "overlapping", "fanned", "book_row", "book_square", "book_fan", "book_pile")
BOOK_LAYOUTS = ("book_row", "book_square", "book_fan", "book_pile")


def _rect(aspect: float) -> np.ndarray:
    return np.array([[-0.5, -aspect / 2], [0.5, -aspect / 2], [0.5, aspect / 2], [-0.5, aspect / 2]], np.float32)


def _placed(aspect: float, cx: float, cy: float, angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return (_rect(aspect) @ np.array([[c, -s], [s, c]], np.float32).T + [cx, cy]).astype(np.float32)


def _jitter(rng: np.random.Generator, degrees: float) -> float:
    return math.radians(rng.uniform(-degrees, degrees))


def _row(rng: np.random.Generator, n: int, aspect: float, gap: tuple[float, float], tilt: float = 4) -> list[np.ndarray]:
    quads, x = [], 0.0
    for _ in range(n):
        quads.append(_placed(aspect, x, rng.uniform(-0.03, 0.03), _jitter(rng, tilt)))
        x += 1 + rng.uniform(*gap)
    return quads


def _grid(rng: np.random.Generator, n: int, aspect: float, gap: tuple[float, float], tilt: float = 4) -> list[np.ndarray]:
    cols = max(1, int(math.ceil(math.sqrt(n * 1.3))))
    quads = []
    for i in range(n):
        r, c = divmod(i, cols)
        quads.append(_placed(aspect, c * (1 + rng.uniform(*gap)), r * (aspect + rng.uniform(*gap)), _jitter(rng, tilt)))
    return quads


def _fan(rng: np.random.Generator, n: int, aspect: float, step: tuple[float, float], radius: tuple[float, float]) -> list[np.ndarray]:
    """Cards turned about a pivot below them, left to right, each on top of the last (their left indices show)."""
    d = math.radians(rng.uniform(*step))
    r = rng.uniform(*radius) * aspect
    quads = []
    for i in range(n):
        a = (i - (n - 1) / 2) * d + _jitter(rng, 1)
        quads.append(_placed(aspect, r * math.sin(a), -r * math.cos(a), a))
    return quads


def _pile(rng: np.random.Generator, n: int, aspect: float) -> list[np.ndarray]:
    """A squared pile slid open so each card's left index shows beside the next."""
    dx, dy = rng.uniform(0.2, 0.3), rng.uniform(-0.04, 0.04)
    return [_placed(aspect, i * dx, i * dy, _jitter(rng, 1.5)) for i in range(n)]


def _overlapping(rng: np.random.Generator, n: int, aspect: float) -> list[np.ndarray]:
    quads = [_placed(aspect, 0, 0, rng.uniform(0, 2 * np.pi))]
    for _ in range(n - 1):
        a = rng.uniform(0, 2 * np.pi)
        step = rng.uniform(0.35, 0.8) * aspect
        last = quads[-1].mean(axis=0)
        quads.append(_placed(aspect, last[0] + step * math.cos(a), last[1] + step * math.sin(a), rng.uniform(0, 2 * np.pi)))
    return quads


def _apart(quad: np.ndarray, others: list[np.ndarray], margin: float) -> bool:
    grown = [(q - q.mean(axis=0)) * (1 + margin) + q.mean(axis=0) for q in others]
    return all(cv2.intersectConvexConvex(quad, g)[0] <= 0 for g in grown)


def _scatter(rng: np.random.Generator, n: int, aspect: float, around: list[np.ndarray], spread: float,
             width: float = 1.0) -> list[np.ndarray]:
    """``n`` cards (or things ``width`` card widths wide) dropped at any angle round ``around`` without touching
    them or each other."""
    quads: list[np.ndarray] = []
    if around:
        allpts = np.concatenate(around)
        lo, hi = allpts.min(axis=0), allpts.max(axis=0)
    else:
        lo, hi = np.zeros(2, np.float32), np.zeros(2, np.float32)
    pad = spread * math.sqrt(max(n, 1)) * aspect
    for _ in range(n):
        for _attempt in range(60):
            cx, cy = rng.uniform(lo[0] - pad, hi[0] + pad), rng.uniform(lo[1] - pad, hi[1] + pad)
            quad = _placed(aspect, cx, cy, rng.uniform(0, 2 * np.pi))
            quad = ((quad - [cx, cy]) * width + [cx, cy]).astype(np.float32)
            if _apart(quad, around + quads, 0.08):
                quads.append(quad)
                break
    return quads


def _layout(rng: np.random.Generator, layout: str, count: int, aspect: float) -> list[np.ndarray]:
    if layout == "scattered":
        return _scatter(rng, count, aspect, [], 0.9)
    if layout == "row":  # cards laid apart in a clean row, as a player shows a hand or lays books side by side
        return _row(rng, count, aspect, (0.05, 0.4))
    if layout == "touching":
        return (_row if rng.random() < 0.5 else _grid)(rng, count, aspect, (-0.015, 0.005), 2)
    if layout == "overlapping":
        return _overlapping(rng, count, aspect)
    if layout == "fanned":
        return _fan(rng, count, aspect, (7, 14), (0.9, 1.3))
    if layout == "book_row":
        return _row(rng, 4, aspect, (0.04, 0.35))
    if layout == "book_square":
        gaps = rng.uniform(0.04, 0.3, 4)
        return [_placed(aspect, c * (1 + g), r * (aspect + g), _jitter(rng, 4))
                for (r, c), g in zip(((0, 0), (0, 1), (1, 0), (1, 1)), gaps)]
    if layout == "book_fan":
        return _fan(rng, 4, aspect, (8, 15), (0.8, 1.2))
    if layout == "book_pile":
        return _pile(rng, 4, aspect)
    raise ValueError(f"unknown layout {layout!r}; one of {', '.join(LAYOUTS)}")


# --------------------------------------------------------------------------------------------- the scene


@dataclass(frozen=True)
class PlacedCard:
    """The truth about one card in a composite: what it is, its face's corners in the image (top left, top
    right, bottom right, bottom left of the face as printed), the share of it that shows, and whether each
    index (top left, bottom right) shows."""

    card: Card
    quad: np.ndarray = field(compare=False)
    shown: float
    index_shows: tuple[bool, bool]

    @property
    def box(self) -> tuple[int, int, int, int]:
        x, y, w, h = cv2.boundingRect(self.quad.astype(np.float32))
        return int(x), int(y), int(w), int(h)

    @property
    def readable(self) -> bool:
        """At least one index shows: a reader should name this card."""
        return any(self.index_shows)


@dataclass(frozen=True)
class Composite:
    """A composited photo and its truth. ``cards`` are in drawing order (later ones lie on top); ``books`` are
    the ranks whose four cards all show an index (laid clearly); ``book_layout`` the rank laid by a book layout."""

    image: np.ndarray = field(compare=False, repr=False)
    cards: tuple[PlacedCard, ...]
    books: tuple[Rank, ...]
    table: str
    light: str
    layout: str
    camera: str
    faces: str
    seed: int
    book_layout: Rank | None = None
    things: tuple[str, ...] = ()

    def count(self, rank: Rank) -> int:
        """How many cards of ``rank`` lie in the scene at all (showing or not)."""
        return sum(p.card.rank is rank for p in self.cards)


def _share_showing(poly: np.ndarray, later: list[np.ndarray], frame: tuple[int, int], cap: int = 64) -> float:
    """The share of polygon ``poly`` (image px) inside the frame and under none of ``later``."""
    x0, y0 = poly.min(axis=0)
    x1, y1 = poly.max(axis=0)
    scale = cap / max(1.0, x1 - x0, y1 - y0)
    size = (int(math.ceil((x1 - x0) * scale)) + 2, int(math.ceil((y1 - y0) * scale)) + 2)

    def local(q: np.ndarray) -> np.ndarray:
        return np.round(((q - [x0, y0]) * scale + 1) * 16).astype(np.int32)

    mask = np.zeros((size[1], size[0]), np.uint8)
    cv2.fillConvexPoly(mask, local(poly), 1, cv2.LINE_8, shift=4)
    whole = int(mask.sum())
    if whole == 0:
        return 0.0
    w, h = frame
    outside = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    inside = np.zeros_like(mask)
    cv2.fillConvexPoly(inside, local(outside), 1, cv2.LINE_8, shift=4)
    mask &= inside
    for q in later:
        if cv2.intersectConvexConvex(poly, q.astype(np.float32))[0] > 0:
            cv2.fillConvexPoly(mask, local(q), 0, cv2.LINE_8, shift=4)
    return float(mask.sum()) / whole


LEGIBLE = 20
"""Gray levels between an index's ink and its paper (95th less 5th percentile of its rank glyph's part of the
zone) below which light has washed it out, or darkness drowned it, so that it no longer counts as showing."""


def _legible(gray: np.ndarray, zone: np.ndarray) -> bool:
    """Whether the rank glyph in an index zone (image polygon: top left, top right, bottom right, bottom left
    of the zone as printed) still stands out from its paper in the finished photo."""
    glyph = np.array([[0, 0], [24, 0], [24, 20], [0, 20]], np.float32)  # the upper part of the zone: the rank
    top = np.array([zone[0], zone[1], zone[1] + 0.55 * (zone[2] - zone[1]), zone[0] + 0.55 * (zone[3] - zone[0])],
                   np.float32)
    patch = cv2.warpPerspective(gray, cv2.getPerspectiveTransform(top, glyph), (24, 20), flags=cv2.INTER_AREA,
                                borderMode=cv2.BORDER_REPLICATE)
    low, high = np.percentile(patch, (5, 95))
    return float(high - low) >= LEGIBLE


def _paste(canvas: np.ndarray, face: Face | Thing, quad: np.ndarray, gain: np.ndarray,
           shadow: tuple[float, float, float, float] | None) -> None:
    """Warp ``face`` onto ``canvas`` (uint8, in place) at ``quad``, within the quad's box, with a soft drop shadow."""
    H, W = canvas.shape[:2]
    width = float(np.linalg.norm(quad[1] - quad[0]))
    pad = 2 + (int(shadow[2] * 3 + abs(shadow[0]) + abs(shadow[1])) if shadow else 0)
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - pad
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + pad
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
    if x1 <= x0 or y1 <= y0:
        return
    image, mask = face.image, face.mask
    fh, fw = image.shape[:2]
    scale = width / fw
    if scale < 0.9:  # shrink first with area averaging: a bilinear warp alone would alias the index
        size = (max(4, int(round(fw * scale))), max(4, int(round(fh * scale))))
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        mask = cv2.resize(mask, size, interpolation=cv2.INTER_AREA)
    ih, iw = image.shape[:2]
    src = np.array([[0, 0], [iw, 0], [iw, ih], [0, ih]], np.float32)
    local = (quad - [x0, y0]).astype(np.float32)
    matrix = cv2.getPerspectiveTransform(src, local)
    flags = cv2.INTER_CUBIC if scale > 1.2 else cv2.INTER_LINEAR
    roi = canvas[y0:y1, x0:x1].astype(np.float32)
    alpha = cv2.warpPerspective(mask, matrix, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    if shadow is not None:
        dx, dy, sigma, depth = shadow
        moved = cv2.warpAffine(alpha, np.float32([[1, 0, dx], [0, 1, dy]]), (x1 - x0, y1 - y0))
        moved = cv2.GaussianBlur(moved, (0, 0), max(0.5, sigma))
        roi *= (1 - depth * moved)[..., None]
    warped = cv2.warpPerspective(image, matrix, (x1 - x0, y1 - y0), flags=flags).astype(np.float32) * gain
    a = alpha[..., None]
    canvas[y0:y1, x0:x1] = np.clip(roi * (1 - a) + warped * a, 0, 255).astype(np.uint8)


def _deal(rng: np.random.Generator, layout: str, count: int, pool: list[Card], book: Rank | None) -> tuple[list[Card], Rank | None]:
    """The cards of a scene: for a book layout four of one rank (``book`` or drawn) first, then others."""
    if layout in BOOK_LAYOUTS:
        ranks = sorted({c.rank for c in pool if sum(d.rank is c.rank for d in pool) == 4}, key=list(Rank).index)
        if book is None:
            if not ranks:
                raise ValueError("no rank has all four faces in this face set: a book needs them")
            book = ranks[int(rng.integers(0, len(ranks)))]
        four = [c for c in pool if c.rank is book]
        if len(four) != 4:
            raise ValueError(f"the face set lacks some {book.plural}: a book needs all four")
        four = [four[i] for i in rng.permutation(4)]
        rest = [c for c in pool if c.rank is not book]
        extra = [rest[i] for i in rng.choice(len(rest), min(count, len(rest)), replace=False)] if count else []
        return four + extra, book
    chosen = [pool[i] for i in rng.choice(len(pool), min(count, len(pool)), replace=False)]
    return chosen, None


def compose(
    seed: int,
    *,
    split: str = "held_out",
    faces: str = "real",
    table: str | None = None,
    light: str | None = None,
    layout: str | None = None,
    camera: str | None = None,
    count: int | None = None,
    book: Rank | None = None,
    cards: list[Card] | None = None,
    face_split: str | None = None,
    clutter: bool | None = None,
) -> Composite:
    """One composited photo with its truth, fixed by ``seed`` and the arguments.

    ``split`` picks the tables (and, for rendered faces, the fonts); ``faces`` is ``"real"`` or
    ``"rendered"``; ``face_split`` narrows real faces to ``"train"`` or ``"held_out"`` (default: all 52, since
    a book needs the four of a rank). ``table``, ``light``, ``layout`` and ``camera`` are drawn when not
    given. ``count`` is the number of cards (for a book layout, the other cards beside the book); ``book``
    the rank a book layout lays; ``cards`` the exact cards (a book layout lays the first four as it would a
    book: three kings and a queen in a square is how a false claim looks). ``clutter`` puts :data:`THINGS`
    beside the cards (drawn from their own generator, so the rest of the scene is the same with or without
    them); by default two scenes in five have some.
    """
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, not {split!r}")
    rng = np.random.default_rng(seed)
    table = table or str(rng.choice(table_names(split)))
    if table not in TABLES:
        raise ValueError(f"unknown table {table!r}; one of {', '.join(TABLES)}")
    light = light or str(rng.choice(LIGHTS))
    layout = layout or str(rng.choice(LAYOUTS))
    camera = camera or str(rng.choice(list(CAMERAS)))
    model = CAMERAS[camera]
    W, H = model.size
    if rng.random() < 0.3 and camera == "phone":
        W, H = H, W  # held upright
    if faces == "real":
        bank = real_faces(face_split or "all")
        pool = [c for c in Card.deck() if c in bank]
    elif faces == "rendered":
        pool = Card.deck()
    else:
        raise ValueError(f"faces must be 'real' or 'rendered', not {faces!r}")
    if count is None:
        count = {"scattered": int(rng.integers(3, 11)), "row": int(rng.integers(3, 8)), "touching": int(rng.integers(3, 8)),
                 "overlapping": int(rng.integers(3, 8)), "fanned": int(rng.integers(4, 14))}.get(layout, int(rng.integers(0, 4)))
    if cards is not None:  # a book layout lays the first four as a book (three kings and a queen in a square)
        if layout in BOOK_LAYOUTS and len(cards) < 4:
            raise ValueError("a book layout lays four cards: give at least four")
        chosen = list(cards)
        laid = chosen[0].rank if layout in BOOK_LAYOUTS and len({c.rank for c in chosen[:4]}) == 1 else None
    else:
        chosen, laid = _deal(rng, layout, count, pool, book)
    if faces == "real":
        face_of = {c: bank[c] for c in chosen}
    else:
        from tabletop.vision import render

        style = render.random_style(rng, render.TRAIN_FONTS if split == "train" else render.HELD_OUT_FONTS)
        face_of = {c: rendered_face(c, rng, split, style) for c in chosen}
    aspect = next(iter(face_of.values())).aspect if face_of else 1.4

    # lay the cards out in card widths, the book first and other cards round it
    if layout in BOOK_LAYOUTS:
        quads = _layout(rng, layout, 4, aspect)
        quads += _scatter(rng, len(chosen) - 4, aspect, list(quads), 0.8)
    else:
        quads = _layout(rng, layout, len(chosen), aspect)
    chosen = chosen[: len(quads)]  # a scatter that found no room drops a card
    turn = rng.uniform(0, 2 * np.pi) if layout in ("scattered", "overlapping") else _jitter(rng, 25)
    if layout not in ("scattered", "overlapping", "fanned") and rng.random() < 0.25:
        turn += np.pi  # laid facing the other side of the table
    c, s = math.cos(turn), math.sin(turn)
    quads = [(q @ np.array([[c, -s], [s, c]], np.float32).T).astype(np.float32) for q in quads]

    # things on the table beside the cards, from their own generator
    things_rng = np.random.default_rng([seed, 7])
    things: list[tuple[Thing, np.ndarray]] = []
    if clutter if clutter is not None else things_rng.random() < 0.4:
        for _ in range(int(things_rng.integers(1, 4))):
            thing = make_thing(things_rng, str(things_rng.choice(THINGS)))
            for quad in _scatter(things_rng, 1, thing.aspect, quads + [q for _, q in things], 0.7, thing.width):
                things.append((thing, quad))

    # into the frame, seen from above: card width in px, the layout inside the frame
    card_px = rng.uniform(*model.card) * W
    anchor = quads or [q for _, q in things]  # a table with nothing but things on it is framed round them
    if anchor:
        pts = np.concatenate(anchor)
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        span = np.maximum(hi - lo, 1e-3)
        card_px = min(card_px, 0.9 * W / span[0], 0.9 * H / span[1])
        room = np.array([W, H]) - span * card_px
        # loose cards and hands sometimes run off the frame's edge, as in real photos of a deal
        slack = 0.6 * card_px if layout in ("scattered", "fanned") and rng.random() < 0.3 else 0.0
        offset = rng.uniform(0.05, 0.95, 2) * (room + 2 * slack) - slack - lo * card_px
        quads = [(q * card_px + offset).astype(np.float32) for q in quads]
        things = [(t, (q * card_px + offset).astype(np.float32)) for t, q in things]
    tilt = rng.uniform(*model.tilt)
    homography = _camera_homography(W, H, tilt, rng.uniform(-np.pi, np.pi))
    quads = [cv2.perspectiveTransform(q[None], homography)[0].astype(np.float32) for q in quads]
    things = [(t, cv2.perspectiveTransform(q[None], homography)[0].astype(np.float32)) for t, q in things]

    # the table, drawn at a working size and seen through the same camera
    work = min(1.0, math.sqrt(1.2e6 / (W * H)))
    tw, th = max(8, int(W * work)), max(8, int(H * work))
    top = make_table(table, rng, th, tw)
    to_full = np.diag([W / tw, H / th, 1.0])
    canvas = cv2.warpPerspective(top, homography @ to_full, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)

    # the cards, each with a soft drop shadow and its own small change of light
    drop = (rng.uniform(-0.015, 0.015) * card_px, rng.uniform(0.0, 0.02) * card_px, rng.uniform(0.01, 0.03) * card_px,
            rng.uniform(0.1, 0.4))
    for thing, quad in things:  # under any card laid over them
        _paste(canvas, thing, quad, np.ones(3, np.float32), (drop[0] * 2, drop[1] * 2, drop[2] * 2, drop[3]))
    for card, quad in zip(chosen, quads):
        gain = np.float32(rng.uniform(0.9, 1.04)) * rng.uniform(0.97, 1.03, 3).astype(np.float32)
        _paste(canvas, face_of[card], quad, gain, drop)

    # the light over everything, then the lens and the sensor
    small = (max(8, W // 8), max(8, H // 8))
    gain3, glow = _light_maps(rng, light, small[1], small[0])
    gain_full = cv2.resize(gain3, (W, H), interpolation=cv2.INTER_LINEAR)
    out = canvas.astype(np.float32)
    out *= gain_full
    del gain_full
    if glow.any():
        out += cv2.resize(glow, (W, H), interpolation=cv2.INTER_LINEAR)[..., None]
    sigma = rng.uniform(*model.blur)
    if sigma > 0.35:
        out = cv2.GaussianBlur(out, (0, 0), sigma)
    noise = rng.uniform(*model.noise) * (2.5 if light == "dim" else 1.0)
    image = np.clip(out, 0, 255).astype(np.uint8)
    del out
    grain = np.empty((H, W, 3), np.int16)
    cv2.setRNGSeed(int(rng.integers(0, 2**31 - 1)))  # OpenCV's own generator, seeded from ours: same noise each time
    cv2.randn(grain, 0, noise)
    image = cv2.add(image, grain, dtype=cv2.CV_8U)
    del grain
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(*model.jpeg))])
    if ok:
        image = cv2.imdecode(buf, cv2.IMREAD_COLOR)

    # the truth: what shows of each card and of its indices
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    placed = []
    for i, (card, quad) in enumerate(zip(chosen, quads)):
        later = quads[i + 1:]
        face = face_of[card]
        fh, fw = face.image.shape[:2]
        to_image = cv2.getPerspectiveTransform(np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32), quad)
        zones = [cv2.perspectiveTransform(z[None], to_image)[0] for z in face.index_zones()]
        shows = tuple(_share_showing(z, later, (W, H)) >= INDEX_SHOWS and _legible(gray, z) for z in zones)
        placed.append(PlacedCard(card, quad, round(_share_showing(quad, later, (W, H), 96), 3), shows))  # type: ignore[arg-type]
    readable = Counter(p.card.rank for p in placed if p.readable)
    books = tuple(r for r in Rank if readable[r] >= 4)
    return Composite(image, tuple(placed), books, table, light, layout, camera, faces, seed, laid,
                     tuple(t.kind for t, _ in things))


def composites(count: int, seed: int, **options: object) -> Iterator[Composite]:
    """``count`` composites with seeds ``seed``, ``seed + 1`` … and the same ``options`` (see :func:`compose`)."""
    for i in range(count):
        yield compose(seed + i, **options)  # type: ignore[arg-type]


def _hand(frame: np.ndarray, rng: np.random.Generator, target: np.ndarray, card_px: float) -> None:
    """A hand reaching in from the nearest frame edge over ``target`` (in place): a palm and four fingers."""
    h, w = frame.shape[:2]
    skin = random_colour(rng, (10, 30), (0.25, 0.55), (0.45, 0.9))
    mask = np.zeros((h, w), np.uint8)
    edge = np.array([[target[0], 0], [target[0], h], [0, target[1]], [w, target[1]]], np.float32)
    start = edge[int(np.argmin(np.linalg.norm(edge - target, axis=1)))]
    direction = (target - start) / max(1e-3, float(np.linalg.norm(target - start)))
    palm = target - direction * card_px * 0.6
    cv2.line(mask, tuple(int(v) for v in start), tuple(int(v) for v in palm), 255, int(card_px * 0.9))  # the arm
    angle = float(np.degrees(np.arctan2(direction[1], direction[0])))
    cv2.ellipse(mask, (int(palm[0]), int(palm[1])), (int(card_px * 0.6), int(card_px * 0.5)), angle, 0, 360, 255, -1)
    side = np.array([-direction[1], direction[0]])
    for k in range(4):
        base = palm + direction * card_px * 0.5 + side * card_px * (k - 1.5) * 0.22
        tip = base + direction * card_px * rng.uniform(0.5, 0.8)
        cv2.line(mask, tuple(int(v) for v in base), tuple(int(v) for v in tip), 255, max(2, int(card_px * 0.16)))
    alpha = cv2.GaussianBlur(mask, (0, 0), max(1.0, card_px * 0.02)).astype(np.float32)[..., None] / 255
    shade = 0.8 + 0.25 * value_noise(rng, h, w, card_px)[..., None]
    frame[:] = np.clip(frame * (1 - alpha) + skin * shade * alpha, 0, 255).astype(np.uint8)


def frames(composite: Composite, n: int, seed: int = 0, hand: bool = False) -> list[np.ndarray]:
    """``n`` frames of ``composite`` as a live camera sends them about half a second apart: the same table,
    each frame with its own sensor noise, a flicker of exposure and a shake of up to a pixel (labels still
    hold to within that pixel). With ``hand``, a hand reaches over the cards in the middle frame."""
    rng = np.random.default_rng([composite.seed, seed])
    h, w = composite.image.shape[:2]
    out = []
    for i in range(n):
        shake = np.float32([[1, 0, rng.uniform(-1, 1)], [0, 1, rng.uniform(-1, 1)]])
        frame = cv2.warpAffine(composite.image, shake, (w, h), borderMode=cv2.BORDER_REPLICATE)
        frame = cv2.convertScaleAbs(frame, alpha=float(rng.uniform(0.95, 1.05)))
        grain = np.empty((h, w, 3), np.int16)
        cv2.setRNGSeed(int(rng.integers(0, 2**31 - 1)))
        cv2.randn(grain, 0, float(rng.uniform(1.0, 3.0)))
        frame = cv2.add(frame, grain, dtype=cv2.CV_8U)
        if hand and i == n // 2 and composite.cards:
            card_px = float(np.median([np.linalg.norm(p.quad[1] - p.quad[0]) for p in composite.cards]))
            _hand(frame, rng, composite.cards[int(rng.integers(len(composite.cards)))].quad.mean(axis=0), card_px)
        out.append(frame)
    return out


def still_frames(composite: Composite, n: int, seed: int = 0, hand: tuple[int, int] | None = None) -> list[np.ndarray]:
    """``n`` consecutive frames of ``composite`` from a still camera (a live video's, not a look's spread): each with
    its own sensor noise at the camera's level and a flicker of exposure of up to 3%, the picture not moved. With
    ``hand`` (first, last frame), a hand reaches in from the nearest edge over a card and back out in those frames."""
    rng = np.random.default_rng([composite.seed, seed, 1])
    h, w = composite.image.shape[:2]
    sigma = float(rng.uniform(*CAMERAS[composite.camera].noise)) if composite.camera in CAMERAS else 2.0
    aim = composite.cards[int(rng.integers(len(composite.cards)))] if composite.cards else None
    hand_seed = int(rng.integers(0, 2**31 - 1))
    out = []
    for i in range(n):
        frame = cv2.convertScaleAbs(composite.image, alpha=float(rng.uniform(0.97, 1.03)))
        grain = np.empty((h, w, 3), np.int16)
        cv2.setRNGSeed(int(rng.integers(0, 2**31 - 1)))
        cv2.randn(grain, 0, sigma)
        frame = cv2.add(frame, grain, dtype=cv2.CV_8U)
        if hand is not None and aim is not None and hand[0] <= i <= hand[1]:
            card_px = float(np.median([np.linalg.norm(p.quad[1] - p.quad[0]) for p in composite.cards]))
            centre = aim.quad.mean(axis=0)
            edges = np.array([[centre[0], -card_px], [centre[0], h + card_px], [-card_px, centre[1]], [w + card_px, centre[1]]],
                             np.float32)
            start = edges[int(np.argmin(np.linalg.norm(edges - centre, axis=1)))]
            reach = math.sin(math.pi * (i - hand[0] + 1) / (hand[1] - hand[0] + 2))  # in, over the card, and out
            _hand(frame, np.random.default_rng(hand_seed), start + reach * (centre - start), card_px)
        out.append(frame)
    return out


def _main(argv: list[str] | None = None) -> int:
    """``python -m tabletop.vision.scenes OUT [--count N] [--seed S] [--split held_out] [--faces real] ...``:
    write composites as JPEG with one JSON line of labels each (``labels.jsonl``), to look at or to train on."""
    import argparse
    import json

    parser = argparse.ArgumentParser(description=_main.__doc__.splitlines()[0] if _main.__doc__ else None)
    parser.add_argument("out", type=Path)
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--split", choices=SPLITS, default="held_out")
    parser.add_argument("--faces", choices=("real", "rendered"), default="real")
    parser.add_argument("--face-split", choices=("train", "held_out"), default=None)
    parser.add_argument("--table", choices=list(TABLES), default=None)
    parser.add_argument("--light", choices=LIGHTS, default=None)
    parser.add_argument("--layout", choices=LAYOUTS, default=None)
    parser.add_argument("--camera", choices=list(CAMERAS), default=None)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with (args.out / "labels.jsonl").open("w") as labels:
        for c in composites(args.count, args.seed, split=args.split, faces=args.faces, face_split=args.face_split,
                            table=args.table, light=args.light, layout=args.layout, camera=args.camera):
            name = f"scene{c.seed:06d}.jpg"
            cv2.imwrite(str(args.out / name), c.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
            labels.write(json.dumps({
                "path": name, "seed": c.seed, "table": c.table, "light": c.light, "layout": c.layout,
                "camera": c.camera, "faces": c.faces, "books": [r.symbol for r in c.books],
                "cards": [{"rank": p.card.rank.symbol, "suit": p.card.suit.value, "quad": np.round(p.quad.astype(float), 1).tolist(),
                           "shown": p.shown, "index_shows": list(p.index_shows)} for p in c.cards]}) + "\n")
    print(f"{args.count} scenes and labels.jsonl written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(_main())
