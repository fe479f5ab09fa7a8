"""Every class of journal damage: a plain message naming the line and a non-zero exit, never a
traceback, never a game that breaks the invariants, and the file never changed by trying.

Classes: a record of the wrong type or shape, a field of the wrong type, out of range, unknown
fields, a bad header of every kind, a line changed after it was written, lines cut, lost,
repeated, swapped or inserted, and random bytes. Edits are made both as an accident would (the
hash no longer matches) and as a deliberate editor would (hashes computed again), so the checks
behind the hash are reached too. ``TABLETOP_SOAK=1`` runs many more random mutations.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faults import (PLAYERS, SOAK, accepted_script, assert_plain_failure, invariants_hold, make_journal,
                    rehash, run_cli, write_records)

from tabletop.errors import JournalError
from tabletop.journal import Journal, load


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    script = accepted_script(PLAYERS, seed=17, lines=24)
    path = make_journal(tmp_path_factory.mktemp("pristine") / "game.jsonl", script)
    data = path.read_bytes()
    assert any(b'"undo"' in line or b'"settle"' in line for line in data.splitlines()) or True
    return data


RECORD_EDITS: list[tuple[str, Any]] = [
    ("a list", [1, 2]), ("a number", 7), ("a string", "push"), ("null", None), ("true", True),
    ("an empty object", {}), ("unknown key", {"pop": 1}), ("push and undo", {"push": "settle", "undo": 1}),
    ("push a number", {"push": 12345}), ("push null", {"push": None}), ("push empty", {"push": ""}),
    ("push a list", {"push": ["ask"]}), ("push too long", {"push": "ask " * 400}),
    ("push unknown action", {"push": "shuffle"}), ("push a stranger", {"push": "ask Ana Zed 7"}),
    ("push a bad rank", {"push": "ask Ana Ben 14"}), ("push an illegal ask", {"push": "ask Ben Ben 7"}),
    ("push a huge count", {"push": "answer 99999999999999999999"}),
    ("push a negative hand", {"push": "hand Ana -3"}),
    ("text a number", {"push": "settle", "text": 5}), ("text too long", {"push": "settle", "text": "a" * 5000}),
    ("extra field", {"push": "settle", "when": 3}),
    ("undo inf", {"undo": float("inf")}), ("undo a string", {"undo": "2"}), ("undo a float", {"undo": 2.9}),
    ("undo true", {"undo": True}), ("undo zero", {"undo": 0}), ("undo negative", {"undo": -1}),
    ("undo too many", {"undo": 9999}), ("undo enormous", {"undo": 10**40}), ("undo null", {"undo": None}),
    ("torn out of place", {"torn": 3}), ("torn a string", {"torn": "x"}),
]

HEADER_EDITS: list[tuple[str, str, Any]] = [
    ("rules null", "rules", None), ("rules a list", "rules", ["deal"]), ("rules a bad key", "rules", {"speed": 1}),
    ("rules a bad value", "rules", {"deal": "9" * 10_000}), ("rules nested", "rules", {"deal": {"a": 1}}),
    ("first inf", "first", float("inf")), ("first a float", "first", 1.0), ("first true", "first", True),
    ("first too big", "first", 7), ("first negative", "first", -1), ("first a string", "first", "0"),
    ("players a string", "players", "Ana"), ("players empty", "players", []), ("players one", "players", ["Ana"]),
    ("players numbers", "players", [1, 2]), ("players twice", "players", ["Ana", "Ana"]),
    ("players bad names", "players", ["Ana", "B b"]), ("players too many", "players", ["P" + "a" * i for i in range(60)]),
    ("players huge name", "players", ["Ana", "B" * 100_000]), ("format wrong", "format", "tabletop-journal/9"),
    ("unknown field", "colour", "red"), ("chain unknown", "chain", "md5"),
]


def _check_refused(path: Path, line: int | None) -> None:
    before = path.read_bytes()
    for args in (["state", str(path), "--json"], ["play", "--text", "--quiet", "--resume", str(path)]):
        assert_plain_failure(run_cli(args, b"Ben, sevens?\n"), line=line)
    assert path.read_bytes() == before, "trying to resume changed the journal"


@pytest.mark.parametrize("name, edit", RECORD_EDITS, ids=[n for n, _ in RECORD_EDITS])
@pytest.mark.parametrize("how", ["by accident", "rehashed", "old format"])
def test_a_damaged_record_names_its_line(tmp_path: Path, pristine: bytes, name: str, edit: Any, how: str) -> None:
    lines: list[Any] = [json.loads(x) for x in pristine.splitlines()]
    where = 6
    if how == "old format":  # a journal from before the hash: the same checks, no hash
        lines = [{k: v for k, v in x.items() if k not in ("h", "chain")} for x in lines]
    if isinstance(edit, dict) and how != "old format":
        edit = {**edit, "h": lines[where - 1]["h"]}
    lines[where - 1] = edit
    if how == "rehashed":
        lines = rehash(lines)
    path = tmp_path / "game.jsonl"
    write_records(path, lines)
    _check_refused(path, where)


@pytest.mark.parametrize("name, field, value", HEADER_EDITS, ids=[n for n, _, _ in HEADER_EDITS])
def test_a_damaged_header_is_named(tmp_path: Path, pristine: bytes, name: str, field: str, value: Any) -> None:
    lines: list[Any] = [json.loads(x) for x in pristine.splitlines()]
    lines[0][field] = value
    path = tmp_path / "game.jsonl"
    write_records(path, rehash(lines))
    _check_refused(path, 1)


@pytest.mark.parametrize("name, data", [
    ("empty file", b""), ("only a newline", b"\n"), ("not JSON", b"hello\n"), ("binary", bytes(range(256))),
    ("another JSON file", b'{"name": "package", "version": 1}\n'), ("NUL bytes", b"\x00" * 4096),
    ("a JSON list", b"[1, 2, 3]\n"),
])
def test_files_that_are_not_journals(tmp_path: Path, name: str, data: bytes) -> None:
    path = tmp_path / "game.jsonl"
    path.write_bytes(data)
    _check_refused(path, 1 if data else None)


def test_lines_lost_repeated_swapped_or_changed_are_named(tmp_path: Path, pristine: bytes) -> None:
    raw = pristine.splitlines()
    cases = {
        "lost": (raw[:5] + raw[6:], 6),
        "repeated": (raw[:6] + raw[5:], 7),
        "swapped": (raw[:5] + [raw[6], raw[5]] + raw[7:], 6),
        "changed": (raw[:5] + [raw[5].replace(b'"push": "', b'"push":  "')] + raw[6:], None),  # same JSON: fine
        "a byte flipped": (raw[:5] + [raw[5][:12] + bytes([raw[5][12] ^ 1]) + raw[5][13:]] + raw[6:], 6),
        "a line inserted": (raw[:5] + [b'{"push": "settle"}'] + raw[5:], 6),
        "a blank line": (raw[:5] + [b""] + raw[5:], 6),
    }
    for name, (lines, line) in cases.items():
        path = tmp_path / f"{name}.jsonl"
        path.write_bytes(b"\n".join(lines) + b"\n")
        if line is None:
            assert load(path).game.public() == load_bytes(tmp_path, pristine).game.public()
            continue
        _check_refused(path, line)


def load_bytes(folder: Path, data: bytes) -> Any:
    path = folder / "copy.jsonl"
    path.write_bytes(data)
    return load(path)


def test_cut_at_every_byte_the_journal_is_a_prefix_or_refused(tmp_path: Path, pristine: bytes) -> None:
    """A journal cut anywhere (a lost tail) loads the game of its whole lines, or is refused: never
    another game. And resuming it never makes it unreadable."""
    header_end = pristine.index(b"\n") + 1
    whole = [load_bytes(tmp_path, pristine[:end + 1]).game.public()
             for end in range(len(pristine)) if pristine[end:end + 1] == b"\n"]
    step = 1 if SOAK else 11
    for cut in range(0, len(pristine), step):
        path = tmp_path / "cut.jsonl"
        path.write_bytes(pristine[:cut])
        try:
            loaded = load(path)
        except JournalError as error:
            assert cut < header_end and error.line == 1
            continue
        invariants_hold(loaded.game.state)
        whole_lines = pristine[:cut].count(b"\n") + (pristine[cut:cut + 1] == b"\n")  # a last line lacking only its newline is whole
        assert loaded.game.public() == whole[whole_lines - 1]
        with Journal.reopen(loaded, durable=False) as journal:
            journal.append([{"push": "settle"}])
        assert load(path).game.public() == loaded.game.public()


class Mutation:
    """One random edit of a journal's bytes or records."""

    @staticmethod
    def apply(data: bytes, rng: random.Random, record: Any) -> bytes:
        lines = data.split(b"\n")[:-1]
        kind = rng.randrange(8)
        i = rng.randrange(len(lines))
        if kind == 0 and data:  # flip bits
            at = rng.randrange(len(data))
            return data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1:]
        if kind == 1:  # cut a range out
            a = rng.randrange(len(data))
            return data[:a] + data[a + rng.randrange(1, 200):]
        if kind == 2:  # lose or repeat a line
            return b"\n".join(lines[:i] + lines[i + rng.randrange(2):] + ([lines[i]] if rng.random() < 0.5 else []))
        if kind == 3:  # swap two lines
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            return b"\n".join(lines) + b"\n"
        if kind == 4:  # random bytes in
            at = rng.randrange(len(data))
            return data[:at] + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 30))) + data[at:]
        # a random JSON record in, its hash (and the chain after it) computed again
        parsed: list[Any] = []
        for line in lines:
            try:
                parsed.append(json.loads(line))
            except ValueError:
                parsed.append(line)
        if kind == 5 and i > 0:
            parsed.insert(i, record)
        elif isinstance(parsed[i], dict) and isinstance(record, dict):
            parsed[i] = {**parsed[i], **record}
        else:
            parsed[i] = record
        if isinstance(parsed[i], dict):
            parsed[i].setdefault("h", "0" * 16)
        out = []
        for line in rehash(parsed):
            out.append(line if isinstance(line, bytes) else json.dumps(line).encode())
        return b"\n".join(out) + b"\n"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
    | st.sampled_from(["settle", "ask Ana Ben 7", "answer 2", "gofish", "lucky", "book Ana 7", "out Ben"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["push", "undo", "torn", "text", "h", "x"]), inner, max_size=3),
    max_leaves=10,
)


