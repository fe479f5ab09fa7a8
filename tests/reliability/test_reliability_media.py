"""Bad audio files and bad images: a plain refusal within time and memory bounds, never a crash.

Audio: truncated, rates and channel counts it cannot take, wrong sample format, garbage, empty, huge header claims,
special files, oversized files, and random damage to a good WAV. Images: decompression bombs in
several formats (PNG, JPEG, GIF, BMP), truncated and garbage files, special and oversized files.
"""

from __future__ import annotations

import io
import os
import random
import struct
import time
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faults import SOAK, assert_plain_failure, cli

from tabletop.errors import InvalidInputError
from tabletop.speech.audio import Utterance, read_wav, wav_bytes
from tabletop.vision.images import MAX_IMAGE_BYTES, read_image


def _wav(channels: int = 1, rate: int = 16_000, bits: int = 16, tag: int = 1, frames: int = 1600,
         data_size: int | None = None, fmt_size: int = 16) -> bytes:
    block = channels * bits // 8
    body = bytes(frames * block)
    fmt = struct.pack("<HHIIHH", tag, channels, rate, rate * block, block, bits) + bytes(fmt_size - 16)
    data = struct.pack("<4sI", b"data", len(body) if data_size is None else data_size) + body
    riff = b"WAVE" + struct.pack("<4sI", b"fmt ", fmt_size) + fmt + data
    return b"RIFF" + struct.pack("<I", len(riff)) + riff


GOOD = wav_bytes(Utterance(np.zeros(8000, dtype=np.int16)))

BAD_AUDIO = {
    "empty": b"",
    "garbage": bytes(random.Random(1).randrange(256) for _ in range(5000)),
    "header only": GOOD[:44],
    "truncated data": GOOD[:2000],
    "truncated header": GOOD[:30],
    "4 kHz": _wav(rate=4000),
    "no rate": _wav(rate=0),
    "1 GHz": _wav(rate=1_000_000_000),
    "no channels": _wav(channels=0),
    "nine channels": _wav(channels=9),
    "8-bit": _wav(bits=8),
    "float": _wav(tag=3, bits=32),
    "a-law": _wav(tag=6, bits=8),
    "data claims 4 GB": _wav(data_size=0xFFFFFFF0),
    "fmt claims 4 GB": _wav(fmt_size=16)[:16] + struct.pack("<I", 0xFFFFFFF0) + _wav()[20:],
    "no data": _wav(frames=0),
    "a million empty chunks": b"RIFF\xff\xff\xff\xffWAVE" + b"junk\x00\x00\x00\x00" * 200_000,
    "an MP3": b"ID3\x03\x00\x00\x00\x00\x00\x00" + bytes(3000),
}


@pytest.mark.parametrize("name", BAD_AUDIO)
def test_bad_audio_is_refused_plainly(tmp_path: Path, name: str) -> None:
    path = tmp_path / "clip.wav"
    path.write_bytes(BAD_AUDIO[name])
    start = time.process_time()
    with pytest.raises(InvalidInputError) as refused:
        read_wav(path)
    assert time.process_time() - start < 2
    assert str(path) in refused.value.reason and len(refused.value.reason) < 300


def _special_file(folder: Path, special: str, suffix: str, head: bytes, huge: int) -> Path:
    """The path a test of special files reads: a device as named, or made in ``folder``: a FIFO, the
    folder itself, a missing file, or a sparse file of ``huge`` bytes that starts as a good one (``head``)."""
    if special == "fifo":
        path = folder / f"fifo{suffix}"
        os.mkfifo(path)
        return path
    if special == "folder":
        return folder
    if special in ("missing", "huge"):
        path = folder / f"{special}{suffix}"
        if special == "huge":
            with path.open("wb") as out:
                out.write(head)
                out.truncate(huge)
        return path
    return Path(special)


@pytest.mark.parametrize("special", ["/dev/zero", "/dev/urandom", "fifo", "folder", "missing", "huge"])
def test_special_or_huge_audio_files_are_refused_at_once(tmp_path: Path, special: str) -> None:
    path = _special_file(tmp_path, special, ".wav", GOOD[:44], 2**34)  # 16 GB, sparse
    start = time.monotonic()
    with pytest.raises(InvalidInputError):
        read_wav(path)
    assert time.monotonic() - start < 2


