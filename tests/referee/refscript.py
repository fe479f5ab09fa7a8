"""Small helpers for the scripted referee tests: a table, saying intents, reading the state."""

from __future__ import annotations

from typing import Any

from tabletop.cards import Rank
from tabletop.referee import Game, Referee
from tabletop.referee.intents import Answer, Ask, Book, GoFish, Lucky
from tabletop.rules import Rules

R = Rank


def table(players: tuple[str, ...] = ("Ana", "Ben", "Cho"), first: int = 0, **rules: Any) -> Referee:
    return Referee(Game(list(players), Rules(**rules), first=first))


def say(ref: Referee, *intents: Any, code: str = "ok") -> Any:
    """Say each intent; each must be ruled ``code``. Returns the last ruling."""
    ruling = None
    for intent in intents:
        ruling = ref.handle(intent)
        assert ruling.code == code, (intent, ruling.code, ruling.text)
    return ruling


def pub(ref: Referee) -> dict[str, Any]:
    return ref.game.public()


def turn(ref: Referee) -> str | None:
    return pub(ref)["current"]


def hands(ref: Referee) -> dict[str, int]:
    return pub(ref)["hands"]


def stock(ref: Referee) -> int:
    return pub(ref)["stock"]


def accounted(ref: Referee) -> int:
    p = pub(ref)
    size = p["rules"]["book_size"]
    return sum(p["hands"].values()) + p["stock"] + size * sum(len(b) for b in p["books"].values())


def hit(ref: Referee, target: str, rank: Rank, count: int, asker: str | None = None) -> Any:
    return say(ref, Ask(target=target, rank=rank, asker=asker), Answer(count=count))


def miss(ref: Referee, target: str, rank: Rank, asker: str | None = None) -> Any:
    return say(ref, Ask(target=target, rank=rank, asker=asker), GoFish())


__all__ = ["R", "table", "say", "pub", "turn", "hands", "stock", "accounted", "hit", "miss",
           "Ask", "Answer", "Book", "GoFish", "Lucky"]
