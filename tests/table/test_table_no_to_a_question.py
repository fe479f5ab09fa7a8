"""A "no" heard with a slot value the question has no place for is the "no"; a "yes" heard as an
answer when no ask is open is the "yes".

In a 20 dB game of the table bench (``tests/bench/table.py --players 2 --preset pairs --snrs 20 --seed
4103``) Ana's "I have one" was heard "wait a minute" and asked about ("Pause the game?"); her "no" was
heard "no a three" (the open decoder: "no i have", "nope three") and taken for a correction to threes
("You said threes?"): one more "no" for nothing. A pause has no rank to correct, so it is her "no".
A correction of a slot the question does have ("no, sixes" to "Ben, sevens?") is still a correction.
In the seed 4104 game Ana's "yes" to "Ana has a book of fours?" was heard "wait yes three": an answer
with no ask open, asked back as "Three twos?". Heard surely, it confirms; else the question is asked again.
"""

from __future__ import annotations

from tabletop.language.transcript import Alternative, Transcript
from tabletop.rules import Rules
from tabletop.table import Table


def _heard(text: str, confidence: float, *others: str) -> Transcript:
    alternatives = (Alternative(text, confidence), *(Alternative(o, round(confidence * 0.6, 3)) for o in others))
    return Transcript(text, confidence, alternatives, engine="pocketsphinx")


def _asked_pause() -> Table:
    table = Table.new(("Ana", "Ben"), Rules.preset("pairs"), durable=False)
    table.hear_text("Ben, do you have any queens?")
    replies = table.hear(_heard("wait a minute", 0.45))
    assert replies[-1].text == "Pause the game?", [r.text for r in replies]
    return table


def test_no_with_a_rank_to_a_pause_is_the_no() -> None:
    table = _asked_pause()
    before = table.game.public()
    replies = table.hear(_heard("no a three", 0.45, "nope three"))
    assert replies[-1].text == "Okay, say it again." and table.pending is None, [r.text for r in replies]
    assert table.game.public() == before and not table.paused


def test_no_with_a_rank_to_an_ask_is_still_a_correction() -> None:
    table = Table.new(("Ana", "Ben"), Rules.preset("pairs"), durable=False)
    replies = table.hear(_heard("ben any sevens", 0.45))
    assert replies[-1].text == "Ben, sevens?", [r.text for r in replies]
    replies = table.hear(_heard("no sixes", 0.45))
    assert replies[-1].text == "Sixes?", [r.text for r in replies]


def _asked_book() -> Table:
    """Ana's "Ana has a book of fours" heard unsurely before any four is known in her hand: "Ana has a
    book of fours?" (in the game Ben had given her a four; a book the game proves, heard unsurely, is
    now recorded at once: test_table_proven_book_heard.py)."""
    table = Table.new(("Ana", "Ben"), Rules.preset("pairs"), durable=False)
    replies = table.hear(_heard("ana has a book of fours", 0.45))
    assert replies[-1].text == "Ana has a book of fours?", [r.text for r in replies]
    return table


def test_a_yes_heard_as_an_answer_when_no_ask_is_open_is_the_yes() -> None:
    """20 dB pairs game seed 4104: Ana's "yes" heard "wait yes three" was asked as "Three twos?"."""
    table = _asked_book()
    replies = table.hear(_heard("wait yes three", 0.62))
    assert table.game.public()["books"]["Ana"] == ["4"], [r.text for r in replies]


def test_an_unsure_yes_heard_as_an_answer_asks_the_question_again() -> None:
    table = _asked_book()
    before = table.game.public()
    replies = table.hear(_heard("wait yes three", 0.45))
    assert replies[-1].text == "Sorry, I didn't catch that. Ana has a book of fours?", [r.text for r in replies]
    assert table.game.public() == before
