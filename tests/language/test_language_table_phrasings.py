"""Phrasings the simulated table and families use that the first vocabulary missed."""

from __future__ import annotations

import pytest

from tabletop.cards import Rank
from tabletop.language import parse
from tabletop.referee.intents import Ask, Book, Correct

PLAYERS = ("Ana", "Ben", "Cho")


@pytest.mark.parametrize("text, intent", [
    ("pair of sevens", Book(rank=Rank.SEVEN)),
    ("that's a pair of queens", Book(rank=Rank.QUEEN)),
    ("Ana has a pair of sevens", Book(rank=Rank.SEVEN, player="Ana")),
    ("Ben, got any Js?", Ask(target="Ben", rank=Rank.JACK)),
    ("Ben got any Qs", Ask(target="Ben", rank=Rank.QUEEN)),
    ("Cho, any K's?", Ask(target="Cho", rank=Rank.KING)),
    ("I meant kings", Correct(rank=Rank.KING)),
    ("I said sixes", Correct(rank=Rank.SIX)),
])
def test_phrasing(text: str, intent: object) -> None:
    assert parse(text, PLAYERS) == intent


def test_letter_plurals_do_not_swallow_ordinary_words() -> None:
    assert parse("as if", PLAYERS) is None


def test_a_book_public_knowledge_proves_is_the_call_to_expect() -> None:
    """After "Ana, that makes a book of sevens: lay it down", a shaky "book of sevens" is acted on."""
    from tabletop.language.context import Context
    from tabletop.language.transcript import Alternative, Transcript
    from tabletop.language.understand import understand

    heard = Transcript("book of sevens", 0.7, (Alternative("book of sevens", 0.7), Alternative("book of twos", 0.6)),
                       engine="pocketsphinx")
    base = dict(players=("Ana", "Ben"), current="Ana", phase="after_hit", asker="Ana", target="Ben", rank=Rank.SEVEN)
    unsure = understand(heard, Context(**base))
    assert unsure.intent == Book(rank=Rank.SEVEN) and unsure.confirm == "A book of sevens?"
    expected = understand(heard, Context(**base, proven=frozenset({Rank.SEVEN})))
    assert expected.intent == Book(rank=Rank.SEVEN) and expected.confirm is None
    # A proven rank does not turn other words into that book.
    other = Transcript("book of twos", 0.9, (Alternative("book of twos", 0.9),), engine="pocketsphinx")
    assert understand(other, Context(**base, proven=frozenset({Rank.SEVEN}))).intent == Book(rank=Rank.TWO)
