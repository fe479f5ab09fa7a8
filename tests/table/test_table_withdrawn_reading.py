"""A sentence the player took back is never acted on again from the same reading.

Clean game 4115 (games18, en-us+m2 at 175 words a minute): Ben's "book of tens", said right after his
go fish (no book the table asked for), was read "book of deuce" by both decoders (agreement 1.0,
confidence 0.92; the open n-best "book of deuce", "book of twos", "book of ten is") and acted on: "Ben
lays down a pair of twos." His "no, I said tens" was heard "no i said any aces" ("You said aces?",
six times), "scratch that" took the book back, and the same reading was acted on again: four times in
all, 60 repair utterances. Now an ask or a book that an undo took back (or a correction replaced),
heard again the same while the game is where the undo left it, is asked ("A book of twos?"), and a "no"
to that asks the rank with the value taken back out of play ("A book of which rank?", ``Pending.denied``).
And a book the game does not prove, of a rank nothing says the player holds, whose open decoder read
in the rank's place a rank the player is known to hold (they asked for it) is asked by that rank first
("A book of tens?"), a "no" asking about the book heard. The audio is synthesised with espeak-ng and
heard by PocketSphinx, at the game's state of utterance 52.
"""

from __future__ import annotations

import shutil

import pytest

from tabletop.language.transcript import Alternative, Transcript
from tabletop.referee.actions import parse_action
from tabletop.rules import Rules
from tabletop.table import Table

PLAYERS = ("Ana", "Ben")

# Clean game 4115's journal up to utterance 52: Ben asked Ana for nines and was told to go fish.
GAME_4115 = (
    "book Ana 2", "book Ana 3", "ask Ana Ben 5", "answer 1", "book Ana 5", "settle", "ask Ana Ben K", "gofish",
    "settle", "ask Ben Ana J", "gofish", "settle", "ask Ana Ben 4", "gofish", "settle", "ask Ben Ana 9", "gofish",
    "book Ben 8", "settle", "ask Ana Ben K", "gofish", "settle", "ask Ben Ana 10", "gofish", "book Ben 6", "settle",
    "ask Ana Ben 6", "gofish", "settle", "ask Ben Ana 7", "gofish", "lucky", "book Ben 7", "settle",
    "ask Ben Ana Q", "answer 1", "book Ben Q", "settle", "ask Ben Ana 9", "gofish",
)


def _game_4115(instead: dict[str, str] | None = None) -> Table:
    table = Table.new(PLAYERS, Rules.preset("pairs"), durable=False, first=0)
    for action in GAME_4115:
        action = (instead or {}).get(action, action)
        table.game.push(parse_action(action))
        table.referee.log.append({"push": action})
    return table


def _say(table: Table, recogniser, text: str, seed: int) -> list[str]:
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is missing: apt-get install espeak-ng")
    from tabletop.speech import synth

    utterance = synth.realistic(text, voice="en-us+m2", speed=175, seed=seed)
    return [r.text for r in table.hear_audio(utterance, recogniser)]


def test_the_4115_book_of_tens_read_twos_asks_the_rank_ben_holds(fresh_two_players) -> None:
    """Ben asked Ana for tens (and never for twos), and the open decoder's third reading has "ten" where
    the book's rank is: "A book of tens?" rather than twos laid down."""
    table = _game_4115()
    before = table.game.public()
    assert _say(table, fresh_two_players, "book of tens", 777300) == ["A book of tens?"]
    assert fresh_two_players.last_trace["grammar"] == "book of deuce"  # the mishearing, as in the game
    assert fresh_two_players.last_trace["open"][:3] == ["book of deuce", "book of twos", "book of ten is"]
    assert table.game.public() == before
    assert _say(table, fresh_two_players, "yes", 777306)[-1] == "Ben lays down a pair of tens. Ben has five pairs."


def test_the_4115_book_taken_back_is_asked_when_heard_again(fresh_two_players) -> None:
    """The same utterances where nothing says Ben holds a ten (his ask of tens made an ask of jacks):
    the reading is acted on as in the game, then taken back; heard again, it is asked."""
    table = _game_4115({"ask Ben Ana 10": "ask Ben Ana J"})
    before = table.game.public()

    def say(text: str, seed: int) -> list[str]:
        return _say(table, fresh_two_players, text, seed)

    assert say("book of tens", 777300) == ["Ben lays down a pair of twos. Ben has five pairs."]
    assert fresh_two_players.last_trace["open"][:2] == ["book of deuce", "book of twos"]
    assert say("scratch that", 777301)[-1] == "Undo the last move?"
    assert say("yes", 777302)[-1] == "Took back: Ben's pair of twos."
    assert table.game.public() == before
    # the same reading again: asked, not acted on a second time
    assert say("book of tens", 777303)[-1] == "A book of twos?"
    assert table.game.public() == before
    # "no": the rank asked for with twos out of play
    assert say("no", 777304)[-1] == "A book of which rank?"
    assert table.pending is not None and table.pending.denied == ("2",) and "2" not in table.pending.choices
    assert say("tens", 777305)[-1] == "Tens?"
    assert say("yes", 777306)[-1] == "Ben lays down a pair of tens. Ben has five pairs."


def _heard(text: str, *open_heard: str, confidence: float = 0.92) -> Transcript:
    return Transcript(text, confidence, (Alternative(text, confidence),), engine="pocketsphinx",
                      heard_open=open_heard or (text,))


