"""`tabletop demo`: the whole loop (espeak-ng → recogniser → table → announcement), no microphone."""

from __future__ import annotations

import json

from tabletop.cli import main
from tabletop.cli.demo import SCRIPT


def test_demo_plays_the_script_end_to_end(espeak, capsys) -> None:
    assert main(["demo", "--quiet", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["tabletop"] and "Ana" in lines[0]["tabletop"][0]
    spoken = [d for d in lines[1:] if "said" in d]
    assert len(spoken) == sum(1 for _, line, _ in SCRIPT if line)
    from tabletop.language import parse

    players = ("Ana", "Ben", "Cho")
    heard_right = sum(parse(d["heard"], players) == parse(d["said"], players) for d in spoken)
    assert heard_right >= 0.7 * len(spoken), [(d["said"], d["heard"]) for d in spoken]
    chatter = next(d for d in spoken if d["said"] == "pass the salt please")
    assert chatter["heard"] == ""
    first = spoken[0]
    assert first["heard"] == "ben do you have any sevens" and "Ana asks Ben for sevens" in " ".join(first["tabletop"])
    assert all(d["tabletop"] for d in spoken)  # tabletop answered every line
