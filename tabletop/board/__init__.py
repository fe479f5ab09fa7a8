"""The board: a live, large-type page of the game for the table to look at (``play --board``).

It is read-only and public: it is fed the referee's public state (never a hidden hand) and the
last thing tabletop said, through :meth:`Board.publish`, and serves it to browsers as a page that
updates by server-sent events.
"""

from tabletop.board.server import Board
from tabletop.board.view import board_view

__all__ = ["Board", "board_view"]
