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


class ClosedLoop:
    """``tabletop play --audio - --json`` driven as a script drives it: one WAV path (or an empty
    line, a moment of quiet) per line on standard input; ``send`` returns the events it caused,
    up to the ``listening`` line that follows each. Use as a context manager: leaving it closes
    standard input, waits for the program and checks that it exited 0."""

    def __init__(self, players: tuple[str, ...], journal: Path, *extra: str) -> None:
        import queue
        import subprocess
        import threading

        self.proc = subprocess.Popen(tabletop_command() + ["play", "--audio", "-", "--json", "--players", *players,
                                                           "--journal", str(journal), *extra],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
        self._lines: queue.Queue[str] = queue.Queue()
        assert self.proc.stdout is not None
        threading.Thread(target=lambda: [self._lines.put(x) for x in self.proc.stdout], daemon=True).start()

    def until_listening(self, timeout: float = 120) -> list[dict]:
        """The events printed up to the next ``listening`` line."""
        import json

        out = []
        while True:
            event = json.loads(self._lines.get(timeout=timeout))
            if event["event"] == "listening":
                return out
            out.append(event)

    def send(self, line: str) -> list[dict]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return self.until_listening()

    def __enter__(self) -> "ClosedLoop":
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=120)
        if exc[0] is None:
            assert self.proc.returncode == 0, self.proc.stderr.read()[-2000:] if self.proc.stderr else ""
