"""`tabletop play`: the game, from the microphone, typed lines (--text) or recordings (--audio)."""

from __future__ import annotations

import argparse
import queue
import random
import sys
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Iterable

from platformdirs import user_data_dir

from tabletop import sentences
from tabletop.cli.jsonline import json_line
from tabletop.cli.typed import typed_lines
from tabletop.errors import InvalidInputError, SetupError, TabletopError
from tabletop.rules import CHOICES, PRESETS, Rules
from tabletop.table import Reply, Table

QUIET_SECONDS = 1.0  # a moment of quiet settles the open exchange: live, after the end of speech
TYPED_QUIET_SECONDS = 1.0  # typed: about a second with no new line
TYPED = "type:"  # in the closed loop (--audio -), a line that is a typed sentence, not a WAV path


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "play", help="referee a game (microphone, --text or --audio)",
        description="Referee a game of Go Fish. Live from the microphone by default; --text reads typed "
        "lines from standard input; --audio plays recorded utterances in order.",
    )
    p.add_argument("--players", nargs="+", metavar="NAME", help="players from the dealer's left; the first starts")
    p.add_argument("--preset", choices=sorted(PRESETS), help="a named rule set")
    p.add_argument("--rules", metavar="FILE.toml", help="a TOML file with a [rules] table")
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                   help=f"one rule option (repeatable); keys: {', '.join(CHOICES)}")
    source = p.add_mutually_exclusive_group()
    source.add_argument("--text", action="store_true", help="read typed utterances from standard input, one a line")
    source.add_argument("--audio", nargs="+", metavar="FILE.wav",
                        help="recorded utterances, played in order; '-' reads one WAV path a line from standard input "
                        "and, after each, prints the events it caused and then a listening event (an empty line: a "
                        "moment of quiet, which settles the open exchange; a line 'type: SENTENCE': a sentence typed "
                        "instead of said)")
    p.add_argument("--journal", metavar="PATH", help="the game's journal (default: a new file in the data folder)")
    p.add_argument("--resume", metavar="PATH", help="continue the game a journal holds")
    p.add_argument("--json", action="store_true", help="print one JSON object per event")
    p.add_argument("--camera", metavar="N", help="camera index (or video file) to confirm laid books")
    p.add_argument("--quiet", action="store_true", help="print instead of speaking")
    p.add_argument("--speak", action="store_true", help="with --text: speak the replies too (a helper types, everyone hears)")
    p.add_argument("--board", action="store_true",
                   help="serve a live, large-type page of the game (turn, books, hands, stock, last event, winner)")
    p.add_argument("--board-host", metavar="HOST", default=None,
                   help="address the board listens on (default 127.0.0.1; 0.0.0.0 shares it on the home network, "
                   "behind a random token in its URL); implies --board")
    p.add_argument("--board-port", metavar="PORT", type=int, default=0, help="the board's port (default: a free one)")
    p.add_argument("--engine", choices=("auto", "vosk", "pocketsphinx"), default="auto", help="speech recogniser")
    p.add_argument("--profile", metavar="NAME", help="hear with this enrolled player's voice profile only "
                   "('none': no profile)")
    p.add_argument("--profiles", choices=("pooled", "speaker", "none"), default="pooled",
                   help="how enrolled players' voice profiles are used: one model adapted to all of them "
                   "(default), the profile of the player expected to speak, or none")
    p.add_argument("--voice", help="text-to-speech voice id")
    p.add_argument("--rate", type=int, help="text-to-speech words per minute")
    p.add_argument("--seed", type=int, help="seed for first=random (reproducible games)")
    p.add_argument("--no-fsync", action="store_true", help=argparse.SUPPRESS)
    return p


def default_journal(players: Iterable[str]) -> Path:
    stamp = datetime.now().strftime("%Y-%m-%d-%H%M%S")
    return Path(user_data_dir("tabletop")) / "games" / f"{stamp}-{'-'.join(players)}.jsonl"


def open_table(args: argparse.Namespace) -> Table:
    eyes, notes = None, []
    if args.camera is not None:
        try:
            eyes = _eyes(args.camera)
        except SetupError as error:  # the game goes on without vision; the detail is printed, never spoken
            print(f"tabletop: camera: {error.reason}", file=sys.stderr)
            notes.append(sentences.camera_problem(error.code))
    table = _table(args, eyes)
    table.notes[:0] = notes
    return table


