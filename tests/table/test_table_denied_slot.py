"""A value the player denied in this exchange is never guessed again, and a "no" to a guess is a miss
of the slot, so the two likeliest left are offered at the second miss.

Clean game 4111 (``tests/bench/table.py --quick --snrs clean --seed 4111``, session 18): en-gb+m4's
"Ana, give me your nines" was heard "ana give me all an aces" ("Ana, aces?"), "no, nines" heard "nope
an aces" ("Okay, say it again."), the ask again heard with aces ("Ben, which rank?"), "nines" heard
"deuce" ("Twos?"), "no, nines" not caught ("Twos?" again), then heard "nope aces" and asked "Aces?"
— the rank denied, guessed again; four such loops, three typed. The offer of two ("Twos or eights?")
never came: each "no" was the first miss of a new guess. The readings below are the game's.
"""

from __future__ import annotations

import shutil
from dataclasses import replace

import pytest

from tabletop.language.transcript import Alternative, Transcript
from tabletop.rules import Rules
from tabletop.table import Table


def _heard(text: str, confidence: float = 0.45, *others: str) -> Transcript:
    if not text:
        return Transcript("", 0.0, (), engine="pocketsphinx")
    return Transcript(text, confidence, (Alternative(text, confidence), *(Alternative(o, confidence * 0.6) for o in others)),
                      engine="pocketsphinx")


def _which_rank() -> Table:
    """Ben's ask of nines heard aces, denied, and heard aces again: "Ben, which rank?"."""
    table = Table.new(("Ana", "Ben"), Rules.preset("pairs"), durable=False, first=1)
    table.start()
    assert table.hear(_heard("ana give me all an aces"))[-1].text == "Ana, aces?"
    assert table.hear(_heard("nope an aces"))[-1].text == "Okay, say it again."
    assert table.hear(_heard("ana give me all an aces"))[-1].text == "Ben, which rank?"
    pending = table.pending
    assert pending is not None and pending.denied == ("A",) and "A" not in pending.choices + pending.likely
    assert pending.misses == 1  # the "no" to "Ana, aces?" was the slot's first miss
    return table


def test_a_check_not_caught_at_the_second_miss_offers_the_two_likeliest() -> None:
    table = _which_rank()
    before = table.game.public()
    assert table.hear(_heard("deuce", 0.45, "aces"))[-1].text == "Twos?"
    reply = table.hear(_heard(""))[-1]
    assert reply.text == "Sorry, I didn't catch that. Twos or eights?", reply.event
    assert reply.event["choices"] == ["2", "8"] and table.game.public() == before


def test_the_denied_rank_heard_at_a_check_is_the_no_not_a_new_guess() -> None:
    table = _which_rank()
    assert table.hear(_heard("deuce", 0.45, "aces"))[-1].text == "Twos?"
    reply = table.hear(_heard("nope aces", 0.566))[-1]  # utt 16: main asked "Aces?"
    assert "Aces" not in reply.text and reply.text.startswith("Okay."), reply.text
    pending = table.pending
    assert pending is not None and pending.denied == ("A", "2") and pending.misses == 2, pending
    assert not {"A", "2"} & set(pending.choices)


def test_no_to_an_offer_denies_both_and_asks_for_the_rank_again() -> None:
    table = _which_rank()
    table.hear(_heard("deuce", 0.45, "aces"))
    assert table.hear(_heard(""))[-1].text.endswith("Twos or eights?")
    reply = table.hear(_heard("no", 0.95))[-1]
    assert reply.text == "Okay. Ben, which rank?", reply.text
    pending = table.pending
    assert pending is not None and set(pending.denied) == {"A", "2", "8"}
    assert not {"A", "2", "8"} & set(pending.choices) and "9" in pending.choices


def test_the_offer_accepts_the_slot_value_alone() -> None:
    table = _which_rank()
    table.hear(_heard("deuce", 0.45, "aces"))
    table.hear(_heard(""))
    eights = Transcript("eights", 0.93, (Alternative("eights", 0.93),), engine="pocketsphinx", agreed=(("rank", "8"),))
    assert table.hear(eights)[-1].text.endswith("Ben asks Ana for eights.")
    assert table.pending is None or table.pending.kind != "confirm"


def test_a_sure_value_at_an_offer_not_backed_is_checked_without_the_denied_ranks() -> None:
    table = _which_rank()
    table.hear(_heard("deuce", 0.45, "aces"))
    table.hear(_heard(""))
    reply = table.hear(_heard("eight", 0.93))[-1]
    assert reply.text == "Eights?", reply.text
    assert "A" not in reply.event["choices"] and "9" in reply.event["choices"]


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is missing: apt-get install espeak-ng")
def test_real_nines_after_aces_were_denied_is_never_asked_as_aces(fresh_two_players) -> None:
    """En-gb+m4's "nines" (synthesised as in the game, seed 4111, utterance 126 where main asked
    "Aces?"), heard at "Ben, which rank?" with aces out of the grammar: whatever it is heard as, it is
    not aces, and nothing is acted on."""
    from tabletop.speech import synth

    table = _which_rank()
    before = table.game.public()
    said = synth.realistic("nines", voice="en-gb+m4", speed=175, snr_db=None, seed=4111 * 1000 + 126)
    replies = table.hear_audio(said, fresh_two_players)
    assert "Aces" not in replies[-1].text and replies[-1].event.get("event") == "question", [r.event for r in replies]
    assert table.game.public() == before
    # "no, nines" (utterance 127) to whatever was guessed: still never aces
    said = synth.realistic("no, nines", voice="en-gb+m4", speed=175, snr_db=None, seed=4111 * 1000 + 127)
    replies = table.hear_audio(said, fresh_two_players)
    assert "Aces" not in replies[-1].text and table.game.public() == before, [r.event for r in replies]
    pending = table.pending
    assert pending is not None and "A" in pending.denied and "A" not in pending.choices


def test_a_check_not_caught_with_one_likely_value_asks_for_the_slot_again() -> None:
    """Nothing to offer (the evidence holds one value left): the sure part is kept, the rank asked for."""
    table = _which_rank()
    assert table.hear(_heard("deuce", 0.45))[-1].text == "Twos?"
    table._pending = replace(table.pending, likely=("2",))
    reply = table.hear(_heard(""))[-1]
    assert reply.text == "Sorry, I didn't catch that. Ben, which rank?", reply.text
    assert table.pending is not None and table.pending.slot == "rank" and "A" not in table.pending.choices
