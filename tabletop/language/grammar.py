"""Recogniser grammars compiled from the same templates the parser matches.

* :func:`jsgf` — a JSGF grammar for PocketSphinx 5 (public rule ``<command>``), compact: one rule per
  intent, list and shared rule, referenced rather than expanded.
* :func:`vosk_phrases` — the phrase list for ``KaldiRecognizer(model, rate, json.dumps(phrases))``.
  Vosk estimates a *bigram* model from the phrases (``Recognizer::UpdateGrammarFst``, order 2, no
  backoff arcs), so what constrains it is the set of word pairs, not the set of sentences. The list
  holds short full template sentences (deterministic), one through each word pair — sentence start
  and end included — the templates can produce and no earlier sentence covered, plus ``"[unk]"``.
* :func:`words` — every word any grammar can emit (for adding pronunciations: "cho", "priya").
* :func:`sample_sentences` — random ``(sentence, intent)`` pairs from the templates, for round-trip
  tests and synthesized test audio.

With a :class:`~tabletop.language.context.Context`, intents unlikely in the phase (phase cost >=
``phases.drop`` in vocabulary.yaml) are left out, an ask's target is one of ``context.askable``,
its rank is not booked, an answer's rank (in the answer, count and confirm phases) is the rank
asked for, and asks for a specific card are left out unless ``context.asking`` is "specific-card".
With ``context=None`` the whole vocabulary is compiled.

>>> "public <command>" in jsgf(["Ana", "Ben"])
True
>>> "[unk]" in vosk_phrases(["Ana", "Ben"])
True
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from tabletop.language.expression import Alt, Expression, RuleRef, Seq, Slot, Word, parse_template
from tabletop.language.normalise import normalise
from tabletop.language.parser import Parser, _build_intent
from tabletop.language.vocabulary import Template, Vocabulary, load_vocabulary
from tabletop.referee.intents import Ask, Intent

if TYPE_CHECKING:
    from tabletop.language.context import Context

__all__ = ["jsgf", "vosk_phrases", "words", "sample_sentences", "FILLERS"]

FILLERS = ("um", "uh", "okay", "hey", "so", "well", "oh")
"""Filler words ``jsgf(fillers=True)`` accepts before a command (all are skip words of the vocabulary)."""

_RANK_LISTS_FILTERED_IN = {"ask"}
_ANSWERS = {"answer", "go_fish"}
_ANSWERING_PHASES = {"answer", "count", "confirm"}


@dataclass(frozen=True)
class _Choice:
    words: tuple[str, ...]
    out: Any


def _names_a_card(expr: Expression) -> bool:
    if isinstance(expr, Slot):
        return expr.slot == "suit"
    if isinstance(expr, Seq):
        return any(_names_a_card(i) for i in expr.items)
    if isinstance(expr, Alt):
        return any(_names_a_card(o) for o in expr.options)
    return False


class _Compiled:
    """Templates and list values resolved for a set of players and an optional context."""

    def __init__(self, players: Sequence[str], context: "Context | None", vocab: Vocabulary | None = None) -> None:
        self.vocab = vocab or load_vocabulary()
        self.context = context
        names = [p for p in players if isinstance(p, str) and normalise(p, self.vocab)]
        if context is not None and not names:
            names = list(context.players)
        self.players = tuple(dict.fromkeys(names))
        self.templates: list[Template] = [
            t for t in self.vocab.templates
            if context is None or (
                self.vocab.phase_cost(context.phase, t.intent) < self.vocab.phase_drop
                and (context.asking == "specific-card" or not _names_a_card(t.expression))
            )
        ]
        if _filling(context):
            self.templates = _slot_templates(self.vocab, context.expects)  # type: ignore[union-attr,arg-type]
        elif context is not None and context.expects == "yes_no" and context.confirms is not None:
            # "Sevens?" checks one slot: yes, no, or the slot's value alone ("sixes")
            self.templates = _slot_templates(self.vocab, context.confirms, check=True)
        elif context is not None and context.expects == "yes_no" and context.partial is not None:
            # "Ben, sevens?" is answered by yes, no, or the corrected part alone ("sixes", "no, Cho")
            for slot in _PARTIAL_SLOTS.get(context.partial.type, ()):
                self.templates.append(_slot_templates(self.vocab, slot)[0])
        self.player_choices = [_Choice(normalise(p, self.vocab), p) for p in self.players]
        askable = self.player_choices
        if context is not None and context.askable:
            askable = [c for c in self.player_choices if c.out in context.askable] or self.player_choices
        self.target_choices = askable
        # In a game, the ask the recogniser listens for is the current player's (named or not) of
        # someone else: "Ben, do you have any sevens" is never Ana asking herself, and "ana ben got
        # any fours" never an out-of-turn ask. Set while the JSGF is compiled; None elsewhere
        # (sampling and the Vosk phrases are unchanged).
        self.others: list[_Choice] | None = None
        self._others = [c for c in askable if context is None or c.out != context.current]
        self._current = [c for c in self.player_choices if context is not None and c.out == context.current]

    # the values a slot can take in a template of `intent`
    def choices(self, slot: Slot, intent: str) -> list[_Choice]:
        wl = self.vocab.lists[slot.list_name]
        if self._fill(slot, intent):
            wanted = set(self.context.choices)  # type: ignore[union-attr]
            pool = self.player_choices if wl.runtime else [_Choice(w, v.out) for v in wl.values for w in v.words]
            return [c for c in pool if str(c.out) in wanted] or pool
        if wl.runtime:
            if intent == "ask" and slot.slot == "target":
                return self.others if self.others is not None else self.target_choices
            if intent == "ask" and slot.slot == "asker" and self.others is not None:
                return self._current
            return self.player_choices
        if wl.repeat:
            return []  # handled by the caller
        out = [_Choice(words, v.out) for v in wl.values for words in v.words]
        if self._unbooked(slot, intent):
            booked = {r.symbol for r in self.context.booked}  # type: ignore[union-attr]
            out = [c for c in out if str(c.out) not in booked] or out
        if self._answering(slot, intent):
            asked = self.context.rank.symbol  # type: ignore[union-attr]
            out = [c for c in out if str(c.out) == asked] or out
        return out

    def _unbooked(self, slot: Slot, intent: str) -> bool:
        """True for the rank of an ask once some ranks are booked: nobody can ask for a booked rank."""
        return (self.context is not None and bool(self.context.booked) and intent in _RANK_LISTS_FILTERED_IN
                and slot.slot == "rank")

    def _answering(self, slot: Slot, intent: str) -> bool:
        """True for the rank an answer names while an ask is open: "yes, two queens" answers the ask for
        queens, and an answer naming another rank is no answer to it (the recogniser need not listen for one)."""
        return (self.context is not None and self.context.rank is not None and intent in _ANSWERS
                and slot.slot in ("rank", "_rank") and self.context.phase in _ANSWERING_PHASES)

    def _fill(self, slot: Slot, intent: str) -> bool:
        """True for the slot a pending question asks for ("Ana, which rank?") or checks ("Sevens?"),
        narrowed to its choices."""
        context = self.context
        return (_filling(context) or (context is not None and context.confirms is not None)) and \
            intent == _FILL_INTENT and bool(context.choices)  # type: ignore[union-attr]

    def list_key(self, slot: Slot, intent: str) -> str:
        wl = self.vocab.lists[slot.list_name]
        if self._fill(slot, intent):
            return f"{slot.list_name}_fill"
        if wl.runtime:
            if intent == "ask" and slot.slot in ("target", "asker") and self.others is not None:
                return "target_other" if slot.slot == "target" else "asker_now"
            return "target" if (intent == "ask" and slot.slot == "target" and self.target_choices is not self.player_choices) else "player"
        if wl.repeat:
            return "names"
        if self._unbooked(slot, intent):
            return f"{slot.list_name}_open"
        if self._answering(slot, intent):
            return f"{slot.list_name}_asked"
        return slot.list_name


# ----------------------------------------------------------------------------------------------
# a pending question's slot

_FILL_INTENT = "correct"
"""A bare slot value is read as a correction of the pending question's intent ("sixes", "no, sixes")."""
_FILL_TEMPLATES = {
    # The rank alone: asked "Ana, which rank?", a player says "Sevens." Carrier words cost more than
    # they catch: with "[no] [i said] [any|the|a] {rank}" PocketSphinx read real "eight"s as "a two"
    # and "three"s as "your eight", and the open decoder then rejected most answers; with the rank
    # alone real rank words were read right 75% -> 164 of 200 (FSDD, every other recording) and
    # 51 -> 58 of 79 (Speech Commands), tuned on half of each (see tests/bench/speech.py --half).
    "rank": "{rank}",
    "target": "[<nope>] [i said|i meant|i asked] {player:target}",
    # The count alone, for the same reason: "[sorry] [i have] {count}" heard real "three"s as
    # "sorry one" and "sorry two", and chatter as "nah i have two" (Speech Commands counts on half
    # of the speakers: 11 -> 13 of 15 right, 2 -> 1 wrong; FSDD 27 -> 26 of 27, none wrong).
    "count": "{count}",
}
_SLOT_ANSWERS = {"rank": (), "target": ("yes", "no"), "count": ("yes", "no")}
_NONE = "(none|nothing|zero)"
"""Heard at "How many?" too, so that a "zero" is heard as itself (and asked about) rather than forced
into a count: real "zero"s were acted on as "two" (FSDD 2 of 9, Speech Commands 1 of 3, half of the
speakers); with these words none was, nor was any "marvin" or "sheila" (Speech Commands 0 of 16)."""
"""What else a slot question listens for. "Ana, which rank?" is answered by a rank: with yes and no
in its grammar real "nine"s were heard as "no" (which dropped the ask) and "six"es as "yep" or
"wrong"; a rank heard is checked with a yes/no anyway ("Nines?"), so nothing is lost without them."""


