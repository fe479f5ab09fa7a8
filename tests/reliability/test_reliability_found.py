"""Issue 13, each found item: the fault as the probe met it, and what tabletop must do instead.

Every test here failed before its fix (a traceback, a glued journal, unbounded memory...).
"""

from __future__ import annotations

import json
import os
import re
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from faults import (PLAYERS, chain_hash, accepted_script, assert_plain_failure, cli, make_journal, records, rehash, run_cli,
                    write_records)
from support import ROOT, tabletop_command



@pytest.fixture(scope="module")
def script() -> list[str]:
    return accepted_script(PLAYERS, seed=11, lines=30)


@pytest.fixture
def journal(tmp_path: Path, script: list[str]) -> Path:
    return make_journal(tmp_path / "game.jsonl", script[:12])


# 1. A whole last line without its newline is closed before anything is appended.
def test_resume_never_glues_a_record_onto_a_last_line_without_newline(journal: Path, script: list[str]) -> None:
    cut = journal.read_bytes()[:-1]
    journal.write_bytes(cut)
    ran = run_cli(["play", "--text", "--quiet", "--no-fsync", "--resume", str(journal)],
                  ("\n".join(script[12:20]) + "\n").encode())
    assert ran.code == 0, ran.err
    data = journal.read_bytes()
    assert data.startswith(cut + b"\n")
    assert all(json.loads(line) for line in data.splitlines())
    assert run_cli(["state", str(journal), "--json"]).code == 0
    assert len([r for r in records(journal) if "text" in r]) == 20


