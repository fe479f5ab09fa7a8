"""The game's journal: an append-only JSON-lines file, flushed to disk before anything is announced.

Line 1 is the header (players, rules, who went first). Every later line is one operation on the
game: ``{"push": "ask Ana Ben 7", "text": "Ben, got any sevens?"}`` or ``{"undo": 2}`` (steps
taken back). Replaying them rebuilds the exact game.

Every record carries ``"h"``, a running hash: the SHA-256 of the previous record's ``h`` and this
record (its keys sorted, ``h`` left out), cut to 16 hex digits. A line changed after it was written
no longer matches, and ``tabletop state`` names it. (It catches accidents and hand edits, not a
forger: anyone can compute the hash again.) Journals written before the hash have no ``chain`` in
their header and are read as before.

A crash can only cut the last line short. Reading accepts that (and says so); on resume the cut
line is closed off and acknowledged with a ``{"torn": N}`` line, so no byte already written is
ever changed or removed. A last line that is whole but has lost its newline is closed with one.
Any other damage is reported with its line number, and every record's shape, types and ranges
are checked before it is used.

One game writes a journal at a time: the writer holds an exclusive ``flock`` on it for as long as
it is open; a second writer is refused, readers still read. Only regular files are journals, and
no record may be longer than :data:`MAX_RECORD` bytes, so reading is bounded.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import re
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Iterable

from tabletop import sentences
from tabletop.errors import JournalError, TabletopError
from tabletop.referee.actions import SettleAction, parse_action
from tabletop.referee.game import Game
from tabletop.rules import Rules

__all__ = ["Journal", "Loaded", "load", "FORMAT", "CHAIN", "MAX_RECORD", "MAX_TEXT", "chain_hash"]

FORMAT = "tabletop-journal/1"
CHAIN = "sha256"
MAX_RECORD = 64 * 1024   # bytes in one line; a real record is well under 1 KiB
MAX_TEXT = 2000          # characters of what was said, kept with a step
MAX_ACTION = 100         # characters of an action's canonical form
MAX_PLAYERS = 26
MAX_NAME = 40
_HASH = re.compile(r"[0-9a-f]{16}")
_HEADER_KEYS = {"format", "players", "rules", "first", "chain", "h"}
_BAD = object()  # a line that is not a JSON value


def chain_hash(previous: str, record: dict[str, Any]) -> str:
    """The running hash of ``record`` after a record whose hash was ``previous`` ("" for the header)."""
    body = json.dumps({k: v for k, v in record.items() if k != "h"}, sort_keys=True, ensure_ascii=True,
                      separators=(",", ":"))
    return hashlib.sha256((previous + "\n" + body).encode("ascii")).hexdigest()[:16]


@dataclass
class Loaded:
    """A journal read back: the rebuilt game and what was noticed on the way."""

    game: Game
    path: Path
    torn_line: int | None = None   # a last line cut short by a crash (not yet acknowledged)
    notes: list[str] = field(default_factory=list)
    size: int = 0                  # bytes read: the whole file
    ends_with_newline: bool = True
    last_hash: str | None = None   # the chain's last hash; None for a journal without one
    identity: tuple[int, int] = (0, 0)  # (device, inode) of the file read


def _show(path: Path) -> str:
    return repr(str(path))


def _damaged(path: Path, number: int, reason: str) -> JournalError:
    return JournalError(f"journal {_show(path)} is damaged at line {number}: {reason}", line=number,
                        code="journal-damaged")


def _open_regular(path: Path, flags: int) -> int:
    """Open ``path`` if it is a regular file (never blocks on a FIFO); the errors say what to do."""
    try:
        fd = os.open(path, flags | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise JournalError(f"no journal at {_show(path)}: check the path", code="journal-missing") from None
    except IsADirectoryError:
        raise JournalError(f"{_show(path)} is a folder, not a journal: name the journal file inside it",
                           code="journal-not-file") from None
    except OSError as error:
        raise JournalError(f"cannot open journal {_show(path)} ({error.strerror}): check the path and its "
                           "permissions", code="journal-unreadable") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise JournalError(f"{_show(path)} is {kind}, so it cannot be a journal: name a journal file",
                           code="journal-not-file")
    os.set_blocking(fd, True)
    return fd


def load(path: str | Path) -> Loaded:
    """Rebuild the game a journal records.

    :raises JournalError: if the file is missing, not a journal, or damaged anywhere but a torn last
        line; the reason names the line and says what to do.
    """
    path = Path(path)
    fd = _open_regular(path, os.O_RDONLY)
    info = os.fstat(fd)
    with os.fdopen(fd, "rb") as file:
        try:
            loaded = _read(file, path)
        except OSError as error:
            raise JournalError(f"cannot read journal {_show(path)} ({error.strerror})",
                               code="journal-unreadable") from None
        if loaded.torn_line is not None and _held_by_a_writer(file.fileno()):
            loaded.notes[:] = [sentences.JOURNAL_BEING_WRITTEN]
    loaded.identity = (info.st_dev, info.st_ino)
    return loaded


def _held_by_a_writer(fd: int) -> bool:
    """Whether a tabletop game holds the journal open for writing now (its lock is taken)."""
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    fcntl.flock(fd, fcntl.LOCK_UN)
    return False


def _lines(file: BinaryIO, path: Path) -> Iterable[tuple[int, bytes, bool]]:
    """(number, line without its newline, whether it had one), each bounded by MAX_RECORD."""
    number = 0
    while True:
        raw = file.readline(MAX_RECORD + 1)
        if not raw:
            return
        number += 1
        complete = raw.endswith(b"\n")
        if not complete and len(raw) > MAX_RECORD:
            raise _damaged(path, number, f"a line longer than {MAX_RECORD // 1024} KiB, which tabletop never "
                           "writes")
        yield number, raw[:-1] if complete else raw, complete


def _parse(raw: bytes) -> Any:
    try:
        return json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return _BAD


def _no_constant(name: str) -> Any:
    raise ValueError(name)


def _split_glued(raw: bytes) -> list[Any] | None:
    """Records glued onto one line by an older tabletop resuming a journal that lacked its last
    newline: the whole records, or None when the line is not that."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    decoder = json.JSONDecoder(parse_constant=_no_constant)
    out, at = [], 0
    try:
        while at < len(text):
            value, at = decoder.raw_decode(text, at)
            if not isinstance(value, dict):
                return None
            out.append(value)
    except (ValueError, RecursionError):
        return None
    return out if len(out) > 1 else None


