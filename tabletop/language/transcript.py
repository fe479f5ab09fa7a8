"""What a recogniser heard, as text: the only thing the language layer takes from speech.

A recogniser returns a :class:`Transcript`: its best text, alternatives with confidences, and
per-word confidences where the engine gives them. Typed input is a Transcript with confidence 1.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Alternative", "Transcript"]


@dataclass(frozen=True)
class Alternative:
    text: str
    confidence: float


@dataclass(frozen=True)
class Transcript:
    """Best text first; ``alternatives`` includes it as its first entry when the engine gives an n-best list."""

    text: str
    confidence: float = 1.0
    alternatives: tuple[Alternative, ...] = ()
    words: tuple[tuple[str, float], ...] = ()
    engine: str = "text"
    decode_ms: float = 0.0
    agreed: tuple[tuple[str, str], ...] = ()
    """The slot values ("rank", "7") a second, independent model (Moonshine) heard in the same audio
    as this reading gives them: set by the speech layer, read by the table without touching audio."""
    heard_open: tuple[str, ...] = ()
    """What an open decoder, listening for any words (no grammar), heard in the same audio: its
    readings, best first (PocketSphinx's open loop; empty where the engine has none, and for typed
    text). A second hearing the table may weigh, e.g. whether a yes or a no was said at all."""
    rescued: bool = False
    """The reading is a grammar reading the open decoder did not back at all, kept because its words
    fit the sound (PocketSphinx's ``trace["rescued"]``): capped below acting, and never taken as
    backed by anything the open decoder heard."""

    @classmethod
    def typed(cls, text: str) -> "Transcript":
        return cls(text=text, confidence=1.0, alternatives=(Alternative(text, 1.0),), engine="text")

    def candidates(self) -> tuple[Alternative, ...]:
        """Every hypothesis, best first (the best text alone when there is no n-best list)."""
        return self.alternatives or (Alternative(self.text, self.confidence),)
