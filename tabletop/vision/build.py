"""Build the card reader into ``models/cards/`` from cards this project renders and real printing.

    python -m tabletop.vision.build [--out DIR] [--seed N] [--views N] [--scenes N] [--hidden N] [--jobs N]

Two sources of index glyphs, read exactly as the reader reads a frame (``glyphs.corner_glyphs``):

- rendered cards (``render``) in the training fonts: ``--views`` views, tilted, noisy, warped back;
- composited photos (``scenes``) of the real faces in ``shared/data/cards-dev/bidly/faces`` on the *training*
  tables (``--scenes``): real printing and court pictures under every light, layout and camera, each index
  corner read as the finder hangs a card on it (corners a few pixels off, or the size guessed up to 1.6 times
  too large), and views hung where no index is (table, a card's middle or picture, its other corners) as the
  "none" class, so the reader refuses what is not an index. Only the 39 training faces: the 13
  ``scenes.HELD_OUT_FACES`` and the held-out tables are what the bench measures, never built from.

The faces are read from ``shared/data`` at build time only; the built model files hold no photo. Reproducible:
every view and photo is drawn from a numpy generator spawned from ``--seed``, in fixed chunks, so the result
does not depend on the number of worker processes. Takes about ten minutes (two jobs) on a shared two-core
machine.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from tabletop.cards import Card, RANKS, SUITS
from tabletop.vision.finder import VIEW_CORNERS, VIEW_H, VIEW_W, CardQuad, order_quad, warp_card
from tabletop.vision.glyphs import (FIRST_INDEX_VIEW, CornerGlyphs, card_corners, corner_glyphs, first_corner,
                                   pip_shape_features, rank_features, suit_features)
from tabletop.vision.mlp import Mlp, train_mlp
from tabletop.vision.render import (
    CARD_H,
    CARD_W,
    HELD_OUT_FONTS,
    TRAIN_FONTS,
    add_camera_effects,
    available_fonts,
    random_style,
    random_table,
    render_card,
)
from tabletop.vision.store import MANIFEST_FILE, MODEL_DIR, PIP_SHAPE_FILE, RANK_FILE, SUIT_FILE, VERIFIER_FILE

__all__ = ["synthetic_view", "decoy_view", "glyph_samples", "scene_samples", "pip_shape_samples", "build",
           "build_pip_shape", "main"]

DEFAULT_SEED = 20261129
DEFAULT_VIEWS = 8000
_CHUNK = 250
_SCENE_CHUNK = 100
DEFAULT_SCENES = 2000
DEFAULT_HIDDEN = 128
_DECOYS = 0.25  # share of pip-card views that also give a view hung on the wrong place (pips: no rank)
_COURT = frozenset(rank for rank in RANKS if rank.symbol in ("J", "Q", "K"))  # rendered court pictures are
# ellipses: cut out of them they are noughts, so they are no decoys
NOT_A_RANK = "none"
RANK_CLASSES = tuple(rank.symbol for rank in RANKS) + (NOT_A_RANK,)
"""Rank symbols, plus a class for blobs that are not a rank (a suit pip taken for one)."""
SUIT_CLASSES = tuple(suit.value for suit in SUITS)


def synthetic_view(card: Card, face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Photograph one rendered card small, tilted and noisy, then warp it back as the finder would.

    The "found" corners are the true ones plus noise, so the reader learns to tolerate a
    finder that is a few pixels off.
    """
    width = float(np.exp(rng.uniform(np.log(55), np.log(210))))
    height = width * CARD_H / CARD_W
    size = int(height * 1.25)
    canvas = random_table(rng, size, size)
    half = np.array([[-width, -height], [width, -height], [width, height], [-width, height]], np.float32) / 2
    half += rng.normal(0, 0.03 * width, half.shape).astype(np.float32)  # perspective
    angle = rng.uniform(-np.pi, np.pi)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]], np.float32)
    quad = half @ rot.T + size / 2
    src = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    warped = cv2.warpPerspective(face, matrix, (size, size), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((CARD_H, CARD_W), 255, np.uint8), matrix, (size, size))
    alpha = mask.astype(np.float32)[..., None] / 255
    image = (canvas * (1 - alpha) + warped * alpha).astype(np.uint8)
    image = add_camera_effects(image, rng, float(rng.uniform(0.2, 1.2)))
    found = quad + rng.normal(0, 0.012 * width, quad.shape).astype(np.float32)
    return warp_card(image, order_quad(found))


