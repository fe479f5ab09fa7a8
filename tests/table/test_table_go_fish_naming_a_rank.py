"""A go fish heard with no ask open, its words naming one rank, is asked as the player's ask ("Ana, sixes?").

With no ask open a go fish answers nothing. In the 20 dB pairs game seed 4106 (``tests/bench/table.py``,
main f8cc016 with Moonshine on) en-us+f5's "Ana, got any 6s?" and "Ana, got any aces?" at the start of
Ben's turn were heard "i haven't got any sixes" / "... aces": tabletop asked "Go fish?", Ben said "no",
then the ask again (4 utterances more). The one rank the words name is the ask with its name misheard
(as ``Table._likelier_ask`` already took "i meant any eights"): "Ana, sixes?", and a yes acts. In the
traces of every simulated game kept (seeds 4103-4106) these two are the only go fish naming a rank asked
about, both asks. The two sentences are the game's, synthesised again and heard by PocketSphinx.
"""

from __future__ import annotations

import shutil

import pytest

from tabletop.language.transcript import Alternative, Transcript
from tabletop.rules import Rules
from tabletop.table import Table

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="espeak-ng is missing: apt-get install espeak-ng")


@pytest.mark.parametrize("said, k, rank, word", [("Ana, got any 6s?", 31, "6", "sixes"),
                                                 ("Ana, got any aces?", 37, "A", "aces")])
def test_i_havent_got_any_sixes_at_the_start_of_a_turn_is_the_ask(two_players, said, k, rank, word) -> None:
    from tabletop.speech import synth

    table = Table.new(("Ana", "Ben"), Rules.preset("pairs"), durable=False, first=1)
    table.start()
    before = table.game.public()
    u = synth.realistic(said, voice="en-us+f5", speed=190, snr_db=20, seed=4106 * 1000 + k)
    replies = table.hear_audio(u, two_players)
    events = [r.event for r in replies]
    assert events[0]["heard"] == f"i haven't got any {word}", events
    assert replies[-1].text == f"Ana, {word}?" and table.game.public() == before, events
    assert replies[-1].event["about"] == {"type": "ask", "target": "Ana", "rank": rank}
    yes = Transcript("yes", 0.95, (Alternative("yes", 0.95),), engine="pocketsphinx")
    assert table.hear(yes)[-1].text.endswith(f"Ben asks Ana for {word}.")


def test_a_no_to_the_guessed_ask_asks_for_the_sentence_again() -> None:
    table = Table.new(("Ana", "Ben"), Rules.preset("pairs"), durable=False, first=1)
    table.start()
    heard = Transcript("i haven't got any sixes", 0.4, (Alternative("i haven't got any sixes", 0.4),),
                       engine="pocketsphinx")
    assert table.hear(heard)[-1].text == "Ana, sixes?"
    no = Transcript("no", 0.95, (Alternative("no", 0.95),), engine="pocketsphinx")
    assert table.hear(no)[-1].text == "Okay, say it again." and table.pending is None


def test_right_after_an_ask_it_is_the_targets_go_fish() -> None:
    table = Table.new(("Ana", "Ben"), Rules.preset("pairs"), durable=False, first=1)
    table.start()
    table.hear_text("Ana, do you have any sixes?")
    heard = Transcript("i haven't got any sixes", 0.95, (Alternative("i haven't got any sixes", 0.95),),
                       engine="pocketsphinx")
    assert "Ana, sixes?" not in table.hear(heard)[-1].text
