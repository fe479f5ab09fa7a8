"""A lucky fish of another rank than the one asked for, heard unsurely, is asked "Lucky fish?".

A lucky fish is drawing the rank asked for. "I drew it" read "i drew eight" (kept at 0.45, rescued) after Ana asked for
queens (games18, 20 dB seed 4110, utterances 26-29, en-us+m2's voice; the open decoder heard "i drew it back") was asked
"Lucky fish, an eight?"; the yes to it was refused ("Ana asked for queens, so that's no lucky fish.") and the lucky
fish said again, twice. The rank is what was misheard: tabletop asks about the lucky fish alone.
"""

from __future__ import annotations

from tabletop.language.transcript import Alternative, Transcript
from tabletop.rules import Rules
from tabletop.table import Table


def _after_go_fish() -> Table:
    table = Table.new(("Ana", "Ben"), Rules.preset("standard"), durable=False)
    table.hear_text("Ana asks Ben for queens")
    table.hear_text("go fish")
    return table


def _heard(text: str, confidence: float = 0.45) -> Transcript:
    """As the 4110 trace has it: the grammar's reading kept at 0.45 (rescued) where the open decoder heard no rank."""
    return Transcript(text, confidence, (Alternative(text, confidence),), engine="pocketsphinx",
                      heard_open=("i drew it back", "i drew it my"), rescued=True)


def test_a_lucky_fish_of_another_rank_heard_unsurely_is_asked_without_its_rank() -> None:
    table = _after_go_fish()
    before = table.game.public()
    replies = table.hear(_heard("i drew eight"))
    assert replies[-1].text == "Lucky fish?" and table.game.public() == before, [r.text for r in replies]
    replies = table.hear_text("yes")
    assert "no lucky fish" not in " ".join(r.text for r in replies)
    assert table.game.public() != before and any("Lucky fish" in r.text for r in replies), [r.text for r in replies]


def test_a_typed_lucky_fish_of_another_rank_is_still_refused() -> None:
    table = _after_go_fish()
    replies = table.hear_text("I got an eight")
    assert "Ana asked for queens, so that's no lucky fish." in " ".join(r.text for r in replies)


def test_a_lucky_fish_of_the_rank_asked_heard_unsurely_is_asked_with_it() -> None:
    table = _after_go_fish()
    assert table.hear(_heard("i drew a queen"))[-1].text == "Lucky fish, a queen?"
