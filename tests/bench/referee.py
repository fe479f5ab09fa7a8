"""Games per second: through the full typed path, and through the referee alone.

    python tests/bench/referee.py [--games 200] [--repeats 5] [--players 3]

Whole games are first played on the simulated table (a real shuffled deck, hidden hands, honest
random players; tests/referee/simtable.py) and their sentences recorded. They are then replayed:
- typed path: sentence → parse and understand in context → referee → journal (fsync per event,
  as in play) — and the same without fsync, to show what durability costs;
- referee alone: the recorded intents straight into the Referee.
Machines are noisy: each figure is the median of several repeats, with the spread.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "referee"))
sys.path.insert(0, str(ROOT))

from simtable import SimulatedTable  # noqa: E402

from tabletop.referee import Game, Referee  # noqa: E402
from tabletop.rules import Rules  # noqa: E402
from tabletop.table import Table  # noqa: E402

NAMES = ["Ana", "Ben", "Cho", "Dev", "Eve", "Fay"]
Event = tuple[str, Any]  # ("say", (text, intent)) or ("quiet", None)


class RecordingTable(SimulatedTable):
    """The simulated table, keeping every sentence and every moment of quiet in order."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.events: list[Event] = []

    def say(self, text: str, intent: Any, expect: tuple[str, ...] = ("ok",)) -> Any:
        self.events.append(("say", (text, intent)))
        return super().say(text, intent, expect)

    def quiet(self) -> None:
        self.events.append(("quiet", None))
        super().quiet()


def record_games(games: int, players: int) -> list[list[Event]]:
    recorded = []
    for seed in range(games):
        table = RecordingTable(NAMES[:players], Rules(), seed)
        table.play()
        recorded.append(table.events)
    return recorded


def referee_alone(games: list[list[Event]], players: list[str]) -> None:
    for events in games:
        referee = Referee(Game(players))
        for kind, payload in events:
            if kind == "say":
                referee.handle(payload[1], payload[0])
            else:
                referee.settle()


def typed_path(games: list[list[Event]], players: list[str], durable: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        for i, events in enumerate(games):
            table = Table.new(players, journal=Path(folder) / f"game{i}.jsonl", durable=durable)
            for kind, payload in events:
                if kind == "say":
                    replies = table.hear_text(payload[0])
                    if not replies[-1].event.get("changed") and replies[-1].event.get("code") != "answer":
                        raise SystemExit(f"typed path refused {payload[0]!r}: {replies[-1].text}")
                else:
                    table.idle()
            if not table.game.public()["over"]:
                raise SystemExit(f"game {i} did not end on the typed path")
            table.close()


def measure(run: Callable[[], None], games: int, repeats: int) -> tuple[float, float, float]:
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        rates.append(games / (time.perf_counter() - start))
    return statistics.median(rates), min(rates), max(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    players = NAMES[: args.players]

    games = record_games(args.games, args.players)
    sentences = sum(1 for g in games for kind, _ in g if kind == "say")
    print(f"{args.games} whole games, {args.players} players, standard rules: "
          f"{sentences} sentences ({sentences / args.games:.0f} a game)")

    rows = [
        ("referee alone (intents → Referee)", lambda: referee_alone(games, players), 1),
        ("typed path, no fsync (text → parse → referee → journal)", lambda: typed_path(games, players, False), 1),
        ("typed path, fsync per event (as tabletop play)", lambda: typed_path(games[: max(1, args.games // 4)], players, True), 4),
    ]
    results = {}
    for name, run, divisor in rows:
        median, low, high = measure(run, args.games // divisor, args.repeats)
        results[name] = median
        per_sentence_ms = 1000 * (args.games // divisor) / median / max(1, sentences // divisor)
        print(f"  {name:58s} {median:9.1f} games/s (min {low:.1f}, max {high:.1f}; "
              f"{per_sentence_ms:.3f} ms a sentence)")
    base = results[rows[0][0]]
    for name, _, _ in rows[1:]:
        print(f"  ratio referee-alone / {name.split(' (')[0]}: {base / results[name]:.1f}x")


if __name__ == "__main__":
    main()
