"""Ranks the recogniser confuses are asked about, not acted on (vocabulary.yaml ``confusable_ranks``).

Ben's "Ana, queens?" in a simulated pairs game at 20 dB (``tests/bench/table.py --players 2 --preset
pairs --snrs 20 --seed 4102``, kings, twos and sevens down) was read "ana threes" by the grammar and
"ana three that" by the open decoder, nearly all of whose 25 readings held a three: the decoders
agreed, and the table acted on an ask of threes. "queens" and "threes" are confusable: the ask is
checked ("Ana, threes?"). Synthesised again here as the bench made it (voice, speed, noise seed).
"""

from __future__ import annotations

import shutil

import pytest

from tabletop.rules import Rules

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="espeak-ng is missing: apt-get install espeak-ng")


def test_queens_heard_as_threes_is_checked() -> None:
    from tabletop.speech import synth
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser
    from tabletop.table import Table

    table = Table.new(("Ana", "Ben"), Rules.preset("pairs"), durable=False)
    for rank in ("kings", "twos", "sevens"):
        table.hear_text(f"Ana has a book of {rank}")
        table.hear_text(f"Ben has a book of {rank}")
    table.hear_text("Ben, do you have any fours?")
    table.hear_text("go fish")
    table.idle()
    assert table.context().current == "Ben"
    before = table.game.public()
    recogniser = PocketSphinxRecogniser(("Ana", "Ben"))
    replies = table.hear_audio(synth.realistic("Ana, queens?", voice="en-us+f1", speed=190, snr_db=20,
                                               seed=4102 * 1000 + 131), recogniser)
    events = [r.event for r in replies]
    assert replies[0].event["heard"] == "ana threes", events  # misheard as in the game
    assert replies[-1].text == "Ana, threes?" and events[-1]["event"] == "question", events
    assert table.game.public() == before


def test_a_book_rank_given_to_which_rank_is_checked() -> None:
    """"A book of which rank?" answered "threes", heard "queens" by both decoders at 0.8 (Ben, en+m6 at
    135 words a minute, the pairs game at 20 dB, seed 4101): a rank word heard alone is checked
    ("Queens?") as for an ask, never acted on; it laid a pair of queens."""
    from tabletop.language.transcript import Alternative, Transcript
    from tabletop.speech import synth
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser
    from tabletop.table import Table

    def heard(text: str, confidence: float) -> Transcript:
        return Transcript(text, confidence, (Alternative(text, confidence),), engine="pocketsphinx")

    table = Table.new(("Ana", "Ben"), Rules.preset("pairs"), durable=False)
    table.hear_text("Ben, do you have any sevens?")
    table.hear_text("go fish")
    table.idle()
    assert table.hear(heard("i've all the threes", 0.45))[-1].text == "A book of threes?"
    assert table.hear(heard("nah two", 0.9))[-1].text == "Twos?"
    assert table.hear(heard("no", 0.95))[-1].text == "Okay. A book of which rank?"
    before = table.game.public()
    replies = table.hear_audio(synth.realistic("threes", voice="en+m6", speed=135, snr_db=20, seed=4101 * 1000 + 21),
                               PocketSphinxRecogniser(("Ana", "Ben")))
    events = [r.event for r in replies]
    assert replies[0].event["heard"] == "queens", events
    assert replies[-1].text == "Queens?" and table.game.public() == before, events
