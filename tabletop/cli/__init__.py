"""The `tabletop` command: one module per subcommand, each with ``add_parser`` and ``run``."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Sequence

from tabletop import __version__
from tabletop.errors import TabletopError

# Subcommand name -> module under tabletop.cli. Each module defines
#   add_parser(subparsers) -> argparse.ArgumentParser   and   run(args) -> int
SUBCOMMANDS = ("play", "state", "hear", "see", "models", "doctor", "demo", "enroll")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tabletop", description="An offline, voice-controlled referee for Go Fish with a real deck."
    )
    parser.add_argument("--version", action="version", version=f"tabletop {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        try:
            module = importlib.import_module(f"tabletop.cli.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"tabletop.cli.{name}":
                raise
            continue  # a subcommand this installation does not have
        module.add_parser(sub).set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command. Every failure ends in one plain sentence on stderr and a non-zero exit,
    never a traceback (``TABLETOP_DEBUG=1`` shows the traceback of an unexpected error)."""
    _valid_utf8_output()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "_run"):
        parser.print_help()
        return 2
    try:
        return int(args._run(args) or 0)
    except TabletopError as error:
        _complain(error.reason)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (`tabletop state J | head`): stop quietly
        _silence_stdout()
        return 141
    except OSError as error:
        if _is_stdout_error():
            _silence_stdout()
            _complain(f"cannot write the output ({error.strerror}): check where it goes")
            return 1
        if os.environ.get("TABLETOP_DEBUG"):
            raise
        _complain(f"{error.strerror or error} ({getattr(error, 'filename', None) or 'a file'}): check that file "
                  "and try again")
        return 1
    except Exception as error:  # a bug: say so plainly, keep the traceback for those who ask
        if os.environ.get("TABLETOP_DEBUG"):
            raise
        _complain(f"unexpected error ({type(error).__name__}); any game's journal is safe up to the last "
                  "announcement: please report this, and run again with TABLETOP_DEBUG=1 for details")
        return 70


def _valid_utf8_output() -> None:
    """Whatever the text, what tabletop prints is valid UTF-8 (a lone surrogate becomes "?")."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if callable(reconfigure) and (getattr(stream, "encoding", "") or "").lower().replace("-", "") == "utf8":
            try:
                reconfigure(errors="replace" if stream is sys.stdout else "backslashreplace")
            except (ValueError, OSError):
                pass


def _complain(reason: str) -> None:
    try:
        print(f"tabletop: {reason}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def _is_stdout_error() -> bool:
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        return True
    return False


def _silence_stdout() -> None:
    """Point stdout at /dev/null so Python's final flush does not fail again (the Python docs' recipe)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
