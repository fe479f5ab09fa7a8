"""A small reader for the JSGF the language layer writes: its words and sample sentences.

The recognisers take their grammar from the language layer as JSGF text; the chatter
rejector needs an n-gram model over the same sentences, so it samples them from that text.
Supports what grammars for commands use: alternatives ``|``, groups ``( )``, optionals
``[ ]``, rule references, weights ``/w/``, tags ``{ }``, and ``*`` / ``+``.

>>> g = "#JSGF V1.0; grammar t; <r> = seven | eight; public <c> = [ben] (any | some) <r>;"
>>> sorted(vocabulary(g))
['any', 'ben', 'eight', 'seven', 'some']
>>> sample(g, 2, seed=1)[0].split()[-1] in ('seven', 'eight')
True
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from tabletop.errors import InvalidInputError

__all__ = ["Grammar", "parse", "vocabulary", "sample"]

_TOKEN = re.compile(
    r"\s*(?:(?P<ref><[^>]+>)|(?P<weight>/[^/]+/)|(?P<tag>\{[^}]*\})|(?P<op>[|()\[\]*+])|(?P<word>\"[^\"]*\"|[^\s|()\[\]*+<>/{};]+))"
)


@dataclass
class Grammar:
    rules: dict[str, object]
    public: list[str]


def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def parse(text: str) -> Grammar:
    """Parse JSGF into rules: each a nested tuple ("alt", [...]) / ("seq", [...]) / ("opt", x) /
    ("rep", x, min) / ("ref", name) / ("word", w).

    :raises InvalidInputError: on text that is not the JSGF subset above.
    """
    body = _strip_comments(text)
    rules: dict[str, object] = {}
    public: list[str] = []
    for statement in body.split(";"):
        statement = statement.strip()
        if not statement or statement.startswith(("#JSGF", "grammar ", "import ")):
            continue
        m = re.match(r"(public\s+)?<([^>]+)>\s*=\s*(.*)\Z", statement, flags=re.S)
        if not m:
            raise InvalidInputError(f"JSGF statement not understood: {statement[:60]!r}")
        name = m.group(2)
        rules[name] = _Parser(m.group(3)).parse()
        if m.group(1):
            public.append(name)
    if not public:
        raise InvalidInputError("JSGF grammar has no public rule")
    return Grammar(rules, public)


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens: list[tuple[str, str]] = []
        pos = 0
        text = text.strip()
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m or m.end() == pos:
                if text[pos:].strip() == "":
                    break
                raise InvalidInputError(f"JSGF expansion not understood near {text[pos:pos + 30]!r}")
            pos = m.end()
            kind = m.lastgroup or ""
            self.tokens.append((kind, m.group(kind)))
        self.i = 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def parse(self) -> object:
        node = self.alternatives()
        if self.peek() is not None:
            raise InvalidInputError(f"JSGF: unexpected {self.peek()[1]!r}")  # type: ignore[index]
        return node

    def alternatives(self) -> object:
        options = [self.sequence()]
        while (t := self.peek()) is not None and t == ("op", "|"):
            self.i += 1
            options.append(self.sequence())
        return options[0] if len(options) == 1 else ("alt", options)

    def sequence(self) -> object:
        items: list[object] = []
        while (t := self.peek()) is not None:
            kind, value = t
            if kind == "weight" or kind == "tag":
                self.i += 1
                continue
            if kind == "op" and value in "|)]":
                break
            self.i += 1
            if kind == "ref":
                node: object = ("ref", value[1:-1])
            elif kind == "word":
                node = ("word", value.strip('"').lower())
            elif value == "(":
                node = self.alternatives()
                self._expect(")")
            elif value == "[":
                node = ("opt", self.alternatives())
                self._expect("]")
            else:
                raise InvalidInputError(f"JSGF: unexpected {value!r}")
            while (t := self.peek()) is not None and t[0] == "op" and t[1] in "*+":
                self.i += 1
                node = ("rep", node, 0 if t[1] == "*" else 1)
            items.append(node)
        return items[0] if len(items) == 1 else ("seq", items)

    def _expect(self, op: str) -> None:
        t = self.peek()
        if t != ("op", op):
            raise InvalidInputError(f"JSGF: expected {op!r}")
        self.i += 1


def _words(node: object, out: set[str]) -> None:
    kind = node[0]  # type: ignore[index]
    if kind == "word":
        for w in node[1].split():  # type: ignore[index]
            out.add(w)
    elif kind in ("alt", "seq"):
        for child in node[1]:  # type: ignore[index]
            _words(child, out)
    elif kind in ("opt", "rep"):
        _words(node[1], out)  # type: ignore[index]


def vocabulary(text: str | Grammar) -> set[str]:
    """Every word any rule of the grammar can emit."""
    grammar = parse(text) if isinstance(text, str) else text
    out: set[str] = set()
    for node in grammar.rules.values():
        _words(node, out)
    out.discard("<null>")
    out.discard("<void>")
    return out


def _expand(node: object, grammar: Grammar, rng: random.Random, depth: int = 0) -> list[str]:
    if depth > 40:
        return []
    kind = node[0]  # type: ignore[index]
    if kind == "word":
        w = node[1]  # type: ignore[index]
        return [] if w in ("<null>",) else w.split()
    if kind == "ref":
        name = node[1]  # type: ignore[index]
        if name in ("NULL", "VOID"):
            return []
        if name not in grammar.rules:
            raise InvalidInputError(f"JSGF: rule <{name}> is not defined")
        return _expand(grammar.rules[name], grammar, rng, depth + 1)
    if kind == "alt":
        return _expand(rng.choice(node[1]), grammar, rng, depth + 1)  # type: ignore[index]
    if kind == "seq":
        out: list[str] = []
        for child in node[1]:  # type: ignore[index]
            out += _expand(child, grammar, rng, depth + 1)
        return out
    if kind == "opt":
        return _expand(node[1], grammar, rng, depth + 1) if rng.random() < 0.5 else []  # type: ignore[index]
    if kind == "rep":
        times = node[2] + (1 if rng.random() < 0.3 else 0)  # type: ignore[index]
        out = []
        for _ in range(times):
            out += _expand(node[1], grammar, rng, depth + 1)  # type: ignore[index]
        return out
    raise InvalidInputError(f"JSGF: bad node {kind!r}")


def sample(text: str | Grammar, n: int, seed: int = 0, rule: str | None = None) -> list[str]:
    """``n`` random sentences of the grammar (from its first public rule, or ``rule``)."""
    grammar = parse(text) if isinstance(text, str) else text
    start = ("ref", rule or grammar.public[0])
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        words = _expand(start, grammar, rng)
        if words:
            out.append(" ".join(words))
    return out
