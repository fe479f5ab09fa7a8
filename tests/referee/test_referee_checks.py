"""PRODUCT.md section 4: refusals, questions (and their overrule with yes), the proof reminder.

A refused sentence and a question change nothing: the public state and the history stay as they
were. Players are Ana, Ben, Cho (7 cards each, stock 31) unless a test says otherwise.
"""

from __future__ import annotations

import pytest

from refscript import R, Answer, Ask, Book, GoFish, Lucky, hands, hit, miss, pub, say, stock, table, turn
from tabletop.errors import IllegalActionError
from tabletop.referee import Game
from tabletop.referee.actions import AskAction, HandAction
from tabletop.referee.intents import HandCount, No, OutOfCards, Query, Yes


def refused(ref, intent, code):
    before, steps = pub(ref), len(ref.game.history)
    r = ref.handle(intent)
    assert r.code == code, (intent, r.code, r.text)
    assert r.refused and r.say and not r.changed
    assert pub(ref) == before and len(ref.game.history) == steps
    return r


def questioned(ref, intent, words):
    before, steps = pub(ref), len(ref.game.history)
    r = ref.handle(intent)
    assert r.code == "question", (intent, r.code, r.text)
    assert words in r.text, r.text
    assert "Say yes to record it anyway." in r.text
    assert pub(ref) == before and len(ref.game.history) == steps
    return r


# ---- refusals ----------------------------------------------------------------------------------


def test_ask_out_of_turn():
    ref = table()
    r = refused(ref, Ask(target="Cho", rank=R.SEVEN, asker="Ben"), "out-of-turn")
    assert r.text == "It's Ana's turn."


def test_ask_yourself():
    refused(table(), Ask(target="Ana", rank=R.SEVEN), "ask-self")


def test_ask_a_player_who_sits_out():
    ref = table(empty_hand="sit-out")
    say(ref, HandCount("Ben", 1))
    hit(ref, "Ben", R.SEVEN, 1)
    refused(ref, Ask(target="Ben", rank=R.TWO), "target-out")


def test_ask_a_player_with_no_cards():
    ref = table(empty_hand="draw-one")
    say(ref, HandCount("Ben", 1))
    hit(ref, "Ben", R.SEVEN, 1)           # Ben 0, waits for his turn
    refused(ref, Ask(target="Ben", rank=R.TWO), "target-empty")


def test_ask_for_a_booked_rank():
    ref = table()
    say(ref, Book(R.NINE, player="Cho"))
    r = refused(ref, Ask(target="Ben", rank=R.NINE), "rank-booked")
    assert r.text == "Nines are already booked."
    refused(ref, Book(R.NINE, player="Ben"), "rank-booked")


def test_ask_by_a_player_with_no_cards():
    # Through the referee the settle gives the empty player a new hand first; the game itself refuses.
    game = Game(["Ana", "Ben", "Cho"])
    game.push(HandAction("Ana", 0))
    with pytest.raises(IllegalActionError) as caught:
        game.check(AskAction("Ana", "Ben", R.SEVEN))
    assert caught.value.code == "asker-empty"


def test_ask_by_an_unknown_player_or_of_one():
    ref = table()
    refused(ref, Ask(target="Zed", rank=R.SEVEN), "unknown-player")
    refused(ref, Ask(target="Ben", rank=R.SEVEN, asker="Zed"), "unknown-player")


@pytest.mark.parametrize("intent,code", [(Answer(2), "no-ask"), (GoFish(), "no-ask"), (Answer(None), "no-ask"),
                                         (Lucky(), "no-miss"), (Yes(), "nothing-to-confirm"),
                                         (No(), "nothing-to-confirm")])
def test_answers_with_no_ask(intent, code):
    refused(table(), intent, code)


def test_answer_after_the_answer():
    ref = table()
    hit(ref, "Ben", R.SEVEN, 2)
    refused(ref, Answer(1), "no-ask")
    refused(ref, GoFish(), "no-ask")


def test_ask_while_an_ask_waits_for_its_answer():
    ref = table()
    say(ref, Ask(target="Ben", rank=R.SEVEN))
    refused(ref, Ask(target="Cho", rank=R.SEVEN), "answer-first")
    refused(ref, Book(R.SEVEN), "answer-first")


def test_how_many():
    ref = table()
    say(ref, Ask(target="Ben", rank=R.SEVEN))
    r = say(ref, Yes())                  # "yes" without a count
    assert r.say == ["How many?"] and hands(ref) == {"Ana": 7, "Ben": 7, "Cho": 7}
    refused(ref, Answer(None), "need-count")
    say(ref, Answer(2))
    assert hands(ref) == {"Ana": 9, "Ben": 5, "Cho": 7}


def test_no_is_a_go_fish_to_an_ask():
    ref = table()
    say(ref, Ask(target="Ben", rank=R.SEVEN), No())
    assert hands(ref)["Ana"] == 8 and stock(ref) == 30 and turn(ref) == "Ben"


