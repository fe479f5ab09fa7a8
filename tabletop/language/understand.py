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
    Undo,
    Yes,
)

__all__ = ["ACT", "Understanding", "Scored", "understand", "confirm_question", "slot_question", "offer_question", "costly",
           "bare_answer", "bare_go_fish", "answers_differ", "players_differ", "PLAYER_SLOTS", "slot_value", "slot_values_said", "slot_values_of",
           "NOT_CAUGHT"]

NOT_CAUGHT = sentences.NOT_CAUGHT

# Tuning: costs are in "nats": confidence = exp(-cost).
_HYP_RANK_COST = 0.1        # per place down the recogniser's n-best list
_CONFUSION_COST = 0.9       # a rank or name the recogniser may have confused with the one heard
_NAME_CONFUSABLE = 60.0     # rapidfuzz ratio above which two players' names may be confused
_EXPECTED_BOOK = 0.7         # a book call public knowledge already proves is the call to expect
ACT = 0.5                   # spoken: act when confidence (heard x share) >= this and the margin is wide enough
"""Heard confidence below which nothing is acted on: a recogniser's unsure reading (PocketSphinx's
rescued grammar readings are capped at 0.45) is at most asked about."""
_MARGIN = 0.25              # cost between the best and the next different reading
_TYPED_MARGIN = 0.25
_REPEATED_NAME = 1.5        # a player list that names someone twice
_PLAYER_RIVAL = 1.0         # a reading naming another player within this cost of the best is checked
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
    missing: str | None = None
    """When part of the sentence is sure and one slot is not: that slot ("rank", "target", "count");
    ``intent`` is the likeliest reading and ``likely`` the slot's likeliest values (JSON strings)."""
    likely: tuple[str, ...] = ()

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
            **({"missing": self.missing, "likely": list(self.likely)} if self.missing else {}),
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
        if context.partial is not None:
            for fill, fill_cost in _fills(alt.text, context, vocab):
                add(Scored(fill, hyp_cost + fill_cost, alt.text, Parse(fill, fill_cost, "(fill)", "fill", alt.text),
                           "fills the question"))
        for p in parse_candidates(alt.text, context.players, allow_unknown_names=True):
            if p.unknown_names:
                unknown.append((hyp_cost + p.cost, p.unknown_names[0]))
                continue
            if context.partial is not None:
                filled = _correct_partial(p.intent, context.partial)
                if filled is not None:  # "no, sixes" at "Ben, sevens?": the corrected question
                    add(Scored(filled, hyp_cost + p.cost, alt.text, p, "corrects the question"))
                    continue
                if not typed and _restates(p.intent, context.partial, alt.text, vocab):
                    # "no, aces" heard at "Ben, aces?" contradicts itself: the "no" was said, the value
                    # after it misheard ("no, jacks" heard "no a ace"). It is a plain "no", never a
                    # correction to the value already asked ("You said aces?").
                    add(Scored(No(), hyp_cost + p.cost, alt.text, p, "denies the question"))
                    continue
                if context.expects == "yes_no" and _affirms(p.intent, context.partial, alt.text, vocab):
                    # "yes i do" or "yes, one" heard at "One four?" says yes to what was asked: it
                    # is the "yes", not a new answer that drops the count ("Yes, you have some?").
                    add(Scored(Yes(), hyp_cost + p.cost, alt.text, p, "affirms the question"))
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
    # Readings that do the same thing in this phase (a bare "no" to an ask is a go fish, a bare
    # "yes" an answer with no count) back the best reading rather than compete with it.
    rivals = [s for s in ranked[1:] if not same_action(s.intent, best.intent, context)
              and not _same_yes(s, best, context, vocab)]
    runner = rivals[0] if rivals else None
    margin = (runner.cost - best.cost) if runner is not None else math.inf
    absolute = math.exp(-best.cost)
    # the share of the best meaning among the meanings in play, times how well it was heard
    in_play = ranked[:8]
    backing = sum(math.exp(-(s.cost - best.cost)) for s in in_play if s is best or s not in rivals)
    posterior = backing / sum(math.exp(-(s.cost - best.cost)) for s in in_play)
    confidence = max(0.0, min(1.0, absolute * posterior))
    keep = tuple(ranked[:5])

    if typed:
        # Typed text is what the typist meant: acted on unless two readings are as likely (a costly
        # typed intent, "stop the game" included, is acted on: typing is deliberate, and a script
        # that types "stop" means it).
        if margin >= _TYPED_MARGIN:
            return Understanding(best.intent, confidence, text=best.text, candidates=keep)
        return Understanding(best.intent, confidence, confirm=confirm_question(best.intent, context),
                             text=best.text, candidates=keep)
    if absolute < _FLOOR:
        return Understanding(None, confidence, reason=NOT_CAUGHT, text=best.text, candidates=keep)
    # An answer to tabletop's own question, heard with a grammar of just that slot, is judged on how
    # well it was heard and how far it stands above the next reading, not on its share of an n-best
    # list that the narrowed grammar fills with weak neighbours ("the aces" after "sixes").
    filled = best.note == "fills the question" and absolute >= ACT and margin >= _MARGIN
    unsure_rank = _unsure_rank_fill(best, hypotheses, context, vocab)
    if unsure_rank:
        return Understanding(best.intent, confidence, confirm=slot_question(best.intent, "rank", context),
                             text=best.text, candidates=keep, missing="rank",
                             likely=_likely_ranks(best, ranked, context, vocab))
    if _unsure_count_fill(best, hypotheses, context, vocab):
        return Understanding(best.intent, confidence, confirm=slot_question(best.intent, "count", context),
                             text=best.text, candidates=keep, missing="count",
                             likely=_likely_counts(best, ranked, hypotheses, context, vocab))
    # A fill read from a lower hypothesis only ("sure" heard at "How many?", "two" among its
    # alternatives) is not what was heard best: it is confirmed, never acted on.
    from_below = best.note == "fills the question" and bool(hypotheses) and best.text != hypotheses[0].text
    if (confidence >= ACT or filled) and margin >= _MARGIN:
        if costly(best.intent, context, vocab) or bare_answer(best.intent, best.text, context, vocab) or \
                bare_go_fish(best.intent, best.text, context, vocab) or from_below or answers_differ(best, ranked, context) or \
                players_differ(best, ranked, context):
            # Heard, and costly to get wrong: confirmed before it is acted on ("Stop the game?").
            # So is a bare "here are" or "i don't": what chatter most often becomes (see bare_answer).
            return Understanding(best.intent, confidence, confirm=confirm_question(best.intent, context),
                                 text=best.text, candidates=keep)
        return Understanding(best.intent, confidence, text=best.text, candidates=keep)
    missing, likely = _missing_slot(ranked)
    if missing is None:
        missing, likely = _implausible_slot(best, ranked, context)
    if missing is not None and not costly(best.intent, context, vocab, phase_only=False):
        return Understanding(best.intent, confidence, confirm=slot_question(best.intent, missing, context),
                             text=best.text, candidates=keep, missing=missing, likely=likely)
    return Understanding(best.intent, confidence, confirm=confirm_question(best.intent, context),
                         text=best.text, candidates=keep)