def _after_a_miss() -> Table:
    table = Table.new(PLAYERS, Rules.preset("pairs"), durable=False, first=0)
    table.hear_text("Ana asks Ben for tens")
    table.hear_text("go fish")
    return table


def _undone(table: Table, reading: str) -> dict:
    before = table.game.public()
    assert table.hear(_heard(reading))[-1].text.startswith("Ana lays down a pair of twos.")
    table.hear_text("scratch that")
    if table.pending is not None:
        table.hear_text("yes")
    assert table.game.public() == before
    return before


def test_a_book_taken_back_and_heard_again_is_asked_and_a_no_asks_the_rank() -> None:
    table = _after_a_miss()
    before = _undone(table, "book of deuce")
    assert table.hear(_heard("book of deuce"))[-1].text == "A book of twos?"
    assert table.game.public() == before
    assert table.hear_text("no")[-1].text == "A book of which rank?"
    pending = table.pending
    assert pending is not None and pending.slot == "rank" and pending.denied == ("2",), pending
    # the reading taken back heard a third time is a miss of the rank, never the book
    assert "A book of which rank?" in table.hear(_heard("book of deuce"))[-1].text
    assert table.game.public() == before
    assert table.hear_text("tens")[-1].text.startswith("Ana lays down a pair of tens.")


def test_a_yes_to_the_question_lays_the_book() -> None:
    table = _after_a_miss()
    _undone(table, "book of deuce")
    assert table.hear(_heard("book of deuce"))[-1].text == "A book of twos?"
    assert table.hear_text("yes")[-1].text.startswith("Ana lays down a pair of twos.")


def test_a_repeat_after_the_no_was_dropped_asks_the_rank_at_once() -> None:
    table = _after_a_miss()
    before = _undone(table, "book of deuce")
    assert table.hear(_heard("book of deuce"))[-1].text == "A book of twos?"
    table.hear_text("no")
    table._pending = None  # the rank question dropped (a query would settle the exchange: a new one)
    assert table.hear(_heard("book of deuce"))[-1].text == "A book of which rank?"
    assert table.game.public() == before


def test_an_ask_taken_back_is_asked_when_heard_again() -> None:
    table = Table.new(PLAYERS, Rules.preset("pairs"), durable=False, first=0)
    before = table.game.public()
    assert table.hear(_heard("ben do you have any twos"))[-1].text == "Ana asks Ben for twos."
    table.hear_text("scratch that")
    if table.pending is not None:
        table.hear_text("yes")
    assert table.game.public() == before
    assert table.hear(_heard("ben do you have any twos"))[-1].text == "Ben, twos?"
    assert table.game.public() == before
    assert table.hear_text("no")[-1].text == "Ana, which rank?"


def test_a_book_a_correction_replaced_is_asked_when_heard_again() -> None:
    table = _after_a_miss()
    assert table.hear(_heard("book of deuce"))[-1].text.startswith("Ana lays down a pair of twos.")
    assert "tens" in table.hear_text("no, I said tens")[-1].text
    assert table.hear(_heard("book of deuce"))[-1].text == "A book of twos?"  # the book replaced
    table._pending = None
    table.hear_text("scratch that")
    if table.pending is not None:
        table.hear_text("yes")  # the corrected book taken back too: tens now the reading withdrawn
    assert table.hear(_heard("book of ten"))[-1].text == "A book of tens?"


def test_the_game_moved_on_the_reading_is_acted_on_as_ever() -> None:
    table = _after_a_miss()
    _undone(table, "book of deuce")
    assert table.hear_text("book of nines")[-1].text.startswith("Ana lays down a pair of nines.")
    assert table.hear(_heard("book of deuce"))[-1].text.startswith("Ana lays down a pair of twos.")


def test_a_typed_repeat_is_acted_on() -> None:
    table = _after_a_miss()
    _undone(table, "book of deuce")
    assert table.hear_text("book of twos")[-1].text.startswith("Ana lays down a pair of twos.")


def test_another_players_book_of_the_rank_is_not_the_one_taken_back() -> None:
    table = _after_a_miss()
    _undone(table, "book of deuce")
    table.hear(_heard("ben has a book of deuce"))
    assert table.pending is None or table.pending.instead is None, table.pending


def test_a_book_read_with_a_rank_the_player_asked_for_in_its_place_asks_that_rank() -> None:
    table = _after_a_miss()  # Ana asked Ben for tens: she holds one
    before = table.game.public()
    reading = _heard("book of deuce", "book of deuce", "book of twos", "book of ten is")
    assert table.hear(reading)[-1].text == "A book of tens?"
    assert table.game.public() == before
    assert table.hear_text("no")[-1].text == "A book of twos?"
    assert table.hear_text("yes")[-1].text.startswith("Ana lays down a pair of twos.")


def test_a_book_read_with_ranks_nobody_asked_for_is_acted_on_as_ever() -> None:
    table = _after_a_miss()
    reading = _heard("book of deuce", "book of deuce", "book of king aces", "book of three aces")
    assert table.hear(reading)[-1].text.startswith("Ana lays down a pair of twos.")


def test_a_book_of_a_rank_the_player_asked_for_is_acted_on_as_ever() -> None:
    table = _after_a_miss()
    reading = _heard("book of ten", "book of ten", "book of deuce", "book of two")
    assert table.hear(reading)[-1].text.startswith("Ana lays down a pair of tens.")