# 2. Two writers on one journal: the second is refused, readers still read.
def test_a_second_writer_is_refused_and_readers_still_read(journal: Path, script: list[str]) -> None:
    first = subprocess.Popen(tabletop_command() + ["play", "--text", "--quiet", "--resume", str(journal)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        assert first.stdout is not None and first.stdin is not None
        first.stdout.readline()  # "Resuming the game...": it holds the journal now
        second = cli(["play", "--text", "--quiet", "--resume", str(journal)], b"\n".join(
            s.encode() for s in script[12:14]) + b"\n")
        assert_plain_failure(second)
        assert "another tabletop" in second.err
        reader = cli(["state", str(journal), "--json"])
        assert reader.code == 0, reader.err
        first.stdin.write(("\n".join(script[12:16]) + "\n").encode())
        first.stdin.close()
        assert first.wait(60) == 0, first.stderr.read() if first.stderr else ""
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    assert len([r for r in records(journal) if "text" in r]) == 16
    assert run_cli(["state", str(journal)]).code == 0


# 3. Invalid UTF-8 in typed lines: decoded safely, every output line valid UTF-8.
@pytest.mark.parametrize("as_json", [True, False])
def test_invalid_utf8_typed_lines_are_decoded_safely(tmp_path: Path, as_json: bool) -> None:
    journal = tmp_path / "game.jsonl"
    typed = b"Ben, any \xff\xfe sevens?\nBen, any sevens?\n\xc3go fish\xed\xa0\x80\nwhat's the score\x00?\n"
    ran = cli(["play", "--text", "--no-fsync", "--players", *PLAYERS, "--journal", str(journal)]
              + (["--json"] if as_json else []), typed)  # cli() decodes stdout strictly
    assert ran.code == 0, ran.err
    assert "Traceback" not in ran.err
    if as_json:
        assert all(json.loads(line) for line in ran.out.splitlines())
    journal.read_bytes().decode("utf-8")
    assert run_cli(["state", str(journal)]).code == 0


# 4. A full disk: see test_reliability_disk.py (a real tmpfs) and the injected fault here.
def test_a_failed_write_takes_back_the_part_written_record(journal: Path, monkeypatch: pytest.MonkeyPatch,
                                                           script: list[str]) -> None:
    import errno

    from tabletop.journal import journal as module

    before = journal.read_bytes()
    real = module._write_all

    def half_then_full(fd: int, data: bytes) -> None:
        real(fd, data[: len(data) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(module, "_write_all", half_then_full)
    ran = run_cli(["play", "--text", "--json", "--resume", str(journal)], (script[12] + "\n").encode())
    assert_plain_failure(ran)
    assert "disk is full" in ran.err and f"--resume {journal}" in ran.err
    assert journal.read_bytes() == before


# 5. Hand-damaged journals: see test_reliability_journal.py for every class; the probe's own cases here.
@pytest.mark.parametrize("edit, line", [
    ({"undo": 1e400}, 5), ({"undo": "2"}, 5), ({"undo": 2.9}, 5), ({"undo": True}, 5),
    ({"push": 12345}, 5), ({"push": None}, 5),
])
def test_the_probes_damaged_records_name_their_line(journal: Path, edit: dict, line: int) -> None:
    lines = records(journal)
    lines[line - 1] = {**edit, "h": "0" * 16}
    write_records(journal, rehash(lines))
    for args in (["state", str(journal)], ["play", "--text", "--resume", str(journal)]):
        assert_plain_failure(run_cli(args, b"Ben, sevens?\n"), line=line)


@pytest.mark.parametrize("field, value", [("rules", None), ("first", 1e400), ("players", "Ana"),
                                          ("first", True), ("players", ["Ana", 7])])
def test_the_probes_damaged_headers_are_named(journal: Path, field: str, value: object) -> None:
    lines = records(journal)
    lines[0][field] = value
    write_records(journal, rehash(lines))
    ran = run_cli(["state", str(journal)])
    assert_plain_failure(ran, line=1)
    assert "duplicate" not in ran.err and f"{field} must be" in ran.err


def test_a_deeply_nested_line_is_damage_not_a_crash(journal: Path) -> None:
    for depth in (100_000, 20_000):
        lines = journal.read_bytes().splitlines()
        lines.insert(4, b"[" * depth + b"]" * depth)
        journal.with_name("deep.jsonl").write_bytes(b"\n".join(lines) + b"\n")
        assert_plain_failure(run_cli(["state", str(journal.with_name("deep.jsonl"))]), line=5)


def test_a_forged_torn_mark_does_not_hide_a_damaged_line(journal: Path) -> None:
    whole: list = records(journal)
    # As a hand edit would: the last record damaged, a bare mark after it.
    lines = whole[:-1] + [b'{"push": "ask Ana Ben 7", "te', {"torn": len(whole)}]
    write_records(journal, lines)
    assert_plain_failure(run_cli(["state", str(journal)]), line=len(whole) + 1)
    # In the middle, with the mark's hash computed from the line before it: the records after
    # it still chain from the damaged line, so the next one is named.
    lines = whole[:4] + [b'{"push": "ask Ana Ben 7", "te', {"torn": 5}] + whole[5:]
    lines[5]["h"] = chain_hash(lines[3].get("h", ""), lines[5]) if chain_hash else None
    write_records(journal, lines)
    assert_plain_failure(run_cli(["state", str(journal)]), line=7)


def test_a_header_cut_short_is_not_called_empty(tmp_path: Path, journal: Path) -> None:
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(journal.read_bytes()[:40])
    ran = run_cli(["state", str(cut)])
    assert_plain_failure(ran, line=1)
    assert "empty" not in ran.err and "cut short" in ran.err


def test_a_line_changed_after_it_was_written_is_named(journal: Path) -> None:
    data = journal.read_bytes().splitlines()
    target = next(i for i, line in enumerate(data) if b'"ask ' in line)
    data[target] = re.sub(rb'("ask \w+ \w+ )(\w+)', lambda m: m[1] + (b"K" if m[2] != b"K" else b"Q"), data[target])
    assert data[target] != journal.read_bytes().splitlines()[target]
    journal.write_bytes(b"\n".join(data) + b"\n")
    ran = run_cli(["state", str(journal)])
    assert_plain_failure(ran, line=target + 1)
    assert "changed after it was written" in ran.err


# 6. A binary rules file; a huge value is not echoed whole.
def test_a_binary_rules_file_and_huge_values(tmp_path: Path) -> None:
    binary = tmp_path / "rules.toml"
    binary.write_bytes(bytes(range(256)) * 50)
    ran = run_cli(["play", "--text", "--players", "Ana", "Ben", "--rules", str(binary)])
    assert_plain_failure(ran)
    huge = tmp_path / "huge.toml"
    huge.write_text('[rules]\ndeal = "' + "x" * 60_000 + '"\n')
    for args in (["--rules", str(huge)], ["--rule", "deal=" + "y" * 1_000_000], ["--rule", "z" * 1_000_000 + "=1"]):
        ran = run_cli(["play", "--text", "--players", "Ana", "Ben", *args])
        assert_plain_failure(ran)
        assert len(ran.err) < 300


# 7. Unbounded reads: only regular files, bounded records.
@pytest.mark.parametrize("special", ["/dev/zero", "/dev/full", "/dev/urandom", "fifo"])
def test_special_files_are_refused_at_once(tmp_path: Path, special: str) -> None:
    if special == "fifo":
        special = str(tmp_path / "fifo")
        os.mkfifo(special)
    for args in (["state", special], ["play", "--text", "--resume", special]):
        start = time.monotonic()
        ran = run_cli(args)
        assert time.monotonic() - start < 5
        assert_plain_failure(ran)
        assert "not a regular file" in ran.err


def test_a_huge_line_is_refused_in_bounded_memory(tmp_path: Path, journal: Path) -> None:
    big = tmp_path / "big.jsonl"
    with big.open("wb") as out:
        out.write(journal.read_bytes())
        out.write(b'{"push": "')
        block = b"a" * (1 << 20)
        for _ in range(400):  # 400 MB on one line, written in pieces so this process stays small
            out.write(block)
        out.write(b'"}\n')
    ran = cli(["state", str(big)])
    assert_plain_failure(ran, line=len(records(journal)) + 1)
    assert ran.max_rss_mb < 300, ran.max_rss_mb


# 8. Decompression bombs in `see`: decided from the header.
def _png(width: int, height: int) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    rows = zlib.compress(b"\x00" * (1 + width * 3) * 64, 9)  # a few rows; the header claims them all
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", rows) + chunk(b"IEND", b""))


def test_a_decompression_bomb_is_refused_from_its_header(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(_png(20_000, 20_000))
    assert bomb.stat().st_size < 100_000
    start = time.monotonic()
    ran = cli(["see", str(bomb), "--json"])
    assert time.monotonic() - start < 20
    assert_plain_failure(ran)
    assert "megapixels" in ran.err
    assert ran.max_rss_mb < 600, ran.max_rss_mb


# 9. Smaller: a kill while the journal is created; --journal on a folder or a dangling link; a broken pipe.
def test_a_kill_while_the_journal_is_created_leaves_no_file(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    code = (
        "import os, signal, sys\n"
        "real = os.fsync\n"
        "def die(fd):\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        "os.fsync = die\n"
        "from tabletop.cli import main\n"
        f"sys.exit(main(['play', '--text', '--players', 'Ana', 'Ben', '--journal', {str(folder / 'g.jsonl')!r}]))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], input=b"", capture_output=True, cwd=ROOT, timeout=60)
    assert proc.returncode == -9
    assert sorted(os.listdir(folder)) == []


def test_journal_on_a_folder_or_a_dangling_link(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    link = tmp_path / "link.jsonl"
    link.symlink_to(tmp_path / "missing.jsonl")
    for target, said in ((folder, "is a folder"), (link, "is a link")):
        ran = run_cli(["play", "--text", "--players", "Ana", "Ben", "--journal", str(target)])
        assert_plain_failure(ran)
        assert said in ran.err and "already exists" not in ran.err
    assert not (tmp_path / "missing.jsonl").exists()


def test_state_into_a_closed_pipe_ends_quietly(journal: Path) -> None:
    read, write = os.pipe()
    os.close(read)
    try:
        proc = subprocess.run(tabletop_command() + ["state", str(journal)], stdout=write, stderr=subprocess.PIPE,
                              cwd=ROOT, timeout=60)
    finally:
        os.close(write)
    assert proc.returncode != 0
    assert proc.stderr == b"", proc.stderr.decode()
