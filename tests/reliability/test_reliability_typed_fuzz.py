"""Typed-input fuzzing: random bytes, invalid UTF-8, control characters and huge lines.

Whatever is typed, tabletop answers without a traceback, every invariant holds after every line,
the journal always rebuilds exactly the game in memory, and memory stays bounded.
``TABLETOP_SOAK=1`` runs many more examples.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faults import PLAYERS, SOAK, cli, invariants_hold

from tabletop.cli.typed import MAX_LINE, typed_lines
from tabletop.journal import load
from tabletop.table import Table

PHRASES = [
    "Ben, do you have any sevens?", "Cho, got any 7s?", "Ana, give me your kings", "Ben, sevens?", "yes, two",
    "here you go, one", "I have three", "go fish", "nope, go fish", "lucky fish!", "book of sevens",
    "Ana has a book of kings", "I'm out of cards", "what's the score", "whose turn is it",
    "how many cards are left", "how many cards does Ben have", "undo", "scratch that", "no, I said sixes",
    "Ben has three cards", "yes", "no", "pause", "resume", "repeat that", "help", "Cho asks Ana for queens",
    "what did Ben ask for", "which books are down",
]

garbage = st.binary(max_size=80)
noisy_phrase = st.builds(
    lambda phrase, cut, junk: phrase.encode()[:cut] + junk + phrase.encode()[cut:],
    st.sampled_from(PHRASES), st.integers(0, 40),
    st.sampled_from([b"", b"\xff", b"\xfe\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\x1b[2J", b"\r", b"\t\x0b\x0c",
                     b"\xe2\x80\xae", b"\xef\xbb\xbf", b"\xc2\x85"]),
)
typed_line = st.one_of(st.sampled_from(PHRASES).map(str.encode), noisy_phrase, garbage,
                       st.text(max_size=60).map(lambda t: t.encode("utf-8", "surrogatepass")))


@settings(max_examples=1500 if SOAK else 40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(typed_line, min_size=1, max_size=40))
def test_typed_fuzz_keeps_the_game_and_the_journal(tmp_path_factory, lines: list[bytes]) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("fuzz")
    table = Table.new(PLAYERS, journal=folder / "game.jsonl", durable=False)
    try:
        for line in typed_lines(io.BytesIO(b"\n".join(lines) + b"\n")):
            replies = table.hear_text(line)
            for reply in replies:
                json.dumps(reply.event, ensure_ascii=False).encode("utf-8")  # printable as valid UTF-8
            invariants_hold(table.game.state)
            if table.stopped:
                break
        table.idle()
        invariants_hold(table.game.state)
        path = table.journal.path if table.journal is not None else None
    finally:
        table.close()
    if path is not None:
        assert load(path).game.public() == table.game.public()


def test_typed_lines_are_bounded_and_clean() -> None:
    huge = b"Ben, any sevens? " * 1_000_000
    lines = list(typed_lines(io.BytesIO(b"go fish\n" + huge + b"\n\x00\x01\x02\nyes\xff, two\n" + huge)))
    assert lines == ["go fish", "yes\ufffd, two"]  # the over-long lines skipped (with a note), controls alone no line
    assert all(len(line) <= MAX_LINE for line in lines)


def test_the_real_program_survives_a_stream_of_junk(tmp_path: Path) -> None:
    rng = random.Random(5)
    chunks = []
    for i in range(3000 if SOAK else 600):
        kind = rng.random()
        if kind < 0.4:
            chunks.append(rng.choice(PHRASES).encode())
        elif kind < 0.7:
            chunks.append(bytes(rng.randrange(256) for _ in range(rng.randrange(60))).replace(b"\n", b" "))
        elif kind < 0.8:
            chunks.append(rng.choice(PHRASES).encode() + rng.choice(["\u2028", "\u2029", "\x85", "\x0b"]).encode())
        elif kind < 0.95:
            phrase = rng.choice(PHRASES).encode()
            at = rng.randrange(len(phrase) + 1)
            chunks.append(phrase[:at] + bytes([rng.randrange(128, 256)]) + phrase[at:])
        else:
            chunks.append(b"x" * rng.choice([MAX_LINE + 1, 100_000, 3_000_000]))
    journal = tmp_path / "game.jsonl"
    ran = cli(["play", "--text", "--json", "--no-fsync", "--players", *PLAYERS, "--journal", str(journal)],
              b"\n".join(chunks) + b"\n", timeout=300)  # decodes stdout strictly as UTF-8
    assert ran.code == 0, ran.err[-2000:]
    assert "Traceback" not in ran.err and "unexpected error" not in ran.err
    events = [json.loads(line) for line in ran.out.splitlines()]  # no event is broken by a line separator
    states = [e["state"] for e in events if "state" in e]
    for state in states:
        books = sum(len(b) for b in state["books"].values())
        assert sum(state["hands"].values()) + state["stock"] + 4 * books == 52
    ongoing = [p for p in sorted(tmp_path.glob("*.jsonl"))]
    assert load(max(ongoing, key=lambda p: p.stat().st_mtime)).game.public() == states[-1]
    assert ran.max_rss_mb < 300, ran.max_rss_mb
