"""Typed lines from standard input, read safely: any bytes in, clean bounded text out.

Each line is decoded as UTF-8 with undecodable bytes replaced (U+FFFD) and trimmed, and a line
longer than :data:`MAX_LINE` bytes is cut to its first :data:`MAX_LINE` bytes (nobody says that
much at once; the rest is read and dropped), so memory stays bounded whatever is piped in, and
every line still gets its answer.

>>> import io
>>> list(typed_lines(io.BytesIO(b"Ben, any \\xff sevens?\\r\\n\\n\\x00go fish\\n")))
['Ben, any \\ufffd sevens?', '\\x00go fish']
"""

from __future__ import annotations

import sys
from typing import IO, Any, Callable, Iterator

__all__ = ["typed_lines", "clean_line", "MAX_LINE"]

MAX_LINE = 1000  # bytes


def clean_line(text: str) -> str:
    """``text`` trimmed; any other character is the parser's to judge (it is only ever JSON-escaped)."""
    return text.strip()


def typed_lines(stream: IO[Any] | None, limit: int = MAX_LINE,
                prompt: Callable[[], str] | None = None) -> Iterator[str]:
    """The non-empty lines of ``stream`` (binary or text), cleaned; over-long lines are cut short.

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
            rest = chunk
            while rest and not rest.endswith(newline):  # the rest of the line, read and dropped
                rest = stream.readline(64 * 1024)
            chunk = chunk[:limit]
        if text is None:
            text = chunk.decode("utf-8", errors="replace")
        else:
            text = chunk.encode("utf-8", errors="replace").decode("utf-8")  # lone surrogates become "?"
        line = clean_line(text)
        if line:
            yield line
