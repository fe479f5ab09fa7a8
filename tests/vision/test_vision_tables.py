"""Cards at a real family table: every held-out table, light, layout and camera, composited from the real
photos of the 52 faces (``tabletop.vision.scenes``) on tables no model was built or tuned on.

Non-book scenes use the 13 held-out faces (one of every rank); books need all four of a rank, so they use
all 52 (the reader is built from rendered faces and from the 39 other real faces on the training tables, so a book
holds three faces it has seen, on a table it has not). The floors are
per small group of scenes, below the bench's targets (97% recall, 99% precision over many scenes), so a
failure here is a real regression and not noise; a false book is never allowed.
"""

from __future__ import annotations

import pytest

from tabletop.cards import Card, Rank, Suit
from tabletop.vision import see
from tabletop.vision import scenes
from tabletop.vision.books import SURE, judge_book
from tabletop.vision.scenes import BOOK_LAYOUTS, LIGHTS, Composite, compose, table_names

from vision_helpers import score_cards

pytestmark = pytest.mark.skipif(not scenes.real_faces_available(),
                                reason=f"real card faces not found at {scenes.FACES_DIR} (shared/data beside the checkout)")

# Issue 11's targets that the card finder does not yet reach (about half the cards on the held-out tables in
# all). Not strict, since which groups pass moves with every change to the finder; a case that passes loses
# its mark, so it guards the gain: since the index-corner finder, five held-out tables and the row of cards on
# light tables; since the reader is built from real printing too, marble, cards in a row and the webcam at an
# angle, a hand passing over a book. The false-book tests carry no mark: they hold.
READ_NOW = ("light_wood", "linen", "tablecloth", "cork", "paper", "marble")
BOOKS_READ_NOW = ("book_row", "book_square", "book_pile")  # and the square of kings, live and in a phone photo: since
# cards are measured by their far index and a card-shaped outline read at one index is not taken for one card; the
# square and the pile live since a book is decided over frames by evidence and a pile's cards are told apart
LIGHTS_READ_NOW = ("even", "gradient", "dim")  # even and gradient since the eighth session (they passed marked: the
# marks are off); dim since a card's side is a step of a share of the light (finder.STEP_SHARE: 13 -> 14 of 15)
LAYOUTS_READ_NOW = ("row", "fanned")  # fanned since the twelfth session (indices searched beside read ones, a pip
# hanging two glyphs' indices)
PENDING = pytest.mark.xfail(strict=False, reason="issue 11: the card finder does not yet find cards on any table")


RECALL_FLOOR = 0.9
PRECISION_FLOOR = 0.97
HELD_OUT_TABLES = table_names("held_out")
LIGHT_TABLES = ("light_wood", "linen", "paper", "marble")
SEED = 5150


def _score(composites: list[Composite]) -> tuple[dict[str, int], list[str]]:
    """Per-card counts over the composites, and every false book a claim of any rank in view would confirm."""
    total: dict[str, int] = {}
    false = []
    for c in composites:
        detections = see(c.image)
        counts = score_cards([(p.card, p.quad, p.readable) for p in c.cards], detections)
        total = {k: total.get(k, 0) + v for k, v in counts.items()}
        for rank in {p.card.rank for p in c.cards} | {d.rank for d in detections if d.rank is not None}:
            if c.count(rank) < 4 and judge_book(rank, [detections]).verdict == "confirmed":
                false.append(f"seed {c.seed} {c.table} {c.layout}: {rank.plural}")
    return total, false


def _assert_floors(composites: list[Composite]) -> None:
    total, false = _score(composites)
    assert false == []
    assert total["cards"] > 0
    assert total["recalled"] >= RECALL_FLOOR * total["cards"], total
    assert total["correct"] >= PRECISION_FLOOR * total["ranked"], total


def _cards(seed: int, **options: object) -> Composite:
    return compose(seed, split="held_out", face_split="held_out", **options)  # type: ignore[arg-type]


