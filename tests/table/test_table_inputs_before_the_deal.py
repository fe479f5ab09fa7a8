"""Every input is checked before the deal: a game that cannot be played never starts.

`tabletop play --audio missing.wav` used to deal, write a journal, fail on the file and exit 0.
Now a missing or unplayable recording, or live play with no microphone, stops before the deal
with a message that says what to do, a non-zero exit, and no journal.
"""

from __future__ import annotations

import os
import subprocess
import wave
from pathlib import Path

import pytest

from support import ROOT, tabletop_command


def _play(tmp_path: Path, *args: str, home: Path | None = None) -> tuple[subprocess.CompletedProcess, Path]:
    data = tmp_path / "data"
    env = dict(os.environ, XDG_DATA_HOME=str(data), PYTHONPATH=str(ROOT))
    if home is not None:
        env["HOME"] = str(home)
    journal = tmp_path / "game.jsonl"
    result = subprocess.run(
        [*tabletop_command(), "play", "--players", "Ana", "Ben", "--quiet", *args],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120, stdin=subprocess.DEVNULL,
    )
    return result, journal


def _no_game_started(result: subprocess.CompletedProcess, journal: Path, tmp_path: Path) -> None:
    assert result.returncode != 0, result.stdout
    assert "goes first" not in result.stdout  # nothing was dealt or announced
    assert not journal.exists()
    assert not (tmp_path / "data" / "tabletop" / "games").exists()  # nor a journal in the default folder


def _wav(path: Path, channels: int = 1, rate: int = 16000, width: int = 2) -> Path:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(channels)
        out.setsampwidth(width)
        out.setframerate(rate)
        out.writeframes(bytes(rate // 2 * channels * width))
    return path


def test_a_missing_recording_stops_before_the_deal(tmp_path: Path) -> None:
    good = _wav(tmp_path / "quiet.wav")
    result, journal = _play(tmp_path, "--journal", str(tmp_path / "game.jsonl"), "--audio", str(good), "missing.wav")
    _no_game_started(result, journal, tmp_path)
    assert "missing.wav: no such file" in result.stderr
    assert "not started" in result.stderr


def test_a_recording_it_cannot_take_stops_before_the_deal_and_every_bad_file_is_named(tmp_path: Path) -> None:
    eight_bit = _wav(tmp_path / "8bit.wav", channels=2, rate=44100, width=1)
    slow = _wav(tmp_path / "4k.wav", rate=4000)
    result, journal = _play(tmp_path, "--journal", str(tmp_path / "game.jsonl"), "--audio", str(eight_bit), str(slow))
    _no_game_started(result, journal, tmp_path)
    assert "8bit.wav" in result.stderr and "8-bit samples" in result.stderr
    assert "4k.wav" in result.stderr and "4000 Hz" in result.stderr


def test_live_play_with_no_microphone_says_what_to_do_and_deals_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    probe = subprocess.run(
        [tabletop_command()[0], "-c",
         "import sounddevice as sd, sys; sys.exit(any(d['max_input_channels'] > 0 for d in sd.query_devices()))"],
        env=dict(os.environ, HOME=str(home)), capture_output=True,
    )
    if probe.returncode != 0:
        pytest.skip("this machine has a microphone (or no PortAudio): the no-microphone case can't be staged")
    result, journal = _play(tmp_path, "--journal", str(tmp_path / "game.jsonl"), home=home)
    _no_game_started(result, journal, tmp_path)
    assert "no microphone" in result.stderr
    assert "tabletop play --text" in result.stderr or "tabletop demo" in result.stderr
