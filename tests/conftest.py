"""Shared fixtures; helpers live in support.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from support import SHARED_DATA


@pytest.fixture
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared development data not found at {SHARED_DATA} (set TABLETOP_SHARED_DATA)")
    return SHARED_DATA
