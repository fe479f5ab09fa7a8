"""Shared fixtures for the speech tests: real espeak-ng speech, the real PocketSphinx decoder.

Synthesised audio is cached for the session under pytest's tmp folder (espeak-ng is
deterministic), and one recogniser is shared, so the whole run stays short.
"""

from __future__ import annotations

import os
import shutil

import pytest

PLAYERS = ("Ana", "Ben", "Cho")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "needs_espeak: synthesises speech with espeak-ng")


@pytest.fixture(scope="session", autouse=True)
def _synth_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    if "TABLETOP_SYNTH_CACHE" not in os.environ:
        os.environ["TABLETOP_SYNTH_CACHE"] = str(tmp_path_factory.mktemp("synth-cache"))


@pytest.fixture(scope="session")
def espeak() -> None:
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed (apt-get install espeak-ng): cannot synthesise test speech")


@pytest.fixture(scope="session")
def recogniser(espeak: None):
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

    r = PocketSphinxRecogniser(PLAYERS)
    r.warm_up()
    return r


@pytest.fixture(scope="session")
def players() -> tuple[str, ...]:
    return PLAYERS
