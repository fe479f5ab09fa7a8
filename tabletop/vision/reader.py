"""Read a card's rank (and suit) from the indices in both of its corners, with a confidence."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from tabletop.cards import Rank, Suit
from tabletop.errors import SetupError
from tabletop.vision.boxes import intersection
from tabletop.vision.glyphs import (CornerGlyphs, card_corners, corner_glyphs, first_corner, float_mean,
                                   look_at_corner, pip_shape_features, rank_features, suit_features)
from tabletop.vision.lone import index_features
from tabletop.vision.mlp import Mlp
from tabletop.vision.store import PIP_SHAPE_FILE, RANK_FILE, SUIT_FILE, VERIFIER_FILE, model_dir

__all__ = ["Reading", "Reader", "shipped_reader"]

_RANK_SYMBOLS = frozenset(rank.symbol for rank in Rank)
_ONE_CORNER_PENALTY = 0.8
"""A card read at one index corner only is believed at most this much (never sure enough for a book): a single
corner can be a fleck or a picture that looks like an index, and a whole card's view with one index unread a
doubtful fit (two cards of a fan taken for one). Raising a lone corner's probability to a power instead (0.95 ->
0.90) let books in a row confirm from one corner each, but read flecks beside a rendered card surely (a 17-pixel
blob as the five of clubs at p = 0.96, as sure as the true corners): two indices that agree stay the only sure
reading unless the index verifier (``lone``) tells the lone corner from a fleck: see ``LONE_VERIFIED``."""
LONE_VERIFIED = 0.95
"""A card read at one index corner, rank glyph over suit pip, is believed as much as its rank reads (not capped)
when the index verifier (``lone``, built from the pipeline's own hypotheses on the training composites) gives the
reading at least this probability of being right (the build's check on 300 new training composites, the verifier
built from 1200: at 0.95, 3233 of 4127 indices read right passed and 2 of 3063 other corners did; at 0.9, 3; its
manifest keeps the counts)."""
LONE_SUIT_SURE = 0.9
"""... and when its suit pip reads at least this surely: the verifier asks whether the rank is right, and a book's
cards must name four suits (training composites: of 90 lone indices verified, 3 suits were wrong, read at 0.52-0.88;
none of the 83 read at 0.9 or more)."""
LONE_PIP_TO_RANK = 0.95
"""... and when its rank glyph stands taller than its pip by more than this: an index prints the rank over a smaller
pip (training composites: 99% of true index reads at 0.91 or less, a quarter of the false ones above 0.95, such as
the lower loop of a washed-out 8 read as an ace over its heart)."""
_WORTH_VERIFYING = 0.8
"""A lone corner whose rank reads less surely than this (``books.SURE``) is capped without asking the verifier."""
_SECOND_LOOK = 0.5
"""A corner flooded with ink (``glyphs.FLOODED``) whose first look reads no rank, or one less surely than this (no
card is read from it: ``pipeline``'s bar), is looked at again with its paper lit evenly; a rank read surely at the
first look is never second-guessed (a webcam's blurred big pips look like a shadow's rim)."""
_LUMA_LOOK = 0.8
"""A corner whose rank reads at least ``_SECOND_LOOK`` but less surely than this (``books.SURE``) is looked at again in
its brightness (``Reader._in_luma``: a JPEG keeps colour at half resolution, and the lowest channel, where ink is
found, mixes it in), and lifted where that names the same rank more surely. Composites from a webcam, every index that
shows read at its true corners: training tables 2581 -> 2676 of 3663 read surely right, 13 -> 13 surely wrong; held-out
tables 2494 -> 2572 of 3607, 15 -> 15 (HD: 1750 -> 1753 of 1823 and 1757 -> 1769 of 1845, none more wrong); no rank
changes. Lifting corners read under 0.5 too made new
reads on no card (Edje, composites)."""
_LUMA_CLIPPED = 0.3
"""... unless over this share of the corner is clipped white (``_CLIPPED``): there the brightness loses ink that the
lowest channel keeps (training composites, webcam, before the verifier's gate: of the corners lifted over ``_LUMA_LOOK``,
those over 0.3 clipped were 59 right and 5 wrong; under it, 267 and 2)."""
_CLIPPED = 250
"""A channel this bright or more is clipped white."""
_LUMA_VERIFIED = LONE_VERIFIED
"""... and only where the lifted index passes the index verifier (``lone``) as an index read alone must, and names
its suit (``_LUMA_SUIT``): print on an envelope (Edje IMG_2481) read as a 10 at 0.71 was lifted to 0.77, verified at
0.15, and became a read on no card; a held-out webcam jack's blurred corner read as a 9 at 0.75 was lifted to 0.9,
verified at 0.82. Webcam composites at their true corners, lifted over ``_LUMA_LOOK``: training 128 right and 2
wrong -> 95 and 0, held-out 116 and 0 -> 78 and 0 (verified at 0.5: 128 and 2, 116 and 0)."""
_LUMA_SUIT = 0.6
"""The lifted index's pip read at least this surely (the bar at which ``Reader._combine`` names a card's suit)."""
_NO_SUIT = 0.85
"""A card's index is a rank over a suit pip: a reading that names no suit (no pip found under the rank, or none
read surely) is less sure by this factor (a fleck of a table read as a "2" at 0.89 with no pip under it)."""
BLACK_PIP = 0.5
"""A pip the suit reader gives clubs and spades together at least this much is split between them again with its
shape (``Reader.pip_shape``): the suit reader's HOG of a webcam's blurred pip tells black from red but not a club
from a spade (training composites, webcam, black pips read under a rank read right: 9% named the other black suit,
12% neither surely)."""
BLACK_SPLIT_SURE = 0.05
"""... unless the suit reader splits it surely, giving one of the two less than this share: the pip-shape reader knows
one deck's print (the bidly faces), and on another (the Edje photos) it took clubs read surely for spades, leaving
them unsure."""


@dataclass(frozen=True)
class Reading:
    """What one card view says: rank and suit (None if unreadable) and how sure the reader is (0..1)."""

    rank: Rank | None
    suit: Suit | None
    confidence: float
    corners_read: int = 0
    agree: bool = True  # every corner read names the same rank (two that differ: the view is not one card)
    glyph: tuple[int, int, int, int] | None = None  # the first index's rank glyph (x, y, w, h) in its corner crop


class Reader:
    """Reads standard card views with the rank and suit perceptrons built by ``tabletop.vision.build``."""

    def __init__(self, rank_model: Mlp, suit_model: Mlp, verifier: Mlp | None = None,
                 pip_shape: Mlp | None = None) -> None:
        self.rank_model = rank_model
        self.suit_model = suit_model
        self.verifier = verifier  # tells a lone index from a fleck (``lone``); None: a lone corner stays capped
        self.pip_shape = pip_shape  # tells a club's pip from a spade's by its shape; None: the suit reader alone

    @classmethod
    def load(cls, folder: Path | None = None) -> "Reader":
        """Load the reader from ``folder`` (default: the shipped ``models/cards/``).

        :raises SetupError: if the model files are missing or damaged.
        """
        folder = folder or model_dir()
        try:
            verifier = Mlp.load(folder / VERIFIER_FILE) if (folder / VERIFIER_FILE).is_file() else None
            pip_shape = Mlp.load(folder / PIP_SHAPE_FILE) if (folder / PIP_SHAPE_FILE).is_file() else None
            return cls(Mlp.load(folder / RANK_FILE), Mlp.load(folder / SUIT_FILE), verifier, pip_shape)
        except (OSError, KeyError, ValueError) as error:
            raise SetupError(
                f"the card reader's files are missing or damaged in {folder}: install tabletop again "
                f"(./start, or pip install . in the checkout), or rebuild them in a checkout with "
                f"`python -m tabletop.vision.build`; `tabletop models verify` checks them",
                code="no-vision-model",
            ) from error

    def read(self, view: np.ndarray) -> Reading:
        """Read one standard (``VIEW_H`` × ``VIEW_W``) card view, at both index corners; at its surer index alone where
        that reads surely and the other names the same rank less surely (``_surer_alone``: the reading says one corner
        read, so the pipeline still looks inside the outline, which may hold several cards)."""
        first, far = (self._corner(c) for c in card_corners(view))
        both = self._combine([first, far])
        if both.corners_read == 2 and both.agree:
            for one, other in sorted(((first, far), (far, first)), key=lambda pair: -float(pair[0].rank.max())):
                if self._surer_alone(one, other, both):
                    return self._combine([one])
        return both

    def read_first_and_both(self, view: np.ndarray, turned: Callable[[], np.ndarray] | None = None,
                            ) -> tuple[Reading, Reading]:
        """The reading of the top-left index alone (a partly hidden card, whose other corner may show another
        card) and, if that names a rank, ``read(view)`` (else the same reading again), each corner read once.

        ``view`` may be the view's top left only (``FIRST_INDEX_VIEW``), and ``turned`` then gives the card's
        view turned half round, or its top left only: the far index, upright. It is warped only when the first
        index names a rank (most hypotheses' first index does not).
        """
        first = self._corner(first_corner(view))
        alone = self._combine([first])
        if first is None:
            return alone, alone
        far_corner = card_corners(view)[1] if turned is None else first_corner(turned())
        glyph = first.glyphs.rank_box
        return replace(alone, glyph=glyph), replace(self._combine([first, self._corner(far_corner)]), glyph=glyph)

    def read_first_or_both(self, view: np.ndarray, turned: Callable[[], np.ndarray]) -> Reading:
        """``read_first_and_both``'s reading of both indices where the first names a rank and both name it
        (``corners_read`` 2, ``agree``), else its reading of the first alone: the same readings, but the index
        verifier (``verified``) is asked about a lone first index only when its reading is the one returned."""
        first = self._corner(first_corner(view))
        if first is None:
            return self._combine([first])
        glyph = first.glyphs.rank_box
        far = self._corner(first_corner(turned()))
        both = self._combine([first, far])
        if both.corners_read == 2 and both.agree and both.rank is self._rank_of(first) \
                and not self._surer_alone(first, far, both):
            return replace(both, glyph=glyph)
        return replace(self._combine([first]), glyph=glyph)

    def _surer_alone(self, first: "_Corner", far: "_Corner", both: Reading) -> bool:
        """True if a first index read alone is believed more than with its far index (``both``, naming the same
        rank less surely): the first reads surely alone (``_trusted_alone``), and the two pips together name its suit
        at least ``LONE_SUIT_SURE``. A far index that agrees with the first never makes a card less sure than one
        naming another rank would (the first alone is then returned too): at webcam size one index is often blurred,
        and the mean of the two held a sure index below a book's bar (training composites, webcam, read at their true
        corners: 900 -> 934 of 1516 cards read surely right, the same 12 read surely wrong). The reading returned is
        the first's alone (one corner read), not the pair's lifted: a far index read weakly is no proof of the card's
        size (lifting the pair lost an Edje queen, hung at its index across the jack lying on it: the far corner, on the
        jack, read Q at about 0.6, and the pair read surely as a whole card of the wrong size)."""
        if both.confidence >= _WORTH_VERIFYING or both.suit is None:
            return False
        first = first if first.alone is None else first.alone  # an index read alone: its colour look
        pips = [corner.suit for corner in (first, far) if corner.suit is not None]
        together = float_mean(np.asarray(pips), axis=0)
        if self.suit_model.classes[int(np.argmax(together))] != both.suit.value or together.max() < LONE_SUIT_SURE:
            return False
        rank = int(np.argmax(np.where(self._is_rank, first.rank, -1.0)))
        return self._trusted_alone(first, float(first.rank[rank]), both.suit)

    def read_first_naming(self, view: np.ndarray, turned: Callable[[], np.ndarray], rank: Rank,
                          ) -> tuple[Reading, Reading] | None:
        """``read_first_and_both(view, turned)`` where its first index names ``rank``, else None (the second is
        then not warped nor read). The first alone is read for its rank and suit only: its confidence is left
        unverified (``verified`` is not asked; a lone corner's cap is applied as if it failed), so only its rank and
        suit may be used."""
        first = self._corner(first_corner(view), naming=rank)
        if first is None:
            return None
        glyph = first.glyphs.rank_box
        alone = replace(self._combine([first], verify=False), glyph=glyph)
        return alone, replace(self._combine([first, self._corner(first_corner(turned()))]), glyph=glyph)

    def _rank_of(self, corner: "_Corner") -> Rank:
        """The rank one corner read names (``_combine``'s rank of it alone)."""
        return self._rank_named(corner.rank)

    def _rank_named(self, probs: np.ndarray) -> Rank:
        """The rank the rank probabilities of one corner name."""
        return Rank.from_symbol(self.rank_model.classes[int(np.argmax(np.where(self._is_rank, probs, -1.0)))])

    @functools.cached_property
    def _is_rank(self) -> np.ndarray:
        """Which of the rank model's classes are ranks (the others are pips and marks it tells from ranks)."""
        return np.array([c in _RANK_SYMBOLS for c in self.rank_model.classes])

    def _corner(self, corner: np.ndarray, naming: Rank | None = None) -> "_Corner | None":
        """Rank and suit probabilities of one upright corner crop, or None if it shows no rank (or, with ``naming``,
        if it names another rank: its suit is then not read)."""
        glyphs, flooded = look_at_corner(corner)
        probs = self._rank_probabilities(glyphs)
        if flooded and (probs is None or float(probs.max()) < _SECOND_LOOK or glyphs.suit is None):
            # a second look with its paper lit evenly (a shadow across the index): kept if it reads a rank more surely,
            # or, where the rank was read but its pip was lost in the shade, if it finds the pip under the same rank
            evened = corner_glyphs(corner, evened=True)
            again = self._rank_probabilities(evened)
            if again is not None and (probs is None or float(probs.max()) < _SECOND_LOOK):
                if probs is None or float(again.max()) > float(probs.max()):
                    glyphs, probs = evened, again
            elif again is not None and evened.suit is not None and _same_glyph(glyphs, evened) \
                    and int(np.argmax(again)) == int(np.argmax(probs)):
                glyphs = replace(glyphs, suit=evened.suit, suit_box=evened.suit_box)
        if probs is not None and (float(probs.max()) < _SECOND_LOOK or glyphs.suit is None):
            glyphs, probs = self._at_index_contrast(corner, glyphs, probs)  # a webcam's faint rank
        if probs is None or (naming is not None and self._rank_named(probs) is not naming):
            return None
        read = self._with_suit(corner, glyphs, probs)
        if _SECOND_LOOK <= float(probs.max()) < _LUMA_LOOK:
            lit, lifted = self._in_luma(corner, glyphs, probs)  # a webcam's strokes, run together in JPEG's colour
            if lifted is not probs:
                again = self._with_suit(corner, lit, lifted)
                if again.suit is not None and float(again.suit.max()) >= _LUMA_SUIT \
                        and self.verified(again) >= _LUMA_VERIFIED:
                    return again._replace(alone=read)
        return read

    def _with_suit(self, corner: np.ndarray, glyphs: CornerGlyphs, probs: np.ndarray) -> "_Corner":
        """One corner read: its rank probabilities ``probs`` and its pip's suit read from ``glyphs``."""
        suit = suit_features(glyphs)
        if suit is None:
            return _Corner(probs, None, corner, glyphs, None)
        read = self.suit_model.probabilities(suit)[0]
        return _Corner(probs, self._black_split(read, corner, glyphs), corner, glyphs, read)

    def _black_split(self, suit: np.ndarray, corner: np.ndarray, glyphs: CornerGlyphs) -> np.ndarray:
        """The suit probabilities ``suit`` of a corner's pip, with what they give clubs and spades together (at least
        ``BLACK_PIP``) split between the two by the mean of the suit reader's split and the pip-shape reader's
        (``pip_shape_features``); as they are with no pip-shape reader, or a pip read red."""
        clubs, spades = self._black
        black = float(suit[clubs] + suit[spades])
        if self.pip_shape is None or black < BLACK_PIP:
            return suit
        read = float(suit[spades]) / black
        if not BLACK_SPLIT_SURE < read < 1.0 - BLACK_SPLIT_SURE:
            return suit
        shape = self.pip_shape.probabilities(pip_shape_features(corner, glyphs.suit_box))[0]
        share = 0.5 * (read + float(shape[self.pip_shape.classes.index("spades")]))
        split = suit.copy()
        split[clubs], split[spades] = black * (1.0 - share), black * share
        return split

    @functools.cached_property
    def _black(self) -> tuple[int, int]:
        """The suit reader's outputs for clubs and spades."""
        return self.suit_model.classes.index(Suit.CLUBS.value), self.suit_model.classes.index(Suit.SPADES.value)

    def _at_index_contrast(self, corner: np.ndarray, glyphs: CornerGlyphs, probs: np.ndarray,
                           ) -> tuple[CornerGlyphs, np.ndarray]:
        """``glyphs`` and ``probs`` of a corner whose rank was read unsurely or with no pip under it, or those of a
        look at its index's own contrast (``look_at_corner(index_contrast=True)``: a webcam's faint rank strokes,
        lost against a big pip's black) where that finds a rank over a pip read more surely, or the same rank where
        the first found no pip. Another rank than the first look's overrules it only when read at ``_SECOND_LOOK`` or
        more: a held-out webcam 10 read at 0.28 had become a 6 at 0.34, unsure either way but wrong. Corners that
        read no rank at all (most hypotheses: the table, a picture) are not looked at again (the frame's time)."""
        again = look_at_corner(corner, index_contrast=True)[0]
        if again is None or again.suit is None:
            return glyphs, probs
        read = self._rank_probabilities(again)
        if read is None:
            return glyphs, probs
        same = int(np.argmax(read)) == int(np.argmax(probs))
        if not same and float(read.max()) < _SECOND_LOOK:
            return glyphs, probs
        if float(read.max()) > float(probs.max()) or (glyphs.suit is None and same):
            return again, read
        return glyphs, probs

    def _in_luma(self, corner: np.ndarray, glyphs: CornerGlyphs, probs: np.ndarray,
                 ) -> tuple[CornerGlyphs, np.ndarray]:
        """``glyphs`` and ``probs`` of a corner whose rank was read unsurely, or those of a look at its brightness
        (luma) where that finds the same rank over a pip and reads it more surely (with the first look's redness)."""
        if float(np.count_nonzero(corner.max(axis=2) >= _CLIPPED)) > _LUMA_CLIPPED * corner.shape[0] * corner.shape[1]:
            return glyphs, probs
        grey = cv2.cvtColor(corner, cv2.COLOR_BGR2GRAY)
        again = look_at_corner(cv2.merge((grey, grey, grey)))[0]
        if again is None or again.suit is None:
            return glyphs, probs
        read = self._rank_probabilities(again)
        if read is not None and int(np.argmax(read)) == int(np.argmax(probs)) and float(read.max()) > float(probs.max()):
            return replace(again, redness=glyphs.redness), read
        return glyphs, probs

    def _rank_probabilities(self, glyphs: CornerGlyphs | None) -> np.ndarray | None:
        """The rank model's probabilities for ``glyphs``, or None with no glyphs or where they name no rank (a pip
        where the index was missed)."""
        if glyphs is None:
            return None
        probs = self.rank_model.probabilities(rank_features(glyphs))[0]
        return probs if self.rank_model.classes[int(np.argmax(probs))] in _RANK_SYMBOLS else None

    def verified(self, corner: "_Corner") -> float:
        """The index verifier's probability that ``corner``'s reading is right (0 with no verifier or no pip)."""
        if self.verifier is None or corner.suit is None:
            return 0.0
        features = index_features(corner.image, corner.glyphs, corner.rank, corner.suit_read)
        return float(self.verifier.probabilities(features)[0][self.verifier.classes.index("right")])

    def _combine(self, read: list, verify: bool = True) -> Reading:
        """One reading from the corners read (None: no rank there). ``verify=False``: a lone corner's cap is
        applied without asking the index verifier (its rank and suit are the same either way)."""
        if sum(r is not None for r in read) == 1:
            read = [r if r is None or r.alone is None else r.alone for r in read]  # a lone index: its colour look
        rank_probs = [r.rank for r in read if r is not None]
        suit_probs = [r.suit for r in read if r is not None and r.suit is not None]
        if not rank_probs:
            return Reading(None, None, 0.0, 0)
        combined = float_mean(np.asarray(rank_probs), axis=0)
        is_rank = self._is_rank
        best = int(np.argmax(np.where(is_rank, combined, -1.0)))
        confidence = float(combined[best])
        rank = Rank.from_symbol(self.rank_model.classes[best])
        suit = None
        if suit_probs:
            suit_combined = float_mean(np.asarray(suit_probs), axis=0)
            suit_best = int(np.argmax(suit_combined))
            if suit_combined[suit_best] >= 0.6:
                suit = Suit(self.suit_model.classes[suit_best])
        if len(rank_probs) == 1:
            lone = next(r for r in read if r is not None)
            if not (verify and self._trusted_alone(lone, confidence, suit)):
                confidence *= _ONE_CORNER_PENALTY
        if suit is None:
            confidence *= _NO_SUIT
        agree = len({int(np.argmax(np.where(is_rank, p, -1.0))) for p in rank_probs}) == 1
        return Reading(rank, suit, round(confidence, 3), len(rank_probs), agree)

    def _trusted_alone(self, corner: "_Corner", confidence: float, suit: Suit | None) -> bool:
        """True if one corner read alone, its rank at ``confidence`` and the card's suit ``suit``, is believed as much
        as its rank reads: its rank read at least ``_WORTH_VERIFYING``, its own pip read as ``suit`` at least
        ``LONE_SUIT_SURE``, index-shaped (``_index_shaped``) and passed by the index verifier (``LONE_VERIFIED``)."""
        if suit is None or corner.suit is None or confidence < _WORTH_VERIFYING:
            return False
        own = int(np.argmax(corner.suit))
        return (self.suit_model.classes[own] == suit.value and float(corner.suit[own]) >= LONE_SUIT_SURE
                and _index_shaped(corner.glyphs) and self.verified(corner) >= LONE_VERIFIED)


def _same_glyph(a: CornerGlyphs, b: CornerGlyphs) -> bool:
    """True if two looks at one corner found its rank glyph in the same place (boxes overlapping over half)."""
    (_, _, aw, ah), (_, _, bw, bh) = a.rank_box, b.rank_box
    return intersection(a.rank_box, b.rank_box) > 0.5 * max(aw * ah, bw * bh)


def _index_shaped(glyphs: CornerGlyphs) -> bool:
    """True if the pip under the rank glyph is shorter than it (``LONE_PIP_TO_RANK``)."""
    return glyphs.suit_box is not None and glyphs.suit_box[3] < LONE_PIP_TO_RANK * glyphs.rank_box[3]


class _Corner(NamedTuple):
    """One corner read: rank probabilities, suit probabilities (None: no pip; a black pip's split between clubs and
    spades by its shape too, ``Reader._black_split``), the upright crop and its glyphs, and the suit reader's own
    probabilities (what the index verifier was built on)."""

    rank: np.ndarray
    suit: np.ndarray | None
    image: np.ndarray
    glyphs: CornerGlyphs
    suit_read: np.ndarray | None
    alone: "_Corner | None" = None  # read alone (no other index), the corner as its colour look read it


@functools.cache
def shipped_reader() -> Reader:
    """The shipped reader, loaded once."""
    return Reader.load()
