"""WAV reading and the silence/noise checks: clear messages, no crash."""

from __future__ import annotations

import struct
import wave
from pathlib import Path

import numpy as np
import pytest

from tabletop.errors import InvalidInputError
from tabletop.speech.audio import Utterance, has_speech, is_silent, pad, read_wav, write_wav
from tabletop.speech.synth import noise_floor, pink_noise


def _wav(path: Path, samples: np.ndarray, rate: int = 16000, channels: int = 1, width: int = 2) -> Path:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(channels)
        out.setsampwidth(width)
        out.setframerate(rate)
        out.writeframes(samples.tobytes())
    return path


def test_reads_a_16k_mono_wav(tmp_path: Path) -> None:
    samples = (np.sin(np.arange(16000) / 5) * 8000).astype(np.int16)
    u = read_wav(_wav(tmp_path / "ok.wav", samples))
    assert u.duration == 1.0
    assert np.array_equal(u.samples, samples)


def test_round_trip(tmp_path: Path) -> None:
    u = Utterance(np.arange(-500, 500, dtype=np.int16))
    assert np.array_equal(read_wav(write_wav(tmp_path / "r.wav", u)).samples, u.samples)


def test_wrong_rate_says_how_to_convert(tmp_path: Path) -> None:
    path = _wav(tmp_path / "44k.wav", np.zeros(4410, dtype=np.int16), rate=44100)
    with pytest.raises(InvalidInputError) as error:
        read_wav(path)
    assert "44100 Hz" in error.value.reason
    assert "sox" in error.value.reason and "-r 16000 -c 1 -b 16" in error.value.reason


def test_stereo_is_refused(tmp_path: Path) -> None:
    path = _wav(tmp_path / "stereo.wav", np.zeros(3200, dtype=np.int16), channels=2)
    with pytest.raises(InvalidInputError, match="2 channels, not mono"):
        read_wav(path)


def test_8_bit_is_refused(tmp_path: Path) -> None:
    path = _wav(tmp_path / "8bit.wav", np.full(1600, 128, dtype=np.uint8), width=1)
    with pytest.raises(InvalidInputError, match="8-bit"):
        read_wav(path)


def test_float_wav_is_refused(tmp_path: Path) -> None:
    data = np.zeros(1600, dtype="<f4").tobytes()
    header = b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVE"
    fmt = b"fmt " + struct.pack("<IHHIIHH", 16, 3, 1, 16000, 64000, 4, 32)
    path = tmp_path / "float.wav"
    path.write_bytes(header + fmt + b"data" + struct.pack("<I", len(data)) + data)
    with pytest.raises(InvalidInputError, match="floating-point"):
        read_wav(path)


def test_truncated_wav(tmp_path: Path) -> None:
    good = _wav(tmp_path / "good.wav", np.ones(16000, dtype=np.int16)).read_bytes()
    path = tmp_path / "cut.wav"
    path.write_bytes(good[: len(good) // 2])
    with pytest.raises(InvalidInputError, match="truncated") as error:
        read_wav(path)
    assert error.value.code == "truncated"
    (tmp_path / "header.wav").write_bytes(good[:30])
    with pytest.raises(InvalidInputError, match="truncated"):
        read_wav(tmp_path / "header.wav")


def test_not_a_wav(tmp_path: Path) -> None:
    path = tmp_path / "notes.wav"
    path.write_text("ben do you have any sevens")
    with pytest.raises(InvalidInputError, match="not a WAV file"):
        read_wav(path)
    with pytest.raises(InvalidInputError, match="no such file"):
        read_wav(tmp_path / "missing.wav")
    with pytest.raises(InvalidInputError, match="no audio"):
        read_wav(_wav(tmp_path / "empty.wav", np.zeros(0, dtype=np.int16)))


def test_silence_and_noise_are_not_speech() -> None:
    silence = Utterance(np.zeros(16000, dtype=np.int16))
    assert is_silent(silence) and not has_speech(silence)
    floor = Utterance(np.round(noise_floor(16000, -58.0)).astype(np.int16))
    assert is_silent(floor) and not has_speech(floor)
    hiss = Utterance(np.round(pink_noise(32000, seed=3) * 3000).astype(np.int16))
    assert not is_silent(hiss)
    assert not has_speech(hiss)


def test_speech_is_speech(espeak: None) -> None:
    from tabletop.speech.synth import realistic

    assert has_speech(realistic("ben do you have any sevens"))


def test_pad_adds_a_noise_floor_not_zeros() -> None:
    u = pad(Utterance(np.full(1600, 1000, dtype=np.int16)), before=0.2, after=0.2)
    assert u.duration == pytest.approx(0.5, abs=0.01)
    assert np.count_nonzero(u.samples[:3200]) > 3000


def test_float_samples_are_converted() -> None:
    u = Utterance(np.array([0.0, 0.5, -1.0]))
    assert u.samples.dtype == np.int16 and u.samples[2] == -32767
    with pytest.raises(InvalidInputError, match="mono"):
        Utterance(np.zeros((10, 2), dtype=np.int16))
