"""Undo, corrections and queries (PRODUCT.md section 1, rows "corrections" and "queries").

"undo" takes back the last accepted sentence and all it caused (the draw, the turn passing);
again goes further back, restoring the exact public state. A correction replaces a slot of the
last sentence. Queries answer and change nothing.
"""

from __future__ import annotations

import pytest

from refscript import R, Answer, Ask, Book, GoFish, Lucky, hands, hit, miss, pub, say, stock, table, turn
from tabletop.referee.intents import Correct, HandCount, Query, Undo


def script():
    """Eleven sentences of a 3-player game, with the public state before each."""
    return [
        Ask(target="Ben", rank=R.SEVEN), Answer(2),          # Ana 9, Ben 5
        Ask(target="Cho", rank=R.EIGHT), GoFish(),           # Ana 10, stock 30
        Lucky(),                                             # Ana again
        Book(R.SEVEN),                                       # not proven, fine: Ana 6
        Ask(target="Cho", rank=R.TWO), GoFish(),             # Ana 7, stock 29 -> Ben
        Ask(target="Cho", rank=R.KING), Answer(1),           # Ben 6, Cho 6
        Book(R.NINE, player="Cho"),                          # Cho 2
    ]


def test_undo_step_by_step_restores_the_exact_public_state():
    ref = table()
    before = []
    for intent in script():
        before.append((pub(ref), ref.game.state.public(), len(ref.game.history)))
        say(ref, intent)
    for public, raw, steps in reversed(before):
        r = say(ref, Undo())
        assert r.text.startswith("Took back: ")
        assert pub(ref) == public
        assert ref.game.state.public() == raw or ref.game.history[-1:] and not ref.game.history[-1].said
        assert len(ref.game.history) <= steps + 1
    assert ref.game.history == [] and pub(ref) == table().game.public()
    assert ref.handle(Undo()).code == "nothing-to-undo"


def test_undo_takes_back_the_draw_and_the_turn():
    ref = table()
    miss(ref, "Ben", R.SEVEN)
    assert turn(ref) == "Ben" and stock(ref) == 30
    r = say(ref, Undo())
    assert r.text == "Took back: Ben's go fish, and Ana's draw."
    assert stock(ref) == 31 and hands(ref)["Ana"] == 7
    say(ref, Answer(2))                   # the ask is open again
    assert hands(ref) == {"Ana": 9, "Ben": 5, "Cho": 7}


def test_undo_says_what_it_took_back_in_words():
    """Issue 12 item 7: "Took back: yes, two." repeated the raw answer; it says who gave whom what."""
    ref = table()
    hit(ref, "Ben", R.SEVEN, 2)
    assert say(ref, Undo()).text == "Took back: Ben gives Ana two sevens."
    say(ref, Answer(None))
    assert say(ref, Undo()).text == "Took back: Ben's yes to Ana's sevens."
    say(ref, GoFish(), Lucky())
    assert say(ref, Undo()).text == "Took back: Ana's lucky fish."
    ref = table()
    hit(ref, "Ben", R.SEVEN, 2)
    assert say(ref, Correct(count=3)).text == "Corrected: Ben gives Ana three sevens."


def test_undo_after_the_turn_passed_takes_back_the_ask_and_the_passing():
    ref = table()
    miss(ref, "Ben", R.SEVEN)
    say(ref, Ask(target="Cho", rank=R.TWO))   # Ben's ask settles Ana's exchange first
    r = say(ref, Undo())
    assert r.text == "Took back: Ben asks Cho for twos."
    assert turn(ref) == "Ben"
    say(ref, Undo())                          # then the go fish, with its draw
    assert stock(ref) == 31 and ref.game.state.phase.value == "answer"


