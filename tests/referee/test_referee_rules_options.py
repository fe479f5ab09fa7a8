"""Scripted games, one or more per value of every rule key (PRODUCT.md section 2).

The referee never sees a card, so each script is the sentences of a game, and the comments work
out by hand what the table must look like. "Ben has N cards" (HandCount) sets up hands and the
stock before the first ask: the difference comes from or goes back to the stock.

Players are Ana, Ben, Cho (7 cards each, stock 31) unless a test says otherwise.
"""

from __future__ import annotations

import pytest

from refscript import R, Answer, Ask, Book, GoFish, Lucky, accounted, hands, hit, miss, pub, say, stock, table, turn
from tabletop.referee.intents import HandCount

TWO = ("Ana", "Ben")
FOUR = ("Ana", "Ben", "Cho", "Dev")


# ---- deal ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "deal,players,size",
    [("7-then-5", TWO, 7), ("7-then-5", FOUR, 5), ("7", FOUR, 7), ("7-for-two", TWO, 7),
     ("7-for-two", ("Ana", "Ben", "Cho"), 5)],
)
def test_deal(deal, players, size):
    ref = table(players, deal=deal)
    p = pub(ref)
    assert p["hands"] == {name: size for name in players}
    assert p["stock"] == 52 - size * len(players)
    assert p["current"] == "Ana" and p["books"] == {name: [] for name in players} and not p["over"]
    assert ref.last_said == f"Deal {dict([(5, 'five'), (7, 'seven')])[size]} cards each. Ana goes first."


def test_deal_size_is_the_new_hand_size():
    # 4 players, 7-then-5: a new hand is 5 cards. Ben gives away his last 2 sevens: 5 new cards.
    ref = table(FOUR)
    say(ref, HandCount("Ben", 2))                    # stock 32 + 3 = 35
    hit(ref, "Ben", R.SEVEN, 2)                      # Ana 7, Ben 0 -> new hand of 5, stock 30
    assert hands(ref) == {"Ana": 7, "Ben": 5, "Cho": 5, "Dev": 5} and stock(ref) == 30


# ---- asking ----------------------------------------------------------------------------------


def test_hold_rank_questions_an_ask_for_a_rank_said_none():
    ref = table(TWO)
    miss(ref, "Ben", R.SEVEN)                        # Ben has no sevens; Ana draws; Ben's turn
    r = ref.handle(Ask(target="Ana", rank=R.SEVEN))  # Ben asks for a rank he said he hadn't
    assert r.code == "question" and "you said you had no sevens" in r.text


def test_any_rank_allows_a_rank_said_none_and_proves_nothing():
    ref = table(TWO, asking="any-rank")
    miss(ref, "Ben", R.SEVEN)
    say(ref, Ask(target="Ana", rank=R.SEVEN), Answer(2))  # no question under any-rank
    assert hands(ref) == {"Ana": 6, "Ben": 9}
    # asked + three received is no proof of a book under any-rank (no "lay it down")
    ref = table(TWO, asking="any-rank")
    r = hit(ref, "Ben", R.SEVEN, 3)
    assert "lay it down" not in r.text


def test_specific_card():
    from tabletop.cards import Card, Suit

    king_clubs = Card(R.KING, Suit.CLUBS)
    ref = table(TWO, asking="specific-card")
    assert ref.handle(Ask(target="Ben", rank=R.KING)).code == "need-card"
    assert ref.handle(Ask(target="Ben", rank=R.QUEEN, card=king_clubs)).code == "bad-card"
    say(ref, Ask(target="Ben", rank=R.KING, card=king_clubs))
    assert ref.handle(Answer(2)).code == "one-card"         # one card was asked for
    say(ref, Answer())                                        # "here you go": that one card
    assert hands(ref) == {"Ana": 8, "Ben": 6} and turn(ref) == "Ana"
    # a go fish to the king of hearts says nothing about Ben's other kings: no question after it
    say(ref, Ask(target="Ben", rank=R.KING, card=Card(R.KING, Suit.HEARTS)), GoFish())
    assert hands(ref) == {"Ana": 9, "Ben": 6} and turn(ref) == "Ben" and stock(ref) == 37
    say(ref, Ask(target="Ana", rank=R.KING, card=Card(R.KING, Suit.SPADES)))
    assert ref.handle(GoFish()).code == "ok"  # Ana holds kings but maybe not the spade: no question


