"""When one card is all the target can give, a heard "yes, one" needs no hearing of the "one".

In the pairs game a player lays each pair as soon as they hold it, so the target of an ask holds one
card of the rank at most (``Context.most_given``). The open decoder, free to hear any word, rarely hears
a spoken "one" ("yes a minute", "yes why", "yes i do mind"), so a right "yes, one" was asked back ("One
ten?"): the commonest extra utterance of the simulated pairs games at 20 dB. Its yes, heard by both
decoders with nothing else that matters, now backs the answer; the count is the game's. Where the target
may hold more (the standard game), the count is still asked about. Ben's "yes, one" below is from the
pairs game at 20 dB, seed 4102 (``tests/bench/table.py``), synthesised again as the bench made it.
"""

from __future__ import annotations

import shutil

import pytest

from tabletop.rules import Rules

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="espeak-ng is missing: apt-get install espeak-ng")


@pytest.mark.parametrize("preset, acted", [("pairs", True), ("standard", False)])
def test_yes_one_when_one_is_all_the_target_can_give(two_players, preset: str, acted: bool) -> None:
    from tabletop.speech import synth
    from tabletop.table import Table

    table = Table.new(("Ana", "Ben"), Rules.preset(preset), durable=False)
    table.hear_text("Ben, do you have any tens?")
    hands = table.game.public()["hands"]
    said = synth.realistic("yes, one", voice="en-us+f1", speed=190, snr_db=20, seed=4102 * 1000 + 154)
    replies = table.hear_audio(said, two_players)
    events = [r.event for r in replies]
    assert replies[0].event["heard"] == "yes one", events
    if acted:
        assert replies[-1].text.startswith("Ben gives Ana a ten."), events
        assert table.game.public()["hands"]["Ana"] == hands["Ana"] + 1
    else:
        assert replies[-1].text == "One ten?" and table.game.public()["hands"] == hands, events
