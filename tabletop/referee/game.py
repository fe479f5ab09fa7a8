"""One game of Go Fish as a board you push actions onto and pop them off.

:meth:`Game.check` says whether an action is legal now (raising :class:`IllegalActionError` with a
short spoken reason) and which questions public knowledge raises about it; :meth:`Game.push`
trusts its action and applies it; :meth:`Game.pop` restores the snapshot taken before the last
step. What the table does without speaking (the turn passing, an empty hand refilled, a player
sitting out, the end) is the ``settle`` step, pushed when an exchange is over.

>>> game = Game(["Ana", "Ben"])
>>> game.push(AskAction("Ana", "Ben", Rank.SEVEN))
['Ana asks Ben for sevens.']
>>> game.push(GoFishAction())
['Go fish, Ana.']
>>> game.settle()
["Ben's turn."]
>>> game.state.stock, game.state.hands
(37, [8, 7])
>>> [str(step.action) for step in game.undo()]
['settle', 'gofish']
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Sequence

from tabletop.cards import Rank
from tabletop.errors import IllegalActionError, InvalidInputError
from tabletop import sentences
from tabletop.referee.actions import (
    Action, AnswerAction, AskAction, BookAction, GoFishAction, HandAction, LuckyAction, OutAction,
    SettleAction,
)
from tabletop.referee.state import Exchange, Phase, State
from tabletop.rules import Rules

__all__ = ["Game", "Step", "Doubt", "check_names"]

_NAME_MARKS = "'-\u2019"  # O'Brien, Mary-Kate, O’Neil


def _is_name(name: str) -> bool:
    """One word of letters in any alphabet (with their accents and vowel signs), ' and -:
    Ana, José, Zoë, Mary-Kate, O'Brien, Мария, 美玲, प्रिया."""
    if not name or unicodedata.category(name[0])[0] != "L":
        return False
    return all(unicodedata.category(c)[0] in "LM" or c in _NAME_MARKS for c in name)


@dataclass(frozen=True)
class Step:
    """One action on the game's stack: ``said`` unless it is an automatic settle."""

    action: Action
    said: bool = True
    text: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": str(self.action)}
        if self.text is not None:
            out["text"] = self.text
        return out


@dataclass(frozen=True)
class Doubt:
    """A question public knowledge raises about an action: asked, not a verdict."""

    code: str
    question: str


def check_names(players: Sequence[str]) -> tuple[str, ...]:
    """Validate and return the seating order.

    :raises InvalidInputError: for an empty, repeated or multi-word name.
    """
    names = tuple(unicodedata.normalize("NFC", p.strip()) for p in players)
    for name in names:
        if not _is_name(name):
            raise InvalidInputError(
                f"player name {name!r} must be one word of letters (for example Ana, José or Mary-Kate)",
                code="bad-name",
            )
    lowered = [n.casefold() for n in names]
    if len(set(lowered)) != len(lowered):
        raise InvalidInputError("two players have the same name; give everyone a different one", code="bad-name")
    return names


