"""The typed game through the real command line: `tabletop play --text` and `tabletop state`."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from support import tabletop_command
from tabletop.cli.typed import MAX_LINE, clean_line

PLAYERS = ["Ana", "Ben", "Cho"]


def play(tmp_path: Path, lines: list[str], *extra: str, journal: str = "game.jsonl") -> tuple[list[dict], Path]:
    path = tmp_path / journal
    args = ["play", "--text", "--json"] + (list(extra) if "--resume" in extra else
                                           ["--players", *PLAYERS, "--journal", str(path), *extra])
    out = subprocess.run(tabletop_command() + args, input="\n".join(lines) + "\n",
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return [json.loads(line) for line in out.stdout.splitlines()], path


def state(path: Path) -> dict:
    out = subprocess.run(tabletop_command() + ["state", str(path), "--json"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_a_short_game_is_refereed_and_journaled(tmp_path: Path) -> None:
    events, journal = play(tmp_path, [
        "Ben, got any 7s?", "here you go, two sevens", "Cho — sevens?", "nope, go fish",
        "Ana, do you have any kings?", "yes, one", "what's the score?",
    ])
    assert events[0]["event"] == "start" and "Ana goes first" in events[0]["say"]
    ask = events[1]
    assert ask["intent"] == {"type": "ask", "target": "Ben", "rank": "7"}
    assert ask["say"] == "Ana asks Ben for sevens."
    assert events[2]["intent"] == {"type": "answer", "count": 2}
    assert events[4]["intent"]["type"] == "go_fish" and events[4]["say"].startswith("Go fish, Ana")
    assert "Ben's turn" in events[5]["say"]  # the miss passed the turn to the left
    # The query settles the exchange first: Ben took a card, so he asks again.
    assert events[7]["code"] == "answer"
    assert events[7]["say"] == "Ben, ask again. Score: Ana no books, Ben no books, Cho no books."
    # Worked by hand: 7 each, stock 31. Ana +2 from Ben (9/5), misses and draws (10, stock 30);
    # Ben +1 from Ana (Ana 9, Ben 6).
    assert state(journal) == {
        "players": PLAYERS, "current": "Ben", "stock": 30, "hands": {"Ana": 9, "Ben": 6, "Cho": 7},
        "books": {"Ana": [], "Ben": [], "Cho": []}, "out": [], "over": False, "winners": [],
        "rules": {"deal": "7-then-5", "asking": "hold-rank", "again_on_hit": True, "again_on_lucky": True,
                  "again_on_draw_book": False, "next_after_miss": "left", "empty_hand": "new-hand",
                  "game_end": "all-books", "ties": "shared", "book_size": 4, "first": "first-named"},
    }


def test_every_line_that_is_not_game_speech_gets_a_reason_and_changes_nothing(tmp_path: Path) -> None:
    # After these two lines it is Ben's turn (Ana missed and drew); none of the lines below is
    # something the game can accept now.
    noise = ["", "pass the salt please", "asdf qwerty", "Dan, got any sevens?", "Ben, sixes?",
             "Ana asks Cho for sixes", "Cho, do you have any sevens?", "yes, two", "go fish",
             "Ben has a book of sevens", "Dan has a book of nines", "🂡🂢🂣", "x" * 5000,
             "lucky fish", "Ben has forty cards", "what's the weather like"]
    events, journal = play(tmp_path, ["Ben, sevens?", "go fish", "whose turn is it"] + noise)
    assert events[3]["say"] == "Ben's turn."
    before = state(journal)
    # Blank lines are not lines; a line longer than anyone says is skipped with a note on stderr.
    assert len(events) == 4 + len([n for n in noise if n and len(n.encode()) <= MAX_LINE])
    for event in events[4:]:
        assert event["say"], event
        assert not event["changed"], event
    chatter = ["pass the salt please", "asdf qwerty", "🂡🂢🂣", "x" * 5000, "what's the weather like",
               "Dan, got any sevens?", "\x00\x01", "sevens sevens sevens of of of"]
    events2, fresh = play(tmp_path, chatter, journal="other.jsonl")
    sayable = [c for c in chatter if clean_line(c) and len(c.encode()) <= MAX_LINE]
    assert [e["code"] for e in events2[1:]] == ["unheard"] * len(sayable)
    assert all(e["say"] and not e["changed"] for e in events2[1:])
    assert len(fresh.read_text().splitlines()) == 1  # the header alone
    assert state(journal) == before


def test_resume_continues_the_same_game(tmp_path: Path) -> None:
    first, journal = play(tmp_path, ["Ben, sevens?", "yes, one"])
    again, _ = play(tmp_path, ["Cho, kings?", "go fish"], "--resume", str(tmp_path / "game.jsonl"))
    assert again[0]["event"] == "resume" and "Ana's turn" in again[0]["say"]
    assert again[1]["say"] == "Ana asks Cho for kings."
    s = state(journal)
    assert s["current"] == "Ben" and s["hands"]["Ana"] == 7 + 1 + 1 and s["stock"] == 30


def test_a_journal_is_never_overwritten(tmp_path: Path) -> None:
    _, journal = play(tmp_path, ["Ben, sevens?"])
    before = journal.read_bytes()
    out = subprocess.run(tabletop_command() + ["play", "--text", "--players", *PLAYERS, "--journal", str(journal)],
                         input="", capture_output=True, text=True)
    assert out.returncode == 2 and "--resume" in out.stderr
    assert journal.read_bytes() == before


def test_rule_errors_name_the_valid_choices(tmp_path: Path) -> None:
    for option, expected in [("colour=red", "the rules are deal, asking"), ("deal=9", "7-then-5 or 7 or 7-for-two"),
                             ("book_size=3", "4 or 2")]:
        out = subprocess.run(tabletop_command() + ["play", "--text", "--players", "Ana", "Ben", "--rule", option,
                                                   "--journal", str(tmp_path / "x.jsonl")],
                             input="", capture_output=True, text=True)
        assert out.returncode == 2 and expected in out.stderr, out.stderr


def test_rules_reach_the_journal_and_the_state(tmp_path: Path) -> None:
    toml = tmp_path / "house.toml"
    toml.write_text('[rules]\nbook_size = 2\nties = "play-again"\n')
    _, journal = play(tmp_path, ["Ben, sevens?"], "--rules", str(toml), "--rule", "again_on_hit=false")
    rules = state(journal)["rules"]
    assert rules["book_size"] == 2 and rules["ties"] == "play-again" and rules["again_on_hit"] is False


def test_pause_resume_stop_and_new_game(tmp_path: Path) -> None:
    events, journal = play(tmp_path, [
        "pause", "Ben, sevens?", "what's the score", "resume", "Ben, sevens?", "new game",
        "Cho, kings?", "stop the game", "Ben, queens?",
    ])
    codes = [(e.get("intent") or {}).get("type") and e["code"] for e in events[1:]]
    assert codes == ["control", "paused", "answer", "control", "ok", "control", "ok", "control"]
    assert events[2]["say"] == "Paused. Say resume to go on."
    # The first game keeps its one ask; the new game has its own journal beside it.
    assert state(journal)["hands"] == {"Ana": 7, "Ben": 7, "Cho": 7}
    pushed = [json.loads(r) for r in journal.read_text().splitlines() if '"push"' in r]
    assert [(r["push"], r["text"]) for r in pushed] == [("ask Ana Ben 7", "Ben, sevens?")]
    second = tmp_path / "game-game2.jsonl"
    assert '"ask Ana Cho K"' in second.read_text()


def test_an_answer_confirms_the_ask_tabletop_was_checking() -> None:
    """Spoken input that needs confirming ("Ben, sevens?"): the target's answer is the yes."""
    from tabletop.language.transcript import Alternative, Transcript
    from tabletop.table import Table

    table = Table.new(PLAYERS)
    shaky = Transcript("ben do you have any sevens", 0.3, (Alternative("ben do you have any sevens", 0.3),),
                       engine="pocketsphinx")
    asked = table.hear(shaky)
    assert asked[-1].event["code"] == "confirm" and not asked[-1].event["changed"]
    replies = table.hear(Transcript("here you go two", 0.95, (Alternative("here you go two", 0.95),),
                                    engine="pocketsphinx"))
    assert [r.text for r in replies] == ["Ana asks Ben for sevens.", "Ben gives Ana two sevens."]
    assert table.game.public()["hands"] == {"Ana": 9, "Ben": 5, "Cho": 7}


def test_a_yes_with_a_count_confirms_the_ask_and_moves_no_cards() -> None:
    """"Ben, sevens?" — "yes two" or "yes I do" may be Ana's yes with words the noise made: the ask
    is confirmed, and Ben's cards move (or "How many?" is asked) only on his own answer."""
    from tabletop.language.transcript import Alternative, Transcript
    from tabletop.table import Table

    shaky = Transcript("ben do you have any sevens", 0.3, (Alternative("ben do you have any sevens", 0.3),),
                       engine="pocketsphinx")
    for line in ("yes two", "yes i do"):  # (Ana's "yes" with words the noise made: seen in the table bench)
        table = Table.new(PLAYERS)
        table.hear(shaky)
        replies = table.hear(Transcript(line, 0.95, (Alternative(line, 0.95),), engine="pocketsphinx"))
        assert [r.text for r in replies] == ["Ana asks Ben for sevens."], line
        assert table.game.public()["hands"] == {"Ana": 7, "Ben": 7, "Cho": 7} and table.pending is None
