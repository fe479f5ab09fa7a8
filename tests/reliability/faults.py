"""Helpers for the reliability suite: real games, real journals, the real command line.

``SOAK`` (set ``TABLETOP_SOAK=1``) turns the quick CI run into a long soak: more kills, more
fuzzing, more mutations.
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from support import ROOT, SOAK, tabletop_command

sys.path.insert(0, str(ROOT / "tests" / "journal"))
from playthrough import accepted_script  # noqa: E402

from tabletop.cli import main  # noqa: E402
try:
    from tabletop.journal import chain_hash
except ImportError:  # a tabletop before the hash chain: lets this suite be run against an older commit
    chain_hash = None  # type: ignore[assignment]

__all__ = ["SOAK", "PLAYERS", "accepted_script", "Ran", "cli", "run_cli", "make_journal", "records", "write_records",
           "rehash", "assert_plain_failure", "invariants_hold", "main"]

PLAYERS = ["Ana", "Ben", "Cho"]


@dataclass
class Ran:
    code: int
    out: str
    err: str
    max_rss_mb: float = 0.0


# Runs the command as a fresh fork of a small process and reports its peak memory on stderr. Peak
# memory (ru_maxrss) carries over exec from the process that forked: a child forked straight from
# this big test process would report this process's size, not its own.
_MEASURED = (
    "import os, signal, sys\n"
    "pid = os.fork()\n"
    "if pid == 0:\n"
    "    os.execv(sys.executable, [sys.executable] + sys.argv[1:])\n"
    "_, status, usage = os.wait4(pid, 0)\n"
    "sys.stderr.write('\\n@maxrss %d\\n' % usage.ru_maxrss)\n"
    "code = os.waitstatus_to_exitcode(status)\n"
    "if code < 0:\n"
    "    signal.signal(-code, signal.SIG_DFL)\n"
    "    os.kill(os.getpid(), -code)\n"
    "sys.exit(code)\n"
)


def cli(args: Sequence[str], stdin: bytes = b"", timeout: float = 120) -> Ran:
    """Run the real `tabletop` program in a subprocess; measures its own peak memory."""
    command = [sys.executable, "-c", _MEASURED] + tabletop_command()[1:] + list(args)
    proc = subprocess.run(command, input=stdin, capture_output=True, cwd=ROOT, timeout=timeout)
    err, _, measured = proc.stderr.decode("utf-8").rpartition("\n@maxrss ")
    rss = int(measured) / 1024 if measured.strip().isdigit() else 0.0
    out_text = proc.stdout.decode("utf-8")  # every output line must be valid UTF-8: this raises otherwise
    return Ran(proc.returncode, out_text, err if measured else proc.stderr.decode("utf-8"), rss)


def run_cli(args: Sequence[str], stdin: bytes = b"") -> Ran:
    """Run `tabletop` in this process (fast), with ``stdin`` as its standard input."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        sys.stdin = old_stdin
    return Ran(code, out.getvalue(), err.getvalue())


def make_journal(path: Path, lines: Sequence[str], players: Sequence[str] = PLAYERS) -> Path:
    ran = run_cli(["play", "--text", "--quiet", "--no-fsync", "--players", *players, "--journal", str(path)],
                  ("\n".join(lines) + "\n").encode())
    assert ran.code == 0, ran.err
    return path


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_bytes().splitlines()]


def write_records(path: Path, lines: Sequence[Any]) -> None:
    """Write JSON values (or raw bytes, as they are) one a line."""
    out = []
    for line in lines:
        # float("inf") is written as the probe wrote it, 1e400 (JSON has no Infinity; Python reads 1e400 as inf)
        out.append(line if isinstance(line, bytes) else json.dumps(line).replace("Infinity", "1e400").encode())
    path.write_bytes(b"\n".join(out) + b"\n")


def rehash(lines: list[Any]) -> list[Any]:  # noqa: D401
    """The chain's hashes computed again after an edit, as a deliberate editor would: so the tests
    reach the checks of shape and range behind the hash."""
    previous = ""
    out = []
    for line in lines:
        if isinstance(line, dict) and "h" in line:
            line = dict(line)
            line["h"] = chain_hash(previous, line)
            previous = line["h"]
        out.append(line)
    return out


def assert_plain_failure(ran: Ran, *, line: int | None = None) -> None:
    """A failed command: non-zero exit, one plain sentence on stderr, no traceback."""
    assert ran.code != 0, (ran.out, ran.err)
    lines = [x for x in ran.err.splitlines() if x.strip()]
    assert "Traceback" not in ran.err and "unexpected error" not in ran.err, ran.err
    assert len(lines) == 1 and lines[0].startswith("tabletop: "), ran.err
    assert len(lines[0]) < 400, lines[0]
    if line is not None:
        assert f"line {line}" in lines[0], lines[0]


def invariants_hold(state: Any) -> None:
    """PRODUCT.md section 3's invariants on a referee State."""
    assert state.cards_accounted() == 52
    assert state.stock >= 0 and all(h >= 0 for h in state.hands)
    booked = [rank for books in state.books for rank in books]
    assert all(booked.count(r) <= state.rules.books_per_rank for r in booked)