class Game:
    """The referee's record of one game. Pure: no I/O, no clock, no randomness."""

    def __init__(self, players: Sequence[str], rules: Rules | None = None, first: int = 0) -> None:
        names = check_names(players)
        self.rules = rules or Rules()
        if not 0 <= first < len(names):
            raise InvalidInputError(f"first player {first} is not a seat", code="bad-first")
        self.first = first
        self._state = State.deal(names, self.rules, first)
        self._stack: list[tuple[Step, State]] = []

    # ---- reading ----------------------------------------------------------------------------

    @property
    def state(self) -> State:
        """The current state (do not modify it: push and pop do)."""
        return self._state

    @property
    def players(self) -> tuple[str, ...]:
        return self._state.players

    @property
    def history(self) -> list[Step]:
        return [step for step, _ in self._stack]

    def peek(self) -> Step | None:
        return self._stack[-1][0] if self._stack else None

    def settled(self) -> State:
        """The state as it is once the open exchange is over (the state itself is not changed)."""
        if not self.needs_settle():
            return self._state
        state = self._state.copy()
        _settle(state)
        return state

    def public(self) -> dict[str, Any]:
        """The public state of PRODUCT.md section 5, with the open exchange settled."""
        return self.settled().public()

    def opening(self) -> str:
        """What tabletop says when the game starts."""
        s = self._state
        return sentences.opening(s.deal_size, s.players[s.current])

    # ---- legality ---------------------------------------------------------------------------

    def check(self, action: Action) -> list[Doubt]:
        """Check ``action`` against the current state.

        :returns: the questions public knowledge raises about it (empty when none).
        :raises IllegalActionError: if the game does not allow it now.
        """
        s = self._state
        if s.over and not isinstance(action, SettleAction):
            raise IllegalActionError(sentences.GAME_OVER, code="game-over")
        checker = self._CHECKS[type(action)]
        return checker(self, action)  # type: ignore[no-any-return]

    def _check_ask(self, a: AskAction) -> list[Doubt]:
        s = self._state
        if s.phase in (Phase.ANSWER, Phase.COUNT):
            ex = s.exchange
            assert ex is not None
            raise IllegalActionError(
                sentences.answer_first(s.players[ex.target], s.players[ex.asker], ex.rank), code="answer-first"
            )
        asker, target = self._seat(a.asker), self._seat(a.target)
        if s.phase in (Phase.AFTER_HIT, Phase.AFTER_MISS):
            raise IllegalActionError(sentences.UNSETTLED, code="unsettled")
        if asker != s.current:
            raise IllegalActionError(sentences.its_turn(s.players[s.current]), code="out-of-turn")
        if target == asker:
            raise IllegalActionError(sentences.ASK_SELF, code="ask-self")
        if s.out[target]:
            raise IllegalActionError(sentences.target_sits_out(s.players[target]), code="target-out")
        if s.hands[target] == 0:
            raise IllegalActionError(sentences.has_no_cards(s.players[target]), code="target-empty")
        if s.hands[asker] == 0:
            raise IllegalActionError(sentences.has_no_cards(s.players[asker]), code="asker-empty")
        if s.closed(a.rank):
            raise IllegalActionError(sentences.already_booked(a.rank), code="rank-booked")
        if self.rules.asking == "specific-card":
            if a.card is None:
                raise IllegalActionError(sentences.NEED_CARD, code="need-card")
            if a.card.rank is not a.rank:
                raise IllegalActionError(sentences.BAD_CARD, code="bad-card")
        elif a.card is not None:
            raise IllegalActionError(sentences.NO_CARD, code="no-card")
        doubts = []
        if self.rules.must_hold and s.knowledge.holds_none(asker, a.rank):
            doubts.append(Doubt("said-none", sentences.doubt_said_none(s.players[asker], s.knowledge.reason_none(asker, a.rank))))
        return doubts

    def _check_answer(self, a: AnswerAction) -> list[Doubt]:
        s = self._state
        ex = self._pending_exchange()
        if a.count is None:
            if s.phase is Phase.COUNT:
                raise IllegalActionError(sentences.HOW_MANY, code="need-count")
            return self._others_hold(ex, None)
        if self.rules.asking == "specific-card" and a.count != 1:
            raise IllegalActionError(sentences.ONE_CARD, code="one-card")
        if a.count >= 4 and self.rules.book_size == 4:  # "yes, four": a book, never an answer
            raise IllegalActionError(sentences.count_is_book(ex.rank, s.players[ex.target]), code="bad-count")
        most = 4 - self.rules.book_size * s.times_booked(ex.rank) - s.knowledge.holds_at_least(ex.asker, ex.rank)
        most = min(most, s.hands[ex.target])
        if not 1 <= a.count <= most:
            who = s.players[ex.target]
            raise IllegalActionError(
                sentences.cant_give(who, a.count, max(most, 0)) if a.count > 0 else sentences.HOW_MANY,
                code="bad-count",
            )
        return self._others_hold(ex, a.count)

    def _others_hold(self, ex: Exchange, count: int | None) -> list[Doubt]:
        """Question a count (or a plain yes) that what every other player is known to hold rules out.

        The asker's own known holding is a hard limit (checked above); a third player's is public
        knowledge too ("Ana received two sevens from Ben"), so the count is questioned when it is
        said rather than accepted and contradicted later by the book it would make.
        """
        s = self._state
        rank = ex.rank
        others = [p for p in range(len(s.players)) if p not in (ex.target, ex.asker)]
        known = {p: s.knowledge.holds_at_least(p, rank) for p in others}
        held = sum(known.values())
        if not held:
            return []
        most = 4 - self.rules.book_size * s.times_booked(rank) - s.knowledge.holds_at_least(ex.asker, rank) - held
        if count is not None and count <= most or count is None and most > 0:
            return []
        holder = max(known, key=lambda p: known[p])
        why = s.knowledge.reason(holder, rank)
        return [Doubt("others-hold", sentences.doubt_others_hold(s.players[holder], why, s.players[ex.target],
                                                                  rank, max(most, 0)))]

    def _check_go_fish(self, a: GoFishAction) -> list[Doubt]:
        s = self._state
        ex = self._pending_exchange()
        held = s.knowledge.holds_at_least(ex.target, ex.rank)
        if held and self.rules.asking != "specific-card":
            why = s.knowledge.reason(ex.target, ex.rank)
            return [Doubt("holds-rank", sentences.doubt_holds(s.players[ex.target], why))]
        return []

    def _check_lucky(self, a: LuckyAction) -> list[Doubt]:
        s = self._state
        ex = s.exchange
        if s.phase is not Phase.AFTER_MISS or ex is None:
            raise IllegalActionError(sentences.NO_MISS, code="no-miss")
        if not ex.drew:
            raise IllegalActionError(sentences.NO_DRAW, code="no-draw")
        if ex.lucky:
            raise IllegalActionError(sentences.LUCKY_TWICE, code="lucky-twice")
        return []

    def _check_book(self, a: BookAction) -> list[Doubt]:
        s = self._state
        if s.phase in (Phase.ANSWER, Phase.COUNT):
            raise IllegalActionError(sentences.FINISH_ASK, code="answer-first")
        p = self._seat(a.player)
        if s.closed(a.rank):
            raise IllegalActionError(sentences.already_booked(a.rank), code="rank-booked")
        if s.hands[p] < self.rules.book_size:
            n = s.hands[p]
            raise IllegalActionError(
                sentences.only_has(s.players[p], n), code="too-few-cards"
            )
        doubts = []
        if s.knowledge.holds_none(p, a.rank):
            doubts.append(Doubt("said-none", sentences.doubt_said_none(s.players[p], s.knowledge.reason_none(p, a.rank))))
        if s.times_booked(a.rank) + 1 >= self.rules.books_per_rank:
            for other in range(len(s.players)):
                if other != p and s.knowledge.holds_at_least(other, a.rank):
                    why = s.knowledge.reason(other, a.rank)
                    doubts.append(Doubt("other-holds", sentences.doubt_other_holds(s.players[other], why)))
                    break
        return doubts

    def _check_out(self, a: OutAction) -> list[Doubt]:
        s = self._state
        p = self._seat(a.player)
        if s.out[p]:
            raise IllegalActionError(sentences.already_out(s.players[p]), code="already-out")
        if s.hands[p] > 0:
            return [Doubt("count-differs", sentences.doubt_count_differs(s.players[p], s.hands[p]))]
        return []

    def _check_hand(self, a: HandAction) -> list[Doubt]:
        s = self._state
        p = self._seat(a.player)
        if a.count < 0:
            raise IllegalActionError(sentences.NEGATIVE_HAND, code="bad-count")
        if s.stock - (a.count - s.hands[p]) < 0:
            raise IllegalActionError(
                sentences.stock_short(s.stock), code="stock-short"
            )
        if s.out[p] and a.count > 0:
            return [Doubt("sits-out", sentences.doubt_sits_out(s.players[p]))]
        if s.hands[p] == 0 and a.count > 0 and s.started:
            return [Doubt("said-out", sentences.doubt_said_out(s.players[p]))]
        return []

    def _check_settle(self, a: SettleAction) -> list[Doubt]:
        if not self.needs_settle():
            raise IllegalActionError(sentences.NOTHING_TO_SETTLE, code="nothing-to-settle")
        return []

    _CHECKS: dict[type, Any] = {}

    def _seat(self, name: str) -> int:
        seat = self._state.index(name)
        if seat < 0:
            raise IllegalActionError(sentences.not_playing(name), code="unknown-player")
        return seat

    def _pending_exchange(self) -> Exchange:
        s = self._state
        if s.phase not in (Phase.ANSWER, Phase.COUNT) or s.exchange is None:
            raise IllegalActionError(sentences.NO_ASK, code="no-ask")
        return s.exchange

    # ---- changing ---------------------------------------------------------------------------

    def push(self, action: Action, *, text: str | None = None) -> list[str]:
        """Apply ``action`` without checking it; returns what to announce."""
        snapshot = self._state.copy()
        say = _APPLY[type(action)](self._state, action)
        self._stack.append((Step(action, not isinstance(action, SettleAction), text), snapshot))
        return say

    def pop(self) -> Step:
        """Take back the last step, restoring the state before it.

        :raises IndexError: if nothing has been pushed.
        """
        step, snapshot = self._stack.pop()
        self._state = snapshot
        return step

    def undo(self) -> list[Step]:
        """Take back the last said step and all it caused; returns the steps, last first."""
        popped: list[Step] = []
        while self._stack:
            step = self.pop()
            popped.append(step)
            if step.said:
                break
        return popped

    def needs_settle(self) -> bool:
        """Whether something is left for the table to do without speaking."""
        s = self._state
        if s.over:
            return False
        if s.phase in (Phase.AFTER_HIT, Phase.AFTER_MISS):
            return True
        if s.phase is not Phase.ASK:
            return False
        in_play = s.in_play()
        if (
            len(in_play) < 2
            or s.out[s.current]
            or any(s.hands[i] == 0 for i in in_play)
            or not any(s.can_be_asked(j) for j in in_play if j != s.current)
            or all(s.closed(r) for r in Rank)
        ):
            probe = s.copy()
            _settle(probe)
            return _signature(probe) != _signature(s)
        return False

    def settle(self) -> list[str]:
        """Push the settle step if one is needed; returns what to announce."""
        if not self.needs_settle():
            return []
        return self.push(SettleAction())

    def replay(self, steps: Iterable[Step]) -> None:
        """Push already-accepted steps (e.g. from a journal)."""
        for step in steps:
            self.push(step.action, text=step.text)


