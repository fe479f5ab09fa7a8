"""A rank both decoders read, with no confusable partner heard, is not doubted again by the language layer.

Real decoding of espeak-ng speech (the understanding bench's own utterances: its seeds, voices and
speeds, ``tests/bench/understanding.py``). ``understand`` adds, for every spoken reading with a rank,
the rank the recogniser confuses with it (vocabulary.yaml ``confusable_ranks``) as a rival at +0.9: a
reading's share is then at most 0.71, and a clean "book of tens" read alike by both decoders (0.93)
came out at 0.49, under the acting bar, and was asked back ("A book of tens?"). PocketSphinx checks
that partner itself (``_confusable_rank_heard``: any of the open decoder's 25 readings holding it caps
the reading to a question); when both decoders read the same command and none of their readings holds
a partner, it says so (``Transcript.ranks_checked``) and the rank is not doubted twice. A looser
backing (the words in common, 0.6-0.7) is never so marked: "cho i'm asking for any deuce" backed 0.6
at 10 dB was a "king".
"""

from __future__ import annotations

import shutil

import pytest

from tabletop.cards import Rank
from tabletop.language import Context
from tabletop.language.transcript import Alternative, Transcript
from tabletop.language.understand import understand
from tabletop.referee.intents import Book

PLAYERS = ("Ana", "Ben", "Cho")
ASK_PHASE = Context(players=PLAYERS, current="Ana", phase="ask")


@pytest.fixture(scope="module")
def recogniser():
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed (apt-get install espeak-ng): cannot synthesise test speech")
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

    r = PocketSphinxRecogniser(PLAYERS)
    r.warm_up(ASK_PHASE)
    return r


@pytest.mark.parametrize("said, voice, speed, snr, seed, rank", [
    ("book of tens", "en-gb-x-rp+m5", 140, None, 7203, Rank.TEN),
    ("all four aces", "en-us+f4", 180, 20, 7255, Rank.ACE),
])
def test_a_book_both_decoders_read_with_no_partner_heard_is_acted_on(recogniser, said, voice, speed, snr, seed,
                                                                      rank) -> None:
    from tabletop.speech import synth

    heard = recogniser.hear(synth.realistic(said, voice=voice, speed=speed, snr_db=snr, seed=seed), ASK_PHASE)
    trace = recogniser.last_trace
    assert heard.ranks_checked, (heard, trace)
    u = understand(heard, ASK_PHASE)
    assert u.act and u.intent == Book(rank), (heard.text, heard.confidence, u, trace)


def test_only_the_recognisers_own_check_drops_the_confusable_rival() -> None:
    # the same words, heard alike (0.93), without the recogniser's check: still asked ("A book of tens?")
    unchecked = Transcript("book of tens", 0.93, (Alternative("book of tens", 0.93),), engine="pocketsphinx")
    assert not understand(unchecked, ASK_PHASE).act
    # checked by the recogniser: acted on
    checked = Transcript("book of tens", 0.93, (Alternative("book of tens", 0.93),), engine="pocketsphinx",
                         ranks_checked=True)
    assert understand(checked, ASK_PHASE).act
