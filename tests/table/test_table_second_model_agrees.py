"""A correction a second, independent model heard too (``Transcript.agreed``) is acted on at once.

The speech layer marks on the Transcript the slot values Moonshine heard in the same audio as
PocketSphinx's reading gives them (:meth:`PocketSphinxRecogniser._second_opinion`); the table reads
the mark, never the audio. A correction to a check ("Twos?" -> "no three") heard so is acted on;
PocketSphinx's two decoders agreeing alone still is not (a real FSDD "no, six" was read "nope four"
by both), nor a value a value in play is steadily heard as (tens while sixes are in play). So is a
rank said again after "Sorry, I didn't catch that. Ana, which rank?" that both models heard, unless it
is one of the ranks heard for one another (fives/nines, kings/queens, sixes/tens), and so is the
first hearing of a rank named alone at "Ana, which rank?" (PocketSphinx's decoders agreeing alone
still checks it there). Real audio heard by both models: tests/speech/test_speech_moonshine.py.
"""

from __future__ import annotations

from tabletop.language.transcript import Alternative, Transcript
from tabletop.rules import Rules
from tabletop.table import Table

PLAYERS = ("Ana", "Ben", "Cho")


def _checking(rank_word: str, alternatives: tuple[Alternative, ...] = ()) -> Table:
    table = Table.new(list(PLAYERS), Rules(), None)
    table.start()
    said = "ben do you have any jacks"
    table.hear(Transcript(said, 0.3, (Alternative(said, 0.3), Alternative("ben do you have any queens", 0.28)),
                          engine="pocketsphinx"))
    first = Transcript(rank_word, 0.95, (Alternative(rank_word, 0.95), *alternatives), engine="pocketsphinx")
    replies = table.hear(first)
    assert replies[-1].text.endswith("?") and table.pending is not None and table.pending.confirms == "rank"
    return table


def _heard(text: str, confidence: float, agreed=(), engine: str = "pocketsphinx") -> Transcript:
    return Transcript(text, confidence, (Alternative(text, confidence),), engine=engine, agreed=agreed)


def _acted(replies) -> dict | None:
    last = replies[-1].event
    return last.get("intent") if last.get("changed") else None


def test_a_correction_both_models_heard_is_acted_on() -> None:
    table = _checking("two")
    replies = table.hear(_heard("no three", 0.94, agreed=(("rank", "3"),)))
    assert _acted(replies) == {"type": "ask", "target": "Ben", "rank": "3"}, [r.event for r in replies]


def test_the_same_correction_without_the_second_model_is_checked() -> None:
    table = _checking("two")
    before = table.game.public()
    replies = table.hear(_heard("no three", 0.94))
    assert replies[-1].text == "Threes?" and table.game.public() == before, [r.event for r in replies]


def test_an_agreement_on_another_value_or_slot_acts_on_nothing() -> None:
    for agreed in ((("rank", "4"),), (("count", "3"),)):
        table = _checking("two")
        before = table.game.public()
        replies = table.hear(_heard("no three", 0.94, agreed=agreed))
        assert replies[-1].text == "Threes?" and table.game.public() == before, (agreed, [r.event for r in replies])


def test_an_unsure_reading_is_not_acted_on_even_if_agreed() -> None:
    table = _checking("two")
    before = table.game.public()
    replies = table.hear(_heard("no three", 0.45, agreed=(("rank", "3"),)))  # under ACT
    assert _acted(replies) is None and table.game.public() == before, [r.event for r in replies]


def test_tens_agreed_are_still_checked_while_sixes_are_in_play() -> None:
    table = _checking("three", (Alternative("tens", 0.47),))
    assert "6" in table.pending.choices
    before = table.game.public()
    replies = table.hear(_heard("no tens", 0.94, agreed=(("rank", "10"),)))
    assert replies[-1].text == "Tens?" and table.game.public() == before, [r.event for r in replies]


def test_the_value_checked_agreed_again_is_not_a_correction() -> None:
    table = _checking("two")
    before = table.game.public()
    replies = table.hear(_heard("no twos", 0.94, agreed=(("rank", "2"),)))
    assert _acted(replies) is None and table.game.public() == before, [r.event for r in replies]


def test_typed_text_carries_no_agreement() -> None:
    table = _checking("two")
    table.hear(_heard("no three", 1.0, agreed=(("rank", "3"),), engine="text"))  # typed: acted on as typed always was
    assert table._agreed == ()


