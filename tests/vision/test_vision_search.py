"""How far the search for partly seen cards goes: the frame's card size, once cards read surely give it, bounds the
sizes hung and read (time per frame), without losing the cards it finds."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tabletop.cards import Card
from tabletop.vision.finder import DECK_SPREAD, CornerCandidate, find_cards_and_corners, order_quad
from tabletop.vision.pipeline import INDEX_FROM_FRAME, _far_index, _long_side, _partly_hidden, _read_corners
from tabletop.vision.reader import Reader, shipped_reader
from tabletop.vision.render import render_scene

from vision_helpers import one_card_scenes


def _hung(corners: np.ndarray, size: float, confirm: bool = False) -> CornerCandidate:
    """A card hypothesis hung on ``corners[0]``, ``size`` times the card at ``corners`` (``confirm``: a size the finder
    only guessed)."""
    return CornerCandidate((corners[0] + size * (corners - corners[0])).astype(np.float32), (0, 0, 1, 1), -1, confirm)


def _read_surely(scene, reader: Reader) -> tuple[CornerCandidate, np.ndarray]:
    """The scene's one card hung right (read at both corners, so it gives the frame's card size) and its far index
    corner's quad (no hypothesis of the same index)."""
    quad = order_quad(scene.cards[0].quad)
    right = _hung(quad, 1.0)
    assert _read_corners(scene.image, right.corners, reader).corners_read == 2
    return right, quad[[2, 3, 0, 1]]


def test_a_size_only_guessed_far_off_a_card_read_surely_is_not_read() -> None:
    # the finder's ladder hangs some 14 sizes on each corner where no whole card gives the deck's size; once a card
    # is read surely at both corners, a guess more than a camera's tilt off its size is no card of this deck
    rng = np.random.default_rng(61)
    reader = shipped_reader()
    for card, scene in one_card_scenes(rng, 6, perspective=0.05):
        right, far = _read_surely(scene, reader)
        near, off = _hung(far, 1.2, confirm=True), _hung(far, 1.1 * DECK_SPREAD[1], confirm=True)
        trace: list = []
        _partly_hidden(scene.image, [off, near, right], None, reader, trace)
        read = [h.corners.tobytes() for h in trace]
        assert right.corners.tobytes() in read and near.corners.tobytes() in read
        assert off.corners.tobytes() not in read
        # with no card read surely there is no frame's size to go by: every guess is read
        trace = []
        _partly_hidden(scene.image, [off, near], None, reader, trace)
        assert off.corners.tobytes() in [h.corners.tobytes() for h in trace]


def test_an_index_guess_far_larger_than_the_frame_s_cards_is_not_read() -> None:
    # a card hung on an index found by its ink alone takes its size from its glyph: hung 1.5-1.67 times the frame's
    # card size it is mostly a big pip over another in a card's middle, and is not read; a corner's edges' guess of that
    # size is (a camera's whole tilt); with no card read surely at both corners, both are read
    rng = np.random.default_rng(64)
    reader = shipped_reader()
    for card, scene in one_card_scenes(rng, 4, perspective=0.05):
        right, far = _read_surely(scene, reader)
        large = 0.5 * (INDEX_FROM_FRAME + DECK_SPREAD[1])
        index_large, index_near = replace(_hung(far, large), by_index=True), replace(_hung(far, 1.2), by_index=True)
        edges_large = _hung(far, large)

        def read_with(cand: CornerCandidate, frame: bool = True) -> bool:
            trace: list = []
            _partly_hidden(scene.image, [right, cand] if frame else [cand], None, reader, trace)
            return cand.corners.tobytes() in [h.corners.tobytes() for h in trace]

        assert not read_with(index_large)
        assert read_with(index_near) and read_with(edges_large) and read_with(index_large, frame=False)


class _Counting(Reader):
    """The shipped reader, counting the far indices it is asked to read (each a size tried)."""

    def __init__(self) -> None:
        shipped = shipped_reader()
        super().__init__(shipped.rank_model, shipped.suit_model, shipped.verifier)
        self.tries = 0

    def read_first_naming(self, *args, **kwargs):
        self.tries += 1
        return super().read_first_naming(*args, **kwargs)


def test_a_far_index_is_looked_for_from_the_frame_s_card_size() -> None:
    # a card read at one index, hung too small: its far index is looked for at the sizes round the one hung, nearest
    # first; where the frame's card size is known, nearest it first, and only near it
    rng = np.random.default_rng(62)
    reader = _Counting()
    found = fewer = 0
    for card, scene in one_card_scenes(rng, 8, perspective=0.05):
        quad = order_quad(scene.cards[0].quad)
        small = _hung(quad, 0.84)
        first = _read_corners(scene.image, small.corners, reader)
        if first.rank is not card.rank or first.suit is None:
            continue
        short = float(np.linalg.norm(quad[1] - quad[0]))
        reader.tries = 0
        alone = _far_index(scene.image, small.corners, first, reader)
        tries_alone, reader.tries = reader.tries, 0
        at_frame = _far_index(scene.image, small.corners, first, reader, short)
        tries_at_frame, reader.tries = reader.tries, 0
        assert (alone is None) == (at_frame is None)
        if at_frame is not None:
            found += 1
            assert at_frame[0].rank is card.rank
            assert tries_at_frame <= tries_alone
            fewer += tries_at_frame < tries_alone  # (where its margins do not measure it: the first size tried)
        # a frame whose cards are twice this size: no size round the one hung is looked at (a card measured by its
        # margins is, first: 1 try)
        _far_index(scene.image, small.corners, first, reader, 2 * short)
        assert reader.tries <= 1
    assert found >= 6 and fewer >= 2, f"found {found}, sooner {fewer}"  # 8, 2


def test_no_card_is_hung_inside_a_whole_card_read_surely_nor_off_its_size() -> None:
    # the pipeline reads the cards hung inside a whole card only where that card reads weakly (it may be several
    # cards), and keeps the cards of one deck's sizes only (``_one_deck``): inside one read surely they are not hung,
    # and of a size off the deck's (all read surely here) only where it decides which sizes are kept
    rng = np.random.default_rng(63)
    deck = Card.deck()
    under = off = off_sure = 0
    for _ in range(8):
        chosen = [deck[i] for i in rng.choice(52, 4, replace=False)]
        scene = render_scene(chosen, rng, overlap=0.3)
        quads, partial = find_cards_and_corners(scene.image)
        if not quads:
            continue
        deck_long = float(np.median([_long_side(q.corners) for q in quads]))

        def of_deck(c: CornerCandidate) -> bool:
            return DECK_SPREAD[0] * 0.98 <= _long_side(c.corners) / deck_long <= DECK_SPREAD[1] * 1.02

        under += sum(c.under >= 0 for c in partial)
        off += sum(not of_deck(c) for c in partial)
        quads_sure, partial_sure = find_cards_and_corners(scene.image, settled=lambda quad: True)
        assert len(quads_sure) == len(quads)
        assert all(c.under < 0 for c in partial_sure)
        off_sure += sum(not of_deck(c) for c in partial_sure)
        # those of the deck's sizes are hung as before
        assert ([c.corners.tobytes() for c in partial_sure if of_deck(c)]
                == [c.corners.tobytes() for c in partial if c.under < 0 and of_deck(c)])
    assert under > 0 and off > 0, (under, off)  # without ``settled`` both are hung
    assert off_sure < off / 2, (off_sure, off)