def test_asking_rank_not_card_under_hold_rank():
    from tabletop.cards import Card, Suit

    ref = table(TWO)
    r = ref.handle(Ask(target="Ben", rank=R.KING, card=Card(R.KING, Suit.CLUBS)))
    # the referee drops a card said under rank rules: the ask is for kings
    assert r.code == "ok" and "kings" in r.text


# ---- again_on_hit ------------------------------------------------------------------------------


@pytest.mark.parametrize("again,after", [(True, "Ana"), (False, "Ben")])
def test_again_on_hit(again, after):
    ref = table(again_on_hit=again)
    hit(ref, "Cho", R.SEVEN, 2)          # Ana 9, Cho 5
    assert turn(ref) == after
    assert hands(ref) == {"Ana": 9, "Ben": 7, "Cho": 5} and stock(ref) == 31


# ---- again_on_lucky ----------------------------------------------------------------------------


@pytest.mark.parametrize("again,after", [(True, "Ana"), (False, "Ben")])
def test_again_on_lucky(again, after):
    ref = table(again_on_lucky=again)
    miss(ref, "Cho", R.SEVEN)            # Ana draws: 8, stock 30
    assert turn(ref) == "Ben"            # before the call, the turn would pass
    say(ref, Lucky())
    assert turn(ref) == after
    assert hands(ref) == {"Ana": 8, "Ben": 7, "Cho": 7} and stock(ref) == 30


def test_lucky_fish_with_a_rank_must_be_the_rank_asked():
    ref = table()
    miss(ref, "Cho", R.SEVEN)
    assert ref.handle(Lucky(rank=R.EIGHT)).code == "not-lucky"
    say(ref, Lucky(rank=R.SEVEN))
    assert ref.handle(Lucky()).code == "lucky-twice"


def test_lucky_fish_needs_a_draw():
    ref = table(TWO)
    say(ref, HandCount("Ana", 45))       # stock 0
    miss(ref, "Ben", R.SEVEN)            # nothing to draw
    assert ref.handle(Lucky()).code == "no-draw"
    assert turn(ref) == "Ben"


# ---- again_on_draw_book ------------------------------------------------------------------------


@pytest.mark.parametrize("again,after", [(False, "Ben"), (True, "Ana")])
def test_again_on_draw_book(again, after):
    ref = table(again_on_draw_book=again)
    miss(ref, "Cho", R.SEVEN)            # Ana draws the fourth nine: 8 cards
    say(ref, Book(R.NINE))               # Ana lays down nines: 4 cards
    p = pub(ref)
    assert p["current"] == after and p["books"]["Ana"] == ["9"] and p["hands"]["Ana"] == 4
    assert accounted(ref) == 52


def test_draw_book_needs_a_draw():
    ref = table(again_on_draw_book=True, again_on_lucky=False)
    say(ref, HandCount("Ana", 38))       # stock 0
    miss(ref, "Cho", R.SEVEN)            # no draw
    say(ref, Book(R.NINE))               # a book, but not made by a drawn card
    assert turn(ref) == "Ben"


def test_lucky_book_under_draw_book_only():
    ref = table(again_on_draw_book=True, again_on_lucky=False)
    miss(ref, "Cho", R.SEVEN)
    say(ref, Lucky())
    assert turn(ref) == "Ben"            # lucky alone doesn't keep the turn here
    say(ref, Book(R.SEVEN))              # the lucky seven made the book
    assert turn(ref) == "Ana"


def test_book_after_a_hit_is_no_draw_book():
    ref = table(again_on_draw_book=True, again_on_hit=False)
    hit(ref, "Cho", R.SEVEN, 3)
    say(ref, Book(R.SEVEN))
    assert turn(ref) == "Ben"


# ---- next_after_miss ---------------------------------------------------------------------------


@pytest.mark.parametrize("rule,after", [("left", "Ben"), ("asked", "Cho"), ("asked-when-stock-empty", "Ben")])
def test_next_after_miss(rule, after):
    ref = table(next_after_miss=rule)
    miss(ref, "Cho", R.SEVEN)
    assert turn(ref) == after


@pytest.mark.parametrize("rule", ["asked", "asked-when-stock-empty"])
def test_next_after_miss_with_the_stock_empty(rule):
    ref = table(next_after_miss=rule)
    say(ref, HandCount("Ana", 38))       # stock 0
    r = miss(ref, "Cho", R.SEVEN)
    assert "nothing to draw" in r.text
    assert turn(ref) == "Cho" and stock(ref) == 0 and hands(ref)["Ana"] == 38