def _signature(s: State) -> tuple[Any, ...]:
    return (s.current, s.stock, tuple(s.hands), tuple(s.out), s.phase, tuple(s.winners))


Game._CHECKS = {
    AskAction: Game._check_ask,
    AnswerAction: Game._check_answer,
    GoFishAction: Game._check_go_fish,
    LuckyAction: Game._check_lucky,
    BookAction: Game._check_book,
    OutAction: Game._check_out,
    HandAction: Game._check_hand,
    SettleAction: Game._check_settle,
}


# ---- applying actions (the state is trusted to allow them) ---------------------------------


def _apply_ask(s: State, a: AskAction) -> list[str]:
    asker, target = s.index(a.asker), s.index(a.target)
    s.started = True
    s.taker = None
    s.exchange = Exchange(asker, target, a.rank, a.card)
    s.last_asks[asker] = s.exchange
    s.phase = Phase.ANSWER
    if s.rules.must_hold:
        s.knowledge.has_at_least(asker, a.rank, 1, sentences.knew_asked(a.rank))
    wanted = a.card.spoken() if a.card else a.rank.plural
    return [sentences.asks(s.players[asker], s.players[target], wanted)]


def _apply_answer(s: State, a: AnswerAction) -> list[str]:
    ex = s.exchange
    assert ex is not None
    if a.count is None:
        s.phase = Phase.COUNT
        return [sentences.HOW_MANY]
    asker, target, rank, n = ex.asker, ex.target, ex.rank, a.count
    s.hands[target] -= n
    s.hands[asker] += n
    if s.rules.asking == "specific-card":
        s.knowledge.laid(target, rank, n)
    else:
        s.knowledge.has_none(target, rank, sentences.knew_gave_all(rank, s.players[asker]))
    s.knowledge.gained(asker, rank, n, sentences.knew_received(n, rank, s.players[target]))
    if s.hands[target] == 0:
        s.knowledge.emptied(target)
    s.exchange = replace(ex, received=n)
    s.phase = Phase.AFTER_HIT
    say = [sentences.gives(s.players[target], s.players[asker], n, rank)]
    return say + _proof(s, asker, rank)


