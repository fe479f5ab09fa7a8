"""The camera path through cv2.VideoCapture, on MJPG video files the tests write."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tabletop.errors import SetupError
from tabletop.vision import Camera, is_dark
from tabletop.vision.render import render_scene

from vision_helpers import cards


def _write_video(path: Path, frames: list[np.ndarray]) -> Path:
    h, w = frames[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (w, h))
    assert writer.isOpened(), "OpenCV cannot write MJPG .avi here"
    for frame in frames:
        writer.write(frame)
    writer.release()
    return path


def test_reads_frames_from_a_video_file_and_reports_when_it_stops(tmp_path: Path) -> None:
    scene = render_scene(cards("7 of hearts", "7 of clubs"), np.random.default_rng(2), effects=0.3)
    video = _write_video(tmp_path / "table.avi", [scene.image] * 3)
    with Camera(str(video)) as camera:
        frames = camera.frames(2)
        assert len(frames) == 2 and frames[0].shape == scene.image.shape
        assert np.abs(frames[0].astype(int) - scene.image.astype(int)).mean() < 12  # MJPG is lossy
        camera.read()
        with pytest.raises(SetupError) as stopped:
            camera.read()
        assert "stopped" in stopped.value.reason
    with pytest.raises(SetupError):
        camera.read()  # closed by the context manager


def test_a_dark_frame_is_a_setup_error(tmp_path: Path) -> None:
    dark = np.full((240, 320, 3), 8, np.uint8)
    video = _write_video(tmp_path / "dark.avi", [dark] * 2)
    assert is_dark(dark)
    camera = Camera(str(video))
    with pytest.raises(SetupError) as error:
        camera.read()
    assert "dark" in error.value.reason
    camera.close()
    camera.close()  # twice is fine


def test_a_lit_table_is_not_dark() -> None:
    scene = render_scene(cards("ace of spades"), np.random.default_rng(4))
    assert not is_dark(scene.image)


def test_a_missing_camera_is_a_setup_error() -> None:
    with pytest.raises(SetupError) as error:
        Camera(97)
    assert "camera" in error.value.reason


def test_a_missing_video_file_is_a_setup_error(tmp_path: Path) -> None:
    with pytest.raises(SetupError) as error:
        Camera(str(tmp_path / "nothing.avi"))
    assert "nothing.avi" in error.value.reason


def test_a_look_takes_about_half_a_second_of_frames(tmp_path: Path) -> None:
    scene = render_scene(cards("7 of hearts"), np.random.default_rng(5), effects=0.3)
    shades = [cv2.convertScaleAbs(scene.image, alpha=1.0, beta=i) for i in range(40)]  # each frame told apart
    slow = _write_video(tmp_path / "slow.avi", shades[:20])  # 10 frames a second: half a second is 5 frames
    with Camera(str(slow)) as camera:
        looked = camera.look()
        assert len(looked) == 5
        assert [int(round(f.mean() - looked[0].mean())) for f in looked] == [0, 1, 2, 3, 4]
    fast = tmp_path / "fast.avi"
    writer = cv2.VideoWriter(str(fast), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, scene.image.shape[1::-1])
    for frame in shades:
        writer.write(frame)
    writer.release()
    with Camera(str(fast)) as camera:  # 15 frames in half a second, 5 of them read, spread over it
        looked = camera.look()
        assert len(looked) == 5
        steps = [int(round(f.mean() - looked[0].mean())) for f in looked]
        assert steps[-1] >= 10 and steps == sorted(steps)  # the 15th frame, less what saturates
        assert len(camera.look(seconds=0.1)) == 3


def test_a_look_at_a_video_that_ends_gives_what_there_was(tmp_path: Path) -> None:
    scene = render_scene(cards("7 of hearts"), np.random.default_rng(6), effects=0.3)
    video = _write_video(tmp_path / "short.avi", [scene.image] * 2)
    with Camera(str(video)) as camera:
        assert len(camera.look()) == 2
        with pytest.raises(SetupError):
            camera.look()


def _live_check_of_kings(tmp_path: Path, cards_laid: list, seed: int):
    """A live look (Camera.look) at a video of eight frames of ``cards_laid`` in a square on a held-out
    table, checked as a book of kings."""
    from tabletop.cards import Rank
    from tabletop.vision import check_book, scenes

    if not scenes.real_faces_available():
        pytest.skip(f"real card faces not found at {scenes.FACES_DIR}")
    laid = scenes.compose(seed, split="held_out", layout="book_square", camera="hd", light="even", cards=cards_laid)
    video = _write_video(tmp_path / "book.avi", scenes.frames(laid, 8))
    with Camera(str(video)) as camera:
        return check_book(Rank.KING, camera.look())


def test_a_live_look_at_three_kings_and_a_queen_is_not_a_book(tmp_path: Path) -> None:
    check = _live_check_of_kings(tmp_path, cards("K of spades", "K of hearts", "K of clubs", "Q of hearts"), 77)
    assert check.verdict != "confirmed", check


def test_a_live_look_at_a_square_book_of_kings_confirms_it(tmp_path: Path) -> None:
    check = _live_check_of_kings(tmp_path, cards("K of spades", "K of hearts", "K of clubs", "K of diamonds"), 78)
    assert check.verdict == "confirmed", check


def test_a_missing_camera_is_said_in_one_plain_sentence() -> None:
    """`play --camera 0` with no camera: OpenCV's own logs of each backend it tried (V4L2, FFMPEG's
    exception text, obsensor) came on stderr before tabletop's sentence; now only the sentence."""
    import subprocess
    import sys

    from support import ROOT

    code = "from tabletop.vision import Camera\ntry:\n    Camera(9)\nexcept Exception as e:\n    print(e.reason)\n"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                            cwd=ROOT)  # this checkout's tabletop
    if "no camera 9" not in result.stdout:
        pytest.skip("this machine has a camera 9")  # (index 97 is refused before any backend is tried)
    assert result.stderr == "", result.stderr
