"""A book public knowledge proves, heard unsurely, is recorded: the game is its second hearing.

In the 20 dB pairs game of the table bench (``tests/bench/table.py --quick --snrs 20 --seed 4104``,
its 181st utterance) Ben's "Ben has a book of fours" (espeak-ng en+f3 at 155 words a minute), said
right after "Ana gives Ben a four. Ben, that makes a pair of fours: lay it down", was read right by the
grammar, and the open decoder heard "ben has a book of all with": a reading it did not back, so
tabletop asked "Ben has a book of fours?" and waited for a yes. That was the commonest extra utterance
of the books in those games. The same audio is made here and heard by PocketSphinx in the game's
context: the book is laid down. The same unsure hearing of a book the game does not prove is asked.
"""

from __future__ import annotations

from tabletop.rules import Rules
from tabletop.speech import synth
from tabletop.table import Table

GAME_SEED = 4104


def _ben_took_a_four() -> Table:
    table = Table.new(["Ana", "Ben"], Rules.preset("pairs"), None, first=1)
    table.start()
    table.hear_text("Ana, any fours?")
    assert "that makes a pair of fours" in table.hear_text("yes, one")[-1].text
    return table


def _said(text: str, utterance: int):
    return synth.realistic(text, voice="en+f3", speed=155, snr_db=20.0, seed=GAME_SEED * 1000 + utterance)


def test_the_book_the_game_proves_heard_unsurely_is_recorded(fresh_two_players) -> None:
    table = _ben_took_a_four()
    replies = table.hear_audio(_said("Ben has a book of fours", 181), fresh_two_players)
    assert fresh_two_players.last_trace["confidence"] < 0.5, fresh_two_players.last_trace  # unsure: asked about on main
    assert replies[-1].event.get("changed"), [r.event for r in replies]
    assert table.game.public()["books"]["Ben"] == ["4"], [r.text for r in replies]
    assert table.pending is None


def test_a_book_the_game_does_not_prove_heard_unsurely_is_asked(fresh_two_players) -> None:
    """Ben's "Ben has a book of jacks" at the start of the game (the bench's 5th utterance), after the
    book of fours: an unsure hearing (the open decoder heard "ben has a book of your eight"), no jack
    known in his hand; asked, nothing recorded."""
    table = _ben_took_a_four()
    table.hear_audio(_said("Ben has a book of fours", 181), fresh_two_players)
    table = Table.new(["Ana", "Ben"], Rules.preset("pairs"), None, first=1)
    table.start()
    replies = table.hear_audio(_said("Ben has a book of jacks", 5), fresh_two_players)
    assert fresh_two_players.last_trace["confidence"] < 0.5, fresh_two_players.last_trace
    assert replies[-1].event["event"] == "question" and replies[-1].text == "Ben has a book of jacks?", \
        [r.text for r in replies]
    assert table.game.public()["books"]["Ben"] == []


def test_a_typed_book_the_game_proves_is_recorded_as_before() -> None:
    table = _ben_took_a_four()
    assert table.hear_text("book of fours")[-1].event.get("changed")
    assert table.game.public()["books"]["Ben"] == ["4"]
