"""Words to intents: match normalised text against every template of the vocabulary.

``parse_candidates`` returns every reading, cheapest first, so context can choose between them
("I got two" is an answer of two cards first, a lucky fish of a two second). ``parse`` returns
the cheapest. Neither raises on any input string.

>>> parse("Ben, got any 7s?", ["Ana", "Ben", "Cho"])
Ask(target='Ben', rank=Rank.SEVEN, asker=None, card=None)
>>> [p.intent for p in parse_candidates("I got two", ["Ana", "Ben"])][:2]
[Answer(count=2), Lucky(rank=Rank.TWO)]
>>> parse("the weather is nice", ["Ana"]) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from rapidfuzz import fuzz

from tabletop.cards import Card, Rank, Suit
from tabletop.language.expression import Alt, Expression, RuleRef, Seq, Slot, Word
from tabletop.language.normalise import MAX_TOKENS, normalise
from tabletop.language.vocabulary import INTENT_CLASSES, Template, Vocabulary, load_vocabulary
from tabletop.referee.intents import Intent

__all__ = ["Parse", "parse", "parse_candidates", "vocabulary_words", "Parser"]

_MAX_COST = 8.0
_MAX_RESULTS = 64
_SKIP_COST = 0.05
_NEW_NAME_COST = 0.2


@dataclass(frozen=True)
class Parse:
    """One reading of a sentence: the intent, its cost (lower is better) and how it was matched."""

    intent: Intent
    cost: float
    template: str
    intent_name: str
    text: str = ""
    slots: tuple[tuple[str, Any], ...] = ()
    unknown_names: tuple[str, ...] = ()
    fuzzy_names: tuple[tuple[str, str], ...] = ()
    """(heard word, player name) for every name matched fuzzily."""


# A partial match: (end position, slots, cost, unknown names, fuzzy names)
_State = tuple[int, tuple[tuple[str, Any], ...], float, tuple[str, ...], tuple[tuple[str, str], ...]]


def vocabulary_words(vocab: Vocabulary | None = None) -> frozenset[str]:
    """Every word the templates, rules and fixed lists can say (names and skip words excluded)."""
    vocab = vocab or load_vocabulary()
    return _vocab_words(vocab)


_WORDS_CACHE: dict[int, frozenset[str]] = {}


def _vocab_words(vocab: Vocabulary) -> frozenset[str]:
    key = id(vocab)
    if key not in _WORDS_CACHE:
        words: set[str] = set()

        def walk(expr: Expression) -> None:
            if isinstance(expr, Word):
                words.add(expr.text)
            elif isinstance(expr, Seq):
                for item in expr.items:
                    walk(item)
            elif isinstance(expr, Alt):
                for option in expr.options:
                    walk(option)

        for template in vocab.templates:
            walk(template.expression)
        for rule in vocab.rules.values():
            walk(rule)
        for wl in vocab.lists.values():
            for value in wl.values:
                for seq in value.words:
                    words.update(seq)
        _WORDS_CACHE[key] = frozenset(words)
    return _WORDS_CACHE[key]


class Parser:
    """A vocabulary bound to a set of player names; reusable across sentences."""

    def __init__(self, players: Sequence[str] = (), vocabulary: Vocabulary | None = None) -> None:
        self.vocab = vocabulary or load_vocabulary()
        self.players = tuple(p for p in players if isinstance(p, str) and p.strip())
        self._names: list[tuple[str, tuple[str, ...]]] = []
        for name in self.players:
            tokens = normalise(name, self.vocab)
            if tokens:
                self._names.append((name, tokens))
        self._known = _vocab_words(self.vocab)

    def _split_s(self, tokens: tuple[str, ...]) -> tuple[str, ...]:
        """"ben's" -> "ben", "'s" for words the vocabulary doesn't know (names): "Ben's out"."""
        out: list[str] = []
        for token in tokens:
            if token.endswith("'s") and len(token) > 2 and token not in self._known:
                out.extend((token[:-2], "'s"))
            else:
                out.append(token)
        return tuple(out)

    def parse_candidates(self, text: str, *, allow_unknown_names: bool = False) -> list[Parse]:
        try:
            return self._parse(text, allow_unknown_names)
        except RecursionError:  # pragma: no cover - a defensive net; inputs are capped
            return []

    def _parse(self, text: str, allow_unknown: bool) -> list[Parse]:
        tokens = normalise(text, self.vocab) if isinstance(text, str) else ()
        tokens = self._split_s(tokens)
        if not tokens or len(tokens) > MAX_TOKENS:
            return []
        run = _Run(self, tokens, allow_unknown)
        best: dict[Any, Parse] = {}
        order: dict[Any, int] = {}
        joined = " ".join(tokens)
        for template in self.vocab.templates:
            for end, slots, cost, unknown, fuzzy in run.match(template.expression, 0):
                for pos, skip_cost in run.skips(end):
                    if pos != len(tokens):
                        continue
                    intent = _build_intent(template, slots)
                    if intent is None:
                        continue
                    total = round(cost + skip_cost + template.cost, 4)
                    key = intent
                    previous = best.get(key)
                    if previous is None or total < previous.cost:
                        best[key] = Parse(intent, total, template.text, template.intent, joined, slots, unknown, fuzzy)
                        order.setdefault(key, template.index)
        return sorted(best.values(), key=lambda p: (p.cost, order[p.intent]))


