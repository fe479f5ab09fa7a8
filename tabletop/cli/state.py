"""`tabletop state JOURNAL`: the public state of a journal's game (read only)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tabletop.cli.jsonline import json_line
from tabletop.journal import load


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser("state", help="the public state of a journal",
                       description="Print the public state of the game a journal holds. The journal is not changed.")
    p.add_argument("journal", metavar="JOURNAL")
    p.add_argument("--json", action="store_true", help="print the state as JSON (PRODUCT.md section 5)")
    return p


def run(args: argparse.Namespace) -> int:
    loaded = load(args.journal)
    for note in loaded.notes:
        print(f"tabletop: {note}", file=sys.stderr)
    if loaded.torn_line is not None:
        print(f"tabletop: (line {loaded.torn_line} of {args.journal})", file=sys.stderr)
    state = loaded.game.public()
    if args.json:
        print(json_line(state))
        return 0
    print("\n".join(describe(state)))
    return 0


def describe(state: dict[str, Any]) -> list[str]:
    """The public state as lines for a person (after the end, nobody is marked as sitting out)."""
    lines = [f"Players: {', '.join(state['players'])}"]
    if state["over"]:
        lines.append(f"Game over. Winners: {', '.join(state['winners'])}")
    else:
        lines.append(f"Turn: {state['current']}")
    lines.append(f"Stock: {state['stock']}")
    for player in state["players"]:
        books = ", ".join(state["books"][player]) or "none"
        out = " (sits out)" if player in state["out"] and not state["over"] else ""
        lines.append(f"  {player}: {state['hands'][player]} cards, books: {books}{out}")
    return lines
