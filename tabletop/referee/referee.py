"""The referee: takes what players say (intents) and answers with a ruling.

It resolves who is meant (the asker is the current player unless named; a book belongs to the
player who took cards in the last exchange unless named), refuses what the game does not allow
with a short reason, asks the questions public knowledge raises and waits for "yes", answers
queries, takes back sentences on "undo" and replaces a slot on a correction. It is pure: no
I/O, no audio, no clock. The steps it pushes are in ``game.history``; every push and pop is also
appended to :attr:`Referee.log` for the journal.

>>> from tabletop.cards import Rank
>>> ref = Referee(Game(["Ana", "Ben", "Cho"]))
>>> ref.handle(Ask(target="Ben", rank=Rank.SEVEN)).text
'Ana asks Ben for sevens.'
>>> ref.handle(Answer(count=2)).text
'Ben gives Ana two sevens.'
>>> ref.handle(Query("turn")).text
'Ana, ask again.'
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable

from tabletop.errors import IllegalActionError
from tabletop import sentences
from tabletop.referee.actions import (
    Action, AnswerAction, AskAction, BookAction, GoFishAction, HandAction, LuckyAction, OutAction,
    SettleAction,
)
from tabletop.referee.game import Game, Step
from tabletop.referee.intents import (
    Answer, Ask, Book, Control, Correct, GoFish, HandCount, Intent, Lucky, No, OutOfCards, Query, Undo, Yes,
)
from tabletop.referee.state import Phase, State

__all__ = ["Referee", "Ruling", "Question"]


@dataclass(frozen=True)
class Question:
    """A question tabletop asked; "yes" applies ``action`` anyway, anything else drops it."""

    action: Action
    text: str | None
    question: str


@dataclass
class Ruling:
    """What the referee made of one intent.

    ``code`` is "ok" (the game changed), "answer" (a query was answered), "question" (tabletop
    asks before recording), "control" (for the table), or the refusal's code.
    """

    intent: Intent | None
    code: str
    say: list[str] = field(default_factory=list)
    changed: bool = False

    @property
    def text(self) -> str:
        return " ".join(self.say)

    @property
    def refused(self) -> bool:
        return self.code not in ("ok", "answer", "question", "control")

    def to_json(self) -> dict[str, Any]:
        return {
            "intent": self.intent.to_json() if self.intent is not None else None,
            "code": self.code,
            "say": self.text,
            "changed": self.changed,
        }


class Referee:
    def __init__(self, game: Game) -> None:
        self.game = game
        self.question: Question | None = None
        self.last_said: str = game.opening()
        self.log: list[dict[str, Any]] = []

    # ---- the one entry point ----

    def handle(self, intent: Intent, text: str | None = None) -> Ruling:
        """Rule on one intent. Never raises for anything a player can say."""
        ruling = self._handle(intent, text)
        if ruling.say and not (isinstance(intent, Query) and intent.what == "repeat"):
            self.last_said = ruling.text
        return ruling

    def overrule(self, action: Action, text: str | None = None) -> Ruling:
        """The table answered "yes" to a question public knowledge raised: record ``action`` anyway.

        The table keeps its one pending question itself (``tabletop.table.pending``) and calls this;
        driven alone, the referee keeps :attr:`question` and ``handle(Yes())`` does the same.
        """
        ruling = self._push(Yes(), action, text)
        self.last_said = ruling.text
        return ruling

    def settle(self) -> Ruling:
        """A moment of quiet: settle the open exchange ("Ben's turn")."""
        say = self._settle()
        ruling = Ruling(None, "ok" if say else "answer", say, changed=bool(say))
        if say:
            self.last_said = ruling.text
        return ruling

    # ---- dispatch ----

    def _handle(self, intent: Intent, text: str | None) -> Ruling:
        question, self.question = self.question, None
        if question is not None:
            if isinstance(intent, Yes):
                return self._push(intent, question.action, question.text)
            if isinstance(intent, No):
                return Ruling(intent, "ok", [sentences.NOT_RECORDED])
        if isinstance(intent, Query):
            return self._query(intent)
        if isinstance(intent, Undo):
            return self._undo(intent)
        if isinstance(intent, Correct):
            return self._correct(intent)
        if isinstance(intent, Control):
            return Ruling(intent, "control")
        if self.game.state.over:
            return Ruling(intent, "game-over", [sentences.GAME_OVER])
        # An ask ends the open exchange: it is resolved and checked against the settled game. The
        # settle is kept only if the ask is accepted, so a refused sentence changes nothing.
        pre = self.game.push(SettleAction()) if isinstance(intent, Ask) and self.game.needs_settle() else None
        ruling = self._rule(intent, text, pre or [])
        if pre is not None:
            if ruling.changed:
                self.log.insert(len(self.log) - 1, {"push": "settle"})
            else:
                self.game.pop()
        return ruling

    def _rule(self, intent: Intent, text: str | None, pre: list[str]) -> Ruling:
        try:
            action = self._resolve(intent)
            if action is None:
                return Ruling(intent, "answer", [self._hand_answer(intent)])  # a hand count that matches
            if self.game.state.over:
                return Ruling(intent, "game-over", [sentences.GAME_OVER])
            doubts = self.game.check(action)
        except IllegalActionError as error:
            return Ruling(intent, error.code, [error.reason])
        if doubts:
            self.question = Question(action, text, doubts[0].question)
            return Ruling(intent, "question", [sentences.question(doubts[0].question)])
        ruling = self._push(intent, action, text, pre)
        if isinstance(action, OutAction):
            ruling.say += self._settle()
        return ruling

    def _push(self, intent: Intent, action: Action, text: str | None, pre: list[str] | None = None) -> Ruling:
        if pre is None:  # an overruled ask: the exchange before it ends now
            pre = self._settle() if isinstance(action, AskAction) else []
        say = pre + self.game.push(action, text=text)
        self.log.append({"push": str(action), **({"text": text} if text is not None else {})})
        return Ruling(intent, "ok", say, changed=True)

    def _settle(self) -> list[str]:
        """:meth:`Game.settle`, with the step it pushes (if any) logged for the journal."""
        before = self.game.peek()
        say = self.game.settle()
        if self.game.peek() is not before:
            self.log.append({"push": "settle"})
        return say

    # ---- from intent to action ----

    def _resolve(self, intent: Intent) -> Action | None:
        s = self.game.state
        if isinstance(intent, Yes) or isinstance(intent, No):
            if s.phase is Phase.ANSWER:
                return AnswerAction(None) if isinstance(intent, Yes) else GoFishAction()
            raise IllegalActionError(sentences.NOTHING_TO_CONFIRM, code="nothing-to-confirm")
        if isinstance(intent, Ask):  # the open exchange is already settled
            asker = intent.asker or s.players[s.current]
            card = intent.card if self.game.rules.asking == "specific-card" else None
            return AskAction(self._name(asker), self._name(intent.target), intent.rank, card)
        if isinstance(intent, Answer):
            if intent.count is None and self.game.rules.asking == "specific-card":
                return AnswerAction(1)
            return AnswerAction(intent.count)
        if isinstance(intent, GoFish):
            return GoFishAction()
        if isinstance(intent, Lucky):
            ex = s.exchange
            if intent.rank is not None and ex is not None and s.phase is Phase.AFTER_MISS and intent.rank is not ex.rank:
                raise IllegalActionError(
                    sentences.not_lucky(s.players[ex.asker], ex.rank), code="not-lucky"
                )
            return LuckyAction()
        if isinstance(intent, Book):
            return BookAction(self.book_player(intent), intent.rank)
        if isinstance(intent, OutOfCards):
            return OutAction(self._name(intent.player) if intent.player else self._who_is_out())
        if isinstance(intent, HandCount):
            name = self._name(intent.player)
            if self.game.settled().hands[s.index(name)] == intent.count:
                return None
            return HandAction(name, intent.count)
        raise IllegalActionError(sentences.NOT_GAME, code="not-game")

    def book_player(self, intent: Book) -> str:
        """Who a book is recorded for: the player named, else the one who asked in the open exchange,
        else the one who took cards in the last exchange (a late call), else the current player.
        Raises :class:`IllegalActionError` for a name not at the table."""
        s = self.game.state
        if intent.player:
            return self._name(intent.player)
        if s.exchange is not None and s.phase in (Phase.AFTER_HIT, Phase.AFTER_MISS):
            return s.players[s.exchange.asker]
        if s.phase is Phase.ASK and s.taker is not None:
            return s.players[s.taker]  # a late call, after the exchange was settled
        return s.players[s.current]

    def _name(self, name: str) -> str:
        seat = self.game.state.index(name)
        if seat < 0:
            raise IllegalActionError(sentences.not_playing(name), code="unknown-player")
        return self.game.state.players[seat]

    def _who_is_out(self) -> str:
        s = self.game.state
        empty = [i for i in s.in_play() if s.hands[i] == 0]
        if len(empty) == 1:
            return s.players[empty[0]]
        return s.players[s.current]

    # ---- queries, undo, corrections ----

    def _hand_answer(self, intent: Intent) -> str:
        assert isinstance(intent, HandCount)
        return sentences.hand_confirmed(self._name(intent.player), intent.count)

    def _query(self, q: Query) -> Ruling:
        if q.what == "repeat":
            return Ruling(q, "answer", [self.last_said or sentences.NOTHING_SAID_YET])
        if q.what == "help":
            return Ruling(q, "answer", [sentences.HELP])
        if q.player is not None and self.game.state.index(q.player) < 0:
            return Ruling(q, "unknown-player", [sentences.not_playing(q.player)])
        pre = self._settle()
        s = self.game.state
        if q.what == "turn":
            if pre and not s.over:
                return Ruling(q, "answer", pre, changed=True)  # the settle just said whose turn it is
            answer = sentences.GAME_OVER if s.over else sentences.its_turn(s.players[s.current])
        elif q.what == "stock":
            answer = sentences.stock_left(s.stock)
        elif q.what == "score":
            answer = sentences.score({p: len(s.books[i]) for i, p in enumerate(s.players)}, s.rules.book_size)
        elif q.what == "books":
            answer = sentences.books_down({p: s.books[i] for i, p in enumerate(s.players)})
        elif q.what == "hand":
            name = self._name(q.player) if q.player else s.players[s.current]
            answer = sentences.hand_size(name, s.hands[s.index(name)])
        else:  # last
            answer = self._last_ask(q.player)
        return Ruling(q, "answer", pre + [answer], changed=bool(pre))

    def _last_ask(self, player: str | None) -> str:
        s = self.game.state
        if player is not None:
            seat = s.index(player)
            if seat < 0:
                return sentences.not_playing(player)
            ex = s.last_asks.get(seat)
            if ex is None:
                return sentences.has_not_asked(s.players[seat])
        else:
            asks = [step.action for step in self.game.history if isinstance(step.action, AskAction)]
            if not asks:
                return sentences.NOBODY_ASKED
            last = asks[-1]
            return sentences.asked(last.asker, last.target, last.rank)
        return sentences.last_asked(s.players[seat], s.players[ex.target], ex.rank)

    def _undo(self, intent: Undo) -> Ruling:
        popped = self.game.undo()
        if not popped:
            return Ruling(intent, "nothing-to-undo", [sentences.NOTHING_TO_UNDO])
        self.log.append({"undo": len(popped)})
        said = popped[-1]  # the state is now as it was before it: its exchange names who and what
        return Ruling(intent, "ok", [sentences.took_back(describe(said.action, self.game.state))], changed=True)

    def _correct(self, intent: Correct) -> Ruling:
        game = self.game
        slots = {k: v for k, v in (("rank", intent.rank), ("target", intent.target), ("count", intent.count),
                                   ("player", intent.player)) if v is not None}
        history = game.history
        index = None
        for i in range(len(history) - 1, -1, -1):
            action = history[i].action
            if _accepts(action, slots):
                index = i
                break
            if isinstance(action, AskAction):
                break  # corrections stay within the last exchange
        if index is None:
            return Ruling(intent, "nothing-to-correct", [sentences.NOTHING_TO_CORRECT])
        popped = [game.pop() for _ in range(len(history) - index)][::-1]
        before = game.state.copy()
        pushed = 0
        try:
            fixed = _with_slots(popped[0].action, slots, self._name)
            game.check(fixed)
            replayed = [Step(fixed, True, popped[0].text)] + popped[1:]
            for step in replayed:
                if step.said:
                    game.check(step.action)
                elif not game.needs_settle():
                    continue
                game.push(step.action, text=step.text)
                pushed += 1
        except IllegalActionError as error:
            for _ in range(pushed):
                game.pop()
            game.replay(popped)
            return Ruling(intent, error.code, [sentences.cant_correct(error.reason)])
        self.log.append({"undo": len(popped)})
        for step in game.history[index:]:
            self.log.append({"push": str(step.action), **({"text": step.text} if step.text is not None else {})})
        return Ruling(intent, "ok", [sentences.corrected(describe(fixed, before))], changed=True)


def _accepts(action: Action, slots: dict[str, Any]) -> bool:
    if isinstance(action, AskAction):
        return set(slots) <= {"rank", "target"}
    if isinstance(action, AnswerAction):
        return set(slots) == {"count"}
    if isinstance(action, BookAction):
        return set(slots) <= {"rank", "player"}
    if isinstance(action, HandAction):
        return set(slots) <= {"count", "player"}
    return False


def _with_slots(action: Action, slots: dict[str, Any], name: Callable[[str], str]) -> Action:
    changes: dict[str, Any] = {k: (name(v) if k in ("target", "player") else v) for k, v in slots.items()}
    if isinstance(action, AskAction) and "rank" in changes and action.card is not None:
        changes["card"] = replace(action.card, rank=changes["rank"])
    return replace(action, **changes)


def describe(action: Action, before: State | None = None) -> str:
    """What an action did, in words, for "took back …" and "corrected: …".

    ``before`` is the state just before the action (after an undo, the game's state): its open
    exchange says who answered whom about what.
    """
    ex = before.exchange if before is not None else None
    names = before.players if before is not None else ()
    if isinstance(action, AskAction):
        wanted = action.card.spoken() if action.card else action.rank.plural
        return sentences.step_ask(action.asker, action.target, wanted)
    if isinstance(action, AnswerAction):
        if ex is None:
            return sentences.step_answer(None, None, action.count, None)
        return sentences.step_answer(names[ex.target], names[ex.asker], action.count, ex.rank)
    if isinstance(action, GoFishAction):
        return sentences.step_go_fish(names[ex.target], names[ex.asker]) if ex is not None else sentences.step_go_fish(None, None)
    if isinstance(action, LuckyAction):
        return sentences.step_lucky(names[ex.asker] if ex is not None else None)
    if isinstance(action, BookAction):
        return sentences.step_book(action.player, action.rank, before.rules.book_size if before is not None else 4)
    if isinstance(action, OutAction):
        return sentences.step_out(action.player)
    if isinstance(action, HandAction):
        return sentences.step_hand(action.player, action.count)
    return sentences.STEP_SETTLE
