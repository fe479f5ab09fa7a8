"""A correction of a count heard right after an ask, before any answer, is asked about as the answer.

In a 20 dB game of the table bench (``tests/bench/table.py --players 2 --preset pairs --snrs 20 --seed
4104``) Ana's "I have one" to Ben's ask was heard "no i have one": a correction to one ("You said
one?"), of a count nobody had given. She said no, and her answer a third time. Right after an ask the
target's answer misheard is far likelier: tabletop asks "One four?"; a "no" to that asks about the
correction, so a player who meant it is never sent round again.
"""

from __future__ import annotations

from tabletop.language.transcript import Alternative, Transcript
from tabletop.rules import Rules
from tabletop.table import Table


def _heard(text: str, confidence: float) -> Transcript:
    return Transcript(text, confidence, (Alternative(text, confidence),), engine="pocketsphinx")


def _asked_for_fours() -> Table:
    table = Table.new(("Ana", "Ben"), Rules.preset("pairs"), durable=False)
    table.hear_text("Ben, do you have any twos?")
    table.hear_text("go fish")
    table.idle()
    table.hear_text("Ana, do you have any fours?")
    return table


def test_a_count_corrected_before_any_answer_is_asked_as_the_answer() -> None:
    table = _asked_for_fours()
    hands = table.game.public()["hands"]
    replies = table.hear(_heard("no i have one", 0.45))
    assert replies[-1].text == "One four?", [r.text for r in replies]
    replies = table.hear(_heard("yes", 0.95))
    assert replies[-1].text.startswith("Ana gives Ben a four."), [r.text for r in replies]
    assert table.game.public()["hands"]["Ben"] == hands["Ben"] + 1


def test_no_to_the_answer_asks_about_the_correction() -> None:
    table = _asked_for_fours()
    table.hear(_heard("no i have one", 0.45))
    replies = table.hear(_heard("no", 0.95))
    assert replies[-1].text == "You said one?", [r.text for r in replies]
