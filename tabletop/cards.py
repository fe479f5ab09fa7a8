"""Ranks, suits and cards: small frozen value types with strict parsing.

>>> Rank.parse("sevens")
Rank.SEVEN
>>> Rank.parse("the 7s").symbol
'7'
>>> Card.parse("king of clubs").name()
'K of clubs'
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from tabletop.errors import InvalidInputError

__all__ = ["Rank", "Suit", "Card", "RANKS", "SUITS", "DECK_SIZE"]

DECK_SIZE = 52


class Rank(enum.Enum):
    """A card rank. The value is the JSON symbol of PRODUCT.md ("A", "2" … "10", "J", "Q", "K")."""

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"

    def __repr__(self) -> str:
        return f"Rank.{self.name}"

    @property
    def symbol(self) -> str:
        """The JSON form: "A", "2" … "10", "J", "Q", "K"."""
        return self.value

    @property
    def word(self) -> str:
        """The spoken singular: "ace", "seven", "queen"."""
        return _WORDS[self]

    @property
    def plural(self) -> str:
        """The spoken plural: "aces", "sixes", "queens"."""
        return _PLURALS[self]

    def spoken(self, count: int = 2) -> str:
        """The word for `count` cards of this rank: "a seven", "sevens"."""
        return self.word if count == 1 else self.plural

    @classmethod
    def parse(cls, text: str) -> "Rank":
        """Parse a rank as players say or type it, singular or plural.

        Accepts "7", "seven", "sevens", "7s", "7's", "Sevens?", "the tens", "jacks", "J", "a queen".

        :raises InvalidInputError: if the text is not exactly one rank.
        """
        key = _normalise(text)
        try:
            return _LOOKUP[key]
        except KeyError:
            raise InvalidInputError(
                f"not a rank: {text!r} (say ace, two … ten, jack, queen or king)", code="bad-rank"
            ) from None

    @classmethod
    def from_symbol(cls, symbol: str) -> "Rank":
        """The rank of a JSON symbol ("A", "10", "Q")."""
        try:
            return cls(symbol.upper())
        except ValueError:
            raise InvalidInputError(f"not a rank symbol: {symbol!r}", code="bad-rank") from None


RANKS: tuple[Rank, ...] = tuple(Rank)

_WORDS = {
    Rank.ACE: "ace", Rank.TWO: "two", Rank.THREE: "three", Rank.FOUR: "four", Rank.FIVE: "five",
    Rank.SIX: "six", Rank.SEVEN: "seven", Rank.EIGHT: "eight", Rank.NINE: "nine", Rank.TEN: "ten",
    Rank.JACK: "jack", Rank.QUEEN: "queen", Rank.KING: "king",
}
_PLURALS = {rank: ("sixes" if rank is Rank.SIX else word + "s") for rank, word in _WORDS.items()}


class Suit(enum.Enum):
    CLUBS = "clubs"
    DIAMONDS = "diamonds"
    HEARTS = "hearts"
    SPADES = "spades"

    def __repr__(self) -> str:
        return f"Suit.{self.name}"

    @classmethod
    def parse(cls, text: str) -> "Suit":
        """Parse "clubs", "club", "Hearts", "♠", "s"."""
        key = _normalise(text)
        for suit in cls:
            if key in (suit.value, suit.value[:-1], suit.value[0], _SUIT_SIGNS[suit]):
                return suit
        raise InvalidInputError(
            f"not a suit: {text!r} (say clubs, diamonds, hearts or spades)", code="bad-suit"
        )


SUITS: tuple[Suit, ...] = tuple(Suit)
_SUIT_SIGNS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}


@dataclass(frozen=True, order=True)
class Card:
    """One card of the 52: a rank and a suit."""

    rank: Rank
    suit: Suit

    def name(self) -> str:
        """The canonical text form, paired with :meth:`parse`: "K of clubs"."""
        return f"{self.rank.symbol} of {self.suit.value}"

    def spoken(self) -> str:
        """"the king of clubs"."""
        return f"the {self.rank.word} of {self.suit.value}"

    def __str__(self) -> str:
        return self.name()

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Parse "king of clubs", "the 7 of hearts", "K of clubs", "KC", "10♠".

        :raises InvalidInputError: if the text is not exactly one card.
        """
        cleaned = _normalise(text)
        match = re.fullmatch(r"(.+?)\s+of\s+(\w+)", cleaned)
        if match:
            return cls(Rank.parse(match.group(1)), Suit.parse(match.group(2)))
        match = re.fullmatch(r"(10|[2-9]|[ajqk])\s*([cdhs♣♦♥♠])", cleaned)
        if match:
            return cls(Rank.parse(match.group(1)), Suit.parse(match.group(2)))
        raise InvalidInputError(f"not a card: {text!r} (say, for example, 'king of clubs')", code="bad-card")

    @classmethod
    def deck(cls) -> list["Card"]:
        """All 52 cards in a fixed order."""
        return [cls(rank, suit) for suit in Suit for rank in Rank]


def _normalise(text: str) -> str:
    text = text.strip().lower()
    text = re.sub(r"[?!.,;:\"]+", " ", text)
    text = re.sub(r"^(?:the|a|an|any|some|your|my)\s+", "", text.strip())
    return re.sub(r"\s+", " ", text).strip()


def _rank_lookup() -> dict[str, Rank]:
    table: dict[str, Rank] = {}
    for rank in Rank:
        symbol = rank.symbol.lower()
        for form in (symbol, rank.word, rank.plural, symbol + "s", symbol + "'s", rank.word + "'s"):
            table[form] = rank
    table.update({"one": Rank.ACE, "ones": Rank.ACE, "1": Rank.ACE, "1s": Rank.ACE, "deuce": Rank.TWO,
                  "deuces": Rank.TWO, "sixs": Rank.SIX, "aces": Rank.ACE})
    # "one"/"1" for aces is a spoken slip families make; the language layer may still refuse it in context.
    return table


_LOOKUP = _rank_lookup()
