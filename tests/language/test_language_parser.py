"""The parser against the phrasings of PRODUCT.md section 1 and many more: intent type and every slot."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.cards import Card, Rank, Suit
from tabletop.language.parser import Parser, parse, parse_candidates
from tabletop.referee.intents import (
    Answer, Ask, Book, Control, Correct, GoFish, HandCount, Lucky, No, OutOfCards, Query, Undo, Yes,
)

PLAYERS = ("Ana", "Ben", "Cho")
S = Rank.SEVEN

EXAMPLES = [
    # ask
    ("Ben, do you have any sevens?", Ask("Ben", S)),
    ("Ben, got any 7s?", Ask("Ben", S)),
    ("Ben — sevens?", Ask("Ben", S)),
    ("Ben, give me your sevens", Ask("Ben", S)),
    ("Ben, give me all your sevens", Ask("Ben", S)),
    ("do you have any sevens Ben", Ask("Ben", S)),
    ("Ana asks Ben for sevens", Ask("Ben", S, asker="Ana")),
    ("Cho, have you got any queens?", Ask("Cho", Rank.QUEEN)),
    ("cho do you have a queen", Ask("Cho", Rank.QUEEN)),
    ("Ben, the 7's?", Ask("Ben", S)),
    ("Ben, any 10s", Ask("Ben", Rank.TEN)),
    ("Ben, do you have any jacks", Ask("Ben", Rank.JACK)),
    ("Ben, do you have any sixes", Ask("Ben", Rank.SIX)),
    ("Ben do you have any six", Ask("Ben", Rank.SIX)),
    ("Ben, can I have your aces", Ask("Ben", Rank.ACE)),
    ("Ben, any deuces?", Ask("Ben", Rank.TWO)),
    ("um, hey Ben, do you have any kings please", Ask("Ben", Rank.KING)),
    ("Ben, do you have the king of clubs?", Ask("Ben", Rank.KING, card=Card(Rank.KING, Suit.CLUBS))),
    ("Ben give me the 10 of hearts", Ask("Ben", Rank.TEN, card=Card(Rank.TEN, Suit.HEARTS))),
    # answer
    ("yes, two", Answer(2)),
    ("here you go, two sevens", Answer(2)),
    ("I have one", Answer(1)),
    ("I got two", Answer(2)),
    ("yeah three", Answer(3)),
    ("here you go", Answer(None)),
    ("yes, I have 2", Answer(2)),
    ("one", Answer(1)),
    # yes / no
    ("yep", Yes()),
    ("yes", Yes()),
    ("no", No()),
    ("nope", No()),
    # go fish
    ("go fish", GoFish()),
    ("nope, go fish", GoFish()),
    ("Go fish!", GoFish()),
    ("no, I don't have any sevens", GoFish()),
    ("sorry, go fish", GoFish()),
    # lucky
    ("lucky fish!", Lucky()),
    ("I got a seven", Lucky(S)),
    ("I drew it", Lucky()),
    ("I got a two", Lucky(Rank.TWO)),
    ("I drew an ace", Lucky(Rank.ACE)),
    # book
    ("book of queens", Book(Rank.QUEEN)),
    ("book of sevens", Book(S)),
    ("I have four sevens", Book(S)),
    ("Ana has a book of kings", Book(Rank.KING, player="Ana")),
    ("Ben has a book of nines", Book(Rank.NINE, player="Ben")),
    ("I have a book of 5s", Book(Rank.FIVE)),
    # out of cards
    ("I'm out of cards", OutOfCards()),
    ("Im out of cards", OutOfCards()),
    ("Ben is out of cards", OutOfCards("Ben")),
    ("I have no cards left", OutOfCards()),
    # hand count
    ("Ben has three cards", HandCount("Ben", 3)),
    ("Cho has 1 card", HandCount("Cho", 1)),
    ("Ana has eleven cards", HandCount("Ana", 11)),
    # queries
    ("what's the score?", Query("score")),
    ("whats the score", Query("score")),
    ("What is the score", Query("score")),
    ("whose turn is it", Query("turn")),
    ("who's turn is it?", Query("turn")),
    ("how many cards are left", Query("stock")),
    ("how many cards does Ben have", Query("hand", player="Ben")),
    ("what did Ben ask for", Query("last", player="Ben")),
    ("which books are down", Query("books")),
    ("repeat that", Query("repeat")),
    ("help", Query("help")),
    # undo / correct
    ("undo", Undo()),
    ("scratch that", Undo()),
    ("no, I said sixes", Correct(rank=Rank.SIX)),
    ("no, I meant tens", Correct(rank=Rank.TEN)),
    ("no, Cho", Correct(target="Cho")),
    ("no, I said Cho", Correct(target="Cho")),
    ("no, I gave you two", Correct(count=2)),
    # control
    ("pause", Control("pause")),
    ("resume", Control("resume")),
    ("stop the game", Control("stop")),
    ("new game", Control("new_game")),
    ("players are Ana, Ben and Cho", Control("new_game", players=("Ana", "Ben", "Cho"))),
    ("new game, players are Ana, Ben and Cho", Control("new_game", players=("Ana", "Ben", "Cho"))),
    ("let's play with Ana, Ben and Cho", Control("new_game", players=("Ana", "Ben", "Cho"))),
    # more ways families speak
    ("Ben, I'm going to ask you for your jacks", Ask("Ben", Rank.JACK)),
    ("Hey Ben, you got any kings?", Ask("Ben", Rank.KING)),
    ("Got any fives, Ben?", Ask("Ben", Rank.FIVE)),
    ("yeah, here's two", Answer(2)),
    ("Yes, three of them", Answer(3)),
    ("here are your sevens", Answer(None)),
    ("Ha, go fish!", GoFish()),
    ("Go fish, Ana", GoFish()),
    ("lucky fish, I got a seven", Lucky(S)),
    ("I picked up a seven", Lucky(S)),
    ("book, sevens", Book(S)),
    ("Ben's out of cards", OutOfCards("Ben")),
    ("what's Ben's score", Query("score", player="Ben")),
    ("which books have been made", Query("books")),
    ("take it back", Undo()),
    ("Ana: Ben, do you have sevens?", Ask("Ben", S, asker="Ana")),
    ("Ana, go fish", GoFish()),
    ("I've got none", GoFish()),
    ("nope, nothing", GoFish()),
]


@pytest.mark.parametrize("text, expected", EXAMPLES)
def test_examples_parse_to_intent_with_every_slot(text: str, expected: object) -> None:
    assert parse(text, PLAYERS) == expected


@pytest.mark.parametrize(
    "text, first, second",
    [
        ("I got two", Answer(2), Lucky(Rank.TWO)),
        ("no", No(), GoFish()),
        ("yes", Yes(), Answer(None)),
        ("no, three", Correct(rank=Rank.THREE), Correct(count=3)),
    ],
)
def test_ambiguous_text_returns_every_reading_in_cost_order(text: str, first: object, second: object) -> None:
    candidates = parse_candidates(text, PLAYERS)
    intents = [c.intent for c in candidates]
    assert intents[:2] == [first, second]
    assert candidates[0].cost <= candidates[1].cost
    assert all(c.template for c in candidates)


def test_two_with_an_article_is_only_a_rank() -> None:
    assert [c.intent for c in parse_candidates("I got a two", PLAYERS)] == [Lucky(Rank.TWO)]


def test_names_match_exactly_first_then_fuzzily_with_a_cost() -> None:
    exact = parse_candidates("Ben, sevens?", PLAYERS)[0]
    fuzzy = parse_candidates("Benn, sevens?", PLAYERS)[0]
    assert exact.intent == fuzzy.intent == Ask("Ben", S)
    assert fuzzy.cost > exact.cost
    assert fuzzy.fuzzy_names == (("benn", "Ben"),)
    assert parse("Anna, sevens?", PLAYERS) == Ask("Ana", S)


def test_a_word_far_from_every_name_never_becomes_a_name() -> None:
    assert parse("Dave, sevens?", PLAYERS) is None
    assert parse("Bob, sevens?", PLAYERS) is None
    assert parse("Joe, sevens?", PLAYERS) is None


def test_unknown_names_are_reported_only_when_asked_for() -> None:
    candidates = parse_candidates("Dave, sevens?", PLAYERS, allow_unknown_names=True)
    assert candidates and candidates[0].unknown_names == ("dave",)


def test_names_are_returned_as_the_game_spells_them() -> None:
    assert parse("mary ann, any sevens", ["Mary Ann", "Bo"]) == Ask("Mary Ann", S)
    assert parse("PRIYA, GOT ANY KINGS?", ["Priya", "Bo"]) == Ask("Priya", Rank.KING)


def test_sound_alike_words_read_as_ranks_with_a_cost() -> None:
    plain = parse_candidates("Ben, do you have any tens", PLAYERS)[0]
    heard = parse_candidates("Ben, do you have any then", PLAYERS)[0]
    assert heard.intent == plain.intent == Ask("Ben", Rank.TEN)
    assert heard.cost > plain.cost
    assert parse("Ana asks Ben for fours", PLAYERS) == Ask("Ben", Rank.FOUR, asker="Ana")


def test_new_names_are_accepted_when_players_are_named() -> None:
    assert parse("players are Dave, Eve and Fay", ()) == Control("new_game", players=("Dave", "Eve", "Fay"))


@pytest.mark.parametrize("text", ["", "   ", "?!", "the weather is nice", "pass the salt", "sevens sevens sevens",
                                  "Ben Ben Ben", "do you have", "book", "x" * 5000, "ben " * 100])
def test_nonsense_returns_none(text: str) -> None:
    assert parse(text, PLAYERS) is None
    assert parse_candidates(text, PLAYERS) == []


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_text_never_raises(text: str) -> None:
    parse_candidates(text, PLAYERS)
    Parser(PLAYERS).parse_candidates(text, allow_unknown_names=True)  # the unguarded path too


_NONSENSE = st.text(alphabet="bcdfghjklmnpqrstvwxz", min_size=1, max_size=12)


@settings(max_examples=200, deadline=None)
@given(st.lists(_NONSENSE, min_size=1, max_size=8))
def test_consonant_soup_returns_none(words: list[str]) -> None:
    assert parse(" ".join(words), PLAYERS) is None


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=10), max_size=5), st.text(max_size=60))
def test_any_player_list_never_raises(players: list[str], text: str) -> None:
    parse_candidates(text, players)
    Parser(players).parse_candidates(text)


def test_recogniser_markers_are_ignored() -> None:
    assert parse("[unk] go fish", PLAYERS) == GoFish()
    assert parse("[unk]", PLAYERS) is None


def test_a_name_that_is_also_a_card_word() -> None:
    players = ("Jack", "Ben", "Will")
    assert parse("Jack, do you have any jacks?", players) == Ask("Jack", Rank.JACK)
    assert parse("Ben, do you have any jacks?", players) == Ask("Ben", Rank.JACK)
    assert parse("Jack has a book of kings", players) == Book(Rank.KING, "Jack")


def test_the_command_line_matches_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import json

    from tabletop.language.__main__ import main

    monkeypatch.setattr("sys.stdin", io.StringIO("Ben, sevens?\n\nI got two\n"))
    assert main(["--players", "Ana", "Ben", "--phase", "after_miss"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["readings"][0]["intent"] == {"type": "ask", "target": "Ben", "rank": "7"}
    assert lines[1]["understood"]["intent"] == {"type": "lucky", "rank": "2"}
