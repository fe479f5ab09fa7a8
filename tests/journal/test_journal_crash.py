"""The journal survives a real `tabletop play` process being killed at a random instant.

Each trial feeds a scripted game to `tabletop play --text`, kills it with SIGKILL at a random
moment (mid-write included), resumes the journal with the lines not yet recorded, and repeats
until the script is done. The final state must equal that of a run that was never killed.
Two trials (four kills) in the default run, six (twelve kills) in the soak (``TABLETOP_SOAK=1``);
tests/reliability/test_reliability_kill.py kills at many more instants, each state checked.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import time
from pathlib import Path

import pytest

from support import SOAK, tabletop_command
from playthrough import accepted_script

PLAYERS = ["Ana", "Ben", "Cho"]
TRIALS = 6 if SOAK else 2


def _play(args: list[str], lines: list[str], kill_at: tuple[int, float] | None) -> bool:
    """Feed ``lines`` to `tabletop play`.

    With ``kill_at=(k, delay)``, SIGKILL it ``delay`` seconds after line ``k`` was sent, wherever
    it is then (parsing, ruling, in the middle of writing the journal). Returns whether it was killed.
    """
    proc = subprocess.Popen(
        tabletop_command() + ["play", "--text", "--json", *args],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )
    killed = False
    try:
        for i, line in enumerate(lines):
            proc.stdin.write(line + "\n")  # type: ignore[union-attr]
            proc.stdin.flush()  # type: ignore[union-attr]
            if kill_at is not None and i == kill_at[0]:
                time.sleep(kill_at[1])
                os.killpg(proc.pid, signal.SIGKILL)
                killed = True
                break
            time.sleep(0.002)
        proc.stdin.close()  # type: ignore[union-attr]
    except BrokenPipeError:
        pass
    proc.wait(timeout=120)
    if not killed:
        assert proc.returncode == 0, proc.stderr.read()  # type: ignore[union-attr]
    return killed


def _recorded(journal: Path) -> int:
    """How many script lines the journal holds (said steps, counting only whole lines)."""
    count = 0
    for raw in journal.read_bytes().split(b"\n"):
        try:
            record = json.loads(raw)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict) and "text" in record:
            count += 1
    return count


def _state(journal: Path) -> dict:
    out = subprocess.run(tabletop_command() + ["state", str(journal), "--json"],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_killed_games_resume_to_the_same_state(tmp_path: Path) -> None:
    script = accepted_script(PLAYERS, seed=7, lines=160)
    reference = tmp_path / "reference.jsonl"
    _play(["--players", *PLAYERS, "--journal", str(reference)], script, None)
    expected = _state(reference)
    assert _recorded(reference) == len(script)

    rng = random.Random(2026)
    kills = 0
    for trial in range(TRIALS):
        journal = tmp_path / f"killed-{trial}.jsonl"
        args = ["--players", *PLAYERS, "--journal", str(journal)]
        done = 0
        written = b""
        for attempt in range(3):  # killed twice at random instants, then left to finish
            remaining = script[done:]
            kill_at = (rng.randrange(len(remaining)), rng.uniform(0.0, 0.6)) if attempt < 2 else None
            kills += _play(args, remaining, kill_at)
            if not journal.exists():
                continue  # killed before the journal was created: start again
            now = journal.read_bytes()
            assert now.startswith(written), "resuming changed bytes already written"
            written = now
            done = _recorded(journal)
            args = ["--resume", str(journal)]
        assert done == len(script)
        assert _state(journal) == expected, f"trial {trial}"
    assert kills == 2 * TRIALS, "every trial must really be killed twice"


def test_a_torn_last_line_is_reported_and_kept(tmp_path: Path) -> None:
    script = accepted_script(PLAYERS, seed=3, lines=20)
    journal = tmp_path / "game.jsonl"
    _play(["--players", *PLAYERS, "--journal", str(journal)], script[:10], None)
    whole = journal.read_bytes()
    journal.write_bytes(whole + b'{"push": "ask Ana Be')  # power lost in the middle of a line
    state = subprocess.run(tabletop_command() + ["state", str(journal), "--json"], capture_output=True, text=True)
    assert state.returncode == 0 and "cut short" in state.stderr
    out = subprocess.run(tabletop_command() + ["play", "--text", "--resume", str(journal)],
                         input="\n".join(script[10:]) + "\n", capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "cut short" in out.stdout
    data = journal.read_bytes()
    assert data.startswith(whole + b'{"push": "ask Ana Be')
    assert _recorded(journal) == 20


@pytest.mark.parametrize("damage", ["middle", "header"])
def test_other_damage_names_the_line_and_changes_nothing(tmp_path: Path, damage: str) -> None:
    script = accepted_script(PLAYERS, seed=5, lines=12)
    journal = tmp_path / "game.jsonl"
    _play(["--players", *PLAYERS, "--journal", str(journal)], script, None)
    lines = journal.read_bytes().split(b"\n")
    where = 5 if damage == "middle" else 0
    lines[where] = b'{"push": "ask Ana Zed 7"' if damage == "middle" else b"not json"
    journal.write_bytes(b"\n".join(lines))
    before = journal.read_bytes()
    for command in (["state", str(journal), "--json"], ["play", "--text", "--resume", str(journal)]):
        out = subprocess.run(tabletop_command() + command, input="Ben, sevens?\n", capture_output=True, text=True)
        assert out.returncode == 2
        assert f"line {where + 1}" in out.stderr
    assert journal.read_bytes() == before
