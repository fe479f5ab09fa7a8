"""Live capture: the microphone at 16 kHz mono, cut into utterances at the end of speech.

:class:`Microphone` reads 30 ms blocks through PortAudio (sounddevice) and runs an endpointer:
speech starts when the level rises clearly above the room's noise floor (tracked as it
changes) and the voice-activity detector agrees; it ends after ``hangover`` seconds of quiet.
A little audio before the start is kept, so the first sound is not clipped.

While tabletop speaks, the microphone drops what it hears (plus a short tail for the room's
echo): :class:`tabletop.speech.voice.Voice` calls :meth:`Microphone.deafen` / :meth:`hear_again`.

:meth:`Microphone.transcripts` also decodes while the player is still talking (when the
recogniser can stream), so the answer is ready a moment after they stop.
"""

from __future__ import annotations

import collections
import queue
import threading
import time
from typing import Any, Callable, Iterator

import numpy as np

from tabletop.errors import SetupError
from tabletop.language.transcript import Transcript
from tabletop.speech.audio import SAMPLE_RATE, Utterance

__all__ = ["Microphone", "Endpointer", "import_sounddevice", "input_devices"]

BLOCK = 480  # 30 ms at 16 kHz
NO_MIC = "no microphone found: plug one in (and check `arecord -l`), or play without one: `tabletop play --text` or `tabletop demo`"


def import_sounddevice() -> Any:
    """sounddevice, or a SetupError that says what to install."""
    try:
        import sounddevice
    except OSError as error:
        raise SetupError(f"the PortAudio library is missing ({error}): apt-get install libportaudio2") from None
    except ImportError:
        raise SetupError("the sounddevice package is missing: pip install sounddevice") from None
    return sounddevice


def input_devices() -> list[dict[str, Any]]:
    """Devices that can record, as sounddevice describes them."""
    sd = import_sounddevice()
    try:
        devices = sd.query_devices()
    except Exception as error:  # noqa: BLE001 - PortAudio errors vary by platform
        raise SetupError(f"cannot list audio devices ({error}): check that ALSA/PulseAudio work (`arecord -l`)") from None
    return [dict(d, index=i) for i, d in enumerate(devices) if d.get("max_input_channels", 0) > 0]


class Endpointer:
    """Finds utterances in a stream of 30 ms blocks.

    ``push(block)`` returns ``"start"`` when speech begins, ``"speech"`` for blocks inside an
    utterance, ``"end"`` on the block that ends it, and None in quiet.
    """

    def __init__(
        self,
        hangover: float = 0.4,
        start_db: float = 9.0,
        stop_db: float = 6.0,
        min_speech: float = 0.15,
        max_utterance: float = 10.0,
        floor_db: float = -60.0,
    ) -> None:
        from pocketsphinx import Vad

        self.vad = Vad(Vad.LOOSE, SAMPLE_RATE, BLOCK / SAMPLE_RATE)
        self.hangover_blocks = max(1, int(round(hangover * SAMPLE_RATE / BLOCK)))
        self.start_db = start_db
        self.stop_db = stop_db
        self.min_blocks = max(1, int(round(min_speech * SAMPLE_RATE / BLOCK)))
        self.max_blocks = int(max_utterance * SAMPLE_RATE / BLOCK)
        self.floor = floor_db
        self.in_speech = False
        self.loud_run = 0
        self.quiet_run = 0
        self.length = 0

    @staticmethod
    def level(block: np.ndarray) -> float:
        x = block.astype(np.float64)
        p = float(np.mean(x * x)) / (32768.0**2) if x.size else 0.0
        return 10 * np.log10(p) if p > 1e-13 else -130.0

    def reset(self) -> None:
        self.in_speech = False
        self.loud_run = self.quiet_run = self.length = 0

    def push(self, block: np.ndarray) -> str | None:
        level = self.level(block)
        voiced = len(block) == BLOCK and self.vad.is_speech(block.astype("<i2").tobytes())
        if not self.in_speech:
            # Track the floor quickly down, slowly up (so speech does not raise it).
            self.floor = level if level < self.floor else self.floor + 0.02 * (level - self.floor)
            if level > self.floor + self.start_db and voiced:
                self.loud_run += 1
            else:
                self.loud_run = 0
            if self.loud_run >= 3:
                self.in_speech = True
                self.quiet_run = 0
                self.length = self.loud_run
                return "start"
            return None
        self.length += 1
        if level < self.floor + self.stop_db or not voiced and level < self.floor + self.start_db:
            self.quiet_run += 1
        else:
            self.quiet_run = 0
        if self.quiet_run >= self.hangover_blocks or self.length >= self.max_blocks:
            self.in_speech = False
            self.loud_run = 0
            return "end"
        return "speech"


