"""An ask the recogniser read unsurely is acted on when the open decoder heard its rank alone and the game
rules out the ranks heard for it (``Table._open_backs_ask``).

In the simulated pairs games (``tests/bench/table.py``) most extra utterances are asks asked back ("Ana,
threes?") and confirmed with a "yes": capped at 0.45 where the open decoder read the sentence's other
words otherwise, or checked by the language layer for a rank's confusable partners. Where the open
decoder's best reading names the ask's rank and no other, none of its readings names another rank instead
or a rank confused with it, nobody else can be asked, and every rank heard for it with no trace
(``Vocabulary.heard_for``: nines and fours for fives) is out of play, the ask is acted on. Weighed on the
kept traces of 17 pairs games (seeds 4103-4109, clean and 20 dB): 37 asks acted on at once, none wrong.

The asks below are those of the simulated games (the game's voice, speed, noise and seed), synthesised
again and heard by PocketSphinx.
"""

from __future__ import annotations

import shutil
from dataclasses import replace

import pytest

from tabletop.language.transcript import Alternative, Transcript
from tabletop.rules import Rules
from tabletop.table import Table

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="espeak-ng is missing: apt-get install espeak-ng")


def _said(text: str, voice: str, speed: int, snr: float | None, seed: int):
    from tabletop.speech import synth

    return synth.realistic(text, voice=voice, speed=speed, snr_db=snr, seed=seed)


def _bens_turn(*typed: str) -> Table:
    table = Table.new(("Ana", "Ben"), Rules.preset("pairs"), durable=False)
    for line in typed:
        table.hear_text(line)
    table.hear_text("Ben, any kings?")
    table.hear_text("go fish")
    table.idle()
    return table


def test_threes_the_open_decoder_heard_alone_are_acted_on(fresh_two_players) -> None:
    # en-us+f1's "Ana, got any threes?" (clean pairs game seed 4108, utterance 32): asked "Ana, threes?"
    # (tens and queens are threes' confusable partners), the open decoder reading threes in every reading
    table = _bens_turn()
    heard = fresh_two_players.hear(_said("Ana, got any threes?", "en-us+f1", 155, None, 4108 * 1000 + 32), table.context())
    assert heard.text == "ana got any threes" and heard.heard_open, heard
    again = _bens_turn()
    assert again.hear(replace(heard, heard_open=()))[-1].text == "Ana, threes?"  # without the open decoder's readings
    replies = table.hear(heard)
    assert replies[-1].text == "Ben asks Ana for threes.", [r.text for r in replies]
    assert table.pending is None


def test_fives_are_asked_back_while_nines_or_fours_are_in_play(fresh_two_players) -> None:
    # en-us+f5's "Ana, give me your fives" (20 dB pairs game seed 4106, utterance 120): fives are heard
    # for nines by both decoders with no trace of the nine (and en-us+f1's fours for fives)
    table = _bens_turn()
    heard = fresh_two_players.hear(_said("Ana, give me your fives", "en-us+f5", 190, 20, 4106 * 1000 + 120), table.context())
    assert heard.text.startswith("ana give me your five") and heard.confidence < 0.5, heard
    assert table.hear(heard)[-1].text == "Ana, fives?"
    nines_booked = _bens_turn("book of nines", "Ben has a book of nines")
    assert nines_booked.hear(heard)[-1].text == "Ana, fives?"  # fours still in play


def test_fives_are_acted_on_when_nines_and_fours_are_booked(fresh_two_players) -> None:
    # The same fives, read unsurely (0.45) as they were in the game, where nines and fours are all
    # booked: no rank heard for fives with no trace of it can be asked, and the open decoder read fives
    heard = fresh_two_players.hear(_said("Ana, give me your fives", "en-us+f5", 190, 20, 4106 * 1000 + 120),
                                   _bens_turn().context())
    assert heard.text.startswith("ana give me your five") and heard.confidence < 0.5, heard
    table = _bens_turn("book of nines", "Ben has a book of nines", "book of fours", "Ben has a book of fours")
    replies = table.hear(heard)
    assert replies[-1].text == "Ben asks Ana for fives.", [r.text for r in replies]


def _heard(text: str, *open_readings: str, confidence: float = 0.45) -> Transcript:
    return Transcript(text=text, confidence=confidence, alternatives=(Alternative(text, confidence),),
                      engine="pocketsphinx", heard_open=open_readings)


def test_a_reading_naming_another_rank_or_a_partner_keeps_the_question() -> None:
    # jacks: no rank is confused with them
    assert _bens_turn().hear(_heard("ana any jacks", "ana any jacks"))[-1].text == "Ben asks Ana for jacks."
    assert _bens_turn().hear(_heard("ana any jacks", "ana any jacks", "ana any eights"))[-1].text == "Ana, jacks?"
    # a babble's rank word beside the rank is no rival; a reading of a partner (queens for threes) is
    assert _bens_turn().hear(_heard("ana any jacks", "ana any jacks", "fives ana any jacks"))[-1].text == \
        "Ben asks Ana for jacks."
    assert _bens_turn().hear(_heard("ana any threes", "ana any threes"))[-1].text == "Ben asks Ana for threes."
    assert _bens_turn().hear(_heard("ana any threes", "ana any threes", "queens ana any threes"))[-1].text == \
        "Ana, threes?"
    # the open decoder's best reading must name the rank
    assert _bens_turn().hear(_heard("ana any jacks", "ana say live", "ana any jacks"))[-1].text == "Ana, jacks?"
    # sevens are heard for tens with no trace of the seven: tens are acted on only once no seven can be asked
    assert _bens_turn().hear(_heard("ana any tens", "ana any tens"))[-1].text == "Ana, tens?"
    sevens_booked = _bens_turn("book of sevens", "Ben has a book of sevens", "book of sixes", "Ben has a book of sixes")
    assert sevens_booked.hear(_heard("ana any tens", "ana any tens"))[-1].text == "Ben asks Ana for tens."


def test_with_three_players_the_open_decoder_must_name_the_player_asked_too() -> None:
    table = Table.new(("Ana", "Ben", "Cho"), Rules.preset("pairs"), durable=False)
    assert table.hear(_heard("ben any jacks", "i meant any jacks"))[-1].text == "Ben, jacks?"
    table = Table.new(("Ana", "Ben", "Cho"), Rules.preset("pairs"), durable=False)
    assert table.hear(_heard("ben any jacks", "ben any jacks"))[-1].text == "Ana asks Ben for jacks."


def test_typed_and_answer_phases_are_untouched() -> None:
    table = _bens_turn()
    table.hear_text("Ana, any jacks?")  # an ask is open: a heard ask now is no fresh ask
    assert table.hear(_heard("ana any jacks", "ana any jacks"))[-1].event["changed"] is False