def _apply_go_fish(s: State, a: GoFishAction) -> list[str]:
    ex = s.exchange
    assert ex is not None
    asker = ex.asker
    if s.rules.asking != "specific-card":
        s.knowledge.has_none(ex.target, ex.rank)
    drew = s.stock > 0
    if drew:
        s.stock -= 1
        s.hands[asker] += 1
        s.knowledge.drew(asker)
    s.exchange = replace(ex, missed=True, drew=drew)
    s.phase = Phase.AFTER_MISS
    say = [sentences.go_fish(s.players[asker])]
    if not drew:
        say.append(sentences.STOCK_EMPTY_NO_DRAW)
    return say


def _apply_lucky(s: State, a: LuckyAction) -> list[str]:
    ex = s.exchange
    assert ex is not None
    s.exchange = replace(ex, lucky=True)
    s.knowledge.gained(ex.asker, ex.rank, 1, sentences.knew_drew(ex.rank))
    return [sentences.LUCKY] + _proof(s, ex.asker, ex.rank)


def _apply_book(s: State, a: BookAction) -> list[str]:
    p = s.index(a.player)
    size = s.rules.book_size
    s.hands[p] -= size
    s.books[p].append(a.rank)
    s.knowledge.laid(p, a.rank, size)
    if s.closed(a.rank):
        s.knowledge.rank_closed(a.rank)
    if s.hands[p] == 0:
        s.knowledge.emptied(p)
    ex = s.exchange
    if s.phase is Phase.AFTER_MISS and ex is not None and ex.asker == p and ex.drew:
        s.exchange = replace(ex, drew_book=True)
    return [sentences.lays_down(s.players[p], a.rank, len(s.books[p]), size)]