# ---- hearing safely ------------------------------------------------------------------------------


def same_action(a: Intent, b: Intent, context: Context) -> bool:
    """Whether two readings do the same thing in ``context``: right after an ask (phase "answer",
    no question pending) "no" is the target's go fish and "yes" an answer with no count said, as
    the referee rules them. Two such readings of one utterance are one meaning, not two rivals.

    >>> ctx = Context(players=("Ana", "Ben"), current="Ana", phase="answer", asker="Ana", target="Ben", rank=Rank.SEVEN)
    >>> same_action(No(), GoFish(), ctx), same_action(Yes(), Answer(None), ctx), same_action(Yes(), Answer(2), ctx)
    (True, True, False)
    """
    if context.phase != "answer" or context.partial is not None:
        return False
    pair = {type(a), type(b)}
    if pair == {No, GoFish}:
        return True
    if pair == {Yes, Answer}:
        answer = a if isinstance(a, Answer) else b
        return answer.count is None  # type: ignore[union-attr]
    return False


def _same_yes(a: Scored, b: Scored, context: Context, vocab: Vocabulary) -> bool:
    """Whether, at a yes/no question of tabletop's ("Three?"), reading ``a`` backs the "yes" that
    reading ``b`` is: its first word is a yes too ("yes two", "yep one" where "yes" was heard best).

    The open decoder pads a short answer with words from the noise after it, and those readings came
    in as rivals that took the "yes" under the acting bar: real "yes"es to "Three?" were asked again.
    The answer to a yes/no question is its first word; what follows a "yes" ("yes, two" to "Three?")
    contradicts it rather than answering otherwise."""
    if context.expects != "yes_no" or not isinstance(b.intent, Yes):
        return False
    words = a.text.lower().replace(",", " ").split()
    return bool(words) and words[0] in vocab.single_words("yes")


