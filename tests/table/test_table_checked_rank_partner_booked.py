"""An ask of fives (or nines) is acted on when its partner rank is all booked.

Fives and nines are heard for one another with no trace of the other in any reading, so an ask or a
book of either is checked ("Ana, fives?") however the decoders agree. Once every nine is in books
nobody can ask for nines (the referee refuses it), so a reading of fives cannot stand for them. In the
20 dB pairs game seed 4106, en-us+f5's "Ana, give me your fives" with the nines booked out was asked
"Ana, fives?" all the same, one "yes" for nothing; so were 11 more asks and books in 14 kept games,
all right. The audio is the games' own, heard by PocketSphinx in the game's context; with the nines
still in play the same audio is checked, as before.
"""

from __future__ import annotations

import pytest

from tabletop.rules import Rules
from tabletop.speech import synth
from tabletop.table import Table


def _game(first: int, nines_booked: bool) -> Table:
    table = Table.new(["Ana", "Ben"], Rules.preset("pairs"), None, first=first)
    table.start()
    if nines_booked:
        for line in ("Ana has a book of nines", "Ben has a book of nines"):
            table.hear_text(line)
    return table


@pytest.mark.parametrize("voice, speed, snr, seed, said, first, checked, acted", [
    ("en-us+f5", 190, 20.0, 4106120, "Ana, give me your fives", 1, "Ana, fives?", "Ben asks Ana for fives."),
    ("en-us+m2", 135, None, 4104234, "Ana asks Ben for fives", 0, "Ana asks Ben for fives?", "Ana asks Ben for fives."),
])
def test_an_ask_of_fives_with_the_nines_booked_out_is_acted_on(fresh_two_players, voice: str, speed: int,
                                                                snr: float | None, seed: int, said: str, first: int,
                                                                checked: str, acted: str) -> None:
    audio = synth.realistic(said, voice=voice, speed=speed, snr_db=snr, seed=seed)
    table = _game(first, nines_booked=False)
    replies = table.hear_audio(audio, fresh_two_players)
    assert replies[-1].text == checked and not replies[-1].event["changed"], [r.text for r in replies]
    table = _game(first, nines_booked=True)
    replies = table.hear_audio(audio, fresh_two_players)
    assert replies[-1].text == acted and replies[-1].event["changed"], [r.text for r in replies]
