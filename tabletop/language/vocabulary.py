"""The vocabulary as data: ``vocabulary.yaml`` loaded into frozen dataclasses and checked.

Every template is parsed and every list, rule and slot it names is checked at load time, so a
broken template fails when tabletop starts, with the file, intent and template in the message.

>>> vocab = load_vocabulary()
>>> "ask" in vocab.intent_names
True
>>> vocab.lists["rank_many"].values[6].words
(('sevens',),)
"""

from __future__ import annotations

import functools
import re
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any, Mapping

import yaml

from tabletop.cards import Rank
from tabletop.language.expression import (
    Alt,
    Expression,
    RuleRef,
    Seq,
    Slot,
    TemplateError,
    Word,
    parse_template,
)
from tabletop.referee import intents as _intents

__all__ = [
    "ListValue",
    "WordList",
    "Template",
    "Vocabulary",
    "VocabularyError",
    "TemplateError",
    "INTENT_CLASSES",
    "DEFAULT_PATH",
    "load_vocabulary",
]

DEFAULT_PATH = Path(__file__).with_name("vocabulary.yaml")

INTENT_CLASSES: dict[str, type] = {
    "ask": _intents.Ask,
    "answer": _intents.Answer,
    "go_fish": _intents.GoFish,
    "lucky": _intents.Lucky,
    "book": _intents.Book,
    "out_of_cards": _intents.OutOfCards,
    "hand_count": _intents.HandCount,
    "query": _intents.Query,
    "undo": _intents.Undo,
    "correct": _intents.Correct,
    "yes": _intents.Yes,
    "no": _intents.No,
    "control": _intents.Control,
}

# Slots that are not fields of the intent but are combined into one: rank + suit -> card.
_EXTRA_SLOTS = {"ask": {"suit"}}
_RANK_SLOTS = {"rank", "_rank", "_wrong"}


class VocabularyError(TemplateError):
    """A vocabulary file that is not well formed (bad YAML, unknown list or rule, bad slot)."""

    code = "bad-vocabulary"


@dataclass(frozen=True)
class ListValue:
    """One entry of a list: the word sequences that say it, the value it stands for, and a cost."""

    words: tuple[tuple[str, ...], ...]
    out: Any
    cost: float = 0.0


@dataclass(frozen=True)
class WordList:
    """A slot list. ``runtime`` lists (player names) are given at parse time; ``repeat`` lists
    match two or more values of another list ("Ana, Ben and Cho")."""

    name: str
    values: tuple[ListValue, ...] = ()
    runtime: bool = False
    repeat: str | None = None
    min: int = 1


@dataclass(frozen=True)
class Template:
    intent: str
    text: str
    expression: Expression
    slots: tuple[tuple[str, Any], ...] = ()
    cost: float = 0.0
    index: int = 0


