"""Audio as the recognisers take it: 16 kHz, mono, signed 16-bit samples.

An :class:`Utterance` is one stretch of speech (from a WAV file, the microphone or the
synthesiser). :func:`read_wav` is the one place audio files are read (``hear``, ``play --audio``,
``enroll --audio``): a 16-bit PCM WAV at any common rate (8 to 192 kHz) with any number of channels
up to eight is mixed down to mono and resampled to 16 kHz (:func:`resample`, scipy's polyphase
filter, the resampler the synthesiser uses too); other sample formats are refused with a message
that says how to convert.

>>> import numpy as np
>>> u = Utterance(np.zeros(8000, dtype=np.int16))
>>> u.duration
0.5
>>> is_silent(u)
True
"""

from __future__ import annotations

import io
import os
import struct
import wave
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np

from tabletop.errors import InvalidInputError
from tabletop.files import FileProblem, read_bounded

__all__ = [
    "SAMPLE_RATE",
    "Utterance",
    "read_wav",
    "resample",
    "write_wav",
    "wav_bytes",
    "rms_dbfs",
    "frame_energies_db",
    "is_silent",
    "speech_ratio",
    "has_speech",
    "pad",
    "CONVERT_HINT",
]

SAMPLE_RATE = 16_000
MAX_WAV_BYTES = 64 * 1024 * 1024  # over half an hour at 16 kHz: far more than one utterance
CONVERT_HINT = "convert it with: sox IN.wav -r 16000 -c 1 -b 16 OUT.wav"
MIN_RATE, MAX_RATE = 8_000, 192_000  # telephone speech up to studio rates; below 8 kHz words are lost
MAX_CHANNELS = 8
MAX_CONVERTED_SECONDS = 600  # a file to resample or mix down: ten minutes, far more than one utterance
MAX_RATIO_TERMS = 1000  # an odd rate's ratio to 16 kHz is approximated (within 0.05%) to bound the filter's size


@dataclass(frozen=True)
class Utterance:
    """Mono int16 samples at 16 kHz; ``source`` names where they came from (a path, "mic")."""

    samples: np.ndarray
    source: str = ""
    rate: int = field(default=SAMPLE_RATE)

    def __post_init__(self) -> None:
        samples = np.asarray(self.samples)
        if samples.ndim != 1:
            raise InvalidInputError(f"audio must be mono, got shape {samples.shape}")
        if samples.dtype != np.int16:
            if np.issubdtype(samples.dtype, np.floating):
                samples = np.clip(np.round(samples * 32767.0), -32768, 32767).astype(np.int16)
            else:
                samples = np.clip(samples, -32768, 32767).astype(np.int16)
        object.__setattr__(self, "samples", samples)
        if self.rate != SAMPLE_RATE:
            raise InvalidInputError(f"audio must be {SAMPLE_RATE} Hz, got {self.rate} Hz")

    @property
    def duration(self) -> float:
        """Length in seconds."""
        return len(self.samples) / self.rate

    def raw(self) -> bytes:
        """Little-endian s16 bytes, as the decoders take them."""
        return self.samples.astype("<i2").tobytes()

    def __len__(self) -> int:
        return len(self.samples)


def resample(x: np.ndarray, src: int, dst: int = SAMPLE_RATE) -> np.ndarray:
    """``x`` from ``src`` to ``dst`` Hz with an anti-aliasing polyphase filter (scipy), as floats.

    Linear interpolation down to 16 kHz, with no low-pass first, folds the energy above 8 kHz (a
    voice's /s/ and /f/) back into the band the recogniser hears. Every common rate's ratio to 16 kHz
    is exact (44.1 kHz: 160/441); an odd rate's is approximated by one with terms up to
    ``MAX_RATIO_TERMS`` (a pitch change under 0.05%, a hundredth of a semitone), so the filter stays small whatever the header says."""
    if src == dst:
        return np.asarray(x)
    from scipy.signal import resample_poly

    ratio = Fraction(dst, src).limit_denominator(MAX_RATIO_TERMS)
    x = np.asarray(x)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    return resample_poly(x, ratio.numerator, ratio.denominator)