@pytest.mark.parametrize("table", [t if t in READ_NOW else pytest.param(t, marks=PENDING) for t in HELD_OUT_TABLES])
def test_cards_are_read_on_every_table(table: str) -> None:
    _assert_floors([_cards(SEED + i, table=table, layout=layout, camera="hd", light="even", count=5)
                    for i, layout in enumerate(("row", "scattered", "touching"))])


@pytest.mark.parametrize("light", [light if light in LIGHTS_READ_NOW else pytest.param(light, marks=PENDING)
                                   for light in LIGHTS])
def test_cards_are_read_in_every_light(light: str) -> None:
    _assert_floors([_cards(SEED + 100 + i, table=HELD_OUT_TABLES[(i + LIGHTS.index(light)) % len(HELD_OUT_TABLES)],
                           layout=("row", "scattered", "touching")[i], camera="hd", light=light, count=5)
                    for i in range(3)])


@pytest.mark.parametrize("layout", [layout if layout in LAYOUTS_READ_NOW else pytest.param(layout, marks=PENDING)
                                    for layout in ("scattered", "row", "touching", "overlapping", "fanned")])
def test_cards_are_read_in_every_layout(layout: str) -> None:
    _assert_floors([_cards(SEED + 200 + i, layout=layout, camera="hd", light="even", count=6) for i in range(3)])


def test_a_webcam_at_an_angle_reads_the_cards() -> None:
    _assert_floors([_cards(SEED + 300 + i, layout="scattered", camera="webcam", light="even", count=5) for i in range(2)])


def test_a_row_of_cards_on_a_light_table_is_read() -> None:
    """The issue's photo: cards in a clean row on a light table (it read 0 of 13)."""
    rows = [_cards(SEED + 320 + i, layout="row", table=table, camera="fullhd", light="even", count=5)
            for i, table in enumerate(LIGHT_TABLES)]
    total, false = _score(rows)
    assert false == []
    assert total["recalled"] >= RECALL_FLOOR * total["cards"], total


@pytest.mark.parametrize("camera", ("hd", "phone"))
def test_a_square_book_of_kings_on_light_wood_is_confirmed(camera: str) -> None:
    """The issue's failing case: the real kings laid 2×2 on a light wooden table, read as one king."""
    c = compose(SEED + 400, split="held_out", table="light_wood", layout="book_square", book=Rank.KING, count=0,
                camera=camera, light="even")
    assert c.books == (Rank.KING,)
    frames = scenes.frames(c, 3) if camera == "hd" else [c.image]  # live: half a second of frames; a photo: one
    check = judge_book(Rank.KING, [see(f) for f in frames])
    assert check.verdict == "confirmed", check
    assert check.say == "I see four kings."


@pytest.mark.parametrize("layout", [layout if layout in BOOKS_READ_NOW else pytest.param(layout, marks=PENDING)
                                    for layout in BOOK_LAYOUTS])
def test_a_book_laid_as_people_lay_it_is_confirmed_live(layout: str) -> None:
    c = compose(SEED + 500 + BOOK_LAYOUTS.index(layout), split="held_out", layout=layout, camera="hd", light="even")
    rank = c.book_layout
    assert rank is not None and rank in c.books
    check = judge_book(rank, [see(f) for f in scenes.frames(c, 3)])
    assert check.verdict == "confirmed", (c.table, rank, check)


@pytest.mark.parametrize("layout", BOOK_LAYOUTS)
def test_three_of_a_rank_and_another_laid_as_a_book_are_never_confirmed(layout: str) -> None:
    three = [Card(Rank.KING, s) for s in (Suit.SPADES, Suit.HEARTS, Suit.CLUBS)]
    trap = compose(SEED + 600 + BOOK_LAYOUTS.index(layout), split="held_out", layout=layout, camera="hd",
                   light="even", cards=three + [Card.parse("Q of hearts")])
    check = judge_book(Rank.KING, [see(f) for f in scenes.frames(trap, 3)])
    assert check.verdict != "confirmed", check