@dataclass(frozen=True)
class Vocabulary:
    source: str
    lists: Mapping[str, WordList]
    rules: Mapping[str, Expression]
    templates: tuple[Template, ...]
    skip_words: frozenset[str]
    rewrites: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]
    sounds_like: Mapping[str, str]
    sounds_like_cost: float
    fuzzy_threshold: float
    fuzzy_base: float
    fuzzy_per_point: float
    unknown_name_cost: float
    confusable_ranks: tuple[tuple[Rank, Rank], ...]
    phases: Mapping[str, Mapping[str, float]]
    phase_drop: float
    intent_names: tuple[str, ...] = field(default=())
    typed: Mapping[str, str] = field(default_factory=dict)
    """Case-sensitive typed spellings ("As" -> "aces"), never matched as the first word."""
    steadily_confused_ranks: tuple[tuple[Rank, Rank], ...] = ()
    """Rank words a recogniser hears one as the other so steadily that two hearings agreeing prove
    nothing between them (see vocabulary.yaml)."""
    ranks_heard_alike: tuple[tuple[Rank, Rank], ...] = ()
    """Rank words close in sound that the recogniser checks against its other readings, like
    ``confusable_ranks``, without the language layer taking either as a rival (see vocabulary.yaml)."""
    ranks_checked: tuple[tuple[Rank, Rank], ...] = ()
    """Rank words heard one for the other with no trace of the other: asks, books and corrections
    naming them are checked however the hearings agree (see vocabulary.yaml)."""
    ranks_heard_by_both: tuple[tuple[Rank, Rank], ...] = ()
    """Rank words some voice's said one is read as the other by both decoders (see vocabulary.yaml)."""

    @functools.cached_property
    def typed_pattern(self) -> "re.Pattern[str]":
        words = sorted(self.typed, key=len, reverse=True)
        return re.compile(r"(?<![\w'])(?:" + "|".join(map(re.escape, words)) + r")(?![\w'])")

    @classmethod
    def from_yaml(cls, text: str, source: str = "<string>") -> "Vocabulary":
        """Load and check a vocabulary from YAML text.

        :raises VocabularyError: naming ``source``, the intent and the template on any problem.
        """
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise VocabularyError(f"{source}: not valid YAML: {exc}") from None
        if not isinstance(data, dict):
            raise VocabularyError(f"{source}: expected a mapping at the top level")
        return _build(data, source)

    def phase_cost(self, phase: str, intent_name: str) -> float:
        table = self.phases.get(phase)
        if table is None:
            return 0.0
        return float(table.get(intent_name, table.get("default", 0.0)))

    def confused_with(self, rank: Rank) -> tuple[Rank, ...]:
        """The ranks a recogniser confuses with ``rank`` (``confusable_ranks``), in the file's order."""
        return _partners(rank, self.confusable_ranks)

    def heard_alike(self, rank: Rank) -> tuple[Rank, ...]:
        """The ranks whose words sound close to ``rank``'s (``ranks_heard_alike``), in the file's order."""
        return _partners(rank, self.ranks_heard_alike)

    def checked_with(self, rank: Rank) -> tuple[Rank, ...]:
        """The ranks heard for ``rank`` with no trace of it (``ranks_checked``), in the file's order: none
        when asks, books and corrections naming ``rank`` need no check for that."""
        return _partners(rank, self.ranks_checked)

    def mistakable(self, rank: Rank) -> bool:
        """Whether ``rank`` is one of a pair of ranks heard for one another (``ranks_checked``,
        ``ranks_heard_alike``, ``steadily_confused_ranks``: fives/nines, kings/queens, sixes/tens)."""
        return bool(_partners(rank, (*self.ranks_checked, *self.ranks_heard_alike, *self.steadily_confused_ranks)))

    def heard_for(self, rank: Rank) -> tuple[Rank, ...]:
        """The ranks a recogniser has heard as ``rank`` with no trace of them in any reading, both
        decoders agreeing (``ranks_checked``, ``ranks_heard_alike``, ``ranks_heard_by_both``, and the
        ranks steadily heard as it, ``steadily_confused_ranks``), in the file's order: the open
        decoder's readings agreeing prove nothing between ``rank`` and these."""
        steady = tuple(said for said, heard_as in self.steadily_confused_ranks if heard_as is rank)
        return tuple(dict.fromkeys((*self.checked_with(rank), *self.heard_alike(rank),
                                    *_partners(rank, self.ranks_heard_by_both), *steady)))

    def single_words(self, name: str) -> frozenset[str]:
        """The words that say ``name`` on their own: the one-word sentences of the intent ``name``
        and the one-word options of the rule ``name`` ("yes", "yeah", "sure" ...).

        One vocabulary feeds everything: the table reads its "yes" and "no" words from here.

        >>> sorted(load_vocabulary().single_words("no") & load_vocabulary().single_words("nope"))
        ['nah', 'no', 'nope']
        """
        exprs = [t.expression for t in self.templates if t.intent == name]
        if name in self.rules:
            exprs.append(self.rules[name])
        out: set[str] = set()
        for expr in exprs:
            out |= _one_word_phrases(expr, self.rules)
        return frozenset(out)

    def values_of(self, list_name: str) -> tuple[ListValue, ...]:
        """The fixed values of a list, a union's included."""
        return self.lists[list_name].values


