"""What tabletop is waiting for: the one pending question of a table.

A table asks at most one question at a time, and every part of the loop reads it from here: the
table decides what the next sentence answers, the language layer fills a missing slot and the
recognisers narrow their grammar to what the question expects (through
:meth:`Pending.context_fields`), and ``play --json`` prints it as a ``question`` event. Like
python-chess's one move stack, there is one place to look.

Kinds of question:

* ``confirm`` — a heard intent costly or unsure to act on ("Stop the game?", "Ben, sevens?"):
  "yes" acts on it, "no" drops it, a corrected slot ("no, sixes") acts on the corrected intent.
  With ``instead`` set, "no" asks that question instead ("Go fish?" → "no" → "You said tens?").
  With ``confirms`` set it checks one slot heard once ("Sevens?" after "Ana, which rank?"): "yes"
  acts, "no" asks for the slot again without the value denied (after "no" to "Tens?", a rank
  steadily heard as tens is checked first: "Okay. Sixes?"), and another value ("no, sixes") is
  acted on when the hearings together read it surely (``evidence``: an earlier hearing was unsure
  between the value denied and this one), else checked in its turn ("Sixes?"): a value heard once
  is never acted on.
* ``slot`` — one part of a sentence was not sure ("Ana, which rank?", "Sevens from whom?",
  "Sorry, how many?"): the slot's value alone fills it; after two misses the two likeliest values
  are offered ("Sixes or sevens?"). A "no" to a value guessed for the slot ("Aces?") is a miss of
  the slot, and the value denied is out of play for the rest of the exchange (``denied``): never
  checked, offered or in the grammar again. Clean game 4111 went "Aces?" - "no, nines" - "Twos?" -
  "no" - "Aces?" four times (en-gb+m4's "nines" heard aces and deuce), each "no" a new guess's
  first miss, so the offer never came.
* ``count`` — the target said "yes" without a count and the referee asked "How many?".
* ``overrule`` — public knowledge questions an action ("Ben, you received two sevens from Cho —
  please check your hand"): "yes" records it anyway, anything else drops it.
* ``seen_book`` — the camera did not see the book claimed: "yes" records it anyway.

>>> from tabletop.cards import Rank
>>> from tabletop.referee.intents import Ask
>>> p = Pending("slot", "Ana, which rank?", "rank", intent=Ask(target="Ben", rank=Rank.SEVEN),
...             choices=("7", "9"), likely=("7", "9"))
>>> p.to_json()["expects"], p.missed().missed().question
('rank', 'Sevens or nines?')
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from tabletop.language.understand import offer_question
from tabletop.referee.actions import Action
from tabletop.referee.intents import Intent

__all__ = ["Pending", "KINDS", "OFFER_AFTER"]

KINDS = ("confirm", "slot", "count", "overrule", "seen_book")
OFFER_AFTER = 2
"""Misses of one slot after which the two likeliest values are offered."""


@dataclass(frozen=True)
class Pending:
    """One question tabletop asked and waits on.

    :ivar kind: one of :data:`KINDS`.
    :ivar question: what tabletop said.
    :ivar expects: "yes_no", or the slot it waits for: "rank", "target", "count".
    :ivar intent: the intent the question is about (for ``slot``, the likeliest reading, whose
        ``expects`` slot the answer replaces).
    :ivar text: the sentence the intent was heard in (kept in the journal when it is recorded).
    :ivar action: for ``overrule``, the action "yes" records.
    :ivar choices: the values the answer can take, as JSON strings (what a narrowed grammar holds).
    :ivar likely: the slot's likeliest values, likeliest first (offered after two misses).
    :ivar misses: answers so far that did not fill it.
    :ivar confirms: for a ``confirm`` that checks one slot of ``intent`` ("Sevens?"), that slot.
    :ivar evidence: for a check of one slot, what the hearings so far read for it: each value with
        its score summed over the hearings (see ``Table._evidence``); values a hearing never read
        (merely confusable with one it read) are not in it.
    """

    kind: str
    question: str
    expects: str = "yes_no"
    intent: Intent | None = None
    text: str | None = None
    action: Action | None = None
    choices: tuple[str, ...] = ()
    likely: tuple[str, ...] = ()
    misses: int = 0
    confirms: str | None = None
    evidence: tuple[tuple[str, float], ...] = ()
    denied: tuple[str, ...] = ()
    """Values of the slot the player denied in this exchange ("no" to "Aces?"): out of ``choices``
    and ``likely``, never checked or offered again."""
    instead: "Pending | None" = None
    """For a ``confirm``, the question a "no" leads to instead of "say it again": right after an
    ask, "no, tens" is likelier the target's "nope" misheard than the asker's correction, so
    tabletop asks "Go fish?" and, on "no", asks about the correction ("You said tens?")."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown kind of question {self.kind!r}; one of {', '.join(KINDS)}")

    @property
    def slot(self) -> str | None:
        """The slot this question fills, or None for a yes/no question."""
        return None if self.expects == "yes_no" else self.expects

    def missed(self) -> "Pending":
        """The same question after an answer that did not fill it; the second miss offers two values."""
        misses = self.misses + 1
        likely = tuple(v for v in self.likely if v not in self.denied)
        if self.slot is not None and misses >= OFFER_AFTER and len(likely) >= 2:
            two = likely[:2]
            return replace(self, misses=misses, choices=two, likely=likely, question=offer_question(self.slot, two))
        return replace(self, misses=misses, likely=likely)

    def deny(self, *values: str) -> "Pending":
        """The same slot question after a "no" to ``values`` ("Aces?", or both values of "Aces or
        sixes?"): they are out of play for the exchange, and the "no" is a miss of the slot (the
        second offers the two likeliest left). The choices never go empty: with every value denied,
        they stay as they were."""
        denied = tuple(dict.fromkeys(self.denied + values))
        choices = tuple(c for c in self.choices if c not in denied) or self.choices
        likely = tuple(v for v in self.likely if v not in denied)
        return replace(self, denied=denied, choices=choices, likely=likely).missed()

    def context_fields(self) -> dict[str, Any]:
        """The fields of a language :class:`~tabletop.language.context.Context` this question sets."""
        return {"expects": self.expects, "choices": self.choices, "partial": self.intent, "confirms": self.confirms}

    def to_json(self) -> dict[str, Any]:
        """The ``question`` event of ``play --json``: what is asked and what is expected next."""
        out: dict[str, Any] = {"event": "question", "kind": self.kind, "say": self.question,
                               "expects": self.expects, "choices": list(self.choices)}
        if self.intent is not None:
            out["about"] = self.intent.to_json()
        if self.confirms is not None:
            out["checks"] = self.confirms
        return out
