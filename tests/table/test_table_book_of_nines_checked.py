"""A book of fives or nines is checked however both decoders agree.

In the 20 dB pairs game of the table bench (``tests/bench/table.py --players 2 --preset pairs --snrs 20
--seed 4104``) Ben's (en+f3 at 155 words a minute) "book of fives" (utterance 129) was read "book of
nines" by both decoders (0.838), no five in the open decoder's readings, and a pair of nines laid:
the game's one wrong action, and 19 utterances to repair. Such a book is now asked about ("A book of
nines?"); a "yes" lays it. The audio is the game's, heard by PocketSphinx in the game's context.
"""

from __future__ import annotations

from tabletop.language.transcript import Alternative, Transcript
from tabletop.rules import Rules
from tabletop.speech import synth
from tabletop.table import Table

PLAYERS = ("Ana", "Ben")


def _after_go_fish() -> Table:
    """Ben's turn, his ask just answered "go fish", as in the game."""
    table = Table.new(list(PLAYERS), Rules.preset("pairs"), None, first=1)
    table.start()
    for line in ("Ben asks Ana for sevens", "go fish"):
        table.hear_text(line)
    return table


def test_a_book_of_fives_heard_nines_is_asked_about_not_laid(two_players) -> None:
    table = _after_go_fish()
    before = table.game.public()
    audio = synth.realistic("book of fives", voice="en+f3", speed=155, snr_db=20.0, seed=4104 * 1000 + 129)
    replies = table.hear_audio(audio, two_players)
    assert replies[0].event["heard"] == "book of nines", [r.event for r in replies]  # the game's mishearing
    assert replies[-1].text == "A book of nines?", [r.text for r in replies]
    assert table.game.public() == before


def test_a_right_book_of_nines_is_laid_after_a_yes(two_players) -> None:
    table = _after_go_fish()
    audio = synth.realistic("book of nines", voice="en+f3", speed=155, snr_db=20.0, seed=4104 * 1000 + 153)
    replies = table.hear_audio(audio, two_players)
    assert replies[-1].text == "A book of nines?", [r.event for r in replies]
    replies = table.hear(Transcript("yes", 0.95, (Alternative("yes", 0.95),), engine="pocketsphinx"))
    assert replies[0].event["changed"] and replies[0].event["intent"]["type"] == "book", [r.event for r in replies]


def test_an_ask_of_fives_heard_nines_is_asked_about_not_made(two_players) -> None:
    """Asks of fives or nines are checked too: in a later run of the same game (fifteenth session) Ben's
    "Ana, any fives?" (utterance 35, right after he laid a pair of aces) was read "ana any nines" by the
    grammar and "ana any nines that" by the open decoder, no five among its readings, and acted on as an
    ask of nines; 10 utterances to repair."""
    table = Table.new(list(PLAYERS), Rules.preset("pairs"), None, first=1)
    table.start()
    for line in ("Ana, aces?", "here you go, 1", "book of aces"):
        table.hear_text(line)
    before = table.game.public()
    audio = synth.realistic("Ana, any fives?", voice="en+f3", speed=155, snr_db=20.0, seed=4104 * 1000 + 35)
    replies = table.hear_audio(audio, two_players)
    assert replies[0].event["heard"] == "ana any nines", [r.event for r in replies]  # the game's mishearing
    assert two_players.last_trace.get("confusable_heard") == "5", two_players.last_trace
    assert replies[-1].text == "Ana, nines?", [r.text for r in replies]
    assert table.game.public() == before
