"""A British voice is heard as well as an American one: its open short a is in the dictionary.

The CMU dictionary is American. Real decoding of espeak-ng's British English voice (``en-gb``), in
the ask phase of a game: without British readings its open short a ("jacks" [dʒaks], "have"
[hav], "asks" [asks]) was heard as "ace", "how many", "wrong six". Measured before the change
(the same sentences, voices and seeds): "ben do you have any jacks" (160 words a minute) was acted
on as an ask for aces, "book of jacks" (135) as a book of aces, and "ben do you have any sevens",
"ana asks ben for tens" (135) were dropped (the open decoder heard "how many sat one"). With the
short a of espeak-ng's ``en-gb`` (AA) beside the dictionary's AE (:data:`tabletop.speech.pronounce.ACCENTS`),
all four are heard right and acted on. No other British difference is added: with a sound fewer
(no r after a vowel: "are" AA) talk behind a "yes" was heard as "yes here are two"; with its other
vowels ("one" W AA N) real Speech Commands "go"s and "yes"es were heard as "one".

A recogniser of its own, fresh: PocketSphinx's noise removal carries over from one utterance to the
next, so what came before changes the decode.
"""

from __future__ import annotations

import pytest

from tabletop.language import Context
from tabletop.language.understand import ACT, understand
from tabletop.speech import synth
from tabletop.speech.grammars import parse_intent
from tabletop.speech.pronounce import cmudict, pronunciations

PLAYERS = ("Ana", "Ben", "Cho")
ASK = Context(players=PLAYERS, current="Ana", phase="ask")


def test_british_readings_come_after_the_dictionarys() -> None:
    readings = pronunciations(["jacks", "fours", "have", "of", "seven"])
    for word in ("jacks", "fours", "have", "of"):
        assert readings[word][: len(cmudict()[word])] == cmudict()[word]  # the dictionary's first
    assert "JH AA K S" in readings["jacks"] and "HH AA V" in readings["have"]
    assert "F AO Z" not in readings["fours"]  # a sound fewer (no r): it fits babble too easily
    assert "AA V" not in readings["of"]  # another vowel than the short a: not added
    assert readings["seven"] == cmudict()["seven"]  # the same reading: nothing added
    assert pronunciations(["jacks"], accents=())["jacks"] == cmudict()["jacks"]


@pytest.fixture(scope="module")
def fresh(espeak: None):
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

    r = PocketSphinxRecogniser(PLAYERS)
    r.warm_up(ASK)
    return r


@pytest.mark.parametrize("text, speed", [
    ("ben do you have any jacks", 160),
    ("book of jacks", 135),
    ("ben do you have any sevens", 135),
    ("ana asks ben for tens", 135),
])
def test_a_british_voice_is_heard_and_acted_on(fresh, text: str, speed: int) -> None:
    heard = fresh.hear(synth.realistic(text, voice="en-gb", speed=speed, seed=3), ASK)
    assert parse_intent(heard.text, PLAYERS) == parse_intent(text, PLAYERS), (heard.text, fresh.last_trace)
    assert heard.confidence >= ACT and understand(heard, ASK).intent is not None, (heard.confidence, fresh.last_trace)