def decoy_view(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A card-shaped view hung on the wrong place: a smaller quad inside the face, away from both indices.

    What the reader sees when the finder hangs a card on the corner of a pip or at the wrong size:
    its corners show pips, never an index (the "none" class).
    """
    scale = float(rng.uniform(0.3, 0.6))
    w, h = scale * CARD_W, scale * CARD_H
    x0 = float(rng.uniform(0.15 * CARD_W, 0.85 * CARD_W - w))
    y0 = float(rng.uniform(0.15 * CARD_H, 0.85 * CARD_H - h))
    quad = np.array([[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]], np.float32)
    quad = np.roll(quad, int(rng.integers(4)), axis=0)  # any way up
    quad += rng.normal(0, 0.02 * w, quad.shape).astype(np.float32)
    target = VIEW_CORNERS
    matrix = cv2.getPerspectiveTransform(quad, target)
    view = cv2.warpPerspective(face, matrix, (VIEW_W, VIEW_H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    shrink = float(rng.uniform(0.3, 1.0))  # seen small in the frame, then warped up to the view
    small = cv2.resize(view, (int(VIEW_W * shrink), int(VIEW_H * shrink)), interpolation=cv2.INTER_AREA)
    view = cv2.resize(add_camera_effects(small, rng, float(rng.uniform(0.2, 1.0))), (VIEW_W, VIEW_H),
                      interpolation=cv2.INTER_LINEAR)
    return view


def glyph_samples(seed_sequence: np.random.SeedSequence, views: int, fonts: tuple[str, ...]) -> dict[str, list]:
    """Render ``views`` card views and return rank/suit features with labels (both corners)."""
    rng = np.random.default_rng(seed_sequence)
    styles = [random_style(rng, fonts) for _ in range(6)]
    out: dict[str, list] = {"rank_x": [], "rank_y": [], "suit_x": [], "suit_y": []}
    for _ in range(views):
        card = Card(RANKS[int(rng.integers(len(RANKS)))], SUITS[int(rng.integers(len(SUITS)))])
        face = render_card(card, styles[int(rng.integers(len(styles)))], rng)
        view = synthetic_view(card, face, rng)
        for corner in card_corners(view):
            glyphs = corner_glyphs(corner)
            if glyphs is None:
                continue
            out["rank_x"].append(rank_features(glyphs))
            out["rank_y"].append(RANK_CLASSES.index(card.rank.symbol))
            suit = suit_features(glyphs)
            if suit is not None:
                out["suit_x"].append(suit)
                out["suit_y"].append(SUIT_CLASSES.index(card.suit.value))
                if rng.random() < 0.15:  # what the reader sees when the rank is missed and a pip is topmost
                    out["rank_x"].append(rank_features(CornerGlyphs(glyphs.suit, None, glyphs.redness)))
                    out["rank_y"].append(RANK_CLASSES.index(NOT_A_RANK))
        if card.rank not in _COURT and rng.random() < _DECOYS:
            for corner in card_corners(decoy_view(face, rng)):
                glyphs = corner_glyphs(corner)
                if glyphs is not None:
                    out["rank_x"].append(rank_features(glyphs))
                    out["rank_y"].append(RANK_CLASSES.index(NOT_A_RANK))
    return out


_SCENE_LAYOUTS = ("scattered", "row", "touching", "overlapping", "fanned", "book_row", "book_square", "book_fan",
                  "book_pile")
_SCENE_CAMERAS = ("webcam", "hd", "fullhd")
_WRONG_PLACES = 2  # views hung where no index is, per scene (table, a card's middle or picture, a card's other corners)


def _index_view(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The upright first index corner of a card hypothesis ``quad`` (image px, its index corner first), as read."""
    return first_corner(warp_card(image, CardQuad(quad.astype(np.float32)), FIRST_INDEX_VIEW))


def _as_found(quad: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``quad`` (index corner first) as the finder hangs it: corners a few pixels off (a whole card's outline), or
    hung at the index corner at a size guessed from a ladder up to 1.6 times too large and a little turned."""
    quad = quad.astype(np.float32)
    width = float(np.linalg.norm(quad[1] - quad[0]))
    if rng.random() < 0.5:
        return quad + rng.normal(0, 0.015 * width, quad.shape).astype(np.float32)
    scale = float(np.exp(rng.uniform(np.log(0.92), np.log(1.6))))
    angle = rng.normal(0, 0.03)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]], np.float32)
    corner = quad[0] + rng.normal(0, 0.02 * width, 2).astype(np.float32)
    return ((quad - quad[0]) * scale) @ rot.T + corner


def _index_zone_centres(placed) -> list[np.ndarray]:
    """Image points at the middle of every index that shows (what a view hung elsewhere must not hold)."""
    out = []
    for p in placed:
        for idx, shows in enumerate(p.index_shows):
            if shows:
                q = np.roll(p.quad, -2 * idx, axis=0)
                across, down = q[1] - q[0], q[3] - q[0]
                out.append(q[0] + 0.085 * across + 0.13 * down)
    return out


def _holds_index(quad: np.ndarray, centres: list[np.ndarray]) -> bool:
    """True if the corner crop the reader takes of ``quad`` (a quarter across, a third down, and a margin) holds
    the middle of an index that shows."""
    across, down = quad[1] - quad[0], quad[3] - quad[0]
    crop = np.array([quad[0] - 0.05 * (across + down), quad[0] + 0.35 * across - 0.05 * down,
                     quad[0] + 0.35 * across + 0.45 * down, quad[0] + 0.45 * down - 0.05 * across], np.float32)
    return any(cv2.pointPolygonTest(crop, (float(c[0]), float(c[1])), False) >= 0 for c in centres)


def _wrong_place(composite, rng: np.random.Generator) -> np.ndarray | None:
    """A card-sized quad hung where no index is: on the table, in a card's middle or picture, or on a card's
    corner that holds no index (turned a quarter), as the finder hangs hypotheses that the reader must refuse."""
    cards = composite.cards
    if not cards:
        return None
    p = cards[int(rng.integers(len(cards)))]
    quad = p.quad.astype(np.float32)
    kind = rng.random()
    if kind < 0.3:  # a corner of the card that holds no index (the reader sees the card turned a quarter)
        return np.roll(quad, -(1 + 2 * int(rng.integers(2))), axis=0)
    h, w = composite.image.shape[:2]
    if kind < 0.65:  # inside the card: a pip, the middle, a court picture
        across, down = quad[1] - quad[0], quad[3] - quad[0]
        start = quad[0] + rng.uniform(0.12, 0.7) * across + rng.uniform(0.12, 0.75) * down
    else:  # anywhere: mostly the table
        start = np.array([rng.uniform(0, w), rng.uniform(0, h)], np.float32)
    scale = float(rng.uniform(0.5, 1.3))
    turn = rng.uniform(-np.pi, np.pi) if rng.random() < 0.5 else 0.0
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]], np.float32)
    return ((quad - quad[0]) * scale) @ rot.T + start


def scene_samples(seed_sequence: np.random.SeedSequence, count: int) -> dict[str, list]:
    """Rank and suit features from ``count`` composited photos of the real *training* faces on the *training*
    tables (:mod:`tabletop.vision.scenes`): real printing and real court pictures under every light, layout and
    camera, each index read as the finder hangs a card on it; and views hung where no index is (the "none"
    class). Never the held-out faces or tables: those are what the bench measures."""
    from tabletop.vision import scenes

    rng = np.random.default_rng(seed_sequence)
    pool = [c for c in Card.deck() if c not in scenes.HELD_OUT_FACES]
    out: dict[str, list] = {"rank_x": [], "rank_y": [], "suit_x": [], "suit_y": []}
    for _ in range(count):
        layout = _SCENE_LAYOUTS[int(rng.integers(len(_SCENE_LAYOUTS)))]
        seed = int(rng.integers(2**62))
        options = {"split": "train", "faces": "real", "face_split": "train", "layout": layout,
                   "camera": _SCENE_CAMERAS[int(rng.integers(len(_SCENE_CAMERAS)))]}
        if layout in scenes.BOOK_LAYOUTS:  # four training faces laid as a book is, and a few others
            options["cards"] = [pool[i] for i in rng.choice(len(pool), int(rng.integers(4, 8)), replace=False)]
        c = scenes.compose(seed, **options)
        for p in c.cards:
            for idx, shows in enumerate(p.index_shows):
                if not shows:
                    continue  # covered or out of frame: what shows there may be another card's index
                glyphs = corner_glyphs(_index_view(c.image, _as_found(np.roll(p.quad, -2 * idx, axis=0), rng)))
                if glyphs is None:
                    continue
                out["rank_x"].append(rank_features(glyphs))
                out["rank_y"].append(RANK_CLASSES.index(p.card.rank.symbol))
                suit = suit_features(glyphs)
                if suit is not None:
                    out["suit_x"].append(suit)
                    out["suit_y"].append(SUIT_CLASSES.index(p.card.suit.value))
        centres = _index_zone_centres(c.cards)
        for _ in range(_WRONG_PLACES):
            quad = _wrong_place(c, rng)
            if quad is None or _holds_index(quad, centres):
                continue
            glyphs = corner_glyphs(_index_view(c.image, quad))
            if glyphs is not None:
                out["rank_x"].append(rank_features(glyphs))
                out["rank_y"].append(RANK_CLASSES.index(NOT_A_RANK))
    return out


_PIP_SHAPE_CAMERAS = ("webcam", "webcam", "hd", "fullhd")
"""Cameras the pip-shape reader's composites are taken with: a webcam's small blurred pips, where the suit reader is
weakest, twice as often."""
PIP_SHAPE_CLASSES = ("clubs", "spades")


def pip_shape_samples(seed_sequence: np.random.SeedSequence, count: int, folder: str | None = None) -> dict[str, list]:
    """Pip-shape features (``glyphs.pip_shape_features``) of the clubs' and spades' index pips in ``count`` composited
    photos of the real *training* faces on the *training* tables, each index read as the finder hangs a card on it
    (``scene_samples``), where the reader in ``folder`` (default: the shipped one) reads the pip under a rank; with
    the suit reader's probabilities (``p``: its clubs/spades split, for the build's check)."""
    from tabletop.vision import scenes
    from tabletop.vision.reader import Reader

    reader = Reader.load(Path(folder) if folder else None)
    clubs, spades = reader._black
    rng = np.random.default_rng(seed_sequence)
    pool = [c for c in Card.deck() if c not in scenes.HELD_OUT_FACES]
    out: dict[str, list] = {"x": [], "y": [], "p": []}
    for _ in range(count):
        layout = _SCENE_LAYOUTS[int(rng.integers(len(_SCENE_LAYOUTS)))]
        seed = int(rng.integers(2**62))
        options = {"split": "train", "faces": "real", "face_split": "train", "layout": layout,
                   "camera": _PIP_SHAPE_CAMERAS[int(rng.integers(len(_PIP_SHAPE_CAMERAS)))]}
        if layout in scenes.BOOK_LAYOUTS:
            options["cards"] = [pool[i] for i in rng.choice(len(pool), int(rng.integers(4, 8)), replace=False)]
        c = scenes.compose(seed, **options)
        for p in c.cards:
            if p.card.suit.value not in PIP_SHAPE_CLASSES:
                continue
            for idx, shows in enumerate(p.index_shows):
                if not shows:
                    continue
                corner = _index_view(c.image, _as_found(np.roll(p.quad, -2 * idx, axis=0), rng))
                glyphs = corner_glyphs(corner)
                if glyphs is None or glyphs.suit_box is None:
                    continue
                read = reader.suit_model.probabilities(suit_features(glyphs))[0]
                out["x"].append(pip_shape_features(corner, glyphs.suit_box))
                out["y"].append(PIP_SHAPE_CLASSES.index(p.card.suit.value))
                out["p"].append(float(read[spades] / max(read[clubs] + read[spades], 1e-6)))
    return out


def _chunk_job(args: tuple) -> dict[str, list]:
    cv2.setNumThreads(1)
    kind, *rest = args
    if kind == "verifier":
        from tabletop.vision.lone import verifier_samples

        return verifier_samples(*rest)
    if kind == "pip_shape":
        return pip_shape_samples(*rest)
    return glyph_samples(*rest) if kind == "rendered" else scene_samples(*rest)


def _run(tasks: list[tuple], jobs: int) -> dict[str, np.ndarray]:
    if jobs > 1:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            parts = pool.map(_chunk_job, tasks)
    else:
        parts = [_chunk_job(t) for t in tasks]
    if "x" in parts[0]:  # verifier or pip-shape samples
        x = [v for part in parts for v in part["x"]]
        return {"x": np.array(x, np.float32).reshape(len(x), -1), "y": np.array([v for p in parts for v in p["y"]], np.int64),
                "p": np.array([v for p in parts for v in p["p"]], np.float32)}
    merged = {key: [v for part in parts for v in part[key]] for key in ("rank_x", "rank_y", "suit_x", "suit_y")}
    return {
        "rank_x": np.array(merged["rank_x"], np.float32).reshape(len(merged["rank_y"]), -1),
        "rank_y": np.array(merged["rank_y"], np.int64),
        "suit_x": np.array(merged["suit_x"], np.float32).reshape(len(merged["suit_y"]), -1),
        "suit_y": np.array(merged["suit_y"], np.int64),
    }


def _chunks(total: int, size: int) -> list[int]:
    return [size] * (total // size) + ([total % size] if total % size else [])


def _collect(seed: int, views: int, fonts: tuple[str, ...], jobs: int) -> dict[str, np.ndarray]:
    """Features of ``views`` rendered card views, in fixed chunks each with its own generator spawned from ``seed``."""
    chunks = _chunks(views, _CHUNK)
    seeds = np.random.SeedSequence(seed).spawn(len(chunks))
    return _run([("rendered", s, n, fonts) for s, n in zip(seeds, chunks)], jobs)


def _collect_scenes(seed: int, count: int, jobs: int) -> dict[str, np.ndarray]:
    """Features of ``count`` composited photos of the training faces on the training tables, chunked as ``_collect``."""
    chunks = _chunks(count, _SCENE_CHUNK)
    seeds = np.random.SeedSequence([seed, 1]).spawn(len(chunks))
    return _run([("scenes", s, n) for s, n in zip(seeds, chunks)], jobs)


_VERIFIER_CHUNK = 25
DEFAULT_VERIFIER_SCENES = 1200
VERIFIER_CLASSES = ("wrong", "right")


def _collect_verifier(seed: int, count: int, folder: Path, jobs: int) -> dict[str, np.ndarray]:
    """Verifier samples (``lone.verifier_samples``) from ``count`` training composites read with the readers in
    ``folder``, chunked as ``_collect``."""
    chunks = _chunks(count, _VERIFIER_CHUNK)
    seeds = np.random.SeedSequence([seed, 2]).spawn(len(chunks))
    return _run([("verifier", s, n, str(folder)) for s, n in zip(seeds, chunks)], jobs)


def build_verifier(out: Path, seed: int, scenes_count: int, jobs: int, say=print) -> dict:
    """Build the index verifier (``lone``) from the pipeline's hypotheses on training composites read with the rank
    and suit readers in ``out``; write it there and record it in the manifest. Returns the manifest."""
    started = time.monotonic()
    say(f"reading {scenes_count} composites of the training faces on the training tables with the pipeline (seed {seed})")
    data = _collect_verifier(seed, scenes_count, out, jobs)
    right = int(data["y"].sum())
    say(f"  {len(data['y'])} corners read as a rank over a pip, {right} of them a card's index read right "
        f"({time.monotonic() - started:.0f}s)")
    verifier = train_mlp(data["x"], data["y"], VERIFIER_CLASSES, hidden=48, epochs=40, seed=seed + 2)
    check = _collect_verifier(seed + 1000, max(1, scenes_count // 4), out, jobs)
    p = verifier.probabilities(check["x"])[:, 1] if len(check["y"]) else np.zeros(0)
    from tabletop.vision.reader import LONE_VERIFIED

    sure_rank = check["p"] >= 0.8  # worth verifying (``reader._WORTH_VERIFYING``)
    checks = {"verifier_corners": int(len(check["y"])), "verifier_right": int(check["y"].sum()),
              "verifier_at": LONE_VERIFIED}
    for at in sorted({0.8, 0.9, 0.95, LONE_VERIFIED}):
        passed = (p >= at) & sure_rank
        checks[f"passed_right_at_{at}"] = int((passed & (check["y"] == 1)).sum())
        checks[f"passed_wrong_at_{at}"] = int((passed & (check["y"] == 0)).sum())
    say(f"  check on {scenes_count // 4} new composites (seed {seed + 1000}): {checks['verifier_right']} indices read "
        f"right, {len(check['y']) - checks['verifier_right']} other corners; passing (rank read at 0.8 or more) at "
        + ", ".join(f"{at}: {checks[f'passed_right_at_{at}']} right, {checks[f'passed_wrong_at_{at}']} wrong"
                    for at in sorted({0.8, 0.9, 0.95, LONE_VERIFIED})))
    verifier.save(out / VERIFIER_FILE)
    manifest = _record_in_manifest(out, "verifier", VERIFIER_FILE, {
        "built_from": (f"python -m tabletop.vision.build --verifier-only --seed {seed} --verifier-scenes {scenes_count}: "
                       f"the pipeline's hypotheses on composites of the training faces (real, and rendered in the "
                       f"training fonts) on the training tables, read with this folder's rank and suit readers"),
        "seed": seed, "scenes": scenes_count, "corners": int(len(data["y"])), "right": right, "check": checks,
        "seconds": round(time.monotonic() - started),
    })
    say(f"wrote {out / VERIFIER_FILE} in {time.monotonic() - started:.0f}s")
    return manifest


_PIP_SHAPE_CHUNK = 50
DEFAULT_PIP_SHAPE_SCENES = 2000


def _collect_pip_shapes(seed: int, count: int, folder: Path, jobs: int) -> dict[str, np.ndarray]:
    """Pip-shape samples (``pip_shape_samples``) from ``count`` training composites, chunked as ``_collect``."""
    chunks = _chunks(count, _PIP_SHAPE_CHUNK)
    seeds = np.random.SeedSequence([seed, 3]).spawn(len(chunks))
    return _run([("pip_shape", s, n, str(folder)) for s, n in zip(seeds, chunks)], jobs)


def build_pip_shape(out: Path, seed: int, scenes_count: int, jobs: int, say=print) -> dict:
    """Build the clubs/spades pip-shape reader (``reader.Reader.pip_shape``) from the black index pips of training
    composites, read with the rank and suit readers in ``out``; write it there and record it in the manifest, with a
    check on new training composites: how often the suit reader's clubs/spades split, the shape reader's, and the
    mean of the two (what the reader uses) name the right one. Returns the manifest."""
    started = time.monotonic()
    say(f"reading the clubs' and spades' index pips in {scenes_count} composites of the training faces on the training "
        f"tables (seed {seed})")
    data = _collect_pip_shapes(seed, scenes_count, out, jobs)
    say(f"  {len(data['y'])} pips, {int(data['y'].sum())} of them spades ({time.monotonic() - started:.0f}s)")
    model = train_mlp(data["x"], data["y"], PIP_SHAPE_CLASSES, hidden=32, epochs=40, seed=seed + 3)
    check = _collect_pip_shapes(seed + 1000, max(1, scenes_count // 4), out, jobs)
    shape = model.probabilities(check["x"])[:, 1] if len(check["y"]) else np.zeros(0)
    spades = check["y"] == 1
    checks = {"pips": int(len(check["y"])), "spades": int(spades.sum())}
    for name, p in (("suit_reader", check["p"]), ("pip_shape", shape), ("mean", 0.5 * (check["p"] + shape))):
        checks[f"{name}_right"] = int(((p > 0.5) == spades).sum())
        checks[f"{name}_wrong_at_0.8"] = int((((p >= 0.8) & ~spades) | ((p <= 0.2) & spades)).sum())
    say(f"  check on {max(1, scenes_count // 4)} new composites (seed {seed + 1000}): of {checks['pips']} black pips, "
        + ", ".join(f"{name} right {checks[f'{name}_right']} (wrong at 0.8: {checks[f'{name}_wrong_at_0.8']})"
                    for name in ("suit_reader", "pip_shape", "mean")))
    model.save(out / PIP_SHAPE_FILE)
    manifest = _record_in_manifest(out, "pip_shape", PIP_SHAPE_FILE, {
        "built_from": (f"python -m tabletop.vision.build --pip-shape-only --seed {seed} --pip-shape-scenes "
                       f"{scenes_count}: the clubs' and spades' index pips of composites of the training real faces "
                       f"on the training tables (webcam twice as often), found as this folder's readers find them; "
                       f"glyphs.pip_shape_features + numpy perceptron"),
        "seed": seed, "scenes": scenes_count, "pips": int(len(data["y"])), "spades": int(data["y"].sum()),
        "check": checks, "seconds": round(time.monotonic() - started),
    })
    say(f"wrote {out / PIP_SHAPE_FILE} in {time.monotonic() - started:.0f}s")
    return manifest


def _record_in_manifest(out: Path, key: str, filename: str, entry: dict) -> dict:
    """Record how ``out / filename`` (a model built on top of the rank and suit readers) was built, under ``key`` in
    the folder's manifest, with its checksum; returns the manifest."""
    from tabletop.vision.store import _sha256

    manifest_path = out / MANIFEST_FILE
    manifest = json.loads(manifest_path.read_text()) if manifest_path.is_file() else {"name": "cards", "sha256": {}}
    manifest[key] = entry
    manifest.setdefault("sha256", {})[filename] = _sha256(out / filename)
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


def _joined(*parts: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    return {key: np.concatenate([p[key] for p in parts if len(p[key])]) for key in parts[0]}


def _accuracy(model: Mlp, x: np.ndarray, y: np.ndarray) -> float:
    return float((model.probabilities(x).argmax(axis=1) == y).mean()) if len(y) else 0.0


def build(out: Path = MODEL_DIR, seed: int = DEFAULT_SEED, views: int = DEFAULT_VIEWS, jobs: int = 2,
          say=print, check_views: int = 1000, real_scenes: int = DEFAULT_SCENES, check_scenes: int = 300,
          hidden: int = DEFAULT_HIDDEN) -> dict:
    """Render and composite, extract, train and save the reader; returns the manifest written.

    ``real_scenes`` composited photos of the real training faces on the training tables join the rendered
    views (0: rendered cards alone); the faces are read from ``scenes.FACES_DIR`` now and never copied.
    """
    from tabletop.vision import scenes
    from tabletop.vision.tabletops import table_names

    started = time.monotonic()
    fonts = available_fonts(TRAIN_FONTS)
    if real_scenes and not scenes.real_faces_available():
        raise SystemExit(f"the real card faces are not in {scenes.FACES_DIR} (shared/data/cards-dev/bidly/faces, or set "
                         f"TABLETOP_CARD_FACES); build from rendered cards alone with --scenes 0")
    say(f"rendering {views} card views (seed {seed}) in {len(fonts)} fonts: {', '.join(fonts)}")
    data = _collect(seed, views, fonts, jobs)
    say(f"  {len(data['rank_y'])} rank glyphs, {len(data['suit_y'])} suit glyphs ({time.monotonic() - started:.0f}s)")
    real = {"rank_y": np.zeros(0, np.int64), "suit_y": np.zeros(0, np.int64)}
    if real_scenes:
        say(f"compositing {real_scenes} photos of the {52 - len(scenes.HELD_OUT_FACES)} training faces on the training "
            f"tables ({', '.join(table_names('train'))})")
        real = _collect_scenes(seed, real_scenes, jobs)
        nones = int((real["rank_y"] == RANK_CLASSES.index(NOT_A_RANK)).sum())
        say(f"  {len(real['rank_y'])} rank glyphs ({nones} hung where no index is), {len(real['suit_y'])} suit glyphs "
            f"({time.monotonic() - started:.0f}s)")
        data = _joined(data, real)
    rank_model = train_mlp(data["rank_x"], data["rank_y"], RANK_CLASSES, hidden=hidden, seed=seed)
    suit_model = train_mlp(data["suit_x"], data["suit_y"], SUIT_CLASSES, hidden=48, epochs=20, seed=seed + 1)
    say(f"  trained ({time.monotonic() - started:.0f}s); training accuracy rank "
        f"{_accuracy(rank_model, data['rank_x'], data['rank_y']):.3f}, suit {_accuracy(suit_model, data['suit_x'], data['suit_y']):.3f}")
    held = available_fonts(HELD_OUT_FONTS)
    check = _collect(seed + 1000, check_views, held or fonts, jobs)
    rank_acc = _accuracy(rank_model, check["rank_x"], check["rank_y"])
    suit_acc = _accuracy(suit_model, check["suit_x"], check["suit_y"])
    say(f"  check on held-out fonts {', '.join(held)} (seed {seed + 1000}): glyph accuracy rank {rank_acc:.3f}, suit {suit_acc:.3f}")
    checks = {"rank_glyph_accuracy": round(rank_acc, 4), "suit_glyph_accuracy": round(suit_acc, 4)}
    if real_scenes and check_scenes:
        again = _collect_scenes(seed + 1000, check_scenes, jobs)
        checks["real_rank_glyph_accuracy"] = round(_accuracy(rank_model, again["rank_x"], again["rank_y"]), 4)
        checks["real_suit_glyph_accuracy"] = round(_accuracy(suit_model, again["suit_x"], again["suit_y"]), 4)
        say(f"  check on {check_scenes} new photos of the training faces and tables (seed {seed + 1000}): glyph accuracy "
            f"rank {checks['real_rank_glyph_accuracy']:.3f}, suit {checks['real_suit_glyph_accuracy']:.3f}")
    out.mkdir(parents=True, exist_ok=True)
    (out / VERIFIER_FILE).unlink(missing_ok=True)  # built from the readers replaced here: built again after them
    (out / PIP_SHAPE_FILE).unlink(missing_ok=True)
    rank_model.save(out / RANK_FILE)
    suit_model.save(out / SUIT_FILE)
    from tabletop.vision.store import _sha256

    real_words = (f"; {real_scenes} composited photos (tabletop.vision.scenes) of the {52 - len(scenes.HELD_OUT_FACES)} "
                  f"training real faces of shared/data/cards-dev/bidly/faces on the training tables "
                  f"({', '.join(table_names('train'))}), read at build time, never the held-out faces or tables"
                  if real_scenes else "; no real photos")
    manifest = {
        "name": "cards",
        "built_from": (f"python -m tabletop.vision.build --seed {seed} --views {views} --scenes {real_scenes} "
                       f"--hidden {hidden}: rendered cards in fonts {', '.join(fonts)}{real_words}; "
                       f"HOG features + numpy perceptron"),
        "seed": seed, "views": views, "fonts": list(fonts), "held_out_fonts": list(held),
        "real_scenes": real_scenes, "hidden": hidden,
        "real_faces": sorted(str(c) for c in Card.deck() if c not in scenes.HELD_OUT_FACES) if real_scenes else [],
        "held_out_faces": sorted(str(c) for c in scenes.HELD_OUT_FACES),
        "tables": list(table_names("train")) if real_scenes else [],
        "held_out_tables": list(table_names("held_out")),
        "rank_glyphs": int(len(data["rank_y"])), "suit_glyphs": int(len(data["suit_y"])),
        "real_rank_glyphs": int(len(real["rank_y"])), "real_suit_glyphs": int(len(real["suit_y"])),
        "check": checks,
        "sha256": {RANK_FILE: _sha256(out / RANK_FILE), SUIT_FILE: _sha256(out / SUIT_FILE)},
        "versions": {"numpy": np.__version__, "opencv": cv2.__version__},
    }
    (out / MANIFEST_FILE).write_text(json.dumps(manifest, indent=2) + "\n")
    say(f"wrote {out / RANK_FILE}, {out / SUIT_FILE}, {out / MANIFEST_FILE} in {time.monotonic() - started:.0f}s")
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tabletop.vision.build", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=MODEL_DIR, help="folder to write (default: models/cards)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--views", type=int, default=DEFAULT_VIEWS, help="card views to render")
    parser.add_argument("--scenes", type=int, default=DEFAULT_SCENES,
                        help="composited photos of the real training faces on the training tables (0: rendered only)")
    parser.add_argument("--hidden", type=int, default=DEFAULT_HIDDEN, help="hidden units of the rank perceptron")
    parser.add_argument("--verifier-scenes", type=int, default=DEFAULT_VERIFIER_SCENES,
                        help="training composites the index verifier is built from (0: none)")
    parser.add_argument("--verifier-only", action="store_true",
                        help="build only the index verifier, from the rank and suit readers already in --out (after "
                             "the finder changes: the verifier learns from the hypotheses it hangs)")
    parser.add_argument("--pip-shape-scenes", type=int, default=DEFAULT_PIP_SHAPE_SCENES,
                        help="training composites the clubs/spades pip-shape reader is built from (0: none)")
    parser.add_argument("--pip-shape-only", action="store_true",
                        help="build only the pip-shape reader, with the rank and suit readers already in --out")
    parser.add_argument("--jobs", type=int, default=min(2, multiprocessing.cpu_count()))
    args = parser.parse_args(argv)
    if args.pip_shape_only:
        build_pip_shape(args.out, args.seed, args.pip_shape_scenes, args.jobs)
        return 0
    if not args.verifier_only:
        build(args.out, args.seed, args.views, args.jobs, real_scenes=args.scenes, hidden=args.hidden)
    if args.verifier_scenes:
        build_verifier(args.out, args.seed, args.verifier_scenes, args.jobs)
    if args.pip_shape_scenes and not args.verifier_only:
        build_pip_shape(args.out, args.seed, args.pip_shape_scenes, args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