def _read(file: BinaryIO, path: Path) -> Loaded:
    game: Game | None = None
    chained = False
    previous = ""
    torn: int | None = None
    pending: int | None = None   # a whole line that is not JSON: only a torn mark may follow it
    size = 0
    ends_with_newline = True
    for number, raw, complete in _lines(file, path):
        size += len(raw) + complete
        ends_with_newline = complete
        record = _parse(raw)
        if record is _BAD and game is not None and not chained and pending is None:
            glued = _split_glued(raw)
            if glued is not None:
                for piece in glued:
                    _apply(game, piece, number, path)
                continue
        if record is _BAD:
            if number == 1:
                raise _bad_header(path, raw, complete)
            if not complete:
                torn = number  # the last line, cut short: accepted, and reported
                break
            if pending is not None:
                raise _damaged(path, pending, "not a whole JSON record")
            pending = number
            continue
        if game is None:
            game, chained = _header(record, path)
            previous = record["h"] if chained else ""
            continue
        is_torn_mark = isinstance(record, dict) and "torn" in record
        if pending is not None:
            if not is_torn_mark or record.get("torn") != pending:
                raise _damaged(path, pending, "not a whole JSON record")
        elif is_torn_mark:
            raise _damaged(path, number, "a mark for a cut line where no line was cut")
        if chained:
            previous = _check_hash(record, previous, number, path)
        elif isinstance(record, dict) and "h" in record:
            raise _damaged(path, number, "a hash in a journal whose header has none")
        if is_torn_mark:
            _check_torn(record, pending, number, path)
            pending = None
            continue
        _apply(game, record, number, path)
    if pending is not None:
        raise _damaged(path, pending, "not a whole JSON record")
    if game is None:
        raise JournalError(f"journal {_show(path)} is empty: it holds no game, so start a new one",
                           line=1, code="journal-empty")
    loaded = Loaded(game, path, torn_line=torn, size=size, ends_with_newline=ends_with_newline,
                    last_hash=previous if chained else None)
    if torn is not None:
        loaded.notes.append(sentences.JOURNAL_TORN)  # spoken: the line number is in torn_line
    return loaded


def _bad_header(path: Path, raw: bytes, complete: bool) -> JournalError:
    if not complete and raw.lstrip().startswith(b"{"):
        return JournalError(
            f"journal {_show(path)} line 1 (its header) is cut short, so it holds no game: start a new one",
            line=1, code="journal-damaged")
    return JournalError(f"{_show(path)} is not a tabletop journal (line 1 is not its header): check the path",
                        line=1, code="journal-damaged")