def _one_word_phrases(expr: Expression, rules: Mapping[str, Expression], depth: int = 0) -> set[str]:
    """The one-word phrases ``expr`` can say (rule references followed; a slot is never one word
    here, as its values are not fixed words of the sentence)."""
    if depth > 20:
        return set()
    if isinstance(expr, Word):
        return {expr.text} if len(expr.text.split()) == 1 else set()
    if isinstance(expr, RuleRef):
        return _one_word_phrases(rules[expr.name], rules, depth + 1) if expr.name in rules else set()
    if isinstance(expr, Alt):
        return set().union(*(_one_word_phrases(o, rules, depth + 1) for o in expr.options))
    if isinstance(expr, Seq) and len(expr.items) == 1:
        return _one_word_phrases(expr.items[0], rules, depth + 1)
    return set()  # a sequence says two words or more ("yes please"); an optional part is not followed


@functools.lru_cache(maxsize=8)
def _load(path: str) -> Vocabulary:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise VocabularyError(f"{path}: can't read the vocabulary: {exc}") from None
    return Vocabulary.from_yaml(text, source=path)


def load_vocabulary(path: str | Path | None = None) -> Vocabulary:
    """The vocabulary in ``path`` (``vocabulary.yaml`` next to this module by default), cached."""
    return _load(str(path or DEFAULT_PATH))


# --------------------------------------------------------------------------------------------
# building and checking


def _words(text: Any, source: str, where: str) -> tuple[str, ...]:
    if isinstance(text, bool):
        raise VocabularyError(f"{source}: {where}: {text!r} was read as a YAML boolean: quote it (\"yes\", \"no\")")
    if not isinstance(text, (str, int)):
        raise VocabularyError(f"{source}: {where}: expected a word, got {text!r}")
    words = tuple(str(text).lower().split())
    for word in words:
        if not all(ch.isalnum() or ch == "'" for ch in word):
            raise VocabularyError(f"{source}: {where}: {word!r} is not a plain lowercase word")
    if not words:
        raise VocabularyError(f"{source}: {where}: empty word")
    return words


def _build_lists(raw: Any, source: str) -> dict[str, WordList]:
    if not isinstance(raw, dict):
        raise VocabularyError(f"{source}: `lists` must be a mapping")
    lists: dict[str, WordList] = {}
    unions: dict[str, list[str]] = {}
    for name, spec in raw.items():
        where = f"list {name!r}"
        if isinstance(spec, list):
            values = []
            for i, entry in enumerate(spec):
                if not isinstance(entry, dict) or "in" not in entry or "out" not in entry:
                    raise VocabularyError(f"{source}: {where}, entry {i}: write {{in: [...], out: VALUE}}")
                ins = entry["in"] if isinstance(entry["in"], list) else [entry["in"]]
                words = tuple(_words(w, source, where) for w in ins)
                values.append(ListValue(words, entry["out"], float(entry.get("cost", 0.0))))
            lists[name] = WordList(name, tuple(values))
        elif isinstance(spec, dict) and spec.get("runtime"):
            lists[name] = WordList(name, runtime=True)
        elif isinstance(spec, dict) and "union" in spec:
            unions[name] = list(spec["union"])
        elif isinstance(spec, dict) and "repeat" in spec:
            lists[name] = WordList(name, repeat=str(spec["repeat"]), min=int(spec.get("min", 1)))
        else:
            raise VocabularyError(f"{source}: {where}: expected entries, `runtime`, `union` or `repeat`")
    for name, members in unions.items():
        values = []
        for member in members:
            if member not in lists or lists[member].runtime or lists[member].repeat:
                raise VocabularyError(f"{source}: list {name!r}: union member {member!r} is not a fixed list")
            values.extend(lists[member].values)
        lists[name] = WordList(name, tuple(values))
    for name, wl in lists.items():
        if wl.repeat and (wl.repeat not in lists or lists[wl.repeat].repeat):
            raise VocabularyError(f"{source}: list {name!r} repeats unknown list {wl.repeat!r}")
    return lists


def _walk(expr: Expression):  # type: ignore[no-untyped-def]
    yield expr
    if isinstance(expr, Seq):
        for item in expr.items:
            yield from _walk(item)
    elif isinstance(expr, Alt):
        for option in expr.options:
            yield from _walk(option)


