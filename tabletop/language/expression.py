"""Sentence templates: the node types and the template parser.

>>> parse_template("{player:target} [do you have] (any|some) {rank}")  # doctest: +ELLIPSIS
Seq(items=(Slot(list_name='player', slot='target'), Alt(...), Alt(...), Slot(list_name='rank', slot='rank')))
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

from tabletop.errors import InvalidInputError

__all__ = ["Word", "Slot", "RuleRef", "Seq", "Alt", "Expression", "TemplateError", "parse_template", "EMPTY"]


class TemplateError(InvalidInputError):
    """A sentence template that can't be parsed or refers to something unknown.

    The message names the vocabulary file, the intent and the template.
    """

    code = "bad-template"


@dataclass(frozen=True)
class Word:
    text: str


@dataclass(frozen=True)
class Slot:
    list_name: str
    slot: str


@dataclass(frozen=True)
class RuleRef:
    name: str


@dataclass(frozen=True)
class Seq:
    items: tuple["Expression", ...]


@dataclass(frozen=True)
class Alt:
    options: tuple["Expression", ...]


Expression = Union[Word, Slot, RuleRef, Seq, Alt]
EMPTY = Seq(())

_TOKEN = re.compile(r"\s*(?:(?P<word>[a-z0-9']+)|(?P<slot>\{[^{}]*\})|(?P<rule><[^<>]*>)|(?P<sym>[()\[\]|]))")
_SLOT = re.compile(r"\{([a-z_][a-z0-9_]*)(?::([a-z_][a-z0-9_]*))?\}")
_RULE = re.compile(r"<([a-z_][a-z0-9_]*)>")


def parse_template(template: str) -> Expression:
    """Parse one template into an expression tree.

    :raises TemplateError: on a syntax error (unbalanced brackets, a bad slot, an unknown character).
    """
    tokens = _tokenise(template)
    expr, pos = _parse_alt(tokens, 0, template)
    if pos != len(tokens):
        raise TemplateError(f"unexpected {tokens[pos]!r} in template {template!r}")
    return expr


def _tokenise(template: str) -> list[str]:
    tokens: list[str] = []
    pos = 0
    text = template.rstrip()
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if not match:
            raise TemplateError(f"unexpected character {text[pos:].strip()[:1]!r} in template {template!r}")
        tokens.append(match.group(match.lastgroup or "word"))
        pos = match.end()
    return tokens


def _parse_alt(tokens: list[str], pos: int, template: str) -> tuple[Expression, int]:
    options: list[Expression] = []
    seq, pos = _parse_seq(tokens, pos, template)
    options.append(seq)
    while pos < len(tokens) and tokens[pos] == "|":
        seq, pos = _parse_seq(tokens, pos + 1, template)
        options.append(seq)
    if len(options) == 1:
        return options[0], pos
    return Alt(tuple(options)), pos


def _parse_seq(tokens: list[str], pos: int, template: str) -> tuple[Expression, int]:
    items: list[Expression] = []
    while pos < len(tokens) and tokens[pos] not in ("|", ")", "]"):
        token = tokens[pos]
        if token in ("(", "["):
            close = ")" if token == "(" else "]"
            inner, pos = _parse_alt(tokens, pos + 1, template)
            if pos >= len(tokens) or tokens[pos] != close:
                raise TemplateError(f"missing {close!r} in template {template!r}")
            pos += 1
            if close == "]":
                options = inner.options if isinstance(inner, Alt) else (inner,)
                inner = Alt(tuple(options) + (EMPTY,))
            items.append(inner)
        elif token.startswith("{"):
            match = _SLOT.fullmatch(token)
            if not match:
                raise TemplateError(f"bad slot {token!r} in template {template!r} (write {{list}} or {{list:slot}})")
            items.append(Slot(match.group(1), match.group(2) or match.group(1)))
            pos += 1
        elif token.startswith("<"):
            match = _RULE.fullmatch(token)
            if not match:
                raise TemplateError(f"bad rule reference {token!r} in template {template!r}")
            items.append(RuleRef(match.group(1)))
            pos += 1
        else:
            items.append(Word(token))
            pos += 1
    if len(items) == 1:
        return items[0], pos
    return Seq(tuple(items)), pos
