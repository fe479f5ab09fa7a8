"""Issue 12 item 7: what a family hears is plain words, in order, and never a path or an error's text."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from support import tabletop_command
from tabletop.cli.demo import summary
from tabletop.referee.game import Game
from tabletop.referee.intents import Ask, Book, Answer, OutOfCards, Yes
from tabletop.referee.referee import Referee
from tabletop.cards import Rank
from tabletop.rules import Rules
from tabletop.table import Table

SPEAKABLE = re.compile(r"^[^/`\\{}<>\[\]]*$")  # no path, no backticks, no code


def play(tmp_path: Path, lines: list[str], *args: str, journal: str = "g.jsonl") -> subprocess.CompletedProcess:
    return subprocess.run(
        tabletop_command() + ["play", "--text", "--json", "--no-fsync", "--journal", str(tmp_path / journal), *args],
        input="".join(line + "\n" for line in lines), capture_output=True, text=True, timeout=120,
    )


def test_the_end_says_the_winner_and_the_books_and_not_who_sits_out() -> None:
    ref = Referee(Game(["Ana", "Ben", "Cho"], Rules(game_end="first-out")))
    ref.handle(Ask(target="Ben", rank=Rank.SEVEN))
    ref.handle(Answer(3))
    ref.handle(Book(Rank.SEVEN))
    ref.handle(OutOfCards(player="Ben"))
    said = ref.handle(Yes()).say + ref.settle().say
    assert said == ["Ben is out of cards.", "Game over. Ana wins with one book. Ben has no books and Cho has no books."]


def test_a_standard_game_ending_on_empty_hands_says_game_over_first() -> None:
    """Everyone's hand runs out at the end of a standard game: that is not news to be read out first."""
    ref = Referee(Game(["Ana", "Ben"], Rules(deal="7")))
    state = ref.game.state
    state.stock, state.hands = 0, [4, 0]  # the last exchange: Ana lays down the last book
    state.books = [[r for r in Rank if r is not Rank.KING][:6], [r for r in Rank if r is not Rank.KING][6:]]
    state.started = True
    said = ref.handle(Book(Rank.KING)).say + ref.settle().say
    assert said[-1].startswith("Game over. Ana wins with seven books."), said
    assert not any("sits out" in s for s in said), said


def test_state_after_the_end_marks_nobody_as_sitting_out(tmp_path: Path) -> None:
    out = play(tmp_path, ["Ben, any sevens?", "yes, three", "book of sevens", "Ben is out of cards", "yes"],
               "--players", "Ana", "Ben", "--rule", "game_end=first-out")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.splitlines()[-1])["state"]["over"]
    shown = subprocess.run(tabletop_command() + ["state", str(tmp_path / "g.jsonl")], capture_output=True, text=True,
                           timeout=60)
    assert "Game over. Winners: Ana" in shown.stdout and "sits out" not in shown.stdout, shown.stdout


def test_state_of_a_game_that_ended_on_empty_hands_marks_nobody_as_sitting_out() -> None:
    from tabletop.cli.state import describe

    public = dict(Game(["Ana", "Ben"]).public(), over=True, current=None, winners=["Ana"], out=["Ana", "Ben"],
                  stock=0, hands={"Ana": 0, "Ben": 0})
    shown = "\n".join(describe(public))
    assert "Game over. Winners: Ana" in shown and "sits out" not in shown, shown
    playing = "\n".join(describe(dict(Game(["Ana", "Ben"]).public(), out=["Ben"])))
    assert "Ben: 7 cards, books: none (sits out)" in playing


def test_resuming_a_finished_game_says_who_won(tmp_path: Path) -> None:
    out = play(tmp_path, ["Ben, any sevens?", "yes, three", "book of sevens", "Ben is out of cards", "yes"],
               "--players", "Ana", "Ben", "--rule", "game_end=first-out")
    assert out.returncode == 0, out.stderr
    table = Table.resume(tmp_path / "g.jsonl", read_only=True)
    assert table.start()[0].text == "Resuming the game. The game is over: Ana won."


def test_no_camera_is_said_simply_in_its_own_sentence_and_the_detail_is_printed(tmp_path: Path) -> None:
    missing = tmp_path / "no such camera.avi"
    out = play(tmp_path, ["whose turn is it"], "--players", "Ana", "Ben", "--camera", str(missing))
    assert out.returncode == 0, out.stderr
    first = json.loads(out.stdout.splitlines()[0])["say"]
    assert first == "There's no camera, so I'll go on without it. Deal seven cards each. Ana goes first."
    assert str(missing) in out.stderr  # the detail, for whoever fixes it


def test_nothing_spoken_in_a_game_holds_a_path_backticks_or_digits(tmp_path: Path) -> None:
    lines = ["Ben, do you have any sevens?", "yes, two", "Cho, any kings?", "go fish", "what's the score",
             "how many cards are left", "how many cards does Ben have", "undo", "Ben has a book of nines",
             "which books are down", "Zed, any sevens?", "undo", "help"]
    out = play(tmp_path, lines, "--players", "Ana", "Ben", "Cho", "--camera", str(tmp_path / "missing.avi"))
    assert out.returncode == 0, out.stderr
    said = [json.loads(line)["say"] for line in out.stdout.splitlines()]
    assert len(said) >= len(lines)
    for text in said:
        assert SPEAKABLE.match(text) and not re.search(r"\d", text), text
    assert "Took back: Cho's go fish, and Ana's draw." in said, said  # what was undone, in words


def test_the_demo_ends_in_words_not_python() -> None:
    text = summary(Game(["Ana", "Ben", "Cho"]).public())
    assert text == ("Thirty-one cards left in the stock. Ana has seven cards, Ben has seven cards and Cho has "
                    "seven cards. Score: Ana no books, Ben no books, Cho no books.")
