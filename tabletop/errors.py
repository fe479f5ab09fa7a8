"""One root for tabletop's errors, each with a stable ``code`` and a short spoken ``reason``."""

from __future__ import annotations

__all__ = [
    "TabletopError",
    "InvalidInputError",
    "IllegalActionError",
    "AmbiguousActionError",
    "RulesError",
    "JournalError",
    "SetupError",
]


class TabletopError(Exception):
    """Root of every error tabletop raises on purpose.

    ``reason`` is short enough to be spoken at the table; ``code`` is stable for tests and JSON.
    """

    code = "error"

    def __init__(self, reason: str, *, code: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        if code is not None:
            self.code = code


class InvalidInputError(TabletopError, ValueError):
    """Text that is not well formed (not a rank, not a card, not a rule value)."""

    code = "invalid"


class IllegalActionError(TabletopError, ValueError):
    """A well-formed action that the game does not allow now (out of turn, rank booked, …)."""

    code = "illegal"


class AmbiguousActionError(TabletopError, ValueError):
    """Text that matches several actions."""

    code = "ambiguous"


class RulesError(InvalidInputError):
    """An unknown rule key or value, or an invalid combination."""

    code = "rules"


class JournalError(TabletopError):
    """A journal that cannot be read or written; ``line`` names the damaged line when known."""

    code = "journal"

    def __init__(self, reason: str, *, line: int | None = None, code: str | None = None) -> None:
        super().__init__(reason, code=code)
        self.line = line


class SetupError(TabletopError):
    """A missing microphone, speaker, camera or model: the reason says what to do."""

    code = "setup"
