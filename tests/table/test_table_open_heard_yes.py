"""In the pairs game an unsure answer the open decoder heard as a yes is the one card; a rescued one never.

The target of an ask in the pairs game holds one card of the rank at most (``Table._most_given``), so the
count word heard does not matter, only whether it was a yes. en-us+f1's "one" is read "two" by the open
decoder again and again, so "yes, one" was capped under the act threshold and asked "One seven?" (clean
pairs game seed 4108, utterance 139). The recogniser now hands the table what its open decoder heard
(``Transcript.heard_open``) and whether the reading was rescued (``Transcript.rescued``: a grammar reading
the open decoder did not back at all). An answer whose open decoder opens its best reading with a yes
("yes", "here you go"; not "i got", which opens "I've got none" too) and holds no "no" in its two best
readings gives the card (``Table._open_heard_yes``); a rescued reading never does, whatever the open
decoder heard. The audio below is the games' own voices and seeds synthesised again and heard by
PocketSphinx.
"""

from __future__ import annotations

import shutil

import pytest

from tabletop.language.transcript import Alternative, Transcript
from tabletop.rules import Rules
from tabletop.table import Table

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="espeak-ng is missing: apt-get install espeak-ng")


def _said(text: str, voice: str, speed: int, seed: int, snr_db: float | None = None):
    from tabletop.speech import synth

    return synth.realistic(text, voice=voice, speed=speed, snr_db=snr_db, seed=seed)


def _asked(rank: str, preset: str = "pairs") -> Table:
    table = Table.new(("Ana", "Ben"), Rules.preset(preset), durable=False)
    table.hear_text(f"Ana asks Ben for {rank}")
    return table


def test_an_unsure_yes_the_open_decoder_heard_as_a_yes_gives_the_card(fresh_two_players) -> None:
    """en-us+m2's "yes" (135 words a minute, 20 dB pairs game seed 4109, utterance 15) read "yes i have
    four" by the grammar, "yes i have" by the open decoder: asked "Yes, you have some?" before."""
    table = _asked("queens")
    hands = table.game.public()["hands"]
    replies = table.hear_audio(_said("yes", "en-us+m2", 135, 4109 * 1000 + 15, 20), fresh_two_players)
    trace = fresh_two_players.last_trace
    events = [r.event for r in replies]
    assert events[0]["heard"] == "yes i have four" and events[0]["confidence"] < 0.5, events
    assert trace["open"][0] == "yes i have" and not trace.get("rescued"), trace["open"][:3]
    assert replies[-1].text.startswith("Ben gives Ana a queen."), events
    assert table.game.public()["hands"] == {"Ana": hands["Ana"] + 1, "Ben": hands["Ben"] - 1}
    assert table.pending is None


def test_a_rescued_reading_gives_no_card_though_the_open_decoder_heard_a_yes(fresh_two_players) -> None:
    """en+m6's "here you go, 1" (163 words a minute, 20 dB pairs game seed 4107, utterance 35): the grammar's
    "here you go one", which the open decoder ("here you go two want i") did not back: rescued, it is
    asked about, never given, though the open decoder's reading opens with "here you go"."""
    table = _asked("tens")
    hands = table.game.public()["hands"]
    replies = table.hear_audio(_said("here you go, 1", "en+m6", 163, 4107 * 1000 + 35, 20), fresh_two_players)
    trace = fresh_two_players.last_trace
    assert trace.get("rescued") and trace["open"][0].startswith("here you go"), trace
    assert replies[-1].text == "One ten?", [r.event for r in replies]
    assert table.game.public()["hands"] == hands and table.pending is not None


def test_a_no_in_the_open_decoders_best_reading_keeps_the_check(fresh_two_players) -> None:
    """en-us+f1's "yes, 1" (clean pairs game seed 4108, utterance 112) read "yes one" unsurely, the open
    decoder's "yes no ana": checked ("One six?")."""
    table = _asked("sixes")
    replies = table.hear_audio(_said("yes, 1", "en-us+f1", 155, 4108 * 1000 + 112), fresh_two_players)
    assert fresh_two_players.last_trace["open"][0] == "yes no ana", fresh_two_players.last_trace["open"][:3]
    assert replies[-1].text == "One six?", [r.event for r in replies]


def _heard(text: str, *open_heard: str, rescued: bool = False) -> Transcript:
    return Transcript(text, 0.45, (Alternative(text, 0.45),), engine="pocketsphinx", heard_open=open_heard,
                      rescued=rescued)


@pytest.mark.parametrize("heard", [
    # "nope" rescued as "i have two of them" (20 dB pairs game seed 4107), its open decoder's "go fish nope"
    _heard("i have two of them", "go fish nope", "out of", rescued=True),
    # the same, had the open decoder heard a yes: a rescued reading is never backed by it
    _heard("i have two of them", "i have two of them", "i have two", rescued=True),
    _heard("yes one", "yes", "yes one", rescued=True),
])
def test_a_rescued_yes_never_gives_a_card(heard: Transcript) -> None:
    table = _asked("sixes")
    hands = table.game.public()["hands"]
    replies = table.hear(heard)
    assert " gives " not in replies[-1].text and replies[-1].text.endswith("?"), [r.text for r in replies]
    assert table.game.public()["hands"] == hands and table.pending is not None


@pytest.mark.parametrize("open_heard", [
    ("i don't have",), ("yes two", "yes no"), ("yes", "nope"), ("nope yes one",),
    ("here you go fish",), ("go fish",), (),
    # "i got" opens a no as well: en+m6's "I've got none" read "i've got two all your" by the open decoder
    ("i got two an eight",), ("i've got two all your",), ("sure",),
])
def test_an_open_decoder_that_heard_no_yes_or_a_no_keeps_the_check(open_heard: tuple[str, ...]) -> None:
    table = _asked("sixes")
    assert table.hear(_heard("i got one", *open_heard))[-1].text == "One six?"


def test_typed_and_standard_games_are_as_before() -> None:
    table = _asked("sixes", "standard")  # Ben may hold three sixes: the count is checked
    assert table.hear(_heard("yes one", "yes two an"))[-1].text == "One six?"
    table = _asked("sixes")
    assert table.hear_text("i got one")[-1].text.startswith("Ben gives Ana a six.")
