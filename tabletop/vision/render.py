"""Synthetic playing cards and table scenes, rendered with known truth.

The reader is built from these renders (never from real photos), and the tests and the bench
measure it on scenes rendered with other seeds and held-out fonts. Everything is driven by a
``numpy.random.Generator`` so a seed fixes every pixel.

Fonts: DejaVu and Liberation TrueType faces (Debian ``fonts-dejavu-core``, ``fonts-liberation``)
drawn with Pillow, plus OpenCV's built-in Hershey fonts.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from tabletop.cards import Card, Rank, Suit

__all__ = [
    "CARD_W",
    "CARD_H",
    "FONTS",
    "TRAIN_FONTS",
    "HELD_OUT_FONTS",
    "DeckStyle",
    "SceneCard",
    "Scene",
    "random_style",
    "render_card",
    "random_table",
    "render_scene",
    "add_camera_effects",
    "available_fonts",
]

CARD_W, CARD_H = 250, 350
"""Size of a rendered card face in pixels (poker size, 63 × 88 mm)."""

_FONT_DIRS = (Path("/usr/share/fonts/truetype"), Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))

# Font name -> TrueType file name, or "hershey:<cv2 font id>".
FONTS: dict[str, str] = {
    "DejaVuSans": "DejaVuSans.ttf",
    "DejaVuSans-Bold": "DejaVuSans-Bold.ttf",
    "DejaVuSerif": "DejaVuSerif.ttf",
    "DejaVuSerif-Bold": "DejaVuSerif-Bold.ttf",
    "DejaVuSansCondensed-Bold": "DejaVuSansCondensed-Bold.ttf",
    "DejaVuSerifCondensed": "DejaVuSerifCondensed.ttf",
    "DejaVuSansMono": "DejaVuSansMono.ttf",
    "LiberationSans-Regular": "LiberationSans-Regular.ttf",
    "LiberationSans-Bold": "LiberationSans-Bold.ttf",
    "LiberationSerif-Regular": "LiberationSerif-Regular.ttf",
    "LiberationSerif-Bold": "LiberationSerif-Bold.ttf",
    "LiberationSansNarrow-Regular": "LiberationSansNarrow-Regular.ttf",
    "LiberationSansNarrow-Bold": "LiberationSansNarrow-Bold.ttf",
    "LiberationMono-Regular": "LiberationMono-Regular.ttf",
    "hershey-simplex": f"hershey:{cv2.FONT_HERSHEY_SIMPLEX}",
    "hershey-duplex": f"hershey:{cv2.FONT_HERSHEY_DUPLEX}",
    "hershey-complex": f"hershey:{cv2.FONT_HERSHEY_COMPLEX}",
    "hershey-triplex": f"hershey:{cv2.FONT_HERSHEY_TRIPLEX}",
}
HELD_OUT_FONTS: tuple[str, ...] = ("LiberationSansNarrow-Bold", "hershey-complex", "DejaVuSerifCondensed")
"""Fonts the reader is never built from: the bench measures generalisation on them."""
TRAIN_FONTS: tuple[str, ...] = tuple(name for name in FONTS if name not in HELD_OUT_FONTS)

_SUIT_FONTS = ("DejaVuSans.ttf", "DejaVuSerif.ttf", "LiberationSans-Regular.ttf", "LiberationSerif-Regular.ttf")
_SUIT_CHARS = {Suit.CLUBS: "\u2663", Suit.DIAMONDS: "\u2666", Suit.HEARTS: "\u2665", Suit.SPADES: "\u2660"}
_RED_SUITS = (Suit.HEARTS, Suit.DIAMONDS)


@functools.cache
def _font_path(file_name: str) -> Path | None:
    for root in _FONT_DIRS:
        if root.is_dir():
            for path in root.rglob(file_name):
                return path
    return None


def available_fonts(names: tuple[str, ...] = tuple(FONTS)) -> tuple[str, ...]:
    """The font names among ``names`` that can be drawn on this machine (Hershey always can)."""
    return tuple(n for n in names if FONTS[n].startswith("hershey:") or _font_path(FONTS[n]) is not None)


@functools.cache
def _ink_mask(text: str, font: str, thick: int = 0) -> np.ndarray:
    """A tight, anti-aliased ink mask (uint8, 0..255) of ``text`` drawn large in ``font``."""
    spec = FONTS.get(font, font)
    if spec.startswith("hershey:"):
        face = int(spec.split(":")[1])
        canvas = np.zeros((200, 120 * max(1, len(text)) + 60), np.uint8)
        cv2.putText(canvas, text, (20, 150), face, 4.0, 255, 6 + 3 * thick, cv2.LINE_AA)
        mask = canvas
    else:
        from PIL import Image, ImageDraw, ImageFont

        path = _font_path(spec)
        if path is None:
            raise FileNotFoundError(f"font {spec} is not installed (Debian fonts-dejavu-core, fonts-liberation)")
        pil_font = ImageFont.truetype(str(path), 160)
        image = Image.new("L", (160 * max(1, len(text)) + 80, 260), 0)
        ImageDraw.Draw(image).text((40, 20), text, fill=255, font=pil_font, stroke_width=2 * thick, stroke_fill=255)
        mask = np.asarray(image)
    ys, xs = np.nonzero(mask > 20)
    return np.ascontiguousarray(mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])


def _scaled_mask(mask: np.ndarray, height: int, squeeze: float = 1.0) -> np.ndarray:
    height = max(3, int(round(height)))
    width = max(2, int(round(mask.shape[1] * height / mask.shape[0] * squeeze)))
    return cv2.resize(mask, (width, height), interpolation=cv2.INTER_AREA)


def _paint(image: np.ndarray, mask: np.ndarray, x: int, y: int, colour: tuple[int, int, int]) -> None:
    """Blend ``colour`` into ``image`` through ``mask`` with its top-left at (x, y), clipped."""
    h, w = mask.shape
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, image.shape[1]), min(y + h, image.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    alpha = (mask[y0 - y : y1 - y, x0 - x : x1 - x].astype(np.float32) / 255.0)[..., None]
    region = image[y0:y1, x0:x1].astype(np.float32)
    image[y0:y1, x0:x1] = (region * (1 - alpha) + np.array(colour, np.float32) * alpha).astype(np.uint8)


@dataclass(frozen=True)
class DeckStyle:
    """How one deck draws its faces: index font and layout, inks and paper."""

    font: str
    index_height: float  # rank glyph height as a fraction of card height
    index_x: float  # left edge of the index as a fraction of card width
    index_y: float  # top edge of the index as a fraction of card height
    suit_scale: float  # suit pip height relative to the rank glyph height
    squeeze: float  # horizontal scale of the rank glyphs ("10" is often condensed)
    bold: int  # extra stroke width
    paper: tuple[int, int, int]
    red: tuple[int, int, int]
    black: tuple[int, int, int]
    frame: bool  # court cards drawn inside a framed picture, as most decks do
    suit_font: str = "DejaVuSans.ttf"
    ten_squeeze: float = 1.0  # many decks condense the two digits of "10" to the width of one letter


def random_style(rng: np.random.Generator, fonts: tuple[str, ...] = TRAIN_FONTS) -> DeckStyle:
    """A random but plausible deck style using one of ``fonts``."""
    fonts = available_fonts(fonts) or ("hershey-simplex",)
    paper = int(rng.integers(225, 256))
    return DeckStyle(
        font=str(rng.choice(fonts)),
        index_height=float(rng.uniform(0.075, 0.125)),
        index_x=float(rng.uniform(0.03, 0.08)),
        index_y=float(rng.uniform(0.03, 0.07)),
        suit_scale=float(rng.uniform(0.55, 0.95)),
        squeeze=float(rng.uniform(0.7, 1.1)),
        bold=int(rng.integers(0, 2)),
        paper=(paper - int(rng.integers(0, 20)), paper - int(rng.integers(0, 8)), paper),
        red=(int(rng.integers(0, 60)), int(rng.integers(0, 50)), int(rng.integers(170, 240))),
        black=(int(rng.integers(0, 50)),) * 3,
        frame=bool(rng.random() < 0.7),
        suit_font=str(rng.choice([f for f in _SUIT_FONTS if _font_path(f) is not None] or ["DejaVuSans.ttf"])),
        ten_squeeze=float(rng.uniform(0.5, 1.0)),
    )


_PIP_LAYOUTS: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.2), (0.5, 0.8)],
    3: [(0.5, 0.2), (0.5, 0.5), (0.5, 0.8)],
    4: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.8), (0.7, 0.8)],
    5: [(0.3, 0.2), (0.7, 0.2), (0.5, 0.5), (0.3, 0.8), (0.7, 0.8)],
    6: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)],
    7: [(0.3, 0.2), (0.7, 0.2), (0.5, 0.35), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)],
    8: [(0.3, 0.2), (0.7, 0.2), (0.5, 0.35), (0.3, 0.5), (0.7, 0.5), (0.5, 0.65), (0.3, 0.8), (0.7, 0.8)],
    9: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.4), (0.7, 0.4), (0.5, 0.5), (0.3, 0.6), (0.7, 0.6), (0.3, 0.8), (0.7, 0.8)],
    10: [(0.3, 0.2), (0.7, 0.2), (0.5, 0.3), (0.3, 0.4), (0.7, 0.4), (0.3, 0.6), (0.7, 0.6), (0.5, 0.7),
         (0.3, 0.8), (0.7, 0.8)],
}


def _draw_index(face: np.ndarray, card: Card, style: DeckStyle) -> None:
    colour = style.red if card.suit in _RED_SUITS else style.black
    height = style.index_height * CARD_H
    squeeze = style.squeeze * (style.ten_squeeze if card.rank is Rank.TEN else 1.0)
    if card.rank is Rank.TEN and style.ten_squeeze < 0.7:  # tightly set "10": digits touch, as on many decks
        one = _scaled_mask(_ink_mask("1", style.font, style.bold), height, squeeze)
        zero = _scaled_mask(_ink_mask("0", style.font, style.bold), height, squeeze)
        gap = int(round((style.ten_squeeze - 0.6) * height * 0.3))
        rows = max(one.shape[0], zero.shape[0])
        rank_mask = np.zeros((rows, max(1, one.shape[1] + gap) + zero.shape[1]), np.uint8)
        rank_mask[: one.shape[0], : one.shape[1]] = one
        x0 = max(0, one.shape[1] + gap)
        rank_mask[: zero.shape[0], x0 : x0 + zero.shape[1]] = np.maximum(rank_mask[: zero.shape[0], x0 : x0 + zero.shape[1]], zero)
    else:
        rank_mask = _scaled_mask(_ink_mask(card.rank.symbol, style.font, style.bold), height, squeeze)
    suit_mask = _scaled_mask(_ink_mask(_SUIT_CHARS[card.suit], style.suit_font), height * style.suit_scale)
    x, y = int(style.index_x * CARD_W), int(style.index_y * CARD_H)
    centre = x + rank_mask.shape[1] // 2
    _paint(face, rank_mask, x, y, colour)
    _paint(face, suit_mask, max(2, centre - suit_mask.shape[1] // 2), y + rank_mask.shape[0] + int(0.15 * height), colour)


def render_card(card: Card, style: DeckStyle, rng: np.random.Generator) -> np.ndarray:
    """One card face (BGR, ``CARD_H`` × ``CARD_W``) with indices in both corners."""
    face = np.empty((CARD_H, CARD_W, 3), np.uint8)
    face[:] = style.paper
    colour = style.red if card.suit in _RED_SUITS else style.black
    pip = _ink_mask(_SUIT_CHARS[card.suit], style.suit_font)
    left, top, right, bottom = 0.24 * CARD_W, 0.1 * CARD_H, 0.76 * CARD_W, 0.9 * CARD_H
    if card.rank in (Rank.JACK, Rank.QUEEN, Rank.KING):
        x0, y0, x1, y1 = int(left - 4), int(top), int(right + 4), int(bottom)
        picture = np.empty((y1 - y0, x1 - x0, 3), np.uint8)
        picture[:] = style.paper
        for _ in range(int(rng.integers(10, 25))):  # a busy court picture in strong colours
            col = tuple(int(c) for c in rng.choice([(40, 40, 200), (30, 190, 230), (160, 60, 20), (20, 20, 20),
                                                     (60, 150, 60), (200, 200, 200)]))
            centre = (int(rng.integers(0, x1 - x0)), int(rng.integers(0, y1 - y0)))
            axes = (int(rng.integers(4, 40)), int(rng.integers(4, 50)))
            cv2.ellipse(picture, centre, axes, float(rng.uniform(0, 180)), 0, 360, col, int(rng.choice([-1, 2, 3])))
        face[y0:y1, x0:x1] = picture
        if style.frame:
            cv2.rectangle(face, (x0, y0), (x1 - 1, y1 - 1), (150, 80, 30) if rng.random() < 0.5 else colour, 2)
        small = _scaled_mask(pip, 0.09 * CARD_H)
        _paint(face, small, x0 + 6, y0 + 6, colour)
    else:
        count = 1 if card.rank is Rank.ACE else int(card.rank.symbol)
        size = (0.28 if count == 1 else 0.13 - 0.004 * count) * CARD_H
        mask = _scaled_mask(pip, size)
        for fx, fy in _PIP_LAYOUTS[count]:
            cx, cy = left + fx * (right - left), top + fy * (bottom - top)
            flipped = mask[::-1, ::-1] if fy > 0.55 else mask
            _paint(face, flipped, int(cx - mask.shape[1] / 2), int(cy - mask.shape[0] / 2), colour)
    _draw_index(face, card, style)
    face = np.ascontiguousarray(face[::-1, ::-1])
    _draw_index(face, card, style)
    return face


def _value_noise(rng: np.random.Generator, h: int, w: int, scale: int) -> np.ndarray:
    small = rng.random((max(2, h // scale), max(2, w // scale))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def random_table(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A table top: wood, carpet, felt, cloth or stone, in a random colour (BGR uint8)."""
    kind = rng.choice(["wood", "carpet", "felt", "cloth", "stone"])
    base = rng.uniform(20, 200, 3).astype(np.float32)
    if kind == "wood":
        yy = np.arange(h, dtype=np.float32)[:, None]
        warp = _value_noise(rng, h, w, 60) * 40
        grain = 0.5 + 0.5 * np.sin((yy + warp) * rng.uniform(0.05, 0.25) + _value_noise(rng, h, w, 200) * 6)
        base = np.array([rng.uniform(10, 60), rng.uniform(40, 110), rng.uniform(80, 170)], np.float32)
        tex = base * (0.55 + 0.6 * grain[..., None])
    elif kind == "carpet":
        fine = rng.random((h, w), dtype=np.float32)
        fine = cv2.GaussianBlur(fine, (0, 0), 1.0)
        base = np.array([rng.uniform(90, 160), rng.uniform(110, 180), rng.uniform(120, 200)], np.float32)
        tex = base * (0.6 + 0.8 * fine[..., None])
    elif kind == "felt":
        tex = base * (0.85 + 0.3 * _value_noise(rng, h, w, 40)[..., None])
    elif kind == "cloth":
        period = int(rng.integers(8, 40))
        yy, xx = np.arange(h)[:, None], np.arange(w)[None, :]
        checks = (((yy // period) + (xx // period)) % 2).astype(np.float32)
        other = rng.uniform(20, 255, 3).astype(np.float32)
        tex = base * (1 - checks[..., None]) + other * checks[..., None]
    else:
        tex = base * (0.5 + 0.8 * _value_noise(rng, h, w, 8)[..., None] * _value_noise(rng, h, w, 50)[..., None])
    tex = tex + rng.standard_normal((h, w, 1), dtype=np.float32) * np.float32(4)
    return np.clip(tex, 0, 255).astype(np.uint8)


def add_camera_effects(image: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """Uneven light, glare, blur, sensor noise and JPEG, as a cheap webcam adds them."""
    h, w = image.shape[:2]
    out = image.astype(np.float32)
    xs = np.linspace(-0.5, 0.5, w, dtype=np.float32)[None, :]
    ys = np.linspace(-0.5, 0.5, h, dtype=np.float32)[:, None]
    gx, gy = rng.uniform(-1, 1, 2) * strength
    light = (1.0 + 0.7 * (gx * xs + gy * ys)) * (rng.uniform(0.7, 1.15) if strength > 0 else 1.0)
    out *= light[..., None]
    out *= rng.uniform(0.92, 1.08, 3).astype(np.float32)
    if rng.random() < 0.4 * strength:  # glare: a soft bright spot
        cx, cy = rng.uniform(-0.5, 0.5, 2)
        radius = rng.uniform(0.05, 0.25) * max(h, w) / w
        spot = np.exp(-((ys - cy) ** 2) / (2 * radius**2)) * np.exp(-((xs - cx) ** 2) / (2 * radius**2))
        out += (120 * rng.uniform(0.3, 1.0) * spot)[..., None].astype(np.float32)
    sigma = rng.uniform(0, 1.4 * strength)
    if sigma > 0.3:
        out = cv2.GaussianBlur(out, (0, 0), sigma)
    out += rng.standard_normal(out.shape, dtype=np.float32) * np.float32(rng.uniform(1, 7 * strength + 1))
    out = np.clip(out, 0, 255).astype(np.uint8)
    quality = int(rng.integers(45, 95))
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else out


@dataclass(frozen=True)
class SceneCard:
    """The truth about one card in a rendered scene: what it is and its four corners."""

    card: Card
    quad: np.ndarray = field(compare=False)  # 4×2 float32, image coordinates

    @property
    def box(self) -> tuple[int, int, int, int]:
        x, y, w, h = cv2.boundingRect(self.quad.astype(np.float32))
        return int(x), int(y), int(w), int(h)


@dataclass(frozen=True)
class Scene:
    """A rendered frame and the cards in it, in drawing order (later cards lie on top)."""

    image: np.ndarray = field(compare=False)
    cards: tuple[SceneCard, ...]


def _card_quad(rng: np.random.Generator, cx: float, cy: float, width: float, angle: float) -> np.ndarray:
    hw, hh = width / 2, width * CARD_H / CARD_W / 2
    corners = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]], np.float32)
    corners += rng.normal(0, width * 0.01, corners.shape).astype(np.float32)
    c, s = np.cos(angle), np.sin(angle)
    rot = np.array([[c, -s], [s, c]], np.float32)
    quad = corners @ rot.T + np.array([cx, cy], np.float32)
    return quad.astype(np.float32)


def _tilt_homography(rng: np.random.Generator, w: int, h: int, tilt: float, direction: float) -> np.ndarray:
    """Homography of a camera tilted by ``tilt`` radians towards ``direction``, keeping the frame centre."""
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    centred = (src - [w / 2, h / 2]) / (max(w, h) / 2)
    c, s = np.cos(direction), np.sin(direction)
    along = centred @ np.array([[c, -s], [s, c]], np.float32).T  # rotate so the tilt is about the x axis
    distance = 2.5
    depth = distance + along[:, 1] * np.sin(tilt)
    projected = np.stack([along[:, 0], along[:, 1] * np.cos(tilt)], axis=1) * (distance / depth)[:, None]
    back = projected @ np.array([[c, -s], [s, c]], np.float32)  # rotate back
    dst = back * (max(w, h) / 2) + [w / 2, h / 2]
    return cv2.getPerspectiveTransform(src, dst.astype(np.float32))


def render_scene(
    cards: list[Card],
    rng: np.random.Generator,
    size: tuple[int, int] = (480, 640),
    style: DeckStyle | None = None,
    fonts: tuple[str, ...] = TRAIN_FONTS,
    overlap: float = 0.0,
    perspective: float = 0.15,
    effects: float = 1.0,
) -> Scene:
    """Lay ``cards`` face up on a random table and photograph them.

    Cards are placed on a grid (rotated up to ±25°, up to ±180° in orientation); ``overlap``
    (0..0.3) pushes neighbours together so their edges cover each other; ``perspective``
    tilts the camera; ``effects`` scales lighting, glare, blur and noise.
    """
    h, w = size
    style = style or random_style(rng, fonts)
    table = random_table(rng, h, w)
    n = len(cards)
    cols = int(np.ceil(np.sqrt(n * w / h * CARD_W / CARD_H)))
    cols = max(1, min(n, cols))
    rows = int(np.ceil(n / cols))
    cell_w, cell_h = w / (cols + 0.3), h / (rows + 0.3)
    width = min(cell_w * 0.8, cell_h * 0.8 * CARD_W / CARD_H) * (1 + overlap) * rng.uniform(0.85, 1.0)
    width = min(width, 0.45 * min(h, w) * 1.4)
    quads = []
    for i in range(n):
        r, c = divmod(i, cols)
        cx = (c + 0.65) * cell_w + rng.uniform(-0.05, 0.05) * cell_w
        cy = (r + 0.65) * cell_h + rng.uniform(-0.05, 0.05) * cell_h
        angle = rng.uniform(-0.35, 0.35) + (np.pi if rng.random() < 0.5 else 0.0)
        quads.append(_card_quad(rng, cx, cy, width, angle))
    # camera tilt: the table plane seen by a pinhole camera tilted by up to 2×perspective radians
    camera = _tilt_homography(rng, w, h, float(rng.uniform(0, 2 * perspective)), float(rng.uniform(-np.pi, np.pi)))
    image = cv2.warpPerspective(table, camera, (w, h), borderMode=cv2.BORDER_REFLECT)
    truths = []
    face_corners = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32)
    for card, quad in zip(cards, quads):
        quad = cv2.perspectiveTransform(quad[None], camera)[0]
        face = render_card(card, style, rng)
        matrix = cv2.getPerspectiveTransform(face_corners, quad.astype(np.float32))
        warped = cv2.warpPerspective(face, matrix, (w, h), flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.full((CARD_H, CARD_W), 255, np.uint8), matrix, (w, h))
        # a thin soft shadow makes the card edge visible against pale tables, as in real light
        shadow = cv2.GaussianBlur(mask, (0, 0), 2.0).astype(np.float32) / 255.0
        image = (image.astype(np.float32) * (1 - 0.35 * shadow[..., None])).astype(np.uint8)
        alpha = mask.astype(np.float32)[..., None] / 255.0
        image = (image * (1 - alpha) + warped * alpha).astype(np.uint8)
        truths.append(SceneCard(card, quad.astype(np.float32)))
    image = add_camera_effects(image, rng, effects)
    return Scene(image, tuple(truths))