def test_asked_when_stock_empty_counts_the_stock_after_the_draw():
    # Reading: the turn passes after the draw; drawing the last card empties the stock, so the
    # turn goes to the player who said go fish.
    ref = table(next_after_miss="asked-when-stock-empty")
    say(ref, HandCount("Ana", 37))       # stock 1
    miss(ref, "Cho", R.SEVEN)            # Ana draws the last card
    assert stock(ref) == 0 and turn(ref) == "Cho"


def test_next_after_miss_does_not_apply_to_a_hit():
    ref = table(next_after_miss="asked", again_on_hit=False)
    hit(ref, "Cho", R.SEVEN, 1)
    assert turn(ref) == "Ben"


def test_next_after_miss_asked_skips_nobody_but_the_rules():
    # asked, then the lucky fish keeps the turn anyway
    ref = table(next_after_miss="asked")
    miss(ref, "Cho", R.SEVEN)
    say(ref, Lucky())
    assert turn(ref) == "Ana"


# ---- empty_hand --------------------------------------------------------------------------------


def test_new_hand():
    ref = table()
    say(ref, HandCount("Ben", 2))        # stock 36
    hit(ref, "Ben", R.SEVEN, 2)          # Ben 0: a new hand of 7, stock 29
    assert pub(ref)["hands"] == {"Ana": 9, "Ben": 7, "Cho": 7}
    assert stock(ref) == 29 and turn(ref) == "Ana" and pub(ref)["out"] == []
    r = ref.settle()
    assert "Ben, draw a new hand of seven cards." in r.say


def test_new_hand_short_stock():
    ref = table()
    say(ref, HandCount("Ben", 2), HandCount("Cho", 40))  # stock 36, then 3
    hit(ref, "Ben", R.SEVEN, 2)          # Ben draws what is left: 3
    assert hands(ref) == {"Ana": 9, "Ben": 3, "Cho": 40} and stock(ref) == 0


def test_new_hand_empty_stock_sits_out():
    ref = table()
    say(ref, HandCount("Ben", 2), HandCount("Cho", 43))  # stock 0
    hit(ref, "Ben", R.SEVEN, 2)
    p = pub(ref)
    assert p["out"] == ["Ben"] and p["hands"]["Ben"] == 0 and p["current"] == "Ana" and not p["over"]
    assert ref.handle(Ask(target="Ben", rank=R.SEVEN)).code == "target-out"


def test_draw_one_at_the_start_of_the_turn():
    ref = table(empty_hand="draw-one")
    say(ref, HandCount("Ben", 2))        # stock 36
    hit(ref, "Ben", R.SEVEN, 2)          # Ben 0; Ana asks again
    p = pub(ref)
    assert p["hands"] == {"Ana": 9, "Ben": 0, "Cho": 7} and p["out"] == [] and p["current"] == "Ana"
    assert ref.handle(Ask(target="Ben", rank=R.SEVEN)).code == "target-empty"
    miss(ref, "Cho", R.SEVEN)            # Ana draws (35); Ben's turn: he draws one (34)
    assert pub(ref)["hands"] == {"Ana": 10, "Ben": 1, "Cho": 7}
    assert stock(ref) == 34 and turn(ref) == "Ben"


def test_draw_one_when_the_turn_passes_straight_to_them():
    ref = table(empty_hand="draw-one", again_on_hit=False)
    say(ref, HandCount("Ben", 2))        # stock 36
    hit(ref, "Ben", R.SEVEN, 2)          # Ben 0; his turn next: he draws one
    assert hands(ref) == {"Ana": 9, "Ben": 1, "Cho": 7} and stock(ref) == 35 and turn(ref) == "Ben"


def test_draw_one_with_the_stock_empty_sits_out():
    ref = table(empty_hand="draw-one")
    say(ref, HandCount("Ben", 2), HandCount("Cho", 43))  # stock 0
    hit(ref, "Ben", R.SEVEN, 2)
    assert pub(ref)["out"] == ["Ben"]


def test_sit_out():
    ref = table(empty_hand="sit-out")
    say(ref, Book(R.NINE, player="Ben"))  # a book in the deal: Ben 3
    hit(ref, "Ben", R.SEVEN, 3)           # Ben 0: sits out for the rest of the game
    p = pub(ref)
    assert p["out"] == ["Ben"] and p["hands"] == {"Ana": 10, "Ben": 0, "Cho": 7} and p["stock"] == 31
    assert p["books"]["Ben"] == ["9"]     # his book still counts
    miss(ref, "Cho", R.TWO)               # Ana draws; the turn skips Ben
    assert turn(ref) == "Cho"
    assert ref.handle(Ask(target="Ben", rank=R.SEVEN)).code == "target-out"


