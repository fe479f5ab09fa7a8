"""A book call the moment expects is not dropped for the open decoder hearing its rank otherwise.

In the clean game 4111 of the table bench (``tests/bench/table.py --quick --snrs clean --seed 4111``,
games18) en+f3's "book of sevens" (155 words a minute), said right after "Ben gives Ana a seven. Ana,
that makes a pair of sevens: lay it down", was read right by the grammar six times in a row, and the
open decoder heard "book that's a minute", "book and ana and": no backing, and the grammar's words fit
the sound at -29 to -35, under ``FIT_RESCUE``, so the reading was dropped ("Sorry, I didn't catch that")
until the player typed it. The book public knowledge proves, called by the player whose turn it is, is
kept while its words fit the sound at all (above ``FIT_REJECT``): the table lays it (the game is its
second hearing). A book the game does not prove is dropped as before, and so is chatter said at the
moment the proven book is expected. The audio is made here (espeak-ng) and heard by PocketSphinx in the
game's context.
"""

from __future__ import annotations

from tabletop.rules import Rules
from tabletop.speech import synth
from tabletop.speech.recognisers.pocketsphinx import FIT_RESCUE
from tabletop.table import Table

GAME_SEED = 4111


def _ana_took_a_seven() -> Table:
    table = Table.new(["Ana", "Ben"], Rules.preset("pairs"), None, first=0)
    table.start()
    table.hear_text("Ben, any sevens?")
    assert "Ana, that makes a pair of sevens: lay it down" in table.hear_text("yes, one")[-1].text
    return table


def _ben_fished() -> Table:
    table = Table.new(["Ana", "Ben"], Rules.preset("pairs"), None, first=1)
    table.start()
    table.hear_text("Ana, any kings?")
    assert table.hear_text("go fish")[-1].text == "Go fish, Ben."
    return table


def _said(text: str, voice: str, speed: int, utterance: int, snr: float | None = None):
    return synth.realistic(text, voice=voice, speed=speed, snr_db=snr, seed=GAME_SEED * 1000 + utterance)


def test_the_proven_book_the_open_decoder_hears_otherwise_is_laid(fresh_two_players) -> None:
    table = _ana_took_a_seven()
    replies = table.hear_audio(_said("book of sevens", "en+f3", 155, 65), fresh_two_players)
    trace = fresh_two_players.last_trace
    assert trace["grammar"] == "book of sevens" and trace["agreement"] == 0.0, trace
    assert trace["fit"] < FIT_RESCUE, trace  # dropped on main: "open decoder disagrees"
    assert trace["book_expected"] == "proven" and trace["dropped"] is None, trace
    assert table.game.public()["books"]["Ana"] == ["7"], [r.text for r in replies]
    assert table.pending is None


def test_a_book_the_game_does_not_prove_is_still_dropped(fresh_two_players) -> None:
    """En-gb+m4's "book of nines" right after a go fish (the bench's 91st utterance): the card drawn may
    have made it, but the game proves nothing, and the open decoder heard "book and ana aces"."""
    table = _ben_fished()
    replies = table.hear_audio(_said("book of nines", "en-gb+m4", 175, 91), fresh_two_players)
    trace = fresh_two_players.last_trace
    assert trace["grammar"] == "book of nines" and trace["dropped"] == "open decoder disagrees", trace
    assert "book_expected" not in trace
    assert table.game.public()["books"]["Ben"] == [], [r.text for r in replies]


def test_chatter_when_the_proven_book_is_expected_is_no_book(fresh_two_players) -> None:
    """Chatter said right after "Ana, that makes a pair of sevens: lay it down" (the speech bench's
    chatter voices and speeds; none of its 200 sentences clean and at 20 dB was kept as the book)."""
    for i, text in enumerate(("I started a new book yesterday", "let's take a break after this round",
                              "pass me the remote")):
        table = _ana_took_a_seven()
        u = synth.realistic(text, voice=("en-us", "en", "en-us+f3")[i], speed=(140, 160, 180)[i], snr_db=20.0, seed=77 + i)
        replies = table.hear_audio(u, fresh_two_players)
        assert "book_expected" not in fresh_two_players.last_trace, fresh_two_players.last_trace
        assert table.game.public()["books"]["Ana"] == [], (text, [r.text for r in replies])