class Microphone:
    """The table's microphone. Iterate :meth:`utterances` (or :meth:`transcripts`).

    :param device: a sounddevice device index or name (default: the system's input).
    :param hangover: seconds of quiet that end an utterance.
    :param preroll: seconds kept from before the start of speech.
    :param max_seconds: stop listening after this long in all (None: until closed).
    :raises SetupError: when there is no microphone (the reason says what to do).
    """

    def __init__(
        self,
        device: int | str | None = None,
        *,
        hangover: float = 0.4,
        preroll: float = 0.3,
        max_seconds: float | None = None,
        echo_tail: float = 0.3,
    ) -> None:
        self.sd = import_sounddevice()
        self.device = device
        self.hangover = hangover
        self.preroll_blocks = int(preroll * SAMPLE_RATE / BLOCK)
        self.max_seconds = max_seconds
        self.echo_tail = echo_tail
        self._deaf = 0
        self._deaf_until = 0.0
        self._deaf_lock = threading.Lock()
        self._closed = threading.Event()
        self._readers: set[threading.Thread] = set()  # threads reading blocks (capture, decoding)
        self._check_device()

    def _check_device(self) -> None:
        try:
            devices = self.sd.query_devices()
        except Exception as error:  # noqa: BLE001
            raise SetupError(f"cannot list audio devices ({error}): {NO_MIC}") from None
        if not any(d.get("max_input_channels", 0) > 0 for d in devices):
            raise SetupError(NO_MIC)
        if self.device is not None:
            try:
                info = self.sd.query_devices(self.device, "input")
            except Exception:  # noqa: BLE001
                raise SetupError(f"no input device {self.device!r}: see `tabletop doctor` for the list") from None
            if info.get("max_input_channels", 0) < 1:
                raise SetupError(f"device {self.device!r} cannot record: see `tabletop doctor` for the list")

    # -- not hearing ourselves -------------------------------------------------------------

    def deafen(self) -> None:
        """Stop listening (tabletop is about to speak). Calls nest."""
        with self._deaf_lock:
            self._deaf += 1

    def hear_again(self, tail: float | None = None) -> None:
        """Listen again ``tail`` seconds from now (the room's echo dies away first)."""
        with self._deaf_lock:
            self._deaf = max(0, self._deaf - 1)
            self._deaf_until = max(self._deaf_until, time.monotonic() + (self.echo_tail if tail is None else tail))

    @property
    def deaf(self) -> bool:
        with self._deaf_lock:
            return self._deaf > 0 or time.monotonic() < self._deaf_until

    def mute(self, speaking: bool) -> None:
        """The voice's switch: ``mute(True)`` as it starts speaking, ``mute(False)`` when done."""
        if speaking:
            self.deafen()
        else:
            self.hear_again()

    def close(self) -> None:
        """Stop capturing, and wait (up to 2 s each) for the threads reading the microphone
        (a background capture, a caller's loop over :meth:`transcripts`) to notice within one
        block: a thread left decoding while the program exits can crash it (the decoder is
        freed under it)."""
        self._closed.set()
        thread = getattr(self, "_thread", None)
        readers = set(self._readers) | ({thread} if thread is not None else set())
        for reader in readers:
            if reader is not threading.current_thread():
                reader.join(2.0)

    def __enter__(self) -> "Microphone":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def next_utterance(self, timeout: float | None = None) -> Utterance | None:
        """The next utterance, or None when ``timeout`` seconds pass in quiet (or capture ended).

        Capture runs in a background thread from the first call, so nothing is missed while
        the caller decodes or speaks. A capture failure is raised here as a SetupError.
        """
        if getattr(self, "_thread", None) is None:
            self._queue: queue.Queue[Any] = queue.Queue()
            self._thread = threading.Thread(target=self._capture, name="tabletop-microphone", daemon=True)
            self._thread.start()
        try:
            item = self._queue.get(timeout=timeout)
        except queue.Empty:
            return None
        if isinstance(item, BaseException):
            raise item
        return item  # type: ignore[no-any-return]

    def _capture(self) -> None:
        try:
            for utterance in self.utterances():
                self._queue.put(utterance)
        except SetupError as error:
            self._queue.put(error)
        except Exception as error:  # noqa: BLE001 - surface to the caller, do not die silently
            self._queue.put(SetupError(f"the microphone stopped ({error}): run `tabletop doctor`"))

    # -- capture ----------------------------------------------------------------------------

    def blocks(self) -> Iterator[np.ndarray]:
        """Raw 30 ms blocks of int16 samples, until closed or ``max_seconds``."""
        try:
            stream = self.sd.RawInputStream(
                samplerate=SAMPLE_RATE, channels=1, dtype="int16", blocksize=BLOCK, device=self.device
            )
        except Exception as error:  # noqa: BLE001 - PortAudioError and friends
            raise SetupError(f"cannot open the microphone ({error}): {NO_MIC}") from None
        me = threading.current_thread()
        self._readers.add(me)  # close() waits for it
        try:
            yield from self._read(stream)
        finally:
            self._readers.discard(me)

    def _read(self, stream: Any) -> Iterator[np.ndarray]:
        read_samples = 0
        with stream:
            while not self._closed.is_set():
                if self.max_seconds is not None and read_samples >= self.max_seconds * SAMPLE_RATE:
                    return
                try:
                    data, _overflowed = stream.read(BLOCK)
                except Exception as error:  # noqa: BLE001
                    raise SetupError(f"the microphone stopped ({error}): check the cable, then `tabletop doctor`") from None
                read_samples += BLOCK
                block = np.frombuffer(bytes(data), dtype="<i2").astype(np.int16)
                if block.size == 0:
                    return
                yield block

    def _segments(self) -> Iterator[tuple[str, np.ndarray]]:
        """(event, block) pairs: "start" (with the pre-roll joined), "speech", "end"."""
        endpointer = Endpointer(hangover=self.hangover)
        preroll: collections.deque[np.ndarray] = collections.deque(maxlen=max(1, self.preroll_blocks))
        was_deaf = False
        for block in self.blocks():
            if self.deaf:
                if endpointer.in_speech:
                    yield "cancel", block
                endpointer.reset()
                preroll.clear()
                was_deaf = True
                continue
            if was_deaf:
                was_deaf = False
            event = endpointer.push(block)
            if event is None:
                preroll.append(block)
            elif event == "start":
                yield "start", np.concatenate([*preroll, block])
                preroll.clear()
            else:
                yield event, block

    def utterances(self) -> Iterator[Utterance]:
        """Each utterance as it ends."""
        parts: list[np.ndarray] = []
        for event, block in self._segments():
            if event == "start":
                parts = [block]
            elif event == "speech":
                parts.append(block)
            elif event == "end":
                parts.append(block)
                yield Utterance(np.concatenate(parts), source="mic")
                parts = []
            elif event == "cancel":
                parts = []

    def transcripts(self, recogniser: Any, context: Callable[[], Any] | Any = None) -> Iterator[tuple[Utterance, Transcript]]:
        """Each utterance with what ``recogniser`` heard in it, decoded while it is spoken when
        the recogniser can stream. ``context`` may be a function called at each start of speech."""
        stream = None
        parts: list[np.ndarray] = []
        can_stream = hasattr(recogniser, "stream")
        for event, block in self._segments():
            if event == "start":
                parts = [block]
                ctx = context() if callable(context) else context
                if can_stream:
                    stream = recogniser.stream(ctx, live=True)
                    stream.feed(block.astype("<i2").tobytes())
            elif event == "speech":
                parts.append(block)
                if stream is not None:
                    stream.feed(block.astype("<i2").tobytes())
            elif event == "cancel":
                if stream is not None:
                    stream.cancel()
                    stream = None
                parts = []
            elif event == "end":
                parts.append(block)
                utterance = Utterance(np.concatenate(parts), source="mic")
                if stream is not None:
                    stream.feed(block.astype("<i2").tobytes())
                    transcript = stream.finish()
                    stream = None
                else:
                    transcript = recogniser.hear(utterance, context=ctx)
                yield utterance, transcript
                parts = []
        if stream is not None:
            stream.cancel()
