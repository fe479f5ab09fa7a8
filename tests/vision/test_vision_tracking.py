"""The live tracker on MJPG videos the tests write and read back through cv2.VideoCapture (the camera's path)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from tabletop.cards import Rank
from tabletop.vision import Camera, check_book, see
from tabletop.vision.books import judge_book
from tabletop.vision import scenes
from tabletop.vision.boxes import share_of_smaller
from tabletop.vision.tracking import Tracker, read_look

from vision_helpers import need_cards_dev, need_real_faces

SURE = 0.8


def _video(path: Path, frames: list[np.ndarray], fps: float = 15.0) -> list[np.ndarray]:
    """The frames written as an MJPG video and read back through the camera, as a live camera would send them."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, frames[0].shape[1::-1])
    assert writer.isOpened(), "OpenCV cannot write MJPG .avi here"
    for frame in frames:
        writer.write(frame)
    writer.release()
    with Camera(str(path)) as camera:
        return camera.frames(len(frames))


def _scene(seed: int, layout: str) -> scenes.Composite:
    need_real_faces()
    return scenes.compose(seed, split="held_out", camera="hd", layout=layout)


def _sure(detections) -> list[tuple]:
    return [(d.rank, d.suit, d.box) for d in detections if d.rank is not None and d.confidence >= SURE]


def _same_sure_cards(a, b) -> bool:
    """The same cards read surely in both (rank and suit, the smaller box mostly inside the other: a card read by its
    index corner in one frame and whole in the next, as ``see`` reads a still table's frames), one to one."""
    a, b = _sure(a), _sure(b)
    if len(a) != len(b):
        return False
    left = list(b)
    for rank, suit, box in a:
        same = [x for x in left if x[0] is rank and x[1] is suit and share_of_smaller(x[2], box) >= 0.6]
        if not same:
            return False
        left.remove(same[0])
    return True


def _lone_card(composite: scenes.Composite, pad: int = 8) -> tuple[int, tuple[int, int, int, int]]:
    """A card lying apart from the others, inside the frame, and its box grown by ``pad`` (x0, y0, x1, y1)."""
    h, w = composite.image.shape[:2]
    for i, placed in enumerate(composite.cards):
        x, y, bw, bh = placed.box
        x0, y0, x1, y1 = x - pad, y - pad, x + bw + pad, y + bh + pad
        if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
            continue
        if all(x1 < q.box[0] or q.box[0] + q.box[2] < x0 or y1 < q.box[1] or q.box[1] + q.box[3] < y0
               for j, q in enumerate(composite.cards) if j != i):
            return i, (x0, y0, x1, y1)
    raise AssertionError("no card lies apart in this scene")


def _table_patch(composite: scenes.Composite, size: tuple[int, int], rng: np.random.Generator) -> tuple[int, int]:
    """Where a patch of ``size`` (w, h) of bare table lies, at least 10 px from every card."""
    h, w = composite.image.shape[:2]
    for _ in range(500):
        x, y = int(rng.integers(0, w - size[0])), int(rng.integers(0, h - size[1]))
        if all(x + size[0] + 10 < bx or bx + bw + 10 < x or y + size[1] + 10 < by or by + bh + 10 < y
               for bx, by, bw, bh in (p.box for p in composite.cards)):
            return x, y
    raise AssertionError("no bare table in this scene")


def _taken_away(composite: scenes.Composite) -> tuple[np.ndarray, np.ndarray, object]:
    """The scene's picture with a lone card covered by bare table from elsewhere on it, and where it lay."""
    i, (x0, y0, x1, y1) = _lone_card(composite)
    x, y = _table_patch(composite, (x1 - x0, y1 - y0), np.random.default_rng(composite.seed))
    gone = composite.image.copy()
    gone[y0:y1, x0:x1] = composite.image[y:y + y1 - y0, x:x + x1 - x0]
    return gone, composite.image[y0:y1, x0:x1], composite.cards[i].card


def test_a_still_table_is_read_once_and_its_cards_are_see_on_the_first_frame(tmp_path: Path) -> None:
    composite = _scene(424282, "scattered")
    frames = _video(tmp_path / "still.avi", scenes.still_frames(composite, 8))
    assert any(np.abs(frames[0].astype(int) - f.astype(int)).max() > 20 for f in frames[1:])  # noise and flicker
    tracker = Tracker()
    read = [tracker.see(frame) for frame in frames]
    first = see(frames[0])
    assert _sure(first), "the scene shows cards read surely"
    assert all(r == first for r in read)  # every frame: exactly see() on the first
    assert tracker.counts == {"whole": 1, "crops": 0, "kept": 7, "back": 0, "passing": 0}
    assert len(read_look(frames)) == 1  # a still look is one reading: no new evidence in the frames after