def _apply_out(s: State, a: OutAction) -> list[str]:
    p = s.index(a.player)
    s.stock += s.hands[p]
    s.hands[p] = 0
    s.knowledge.emptied(p)
    return [sentences.out_of_cards(s.players[p])]


def _apply_hand(s: State, a: HandAction) -> list[str]:
    p = s.index(a.player)
    delta = a.count - s.hands[p]
    s.stock -= delta
    s.hands[p] = a.count
    if a.count > 0:
        s.out[p] = False  # the table overruled: they have cards and play again
    if delta > 0:
        s.knowledge.drew(p)
    if a.count == 0:
        s.knowledge.emptied(p)
    return [sentences.hand_noted(s.players[p], a.count, s.stock)]


def _apply_settle(s: State, a: SettleAction) -> list[str]:
    return _settle(s)


_APPLY: dict[type, Callable[[State, Any], list[str]]] = {
    AskAction: _apply_ask,
    AnswerAction: _apply_answer,
    GoFishAction: _apply_go_fish,
    LuckyAction: _apply_lucky,
    BookAction: _apply_book,
    OutAction: _apply_out,
    HandAction: _apply_hand,
    SettleAction: _apply_settle,
}


def _proof(s: State, player: int, rank: Rank) -> list[str]:
    """Remind a player to lay down a book that public knowledge already proves."""
    others = any(s.knowledge.holds_at_least(p, rank) for p in range(len(s.players)) if p != player)
    if s.knowledge.holds_at_least(player, rank) >= s.rules.book_size and not s.closed(rank) and not others:
        # (with another player known to hold the rank, the book would be questioned: never both)
        return [sentences.lay_it_down(s.players[player], rank, s.rules.book_size)]
    return []


