"""`tabletop hear FILE.wav ...`: what each recorded utterance was heard as.

One line per file, in order (JSON with ``--json``): the text, the intent (or null), the
confidence, the engine and the decode time. A file that cannot be read gets an error line and
the others go on; the exit status is 1 when any file failed.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tabletop.cli.jsonline import json_line
from tabletop.errors import TabletopError

__all__ = ["add_parser", "run", "hear_files"]


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "hear",
        help="recognise recorded utterances (16-bit WAV files)",
        description="What each recorded utterance was heard as: text, intent, confidence.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE.wav", help="16-bit PCM WAV files, any rate from 8 to 192 kHz, mono or stereo")
    parser.add_argument("--players", nargs="+", metavar="NAME", help="player names (default: Ana Ben Cho)")
    parser.add_argument("--journal", metavar="J", help="hear in the context of this game (read only)")
    parser.add_argument("--engine", choices=("auto", "pocketsphinx", "vosk"), default="auto", help="speech engine")
    parser.add_argument("--profile", metavar="NAME",
                        help="hear with this enrolled player's voice profile (`tabletop enroll`); default: none")
    parser.add_argument("--json", action="store_true", help="one JSON object per file, one per line")
    return parser


def _context(args: argparse.Namespace) -> tuple[Any, tuple[str, ...]]:
    """The game context (from --journal) and the players."""
    if args.journal:
        from tabletop.table import Table

        try:
            table = Table.resume(args.journal, read_only=True)
        except TypeError:  # pragma: no cover - an older table without read-only resume
            table = Table.resume(args.journal)
        context = table.context()
        close = getattr(table, "close", None)
        if callable(close):
            close()
        return context, tuple(context.players)
    players = tuple(args.players or ("Ana", "Ben", "Cho"))
    return None, players


def _understand(transcript: Any, context: Any, players: tuple[str, ...]) -> Any:
    """The intent of a transcript, in the game's context (the whole vocabulary without one)."""
    if not transcript.text:
        return None
    from tabletop.language import Context
    from tabletop.language.understand import understand

    result = understand(transcript, context if context is not None else Context.whole(players))
    return result.intent


def hear_files(
    files: list[str], players: tuple[str, ...], context: Any = None, engine: str = "auto", profile: str | None = None
) -> list[dict[str, Any]]:
    """Hear each file; one result dict per file (``{"file", "error"}`` for a file that failed).
    ``profile`` names an enrolled player whose adapted model hears them."""
    from tabletop.speech.audio import read_wav
    from tabletop.speech.profiles import game_recogniser

    recogniser = game_recogniser(engine, players, profile, mode="none")
    hearing = context
    if hearing is None:
        # No game: hear as a game does at any moment. With no context at all the recogniser drops
        # every reading its open decoder words otherwise ("ben do you have any seven" against "ben
        # many seven": a newcomer's first espeak-ng ask, heard as nothing); a game first measures the
        # reading against the phone loop, and keeps one that fits the sound as right readings do,
        # unsure (a game asks about it). Every sentence of the vocabulary, the asks for a specific
        # card too: the very grammar (and open decoder) that no context gives.
        from dataclasses import replace as _with

        from tabletop.language import Context

        hearing = _with(Context.whole(players), asking="specific-card")
    out: list[dict[str, Any]] = []
    for path in files:
        try:
            utterance = read_wav(path)
        except TabletopError as error:
            out.append({"file": path, "error": error.reason, "code": error.code})
            continue
        transcript = recogniser.hear(utterance, context=hearing, players=players)
        intent = _understand(transcript, context, players)
        out.append(
            {
                "file": path,
                "text": transcript.text,
                "intent": intent.to_json() if intent is not None else None,
                "confidence": round(float(transcript.confidence), 3),
                "engine": transcript.engine,
                "decode_ms": int(round(transcript.decode_ms)),
            }
        )
    return out


def run(args: argparse.Namespace) -> int:
    from tabletop.language.understand import ACT

    context, players = _context(args)
    results = hear_files(list(args.files), players, context, args.engine, args.profile)
    failed = 0
    for result in results:
        if "error" in result:
            failed += 1
            if args.json:
                print(json_line(result), flush=True)
            else:
                print(f"{result['file']}: error: {result['error']}", file=sys.stderr, flush=True)
            continue
        if args.json:
            print(json_line({k: result[k] for k in ("text", "intent", "confidence", "engine", "decode_ms")}), flush=True)
        else:
            intent = json_line(result["intent"]) if result["intent"] else "no command"
            # Under the acting bar a game asks before acting on it ("Ben, sevens?"): say so.
            unsure = ", unsure" if result["intent"] and result["confidence"] < ACT else ""
            print(f"{result['file']}: \"{result['text']}\" -> {intent} ({result['confidence']:.2f}{unsure}, {result['engine']}, {result['decode_ms']} ms)", flush=True)
    return 1 if failed else 0
