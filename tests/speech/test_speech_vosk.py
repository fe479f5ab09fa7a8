"""Vosk with a real English model: runs when one is installed or named by TABLETOP_VOSK_MODEL.

No English Vosk model can be downloaded on the project's machines; the whole Vosk path is tested
with the small Korean model instead (test_speech_vosk_korean.py).
"""

from __future__ import annotations

import pytest

from tabletop.speech import synth
from tabletop.speech.models import find_vosk_model

MODEL = find_vosk_model()
pytestmark = pytest.mark.skipif(
    MODEL is None,
    reason="no English Vosk model: set TABLETOP_VOSK_MODEL=DIR (an unpacked vosk-model-small-en-us-0.15) or run "
    "`tabletop models install`; it cannot be downloaded here (the Vosk path is tested with the Korean model)",
)


@pytest.fixture(scope="module")
def vosk_recogniser(players):
    from tabletop.speech.recognisers.vosk import VoskRecogniser

    return VoskRecogniser(players=players)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("ben do you have any sevens", {"type": "ask", "target": "Ben", "rank": "7"}),
        ("go fish", {"type": "go_fish"}),
        ("what's the score", {"type": "query", "what": "score"}),
    ],
)
def test_vosk_hears_commands(vosk_recogniser, players, espeak, text, expected) -> None:
    from tabletop.language import parse

    heard = vosk_recogniser.hear(synth.realistic(text, voice="en-us", seed=1))
    assert heard.engine == "vosk"
    assert parse(heard.text, players).to_json() == expected, heard.text
    assert heard.words and 0 < heard.confidence <= 1


def test_vosk_chatter_is_unk(vosk_recogniser, players, espeak) -> None:
    from tabletop.language import parse

    heard = vosk_recogniser.hear(synth.realistic("pass the salt please", voice="en-us", seed=1))
    assert not heard.text or parse(heard.text, players) is None


def test_default_recogniser_prefers_vosk(players) -> None:
    from tabletop.speech.recognisers import default_recogniser

    assert default_recogniser(None, players).name == "vosk"
