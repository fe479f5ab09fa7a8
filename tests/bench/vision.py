"""Vision bench: rank accuracy, book-confirmation precision/recall and frames per second.

    python tests/bench/vision.py [--scenes N] [--quick]

Rendered sets use seeds the reader was not built from, in its training fonts and in fonts it
never saw (``HELD_OUT_FONTS``). Real photos: ../shared/data/cards-dev (EdjeElectronics card
photos, Apache-2.0), skipped with a note when absent. Speed is measured on one core.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core: numpy's BLAS too, not only OpenCV

import argparse
import csv
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tabletop.cards import Card, Rank  # noqa: E402
from tabletop.vision import check_book, see  # noqa: E402
from tabletop.vision.render import HELD_OUT_FONTS, TRAIN_FONTS, render_scene  # noqa: E402

sys.path.insert(0, str(REPO / "tests" / "vision"))
from vision_helpers import match_labels, real_labels  # noqa: E402

CARDS_DEV = REPO.parent / "shared" / "data" / "cards-dev"
BENCH_SEED = 424242  # the build uses 20261129 and its check 20262129


def rendered_accuracy(fonts: tuple[str, ...], scenes: int, seed: int) -> dict:
    """Per-card rank accuracy on rendered scenes of 1–8 cards."""
    rng = np.random.default_rng(seed)
    deck = Card.deck()
    total = found = right = confident = confident_right = 0
    for _ in range(scenes):
        chosen = [deck[i] for i in rng.choice(52, int(rng.integers(1, 9)), replace=False)]
        scene = render_scene(chosen, rng, fonts=fonts, overlap=float(rng.uniform(0, 0.2)))
        detections = see(scene.image)
        used: set[int] = set()
        for truth in scene.cards:
            total += 1
            for i, d in enumerate(detections):
                x, y, w, h = d.box
                if i in used or cv2.pointPolygonTest(truth.quad, (x + w / 2, y + h / 2), False) < 0:
                    continue
                used.add(i)
                found += 1
                right += d.rank is truth.card.rank
                if d.confidence >= 0.8:
                    confident += 1
                    confident_right += d.rank is truth.card.rank
                break
    return {"cards": total, "found": found, "right": right, "confident": confident, "confident_right": confident_right}


def real_accuracy() -> dict | None:
    """Per-card rank accuracy on the labelled real photos."""
    if not (CARDS_DEV / "labels.csv").is_file():
        return None
    labels = real_labels()
    total = found = right = confident = confident_right = 0
    by_source: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # cards, found, right
    for path, items in labels.items():
        detections = see(cv2.imread(str(CARDS_DEV / path)))
        source = by_source["webcam" if "cam_" in path else "phone"]
        matched = match_labels(detections, items)
        for i, (xyxy, rank) in enumerate(items):
            total += 1
            source[0] += 1
            hit = matched.get(i)
            if hit is not None:
                found += 1
                right += hit.rank is rank
                source[1] += 1
                source[2] += hit.rank is rank
                if hit.confidence >= 0.8:
                    confident += 1
                    confident_right += hit.rank is rank
    return {"cards": total, "found": found, "right": right, "confident": confident, "confident_right": confident_right,
            "by_source": dict(by_source)}


def book_rates(trials: int, seed: int) -> dict:
    """Book confirmation on rendered claims: half true books, half false claims (three of a rank, or fewer)."""
    rng = np.random.default_rng(seed)
    deck = Card.deck()
    tp = fp = fn = tn = unsure_true = 0
    for trial in range(trials):
        rank = Rank(rng.choice([r.value for r in Rank]))
        of_rank = [c for c in deck if c.rank is rank]
        others = [c for c in deck if c.rank is not rank]
        real_book = trial % 2 == 0
        chosen = of_rank if real_book else list(rng.choice(np.array(of_rank, dtype=object), int(rng.integers(1, 4)), replace=False))
        chosen = chosen + list(rng.choice(np.array(others, dtype=object), int(rng.integers(0, 4)), replace=False))
        frames = [render_scene(chosen, np.random.default_rng(seed * 7 + trial * 5 + i)).image for i in range(3)]
        verdict = check_book(rank, frames).verdict
        if real_book:
            tp += verdict == "confirmed"
            fn += verdict != "confirmed"
            unsure_true += verdict == "unsure"
        else:
            fp += verdict == "confirmed"
            tn += verdict != "confirmed"
    return {"tp": tp, "fp": fp, "fn": fn, "tn": tn, "unsure_on_true": unsure_true}


def real_book_rates() -> dict | None:
    if not (CARDS_DEV / "scenes.csv").is_file():
        return None
    tp = fp = fn = claims = 0
    with (CARDS_DEV / "scenes.csv").open() as handle:
        for row in csv.DictReader(handle):
            image = cv2.imread(str(CARDS_DEV / row["path"]))
            ranks = row["ranks"].split()
            for symbol in sorted(set(ranks)):  # claim every rank in view
                claims += 1
                is_book = ranks.count(symbol) >= 4
                confirmed = check_book(Rank.from_symbol(symbol), [image]).verdict == "confirmed"
                tp += is_book and confirmed
                fn += is_book and not confirmed
                fp += confirmed and not is_book
    return {"claims": claims, "tp": tp, "fp": fp, "fn": fn}


def fps(size: tuple[int, int], repeats: int, seed: int) -> tuple[float, float]:
    """Median frames per second of ``see`` on a 4-card rendered frame of ``size`` (w, h), one core.

    Returns (wall clock, CPU time): on a busy machine the wall clock also counts time spent
    waiting for the core, the CPU time does not.
    """
    w, h = size
    scene = render_scene(Card.deck()[:52:13], np.random.default_rng(seed), size=(h, w))
    see(scene.image)  # load the reader
    wall, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        see(scene.image)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return 1.0 / statistics.median(wall), 1.0 / statistics.median(cpu)


def _pct(a: int, b: int) -> str:
    return f"{a / b:.1%}" if b else "n/a"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=60, help="rendered scenes per font set")
    parser.add_argument("--books", type=int, default=40, help="rendered book claims")
    parser.add_argument("--quick", action="store_true", help="fewer scenes, for a smoke run")
    args = parser.parse_args()
    if args.quick:
        args.scenes, args.books = 12, 8
    cv2.setNumThreads(1)
    print("tabletop vision bench (one core)")
    for name, fonts, seed in (("rendered, training fonts, new seed", TRAIN_FONTS, BENCH_SEED),
                              (f"rendered, held-out fonts {', '.join(HELD_OUT_FONTS)}", HELD_OUT_FONTS, BENCH_SEED + 1)):
        r = rendered_accuracy(fonts, args.scenes, seed)
        print(f"- {name}: {r['cards']} cards, found {_pct(r['found'], r['cards'])}, rank accuracy "
              f"{_pct(r['right'], r['cards'])} per card ({_pct(r['right'], r['found'])} of found); "
              f"confident reads {_pct(r['confident'], r['found'])} of found, {_pct(r['confident_right'], r['confident'])} right")
    real = real_accuracy()
    if real is None:
        print(f"- real photos: skipped ({CARDS_DEV} not found)")
    else:
        print(f"- real photos (cards-dev, EdjeElectronics, Apache-2.0): {real['cards']} labelled cards, found "
              f"{_pct(real['found'], real['cards'])}, rank accuracy {_pct(real['right'], real['cards'])} per card "
              f"({_pct(real['right'], real['found'])} of found); confident reads {_pct(real['confident'], real['found'])}"
              f" of found, {_pct(real['confident_right'], real['confident'])} right")
        for name, (cards, found, right) in sorted(real["by_source"].items()):
            print(f"  - {name}: {cards} cards, found {_pct(found, cards)}, rank accuracy {_pct(right, cards)} per card "
                  f"({_pct(right, found)} of found)")
    b = book_rates(args.books, BENCH_SEED + 2)
    print(f"- book confirmation, rendered ({args.books} claims, 3 frames each): precision "
          f"{_pct(b['tp'], b['tp'] + b['fp'])}, recall {_pct(b['tp'], b['tp'] + b['fn'])}, "
          f"false confirmations {b['fp']}, true books left unsure {b['unsure_on_true']}")
    rb = real_book_rates()
    if rb is not None:
        print(f"- book confirmation, real photos ({rb['claims']} claims, one per rank in view, 1 frame): "
              f"false confirmations {rb['fp']}, true books confirmed {rb['tp']} of {rb['tp'] + rb['fn']}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    for size in ((640, 480), (1280, 720)):
        wall, cpu = fps(size, 15 if args.quick else 40, BENCH_SEED)
        print(f"- speed {size[0]}x{size[1]}, 4 cards, one core: {wall:.1f} fps wall clock, {cpu:.1f} fps CPU time "
              f"(medians; load average {load:.1f} on {os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
