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
