"""Shared helpers for the vision tests: rendered scenes with known truth, and the real photos."""

from __future__ import annotations

import csv
import functools
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from tabletop.cards import Card, Rank
from tabletop.vision import Detection
from tabletop.vision.boxes import iou
from tabletop.vision.render import Scene, SceneCard, render_scene

REPO = Path(__file__).resolve().parents[2]
CARDS_DEV = REPO.parent / "shared" / "data" / "cards-dev"


def one_card_scenes(rng: np.random.Generator, count: int, **render: object) -> Iterator[tuple[Card, Scene]]:
    """``count`` scenes of one card each, the card drawn from ``rng`` and rendered with it (``effects=0.5``
    unless ``render`` says otherwise). Drawn lazily: a caller that draws from ``rng`` between scenes keeps its
    place in the sequence."""
    deck = Card.deck()
    for _ in range(count):
        card = deck[int(rng.integers(52))]
        yield card, render_scene([card], rng, **{"effects": 0.5, **render})  # type: ignore[arg-type]


def need_cards_dev() -> Path:
    """The real photos folder, or skip the test with the reason."""
    if not (CARDS_DEV / "labels.csv").is_file():
        pytest.skip(f"real card photos not found at {CARDS_DEV} (put shared/data/cards-dev beside the checkout)")
    return CARDS_DEV


def need_real_faces() -> None:
    """Skip the test, with the reason, when the real card faces its scenes are composited from are not here."""
    from tabletop.vision import scenes

    if not scenes.real_faces_available():
        pytest.skip(f"real card faces not found at {scenes.FACES_DIR} (put shared/data beside the checkout)")


def real_labels() -> dict[str, list[tuple[tuple[int, int, int, int], Rank]]]:
    """Photo path -> [(x0, y0, x1, y1), rank] for every labelled face-up card."""
    table: dict[str, list] = defaultdict(list)
    with (need_cards_dev() / "labels.csv").open() as handle:
        for row in csv.DictReader(handle):
            box = tuple(int(v) for v in row["notes"].split("bbox_xyxy=")[1].split(";")[:4])
            table[row["path"]].append((box, Rank.from_symbol(row["rank"])))
    return dict(table)


@functools.lru_cache(maxsize=None)
def seen_in_photo(path: str) -> tuple[Detection, ...]:
    """``see`` on a real photo (a path in cards-dev), once a session: the false-book check reads every
    photo and the rank check a third of them, the same reading (``see`` keeps no state between frames)."""
    from tabletop.vision import see

    return tuple(see(cv2.imread(str(need_cards_dev() / path))))


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


def _share_inside(box: tuple[int, int, int, int], xyxy: tuple[int, int, int, int]) -> float:
    """How much of a detection's box lies in a label's box (a partly hidden card's box is the strip in view)."""
    x, y, w, h = box
    across = max(0, min(x + w, xyxy[2]) - max(x, xyxy[0]))
    down = max(0, min(y + h, xyxy[3]) - max(y, xyxy[1]))
    return across * down / max(w * h, 1)


def match_labels(detections: list[Detection], labels: list[tuple[tuple[int, int, int, int], Rank]]) -> dict[int, Detection]:
    """Label index -> its detection: one detection per labelled card and one card per detection,
    as detection benchmarks match them (COCO). The surest detection first takes the unmatched label
    its centre lies in that holds most of it. Labels are upright boxes round rotated, overlapping
    cards, so a detection's centre often lies in two of them: taking, for each label, the first
    detection inside it counted one card's reading for two labels and another card's for none."""
    matched: dict[int, Detection] = {}
    for d in sorted(detections, key=lambda d: -d.confidence):
        free = [(_share_inside(d.box, xyxy), i) for i, (xyxy, _) in enumerate(labels)
                if i not in matched and box_centre_inside(d.box, xyxy)]
        if free:
            matched[max(free)[1]] = d
    return matched


def _box_share(box: tuple[int, int, int, int], quad: np.ndarray) -> float:
    """The share of a detection's box inside a card's quad, or, when larger, the box's overlap (IoU) with the
    card's upright box (COCO's labels): an upright box round a card turned near 45 degrees lies at most 49% on
    the card itself (a card's sides 0.72 to 1), so a perfectly fitted whole card turned so was counted a false
    read (training tables, seeds 424329 and 424338: a jack and a queen read right at 0.96 and 0.98)."""
    x, y, w, h = box
    rect = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)
    area, _ = cv2.intersectConvexConvex(rect, quad.astype(np.float32))
    return max(float(area) / max(1.0, w * h), _upright_iou(box, quad))


def _upright_iou(box: tuple[int, int, int, int], quad: np.ndarray) -> float:
    """Intersection over union of a detection's box and the upright box round a card's quad."""
    (qx0, qy0), (qx1, qy1) = quad.min(axis=0), quad.max(axis=0)
    return iou(box, (float(qx0), float(qy0), float(qx1 - qx0), float(qy1 - qy0)))


