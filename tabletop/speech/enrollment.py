"""Enrollment: the prompts a player repeats, and recording them from the microphone.

:func:`prompts` gives about twenty short things said at the table — asks naming the other
players and every rank, "yes", "no", "go fish", "lucky fish", books, counts — so the adapted
model has heard this player say the words it will have to hear. They are ordinary sentences
of the game: the language layer parses each of them.

:func:`record` plays the prompts one at a time (spoken by tabletop's voice and shown on screen)
and keeps what the microphone hears after each: a prompt with no answer is asked once more,
then left out.
"""

from __future__ import annotations

from typing import Callable, Sequence

from tabletop.errors import SetupError
from tabletop.speech.audio import Utterance, has_speech

__all__ = ["prompts", "record", "MIN_RECORDINGS"]

# Fewer usable recordings than this and adaptation is refused (about 5 s of speech).
MIN_RECORDINGS = 8
_STAND_INS = ("Ben", "Cho", "Ana", "Dee")


def prompts(name: str, players: Sequence[str] = ()) -> list[str]:
    """About twenty prompts for ``name``, naming the other ``players`` (stand-in names when
    they play alone), covering all thirteen ranks, answers, counts, fish and books."""
    others = [p for p in players if p.casefold() != name.casefold()]
    for stand_in in _STAND_INS:
        if len(others) >= 2:
            break
        if stand_in.casefold() != name.casefold() and stand_in not in others:
            others.append(stand_in)
    a, b = others[0], others[1]
    c = others[2] if len(others) > 2 else a
    return [
        f"{a}, do you have any sevens?",
        "Yes, two.",
        f"{b}, got any kings?",
        "Go fish.",
        "Lucky fish!",
        f"{c}, give me your aces.",
        "No.",
        f"{a}, do you have any threes?",
        "Yes, I have one.",
        "Book of queens.",
        f"{b}, any jacks?",
        "Nope, go fish.",
        f"{a}, do you have any fives?",
        "Yes, three.",
        f"{b}, got any nines?",
        f"{name} has a book of sixes.",
        f"{c}, do you have any tens?",
        "Yes.",
        f"{a}, got any twos?",
        f"{b}, do you have any fours?",
        "Book of eights.",
        "I'm out of cards.",
    ]


def record(
    name: str,
    lines: Sequence[str],
    next_utterance: Callable[[float], Utterance | None],
    say: Callable[[str], None],
    *,
    timeout: float = 8.0,
    tries: int = 2,
) -> list[tuple[Utterance, str]]:
    """Ask ``name`` to repeat each line; ``(utterance, line)`` for each one heard.

    :param next_utterance: the microphone's ``next_utterance(timeout)``.
    :param say: speaks (or shows) a line, and returns once it is said (so the microphone
        does not hear it).
    :raises SetupError: when fewer than :data:`MIN_RECORDINGS` prompts were heard.
    """
    say(f"{name}, please repeat after me, in your usual voice.")
    kept: list[tuple[Utterance, str]] = []
    for number, line in enumerate(lines, start=1):
        for attempt in range(tries):
            say(line if attempt == 0 else f"Once more: {line}")
            utterance = next_utterance(timeout)
            if utterance is not None and has_speech(utterance):
                kept.append((utterance, line))
                break
        else:
            say("Let's skip that one.")
    if len(kept) < MIN_RECORDINGS:
        raise SetupError(
            f"heard only {len(kept)} of {len(lines)} prompts from {name}: check the microphone "
            f"(`tabletop doctor`) and enroll again",
            code="enroll-too-few",
        )
    say(f"Thank you, {name}.")
    return kept
