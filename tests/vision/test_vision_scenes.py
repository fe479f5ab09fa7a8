"""The scene compositor: deterministic, honest splits, exact labels."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop.cards import Rank
from tabletop.vision import scenes
from tabletop.vision.scenes import BOOK_LAYOUTS, HELD_OUT_FACES, TABLES, compose, table_names


def _need_faces() -> None:
    if not scenes.real_faces_available():
        pytest.skip(f"real card faces not found at {scenes.FACES_DIR} (put shared/data beside the checkout)")


def test_a_seed_fixes_every_pixel_and_label() -> None:
    a = compose(7, faces="rendered", camera="webcam", layout="scattered")
    b = compose(7, faces="rendered", camera="webcam", layout="scattered")
    assert np.array_equal(a.image, b.image)
    assert [(p.card, p.index_shows) for p in a.cards] == [(p.card, p.index_shows) for p in b.cards]
    assert all(np.array_equal(p.quad, q.quad) for p, q in zip(a.cards, b.cards))
    assert not np.array_equal(a.image, compose(8, faces="rendered", camera="webcam", layout="scattered").image)


def test_the_splits_hold_apart() -> None:
    train, held = set(table_names("train")), set(table_names("held_out"))
    assert train and held and not train & held and train | held == set(TABLES)
    assert {TABLES[n].family for n in held} >= {"wood", "cloth", "print", "felt", "cork", "paper"}
    assert {c.rank for c in HELD_OUT_FACES} == set(Rank) and len(HELD_OUT_FACES) == 13
    for seed in range(6):
        assert compose(seed, split="train", faces="rendered", camera="webcam").table in train
    with pytest.raises(ValueError):
        compose(0, split="test")


def test_real_face_splits() -> None:
    _need_faces()
    held, train = scenes.real_faces("held_out"), scenes.real_faces("train")
    assert set(held) == HELD_OUT_FACES and len(train) == 39 and not set(held) & set(train)
    face = held[next(c for c in HELD_OUT_FACES if c.rank is Rank.KING)]
    assert face.image.shape[:2] == face.mask.shape and face.mask[0, 0] < 64 and face.mask[100, 100] == 255


@pytest.mark.parametrize("layout", BOOK_LAYOUTS)
def test_a_book_layout_lays_four_of_a_rank_with_their_indices_showing(layout: str) -> None:
    _need_faces()
    c = compose(11, layout=layout, book=Rank.KING, camera="hd", count=2, light="even")
    kings = [p for p in c.cards if p.card.rank is Rank.KING]
    assert c.book_layout is Rank.KING and len(kings) == 4 and len({p.card.suit for p in kings}) == 4
    assert all(p.readable for p in kings) and c.books == (Rank.KING,)
    h, w = c.image.shape[:2]
    for p in c.cards:  # labels lie in the frame and are card shaped
        assert p.quad.shape == (4, 2)
        x, y, bw, bh = p.box
        assert -2 <= x and x + bw <= w + 2 and -2 <= y and y + bh <= h + 2


def test_a_fan_hides_the_far_index_of_every_card_but_the_last() -> None:
    c = compose(3, faces="rendered", layout="fanned", count=6, camera="hd", light="even")
    assert [p.index_shows[0] for p in c.cards] == [True] * 6  # the left index of each card shows
    assert not any(p.index_shows[1] for p in c.cards[:-1])  # the next card covers the bottom right one
    assert c.cards[-1].shown == pytest.approx(1.0, abs=0.02)
    assert all(p.shown < 0.9 for p in c.cards[:-1])


def test_cards_look_like_cards_on_the_table() -> None:
    """Paper is brighter than its index ink, and the card's pixels differ from the table beside it."""
    c = compose(5, faces="rendered", layout="scattered", count=3, camera="hd", light="even", table="baize")
    gray = c.image.mean(axis=2)
    for p in c.cards:
        top = (p.quad[0] + p.quad[1]) / 2
        x, y = (top + 0.04 * (p.quad[3] - p.quad[0])).astype(int)  # the paper margin under the top edge
        assert gray[y, x] > 120  # white card on dark felt
    assert float(np.median(gray)) < 90


def test_a_card_cut_off_by_the_frame_is_labelled_so() -> None:
    cut = []
    for seed in (4, 7, 13):
        c = compose(seed, faces="rendered", layout="scattered", camera="webcam", light="even")
        h, w = c.image.shape[:2]
        for p in c.cards:
            x, y, bw, bh = p.box
            if x < 0 or y < 0 or x + bw > w or y + bh > h:
                cut.append(p)
                assert p.shown < 0.97
            else:
                assert p.shown == pytest.approx(1.0, abs=0.02) and p.index_shows == (True, True)
    assert cut and not all(all(p.index_shows) for p in cut)


def test_scenes_and_labels_are_written_for_other_tools(tmp_path) -> None:
    import json

    assert scenes._main([str(tmp_path), "--count", "2", "--faces", "rendered", "--camera", "webcam"]) == 0
    rows = [json.loads(line) for line in (tmp_path / "labels.jsonl").read_text().splitlines()]
    assert [r["seed"] for r in rows] == [0, 1]
    for row in rows:
        assert (tmp_path / row["path"]).is_file() and row["table"] in TABLES
        for card in row["cards"]:
            assert len(card["quad"]) == 4 and card["rank"] in {r.symbol for r in Rank}


def test_things_on_the_table_leave_the_cards_as_they_were() -> None:
    bare = compose(3005, faces="rendered", camera="hd", clutter=False)
    busy = compose(3005, faces="rendered", camera="hd", clutter=True)
    assert bare.things == () and busy.things
    assert [p.card for p in bare.cards] == [p.card for p in busy.cards]
    assert all(np.allclose(p.quad, q.quad) for p, q in zip(bare.cards, busy.cards))
    assert not np.array_equal(bare.image, busy.image)
    alone = compose(3006, faces="rendered", camera="hd", layout="scattered", count=0, clutter=True)
    assert alone.cards == () and alone.things


def test_each_table_looks_like_what_it_is_called() -> None:
    """Light wood and paper are light, baize is dark, cork is orange-brown: over a few seeds each."""
    from tabletop.vision.tabletops import make_table

    def mean_hsv(name: str, seed: int) -> tuple[float, float, float]:
        import cv2

        top = make_table(name, np.random.default_rng(seed), 96, 128)
        h, s, v = cv2.cvtColor(top, cv2.COLOR_BGR2HSV).reshape(-1, 3).mean(axis=0)
        return float(h), float(s), float(v)

    for seed in range(4):
        assert mean_hsv("light_wood", seed)[2] > 160
        assert mean_hsv("paper", seed)[2] > 200 and mean_hsv("paper", seed)[1] < 60
        assert mean_hsv("linen", seed)[2] > 180
        assert mean_hsv("baize", seed)[2] < 90
        assert mean_hsv("dark_wood", seed)[2] < 150
        hue, sat, _ = mean_hsv("cork", seed)
        assert 5 < hue < 25 and sat > 80  # orange-brown (OpenCV hue is degrees / 2)