def test_undo_restores_knowledge():
    ref = table()
    miss(ref, "Ben", R.SEVEN)                 # Ben said no sevens
    say(ref, Undo(), GoFish())                # same again
    r = ref.handle(Ask(target="Ana", rank=R.SEVEN))
    assert r.code == "question"
    ref = table()
    miss(ref, "Ben", R.SEVEN)
    say(ref, Undo(), Undo())                  # the go fish and the ask: Ben said nothing
    miss(ref, "Cho", R.TWO)                   # Ben's turn
    assert ref.handle(Ask(target="Ana", rank=R.SEVEN)).code == "ok"


def test_correct_the_rank_right_after_the_ask():
    ref = table()
    say(ref, Ask(target="Ben", rank=R.SEVEN))
    before = pub(ref)
    r = say(ref, Correct(rank=R.SIX))         # "no, I said sixes"
    assert r.text == "Corrected: Ana asks Ben for sixes."
    assert [str(s.action) for s in ref.game.history] == ["ask Ana Ben 6"]
    assert pub(ref) == before
    say(ref, Answer(2))
    assert hands(ref) == {"Ana": 9, "Ben": 5, "Cho": 7}
    assert ref.handle(Query("last", player="Ana")).say[-1] == "Ana last asked Ben for sixes."


def test_correct_the_rank_after_the_answer():
    ref = table(again_on_hit=False)
    hit(ref, "Ben", R.SEVEN, 2)
    say(ref, Correct(rank=R.SIX))             # the ask was for sixes; the answer stands
    assert [str(s.action) for s in ref.game.history] == ["ask Ana Ben 6", "answer 2"]
    assert hands(ref) == {"Ana": 9, "Ben": 5, "Cho": 7} and turn(ref) == "Ben"
    # knowledge follows the correction: Ana received two sixes (not sevens)
    miss(ref, "Cho", R.TWO)                   # Ben's go; Cho's turn
    say(ref, Ask(target="Ana", rank=R.SIX))
    r = ref.handle(GoFish())
    assert r.code == "question" and "you received two sixes from Ben" in r.text


def test_correct_the_count_and_the_target():
    ref = table()
    hit(ref, "Ben", R.SEVEN, 2)
    say(ref, Correct(count=3))                # "no, three"
    assert hands(ref) == {"Ana": 10, "Ben": 4, "Cho": 7}
    ref = table()
    say(ref, Ask(target="Ben", rank=R.SEVEN), Correct(target="Cho"), Answer(1))
    assert hands(ref) == {"Ana": 8, "Ben": 7, "Cho": 6}


def test_correct_that_the_rules_refuse_changes_nothing():
    ref = table()
    say(ref, Book(R.NINE, player="Cho"))
    say(ref, Ask(target="Ben", rank=R.SEVEN))
    before, steps = pub(ref), len(ref.game.history)
    r = ref.handle(Correct(rank=R.NINE))      # nines are booked
    assert r.refused and pub(ref) == before and len(ref.game.history) == steps
    assert [str(s.action) for s in ref.game.history][-1] == "ask Ana Ben 7"


def test_nothing_to_correct():
    assert table().handle(Correct(rank=R.SIX)).code == "nothing-to-correct"


def test_hand_count_that_matches_is_an_answer():
    ref = table()
    before, steps = pub(ref), len(ref.game.history)
    r = ref.handle(HandCount("Ben", 7))
    assert r.code == "answer" and pub(ref) == before and len(ref.game.history) == steps


def test_hand_count_correction_moves_cards_from_the_stock():
    ref = table()
    hit(ref, "Ben", R.SEVEN, 2)
    say(ref, HandCount("Ben", 6))             # "Ben has six cards": one more than the record
    assert hands(ref)["Ben"] == 6 and stock(ref) == 30
    assert ref.handle(HandCount("Ben", 40)).code == "stock-short"


@pytest.mark.parametrize("what,player", [("score", None), ("turn", None), ("stock", None), ("hand", "Ben"),
                                         ("hand", None), ("last", None), ("last", "Ana"), ("books", None),
                                         ("repeat", None), ("help", None)])
