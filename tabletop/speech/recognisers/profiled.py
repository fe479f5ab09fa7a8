"""Hearing each player with their own voice profile: the player the game expects to speak.

A game knows who should speak next: the asked player answers ("yes, two", "go fish"), the
current player asks and calls lucky fish or books. :class:`SpeakerProfiles` keeps one embedded
recogniser per enrolled player (and one with the bundled model) and hears each utterance with
the recogniser of the player the context expects; when nobody in particular is expected
(a confirmation, no game context) or that player has no profile, the bundled model hears it.

One decoder pass per utterance, as without profiles. ``tests/bench/enrollment.py`` measured the
alternatives on real recordings: a table-wide model adapted to all enrolled players pooled, and
one recogniser per player with the best path score winning (seven times the decode time), both
heard the FSDD speaker worse than their own profile did (80.0% and 81.1% against 87.8%; 81.1%
with no profile).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from tabletop.language.transcript import Transcript
from tabletop.speech.audio import Utterance

__all__ = ["SpeakerProfiles", "expected_speaker"]

# Phases where the asked player speaks; in the others the current player does.
_TARGET_SPEAKS = ("answer", "count")
_CURRENT_SPEAKS = ("ask", "after_hit", "after_miss")


def expected_speaker(context: Any) -> str | None:
    """The player the game expects to speak now, or None when it could be anyone."""
    phase = getattr(context, "phase", None)
    if phase in _TARGET_SPEAKS:
        return getattr(context, "target", None)
    if phase in _CURRENT_SPEAKS:
        return getattr(context, "asker", None) or getattr(context, "current", None)
    return None


class SpeakerProfiles:
    """PocketSphinx with the expected speaker's profile (``acoustics``: player -> decoder options)."""

    name = "pocketsphinx"

    def __init__(self, players: Sequence[str], acoustics: Mapping[str, Mapping[str, str]], **options: Any) -> None:
        from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

        self.players = tuple(players)
        self.bundled = PocketSphinxRecogniser(self.players, **options)
        self.by_player = {
            name.casefold(): PocketSphinxRecogniser(self.players, acoustic=dict(acoustic), **options)
            for name, acoustic in acoustics.items()
        }

    def for_context(self, context: Any) -> Any:
        """The recogniser that hears in this context."""
        speaker = expected_speaker(context)
        if speaker is not None:
            return self.by_player.get(speaker.casefold(), self.bundled)
        return self.bundled

    def hear(self, utterance: Utterance, context: Any = None, players: Sequence[str] | None = None) -> Transcript:
        return self.for_context(context).hear(utterance, context, players)

    def stream(self, context: Any = None, players: Sequence[str] | None = None, live: bool = True) -> Any:
        return self.for_context(context).stream(context, players, live)

    def warm_up(self, context: Any = None, players: Sequence[str] | None = None) -> None:
        for recogniser in (self.bundled, *self.by_player.values()):
            recogniser.warm_up(context, players)
