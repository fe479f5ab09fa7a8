"""Asks heard in a two-player game: what the open decoder must have heard for tabletop to act.

In a game of two the player asked is the other one, whatever name was heard, so the rank is what an
ask turns on. The open decoder (free to hear any word) often hears en-us+f1's "Ben" as "i meant" and
the rank right; such asks were asked back ("Ben, tens?") in the 20 dB pairs games of the table bench
(``tests/bench/table.py --quick --snrs 20 --seed 4103``). They are acted on now, when the open
decoder's best reading and most of its readings hold the rank and no other (the recogniser's
``_slots_heard_alike``). A rank the open decoder heard only in the table's background is never
acted on: en+f3's "Ben asks Ana for fours" (seed 4104) was read "... for all of your eight" by the
grammar and "... for full of eights" by the open decoder, whose words at the speaker's level were
"ben asks ana for all of", and acted on as an ask of eights. The same audio is made here (espeak-ng,
the bench's voice, speed, noise and seed) and heard by PocketSphinx in the game's context.
"""

from __future__ import annotations

from tabletop.rules import Rules
from tabletop.speech import synth
from tabletop.table import Table


def _heard(recogniser, text: str, voice: str, speed: int, game: int, utterance: int, lines: list[str], first: int = 0):
    """The pairs game after ``lines`` (typed), then ``text`` as the bench said it (its seed: game seed *
    1000 + the utterance's number in the game) heard by ``recogniser``."""
    table = Table.new(["Ana", "Ben"], Rules.preset("pairs"), None, first=first)
    table.start()
    for line in lines:
        table.hear_text(line)
    audio = synth.realistic(text, voice=voice, speed=speed, snr_db=20.0, seed=game * 1000 + utterance)
    replies = table.hear_audio(audio, recogniser)
    return table, replies, dict(recogniser.last_trace)


def test_an_ask_whose_rank_alone_the_open_decoder_heard_is_acted_on(two_players) -> None:
    """No reading of the open decoder is the same command ("i meant do you have any tens"): the ask is
    backed by its rank, heard at its best and in most of its readings."""
    table, replies, trace = _heard(two_players, "Ben, do you have any tens?", "en-us+f1", 155, 4103, 42,
                                   ["Ana, any twos?", "go fish"], first=1)
    assert trace["open"][0] == "i meant do you have any tens", trace["open"][:3]
    assert trace["slots_backed"] == 0.0 and not trace.get("rescued"), trace
    event = replies[-1].event
    assert event.get("changed") and event["intent"] == {"type": "ask", "target": "Ben", "rank": "10"}, \
        [r.event for r in replies]
    assert table.game.state.exchange is not None and table.game.state.exchange.rank.symbol == "10"


def test_an_ask_backed_loosely_needs_no_name_in_a_two_player_game(two_players) -> None:
    """"ben got any tens" backed by "i meant got any tens i that" (most of its words): the name is not
    in the open decoder's best reading, and in a game of two it need not be."""
    _, replies, trace = _heard(two_players, "Ben, got any 10s?", "en-us+f1", 143, 4103, 160, [])
    assert trace["slots_backed"] == 0.6 and trace["agreement"] == 0.9, trace
    assert replies[-1].event.get("changed") and replies[-1].event["intent"]["rank"] == "10", [r.event for r in replies]


def test_an_ask_whose_rank_a_reading_confuses_is_still_checked(two_players) -> None:
    """en-us+f1's "Ben, do you have any fives?" read "... nines" by the grammar and by the open
    decoder's best reading, "fives" in others: backed by the rank now, and still checked."""
    _, replies, trace = _heard(two_players, "Ben, do you have any fives?", "en-us+f1", 155, 4103, 68,
                               ["Ana, any twos?", "go fish"], first=1)
    assert trace["grammar"] == "ben do you have any nines", trace["grammar"]
    assert trace.get("confusable_heard") == "5", trace
    assert replies[-1].event["event"] == "question" and not replies[-1].event.get("changed"), \
        [r.event for r in replies]


def test_a_rank_heard_only_in_the_background_is_checked(two_players) -> None:
    table, replies, trace = _heard(two_players, "Ben asks Ana for fours", "en+f3", 155, 4104, 169,
                                   ["Ben, any twos?", "go fish"])
    assert trace["grammar"] == "ben asks ana for all of your eight", trace["grammar"]  # the bench game's mishearing
    assert trace["open_spoken"] == "ben asks ana for all of" and trace.get("rank_unheard"), trace
    assert replies[-1].event["event"] == "question" and not replies[-1].event.get("changed"), \
        [r.event for r in replies]
    assert table.game.state.exchange is None or table.game.state.exchange.rank.symbol != "8"
