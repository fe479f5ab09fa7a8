"""Sentences a family says that used to be refused (issue 12.5), and the nearby ways of saying
them: added to the one vocabulary (vocabulary.yaml), so the parser reads them and every
recogniser's grammar can say them."""

from __future__ import annotations

import pytest

from tabletop.cards import Rank
from tabletop.language.context import Context
from tabletop.language.grammar import sample_sentences, words
from tabletop.language.parser import parse
from tabletop.referee.intents import Answer, Ask, Book, GoFish
from tabletop.rules import Rules
from tabletop.table import Table

PLAYERS = ("Ana", "Ben", "Cho")


@pytest.mark.parametrize("text, intent", [
    ("Ben, got any As?", Ask(target="Ben", rank=Rank.ACE)),
    ("Ben, do you have any A's?", Ask(target="Ben", rank=Rank.ACE)),
    ("Ben, got any Ks?", Ask(target="Ben", rank=Rank.KING)),
    ("Can I have your sevens, Ben?", Ask(target="Ben", rank=Rank.SEVEN)),
    ("Could I get your 7s, Ben?", Ask(target="Ben", rank=Rank.SEVEN)),
    ("May I have all your queens, Cho?", Ask(target="Cho", rank=Rank.QUEEN)),
    ("Give me your jacks, Ben", Ask(target="Ben", rank=Rank.JACK)),
    ("Ben, could I have your fives?", Ask(target="Ben", rank=Rank.FIVE)),
    ("I'd like your tens please, Cho", Ask(target="Cho", rank=Rank.TEN)),
    ("oh sorry, yes two", Answer(count=2)),
    ("sorry, yes, two sevens", Answer(count=2)),
    ("oops, yes one", Answer(count=1)),
    ("my bad, here you go, three", Answer(count=3)),
    ("yes yes, two", Answer(count=2)),
    ("yes, four", Answer(count=4)),
    ("yes, all four", Answer(count=4)),
    ("I have four", Answer(count=4)),
    # ... and what they must not take over
    ("sorry", GoFish()),
    ("nope, sorry, go fish", GoFish()),
    ("four sevens", Book(rank=Rank.SEVEN)),
    ("I have four sevens", Book(rank=Rank.SEVEN)),
    ("Ben, do you have any sevens?", Ask(target="Ben", rank=Rank.SEVEN)),
])
def test_a_family_sentence_is_read(text: str, intent: object) -> None:
    assert parse(text, PLAYERS) == intent


def test_as_is_aces_only_where_typed_as_a_rank() -> None:
    assert parse("as", PLAYERS) is None
    assert parse("As I said, sevens", PLAYERS) != Ask(target="Ben", rank=Rank.ACE)
    assert parse("ben got any as", PLAYERS) is None  # lowercase "as" is the English word


def test_the_recognisers_can_say_the_new_phrasings() -> None:
    ctx = Context(players=PLAYERS, current="Ana", phase="answer", asker="Ana", target="Ben", rank=Rank.SEVEN)
    assert {"sorry", "four"} <= words(PLAYERS, ctx)
    said = [s for s, _ in sample_sentences(PLAYERS, 3000, seed=5)]
    assert any(s.startswith(("can i have", "could i have", "may i have", "can i get")) and s.endswith(("ana", "ben", "cho")) for s in said)


def _table() -> Table:
    table = Table.new(list(PLAYERS), Rules(), None)
    table.start()
    return table


def test_yes_four_is_told_that_four_make_a_book_and_asked_again() -> None:
    table = _table()
    table.hear_text("Can I have your sevens, Ben?")
    [reply] = table.hear_text("yes, four")
    assert reply.event["code"] == "bad-count"
    assert "Four sevens make a book" in reply.text and "How many" in reply.text
    before = table.game.public()
    [reply] = table.hear_text("oh sorry, yes two")
    assert reply.text.startswith("Ben gives Ana two sevens")
    assert table.game.public()["hands"]["Ana"] == before["hands"]["Ana"] + 2


@pytest.mark.parametrize("answer", ["sorry, I have two", "oh sorry, yes two", "yes yes, two", "my bad, here you go, two"])
def test_an_answer_put_right_at_once_moves_the_cards(answer: str) -> None:
    table = _table()
    table.hear_text("Ben, do you have any sevens?")
    [reply] = table.hear_text(answer)
    assert reply.text.startswith("Ben gives Ana two sevens"), reply.text


def test_an_ask_for_as_is_an_ask_for_aces() -> None:
    table = _table()
    [reply] = table.hear_text("Ben, got any As?")
    assert reply.text == "Ana asks Ben for aces."