_CHECK_TEMPLATES = {
    "rank": "[no|nope] {rank}",
    "target": "[no|nope] {player:target}",
    "count": "[no|nope] {count}",
}
"""A yes/no check of one slot ("Sevens?") is answered by yes, no, or the corrected value ("no, sixes")."""

_PARTIAL_SLOTS = {"ask": ("rank", "target"), "answer": ("count",), "book": ("rank",)}


def _filling(context: "Context | None") -> bool:
    from tabletop.language.context import SLOTS

    return context is not None and context.expects in SLOTS


def _slot_templates(vocab: Vocabulary, slot: str, check: bool = False) -> list[Template]:
    """What a recogniser listens for while tabletop waits for one slot (or, with ``check``, for the
    answer to a yes/no check of it): that slot's words (from the vocabulary's lists and rules,
    narrowed to the question's choices), yes and no."""
    text = (_CHECK_TEMPLATES if check else _FILL_TEMPLATES)[slot]
    fill = Template(_FILL_INTENT, text, parse_template(text))
    also = ("yes", "no") if check else _SLOT_ANSWERS[slot]
    out = [fill] + [t for t in vocab.templates if t.intent in also]
    if slot == "count" and not check:
        out.append(Template("go_fish", _NONE, parse_template(_NONE)))
    return out


