"""Reading a small input file safely: a regular file only (never blocking on a FIFO or reading a
device), and never more than a bound, so a wrong path cannot hang or exhaust memory.

Each caller turns a :class:`FileProblem` into its own error and words it for its own file.

>>> read_bounded("/dev/zero", 10)
Traceback (most recent call last):
...
tabletop.files.FileProblem: special
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["FileProblem", "read_bounded"]


class FileProblem(Exception):
    """Why a file was not read: ``kind`` is "missing", "cannot-open", "folder", "special" (a FIFO,
    device or socket), "too-big" or "cannot-read"; ``strerror`` is the system's reason, if any."""

    def __init__(self, kind: str, strerror: str = "") -> None:
        super().__init__(kind)
        self.kind = kind
        self.strerror = strerror


def read_bounded(path: str | Path, limit: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    :raises FileProblem: when it is missing, cannot be opened or read, is not a regular file, or is
        larger than ``limit``.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)  # a FIFO must not block us
    except FileNotFoundError as error:
        raise FileProblem("missing", error.strerror or "") from None
    except OSError as error:
        raise FileProblem("cannot-open", error.strerror or "") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
        os.close(fd)
        if stat.S_ISDIR(info.st_mode):
            raise FileProblem("folder")
        raise FileProblem("special" if not stat.S_ISREG(info.st_mode) else "too-big")
    with os.fdopen(fd, "rb", buffering=0) as file:
        try:
            data = file.read(limit + 1) or b""
        except OSError as error:
            raise FileProblem("cannot-read", error.strerror or "") from None
    if len(data) > limit:  # it grew since it was measured
        raise FileProblem("too-big")
    return data
