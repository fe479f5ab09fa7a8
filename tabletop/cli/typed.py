"""Typed lines from standard input, read safely: any bytes in, clean bounded text out.

Each line is decoded as UTF-8 with undecodable bytes replaced (U+FFFD), control characters become
spaces, and a line longer than :data:`MAX_LINE` bytes is skipped with a note (nobody says that
much at once), so memory stays bounded whatever is piped in.

>>> import io
>>> list(typed_lines(io.BytesIO(b"Ben, any \\xff sevens?\\r\\n\\n\\x00go fish\\n")))
['Ben, any \\ufffd sevens?', 'go fish']
"""

from __future__ import annotations

import re
import sys
from typing import IO, Any, Callable, Iterator

__all__ = ["typed_lines", "clean_line", "MAX_LINE"]

MAX_LINE = 1000  # bytes
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff]+")


def clean_line(text: str) -> str:
    """``text`` with control characters as single spaces, trimmed."""
    return _CONTROL.sub(" ", text).strip()


def typed_lines(stream: IO[Any] | None, limit: int = MAX_LINE,
                prompt: Callable[[], str] | None = None) -> Iterator[str]:
    """The non-empty lines of ``stream`` (binary or text), cleaned; over-long lines are skipped.

    With ``prompt`` (a person typing at a terminal), what it returns is shown on standard error
    before each line is read.
    """
    if stream is None:
        return
    while True:
        if prompt is not None:
            print(prompt(), end="", file=sys.stderr, flush=True)
        chunk = stream.readline(limit + 1)
        if not chunk:
            if prompt is not None:
                print(file=sys.stderr)
            return
        if isinstance(chunk, bytes):
            newline, text = b"\n", None
        else:
            newline, text = "\n", chunk
        if len(chunk) > limit and not chunk.endswith(newline):
            while chunk and not chunk.endswith(newline):  # the rest of the line, read and dropped
                chunk = stream.readline(64 * 1024)
            print(f"tabletop: a typed line longer than {limit} characters was skipped: type one thing a line",
                  file=sys.stderr, flush=True)
            continue
        if text is None:
            text = chunk.decode("utf-8", errors="replace")
        else:
            text = text.encode("utf-8", errors="replace").decode("utf-8")  # lone surrogates become "?"
        line = clean_line(text)
        if line:
            yield line
