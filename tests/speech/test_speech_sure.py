"""A "score" heard "sure" at tabletop's check confirms nothing (real decoder, real synthesised
speech, a real table). The understanding bench (tests/bench/understanding.py) counts it as its one
wrong action: there ``understand`` alone, in a hand-made confirm context, acts on it; the table's own
context (the ask being checked, a yes or no expected) leaves "four" and "score" as rival readings, and
the table asks again."""

from __future__ import annotations

from tabletop.language.transcript import Transcript
from tabletop.speech import synth
from tabletop.table import Table

PLAYERS = ("Ana", "Ben", "Cho")


def _checking() -> Table:
    """A table checking an ask of fives it heard unsurely (tabletop asks before it acts)."""
    table = Table.new(list(PLAYERS), None, None)
    table.start()
    replies = table.hear(Transcript(text="ben do you have any fives", confidence=0.4, engine="pocketsphinx"))
    assert table.pending is not None and table.pending.expects == "yes_no", [r.text for r in replies]
    return table


def _acted(replies) -> bool:
    return any(r.event.get("changed") or r.event.get("code") == "control" for r in replies)


def test_score_heard_sure_at_a_check_confirms_nothing(recogniser) -> None:
    """The understanding bench's one wrong action (clean, en-us at 140 wpm, seed 7600): "score" said
    while tabletop checks an ask, heard "sure" by both decoders (0.94). The table asks again; a
    "yes" then confirms the ask."""
    table = _checking()
    said = synth.realistic("score", voice="en-us", speed=140, seed=7600)
    heard = recogniser.hear(said, table.context())
    assert heard.text == "sure" and heard.confidence > 0.9, heard
    replies = table.hear(heard)
    assert not _acted(replies), [r.event for r in replies]
    assert table.pending is not None and table.pending.expects == "yes_no"
    yes = recogniser.hear(synth.realistic("yes", voice="en-us", speed=140, seed=7601), table.context())
    assert yes.text == "yes", yes
    assert _acted(table.hear(yes))


def test_sure_typed_and_yeah_heard_still_confirm() -> None:
    table = _checking()
    assert _acted(table.hear(Transcript(text="yeah", confidence=0.95, engine="pocketsphinx")))
    table = _checking()
    assert _acted(table.hear_text("sure"))
