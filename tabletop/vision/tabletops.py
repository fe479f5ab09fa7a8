"""Table tops and the things on them, generated for :mod:`tabletop.vision.scenes`.

Each table generator belongs to a split: the ``"held_out"`` ones are other algorithms than the ``"train"``
ones (not other seeds of them), so a bench on them measures tables no model was built or tuned on. Every
generator takes a ``numpy.random.Generator`` and a size and returns BGR float32 pixels (0..255).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

__all__ = ["Table", "TABLES", "table_names", "make_table", "THINGS", "Thing", "make_thing", "rounded_mask", "value_noise",
           "random_colour"]


def rounded_mask(h: int, w: int, radius: float) -> np.ndarray:
    """An ``h`` × ``w`` alpha mask (uint8) of a rectangle with corners rounded to ``radius`` px, anti-aliased."""
    mask = np.zeros((h * 4, w * 4), np.uint8)  # drawn 4× larger and shrunk: an anti-aliased edge
    r = max(1, int(round(radius * 4)))
    cv2.rectangle(mask, (r, 0), (w * 4 - 1 - r, h * 4 - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w * 4 - 1, h * 4 - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w * 4 - 1 - r, r), (r, h * 4 - 1 - r), (w * 4 - 1 - r, h * 4 - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    return cv2.resize(mask, (w, h), interpolation=cv2.INTER_AREA)


# --------------------------------------------------------------------------------------------- tables


def value_noise(rng: np.random.Generator, h: int, w: int, scale: float) -> np.ndarray:
    """Smooth value noise in 0..1 with features about ``scale`` pixels across."""
    small = rng.random((max(2, int(h / scale) + 2), max(2, int(w / scale) + 2))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def _fbm(rng: np.random.Generator, h: int, w: int, scale: float, octaves: int = 4) -> np.ndarray:
    total = np.zeros((h, w), np.float32)
    weight = 0.0
    for k in range(octaves):
        total += value_noise(rng, h, w, max(1.5, scale / 2**k)) * 0.5**k
        weight += 0.5**k
    return total / weight


def random_colour(rng: np.random.Generator, hue: tuple[float, float], sat: tuple[float, float], val: tuple[float, float]) -> np.ndarray:
    """One BGR colour (float32, 0..255) drawn from ranges of hue (degrees), saturation and value (0..1)."""
    pixel = np.array([[[rng.uniform(*hue) / 2 % 180, rng.uniform(*sat) * 255, rng.uniform(*val) * 255]]], np.float32)
    return cv2.cvtColor(pixel.astype(np.uint8), cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def _colour(tex: np.ndarray, colour: np.ndarray) -> np.ndarray:
    return tex[..., None] * colour[None, None, :]


# -- train tables


def _wood_grain(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Straight sine grain, warped, in any wood tone from pale to dark."""
    yy = np.arange(h, dtype=np.float32)[:, None]
    warp = value_noise(rng, h, w, 60) * rng.uniform(20, 60)
    grain = 0.5 + 0.5 * np.sin((yy + warp) * rng.uniform(0.05, 0.3) + value_noise(rng, h, w, 200) * 6)
    base = random_colour(rng, (18, 38), (0.25, 0.75), (0.3, 0.9))
    tex = 0.75 + 0.35 * grain
    if rng.random() < 0.5:
        tex = tex.T if h == w else cv2.resize(tex.T.copy(), (w, h))
    return _colour(tex, base)