# ----------------------------------------------------------------------------------------------
# JSGF


def _jsgf_name(name: str) -> str:
    return re.sub(r"[^a-z0-9_]", "_", name.lower())


def _jsgf_expr(expr: Expression, intent: str, comp: _Compiled, used: dict[str, list[_Choice] | None]) -> str:
    if isinstance(expr, Word):
        return expr.text
    if isinstance(expr, Seq):
        if not expr.items:
            return "<NULL>"
        return " ".join(_jsgf_expr(item, intent, comp, used) for item in expr.items)
    if isinstance(expr, Alt):
        options = [o for o in expr.options if not (isinstance(o, Seq) and not o.items)]
        inner = " | ".join(_jsgf_expr(o, intent, comp, used) for o in options)
        return f"[{inner}]" if len(options) < len(expr.options) else f"({inner})"
    if isinstance(expr, RuleRef):
        used.setdefault(f"r_{expr.name}", None)
        return f"<r_{_jsgf_name(expr.name)}>"
    if isinstance(expr, Slot):
        key = comp.list_key(expr, intent)
        if key == "names":
            used.setdefault("player", comp.player_choices)
            used["names"] = None
        else:
            used.setdefault(key, comp.choices(expr, intent))
        return f"<{_jsgf_name(key)}>"
    raise TypeError(expr)  # pragma: no cover


def _alternatives(choices: Sequence[_Choice]) -> str:
    forms = sorted({" ".join(c.words) for c in choices})
    return " | ".join(forms) if forms else "<VOID>"