def test_a_card_taken_away_put_down_or_moved_is_read_as_see_reads_the_new_frame(tmp_path: Path) -> None:
    composite = _scene(880102, "scattered")
    gone, card_pixels, card = _taken_away(composite)
    x, y = _table_patch(composite, card_pixels.shape[1::-1], np.random.default_rng(3))
    moved = gone.copy()
    moved[y:y + card_pixels.shape[0], x:x + card_pixels.shape[1]] = card_pixels
    for name, before, after in (("taken", composite.image, gone), ("put", gone, composite.image),
                                ("moved", composite.image, moved)):
        still = scenes.still_frames(composite, 2)
        noise = [cv2.subtract(f, composite.image, dtype=cv2.CV_16S) for f in still]  # each frame's own grain
        frames = _video(tmp_path / f"{name}.avi", [cv2.add(before, noise[0], dtype=cv2.CV_8U),
                                                   cv2.add(after, noise[1], dtype=cv2.CV_8U)])
        tracker = Tracker()
        tracker.see(frames[0])
        got = tracker.see(frames[1])
        assert tracker.counts["crops"] == 1, name  # read where it changed, not whole
        assert sum(w * h for _, _, w, h in tracker.last_regions) < 0.5 * frames[1].shape[0] * frames[1].shape[1]
        assert _same_sure_cards(got, see(frames[1])), name
        where = [(d.rank, d.suit) for d in got if d.confidence >= SURE]
        assert ((card.rank, card.suit) in where) is (name != "taken"), name


def test_a_light_switched_or_the_camera_bumped_is_read_whole(tmp_path: Path) -> None:
    composite = _scene(424282, "scattered")
    lit = cv2.convertScaleAbs(composite.image, alpha=1.35)
    bumped = cv2.warpAffine(composite.image, np.float32([[1, 0, 24], [0, 1, 9]]), composite.image.shape[1::-1],
                            borderMode=cv2.BORDER_REPLICATE)
    frames = _video(tmp_path / "jolts.avi", [composite.image, lit, bumped])
    tracker = Tracker()
    read = [tracker.see(frame) for frame in frames]
    assert tracker.counts["whole"] == 3
    assert read[2] == see(frames[2])


def test_a_hand_passing_is_read_where_it_stops_and_the_cards_come_back_after(tmp_path: Path) -> None:
    composite = _scene(880103, "scattered")
    frames = _video(tmp_path / "hand.avi", scenes.still_frames(composite, 16, hand=(4, 11)))  # over a card at 7-8
    tracker = Tracker()
    read = []
    for frame in frames:
        read.append(tracker.see(frame))
        if len(read) == 9:
            assert tracker.counts["crops"] == 2  # as it reached in, and where it stopped
    assert all(r == read[0] for r in read[:4])
    first = _sure(read[0])
    assert all(set(_sure(r)) <= set(first) for r in read[5:8])  # while it moves: nothing read, the cards under it unseen
    assert any(len(_sure(r)) < len(first) for r in read[5:8])
    assert tracker.counts["passing"] >= 5
    assert _same_sure_cards(read[8], see(frames[8]))  # where it stopped over a card: as see() reads that frame
    assert read[-1] == read[0] == see(frames[0])  # the table as it was, taken back: not read again
    assert tracker.counts["back"] == 1 and tracker.counts["whole"] == 1


def test_a_live_look_at_a_still_book_confirms_it_reading_one_frame(tmp_path: Path) -> None:
    need_real_faces()
    composite = scenes.compose(424271, split="held_out", camera="hd", layout="book_row", book=Rank.NINE, count=1)
    _video(tmp_path / "book.avi", scenes.still_frames(composite, 8))
    with Camera(str(tmp_path / "book.avi")) as camera:
        look = camera.look()
    assert len(look) == 5
    assert len(read_look(look)) == 1
    check = check_book(Rank.NINE, look, live=True)
    assert check.verdict == check_book(Rank.NINE, look[:1]).verdict == "confirmed", check


def test_a_live_look_that_does_not_confirm_at_once_is_judged_over_every_frame_read_whole(tmp_path: Path) -> None:
    need_real_faces()
    composite = scenes.compose(424272, split="held_out", camera="hd", layout="book_row", book=Rank.NINE, count=1)
    _video(tmp_path / "book.avi", scenes.still_frames(composite, 8))
    with Camera(str(tmp_path / "book.avi")) as camera:
        look = camera.look()
    readings = read_look(look)
    assert len(readings) == 1 and judge_book(Rank.NINE, readings).verdict != "confirmed"  # one reading: a nine unsure
    assert check_book(Rank.NINE, look, live=True).verdict == check_book(Rank.NINE, look).verdict == "confirmed"


def test_real_photos_held_still_with_sensor_noise_are_read_once(tmp_path: Path) -> None:
    """Real photos (an Edje table photo and a bidly deal) as a still camera's video: each frame its own grain and a
    flicker of exposure, through MJPG. No part of them passes for a change; the cards are see()'s on the first frame."""
    folder = need_cards_dev()
    rng = np.random.default_rng(11)
    for path in (folder / "images" / "IMG_2385.JPG", folder / "bidly" / "deals" / "deal4-md-sq.jpg"):
        photo = cv2.imread(str(path))
        assert photo is not None, path
        photo = cv2.resize(photo, (1280, round(photo.shape[0] * 1280 / photo.shape[1])), interpolation=cv2.INTER_AREA)
        still = []
        for _ in range(6):
            grain = np.empty(photo.shape, np.int16)
            cv2.randn(grain, 0, 3.0)
            still.append(cv2.add(cv2.convertScaleAbs(photo, alpha=float(rng.uniform(0.97, 1.03))), grain, dtype=cv2.CV_8U))
        frames = _video(tmp_path / f"{path.stem}.avi", still)
        tracker = Tracker()
        read = [tracker.see(frame) for frame in frames]
        assert tracker.counts["whole"] == 1 and tracker.counts["kept"] == 5, (path.name, tracker.counts)
        first = see(frames[0])
        assert first and all(r == first for r in read), path.name
