"""The closed loop heard for real: espeak-ng speech decoded by the embedded PocketSphinx recogniser.

Hearing safely (issue 10.1): a heard stop, pause or undo is confirmed before it is acted on.
Repair in one step (10.2): a missing slot is listened for with a grammar narrowed to it.
The closed loop (10.5): ``play --audio - --json`` reads WAV paths from stdin and says what it expects.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from support import ClosedLoop

PLAYERS = ("Ana", "Ben", "Cho")

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="espeak-ng is missing: apt-get install espeak-ng")


def say(text: str, seed: int = 0):
    from tabletop.speech import synth

    return synth.realistic(text, voice="en-us", seed=seed)


def quiet(seed: int = 0):
    """Room noise with nobody speaking."""
    from tabletop.speech import synth
    from tabletop.speech.audio import Utterance

    return Utterance(np.round(synth.noise_floor(16000, -50.0, seed=seed)).astype(np.int16), source="test")


def shaky_ask():
    """What a recogniser returns when it is sure of Ben and not of the rank (its n-best list)."""
    from tabletop.language.transcript import Alternative, Transcript

    return Transcript("ben do you have any sevens", 0.8, (Alternative("ben do you have any sevens", 0.8),
                                                         Alternative("ben do you have any tens", 0.78)),
                      engine="pocketsphinx")


def test_a_missing_rank_is_asked_for_and_heard_with_a_grammar_of_ranks(recogniser) -> None:
    from tabletop.speech.grammars import jsgf
    from tabletop.table import Table

    table = Table.new(PLAYERS, durable=False)
    asked = table.hear(shaky_ask())[-1]
    assert asked.text == "Ana, which rank?"
    assert asked.event["event"] == "question" and asked.event["expects"] == "rank"
    assert "7" in asked.event["choices"] and not asked.event["changed"]
    grammar = jsgf(PLAYERS, table.context())
    assert "sevens" in grammar and "sixes" in grammar and "fish" not in grammar and "ben" not in grammar
    # A rank heard once is checked with a yes/no, listened for with yes, no and the ranks alone
    checked = table.hear_audio(say("sixes", 1), recogniser)[-1]
    assert checked.text == "Sixes?", checked.event
    assert checked.event["expects"] == "yes_no" and checked.event["checks"] == "rank" and not checked.event["changed"]
    grammar = jsgf(PLAYERS, table.context())
    assert "yes" in grammar and "tens" in grammar and "fish" not in grammar and "ben" not in grammar
    replies = table.hear_audio(say("yes", 2), recogniser)
    assert replies[-1].text == "Ana asks Ben for sixes.", [r.event for r in replies]
    assert table.pending is None


def test_no_to_a_checked_rank_asks_for_the_rank_again_without_it(recogniser) -> None:
    from tabletop.table import Table

    table = Table.new(PLAYERS, durable=False)
    table.hear(shaky_ask())
    assert table.hear_audio(say("sixes", 1), recogniser)[-1].text == "Sixes?"
    again = table.hear_audio(say("no", 3), recogniser)[-1]
    assert again.text == "Okay. Ana, which rank?" and again.event["expects"] == "rank", again.event
    assert "6" not in again.event["choices"] and "7" in again.event["choices"]
    assert table.game.public()["current"] == "Ana" and not again.event["changed"]
    assert table.hear_audio(say("kings", 4), recogniser)[-1].text == "Kings?"
    assert table.hear_audio(say("yes", 5), recogniser)[-1].text == "Ana asks Ben for kings."


@pytest.mark.parametrize("answer, rank", [("no queens", "queens"), ("fours", "fours")])
def test_a_checked_rank_accepts_the_corrected_rank_and_checks_it_in_turn(recogniser, answer: str, rank: str) -> None:
    """ "Sixes?" - "no, queens": a rank heard once is never acted on (espeak-ng's "no tens" was once
    heard as "no twos"), so the corrected rank is checked in its turn."""
    from tabletop.table import Table

    table = Table.new(PLAYERS, durable=False)
    table.hear(shaky_ask())
    assert table.hear_audio(say("sixes", 1), recogniser)[-1].text == "Sixes?"
    before = table.game.public()
    checked = table.hear_audio(say(answer, 6), recogniser)[-1]
    assert checked.text == f"{rank.capitalize()}?" and checked.event["expects"] == "yes_no", checked.event
    assert table.game.public() == before
    assert table.hear_audio(say("yes", 8), recogniser)[-1].text == f"Ana asks Ben for {rank}."


def test_a_missing_target_is_asked_for_and_heard_with_a_grammar_of_players(recogniser) -> None:
    from tabletop.language.transcript import Alternative, Transcript
    from tabletop.speech.grammars import jsgf
    from tabletop.table import Table

    table = Table.new(PLAYERS, durable=False)
    shaky = Transcript("ben do you have any sevens", 0.8, (Alternative("ben do you have any sevens", 0.8),
                                                           Alternative("cho do you have any sevens", 0.78)),
                       engine="pocketsphinx")
    asked = table.hear(shaky)[-1]
    assert asked.text == "Sevens from whom?" and asked.event["expects"] == "target", asked.event
    grammar = jsgf(PLAYERS, table.context())
    assert "cho" in grammar and "sevens" not in grammar and "fish" not in grammar
    replies = table.hear_audio(say("cho", 9), recogniser)
    assert replies[-1].text == "Ana asks Cho for sevens.", [r.event for r in replies]


def test_after_two_misses_the_two_likeliest_ranks_are_offered(recogniser) -> None:
    from tabletop.speech.grammars import jsgf
    from tabletop.table import Table

    table = Table.new(PLAYERS, durable=False)
    table.hear(shaky_ask())
    first = table.hear_audio(quiet(1), recogniser)[-1]
    assert first.event["event"] == "question" and table.pending.misses == 1
    second = table.hear_audio(quiet(2), recogniser)[-1]
    assert second.text.endswith("Sevens or tens?") and second.event["choices"] == ["7", "10"]
    assert "sixes" not in jsgf(PLAYERS, table.context())  # now it listens for the two alone
    replies = table.hear_audio(say("tens", 3), recogniser)
    if replies[-1].text == "Tens?":  # not heard surely: checked about the rank alone
        assert replies[-1].event["checks"] == "rank" and "fish" not in jsgf(PLAYERS, table.context())
        replies = table.hear_audio(say("yes", 4), recogniser)
    assert replies[-1].text == "Ana asks Ben for tens.", [r.event for r in replies]


def test_a_how_many_is_heard_with_a_grammar_of_counts(recogniser) -> None:
    from tabletop.speech.grammars import jsgf
    from tabletop.table import Table

    table = Table.new(PLAYERS, durable=False)
    table.hear_text("Ben, sevens?")
    asked = table.hear_text("yes")[-1]
    assert asked.event["event"] == "question" and asked.event["expects"] == "count"
    assert asked.event["choices"] == ["1", "2", "3"]
    grammar = jsgf(PLAYERS, table.context())
    assert "three" in grammar and "sevens" not in grammar and "go fish" not in grammar
    assert "zero" in grammar  # heard as itself, not forced into a count
    replies = table.hear_audio(say("two", 4), recogniser)
    assert replies[-1].text.startswith("Ben gives Ana two sevens."), [r.event for r in replies]


def test_a_zero_at_how_many_is_not_taken_for_a_count(recogniser) -> None:
    """Real "zero"s were acted on as "two" when the count question listened for counts alone."""
    from tabletop.table import Table

    table = Table.new(PLAYERS, durable=False)
    table.hear_text("Ben, sevens?")
    table.hear_text("yes")
    before = table.game.public()
    replies = table.hear_audio(say("zero", 13), recogniser)
    assert table.game.public() == before and not any(r.event.get("changed") for r in replies), [r.event for r in replies]
    assert table.pending is not None


@pytest.mark.parametrize("answer, said", [("yes", "Ben gives Ana two sevens."), ("no", "Okay. How many?"),
                                          ("no three", "Ben gives Ana three sevens.")])
def test_a_checked_count_hears_yes_no_and_the_corrected_count(recogniser, answer: str, said: str) -> None:
    """ "Two?" (three among the first hearing's readings) - "no, three": two hearings read three and
    the speaker denied two, so the count is acted on (the evidence of both hearings summed)."""
    from tabletop.language.transcript import Alternative, Transcript
    from tabletop.speech.grammars import jsgf
    from tabletop.table import Table

    table = Table.new(PLAYERS, durable=False)
    table.hear_text("Ben, sevens?")
    table.hear_text("yes")
    shaky = Transcript("two", 0.95, (Alternative("two", 0.95), Alternative("three", 0.57)), engine="pocketsphinx")
    assert table.hear(shaky)[-1].text == "Two?"
    grammar = jsgf(PLAYERS, table.context())
    assert "yes" in grammar and "three" in grammar and "sevens" not in grammar and "fish" not in grammar
    before = table.game.public()
    replies = table.hear_audio(say(answer, 12), recogniser)
    assert replies[-1].text.startswith(said), [r.event for r in replies]
    assert (table.game.public() == before) == (answer == "no")


# ("stop the game" itself is rejected as chatter by today's recogniser in these voices: see the report)
@pytest.mark.parametrize("line, question", [("stop", "Stop the game?"), ("pause", "Pause the game?"),
                                            ("undo", "Undo the last move?")])
def test_a_heard_stop_pause_or_undo_is_confirmed_and_no_undoes_nothing(recogniser, line: str, question: str) -> None:
    from tabletop.table import Table

    table = Table.new(PLAYERS, durable=False)
    table.hear_text("Ben, sevens?")
    table.hear_text("go fish")
    before = table.game.public()
    asked = table.hear_audio(say(line, 5), recogniser)[-1]
    assert asked.text == question and asked.event["expects"] == "yes_no", asked.event
    assert not table.stopped and not table.paused and table.game.public() == before
    table.hear_audio(say("no", 6), recogniser)
    assert not table.stopped and not table.paused and table.game.public() == before and table.pending is None


def test_a_script_plays_the_closed_loop_through_stdin(tmp_path: Path) -> None:
    """``play --audio - --json``: one WAV path a line; after each, its events and then "listening"."""
    from tabletop.speech.audio import write_wav

    def wav(name: str, text: str, seed: int) -> str:
        return str(write_wav(tmp_path / f"{name}.wav", say(text, seed)))

    with ClosedLoop(PLAYERS, tmp_path / "g.jsonl") as loop:
        assert loop.until_listening()[0]["event"] == "start"
        stop = loop.send(wav("stop", "stop", 7))
        assert stop[-1]["event"] == "question" and stop[-1]["expects"] == "yes_no", stop
        kept = loop.send(wav("no", "no", 8))
        assert kept[-1]["say"] == "Okay, say it again."
        ask = loop.send(wav("ask", "ben do you have any sevens", 9))
        # the ask, or a question about it that says what it expects
        assert ask[-1]["event"] == "question" or ask[-1]["say"] == "Ana asks Ben for sevens.", ask
        bad = loop.send(str(tmp_path / "missing.wav"))
        assert bad[-1]["event"] == "error"


@pytest.mark.parametrize("answer", ["no kings", "kings"])
def test_a_confirmation_accepts_the_corrected_slot_itself(recogniser, answer: str) -> None:
    from tabletop.language.transcript import Alternative, Transcript
    from tabletop.table import Table

    # The corrected slot is taken at "Ben, sevens?". Kings the first hearing never read are heard once,
    # and a value heard once is checked ("Kings?": a bare "no" is often heard as "no five"); a "yes" asks.
    table = Table.new(PLAYERS, durable=False)
    shaky = Transcript("ben do you have any sevens", 0.3, (Alternative("ben do you have any sevens", 0.3),),
                       engine="pocketsphinx")
    asked = table.hear(shaky)[-1]
    assert asked.text == "Ben, sevens?" and asked.event["expects"] == "yes_no"
    replies = table.hear_audio(say(answer, 11), recogniser)
    assert replies[-1].text == "Kings?" and table.game.state.exchange is None, [r.event for r in replies]
    replies = table.hear(Transcript("yes", 0.95, (Alternative("yes", 0.95),), engine="pocketsphinx"))
    assert replies[-1].text == "Ana asks Ben for kings.", [r.event for r in replies]
    # When the first hearing read kings too (sevens just above them), the correction is the second
    # hearing of kings, sevens denied: acted on at once.
    table = Table.new(PLAYERS, durable=False)
    shaky = Transcript("ben do you have any sevens", 0.3, (Alternative("ben do you have any sevens", 0.3),
                                                           Alternative("ben do you have any kings", 0.2)),
                       engine="pocketsphinx")
    assert table.hear(shaky)[-1].text == "Ben, sevens?"
    replies = table.hear_audio(say(answer, 11), recogniser)
    assert replies[-1].text == "Ana asks Ben for kings.", [r.event for r in replies]


@pytest.mark.parametrize("answer, said", [("no threes", "Ana asks Ben for threes."), ("no kings", "Kings?")])
def test_a_checked_rank_takes_a_correction_the_first_hearing_read_too(recogniser, answer: str, said: str) -> None:
    """ "Sixes?" when the first hearing read sixes, then threes: "no, threes" is the second hearing
    of threes, with sixes denied, and is acted on; kings, which the first hearing never read, are
    heard once and checked in their turn."""
    from tabletop.language.transcript import Alternative, Transcript
    from tabletop.table import Table

    table = Table.new(PLAYERS, durable=False)
    table.hear(shaky_ask())
    first = Transcript("sixes", 0.9, (Alternative("sixes", 0.9), Alternative("threes", 0.54)), engine="pocketsphinx")
    assert table.hear(first)[-1].text == "Sixes?"
    replies = table.hear_audio(say(answer, 13), recogniser)
    assert replies[-1].text == said, [r.event for r in replies]
    assert replies[-1].event["changed"] == (said != "Kings?") and (table.pending is None) == (said != "Kings?")
