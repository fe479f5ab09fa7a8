"""Answers said out loud, as a family says them, heard for real (espeak-ng → PocketSphinx → the table).

A bare "no" or "nope" to an ask is the target's go fish (PRODUCT.md section 1: answer, miss). Heard
clearly, it is acted on at once like "go fish": the readings "no" and "go fish" do the same thing
right after an ask, so they back each other rather than compete, and no "Go fish?" is asked.
"""

from __future__ import annotations

import shutil

import pytest

PLAYERS = ("Ana", "Ben", "Cho")

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="espeak-ng is missing: apt-get install espeak-ng")


@pytest.fixture(scope="module")
def recogniser():
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

    r = PocketSphinxRecogniser(PLAYERS)
    r.warm_up()
    return r


def say(text: str, voice: str, seed: int):
    from tabletop.speech import synth

    return synth.realistic(text, voice=voice, seed=seed)


# (voices and noise seeds for which today's recogniser hears the word itself, and surely)
@pytest.mark.parametrize("line, voice, seed", [("no", "en-us", 22), ("nope", "en-us", 22), ("nope", "en", 22),
                                               ("no", "en-us+m3", 21)])
def test_a_clear_bare_no_to_an_ask_is_a_go_fish_without_a_question(recogniser, line: str, voice: str,
                                                                    seed: int) -> None:
    from tabletop.table import Table

    table = Table.new(PLAYERS, durable=False)
    table.hear_text("Ben, do you have any sevens?")
    stock = table.game.public()["stock"]
    replies = table.hear_audio(say(line, voice, seed), recogniser)
    events = [r.event for r in replies]
    assert replies[0].event["heard"] == line, events
    assert not any(e.get("event") == "question" for e in events), events
    assert replies[0].text.startswith("Go fish, Ana."), events
    assert table.game.public()["stock"] == stock - 1 and table.pending is None
