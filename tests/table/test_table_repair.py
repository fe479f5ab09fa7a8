"""Repair in one step (issue 10.2), the table's side: what each answer to a repair question does.

The answers here are transcripts as the embedded recogniser returns them (engine "pocketsphinx": heard,
not typed); tests/table/test_table_loop_speech.py hears the same questions answered in real speech.
"""

from __future__ import annotations

from tabletop.language.transcript import Alternative, Transcript
from tabletop.table import Table

PLAYERS = ("Ana", "Ben", "Cho")


def heard(text: str, confidence: float = 0.97) -> Transcript:
    return Transcript(text, confidence, (Alternative(text, confidence),) if text else (), engine="pocketsphinx")


def asked_for_the_rank() -> Table:
    table = Table.new(PLAYERS, durable=False)
    shaky = Transcript("ben do you have any sevens", 0.8, (Alternative("ben do you have any sevens", 0.8),
                                                         Alternative("ben do you have any tens", 0.78)),
                       engine="pocketsphinx")
    assert table.hear(shaky)[-1].text == "Ana, which rank?"
    return table


def test_a_rank_heard_once_however_sure_is_checked_and_yes_acts() -> None:
    table = asked_for_the_rank()
    before = table.game.public()
    check = table.hear(heard("sixes", 1.0))[-1]
    assert check.text == "Sixes?" and check.event["expects"] == "yes_no" and check.event["checks"] == "rank"
    assert check.event["about"] == {"type": "ask", "target": "Ben", "rank": "6"}
    assert table.game.public() == before
    assert table.hear(heard("yes"))[-1].text == "Ana asks Ben for sixes."


def test_no_twice_offers_the_two_likeliest_left() -> None:
    table = asked_for_the_rank()
    table.hear(heard("sixes"))
    again = table.hear(heard("no"))[-1]
    assert again.text == "Okay. Ana, which rank?" and "6" not in again.event["choices"]
    assert table.hear(heard("fours"))[-1].text == "Fours?"
    offer = table.hear(heard("no"))[-1]
    assert offer.text == "Okay. Sevens or tens?" and offer.event["choices"] == ["7", "10"], offer.event
    # heard in a grammar of the two offered, "tens" may be any rank: checked, every rank back in play
    # but those denied in this exchange (sixes, fours: never guessed again)
    check = table.hear(heard("tens"))[-1]
    assert check.text == "Tens?" and "9" in check.event["choices"], check.event
    assert not {"6", "4"} & set(check.event["choices"]), check.event
    assert table.hear(heard("yes"))[-1].text == "Ana asks Ben for tens."


def test_an_offered_value_the_second_model_heard_too_is_acted_on() -> None:
    table = asked_for_the_rank()
    table.hear(heard("sixes"))
    table.hear(heard("no"))
    table.hear(heard("fours"))
    assert table.hear(heard("no"))[-1].text == "Okay. Sevens or tens?"
    tens = Transcript("tens", 0.97, (Alternative("tens", 0.97),), engine="pocketsphinx", agreed=(("rank", "10"),))
    assert table.hear(tens)[-1].text == "Ana asks Ben for tens."


def test_the_same_rank_again_is_not_a_yes_and_changes_nothing() -> None:
    """ "Sixes?" - "sixes": a misheard "sevens" would sound the same, so it is asked as a yes or no."""
    table = asked_for_the_rank()
    table.hear(heard("sixes"))
    before = table.game.public()
    again = table.hear(heard("sixes"))[-1]
    assert again.text == "Sixes? Yes or no." and again.event["expects"] == "yes_no"
    assert table.game.public() == before
    assert table.hear(heard("sixes"))[-1].text == "Okay, say it again."
    assert table.game.public() == before and table.pending is None


def test_a_check_not_caught_is_asked_once_more_keeping_the_ask() -> None:
    table = asked_for_the_rank()
    table.hear(heard("sixes"))
    again = table.hear(heard(""))[-1]
    assert again.text == "Sorry, I didn't catch that. Sixes?" and table.pending is not None
    assert table.hear(heard("yep"))[-1].text == "Ana asks Ben for sixes."


def test_typed_answers_are_acted_on() -> None:
    """Typing is deliberate: a typed rank fills the question at once."""
    table = asked_for_the_rank()
    assert table.hear_text("sixes")[-1].text == "Ana asks Ben for sixes."


def test_a_count_not_heard_surely_is_checked() -> None:
    """ "How many?" - "two" with "three" among the readings (a real "three" was heard so): "Two?"."""
    table = Table.new(PLAYERS, durable=False)
    table.hear_text("Ben, sevens?")
    assert table.hear_text("yes")[-1].text == "How many?"
    shaky = Transcript("two", 0.95, (Alternative("two", 0.95), Alternative("three", 0.57)), engine="pocketsphinx")
    before = table.game.public()
    check = table.hear(shaky)[-1]
    assert check.text == "Two?" and check.event["checks"] == "count" and table.game.public() == before
    again = table.hear(heard("no"))[-1]
    assert again.text == "Okay. How many?" and again.event["choices"] == ["1", "3"]
    assert table.hear(heard("three"))[-1].text.startswith("Ben gives Ana three sevens.")


