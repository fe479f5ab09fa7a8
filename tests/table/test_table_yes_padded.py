"""A "yes" padded into an answer ("yes i have them") at a question about a book is the yes.

The decoders fill a short "yes" said over the table's babble with words ("yes i do", "yes i have them"),
and those read as an answer to an ask with no count. At "A book of fours?" no ask is being answered:
taken for an answer it asked "Yes, you have some?", then took a "no", the book said again and its
question again (the simulated pairs games at 20 dB, seeds 4101 and 4102). It is the yes: acted on
when heard surely, else the question is asked once more. Where both decoders agree the padding adds
nothing, the recogniser itself hears the bare "yes" (``pocketsphinx._bare_answer``).
"""

from __future__ import annotations

import shutil

import pytest

from tabletop.language.transcript import Alternative, Transcript
from tabletop.rules import Rules

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="espeak-ng is missing: apt-get install espeak-ng")


def _book_asked():
    """Ana's "book of fours" heard unsurely before any four is known in her hand (a book the game
    proves, "that makes a pair of fours: lay it down", heard unsurely is recorded at once)."""
    from tabletop.table import Table

    table = Table.new(("Ana", "Ben"), Rules.preset("pairs"), durable=False)
    shaky = Transcript("that's book of fours", 0.45, (Alternative("that's book of fours", 0.45),), engine="pocketsphinx")
    assert table.hear(shaky)[-1].text == "A book of fours?"
    return table


def test_a_padded_yes_is_the_yes_and_lays_the_book() -> None:
    from tabletop.speech import synth
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

    table = _book_asked()
    recogniser = PocketSphinxRecogniser(("Ana", "Ben"))
    replies = table.hear_audio(synth.realistic("yes", voice="en+m6", speed=175, snr_db=20, seed=7004), recogniser)
    events = [r.event for r in replies]
    assert recogniser.last_trace["grammar"] in ("yes i do", "yes i have them"), recogniser.last_trace  # padded
    # the recogniser cuts the padding both decoders agree adds nothing (pocketsphinx._bare_answer)
    assert replies[0].event["heard"] == "yes", events
    assert replies[-1].text.startswith("Ana lays down a pair of fours."), events


def test_a_padded_yes_heard_unsurely_asks_the_book_again() -> None:
    table = _book_asked()
    before = table.game.public()
    shaky = Transcript("yes i do", 0.45, (Alternative("yes i do", 0.45),), engine="pocketsphinx")
    assert table.hear(shaky)[-1].text == "Sorry, I didn't catch that. A book of fours?"
    assert table.game.public() == before
    # the yes said again, heard surely, lays the book
    assert table.hear(Transcript("yes", 0.95, (Alternative("yes", 0.95),), engine="pocketsphinx"))[-1].text \
        .startswith("Ana lays down a pair of fours.")


def test_a_padded_yes_heard_surely_lays_the_book() -> None:
    table = _book_asked()
    sure = Transcript("yes i do", 0.9, (Alternative("yes i do", 0.9),), engine="pocketsphinx")
    assert table.hear(sure)[-1].text.startswith("Ana lays down a pair of fours.")
