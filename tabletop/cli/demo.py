"""`tabletop demo`: a short scripted game played end to end with no microphone.

Each line is spoken by espeak-ng into audio (with a quiet room's noise floor), heard by the
default recogniser in the game's context, refereed by the table, and the reply announced:
printed, and spoken unless ``--quiet``. A newcomer sees the whole loop work on any machine.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tabletop.cli.jsonline import json_line

__all__ = ["add_parser", "run", "SCRIPT"]

PLAYERS = ("Ana", "Ben", "Cho")

# (who says it, what they say, espeak-ng voice). None as the line: a moment of quiet.
SCRIPT: tuple[tuple[str, str | None, str], ...] = (
    ("Ana", "ben do you have any sevens", "en-us"),
    ("Ben", "yes two", "en"),
    ("Ana", "cho do you have any kings", "en-us"),
    ("Cho", "go fish", "en-us+m3"),
    ("", None, ""),
    ("Ben", "ana do you have any fives", "en"),
    ("Ana", "go fish", "en-us"),
    ("", None, ""),
    ("Cho", "what's the score", "en-us+m3"),
    ("Cho", "ben do you have any queens", "en-us+m3"),
    ("Ben", "yes one", "en"),
    ("Cho", "how many cards are left", "en-us+m3"),
    ("Ana", "pass the salt please", "en-us"),
    ("Cho", "ana do you have any jacks", "en-us+m3"),
    ("Ana", "go fish", "en-us"),
    ("", None, ""),
    ("Ben", "whose turn is it", "en"),
)


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "demo",
        help="a scripted game: synthesised speech, heard, refereed and announced",
        description="Play a short scripted game end to end with no microphone.",
    )
    parser.add_argument("--quiet", action="store_true", help="print announcements instead of speaking them")
    parser.add_argument("--engine", choices=("auto", "pocketsphinx", "vosk"), default="auto", help="speech recogniser")
    parser.add_argument("--json", action="store_true", help="one JSON object per line of the script")
    parser.add_argument("--snr", type=float, default=None, help="add table noise and babble at this SNR (dB)")
    return parser


def run(args: argparse.Namespace) -> int:
    from tabletop.speech import synth
    from tabletop.speech.recognisers import default_recogniser
    from tabletop.speech.voice import Voice
    from tabletop.table import Table

    recogniser = default_recogniser(None if args.engine == "auto" else args.engine, PLAYERS)
    table = Table.new(PLAYERS)
    voice = Voice(quiet=args.quiet, out=(lambda text: None) if not args.json else (lambda text: None))

    def announce(replies: list[Any]) -> list[str]:
        said = [r.text for r in replies if r.text]
        for text in said:
            voice.say(text)
        return said

    try:
        opening = announce(table.start())
        if args.json:
            print(json_line({"tabletop": opening}), flush=True)
        else:
            print(f"tabletop: {' '.join(opening)}", flush=True)
        for k, (who, line, espeak_voice) in enumerate(SCRIPT):
            if line is None:
                said = announce(table.idle())
                if args.json:
                    print(json_line({"quiet": True, "tabletop": said}), flush=True)
                elif said:
                    print(f"   (a moment of quiet)\n   tabletop: {' '.join(said)}", flush=True)
                continue
            audio = synth.realistic(line, voice=espeak_voice, snr_db=args.snr, seed=k)
            transcript = recogniser.hear(audio, table.context())
            said = announce(table.hear(transcript))
            if args.json:
                print(json_line({"speaker": who, "said": line, "heard": transcript.text,
                                  "confidence": transcript.confidence, "engine": transcript.engine,
                                  "decode_ms": int(transcript.decode_ms), "tabletop": said}), flush=True)
            else:
                print(f"{who} says:  {line}", flush=True)
                print(f"   heard:  {transcript.text or '(nothing for the game)'}  [{transcript.engine}, {transcript.confidence:.2f}, {transcript.decode_ms:.0f} ms]", flush=True)
                print(f"   tabletop: {' '.join(said)}", flush=True)
        if args.json:
            print(json_line({"state": table.game.public()}), flush=True)
        else:
            print(f"\n{summary(table.game.public())}", flush=True)
        voice.wait(120)
    finally:
        voice.close()
        table.close()
    return 0


def summary(public: dict[str, Any]) -> str:
    """Where the demo's game stands, in words (digits are for --json)."""
    from tabletop import sentences

    books = {p: len(ranks) for p, ranks in public["books"].items()}
    size = int(public.get("rules", {}).get("book_size", 4))
    return sentences.standing(public["hands"], books, public["stock"], size)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run(argparse.Namespace(quiet=True, engine="auto", json=False, snr=None)))
