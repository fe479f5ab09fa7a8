"""A "no" to "Tens?" checks sixes next ("Okay. Sixes?"): a real FSDD "six" is heard "ten" at first
hearing and again when said again (vocabulary.yaml ``steadily_confused_ranks``), while a yes is easy
to hear. A sure yes acts; a "no" asks for the rank without either; nothing is acted on without a yes.
"""

from __future__ import annotations

import shutil

import pytest

from tabletop.language.transcript import Alternative, Transcript
from tabletop.table import Table

PLAYERS = ("Ana", "Ben", "Cho")


def heard(text: str, confidence: float = 0.97) -> Transcript:
    return Transcript(text, confidence, (Alternative(text, confidence),) if text else (), engine="pocketsphinx")


def checked_tens() -> Table:
    table = Table.new(PLAYERS, durable=False)
    shaky = Transcript("ben do you have any sevens", 0.8, (Alternative("ben do you have any sevens", 0.8),
                                                         Alternative("ben do you have any tens", 0.78)),
                       engine="pocketsphinx")
    assert table.hear(shaky)[-1].text == "Ana, which rank?"
    assert table.hear(heard("tens", 1.0))[-1].text == "Tens?"
    return table


def test_no_to_tens_checks_sixes_and_a_yes_acts_on_sixes() -> None:
    table = checked_tens()
    before = table.game.public()
    check = table.hear(heard("no"))[-1]
    assert check.text == "Okay. Sixes?", check.event
    assert check.event["expects"] == "yes_no" and check.event["checks"] == "rank"
    assert check.event["about"] == {"type": "ask", "target": "Ben", "rank": "6"}
    assert "10" not in check.event["choices"] and not check.event["changed"]
    assert table.game.public() == before
    assert table.hear(heard("yes"))[-1].text == "Ana asks Ben for sixes."


def test_no_to_sixes_then_asks_for_the_rank_without_either() -> None:
    table = checked_tens()
    table.hear(heard("no"))
    before = table.game.public()
    again = table.hear(heard("no"))[-1]
    assert again.text == "Okay. Ana, which rank?" and again.event["expects"] == "rank", again.event
    assert "6" not in again.event["choices"] and "10" not in again.event["choices"]
    assert table.game.public() == before
    assert table.hear(heard("sevens"))[-1].text == "Sevens?"
    assert table.hear(heard("yes"))[-1].text == "Ana asks Ben for sevens."


def test_sixes_checked_is_never_acted_on_without_a_sure_yes() -> None:
    """An unsure yes, then nothing caught: nothing is acted on."""
    table = checked_tens()
    table.hear(heard("no"))
    before = table.game.public()
    unsure = Transcript("yes", 0.3, (Alternative("yes", 0.3), Alternative("no", 0.29)), engine="pocketsphinx")
    replies = table.hear(unsure)
    assert not any(r.event.get("changed") for r in replies) and table.game.public() == before
    assert replies[-1].text == "Sorry, I didn't catch that. Sixes?", [r.event for r in replies]
    replies = table.hear(heard(""))
    assert not any(r.event.get("changed") for r in replies) and table.game.public() == before


def test_no_to_sixes_checks_nothing_else() -> None:
    """Only a rank a rank in play is steadily heard as leads to a check of that rank: a "six" is not
    known to be heard for a ten, so "no" to "Sixes?" asks for the rank as before."""
    table = Table.new(PLAYERS, durable=False)
    table.hear(Transcript("ben do you have any sevens", 0.8, (Alternative("ben do you have any sevens", 0.8),
                                                             Alternative("ben do you have any tens", 0.78)),
                          engine="pocketsphinx"))
    table.hear(heard("sixes", 1.0))
    assert table.hear(heard("no"))[-1].text == "Okay. Ana, which rank?"


def test_without_sixes_in_play_no_to_tens_asks_for_the_rank() -> None:
    """When sixes cannot be asked (not among the rank question's choices), nothing is checked in their place."""
    from dataclasses import replace

    table = checked_tens()
    table._pending = replace(table.pending, choices=tuple(c for c in table.pending.choices if c != "6"))
    again = table.hear(heard("no"))[-1]
    assert again.text == "Okay. Ana, which rank?" and "6" not in again.event["choices"]


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is missing: apt-get install espeak-ng")
def test_heard_for_real_tens_no_then_sixes_yes(recogniser) -> None:
    """espeak-ng speech with a noise floor decoded by the embedded recogniser: "ten" ("Tens?"),
    "no" ("Okay. Sixes?"), "yes": the ask of sixes."""
    from tabletop.speech import synth

    def say(text: str, seed: int):
        return synth.realistic(text, voice="en-us", seed=seed)

    table = Table.new(PLAYERS, durable=False)
    table.hear(Transcript("ben do you have any sevens", 0.8, (Alternative("ben do you have any sevens", 0.8),
                                                             Alternative("ben do you have any tens", 0.78)),
                          engine="pocketsphinx"))
    assert table.hear_audio(say("ten", 1), recogniser)[-1].text == "Tens?"
    check = table.hear_audio(say("no", 3), recogniser)[-1]
    assert check.text == "Okay. Sixes?" and check.event["expects"] == "yes_no", check.event
    replies = table.hear_audio(say("yes", 2), recogniser)
    assert replies[-1].text == "Ana asks Ben for sixes.", [r.event for r in replies]
    assert table.pending is None
