"""The append-only journal that keeps every game safe on disk."""

from tabletop.journal.journal import FORMAT, Journal, Loaded, load

__all__ = ["FORMAT", "Journal", "Loaded", "load"]
