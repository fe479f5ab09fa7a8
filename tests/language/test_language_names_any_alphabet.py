"""Player names in any alphabet a family uses (issue 12.6): accepted, kept as typed for display,
matched when typed with or without accents, and given pronunciations automatically (espeak-ng
reads the name in its own script's voice; the phones are mapped to PocketSphinx's)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from support import ROOT, tabletop_command
from tabletop.cards import Rank
from tabletop.errors import InvalidInputError
from tabletop.language.parser import parse
from tabletop.referee.game import check_names
from tabletop.referee.intents import Ask
from tabletop.speech.pronounce import PHONES, name_pronunciations, script_voice

NAMES = ("Ana", "José", "Chloé", "Zoë", "Мария", "美玲", "प्रिया", "O'Brien", "Mary-Kate")


def test_names_in_any_alphabet_are_accepted_as_typed() -> None:
    assert check_names(NAMES) == NAMES
    for bad in ("", "Ana Ben", "R2D2", "-Ana", "Ana!"):
        with pytest.raises(InvalidInputError):
            check_names(["Cho", bad])
    with pytest.raises(InvalidInputError):
        check_names(["José", "JOSÉ"])


@pytest.mark.parametrize("typed, name", [
    ("José, any sevens?", "José"), ("jose any sevens", "José"), ("JOSÉ got any sevens", "José"),
    ("Zoe, do you have any sevens?", "Zoë"), ("Chloe any sevens", "Chloé"),
    ("Мария, any sevens?", "Мария"), ("mariya any sevens", "Мария"), ("美玲, any sevens?", "美玲"),
    ("प्रिया any sevens", "प्रिया"), ("Can I have your sevens, Zoë?", "Zoë"),
])
def test_a_name_is_read_with_or_without_its_accents_and_kept_as_typed(typed: str, name: str) -> None:
    assert parse(typed, NAMES) == Ask(target=name, rank=Rank.SEVEN)


def test_a_typed_game_with_such_names_shows_them_as_typed(tmp_path) -> None:
    journal = tmp_path / "game.jsonl"
    lines = "José, got any sevens?\nyes, two\njose any kings\ngo fish\n"
    result = subprocess.run(
        [*tabletop_command(), "play", "--text", "--json", "--players", "Zoë", "José", "Мария", "--journal", str(journal)],
        input=lines, capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120,
    )
    assert result.returncode == 0, result.stderr
    events = [json.loads(line) for line in result.stdout.splitlines()]
    assert events[0]["say"].endswith("Zoë goes first.")
    assert events[1]["say"] == "Zoë asks José for sevens."
    assert events[2]["state"]["hands"]["Zoë"] == 9
    state = json.loads(subprocess.run([*tabletop_command(), "state", str(journal), "--json"], capture_output=True,
                                      text=True, env=dict(os.environ, PYTHONPATH=str(ROOT))).stdout)
    assert state["players"] == ["Zoë", "José", "Мария"]


def test_names_that_sound_the_same_are_refused_before_the_deal(tmp_path) -> None:
    result = subprocess.run(
        [*tabletop_command(), "play", "--text", "--players", "Zoe", "Zoë", "--journal", str(tmp_path / "g.jsonl")],
        input="", capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120,
    )
    assert result.returncode != 0 and "sound the same" in result.stderr
    assert not (tmp_path / "g.jsonl").exists()


needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")


@needs_espeak
@pytest.mark.parametrize("name, word, voice, starts", [
    ("José", "jose", None, "HH OW"), ("Мария", "mariya", "ru", "M AA R"), ("प्रिया", "priya", "hi", "P"),
    ("美玲", "meiling", "cmn", "M EY"), ("지민", "jimin", "ko", None), ("Αλέξης", "alexis", "el", None),
])
def test_a_name_is_pronounced_from_its_own_spelling(name: str, word: str, voice: str | None, starts: str | None) -> None:
    assert script_voice(name) == voice
    readings = name_pronunciations(name, word)
    assert readings and all(set(r.split()) <= PHONES and len(r.split()) >= 3 for r in readings)
    if starts:
        assert readings[0].startswith(starts), readings


@needs_espeak
def test_spoken_names_are_heard_by_the_embedded_recogniser() -> None:
    from tabletop.speech import synth
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

    players = ["Ana", "José", "Мария", "Zoë"]
    recogniser = PocketSphinxRecogniser(players)
    heard = {}
    for said, name in [("José, do you have any sevens", "José"), ("Maria, do you have any fives", "Мария"),
                       ("Zoë, got any kings", "Zoë")]:
        transcript = recogniser.hear(synth.realistic(said, voice="en-us", seed=1))
        heard[said] = parse(transcript.text, players)
        assert heard[said] is not None and heard[said].target == name, (said, transcript.text)
