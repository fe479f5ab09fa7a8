"""A full disk, for real: a tiny tmpfs made by the test (root only; skipped, with the reason,
where it cannot be mounted; test_reliability_found.py injects the same fault in process).

The game stops with one plain sentence (the disk is full, the game is saved up to the last
announcement, how to resume), exits non-zero, and the journal holds exactly the last announced
state. With space freed, the resume finishes the game as if nothing had happened.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Iterator

import pytest

from faults import PLAYERS, accepted_script, assert_plain_failure, cli, run_cli

from support import ROOT, tabletop_command

from tabletop.journal import load


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tiny tmpfs needs root")
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)], capture_output=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {made.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def _fill(disk: Path, leave: int) -> Path:
    """A file that leaves about ``leave`` bytes free on ``disk``."""
    filler = disk / "filler"
    info = os.statvfs(disk)
    free = info.f_bavail * info.f_frsize
    with filler.open("wb") as out:
        out.write(b"\0" * max(0, free - leave))
    return filler


def test_a_full_disk_stops_the_game_plainly_and_loses_nothing(tiny_disk: Path) -> None:
    script = accepted_script(PLAYERS, seed=31, lines=90)
    reference = run_cli(["play", "--text", "--json", "--no-fsync", "--players", *PLAYERS, "--journal",
                         str(tiny_disk.parent / "reference.jsonl")], ("\n".join(script) + "\n").encode())
    filler = _fill(tiny_disk, 4096)
    journal = tiny_disk / "game.jsonl"
    ran = cli(["play", "--text", "--json", "--players", *PLAYERS, "--journal", str(journal)],
              ("\n".join(script) + "\n").encode())
    assert_plain_failure(ran)
    assert "disk is full" in ran.err and f"tabletop play --resume {journal}" in ran.err
    announced = [e["state"] for e in map(json.loads, ran.out.splitlines()) if "state" in e]
    assert 1 < len(announced) < len(script), "the disk must fill in the middle of the game"
    assert load(journal).game.public() == announced[-1]  # safe up to the last announcement, exactly

    filler.unlink()
    recorded = sum("text" in json.loads(line) for line in journal.read_bytes().splitlines())
    ran = cli(["play", "--text", "--json", "--resume", str(journal)], ("\n".join(script[recorded:]) + "\n").encode())
    assert ran.code == 0, ran.err
    expected = [e["state"] for e in map(json.loads, reference.out.splitlines()) if "state" in e][-1]
    assert load(journal).game.public() == expected


def test_a_full_disk_before_the_game_starts(tiny_disk: Path) -> None:
    _fill(tiny_disk, 0)
    journal = tiny_disk / "game.jsonl"
    ran = cli(["play", "--text", "--players", *PLAYERS, "--journal", str(journal)], b"Ben, sevens?\n")
    assert_plain_failure(ran)
    assert "disk is full" in ran.err and "no game was started" in ran.err
    assert sorted(os.listdir(tiny_disk)) == ["filler"]


def test_output_to_a_full_device(tmp_path: Path) -> None:
    """`tabletop state J > /dev/full`: a plain sentence, not a traceback."""
    journal = tmp_path / "game.jsonl"
    run_cli(["play", "--text", "--quiet", "--players", *PLAYERS, "--journal", str(journal)], b"Ben, sevens?\n")
    with open("/dev/full", "wb") as full:
        proc = subprocess.run(tabletop_command() + ["state", str(journal)], stdout=full, stderr=subprocess.PIPE,
                              cwd=ROOT)
    assert proc.returncode != 0
    err = proc.stderr.decode()
    assert "Traceback" not in err and err.startswith("tabletop: ") and len(err.splitlines()) == 1, err
