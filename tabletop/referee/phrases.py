"""The sentences tabletop says, in one place: short, plain, and easy to hear."""

from __future__ import annotations

from typing import Sequence

from tabletop.cards import Rank
from tabletop.rules import Rules

GAME_OVER = "The game is over. Say new game to play again."
HELP = (
    "Ask like this: Ben, do you have any sevens? Answer yes, two, or go fish. "
    "You can say book of sevens, lucky fish, undo, what's the score, or whose turn is it."
)

_COUNT_WORDS = {0: "no", 1: "one", 2: "two", 3: "three", 4: "four"}


def number(n: int) -> str:
    return _COUNT_WORDS.get(n, str(n))


def cards(n: int) -> str:
    """"one card", "7 cards", "no cards"."""
    return "one card" if n == 1 else f"{'no' if n == 0 else n} cards"


def of_rank(n: int, rank: Rank) -> str:
    """"a seven", "two sevens"."""
    if n == 1:
        return f"{'an' if rank is Rank.ACE or rank is Rank.EIGHT else 'a'} {rank.word}"
    return f"{number(n)} {rank.plural}"


def count_is_book(rank: Rank, giver: str) -> str:
    """"yes, four": four of a rank make a book and can't change hands; say why and ask again."""
    return f"Four {rank.plural} make a book, so {giver} can't hand over four. How many: one, two or three?"


def books(n: int, size: int = 4) -> str:
    kind = "pair" if size == 2 else "book"
    return f"one {kind}" if n == 1 else f"{number(n) if n <= 4 else n} {kind}s"


def join(names: Sequence[str]) -> str:
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def third_person(reason: str) -> str:
    """Turn "you received two sevens from Cho" into "received two sevens from Cho"."""
    return reason.removeprefix("you ")


def opening(deal_size: int, first: str) -> str:
    return f"Deal {deal_size} cards each. {first} goes first."


def game_over(winners: Sequence[str], best: int, rules: Rules) -> str:
    count = books(best, rules.book_size)
    if len(winners) == 1:
        return f"Game over. {winners[0]} wins with {count}."
    if rules.ties == "play-again":
        return f"Game over. {join(winners)} tie with {count} each: play another hand to break the tie."
    return f"Game over. {join(winners)} share the win with {count} each."
