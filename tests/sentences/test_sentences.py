"""Every sentence tabletop says lives in tabletop/sentences.py (issue 12 item 9), in words (item 7)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tabletop import sentences
from tabletop.cards import Rank
from tabletop.rules import Rules

PACKAGE = Path(__file__).resolve().parents[2] / "tabletop"
# Modules whose number words are for hearing, not speaking: rank names and the parser's normaliser.
HEARING = {PACKAGE / "cards.py", PACKAGE / "language" / "normalise.py", PACKAGE / "sentences.py"}
COUNT_WORDS = {"two", "three", "four", "five", "six"}


def _modules() -> list[tuple[Path, ast.Module]]:
    return [(path, ast.parse(path.read_text(encoding="utf-8"))) for path in sorted(PACKAGE.rglob("*.py"))]


def test_one_number_word_table() -> None:
    """No module but sentences keeps a table of count words (there were three)."""
    tables = []
    for path, tree in _modules():
        if path in HEARING:
            continue
        docstrings = {id(body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and (body := node.body) and isinstance(body[0], ast.Expr)
                      and isinstance(body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if id(node) in docstrings:
                continue
            if isinstance(node, (ast.Dict, ast.Tuple, ast.List, ast.Set)):
                values = node.values if isinstance(node, ast.Dict) else node.elts
                words = {v.value for v in values if isinstance(v, ast.Constant) and isinstance(v.value, str)}
                if len(words & COUNT_WORDS) >= 3:
                    tables.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(
                    set(node.value.split()) & COUNT_WORDS) >= 3:
                tables.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert tables == []


def test_one_list_joiner() -> None:
    """No module but sentences joins a list with " and " (there were two joiners)."""
    joiners = [
        f"{path.relative_to(PACKAGE)}:{node.lineno}"
        for path, tree in _modules() if path != PACKAGE / "sentences.py"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value == " and "
    ]
    assert joiners == []


def test_no_phrases_module_left_and_the_referee_words_through_sentences() -> None:
    assert not (PACKAGE / "referee" / "phrases.py").exists()
    for name in ("referee/game.py", "referee/referee.py", "table/table.py", "vision/books.py",
                 "language/understand.py"):
        assert "from tabletop import sentences" in (PACKAGE / name).read_text(encoding="utf-8"), name


def test_sentences_imports_only_the_core() -> None:
    """The referee imports sentences, so sentences must not import anything above the core."""
    tree = ast.parse((PACKAGE / "sentences.py").read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert {m for m in imported if m and m.startswith("tabletop")} <= {"tabletop.cards", "tabletop.rules"}


@pytest.mark.parametrize("n, word", [(0, "zero"), (1, "one"), (7, "seven"), (13, "thirteen"), (20, "twenty"),
                                     (31, "thirty-one"), (52, "fifty-two")])
def test_numbers_are_words(n: int, word: str) -> None:
    assert sentences.number(n) == word


def test_counts_are_words_everywhere() -> None:
    assert sentences.books(5) == "five books" and sentences.books(3) == "three books"
    assert sentences.books(1, 2) == "one pair" and sentences.books(0) == "no books"
    assert sentences.cards(31) == "thirty-one cards" and sentences.cards(1) == "one card"
    assert sentences.of_rank(1, Rank.EIGHT) == "an eight" and sentences.of_rank(2, Rank.SIX) == "two sixes"
    assert sentences.opening(7, "Ana") == "Deal seven cards each. Ana goes first."
    assert sentences.stock_short(5) == "That's more cards than the stock has: five left."


def test_join() -> None:
    assert sentences.join([]) == "" and sentences.join(["Ana"]) == "Ana"
    assert sentences.join(["Ana", "Ben"]) == "Ana and Ben"
    assert sentences.join(["Ana", "Ben", "Cho"], "or") == "Ana, Ben or Cho"


def test_game_over_says_the_winner_and_books_first() -> None:
    text = sentences.game_over(["Ana"], 5, Rules(), {"Ana": 5, "Ben": 4, "Cho": 4})
    assert text == "Game over. Ana wins with five books. Ben has four books and Cho has four books."
    tie = sentences.game_over(["Ana", "Ben"], 6, Rules(), {"Ana": 6, "Ben": 6, "Cho": 1})
    assert tie == "Game over. Ana and Ben share the win with six books each. Cho has one book."


def test_sentences_never_run_together() -> None:
    assert sentences.together(["No camera", "Deal seven cards each. Ana goes first."]) == (
        "No camera. Deal seven cards each. Ana goes first.")
