"""kill -9 at random moments of a scripted typed game: a resume equals the last announced state.

The real `tabletop play --text --json` is fed a scripted game and SIGKILLed at a random instant
(starting up, creating the journal, ruling, writing, announcing). What it announced before
dying is read from its output. The journal must then hold exactly the last announced state, or
one step more (written and flushed, killed before it could be announced): never less, never
anything else. The game is then resumed with the lines not yet recorded and must end exactly as
a run that was never killed. ``TABLETOP_SOAK=1`` kills it many more times.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import threading
import time
from pathlib import Path

from faults import PLAYERS, SOAK, accepted_script, run_cli
from support import ROOT, tabletop_command

from tabletop.journal import load

TRIALS = 40 if SOAK else 3
KILLS_PER_TRIAL = 3 if SOAK else 2


def _announced_states(output: str) -> list[dict]:
    return [event["state"] for event in map(json.loads, output.splitlines()) if "state" in event]


def _play_and_kill(args: list[str], lines: list[str], kill_at: tuple[int, float] | None) -> tuple[list[dict], bool]:
    """Feed ``lines``; with ``kill_at=(k, delay)`` SIGKILL it ``delay`` s after its k-th output line
    (k = 0: while it starts and makes the journal). Returns the announced states and whether it was killed."""
    proc = subprocess.Popen(tabletop_command() + ["play", "--text", "--json", *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, start_new_session=True)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    out: list[bytes] = []
    progress = threading.Condition()

    def read() -> None:
        for raw in proc.stdout:  # type: ignore[union-attr]
            with progress:
                out.append(raw)
                progress.notify_all()
        with progress:
            out.append(b"")
            progress.notify_all()

    def feed() -> None:
        try:
            for line in lines:
                proc.stdin.write((line + "\n").encode())  # type: ignore[union-attr]
                proc.stdin.flush()  # type: ignore[union-attr]
                time.sleep(0.002)
            proc.stdin.close()  # type: ignore[union-attr]
        except (BrokenPipeError, ValueError):
            pass

    threads = [threading.Thread(target=read), threading.Thread(target=feed)]
    for thread in threads:
        thread.start()
    killed = False
    if kill_at is not None:
        with progress:
            progress.wait_for(lambda: len(out) >= kill_at[0] or (out and out[-1] == b""), timeout=60)
        time.sleep(kill_at[1])
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            killed = True
    proc.wait(timeout=120)
    for thread in threads:
        thread.join(timeout=60)
    err = proc.stderr.read().decode()
    assert "Traceback" not in err, err
    if not killed:
        assert proc.returncode == 0, err
    return _announced_states(b"".join(out).decode("utf-8")), killed


def _recorded(journal: Path) -> int:
    """How many script lines the journal holds (whole lines with a "text")."""
    count = 0
    for raw in journal.read_bytes().split(b"\n"):
        try:
            record = json.loads(raw)
        except ValueError:
            continue
        count += isinstance(record, dict) and "text" in record
    return count


def test_resume_equals_the_last_announced_state_after_kill_9(tmp_path: Path) -> None:
    script = accepted_script(PLAYERS, seed=29, lines=120 if SOAK else 50)
    reference = run_cli(["play", "--text", "--json", "--no-fsync", "--players", *PLAYERS,
                         "--journal", str(tmp_path / "reference.jsonl")], ("\n".join(script) + "\n").encode())
    assert reference.code == 0, reference.err
    expected = _announced_states(reference.out)
    final = expected[-1]

    rng = random.Random(int(os.environ.get("TABLETOP_SOAK_SEED", "13")))
    checked = kills = 0
    for trial in range(TRIALS):
        journal = tmp_path / f"killed-{trial}.jsonl"
        args = ["--players", *PLAYERS, "--journal", str(journal)]
        done = 0   # script lines recorded: expected[done] is the state on disk
        written = b""
        for attempt in range(KILLS_PER_TRIAL + 1):
            remaining = script[done:]
            kill_at = None
            if attempt < KILLS_PER_TRIAL:
                kill_at = (rng.randrange(len(remaining) + 1), rng.choice([0.0, rng.uniform(0.0, 0.01)]))
            states, killed = _play_and_kill(args, remaining, kill_at)
            kills += killed
            if not journal.exists():
                assert not states, "a state was announced with no journal on disk"
                continue  # killed before the journal was made: start again
            # What was announced is the reference game from where the journal stood (start or resume) on.
            assert states == expected[done:done + len(states)], f"trial {trial}: announced a different game"
            now = journal.read_bytes()
            assert now.startswith(written), "tabletop changed bytes it had already written"
            written = now
            recorded = _recorded(journal)
            if killed:
                # The journal holds the last announced state, or one step more (recorded, then killed
                # before it was said; the resume says it). Never less, never anything else.
                last = done + len(states) - 1
                assert recorded in (last, last + 1) or (not states and recorded == done), (trial, recorded, last)
                assert load(journal).game.public() == expected[recorded], f"trial {trial}: journal != announced"
                checked += 1
            done = recorded
            args = ["--resume", str(journal)]
        assert done == len(script)
        assert load(journal).game.public() == final, f"trial {trial}"
    assert kills >= TRIALS * KILLS_PER_TRIAL - 1 and checked >= TRIALS, (kills, checked)
