"""A book heard while an ask waits for its answer is the answer misheard, asked about as the answer.

No book can be laid before the ask is answered (the referee refuses it: "finish the ask first"), and
the one talking is the target. In the table bench's 20 dB pairs games the target's "I got one" was
heard "i got all the five" (en-gb+m4, seed 4105), asked "A book of fives?", denied, then "A book of
which rank?" four times until typed; "I have one" was heard "i have a book of eight" (en-us+m2, seed
4104) and "i have all the three" (seed 4105). Now the answer it most likely was is asked ("Yes, you
have some?"): a "yes" gives the card, a "no" changes nothing. Nothing is acted on unconfirmed.

The audio is the games' own (voice, speed, noise and seed), heard by PocketSphinx in the game's context.
"""

from __future__ import annotations

import pytest

from tabletop.language.transcript import Alternative, Transcript
from tabletop.rules import Rules
from tabletop.speech import synth
from tabletop.table import Table


def _pairs_game(*typed: str) -> Table:
    table = Table.new(["Ana", "Ben"], Rules.preset("pairs"), None, first=0)
    table.start()
    for line in typed:
        table.hear_text(line)
    return table


def _heard(text: str, confidence: float = 0.95) -> Transcript:
    return Transcript(text, confidence, (Alternative(text, confidence),), engine="pocketsphinx")


@pytest.mark.parametrize("voice, speed, seed, said, typed, misheard, gives", [
    ("en-gb+m4", 135, 4105032, "I got one", ("Ben, fours?",), "five", "Ben gives Ana a four."),
    ("en-gb+m4", 135, 4105132, "I have one", ("Ben, fours?",), "three", "Ben gives Ana a four."),
    ("en-us+m2", 145, 4104012, "I have one", ("Ben, fours?", "go fish", "Ana, any tens?"), "eight",
     "Ana gives Ben a ten."),
])
def test_an_answer_heard_as_a_book_is_asked_as_the_answer(two_players, voice: str, speed: int, seed: int, said: str,
                                                           typed: tuple[str, ...], misheard: str, gives: str) -> None:
    table = _pairs_game(*typed)
    before = table.game.public()
    audio = synth.realistic(said, voice=voice, speed=speed, snr_db=20.0, seed=seed)
    replies = table.hear_audio(audio, two_players)
    assert misheard in replies[0].event["heard"], [r.event for r in replies]  # the game's mishearing
    assert replies[-1].text == "Yes, you have some?", [r.text for r in replies]
    assert replies[-1].event["about"] == {"type": "answer", "count": None}
    assert table.game.public() == before
    replies = table.hear(_heard("yes"))
    assert replies[0].event["changed"] and replies[0].text.startswith(gives), [r.text for r in replies]


def test_a_no_to_the_answer_asked_changes_nothing() -> None:
    table = _pairs_game("Ben, fours?")
    before = table.game.public()
    assert table.hear(_heard("i got all the five", 0.45))[-1].text == "Yes, you have some?"
    assert table.hear(_heard("no"))[-1].text == "Okay, say it again."
    assert table.game.public() == before


def test_a_book_heard_with_a_go_fish_among_its_readings_is_asked_as_a_go_fish() -> None:
    table = _pairs_game("Ben, fours?")
    heard = Transcript("book of five", 0.45, (Alternative("book of five", 0.45), Alternative("nope go fish", 0.27)),
                       engine="pocketsphinx")
    assert table.hear(heard)[-1].text == "Go fish?"
    replies = table.hear(_heard("yes"))
    assert replies[0].event["changed"] and replies[0].text.startswith("Go fish, Ana."), [r.text for r in replies]


def test_a_book_heard_surely_at_an_answer_is_asked_too_and_typed_is_refused_as_before() -> None:
    table = _pairs_game("Ben, fours?")
    before = table.game.public()
    assert table.hear(_heard("book of sevens"))[-1].text == "Yes, you have some?"
    assert table.game.public() == before
    table = _pairs_game("Ben, fours?")
    replies = table.hear_text("book of sevens")
    assert replies[-1].event["code"] == "answer-first" and not replies[-1].event["changed"], [r.event for r in replies]


def test_a_book_heard_out_of_an_ask_is_asked_as_a_book_as_before() -> None:
    table = _pairs_game()
    assert table.hear(_heard("book of five", 0.45))[-1].text == "A book of fives?"
