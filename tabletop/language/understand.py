"""From what was heard to what was meant, in the context of the game.

:func:`understand` scores every (hypothesis × reading) by the recogniser's confidence, the reading's
cost, and how much the intent makes sense in the phase of the game (``phases`` in vocabulary.yaml,
plus a few checks on slots: a booked rank, a player who can't be asked). For spoken input it also
adds the readings a recogniser is likely to have confused (``confusable_ranks``, names that sound
alike), so a shaky match becomes a question rather than a wrong move.

Outcomes:

* a confident best reading with no close runner-up → ``intent`` set, ``confirm`` None: act on it;
* a shaky or ambiguous best reading → ``intent`` set and ``confirm`` a short question ("Ben,
  sevens?"): the table asks it and waits for yes/no (then applies ``intent`` on yes);
* nothing → ``intent`` None and ``reason`` a short spoken reason ("Sorry, I didn't catch that.").

>>> from tabletop.language.context import Context
>>> ctx = Context(players=("Ana", "Ben", "Cho"), current="Ana", phase="answer",
...               asker="Ana", target="Ben", rank=Rank.SEVEN)
>>> understand(Transcript.typed("I got two"), ctx).intent
Answer(count=2)
>>> understand(Transcript.typed("I got two"), Context(players=("Ana", "Ben"), current="Ana", phase="after_miss")).intent
Lucky(rank=Rank.TWO)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from rapidfuzz import fuzz

from tabletop import sentences
from tabletop.cards import Rank
from tabletop.language.context import Context
from tabletop.language.parser import Parse, parse_candidates
from tabletop.language.transcript import Transcript
from tabletop.language.vocabulary import Vocabulary, load_vocabulary
from tabletop.referee.intents import (
    Answer,
    Ask,
    Book,
    Control,
    Correct,
    GoFish,
    HandCount,
    Intent,
    Lucky,
    No,
    OutOfCards,
    Query,
    Undo,
    Yes,
)

__all__ = ["Understanding", "Scored", "understand", "confirm_question", "NOT_CAUGHT"]

NOT_CAUGHT = sentences.NOT_CAUGHT

# Tuning: costs are in "nats": confidence = exp(-cost).
_HYP_RANK_COST = 0.1        # per place down the recogniser's n-best list
_CONFUSION_COST = 0.9       # a rank or name the recogniser may have confused with the one heard
_NAME_CONFUSABLE = 60.0     # rapidfuzz ratio above which two players' names may be confused
_EXPECTED_BOOK = 0.7         # a book call public knowledge already proves is the call to expect
_ACT = 0.5                  # spoken: act when confidence (heard x share) >= this and the margin is wide enough
_MARGIN = 0.25              # cost between the best and the next different reading
_TYPED_MARGIN = 0.25
_REPEATED_NAME = 1.5        # a player list that names someone twice
_FLOOR = 0.12               # below this nothing was understood
_MAX_HYPOTHESES = 10



@dataclass(frozen=True)
class Scored:
    """One candidate meaning: the intent, its total cost and the hypothesis text it came from."""

    intent: Intent
    cost: float
    text: str
    parse: Parse
    note: str = ""


@dataclass(frozen=True)
class Understanding:
    intent: Intent | None
    confidence: float
    confirm: str | None = None
    reason: str | None = None
    text: str = ""
    candidates: tuple[Scored, ...] = ()

    @property
    def act(self) -> bool:
        """True when the intent should be applied without asking."""
        return self.intent is not None and self.confirm is None

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "intent": self.intent.to_json() if self.intent is not None else None,
            "confidence": round(self.confidence, 3),
            "confirm": self.confirm,
            "reason": self.reason,
        }


def understand(transcript: Transcript, context: Context, vocabulary: Vocabulary | None = None) -> Understanding:
    """The most likely meaning of ``transcript`` in ``context``. Never raises."""
    try:
        return _understand(transcript, context, vocabulary or load_vocabulary())
    except Exception:  # noqa: BLE001 - a referee must keep listening whatever it heard
        text = getattr(transcript, "text", "") or ""
        return Understanding(None, 0.0, reason=NOT_CAUGHT, text=text if isinstance(text, str) else "")


def _understand(transcript: Transcript, context: Context, vocab: Vocabulary) -> Understanding:
    typed = transcript.engine == "text"
    hypotheses = transcript.candidates()[:_MAX_HYPOTHESES]
    first_text = hypotheses[0].text if hypotheses else transcript.text
    scored: dict[Intent, Scored] = {}
    unknown: list[tuple[float, str]] = []
    confusable_names = _confusable_names(context.players)

    def add(item: Scored) -> None:
        old = scored.get(item.intent)
        if old is None or item.cost < old.cost:
            scored[item.intent] = item

    for i, alt in enumerate(hypotheses):
        conf = _clamp(alt.confidence)
        hyp_cost = -math.log(max(conf, 0.01)) + i * _HYP_RANK_COST
        for p in parse_candidates(alt.text, context.players, allow_unknown_names=True):
            if p.unknown_names:
                unknown.append((hyp_cost + p.cost, p.unknown_names[0]))
                continue
            intent, adj, note = _adjust(p.intent, context, vocab)
            cost = hyp_cost + p.cost + adj
            add(Scored(intent, cost, alt.text, p, note))
            if not typed:
                for variant in _confusions(intent, vocab, confusable_names):
                    v_intent, v_adj, v_note = _adjust(variant, context, vocab)
                    add(Scored(v_intent, hyp_cost + p.cost + v_adj + _CONFUSION_COST, alt.text, p, "confusable"))

    ranked = sorted(scored.values(), key=lambda s: s.cost)
    if not ranked:
        if unknown:
            name = min(unknown)[1].capitalize()
            return Understanding(None, 0.0, reason=sentences.not_playing(name), text=first_text)
        return Understanding(None, 0.0, reason=NOT_CAUGHT, text=first_text)

    best = ranked[0]
    runner = ranked[1] if len(ranked) > 1 else None
    margin = (runner.cost - best.cost) if runner is not None else math.inf
    absolute = math.exp(-best.cost)
    # the share of the best meaning among the meanings in play, times how well it was heard
    posterior = 1.0 / sum(math.exp(-(s.cost - best.cost)) for s in ranked[:8])
    confidence = max(0.0, min(1.0, absolute * posterior))
    keep = tuple(ranked[:5])

    if typed:
        if margin >= _TYPED_MARGIN:
            return Understanding(best.intent, confidence, text=best.text, candidates=keep)
        return Understanding(best.intent, confidence, confirm=confirm_question(best.intent, context),
                             text=best.text, candidates=keep)
    if absolute < _FLOOR:
        return Understanding(None, confidence, reason=NOT_CAUGHT, text=best.text, candidates=keep)
    if confidence >= _ACT and margin >= _MARGIN:
        return Understanding(best.intent, confidence, text=best.text, candidates=keep)
    return Understanding(best.intent, confidence, confirm=confirm_question(best.intent, context),
                         text=best.text, candidates=keep)


def _clamp(value: Any) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        return 0.5
    if math.isnan(v):
        return 0.5
    return max(0.0, min(1.0, v))


def _adjust(intent: Intent, context: Context, vocab: Vocabulary) -> tuple[Intent, float, str]:
    """The intent as it applies in context (a card dropped where cards aren't asked for), and how unlikely it is."""
    cost = vocab.phase_cost(context.phase, intent.type)
    note = ""
    phase = context.phase
    if isinstance(intent, Ask):
        asker = intent.asker or context.current
        if context.players:
            if intent.target == asker:
                cost += 1.5
                note = "asks self"
            elif intent.target not in context.askable_for(asker):
                cost += 1.0
                note = "target can't be asked"
        if intent.rank in context.booked:
            cost += 1.0
            note = note or "rank booked"
        if context.asking == "specific-card":
            if intent.card is None:
                cost += 0.2
        elif intent.card is not None and phase != "any":
            intent = replace(intent, card=None)  # the rules ask for ranks (with no game, "any", they aren't known)
    elif isinstance(intent, Lucky):
        if intent.rank is not None and context.rank is not None and intent.rank != context.rank:
            cost += 0.5
            note = "not the rank asked for"
    elif isinstance(intent, Book):
        if intent.rank in context.booked:
            cost += 1.0
            note = "rank booked"
        elif intent.rank in context.proven:
            cost -= _EXPECTED_BOOK
            note = "the book tabletop asked to see"
    elif isinstance(intent, Correct):
        if intent.count is not None and phase in ("ask", "answer", "after_miss"):
            cost += 0.3
        if (intent.rank is not None or intent.target is not None) and phase in ("after_hit", "count"):
            cost += 0.3
    elif isinstance(intent, Answer):
        if intent.count is None and phase == "count":
            cost += 0.8  # "yes" again while the table waits for how many
    elif isinstance(intent, Control):
        players = intent.players or ()
        if len(set(players)) < len(players):
            # "players are ana ana and ben": a recogniser repeating a name, not a table of twins
            # (typed, it is the only reading and the referee says why it can't start)
            cost += _REPEATED_NAME
            note = "a name twice"
    return intent, cost, note


def _confusable_names(players: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for a in players:
        for b in players:
            if a != b and fuzz.ratio(a.lower(), b.lower()) >= _NAME_CONFUSABLE:
                out.setdefault(a, []).append(b)
    return {k: tuple(v) for k, v in out.items()}


def _confusions(intent: Intent, vocab: Vocabulary, names: dict[str, tuple[str, ...]]) -> list[Intent]:
    out: list[Intent] = []
    rank = getattr(intent, "rank", None)
    if isinstance(rank, Rank):
        for a, b in vocab.confusable_ranks:
            other = b if rank is a else a if rank is b else None
            if other is not None:
                if isinstance(intent, Ask) and intent.card is not None:
                    out.append(replace(intent, rank=other, card=replace(intent.card, rank=other)))
                else:
                    out.append(replace(intent, rank=other))  # type: ignore[arg-type]
    for slot in ("target", "player", "asker"):
        name = getattr(intent, slot, None)
        if isinstance(name, str):
            for other_name in names.get(name, ()):
                out.append(replace(intent, **{slot: other_name}))  # type: ignore[arg-type]
    return out


def confirm_question(intent: Intent, context: Context | None = None) -> str:
    """A short yes/no question that repeats ``intent``: "Ben, sevens?", "Two sevens?", "Go fish?"."""
    return sentences.confirm(intent, context.rank if context is not None else None)