def _table(args: argparse.Namespace, eyes: Any) -> Table:
    durable = not args.no_fsync
    if args.resume:
        if args.players or args.preset or args.rules or args.rule:
            raise SetupError("--resume continues a journal with its own players and rules: leave those out")
        return Table.resume(args.resume, durable=durable, eyes=eyes)
    if not args.players:
        raise SetupError("name the players: tabletop play --players Ana Ben Cho (with --text, typing "
                         "'players are Ana, Ben and Cho' first also does)")
    rules = Rules.build(args.preset, args.rules, args.rule)
    journal = Path(args.journal) if args.journal else default_journal(args.players)
    rng = random.Random(args.seed)
    return Table.new(args.players, rules, journal, rng=rng, durable=durable, eyes=eyes)


class Inputs:
    """What the game will hear from, checked before the deal so a game that cannot be played
    never starts (no deal, no journal): the recordings read, the microphone found."""

    def __init__(self, utterances: list[Any] | None = None, microphone: Any = None) -> None:
        self.utterances = utterances
        self.microphone = microphone


def check_names_by_ear(players: Iterable[str]) -> None:
    """Names the table can tell apart only in writing ("Zoe" and "Zoë") are refused before the deal.

    :raises InvalidInputError: naming the two names.
    """
    from tabletop.language.normalise import normalise

    heard: dict[tuple[str, ...], str] = {}
    for name in players:
        key = normalise(name)
        if key in heard and heard[key].casefold() != name.casefold():
            raise InvalidInputError(sentences.names_sound_the_same(heard[key], name), code="bad-name")
        heard.setdefault(key, name)


def check_inputs(args: argparse.Namespace) -> Inputs:
    """Read every ``--audio`` file and find the microphone for live play, before the deal.

    :raises InvalidInputError: naming every recording that cannot be played, and why; or for
        player names that sound the same.
    :raises SetupError: when live play has no microphone (the reason says what to do).
    """
    check_names_by_ear(args.players or ())
    if args.text:
        return Inputs()
    if args.audio:
        if args.audio == ["-"]:
            return Inputs()  # paths arrive one by one on standard input
        from tabletop.speech.audio import read_wav

        utterances, problems = [], []
        for path in args.audio:
            try:
                utterances.append(read_wav(path))
            except TabletopError as error:
                problems.append(error.reason)
        if problems:
            raise InvalidInputError(
                "cannot play these recordings, so the game was not started: " + "; ".join(problems),
                code="bad-audio",
            )
        return Inputs(utterances=utterances)
    from tabletop.speech.microphone import Microphone

    return Inputs(microphone=Microphone())


def run(args: argparse.Namespace) -> int:
    typed = None
    if args.text and not (args.players or args.resume):
        # Names may be said instead of given on the command line ("players are Ana, Ben and Cho").
        typed = _lines(getattr(sys.stdin, "buffer", sys.stdin))
        args.players = players_typed(typed)
    inputs = check_inputs(args)  # recordings, microphone, names: before the deal
    board = _board(args)  # listening before the deal: a board that can't be served starts no game
    try:
        table = open_table(args)
    except BaseException:
        if board is not None:
            board.close()
        raise
    if not (args.text or args.audio or args.json or getattr(args, "profile", None)):
        _offer_enrollment(table, args)
    out = Output(args.json, voice=_voice(args) if _speaks(args) else None)
    if board is not None:
        # The state as announced (the open exchange not yet settled), so the page never runs ahead of the voice.
        out.listeners.append(lambda replies: board.publish(table.game.state.public(),
                                                           sentences.together([r.text for r in replies])))
    try:
        out.show(table.start())
        if table.journal is not None and not args.json:
            print(f"(journal: {table.journal.path})", file=sys.stderr)
        if args.text:
            _play_text(table, out, (lambda: prompt(table)) if _interactive(args) else None, typed)
        elif args.audio:
            _play_audio(table, args, out, inputs.utterances)
        else:
            _play_live(table, args, out, inputs.microphone)
        if not table.stopped:
            out.show(table.idle())
    finally:
        table.close()
        out.close()
        if board is not None:
            board.close()
    return 0


def _speaks(args: argparse.Namespace) -> bool:
    """Live and recorded games speak unless --quiet or --json; typed games only with --speak."""
    if args.text:
        return bool(args.speak)
    return not (args.quiet or args.json)


def _interactive(args: argparse.Namespace) -> bool:
    """A prompt only for a person typing at a terminal: never into piped input or --json output."""
    return not args.json and sys.stdin.isatty()


def prompt(table: Table) -> str:
    """What the typed game shows while it waits for a line: whose turn it is (as announced)."""
    public = table.game.state.public()
    return "(game over) > " if public["over"] else f"({public['current']}'s turn) > "


