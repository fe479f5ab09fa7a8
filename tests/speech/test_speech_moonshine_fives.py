"""Moonshine's second opinion on whole-sentence asks and books of fives or nines (``ranks_checked``).

PocketSphinx hears a five and a nine for one another with no trace of the other in either decoder's
readings, so an ask or a book of either is checked ("Ana, fives?") whatever the readings hold. When
Moonshine, which shares nothing with PocketSphinx's acoustic model, names the same rank alone in the
same audio, the check is lifted (PocketSphinxRecogniser._second_on_rank). Real decoding throughout:
espeak-ng speech synthesised here as the table bench makes it, the real PocketSphinx decoders, and the
real Moonshine model (skipped, with the reason, where it is not installed); the rules (agree, partner,
no opinion) also with a listener that says fixed words over a real PocketSphinx hearing.
"""

from __future__ import annotations

import pytest

from tabletop.cards import Rank
from tabletop.language import Context
from tabletop.language.understand import ACT, understand
from tabletop.speech import synth

from fixed_listener import Says

PLAYERS = ("Ana", "Ben")
ANA_ASKS = Context(players=PLAYERS, current="Ana", phase="ask", askable=frozenset({"Ben"}))
BEN_ASKS = Context(players=PLAYERS, current="Ben", phase="ask", askable=frozenset({"Ana"}))


def _moonshine_or_skip():
    from tabletop.speech.recognisers.moonshine import moonshine_status, shared_listener

    status = moonshine_status()
    if not status["ok"]:
        pytest.skip(f"Moonshine is not installed here: {status['problem']}")
    return shared_listener()


def _hear(listener, said: str, voice: str, speed: int, seed: int, context: Context):
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

    r = PocketSphinxRecogniser(PLAYERS)
    r.second = listener
    r.warm_up(context)
    heard = r.hear(synth.realistic(said, voice=voice, speed=speed, seed=seed), context)
    return heard, r.last_trace


# En-us+f5's "Ana asks Ben for fives" at 190 words a minute (clean pairs game seed 4113, utterance 25):
# both decoders read it right, and it was checked ("Ben, fives?") only for being a five.
ASK_OF_FIVES = ("Ana asks Ben for fives", "en-us+f5", 190, 4113 * 1000 + 25)


def test_an_ask_of_fives_moonshine_hears_too_is_acted_on(espeak: None) -> None:
    heard, trace = _hear(_moonshine_or_skip(), *ASK_OF_FIVES, ANA_ASKS)
    assert trace["rank_checked"] == "9", trace  # checked only for being a five
    # Moonshine hears the rank word alone ("Or five."; the whole sentence was "Unasked men for fives.")
    assert "five" in trace["second"].lower() and trace["second_agrees"] == "5" and "second_span" in trace, trace
    u = understand(heard, ANA_ASKS)
    assert u.act and u.intent.rank is Rank.FIVE and u.intent.target == "Ben", (heard, trace)
    assert heard.agreed == (("rank", "5"),)
    assert heard.confidence >= ACT and trace["second_ms"] > 0


def test_a_book_of_fives_read_nines_stays_checked(espeak: None) -> None:
    # En+f3's "Ana has a book of fives" (clean game seed 4111, utterance 1) is read as nines by both
    # decoders, no five among the open decoder's readings; Moonshine hears "confines": no opinion.
    heard, trace = _hear(_moonshine_or_skip(), "Ana has a book of fives", "en+f3", 155, 4111 * 1000 + 1, ANA_ASKS)
    u = understand(heard, ANA_ASKS)
    assert not (u.act and getattr(u.intent, "rank", None) is Rank.NINE), (heard, trace)
    if getattr(u.intent, "rank", None) is Rank.NINE:
        assert trace["rank_checked"] == "5" and "second_agrees" not in trace, trace
        assert heard.agreed == ()


@pytest.mark.parametrize("words, acts", [("Fives.", True), ("Arner asks men for five.", True),
                                         ("Nine.", False), ("Five or nine.", False), ("", False),
                                         ("Unasked men for files.", False)])
def test_only_the_same_rank_alone_lifts_the_check(espeak: None, words: str, acts: bool) -> None:
    from tabletop.speech.recognisers.pocketsphinx import UNSURE_CAP

    heard, trace = _hear(Says(words), *ASK_OF_FIVES, ANA_ASKS)
    assert trace["rank_checked"] == "9" and trace["second"] == words, trace
    u = understand(heard, ANA_ASKS)
    assert u.intent.rank is Rank.FIVE
    assert u.act is acts, (heard, trace)
    if acts:
        assert heard.agreed == (("rank", "5"),) and trace["first_reading"][1] <= UNSURE_CAP
    else:
        assert heard.confidence <= UNSURE_CAP and heard.agreed == ()
        assert trace.get("second_differs") == ("9" if "ine" in words else None)


def test_a_rank_not_checked_is_not_second_guessed(espeak: None) -> None:
    says = Says("Sevens.")
    heard, trace = _hear(says, "Ben, do you have any sevens", "en-us", 150, 6, ANA_ASKS)
    assert says.calls == 0 and "rank_checked" not in trace, trace


def test_a_partner_in_the_open_readings_keeps_the_check_without_asking_moonshine(espeak: None) -> None:
    # En-us+f1's "Ana, do you have any fives?": a nine among the open decoder's readings (the
    # rule that needs no second opinion to check it).
    says = Says("Fives.")
    heard, trace = _hear(says, "Ana, do you have any fives?", "en-us+f1", 155, 1, BEN_ASKS)
    assert trace.get("confusable_heard") == "9" and "rank_checked" not in trace, trace
    assert says.calls == 0 and not understand(heard, BEN_ASKS).act
