"""``tabletop see IMAGE [--rank R] [--json]``: the cards found in one image (PRODUCT.md section 5)."""

from __future__ import annotations

import argparse
from typing import Any
from collections import Counter

from tabletop import sentences
from tabletop.cli.jsonline import json_line
from tabletop.cards import Rank

BOOK_SIZE = 4


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``see`` and return its parser."""
    parser: argparse.ArgumentParser = subparsers.add_parser("see", help="find and read the face-up cards in one image",
                                   description="Find and read the face-up cards in one image.")
    parser.add_argument("image", metavar="IMAGE", help="a photo of the table (JPEG, PNG, ...)")
    parser.add_argument("--rank", metavar="R", help="check a claimed book of this rank (7, sevens, K, kings ...)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def run(args: argparse.Namespace) -> int:
    """Print the cards in ``args.image`` (and, with ``--rank``, the book check); 0 on success."""
    from tabletop.vision import check_book, read_image, see
    from tabletop.vision.books import SURE

    rank = Rank.parse(args.rank) if args.rank else None
    image = read_image(args.image)
    detections = see(image)
    result: dict[str, Any] = {"cards": [d.to_json() for d in detections]}
    if rank is not None:
        check = check_book(rank, [image], BOOK_SIZE)
        result["book"] = rank.symbol if check.verdict == "confirmed" else None
        result["verdict"] = check.verdict
        result["say"] = check.say
    else:
        counts = Counter(d.rank for d in detections if d.rank is not None and d.confidence >= SURE)
        books = [r for r, n in counts.items() if n >= BOOK_SIZE]
        result["book"] = books[0].symbol if len(books) == 1 else None
    if args.json:
        print(json_line(result))
        return 0
    # One sentence for every card listed: the ones read surely by rank, the rest as unclear.
    sure = [d for d in detections if d.rank is not None and d.confidence >= SURE]
    counts = Counter(d.rank for d in sure)
    order = sorted(counts, key=lambda r: (r is not rank, -counts[r], list(Rank).index(r)))
    print(sentences.cards_found(len(detections)) + " "
          + sentences.seen([(r, counts[r]) for r in order], unclear=len(detections) - len(sure)))
    for d in detections:
        name = f"{d.rank.word}" + (f" of {d.suit.value}" if d.suit else "") if d.rank else "unreadable card"
        unsure = "" if d in sure else ", unclear"
        print(f"  {name} at {list(d.box)} ({d.confidence:.0%} sure{unsure})")
    if rank is not None:
        print(sentences.book_verdict(rank, result["verdict"]))
    elif result["book"]:
        print(sentences.book_in_view(Rank.from_symbol(result["book"])))
    return 0
