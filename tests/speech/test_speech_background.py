"""Talk at the table behind a short answer is not the speaker's: a "yes" is still a "yes".

Real decoding of espeak-ng speech followed by other people talking (synthesised babble) 20 dB under
the speaker, heard where the table waits for the answer. Both decoders must explain every frame
with words, so they used to fill the babble with short words: the open decoder heard "yes the oh"
(and no longer backed the grammar's "yes"), the grammar "yes two". Words far under the speaker's
level (``BACKGROUND_DB`` under the median of the grammar's words) are now taken out before the
readings are compared. (Where the grammar itself put two words into the babble, "no a two", the
median falls into the babble and nothing is taken out: asked about, as before.)
"""

from __future__ import annotations

import numpy as np
import pytest

from tabletop.cards import Rank
from tabletop.language import Context
from tabletop.language.understand import understand
from tabletop.speech import synth
from tabletop.speech.audio import SAMPLE_RATE, Utterance

PLAYERS = ("Ana", "Ben", "Cho")
CHECK = Context(players=PLAYERS, current="Ana", phase="confirm", asker="Ana", target="Ben", rank=Rank.SEVEN)


def _then_talk(text: str, voice: str, seed: int, under_db: float = 20.0, seconds: float = 1.2) -> Utterance:
    """``text`` said, then ``seconds`` of other people talking ``under_db`` under the speaker."""
    said = synth.realistic(text, voice=voice, speed=150, seed=seed, tail=0.1).samples.astype(np.float64)
    level = np.sqrt(np.mean(said[np.abs(said) > 50] ** 2))
    talk = synth.babble(int(seconds * SAMPLE_RATE), seed=seed + 1)
    talk = talk / (np.sqrt(np.mean(talk ** 2)) + 1e-9) * level * 10 ** (-under_db / 20)
    mixed = np.concatenate([said, talk])
    return Utterance(np.clip(np.round(mixed), -32768, 32767).astype(np.int16), source="test")


@pytest.mark.parametrize("text,voice,context,expected", [
    ("yes", "en-us+m3", CHECK, "yes"),
])
def test_an_answer_with_talk_behind_it_is_acted_on(recogniser, text, voice, context, expected) -> None:
    heard = recogniser.hear(_then_talk(text, voice, seed=11), context)
    understood = understand(heard, context)
    assert understood.act and understood.intent.to_json()["type"] == expected, (
        heard.text, heard.confidence, understood.intent, recogniser.last_trace)