def _weave(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A plain weave of any colour: threads crossing over and under."""
    period = rng.uniform(3, 8)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    threads = 0.5 + 0.5 * np.sin(2 * np.pi * xx / period) * np.sin(2 * np.pi * yy / period)
    base = random_colour(rng, (0, 360), (0.05, 0.6), (0.45, 0.97))
    return _colour(0.82 + 0.2 * threads + 0.06 * (value_noise(rng, h, w, 30) - 0.5), base)


def _checks(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Gingham: white and one colour in checks, their crossings mixed."""
    period = rng.uniform(10, 45)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = ((xx // period) % 2).astype(np.float32)
    b = ((yy // period) % 2).astype(np.float32)
    ink = random_colour(rng, (0, 360), (0.4, 0.9), (0.3, 0.85))
    white = random_colour(rng, (0, 60), (0.0, 0.1), (0.85, 1.0))
    share = ((a + b) / 2)[..., None]
    return white * (1 - share) + ink * share


def _felt(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = random_colour(rng, (0, 360), (0.3, 0.9), (0.15, 0.6))
    return _colour(0.88 + 0.24 * value_noise(rng, h, w, 40), base)


def _carpet(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    fine = cv2.GaussianBlur(rng.random((h, w), dtype=np.float32), (0, 0), 1.0)
    base = random_colour(rng, (0, 360), (0.1, 0.5), (0.35, 0.75))
    return _colour(0.6 + 0.8 * fine, base)


def _stone(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = random_colour(rng, (0, 360), (0.0, 0.3), (0.3, 0.8))
    return _colour(0.5 + 0.8 * value_noise(rng, h, w, 4) * value_noise(rng, h, w, 50), base)


# -- held-out tables


def _planks(rng: np.random.Generator, h: int, w: int, value: tuple[float, float], sat: tuple[float, float]) -> np.ndarray:
    """Boards with seams, each its own tone, with ring grain and the odd knot."""
    width = rng.uniform(0.12, 0.3) * min(h, w)
    along_x = rng.random() < 0.5
    H, W = (h, w) if along_x else (w, h)
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    board = np.floor(yy / width)
    tex = np.zeros((H, W), np.float32)
    warp = _fbm(rng, H, W, rng.uniform(80, 250)) * rng.uniform(15, 50)
    rings = rng.uniform(0.08, 0.35)
    grain = 0.5 + 0.5 * np.sin((yy + warp + board * 37.0) * rings + value_noise(rng, H, W, 400) * 8)
    grain = grain**rng.uniform(1.0, 3.0)
    tones = rng.uniform(0.85, 1.12, int(H / width) + 2).astype(np.float32)
    tex = tones[board.astype(int)] * (0.8 + 0.22 * (1 - grain) + 0.05 * (value_noise(rng, H, W, 3) - 0.5))
    for _ in range(int(rng.integers(0, 4))):  # knots
        cx, cy, r = rng.uniform(0, W), rng.uniform(0, H), rng.uniform(0.01, 0.04) * min(H, W)
        d = np.sqrt(((xx - cx) / 2.5) ** 2 + (yy - cy) ** 2)
        tex *= 1 - 0.35 * np.exp(-(d / r) ** 2) * (0.6 + 0.4 * np.sin(d * 0.8))
    seam = np.abs(yy - np.round(yy / width) * width) < rng.uniform(0.6, 2.0)
    tex[seam] *= rng.uniform(0.45, 0.75)
    if not along_x:
        tex = np.ascontiguousarray(tex.T)
    return _colour(tex, random_colour(rng, (20, 40), sat, value))


def _light_wood(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Pale planks: birch, pine, white oak, limed wood."""
    return _planks(rng, h, w, (0.72, 0.97), (0.12, 0.4))


def _dark_wood(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Walnut, teak, stained oak."""
    return _planks(rng, h, w, (0.18, 0.55), (0.4, 0.8))


def _linen(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Beige or white linen: uneven slubbed threads, sometimes a twill."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    period = rng.uniform(2.5, 6)
    slub_x = cv2.resize(rng.random((1, max(2, w // 3))).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    slub_y = cv2.resize(rng.random((max(2, h // 3), 1)).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.4:
        threads = 0.5 + 0.5 * np.sin(2 * np.pi * (xx + yy) / period)
    else:
        threads = 0.5 + 0.5 * np.sin(2 * np.pi * xx / period) * np.sin(2 * np.pi * yy / period)
    tex = 0.86 + 0.09 * threads + 0.07 * (slub_x - 0.5) + 0.07 * (slub_y - 0.5) + 0.05 * (value_noise(rng, h, w, 60) - 0.5)
    base = random_colour(rng, (25, 50), (0.02, 0.3), (0.8, 1.0))
    return _colour(tex, base)


def _tablecloth(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A printed tablecloth: dots, flowers or stripes on a plain or white ground, over a fine weave."""
    ground = random_colour(rng, (0, 360), (0.0, 0.5), (0.6, 1.0))
    out = np.empty((h, w, 3), np.float32)
    out[:] = ground
    inks = [tuple(float(v) for v in random_colour(rng, (0, 360), (0.4, 1.0), (0.2, 0.9))) for _ in range(3)]
    kind = rng.choice(["dots", "flowers", "stripes", "paisley"])
    scale = rng.uniform(0.03, 0.1) * min(h, w)
    if kind == "dots":
        step = scale * rng.uniform(1.5, 3)
        for j, y in enumerate(np.arange(0, h + step, step)):
            for x in np.arange((j % 2) * step / 2, w + step, step):
                cv2.circle(out, (int(x), int(y)), int(scale * 0.4), inks[0], -1, cv2.LINE_AA)
    elif kind == "stripes":
        step = scale * rng.uniform(1, 3)
        for i, x in enumerate(np.arange(0, w + h, step)):
            pts = np.array([[x, 0], [x + step * 0.5, 0], [x + step * 0.5 - h * 0.3, h], [x - h * 0.3, h]], np.int32)
            cv2.fillConvexPoly(out, pts, inks[i % 2], cv2.LINE_AA)
    else:
        for _ in range(int(h * w / scale**2 * 0.6)):
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            petals = int(rng.integers(4, 7)) if kind == "flowers" else 1
            ink = inks[int(rng.integers(0, 3))]
            for p in range(petals):
                a = 2 * np.pi * p / petals + rng.uniform(0, 0.3)
                r = scale * 0.35 if petals > 1 else 0
                axes = (int(scale * 0.3), int(scale * 0.14)) if petals > 1 else (int(scale * 0.5), int(scale * 0.25))
                cv2.ellipse(out, (int(cx + r * np.cos(a)), int(cy + r * np.sin(a))), axes, float(np.degrees(a)),
                            0, 360, ink, -1, cv2.LINE_AA)
            if petals > 1:
                cv2.circle(out, (int(cx), int(cy)), max(1, int(scale * 0.12)), inks[2], -1, cv2.LINE_AA)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    weave = 0.94 + 0.06 * np.sin(2 * np.pi * xx / 3.3) * np.sin(2 * np.pi * yy / 3.3)
    return out * weave[..., None]


def _baize(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Dark felt: card-table green, navy, black or burgundy, with a fibrous nap."""
    hue = [(100, 150), (200, 240), (0, 360), (330, 360)][int(rng.integers(0, 4))]
    base = random_colour(rng, hue, (0.3, 0.9), (0.06, 0.3))
    fibres = cv2.GaussianBlur(rng.random((h, w), dtype=np.float32), (0, 0), sigmaX=rng.uniform(0.8, 2.5), sigmaY=0.6)
    nap = value_noise(rng, h, w, rng.uniform(80, 300))
    return _colour(0.75 + 0.5 * fibres + 0.2 * nap, base)


def _cork(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Cork board: orange-brown granules with dark pits."""
    base = random_colour(rng, (22, 36), (0.4, 0.7), (0.5, 0.8))
    granules = value_noise(rng, h, w, rng.uniform(2, 4))
    blotch = value_noise(rng, h, w, rng.uniform(6, 14))
    pits = (value_noise(rng, h, w, 3) > 0.82).astype(np.float32)
    tex = 0.7 + 0.35 * granules + 0.25 * (blotch - 0.5) - 0.35 * cv2.GaussianBlur(pits, (0, 0), 0.8)
    return _colour(tex, base)


def _paper(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """White or cream paper, or a printed card box: smooth, with fibres and a soft crease."""
    base = random_colour(rng, (20, 60), (0.0, 0.15), (0.88, 1.0))
    tex = 0.97 + 0.03 * value_noise(rng, h, w, 150) + 0.015 * (value_noise(rng, h, w, 2) - 0.5)
    out = _colour(tex, base)
    if rng.random() < 0.35:  # a fold
        x = rng.uniform(0.2, 0.8) * w
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        out *= (1 - 0.08 * np.exp(-((xx - x - 0.1 * yy) / 3) ** 2))[..., None]
    if rng.random() < 0.3:  # print: a coloured band or printed lines, as on a box
        ink = tuple(float(v) for v in random_colour(rng, (0, 360), (0.5, 1.0), (0.3, 0.9)))
        y0 = int(rng.uniform(0, h))
        cv2.rectangle(out, (0, y0), (w, y0 + int(rng.uniform(0.05, 0.2) * h)), ink, -1)
    return out


def _marble(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """White or grey marble with veins."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    turb = _fbm(rng, h, w, rng.uniform(60, 200), 5)
    a = rng.uniform(0, np.pi)
    veins = np.abs(np.sin((xx * np.cos(a) + yy * np.sin(a)) * rng.uniform(0.005, 0.02) + turb * rng.uniform(6, 14)))
    tex = 1 - 0.35 * (1 - veins) ** rng.uniform(6, 20)
    base = random_colour(rng, (0, 360), (0.0, 0.1), (0.7, 0.97))
    return _colour(tex * (0.95 + 0.05 * value_noise(rng, h, w, 20)), base)


@dataclass(frozen=True)
class Table:
    """A table generator: its name, split, family and what it looks like."""

    name: str
    split: str
    family: str
    make: Callable[[np.random.Generator, int, int], np.ndarray] = field(repr=False)


TABLES: dict[str, Table] = {t.name: t for t in (
    Table("wood_grain", "train", "wood", _wood_grain),
    Table("weave", "train", "cloth", _weave),
    Table("checks", "train", "print", _checks),
    Table("felt", "train", "felt", _felt),
    Table("carpet", "train", "carpet", _carpet),
    Table("stone", "train", "stone", _stone),
    Table("light_wood", "held_out", "wood", _light_wood),
    Table("dark_wood", "held_out", "wood", _dark_wood),
    Table("linen", "held_out", "cloth", _linen),
    Table("tablecloth", "held_out", "print", _tablecloth),
    Table("baize", "held_out", "felt", _baize),
    Table("cork", "held_out", "cork", _cork),
    Table("paper", "held_out", "paper", _paper),
    Table("marble", "held_out", "stone", _marble),
)}
"""Every table generator. The held-out ones are other algorithms than the train ones (not other seeds)."""


def table_names(split: str) -> tuple[str, ...]:
    """The tables of a split, in a fixed order."""
    return tuple(name for name, t in TABLES.items() if t.split == split)


def make_table(name: str, rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A table top of ``name`` (BGR uint8, ``h`` × ``w``)."""
    return np.clip(TABLES[name].make(rng, h, w), 0, 255).astype(np.uint8)


# --------------------------------------------------------------------------------------------- things on the table

THINGS = ("notepad", "phone", "cup", "coin", "card_box")
"""What else lies on a family table: a score pad (white, ruled: the likeliest thing to pass for a card), a phone,
a cup seen from above, coins, the deck's box. No card is on them, so any card read there is a false one."""


@dataclass(frozen=True)
class Thing:
    """Something on the table that is not a card: pixels, alpha mask, and its width in card widths."""

    kind: str
    image: np.ndarray = field(repr=False)
    mask: np.ndarray = field(repr=False)
    width: float

    @property
    def aspect(self) -> float:
        return self.image.shape[0] / self.image.shape[1]


def make_thing(rng: np.random.Generator, kind: str) -> Thing:
    """One of :data:`THINGS`, drawn from ``rng``."""
    if kind == "notepad":
        h, w = 280, 200
        image = np.empty((h, w, 3), np.uint8)
        image[:] = random_colour(rng, (40, 60), (0.0, 0.35), (0.88, 1.0))
        for y in range(40, h - 8, int(rng.integers(11, 16))):
            cv2.line(image, (0, y), (w - 1, y), (200, 170, 140), 1, cv2.LINE_AA)
        cv2.line(image, (28, 0), (28, h - 1), (120, 120, 220), 1, cv2.LINE_AA)
        for _ in range(int(rng.integers(2, 8))):  # the score, scribbled
            y = int(rng.integers(45, h - 20))
            pts = np.stack([np.linspace(35, rng.uniform(60, 180), 8), y + rng.normal(0, 3, 8)], axis=1).astype(np.int32)
            cv2.polylines(image, [pts], False, (90, 40, 20), 2, cv2.LINE_AA)
        return Thing(kind, image, rounded_mask(h, w, 3), float(rng.uniform(1.4, 2.2)))
    if kind == "phone":
        h, w = 250, 120
        image = np.empty((h, w, 3), np.uint8)
        image[:] = int(rng.integers(15, 45))
        cv2.rectangle(image, (6, 14), (w - 7, h - 15), (10, 10, 12), -1)
        sheen = np.linspace(0, rng.uniform(20, 60), w, dtype=np.float32)[None, :, None]
        image = np.clip(image + sheen, 0, 255).astype(np.uint8)
        return Thing(kind, image, rounded_mask(h, w, 16), float(rng.uniform(0.9, 1.15)))
    if kind == "cup":
        n = 200
        image = np.empty((n, n, 3), np.uint8)
        image[:] = random_colour(rng, (0, 360), (0.0, 0.7), (0.6, 1.0))
        drink = tuple(float(v) for v in random_colour(rng, (15, 30), (0.5, 0.8), (0.1, 0.35)))
        cv2.circle(image, (n // 2, n // 2), int(n * 0.4), drink, -1, cv2.LINE_AA)
        mask = np.zeros((n, n), np.uint8)
        cv2.circle(mask, (n // 2, n // 2), n // 2 - 1, 255, -1, cv2.LINE_AA)
        return Thing(kind, image, mask, float(rng.uniform(1.0, 1.4)))
    if kind == "coin":
        n = 64
        image = np.empty((n, n, 3), np.uint8)
        metal = random_colour(rng, (35, 50), (0.0, 0.6), (0.55, 0.85))
        image[:] = metal
        cv2.circle(image, (n // 2, n // 2), n // 2 - 5, tuple(float(v) * 0.85 for v in metal), 2, cv2.LINE_AA)
        mask = np.zeros((n, n), np.uint8)
        cv2.circle(mask, (n // 2, n // 2), n // 2 - 1, 255, -1, cv2.LINE_AA)
        return Thing(kind, image, mask, float(rng.uniform(0.28, 0.4)))
    if kind == "card_box":
        h, w = 240, 160
        image = np.empty((h, w, 3), np.uint8)
        image[:] = random_colour(rng, (0, 360), (0.5, 1.0), (0.3, 0.8))
        cv2.rectangle(image, (14, 70), (w - 15, 170), (235, 235, 235), -1)
        for y in (95, 120, 145):
            cv2.line(image, (30, y), (int(rng.integers(70, w - 30)), y), (30, 30, 30), 5)
        return Thing(kind, image, rounded_mask(h, w, 4), float(rng.uniform(0.95, 1.1)))
    raise ValueError(f"unknown thing {kind!r}; one of {', '.join(THINGS)}")
