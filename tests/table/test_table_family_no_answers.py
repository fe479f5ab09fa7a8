"""The no a family says to "Ben, do you have any sevens?" is heard as a go fish and acted on at once, never a
card given.

"I don't have one" was not in the grammar: PocketSphinx read it "i do have one", a card for a no, until the
table checked the open decoder's reading and asked "Go fish?" (``Table._open_heard_negated``); "I don't have
any", read surely, was asked "Go fish?" as a bare go fish. Both are now in the vocabulary as a go fish said
whole (``understand.DENIAL_WORDS``), and acted on: of 5 espeak voices, clean and at 20 dB, 19 of 20 are acted
at once (none before), 0 cards given. The mirror of the open check: a go fish read where the open decoder heard
its yes ("i don't have one" / "i do have one") is asked "Go fish?", never acted on. The audio is synthesised
with espeak-ng and heard by PocketSphinx.
"""

from __future__ import annotations

import shutil

import pytest

from support import ana_asked_ben_for_sevens
from tabletop.language.transcript import Alternative, Transcript
from tabletop.table import Table

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="espeak-ng is missing: apt-get install espeak-ng")


def _asked(preset: str = "standard") -> Table:
    return ana_asked_ben_for_sevens(preset)


@pytest.mark.parametrize(("said", "voice", "speed", "snr", "seed", "preset"), [
    ("I don't have one", "en-us+f1", 155, None, 778000, "standard"),
    ("I don't have one", "en-us+f5", 190, None, 777096, "pairs"),
    ("I don't have any", "en-us+f5", 190, 20, 778017, "standard"),
])
def test_a_no_said_whole_is_a_go_fish_at_once(fresh_two_players, said, voice, speed, snr, seed, preset) -> None:
    from tabletop.speech import synth

    table = _asked(preset)
    before = table.game.public()
    replies = table.hear_audio(synth.realistic(said, voice=voice, speed=speed, snr_db=snr, seed=seed),
                               fresh_two_players)
    events = [r.event for r in replies]
    assert events[0]["heard"] == said.lower(), events
    assert replies[0].text.startswith("Go fish, Ana."), [r.text for r in replies]
    assert table.game.public()["hands"]["Ben"] == before["hands"]["Ben"]


def _heard(text: str, *open_heard: str, confidence: float = 0.9) -> Transcript:
    return Transcript(text, confidence, (Alternative(text, confidence),), engine="pocketsphinx", heard_open=open_heard)


@pytest.mark.parametrize("text", ["i don't have one", "i don't have any", "i haven't got any", "i do not have any"])
def test_a_whole_denial_heard_surely_acts(text: str) -> None:
    table = _asked()
    assert table.hear(_heard(text, text))[0].text.startswith("Go fish, Ana."), text


@pytest.mark.parametrize(("text", "open_heard"), [
    ("i don't have one", "i do have one"), ("i have none", "i have one"), ("nope go fish", "yes go fish"),
])
def test_a_go_fish_the_open_decoder_heard_as_a_yes_is_asked(text: str, open_heard: str) -> None:
    """The grammar can now read "i don't have one", so it can read "I do have one" so: a go fish whose no the
    open decoder heard as a yes in the same place is asked "Go fish?"; a "no" asks about the answer."""
    table = _asked()
    before = table.game.public()
    assert table.hear(_heard(text, open_heard))[-1].text == "Go fish?", text
    assert table.game.public() == before
    assert table.hear_text("no")[-1].text.endswith("?") and table.game.public() == before


def test_a_bare_denial_is_still_asked() -> None:
    """"i don't" (what a real Speech Commands "zero" was heard as) stays a bare go fish: asked."""
    table = _asked()
    assert table.hear(_heard("i don't", "i don't"))[-1].text == "Go fish?"
