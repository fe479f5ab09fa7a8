"""Shared fixtures for the table tests that hear real speech (espeak-ng → PocketSphinx → the table)."""

from __future__ import annotations

import shutil

import pytest

PLAYERS = ("Ana", "Ben", "Cho")


def _warm_recogniser(players):
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is missing: apt-get install espeak-ng")
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

    r = PocketSphinxRecogniser(players)
    r.warm_up()
    return r


@pytest.fixture(scope="module")
def recogniser():
    """A fresh embedded recogniser per test module: decoding depends on the utterances before it
    (its running cepstral mean), so each module's voices and seeds are heard as they were chosen."""
    return _warm_recogniser(PLAYERS)


@pytest.fixture(scope="module")
def two_players():
    """The same for a two-player game of Ana and Ben."""
    return _warm_recogniser(("Ana", "Ben"))


@pytest.fixture
def fresh_two_players():
    """A new two-player recogniser for each test, for tests that replay one utterance of a game as it was
    first heard (how an utterance is heard depends on those heard before it)."""
    return _warm_recogniser(("Ana", "Ben"))