class _Run:
    """The matching of one sentence: memoised by (expression, position)."""

    def __init__(self, parser: Parser, tokens: tuple[str, ...], allow_unknown: bool) -> None:
        self.p = parser
        self.vocab = parser.vocab
        self.tokens = tokens
        self.n = len(tokens)
        self.allow_unknown = allow_unknown
        self.memo: dict[tuple[int, int], list[_State]] = {}
        self._skips: dict[int, list[tuple[int, float]]] = {}

    def skips(self, pos: int) -> list[tuple[int, float]]:
        """Positions reachable from ``pos`` by skipping filler words, with their cost."""
        if pos not in self._skips:
            out = [(pos, 0.0)]
            p, cost = pos, 0.0
            while p < self.n and self.tokens[p] in self.vocab.skip_words:
                p += 1
                cost += _SKIP_COST
                out.append((p, cost))
            self._skips[pos] = out
        return self._skips[pos]

    def match(self, expr: Expression, pos: int) -> list[_State]:
        key = (id(expr), pos)
        cached = self.memo.get(key)
        if cached is not None:
            return cached
        self.memo[key] = []  # guards against pathological recursion
        result = self._match(expr, pos)
        if len(result) > _MAX_RESULTS:
            result.sort(key=lambda s: s[2])
            result = result[:_MAX_RESULTS]
        self.memo[key] = result
        return result

    def _match(self, expr: Expression, pos: int) -> list[_State]:
        if isinstance(expr, Word):
            return [
                (p + 1, (), c, (), ())
                for p, c in self.skips(pos)
                if p < self.n and self.tokens[p] == expr.text
            ]
        if isinstance(expr, Seq):
            states: list[_State] = [(pos, (), 0.0, (), ())]
            for item in expr.items:
                nxt: list[_State] = []
                for end, slots, cost, unknown, fuzzy in states:
                    for e2, s2, c2, u2, f2 in self.match(item, end):
                        total = cost + c2
                        if total <= _MAX_COST:
                            nxt.append((e2, slots + s2, total, unknown + u2, fuzzy + f2))
                if not nxt:
                    return []
                states = nxt
            return states
        if isinstance(expr, Alt):
            out: list[_State] = []
            for option in expr.options:
                out.extend(self.match(option, pos))
            return out
        if isinstance(expr, RuleRef):
            rule = self.vocab.rules.get(expr.name)
            return self.match(rule, pos) if rule is not None else []
        if isinstance(expr, Slot):
            return self._slot(expr, pos)
        return []  # pragma: no cover

    def _slot(self, slot: Slot, pos: int) -> list[_State]:
        wl = self.vocab.lists[slot.list_name]
        out: list[_State] = []
        for p, c in self.skips(pos):
            if p >= self.n:
                continue
            if wl.runtime:
                for end, name, cost, unknown, fuzzy in self._player(p):
                    out.append((end, ((slot.slot, name),), c + cost, unknown, fuzzy))
            elif wl.repeat:
                for end, names, cost, unknown, fuzzy in self._names(p, wl.min):
                    out.append((end, ((slot.slot, names),), c + cost, unknown, fuzzy))
            else:
                token = self.tokens[p]
                alias = self.vocab.sounds_like.get(token)
                for value in wl.values:
                    for seq in value.words:
                        if self.tokens[p : p + len(seq)] == seq:
                            out.append((p + len(seq), ((slot.slot, value.out),), c + value.cost, (), ()))
                        elif alias is not None and len(seq) == 1 and seq[0] == alias:
                            out.append((p + 1, ((slot.slot, value.out),), c + value.cost + self.vocab.sounds_like_cost, (), ()))
        return out

    def _player(self, p: int, allow_new: bool = False) -> list[tuple[int, str, float, tuple[str, ...], tuple[tuple[str, str], ...]]]:
        out: list[tuple[int, str, float, tuple[str, ...], tuple[tuple[str, str], ...]]] = []
        exact = False
        for name, toks in self.p._names:
            if self.tokens[p : p + len(toks)] == toks:
                out.append((p + len(toks), name, 0.0, (), ()))
                exact = True
        if exact:
            return out
        token = self.tokens[p]
        if token in self._known_or_skip():
            return out
        vocab = self.vocab
        for name, toks in self.p._names:
            if len(toks) != 1:
                continue
            score = fuzz.ratio(token, toks[0])
            if score >= vocab.fuzzy_threshold:
                cost = vocab.fuzzy_base + (100.0 - score) * vocab.fuzzy_per_point
                out.append((p + 1, name, cost, (), ((token, name),)))
        if not out and allow_new and token.isalpha():
            out.append((p + 1, token.capitalize(), _NEW_NAME_COST, (), ()))
        elif not out and self.allow_unknown and token.isalpha():
            out.append((p + 1, token.capitalize(), vocab.unknown_name_cost, (token,), ()))
        return out

    def _known_or_skip(self) -> frozenset[str]:
        return self.p._known | self.vocab.skip_words

    def _names(self, p: int, minimum: int) -> list[_State]:
        """Two or more names, new ones allowed ("players are Ana, Ben and Cho")."""
        results: list[_State] = []

        def extend(pos: int, names: tuple[str, ...], cost: float) -> None:
            if len(results) > _MAX_RESULTS or len(names) > 8:
                return
            if len(names) >= minimum:
                results.append((pos, names, cost, (), ()))  # type: ignore[arg-type]
            for q, c in self.skips(pos):
                if q >= self.n:
                    continue
                for end, name, cost2, _, _ in self._player(q, allow_new=True):
                    # a repeated name is kept: the referee refuses it with a reason
                    extend(end, names + (name,), cost + c + cost2)

        extend(p, (), 0.0)
        return results


