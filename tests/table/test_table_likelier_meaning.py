"""A heard sentence unsure to act on is asked about as what it most likely meant in the game.

In the 20 dB pairs game of the table bench (``tests/bench/table.py --players 2 --preset pairs --snrs 20
--seed 4103``) en-us+f1 at 155 words a minute lost six sentences (typed after six tries) to two
mishearings the table asked about literally:

* her "Ben, any sevens?" was heard "i meant any sevens" (nine of her asks went so): a correction,
  asked "You said sevens?", denied, said again and heard so again. At the start of a turn, with one
  player to ask, it is asked as the ask ("Ben, sevens?"); a "no" asks about the correction.
* her "Ana has a book of fours" was heard "... of fives" right after "Ana, that makes a pair of
  fours: lay it down", asked "A book of fives?", denied, and heard so again. The book public
  knowledge proves is asked about first ("A book of fours?"); a "no" asks about the book heard.

The audio is the game's (its voice, speed, noise and seed), heard by PocketSphinx in the game's
context. Either way a "yes" acts, as it did before: nothing is acted on that was not confirmed.
"""

from __future__ import annotations


import pytest

from tabletop.language.transcript import Alternative, Transcript
from tabletop.rules import Rules
from tabletop.speech import synth
from tabletop.table import Table

PLAYERS = ("Ana", "Ben")  # the bench game's players: its recogniser knows these names alone
GAME_SEED = 4103
VOICE = "en-us+f1"


def _pairs_game(*typed: str) -> Table:
    table = Table.new(list(PLAYERS), Rules.preset("pairs"), None, first=0)
    table.start()
    for line in typed:
        table.hear_text(line)
    return table


def _game_audio(text: str, utterance: int, speed: int = 155):
    """The bench game's utterance: its seed is the game's seed * 1000 + its number in the game."""
    return synth.realistic(text, voice=VOICE, speed=speed, snr_db=20.0, seed=GAME_SEED * 1000 + utterance)


def _heard(text: str, confidence: float = 0.95) -> Transcript:
    return Transcript(text, confidence, (Alternative(text, confidence),), engine="pocketsphinx")


@pytest.mark.parametrize("utterance, said, rank", [(221, "Ben, any sevens?", "sevens"), (195, "Ben, any aces?", "aces"),
                                                   (212, "Ben, eights?", "eights")])
def test_an_ask_heard_as_i_meant_is_asked_as_the_ask(two_players, utterance: int, said: str, rank: str) -> None:
    table = _pairs_game()
    before = table.game.public()
    replies = table.hear_audio(_game_audio(said, utterance), two_players)
    assert replies[0].event["heard"].startswith("i meant"), [r.event for r in replies]  # the game's mishearing
    assert replies[-1].text == f"Ben, {rank}?", [r.text for r in replies]
    assert table.game.public() == before
    replies = table.hear(_heard("yes"))
    assert replies[0].event["changed"] and replies[0].event["intent"]["type"] == "ask", [r.event for r in replies]
    assert replies[0].text == f"Ana asks Ben for {rank}.", [r.text for r in replies]


def test_a_no_to_the_ask_asks_about_the_correction() -> None:
    table = _pairs_game()
    before = table.game.public()
    assert table.hear(_heard("i meant any eights", 0.83))[-1].text == "Ben, eights?"
    assert table.hear(_heard("no"))[-1].text == "You said eights?"
    assert table.hear(_heard("no"))[-1].text == "Okay, say it again."
    assert table.game.public() == before


def test_a_correction_stays_a_correction_where_the_ask_is_not_likelier() -> None:
    """With a "no" before it ("no, I said sevens"), or with two players who can be asked, a heard
    correction is asked about as ever; typed, it is acted on as ever."""
    table = _pairs_game()
    assert table.hear(_heard("no i meant any sevens", 0.83))[-1].text == "You said sevens?"
    table = Table.new(["Ana", "Ben", "Cho"], Rules(), None, first=0)
    table.start()
    assert table.hear(_heard("i meant any sevens", 0.83))[-1].text == "You said sevens?"


def test_a_correction_said_again_after_a_no_is_not_asked_for_its_rank_alone() -> None:
    """"You said sevens?" - "no" - the same heard again: "Which one?" filled nothing ("sevens" heard
    right three times was "Sorry, I didn't catch that"): it is asked as before."""
    table = Table.new(["Ana", "Ben", "Cho"], Rules(), None, first=0)
    table.start()
    assert table.hear(_heard("i meant any sevens", 0.83))[-1].text == "You said sevens?"
    assert table.hear(_heard("no"))[-1].text == "Okay, say it again."
    assert table.hear(_heard("i meant any sevens", 0.83))[-1].text == "You said sevens?"


@pytest.mark.parametrize("utterance, said, speed", [(129, "Ana has a book of fours", 155), (89, "book of fours", 165)])
def test_a_book_heard_of_another_rank_than_the_one_proven_asks_the_proven_one(two_players, utterance: int, said: str,
                                                                                speed: int) -> None:
    table = _pairs_game("Ben, any fours?", "yes, one")  # "Ana, that makes a pair of fours: lay it down."
    before = table.game.public()
    replies = table.hear_audio(_game_audio(said, utterance, speed), two_players)
    assert "five" in replies[0].event["heard"], [r.event for r in replies]  # the game's mishearing
    assert replies[-1].text.endswith("book of fours?"), [r.text for r in replies]
    assert table.game.public() == before
    replies = table.hear(_heard("yes"))
    assert replies[0].event["changed"] and replies[0].event["intent"] == {"type": "book", "rank": "4"} | (
        {"player": "Ana"} if said.startswith("Ana") else {}), [r.event for r in replies]


def test_a_no_to_the_proven_book_asks_about_the_book_heard() -> None:
    table = _pairs_game("Ben, any fours?", "yes, one")
    before = table.game.public()
    assert table.hear(_heard("book of five", 0.45))[-1].text == "A book of fours?"
    assert table.hear(_heard("no"))[-1].text == "A book of fives?"
    assert table.game.public() == before
    replies = table.hear(_heard("yes"))
    assert replies[0].event["changed"] and replies[0].event["intent"]["rank"] == "5", [r.event for r in replies]


def test_a_book_of_the_rank_proven_is_recorded_and_with_nothing_proven_is_asked_as_heard() -> None:
    table = _pairs_game("Ben, any fours?", "yes, one")
    assert table.hear(_heard("book of four", 0.45))[-1].text.startswith("Ana lays down a pair of fours.")
    table = _pairs_game()
    assert table.hear(_heard("book of five", 0.45))[-1].text == "A book of fives?"
