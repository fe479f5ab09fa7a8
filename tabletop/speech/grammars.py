"""Where recognisers get their grammars: the language layer, the one source of the vocabulary.

``jsgf(players, context)`` and ``vosk_phrases(players, context)`` come from
:mod:`tabletop.language.grammar`. Speech never writes its own phrasings.
"""

from __future__ import annotations

from typing import Any, Sequence

__all__ = ["jsgf", "vosk_phrases", "parse_intent"]


def _grammar_module() -> Any:
    from tabletop.language import grammar

    return grammar


def jsgf(players: Sequence[str], context: Any = None) -> str:
    """The JSGF grammar (public rule ``<command>``) for these players, narrowed by ``context``."""
    return str(_grammar_module().jsgf(list(players), context))


def vosk_phrases(players: Sequence[str], context: Any = None) -> list[str]:
    """The Vosk runtime grammar: phrases, including "[unk]"."""
    return list(_grammar_module().vosk_phrases(list(players), context))


def parse_intent(text: str, players: Sequence[str]) -> Any:
    """The intent the language layer reads in ``text`` (None for none): used to compare decoders."""
    if not text.strip():
        return None
    from tabletop.language import parse

    result = parse(text, list(players))
    intent = getattr(result, "intent", result)
    return intent