def read_wav(path: str | os.PathLike[str]) -> Utterance:
    """Read a 16-bit PCM WAV file as 16 kHz mono: any rate from 8 to 192 kHz is resampled, and
    any number of channels up to eight mixed down (their mean).

    :raises InvalidInputError: when the file is missing, not a WAV, truncated, or not 16-bit PCM
        at a rate and channel count it takes (the message says how to convert it).
    """
    path = Path(path)
    try:
        data = read_bounded(path, MAX_WAV_BYTES)
    except FileProblem as problem:
        if problem.kind == "missing":
            raise InvalidInputError(f"{path}: no such file", code="no-file") from None
        if problem.kind == "folder":
            raise InvalidInputError(f"{path}: is a directory, not a WAV file", code="not-wav") from None
        if problem.kind == "special":
            raise InvalidInputError(f"{path}: not a regular file, so not a WAV file", code="not-wav") from None
        if problem.kind == "too-big":
            raise InvalidInputError(f"{path}: over {MAX_WAV_BYTES // 2**20} MB; cut it into single utterances",
                                    code="too-long") from None
        raise InvalidInputError(f"{path}: cannot read ({problem.strerror})", code="no-file") from None
    return _parse_wav(data, str(path))


def _parse_wav(data: bytes, name: str) -> Utterance:
    if len(data) < 12 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise InvalidInputError(f"{name}: not a WAV file (no RIFF/WAVE header)", code="not-wav")
    # Walk the chunks ourselves: the wave module's errors are cryptic and it accepts truncation.
    fmt: tuple[int, int, int, int] | None = None
    pos = 12
    pcm: bytes | None = None
    declared = 0
    while pos + 8 <= len(data):
        chunk_id = data[pos : pos + 4]
        (size,) = struct.unpack("<I", data[pos + 4 : pos + 8])
        body = data[pos + 8 : pos + 8 + size]
        if chunk_id == b"fmt ":
            if len(body) < 16:
                raise InvalidInputError(f"{name}: truncated WAV header", code="truncated")
            tag, channels, rate, _, _, bits = struct.unpack("<HHIIHH", body[:16])
            if tag == 0xFFFE and len(body) >= 26:  # WAVE_FORMAT_EXTENSIBLE: subformat GUID
                tag = struct.unpack("<H", body[24:26])[0]
            fmt = (tag, channels, rate, bits)
        elif chunk_id == b"data":
            declared = size
            pcm = body
            break
        pos += 8 + size + (size & 1)
    if fmt is None:
        raise InvalidInputError(f"{name}: truncated or damaged WAV (no format chunk)", code="truncated")
    tag, channels, rate, bits = fmt
    problems = []
    if tag != 1:
        kind = {3: "floating-point", 6: "A-law", 7: "µ-law"}.get(tag, f"format {tag}")
        problems.append(f"{kind} samples, not 16-bit PCM")
    elif bits != 16:
        problems.append(f"{bits}-bit samples, not 16-bit")
    if not 1 <= channels <= MAX_CHANNELS:
        problems.append(f"{channels} channels, not 1 to {MAX_CHANNELS}")
    if not MIN_RATE <= rate <= MAX_RATE:
        problems.append(f"{rate} Hz, not {MIN_RATE} to {MAX_RATE} Hz")
    if problems:
        raise InvalidInputError(f"{name}: {'; '.join(problems)}; {CONVERT_HINT}", code="wav-format")
    if pcm is None:
        raise InvalidInputError(f"{name}: truncated WAV (no audio data)", code="truncated")
    if len(pcm) < declared:
        raise InvalidInputError(
            f"{name}: truncated WAV ({len(pcm)} of {declared} audio bytes present)", code="truncated"
        )
    frame = 2 * channels
    samples = np.frombuffer(pcm[: len(pcm) - len(pcm) % frame], dtype="<i2")
    if len(samples) == 0:
        raise InvalidInputError(f"{name}: the WAV file holds no audio", code="empty")
    if channels == 1 and rate == SAMPLE_RATE:
        return Utterance(_dithered(samples.astype(np.int16)), source=name)
    if len(samples) // channels > MAX_CONVERTED_SECONDS * rate:
        raise InvalidInputError(f"{name}: over {MAX_CONVERTED_SECONDS // 60} minutes; cut it into single utterances",
                                code="too-long")
    mixed = samples.reshape(-1, channels).mean(axis=1, dtype=np.float64)
    out = resample(mixed, rate, SAMPLE_RATE)
    if len(out) == 0:
        raise InvalidInputError(f"{name}: the WAV file holds no audio", code="empty")
    return Utterance(_dithered(np.clip(np.round(out), -32768, 32767).astype(np.int16)), source=name)


DITHER_DB = -60.0  # the faint floor given to a file whose silence is digital zero (as ``pad`` gives)
ZERO_RUN = 160  # 10 ms of samples exactly zero: no microphone's self-noise is ever that quiet


