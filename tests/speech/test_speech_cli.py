"""`tabletop hear`, `tabletop doctor` end to end (real decoder, real files)."""

from __future__ import annotations

import json
import wave
from pathlib import Path

import numpy as np

from tabletop.cli import main
from tabletop.speech import synth
from tabletop.speech.audio import write_wav


def test_hear_json_one_line_per_file_in_order(tmp_path: Path, espeak, capsys) -> None:
    ask = write_wav(tmp_path / "ask.wav", synth.realistic("ben do you have any sevens", voice="en-us", seed=1))
    chat = write_wav(tmp_path / "chat.wav", synth.realistic("what a lovely day", voice="en", seed=2))
    wrong = tmp_path / "cd.wav"
    with wave.open(str(wrong), "wb") as out:
        out.setnchannels(2)
        out.setsampwidth(2)
        out.setframerate(44100)
        out.writeframes(np.zeros(8820, dtype=np.int16).tobytes())
    fish = write_wav(tmp_path / "fish.wav", synth.realistic("go fish", voice="en-us+f3", seed=3))
    code = main(["hear", str(ask), str(chat), str(wrong), str(fish), "--players", "Ana", "Ben", "Cho", "--json"])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 1  # one file failed
    assert len(lines) == 4
    assert lines[0]["intent"] == {"type": "ask", "target": "Ben", "rank": "7"}
    assert lines[0]["text"] == "ben do you have any sevens"
    assert set(lines[0]) == {"text", "intent", "confidence", "engine", "decode_ms"}
    assert lines[0]["engine"] == "pocketsphinx" and 0 < lines[0]["confidence"] <= 1
    assert isinstance(lines[0]["decode_ms"], int)
    assert lines[1]["intent"] is None
    assert "44100 Hz" in lines[2]["error"] and "sox" in lines[2]["error"]
    assert lines[3]["intent"] == {"type": "go_fish"}


def test_hear_plain_output_and_missing_file(tmp_path: Path, espeak, capsys) -> None:
    fish = write_wav(tmp_path / "fish.wav", synth.realistic("go fish", voice="en", seed=3))
    code = main(["hear", str(fish), str(tmp_path / "nope.wav")])
    captured = capsys.readouterr()
    assert code == 1
    assert '"go fish"' in captured.out and "go_fish" in captured.out
    assert "no such file" in captured.err


def test_doctor_reports_and_says_what_to_fix(capsys) -> None:
    code = main(["doctor", "--no-sound", "--json"])
    checks = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    names = {c["check"] for c in checks}
    assert {"audio library", "text to speech"} <= names
    assert any(n.startswith("model: pocketsphinx") for n in names)
    for c in checks:
        if not c["ok"]:
            assert c["fix"], f"{c['check']} fails without saying what to do"
    assert code in (0, 1)


def test_hear_in_a_journal_context_reads_only(tmp_path: Path, espeak, capsys) -> None:
    from tabletop.table import Table

    journal = tmp_path / "game.jsonl"
    table = Table.new(("Ana", "Ben", "Cho"), journal=journal)
    table.start()
    table.hear_text("Ben, do you have any sevens?")
    table.close()
    before = journal.read_bytes()
    fish = write_wav(tmp_path / "fish.wav", synth.realistic("go fish", voice="en", seed=3))
    assert main(["hear", str(fish), "--journal", str(journal), "--json"]) == 0
    line = json.loads(capsys.readouterr().out.splitlines()[0])
    assert line["intent"] == {"type": "go_fish"}
    assert journal.read_bytes() == before
