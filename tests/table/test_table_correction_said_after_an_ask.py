"""Right after an ask, a heard "no, I said fives" is the asker's correction, asked about at once.

A correction opening with "no" right after an ask is asked as the target's go fish first ("Go fish?"):
the target's "nope" is often heard "no tens". But a "nope" is not heard as four words that say they
correct ("no, I said fives", "no, I meant fives"). In the kept traces of 15 simulated pairs games
(seeds 4103-4108) all 16 such readings right after an ask were the asker's "no, I said ...", each
asked "Go fish?", denied, then "You said fives?". Now "You said fives?" comes first; as before
nothing is acted on until confirmed.

The audio is the games' own (en+f3 at 155 words a minute said a little faster or slower, seed 4104, at
20 dB and clean), heard by PocketSphinx in the game's context.
"""

from __future__ import annotations

import pytest

from tabletop.language.transcript import Alternative, Transcript
from tabletop.rules import Rules
from tabletop.speech import synth
from tabletop.table import Table


def _nines_asked() -> Table:
    table = Table.new(["Ana", "Ben"], Rules.preset("pairs"), None, first=1)
    table.start()
    table.hear_text("Ana, nines?")
    return table


def _heard(text: str, confidence: float) -> Transcript:
    return Transcript(text, confidence, (Alternative(text, confidence),), engine="pocketsphinx")


@pytest.mark.parametrize("speed, snr, seed, heard, asked", [
    (133, 20.0, 4104043, "no i said five", "You said fives?"),
    (165, 20.0, 4104040, "nope i said nine", "You said nines?"),
    (165, None, 4104073, "nope i said nines", "You said nines?"),
])
def test_a_correction_saying_so_is_asked_about_at_once(two_players, speed: int, snr: float | None, seed: int,
                                                        heard: str, asked: str) -> None:
    table = _nines_asked()
    before = table.game.public()
    replies = table.hear_audio(synth.realistic("no, I said fives", voice="en+f3", speed=speed, snr_db=snr, seed=seed),
                               two_players)
    assert replies[0].event["heard"] == heard, [r.event for r in replies]  # as in the games
    assert replies[-1].text == asked, [r.text for r in replies]
    assert table.game.public() == before


def test_the_correction_confirmed_is_acted_on_and_a_bare_no_rank_is_still_a_go_fish_first() -> None:
    table = _nines_asked()
    assert table.hear(_heard("no i said five", 0.45))[-1].text == "You said fives?"
    replies = table.hear(_heard("yes", 0.9))
    assert replies[0].event["changed"] and replies[0].text == "Corrected: Ben asks Ana for fives.", [r.text for r in replies]
    table = _nines_asked()
    assert table.hear(_heard("no fives", 0.45))[-1].text == "Go fish?"
    assert table.hear(_heard("no", 0.9))[-1].text == "You said fives?"