def score_cards(truth: list[tuple[Card, np.ndarray, bool]], detections: list[Detection], sure: float = 0.8) -> dict[str, int]:
    """Detections scored against cards laid with known corners: ``truth`` is (card, quad, whether its index shows).

    Matched one to one per rank, surest first, as COCO matches per class: a detection naming a rank is right
    when at least half its box lies on a card of that rank not yet taken. ``cards``: cards whose index shows;
    ``recalled``: of those, read right; ``ranked``: detections naming a rank; ``correct``: of those, right;
    ``sure`` and ``sure_correct``: the same for reads at or above ``sure`` (what a book counts)."""
    out = {"cards": sum(readable for _, _, readable in truth), "recalled": 0, "ranked": 0, "correct": 0, "sure": 0,
           "sure_correct": 0}
    ranked = [d for d in detections if d.rank is not None]
    out["ranked"] = len(ranked)
    out["sure"] = sum(d.confidence >= sure for d in ranked)
    for best, d in matched_cards(truth, detections).items():
        out["correct"] += 1
        out["sure_correct"] += d.confidence >= sure
        out["recalled"] += truth[best][2]
    return out


def matched_cards(truth: list[tuple[Card, np.ndarray, bool]], detections: list[Detection]) -> dict[int, Detection]:
    """Card index -> the detection that reads it right (``score_cards``' one-to-one matching)."""
    matched: dict[int, Detection] = {}
    for d in sorted((d for d in detections if d.rank is not None), key=lambda d: -d.confidence):
        shares = [(_box_share(d.box, quad), i) for i, (card, quad, _) in enumerate(truth)
                  if i not in matched and card.rank is d.rank]
        shares = [(share, i) for share, i in shares if share >= 0.5]
        if shares:  # of the cards it lies on, the one whose part in view it lies on most (a pile of one rank)
            _, best = max((_shown_share(d.box, truth, i), share, i) for share, i in shares)[1:]
            matched[best] = d
    return matched


def _shown_share(box: tuple[int, int, int, int], truth: list, i: int) -> float:
    """The share of a detection's box on the part of card ``i`` in view: its quad less those of the cards after it in
    ``truth`` (a composite's cards are in drawing order, later ones on top). In a slid pile of one rank a box on one
    card's index strip lies on the whole quads of all the cards under it too."""
    x, y, w, h = box
    if w <= 0 or h <= 0:
        return 0.0
    mask = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(mask, np.rint(truth[i][1] - (x, y)).astype(np.int32), 1)
    for _, quad, _ in truth[i + 1 :]:
        cv2.fillConvexPoly(mask, np.rint(quad - (x, y)).astype(np.int32), 0)
    return float(np.count_nonzero(mask)) / max(1, w * h)


LOSSES = ("read right", "read right, unsure", "not found", "found, unsure", "found, misread", "found, read right, dropped")
"""Where each card whose index shows ends up (``losses``): read right surely enough for a book, read right but
less surely, or lost: no hypothesis on it (its outline and index not found), hypotheses on it that read no rank
surely (the reader unsure), one that read another rank (misread), or one that read it right that a later rule
dropped (the pipeline's choice among hypotheses)."""
FALSE_READS = ("on no card", "another rank on a card", "a card read twice")


def _near_index(hypothesis: object, quad: np.ndarray) -> bool:
    """True if a hypothesis is hung on one of the card's index corners (top left or bottom right of its face)."""
    short = float(np.linalg.norm(quad[1] - quad[0]))
    corners = hypothesis.corners  # type: ignore[attr-defined]
    ends = (corners[0], corners[2]) if hypothesis.kind == "outline" else (corners[0],)  # type: ignore[attr-defined]
    return any(float(np.linalg.norm(e - quad[k])) < 0.3 * short for e in ends for k in (0, 2))


def losses(truth: list[tuple[Card, np.ndarray, bool]], detections: list[Detection], hypotheses: list,
           sure: float = 0.8, read_as_card: float = 0.5) -> tuple[Counter, Counter]:
    """Each card whose index shows counted in one of :data:`LOSSES`, and each read naming a rank no card matched
    in one of :data:`FALSE_READS`. ``hypotheses`` are what ``see(..., trace=[])`` collected; a hypothesis reads
    surely at ``read_as_card`` (the pipeline's bar for a card)."""
    matched = matched_cards(truth, detections)
    lost: Counter = Counter()
    for i, (card, quad, readable) in enumerate(truth):
        if not readable:
            continue
        if i in matched:
            lost["read right" if matched[i].confidence >= sure else "read right, unsure"] += 1
            continue
        on = [h for h in hypotheses if _near_index(h, quad)]
        named = [h.reading.rank for h in on if h.reading.rank is not None and h.reading.confidence >= read_as_card]
        lost["not found" if not on else "found, read right, dropped" if card.rank in named
             else "found, misread" if named else "found, unsure"] += 1
    false: Counter = Counter()
    taken = {id(d) for d in matched.values()}
    for d in detections:
        if d.rank is None or id(d) in taken:
            continue
        under = [i for i, (_, quad, _) in enumerate(truth) if _box_share(d.box, quad) >= 0.5]
        false["on no card" if not under else "a card read twice" if any(truth[i][0].rank is d.rank for i in under)
              else "another rank on a card"] += 1
    return lost, false