def _check_rules(rules: dict[str, Expression], source: str) -> None:
    def visit(name: str, stack: tuple[str, ...]) -> None:
        if name in stack:
            raise VocabularyError(f"{source}: rule <{name}> refers to itself ({' -> '.join(stack + (name,))})")
        for node in _walk(rules[name]):
            if isinstance(node, RuleRef):
                if node.name not in rules:
                    raise VocabularyError(f"{source}: rule <{name}> uses unknown rule <{node.name}>")
                visit(node.name, stack + (name,))

    for name in rules:
        visit(name, ())


def _expanded_nodes(expr: Expression, rules: Mapping[str, Expression]):  # type: ignore[no-untyped-def]
    for node in _walk(expr):
        if isinstance(node, RuleRef) and node.name in rules:
            yield from _expanded_nodes(rules[node.name], rules)
        else:
            yield node


def _guaranteed_slots(expr: Expression) -> set[str]:
    """The slots every sentence of ``expr`` fills (rules hold no slots)."""
    if isinstance(expr, Slot):
        return {expr.slot}
    if isinstance(expr, Seq):
        out: set[str] = set()
        for item in expr.items:
            out |= _guaranteed_slots(item)
        return out
    if isinstance(expr, Alt):
        sets = [_guaranteed_slots(o) for o in expr.options]
        return set.intersection(*sets) if sets else set()
    return set()


def _partners(rank: Rank, pairs: tuple[tuple[Rank, Rank], ...]) -> tuple[Rank, ...]:
    """The other rank of each of ``pairs`` that holds ``rank``, in the pairs' order."""
    return tuple(b if rank is a else a for a, b in pairs if rank in (a, b))