def _header(header: Any, path: Path) -> tuple[Game, bool]:
    def bad(reason: str) -> JournalError:
        return JournalError(f"journal {_show(path)} has a bad header at line 1: {reason}", line=1,
                            code="journal-damaged")

    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise JournalError(f"{_show(path)} is not a tabletop journal (line 1 is not its header): check the path",
                           line=1, code="journal-damaged")
    unknown = sorted(set(header) - _HEADER_KEYS)
    if unknown:
        raise bad(f"unknown field {_clip(unknown[0])}")
    players = header.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise bad("players must be a list of names")
    if not 2 <= len(players) <= MAX_PLAYERS or any(len(p) > MAX_NAME for p in players):
        raise bad(f"a game has 2 to {MAX_PLAYERS} players with names of at most {MAX_NAME} letters")
    rules = header.get("rules")
    if not isinstance(rules, dict) or not all(type(v) in (str, bool, int) for v in rules.values()):
        raise bad("rules must be a table of rule options")
    first = header.get("first", 0)
    if type(first) is not int or not 0 <= first < len(players):
        raise bad(f"first must be a seat number from 0 to {len(players) - 1}")
    chained = "chain" in header
    if chained:
        if header["chain"] != CHAIN:
            raise bad(f"unknown chain {_clip(header['chain'])}")
        if header.get("h") != chain_hash("", header):
            raise JournalError(_changed(path, 1), line=1, code="journal-changed")
    elif "h" in header:
        raise bad("a hash without a chain")
    try:
        return Game(players, Rules.from_mapping(rules), first=first), chained
    except TabletopError as error:
        raise bad(error.reason) from None


def _changed(path: Path, number: int) -> str:
    keep = f"keep only lines 1 to {number - 1} to go on from there" if number > 1 else "start a new game"
    return (f"journal {_show(path)} line {number} was changed after it was written (its hash does not match): "
            f"restore it, or {keep}")


def _check_hash(record: Any, previous: str, number: int, path: Path) -> str:
    if not isinstance(record, dict):
        raise _damaged(path, number, "not a record (a JSON object)")
    h = record.get("h")
    if not isinstance(h, str) or not _HASH.fullmatch(h):
        raise _damaged(path, number, "the record has no hash")
    if h != chain_hash(previous, record):
        raise JournalError(_changed(path, number), line=number, code="journal-changed")
    return h


def _check_torn(record: dict[str, Any], pending: int | None, number: int, path: Path) -> None:
    if set(record) - {"h"} != {"torn"} or type(record["torn"]) is not int or record["torn"] != pending:
        raise _damaged(path, number, "a bad mark for a cut line")