def jsgf(players: Sequence[str], context: "Context | None" = None, *, name: str = "tabletop",
         fillers: bool = False) -> str:
    """A JSGF grammar (public rule ``<command>``) for PocketSphinx 5.

    All words are lowercase; player names are normalised the way the parser normalises them.
    ``fillers=True`` accepts an optional filler word ("um", "okay") before a command; it is off by
    default because it made PocketSphinx's ``hyp()`` with ``bestpath`` about five times slower.
    PocketSphinx note: with ``bestpath`` on (its default), ``hyp()`` over the whole grammar took
    1-3 s per utterance here; ``Decoder(..., bestpath=False)`` decodes in well under a second.
    """
    comp = _Compiled(players, context)
    used: dict[str, list[_Choice] | None] = {}
    intent_rules: dict[str, list[str]] = {}
    for template in comp.templates:
        comp.others = comp._others if comp._others and comp._current and template.intent == "ask" else None
        intent_rules.setdefault(template.intent, []).append(_jsgf_expr(template.expression, template.intent, comp, used))
    # rules reached from rules
    pending = [k[2:] for k in list(used) if k.startswith("r_")]
    rule_bodies: dict[str, str] = {}
    while pending:
        rule = pending.pop()
        if rule in rule_bodies:
            continue
        before = set(used)
        rule_bodies[rule] = _jsgf_expr(comp.vocab.rules[rule], "", comp, used)
        pending.extend(k[2:] for k in set(used) - before if k.startswith("r_"))
    lines = ["#JSGF V1.0;", "", f"grammar {_jsgf_name(name)};", ""]
    prefix = f"[{' | '.join(FILLERS)}] " if fillers else ""
    lines.append(f"public <command> = {prefix}(" + " | ".join(f"<i_{_jsgf_name(i)}>" for i in intent_rules) + ");")
    lines.append("")
    for intent, bodies in intent_rules.items():
        lines.append(f"<i_{_jsgf_name(intent)}> = " + "\n    | ".join(f"({b})" for b in bodies) + ";")
    for rule, body in sorted(rule_bodies.items()):
        lines.append(f"<r_{_jsgf_name(rule)}> = {body};")
    for key, choices in sorted(used.items()):
        if key.startswith("r_"):
            continue
        if key == "names":
            lines.append("<names> = <player> [and] <player> ([and] <player>)*;")
        else:
            lines.append(f"<{_jsgf_name(key)}> = {_alternatives(choices or [])};")
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------------------------
# sampling


def _sample(expr: Expression, intent: str, comp: _Compiled, rng: random.Random,
            words: list[str], slots: list[tuple[str, Any]]) -> bool:
    if isinstance(expr, Word):
        words.append(expr.text)
        return True
    if isinstance(expr, Seq):
        return all(_sample(item, intent, comp, rng, words, slots) for item in expr.items)
    if isinstance(expr, Alt):
        return _sample(rng.choice(expr.options), intent, comp, rng, words, slots)
    if isinstance(expr, RuleRef):
        return _sample(comp.vocab.rules[expr.name], intent, comp, rng, words, slots)
    if isinstance(expr, Slot):
        wl = comp.vocab.lists[expr.list_name]
        if wl.repeat:
            pool = list(comp.player_choices)
            if len(pool) < wl.min:
                return False
            chosen = rng.sample(pool, rng.randint(wl.min, min(len(pool), 4)))
            for i, choice in enumerate(chosen):
                if i == len(chosen) - 1:
                    words.append("and")
                words.extend(choice.words)
            slots.append((expr.slot, tuple(c.out for c in chosen)))
            return True
        choices = comp.choices(expr, intent)
        if not choices:
            return False
        choice = rng.choice(choices)
        words.extend(choice.words)
        slots.append((expr.slot, choice.out))
        return True
    raise TypeError(expr)  # pragma: no cover


def _sample_template(template: Template, comp: _Compiled, rng: random.Random) -> tuple[str, Intent] | None:
    for _ in range(8):
        words: list[str] = []
        slots: list[tuple[str, Any]] = []
        if not _sample(template.expression, template.intent, comp, rng, words, slots):
            return None
        intent = _build_intent(template, slots)
        if intent is not None and words and not _asks_self(intent, comp.context):
            return " ".join(words), intent
    return None


def _asks_self(intent: Intent, context: "Context | None") -> bool:
    """An ask nobody says: of the asker ("cho asks cho", or "ana, sevens?" on Ana's turn)."""
    if not isinstance(intent, Ask):
        return False
    asker = intent.asker or (context.current if context is not None else None)
    return asker is not None and intent.target == asker


