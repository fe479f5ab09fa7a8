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


def _tone(rate: int, seconds: float, hz: float, amplitude: float = 8000.0) -> np.ndarray:
    return np.round(np.sin(2 * np.pi * hz * np.arange(int(rate * seconds)) / rate) * amplitude).astype(np.int16)


def _peak_hz(u: Utterance) -> float:
    spectrum = np.abs(np.fft.rfft(u.samples.astype(np.float64)))
    return float(np.argmax(spectrum)) * u.rate / len(u.samples)


@pytest.mark.parametrize("rate", [8000, 11025, 22050, 32000, 44100, 48000, 96000])
@pytest.mark.parametrize("channels", [1, 2])
def test_any_common_rate_and_channels_become_16k_mono(tmp_path: Path, rate: int, channels: int) -> None:
    """A newcomer's recording (a phone's 8 kHz, espeak-ng's 22.05 kHz, a laptop's 44.1 or 48 kHz,
    stereo) is read as 16 kHz mono: same length, same pitch, same loudness."""
    tone = _tone(rate, 1.0, 440.0)
    frames = np.repeat(tone, channels) if channels > 1 else tone
    u = read_wav(_wav(tmp_path / "in.wav", frames.astype("<i2"), rate=rate, channels=channels))
    assert u.rate == 16000 and u.samples.dtype == np.int16 and u.samples.ndim == 1
    assert len(u.samples) == 16000
    assert _peak_hz(u) == pytest.approx(440.0, abs=1.0)
    middle = u.samples[1000:-1000].astype(np.float64)
    assert np.sqrt(np.mean(middle**2)) == pytest.approx(8000 / np.sqrt(2), rel=0.01)


def test_stereo_is_mixed_down_to_the_mean_of_its_channels(tmp_path: Path) -> None:
    left = _tone(16000, 0.5, 300.0)
    right = _tone(16000, 0.5, 1200.0, amplitude=4000.0)
    u = read_wav(_wav(tmp_path / "stereo.wav", np.stack([left, right], axis=1).reshape(-1), channels=2))
    expected = np.round((left.astype(np.float64) + right) / 2).astype(np.int16)
    assert np.array_equal(u.samples, expected)
    six = np.repeat(left, 6)
    assert np.array_equal(read_wav(_wav(tmp_path / "six.wav", six, channels=6)).samples, left)


def test_what_is_above_8_khz_does_not_fold_back_into_the_band(tmp_path: Path) -> None:
    """A 12 kHz whistle in a 48 kHz recording must vanish, not come back as a 4 kHz tone (what
    dropping samples or linear interpolation would do): the resampler low-passes first."""
    u = read_wav(_wav(tmp_path / "whistle.wav", _tone(48000, 1.0, 12000.0), rate=48000))
    assert np.sqrt(np.mean(u.samples[1000:-1000].astype(np.float64) ** 2)) < 8000 * 0.01


def test_rates_and_channels_it_cannot_take_say_how_to_convert(tmp_path: Path) -> None:
    path = _wav(tmp_path / "4k.wav", np.zeros(4000, dtype=np.int16), rate=4000)
    with pytest.raises(InvalidInputError) as error:
        read_wav(path)
    assert "4000 Hz" in error.value.reason and error.value.code == "wav-format"
    assert "sox" in error.value.reason and "-r 16000 -c 1 -b 16" in error.value.reason
    path = _wav(tmp_path / "nine.wav", np.zeros(9 * 1600, dtype=np.int16), channels=9)
    with pytest.raises(InvalidInputError, match="9 channels, not 1 to 8"):
        read_wav(path)


def test_an_odd_rate_is_read_at_its_pitch(tmp_path: Path) -> None:
    """A rate no recorder uses (a damaged header, 44,101 Hz) is resampled with a ratio close to the
    exact one, so the filter stays small and the pitch is right."""
    u = read_wav(_wav(tmp_path / "odd.wav", _tone(44101, 1.0, 440.0), rate=44101))
    assert len(u.samples) == pytest.approx(16000, abs=20)
    assert _peak_hz(u) == pytest.approx(440.0, abs=1.0)


def test_a_long_recording_to_convert_is_refused(tmp_path: Path) -> None:
    path = _wav(tmp_path / "long.wav", np.zeros(8000 * 601, dtype=np.int16), rate=8000)
    with pytest.raises(InvalidInputError, match="over 10 minutes") as error:
        read_wav(path)
    assert error.value.code == "too-long"


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


def test_digital_silence_in_a_file_gets_a_faint_floor(tmp_path: Path, espeak: None) -> None:
    """espeak-ng's own WAV (``-w``, 22,050 Hz) is digital zero around the words: read, it gets a faint
    noise floor (about -60 dBFS, as ``pad`` gives), the same every time it is read; the words stay."""
    import subprocess

    path = tmp_path / "fish.wav"
    subprocess.run(["espeak-ng", "-w", str(path), "go fish"], check=True)
    with wave.open(str(path)) as f:
        raw = np.frombuffer(f.readframes(f.getnframes()), dtype="<i2")
    assert np.count_nonzero(raw[-4000:]) == 0  # the synthesiser's tail is digital zero
    u = read_wav(path)
    tail = u.samples[-2000:].astype(np.float64)
    assert np.count_nonzero(tail) > 1800
    assert 20 * np.log10(np.sqrt(np.mean(tail**2)) / 32768) == pytest.approx(-60.0, abs=1.5)
    assert np.array_equal(read_wav(path).samples, u.samples)
    assert has_speech(u) and not is_silent(u)


def test_a_recordings_own_floor_is_left_alone(tmp_path: Path) -> None:
    """A real recording (Speech Commands, 16 kHz, a microphone's floor) is read sample for sample: the
    floor is added only where a file holds 10 ms of exact zeros."""
    from support import SHARED_DATA

    clip = SHARED_DATA / "speech-dev" / "speech_commands" / "sample_v0.01" / "yes" / "439c84f4_nohash_1.wav"
    if not clip.exists():
        pytest.skip(f"the real recordings are not here ({clip})")
    with wave.open(str(clip)) as f:
        raw = np.frombuffer(f.readframes(f.getnframes()), dtype="<i2")
    assert np.array_equal(read_wav(clip).samples, raw)
    # short runs of zeros (a quiet recording's samples crossing zero) are no digital silence
    quiet = np.tile(np.array([0] * 100 + [3, -2, 1], dtype=np.int16), 50)
    assert np.array_equal(read_wav(_wav(tmp_path / "quiet.wav", quiet)).samples, quiet)
