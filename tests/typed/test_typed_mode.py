"""Typed mode for everyone (issue 12 item 8): a prompt at a terminal, and --speak to hear the replies.

The terminal is a real pseudo-terminal; the speaker is a real ALSA device (a `file` PCM in a test
HOME's .asoundrc that appends what is played to a file), so espeak-ng really speaks through pyttsx3.
"""

from __future__ import annotations

import os
import pty
import shutil
import subprocess
from pathlib import Path

import pytest

from support import tabletop_command

LINES = ["whose turn is it", "Ben, do you have any sevens?", "yes, two"]


def run_at_a_terminal(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """Standard input is a terminal (a pty) the test types into; output goes to pipes."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        tabletop_command() + ["play", "--text", "--no-fsync", "--players", "Ana", "Ben",
                              "--journal", str(tmp_path / "g.jsonl"), *args],
        stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    os.close(slave)
    for line in LINES:
        os.write(master, (line + "\n").encode())
    os.write(master, b"\x04")  # end of input, as Ctrl-D at a terminal
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(master)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def test_a_prompt_shows_whose_turn_while_tabletop_waits_for_a_line(tmp_path: Path) -> None:
    done = run_at_a_terminal(tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("(Ana's turn) > ") >= len(LINES), done.stderr
    assert ">" not in done.stdout  # the game's replies stay clean
    assert done.stdout.splitlines()[:3] == ["Deal seven cards each. Ana goes first.", "It's Ana's turn.",
                                            "Ana asks Ben for sevens."]


def test_no_prompt_into_piped_input_or_json(tmp_path: Path) -> None:
    piped = subprocess.run(
        tabletop_command() + ["play", "--text", "--no-fsync", "--players", "Ana", "Ben",
                              "--journal", str(tmp_path / "p.jsonl")],
        input="\n".join(LINES) + "\n", capture_output=True, text=True, timeout=60,
    )
    assert piped.returncode == 0 and "> " not in piped.stderr and "> " not in piped.stdout
    as_json = run_at_a_terminal(tmp_path, "--json", "--journal", str(tmp_path / "j.jsonl"))
    assert as_json.returncode == 0 and "> " not in as_json.stderr, as_json.stderr


SPEAKER = """\
pcm.!default {{
    type file
    slave.pcm "null"
    file "|cat >> {played}"
    format "raw"
}}
"""


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (apt-get install espeak-ng)")
def test_speak_voices_the_typed_game_through_the_speaker(tmp_path: Path) -> None:
    played = tmp_path / "speaker.raw"
    home = tmp_path / "home"
    home.mkdir()
    (home / ".asoundrc").write_text(SPEAKER.format(played=played))
    env = dict(os.environ, HOME=str(home))

    def play(lines: list[str], *args: str) -> int:
        if played.exists():
            played.unlink()
        done = subprocess.run(
            tabletop_command() + ["play", "--text", "--no-fsync", "--players", "Ana", "Ben",
                                  "--journal", str(tmp_path / f"g{len(lines)}{len(args)}.jsonl"), *args],
            input="".join(line + "\n" for line in lines), capture_output=True, text=True, timeout=120, env=env,
        )
        assert done.returncode == 0, done.stderr
        assert "Deal seven cards each." in done.stdout  # printed as well as spoken
        return played.stat().st_size if played.exists() else 0

    silent = play(LINES)
    opening = play([], "--speak")
    game = play(LINES, "--speak")
    assert silent == 0  # --text alone stays quiet
    assert opening > 22050  # at least a second of speech (espeak-ng: 22050 Hz, 16-bit)
    assert game > opening + 3 * 22050, (opening, game)  # and more for every reply


def test_at_a_terminal_the_prompt_follows_the_replies_and_the_quiet_announcement(tmp_path: Path) -> None:
    """Everything on one terminal (as a person sees it): each prompt comes after what tabletop said, and
    says whose turn it is then, also after the turn passes in a moment of quiet."""
    import select
    import time

    master, slave = pty.openpty()
    proc = subprocess.Popen(
        tabletop_command() + ["play", "--text", "--no-fsync", "--players", "Ana", "Ben",
                              "--journal", str(tmp_path / "g.jsonl")],
        stdin=slave, stdout=slave, stderr=slave,
    )
    os.close(slave)
    screen = b""

    def read_until(done, seconds: float = 30) -> None:
        """Read the terminal until ``done(text so far)`` holds (or the program closes it), at most ``seconds``."""
        nonlocal screen
        end = time.monotonic() + seconds
        while not done(screen.decode("utf-8", "replace")) and time.monotonic() < end:
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                try:
                    screen += os.read(master, 4096)
                except OSError:
                    return

    def prompt_after(said: str):
        return lambda text: said in text and text.rstrip().endswith("turn) >") and text.rindex(said) < text.rindex(">")

    try:
        read_until(lambda text: text.rstrip().endswith("(Ana's turn) >"))
        os.write(master, b"Ben, do you have any sevens?\n")
        read_until(prompt_after("Ana asks Ben for sevens."))
        os.write(master, b"go fish\n")
        read_until(prompt_after("Go fish, Ana."))
        read_until(prompt_after("Ben's turn."))  # the turn passes after a quiet second
        os.write(master, b"\x04")
        read_until(lambda text: False)  # to the end: the program closes the terminal
        proc.wait(30)
    finally:
        os.close(master)
    text = screen.decode("utf-8", "replace").replace("\r\n", "\n")
    for said in ("Ana asks Ben for sevens.", "Go fish, Ana.", "Ben's turn."):
        at = text.index(said)
        assert text[:at].endswith("\n"), text  # a reply starts its own line, never after a prompt
    assert text.rstrip().endswith("(Ben's turn) >"), text  # the last prompt, after the quiet announcement


def _typed_game(tmp_path: Path, lines: list[str]) -> subprocess.CompletedProcess:
    """A typed game started with no --players: the names are typed as the protocol says them."""
    return subprocess.run(
        tabletop_command() + ["play", "--text", "--no-fsync", "--json", "--journal", str(tmp_path / "n.jsonl")],
        input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60,
    )


def test_the_players_can_be_named_by_the_first_typed_line(tmp_path: Path) -> None:
    import json

    done = _typed_game(tmp_path, ["Ben, any sevens?", "players are Ana", "players are Dana, Eli and Fay",
                                  "Eli, do you have any sevens?", "go fish"])
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    assert events[0]["event"] == "start" and events[0]["players"] == ["Dana", "Eli", "Fay"]
    # The lines before the names were answered with what to type, and changed no game.
    assert done.stderr.count("players are Ana, Ben and Cho") == 3, done.stderr
    said = [e["say"] for e in events if e.get("event") == "utterance"]
    assert said[:2] == ["Dana asks Eli for sevens.", "Go fish, Dana."], said
    journal = (tmp_path / "n.jsonl").read_text()
    assert '"Dana"' in journal and "Ana" not in journal.replace("Dana", "")


def test_lines_that_never_name_the_players_start_no_game(tmp_path: Path) -> None:
    done = _typed_game(tmp_path, ["hello", "Ben, any sevens?"])
    assert done.returncode != 0 and done.stdout == ""
    assert "name the players" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "n.jsonl").exists()
