"""The voice: queued, never blocking, deafening the microphone while it speaks."""

from __future__ import annotations

import threading
import time

from tabletop.speech.voice import Voice


class _Ears:
    """Stands in for the microphone's deafen/hear_again switch (records the calls)."""

    def __init__(self) -> None:
        self.events: list[str] = []

    def deafen(self) -> None:
        self.events.append("deaf")

    def hear_again(self, tail=None) -> None:
        self.events.append(f"hear:{tail}")


def test_quiet_voice_prints() -> None:
    said: list[str] = []
    v = Voice(quiet=True, out=said.append)
    v.say("Ana asks Ben for sevens")
    v.say("  ")
    v.close()
    assert said == ["Ana asks Ben for sevens"]


def test_spoken_voice_does_not_block_and_deafens_the_microphone() -> None:
    ears = _Ears()
    printed: list[str] = []
    v = Voice(rate=400, microphone=ears, out=printed.append, echo_tail=0.1)
    start = time.perf_counter()
    v.say("Go fish, Ana")
    v.say("Ben's turn")
    assert time.perf_counter() - start < 0.5  # queued, not spoken inline
    assert v.wait(60)
    v.close()
    if v.quiet:  # no working speech engine here: it said so and printed instead
        assert v.problem and printed == ["Go fish, Ana", "Ben's turn"]
    else:
        assert ears.events == ["deaf", "hear:0.1", "deaf", "hear:0.1"]


def test_unknown_voice_falls_back_to_printing() -> None:
    printed: list[str] = []
    v = Voice(voice="no-such-voice-xyz", out=printed.append)
    v.say("hello")
    v.wait(10)
    v.close()
    assert printed == ["hello"] and v.problem
    from tabletop.speech.voice import voice_problem

    if voice_problem(check_speaker=True) is None:  # a speaker is here: the voice itself was refused
        assert "no-such-voice-xyz" in v.problem


def test_fallback_printing_can_be_left_to_the_caller() -> None:
    printed: list[str] = []
    v = Voice(quiet=True, out=printed.append, print_when_silent=False)
    v.say("Ben's turn")
    v.close()
    assert printed == []


def test_microphone_deafness_has_a_tail() -> None:
    from tabletop.speech.microphone import Microphone

    mic = Microphone.__new__(Microphone)  # the switch only, without opening a device
    mic._deaf, mic._deaf_until, mic._deaf_lock, mic.echo_tail = 0, 0.0, threading.Lock(), 0.2
    assert not mic.deaf
    mic.deafen()
    assert mic.deaf
    mic.hear_again(0.2)
    assert mic.deaf
    time.sleep(0.25)
    assert not mic.deaf