def _clip(value: Any, most: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= most else text[: most - 1] + "…"


def _apply(game: Game, record: Any, number: int, path: Path) -> None:
    if not isinstance(record, dict):
        raise _damaged(path, number, "not a record (a JSON object)")
    kinds = [k for k in ("push", "undo") if k in record]
    if len(kinds) != 1 or "torn" in record:
        raise _damaged(path, number, "a record must be one push or one undo")
    kind = kinds[0]
    allowed = {"push", "text", "h"} if kind == "push" else {kind, "h"}
    extra = sorted(set(record) - allowed)
    if extra:
        raise _damaged(path, number, f"unknown field {_clip(extra[0])}")
    try:
        if kind == "push":
            text, said = record["push"], record.get("text")
            if not isinstance(text, str) or not 0 < len(text) <= MAX_ACTION:
                raise _damaged(path, number, "push must name an action")
            if said is not None and (not isinstance(said, str) or len(said) > MAX_TEXT):
                raise _damaged(path, number, f"text must be what was said, at most {MAX_TEXT} characters")
            action = parse_action(text)
            if isinstance(action, SettleAction):
                if game.needs_settle():
                    game.push(action)
                return
            game.check(action)  # questions were answered when it was written; legality must still hold
            game.push(action, text=said)
        else:
            count = record["undo"]
            if type(count) is not int or not 1 <= count <= len(game.history):
                raise _damaged(path, number, f"undo must be a whole number of steps from 1 to {len(game.history)}")
            for _ in range(count):
                game.pop()
        if game.state.cards_accounted() != 52:  # the referee keeps this; a journal must never break it
            raise _damaged(path, number, "the cards no longer add up to 52")
    except JournalError:
        raise
    except (TabletopError, ValueError, TypeError) as error:
        reason = getattr(error, "reason", None) or "not a valid step of this game"
        raise _damaged(path, number, reason) from None


def _write_error(error: OSError, path: Path, *, starting: bool = False) -> JournalError:
    """What to say when the journal cannot be written: nothing announced is ever lost."""
    if starting:
        safe, then = "no game was started", "then start it again"
    else:
        safe, then = "the game is saved up to the last announcement", f"then continue it with: tabletop play --resume {path}"
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return JournalError(f"the disk is full, so the journal {_show(path)} could not be written and {safe}: "
                            f"free some space, {then}", code="disk-full")
    return JournalError(f"the journal {_show(path)} could not be written ({error.strerror}) and {safe}: "
                        f"check the disk, {then}", code="journal-write")


def _lock(fd: int, path: Path) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise JournalError(
            f"journal {_show(path)} is being played by another tabletop: finish that game first "
            "(tabletop state can read it meanwhile)", code="journal-busy") from None
    except OSError:
        pass  # a filesystem without locks: play on, as before locks


class Journal:
    """Appends a game's operations to its file, durably, before they are announced.

    While open it holds an exclusive lock on the file, so a second game cannot write to it.
    """

    def __init__(self, path: str | Path, *, durable: bool = True) -> None:
        self.path = Path(path)
        self.durable = durable
        self._fd: int | None = None
        self._hash: str | None = None

    @classmethod
    def create(cls, path: str | Path, game: Game, *, durable: bool = True) -> "Journal":
        """Start a new journal for ``game`` (refuses to overwrite an existing file).

        The header is written to an unnamed file (``O_TMPFILE``) and linked into place, so a crash
        at any instant leaves either no journal or one with its whole header, and no stray file.
        """
        journal = cls(path, durable=durable)
        target = journal.path
        _check_new(target)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise JournalError(f"cannot make the folder {str(target.parent)!r} for the journal ({error.strerror}): "
                               "name a journal in a folder you can write", code="journal-folder") from None
        header: dict[str, Any] = {"format": FORMAT, "players": list(game.players), "rules": game.rules.to_json(),
                                  "first": game.first, "chain": CHAIN}
        header["h"] = chain_hash("", header)
        data = (json.dumps(header, ensure_ascii=False) + "\n").encode("utf-8")
        fd, temporary = _unnamed_file(target.parent)
        try:
            _lock(fd, target)
            try:
                _write_all(fd, data)
                if durable:
                    os.fsync(fd)
                if temporary is None:  # atomic, never replaces an existing file
                    _link_unnamed(fd, target)
                else:
                    os.link(temporary, target)
            except FileExistsError:
                raise JournalError(f"a journal already exists at {_show(target)}: use --resume to continue it, "
                                   "or name a new one with --journal", code="journal-exists") from None
            except OSError as error:
                raise _write_error(error, target, starting=True) from None
        except BaseException:
            os.close(fd)
            raise
        finally:
            if temporary is not None:
                _unlink(temporary)
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_APPEND)
        journal._fd, journal._hash = fd, header["h"]
        journal._sync_dir()
        return journal

    @classmethod
    def reopen(cls, loaded: Loaded, *, durable: bool = True) -> "Journal":
        """Continue a loaded journal; a torn last line is closed off and acknowledged, never removed."""
        journal = cls(loaded.path, durable=durable)
        fd = _open_regular(journal.path, os.O_WRONLY | os.O_APPEND)
        try:
            _lock(fd, journal.path)
        except JournalError:
            os.close(fd)
            raise
        info = os.fstat(fd)
        if (info.st_dev, info.st_ino) != loaded.identity or info.st_size != loaded.size:
            os.close(fd)
            raise JournalError(f"journal {_show(journal.path)} changed while it was being opened (another tabletop "
                               "was writing it): try again", code="journal-busy")
        journal._fd, journal._hash = fd, loaded.last_hash
        if loaded.torn_line is not None:
            journal.append([{"torn": loaded.torn_line}], prefix=b"\n")
        elif not loaded.ends_with_newline:
            journal._write(b"\n")  # a whole last line that lost its newline: close it, add nothing to it
        return journal

    def append(self, records: Iterable[dict[str, Any]], *, prefix: bytes = b"") -> None:
        """Write ``records`` (one line each) and flush them to disk.

        :raises JournalError: when the disk is full or failing; nothing of these records is left behind.
        """
        h = self._hash
        lines = [prefix]
        for record in records:
            record = dict(record)
            text = record.get("text")
            if isinstance(text, str) and len(text) > MAX_TEXT:
                record["text"] = text[:MAX_TEXT]
            if h is not None:
                h = record["h"] = chain_hash(h, record)
            try:
                lines.append((json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8"))
            except UnicodeEncodeError:  # a lone surrogate: escaped, so the file stays valid UTF-8
                lines.append((json.dumps(record, ensure_ascii=True) + "\n").encode("ascii"))
        data = b"".join(lines)
        if data:
            self._write(data)
            self._hash = h

    def _write(self, data: bytes) -> None:
        if self._fd is None:
            raise JournalError("the journal is closed", code="journal-closed")
        start = os.fstat(self._fd).st_size
        try:
            _write_all(self._fd, data)
            if self.durable:
                os.fsync(self._fd)
        except OSError as error:
            try:  # take back a part-written record: the journal stays whole, as last announced
                os.ftruncate(self._fd, start)
            except OSError:
                pass
            raise _write_error(error, self.path) from None

    def _sync_dir(self) -> None:
        if self.durable:
            try:
                fd = os.open(self.path.parent, os.O_RDONLY)
            except OSError:
                return
            try:
                os.fsync(fd)
            except OSError:
                pass
            finally:
                os.close(fd)

    def close(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _link_unnamed(fd: int, target: Path) -> None:
    """Give the unnamed file ``fd`` the name ``target``: linkat(AT_SYMLINK_FOLLOW) of /proc/self/fd/N.

    A directory descriptor makes os.link call linkat (plain link() would not follow the /proc link).
    """
    folder = os.open(target.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.link(f"/proc/self/fd/{fd}", target.name, dst_dir_fd=folder, follow_symlinks=True)
    finally:
        os.close(folder)


def _check_new(path: Path) -> None:
    """Say plainly why a new journal cannot go at ``path`` (before anything is written)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as error:
        raise JournalError(f"cannot use {_show(path)} as a journal ({error.strerror}): name another file",
                           code="journal-not-file") from None
    if stat.S_ISDIR(info.st_mode):
        raise JournalError(f"{_show(path)} is a folder: name a journal file inside it, for example "
                           f"{str(path / 'game.jsonl')!r}", code="journal-not-file")
    if stat.S_ISLNK(info.st_mode):
        raise JournalError(f"{_show(path)} is a link, not a journal: remove it or name another file",
                           code="journal-not-file")
    if not stat.S_ISREG(info.st_mode):
        raise JournalError(f"{_show(path)} is not a regular file: name a journal file", code="journal-not-file")
    raise JournalError(f"a journal already exists at {_show(path)}: use --resume to continue it, "
                       "or name a new one with --journal", code="journal-exists")


_PART = ".tabletop-"
_PART_SUFFIX = ".jsonl.part"


def _unnamed_file(folder: Path) -> tuple[int, str | None]:
    """A new file in ``folder`` with no name (``O_TMPFILE``), or else a named, locked temporary file.

    Returns the descriptor and the temporary name (None for an unnamed file).
    """
    flags = os.O_RDWR | getattr(os, "O_CLOEXEC", 0)
    if hasattr(os, "O_TMPFILE") and Path("/proc/self/fd").is_dir():
        try:
            return os.open(folder, flags | os.O_TMPFILE, 0o644), None
        except OSError as error:
            if error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EACCES, errno.EROFS):
                raise _write_error(error, folder / "journal", starting=True) from None
    _sweep(folder)
    try:
        fd, name = tempfile.mkstemp(prefix=_PART, suffix=_PART_SUFFIX, dir=folder)
    except OSError as error:
        raise _write_error(error, folder / "journal", starting=True) from None
    os.fchmod(fd, 0o644)
    return fd, name


def _sweep(folder: Path) -> None:
    """Remove temporary files left by a tabletop killed while creating a journal (nobody holds their lock)."""
    try:
        parts = list(folder.glob(f"{_PART}*{_PART_SUFFIX}"))
    except OSError:
        return
    for part in parts:
        try:
            fd = os.open(part, os.O_RDONLY | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            _unlink(str(part))
        except OSError:
            pass
        finally:
            os.close(fd)


def _unlink(name: str) -> None:
    try:
        os.unlink(name)
    except OSError:
        pass