_COSTLY_PHASE = 0.5
"""An intent whose phase cost (vocabulary.yaml ``phases``) is at least this is implausible now: a
"go fish" right after "yes" (phase count), a lucky fish before anyone asked. Heard, it is confirmed."""

_SLOT_SPREAD = _MARGIN
"""Readings within this cost of the best compete: when they differ in one slot only, that slot is
asked for ("Ana, which rank?"); a lone shaky reading is confirmed whole ("Ben, fives?")."""


def costly(intent: Intent, context: Context, vocab: Vocabulary | None = None, *, phase_only: bool = False) -> bool:
    """Whether a heard ``intent`` is costly to get wrong, so it is confirmed before it is acted on.

    Stop, pause, a new game, undo, a correction, a hand count and an empty hand change the game in a
    way a family must then repair by hand; anything implausible in the phase is likelier misheard
    than meant. A fill of tabletop's own question is never costly: it was asked for.

    >>> ctx = Context(players=("Ana", "Ben"), current="Ana", phase="count", asker="Ana", target="Ben", rank=Rank.SEVEN)
    >>> costly(Control("stop"), ctx), costly(GoFish(), ctx), costly(Answer(2), ctx)
    (True, True, False)
    """
    if isinstance(intent, Answer) and intent.count is not None and context.most_given is not None and \
            intent.count > context.most_given:
        return True  # more cards than the target can hold ("yes, three" in the pairs game): likelier misheard
    if context.partial is not None and type(intent) is type(context.partial):
        return False
    if not phase_only:
        if isinstance(intent, (Undo, Correct, HandCount, OutOfCards)):
            return True
        if isinstance(intent, Control) and intent.what != "resume":
            return True
        if isinstance(intent, Book) and context.proven and intent.rank not in context.proven:
            # Tabletop waits for the book public knowledge proves ("that makes a book of kings: lay
            # it down"): another rank's book now is likelier misheard than meant ("book of kings" read
            # "book of queens" by both decoders, surely, en+f4 in the games bench).
            return True
    if context.phase in ("confirm", "any", "setup"):
        return False
    vocab = vocab or load_vocabulary()
    return vocab.phase_cost(context.phase, intent.type) >= _COSTLY_PHASE


def _words_of(expression: Any) -> set[str]:
    """Every word an expression of vocabulary.yaml can say (its rule references not followed)."""
    from tabletop.language.expression import Alt, Seq, Word

    if isinstance(expression, Word):
        return set(expression.text.split())
    if isinstance(expression, Alt):
        return set().union(*(_words_of(o) for o in expression.options))
    if isinstance(expression, Seq):
        return set().union(*(_words_of(i) for i in expression.items))
    return set()


def bare_answer(intent: Intent, text: str, context: Context, vocab: Vocabulary | None = None) -> bool:
    """Whether a heard ``intent`` is an answer with no count said in a bare form: "here are", "here
    you go", "take it" with neither a "yes" nor a number. Spoken, such a short form is what chatter
    most often becomes, and the open decoder agrees with the grammar on it, so the chatter rejector
    can't catch it: real "zero"s (FSDD, Speech Commands) were heard as "here are" and acted on as
    a "yes". It is confirmed ("Yes, you have some?") rather than acted on; "yes" itself still acts.

    >>> ctx = Context(players=("Ana", "Ben"), current="Ana", phase="answer", asker="Ana", target="Ben", rank=Rank.SEVEN)
    >>> bare_answer(Answer(None), "here are", ctx), bare_answer(Answer(None), "yes here you go", ctx)
    (True, False)
    """
    if not isinstance(intent, Answer) or intent.count is not None or context.partial is not None:
        return False
    vocab = vocab or load_vocabulary()
    rule = vocab.rules.get("yes")
    yes_words = _words_of(rule) if rule is not None else {"yes"}
    return not (set(text.lower().split()) & yes_words)


