"""Answers said out loud, as a family says them, heard for real (espeak-ng → PocketSphinx → the table).

A bare "no" or "nope" to an ask is the target's go fish (PRODUCT.md section 1: answer, miss). Heard
clearly, it is acted on at once like "go fish": right after an ask a bare "no" is read as the go fish
the referee rules it to be, one meaning with "go fish" rather than a rival to it, and no "Go fish?"
is asked.
"""

from __future__ import annotations

import shutil

import pytest

PLAYERS = ("Ana", "Ben", "Cho")

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="espeak-ng is missing: apt-get install espeak-ng")


def say(text: str, voice: str, seed: int):
    from tabletop.speech import synth

    return synth.realistic(text, voice=voice, seed=seed)


# (voices and noise seeds for which today's recogniser hears the word itself, and surely)
# ("nope", "en", 22) is no longer one: its "nope" fits the phone loop at -26 per frame, so the
# recogniser is unsure of it and the table asks "Go fish?" (tabletop/speech/recognisers/pocketsphinx.py).
@pytest.mark.parametrize("line, voice, seed", [("no", "en-us", 22), ("nope", "en-us", 22)])
def test_a_clear_bare_no_to_an_ask_is_a_go_fish_without_a_question(recogniser, line: str, voice: str,
                                                                    seed: int) -> None:
    from tabletop.table import Table

    table = Table.new(PLAYERS, durable=False)
    table.hear_text("Ben, do you have any sevens?")
    stock = table.game.public()["stock"]
    replies = table.hear_audio(say(line, voice, seed), recogniser)
    events = [r.event for r in replies]
    assert replies[0].event["heard"] == line, events
    assert not any(e.get("event") == "question" for e in events), events
    assert replies[0].text.startswith("Go fish, Ana."), events
    assert table.game.public()["stock"] == stock - 1 and table.pending is None


def test_an_empty_line_in_the_closed_loop_is_a_moment_of_quiet(tmp_path) -> None:
    """``play --audio - --json``: a script says "go fish" and then nothing; the turn passes and is
    announced ("Ben's turn.") as at a table, not only with the next utterance. A ``type:`` line is
    a sentence typed instead of said."""
    from support import ClosedLoop
    from tabletop.speech.audio import write_wav

    def wav(name: str, text: str, seed: int) -> str:
        return str(write_wav(tmp_path / f"{name}.wav", say(text, "en-us", seed)))

    with ClosedLoop(PLAYERS, tmp_path / "g.jsonl") as loop:
        loop.until_listening()
        ask = loop.send(wav("ask", "ben do you have any sevens", 9))
        if ask[-1]["event"] == "question":  # "Ben, sevens?"
            ask = loop.send(wav("yes", "yes", 10))
        assert ask[-1]["say"].endswith("Ana asks Ben for sevens."), ask
        fish = loop.send(wav("fish", "go fish", 11))
        assert fish[-1]["say"] == "Go fish, Ana.", fish  # she drew: a lucky fish may still come
        quiet = loop.send("")
        assert [e["say"] for e in quiet] == ["Ben's turn."] and quiet[0]["event"] == "settle", quiet
        assert quiet[0]["state"]["current"] == "Ben" and quiet[0]["state"]["stock"] == fish[-1]["state"]["stock"]
        # a player who gives up saying a sentence types it: ruled on as --text rules on it
        typed = loop.send("type: Ana, do you have any kings?")
        assert typed[-1]["heard"] == "Ana, do you have any kings?" and typed[-1]["say"] == "Ben asks Ana for kings.", typed


@pytest.mark.parametrize("line, voice, seed", [("yes three", "en-us", 31)])
def test_a_yes_with_a_count_to_an_ask_being_confirmed_moves_no_cards(recogniser, line: str, voice: str,
                                                                     seed: int) -> None:
    """"Ben, sevens?" — "yes three": the asker's yes with a word the noise made, or Ben's answer. The
    ask is confirmed and no card moves on it; Ben's answer, said again, moves them."""
    from tabletop.language.transcript import Alternative, Transcript
    from tabletop.table import Table

    table = Table.new(PLAYERS, durable=False)
    shaky = Transcript("ben do you have any sevens", 0.3, (Alternative("ben do you have any sevens", 0.3),),
                       engine="pocketsphinx")
    assert table.hear(shaky)[-1].text == "Ben, sevens?"
    hands = table.game.public()["hands"]
    replies = table.hear_audio(say(line, voice, seed), recogniser)
    events = [r.event for r in replies]
    assert replies[0].event["heard"] == line, events
    assert replies[-1].text == "Ana asks Ben for sevens.", events
    assert table.game.public()["hands"] == hands and table.pending is None
    gives = table.hear_audio(say("yes, two", "en-us", seed + 10), recogniser)
    assert gives[-1].text.startswith("Ben gives Ana two sevens."), [r.event for r in gives]
