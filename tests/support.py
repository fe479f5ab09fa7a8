"""Helpers shared by the test folders: the real command line and the shared development data."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("TABLETOP_SHARED_DATA", ROOT.parent / "shared" / "data"))
# The one flag for the long soaks (TABLETOP_SOAK=1): thousands of simulated games, more kills, more
# fuzzing. The default run keeps a quick sample of every kind, so CI stays well under 15 minutes.
SOAK = os.environ.get("TABLETOP_SOAK", "") not in ("", "0")


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
    line, a moment of quiet; or ``type: SENTENCE``, a typed sentence) per line on standard input;
    ``send`` returns the events it caused, up to the ``listening`` line that follows each, or up to
    the program's end (a game stopped: ``ended`` is then True). Use as a context manager: leaving it
    closes standard input, waits for the program and checks that it exited 0. Standard error is
    read as it comes (a long game must never block on a full pipe); ``stderr`` holds its tail."""

    def __init__(self, players: tuple[str, ...] | list[str], journal: Path, *extra: str) -> None:
        import queue
        import subprocess
        import threading

        self.proc = subprocess.Popen(tabletop_command() + ["play", "--audio", "-", "--json", "--players", *players,
                                                           "--journal", str(journal), *extra],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, cwd=ROOT)  # this checkout's tabletop, wherever it is run from
        self._lines: queue.Queue[str | None] = queue.Queue()
        self.ended = False
        self._stderr: list[str] = []
        assert self.proc.stdout is not None and self.proc.stderr is not None

        def read(stream: Any, put: Any) -> None:
            for line in stream:
                put(line)
            put(None)

        threading.Thread(target=read, args=(self.proc.stdout, self._lines.put), daemon=True).start()
        threading.Thread(target=read, args=(self.proc.stderr, self._keep), daemon=True).start()

    def _keep(self, line: str | None) -> None:
        if line is not None:
            self._stderr.append(line)
            del self._stderr[:-200]

    @property
    def stderr(self) -> str:
        return "".join(self._stderr)

    def until_listening(self, timeout: float = 120) -> list[dict]:
        """The events printed up to the next ``listening`` line (or the program's end)."""
        import json

        out: list[dict] = []
        while not self.ended:
            line = self._lines.get(timeout=timeout)
            if line is None:
                self.ended = True
                break
            event = json.loads(line)
            if event["event"] == "listening":
                return out
            out.append(event)
        return out

    def send(self, line: str) -> list[dict]:
        assert self.proc.stdin is not None
        if self.ended:
            return []
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return self.until_listening()

    def __enter__(self) -> "ClosedLoop":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close(check=exc[0] is None)

    def close(self, check: bool = True) -> None:
        """Close standard input and wait for the program (checking that it exited 0)."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        self.proc.wait(timeout=120)
        if check:
            assert self.proc.returncode == 0, self.stderr[-2000:]


def ana_asked_ben_for_sevens(preset: str) -> Any:
    """A table of Ana and Ben (``preset``'s rules, no journal) waiting for Ben's answer to Ana's ask
    of sevens: where the answer tests hear what Ben says."""
    from tabletop.rules import Rules
    from tabletop.table import Table

    table = Table.new(("Ana", "Ben"), Rules.preset(preset), durable=False)
    table.hear_text("Ana asks Ben for sevens")
    return table