def _build_intent(template: Template, slots: Iterable[tuple[str, Any]]) -> Intent | None:
    values: dict[str, Any] = {}
    for name, value in slots:
        if not name.startswith("_"):
            values.setdefault(name, value)
    for name, value in template.slots:
        values.setdefault(name, value)
    try:
        if "rank" in values:
            values["rank"] = Rank.from_symbol(str(values["rank"]))
        if "count" in values:
            values["count"] = int(values["count"])
        if "suit" in values:
            suit = Suit(values.pop("suit"))
            values["card"] = Card(values["rank"], suit)
        if "players" in values:
            values["players"] = tuple(values["players"])
        return INTENT_CLASSES[template.intent](**values)  # type: ignore[no-any-return]
    except (ValueError, TypeError, KeyError):
        return None


_PARSERS: dict[tuple[str, ...], Parser] = {}


def _parser(players: Sequence[str]) -> Parser:
    key = tuple(p for p in players if isinstance(p, str))
    parser = _PARSERS.get(key)
    if parser is None:
        if len(_PARSERS) > 32:
            _PARSERS.clear()
        parser = _PARSERS[key] = Parser(key)
    return parser


def parse_candidates(text: str, players: Sequence[str] = (), *, allow_unknown_names: bool = False) -> list[Parse]:
    """Every reading of ``text``, cheapest first; an empty list when nothing matches. Never raises."""
    try:
        return _parser(players).parse_candidates(text, allow_unknown_names=allow_unknown_names)
    except Exception:  # noqa: BLE001 - the contract is "never raises on any input"
        return []


def parse(text: str, players: Sequence[str] = ()) -> Intent | None:
    """The cheapest reading of ``text`` against the game's ``players``, or None."""
    candidates = parse_candidates(text, players)
    return candidates[0].intent if candidates else None