def test_book_with_too_few_cards():
    ref = table()
    say(ref, HandCount("Ben", 3))
    refused(ref, Book(R.SEVEN, player="Ben"), "too-few-cards")


def test_everything_refused_once_the_game_is_over():
    ref = table(("Ana", "Ben"), empty_hand="sit-out")
    say(ref, HandCount("Ben", 1))
    hit(ref, "Ben", R.SEVEN, 1)
    ref.settle()
    assert pub(ref)["over"]
    for intent in (Ask(target="Ben", rank=R.TWO), Book(R.TWO), Answer(1), HandCount("Ana", 3)):
        refused(ref, intent, "game-over")


# ---- questions ---------------------------------------------------------------------------------


def test_go_fish_after_receiving_the_rank_and_yes():
    ref = table(again_on_hit=False)
    hit(ref, "Cho", R.SEVEN, 2)           # Ana received two sevens from Cho; Ben's turn
    say(ref, Ask(target="Ana", rank=R.SEVEN, asker="Ben"))
    questioned(ref, GoFish(), "Ana, you received two sevens from Cho. Please check your hand.")
    say(ref, Yes())                       # the table overrules: the go fish is recorded
    assert hands(ref) == {"Ana": 9, "Ben": 8, "Cho": 5} and stock(ref) == 30 and turn(ref) == "Cho"


def test_go_fish_question_then_the_real_answer():
    ref = table(again_on_hit=False)
    hit(ref, "Cho", R.SEVEN, 2)
    say(ref, Ask(target="Ana", rank=R.SEVEN))
    questioned(ref, GoFish(), "you received two sevens")
    say(ref, Answer(3))                   # anything but yes drops the question: Ana hands over three
    assert hands(ref) == {"Ana": 6, "Ben": 10, "Cho": 5}


def test_go_fish_question_then_no():
    ref = table(again_on_hit=False)
    hit(ref, "Cho", R.SEVEN, 2)
    say(ref, Ask(target="Ana", rank=R.SEVEN))
    questioned(ref, GoFish(), "you received two sevens")
    r = say(ref, No())
    assert "not recorded" in r.text.lower()
    assert hands(ref) == {"Ana": 9, "Ben": 7, "Cho": 5}
    say(ref, Answer(3))                   # the ask is still waiting for its answer


def test_asking_for_a_rank_said_none():
    ref = table()
    miss(ref, "Ben", R.SEVEN)             # Ana draws; Ben said he has no sevens; Ben's turn
    questioned(ref, Ask(target="Cho", rank=R.SEVEN), "Ben, you said you had no sevens.")
    say(ref, Yes())                       # overruled: the ask is recorded
    say(ref, GoFish())
    assert turn(ref) == "Cho"


def test_asking_for_a_rank_said_none_after_a_draw_is_fine():
    ref = table()
    miss(ref, "Ben", R.SEVEN)
    miss(ref, "Cho", R.TWO)               # Ben draws a card: it may be a seven
    say(ref, Ask(target="Ana", rank=R.SEVEN))
    assert turn(ref) == "Cho"


def test_book_claim_while_another_holds_the_rank():
    ref = table(again_on_hit=False)
    hit(ref, "Ben", R.SEVEN, 2)           # Ana holds at least three sevens; Ben's turn
    questioned(ref, Book(R.SEVEN, player="Cho"), "But Ana received two sevens from Ben.")
    say(ref, Yes())
    p = pub(ref)
    assert p["books"]["Cho"] == ["7"] and p["hands"]["Cho"] == 3


def test_hand_count_after_saying_out():
    ref = table(empty_hand="draw-one")
    say(ref, HandCount("Ben", 2))
    hit(ref, "Ben", R.SEVEN, 2)           # Ben 0 (waits for his turn)
    say(ref, OutOfCards(player="Ben"))
    questioned(ref, HandCount("Ben", 3), "I have Ben with no cards.")
    say(ref, Yes())
    assert hands(ref)["Ben"] == 3 and stock(ref) == 33


def test_out_of_cards_while_holding_cards_is_questioned():
    ref = table()
    questioned(ref, OutOfCards(player="Ben"), "I count seven cards for Ben. Please check.")
    say(ref, Yes())                       # his 7 cards go back to the stock; a new hand of 7
    assert hands(ref)["Ben"] == 7 and stock(ref) == 31


def test_out_of_cards_after_emptying_is_acknowledged_bug():
    """B1 (fixed): "I'm out of cards" right after the cards ran out was refilled first, then questioned."""
    ref = table(("Ana", "Ben"))
    say(ref, HandCount("Ben", 1))
    hit(ref, "Ben", R.SEVEN, 1)           # Ben 0
    r = ref.handle(OutOfCards())          # "I'm out of cards", truthfully
    assert r.code == "ok", r.text
    assert "Ben, draw a new hand of seven cards." in r.say
    assert hands(ref) == {"Ana": 8, "Ben": 7} and stock(ref) == 37