def test_no_false_book_on_any_held_out_table() -> None:
    """Random scenes of every kind (lights, layouts, cameras up to full HD): a claim of any rank read or laid
    with fewer than four on the table is never confirmed."""
    composites = [compose(SEED + 700 + i, split="held_out", camera=("webcam", "hd", "fullhd")[i % 3]) for i in range(9)]
    _, false = _score(composites)
    assert false == []


def test_a_hand_passing_over_a_book_in_one_frame_does_not_stop_it() -> None:
    c = compose(SEED + 800, split="held_out", layout="book_row", camera="hd", light="even", count=1)
    check = judge_book(c.book_layout, [see(f) for f in scenes.frames(c, 5, hand=True)])  # type: ignore[arg-type]
    assert check.verdict == "confirmed", check


def test_a_hand_over_three_of_a_rank_never_makes_a_book() -> None:
    trap = compose(SEED + 810, split="held_out", layout="book_row", camera="hd", light="even",
                   cards=[Card(Rank.SEVEN, s) for s in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)] + [Card.parse("8 of clubs")])
    for seed in range(2):
        assert judge_book(Rank.SEVEN, [see(f) for f in scenes.frames(trap, 5, seed, hand=True)]).verdict != "confirmed"


def test_things_on_the_table_are_never_read_surely_as_cards() -> None:
    """A score pad, a phone, cups, coins and the deck's box on held-out tables, with no card: nothing a book counts."""
    for i in range(8):
        c = compose(SEED + 900 + i, split="held_out", camera=("webcam", "hd", "fullhd")[i % 3], layout="scattered",
                    count=0, clutter=True, light="even")
        assert c.things and not c.cards
        assert [d for d in see(c.image) if d.rank is not None and d.confidence >= SURE] == [], (c.seed, c.table, c.things)


def test_a_whole_card_turned_45_degrees_read_right_is_scored_right() -> None:
    """The scorer's box rule: an upright box fitted exactly round a card turned 45 degrees lies only 49% on the card
    (seeds 424329 and 424338 of the training tables: a jack and a queen read right at 0.96 and 0.98 were counted as
    sure wrong reads); it matches as COCO matches a box to a card's upright box. A box on the card beside it does not."""
    import numpy as np

    from tabletop.vision import Detection

    card = Card.parse("JD")
    half_w, half_h = 50.0, 70.0
    turn = np.radians(45)
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    quad = (np.array([[-half_w, -half_h], [half_w, -half_h], [half_w, half_h], [-half_w, half_h]]) @ rot.T + 200
            ).astype(np.float32)
    x0, y0 = quad.min(axis=0)
    x1, y1 = quad.max(axis=0)
    fitted = Detection(card.rank, card.suit, (int(x0), int(y0), int(x1 - x0), int(y1 - y0)), 0.96)
    beside = Detection(card.rank, card.suit, (int(x1) + 10, int(y0), int(x1 - x0), int(y1 - y0)), 0.96)
    assert score_cards([(card, quad, True)], [fitted])["sure_correct"] == 1
    assert score_cards([(card, quad, True)], [beside])["sure_correct"] == 0


@pytest.mark.parametrize("name,seed", [("linen", 0), ("linen", 1), ("weave", 1), ("cork", 1)])
def test_a_bare_table_under_a_lamp_shows_no_card_and_never_crashes(name: str, seed: int) -> None:
    """A table with nothing on it under a lamp's glare (its weave washed out to paper white in the middle): no card.
    Before, a level of the picture with faint shapes and no ink at all broke the faint-ink search
    (``indices._grown_at_faint``) and ``see`` raised a ValueError: a live camera over an empty table would crash."""
    import numpy as np

    from tabletop.vision.tabletops import make_table

    h, w = 886, 860
    yy, xx = np.mgrid[0:h, 0:w]
    glare = np.exp(-(((yy - 450) / 300.0) ** 2 + ((xx - 420) / 300.0) ** 2))[..., None]
    table = make_table(name, np.random.default_rng(seed), h, w).astype(np.float32)
    frame = np.clip(table + (255 - table) * glare, 0, 255).astype(np.uint8)
    assert see(frame) == []
