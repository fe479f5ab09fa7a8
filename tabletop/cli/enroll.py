"""`tabletop enroll`: learn the table's voices.

    tabletop enroll --players Ana Ben                 # each repeats ~20 prompts at the microphone
    tabletop enroll --player Ana --audio A.wav B.wav --text "what A says" "what B says"
    tabletop enroll --player Ana --csv prompts.csv    # lines of path,text (paths relative to the file)
    tabletop enroll --forget Ana                      # delete Ana's profile
    tabletop enroll --list [--json]                   # who is enrolled

Each player's profile (the embedded recogniser's acoustic model adapted to their voice) is kept
in the user's data folder and used in every later game. The recordings are deleted once the
model is adapted, unless ``--keep-audio``; nothing leaves the machine.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path
from typing import Any

from tabletop.cli.jsonline import json_line
from tabletop.errors import InvalidInputError, SetupError

__all__ = ["add_parser", "run", "offer"]


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "enroll",
        help="learn players' voices (kept on this machine, used in every later game)",
        description="Adapt the embedded recogniser to each player's voice: live at the microphone "
        "(--players), or from recordings (--player with --audio and --text, or --csv).",
    )
    who = p.add_mutually_exclusive_group()
    who.add_argument("--players", nargs="+", metavar="NAME", help="enroll these players, one after another, live")
    who.add_argument("--player", metavar="NAME", help="enroll one player from recordings (--audio/--text or --csv)")
    who.add_argument("--forget", nargs="+", metavar="NAME", help="delete these players' voice profiles")
    who.add_argument("--list", action="store_true", help="list the enrolled players")
    p.add_argument("--audio", nargs="+", metavar="FILE.wav", help="recordings of the player (16-bit WAV, any rate, mono or stereo)")
    p.add_argument("--text", nargs="+", metavar="TEXT", help="what each recording says, in the same order")
    p.add_argument("--csv", metavar="FILE", help="a CSV of path,text (a header line is optional)")
    p.add_argument("--keep-audio", action="store_true", help="keep the recordings in the profile (deleted otherwise)")
    p.add_argument("--method", choices=("map", "mllr+map", "mllr"), default=None, help=argparse.SUPPRESS)
    p.add_argument("--quiet", action="store_true", help="show the prompts instead of speaking them")
    p.add_argument("--json", action="store_true", help="print results as JSON lines")
    return p


def run(args: argparse.Namespace) -> int:
    from tabletop.speech import profiles

    if args.list:
        found = profiles.list_profiles()
        for profile in found:
            if args.json:
                print(json_line(profile.to_json()), flush=True)
            else:
                print(f"{profile.name}: {profile.utterances} recordings, {profile.seconds:.0f} s, "
                      f"{profile.method}, {profile.created}")
        if not found and not args.json:
            print("No one is enrolled: tabletop enroll --players NAME ...")
        return 0
    if args.forget:
        status = 0
        for name in args.forget:
            gone = profiles.forget(name)
            if args.json:
                print(json_line({"name": name, "forgotten": gone}), flush=True)
            elif gone:
                print(f"Forgot {name}'s voice.")
            else:
                print(f"tabletop: no voice profile for {name}", file=sys.stderr)
            status = status or (0 if gone else 1)
        return status
    if args.player:
        recordings = _recordings(args)
        return _report(args, _enroll(args.player, recordings, args))
    if args.audio or args.text or args.csv:
        raise InvalidInputError("recordings belong to one player: tabletop enroll --player NAME --audio ... --text ...")
    if not args.players:
        raise InvalidInputError("name who enrolls: tabletop enroll --players Ana Ben (or --player NAME --audio ...)")
    from tabletop.speech.adapt import find_tools

    find_tools()  # before anyone speaks twenty prompts for nothing
    for name in args.players:
        profiles.profile_key(name)
    status = 0
    with _LiveSession(args.quiet) as session:
        for name in args.players:
            recordings = session.record(name, list(args.players))
            status = _report(args, _enroll(name, recordings, args)) or status
    return status


def _enroll(name: str, recordings: list, args: argparse.Namespace) -> Any:
    from tabletop.speech import profiles

    return profiles.enroll(name, recordings, method=args.method or profiles.DEFAULT_METHOD, keep_audio=args.keep_audio)


def _report(args: argparse.Namespace, profile: Any) -> int:
    if args.json:
        print(json_line(profile.to_json()), flush=True)
    else:
        print(f"{profile.name}'s voice is enrolled ({profile.utterances} recordings, {profile.seconds:.0f} s); "
              f"used from the next game on. Forget it with: tabletop enroll --forget {profile.name}", flush=True)
    return 0


def _recordings(args: argparse.Namespace) -> list:
    """(utterance, text) pairs from --audio/--text or --csv."""
    from tabletop.speech.audio import read_wav

    pairs: list[tuple[str, str]] = []
    if args.csv:
        if args.audio or args.text:
            raise InvalidInputError("give either --csv or --audio with --text, not both")
        pairs = _read_csv(Path(args.csv))
    else:
        if not args.audio or not args.text:
            raise InvalidInputError("scripted enrollment needs --audio FILE.wav ... and --text \"what it says\" ... (or --csv FILE)")
        if len(args.audio) != len(args.text):
            raise InvalidInputError(f"{len(args.audio)} recordings but {len(args.text)} texts: give one text per recording")
        pairs = list(zip(args.audio, args.text))
    recordings = []
    for path, text in pairs:
        if not text.strip():
            raise InvalidInputError(f"{path}: no text says what it holds")
        recordings.append((read_wav(path), text))
    return recordings


def _read_csv(path: Path) -> list[tuple[str, str]]:
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = [row for row in csv.reader(f) if row and any(cell.strip() for cell in row)]
    except FileNotFoundError:
        raise InvalidInputError(f"{path}: no such file", code="no-file") from None
    if rows and [c.strip().lower() for c in rows[0][:2]] == ["path", "text"]:
        rows = rows[1:]
    out = []
    for number, row in enumerate(rows, start=1):
        if len(row) < 2:
            raise InvalidInputError(f"{path}, row {number}: expected path,text")
        audio = Path(row[0].strip())
        if not audio.is_absolute():
            audio = path.parent / audio
        out.append((str(audio), row[1].strip()))
    if not out:
        raise InvalidInputError(f"{path}: no recordings listed (lines of path,text)")
    return out


class _LiveSession:
    """The microphone and the voice for live enrollment: prompts are spoken (or printed) and
    the microphone is deaf while tabletop speaks."""

    def __init__(self, quiet: bool) -> None:
        from tabletop.speech.microphone import Microphone
        from tabletop.speech.voice import Voice

        # A longer pause ends an utterance than in a game: a prompt with a comma ("Yes, two.")
        # must come back as one recording, or every later prompt would be paired with the wrong one.
        self.microphone = Microphone(hangover=0.8)
        self.voice = Voice(quiet=quiet, microphone=self.microphone, out=lambda text: print(text, flush=True))

    def say(self, text: str) -> None:
        if not self.voice.quiet:
            print(text, flush=True)
        self.voice.say(text)
        self.voice.wait(30)

    def record(self, name: str, players: list[str]) -> list:
        from tabletop.speech.enrollment import prompts, record

        return record(name, prompts(name, players), self.microphone.next_utterance, self.say)

    def __enter__(self) -> "_LiveSession":
        return self

    def __exit__(self, *exc: object) -> None:
        self.voice.close()
        self.microphone.close()


def offer(players: list[str], *, interactive: bool, quiet: bool = False) -> list[str]:
    """At the start of a live game: offer once (ever) to enroll each player without a profile.

    Asked on the terminal; anything but "y" skips, and a skipped player is not asked again
    (they can run ``tabletop enroll`` any time). Returns the players enrolled now. Never asks
    when ``interactive`` is False (typed or recorded games, CI, no terminal).
    """
    from tabletop.speech import profiles

    if not interactive or not sys.stdin.isatty():
        return []
    offered = profiles.offered()
    missing = [p for p in players if profiles.find_profile(p) is None and profiles.profile_key(p) not in offered]
    if not missing:
        return []
    try:
        from tabletop.speech.adapt import find_tools

        find_tools()
    except SetupError:
        return []  # enrollment cannot work here; `tabletop doctor` says why
    names = ", ".join(missing)
    print(f"tabletop hears better once it knows your voices. {names}: about a minute each, "
          f"repeating 20 short phrases.", file=sys.stderr)
    try:
        answer = input("Enroll now? [y/N] ").strip().lower()
    except (EOFError, KeyboardInterrupt):
        answer = ""
    profiles.mark_offered(missing)
    if answer not in ("y", "yes"):
        print("Skipped: enroll any time with `tabletop enroll --players NAME`.", file=sys.stderr)
        return []
    enrolled: list[str] = []
    try:
        with _LiveSession(quiet) as session:
            for name in missing:
                try:
                    recordings = session.record(name, players)
                    profiles.enroll(name, recordings)
                    enrolled.append(name)
                except SetupError as error:
                    print(f"tabletop: {error.reason}", file=sys.stderr)
    except KeyboardInterrupt:  # Ctrl-C stops enrolling, not the game
        print("\nEnrollment stopped; the game goes on.", file=sys.stderr)
    return enrolled
