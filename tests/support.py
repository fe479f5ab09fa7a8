"""Helpers shared by the test folders: the real command line and the shared development data."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("TABLETOP_SHARED_DATA", ROOT.parent / "shared" / "data"))


def tabletop_command() -> list[str]:
    """Run the real command-line program in a subprocess."""
    return [sys.executable, "-m", "tabletop"]
