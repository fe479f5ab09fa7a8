"""A count more than the target can give, heard after a yes, is never asked about: the yes is.

In the pairs game the target of an ask holds one card of the rank at most (they would have laid a
pair). In a 20 dB game of the table bench (``tests/bench/table.py --players 2 --preset pairs --snrs 20
--seed 4101``, its 163rd utterance) Ana's "yes" to Ben's ask for jacks was heard "yes three" and asked
back as "Three jacks?"; her "yes" to that was refused ("Ana can't give three: at most one"), and so
again: six utterances for one "yes". The count is the babble's, so tabletop asks about the yes alone
("Yes, you have some?"), as it does for any yes not heard surely. The same audio is made here
(espeak-ng en-us+f5 at 190 words a minute, the game's noise and seed) and heard by PocketSphinx.
"""

from __future__ import annotations

import shutil

import pytest

from tabletop.language.transcript import Alternative, Transcript
from tabletop.rules import Rules
from tabletop.table import Table

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="espeak-ng is missing: apt-get install espeak-ng")


def test_yes_heard_with_an_impossible_count_asks_about_the_yes(two_players) -> None:
    from tabletop.speech import synth

    table = Table.new(("Ana", "Ben"), Rules.preset("pairs"), durable=False)
    table.hear_text("Ben, do you have any jacks?")
    hands = table.game.public()["hands"]
    said = synth.realistic("yes", voice="en-us+f5", speed=190, snr_db=20, seed=4101 * 1000 + 163)
    replies = table.hear_audio(said, two_players)
    events = [r.event for r in replies]
    assert events[0]["heard"] == "yes three", events  # the game's mishearing
    assert replies[-1].text == "Yes, you have some?" and table.game.public()["hands"] == hands, events
    replies = table.hear(Transcript("yes", 0.95, (Alternative("yes", 0.95),), engine="pocketsphinx"))
    # the yes gives the one jack Ben can hold (test_table_implied_count.py): no "How many?"
    assert replies[-1].text.startswith("Ben gives Ana a jack."), [r.text for r in replies]


def test_a_possible_count_is_still_asked_about() -> None:
    """In the standard game Ben may hold three: an unsure "yes three" is asked as it was heard."""
    table = Table.new(("Ana", "Ben"), Rules.preset("standard"), durable=False)
    table.hear_text("Ben, do you have any jacks?")
    replies = table.hear(Transcript("yes three", 0.45, (Alternative("yes three", 0.45),), engine="pocketsphinx"))
    assert replies[-1].text == "Three jacks?", [r.text for r in replies]


def test_a_count_heard_surely_is_asked_as_heard() -> None:
    """Heard surely, the table may overrule public knowledge (test_table_implausible_counts.py)."""
    table = Table.new(("Ana", "Ben"), Rules.preset("pairs"), durable=False)
    table.hear_text("Ben, do you have any jacks?")
    replies = table.hear(Transcript("yes three", 0.95, (Alternative("yes three", 0.95),), engine="pocketsphinx"))
    assert replies[-1].text == "Three jacks?", [r.text for r in replies]


def _game_at_one_queen() -> Table:
    """Ben asked Ana for queens in the pairs game; her "here you go, 1" heard unsurely: "One queen?"."""
    table = Table.new(("Ana", "Ben"), Rules.preset("pairs"), durable=False)
    table.hear_text("Ben, do you have any twos?")
    table.hear_text("go fish")
    table.idle()
    table.hear_text("Ana, do you have any queens?")
    replies = table.hear(Transcript("here you go one", 0.45, (Alternative("here you go one", 0.45),), engine="pocketsphinx"))
    assert replies[-1].text == "One queen?", [r.text for r in replies]
    return table


def test_yes_with_an_impossible_count_to_a_count_check_is_the_yes() -> None:
    """20 dB pairs game, seed 4103: Ana's "yes" to "One queen?" was heard "yes two of them" (confidence
    0.653, both decoders opening with "yes") and taken for a correction to two ("Two?"), which no
    answer gets past: she gave up and typed. Heard surely, the yes confirms the one queen."""
    table = _game_at_one_queen()
    hands = table.game.public()["hands"]
    replies = table.hear(Transcript("yes two of them", 0.653, (Alternative("yes two of them", 0.653),),
                                    engine="pocketsphinx"))
    assert replies[-1].text.startswith("Ana gives Ben a queen."), [r.text for r in replies]
    assert table.game.public()["hands"]["Ben"] == hands["Ben"] + 1


def test_an_unsure_impossible_count_to_a_count_check_asks_it_again() -> None:
    table = _game_at_one_queen()
    before = table.game.public()
    replies = table.hear(Transcript("yes two of them", 0.45, (Alternative("yes two of them", 0.45),),
                                    engine="pocketsphinx"))
    assert replies[-1].text == "Sorry, I didn't catch that. One queen?" and table.game.public() == before, \
        [r.text for r in replies]
