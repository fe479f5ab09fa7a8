"""Resolved game actions, each with one canonical text form (like UCI in chess).

An intent is what was said ("Ben, sevens?"); an action is what it means in the game, with every
player resolved ("ask Ana Ben 7"). The journal stores actions in their canonical form, and
:func:`parse_action` reads them back.

>>> parse_action("ask Ana Ben 7")
AskAction(asker='Ana', target='Ben', rank=Rank.SEVEN, card=None)
>>> str(parse_action("answer 2"))
'answer 2'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Union

from tabletop.cards import Card, Rank, Suit
from tabletop.errors import InvalidInputError

__all__ = [
    "AskAction", "AnswerAction", "GoFishAction", "LuckyAction", "BookAction", "OutAction",
    "HandAction", "SettleAction", "Action", "parse_action",
]


@dataclass(frozen=True)
class AskAction:
    asker: str
    target: str
    rank: Rank
    card: Card | None = None

    def __str__(self) -> str:
        card = f" {self.card.rank.symbol}-{self.card.suit.value}" if self.card else ""
        return f"ask {self.asker} {self.target} {self.rank.symbol}{card}"


@dataclass(frozen=True)
class AnswerAction:
    """The target hands over ``count`` cards; ``None``: "yes" without a count (tabletop asks how many)."""

    count: int | None

    def __str__(self) -> str:
        return f"answer {self.count if self.count is not None else '?'}"


@dataclass(frozen=True)
class GoFishAction:
    """The target has none; the asker draws one card from the stock (none when it is empty)."""

    def __str__(self) -> str:
        return "gofish"


@dataclass(frozen=True)
class LuckyAction:
    """The card the asker drew is of the rank they asked for."""

    def __str__(self) -> str:
        return "lucky"


@dataclass(frozen=True)
class BookAction:
    player: str
    rank: Rank

    def __str__(self) -> str:
        return f"book {self.player} {self.rank.symbol}"


@dataclass(frozen=True)
class OutAction:
    """A player says their hand is empty (the record is set to zero, the rest back to the stock)."""

    player: str

    def __str__(self) -> str:
        return f"out {self.player}"


@dataclass(frozen=True)
class HandAction:
    """The table corrects a hand's size; the difference comes from or goes back to the stock."""

    player: str
    count: int

    def __str__(self) -> str:
        return f"hand {self.player} {self.count}"


@dataclass(frozen=True)
class SettleAction:
    """What the table does without speaking at the end of an exchange (never said by a player)."""

    def __str__(self) -> str:
        return "settle"


Action = Union[AskAction, AnswerAction, GoFishAction, LuckyAction, BookAction, OutAction, HandAction, SettleAction]


def parse_action(text: str) -> Action:
    """Read an action's canonical form.

    :raises InvalidInputError: if ``text`` is not a canonical action.
    """
    parts = text.split()
    try:
        verb, args = parts[0], parts[1:]
        if verb == "ask" and len(args) in (3, 4):
            card = None
            if len(args) == 4:
                rank_symbol, _, suit = args[3].partition("-")
                card = Card(Rank.from_symbol(rank_symbol), Suit(suit))
            return AskAction(args[0], args[1], Rank.from_symbol(args[2]), card)
        if verb == "answer" and len(args) == 1:
            return AnswerAction(None if args[0] == "?" else int(args[0]))
        if verb == "book" and len(args) == 2:
            return BookAction(args[0], Rank.from_symbol(args[1]))
        if verb == "hand" and len(args) == 2:
            return HandAction(args[0], int(args[1]))
        if verb == "out" and len(args) == 1:
            return OutAction(args[0])
        if not args and verb in _NULLARY:
            return _NULLARY[verb]()
    except (IndexError, ValueError):
        pass
    raise InvalidInputError(f"not an action: {text!r}", code="bad-action")


_NULLARY: dict[str, Callable[[], Action]] = {"gofish": GoFishAction, "lucky": LuckyAction, "settle": SettleAction}
