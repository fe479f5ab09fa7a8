"""Where recognisers get their grammars: the language layer, the one source of the vocabulary.

``jsgf(players, context)`` and ``vosk_phrases(players, context)`` come from
:mod:`tabletop.language.grammar`. Speech never writes its own phrasings.
"""

from __future__ import annotations

import functools
from typing import Any, Sequence

__all__ = ["jsgf", "vosk_phrases", "parse_intent"]


def _grammar_module() -> Any:
    from tabletop.language import grammar

    return grammar


def _remember_names(players: Sequence[str], context: Any) -> None:
    """Tell the pronouncer how each name was written ("José" for the grammar's "jose")."""
    from tabletop.language.normalise import normalise
    from tabletop.speech.pronounce import remember_names

    names = [p for p in (players or getattr(context, "players", None) or ()) if isinstance(p, str)]
    remember_names((name, words[0]) for name in names if len(words := normalise(name)) == 1)


def jsgf(players: Sequence[str], context: Any = None) -> str:
    """The JSGF grammar (public rule ``<command>``) for these players, narrowed by ``context``."""
    _remember_names(players, context)
    try:
        return _jsgf_cached(tuple(players), context)
    except TypeError:  # an unhashable context: build it afresh
        return str(_grammar_module().jsgf(list(players), context))


@functools.lru_cache(maxsize=256)
def _jsgf_cached(players: tuple[str, ...], context: Any) -> str:
    return str(_grammar_module().jsgf(list(players), context))


def vosk_phrases(players: Sequence[str], context: Any = None) -> list[str]:
    """The Vosk runtime grammar: phrases, including "[unk]"."""
    try:
        return list(_phrases_cached(tuple(players), context))
    except TypeError:
        return list(_grammar_module().vosk_phrases(list(players), context))


@functools.lru_cache(maxsize=256)
def _phrases_cached(players: tuple[str, ...], context: Any) -> tuple[str, ...]:
    return tuple(_grammar_module().vosk_phrases(list(players), context))


def parse_intent(text: str, players: Sequence[str]) -> Any:
    """The intent the language layer reads in ``text`` (None for none): used to compare decoders."""
    if not text.strip():
        return None
    from tabletop.language import parse

    result = parse(text, list(players))
    intent = getattr(result, "intent", result)
    if intent is None:  # an answer to "Ana, which rank?": a bare slot value ("sevens")
        from tabletop.language.understand import slot_value

        return slot_value(text, tuple(players))
    return intent
