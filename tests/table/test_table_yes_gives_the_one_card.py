"""A "yes" to an ask whose target can hold one card of the rank at most gives that card: no "How many?".

In the pairs game a player lays each pair as soon as they hold it, so the target of an ask holds one
card of the rank at most (``Table._most_given``). The referee asked "How many?" after every yes with
no count all the same: 11 times in the 20 dB pairs game seed 4105 (``tests/bench/table.py``), where
en-gb+m4's "one" went unheard until typed, twice; twice in seed 4106. A yes heard surely is now the one
card. Where the target may hold more (the standard game), "How many?" is asked as before. The "yes" below
is the one of the 20 dB pairs game seed 4106 that was asked "How many?" (en-gb+m4 at 175 words a minute,
the game's noise and seed), synthesised again and heard by PocketSphinx.
"""

from __future__ import annotations

import shutil

import pytest

from tabletop.rules import Rules
from tabletop.table import Table

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="espeak-ng is missing: apt-get install espeak-ng")


def _yes():
    from tabletop.speech import synth

    return synth.realistic("yes", voice="en-gb+m4", speed=175, snr_db=20, seed=4106 * 1000 + 67)


@pytest.mark.parametrize("preset", ["pairs", "standard"])
def test_a_heard_yes_is_the_one_card_the_target_can_give(two_players, preset: str) -> None:
    table = Table.new(("Ana", "Ben"), Rules.preset(preset), durable=False)
    table.hear_text("Ben, do you have any eights?")
    hands = table.game.public()["hands"]
    replies = table.hear_audio(_yes(), two_players)
    events = [r.event for r in replies]
    assert events[0]["heard"] == "yes", events
    if preset == "pairs":
        assert replies[-1].text.startswith("Ben gives Ana an eight."), events
        assert replies[-1].event["intent"] == {"type": "answer", "count": 1}, events
        assert table.game.public()["hands"] == {"Ana": hands["Ana"] + 1, "Ben": hands["Ben"] - 1}
        assert table.pending is None
    else:  # Ben may hold three eights
        assert replies[-1].text == "How many?" and table.game.public()["hands"] == hands, events


def test_a_typed_yes_in_the_pairs_game_gives_the_one_card_too() -> None:
    table = Table.new(("Ana", "Ben"), Rules.preset("pairs"), durable=False)
    table.hear_text("Ben, do you have any eights?")
    assert table.hear_text("yes")[-1].text.startswith("Ben gives Ana an eight.")
