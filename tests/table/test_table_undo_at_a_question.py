""""Scratch that" said while tabletop asks about a sentence it has not recorded takes back that sentence only.

Asked "A book of twos?" about Ben's misheard book, "scratch that" was asked "Undo the last move?" and a yes undid
Ana's go fish before it: a move nobody meant to take back (undo18, clean 4115's audio). Now the question is closed
("Okay, not recorded.") and the game is as it was.
"""

from __future__ import annotations

from tabletop.language.transcript import Alternative, Transcript
from tabletop.rules import Rules
from tabletop.table import Table


def _heard(text: str, confidence: float = 0.45) -> Transcript:
    return Transcript(text, confidence, (Alternative(text, confidence),), engine="pocketsphinx",
                      heard_open=(text,), rescued=True)


def _asked_about_a_book() -> Table:
    table = Table.new(("Ana", "Ben"), Rules.preset("standard"), durable=False)
    table.hear_text("Ana asks Ben for queens")
    table.hear_text("go fish")
    table.hear_text("Ben asks Ana for tens")
    table.hear_text("go fish")
    replies = table.hear(_heard("book of twos"))
    assert table.pending is not None and replies[-1].event.get("event") == "question", [r.text for r in replies]
    return table


def test_scratch_that_at_a_question_closes_it_and_undoes_nothing() -> None:
    table = _asked_about_a_book()
    before, moves = table.game.public(), len(table.game.history)
    replies = table.hear_text("scratch that")
    assert replies[0].text.startswith("Okay, not recorded."), [r.text for r in replies]
    assert table.pending is None and len(table.game.history) == moves and table.game.public() == before


def test_scratch_that_with_no_question_still_asks_to_undo_the_last_move() -> None:
    table = _asked_about_a_book()
    table.hear_text("no")  # the question answered: nothing recorded, nothing pending
    moves = len(table.game.history)
    replies = table.hear(_heard("scratch that", 0.9))
    assert table.pending is not None or len(table.game.history) < moves, [r.text for r in replies]
