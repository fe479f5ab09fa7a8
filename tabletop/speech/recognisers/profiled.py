"""Hearing a table where some players enrolled their voices.

The game knows who should speak next: the asked player answers ("yes, two", "go fish"), the
current player asks and calls lucky fish or books; anyone may speak at other moments.
:class:`SpeakerProfiles` hears each utterance with one model, chosen by that expectation:

- "pooled" (the default): the model adapted to all the enrolled players' voices pooled; but
  the bundled model when the game expects a player who did not enroll;
- "speaker": the expected player's own profile; the pooled model when nobody in particular is
  expected; the bundled model for a player who did not enroll.

Measured with ``tests/bench/enrollment.py`` (the FSDD speaker at a table of seven enrolled real
voices, clean): own profile 97.5%, pooled 93.6%, no profile 82.8%, but someone else's profile
76.7% (worse than none: hence the bundled model for players who did not enroll). Own profile
when the game expects the right speaker, another's when it does not: "speaker" beats "pooled"
only when the expectation is right more than 81% of the time. Hearing with both the expected
speaker's and the pooled model and keeping the better path score gave 94.4% / 92.2% for twice
the decoding; one recogniser per player with the best score, 87.8% for seven times. Pooled is
the steady choice (and in 10 dB babble no way of using profiles enrolled in quiet helped).
"""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import Any, Mapping, Sequence

from tabletop.language.transcript import Transcript
from tabletop.speech.audio import Utterance

__all__ = ["SpeakerProfiles", "expected_speaker"]

# Phases where the asked player speaks; in the others listed the current player does.
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


def _score(recogniser: Any) -> float:
    """The grammar search's path score of the recogniser's last utterance (-inf for none)."""
    decoder = getattr(recogniser, "_fsg", None)
    hyp = decoder.hyp() if decoder is not None else None
    return float(hyp.best_score) if hyp is not None else float("-inf")


class SpeakerProfiles:
    """PocketSphinx with the enrolled players' profiles.

    :param acoustics: enrolled player -> decoder options of their profile.
    :param pooled: decoder options of the model adapted to all of them.
    :param use: "pooled" or "speaker" (see the module's docstring).
    """

    name = "pocketsphinx"

    def __init__(
        self,
        players: Sequence[str],
        acoustics: Mapping[str, Mapping[str, str]],
        pooled: Mapping[str, str] | None = None,
        *,
        use: str = "pooled",
        **options: Any,
    ) -> None:
        from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

        if use not in ("pooled", "speaker"):
            raise ValueError(f"use is 'pooled' or 'speaker', not {use!r}")
        self.players = tuple(players)
        self.use = use
        self.enrolled = {name.casefold() for name in acoustics}
        self.bundled = PocketSphinxRecogniser(self.players, **options)
        self.pooled = PocketSphinxRecogniser(self.players, acoustic=dict(pooled or {}), **options) if pooled else self.bundled
        self.by_player = {
            name.casefold(): PocketSphinxRecogniser(self.players, acoustic=dict(acoustic), **options)
            for name, acoustic in acoustics.items()
        } if use == "speaker" else {}
        self._lock = threading.RLock()

    def recognisers_for(self, context: Any) -> list[Any]:
        """The recogniser that hears in this context (a list, for one or more)."""
        speaker = expected_speaker(context)
        if speaker is not None and speaker.casefold() not in self.enrolled:
            return [self.bundled]  # another's voice model hears a player worse than none
        if speaker is not None and self.use == "speaker":
            return [self.by_player[speaker.casefold()]]
        return [self.pooled]

    def hear(self, utterance: Utterance, context: Any = None, players: Sequence[str] | None = None) -> Transcript:
        with self._lock:
            heard = [(r.hear(utterance, context, players), _score(r)) for r in self.recognisers_for(context)]
        return _best(heard)

    def stream(self, context: Any = None, players: Sequence[str] | None = None, live: bool = True) -> "_Streams":
        self._lock.acquire()
        try:
            recognisers = self.recognisers_for(context)
            return _Streams(self, [(r, r.stream(context, players, live)) for r in recognisers])
        except BaseException:
            self._lock.release()
            raise

    def warm_up(self, context: Any = None, players: Sequence[str] | None = None) -> None:
        for recogniser in {id(r): r for r in (self.bundled, self.pooled, *self.by_player.values())}.values():
            recogniser.warm_up(context, players)


def _best(heard: list[tuple[Transcript, float]]) -> Transcript:
    """The better-scoring reading (the first on a tie); decode time is the sum."""
    transcript, _ = max(heard, key=lambda item: item[1])
    total = sum(t.decode_ms for t, _ in heard)
    if len(heard) == 1:
        return transcript
    return replace(transcript, decode_ms=total)


class _Streams:
    """One utterance fed to each recogniser's stream; holds the owner's lock until finished."""

    def __init__(self, owner: SpeakerProfiles, streams: list[tuple[Any, Any]]) -> None:
        self.owner = owner
        self.streams = streams
        self.finished = False

    def feed(self, raw: bytes) -> None:
        for _, stream in self.streams:
            stream.feed(raw)

    def finish(self) -> Transcript:
        try:
            heard = []
            for recogniser, stream in self.streams:
                transcript = stream.finish()
                heard.append((transcript, _score(recogniser)))
            return _best(heard)
        finally:
            self.finished = True
            self.owner._lock.release()

    def cancel(self) -> None:
        if self.finished:
            return
        self.finished = True
        try:
            for _, stream in self.streams:
                stream.cancel()
        finally:
            self.owner._lock.release()
