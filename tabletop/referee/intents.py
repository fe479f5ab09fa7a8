"""What players say, as small frozen values: the contract between language and referee.

Each intent has a ``type`` and only the slots that were said (PRODUCT.md section 5).
``to_json()`` gives that JSON form and ``intent_from_json`` reads it back.

>>> Ask(target="Ben", rank=Rank.SEVEN).to_json()
{'type': 'ask', 'target': 'Ben', 'rank': '7'}
>>> intent_from_json({'type': 'answer', 'count': None})
Answer(count=None)
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal, Union

from tabletop.cards import Card, Rank
from tabletop.errors import InvalidInputError

__all__ = [
    "Ask", "Answer", "GoFish", "Lucky", "Book", "OutOfCards", "HandCount", "Query", "Undo",
    "Correct", "Yes", "No", "Control", "Intent", "QUERY_KINDS", "CONTROL_KINDS",
    "intent_from_json",
]

class _Said:
    """Shared behaviour of every intent: the JSON form of PRODUCT.md section 5."""

    type: str

    def to_json(self) -> dict[str, Any]:
        """The intent as JSON: its ``type`` and only the slots that were said."""
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):  # type: ignore[arg-type]
            if f.name == "type":
                continue
            value = getattr(self, f.name)
            # Answer's count is always present ("null if not said"); other slots only when said.
            if value is not None or (self.type == "answer" and f.name == "count"):
                out[f.name] = _slot_to_json(value)
        return out


QUERY_KINDS = ("score", "turn", "stock", "hand", "last", "books", "repeat", "help")
CONTROL_KINDS = ("pause", "resume", "stop", "new_game")


@dataclass(frozen=True)
class Ask(_Said):
    """"Ben, do you have any sevens?" The asker is the current player unless named."""

    target: str
    rank: Rank
    asker: str | None = None
    card: Card | None = None
    type: Literal["ask"] = field(default="ask", init=False, repr=False)


@dataclass(frozen=True)
class Answer(_Said):
    """"Yes, two" / "here you go" (count None: "how many?")."""

    count: int | None = None
    type: Literal["answer"] = field(default="answer", init=False, repr=False)


@dataclass(frozen=True)
class GoFish(_Said):
    """"Go fish" / "nope"."""

    type: Literal["go_fish"] = field(default="go_fish", init=False, repr=False)


@dataclass(frozen=True)
class Lucky(_Said):
    """"Lucky fish!" / "I got a seven" / "I drew it", right after a miss."""

    rank: Rank | None = None
    type: Literal["lucky"] = field(default="lucky", init=False, repr=False)


@dataclass(frozen=True)
class Book(_Said):
    """"Book of sevens" / "Ana has a book of kings"."""

    rank: Rank
    player: str | None = None
    type: Literal["book"] = field(default="book", init=False, repr=False)


@dataclass(frozen=True)
class OutOfCards(_Said):
    """"I'm out of cards"."""

    player: str | None = None
    type: Literal["out_of_cards"] = field(default="out_of_cards", init=False, repr=False)


@dataclass(frozen=True)
class HandCount(_Said):
    """"Ben has three cards": a statement of a hand's size, checked against the record."""

    player: str
    count: int
    type: Literal["hand_count"] = field(default="hand_count", init=False, repr=False)


@dataclass(frozen=True)
class Query(_Said):
    """"What's the score?" — ``what`` is one of QUERY_KINDS."""

    what: str
    player: str | None = None
    type: Literal["query"] = field(default="query", init=False, repr=False)

    def __post_init__(self) -> None:
        if self.what not in QUERY_KINDS:
            raise InvalidInputError(f"unknown query {self.what!r}; one of {', '.join(QUERY_KINDS)}")


@dataclass(frozen=True)
class Undo(_Said):
    """"Undo" / "scratch that"."""

    type: Literal["undo"] = field(default="undo", init=False, repr=False)


@dataclass(frozen=True)
class Correct(_Said):
    """"No, I said sixes": replaces slots of the last sentence.

    Any of ``rank``, ``target``, ``count``, ``player`` may be given.
    """

    rank: Rank | None = None
    target: str | None = None
    count: int | None = None
    player: str | None = None
    type: Literal["correct"] = field(default="correct", init=False, repr=False)


@dataclass(frozen=True)
class Yes(_Said):
    type: Literal["yes"] = field(default="yes", init=False, repr=False)


@dataclass(frozen=True)
class No(_Said):
    type: Literal["no"] = field(default="no", init=False, repr=False)


@dataclass(frozen=True)
class Control(_Said):
    """"pause" / "resume" / "stop the game" / "new game" (optionally with the players named)."""

    what: str
    players: tuple[str, ...] | None = None
    type: Literal["control"] = field(default="control", init=False, repr=False)

    def __post_init__(self) -> None:
        if self.what not in CONTROL_KINDS:
            raise InvalidInputError(f"unknown control {self.what!r}; one of {', '.join(CONTROL_KINDS)}")


Intent = Union[Ask, Answer, GoFish, Lucky, Book, OutOfCards, HandCount, Query, Undo, Correct, Yes, No, Control]

_TYPES: dict[str, type] = {
    "ask": Ask, "answer": Answer, "go_fish": GoFish, "lucky": Lucky, "book": Book, "out_of_cards": OutOfCards,
    "hand_count": HandCount, "query": Query, "undo": Undo, "correct": Correct, "yes": Yes, "no": No,
    "control": Control,
}


def _slot_to_json(value: Any) -> Any:
    if isinstance(value, Rank):
        return value.symbol
    if isinstance(value, Card):
        return value.name()
    if isinstance(value, tuple):
        return list(value)
    return value


def intent_from_json(data: dict[str, Any]) -> Intent:
    """Read an intent back from its JSON form (journal lines, ``hear --json``).

    :raises InvalidInputError: on an unknown type or slot.
    """
    try:
        cls = _TYPES[data["type"]]
    except (KeyError, TypeError):
        raise InvalidInputError(f"not an intent: {data!r}") from None
    kwargs: dict[str, Any] = {}
    for key, value in data.items():
        if key == "type":
            continue
        if key not in cls.__dataclass_fields__:  # type: ignore[attr-defined]
            raise InvalidInputError(f"intent {data['type']!r} has no slot {key!r}")
        if key == "rank" and value is not None:
            value = Rank.from_symbol(value)
        elif key == "card" and value is not None:
            value = Card.parse(value)
        elif key == "players" and value is not None:
            value = tuple(value)
        kwargs[key] = value
    return cls(**kwargs)  # type: ignore[no-any-return]