def bare_go_fish(intent: Intent, text: str, context: Context, vocab: Vocabulary | None = None) -> bool:
    """Whether a heard ``intent`` is a go fish in a bare form: "i don't", "nothing", "none" with
    neither a "no" (or "nope", "nah"...), nor "fish", nor the rank asked for. The mirror of
    :func:`bare_answer`: a short form that holds none of the words a go fish is said with is what
    chatter becomes, and the open decoder agrees with the grammar on it (a real Speech Commands
    "zero" was heard as "i don't" and acted on as Ben's go fish). It is confirmed ("Go fish?");
    "no", "nope, go fish" and "I don't have any sevens" still act.

    >>> ctx = Context(players=("Ana", "Ben"), current="Ana", phase="answer", asker="Ana", target="Ben", rank=Rank.SEVEN)
    >>> [bare_go_fish(GoFish(), t, ctx) for t in ("i don't", "nothing", "no i don't", "go fish", "i don't have any sevens")]
    [True, True, False, False, False]
    """
    if not isinstance(intent, GoFish) or context.partial is not None:
        return False
    vocab = vocab or load_vocabulary()
    said = set(text.lower().replace(",", " ").split())
    rule = vocab.rules.get("nope")
    own = (_words_of(rule) if rule is not None else {"no", "nope"}) | {"fish", "fishing"}
    if context.rank is not None:
        own |= {context.rank.word, context.rank.plural}
    return not (said & own)


def answers_differ(best: Scored, ranked: list[Scored], context: Context) -> bool:
    """Whether ``best``, a go fish or a count given right after an ask, has a rival reading of another
    heard text that answers otherwise: a count where it is a go fish, a go fish or another count
    where it is a count. Cards move or a card is drawn on the answer, so one the recogniser also
    heard another way is checked ("Go fish?" · "Three sevens?") however far ahead it stands.

    A recogniser's other readings come in well behind its best (PocketSphinx gives them 0.6 of its
    confidence), so the margin never holds a runner-up answer back: Ben's "I have one" at 20 dB,
    read "i have none five" by both decoders and "i have one five" by the open decoder's second
    reading, was acted on as his go fish.

    >>> ctx = Context(players=("Ana", "Ben"), current="Ana", phase="answer", asker="Ana", target="Ben", rank=Rank.FIVE)
    >>> fish, one = Scored(GoFish(), 0.1, "i have none", None), Scored(Answer(1), 0.7, "i have one", None)
    >>> answers_differ(fish, [fish, one], ctx), answers_differ(fish, [fish], ctx)
    (True, False)
    """
    if context.phase != "answer" or context.partial is not None or not _moves_cards(best.intent):
        return False
    return any(s.text != best.text and s.note != "confusable" and _moves_cards(s.intent) and s.intent != best.intent
               for s in ranked)


PLAYER_SLOTS = ("target", "player", "asker")  # the slots of an intent that name a player
_AFTER_EXCHANGE = ("after_hit", "after_miss")  # the phases in which the asker's book calls are expected


def players_differ(best: Scored, ranked: list[Scored], context: Context | None = None) -> bool:
    """Whether another heard text reads ``best`` as the same sentence about another player: the same
    kind of intent, a player slot both name, another name in it ("how many cards does ben have"
    among the readings of "how many cards does ana have"). Names are short and a recogniser swaps
    them whole, so the margin the runner-up stands behind (PocketSphinx gives its other readings
    0.6 of its confidence) says little: the sentence is checked ("How many cards Ana has?"). Only
    readings that make sense here count (within :data:`_PLAYER_RIVAL` of the best: an ask of
    oneself never does), and only the recogniser's own readings, not names merely spelled alike.

    In a 20 dB game (``tests/bench/table.py --preset pairs --seed 4101``) "how many cards does Ben
    have" was heard "... ana have" by both decoders, "... ben have" the open decoder's second
    reading, and answered about Ana.

    A book claimed for the player who has just taken cards (the asker, right after the exchange) is
    the call the game expects: a reading naming another player does not hold it back (the 20 dB
    game seed 4103 asked "Ben has a book of jacks?" after Ana gave Ben a jack, for "ana has a book
    of jacks" among the readings). Claimed for anyone else, it is checked as any other sentence.

    >>> from tabletop.referee.intents import Query
    >>> ana = Scored(Query("hand", "Ana"), 0.07, "how many cards does ana have", None)
    >>> ben = Scored(Query("hand", "Ben"), 0.68, "how many cards does ben have", None)
    >>> players_differ(ana, [ana, ben]), players_differ(ana, [ana])
    (True, False)
    """
    if isinstance(best.intent, Book) and context is not None and context.phase in _AFTER_EXCHANGE and \
            best.intent.player is not None and best.intent.player == context.asker:
        return False
    slots = [s for s in PLAYER_SLOTS if isinstance(getattr(best.intent, s, None), str)]
    return any(s.text != best.text and s.note != "confusable" and type(s.intent) is type(best.intent)
               and s.cost - best.cost < _PLAYER_RIVAL
               and any(isinstance(getattr(s.intent, slot), str) and getattr(s.intent, slot) != getattr(best.intent, slot)
                       for slot in slots)
               for s in ranked)


