"""Where the rest of a book lies: cards laid as people lay a book (a row, a small fan, a slid pile, a 2x2 square)
lie in a pattern, so two or three cards of one rank read surely say where the others must be.

A row and a slid pile step by a slide, a fan by a turn about a pivot below it: each card is the last one moved by
one rigid step (a similarity here, the camera's perspective being nearly one over four cards). The step between two
cards read, taken as one, two or three steps, is repeated to where the others lie; a square's fourth card completes
the parallelogram of three. The card is read there, hung at the read cards' own size and way round, which is what
the finder and the index finder miss: a court picture's part or a big pip beside a small index, a pale glyph in
glare. A card found so is kept only where it reads its rank surely, naming a suit none of the cards read names.
"""

from __future__ import annotations


import numpy as np

__all__ = ["pattern_places", "lies_at", "LAYOUT_STEPS", "LAYOUT_SIZES", "LAYOUT_TURN", "LAYOUT_NEAR", "LAYOUT_FREE", "LAYOUT_AGREE"]

LAYOUT_STEPS = 3
"""A book is four cards: two read lie 1 to 3 steps apart, and the others up to 3 steps on."""
LAYOUT_SIZES = 0.15
"""Two cards of one pattern are one deck's, seen alike: their short sides within this share of each other."""
LAYOUT_TURN = np.radians(50.0)
"""... turned no more than this against each other (a fan of four at 15 degrees a card spans 45)."""
LAYOUT_NEAR = 1.6
"""... and their centres no further apart than this many long sides a step (a row's gap is under half a width)."""
LAYOUT_FREE = 0.15
"""A place is looked at only where no card read lies: its index corner this share of a short side or more from
every card read's. A slid pile's indices lie a fifth to a third of a width apart, so a card between two read lies
0.2-0.25 from each (at 0.3 that place was taken for theirs: books bench, piles 7 -> 8 of 12); a card hung on its
index lies within a few pixels of it, and a place read where a card read lies reads that card's suit, which is no
new card."""


LAYOUT_AGREE = 0.1
"""Two places whose index corners lie within this share of a short side are one place (read once, nudged about it)."""


def _complex(corners: np.ndarray) -> np.ndarray:
    return corners[:, 0].astype(np.complex128) + 1j * corners[:, 1].astype(np.complex128)


def _points(z: np.ndarray) -> np.ndarray:
    return np.stack([z.real, z.imag], axis=1).astype(np.float32)


def _short(corners: np.ndarray) -> float:
    return float(np.linalg.norm(corners[1] - corners[0]))


def _long(corners: np.ndarray) -> float:
    return float(np.linalg.norm(corners[3] - corners[0]))


