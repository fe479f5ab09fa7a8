"""`tabletop demo`: the whole loop (espeak-ng → recogniser → table → announcement), no microphone."""

from __future__ import annotations

import json

from tabletop.cli import main
from tabletop.cli.demo import PLAYERS, SCRIPT, TRIES
from tabletop.language import parse
from tabletop.table import Table


def _scripted_state() -> dict:
    """Where the script leads: its lines typed into a table, quiet where the script is quiet."""
    table = Table.new(PLAYERS)
    table.start()
    for _, line, _ in SCRIPT:
        table.idle() if line is None else table.hear_text(line)
    return table.game.public()


def test_demo_plays_the_script_end_to_end(espeak, capsys) -> None:
    assert main(["demo", "--quiet", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["tabletop"] and "Ana" in lines[0]["tabletop"][0]
    spoken = [d for d in lines[1:] if "said" in d and not d.get("typed")]
    first = spoken[0]
    assert first["heard"] == "ben do you have any sevens" and "Ana asks Ben for sevens" in " ".join(first["tabletop"])
    assert all(d["tabletop"] for d in spoken)  # tabletop answered every utterance
    heard_right = sum(parse(d["heard"], PLAYERS) == parse(d["said"], PLAYERS) for d in spoken)
    assert heard_right >= 0.8 * len(spoken), [(d["said"], d["heard"]) for d in spoken]
    chatter = [d for d in spoken if d["said"] == "pass the salt please"]
    assert len(chatter) == 1 and chatter[0]["heard"] == ""  # chatter changes nothing and is not said again
    # The players answered tabletop's questions as people do, and the game ended where the script leads,
    # with at most one line given up on and typed.
    typed = [d["said"] for d in lines if d.get("typed")]
    assert len(typed) <= 1, typed
    assert len(spoken) <= TRIES * sum(1 for _, line, _ in SCRIPT if line)
    assert lines[-1]["state"] == _scripted_state()


def test_a_scripted_player_answers_what_tabletop_asks() -> None:
    """The demo's players: "yes" to what they meant, "no" and again to anything else, a slot alone."""
    from tabletop.cli.demo import answer_to
    from tabletop.table.pending import Pending

    meant = parse("ben do you have any sevens", PLAYERS)
    about = parse("ben do you have any sixes", PLAYERS)
    assert answer_to(Pending("confirm", "Ben, sevens?", intent=meant), meant, "ben do you have any sevens") == ["yes"]
    assert answer_to(Pending("confirm", "Ben, sixes?", intent=about), meant, "x") == ["no", "x"]
    assert answer_to(Pending("slot", "Ana, which rank?", "rank", intent=meant), meant, "x") == ["sevens"]
    assert answer_to(Pending("slot", "Sevens from whom?", "target", intent=meant), meant, "x") == ["Ben"]
