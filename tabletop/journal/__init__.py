"""The append-only journal that keeps every game safe on disk."""

from tabletop.journal.journal import CHAIN, FORMAT, MAX_RECORD, Journal, Loaded, chain_hash, load

__all__ = ["CHAIN", "FORMAT", "MAX_RECORD", "Journal", "Loaded", "chain_hash", "load"]
