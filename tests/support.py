"""Helpers shared by the test folders: the real command line and the shared development data."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("TABLETOP_SHARED_DATA", ROOT.parent / "shared" / "data"))


def tabletop_command() -> list[str]:
    """Run the real command-line program in a subprocess."""
    return [sys.executable, "-m", "tabletop"]


# A microphone for tests: the default ALSA capture device becomes a `file` PCM that reads raw
# 16 kHz s16 audio, so PortAudio (through sounddevice) records exactly that audio.
ASOUNDRC = """\
pcm.!default {{
    type file
    slave.pcm "null"
    file "/dev/null"
    infile "{infile}"
    format "raw"
}}
"""


def file_microphone_home(folder: Path, raw: bytes) -> Path:
    """A HOME whose default microphone plays ``raw`` (16 kHz mono s16le); returns the HOME."""
    infile = folder / "microphone.raw"
    infile.write_bytes(raw)
    home = folder / "home"
    home.mkdir(exist_ok=True)
    (home / ".asoundrc").write_text(ASOUNDRC.format(infile=infile))
    return home


def portaudio_loads() -> bool:
    """Whether sounddevice finds the PortAudio library (it raises OSError, not ImportError)."""
    try:
        import sounddevice  # noqa: F401
    except OSError:
        return False
    return True