# ---- settling: what the table does without speaking ----------------------------------------


def _settle(s: State) -> list[str]:
    """End the open exchange: pass the turn, refill or retire empty hands, end the game."""
    rules = s.rules
    n = len(s.players)
    say: list[str] = []
    ex = s.exchange if s.phase in (Phase.AFTER_HIT, Phase.AFTER_MISS) else None
    keep = False
    if ex is not None:
        if ex.received:
            keep = rules.again_on_hit
        else:
            keep = (ex.lucky and rules.again_on_lucky) or (ex.drew_book and rules.again_on_draw_book)
        if keep:
            nxt = ex.asker
        elif ex.missed and (
            rules.next_after_miss == "asked"
            or (rules.next_after_miss == "asked-when-stock-empty" and s.stock == 0)
        ):
            nxt = ex.target
        else:
            nxt = (ex.asker + 1) % n
        s.taker = ex.asker if (ex.received or ex.drew) else None
        s.exchange = None
        s.phase = Phase.ASK
    else:
        nxt = s.current

    if rules.game_end == "first-out" and (s.stock == 0 or any(s.hands[i] == 0 for i in s.in_play())):
        return _end(s)  # the end is said first and alone: who sits out no longer matters

    # Empty hands, from the next player round the table.
    for step in range(n):
        i = (nxt + step) % n
        if s.out[i] or s.hands[i] > 0:
            continue
        if rules.empty_hand == "sit-out" or s.stock == 0:
            s.out[i] = True
            say.append(sentences.sits_out(s.players[i]))
        elif rules.empty_hand == "new-hand":
            got = min(s.deal_size, s.stock)
            s.stock -= got
            s.hands[i] = got
            s.knowledge.drew(i)
            say.append(sentences.draw_new_hand(s.players[i], got))
        # draw-one: the player draws at the start of their own turn, below.

    if all(s.closed(r) for r in Rank) or len(s.in_play()) < 2:
        return _end(s)  # the end is said first and alone: who sits out no longer matters

    # The next player who can play: skip who sits out; a player with nobody to ask passes.
    for step in range(2 * n):
        i = (nxt + step) % n
        if s.out[i]:
            continue
        if s.hands[i] == 0:  # only under draw-one
            if s.stock == 0:
                s.out[i] = True
                say.append(sentences.sits_out(s.players[i]))
                continue
            s.stock -= 1
            s.hands[i] = 1
            s.knowledge.drew(i)
            say.append(sentences.draw_a_card(s.players[i]))
        if any(s.can_be_asked(j) for j in range(n) if j != i):
            s.current = i
            if s.stock == 0:
                # That draw may have emptied the stock: whoever waits with an empty hand sits out now.
                for j in s.in_play():
                    if s.hands[j] == 0:
                        s.out[j] = True
                        say.append(sentences.sits_out(s.players[j]))
                if len(s.in_play()) < 2:
                    return _end(s)  # the end is said first and alone: who sits out no longer matters
            if keep and i == ex.asker:  # type: ignore[union-attr]
                say.append(sentences.ask_again(s.players[i]))
            else:
                say.append(sentences.turn(s.players[i]))
            return say
    return _end(s)  # the end is said first and alone: who sits out no longer matters


def _end(s: State) -> list[str]:
    s.phase = Phase.OVER
    s.exchange = None
    scores = s.scores()
    best = max(scores)
    s.winners = tuple(i for i, score in enumerate(scores) if score == best)
    books = {p: scores[i] for i, p in enumerate(s.players)}
    return [sentences.game_over([s.players[i] for i in s.winners], best, s.rules, books)]
