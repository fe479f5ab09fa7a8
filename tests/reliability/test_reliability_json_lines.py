"""Every command that prints JSON prints it through one function, ``json_line``, so every event
stays on its one line (U+2028/2029/0085 escaped) and names in any alphabet are printed as typed."""

from __future__ import annotations

import ast
from pathlib import Path

import tabletop
from tabletop.cli.jsonline import json_line

CLI = Path(tabletop.__file__).parent / "cli"


def _printed_json_dumps(path: Path) -> list[int]:
    """Lines of ``path`` where a ``json.dumps(...)`` is what gets printed."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "print":
            for arg in node.args:
                if (isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute)
                        and arg.func.attr == "dumps" and getattr(arg.func.value, "id", None) == "json"):
                    found.append(node.lineno)
    return found


def test_no_command_prints_json_any_other_way() -> None:
    offenders = {p.name: lines for p in sorted(CLI.glob("*.py")) if (lines := _printed_json_dumps(p))}
    assert offenders == {}


def test_a_json_line_keeps_a_name_as_typed_and_stays_on_one_line() -> None:
    line = json_line({"name": "Zoë\u2028Мария"})
    assert line == '{"name": "Zoë\\u2028Мария"}'
    assert len(line.splitlines()) == 1
