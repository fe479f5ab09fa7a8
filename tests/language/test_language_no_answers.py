"""The no-answers a family says to "do you have any sevens?" that name no fish ("I don't have one", "no, I
haven't"): in the one vocabulary (vocabulary.yaml), so the parser reads them
as a go fish and the recognisers' grammar for the answer can say them. Without "i don't have one" in the
grammar, PocketSphinx read it "i do have one" and a card was given for a no."""

from __future__ import annotations

import pytest

from tabletop.cards import Rank
from tabletop.language.context import Context
from tabletop.language.grammar import words
from tabletop.language.parser import parse
from tabletop.language.understand import bare_go_fish
from tabletop.referee.intents import Answer, GoFish

PLAYERS = ("Ana", "Ben")
AT_AN_ASK = Context(players=PLAYERS, current="Ana", phase="answer", asker="Ana", target="Ben", rank=Rank.SEVEN)


@pytest.mark.parametrize("text", [
    "I don't have one", "no, I don't have one", "sorry, I don't have one", "I don't have it", "I don't have any of them", "I do not have any", "I do not have one",
    "no I do not", "no, I haven't",
    "I don't have one, go fish", "I don't have any", "I don't have any sevens", "no, I don't", "sorry, go fish",
    "nope, none", "sorry, no",
])
def test_a_no_a_family_says_is_a_go_fish(text: str) -> None:
    assert parse(text, PLAYERS) == GoFish(), text


@pytest.mark.parametrize(("text", "intent"), [
    ("I do have one", Answer(1)), ("I have one", Answer(1)), ("yes, I have one", Answer(1)), ("I got one", Answer(1)),
    ("I have no cards", None),
])
def test_what_the_new_no_answers_must_not_take_over(text: str, intent: object) -> None:
    got = parse(text, PLAYERS)
    assert (got == intent) if intent is not None else not isinstance(got, GoFish), (text, got)


def test_the_answer_grammar_can_say_them() -> None:
    assert {"don't", "not", "haven't", "it", "that"} <= words(PLAYERS, AT_AN_ASK)


@pytest.mark.parametrize(("text", "bare"), [
    ("i don't have any", False), ("i don't have one", False), ("i haven't got any", False),
    ("i do not have any", False), ("i don't", True), ("nothing", True), ("none", True), ("not one", True),
    ("i have none", True),
])
def test_a_whole_denial_of_having_is_no_bare_go_fish(text: str, bare: bool) -> None:
    """A bare go fish ("i don't", "nothing": what chatter is heard as) is asked about; a whole "I don't have
    any" is said as a no and acted on. "I have none" stays bare: it is "I have one" misheard."""
    assert bare_go_fish(GoFish(), text, AT_AN_ASK) is bare
