"""Fans: cards laid over each other so that each one underneath shows only the strip with its index."""

from __future__ import annotations

import cv2
import numpy as np

from tabletop.cards import Card
from tabletop.vision import see
from tabletop.vision.render import CARD_H, CARD_W, add_camera_effects, random_style, render_card, render_scene


def _fan(cards: list[Card], rng: np.random.Generator, step: float, drop: float = 0.0) -> tuple[np.ndarray, list[np.ndarray]]:
    """A rendered fan: each card laid over the one before, moved ``step`` of a card's width towards its right edge
    (and ``drop`` of its height down).

    Returns the frame and, per card, a mask of the part of it in view.
    """
    style = random_style(rng)
    image = render_scene([], rng, style=style, effects=0.0).image  # the table alone
    h, w = image.shape[:2]
    width = rng.uniform(0.22, 0.3) * w
    angle = rng.uniform(-0.35, 0.35) + (np.pi if rng.random() < 0.5 else 0.0)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]], np.float32)
    card = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32) * (width / CARD_W)
    fan_w = width * (1 + step * (len(cards) - 1))
    quads = []
    for k in range(len(cards)):
        turn = rng.uniform(-0.05, 0.05)  # the cards of a hand-held fan lie a few degrees apart
        tilt = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]], np.float32)
        placed = (card @ tilt.T + [k * step * width - fan_w / 2, (k * drop - 0.5) * width * CARD_H / CARD_W]) @ rot.T
        quads.append((placed + [w / 2, h / 2]).astype(np.float32))
    face_corners = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32)
    for card_, quad in zip(cards, quads):
        matrix = cv2.getPerspectiveTransform(face_corners, quad)
        warped = cv2.warpPerspective(render_card(card_, style, rng), matrix, (w, h), flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.full((CARD_H, CARD_W), 255, np.uint8), matrix, (w, h))
        shadow = cv2.GaussianBlur(mask, (0, 0), 2.0).astype(np.float32)[..., None] / 255.0
        alpha = mask.astype(np.float32)[..., None] / 255.0
        image = (image.astype(np.float32) * (1 - 0.35 * shadow) * (1 - alpha) + warped * alpha).astype(np.uint8)
    image = add_camera_effects(image, rng, 0.5)
    in_view = []
    for k, quad in enumerate(quads):
        region = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(region, quad.astype(np.int32), 255)
        for later in quads[k + 1 :]:
            cv2.fillConvexPoly(region, later.astype(np.int32), 0)
        in_view.append(region)
    return image, in_view


def _read_where_in_view(cards, in_view, detections) -> tuple[int, int, int]:
    """(cards, read right, read wrong and sure) counting only detections whose box centre lies
    on the part of their card in view."""
    right = wrong_sure = 0
    for card, region in zip(cards, in_view):
        here = [d for d in detections if region[min(region.shape[0] - 1, d.box[1] + d.box[3] // 2),
                                                min(region.shape[1] - 1, d.box[0] + d.box[2] // 2)] > 0]
        right += any(d.rank is card.rank for d in here)
        wrong_sure += sum(d.rank is not card.rank and d.confidence >= 0.8 for d in here)
    return len(cards), right, wrong_sure


def test_each_card_of_a_fan_is_read_where_it_is_in_view() -> None:
    # a detection's box centre must lie on the part of its card in view: a card underneath shows only its index strip
    rng = np.random.default_rng(41)
    deck = Card.deck()
    total = right = wrong_sure = 0
    for _ in range(16):
        cards = [deck[i] for i in rng.choice(52, int(rng.integers(2, 4)), replace=False)]
        image, in_view = _fan(cards, rng, float(rng.uniform(0.4, 0.55)))
        n, r, w = _read_where_in_view(cards, in_view, see(image))
        total, right, wrong_sure = total + n, right + r, wrong_sure + w
    # 34 of 41 when written; 29 when an underneath card was tried only at the corners of the paper's outline
    assert right / total >= 0.78, f"read {right} of {total}"
    assert wrong_sure == 0


def test_a_card_under_another_laid_a_little_lower_is_boxed_on_its_strip() -> None:
    # the card underneath shows a strip with its index and a sliver along its top: the strip is where it is in view
    rng = np.random.default_rng(43)
    deck = Card.deck()
    total = right = wrong_sure = 0
    for _ in range(20):
        cards = [deck[i] for i in rng.choice(52, 2, replace=False)]
        image, in_view = _fan(cards, rng, float(rng.uniform(0.45, 0.6)), float(rng.uniform(0.08, 0.15)))
        n, r, w = _read_where_in_view(cards, in_view, see(image))
        total, right, wrong_sure = total + n, right + r, wrong_sure + w
    # 38 of 40 when written; 34 when a sliver along the other card's edge counted as in view
    assert right / total >= 0.9, f"read {right} of {total}"
    assert wrong_sure == 0
