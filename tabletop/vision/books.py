"""Book confirmation: does the table show ``book_size`` cards of the claimed rank?

Precision first, and decided over a few frames, as a live camera sends them in about half a second
(a still photo is one frame), by evidence. A book is confirmed when some frame shows ``book_size``
distinct cards of the rank, each read surely; the frames that show it whole agree on which cards
they are; and no frame reads another rank where one of them lies: surely, or as an index (a rank
and its suit) at all (:data:`CONTRADICTS`). Where no one frame shows it whole, the frames together
may: ``book_size`` cards each named by rank and suit, each read surely in some frame and seen there in
another, always in one place, and no frame reading another rank where one lies. A frame that reads a card there unsurely as the same
rank, or reads nothing there (a hand passing over it, or an index a few pixels wide that flickers
in and out of a sure read from frame to frame), is no contradiction; a queen read as a king now and
then is. When most frames read every card confidently and there are too few of the rank, the claim is
not confirmed, with what was seen ("I see three kings and a queen."). Anything else (no cards,
blurred, covered or flickering reads) is unsure, with what was seen and what to do.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from tabletop import sentences
from tabletop.cards import Rank
from tabletop.vision.boxes import iou, share_of_smaller
from tabletop.vision.detection import Detection
from tabletop.vision.pipeline import see
from tabletop.vision.reader import Reader
from tabletop.vision.tracking import read_look

__all__ = ["BookCheck", "check_book", "judge_book", "describe", "SURE", "CONTRADICTS"]

SURE = 0.8
"""Confidence at or above which a read counts towards a verdict."""
_MAX_OF_A_RANK = 4  # one deck has four cards of a rank
_SAME_PLACE = 0.3  # boxes overlapping this much (intersection over union) in two frames are the same card
UNCLEAR = sentences.UNCLEAR
CONTRADICTS = 0.5
"""A read of another rank naming its suit (an index: rank glyph over suit pip) at least this sure, the pipeline's
bar for a card, contradicts a book card it lies on in any frame that does not read the card there surely as the
claimed rank (a whole three read as a five at 0.66 over the three's index read at 0.97); a read naming no suit does
so only at ``SURE`` (the pipeline's doubtful card, hung any way round, over a sliver of paper or a hand)."""


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


_SAME_CARD = 0.6
"""Two sure reads of a rank whose boxes share this much of the smaller one, and name no two different suits, are one
card read twice (a whole card and a hypothesis hung on its index corner): counted once. Two suits there may be two
cards: a squared pile's or a 2x2 square's card whose index shows inside the box of the card over it."""
_SAME_BOX = 0.5
"""Two sure reads of a rank whose boxes overlap this much (intersection over union) are one card read twice whatever
suits they name (the reader's known slip on a sure read: clubs for spades at webcam size). Two cards of a pile, a fan
or a square that lie on each other each show their own part (an index inside another's strip or whole box: boxes of
another size and place, overlapping less than 0.2 in every such pair on the books bench and the composites)."""


def _once(matches: list[Detection]) -> list[Detection]:
    """The sure reads of a rank, one per card: a read lying on a surer one of the same card is dropped (``_SAME_CARD``,
    ``_SAME_BOX``). Only ever fewer cards than read, so a book is never made of a card counted twice."""
    kept: list[Detection] = []
    for d in sorted(matches, key=lambda d: -d.confidence):
        if not any(iou(d.box, k.box) >= _SAME_BOX
                   or share_of_smaller(d.box, k.box) >= _SAME_CARD and (d.suit is None or k.suit is None or d.suit is k.suit)
                   for k in kept):
            kept.append(d)
    return kept


def _distinct(matches: list[Detection]) -> bool:
    """No two confidently read cards of the rank claim the same suit (a misread or a double count)."""
    suits = [d.suit for d in matches if d.suit is not None]
    return len(suits) == len(set(suits))


def _suits(matches: list[Detection]) -> frozenset:
    return frozenset(d.suit for d in matches if d.suit is not None)


def judge_book(rank: Rank, seen: list[list[Detection]], book_size: int = 4) -> BookCheck:
    """The verdict on a claimed book of ``rank`` from the cards seen in each of a few frames."""
    if not seen or not any(seen):
        return BookCheck("unsure", [], sentences.nothing_seen(rank))
    whole: list[frozenset] = []  # the suits read in each frame that shows the whole book
    places: list[tuple[int, int, int, int]] = []  # where those frames saw the book's cards
    best: list[Detection] = []
    best_key: tuple = (-1, -1.0)
    short = 0  # frames that read every card surely and show too few of the rank
    for detections in seen:
        sure = _sure(detections)
        matches = _once([d for d in sure if d.rank is rank])
        key = (len(matches), float(sum(d.confidence for d in detections)))
        if key > best_key:
            best_key, best = key, detections
        if book_size <= len(matches) <= _MAX_OF_A_RANK and _distinct(matches):
            whole.append(_suits(matches))
            places += [d.box for d in matches]
        elif len(sure) == len(detections) and len(matches) < book_size:
            short += 1
    if whole and _agree(whole) and not _read_otherwise(rank, places, seen):
        return BookCheck("confirmed", best, sentences.book_seen(rank, book_size))
    if not whole and _seen_across(rank, seen, book_size):
        return BookCheck("confirmed", best, sentences.book_seen(rank, book_size))
    if short >= len(seen) // 2 + 1 and not whole:
        return BookCheck("not_confirmed", best, describe(_sure(best), rank))
    typical = sorted(seen, key=lambda d: sum(x.rank is rank for x in _sure(d)))[len(seen) // 2]  # the median frame
    sure = _sure(typical)
    if not sure:
        return BookCheck("unsure", typical, UNCLEAR)
    return BookCheck("unsure", typical, f"{describe(sure, rank)} {sentences.spread_out(rank)}")


def _read_otherwise(rank: Rank, places: list[tuple[int, int, int, int]], seen: list[list[Detection]]) -> bool:
    """Some frame reads another rank where a frame saw one of the book's cards: surely, or as an index at all
    (:data:`CONTRADICTS`) where that frame reads no card of the rank surely. A card misread in some frames is to be
    trusted in none of them. A frame where a hand covers a card, or the card's index goes unread for a moment,
    reads nothing there, which is no contradiction: other frames show the book."""
    for detections in seen:
        sure = [d for d in _sure(detections) if d.rank is rank]
        for d in detections:
            if d.rank is None or d.rank is rank or not any(iou(d.box, place) > _SAME_PLACE for place in places):
                continue
            if d.confidence >= SURE:
                return True
            if _contradicts(d) and not any(iou(d.box, k.box) > _SAME_PLACE for k in sure):
                return True
    return False


def _contradicts(d: Detection) -> bool:
    """An unsure read of another rank that would contradict a book card: one naming its suit (an index)."""
    return d.suit is not None and d.confidence >= CONTRADICTS


def _seen_across(rank: Rank, seen: list[list[Detection]], book_size: int) -> bool:
    """True if the frames together show ``book_size`` distinct cards of ``rank``, none in one frame: each card (its
    rank and suit: a deck holds it once) read surely in some frame, always in one place, read there as the rank in
    another frame too (at ``CONTRADICTS``: surely or not, its suit unread or the same), and no frame reading another
    rank where any of them lies (``_read_otherwise``). A live camera's frames each lose a card or two to glare, blur or
    a pile's index a few pixels wide flickering below a sure read, not always the same one."""
    where: dict = {}  # suit -> the boxes it was read surely at
    for detections in seen:
        for d in _once([d for d in _sure(detections) if d.rank is rank]):
            if d.suit is not None:
                where.setdefault(d.suit, []).append(d.box)
    if not book_size <= len(where) <= _MAX_OF_A_RANK:
        return False
    if not all(share_of_smaller(a, b) >= _SAME_CARD for boxes in where.values() for a in boxes for b in boxes):
        return False  # one card read in two places: a card read twice, or two cards one of them misread
    suits = list(where)
    if any(share_of_smaller(a, b) >= _SAME_CARD for i, s in enumerate(suits) for t in suits[i + 1:]
           for a in where[s] for b in where[t]):
        return False  # two suits read in one place: one card whose suit was misread, not two cards
    places = {suit: boxes[0] for suit, boxes in where.items()}
    for suit, box in places.items():  # each card seen in two frames at least, surely in one (not a passing misread)
        others = [b for s, b in places.items() if s is not suit]
        if sum(any(_seen_there(d, rank, suit, box, others) for d in detections) for detections in seen) < 2:
            return False
    return not _read_otherwise(rank, [b for boxes in where.values() for b in boxes], seen)


def _seen_there(d: Detection, rank: Rank, suit, box: tuple[int, int, int, int], others: list) -> bool:
    """A read of ``rank`` (at ``CONTRADICTS``, its suit ``suit`` or unread) lying on the card read surely at ``box``. A
    read naming no suit that lies on another of the book's cards too (``others``) is a read of no one card: a suitless
    read of a whole square of four (held-out square, seed 425312: the king of clubs' far index read once as diamonds,
    and a suitless king over all four cards as its second sighting, made a book of three kings)."""
    return (d.rank is rank and d.confidence >= CONTRADICTS and d.suit in (suit, None)
            and share_of_smaller(d.box, box) >= _SAME_CARD
            and (d.suit is not None or not any(share_of_smaller(d.box, other) >= _SAME_CARD for other in others)))


def _agree(whole: list[frozenset]) -> bool:
    """The frames that show the whole book name no suits that two of them disagree on (the same cards each time)."""
    named = [s for s in whole if s]
    return all(a <= b or b <= a for a in named for b in named)


def check_book(rank: Rank, frames: list[np.ndarray], book_size: int = 4, reader: Reader | None = None, *,
               live: bool = False) -> BookCheck:
    """Check a claimed book of ``rank`` against a few frames of the table (one for a still photo).

    ``live``: the frames are a still camera's look, in order, and are read as it sends them
    (:func:`~tabletop.vision.tracking.read_look`: the first whole, the rest only where the picture changed). A book
    that look confirms is confirmed; any other claim is judged as a look always was, every frame read whole (the first
    frame's reading is ``see``'s already): a still table's frames differ by their noise, and a card whose read
    flickers about the sure bar is read surely in some of them (books over still looks: 26 of 44 confirmed from the
    tracker's reading alone, 29 from every frame read whole, 0 false of 109 claims either way)."""
    frames = [frame for frame in frames if frame is not None]
    if live:
        readings = read_look(frames, reader)
        check = judge_book(rank, readings, book_size)
        if check.verdict == "confirmed" or len(frames) < 2:
            return check
        return judge_book(rank, readings[:1] + [see(frame, reader) for frame in frames[1:]], book_size)
    return judge_book(rank, [see(frame, reader) for frame in frames], book_size)
