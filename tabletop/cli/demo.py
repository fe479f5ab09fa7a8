"""`tabletop demo`: a short scripted game played end to end with no microphone.

Each line is spoken by espeak-ng into audio (with a quiet room's noise floor), heard by the
default recogniser in the game's context, refereed by the table, and the reply announced:
printed, and spoken unless ``--quiet``. A newcomer sees the whole loop work on any machine.

The scripted players answer tabletop as people at the table do: "yes" to a question about what
they meant ("Two sevens?"), "no" and the sentence again to one about something else, the missing
part alone to "Ana, which rank?", and the sentence again after "Sorry, I didn't catch that.". A
line still not understood after :data:`TRIES` utterances is typed, as a player who gave up saying
it would, and shown as typed. So the demo's game always ends where its script leads.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tabletop.cli.jsonline import json_line

__all__ = ["add_parser", "run", "SCRIPT", "TRIES", "answer_to"]

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

TRIES = 4
"""Utterances a scripted player spends on one line (its answers to tabletop's questions included)."""


def answer_to(pending: Any, meant: Any, line: str) -> list[str]:
    """What a player who meant ``meant`` (said as ``line``) says to tabletop's pending question.

    >>> from tabletop.language import parse
    >>> from tabletop.table.pending import Pending
    >>> meant = parse("yes two", ("Ana", "Ben"))
    >>> answer_to(Pending("confirm", "Two sevens?", intent=parse("yes two", ("Ana", "Ben"))), meant, "yes two")
    ['yes']
    >>> answer_to(Pending("confirm", "Three sevens?", intent=parse("yes three", ("Ana", "Ben"))), meant, "yes two")
    ['no', 'yes two']
    >>> answer_to(Pending("count", "How many?", "count"), meant, "yes two")
    ['two']
    """
    from tabletop import sentences
    from tabletop.cards import Rank

    if pending.slot is not None:
        value = meant.to_json().get(pending.slot)
        if value is None:
            return [line]
        if pending.slot == "rank":
            return [Rank.parse(str(value)).plural]
        return [sentences.number(int(value)) if pending.slot == "count" else str(value)]
    about = pending.intent.to_json() if pending.intent is not None else None
    return ["yes"] if about is not None and _agrees(about, meant.to_json()) else ["no", line]


def _agrees(heard: dict[str, Any], meant: dict[str, Any]) -> bool:
    """The same kind of intent, and no slot both name set otherwise."""
    return heard["type"] == meant["type"] and all(
        heard[k] == meant[k] for k in heard.keys() & meant.keys() if heard[k] is not None and meant[k] is not None)


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
    from tabletop.language import parse
    from tabletop.speech import synth
    from tabletop.speech.recognisers import default_recogniser
    from tabletop.speech.voice import Voice
    from tabletop.table import Table

    recogniser = default_recogniser(None if args.engine == "auto" else args.engine, PLAYERS)
    table = Table.new(PLAYERS)
    voice = Voice(quiet=args.quiet, out=lambda text: None)

    def show(record: dict[str, Any], text: str) -> None:
        print(json_line(record) if args.json else text, flush=True)

    def announce(replies: list[Any]) -> list[str]:
        said = [r.text for r in replies if r.text]
        for text in said:
            voice.say(text)
        return said

    try:
        opening = announce(table.start())
        show({"tabletop": opening}, f"tabletop: {' '.join(opening)}")
        for k, (who, line, espeak_voice) in enumerate(SCRIPT):
            if line is None:
                said = announce(table.idle())
                show({"quiet": True, "tabletop": said}, f"   (a moment of quiet)\n   tabletop: {' '.join(said)}"
                     if said else "   (a moment of quiet)")
                continue
            meant = parse(line, PLAYERS)
            queue, spent = [line], 0
            while queue:
                text = queue.pop(0)
                spent += 1
                if meant is not None and spent > TRIES:  # a player who gave up saying it types it
                    said = announce(table.hear_text(line))
                    show({"speaker": who, "said": line, "typed": True, "tabletop": said},
                         f"{who} types:  {line}\n   tabletop: {' '.join(said)}")
                    break
                audio = synth.realistic(text, voice=espeak_voice, snr_db=args.snr, seed=100 * k + spent)
                transcript = recogniser.hear(audio, table.context())
                replies = table.hear(transcript)
                said = announce(replies)
                show({"speaker": who, "said": text, "heard": transcript.text, "confidence": transcript.confidence,
                      "engine": transcript.engine, "decode_ms": int(transcript.decode_ms), "tabletop": said},
                     f"{who} says:  {text}\n   heard:  {transcript.text or '(nothing for the game)'}  "
                     f"[{transcript.engine}, {transcript.confidence:.2f}, {transcript.decode_ms:.0f} ms]\n"
                     f"   tabletop: {' '.join(said)}")
                if meant is None or queue:
                    continue
                pending = table.pending
                if pending is not None:
                    queue = answer_to(pending, meant, line)
                elif not any(r.event.get("changed") or r.event.get("code") in ("control", "answer") for r in replies):
                    queue = [line]  # not caught: said again
        show({"state": table.game.public()}, f"\n{summary(table.game.public())}")
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
