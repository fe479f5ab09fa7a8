"""A whole game played from recorded utterances: `tabletop play --audio FILE.wav ...`.

Each line is spoken by espeak-ng (16 kHz, with a microphone noise floor), written to a WAV, and
the real command hears the files in order with the embedded recogniser. Under the first-out rules
a short game ends when Ben's hand runs out; the final state is worked out by hand below.
Only the final state is asserted: the recogniser may ask to confirm a line, as it would at a table.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from support import tabletop_command

SCRIPT = [
    "ana has a book of aces",          # deal books: Ana 7 -> 3 cards
    "yes",                             # (tabletop may ask "Ana has a book of aces?": the table says yes;
    "ben has a book of kings",         #  a yes with nothing to confirm is refused and changes nothing)
    "yes",                             # Ben 7 -> 3 cards
    "ben do you have any sevens",      # Ana asks Ben
    "yes three",                       # Ben hands over his last three: Ana 6, Ben 0
    "book of sevens",                  # Ana lays them down: Ana 2 cards, two books
    "yes",
    "what's the score",                # the exchange settles: Ben's hand ran out, the game is over
]


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is missing: apt-get install espeak-ng")
@pytest.mark.parametrize("voice, speed", [("en-us", 150), ("en-us", 170)])
def test_a_whole_game_from_audio_files(tmp_path: Path, voice: str, speed: int) -> None:
    from tabletop.speech import synth
    from tabletop.speech.audio import write_wav

    files = []
    for i, line in enumerate(SCRIPT):
        utterance = synth.realistic(line, voice=voice, speed=speed, seed=i)
        files.append(str(write_wav(tmp_path / f"{i:02d}.wav", utterance)))
    journal = tmp_path / "game.jsonl"
    out = subprocess.run(
        tabletop_command() + ["play", "--players", "Ana", "Ben", "--rule", "deal=7-for-two", "--rule",
                              "game_end=first-out", "--audio", *files, "--quiet", "--json", "--journal", str(journal)],
        capture_output=True, text=True, timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    events = [json.loads(line) for line in out.stdout.splitlines()]
    heard = [(e["heard"], e["code"], e["say"]) for e in events[1:]]
    assert "Game over. Ana wins with two books." in events[-1]["say"], heard
    state = json.loads(subprocess.run(tabletop_command() + ["state", str(journal), "--json"],
                                      capture_output=True, text=True, check=True).stdout)
    assert state["over"] and state["winners"] == ["Ana"] and state["current"] is None
    assert state["books"] == {"Ana": ["A", "7"], "Ben": ["K"]}
    assert state["hands"] == {"Ana": 2, "Ben": 0} and state["stock"] == 38
