"""A short answer streamed from the microphone is normalised with its own cepstral mean.

Real decoding of espeak-ng speech. The live loop streams every utterance (``stream(live=True)``);
PocketSphinx then normalises the cepstra with the running mean of earlier utterances, and from the
first utterance fed in blocks on it does so for good, even for a whole utterance. After a loud,
noisy sentence, a quiet "two" at "How many?" was heard with that sentence's mean. On the real voices
in context streamed as the microphone delivers them (``tests/bench/speech.py --live``), the running
mean cost Speech Commands counts 10 points within one repair, and a chatter "zero" was acted on as a
count. A short answer is now decoded whole with its own mean: streamed after other utterances, it is
heard exactly as a fresh recogniser hears it whole.
"""

from __future__ import annotations

import pytest

from tabletop.cards import Rank
from tabletop.language import Context
from tabletop.speech import synth

PLAYERS = ("Ana", "Ben", "Cho")
HOW_MANY = Context(players=PLAYERS, current="Ana", phase="count", asker="Ana", target="Ben", rank=Rank.SEVEN)


def _streamed(recogniser, utterance, context=None):
    stream = recogniser.stream(context, PLAYERS, live=True)
    raw = utterance.raw()
    for i in range(0, len(raw), 960):
        stream.feed(raw[i:i + 960])
    return stream.finish()


@pytest.fixture(scope="module")
def answer(espeak: None):
    return synth.realistic("two", voice="en-us+f3", speed=150, seed=5, level_db=-34.0)


def test_a_streamed_short_answer_is_heard_as_a_fresh_recogniser_hears_it_whole(answer) -> None:
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

    fresh = PocketSphinxRecogniser(PLAYERS)
    whole = fresh.hear(answer, HOW_MANY)
    whole_fit = fresh.last_fit

    used = PocketSphinxRecogniser(PLAYERS)
    # A game under way: loud sentences in other voices over the table's noise, streamed live.
    for k, text in enumerate(("ben do you have any sevens", "cho do you have any kings", "go fish")):
        _streamed(used, synth.realistic(text, voice=("en", "en-us+m3", "en-gb")[k], seed=30 + k, snr_db=10,
                                        level_db=-12.0))
    heard = _streamed(used, answer, HOW_MANY)
    assert whole.text == "two", whole.text
    assert (heard.text, heard.confidence) == (whole.text, whole.confidence), (used.last_trace, fresh.last_trace)
    # The same features, not merely the same words: the grammar's words fit the sound exactly as well.
    assert used.last_fit == pytest.approx(whole_fit, abs=1e-9)

