"""Hearing a table of enrolled players: the expected speaker's profile, hedged by the table's model.

A game knows who should speak next: the asked player answers ("yes, two", "go fish"), the
current player asks and calls lucky fish or books. But anyone may speak (a question, a
correction), and a player heard with someone else's profile is heard worse than with none.
:class:`SpeakerProfiles` therefore hears each utterance twice: with the profile of the player
the game expects, and with the table-wide model adapted to all the enrolled players pooled; the
reading with the better path score wins. When nobody in particular is expected, or that player
did not enroll, the pooled model alone hears it. With one enrolled player, the pooled model is
that player's profile; players who did not enroll are heard by it too.

``tests/bench/enrollment.py`` measured the choices on real recordings (the FSDD speaker at a
table of seven enrolled real voices; see the README's figures).
"""

from __future__ import annotations

import threading
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
    :param pooled: decoder options of the model adapted to all of them (None: the bundled model).
    :param hedge: hear with the expected speaker's profile *and* the pooled model, keeping the
        better-scoring reading (False: the expected speaker's profile alone).
    """

    name = "pocketsphinx"

    def __init__(
        self,
        players: Sequence[str],
        acoustics: Mapping[str, Mapping[str, str]],
        pooled: Mapping[str, str] | None = None,
        *,
        hedge: bool = True,
        **options: Any,
    ) -> None:
        from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

        self.players = tuple(players)
        self.hedge = hedge
        self.pooled = PocketSphinxRecogniser(self.players, acoustic=dict(pooled or {}), **options)
        self.by_player = {
            name.casefold(): PocketSphinxRecogniser(self.players, acoustic=dict(acoustic), **options)
            for name, acoustic in acoustics.items()
        }
        self._lock = threading.RLock()

    def recognisers_for(self, context: Any) -> list[Any]:
        """The recognisers that hear in this context: the expected speaker's (if enrolled),
        then the pooled one (alone when nobody is expected)."""
        speaker = expected_speaker(context)
        own = self.by_player.get(speaker.casefold()) if speaker else None
        if own is None:
            return [self.pooled]
        if not self.hedge or own.acoustic == self.pooled.acoustic:  # one enrolled player: the same model
            return [own]
        return [own, self.pooled]

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
        for recogniser in (self.pooled, *self.by_player.values()):
            recogniser.warm_up(context, players)


def _best(heard: list[tuple[Transcript, float]]) -> Transcript:
    """The better-scoring reading (the first on a tie); decode time is the sum."""
    transcript, _ = max(heard, key=lambda item: item[1])
    total = sum(t.decode_ms for t, _ in heard)
    if len(heard) == 1:
        return transcript
    return Transcript(
        transcript.text, transcript.confidence, transcript.alternatives, transcript.words, transcript.engine, total
    )


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
