"""A question to tabletop that the open decoder backs only by words in common is asked about.

The grammar's longest sentences soak up what the open decoder heard otherwise. In the 20 dB pairs game
of the table bench (``tests/bench/table.py --quick --snrs 20 --seed 4105``, its 200th utterance) Ana's
"book of aces" (espeak-ng en+f3 at 190 words a minute), said right after "Ana, that makes a pair of
aces: lay it down", was read "what can i say" by the grammar and "what can i say that" by the open
decoder (backed 0.7: most words in common), and the whole help was read out in the middle of the game
(a wrong action, twice in that game). The same audio is made here and heard by PocketSphinx in the
game's context: tabletop asks ("Help?"), and nothing is read out.
"""

from __future__ import annotations

from tabletop.language.transcript import Alternative, Transcript
from tabletop.rules import Rules
from tabletop.speech import synth
from tabletop.table import Table


def _ana_took_an_ace() -> Table:
    table = Table.new(["Ana", "Ben"], Rules.preset("pairs"), None, first=0)
    table.start()
    table.hear_text("Ben, any aces?")
    assert "that makes a pair of aces" in table.hear_text("yes, one")[-1].text
    return table


def test_a_question_backed_by_words_in_common_is_asked_not_answered(fresh_two_players) -> None:
    table = _ana_took_an_ace()
    audio = synth.realistic("book of aces", voice="en+f3", speed=190, snr_db=20.0, seed=4105 * 1000 + 200)
    replies = table.hear_audio(audio, fresh_two_players)
    trace = fresh_two_players.last_trace
    assert trace["grammar"] == "what can i say" and trace["agreement"] == 0.7, trace  # the bench game's mishearing
    assert trace.get("query_loose") and trace["confidence"] < 0.5, trace
    assert replies[-1].event["event"] == "question" and "Ask like this" not in replies[-1].text, \
        [r.text for r in replies]
    # "no": nothing read out, and the book is said again
    replies = table.hear(Transcript("no", 0.95, (Alternative("no", 0.95),), engine="pocketsphinx"))
    assert replies[-1].text == "Okay, say it again.", [r.text for r in replies]


def test_a_question_heard_alike_is_answered() -> None:
    table = _ana_took_an_ace()
    said = Transcript("what can i say", 0.93, (Alternative("what can i say", 0.93),), engine="pocketsphinx")
    assert "Ask like this" in table.hear(said)[-1].text