def sample_sentences(players: Sequence[str], n: int = 100, seed: int = 0,
                     context: "Context | None" = None, *, unambiguous: bool = False) -> list[tuple[str, Intent]]:
    """``n`` random ``(sentence, intent)`` pairs, every template in turn, deterministic for a seed.

    Sentences are lowercase words as a recogniser would emit them: "ben do you have any sevens".
    Some sentences mean several things ("yes" is Yes or an answer, "i got two" an answer or a lucky
    fish); the intent is the template's. With ``unambiguous=True`` only sentences whose cheapest
    reading (by the parser, without context) is the template's intent are returned.
    """
    comp = _Compiled(players, context)
    rng = random.Random(seed)
    templates = list(comp.templates)
    out: list[tuple[str, Intent]] = []
    if not templates or n <= 0:
        return out
    order = templates[:]
    parser = Parser(comp.players, comp.vocab)
    attempts = 0
    while len(out) < n and attempts < n * 4:
        if attempts % len(order) == 0:
            rng.shuffle(order)
        template = order[attempts % len(order)]
        attempts += 1
        sample = _sample_template(template, comp, rng)
        if sample is not None and unambiguous:
            best = parser.parse_candidates(sample[0])
            if not best or best[0].intent != sample[1]:
                continue
        if sample is not None:
            out.append(sample)
    return out


# ----------------------------------------------------------------------------------------------
# Vosk


class _Nfa:
    """A template as a word graph (Thompson construction): word edges and empty edges."""

    def __init__(self, template: Template, comp: _Compiled) -> None:
        self.comp = comp
        self.intent = template.intent
        self.n = 0
        self.words: list[tuple[int, str, int]] = []
        self.eps: dict[int, list[int]] = {}
        self.start = self._state()
        self.final = self._build(template.expression, self.start)

    def _state(self) -> int:
        self.n += 1
        return self.n - 1

    def _eps(self, a: int, b: int) -> None:
        self.eps.setdefault(a, []).append(b)

    def _chain(self, words: Sequence[str], s: int) -> int:
        for word in words:
            e = self._state()
            self.words.append((s, word, e))
            s = e
        return s

    def _choices(self, choices: Sequence[_Choice], s: int) -> int:
        end = self._state()
        for choice in choices:
            self._eps(self._chain(choice.words, s), end)
        return end

    def _build(self, expr: Expression, s: int) -> int:
        if isinstance(expr, Word):
            return self._chain((expr.text,), s)
        if isinstance(expr, Seq):
            for item in expr.items:
                s = self._build(item, s)
            return s
        if isinstance(expr, Alt):
            end = self._state()
            for option in expr.options:
                self._eps(self._build(option, s), end)
            return end
        if isinstance(expr, RuleRef):
            return self._build(self.comp.vocab.rules[expr.name], s)
        if isinstance(expr, Slot):
            wl = self.comp.vocab.lists[expr.list_name]
            if wl.repeat:  # name ([and] name)+
                players = self.comp.player_choices
                a = self._choices(players, s)
                b = self._state()
                self._eps(a, b)
                self._eps(self._chain(("and",), a), b)
                c = self._choices(players, b)
                self._eps(c, a)
                return c
            return self._choices(self.comp.choices(expr, self.intent), s)
        raise TypeError(expr)  # pragma: no cover

    def closure(self, s: int) -> set[int]:
        seen, todo = {s}, [s]
        while todo:
            for t in self.eps.get(todo.pop(), ()):
                if t not in seen:
                    seen.add(t)
                    todo.append(t)
        return seen

    def _paths(self, source: int, forward: bool) -> dict[int, tuple[str, ...]]:
        """Shortest word sequences from ``source`` to every state (forward) or from every state to it."""
        out_edges: dict[int, list[tuple[int, str | None]]] = {}
        for a, word, b in self.words:
            x, y = (a, b) if forward else (b, a)
            out_edges.setdefault(x, []).append((y, word))
        for a, targets in self.eps.items():
            for b in targets:
                x, y = (a, b) if forward else (b, a)
                out_edges.setdefault(x, []).append((y, None))
        best: dict[int, tuple[str, ...]] = {source: ()}
        frontier = [source]
        while frontier:  # Dijkstra with unit/zero weights, small graphs
            frontier.sort(key=lambda st: (len(best[st]), best[st]))
            state = frontier.pop(0)
            for nxt, label in out_edges.get(state, ()):
                step: tuple[str, ...] = (label,) if label is not None else ()
                path = best[state] + step if forward else step + best[state]
                if nxt not in best or (len(path), path) < (len(best[nxt]), best[nxt]):
                    best[nxt] = path
                    frontier.append(nxt)
        return best

    def cover(self) -> tuple[set[tuple[str, str]], list[tuple[str, ...]]]:
        """Every bigram (with <s> and </s>), and a short sentence through each."""
        to_state = self._paths(self.start, True)
        to_final = self._paths(self.final, False)
        closures = {st: self.closure(st) for st in range(self.n)}
        by_source: dict[int, list[tuple[int, str, int]]] = {}
        for edge in self.words:
            by_source.setdefault(edge[0], []).append(edge)
        pairs: set[tuple[str, str]] = set()
        sentences: list[tuple[str, ...]] = []

        def take(pair: tuple[str, str], sentence: tuple[str, ...]) -> None:
            if pair not in pairs:
                pairs.add(pair)
                sentences.append(sentence)

        for x in sorted(closures[self.start]):
            for _, b, y in by_source.get(x, ()):
                if y in to_final:
                    take(("<s>", b), (b,) + to_final[y])
        for u, a, v in self.words:
            if u not in to_state:
                continue
            prefix = to_state[u] + (a,)
            if self.final in closures[v]:
                take((a, "</s>"), prefix)
            for x in sorted(closures[v]):
                for _, b, y in by_source.get(x, ()):
                    if y in to_final:
                        take((a, b), prefix + (b,) + to_final[y])
        return pairs, sentences


