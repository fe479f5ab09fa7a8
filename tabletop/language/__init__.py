"""The language layer: words to intents, and the recogniser grammars, from one vocabulary.

``vocabulary.yaml`` holds every phrasing as templates; :mod:`parser` matches text against them,
:mod:`grammar` compiles them into a PocketSphinx JSGF grammar and a Vosk phrase list, and
:mod:`understand` picks the reading that makes sense in the game's :class:`Context`.
This package never imports audio, speech or vision modules.
"""

from tabletop.language.context import Context
from tabletop.language.grammar import jsgf, sample_sentences, vosk_phrases, words
from tabletop.language.parser import Parse, Parser, parse, parse_candidates
from tabletop.language.transcript import Alternative, Transcript
from tabletop.language.vocabulary import TemplateError, Vocabulary, VocabularyError, load_vocabulary

__all__ = [
    "Alternative",
    "Context",
    "Parse",
    "Parser",
    "TemplateError",
    "Transcript",
    "Vocabulary",
    "VocabularyError",
    "jsgf",
    "load_vocabulary",
    "parse",
    "parse_candidates",
    "sample_sentences",
    "vosk_phrases",
    "words",
]