def test_a_count_heard_surely_is_acted_on() -> None:
    table = Table.new(PLAYERS, durable=False)
    table.hear_text("Ben, sevens?")
    table.hear_text("yes")
    assert table.hear(heard("two"))[-1].text.startswith("Ben gives Ana two sevens.")


def test_a_heard_no_at_how_many_asks_again() -> None:
    """A real "three" was heard as "nope" at "How many?": asked again, not "nothing to answer"."""
    table = Table.new(PLAYERS, durable=False)
    table.hear_text("Ben, sevens?")
    table.hear_text("yes")
    before = table.game.public()
    again = table.hear(heard("nope"))[-1]
    assert again.text == "Sorry, how many?" and again.event["expects"] == "count" and table.game.public() == before
    assert table.hear(heard("three"))[-1].text.startswith("Ben gives Ana three sevens.")


def readings(*texts: tuple[str, float]) -> Transcript:
    """A hearing with its n-best list, best first."""
    return Transcript(texts[0][0], texts[0][1], tuple(Alternative(t, c) for t, c in texts), engine="pocketsphinx")


def test_a_correction_both_hearings_read_is_acted_on() -> None:
    """ "Sixes?" (threes among the first hearing's readings) - "no, threes": two hearings read
    threes and the speaker denied sixes, so the ask is made; evidence is summed over the hearings."""
    table = asked_for_the_rank()
    check = table.hear(readings(("sixes", 0.9), ("threes", 0.54)))[-1]
    assert check.text == "Sixes?" and dict(table.pending.evidence).keys() == {"6", "3"}
    assert table.hear(heard("no threes", 0.95))[-1].text == "Ana asks Ben for threes."


def test_a_correction_the_first_hearing_did_not_read_is_checked() -> None:
    table = asked_for_the_rank()
    table.hear(readings(("sixes", 0.9),))
    before = table.game.public()
    again = table.hear(heard("no threes", 0.95))[-1]
    assert again.text == "Threes?" and table.game.public() == before
    # and this second hearing of threes is evidence for the next answer
    assert dict(table.pending.evidence)["3"] > 0.8
    assert table.hear(heard("yes"))[-1].text == "Ana asks Ben for threes."


def test_a_rank_merely_confusable_with_the_first_hearing_is_no_evidence() -> None:
    """espeak-ng's "no tens" was heard as "no twos", and twos is confusable with sixes: checked."""
    table = asked_for_the_rank()
    table.hear(readings(("sixes", 0.9),))
    assert "2" in table.pending.likely and "2" not in dict(table.pending.evidence)
    assert table.hear(heard("no twos", 0.95))[-1].text == "Twos?"


def test_a_correction_with_a_near_rival_is_checked() -> None:
    """The two hearings back threes, but the second also read fours nearly as well: checked."""
    table = asked_for_the_rank()
    table.hear(readings(("sixes", 0.9), ("fours", 0.6), ("threes", 0.54)))
    before = table.game.public()
    again = table.hear(readings(("no threes", 0.7), ("no fours", 0.65)))[-1]
    assert again.text == "Threes?" and table.game.public() == before


def test_a_correction_the_first_hearing_read_no_better_than_another_is_checked() -> None:
    """Real "six"es heard as "king" (eights, then threes close behind, among its readings) were heard
    as "no eight" when the speaker said "no, six": the first hearing read eights no better than
    threes, so the eights are checked, not acted on."""
    table = asked_for_the_rank()
    table.hear(readings(("kings", 0.96), ("eights", 0.58), ("threes", 0.48)))
    before = table.game.public()
    again = table.hear(heard("no eights", 0.97))[-1]
    assert again.text == "Eights?" and table.game.public() == before


def test_a_value_denied_by_a_correction_is_never_acted_on_later() -> None:
    """A real FSDD "six": heard "ten" ("Tens?"), then "no nine" ("Nines?"), then "ten" again: tens
    were denied by the correction, so they are out of play and not acted on."""
    table = asked_for_the_rank()
    table.hear(readings(("tens", 0.9), ("eights", 0.45)))
    table.hear(readings(("no nines", 0.8), ("no tens", 0.45)))
    assert table.pending.question == "Nines?" and "10" not in table.pending.choices
    replies = table.hear(readings(("tens", 0.95),))
    assert not any(r.event.get("changed") for r in replies) and replies[-1].event["event"] == "question"
