"""The `tabletop` command: one module per subcommand, each with ``add_parser`` and ``run``."""

from __future__ import annotations

import argparse
import importlib
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
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "_run"):
        parser.print_help()
        return 2
    try:
        return int(args._run(args) or 0)
    except TabletopError as error:
        print(f"tabletop: {error.reason}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
