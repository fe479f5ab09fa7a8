"""What the camera saw: one card found in a frame, as the game loop and ``tabletop see`` report it."""

from __future__ import annotations

from dataclasses import dataclass

from tabletop.cards import Rank, Suit

__all__ = ["Detection"]


@dataclass(frozen=True)
class Detection:
    """One card found in a frame: its rank and suit (None where unreadable), box (x, y, w, h), confidence 0..1."""

    rank: Rank | None
    suit: Suit | None
    box: tuple[int, int, int, int]
    confidence: float

    def to_json(self) -> dict:
        """``{"rank": "7", "suit": "hearts", "box": [x, y, w, h], "confidence": 0.98}`` (PRODUCT.md section 5)."""
        return {
            "rank": self.rank.symbol if self.rank else None,
            "suit": self.suit.value if self.suit else None,
            "box": [int(v) for v in self.box],
            "confidence": round(float(self.confidence), 3),
        }
