"""Text normalisation shared by the parser and the grammar: case, punctuation, digits, contractions.

>>> normalise("Ben — got any 7's?")
('ben', 'got', 'any', 'sevens')
>>> normalise("What's the score?!")
("what's", 'the', 'score')
>>> normalise("[unk] go fish")
('go', 'fish')
>>> normalise("José, got any As?")
('jose', 'got', 'any', 'aces')

Letters of any alphabet are written in ASCII (anyascii: "Zoë" -> "zoe", "Мария" -> "mariya"), so
a name typed with or without its accents, and the recognisers' ASCII words for it, all match.
"""

from __future__ import annotations

import re
import unicodedata

from anyascii import anyascii

from tabletop.cards import Rank
from tabletop.language.vocabulary import Vocabulary, load_vocabulary

__all__ = ["normalise", "MAX_TOKENS"]

MAX_TOKENS = 40

_DIGIT_WORDS = {
    "1": ("one", "ones"), "2": ("two", "twos"), "3": ("three", "threes"), "4": ("four", "fours"),
    "5": ("five", "fives"), "6": ("six", "sixes"), "7": ("seven", "sevens"), "8": ("eight", "eights"),
    "9": ("nine", "nines"), "10": ("ten", "tens"), "0": ("zero", "zeros"), "11": ("eleven", "elevens"),
    "12": ("twelve", "twelves"), "13": ("thirteen", "thirteens"),
}
_DIGITS = re.compile(r"(?<![\w'])(1[0-3]|[0-9])(?:'?s)?(?![\w'])")
_DASHES = re.compile(r"[\u2010-\u2015\u2212\-_/]+")
_APOSTROPHES = re.compile(r"[\u2018\u2019\u02bc`´]")
_NOT_WORD = re.compile(r"[^a-z0-9'\s]+")
_UNKNOWN = re.compile(r"\[unk\]|<unk>|\[noise\]|\[laughter\]|<sil>|</?s>")


def _digit(match: re.Match[str]) -> str:
    number = match.group(1)
    plural = match.group(0) != number
    singular, many = _DIGIT_WORDS[number]
    return f" {many if plural else singular} "


def normalise(text: str, vocabulary: Vocabulary | None = None) -> tuple[str, ...]:
    """Lowercase words with punctuation removed, digits spelled, contractions rewritten.

    Never raises; returns an empty tuple for text with no words.
    """
    vocab = vocabulary or load_vocabulary()
    if not isinstance(text, str):
        return ()
    text = unicodedata.normalize("NFKC", text)
    text = _typed(text, vocab)
    if not text.isascii():
        text = anyascii(text)
    text = text.lower()
    text = _UNKNOWN.sub(" ", text)  # recognisers' markers for what they could not read
    text = _APOSTROPHES.sub("'", text)
    text = _DASHES.sub(" ", text)
    text = _DIGITS.sub(_digit, text)
    text = _NOT_WORD.sub(" ", text)
    words = []
    for word in text.split():
        word = word.strip("'")
        if word:
            words.append(word)
    words = words[: MAX_TOKENS + 1]
    return _rewrite(tuple(words), vocab)


def _typed(text: str, vocab: Vocabulary) -> str:
    """The vocabulary's ``typed`` spellings, matched with their case and never as the first word
    ("Ben, got any As?" -> aces; "As I said" and "as" stay)."""
    if not vocab.typed:
        return text

    def swap(match: re.Match[str]) -> str:
        before = text[: match.start()]
        return f" {vocab.typed[match.group(0)]} " if re.search(r"\w", before) else match.group(0)

    return vocab.typed_pattern.sub(swap, text)


def _rewrite(words: tuple[str, ...], vocab: Vocabulary) -> tuple[str, ...]:
    if not vocab.rewrites:
        return words
    out: list[str] = []
    i = 0
    while i < len(words):
        for source, target in vocab.rewrites:
            if words[i : i + len(source)] == source:
                out.extend(target)
                i += len(source)
                break
        else:
            out.append(words[i])
            i += 1
    return tuple(out)


def rank_word(rank: Rank, count: int = 2) -> str:
    """The spoken word for a rank: "seven" or "sevens"."""
    return rank.spoken(count)
