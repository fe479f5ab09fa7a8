"""The loop at the table: hear → understand → referee → journal → speak (and look)."""

from tabletop.table.table import BookEyes, Reply, Table

__all__ = ["BookEyes", "Reply", "Table"]
