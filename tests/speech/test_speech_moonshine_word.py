"""Moonshine hears a checked sentence's rank word alone (PocketSphinxRecogniser._second_on_rank, moonshine.word_alone).

A whole-sentence ask or book of fives or nines is checked only for its rank; Moonshine's second opinion on
it is asked of the rank word's stretch of audio (the segment PocketSphinx's grammar decoder gave the word,
with moonshine.WORD_LEAD_S before and WORD_TAIL_S after), not the whole sentence: Moonshine's time grows
with the audio. Real decoding throughout: espeak-ng speech synthesised as the table bench makes it, the
real PocketSphinx decoders and the real Moonshine model (skipped, with the reason, where it is not
installed); what was handed to the second listener is checked with a listener that keeps it.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from tabletop.cards import Rank
from tabletop.language import Context
from tabletop.language.understand import understand
from tabletop.speech import synth
from tabletop.speech.audio import SAMPLE_RATE, Utterance

from fixed_listener import Says

PLAYERS = ("Ana", "Ben")
ANA_ASKS = Context(players=PLAYERS, current="Ana", phase="ask", askable=frozenset({"Ben"}))
# En-us+f5's "Ana asks Ben for fives" at 190 words a minute (clean pairs game seed 4113, utterance 25):
# checked ("Ben, fives?") only for being a five.
ASK_OF_FIVES = ("Ana asks Ben for fives", "en-us+f5", 190, 4113 * 1000 + 25)


class Keeps(Says):
    """Says fixed words, and keeps the audio it was handed."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.heard: list[Utterance] = []

    def transcribe(self, utterance: Utterance) -> str:
        self.heard.append(utterance)
        return super().transcribe(utterance)


def _moonshine_or_skip():
    from tabletop.speech.recognisers.moonshine import moonshine_status, shared_listener

    status = moonshine_status()
    if not status["ok"]:
        pytest.skip(f"Moonshine is not installed here: {status['problem']}")
    return shared_listener()


def _hear(listener, said: str, voice: str, speed: int, seed: int, context: Context = ANA_ASKS):
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

    r = PocketSphinxRecogniser(PLAYERS)
    r.second = listener
    r.warm_up(context)
    audio = synth.realistic(said, voice=voice, speed=speed, seed=seed)
    heard = r.hear(audio, context)
    return heard, r.last_trace, audio


def test_the_second_listener_is_handed_the_rank_word_alone(espeak: None) -> None:
    from tabletop.speech.recognisers.moonshine import WORD_LEAD_S, WORD_TAIL_S

    keeps = Keeps("Fives.")
    heard, trace, audio = _hear(keeps, *ASK_OF_FIVES)
    assert trace["rank_checked"] == "9" and keeps.calls == 1, trace
    start, end = trace["second_span"]
    # The grammar decoder's segment of "fives", the last word of the sentence
    assert trace["grammar"].split()[-1] == "fives" and 0.5 < start < end <= len(audio.samples) / SAMPLE_RATE, trace
    word = keeps.heard[0].samples
    first = int((start - WORD_LEAD_S) * SAMPLE_RATE)
    assert len(word) == min(len(audio.samples), int((end + WORD_TAIL_S) * SAMPLE_RATE)) - first
    assert np.array_equal(word, audio.samples[first:first + len(word)])
    assert len(word) < 0.6 * len(audio.samples)  # "Ana asks Ben for" is not heard again
    u = understand(heard, ANA_ASKS)
    assert u.act and u.intent.rank is Rank.FIVE and heard.agreed == (("rank", "5"),), (heard, trace)


def test_moonshine_hears_the_rank_word_alone_and_lifts_the_check(espeak: None) -> None:
    heard, trace, audio = _hear(_moonshine_or_skip(), *ASK_OF_FIVES)
    assert trace["rank_checked"] == "9" and "second_span" in trace, trace
    assert trace["second_agrees"] == "5" and "five" in trace["second"].lower(), trace
    u = understand(heard, ANA_ASKS)
    assert u.act and u.intent.rank is Rank.FIVE and heard.agreed == (("rank", "5"),), (heard, trace)


def test_the_rank_word_alone_is_heard_faster_than_the_whole_sentence(espeak: None) -> None:
    from tabletop.speech.recognisers.moonshine import word_alone

    moonshine = _moonshine_or_skip().load()
    _, trace, audio = _hear(moonshine, *ASK_OF_FIVES)
    word = word_alone(audio, *trace["second_span"])

    def cpu(u: Utterance) -> float:
        times = []
        for _ in range(3):
            start = time.process_time()
            moonshine.transcribe(u)
            times.append(time.process_time() - start)
        return sorted(times)[1]

    assert cpu(word) < 0.8 * cpu(audio)


@pytest.mark.parametrize("start, end, first, last", [(1.0, 1.4, 0.95, 1.7), (0.02, 0.3, 0.0, 0.6), (1.8, 1.95, 1.75, 2.0)])
def test_word_alone_keeps_the_margins_inside_the_utterance(start: float, end: float, first: float, last: float) -> None:
    from tabletop.speech.recognisers.moonshine import WORD_LEAD_S, WORD_TAIL_S, word_alone

    assert (WORD_LEAD_S, WORD_TAIL_S) == (0.05, 0.3)
    samples = (np.arange(2 * SAMPLE_RATE) % 1000).astype(np.int16)
    word = word_alone(Utterance(samples), start, end)
    lo, hi = int(round(first * SAMPLE_RATE)), int(round(last * SAMPLE_RATE))
    assert abs(len(word.samples) - (hi - lo)) <= 1 and abs(int(word.samples[0]) - int(samples[lo])) <= 1


def test_a_reading_with_no_one_word_for_the_rank_is_heard_whole(espeak: None) -> None:
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

    r = PocketSphinxRecogniser(PLAYERS)
    r.warm_up(ANA_ASKS)
    r.hear(synth.realistic(ASK_OF_FIVES[0], voice=ASK_OF_FIVES[1], speed=ASK_OF_FIVES[2], seed=ASK_OF_FIVES[3]), ANA_ASKS)
    assert r._word_span({"5"}, PLAYERS) is not None
    assert r._word_span({"9"}, PLAYERS) is None  # no word of the reading names nines
    assert r._word_span({"5", "9"}, PLAYERS) is None
