"""A sentence heard about one player while another reading names another player is checked.

Names are short and a recogniser swaps them whole. In a 20 dB game of the table bench
(``tests/bench/table.py --players 2 --preset pairs --snrs 20 --seed 4101``, its 77th utterance) Ana's
"how many cards does Ben have" (espeak-ng en-us+f5 at 190 words a minute) was heard "how many cards
does ana have" by both decoders, "... ben have" being the open decoder's second reading, and
answered about Ana: a wrong action. The same audio is made here and heard by PocketSphinx in the
game's context: tabletop asks which player was meant before it answers. A reading that names
another player only in a sentence that makes no sense (an ask of oneself) asks nothing.
"""

from __future__ import annotations

from tabletop.language.transcript import Alternative, Transcript
from tabletop.rules import Rules
from tabletop.speech import synth
from tabletop.table import Table

PLAYERS = ("Ana", "Ben")  # the bench game's players: its recogniser knows these names alone
GAME_SEED = 4101
UTTERANCE = 77  # the bench's seed for one utterance: game seed * 1000 + its number in the game


def _pairs_game() -> Table:
    table = Table.new(list(PLAYERS), Rules.preset("pairs"), None)
    table.start()
    return table


def test_a_query_heard_about_the_other_player_is_checked_not_answered(two_players) -> None:
    table = _pairs_game()
    audio = synth.realistic("how many cards does Ben have", voice="en-us+f5", speed=190, snr_db=20.0,
                            seed=GAME_SEED * 1000 + UTTERANCE)
    replies = table.hear_audio(audio, two_players)
    events = [r.event for r in replies]
    assert events[0]["heard"] == "how many cards does ana have", events  # the bench game's mishearing
    assert "how many cards does ben have" in two_players.last_trace["alternatives"], two_players.last_trace
    assert events[-1]["event"] == "question" and events[-1]["about"]["player"] == "Ana", events
    assert "has five" not in replies[-1].text and "has seven" not in replies[-1].text, replies[-1].text
    # "no": nothing answered about Ana; the player says it again
    replies = table.hear(Transcript("no", 0.95, (Alternative("no", 0.95),), engine="pocketsphinx"))
    assert replies[-1].text == "Okay, say it again.", [r.text for r in replies]


def test_a_checked_query_is_answered_on_yes() -> None:
    table = _pairs_game()
    said = Transcript("how many cards does ben have", 0.93,
                      (Alternative("how many cards does ben have", 0.93), Alternative("how many cards does ana have", 0.56)),
                      engine="pocketsphinx")
    assert table.hear(said)[-1].event["event"] == "question"
    replies = table.hear(Transcript("yes", 0.95, (Alternative("yes", 0.95),), engine="pocketsphinx"))
    assert replies[-1].text == "Ben has seven cards.", [r.text for r in replies]


def test_a_query_heard_alone_is_answered() -> None:
    table = _pairs_game()
    said = Transcript("how many cards does ben have", 0.93, (Alternative("how many cards does ben have", 0.93),),
                      engine="pocketsphinx")
    assert table.hear(said)[-1].text == "Ben has seven cards."


def test_an_ask_whose_other_reading_asks_oneself_is_acted_on() -> None:
    """Ana's "Ben, any sevens?" read "ana any sevens" second: an ask of herself, no rival."""
    table = _pairs_game()
    said = Transcript("ben any sevens", 0.93, (Alternative("ben any sevens", 0.93), Alternative("ana any sevens", 0.56)),
                      engine="pocketsphinx")
    replies = table.hear(said)
    assert replies[-1].event.get("changed") and replies[-1].event["intent"]["target"] == "Ben", [r.event for r in replies]


def _ana_gave_ben_a_jack():
    """The pairs game after Ben went fishing for twos and then took a jack from Ana."""
    table = _pairs_game()
    table.hear_text("Ben, do you have any twos?")
    table.hear_text("go fish")
    table.idle()
    table.hear_text("Ana, do you have any jacks?")
    table.hear_text("yes, one")
    return table


def test_a_book_claimed_for_the_player_who_took_cards_is_acted_on() -> None:
    """20 dB game seed 4103: after Ana gave Ben a jack, Ben's "Ben has a book of jacks" (both decoders)
    was asked back for "ana has a book of jacks" among the readings; it is the call the game expects."""
    table = _ana_gave_ben_a_jack()
    said = Transcript("ben has a book of jacks", 0.93,
                      (Alternative("ben has a book of jacks", 0.93), Alternative("ana has a book of jacks", 0.56)),
                      engine="pocketsphinx")
    replies = table.hear(said)
    assert replies[-1].event.get("changed") and table.game.public()["books"]["Ben"] == ["J"], [r.text for r in replies]


def test_a_book_claimed_for_another_player_is_checked() -> None:
    table = _ana_gave_ben_a_jack()
    said = Transcript("ana has a book of jacks", 0.93,
                      (Alternative("ana has a book of jacks", 0.93), Alternative("ben has a book of jacks", 0.56)),
                      engine="pocketsphinx")
    replies = table.hear(said)
    assert replies[-1].event["event"] == "question" and not table.game.public()["books"]["Ana"], [r.text for r in replies]
