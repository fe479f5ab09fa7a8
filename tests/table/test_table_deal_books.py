"""A book from the deal, called before the first ask, is as expected as the first ask (PRODUCT.md
section 1: "a book in the deal").

Ben's "Ben has a book of fives" at 20 dB in a simulated pairs game (``tests/bench/table.py --players 2
--preset pairs --snrs 20 --seed 4102``), read "ben has a book of five" by both decoders at 0.84, was
asked back ("Ben has a book of fives?") because a book call in the ask phase is a late one, less
likely than an ask: three such questions opened that game. Before the first ask it is not late.
Synthesised again here as the bench made it (voice, speed, noise seed), after the game's first two
deal books.
"""

from __future__ import annotations

import shutil

import pytest

from tabletop.rules import Rules

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="espeak-ng is missing: apt-get install espeak-ng")


def test_a_book_from_the_deal_heard_surely_is_recorded_without_a_question() -> None:
    from tabletop.speech import synth
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser
    from tabletop.table import Table

    table = Table.new(("Ana", "Ben"), Rules.preset("pairs"), durable=False)
    table.hear_text("Ana has a book of kings")
    table.hear_text("Ben has a book of twos")
    recogniser = PocketSphinxRecogniser(("Ana", "Ben"))
    said = synth.realistic("Ben has a book of fives", voice="en-us+f1", speed=190, snr_db=20, seed=4102 * 1000 + 4)
    replies = table.hear_audio(said, recogniser)
    events = [r.event for r in replies]
    assert replies[0].event["heard"] == "ben has a book of five", events
    assert not any(e.get("event") == "question" for e in events), events
    assert table.game.public()["books"]["Ben"] == ["2", "5"]


def test_after_the_first_ask_a_book_in_the_ask_phase_is_still_a_late_call() -> None:
    """The same words once play has begun: heard unsurely enough to ask, as before."""
    from tabletop.language.transcript import Alternative, Transcript
    from tabletop.table import Table

    table = Table.new(("Ana", "Ben"), Rules.preset("pairs"), durable=False)
    heard = Transcript("ben has a book of nines", 0.94, (Alternative("ben has a book of nines", 0.94),),
                       engine="pocketsphinx")
    table.hear_text("Ben, any fours?")
    table.hear_text("go fish")
    table.idle()
    assert table.context().phase == "ask" and not table.context().dealing
    assert table.hear(heard)[-1].text == "Ben has a book of nines?"
