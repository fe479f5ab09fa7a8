"""Property tests: random, also illegal and nonsense, sequences of intents and of sentences.

After every step: no exception escapes ``Referee.handle``; hands + stock + book_size x books = 52;
no count is negative; no rank is booked more than 4 / book_size times; a refused intent or a
question changes nothing (``game.public()`` and the history); and undo right after an accepted
intent restores the public state exactly. 120 examples a property; ``TABLETOP_SOAK=1`` runs 1000.
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support import SOAK
from tabletop.cards import Card, Rank, Suit
from tabletop.referee import Game, Referee
from tabletop.referee.intents import (
    CONTROL_KINDS, QUERY_KINDS, Answer, Ask, Book, Control, Correct, GoFish, HandCount, Lucky, No, OutOfCards,
    Query, Undo, Yes,
)
from tabletop.rules import Rules

NAMES = ["Ana", "Ben", "Cho", "Dev"]
# B3 (/tmp/referee_bugs.md, fixed): a refused query settled the open exchange first.
KNOWN_BUG_B3 = False
# 120 examples a property (1000 in the soak, TABLETOP_SOAK=1); REFEREE_EXAMPLES=N sets another number.
SETTINGS = settings(max_examples=int(__import__("os").environ.get("REFEREE_EXAMPLES", "1000" if SOAK else "120")),
                    deadline=None, suppress_health_check=[HealthCheck.too_slow])

names = st.sampled_from(NAMES + ["Zed", "ana", "BEN"])
ranks = st.sampled_from(list(Rank))
cards = st.builds(Card, ranks, st.sampled_from(list(Suit)))
counts = st.none() | st.integers(-2, 5)

intents = st.one_of(
    # plausible moves, often: the current player asking, answers, calls
    st.builds(Ask, target=names, rank=ranks),
    st.builds(Ask, target=names, rank=ranks, asker=st.none() | names, card=st.none() | cards),
    st.builds(Answer, count=counts),
    st.just(GoFish()),
    st.builds(Lucky, rank=st.none() | ranks),
    st.builds(Book, rank=ranks, player=st.none() | names),
    st.builds(OutOfCards, player=st.none() | names),
    st.builds(HandCount, player=names, count=st.integers(-2, 60)),
    st.builds(Query, what=st.sampled_from(QUERY_KINDS), player=st.none() | names),
    st.just(Undo()),
    st.builds(Correct, rank=st.none() | ranks, target=st.none() | names, count=counts, player=st.none() | names),
    st.just(Yes()),
    st.just(No()),
    st.builds(Control, what=st.sampled_from(CONTROL_KINDS)),
    st.just("quiet"),
)


@st.composite
def rule_sets(draw):
    values = {
        "deal": draw(st.sampled_from(["7-then-5", "7", "7-for-two"])),
        "asking": draw(st.sampled_from(["hold-rank", "any-rank", "specific-card"])),
        "again_on_hit": draw(st.booleans()),
        "again_on_lucky": draw(st.booleans()),
        "again_on_draw_book": draw(st.booleans()),
        "ties": draw(st.sampled_from(["shared", "play-again"])),
        "book_size": draw(st.sampled_from([4, 2])),
    }
    if draw(st.booleans()):
        values.update(game_end="first-out", empty_hand="new-hand", next_after_miss=draw(st.sampled_from(["left", "asked"])))
    else:
        values.update(empty_hand=draw(st.sampled_from(["new-hand", "draw-one", "sit-out"])),
                      next_after_miss=draw(st.sampled_from(["left", "asked", "asked-when-stock-empty"])))
    return Rules(**values)


def check_invariants(game: Game) -> None:
    for s in (game.state, game.settled()):
        size = s.rules.book_size
        assert sum(s.hands) + s.stock + size * sum(len(b) for b in s.books) == 52
        assert s.stock >= 0 and all(h >= 0 for h in s.hands)
        for rank in Rank:
            assert s.times_booked(rank) <= 4 // size
    p = game.public()
    assert sum(p["hands"].values()) + p["stock"] + p["rules"]["book_size"] * sum(map(len, p["books"].values())) == 52


def step(ref: Referee, intent, text=None, *, try_undo: bool) -> None:
    game = ref.game
    before, raw, steps = game.public(), game.state.public(), len(game.history)
    if intent == "quiet":
        ruling = ref.settle()
    else:
        ruling = ref.handle(intent, text)  # never raises
    check_invariants(game)
    if ruling.refused or ruling.code == "question":
        assert game.public() == before, (intent, ruling.code, ruling.text)
        if not (isinstance(intent, Query) and KNOWN_BUG_B3):  # see test_refused_query_changes_nothing
            assert len(game.history) == steps, (intent, ruling.code, ruling.text)
    if ruling.code in ("answer", "control") or (ruling.code == "ok" and not ruling.changed):
        assert game.public() == before, (intent, ruling.code, ruling.text)
    if try_undo and ruling.code == "ok" and ruling.changed and not isinstance(intent, (Undo, Correct, str)):
        trial = copy.deepcopy(ref)
        assert trial.handle(Undo()).code == "ok"
        assert trial.game.public() == before, (intent, ruling.text)
        if len(trial.game.history) == steps:
            assert trial.game.state.public() == raw, (intent, ruling.text)


@SETTINGS
@given(rules=rule_sets(), players=st.integers(2, 4), first=st.integers(0, 3),
       script=st.lists(st.tuples(intents, st.booleans()), max_size=60))
def test_random_intents_keep_the_invariants(rules, players, first, script):
    ref = Referee(Game(NAMES[:players], rules, first=first % players))
    for intent, try_undo in script:
        step(ref, intent, try_undo=try_undo)


@st.composite
def game_like_scripts(draw):
    """Mostly sensible play by the current player: asks, answers, calls, with noise mixed in."""
    out = []
    for _ in range(draw(st.integers(0, 80))):
        kind = draw(st.integers(0, 9))
        if kind <= 2:
            out.append(Ask(target=draw(st.sampled_from(NAMES[:3])), rank=draw(ranks)))
        elif kind == 3:
            out.append(Answer(count=draw(st.integers(1, 3))))
        elif kind == 4:
            out.append(GoFish())
        elif kind == 5:
            out.append(draw(st.sampled_from([Lucky(), Book(rank=draw(ranks)), Yes(), "quiet"])))
        else:
            out.append(draw(intents))
    return out


@SETTINGS
@given(rules=rule_sets(), script=game_like_scripts(), undo_every=st.integers(1, 5))
def test_game_like_sequences_keep_the_invariants(rules, script, undo_every):
    ref = Referee(Game(NAMES[:3], rules))
    for i, intent in enumerate(script):
        step(ref, intent, try_undo=(i % undo_every == 0))


# ---- sentences through the parser ----------------------------------------------------------------

WORDS = ("ana ben cho zed do you have any sevens 7s kings ace of clubs queen hearts yes no two three one four "
         "go fish nope lucky I got drew it book pair has a the out cards undo scratch that said sixes what's "
         "score whose turn how many left help repeat pause resume stop new game give me your here").split()
SENTENCES = ["Ben, got any 7s?", "Ana asks Ben for sevens", "yes, two", "here you go, 3", "go fish",
             "nope, go fish", "lucky fish!", "book of sevens", "Ana has a book of kings", "I'm out of cards",
             "no, I said sixes", "undo", "what's the score", "whose turn is it", "Ben has three cards", "yes",
             "no", "Cho, do you have the king of clubs?", "I got a seven", "how many cards does Ben have",
             "scratch that", "stop the game", "Cho, any aces?", "I have four aces", "two"]

texts = st.one_of(
    st.sampled_from(SENTENCES),
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=9).map(" ".join),
    st.text(max_size=40),
)


@SETTINGS
@given(rules=rule_sets(), script=st.lists(st.tuples(texts, st.booleans()), max_size=50))
def test_random_sentences_through_the_parser(language_parse, rules, script):
    if language_parse is None:
        pytest.skip("tabletop.language.parse is not there yet")
    players = NAMES[:3]
    ref = Referee(Game(players, rules))
    for text, try_undo in script:
        intent = language_parse(text, players)  # the parser never raises either
        if intent is None:
            continue
        step(ref, intent, text, try_undo=try_undo)