def _moves_cards(intent: Intent) -> bool:
    """A go fish (a card drawn) or an answer with its count (cards given)."""
    return isinstance(intent, GoFish) or isinstance(intent, Answer) and intent.count is not None


_SLOT_OF = {Ask: ("rank", "target"), Answer: ("count",), Book: ("rank",)}


def _slot_json(intent: Intent, slot: str) -> str:
    value = getattr(intent, slot)
    return value.symbol if isinstance(value, Rank) else str(value)


def _missing_slot(ranked: list[Scored]) -> tuple[str | None, tuple[str, ...]]:
    """The one slot the readings in play disagree on, and its values likeliest first."""
    best = ranked[0]
    slots = _SLOT_OF.get(type(best.intent))
    if not slots:
        return None, ()
    in_play = [s for s in ranked if s.cost - best.cost <= _SLOT_SPREAD and type(s.intent) is type(best.intent)]
    if len(in_play) < 2:
        return None, ()
    for slot in slots:
        others = [x for x in slots if x != slot]
        if all(all(getattr(s.intent, o) == getattr(best.intent, o) for o in others) for s in in_play) and \
                getattr(best.intent, slot) is not None:
            values = tuple(dict.fromkeys(_slot_json(s.intent, slot) for s in in_play if getattr(s.intent, slot) is not None))
            if len(values) >= 2:
                return slot, values
    return None, ()


def _implausible_slot(best: Scored, ranked: list[Scored], context: Context) -> tuple[str | None, tuple[str, ...]]:
    """The slot the game itself doubts in a shaky ask: a target who can't be asked (Ana heard asking
    Ana: the name was misheard, the rank may be right) or a rank already booked."""
    intent = best.intent
    if not isinstance(intent, Ask) or not context.players:
        return None, ()
    if best.note in ("asks self", "target can't be asked"):
        asker = intent.asker or context.current
        fits = context.askable_for(asker)
        likely = tuple(dict.fromkeys(s.intent.target for s in ranked
                                     if isinstance(s.intent, Ask) and s.intent.target in fits))
        return "target", likely
    if best.note == "rank booked":
        likely = tuple(dict.fromkeys(s.intent.rank.symbol for s in ranked
                                     if isinstance(s.intent, Ask) and s.intent.rank not in context.booked))
        return "rank", likely
    return None, ()


def _unsure_rank_fill(best: Scored, hypotheses: Any, context: Context, vocab: Vocabulary) -> bool:
    """Whether ``best`` is a rank given to tabletop's "which rank?", heard once: never sure enough
    to act on, so the table checks it with a yes/no ("Sevens?"). A grammar of rank words fits any
    sound to some rank, and no score tells a wrong one apart: real rank words (FSDD, Speech
    Commands) heard with both decoders agreeing and a confidence of at least 0.95 were still wrong
    6% and 10% of the time (FSDD's "six" heard as "ten" in 15 of 25 recordings: the same speaker
    saying it again is misheard the same way, so two hearings agreeing is no proof either). So is a
    book's rank ("A book of which rank?"): "threes" was heard "queens" by both decoders and a pair of
    queens laid (the pairs game at 20 dB, seed 4101). And a correction's rank ("Which rank?" after a
    "no" to "Threes?": see :func:`_fills`)."""
    if context.expects != "rank" or not isinstance(best.intent, (Ask, Book, Correct)) or \
            type(context.partial) is not type(best.intent):
        return False
    if best.note not in ("fills the question", "corrects the question"):
        return False
    return not 0 < len(context.choices) <= 2  # the answer to "Sixes or sevens?": judged as before


_SURE_COUNT = 0.9
"""A count given to "How many?" is acted on only when both decoders read exactly the same words
(PocketSphinx's confidence is at least 0.9 only then) and no other count is among the readings;
otherwise the table checks it ("Two?"). Real "three"s were heard as "two" with "three" the open
decoder's second reading, and real "zero"s as "two" with a confidence of 0.63 and 0.81."""


