"""The microphone path through a real PortAudio device.

The test writes a HOME with an ``.asoundrc`` whose default ALSA device is a ``file`` PCM
reading the test's raw 16 kHz s16 audio: PortAudio, the endpointer and the streaming decoder
all run for real, in a subprocess (ALSA reads its configuration when PortAudio starts).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from support import file_microphone_home, portaudio_loads
from tabletop.speech import synth

REPO = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent(
    """
    import json, sys, time
    from tabletop.errors import SetupError
    try:
        from tabletop.speech.microphone import Microphone
        mic = Microphone(max_seconds=float(sys.argv[1]), hangover=0.4)
    except SetupError as error:
        print(json.dumps({"setup_error": error.reason}))
        raise SystemExit(0)
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser
    from tabletop.language import parse
    r = PocketSphinxRecogniser(("Ana", "Ben", "Cho"))
    r.warm_up()
    for utterance, transcript in mic.transcripts(r):
        intent = parse(transcript.text, ("Ana", "Ben", "Cho")) if transcript.text else None
        print(json.dumps({"duration": utterance.duration, "text": transcript.text,
                          "intent": intent.to_json() if intent else None,
                          "finish_ms": transcript.decode_ms}), flush=True)
    """
)


def _run(home: Path, seconds: float) -> list[dict]:
    env = dict(os.environ, HOME=str(home), PYTHONPATH=str(REPO))
    env.pop("ALSA_CONFIG_PATH", None)
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(seconds)], env=env, capture_output=True, text=True, timeout=180, cwd=str(REPO)
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]


pytestmark = pytest.mark.skipif(not portaudio_loads(), reason="PortAudio is missing: apt-get install libportaudio2")


def test_microphone_yields_utterances_that_decode(tmp_path: Path, espeak: None) -> None:
    quiet = np.round(synth.noise_floor(int(0.8 * 16000), -58.0, seed=1)).astype(np.int16)
    first = synth.realistic("ben do you have any sevens", voice="en-us", seed=1).samples
    second = synth.realistic("go fish", voice="en", seed=2).samples
    audio = np.concatenate([quiet, first, quiet, second, quiet, quiet])
    home = file_microphone_home(tmp_path, audio.astype("<i2").tobytes())
    results = _run(home, len(audio) / 16000)
    assert [r["intent"] for r in results] == [
        {"type": "ask", "target": "Ben", "rank": "7"},
        {"type": "go_fish"},
    ], results
    # The endpointer cut each utterance around its speech, not the whole file.
    assert all(0.8 < r["duration"] < 4.0 for r in results)


def test_no_microphone_says_what_to_do(tmp_path: Path) -> None:
    (tmp_path / ".asoundrc").write_text('pcm.!default { type null }\\nctl.!default { type hw card 99 }\\n'.replace("\\\\n", "\\n"))
    env_home = tmp_path / "empty-home"
    env_home.mkdir()
    results = _run(env_home, 1.0)
    if results and "setup_error" in results[0]:
        reason = results[0]["setup_error"]
        assert "microphone" in reason and ("tabletop play --text" in reason or "plug" in reason)
    else:
        pytest.skip("this machine has a real capture device, so 'no microphone' cannot be shown here")
