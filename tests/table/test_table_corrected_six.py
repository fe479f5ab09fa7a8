"""A "no, sixes" correction is not held back by tens being in play.

A FSDD speaker's "six" is steadily heard "ten" (vocabulary.yaml ``steadily_confused_ranks``), so a
correction to tens while sixes are in play is never acted on at once: the hearings may agree wrongly.
A six is not known to be heard for a ten, so a correction to sixes is weighed like any other
("Threes?" → "no, sixes", the first hearing unsure between threes and sixes): real Speech Commands
"six"es heard "three" or "eight" first, then "no, six" heard so, were checked again ("Sixes?") while
tens were in play, costing their one repair (``tests/bench/speech.py --context-only --real-limit 80
--repeat other --correct no-word``). The correction is synthesised (espeak-ng) and heard by PocketSphinx.
"""

from __future__ import annotations

from tabletop.language.transcript import Alternative, Transcript
from tabletop.rules import Rules
from tabletop.speech import synth
from tabletop.table import Table

PLAYERS = ("Ana", "Ben", "Cho")  # as conftest.py: its recogniser knows these names


def _at_which_rank() -> Table:
    """A table asking "Ana, which rank?": Ana's ask heard with its rank unsure (jacks or queens)."""
    table = Table.new(list(PLAYERS), Rules(), None)
    table.start()
    said = "ben do you have any jacks"
    replies = table.hear(Transcript(said, 0.3, (Alternative(said, 0.3), Alternative("ben do you have any queens", 0.28)),
                                    engine="pocketsphinx"))
    assert replies[-1].text == "Ana, which rank?", [r.text for r in replies]
    return table


def _threes_or_sixes(table: Table) -> None:
    """The first hearing: threes, sixes its clear runner-up (a real Speech Commands "six": 3:0.95 6:0.47)."""
    heard = Transcript("three", 0.95, (Alternative("three", 0.95), Alternative("sixes", 0.47)), engine="pocketsphinx")
    assert table.hear(heard)[-1].text == "Threes?"


def test_no_sixes_to_threes_is_acted_on_while_tens_are_in_play(recogniser) -> None:
    table = _at_which_rank()
    _threes_or_sixes(table)
    assert "10" in table.pending.choices
    replies = table.hear_audio(synth.realistic("no, sixes", voice="en-us+f1", speed=160, snr_db=30, seed=7), recogniser)
    events = [r.event for r in replies]
    assert events[0]["heard"] == "nope sixes", events
    assert events[-1].get("changed") and events[-1]["intent"] == {"type": "ask", "target": "Ben", "rank": "6"}, events


def test_no_tens_is_still_checked_while_sixes_are_in_play(recogniser) -> None:
    """The other way round: a six is steadily heard "ten", so "no, tens" heard is checked ("Tens?")."""
    table = _at_which_rank()
    heard = Transcript("three", 0.95, (Alternative("three", 0.95), Alternative("tens", 0.47)), engine="pocketsphinx")
    assert table.hear(heard)[-1].text == "Threes?"
    before = table.game.public()
    replies = table.hear_audio(synth.realistic("no, tens", voice="en-us+f1", speed=160, snr_db=30, seed=7), recogniser)
    events = [r.event for r in replies]
    assert events[0]["heard"] in ("nope tens", "no tens"), events
    assert replies[-1].text == "Tens?" and table.game.public() == before, events