def test_sit_out_asker_who_books_their_last_cards():
    ref = table(empty_hand="sit-out")
    say(ref, HandCount("Ana", 1))         # stock 37
    hit(ref, "Ben", R.SEVEN, 3)           # Ana 4 sevens
    say(ref, Book(R.SEVEN))               # Ana 0: sits out, the turn goes on to Ben
    p = pub(ref)
    assert p["out"] == ["Ana"] and p["current"] == "Ben" and p["books"]["Ana"] == ["7"]


# ---- game_end ----------------------------------------------------------------------------------


def test_all_books_ends_when_fewer_than_two_can_play():
    ref = table(TWO, empty_hand="sit-out")
    say(ref, Book(R.NINE))                # Ana's deal book: Ana 3
    say(ref, HandCount("Ben", 3))         # stock 38 + 4 = 42
    hit(ref, "Ben", R.SEVEN, 3)           # Ana 6, Ben 0: sits out; only Ana is left
    p = pub(ref)
    assert p["over"] and p["winners"] == ["Ana"] and p["current"] is None
    assert ref.handle(Ask(target="Ben", rank=R.TWO)).code == "game-over"


def test_all_books_ends_when_every_rank_is_booked():
    ref = table(TWO)
    say(ref, HandCount("Ana", 45))        # stock 0: Ana 45, Ben 7
    ranks = [R.ACE, R.TWO, R.THREE, R.FOUR, R.FIVE, R.SIX, R.SEVEN, R.EIGHT, R.NINE, R.TEN, R.JACK]
    for rank in ranks:
        say(ref, Book(rank))              # Ana: 11 books, 1 card (a king)
    say(ref, Book(R.QUEEN, player="Ben"))  # Ben: 1 book, 3 kings
    assert not pub(ref)["over"]
    hit(ref, "Ben", R.KING, 3)            # Ana 4 kings, Ben 0: sits out (stock empty) -> over
    # (one player left: over already, with the kings still in Ana's hand)
    assert pub(ref)["over"]
    say(ref, Book(R.KING))                # the book call still belongs to the exchange
    p = pub(ref)
    assert p["over"] and p["winners"] == ["Ana"] and p["books"]["Ana"][-1] == "K"
    assert sum(map(len, p["books"].values())) == 13 and accounted(ref) == 52


def test_all_books_with_every_rank_booked_and_players_left():
    ref = table()                         # 3 players
    say(ref, HandCount("Cho", 4), HandCount("Ana", 41))  # stock 0; Ana 41, Ben 7, Cho 4
    for rank in [R.ACE, R.TWO, R.THREE, R.FOUR, R.FIVE, R.SIX, R.SEVEN, R.EIGHT, R.NINE, R.TEN]:
        say(ref, Book(rank))              # Ana: 10 books, 1 card
    say(ref, Book(R.JACK, player="Ben"), Book(R.QUEEN, player="Cho"))  # Ben 3, Cho 0 -> sits out
    assert pub(ref)["out"] == ["Cho"] and not pub(ref)["over"]
    hit(ref, "Ben", R.KING, 3)
    say(ref, Book(R.KING))                # every rank is booked: over
    p = pub(ref)
    assert p["over"] and p["winners"] == ["Ana"]


def test_first_out_ends_when_the_stock_runs_out():
    ref = table(deal="7-for-two", game_end="first-out")  # 5 cards each, stock 37
    say(ref, Book(R.NINE))                # Ana's deal book: Ana 1
    say(ref, HandCount("Ana", 37))        # stock 1
    miss(ref, "Ben", R.SEVEN)             # Ana draws the last card
    p = pub(ref)
    assert p["over"] and p["winners"] == ["Ana"] and p["stock"] == 0


def test_first_out_ends_when_a_hand_runs_out_even_with_a_lucky_fish():
    ref = table(deal="7-for-two", game_end="first-out")
    say(ref, Book(R.NINE, player="Cho"))  # Cho 1 card
    hit(ref, "Cho", R.SEVEN, 1)           # Cho 0: the game is over at the end of the exchange
    assert not ref.game.state.over        # ... not before
    p = pub(ref)
    assert p["over"] and p["winners"] == ["Cho"] and p["hands"]["Cho"] == 0