def same_way(a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """``b``'s corners from the index corner that lies as ``a``'s does (a card's two index corners are half a turn
    apart: a whole card's outline may start at either), or None if the two do not lie alike (``LAYOUT_SIZES``,
    ``LAYOUT_TURN``, ``LAYOUT_NEAR``)."""
    sa, sb = _short(a), _short(b)
    if min(sa, sb) <= 0 or abs(sa - sb) > LAYOUT_SIZES * max(sa, sb):
        return None
    ua = a[1] - a[0]
    best = None
    for turned in (b, b[[2, 3, 0, 1]]):
        ub = turned[1] - turned[0]
        cos = float(ua @ ub) / (np.linalg.norm(ua) * np.linalg.norm(ub))
        if cos >= np.cos(LAYOUT_TURN):
            best = turned
    if best is None:
        return None
    apart = float(np.linalg.norm(a.mean(axis=0) - b.mean(axis=0)))
    return best if apart <= LAYOUT_NEAR * LAYOUT_STEPS * max(_long(a), _long(b)) else None


def _step(a: np.ndarray, b: np.ndarray) -> tuple[complex, complex]:
    """The similarity z -> s z + t (complex) taking card ``a``'s corners nearest to card ``b``'s (least squares)."""
    za, zb = _complex(a), _complex(b)
    ca, cb = za.mean(), zb.mean()
    s = complex(np.sum((zb - cb) * np.conj(za - ca)) / max(1e-9, float(np.sum(np.abs(za - ca) ** 2))))
    return s, cb - s * ca


def _root(s: complex, t: complex, m: int) -> tuple[complex, complex]:
    """The similarity that, done ``m`` times, is z -> s z + t."""
    r = s ** (1.0 / m) if s != 0 else 0j
    total = sum(r ** k for k in range(m))
    return r, t / total


def _power(s: complex, t: complex, k: int) -> tuple[complex, complex]:
    """z -> s z + t done ``k`` times (undone for negative ``k``)."""
    if k < 0:
        s, t = 1 / s, -t / s
        k = -k
    out_s, out_t = 1 + 0j, 0j
    for _ in range(k):
        out_s, out_t = s * out_s, s * out_t + t
    return out_s, out_t


def lies_at(place: np.ndarray, card: np.ndarray) -> bool:
    """True if ``card`` (corners from either index corner) lies at ``place`` (index corner first): its index corner on
    the same side lies within ``LAYOUT_FREE`` of a short side of the place's. (A square's next card has its index
    corner beside the far index corner of the card before it: two cards.)"""
    across = place[1] - place[0]
    turned = card if float(across @ (card[1] - card[0])) >= 0 else card[[2, 3, 0, 1]]
    return bool(np.linalg.norm(turned[0] - place[0]) < LAYOUT_FREE * _short(place))


def pattern_places(read: list[np.ndarray], book_size: int = 4, both: list[bool] | None = None) -> list[np.ndarray]:
    """Corners (index corner first) of the places where the other cards of a pattern laid as ``read`` (the corners of
    two or three cards of one rank read surely, index corner first, a card read at an index corner first) must lie,
    those that most pairs of cards read agree on first, then the nearest; none where a card read lies (``lies_at``).
    ``both``: for each card read, whether it was read at both its index corners (its far one read, not guessed)."""
    # each read from its index corner on the side most of them were read at (a fan's or a pile's top card may be read
    # at its far index, or its outline start there, where the cards under it hide theirs); one lying otherwise is no
    # part of the pattern. A card read at one index only is turned to its other side by a corner guessed from its
    # size (a fan's card at a twentieth of a card off): the side that turns fewest such cards is taken, then the most
    # read at
    both = list(both) if both is not None else [False] * len(read)
    across = read[0][1] - read[0][0]
    other_side = [float(across @ (b[1] - b[0])) < 0 for b in read[1:]]
    guessed_here = sum(o and not b for o, b in zip(other_side, both[1:]))  # guessed were read[0]'s side kept
    guessed_there = (not both[0]) + sum(not o and not b for o, b in zip(other_side, both[1:]))
    if guessed_there < guessed_here or guessed_there == guessed_here and sum(other_side) * 2 > len(read) - 1:
        read = [read[0][[2, 3, 0, 1]]] + list(read[1:])
    read = [read[0]] + [b for b in (same_way(read[0], b) for b in read[1:]) if b is not None]
    if not 2 <= len(read) < book_size:
        return []
    places: list[tuple[float, np.ndarray]] = []
    for i, a in enumerate(read):
        for b in read[i + 1:]:
            b = same_way(a, b)
            if b is None:
                continue
            s, t = _step(a, b)
            if abs(abs(s) - 1) > LAYOUT_SIZES:
                continue  # a pattern's cards are one size
            za = _complex(a)
            for m in range(1, LAYOUT_STEPS + 1):
                g = _root(s, t, m)
                for k in range(m - LAYOUT_STEPS, LAYOUT_STEPS + 1):
                    if k in (0, m):
                        continue
                    ks, kt = _power(*g, k)
                    places.append((min(abs(k), abs(k - m)) + 0.1 * m, _points(ks * za + kt)))
    if len(read) == 3:  # a square: the fourth corner of the parallelogram each card of the three makes with the others
        for i in range(3):
            a, b, c = read[i], read[(i + 1) % 3], read[(i + 2) % 3]
            b, c = same_way(a, b), same_way(a, c)
            if b is not None and c is not None:
                places.append((0.5, (b + c - a).astype(np.float32)))
    if not places:
        return []
    # (lies_at, for every place and card read at once)
    stack = np.array([c for _, c in places], np.float32)
    across = stack[:, 1] - stack[:, 0]
    taken = np.zeros(len(places), bool)
    for card in read:
        same = across @ (card[1] - card[0]) >= 0
        corner = np.where(same[:, None], card[0], card[2])
        taken |= np.linalg.norm(corner - stack[:, 0], axis=1) < LAYOUT_FREE * np.linalg.norm(across, axis=1)
    places = [p for p, t in zip(places, taken) if not t]
    if not places:
        return []
    # a place the steps between several pairs of cards read put a card at is likelier than one a single pair does
    index = np.array([c[0] for _, c in places], np.float32)
    near = np.linalg.norm(index[:, None] - index[None], axis=2) < LAYOUT_AGREE * _short(read[0])
    support = near.sum(axis=1)
    out: list[int] = []
    for j in sorted(range(len(places)), key=lambda j: (-support[j], places[j][0])):
        if not any(near[j, o] for o in out):
            out.append(j)
    return [places[j][1] for j in out]
