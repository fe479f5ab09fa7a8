"""``tabletop see IMAGE [--rank R] [--json]``: the cards found in one image (PRODUCT.md section 5)."""

from __future__ import annotations

import argparse
import json
from typing import Any
from collections import Counter

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
    from tabletop.vision.books import SURE, describe

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
        print(json.dumps(result))
        return 0
    sure = [d for d in detections if d.rank is not None and d.confidence >= SURE]
    print(f"{len(detections)} card{'s' if len(detections) != 1 else ''} found. "
          + (describe(sure) if sure else "I can't read any of them clearly."))
    for d in detections:
        name = f"{d.rank.word}" + (f" of {d.suit.value}" if d.suit else "") if d.rank else "unreadable card"
        print(f"  {name} at {list(d.box)} ({d.confidence:.0%} sure)")
    if rank is not None:
        print(result["say"])
    elif result["book"]:
        print(f"A book of {Rank.from_symbol(result['book']).plural} is in view.")
    return 0
