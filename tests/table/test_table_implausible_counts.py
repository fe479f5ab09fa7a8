"""A count the target can't plausibly give is checked, however surely it was heard (PRODUCT.md section 1:
"an intent implausible in the phase is confirmed first").

A player lays a book as soon as they hold one, so the target of an ask holds fewer than a book of the
rank: in the pairs game one card at most. "yes, three" heard there is likelier a misheard "yes, one"
(the simulated pairs game at 20 dB, seed 4102: Ana's "yes, 1" was heard "yes i have three" and moved
three eights). It is checked ("Three eights?"); a plausible count is acted on as before.
"""

from __future__ import annotations

import pytest

from tabletop.language.transcript import Alternative, Transcript
from tabletop.rules import Rules
from tabletop.table import Table


def _heard(text: str, confidence: float = 0.95) -> Transcript:
    return Transcript(text, confidence, (Alternative(text, confidence),), engine="pocketsphinx")


@pytest.mark.parametrize("preset, said, acted", [
    ("pairs", "yes three", False),
    ("pairs", "yes two", False),
    ("pairs", "yes one", True),
    ("standard", "yes three", True),
])
def test_a_count_above_what_the_target_can_hold_is_checked(preset: str, said: str, acted: bool) -> None:
    table = Table.new(("Ana", "Ben"), Rules.preset(preset), durable=False)
    table.hear_text("Ben, do you have any eights?")
    before = table.game.public()
    replies = table.hear(_heard(said))
    events = [r.event for r in replies]
    if acted:
        assert table.game.public()["hands"] != before["hands"], events
    else:
        count = said.split()[-1]
        assert replies[-1].text == f"{count.capitalize()} eights?" and events[-1]["event"] == "question", events
        assert table.game.public() == before
        table.hear(_heard("yes"))  # the table overrules: what was said is what happened
        assert table.game.public()["hands"]["Ana"] == before["hands"]["Ana"] + int({"two": 2, "three": 3}[count])

