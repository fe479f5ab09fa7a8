"""Book confirmation: does the table show ``book_size`` cards of the claimed rank?

Precision first: a book is confirmed only when some frame shows ``book_size`` distinct cards of
the rank, each read confidently, and no frame contradicts it (every card in it read clearly,
too few of the rank). When every card in view is read confidently and
there are too few of the rank, the claim is not confirmed, with what was seen. Anything else
(no cards, blurred or covered cards) is unsure, with what to do.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from tabletop import sentences
from tabletop.cards import Rank
from tabletop.vision.detection import Detection
from tabletop.vision.pipeline import see
from tabletop.vision.reader import Reader

__all__ = ["BookCheck", "check_book", "describe", "SURE"]

SURE = 0.8
"""Confidence at or above which a read counts towards a verdict."""
_MAX_OF_A_RANK = 4  # one deck has four cards of a rank
UNCLEAR = sentences.UNCLEAR


@dataclass(frozen=True)
class BookCheck:
    """The verdict on a book claim: "confirmed", "not_confirmed" or "unsure", what was seen, and what to say."""

    verdict: str
    seen: list[Detection] = field(default_factory=list)
    say: str = ""

    def to_json(self) -> dict:
        return {"verdict": self.verdict, "say": self.say, "seen": [d.to_json() for d in self.seen]}


def describe(detections: list[Detection], first: Rank | None = None) -> str:
    """"I see three sevens and a six." — the confident reads, the claimed rank first."""
    counts = Counter(d.rank for d in detections if d.rank is not None)
    order = sorted(counts, key=lambda r: (r is not first, -counts[r], list(Rank).index(r)))
    return sentences.seen([(r, counts[r]) for r in order])


def _sure(detections: list[Detection]) -> list[Detection]:
    return [d for d in detections if d.rank is not None and d.confidence >= SURE]


def _distinct(matches: list[Detection]) -> bool:
    """No two confidently read cards of the rank claim the same suit (a misread or a double count)."""
    suits = [d.suit for d in matches if d.suit is not None]
    return len(suits) == len(set(suits))


def check_book(rank: Rank, frames: list[np.ndarray], book_size: int = 4, reader: Reader | None = None) -> BookCheck:
    """Check a claimed book of ``rank`` against a few frames of the table."""
    per_frame = [see(frame, reader) for frame in frames if frame is not None]
    if not per_frame or not any(per_frame):
        return BookCheck("unsure", [], sentences.nothing_seen(rank))
    full_frames = 0
    best: list[Detection] = []
    best_key: tuple = (-1, -1.0)
    all_clear_short = 0
    for detections in per_frame:
        sure = _sure(detections)
        matches = [d for d in sure if d.rank is rank]
        key = (len(matches), float(sum(d.confidence for d in detections)))
        if key > best_key:
            best_key, best = key, detections
        if book_size <= len(matches) <= _MAX_OF_A_RANK and _distinct(matches):
            full_frames += 1
        elif len(sure) == len(detections) and len(matches) < book_size:
            all_clear_short += 1
    if full_frames >= 1 and all_clear_short == 0:  # seen whole at least once, and no frame says otherwise
        return BookCheck("confirmed", best, sentences.book_seen(rank, book_size))
    needed = len(per_frame) // 2 + 1  # a majority of the frames
    if all_clear_short >= needed and full_frames == 0:
        return BookCheck("not_confirmed", best, describe(_sure(best), rank))
    return BookCheck("unsure", best, UNCLEAR)
