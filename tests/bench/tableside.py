"""The benches' one way into the table: a thin adapter over ``tabletop.table``'s public API.

The speech bench (real voices in context) drives a real :class:`tabletop.table.Table` in-process:
put it in a phase by typed lines, hear an utterance with the recogniser in the table's own context,
hand the transcript to the table, and read what it did from the reply events (``play --json``'s
events). The table bench (whole spoken games) plays through ``play --audio - --json`` itself and
reads the same events from its output (``outcome`` and ``acted_intents`` take either). Only this
module knows the shape of those events.

An outcome is one of:

* ``acted``: the table changed the game or obeyed a control (pause, stop...) on this intent;
* ``asked``: the table asked a question about this intent and changed nothing (a confirmation,
  a narrowed repair question);
* ``none``: nothing understood, or refused: nothing changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from tabletop.language.transcript import Transcript
from tabletop.rules import Rules
from tabletop.table import Table

__all__ = ["Outcome", "new_table", "to_phase", "hear", "outcome", "PHASE_LINES"]

# Typed lines that bring a new three-player table (Ana first) to a phase.
PHASE_LINES: dict[str, tuple[str, ...]] = {
    "ask": (),
    "answer": ("Ben, do you have any sevens?",),                # Ana asked Ben for sevens
    "count": ("Ben, do you have any sevens?", "yes"),          # ... Ben said yes: "How many?"
    "rank": (),                                                # see to_phase: "Ana, which rank?"
}


@dataclass(frozen=True)
class Outcome:
    kind: str                       # "acted", "asked" or "none"
    intent: dict[str, Any] | None   # the intent acted on or asked about (play --json form)
    codes: tuple[str, ...] = ()
    say: str = ""
    expects: str | None = None      # what a question waits for: "yes_no", "rank", "target", "count"


def new_table(players: Sequence[str] = ("Ana", "Ben", "Cho"), rules: Rules | None = None) -> Table:
    table = Table.new(list(players), rules or Rules(), None)
    table.start()
    return table


def to_phase(table: Table, phase: str) -> list[Any]:
    """Bring ``table`` to ``phase`` with typed lines; returns the last replies. For "rank", the ask
    is heard (not typed) with the rank unsure, jacks or queens, so the table asks for the rank
    ("Ana, which rank?"). Jacks and queens, because the real recordings that answer it are digit
    words: what the first hearing guessed tells nothing about the word the speaker says."""
    replies: list[Any] = []
    if phase == "rank":
        from tabletop.language.transcript import Alternative

        heard = "ben do you have any jacks"
        unsure = Transcript(text=heard, confidence=0.3, engine="pocketsphinx",
                            alternatives=(Alternative(heard, 0.3), Alternative("ben do you have any queens", 0.28)))
        replies = table.hear(unsure)
        assert asks_for_rank(replies), [r.text for r in replies]
        return replies
    for line in PHASE_LINES[phase]:
        replies = table.hear_text(line)
    return replies


def asks_for_rank(replies: list[Any]) -> bool:
    """True when the table's last reply asked only for the missing rank ("Ana, which rank?")."""
    for r in replies:
        expects = r.event.get("expects")
        if expects is not None:
            return "rank" in (expects if isinstance(expects, (list, tuple)) else [expects]) or expects == "rank"
        if "which rank" in r.text.lower():
            return True
    return False


def hear(table: Table, recogniser: Any, utterance: Any) -> tuple[Transcript, list[Any]]:
    """Hear ``utterance`` in the table's context and hand it to the table, as the live loop does."""
    transcript = recogniser.hear(utterance, table.context())
    return transcript, table.hear(transcript)


def acted_intents(replies: list[Any]) -> list[dict[str, Any] | None]:
    """The intents one utterance acted on, in order (a confirmed ask and the answer that confirmed it)."""
    return [r.event.get("intent") for r in replies
            if (r.event.get("changed") or r.event.get("code") == "control") and r.event.get("event") == "utterance"]


def outcome(replies: list[Any]) -> Outcome:
    """What the table did with one utterance, from its reply events."""
    codes = tuple(r.event.get("code", "") for r in replies)
    say = " ".join(r.text for r in replies)
    acted = [r for r in replies if r.event.get("changed") or r.event.get("code") == "control"]
    if acted:
        return Outcome("acted", acted[0].event.get("intent"), codes, say)
    asked = [r for r in replies if (r.event.get("event") == "question" or r.event.get("code") in ("confirm", "question"))
             and (r.event.get("about") or r.event.get("intent"))]
    if asked:
        return Outcome("asked", asked[0].event.get("about") or asked[0].event.get("intent"), codes, say,
                       asked[0].event.get("expects"))
    return Outcome("none", None, codes, say)