def _board(args: argparse.Namespace) -> Any:
    """Serve the board (--board, --board-host): it is fed every reply through the output's listeners."""
    if not (args.board or args.board_host):
        return None
    from tabletop.board import Board

    board = Board(host=args.board_host or "127.0.0.1", port=args.board_port)
    try:
        board.start()
    except OSError as error:
        raise SetupError(f"the board can't listen on {board.host} port {board.port} ({error.strerror or error}): "
                         "pick another with --board-port, or leave it out for a free one", code="no-board") from None
    print(f"tabletop: the board is at {board.url}", file=sys.stderr)
    if board.shared:
        print(board.qr_text(), file=sys.stderr)
    return board


class Output:
    """Prints replies (plain sentences or JSON lines) and speaks them when a voice is given."""

    def __init__(self, as_json: bool, voice: Any = None) -> None:
        self.as_json = as_json
        self.voice = voice
        self.listeners: list[Any] = []  # called with each batch of replies (the board)

    def show(self, replies: list[Reply]) -> None:
        for reply in replies:
            if self.as_json:
                print(json_line(reply.event), flush=True)
            else:
                print(reply.text, flush=True)
                if reply.detail:
                    print(f"tabletop: {reply.detail}", file=sys.stderr, flush=True)
            if self.voice is not None and reply.text:
                self.voice.say(reply.text)
        said = [reply for reply in replies if reply.text]
        if said:
            for listener in self.listeners:
                listener(said)

    def listening(self) -> None:
        """Ready for the next utterance (``--audio -``): ``{"event": "listening"}``."""
        if self.as_json:
            print(json_line({"event": "listening"}), flush=True)

    def error(self, path: str, error: TabletopError) -> None:
        if self.as_json:
            print(json_line({"event": "error", "file": path, "code": error.code, "say": error.reason}), flush=True)

    def close(self) -> None:
        if self.voice is not None:
            self.voice.close()


def _voice(args: argparse.Namespace) -> Any:
    from tabletop.speech.voice import Voice

    return Voice(rate=args.rate, voice=args.voice, quiet=False, print_when_silent=False)


def _offer_enrollment(table: Table, args: argparse.Namespace) -> None:
    """A live game offers once to enroll players with no voice profile (skippable)."""
    from tabletop.cli.enroll import offer

    try:
        offer(list(table.game.players), interactive=True, quiet=args.quiet)
    except TabletopError as error:  # enrollment failing never stops the game
        print(f"tabletop: {error.reason}", file=sys.stderr)


def _recogniser(args: argparse.Namespace, table: Table) -> Any:
    from tabletop.speech.profiles import game_recogniser

    return game_recogniser(args.engine, table.game.players, getattr(args, "profile", None),
                           mode=getattr(args, "profiles", "pooled"))


def _lines(stream: Any, prompt: Callable[[], str] | None = None) -> "queue.Queue[str | None]":
    """Typed lines (cleaned, bounded: :func:`typed_lines`) read on a thread, None at the end, so the
    loop can notice a quiet moment."""
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        try:
            for line in typed_lines(stream, prompt=prompt):
                lines.put(line)
        finally:
            lines.put(None)

    threading.Thread(target=read, name="tabletop-lines", daemon=True).start()
    return lines


def players_typed(lines: "queue.Queue[str | None]") -> list[str]:
    """The players named in the first typed line that names them ("players are Ana, Ben and Cho",
    "new game with Ana and Ben"), as the protocol's start is said; a line that names fewer than two
    is answered with what to type, and the game waits for the next.

    :raises SetupError: when the lines end before any names the players.
    """
    from tabletop.language.parser import parse
    from tabletop.referee.intents import Control
    from tabletop.rules import MIN_PLAYERS

    example = "players are Ana, Ben and Cho"
    print(f"Who is playing? Type: {example}", file=sys.stderr, flush=True)
    while (line := lines.get()) is not None:
        intent = parse(line, ())
        if isinstance(intent, Control) and intent.what == "new_game" and len(intent.players or ()) >= MIN_PLAYERS:
            return list(intent.players)
        print(f"Name the players first (at least {MIN_PLAYERS}), like this: {example}", file=sys.stderr, flush=True)
    raise SetupError(f"name the players: type '{example}' first, or tabletop play --text --players Ana Ben Cho",
                     code="no-players")