@settings(max_examples=2000 if SOAK else 100, deadline=None)
@given(seed=st.integers(0, 2**32), edits=st.integers(1, 8))
def test_damaged_wavs_load_or_are_refused(tmp_path_factory, seed: int, edits: int) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    data = bytearray(_wav(frames=400))
    for _ in range(edits):
        at = rng.randrange(len(data))
        kind = rng.randrange(3)
        if kind == 0:
            data[at] = rng.randrange(256)
        elif kind == 1:
            del data[at:at + rng.randrange(1, 40)]
        else:
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 8)))
    path = tmp_path_factory.mktemp("wav") / "clip.wav"
    path.write_bytes(bytes(data))
    try:
        utterance = read_wav(path)
    except InvalidInputError:
        return
    assert utterance.samples.dtype == np.int16 and len(utterance) > 0


def test_hear_and_play_refuse_bad_files_plainly(tmp_path: Path) -> None:
    paths = []
    for name in ("4 kHz", "garbage", "data claims 4 GB"):
        path = tmp_path / f"{name.replace(' ', '-')}.wav"
        path.write_bytes(BAD_AUDIO[name])
        paths.append(str(path))
    ran = cli(["hear", *paths, "--players", "Ana", "Ben"])
    assert ran.code != 0 and "Traceback" not in ran.err
    assert len(ran.err.splitlines()) == len(paths)


# ---- images ----

def _png(width: int, height: int) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(bytes(65_536), 9)) + chunk(b"IEND", b""))


def _jpeg(width: int, height: int) -> bytes:
    """A real small JPEG whose frame header (SOF0) is rewritten to claim ``width`` x ``height``."""
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (64, 64), (200, 30, 30)).save(out, "JPEG")
    data = bytearray(out.getvalue())
    at = data.index(b"\xff\xc0")
    data[at + 5:at + 9] = struct.pack(">HH", height, width)
    return bytes(data)


def _bmp(width: int, height: int) -> bytes:
    header = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 24, 0, 0, 2835, 2835, 0, 0)
    return b"BM" + struct.pack("<IHHI", 14 + 40 + 1024, 0, 0, 54) + header + bytes(1024)


def _gif(width: int, height: int) -> bytes:
    return (b"GIF89a" + struct.pack("<HHBBB", width, height, 0x80, 0, 0) + bytes(6)
            + b"," + struct.pack("<HHHHB", 0, 0, width, height, 0) + b"\x02\x02\x44\x01\x00;")


BAD_IMAGES = {
    "png bomb": _png(20_000, 20_000),
    "png 65535 square": _png(65_535, 65_535),
    "jpeg bomb": _jpeg(65_000, 65_000),
    "bmp bomb": _bmp(60_000, 60_000),
    "gif bomb": _gif(65_535, 65_535),
    "png wider than long": _png(2**31 - 1, 1),
    "truncated jpeg": _jpeg(64, 64)[:300],
    "garbage": bytes(random.Random(2).randrange(256) for _ in range(4000)),
    "empty": b"",
    "text": b"hello, this is not an image\n",
}


@pytest.mark.parametrize("name", BAD_IMAGES)
def test_bad_images_are_refused_plainly(tmp_path: Path, name: str) -> None:
    path = tmp_path / "photo.img"
    path.write_bytes(BAD_IMAGES[name])
    start = time.process_time()
    with pytest.raises(InvalidInputError) as refused:
        read_image(path)
    assert time.process_time() - start < 2
    assert len(refused.value.reason) < 300


@pytest.mark.parametrize("special", ["/dev/zero", "fifo", "folder", "huge"])
def test_special_or_huge_image_files_are_refused_at_once(tmp_path: Path, special: str) -> None:
    path = _special_file(tmp_path, special, ".png", _png(100, 100), MAX_IMAGE_BYTES + 1)
    start = time.monotonic()
    with pytest.raises(InvalidInputError):
        read_image(path)
    assert time.monotonic() - start < 2


def test_a_good_image_still_reads(tmp_path: Path) -> None:
    from PIL import Image

    path = tmp_path / "ok.png"
    Image.new("RGB", (640, 480), (10, 200, 30)).save(path)
    image = read_image(path)
    assert image.shape == (480, 640, 3) and tuple(image[0, 0]) == (30, 200, 10)


@pytest.mark.parametrize("name", ["jpeg bomb", "bmp bomb"])
def test_see_refuses_bombs_in_bounded_memory(tmp_path: Path, name: str) -> None:
    path = tmp_path / "photo.img"
    path.write_bytes(BAD_IMAGES[name])
    ran = cli(["see", str(path), "--json"])
    assert_plain_failure(ran)
    assert ran.max_rss_mb < 600, ran.max_rss_mb