def test_first_out_new_hand_is_not_dealt():
    ref = table(game_end="first-out")
    say(ref, HandCount("Ben", 2))
    hit(ref, "Ben", R.SEVEN, 2)
    p = pub(ref)
    assert p["over"] and p["hands"]["Ben"] == 0 and p["winners"] == ["Ana", "Ben", "Cho"]


# ---- ties --------------------------------------------------------------------------------------


@pytest.mark.parametrize("ties,words", [("shared", "share the win"), ("play-again", "play another hand")])
def test_ties(ties, words):
    ref = table(TWO, empty_hand="sit-out", ties=ties)
    say(ref, Book(R.NINE), Book(R.TEN, player="Ben"))  # one book each: Ana 3, Ben 3
    hit(ref, "Ben", R.SEVEN, 3)           # Ben sits out -> over, 1 book each
    r = ref.settle()
    p = pub(ref)
    assert p["over"] and p["winners"] == ["Ana", "Ben"]
    assert words in r.text, r.text


def test_no_tie_one_winner():
    ref = table(TWO, empty_hand="sit-out", ties="play-again")
    say(ref, Book(R.NINE), HandCount("Ben", 3))
    hit(ref, "Ben", R.SEVEN, 3)
    r = ref.settle()
    assert pub(ref)["winners"] == ["Ana"] and "Ana wins with one book" in r.text


# ---- book_size ---------------------------------------------------------------------------------


def test_pairs():
    ref = table(TWO, book_size=2)
    say(ref, Book(R.SEVEN))               # Ana lays down a pair: 5 cards
    say(ref, Book(R.SEVEN, player="Ben"))  # the other pair of sevens: Ben 5
    p = pub(ref)
    assert p["books"] == {"Ana": ["7"], "Ben": ["7"]} and p["hands"] == {"Ana": 5, "Ben": 5}
    assert accounted(ref) == 52 and p["stock"] == 38
    assert ref.handle(Book(R.SEVEN, player="Ben")).code == "rank-booked"
    assert ref.handle(Ask(target="Ben", rank=R.SEVEN)).code == "rank-booked"
    r = hit(ref, "Ben", R.EIGHT, 1)       # asked (1) + received 1: a pair, proven
    assert "that makes a pair of eights: lay it down" in r.text
    assert ref.handle(Answer(2)).code != "ok"


def test_pairs_at_most_three_of_a_rank_given():
    ref = table(TWO, book_size=2)
    say(ref, Ask(target="Ben", rank=R.FIVE))
    # Ana holds at least one five: Ben can give at most three
    assert ref.handle(Answer(4)).code == "bad-count"
    say(ref, Answer(3))
    assert hands(ref) == {"Ana": 10, "Ben": 4}


def test_books_of_four_count_limits():
    ref = table()
    say(ref, Ask(target="Ben", rank=R.FIVE))
    assert ref.handle(Answer(4)).code == "bad-count"   # Ana holds one: at most three
    assert ref.handle(Answer(0)).code != "ok"
    say(ref, Answer(3))


def test_pairs_game_ends_when_every_rank_has_two_pairs():
    ref = table(TWO, book_size=2)
    say(ref, HandCount("Ana", 45))        # stock 0
    ranks = [R.ACE, R.TWO, R.THREE, R.FOUR, R.FIVE, R.SIX, R.SEVEN, R.EIGHT, R.NINE, R.TEN, R.JACK]
    for rank in ranks:
        say(ref, Book(rank), Book(rank))  # Ana: 22 pairs, 1 card
    say(ref, Book(R.QUEEN, player="Ben"), Book(R.QUEEN, player="Ben"), Book(R.KING, player="Ben"))
    # Ben 1 card (a king), Ana 1 card (a king)
    assert pub(ref)["hands"] == {"Ana": 1, "Ben": 1} and not pub(ref)["over"]
    hit(ref, "Ben", R.KING, 1)            # Ana 2, Ben 0: sits out (stock empty): over
    say(ref, Book(R.KING))
    p = pub(ref)
    assert p["over"] and p["winners"] == ["Ana"] and len(p["books"]["Ana"]) == 23 and accounted(ref) == 52


# ---- first -------------------------------------------------------------------------------------


@pytest.mark.parametrize("first,name,left", [(0, "Ana", "Ben"), (1, "Ben", "Cho"), (2, "Cho", "Ana")])
def test_first_seat_plays_first_and_left_is_the_next_seat(first, name, left):
    ref = table(first=first)
    assert turn(ref) == name
    target = "Ana" if name != "Ana" else "Ben"
    miss(ref, target, R.SEVEN)
    assert turn(ref) == left
