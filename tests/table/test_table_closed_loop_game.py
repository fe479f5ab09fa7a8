"""A whole game through the closed loop a script drives (``play --audio - --json``), as the table
bench (``tests/bench/table.py``) plays it, with every sentence typed (``type: ...``) instead of said.

The simulated table (a real shuffled deck, hidden hands, honest players) reads only what the
program prints: after every sentence the public state of its last event must be the true table's,
and at the end the journal it wrote, read back, must give the same game. This checks the bench's
own driver and the loop's events over a whole game, without decoding (the bench measures that).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[1] / "bench"))
sys.path.insert(1, str(HERE.parents[1] / "referee"))


def test_a_typed_game_through_the_closed_loop_ends_in_the_true_state(tmp_path: Path) -> None:
    import table as bench
    from tabletop.rules import Rules

    tally = bench.Tally(games=1)
    game = bench.SpokenTable(["Ana", "Ben", "Cho"], Rules.preset("standard"), 5001,
                             program=("--preset", "standard", "--engine", "pocketsphinx", "--profile", "none",
                                      "--no-fsync"),
                             snr=None, tally=tally, folder=tmp_path, typed=True)
    try:
        game.play()  # raises Mismatch at the first sentence after which the program's state is not the truth
        assert game.truth.over and game.state["over"], game.transcript[-5:]
        game.compare("the end")
        game.check_replay()
    finally:
        game.close()
    # a typed line is never asked about, and a question is answered ("Ben has three cards."), not said again
    assert "query" in tally.kinds and tally.actions > 40 and tally.utterances == tally.actions, tally
    assert tally.wrong == 0 and tally.gave_up == 0 and not game.typed
    assert game.state["winners"] and any(s.startswith("Game over.") for s in game.said), game.said[-6:]


def test_the_bench_takes_a_sentence_naming_nobody_as_the_speakers_own() -> None:
    """"Book of sevens" said by Ben is Ben's book: a question naming Ana is no match, so the
    simulated Ben answers it "no" (clean 4111 had him confirm "Ana has a book of sevens?")."""
    import table as bench
    from tabletop.cards import Rank
    from tabletop.referee.intents import Ask, Book, Lucky

    bens_book = bench.said_by(Book(Rank.SEVEN).to_json(), "Ben")
    assert not bench.matches(Book(Rank.SEVEN, player="Ana").to_json(), bens_book)
    assert bench.matches(Book(Rank.SEVEN, player="Ben").to_json(), bens_book)
    assert bench.matches(Book(Rank.SEVEN).to_json(), bens_book)
    bens_ask = bench.said_by(Ask("Cho", Rank.SEVEN).to_json(), "Ben")
    assert not bench.matches(Ask("Cho", Rank.SEVEN, asker="Ana").to_json(), bens_ask)
    assert bench.said_by(Book(Rank.SEVEN, player="Ana").to_json(), "Ben")["player"] == "Ana"
    assert bench.said_by(Lucky(Rank.SEVEN).to_json(), "Ben") == Lucky(Rank.SEVEN).to_json()


def test_the_bench_enrolls_each_player_through_the_real_command_before_the_game(tmp_path: Path) -> None:
    """``table.py --enroll``: a player says the prompts `tabletop enroll` asks, in their game voice at
    another speed, through ``tabletop enroll --player NAME --audio ... --text ...``; the profile is
    kept in the game's own voices folder and the enrollment audio is deleted."""
    import pytest

    from tabletop.errors import SetupError
    from tabletop.speech.adapt import find_tools
    from tabletop.speech.enrollment import prompts

    try:
        find_tools()
    except SetupError as error:
        pytest.skip(error.reason)
    import table as bench

    voices = tmp_path / "voices"
    (made,) = bench.enroll_players(["Ana"], 4111, voices, tmp_path)
    voice, speed = bench.table_voices(["Ana"], 4111)["Ana"]
    assert made["voice"] == f"{voice} {speed + bench.ENROLL_SPEED_SHIFT}"
    assert made["utterances"] == made["prompts"] == len(prompts("Ana", ["Ana"])) and made["method"] == "map"
    meta = json.loads((voices / "ana" / "profile.json").read_text())
    assert {"sevens", "fish", "lucky", "book", "yes"} <= set(meta["words"]), meta["words"]
    assert (voices / "ana" / "means").is_file() and not list(tmp_path.glob("enroll-*/*.wav"))