def grammar_bigrams(players: Sequence[str], context: "Context | None" = None) -> set[tuple[str, str]]:
    """Every word pair (with "<s>" and "</s>") the templates can produce: what a Vosk list must cover."""
    comp = _Compiled(players, context)
    out: set[tuple[str, str]] = set()
    for template in comp.templates:
        out |= _Nfa(template, comp).cover()[0]
    return out


def vosk_phrases(players: Sequence[str], context: "Context | None" = None, *, seed: int = 0,
                 max_misses: int = 60) -> list[str]:
    """Template sentences that together cover every word pair the templates can make, then ``"[unk]"``.

    Vosk counts pairs, so the list should not favour one value of a slot: sentences are first
    sampled at random (seeded, deterministic), keeping those that add a pair, until ``max_misses``
    samples in a row add none; then a shortest sentence through each pair still missing is added.
    """
    comp = _Compiled(players, context)
    rng = random.Random(seed)
    covered: set[tuple[str, str]] = set()
    phrases: list[str] = []

    def offer(sentence: Sequence[str]) -> bool:
        seq = ("<s>", *sentence, "</s>")
        new = set(zip(seq, seq[1:])) - covered
        if new and sentence:
            covered.update(new)
            phrases.append(" ".join(sentence))
            return True
        return False

    for template in comp.templates:
        misses = 0
        while misses < max_misses:
            words_: list[str] = []
            if not _sample(template.expression, template.intent, comp, rng, words_, []):
                break
            misses = 0 if offer(words_) else misses + 1
        for sentence in _Nfa(template, comp).cover()[1]:
            offer(sentence)
    phrases = list(dict.fromkeys(phrases))
    phrases.append("[unk]")
    return phrases


def words(players: Sequence[str], context: "Context | None" = None) -> set[str]:
    """Every word any grammar (JSGF or Vosk) built for these players can emit."""
    comp = _Compiled(players, context)
    out: set[str] = set(FILLERS) | {"and"}  # fillers: for jsgf(fillers=True)

    def walk(expr: Expression, intent: str) -> None:
        if isinstance(expr, Word):
            out.add(expr.text)
        elif isinstance(expr, Seq):
            for item in expr.items:
                walk(item, intent)
        elif isinstance(expr, Alt):
            for option in expr.options:
                walk(option, intent)
        elif isinstance(expr, RuleRef):
            walk(comp.vocab.rules[expr.name], intent)
        elif isinstance(expr, Slot):
            wl = comp.vocab.lists[expr.list_name]
            choices = comp.player_choices if wl.repeat else comp.choices(expr, intent)
            for c in choices:
                out.update(c.words)

    for template in comp.templates:
        walk(template.expression, template.intent)
    return out
