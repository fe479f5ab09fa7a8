"""The game as the language layer needs it: who plays, whose turn, what is pending.

The table builds a :class:`Context` from the referee's public state; :func:`understand` uses it
to choose between readings ("two" is a count when an ask is pending, a rank otherwise) and the
grammar uses it to restrict what a recogniser listens for.

>>> Context(players=("Ana", "Ben"), current="Ana", phase="ask").askable_for("Ana")
frozenset({'Ben'})
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tabletop.cards import Rank
from tabletop.referee.intents import Intent

__all__ = ["Context", "PHASES", "ASKING_RULES", "EXPECTS", "SLOTS"]

PHASES = ("setup", "ask", "answer", "count", "after_hit", "after_miss", "confirm", "over", "any")
"""setup: no game yet · ask: waiting for the current player's ask · answer: an ask is pending ·
count: the target said yes without a count · after_hit: cards just moved to the asker ·
after_miss: the asker just drew · confirm: tabletop asked a yes/no question · over: game over ·
any: no game context (``hear --players``): every intent as likely as the vocabulary says."""

ASKING_RULES = ("hold-rank", "any-rank", "specific-card")

EXPECTS = ("yes_no", "rank", "target", "count")
"""What a pending question waits for: a yes or a no (a correction of a slot is welcome too), or one
missing part of a sentence ("Ana, which rank?" · "Sevens from whom?" · "Sorry, how many?")."""

SLOTS = ("rank", "target", "count")
"""The expectations a recogniser's grammar narrows to: just that slot's words (and yes, no)."""


@dataclass(frozen=True)
class Context:
    players: tuple[str, ...] = ()
    current: str | None = None
    phase: str = "setup"
    asker: str | None = None
    target: str | None = None
    rank: Rank | None = None
    booked: frozenset[Rank] = field(default_factory=frozenset)
    askable: frozenset[str] = field(default_factory=frozenset)
    """Players who can be asked now (not out, holding cards). Empty means "everyone but the asker"."""
    asking: str = "hold-rank"
    proven: frozenset[Rank] = field(default_factory=frozenset)
    """Ranks whose book public knowledge already proves (tabletop just said "lay it down"): the
    book call is the one to expect."""
    most_given: int | None = None
    """The most cards the target of the pending ask can plausibly give (a player lays a book as soon as
    they hold one: a pair in the pairs game), None when no ask is pending. A count above it is
    likelier misheard than said, and is checked ("Three sevens?")."""

    expects: str | None = None
    """What tabletop's pending question waits for (one of :data:`EXPECTS`), None when nothing is asked."""
    choices: tuple[str, ...] = ()
    """The values the pending question can take, as JSON strings ("7", "Ben", "2"): what a narrowed
    grammar listens for. Empty means every value of the slot."""
    partial: Intent | None = None
    """The intent the pending question is about ("Ana asks Ben for ?"): a bare slot value ("sixes")
    or a correction ("no, sixes") fills it."""
    confirms: str | None = None
    """The slot a yes/no question checks ("Sevens?" after "Ana, which rank?" checks the rank): it is
    answered by yes, no or that slot's value alone, and the recognisers listen for just those."""

    def __post_init__(self) -> None:
        if self.expects is not None and self.expects not in EXPECTS:
            raise ValueError(f"unknown expectation {self.expects!r}; one of {', '.join(EXPECTS)}")
        object.__setattr__(self, "choices", tuple(self.choices))
        if self.confirms is not None and self.confirms not in SLOTS:
            raise ValueError(f"unknown slot {self.confirms!r}; one of {', '.join(SLOTS)}")
        if self.phase not in PHASES:
            raise ValueError(f"unknown phase {self.phase!r}; one of {', '.join(PHASES)}")
        if self.asking not in ASKING_RULES:
            raise ValueError(f"unknown asking rule {self.asking!r}; one of {', '.join(ASKING_RULES)}")
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "booked", frozenset(self.booked))
        object.__setattr__(self, "askable", frozenset(self.askable))
        object.__setattr__(self, "proven", frozenset(self.proven))

    def askable_for(self, asker: str | None) -> frozenset[str]:
        """Who ``asker`` (the current player when None) may ask now."""
        asker = asker or self.current
        pool = self.askable or frozenset(self.players)
        return frozenset(p for p in pool if p != asker)

    @classmethod
    def whole(cls, players: tuple[str, ...] | list[str] = ()) -> "Context":
        """No game knowledge: every intent is as likely as the vocabulary says (``hear --players``)."""
        return cls(players=tuple(players), phase="any")
