"""A book heard unsure between two ranks, one of which the game proves, is asked about by that rank.

en-us+m2's "book of fives" right after "Ben, that makes a pair of fives: lay it down" was read "a book of
nines" (0.45, the open decoder's readings holding fives and nines) and asked "A book of which rank?", then
"Fives?", then acted on after a "yes" (20 dB pairs game seed 4109). The game leaves one of the two:
"A book of fives?" is asked, and a "no" asks the open question (``Table._book_meant``). The utterance is
the game's (voice, speed, noise and seed), synthesised again and heard by PocketSphinx.
"""

from __future__ import annotations

import shutil

import pytest

from tabletop.language.transcript import Alternative, Transcript
from tabletop.rules import Rules
from tabletop.table import Table

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="espeak-ng is missing: apt-get install espeak-ng")


def _ben_got_a_five() -> Table:
    table = Table.new(("Ana", "Ben"), Rules.preset("pairs"), durable=False)
    table.hear_text("Ben, any kings?")
    table.hear_text("go fish")
    table.idle()
    table.hear_text("Ana, any fives?")
    assert table.hear_text("I have one")[-1].text.endswith("Ben, that makes a pair of fives: lay it down.")
    return table


def test_the_proven_book_is_asked_by_its_rank(fresh_two_players) -> None:
    from tabletop.speech import synth

    table = _ben_got_a_five()
    said = synth.realistic("book of fives", voice="en-us+m2", speed=135, snr_db=20, seed=4109 * 1000 + 23)
    replies = table.hear_audio(said, fresh_two_players)
    assert replies[0].event["heard"] == "a book of nines", [r.event for r in replies]
    assert replies[-1].text == "A book of fives?"
    assert table.hear_text("yes")[-1].text.startswith("Ben lays down a pair of fives.")


def test_a_no_asks_which_rank() -> None:
    table = _ben_got_a_five()
    heard = Transcript(text="a book of nines", confidence=0.45, engine="pocketsphinx",
                       alternatives=(Alternative("a book of nines", 0.45), Alternative("book of five", 0.27)),
                       heard_open=("book of five that", "book of nines of"))
    assert table.hear(heard)[-1].text == "A book of fives?"
    assert table.hear_text("no")[-1].text == "A book of which rank?"
