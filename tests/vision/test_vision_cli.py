"""``tabletop see IMAGE [--rank R] [--json]`` on images the test writes."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tabletop.cli import see as see_cli
from tabletop.errors import InvalidInputError
from tabletop.vision.render import render_scene

from vision_helpers import cards


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    parser = argparse.ArgumentParser(prog="tabletop")
    sub = parser.add_subparsers(dest="command")
    see_cli.add_parser(sub)
    args = parser.parse_args(["see", *argv])
    code = see_cli.run(args)
    return code, capsys.readouterr().out


@pytest.fixture(scope="module")
def table_png(tmp_path_factory: pytest.TempPathFactory) -> Path:
    scene = render_scene(cards("7 of hearts", "7 of clubs", "king of spades"), np.random.default_rng(5), effects=0.3)
    path = tmp_path_factory.mktemp("see") / "table.png"
    cv2.imwrite(str(path), scene.image)
    return path


def test_json_lists_the_cards_and_no_book(table_png: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run([str(table_png), "--json"], capsys)
    assert code == 0
    result = json.loads(out)
    assert set(result) == {"cards", "book"}
    assert result["book"] is None
    assert len(result["cards"]) == 3
    for card in result["cards"]:
        assert set(card) == {"rank", "suit", "box", "confidence"}
        assert len(card["box"]) == 4
    assert sorted(c["rank"] for c in result["cards"]).count("7") == 2


def test_json_with_a_rank_adds_the_verdict(table_png: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run([str(table_png), "--rank", "sevens", "--json"], capsys)
    result = json.loads(out)
    assert result["book"] is None
    assert result["verdict"] in ("not_confirmed", "unsure")
    assert result["say"].startswith("I ")


def test_plain_text_says_what_it_sees(table_png: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run([str(table_png)], capsys)
    assert code == 0 and out.startswith("Three cards found.")


def test_plain_text_says_each_thing_once_and_counts_every_card_listed(
        table_png: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 12 item 7: `see --rank` printed its sentence twice, and named fewer cards than it listed."""
    import re

    from tabletop import sentences

    code, out = _run([str(table_png), "--rank", "sevens"], capsys)
    lines = out.splitlines()
    assert code == 0 and out.count("I see") == 1, out
    listed = [line for line in lines if line.startswith("  ")]
    words = {sentences.number(n): n for n in range(1, 53)} | {"a": 1, "an": 1, "one": 1}
    said = sum(words[m] for m in re.findall(r"\b(an?|one|two|three|four|five|six|seven|eight)\b (?:\w+s?\b|cards? I can't)",
                                           lines[0].split("found.", 1)[1]))
    assert said == len(listed) == 3, out
    assert lines[-1] in ("I don't see a book of sevens.",
                         "I can't tell whether that's a book of sevens: spread the cards out."), out


def test_an_unreadable_path_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(InvalidInputError) as missing:
        _run([str(tmp_path / "nope.jpg"), "--json"], capsys)
    assert "no image" in missing.value.reason
    junk = tmp_path / "junk.jpg"
    junk.write_text("not a picture")
    with pytest.raises(InvalidInputError) as unreadable:
        _run([str(junk)], capsys)
    assert "can't read" in unreadable.value.reason
