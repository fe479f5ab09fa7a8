"""The game's journal: an append-only JSON-lines file, flushed to disk before anything is announced.

Line 1 is the header (players, rules, who went first). Every later line is one operation on the
game: ``{"push": "ask Ana Ben 7", "text": "Ben, got any sevens?"}`` or ``{"undo": 2}`` (steps
taken back). Replaying them rebuilds the exact game.

A crash can only cut the last line short. Reading accepts that (and says so); on resume the cut
line is closed off and acknowledged with a ``{"torn": N}`` line, so no byte already written is
ever changed or removed. Any other damage is reported with its line number.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from tabletop import sentences
from tabletop.errors import IllegalActionError, InvalidInputError, JournalError
from tabletop.referee.actions import SettleAction, parse_action
from tabletop.referee.game import Game
from tabletop.rules import Rules

__all__ = ["Journal", "Loaded", "load", "FORMAT"]

FORMAT = "tabletop-journal/1"


@dataclass
class Loaded:
    """A journal read back: the rebuilt game and what was noticed on the way."""

    game: Game
    path: Path
    torn_line: int | None = None   # a last line cut short by a crash (not yet acknowledged)
    notes: list[str] = field(default_factory=list)
    size: int = 0                  # bytes of whole lines read


def load(path: str | Path) -> Loaded:
    """Rebuild the game a journal records.

    :raises JournalError: if the file is missing, not a journal, or damaged anywhere but a torn last line.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise JournalError(f"no journal at {str(path)!r}", code="journal-missing") from None
    except OSError as error:
        raise JournalError(f"cannot read journal {str(path)!r}: {error.strerror}", code="journal-unreadable") from None
    raw_lines = data.split(b"\n")
    ends_with_newline = data.endswith(b"\n")
    if ends_with_newline:
        raw_lines.pop()
    records: list[tuple[int, Any]] = []
    torn: int | None = None
    for number, raw in enumerate(raw_lines, start=1):
        last = number == len(raw_lines)
        try:
            records.append((number, json.loads(raw.decode("utf-8"))))
        except (UnicodeDecodeError, json.JSONDecodeError):
            if last and not ends_with_newline:
                torn = number
                continue
            nxt = _peek_json(raw_lines, number)
            if isinstance(nxt, dict) and nxt.get("torn") == number:
                continue  # a cut line closed off on an earlier resume
            raise JournalError(
                f"journal {str(path)!r} is damaged at line {number}: not a whole JSON record", line=number,
                code="journal-damaged",
            ) from None
    if not records:
        raise JournalError(f"journal {str(path)!r} is empty", line=1, code="journal-damaged")
    game = _header(records[0], path)
    loaded = Loaded(game, path, torn_line=torn)
    for number, record in records[1:]:
        _apply(game, record, number, path)
    if torn is not None:
        loaded.notes.append(sentences.JOURNAL_TORN)  # spoken: the line number is in torn_line
    return loaded


def _peek_json(lines: list[bytes], number: int) -> Any:
    if number < len(lines):
        try:
            return json.loads(lines[number].decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            return None
    return None


def _header(entry: tuple[int, Any], path: Path) -> Game:
    number, header = entry
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise JournalError(f"{str(path)!r} is not a tabletop journal (line {number})", line=number,
                           code="journal-damaged")
    try:
        rules = Rules.from_mapping(header["rules"])
        return Game(header["players"], rules, first=int(header.get("first", 0)))
    except (KeyError, TypeError, ValueError, InvalidInputError) as error:
        raise JournalError(f"journal {str(path)!r} has a bad header at line {number}: {error}", line=number,
                           code="journal-damaged") from None


def _apply(game: Game, record: Any, number: int, path: Path) -> None:
    try:
        if not isinstance(record, dict):
            raise InvalidInputError("not an object")
        if "push" in record:
            action = parse_action(record["push"])
            if isinstance(action, SettleAction):
                if game.needs_settle():
                    game.push(action)
                return
            game.check(action)  # questions were answered when it was written; legality must still hold
            game.push(action, text=record.get("text"))
        elif "undo" in record:
            count = int(record["undo"])
            if count < 1 or count > len(game.history):
                raise InvalidInputError(f"cannot take back {count} steps")
            for _ in range(count):
                game.pop()
        elif "torn" in record:
            pass
        else:
            raise InvalidInputError("unknown record")
    except (InvalidInputError, IllegalActionError, ValueError, TypeError) as error:
        reason = getattr(error, "reason", str(error))
        raise JournalError(
            f"journal {str(path)!r} is damaged at line {number}: {reason}", line=number, code="journal-damaged"
        ) from None


class Journal:
    """Appends a game's operations to its file, durably, before they are announced."""

    def __init__(self, path: str | Path, *, durable: bool = True) -> None:
        self.path = Path(path)
        self.durable = durable
        self._file: Any = None

    @classmethod
    def create(cls, path: str | Path, game: Game, *, durable: bool = True) -> "Journal":
        """Start a new journal for ``game`` (refuses to overwrite an existing file).

        The header is written to a temporary file and linked into place, so a crash at any
        instant leaves either no journal or one with its whole header.
        """
        journal = cls(path, durable=durable)
        journal.path.parent.mkdir(parents=True, exist_ok=True)
        if journal.path.exists():
            raise JournalError(
                f"a journal already exists at {str(journal.path)!r}: use --resume to continue it, "
                "or name a new one with --journal", code="journal-exists",
            )
        header = {"format": FORMAT, "players": list(game.players), "rules": game.rules.to_json(), "first": game.first}
        fd, temporary = tempfile.mkstemp(prefix=".tabletop-", suffix=".jsonl", dir=journal.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as file:
                file.write(json.dumps(header, ensure_ascii=False) + "\n")
                file.flush()
                if durable:
                    os.fsync(file.fileno())
            try:
                os.link(temporary, journal.path)  # atomic, and never replaces an existing file
            except FileExistsError:
                raise JournalError(
                    f"a journal already exists at {str(journal.path)!r}: use --resume to continue it",
                    code="journal-exists",
                ) from None
        finally:
            os.unlink(temporary)
        journal._sync_dir()
        journal._file = open(journal.path, "a", encoding="utf-8")
        return journal

    @classmethod
    def reopen(cls, loaded: Loaded, *, durable: bool = True) -> "Journal":
        """Continue a loaded journal; a torn last line is closed off and acknowledged, never removed."""
        journal = cls(loaded.path, durable=durable)
        journal._file = open(journal.path, "a", encoding="utf-8")
        if loaded.torn_line is not None:
            journal._write("\n" + json.dumps({"torn": loaded.torn_line}) + "\n")
        return journal

    def append(self, records: Iterable[dict[str, Any]]) -> None:
        text = "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)
        if text:
            self._write(text)

    def _write(self, text: str) -> None:
        if self._file is None:
            raise JournalError("the journal is closed", code="journal-closed")
        self._file.write(text)
        self._file.flush()
        if self.durable:
            os.fsync(self._file.fileno())

    def _sync_dir(self) -> None:
        if self.durable:
            fd = os.open(self.path.parent, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
