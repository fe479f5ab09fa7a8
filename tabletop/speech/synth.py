"""Synthesised test speech that sounds like a table: espeak-ng voices, a noise floor, babble.

Used by the tests, the bench and ``tabletop demo``. Everything is deterministic: espeak-ng
writes the same samples for the same text, voice and speed, and every noise has a seed.

>>> u = speak("ben do you have any sevens", voice="en-us")   # doctest: +SKIP
>>> noisy = mix(u, table_noise(len(u.samples), seed=1), snr_db=10)   # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

import numpy as np

from tabletop.errors import SetupError
from tabletop.speech.audio import SAMPLE_RATE, Utterance, resample

__all__ = [
    "VOICES",
    "CHATTER",
    "speak",
    "noise_floor",
    "pink_noise",
    "card_clicks",
    "table_noise",
    "babble",
    "mix",
    "realistic",
    "espeak_available",
]

# Voices that espeak-ng ships, each a different timbre or accent.
VOICES = ("en-us", "en", "en-us+f3", "en-us+m3", "en+f2", "en-gb-x-rp+m5", "en-us+f4", "en-029")

# Sentences said at a card table that are not for the referee (for babble and chatter tests).
CHATTER = (
    "pass the salt please",
    "what a lovely day",
    "I need more coffee",
    "did you see the game last night",
    "my back hurts from sitting here",
    "who wants another cup of tea",
    "the cat is sleeping on the sofa",
    "turn the music down a little",
    "we should order pizza later",
    "I love this song",
    "it is raining again outside",
    "where did I put my glasses",
    "the dog needs a walk",
    "can you open the window",
    "that was a long week at work",
    "tomorrow is my sister's birthday",
    "have you finished your homework",
    "the kettle is boiling",
    "let me check my phone",
    "this chair is really comfortable",
    "I think it will snow tonight",
    "grandma called this morning",
    "please stop kicking under the table",
    "someone left the lights on",
    "how was school today",
    "I am getting hungry",
    "the garden looks beautiful",
    "don't forget to feed the fish tank",
    "we ran out of milk",
    "my turn to do the dishes",
)

_CACHE_ENV = "TABLETOP_SYNTH_CACHE"


def espeak_available() -> bool:
    return shutil.which("espeak-ng") is not None


def _cache_dir() -> Path:
    root = os.environ.get(_CACHE_ENV)
    path = Path(root) if root else Path(tempfile.gettempdir()) / "tabletop-synth-cache"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _resample(x: np.ndarray, src: int, dst: int) -> np.ndarray:
    """espeak-ng speaks at 22050 Hz: to 16 kHz with the resampler WAV files are read with
    (:func:`tabletop.speech.audio.resample`), so the same sentence decodes alike on every machine."""
    return resample(x.astype(np.float64), src, dst)


def speak(text: str, voice: str = "en-us", speed: int = 160, pitch: int | None = None, cache: bool = True) -> Utterance:
    """Speak ``text`` with espeak-ng into a 16 kHz mono Utterance (clean, digital silence around it).

    :raises SetupError: when espeak-ng is not installed.
    """
    key = hashlib.sha256(f"{voice}|{speed}|{pitch}|{text}|resample_poly".encode()).hexdigest()[:24]
    cached = _cache_dir() / f"{key}.npy" if cache else None
    if cached is not None and cached.exists():
        try:
            return Utterance(np.load(cached), source=f"espeak-ng:{voice}")
        except (OSError, ValueError):
            pass
    exe = shutil.which("espeak-ng")
    if exe is None:
        raise SetupError("espeak-ng is not installed: apt-get install espeak-ng")
    cmd = [exe, "-v", voice, "-s", str(speed), "--stdout"]
    if pitch is not None:
        cmd += ["-p", str(pitch)]
    cmd.append(text)
    result = subprocess.run(cmd, capture_output=True, timeout=60)
    if result.returncode != 0 or len(result.stdout) < 44:
        raise SetupError(f"espeak-ng failed for voice {voice!r}: {result.stderr.decode(errors='replace').strip()}")
    wav = bytearray(result.stdout)
    # espeak-ng writes a streaming header with size 0xFFFFFFFF; fix sizes so the parser accepts it.
    data_at = wav.find(b"data")
    wav[4:8] = (len(wav) - 8).to_bytes(4, "little")
    wav[data_at + 4 : data_at + 8] = (len(wav) - data_at - 8).to_bytes(4, "little")
    import struct

    rate = struct.unpack("<I", bytes(wav[24:28]))[0]
    samples = np.frombuffer(bytes(wav[data_at + 8 :]), dtype="<i2")
    y = _resample(samples, rate, SAMPLE_RATE)
    out = np.clip(np.round(y), -32768, 32767).astype(np.int16)
    if cached is not None:
        tmp = cached.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp.npy")  # one writer a thread
        np.save(tmp, out)
        os.replace(tmp, cached)
    return Utterance(out, source=f"espeak-ng:{voice}")


def noise_floor(n: int, level_db: float = -58.0, seed: int = 0) -> np.ndarray:
    """A microphone's self-noise: faint, slightly low-passed white noise at ``level_db`` dBFS."""
    rng = np.random.default_rng(seed)
    x = rng.normal(0.0, 1.0, n + 1)
    x = 0.6 * x[1:] + 0.4 * x[:-1]
    return _scale(x, level_db)


