"""The renderer: fixed seeds fix every pixel, and the truth matches what is drawn."""

from __future__ import annotations

import numpy as np

from tabletop.vision.render import CARD_H, CARD_W, HELD_OUT_FONTS, TRAIN_FONTS, random_style, render_card, render_scene

from vision_helpers import cards


def test_same_seed_same_pixels() -> None:
    a = render_scene(cards("7 of hearts", "king of clubs"), np.random.default_rng(42))
    b = render_scene(cards("7 of hearts", "king of clubs"), np.random.default_rng(42))
    assert np.array_equal(a.image, b.image)
    assert [t.card for t in a.cards] == [t.card for t in b.cards]


def test_card_face_has_ink_in_both_index_corners() -> None:
    rng = np.random.default_rng(0)
    face = render_card(cards("10 of spades")[0], random_style(rng), rng)
    assert face.shape == (CARD_H, CARD_W, 3)
    corner = face[: CARD_H // 5, : CARD_W // 4]
    opposite = face[-CARD_H // 5 :, -CARD_W // 4 :]
    assert corner.min() < 100 and opposite.min() < 100


def test_held_out_fonts_are_not_training_fonts() -> None:
    assert not set(HELD_OUT_FONTS) & set(TRAIN_FONTS)


def test_scene_truth_lies_inside_the_frame() -> None:
    scene = render_scene(cards("2 of clubs", "3 of clubs", "4 of clubs"), np.random.default_rng(9), size=(480, 640))
    assert scene.image.shape == (480, 640, 3)
    for truth in scene.cards:
        x, y, w, h = truth.box
        assert 0 <= x and 0 <= y and x + w <= 641 and y + h <= 481
