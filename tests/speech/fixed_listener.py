"""A second listener for the speech tests that says fixed words, standing in for Moonshine where a test fixes what
the second model heard (the rules that weigh its words), never where a test measures hearing."""

from __future__ import annotations


class Says:
    """A second listener that says fixed words (and counts how often it was asked)."""

    name = "says"

    def __init__(self, text: str) -> None:
        self.text = text
        self.calls = 0
        self.last_ms = 1.0

    def transcribe(self, utterance) -> str:
        self.calls += 1
        return self.text
