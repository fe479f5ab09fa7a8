"""A no read as a yes where the open decoder heard the no is asked about, never a card given.

"I don't have one" is how many people say no to an ask. The grammar reads it "i do have one" (an answer
of one card), the open decoder "i don't have one"; most of their words in common back the reading, and
it was acted on: a card given for a no (en-us+f5 at 190 words a minute, en+f3 at 155, clean; 4 of 30
"I don't have one" / "I do not have one" / "no, I don't have one" said in five of the games' voices,
clean and at 20 dB, gave a card). Now the recogniser hands the table what its open decoder heard
(``Transcript.heard_open``), and a yes read where the open decoder heard a "don't" (or a "none") in the
very place of its "do" (or its "one"), the same words before it, asks "Go fish?" (``Table._open_heard_negated``);
a "no" to that asks about the answer heard. The audio is synthesised with espeak-ng and heard by PocketSphinx.
"""

from __future__ import annotations

import shutil

import pytest

from support import ana_asked_ben_for_sevens
from tabletop.language.transcript import Alternative, Transcript
from tabletop.table import Table

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="espeak-ng is missing: apt-get install espeak-ng")


def _asked(preset: str = "pairs") -> Table:
    return ana_asked_ben_for_sevens(preset)


@pytest.mark.parametrize(("said", "voice", "speed", "seed"), [
    ("I don't have one", "en-us+f5", 190, 777096),
    ("I don't have one", "en+f3", 155, 777098),
    ("I do not have one", "en-us+f1", 155, 777100),
])
def test_a_no_read_as_i_do_have_one_gives_no_card(fresh_two_players, said, voice, speed, seed) -> None:
    from tabletop.speech import synth

    table = _asked()
    before = table.game.public()
    replies = table.hear_audio(synth.realistic(said, voice=voice, speed=speed, seed=seed), fresh_two_players)
    events = [r.event for r in replies]
    assert events[0]["heard"] == "i do have one", events  # the mishearing
    assert fresh_two_players.last_trace["open"][0] == "i don't have one", fresh_two_players.last_trace["open"][:3]
    assert replies[-1].text == "Go fish?" and table.game.public() == before, events
    replies = table.hear_text("yes")
    assert replies[0].text.startswith("Go fish, Ana."), [r.text for r in replies]
    assert table.game.public()["hands"]["Ben"] == before["hands"]["Ben"]


def _heard(text: str, *open_heard: str, confidence: float = 0.66) -> Transcript:
    return Transcript(text, confidence, (Alternative(text, confidence),), engine="pocketsphinx", heard_open=open_heard)


def test_a_no_to_go_fish_asks_about_the_answer_heard() -> None:
    table = _asked()
    before = table.game.public()
    assert table.hear(_heard("i do have one", "i don't have one"))[-1].text == "Go fish?"
    assert table.hear_text("no")[-1].text == "One seven?" and table.game.public() == before
    assert table.hear_text("yes")[-1].text.startswith("Ben gives Ana a seven.")


@pytest.mark.parametrize(("text", "open_heard"), [
    ("i have one", "i have none"), ("yes", "nope"), ("yes one", "no one"), ("i do have one", "i don't have what"),
])
def test_the_no_in_the_yes_place_is_asked_in_any_game(text: str, open_heard: str) -> None:
    for preset in ("pairs", "standard"):
        table = _asked(preset)
        before = table.game.public()
        assert table.hear(_heard(text, open_heard, confidence=0.9))[-1].text == "Go fish?", (preset, text)
        assert table.game.public() == before


@pytest.mark.parametrize(("text", "open_heard"), [
    ("i do have one", "i do have one"), ("i got one", "i got one no of"), ("yes one", "yes while nope"),
    ("i do have one", "ana don't have one"), ("yes", "yes nope do"),
])
def test_a_no_elsewhere_in_the_open_reading_leaves_a_sure_yes_alone(text: str, open_heard: str) -> None:
    """Right answers of the games ("I got one" read "i got one no of", "yes, 1" "yes while nope"): acted on."""
    table = _asked()
    assert table.hear(_heard(text, open_heard, confidence=0.9))[-1].text.startswith("Ben gives Ana a seven.")