def test_question_answered_by_a_query_keeps_nothing():
    ref = table(again_on_hit=False)
    hit(ref, "Cho", R.SEVEN, 2)
    say(ref, Ask(target="Ana", rank=R.SEVEN))
    questioned(ref, GoFish(), "you received two sevens")
    assert ref.handle(Query("turn")).code == "answer"
    assert ref.question is None
    assert ref.handle(Yes()).code == "ok" and ref.game.state.phase.value == "count"  # a plain yes now


# ---- the proof reminder ------------------------------------------------------------------------


def test_lay_it_down_when_knowledge_proves_a_book():
    ref = table()
    r = hit(ref, "Ben", R.SEVEN, 3)       # asked (holds one) + three received = four sevens
    assert "Ana, that makes a book of sevens: lay it down." in r.say
    r = hit(ref, "Cho", R.EIGHT, 2)       # one + two: no proof
    assert "lay it down" not in r.text


def test_lay_it_down_after_a_lucky_fish():
    ref = table(again_on_hit=False)
    hit(ref, "Ben", R.SEVEN, 2)           # Ana holds at least three sevens
    miss(ref, "Ana", R.TWO, asker="Ben")
    miss(ref, "Ben", R.THREE, asker="Cho")
    miss(ref, "Ben", R.SEVEN)             # Ana asks for sevens again, draws one
    r = say(ref, Lucky())
    assert "Ana, that makes a book of sevens: lay it down." in r.say


# ---- who a book call belongs to ------------------------------------------------------------------


def test_book_call_in_the_exchange_goes_to_the_taker():
    ref = table(again_on_hit=False)
    hit(ref, "Ben", R.SEVEN, 3)
    say(ref, Book(R.SEVEN))               # still Ana's exchange: her book
    assert pub(ref)["books"]["Ana"] == ["7"] and turn(ref) == "Ben"


def test_deal_book_goes_to_the_current_player():
    ref = table(first=1)
    say(ref, Book(R.SEVEN))
    assert pub(ref)["books"]["Ben"] == ["7"]


def test_late_book_call_after_quiet_goes_to_the_taker_silent_bug():
    """B4 (fixed): it went to the current player, Ben, without a word."""
    ref = table()
    miss(ref, "Ben", R.SEVEN)             # Ana draws the fourth nine
    assert ref.settle().say == ["Ben's turn."]
    say(ref, Book(R.NINE))                # Ana, a little late: "book of nines"
    p = pub(ref)
    assert p["books"] == {"Ana": ["9"], "Ben": [], "Cho": []}
    assert p["hands"] == {"Ana": 4, "Ben": 7, "Cho": 7}


def test_late_book_call_after_quiet_goes_to_the_taker_reminded_bug():
    """B4 (fixed): it was questioned as Ben's."""
    ref = table(again_on_hit=False)
    r = hit(ref, "Ben", R.SEVEN, 3)
    assert "Ana, that makes a book of sevens: lay it down." in r.say
    ref.settle()                          # "Ben's turn."
    say(ref, Book(R.SEVEN))               # she lays it down, as told
    p = pub(ref)
    assert p["books"]["Ana"] == ["7"] and p["hands"] == {"Ana": 6, "Ben": 4, "Cho": 7}


def test_book_call_after_the_target_says_out_goes_to_the_taker_bug():
    """B5 (fixed): the target's "I'm out of cards" ended the exchange and the book went to Ben."""
    ref = table(again_on_hit=False)
    say(ref, HandCount("Ben", 3))
    hit(ref, "Ben", R.SEVEN, 3)           # Ben's last cards
    say(ref, OutOfCards())                # Ben: "I'm out of cards"
    say(ref, Book(R.SEVEN))               # Ana: "book of sevens"
    p = pub(ref)
    assert p["books"]["Ana"] == ["7"] and p["hands"]["Ana"] == 6 and p["hands"]["Ben"] == 7


def test_hand_count_after_sitting_out_is_a_question_bug():
    """B6 (fixed): it was refused ("Ben sits out."), so the table could not overrule."""
    ref = table(empty_hand="sit-out")
    say(ref, HandCount("Ben", 1))
    hit(ref, "Ben", R.SEVEN, 1)
    say(ref, OutOfCards(player="Ben"))    # Ben sits out
    r = ref.handle(HandCount("Ben", 3))   # "Ben has three cards": the table says he still has cards
    assert r.code == "question", r.text
    say(ref, Yes())
    p = pub(ref)
    assert p["hands"]["Ben"] == 3 and p["out"] == [] and p["stock"] == 34


def test_said_none_reason_after_handing_over_bug():
    """B7 (fixed): the reason said "you said you had no sevens"."""
    ref = table(again_on_hit=False)
    hit(ref, "Ben", R.SEVEN, 2)           # Ben hands over all his sevens
    r = ref.handle(Ask(target="Cho", rank=R.SEVEN))
    assert r.code == "question"
    assert "you said" not in r.text, r.text
