"""The game loop: one pending question, hearing safely, repair in one step, announcements on time.

Issue 10 (items 1, 2, 5) and issue 12 (items 2, 3). The speech tests decode real espeak-ng audio
with the embedded PocketSphinx recogniser.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from support import tabletop_command

PLAYERS = ["Ana", "Ben", "Cho"]


def typed(tmp_path: Path, lines: list[str], *extra: str) -> list[dict]:
    out = subprocess.run(tabletop_command() + ["play", "--text", "--json", "--players", *PLAYERS, "--journal",
                                               str(tmp_path / "game.jsonl"), *extra],
                         input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return [json.loads(line) for line in out.stdout.splitlines()]


# ---- issue 12.3: a count public knowledge rules out ---------------------------------------------


def test_a_count_another_players_holding_rules_out_is_questioned_when_said(tmp_path: Path) -> None:
    events = typed(tmp_path, ["Ben, do you have any sevens?", "yes, two", "Cho, any kings?", "go fish",
                              "Ana, any fives?", "go fish", "Ben, any sevens?", "yes, three", "book of sevens"])
    said = [e.get("say", "") for e in events]
    count = next(e for e in events if e.get("heard") == "yes, three")
    # Ana asked for sevens (so holds one) and received two more: Ben can't give Cho any.
    assert count["code"] == "question" and not count["changed"], count
    assert "Ana received two sevens from Ben" in count["say"]
    # never "lay it down" and "but Ana ..." about the same book
    assert not any("lay it down" in s for s in said), said


def test_an_overruled_count_does_not_call_for_a_book_it_then_questions(tmp_path: Path) -> None:
    events = typed(tmp_path, ["Ben, do you have any sevens?", "yes, two", "Cho, any kings?", "go fish",
                              "Ana, any fives?", "go fish", "Ben, any sevens?", "yes, three", "yes"])
    overruled = events[-1] if events[-1].get("heard") == "yes" else next(e for e in events if e.get("heard") == "yes")
    assert overruled["changed"] and "gives Cho three sevens" in overruled["say"]
    assert "lay it down" not in overruled["say"]