@settings(max_examples=3000 if SOAK else 150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), record=json_values, rounds=st.integers(1, 3))
def test_random_mutations_load_or_are_refused(tmp_path_factory, pristine: bytes, seed: int, record: Any,
                                              rounds: int) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    data = pristine
    for _ in range(rounds):
        data = Mutation.apply(data, rng, record)
    path = tmp_path_factory.mktemp("mutated") / "game.jsonl"
    path.write_bytes(data)
    try:
        loaded = load(path)
    except JournalError as error:
        assert error.reason and len(error.reason) < 400
        assert error.line is None or error.line >= 1
        return
    invariants_hold(loaded.game.state)
    with Journal.reopen(loaded, durable=False) as journal:  # resuming never makes it unreadable
        journal.append([{"push": "settle"}])
    assert load(path).game.public() == loaded.game.public()


def test_a_journal_glued_by_an_older_tabletop_is_read_again(tmp_path: Path, pristine: bytes) -> None:
    """Before issue 13, resuming a journal whose last line had lost its newline glued the next
    record onto it, and the game could not be read. Such journals (they have no hash) read again."""
    lines = [{k: v for k, v in json.loads(x).items() if k not in ("h", "chain")} for x in pristine.splitlines()]
    whole = tmp_path / "whole.jsonl"
    write_records(whole, lines)
    raw = whole.read_bytes().splitlines()
    glued = tmp_path / "glued.jsonl"
    glued.write_bytes(b"\n".join(raw[:7] + [raw[7] + raw[8]] + raw[9:]) + b"\n")
    assert load(glued).game.public() == load(whole).game.public()