# -- A rank named alone after "Sorry, I didn't catch that. Ana, which rank?" ----------------------------

def _sorry_which_rank() -> Table:
    table = Table.new(list(PLAYERS), Rules(), None)
    table.start()
    said = "ben do you have any jacks"
    table.hear(Transcript(said, 0.3, (Alternative(said, 0.3), Alternative("ben do you have any queens", 0.28)),
                          engine="pocketsphinx"))
    assert table.hear(_heard("", 0.0))[-1].text == "Sorry, I didn't catch that. Ana, which rank?"
    return table


def _rival(text: str, confidence: float, rival: str, agreed=()) -> Transcript:
    """A reading with another rank among the open decoder's readings (so not "said alone" by PocketSphinx)."""
    return Transcript(text, confidence, (Alternative(text, confidence), Alternative(rival, 0.4)), engine="pocketsphinx",
                      agreed=agreed)


def test_a_rank_both_models_heard_at_sorry_which_rank_is_acted_on() -> None:
    table = _sorry_which_rank()
    replies = table.hear(_rival("eight", 0.9, "ace", agreed=(("rank", "8"),)))
    assert _acted(replies) == {"type": "ask", "target": "Ben", "rank": "8"}, [r.event for r in replies]


def test_the_same_rank_without_the_second_model_is_checked() -> None:
    table = _sorry_which_rank()
    before = table.game.public()
    replies = table.hear(_rival("eight", 0.9, "ace"))
    assert replies[-1].text == "Eights?" and table.game.public() == before, [r.event for r in replies]


def _which_rank() -> Table:
    table = Table.new(list(PLAYERS), Rules(), None)
    table.start()
    said = "ben do you have any jacks"
    replies = table.hear(Transcript(said, 0.3, (Alternative(said, 0.3), Alternative("ben do you have any queens", 0.28)),
                                    engine="pocketsphinx"))
    assert replies[-1].text.endswith("which rank?") and table.pending.misses == 0, [r.event for r in replies]
    return table


def test_a_rank_both_models_heard_the_first_time_is_acted_on() -> None:
    """The rank named alone straight after "Ana, which rank?" (no "Sorry?" before it): acted on at
    once when Moonshine heard it too, whatever other rank PocketSphinx's readings held."""
    for transcript in (_heard("eight", 0.95, agreed=(("rank", "8"),)),
                       _rival("eight", 0.9, "ace", agreed=(("rank", "8"),))):
        table = _which_rank()
        replies = table.hear(transcript)
        assert _acted(replies) == {"type": "ask", "target": "Ben", "rank": "8"}, [r.event for r in replies]
        assert table.pending is None or table.pending.confirms != "rank"


def test_a_rank_the_first_time_without_the_second_model_is_checked() -> None:
    """Without Moonshine's word the first hearing is checked, even heard alike by both of
    PocketSphinx's decoders with no other rank in any reading (that acts only when said again)."""
    for transcript in (_heard("eight", 0.95), _rival("eight", 0.9, "ace"), _heard("eight", 0.95, agreed=(("rank", "3"),))):
        table = _which_rank()
        before = table.game.public()
        replies = table.hear(transcript)
        assert replies[-1].text == "Eights?" and table.game.public() == before, [r.event for r in replies]


def test_ranks_heard_for_one_another_are_checked_the_first_time_too() -> None:
    for word, rank in (("five", "5"), ("nine", "9"), ("king", "K"), ("queen", "Q"), ("six", "6"), ("ten", "10")):
        table = _which_rank()
        before = table.game.public()
        replies = table.hear(_heard(word, 0.95, agreed=(("rank", rank),)))
        assert replies[-1].text.endswith("?") and _acted(replies) is None and table.game.public() == before, \
            (word, [r.event for r in replies])


def test_ranks_heard_for_one_another_are_still_checked_when_both_models_agree() -> None:
    """Fives and nines (ranks_checked), kings and queens (ranks_heard_alike), sixes and tens
    (steadily_confused_ranks): no real evidence that the second model tells them apart."""
    for word, rank in (("five", "5"), ("nine", "9"), ("king", "K"), ("queen", "Q"), ("six", "6"), ("ten", "10")):
        table = _sorry_which_rank()
        before = table.game.public()
        replies = table.hear(_rival(word, 0.9, "ace", agreed=(("rank", rank),)))
        assert replies[-1].text.endswith("?") and _acted(replies) is None and table.game.public() == before, \
            (word, [r.event for r in replies])
