"""What the board shows, taken from the public state only (PRODUCT.md section 5)."""

from __future__ import annotations

from typing import Any, Mapping

from tabletop import sentences

__all__ = ["board_view"]


def board_view(public: Mapping[str, Any], last: str = "", version: int = 0) -> dict[str, Any]:
    """The board's data: only the public state's fields, whatever else ``public`` holds.

    >>> view = board_view({"players": ["Ana", "Ben"], "current": "Ana", "stock": 38, "hands": {"Ana": 7, "Ben": 7},
    ...                    "books": {"Ana": ["9"], "Ben": []}, "out": [], "over": False, "winners": [],
    ...                    "rules": {"book_size": 4}}, "Deal seven cards each.")
    >>> view["title"], view["players"][0]
    ("Ana's turn", {'name': 'Ana', 'hand': 7, 'books': ['9'], 'count': 1, 'out': False, 'current': True, 'winner': False})
    """
    players = [str(p) for p in public.get("players", [])]
    over = bool(public.get("over"))
    winners = [str(w) for w in public.get("winners", [])]
    current = None if over else public.get("current")
    out = set(public.get("out", []))
    books = public.get("books", {})
    hands = public.get("hands", {})
    book_size = int((public.get("rules") or {}).get("book_size", 4))
    rows = [
        {
            "name": name,
            "hand": int(hands.get(name, 0)),
            "books": [str(rank) for rank in books.get(name, [])],
            "count": len(books.get(name, [])),
            "out": name in out and not over,
            "current": name == current,
            "winner": over and name in winners,
        }
        for name in players
    ]
    if over:
        title = "Game over" if not winners else (f"{winners[0]} wins!" if len(winners) == 1 else
                                                 f"{sentences.join(winners)} win!")
    elif current:
        title = f"{current}'s turn"
    else:
        title = "Go Fish"
    return {
        "version": version,
        "title": title,
        "players": rows,
        "current": current,
        "stock": int(public.get("stock", 0)),
        "over": over,
        "winners": winners,
        "last": str(last),
        "kind": "pairs" if book_size == 2 else "books",
    }
