"""`tabletop play` live: the microphone through a real PortAudio device, heard, refereed, journaled.

The test writes a HOME whose ``.asoundrc`` makes the default ALSA capture device a ``file`` PCM
reading this test's raw 16 kHz audio (speech synthesised with espeak-ng over a noise floor), so
PortAudio, the endpointer, the streaming recogniser, the table and the journal all run for real.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from support import ROOT, file_microphone_home, portaudio_loads, tabletop_command

@pytest.mark.skipif(not portaudio_loads(), reason="PortAudio is missing: apt-get install libportaudio2")
@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is missing: apt-get install espeak-ng")
def test_a_spoken_exchange_through_the_microphone(tmp_path: Path) -> None:
    from tabletop.speech import synth

    gap = np.round(synth.noise_floor(int(1.2 * 16000), -58.0, seed=3)).astype(np.int16)
    parts = [gap]
    # A heard "stop the game" is confirmed before it is acted on ("Stop the game?"): the table says yes.
    for i, line in enumerate(["ben do you have any sevens", "go fish", "stop the game", "yes"]):
        parts += [synth.realistic(line, voice="en-us", seed=10 + i).samples.astype(np.int16), gap]
    home = file_microphone_home(tmp_path, np.concatenate(parts).astype("<i2").tobytes())
    journal = tmp_path / "game.jsonl"
    env = dict(os.environ, HOME=str(home), PYTHONPATH=str(ROOT))
    out = subprocess.run(
        tabletop_command() + ["play", "--players", "Ana", "Ben", "Cho", "--quiet", "--json", "--journal", str(journal)],
        env=env, capture_output=True, text=True, timeout=240, cwd=str(ROOT),
    )
    assert out.returncode == 0, out.stderr[-2000:]
    events = [json.loads(line) for line in out.stdout.splitlines()]
    heard = [e for e in events[1:] if "heard" in e]  # (a quiet moment may also settle: "Ben's turn.")
    said = [(e["intent"] or {}).get("type") for e in heard]
    assert said == ["ask", "go_fish", "control", "control"], events
    assert heard[0]["say"] == "Ana asks Ben for sevens."
    assert heard[2]["event"] == "question" and heard[2]["say"] == "Stop the game?" and heard[2]["expects"] == "yes_no"
    assert heard[-1]["say"].startswith("Stopping the game")
    state = json.loads(subprocess.run(tabletop_command() + ["state", str(journal), "--json"],
                                      capture_output=True, text=True, check=True).stdout)
    assert state["hands"] == {"Ana": 8, "Ben": 7, "Cho": 7} and state["stock"] == 30
    assert state["current"] == "Ben"