def _dithered(samples: np.ndarray) -> np.ndarray:
    """``samples`` with a faint noise floor (``DITHER_DB``, like a microphone's self-noise) added
    when the file's floor is exactly zero: a synthesiser's output written straight to a WAV (espeak-ng
    ``-w``) is digital silence around the words, which the decoders' noise and mean estimates take
    badly (PocketSphinx heard espeak-ng's "Ben, do you have any sevens" as nothing). Only a file with
    a 10 ms stretch of exact zeros is touched (no microphone is that quiet); the floor goes under the
    whole file, as ``pad`` gives it (a floor under the silence alone still lost the sevens). The noise
    is seeded by the file's length, so a file is always heard alike."""
    if longest_run(samples == 0) < ZERO_RUN:
        return samples
    rng = np.random.default_rng(len(samples))
    amp = 32768.0 * 10 ** (DITHER_DB / 20.0)
    out = samples.astype(np.float64) + rng.normal(0.0, amp, len(samples))
    return np.clip(np.round(out), -32768, 32767).astype(np.int16)


def longest_run(mask: np.ndarray) -> int:
    """The length of the longest stretch of true values in ``mask`` (0 when none is true)."""
    edges = np.diff(np.concatenate(([0], np.asarray(mask, dtype=np.int8), [0])))
    runs = np.flatnonzero(edges == -1) - np.flatnonzero(edges == 1)
    return int(runs.max()) if len(runs) else 0


def wav_bytes(utterance: Utterance) -> bytes:
    """The utterance as a WAV file in memory."""
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(utterance.rate)
        out.writeframes(utterance.raw())
    return buffer.getvalue()


def write_wav(path: str | os.PathLike[str], utterance: Utterance) -> Path:
    """Write a 16 kHz mono 16-bit WAV file."""
    path = Path(path)
    path.write_bytes(wav_bytes(utterance))
    return path


def rms_dbfs(samples: np.ndarray | Utterance) -> float:
    """Loudness of the whole signal in dB relative to full scale (-inf dB for digital zero → -120)."""
    x = (samples.samples if isinstance(samples, Utterance) else np.asarray(samples)).astype(np.float64)
    if x.size == 0:
        return -120.0
    power = float(np.mean(x * x)) / (32768.0**2)
    return max(-120.0, 10.0 * np.log10(power)) if power > 0 else -120.0


def frame_energies_db(samples: np.ndarray, frame: int = 480) -> np.ndarray:
    """dBFS of each 30 ms frame."""
    x = np.asarray(samples, dtype=np.float64)
    n = len(x) // frame
    if n == 0:
        return np.array([rms_dbfs(x)])
    frames = x[: n * frame].reshape(n, frame)
    power = np.mean(frames * frames, axis=1) / (32768.0**2)
    return np.maximum(-120.0, 10.0 * np.log10(np.maximum(power, 1e-12)))


def is_silent(utterance: Utterance, threshold_db: float = -50.0) -> bool:
    """True when nothing in the audio rises above ``threshold_db`` (quiet room, digital zero)."""
    energies = frame_energies_db(utterance.samples)
    return bool(np.max(energies) < threshold_db)


def speech_ratio(utterance: Utterance) -> float:
    """Share of 30 ms frames that the WebRTC-style VAD of PocketSphinx calls speech."""
    from pocketsphinx import Vad

    vad = Vad(Vad.MEDIUM_LOOSE, SAMPLE_RATE, 0.03)
    step = vad.frame_bytes // 2
    raw = utterance.samples
    n = len(raw) // step
    if n == 0:
        return 0.0
    hits = sum(vad.is_speech(raw[i * step : (i + 1) * step].astype("<i2").tobytes()) for i in range(n))
    return hits / n


def has_speech(utterance: Utterance) -> bool:
    """A cheap check before decoding: not silent, and some frames look like speech with a
    clear rise above the floor (steady noise such as a fan or hiss has no dynamic range)."""
    if is_silent(utterance):
        return False
    energies = frame_energies_db(utterance.samples)
    floor = float(np.percentile(energies, 10))
    peak = float(np.percentile(energies, 98))
    return peak - floor >= 9.0 and speech_ratio(utterance) >= 0.05


def pad(utterance: Utterance, before: float = 0.3, after: float = 0.3, floor_db: float = -60.0, seed: int = 0) -> Utterance:
    """Add quiet with a faint noise floor around tightly trimmed audio (digital zero hurts decoders)."""
    rng = np.random.default_rng(seed)
    amp = 32768.0 * 10 ** (floor_db / 20.0)

    def quiet(seconds: float) -> np.ndarray:
        return rng.normal(0.0, amp, int(seconds * SAMPLE_RATE))

    body = utterance.samples.astype(np.float64) + rng.normal(0.0, amp, len(utterance.samples))
    out = np.concatenate([quiet(before), body, quiet(after)])
    return Utterance(np.clip(np.round(out), -32768, 32767).astype(np.int16), source=utterance.source)
