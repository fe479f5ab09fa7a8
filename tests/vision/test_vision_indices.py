"""Cards found by their index corners (``tabletop.vision.indices``), whatever the table behind them."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tabletop.cards import Card, Rank
from tabletop.vision import see
from tabletop.vision.finder import CardQuad, warp_card
from tabletop.vision.glyphs import FIRST_INDEX_VIEW
from tabletop.vision.indices import find_indices
from tabletop.vision.reader import shipped_reader
from tabletop.vision.render import CARD_H, CARD_W, random_style, render_card

from vision_helpers import CARDS_DEV


def _card_on(table: tuple[int, int, int], card: Card, angle: float, seed: int,
             size: tuple[int, int] = (480, 640)) -> tuple[np.ndarray, np.ndarray]:
    """One rendered card, 150 pixels wide, turned ``angle`` radians, on an even table of colour ``table`` (BGR);
    the frame and the card's corners (clockwise from its top left)."""
    rng = np.random.default_rng(seed)
    h, w = size
    image = np.empty((h, w, 3), np.uint8)
    image[:] = table
    image = np.clip(image + rng.normal(0, 3, image.shape), 0, 255).astype(np.uint8)
    width = 150.0
    corners = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32) * (width / CARD_W)
    corners -= corners.mean(axis=0)
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]], np.float32)
    corners = (corners @ turn.T + [w / 2, h / 2]).astype(np.float32)
    face = render_card(card, random_style(rng), rng)
    matrix = cv2.getPerspectiveTransform(np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32),
                                         corners)
    warped = cv2.warpPerspective(face, matrix, (w, h), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((CARD_H, CARD_W), 255, np.uint8), matrix, (w, h))
    image[mask > 0] = warped[mask > 0]
    return image, corners


def test_an_index_is_found_at_its_cards_corner_the_right_way_up() -> None:
    # a light wooden tone: as pale as the card's paper, so no outline is needed to find it
    reader = shipped_reader()
    for k, angle in enumerate((0.0, 0.6, 1.6, 3.0, -2.2)):
        card = Card(Rank.SEVEN, Card.deck()[(k % 4) * 13].suit)
        image, corners = _card_on((175, 205, 225), card, angle, seed=k)
        side = float(np.linalg.norm(corners[1] - corners[0]))
        found = [c for c in find_indices(image) if np.linalg.norm(c.corners[0] - corners[0]) < 0.3 * side
                 or np.linalg.norm(c.corners[0] - corners[2]) < 0.3 * side]
        assert found, f"no index found at the card's corners, turned {angle}"
        read = [reader.read_first_and_both(warp_card(image, CardQuad(c.corners), FIRST_INDEX_VIEW),
                                           lambda c=c: warp_card(image, CardQuad(np.roll(c.corners, 2, axis=0)),
                                                                 FIRST_INDEX_VIEW))[0] for c in found]
        assert any(r.rank is Rank.SEVEN for r in read), (angle, read)


def test_no_index_is_hung_on_an_empty_table() -> None:
    rng = np.random.default_rng(3)
    for colour in ((175, 205, 225), (40, 110, 30), (230, 230, 232)):
        image = np.clip(np.full((480, 640, 3), colour, np.float32) + rng.normal(0, 6, (480, 640, 3)), 0, 255)
        assert find_indices(image.astype(np.uint8)) == []


@pytest.mark.parametrize("deal", ("deal3", "deal4", "deal5"))
def test_the_fanned_cards_of_a_real_deal_are_read_by_their_indices(deal: str) -> None:
    # real phone photos of four fanned hands (cork, a black mat, a printed box): most cards show only their index.
    # Before the index finder: 6, 5 and 0 cards read; with it 24, 20 and 23 (of about 50 showing)
    path = CARDS_DEV / "bidly" / "deals" / f"{deal}-md-sq.jpg"
    if not path.is_file():
        pytest.skip(f"the bidly deal photos are not at {path.parent}")
    named = [(d.rank, d.suit) for d in see(cv2.imread(str(path))) if d.rank is not None and d.suit is not None]
    assert len(set(named)) >= 15, named
    assert len(named) == len(set(named)), "a card of the deck read twice"