def _unsure_count_fill(best: Scored, hypotheses: Any, context: Context, vocab: Vocabulary) -> bool:
    """Whether ``best`` is a count given to "How many?" that is not sure enough to act on."""
    if context.expects != "count" or not isinstance(best.intent, Answer) or best.intent.count is None:
        return False
    if not isinstance(context.partial, Answer) or best.note not in ("fills the question", "corrects the question"):
        return False
    if 0 < len(context.choices) <= 2:
        return False  # the answer to "One or two?" (or to a count out of two): judged as before
    if not hypotheses or best.text != hypotheses[0].text or _clamp(hypotheses[0].confidence) < _SURE_COUNT:
        return True
    return any(_count_of(h.text, context, vocab) not in (None, best.intent.count) for h in hypotheses[1:])


def _count_of(text: str, context: Context, vocab: Vocabulary) -> int | None:
    """The count a bare answer says ("two", "no, three"), or None."""
    return _slot_values("count", context, vocab).get(tuple(_fill_tokens(text, vocab)))


def _likely_counts(best: Scored, ranked: list[Scored], hypotheses: Any, context: Context,
                   vocab: Vocabulary) -> tuple[str, ...]:
    """The counts an unsure answer to "How many?" may have been, likeliest first."""
    out = [str(best.intent.count)]  # type: ignore[attr-defined]
    for s in ranked:
        if isinstance(s.intent, Answer) and s.intent.count is not None:
            out.append(str(s.intent.count))
    for h in hypotheses:
        count = _count_of(h.text, context, vocab)
        if count is not None:
            out.append(str(count))
    values = tuple(dict.fromkeys(out))
    return tuple(v for v in values if v in context.choices) if context.choices else values


def _likely_ranks(best: Scored, ranked: list[Scored], context: Context, vocab: Vocabulary) -> tuple[str, ...]:
    """The ranks an unsure answer to "which rank?" may have been, likeliest first: the readings in
    play, then the ranks the recogniser confuses with the best (``confusable_ranks``)."""
    out: list[str] = []
    for s in ranked:
        if isinstance(s.intent, (Ask, Book)) and s.intent.rank is not None:
            out.append(s.intent.rank.symbol)
    out.extend(other.symbol for other in vocab.confused_with(best.intent.rank))  # type: ignore[attr-defined]
    values = tuple(dict.fromkeys(out))
    if context.choices:
        values = tuple(v for v in values if v in context.choices)
    return values


def slot_question(intent: Intent, slot: str, context: Context | None = None) -> str:
    """Ask for just the unsure part: "Ana, which rank?" · "Sevens from whom?" · "Sorry, how many?"."""
    asker = getattr(intent, "asker", None) or (context.current if context is not None else None)
    return sentences.which_slot(intent, slot, asker)


def offer_question(slot: str, values: tuple[str, ...]) -> str:
    """After two misses of one slot: the two likeliest values ("Sixes or sevens?")."""
    return sentences.offer_two(slot, values[0], values[1])


# ---- filling tabletop's question -----------------------------------------------------------------

_FILL_PREFIXES = (("i", "said"), ("i", "meant"), ("it's",), ("it", "was"), ("i", "want"), ("i", "asked", "for"))
_NOPE = frozenset({"no", "nope", "nah", "sorry"})


def _slot_values(slot: str, context: Context, vocab: Vocabulary) -> dict[tuple[str, ...], Any]:
    """The words of every value a slot can take: rank words, the players' names, the counts."""
    from tabletop.language.normalise import normalise

    out: dict[tuple[str, ...], Any] = {}
    if slot == "target":
        for p in context.players:
            out[tuple(normalise(p, vocab))] = p
        return out
    for v in vocab.lists["rank" if slot == "rank" else "count"].values:
        for words in v.words:
            out[tuple(words)] = Rank.from_symbol(str(v.out)) if slot == "rank" else int(v.out)
    return out


def slot_value(text: str, players: tuple[str, ...] | list[str] = ()) -> tuple[str, str] | None:
    """A bare slot value as ("rank", "7"), ("target", "Ben") or ("count", "2"), else None.

    What a narrowed grammar's answer means on its own ("sevens", "no, sixes"), so a recogniser can
    compare two decoders' readings of an answer to "Ana, which rank?" as it compares commands.

    >>> slot_value("sevens"), slot_value("no, ben", ["Ana", "Ben"]), slot_value("pass the salt")
    (('rank', '7'), ('target', 'Ben'), None)
    """
    vocab = load_vocabulary()
    context = Context(players=tuple(players), phase="any")
    tokens = _fill_tokens(text, vocab)
    for slot in ("rank", "target", "count"):
        value = _slot_values(slot, context, vocab).get(tuple(tokens))
        if value is not None:
            return slot, _slot_value_json(value)
    return None


