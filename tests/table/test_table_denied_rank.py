"""A rank a "no" denied is not asked about again when the sentence said again is heard with it again.

In the simulated pairs games at 20 dB (``tests/bench/table.py --players 2 --preset pairs --games 1
--snrs 20 --seed 4103``, and 4104), en-us+f1's "book of fours" was heard "book of five" ("A book of
fives?"), her "no, fours" heard "no five" (a plain no: "Okay, say it again."), and the sentence said
again heard "ana has a book of fives" ("Ana has a book of fives?") three times over, until she typed
it; "Ben, do you have any fours?" went the same way. The readings below are the game's. Heard again
with the rank denied, the sure part is kept and the rank alone asked for, the denied rank out of play
for the exchange (never guessed again: clean game 4111's "Aces?" came back four times), the "no" its
first miss.
"""

from __future__ import annotations

from tabletop.language.transcript import Alternative, Transcript
from tabletop.rules import Rules
from tabletop.table import Table

PLAYERS = ["Ana", "Ben"]


def _heard(text: str, confidence: float = 0.45, *others: str) -> Transcript:
    return Transcript(text, confidence, (Alternative(text, confidence), *(Alternative(o, confidence * 0.6) for o in others)),
                      engine="pocketsphinx")


def _table() -> Table:
    table = Table.new(PLAYERS, Rules.preset("pairs"), None, first=0)
    table.start()
    return table


def test_a_book_said_again_with_the_denied_rank_asks_for_the_rank() -> None:
    table = _table()
    assert table.hear(_heard("book of five"))[-1].text == "A book of fives?"
    assert table.hear(_heard("no five"))[-1].text == "Okay, say it again."
    before = table.game.public()
    replies = table.hear(_heard("ana has a book of fives", 0.45, "ana has a book of five", "ana had a book of five"))
    assert replies[-1].text == "A book of which rank?", [r.event for r in replies]
    pending = table.pending
    assert pending is not None and pending.slot == "rank", pending
    assert pending.likely[0] == "9" and "5" not in pending.likely + pending.choices, pending  # fives' partner first
    assert pending.denied == ("5",) and pending.misses == 1, pending
    assert table.game.public() == before


def test_an_ask_said_again_with_the_denied_rank_asks_for_the_rank() -> None:
    table = _table()
    assert table.hear(_heard("ben do you have any fives"))[-1].text == "Ben, fives?"
    assert table.hear(_heard("no five"))[-1].text == "Okay, say it again."
    replies = table.hear(_heard("ben do you have any fives"))
    assert replies[-1].text == "Ana, which rank?", [r.event for r in replies]
    # and the rank then said is heard with the ask kept: "fours" checked, then acted on
    assert table.hear(_heard("fours", 0.8))[-1].text in ("Fours?", "Ana asks Ben for fours.")


def test_the_denial_holds_for_one_repeat_of_the_same_sentence_only() -> None:
    table = _table()
    assert table.hear(_heard("ben do you have any fives"))[-1].text == "Ben, fives?"
    assert table.hear(_heard("no five"))[-1].text == "Okay, say it again."
    # another sentence in between (a book of nines): the ask of fives heard after it is asked as ever
    table.hear(_heard("book of nine"))
    table.hear(_heard("no"))
    assert table.hear(_heard("ben do you have any fives"))[-1].text == "Ben, fives?"


def test_a_denied_rank_said_with_another_player_is_asked_as_ever() -> None:
    """"no" to "Ben, fives?" may deny the player: "Cho, fives?" is a new sentence."""
    table = Table.new(["Ana", "Ben", "Cho"], Rules(), None, first=0)
    table.start()
    assert table.hear(_heard("ben do you have any fives"))[-1].text == "Ben, fives?"
    assert table.hear(_heard("no five"))[-1].text == "Okay, say it again."
    assert table.hear(_heard("cho do you have any fives"))[-1].text == "Cho, fives?"


def test_a_book_another_player_claims_after_the_denial_is_asked_as_ever() -> None:
    """"A book of nines?" denied by Ana (she said fives), then Ben's own "Ben has a book of nines" (the
    clean pairs game, seed 4102): another player's book, not Ana's said again."""
    table = _table()
    assert table.hear(_heard("book of nine"))[-1].text == "A book of nines?"
    assert table.hear(_heard("no"))[-1].text == "Okay, say it again."
    assert table.hear(_heard("ben has a book of nines"))[-1].text == "Ben has a book of nines?"
