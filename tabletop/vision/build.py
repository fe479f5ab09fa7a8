"""Build the card reader into ``models/cards/`` from cards this project renders.

    python -m tabletop.vision.build [--out DIR] [--seed N] [--views N] [--jobs N]

Reproducible: every view is drawn from a numpy generator spawned from ``--seed``, in fixed
chunks, so the result does not depend on the number of worker processes. Real photos are
never used. Takes about five minutes (one job) on a shared two-core machine.
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
from tabletop.vision.finder import VIEW_H, VIEW_MARGIN, VIEW_W, order_quad, warp_card
from tabletop.vision.glyphs import CornerGlyphs, card_corners, corner_glyphs, rank_features, suit_features
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
from tabletop.vision.store import MANIFEST_FILE, MODEL_DIR, RANK_FILE, SUIT_FILE, model_status

__all__ = ["synthetic_view", "decoy_view", "glyph_samples", "build", "main"]

DEFAULT_SEED = 20261129
DEFAULT_VIEWS = 16000
_CHUNK = 250
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
    m = VIEW_MARGIN
    target = np.array([[m, m], [VIEW_W - 1 - m, m], [VIEW_W - 1 - m, VIEW_H - 1 - m], [m, VIEW_H - 1 - m]], np.float32)
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


def _chunk_job(args: tuple[np.random.SeedSequence, int, tuple[str, ...]]) -> dict[str, list]:
    cv2.setNumThreads(1)
    return glyph_samples(*args)


def _collect(seed: int, views: int, fonts: tuple[str, ...], jobs: int) -> dict[str, np.ndarray]:
    chunks = [_CHUNK] * (views // _CHUNK) + ([views % _CHUNK] if views % _CHUNK else [])
    seeds = np.random.SeedSequence(seed).spawn(len(chunks))
    tasks = [(s, n, fonts) for s, n in zip(seeds, chunks)]
    if jobs > 1:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            parts = pool.map(_chunk_job, tasks)
    else:
        parts = [_chunk_job(t) for t in tasks]
    merged = {key: [v for part in parts for v in part[key]] for key in parts[0]}
    return {
        "rank_x": np.array(merged["rank_x"], np.float32), "rank_y": np.array(merged["rank_y"], np.int64),
        "suit_x": np.array(merged["suit_x"], np.float32), "suit_y": np.array(merged["suit_y"], np.int64),
    }


def _accuracy(model: Mlp, x: np.ndarray, y: np.ndarray) -> float:
    return float((model.probabilities(x).argmax(axis=1) == y).mean()) if len(y) else 0.0


def build(out: Path = MODEL_DIR, seed: int = DEFAULT_SEED, views: int = DEFAULT_VIEWS, jobs: int = 2,
          say=print, check_views: int = 1000) -> dict:
    """Render, extract, train and save the reader; returns the manifest written."""
    started = time.monotonic()
    fonts = available_fonts(TRAIN_FONTS)
    say(f"rendering {views} card views (seed {seed}) in {len(fonts)} fonts: {', '.join(fonts)}")
    data = _collect(seed, views, fonts, jobs)
    say(f"  {len(data['rank_y'])} rank glyphs, {len(data['suit_y'])} suit glyphs ({time.monotonic() - started:.0f}s)")
    rank_model = train_mlp(data["rank_x"], data["rank_y"], RANK_CLASSES, hidden=128, seed=seed)
    suit_model = train_mlp(data["suit_x"], data["suit_y"], SUIT_CLASSES, hidden=48, epochs=20, seed=seed + 1)
    say(f"  trained ({time.monotonic() - started:.0f}s); training accuracy rank "
        f"{_accuracy(rank_model, data['rank_x'], data['rank_y']):.3f}, suit {_accuracy(suit_model, data['suit_x'], data['suit_y']):.3f}")
    held = available_fonts(HELD_OUT_FONTS)
    check = _collect(seed + 1000, check_views, held or fonts, jobs)
    rank_acc = _accuracy(rank_model, check["rank_x"], check["rank_y"])
    suit_acc = _accuracy(suit_model, check["suit_x"], check["suit_y"])
    say(f"  check on held-out fonts {', '.join(held)} (seed {seed + 1000}): glyph accuracy rank {rank_acc:.3f}, suit {suit_acc:.3f}")
    out.mkdir(parents=True, exist_ok=True)
    rank_model.save(out / RANK_FILE)
    suit_model.save(out / SUIT_FILE)
    from tabletop.vision.store import _sha256

    manifest = {
        "name": "cards",
        "built_from": (f"python -m tabletop.vision.build --seed {seed} --views {views}: rendered cards in fonts "
                       f"{', '.join(fonts)}; HOG features + numpy perceptron; no real photos"),
        "seed": seed, "views": views, "fonts": list(fonts), "held_out_fonts": list(held),
        "rank_glyphs": int(len(data["rank_y"])), "suit_glyphs": int(len(data["suit_y"])),
        "check": {"rank_glyph_accuracy": round(rank_acc, 4), "suit_glyph_accuracy": round(suit_acc, 4)},
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
    parser.add_argument("--jobs", type=int, default=min(2, multiprocessing.cpu_count()))
    args = parser.parse_args(argv)
    build(args.out, args.seed, args.views, args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