def _play_text(table: Table, out: "Output", waiting: Callable[[], str] | None = None,
               lines: "queue.Queue[str | None] | None" = None) -> None:
    """Typed lines (``lines``: already being read, when the players were named in them); about a
    second with no new line is a quiet moment that settles the exchange.

    With ``waiting`` (a person at a terminal), its prompt is shown once what tabletop says has been
    shown: after the opening, after each line's replies and after an announcement made in the quiet
    (never by the reader thread, whose prompt would land before the replies).
    """
    def ready() -> None:
        if waiting is not None:
            print(waiting(), end="", file=sys.stderr, flush=True)

    if lines is None:
        lines = _lines(getattr(sys.stdin, "buffer", sys.stdin))
    ready()
    while not table.stopped:
        try:
            line = lines.get(timeout=TYPED_QUIET_SECONDS)
        except queue.Empty:
            said = table.idle()
            if said and waiting is not None:
                print(file=sys.stderr, flush=True)  # the announcement starts its own line, not the prompt's
            out.show(said)
            if said:
                ready()
            continue
        if line is None:
            if waiting is not None:
                print(file=sys.stderr)
            break
        out.show(table.hear_text(line))
        ready()


def _play_audio(table: Table, args: argparse.Namespace, out: Output, utterances: list[Any] | None = None) -> None:
    """Recorded utterances in order; ``--audio -`` reads their paths from standard input, one a line,
    and after each prints what it caused and then ``{"event": "listening"}`` (the closed loop a
    script drives: it answers tabletop's questions as a player would). There an empty line is a
    moment of quiet at the table, as the live loop hears one: the open exchange is settled and
    announced ("Ben's turn."), then ``listening`` again; a line ``type: SENTENCE`` is a sentence
    typed instead of said (a player who gave up saying it), ruled on as ``--text`` rules on it."""
    from tabletop.speech.audio import read_wav

    recogniser = _recogniser(args, table)
    closed_loop = args.audio == ["-"]
    paths: Iterable[str] = (line.strip() for line in sys.stdin) if closed_loop else args.audio
    ready = iter(utterances) if utterances and not closed_loop else None  # read before the deal (check_inputs)
    if closed_loop:
        out.listening()
    for path in paths:
        if not path:
            if closed_loop and not table.stopped:
                out.show(table.idle())  # a moment of quiet
                out.listening()
            continue
        if closed_loop and path.startswith(TYPED):
            out.show(table.hear_text(path[len(TYPED):].strip()))
            if table.stopped:
                break
            out.listening()
            continue
        try:
            utterance = next(ready) if ready is not None else read_wav(path)
        except TabletopError as error:
            print(f"tabletop: {error.reason}", file=sys.stderr)
            if closed_loop:
                out.error(path, error)
                out.listening()
            continue
        out.show(table.hear_audio(utterance, recogniser))
        if table.stopped:
            break
        if closed_loop:
            out.listening()


def _play_live(table: Table, args: argparse.Namespace, out: Output, microphone: Any = None) -> None:
    """Listen until "stop the game"; decode while players speak; settle after a moment of quiet."""
    from tabletop.speech.microphone import Microphone

    recogniser = _recogniser(args, table)
    heard: queue.Queue[Any] = queue.Queue()
    with microphone or Microphone() as microphone:
        if out.voice is not None:
            out.voice.on_speaking(microphone.mute)

        def listen() -> None:
            try:
                for _, transcript in microphone.transcripts(recogniser, table.context):
                    heard.put(transcript)
            except TabletopError as error:
                heard.put(error)

        threading.Thread(target=listen, name="tabletop-ears", daemon=True).start()
        print("Listening. Say 'stop the game' to finish.", file=sys.stderr)
        last = time.monotonic()
        settled = True
        while not table.stopped:
            try:
                item = heard.get(timeout=0.25)
            except queue.Empty:
                if not settled and time.monotonic() - last >= QUIET_SECONDS:
                    out.show(table.idle())
                    settled = True
                continue
            if isinstance(item, TabletopError):
                raise item
            if not item.text.strip():
                continue  # chatter the recogniser rejected: a table is never silent
            out.show(table.hear(item))
            last, settled = time.monotonic(), False


def _eyes(camera: str) -> Any:
    from tabletop.table import BookEyes
    from tabletop.vision import Camera, check_book
    from tabletop.vision.reader import shipped_reader

    source: int | str = int(camera) if camera.isdigit() else camera
    reader = shipped_reader()  # a missing card reader is found before the deal, not at the first book
    cam = Camera(source)

    def look(rank: Any, book_size: int) -> Any:
        frames = cam.look()  # about half a second of frames, read as a live look: a book seen at once costs one read
        try:
            return check_book(rank, frames, book_size=book_size, reader=reader, live=True)
        except Exception as error:  # noqa: BLE001 - a fault in reading the picture never stops the game
            raise SetupError(f"the card reader failed on the camera's picture ({type(error).__name__}: {error}); "
                             "please report it", code="reader-failed") from error

    return BookEyes(look)