def _build(data: dict[str, Any], source: str) -> Vocabulary:
    lists = _build_lists(data.get("lists", {}), source)

    rules: dict[str, Expression] = {}
    for name, text in (data.get("rules") or {}).items():
        if not isinstance(name, str):
            raise VocabularyError(f"{source}: rule name {name!r} was not read as text: quote it (\"yes\", \"no\")")
        try:
            rules[name] = parse_template(str(text))
        except TemplateError as exc:
            raise VocabularyError(f"{source}: rule <{name}>: {exc}") from None
    _check_rules(rules, source)
    for name, expr in rules.items():
        for node in _walk(expr):
            if isinstance(node, Slot):
                raise VocabularyError(f"{source}: rule <{name}> holds slot {{{node.list_name}}}: slots go in templates")

    templates: list[Template] = []
    raw_intents = data.get("intents")
    if not isinstance(raw_intents, dict) or not raw_intents:
        raise VocabularyError(f"{source}: `intents` must be a non-empty mapping")
    for intent, groups in raw_intents.items():
        intent = str(intent)
        if intent not in INTENT_CLASSES:
            raise VocabularyError(f"{source}: unknown intent {intent!r}; one of {', '.join(INTENT_CLASSES)}")
        cls = INTENT_CLASSES[intent]
        field_names = {f.name for f in fields(cls) if f.name != "type"}
        required = {f.name for f in fields(cls) if f.name != "type" and f.default is MISSING}
        allowed = field_names | _EXTRA_SLOTS.get(intent, set())
        if not isinstance(groups, list):
            raise VocabularyError(f"{source}: intent {intent!r}: expected a list of sentence groups")
        for group in groups:
            if not isinstance(group, dict) or not isinstance(group.get("sentences"), list):
                raise VocabularyError(f"{source}: intent {intent!r}: each group needs `sentences:`")
            fixed = dict(group.get("slots") or {})
            for key, value in fixed.items():
                if key not in field_names:
                    raise VocabularyError(f"{source}: intent {intent!r}: fixed slot {key!r} is not a slot of {cls.__name__}")
            if intent == "query" and fixed.get("what") not in _intents.QUERY_KINDS:
                raise VocabularyError(f"{source}: intent 'query': `what` must be one of {_intents.QUERY_KINDS}")
            if intent == "control" and fixed.get("what") not in _intents.CONTROL_KINDS:
                raise VocabularyError(f"{source}: intent 'control': `what` must be one of {_intents.CONTROL_KINDS}")
            cost = float(group.get("cost", 0.0))
            for text in group["sentences"]:
                where = f"{source}: intent {intent!r}, template {text!r}"
                try:
                    expr = parse_template(str(text))
                except TemplateError as exc:
                    raise VocabularyError(f"{where}: {exc}") from None
                for node in _expanded_nodes(expr, rules):
                    if isinstance(node, RuleRef) and node.name not in rules:  # pragma: no cover
                        raise VocabularyError(f"{where}: unknown rule <{node.name}>")
                    if isinstance(node, Slot):
                        if node.list_name not in lists:
                            raise VocabularyError(f"{where}: unknown list {{{node.list_name}}}; lists are {', '.join(lists)}")
                        if not node.slot.startswith("_") and node.slot not in allowed:
                            raise VocabularyError(f"{where}: {cls.__name__} has no slot {node.slot!r}")
                        if node.slot in _RANK_SLOTS:
                            for value in lists[node.list_name].values:
                                try:
                                    Rank.from_symbol(str(value.out))
                                except ValueError:
                                    raise VocabularyError(f"{where}: list {node.list_name!r} value {value.out!r} is not a rank") from None
                for node in _walk(expr):
                    if isinstance(node, RuleRef) and node.name not in rules:
                        raise VocabularyError(f"{where}: unknown rule <{node.name}>; rules are {', '.join(rules)}")
                missing = required - _guaranteed_slots(expr) - set(fixed)
                if missing:
                    raise VocabularyError(f"{where}: {cls.__name__} needs slot(s) {', '.join(sorted(missing))} in every sentence")
                templates.append(Template(intent, str(text), expr, tuple(fixed.items()), cost, len(templates)))

    skip = frozenset(w for item in data.get("skip_words", []) for w in _words(item, source, "skip_words"))
    rewrites = tuple(
        (_words(k, source, "rewrites"), _words(v, source, "rewrites")) for k, v in (data.get("rewrites") or {}).items()
    )
    sounds = data.get("sounds_like") or {}
    names = data.get("names") or {}
    def rank_pairs(key: str) -> list[tuple[Rank, Rank]]:
        out: list[tuple[Rank, Rank]] = []
        for pair in data.get(key) or []:
            try:
                a, b = (Rank.from_symbol(str(x)) for x in pair)
            except (ValueError, TypeError):
                raise VocabularyError(f"{source}: {key}: {pair!r} is not a pair of rank symbols") from None
            out.append((a, b))
        return out

    confusable = rank_pairs("confusable_ranks")
    steady = rank_pairs("steadily_confused_ranks")
    alike = rank_pairs("ranks_heard_alike")
    checked = rank_pairs("ranks_checked")
    both = rank_pairs("ranks_heard_by_both")
    raw_phases = dict(data.get("phases") or {})
    drop = float(raw_phases.pop("drop", 1.5))
    phases: dict[str, dict[str, float]] = {}
    for phase, table in raw_phases.items():
        if not isinstance(table, dict):
            raise VocabularyError(f"{source}: phase {phase!r}: expected a mapping of intent: cost")
        for key in table:
            if key != "default" and str(key) not in INTENT_CLASSES:
                raise VocabularyError(f"{source}: phase {phase!r}: unknown intent {key!r}")
        phases[str(phase)] = {str(k): float(v) for k, v in table.items()}

    return Vocabulary(
        source=source,
        lists=lists,
        rules=rules,
        templates=tuple(templates),
        skip_words=skip,
        rewrites=rewrites,
        sounds_like={str(k).lower(): str(v).lower() for k, v in (sounds.get("words") or {}).items()},
        sounds_like_cost=float(sounds.get("cost", 0.6)),
        fuzzy_threshold=float(names.get("fuzzy_threshold", 80)),
        fuzzy_base=float(names.get("fuzzy_base", 0.3)),
        fuzzy_per_point=float(names.get("fuzzy_per_point", 0.03)),
        unknown_name_cost=float(names.get("unknown_cost", 2.5)),
        confusable_ranks=tuple(confusable),
        steadily_confused_ranks=tuple(steady),
        ranks_heard_alike=tuple(alike),
        ranks_checked=tuple(checked),
        ranks_heard_by_both=tuple(both),
        phases=phases,
        phase_drop=drop,
        intent_names=tuple(dict.fromkeys(t.intent for t in templates)),
        typed={str(k): str(v).lower() for k, v in (data.get("typed") or {}).items()},
    )
