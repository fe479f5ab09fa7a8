"""tabletop's voice: announcements spoken by pyttsx3 (espeak-ng) in a background thread.

:meth:`Voice.say` queues the text and returns at once, so listening never waits for speaking.
While it speaks, the microphone (if given) drops what it hears, plus a short echo tail.
In quiet mode, or when no speech engine works, announcements are printed instead.

>>> v = Voice(quiet=True, out=print)
>>> v.say("Ben's turn")
Ben's turn
>>> v.close()
"""

from __future__ import annotations

import queue
import shutil
import sys
import threading
from typing import Any, Callable

from tabletop.errors import SetupError

__all__ = ["Voice", "voice_problem"]

_STOP = object()


def voice_problem(check_speaker: bool = False) -> str | None:
    """None when text-to-speech should work here, else what to install or plug in."""
    if shutil.which("espeak-ng") is None and shutil.which("espeak") is None:
        return "espeak-ng is not installed, so announcements are printed: apt-get install espeak-ng"
    try:
        import pyttsx3  # noqa: F401
    except ImportError:
        return "pyttsx3 is not installed, so announcements are printed: pip install pyttsx3==2.99"
    if check_speaker:
        try:
            import sounddevice

            devices = sounddevice.query_devices()
        except Exception:  # noqa: BLE001 - no PortAudio: let pyttsx3 try on its own
            return None
        if not any(d.get("max_output_channels", 0) > 0 for d in devices):
            return "no speaker found, so announcements are printed: plug one in (check `aplay -l`)"
    return None


class Voice:
    """Speaks announcements one after another without blocking the caller.

    :param rate: words per minute.
    :param voice: a pyttsx3 voice id or name fragment ("english-us", "f3"); unknown ids are refused.
    :param quiet: print instead of speaking.
    :param microphone: a :class:`~tabletop.speech.microphone.Microphone` to deafen while speaking.
    :param out: where printed announcements go (default: standard output).
    :param print_when_silent: False when the caller already prints every announcement (``play``),
        so quiet mode or a missing speaker does not print them twice.
    """

    def __init__(
        self,
        *,
        rate: int | None = None,
        voice: str | None = None,
        volume: float = 1.0,
        quiet: bool = False,
        microphone: Any = None,
        out: Callable[[str], None] | None = None,
        echo_tail: float = 0.3,
        print_when_silent: bool = True,
    ) -> None:
        self.rate = rate or 165
        self._listeners: list[Callable[[bool], None]] = []
        self.voice = voice
        self.volume = volume
        self.microphone = microphone
        self.echo_tail = echo_tail
        if not print_when_silent:
            out = lambda text: None  # noqa: E731 - the caller shows announcements itself
        self.out = out or (lambda text: print(text, flush=True))
        self.problem: str | None = None
        self.quiet = quiet
        self._queue: queue.Queue[Any] = queue.Queue()
        self._idle = threading.Event()
        self._idle.set()
        self._thread: threading.Thread | None = None
        if not quiet:
            self.problem = voice_problem(check_speaker=True)
            if self.problem:
                print(f"tabletop: {self.problem}", file=sys.stderr)
                self.quiet = True
        if not self.quiet:
            ready = threading.Event()
            self._thread = threading.Thread(target=self._worker, args=(ready,), name="tabletop-voice", daemon=True)
            self._thread.start()
            ready.wait(10)
            if self.problem:
                print(f"tabletop: {self.problem}", file=sys.stderr)
                self.quiet = True

    def _engine(self) -> Any:
        import pyttsx3

        try:
            engine = pyttsx3.init()
        except Exception as error:  # noqa: BLE001 - RuntimeError without espeak-ng, others elsewhere
            raise SetupError(f"text-to-speech does not start ({error}): apt-get install espeak-ng") from None
        engine.setProperty("rate", self.rate)
        engine.setProperty("volume", self.volume)
        if self.voice:
            voices = engine.getProperty("voices") or []
            match = [v for v in voices if self.voice == v.id or self.voice.lower() in (v.name or "").lower()]
            if not match:
                match = [v for v in voices if self.voice.lower() in v.id.lower()]
            if not match:
                raise SetupError(f"no voice {self.voice!r}: see `espeak-ng --voices=en`")
            engine.setProperty("voice", match[0].id)
        return engine

    def _worker(self, ready: threading.Event) -> None:
        try:
            engine = self._engine()
        except SetupError as error:
            self.problem = error.reason
            ready.set()
            self._drain_printing()
            return
        ready.set()
        while True:
            text = self._queue.get()
            if text is _STOP:
                self._idle.set()
                return
            if self.microphone is not None:
                self.microphone.deafen()
            for listener in list(self._listeners):
                listener(True)
            try:
                engine.say(text)
                engine.runAndWait()
            except Exception as error:  # noqa: BLE001 - keep the game going; print instead
                self.out(text)
                self.problem = f"speaking failed ({error}); printing instead"
            finally:
                if self.microphone is not None:
                    self.microphone.hear_again(self.echo_tail)
                for listener in list(self._listeners):
                    listener(False)
            if self._queue.empty():
                self._idle.set()

    def _drain_printing(self) -> None:
        while True:
            text = self._queue.get()
            if text is _STOP:
                self._idle.set()
                return
            self.out(text)
            if self._queue.empty():
                self._idle.set()

    def on_speaking(self, listener: Callable[[bool], None]) -> None:
        """Call ``listener(True)`` when speech starts and ``listener(False)`` when it ends
        (e.g. ``voice.on_speaking(microphone.mute)``)."""
        self._listeners.append(listener)

    def say(self, text: str) -> None:
        """Announce ``text`` (queued; returns immediately)."""
        text = text.strip()
        if not text:
            return
        if self.quiet or self._thread is None:
            self.out(text)
            return
        self._idle.clear()
        self._queue.put(text)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until everything queued has been said; False on timeout."""
        return self._idle.wait(timeout)

    @property
    def speaking(self) -> bool:
        return not self._idle.is_set()

    def close(self, timeout: float = 10.0) -> None:
        """Say what is queued, then stop the worker."""
        if self._thread is not None and self._thread.is_alive():
            self._queue.put(_STOP)
            self._thread.join(timeout)