def slot_values_said(text: str, players: tuple[str, ...] | list[str] = ()) -> frozenset[tuple[str, str]]:
    """Every slot value some run of ``text``'s words says, as ("rank", "7"), ("target", "Ben"),
    ("count", "2"): what a recogniser's reading holds, whatever else it holds. "two" says both
    ("rank", "2") and ("count", "2").

    >>> sorted(slot_values_said("ana got ben for got six", ["Ana", "Ben"]))
    [('rank', '6'), ('target', 'Ana'), ('target', 'Ben')]
    """
    from tabletop.language.normalise import normalise

    vocab = load_vocabulary()
    context = Context(players=tuple(players), phase="any")
    tokens = tuple(normalise(text, vocab))
    out: set[tuple[str, str]] = set()
    for slot in ("rank", "target", "count"):
        values = _slot_values(slot, context, vocab)
        longest = max((len(k) for k in values), default=0)
        for i in range(len(tokens)):
            for n in range(1, longest + 1):
                value = values.get(tokens[i:i + n])
                if value is not None:
                    out.add((slot, _slot_value_json(value)))
    return frozenset(out)


def slot_values_of(intent: Any) -> frozenset[tuple[str, str]]:
    """The slot values an intent (or a bare slot value, as :func:`slot_value` gives it) carries, in
    the form :func:`slot_values_said` gives: its rank, the player asked or named, its count. (Not
    the asker: the turn names the asker.)"""
    if isinstance(intent, tuple):
        return frozenset({intent})
    out: set[tuple[str, str]] = set()
    for field_name, slot in (("rank", "rank"), ("target", "target"), ("player", "target"), ("count", "count")):
        value = getattr(intent, field_name, None)
        if value is not None:
            out.add((slot, _slot_value_json(value)))
    return frozenset(out)


def _fill_tokens(text: str, vocab: Vocabulary) -> list[str]:
    from tabletop.language.normalise import normalise

    tokens = [t for t in normalise(text, vocab) if t not in vocab.skip_words]
    if tokens and tokens[0] in _NOPE:
        tokens = tokens[1:]
    for prefix in _FILL_PREFIXES:
        if tuple(tokens[: len(prefix)]) == prefix:
            tokens = tokens[len(prefix):]
            break
    while tokens and tokens[0] in ("any", "the", "your", "some"):
        tokens = tokens[1:]
    return tokens


def _fills(text: str, context: Context, vocab: Vocabulary) -> list[tuple[Intent, float]]:
    """A bare slot value ("sixes", "Cho", "two"), maybe after "no" or "I said": the pending intent with
    it filled in, at no cost when it is the slot asked for and among its choices."""
    from tabletop.language.normalise import normalise

    partial = context.partial
    slots = _SLOT_OF.get(type(partial), ())
    if isinstance(partial, Correct) and context.expects in ("rank", "target", "count"):
        # "Which one?" after a "no" to "Threes?", a check of a correction's rank: the answer is the
        # slot asked for (20 dB pairs game seed 4104: "fives" to it was read as nothing, then as
        # "Two sevens?", 19 utterances to repair one misheard book). Only the slot asked for: a
        # correction has no sure slots of its own to fill otherwise.
        slots = (context.expects,)
    if not slots:
        return []
    words = [t for t in normalise(text, vocab) if t not in vocab.skip_words]
    cost = 0.1 if words and words[0] in _NOPE else 0.0
    tokens = _fill_tokens(text, vocab)
    out = []
    for slot in slots:
        value = _slot_values(slot, context, vocab).get(tuple(tokens))
        if value is None:
            continue
        extra = cost + (0.0 if context.expects in (slot, "yes_no") else 0.6)
        if context.choices and _slot_value_json(value) not in context.choices and context.expects == slot:
            extra += 0.8
        try:
            filled = replace(partial, **{slot: value})  # type: ignore[arg-type]
        except (TypeError, ValueError):
            continue
        if isinstance(filled, Ask) and filled.card is not None and slot == "rank":
            filled = replace(filled, card=replace(filled.card, rank=value))
        if cost and filled == partial and context.expects == "yes_no":
            continue  # "no, aces" to "Ben, aces?": not a confirmation
        out.append((filled, extra))
    return out


def _slot_value_json(value: Any) -> str:
    return value.symbol if isinstance(value, Rank) else str(value)


