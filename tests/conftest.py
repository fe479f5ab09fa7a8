"""Shared fixtures; helpers live in support.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from support import SHARED_DATA, SOAK


def pytest_report_header() -> str:
    return f"tabletop soak: {'on (TABLETOP_SOAK=1): the full counts' if SOAK else 'off (TABLETOP_SOAK=1 runs the long soaks)'}"


@pytest.fixture
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared development data not found at {SHARED_DATA} (set TABLETOP_SHARED_DATA)")
    return SHARED_DATA


@pytest.fixture(scope="session", autouse=True)
def _no_personal_voice_profiles(tmp_path_factory: pytest.TempPathFactory):
    """Tests never hear with the voice profiles of whoever runs them (`tabletop enroll`)."""
    import os

    if "TABLETOP_VOICES_DIR" not in os.environ:
        os.environ["TABLETOP_VOICES_DIR"] = str(tmp_path_factory.mktemp("no-voice-profiles"))
