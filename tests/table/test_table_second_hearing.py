"""A rank heard a second time, alike by both decoders and alone, is acted on, not checked again.

A rank word given to "Ana, which rank?" is always checked ("Fours?"), however sure. When the first
hearing caught nothing ("Sorry, I didn't catch that. Ana, which rank?"), the rank said then is a
second hearing: checked once more, it cost real Speech Commands speakers their one repair (the
bench's check half, ``tests/bench/speech.py --context-only --real-limit 80 --repeat other --correct
no-word --half check``). Heard in the same words by both decoders with no other rank among the
readings, it is acted on; with another rank among them, it is still checked. A correction ("Threes?"
→ "no, sixes") is checked however it was heard. Synthesised here (espeak-ng) and heard by PocketSphinx.
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


def _heard(text: str, confidence: float) -> Transcript:
    return Transcript(text, confidence, (Alternative(text, confidence),), engine="pocketsphinx")


def _say(table: Table, recogniser, text: str, voice: str):
    return table.hear_audio(synth.realistic(text, voice=voice, speed=160, snr_db=30, seed=7), recogniser)


def test_a_rank_said_again_after_sorry_is_acted_on(recogniser) -> None:
    table = _at_which_rank()
    assert table.hear(_heard("", 0.0))[-1].text == "Sorry, I didn't catch that. Ana, which rank?"
    replies = _say(table, recogniser, "fours", "en+m3")
    events = [r.event for r in replies]
    assert events[0]["heard"] == "fours", events  # both decoders: "fours", no other rank read
    assert events[-1].get("changed") and events[-1]["intent"] == {"type": "ask", "target": "Ben", "rank": "4"}, events
    assert table.pending is None or table.pending.confirms is None, events  # not "Fours?"


def test_a_correction_heard_alike_and_alone_is_still_checked(recogniser) -> None:
    """Unlike a rank said again after "Sorry?": a real FSDD "no, six" to "Tens?" was read "nope four"
    alike by both decoders with no other rank, and acted on (speech bench, all speakers)."""
    table = _at_which_rank()
    assert table.hear(_heard("three", 0.95))[-1].text == "Threes?"
    before = table.game.public()
    replies = _say(table, recogniser, "no, sixes", "en-us+f1")
    assert replies[0].event["heard"] == "nope sixes", [r.event for r in replies]
    assert replies[-1].text == "Sixes?" and table.game.public() == before, [r.event for r in replies]


def test_a_correction_with_another_rank_among_its_readings_is_checked(recogniser) -> None:
    """"no, eights" heard "nope eights" with "nope ace" among the open decoder's readings (eights and
    aces are confusable): a second hearing, but not alone, so it is checked."""
    table = _at_which_rank()
    assert table.hear(_heard("three", 0.95))[-1].text == "Threes?"
    before = table.game.public()
    replies = _say(table, recogniser, "no, eights", "en-us+f1")
    assert replies[0].event["heard"] == "nope eights"
    assert replies[-1].text == "Eights?" and table.game.public() == before, [r.event for r in replies]


def test_a_correction_to_sixes_is_not_held_back_by_tens(recogniser) -> None:
    """A FSDD speaker's "six" is steadily heard "ten" (vocabulary.yaml ``steadily_confused_ranks``), so
    a correction to tens is never acted on at once while sixes are in play. A six is not known to be
    heard for a ten: a correction to sixes is weighed like any other. A real Speech Commands "six"
    heard "three" (3:0.95, 6:0.47), then "no, six" heard so, was checked again ("Sixes?") while tens
    were in play, and lost its one repair (speech bench, check half)."""
    table = _at_which_rank()
    first = Transcript("three", 0.95, (Alternative("three", 0.95), Alternative("sixes", 0.47)), engine="pocketsphinx")
    assert table.hear(first)[-1].text == "Threes?" and "10" in table.pending.choices
    replies = _say(table, recogniser, "no, sixes", "en-us+f1")
    events = [r.event for r in replies]
    assert events[0]["heard"] == "nope sixes", events
    assert events[-1].get("changed") and events[-1]["intent"] == {"type": "ask", "target": "Ben", "rank": "6"}, events


def test_a_correction_to_tens_is_still_checked_while_sixes_are_in_play(recogniser) -> None:
    table = _at_which_rank()
    first = Transcript("three", 0.95, (Alternative("three", 0.95), Alternative("tens", 0.47)), engine="pocketsphinx")
    assert table.hear(first)[-1].text == "Threes?"
    before = table.game.public()
    replies = _say(table, recogniser, "no, tens", "en-us+f1")
    assert replies[0].event["heard"] in ("nope tens", "no tens"), [r.event for r in replies]
    assert replies[-1].text == "Tens?" and table.game.public() == before, [r.event for r in replies]