@pytest.mark.parametrize("moment", ["start", "open-hit", "open-miss", "settled", "pending-ask", "over"])
def test_queries_change_nothing(what, player, moment):
    ref = table(("Ana", "Ben"), empty_hand="sit-out")
    if moment == "open-hit":
        hit(ref, "Ben", R.SEVEN, 2)
    elif moment == "open-miss":
        miss(ref, "Ben", R.SEVEN)
    elif moment == "settled":
        miss(ref, "Ben", R.SEVEN)
        ref.settle()
    elif moment == "pending-ask":
        say(ref, Ask(target="Ben", rank=R.SEVEN))
    elif moment == "over":
        say(ref, Book(R.NINE), HandCount("Ben", 1))
        hit(ref, "Ben", R.SEVEN, 1)
    before, raw = pub(ref), ref.game.state.public()
    r = ref.handle(Query(what, player=player))
    assert r.code == "answer" and r.say and not r.refused
    assert pub(ref) == before
    if not ref.game.needs_settle() and moment in ("start", "settled", "pending-ask"):
        assert ref.game.state.public() == raw


def test_query_answers():
    ref = table()
    hit(ref, "Ben", R.SEVEN, 2)
    say(ref, Book(R.NINE, player="Cho"))
    assert ref.settle().say == ["Ana, ask again."]
    assert ref.handle(Query("stock")).text == "Thirty-one cards left in the stock."
    assert ref.handle(Query("hand", player="Ben")).text == "Ben has five cards."
    assert ref.handle(Query("turn")).text == "It's Ana's turn."
    assert ref.handle(Query("score")).text == "Score: Ana no books, Ben no books, Cho one book."
    assert ref.handle(Query("books")).text == "Down: Cho: nines."
    assert ref.handle(Query("last")).text == "Ana asked Ben for sevens."
    assert ref.handle(Query("last", player="Ben")).text == "Ben hasn't asked for anything yet."
    said = ref.handle(Query("stock")).text
    assert ref.handle(Query("repeat")).text == said
    r = ref.handle(Query("hand", player="Zed"))
    assert r.refused


def test_refused_query_changes_nothing_bug():
    """B3 (fixed): the query settled the open exchange before refusing."""
    ref = table()
    miss(ref, "Ben", R.ACE)
    steps = len(ref.game.history)
    r = ref.handle(Query("hand", player="Dev"))   # Dev isn't playing
    assert r.code == "unknown-player" and r.refused
    assert r.say == ["Dev isn't playing."] and not r.changed
    assert len(ref.game.history) == steps


def test_correct_a_book_and_a_hand_count():
    ref = table()
    say(ref, Book(R.SEVEN))                   # credited to Ana
    say(ref, Correct(player="Ben"))           # "no, Ben has the book"
    say(ref, Correct(rank=R.SIX))             # "no, sixes"
    p = pub(ref)
    assert p["books"] == {"Ana": [], "Ben": ["6"], "Cho": []} and p["hands"] == {"Ana": 7, "Ben": 3, "Cho": 7}
    say(ref, HandCount("Cho", 5), Correct(count=6))
    assert hands(ref)["Cho"] == 6 and stock(ref) == 32


def test_corrections_the_rules_refuse():
    ref = table()
    say(ref, Ask(target="Ben", rank=R.TWO))
    for correction, code in ((Correct(target="Ana"), "ask-self"), (Correct(target="Zed"), "unknown-player")):
        before, steps = pub(ref), [str(s.action) for s in ref.game.history]
        r = ref.handle(correction)
        assert r.code == code and r.text.startswith("Can't correct that: ")
        assert pub(ref) == before and [str(s.action) for s in ref.game.history] == steps
    say(ref, Answer(1), Correct(count=3), Correct(rank=R.SEVEN))
    assert [str(s.action) for s in ref.game.history] == ["ask Ana Ben 7", "answer 3"]
    assert hands(ref) == {"Ana": 10, "Ben": 4, "Cho": 7}
