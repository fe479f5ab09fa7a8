"""A correction's rank asked for after a "no" is filled by the rank said.

In the 20 dB pairs game of the table bench (``tests/bench/table.py --players 2 --preset pairs --snrs 20
--seed 4104``) Ben's (en+f3 at 155 words a minute) "book of fives" was laid as nines; his "no, I said
fives" was heard "no i said nines", asked "You said nines?", then "Threes?" after a "no three"; his
"no" to that asked "Okay. Which one?", and his "fives" filled nothing (read as an answer, "Two
sevens?"): 19 utterances to repair one book. The question now asks for the rank ("Which rank?"), the
rank said fills the correction, and it is checked ("Fives?") before it is acted on, as a rank given
to "A book of which rank?" is.
"""

from __future__ import annotations

from tabletop.language.transcript import Alternative, Transcript
from tabletop.rules import Rules
from tabletop.speech import synth
from tabletop.table import Table

PLAYERS = ("Ana", "Ben")  # the bench game's players: its recogniser knows these names alone


def _heard(text: str, confidence: float = 0.8) -> Transcript:
    return Transcript(text, confidence, (Alternative(text, confidence),), engine="pocketsphinx")


def _asked_which_rank() -> Table:
    """A pair of sevens laid, a correction heard "nines", then "threes", both denied."""
    table = Table.new(list(PLAYERS), Rules.preset("pairs"), None, first=0)
    table.start()
    for line in ("Ana asks Ben for sevens", "one", "book of sevens"):
        table.hear_text(line)
    assert table.hear(_heard("no i said nines"))[-1].text == "You said nines?"
    assert table.hear(_heard("no three"))[-1].text == "Threes?"
    assert table.hear(_heard("no", 0.95))[-1].text == "Okay. Which rank?"
    return table


def test_the_rank_said_fills_the_correction_and_is_checked(two_players) -> None:
    table = _asked_which_rank()
    before = table.game.public()
    # Ben's "fives" as the game said it (utterance 137 of seed 4104): heard, it fills the correction
    audio = synth.realistic("fives", voice="en+f3", speed=155, snr_db=20.0, seed=4104 * 1000 + 137)
    replies = table.hear_audio(audio, two_players)
    assert replies[-1].text == "Fives?", [r.event for r in replies]
    assert table.game.public() == before  # checked, not acted on
    replies = table.hear(_heard("yes", 0.95))
    assert replies[0].event["changed"] and replies[0].event["intent"] == {"type": "correct", "rank": "5"}, \
        [r.event for r in replies]
    assert "fives" in replies[0].text


def test_a_no_to_the_filled_rank_asks_again_and_acts_on_nothing() -> None:
    table = _asked_which_rank()
    before = table.game.public()
    assert table.hear(_heard("five"))[-1].text == "Fives?"
    assert table.hear(_heard("no", 0.95))[-1].text == "Okay. Which rank?"
    assert table.game.public() == before
