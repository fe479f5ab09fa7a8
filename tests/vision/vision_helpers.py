"""Shared helpers for the vision tests: rendered scenes with known truth, and the real photos."""

from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np
import pytest

from tabletop.cards import Card, Rank, Suit
from tabletop.vision import Detection
from tabletop.vision.render import SceneCard

REPO = Path(__file__).resolve().parents[2]
CARDS_DEV = REPO.parent / "shared" / "data" / "cards-dev"


def need_cards_dev() -> Path:
    """The real photos folder, or skip the test with the reason."""
    if not (CARDS_DEV / "labels.csv").is_file():
        pytest.skip(f"real card photos not found at {CARDS_DEV} (put shared/data/cards-dev beside the checkout)")
    return CARDS_DEV


def real_labels() -> dict[str, list[tuple[tuple[int, int, int, int], Rank]]]:
    """Photo path -> [(x0, y0, x1, y1), rank] for every labelled face-up card."""
    table: dict[str, list] = defaultdict(list)
    with (need_cards_dev() / "labels.csv").open() as handle:
        for row in csv.DictReader(handle):
            box = tuple(int(v) for v in row["notes"].split("bbox_xyxy=")[1].split(";")[:4])
            table[row["path"]].append((box, Rank.from_symbol(row["rank"])))
    return dict(table)


def real_scenes() -> list[dict]:
    with (need_cards_dev() / "scenes.csv").open() as handle:
        return list(csv.DictReader(handle))


def cards(*names: str) -> list[Card]:
    return [Card.parse(name) for name in names]


def match(truths: tuple[SceneCard, ...], detections: list[Detection]) -> list[tuple[SceneCard, Detection | None]]:
    """Pair each true card with the detection whose box centre lies inside its quad (or None)."""
    pairs = []
    used: set[int] = set()
    for truth in truths:
        found = None
        for i, d in enumerate(detections):
            x, y, w, h = d.box
            centre = (x + w / 2, y + h / 2)
            if i not in used and cv2.pointPolygonTest(truth.quad.astype(np.float32), centre, False) >= 0:
                if 0.6 < (w * h) / max(1, truth.box[2] * truth.box[3]) < 1.5:
                    found = d
                    used.add(i)
                    break
        pairs.append((truth, found))
    return pairs


def box_centre_inside(box: tuple[int, int, int, int], xyxy: tuple[int, int, int, int]) -> bool:
    x, y, w, h = box
    cx, cy = x + w / 2, y + h / 2
    return xyxy[0] <= cx <= xyxy[2] and xyxy[1] <= cy <= xyxy[3]
