"""Two writers on one journal: one game writes it at a time, the other is refused plainly, readers
still read, and the journal is never interleaved."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from faults import PLAYERS, SOAK, accepted_script, make_journal, records
from support import ROOT, tabletop_command

from tabletop.errors import JournalError
from tabletop.journal import Journal, load
from tabletop.table import Table


@pytest.fixture
def journal(tmp_path: Path) -> Path:
    return make_journal(tmp_path / "game.jsonl", accepted_script(PLAYERS, seed=23, lines=10))


def test_a_second_writer_is_refused_until_the_first_closes(journal: Path) -> None:
    first = Journal.reopen(load(journal), durable=False)
    with pytest.raises(JournalError) as refused:
        Journal.reopen(load(journal), durable=False)
    assert refused.value.code == "journal-busy" and "another tabletop" in refused.value.reason
    assert load(journal).game.public()  # a reader still reads
    first.close()
    Journal.reopen(load(journal), durable=False).close()


def test_a_writer_that_read_a_stale_journal_is_refused(journal: Path) -> None:
    stale = load(journal)
    table = Table.resume(journal, durable=False)
    table.hear_text("what's the score")
    table.idle()
    table.referee.log.append({"push": "settle"})  # whatever it writes, the file has grown
    table._write()
    table.close()
    with pytest.raises(JournalError) as refused:
        Journal.reopen(stale, durable=False)
    assert "try again" in refused.value.reason


def test_creating_the_same_journal_twice(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    first = Table.new(PLAYERS, journal=path, durable=False)
    with pytest.raises(JournalError) as refused:
        Table.new(PLAYERS, journal=path, durable=False)
    assert refused.value.code == "journal-exists"
    first.close()


def test_two_games_racing_on_one_journal_never_interleave(journal: Path) -> None:
    script = accepted_script(PLAYERS, seed=23, lines=40)
    for _ in range(6 if SOAK else 1):
        recorded = len([r for r in records(journal) if "text" in r])
        rest = ("\n".join(script[recorded:recorded + 10]) + "\n").encode()
        procs = [subprocess.Popen(tabletop_command() + ["play", "--text", "--quiet", "--resume", str(journal)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
                 for _ in range(2)]
        for proc in procs:  # both have opened the journal (or been refused) before either hears a line
            assert proc.stdout is not None
            proc.stdout.readline()
        results = [proc.communicate(rest, timeout=120) for proc in procs]
        codes = [proc.returncode for proc in procs]
        for code, (_, err) in zip(codes, results):
            text = err.decode()
            assert "Traceback" not in text
            assert code == 0 or (code == 2 and ("another tabletop" in text or "try again" in text)), text
        assert sorted(codes) == [0, 2], "exactly one of two games opened together may write"
        load(journal)  # whole, and one game's lines only
        now = len([r for r in records(journal) if "text" in r])
        assert now == recorded + 10, (recorded, now)


def test_a_reader_during_a_write_is_not_told_of_a_crash(journal: Path) -> None:
    writer = Journal.reopen(load(journal), durable=False)
    try:
        with journal.open("ab") as sneak:  # as if the writer were half-way through a line
            sneak.write(b'{"push": "ask Ana B')
        loaded = load(journal)
        assert loaded.torn_line is not None and "in progress" in loaded.notes[0] and "crash" not in loaded.notes[0]
    finally:
        writer.close()
    assert "crash" in load(journal).notes[0]


def test_without_unnamed_files_a_stale_temporary_file_is_swept(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    monkeypatch.delattr(os, "O_TMPFILE", raising=False)  # a system without O_TMPFILE: named, locked temporaries
    stale = tmp_path / ".tabletop-killed.jsonl.part"
    stale.write_text('{"format": "tabletop-journal/1"')  # left by a tabletop killed while creating
    table = Table.new(PLAYERS, journal=tmp_path / "game.jsonl", durable=False)
    table.hear_text("Ben, sevens?")
    table.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]
    assert load(tmp_path / "game.jsonl").game.public() == table.game.public()
