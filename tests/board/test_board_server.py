"""The board's server without a browser: routes, the token when shared, events, public state only."""

from __future__ import annotations

import json
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from support import tabletop_command
from tabletop.board import Board, board_view
from tabletop.referee.game import Game

PUBLIC = Game(["Ana", "Ben"]).public()


def get(url: str, method: str = "GET") -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, method=method), timeout=5) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, b""


def test_local_board_serves_the_page_state_and_nothing_else() -> None:
    with Board() as board:
        assert board.url.startswith("http://127.0.0.1:") and board.url.endswith("/") and not board.token
        board.publish(PUBLIC, "Deal seven cards each. Ana goes first.")
        status, page = get(board.url)
        assert status == 200 and b"<!doctype html>" in page
        status, body = get(board.url + "state")
        data = json.loads(body)
        assert data["title"] == "Ana's turn" and data["stock"] == 38 and data["last"].startswith("Deal seven")
        assert get(board.url + "../etc/passwd")[0] == 404 and get(board.url + "nothing")[0] == 404
        assert get(board.url + "state", method="POST")[0] in (405, 501)  # read-only


def test_shared_board_needs_its_random_token(capfd: pytest.CaptureFixture[str]) -> None:
    with Board(host="0.0.0.0") as board, Board(host="0.0.0.0") as other:
        assert board.shared and len(board.token) >= 20 and board.token != other.token
        local = f"http://127.0.0.1:{board.port}"
        assert get(local + "/")[0] == 404 and get(local + "/state")[0] == 404 and get(local + "/events")[0] == 404
        assert get(f"{local}/{other.token}/")[0] == 404
        assert get(f"{local}/{board.token}/")[0] == 200 and get(f"{local}/{board.token}/state")[0] == 200
        status, page = get(f"{local}/{board.token}")  # redirected to the page, whose links are relative
        assert status == 200 and b"EventSource" in page
        assert board.url.endswith(f":{board.port}/{board.token}/") and "0.0.0.0" not in board.url
        qr = board.qr_text()
        assert board.url in qr and "█" in qr


def test_events_arrive_within_a_fraction_of_a_second() -> None:
    with Board() as board:
        stream = urllib.request.urlopen(board.url + "events", timeout=5)
        first = json.loads(stream.readline().decode().removeprefix("data: "))
        stream.readline()
        delays = []
        for n in range(5):
            start = time.perf_counter()
            board.publish(PUBLIC, f"event {n}")
            data = json.loads(stream.readline().decode().removeprefix("data: "))
            stream.readline()
            delays.append(time.perf_counter() - start)
            assert data["last"] == f"event {n}" and data["version"] == first["version"] + n + 1
        stream.close()
    assert max(delays) < 0.2, delays


def test_the_view_holds_public_fields_only() -> None:
    secret = dict(PUBLIC, hidden_hands={"Ana": ["7H", "7S"]}, journal="/home/ana/game.jsonl")
    view = json.dumps(board_view(secret, "Ben's turn."))
    assert "7H" not in view and "hidden" not in view and "/home" not in view
    over = board_view(dict(PUBLIC, over=True, winners=["Ana", "Ben"], current=None, out=["Ben"]))
    assert over["title"] == "Ana and Ben win!" and not any(p["out"] for p in over["players"])
    assert all(p["winner"] for p in over["players"])


def test_play_shares_the_board_with_a_token_and_a_qr_code(tmp_path: Path) -> None:
    out = subprocess.run(
        tabletop_command() + ["play", "--text", "--board-host", "0.0.0.0", "--players", "Ana", "Ben",
                              "--journal", str(tmp_path / "g.jsonl"), "--no-fsync"],
        input="whose turn is it\n", capture_output=True, text=True, timeout=60,
    )
    assert out.returncode == 0, out.stderr
    line = next(l for l in out.stderr.splitlines() if "the board is at" in l)
    url = line.split("the board is at ", 1)[1]
    token = url.rstrip("/").rsplit("/", 1)[1]
    assert len(token) >= 20 and "█" in out.stderr and out.stderr.count(url) >= 2
    assert "It's Ana's turn." in out.stdout and "█" not in out.stdout  # the game's own output stays clean


def test_the_board_sits_at_the_edge() -> None:
    """The board imports the core's sentences and the standard library, never the table or the referee."""
    import ast

    folder = Path(__file__).resolve().parents[2] / "tabletop" / "board"
    imported = {
        node.module for path in folder.glob("*.py") for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("tabletop")
    }
    assert imported <= {"tabletop", "tabletop.board.page", "tabletop.board.server", "tabletop.board.view"}, imported


def test_a_board_that_cannot_listen_starts_no_game(tmp_path: Path) -> None:
    with Board() as taken:
        out = subprocess.run(
            tabletop_command() + ["play", "--text", "--board", "--board-port", str(taken.port), "--players", "Ana",
                                  "Ben", "--journal", str(tmp_path / "g.jsonl")],
            input="whose turn is it\n", capture_output=True, text=True, timeout=60,
        )
    assert out.returncode != 0 and "--board-port" in out.stderr and "Traceback" not in out.stderr, out.stderr
    assert out.stdout == "" and not (tmp_path / "g.jsonl").exists()