def _correct_partial(intent: Intent, partial: Intent) -> Intent | None:
    """A correction heard at a question about ``partial``: the question's intent, corrected."""
    if not isinstance(intent, Correct):
        return None
    changes = {k: v for k, v in (("rank", intent.rank), ("target", intent.target), ("count", intent.count))
               if v is not None and k in _SLOT_OF.get(type(partial), ())}
    if not changes or (intent.player is not None):
        return None
    try:
        corrected = replace(partial, **changes)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    # "No, aces" to "Ben, aces?" contradicts itself: likelier a misheard correction than a yes
    return None if corrected == partial else corrected


def _restates(intent: Intent, partial: Intent, text: str, vocab: Vocabulary) -> bool:
    """Whether ``intent``, heard at a question about ``partial``, is a "no" followed by the values
    the question already holds ("no, aces" at "Ben, aces?")."""
    from tabletop.language.normalise import normalise

    if not isinstance(intent, Correct) or intent.player is not None:
        return False
    said = {k: v for k, v in (("rank", intent.rank), ("target", intent.target), ("count", intent.count))
            if v is not None}
    words = normalise(text, vocab)
    return bool(said) and bool(words) and words[0] in _NOPE and words[0] != "sorry" and \
        all(k in _SLOT_OF.get(type(partial), ()) and getattr(partial, k) == v for k, v in said.items())


def _affirms(intent: Intent, partial: Intent, text: str, vocab: Vocabulary) -> bool:
    """Whether ``intent``, heard at a yes/no question about ``partial``, opens with a yes and is of
    the question's kind, naming no value but those the question already holds: "yes i do" (an
    answer with no count) or "yes, one" at "One four?". The mirror of :func:`_restates`."""
    from tabletop.language.normalise import normalise

    words = normalise(text, vocab)
    if not words or words[0] not in vocab.single_words("yes"):
        return False
    if isinstance(intent, Answer) and intent.count is None and not isinstance(partial, (Ask, Answer, GoFish)):
        # "yes i do" at "A book of fours?": an answer makes no sense there, so it is the yes it opens
        # with, padded (the decoders fill a short "yes" with "i do", "i have them"); taken for an
        # answer it asked "Yes, you have some?", a "no", the sentence again and its question again.
        # Not at an ask or a go fish being checked, where the target's answer may be meant.
        return True
    if type(intent) is not type(partial) or not _SLOT_OF.get(type(partial)):
        return False
    return all(getattr(intent, k) is None or getattr(intent, k) == getattr(partial, k)
               for k in _SLOT_OF[type(partial)])


def _clamp(value: Any) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        return 0.5
    if math.isnan(v):
        return 0.5
    return max(0.0, min(1.0, v))


def _adjust(intent: Intent, context: Context, vocab: Vocabulary) -> tuple[Intent, float, str]:
    """The intent as it applies in context (a card dropped where cards aren't asked for, a bare "no"
    to an ask read as the go fish it is), and how unlikely it is."""
    phase = context.phase
    if phase == "answer" and context.partial is None and isinstance(intent, No):
        # Right after an ask (no question of tabletop's pending) the referee rules a bare "no" as the
        # target's go fish: read so, it is one meaning with "go fish", not a rival splitting the
        # confidence (which had a clearly heard "no" asked about: "Go fish?"). A bare "yes" is not
        # read so: real "sheila"s heard as "sure" would then be acted on as a "yes".
        intent = GoFish()
    cost = vocab.phase_cost(context.phase, intent.type)
    note = ""
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
    """The readings a recogniser may have confused with ``intent``: its rank's confusable partners
    (asked about even when both decoders read the same rank and no reading held its partner: both
    read "Ana, queens?" as threes in a 20 dB game), and players' names that sound alike."""
    out: list[Intent] = []
    rank = getattr(intent, "rank", None)
    if isinstance(rank, Rank):
        for other in vocab.confused_with(rank):
            if isinstance(intent, Ask) and intent.card is not None:
                out.append(replace(intent, rank=other, card=replace(intent.card, rank=other)))
            else:
                out.append(replace(intent, rank=other))  # type: ignore[arg-type]
    for slot in PLAYER_SLOTS:
        name = getattr(intent, slot, None)
        if isinstance(name, str):
            for other_name in names.get(name, ()):
                out.append(replace(intent, **{slot: other_name}))  # type: ignore[arg-type]
    return out


def confirm_question(intent: Intent, context: Context | None = None) -> str:
    """A short yes/no question that repeats ``intent``: "Ben, sevens?", "Two sevens?", "Go fish?"."""
    return sentences.confirm(intent, context.rank if context is not None else None)