def pink_noise(n: int, seed: int = 0) -> np.ndarray:
    """1/f noise (room rumble, rustle), unit RMS."""
    rng = np.random.default_rng(seed)
    spectrum = rng.normal(size=n // 2 + 1) + 1j * rng.normal(size=n // 2 + 1)
    freqs = np.arange(n // 2 + 1, dtype=np.float64)
    freqs[0] = 1.0
    x = np.fft.irfft(spectrum / np.sqrt(freqs), n)
    return x / (np.sqrt(np.mean(x * x)) + 1e-12)


def card_clicks(n: int, rate_per_s: float = 6.0, seed: int = 0) -> np.ndarray:
    """Shuffling and dealing: short decaying bursts of bright noise at random moments, unit RMS."""
    rng = np.random.default_rng(seed)
    x = np.zeros(n)
    count = rng.poisson(rate_per_s * n / SAMPLE_RATE)
    for _ in range(count):
        at = int(rng.integers(0, max(1, n - 400)))
        length = int(rng.integers(80, 400))
        burst = rng.normal(size=length) * np.exp(-np.arange(length) / (length / 5)) * rng.uniform(0.3, 1.0)
        burst = np.diff(burst, prepend=0.0)  # bright: cards are mostly high frequencies
        x[at : at + length] += burst[: n - at]
    rms = np.sqrt(np.mean(x * x))
    return x / rms if rms > 0 else x


def table_noise(n: int, seed: int = 0) -> np.ndarray:
    """Pink room noise plus card clicks, unit RMS."""
    x = pink_noise(n, seed) + 0.7 * card_clicks(n, seed=seed + 7)
    return x / (np.sqrt(np.mean(x * x)) + 1e-12)


def babble(n: int, seed: int = 0, talkers: int = 4, voices: tuple[str, ...] = VOICES) -> np.ndarray:
    """Other people talking: several synthesised voices saying chatter, overlapped, unit RMS."""
    rng = np.random.default_rng(seed)
    x = np.zeros(n)
    for t in range(talkers):
        pos = int(rng.integers(-SAMPLE_RATE, SAMPLE_RATE // 2))
        while pos < n:
            text = CHATTER[int(rng.integers(len(CHATTER)))]
            voice = voices[int(rng.integers(len(voices)))]
            speed = (145, 170, 195)[int(rng.integers(3))]
            s = speak(text, voice=voice, speed=speed).samples.astype(np.float64)
            s *= rng.uniform(0.5, 1.0)
            start = max(pos, 0)
            seg = s[start - pos :]
            end = min(n, start + len(seg))
            if end > start:
                x[start:end] += seg[: end - start]
            pos += len(s) + int(rng.integers(SAMPLE_RATE // 10, SAMPLE_RATE // 2))
    rms = np.sqrt(np.mean(x * x))
    return x / rms if rms > 0 else x


def _scale(x: np.ndarray, level_db: float) -> np.ndarray:
    rms = np.sqrt(np.mean(x * x)) + 1e-12
    return x / rms * 32768.0 * 10 ** (level_db / 20.0)


def _active_power(x: np.ndarray) -> float:
    """Power of the speech frames only (30 ms frames within 30 dB of the loudest)."""
    frame = 480
    n = len(x) // frame
    if n == 0:
        return float(np.mean(x * x))
    p = np.mean(x[: n * frame].reshape(n, frame) ** 2, axis=1)
    active = p[p > p.max() * 1e-3]
    return float(np.mean(active))


def mix(speech: Utterance, noise: np.ndarray, snr_db: float) -> Utterance:
    """Add ``noise`` (tiled or cut to length) so the speech-to-noise ratio is ``snr_db``."""
    s = speech.samples.astype(np.float64)
    noise = np.resize(np.asarray(noise, dtype=np.float64), len(s))
    p_noise = float(np.mean(noise * noise)) + 1e-12
    gain = np.sqrt(_active_power(s) / (p_noise * 10 ** (snr_db / 10.0)))
    y = s + gain * noise
    peak = np.max(np.abs(y))
    if peak > 32000:
        y *= 32000 / peak
    return Utterance(np.round(y).astype(np.int16), source=speech.source)


def realistic(
    text: str,
    voice: str = "en-us",
    speed: int = 160,
    snr_db: float | None = None,
    seed: int = 0,
    lead: float = 0.35,
    tail: float = 0.45,
    level_db: float = -20.0,
    floor_db: float = -58.0,
) -> Utterance:
    """Speech as a table microphone hears it: quiet before and after, a noise floor, and (with
    ``snr_db``) babble and table noise mixed in, half and half by power."""
    clean = speak(text, voice=voice, speed=speed).samples.astype(np.float64)
    clean = _scale(clean, level_db) if np.any(clean) else clean
    body = np.concatenate([np.zeros(int(lead * SAMPLE_RATE)), clean, np.zeros(int(tail * SAMPLE_RATE))])
    body = body + noise_floor(len(body), floor_db, seed=seed)
    u = Utterance(np.clip(np.round(body), -32768, 32767).astype(np.int16), source=f"espeak-ng:{voice}")
    if snr_db is None:
        return u
    n = len(body)
    noise = babble(n, seed=seed + 101) + table_noise(n, seed=seed + 202)
    # SNR relative to the clean speech only (not its added floor).
    s = Utterance(np.clip(np.round(body), -32768, 32767).astype(np.int16), source=u.source)
    return mix(s, noise, snr_db)
