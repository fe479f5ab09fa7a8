"""Shared fixtures for the table tests that hear real speech (espeak-ng → PocketSphinx → the table)."""

from __future__ import annotations

import shutil

import pytest

PLAYERS = ("Ana", "Ben", "Cho")


@pytest.fixture(scope="module")
def recogniser():
    """A fresh embedded recogniser per test module: decoding depends on the utterances before it
    (its running cepstral mean), so each module's voices and seeds are heard as they were chosen."""
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is missing: apt-get install espeak-ng")
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

    r = PocketSphinxRecogniser(PLAYERS)
    r.warm_up()
    return r


@pytest.fixture(scope="module")
def two_players():
    """The same for a two-player game of Ana and Ben."""
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is missing: apt-get install espeak-ng")
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

    r = PocketSphinxRecogniser(("Ana", "Ben"))
    r.warm_up()
    return r
