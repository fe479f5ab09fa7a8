"""Speech recognisers behind one small interface: ``hear(utterance, context) -> Transcript``."""

from __future__ import annotations

from typing import Any, Protocol, Sequence, runtime_checkable

from tabletop.language.transcript import Transcript
from tabletop.speech.audio import Utterance

__all__ = ["Recogniser", "ENGINES", "default_recogniser", "make_recogniser"]

ENGINES = ("pocketsphinx", "vosk")


@runtime_checkable
class Recogniser(Protocol):
    """Turns an utterance into text; never guesses at game meaning."""

    name: str

    def hear(self, utterance: Utterance, context: Any = None, players: Sequence[str] | None = None) -> Transcript:
        ...


def make_recogniser(engine: str | None = None, players: Sequence[str] = ("Ana", "Ben", "Cho"), **options: Any) -> Recogniser:
    """The recogniser named ``engine`` ("pocketsphinx", "vosk"), or the default when None/"auto".

    :raises SetupError: when the engine cannot start (the reason says what to install).
    :raises InvalidInputError: for an unknown engine name.
    """
    from tabletop.errors import InvalidInputError

    if engine in (None, "", "auto"):
        return default_recogniser(None, players, **options)
    if engine == "pocketsphinx":
        from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

        options.setdefault("second", "auto")  # Moonshine's second opinion on short answers, when installed
        return PocketSphinxRecogniser(players, **options)
    if engine == "vosk":
        from tabletop.speech.recognisers.vosk import VoskRecogniser

        return VoskRecogniser(players=players, **options)
    raise InvalidInputError(f"unknown speech engine {engine!r}: use one of {', '.join(ENGINES)}")


def default_recogniser(
    engine: str | None = None, players: Sequence[str] = ("Ana", "Ben", "Cho"), **options: Any
) -> Recogniser:
    """Vosk when a Vosk model is installed, else the embedded PocketSphinx; ``engine`` forces one
    ("pocketsphinx", "vosk"; None or "auto" chooses)."""
    from tabletop.speech.models import find_vosk_model

    if engine not in (None, "", "auto"):
        return make_recogniser(engine, players, **options)

    if find_vosk_model() is not None:
        try:
            from tabletop.speech.recognisers.vosk import VoskRecogniser

            return VoskRecogniser(players=players, **options)
        except ImportError:
            pass
    return make_recogniser("pocketsphinx", players, **options)
