"""A rank named alone ("Ana, which rank?") is checked as the open decoder heard it when it heard another rank.

Real decoding of espeak-ng speech. Held to the rank words, the grammar decoder leans to short ones; the
open decoder, free to hear any word, sometimes hears the rank said where the grammar read another. Then
the open decoder's rank is the one tabletop checks ("Queens?"), the grammar's reading stays as the first
alternative, and the reading is never sure enough to act on. Where both read the same rank (in any
words: "three" and "threes"), the grammar's reading stands.
"""

from __future__ import annotations

import pytest

from tabletop.cards import Rank
from tabletop.language import Context
from tabletop.language.understand import ACT
from tabletop.referee.intents import Ask
from tabletop.speech import synth

PLAYERS = ("Ana", "Ben", "Cho")
WHICH_RANK = Context(players=PLAYERS, current="Ana", phase="confirm", askable=frozenset(PLAYERS), asking="hold-rank",
                     expects="rank", choices=("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"),
                     partial=Ask(target="Ben", rank=Rank.JACK))


@pytest.fixture(scope="module")
def fresh(espeak: None):
    """A recogniser of its own: how an utterance is heard depends on what it heard before (the front
    end's noise estimate carries over), so each test starts from a fixed history."""
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

    return PocketSphinxRecogniser(PLAYERS)


def test_the_open_decoders_rank_is_checked_with_the_grammars_reading_second(fresh, espeak: None) -> None:
    queen = synth.realistic("queen", voice="en-us", speed=150, snr_db=20, seed=3)
    first = fresh.hear(queen, WHICH_RANK)  # heard first: both decoders read queen
    assert first.text == "queen", fresh.last_trace
    heard = fresh.hear(queen, WHICH_RANK)  # said again: the grammar reads "threes", the open decoder "queens"
    trace = fresh.last_trace
    assert trace["grammar"] == "threes", trace
    assert heard.text == "queens", trace
    assert heard.confidence < ACT
    assert [a.text for a in heard.alternatives][:2] == ["queens", "threes"]


def test_the_same_rank_in_other_words_leaves_the_grammars_reading(fresh, espeak: None) -> None:
    six = synth.realistic("six", voice="en-029", speed=150, seed=3)
    heard = [fresh.hear(six, WHICH_RANK) for _ in range(2)]
    trace = fresh.last_trace
    # en-029's "six" said again: the grammar reads "three", the open decoder "threes": one rank, no change.
    assert trace["open"][0] == "threes" and trace["grammar"] == "three", trace
    assert heard[-1].text == "three"
    assert "other_rank" not in trace
