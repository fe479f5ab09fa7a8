"""Scripts of typed sentences that a game accepts line by line, for crash and speed tests.

Moves are chosen at random from what the referee will accept (no hidden hands are needed for
that); every line is a natural sentence that goes through the real parser.
"""

from __future__ import annotations

import random
from typing import Sequence

from tabletop.cards import RANKS
from tabletop.referee.state import Phase
from tabletop.table import Table

_ASKS = ("{t}, do you have any {r}?", "{t}, got any {r}?", "{t}, give me your {r}", "{t}, {r}?")
_HITS = ("yes, {n}", "here you go, {n}", "I have {n}")
_MISSES = ("go fish", "nope, go fish", "go fish!")
_WORDS = {1: "one", 2: "two", 3: "three"}


def accepted_script(players: Sequence[str], seed: int, lines: int = 120) -> list[str]:
    """``lines`` sentences (fewer if the game ends) that a fresh game accepts one after another."""
    rng = random.Random(seed)
    table = Table.new(players, journal=None)
    game = table.game
    script: list[str] = []
    while len(script) < lines and not game.settled().over:
        state = game.state
        if state.phase is Phase.ANSWER and state.exchange is not None:
            ex = state.exchange
            most = _most(state, ex.asker, ex.target, ex.rank)
            knows = state.knowledge.holds_at_least(ex.target, ex.rank)
            if most >= 1 and (knows or rng.random() < 0.35):
                line = rng.choice(_HITS).format(n=_WORDS[rng.randint(1, most)])
            else:
                line = rng.choice(_MISSES)
        else:
            settled = game.settled()
            asker = settled.current
            # Only asks whose answer can be given without a question from the referee.
            pairs = [
                (t, r) for t in range(len(players)) if t != asker and settled.can_be_asked(t)
                for r in RANKS
                if not settled.closed(r) and not settled.knowledge.holds_none(asker, r)
                and (_most(settled, asker, t, r) >= 1 or not settled.knowledge.holds_at_least(t, r))
            ]
            if not pairs:
                break
            target, rank = rng.choice(pairs)
            line = rng.choice(_ASKS).format(t=players[target], r=rank.plural)
        replies = table.hear_text(line)
        if not replies[-1].event.get("changed"):
            raise AssertionError(f"script line refused: {line!r}: {replies[-1].text}")
        script.append(line)
    return script


def _most(state: object, asker: int, target: int, rank: object) -> int:
    """The most cards of ``rank`` the target can hand over without contradicting the record."""
    s = state
    held = s.knowledge.holds_at_least(asker, rank) or 1  # type: ignore[attr-defined]
    # what the other players are known to hold counts too (the referee questions a count it rules out)
    others = sum(s.knowledge.holds_at_least(p, rank) for p in range(len(s.players))  # type: ignore[attr-defined]
                 if p not in (asker, target))
    return min(s.hands[target], 4 - held - others - 4 * s.times_booked(rank), 3)  # type: ignore[attr-defined]
