"""The table: hear → understand → referee → journal → announce (and look, with a camera).

A :class:`Table` takes transcripts (typed lines or what a recogniser heard), understands them in
the game's context, has the referee rule on them, writes every accepted step to the journal
before anything is announced, and returns what to say. It does no audio itself: the caller feeds
it transcripts and speaks or prints its replies, so the typed game, recorded audio and the live
microphone all go through this one path.

The in-process API (stable; ``play``, ``demo`` and the simulated table of ``tests/bench/table.py``
drive it):

* ``Table.new(players, rules, journal)`` / ``Table.resume(path)``; ``start()`` → the opening replies.
* ``hear(transcript)`` / ``hear_text(text)`` / ``hear_audio(utterance, recogniser)`` → the replies
  one utterance caused; each :class:`Reply` has ``text`` (what to say) and ``event`` (the JSON of
  ``play --json``). A reply that leaves a question pending has ``event["event"] == "question"``
  with ``expects`` ("yes_no", "rank", "target", "count") and ``choices``.
* ``pending`` → the one :class:`~tabletop.table.pending.Pending` question tabletop waits on, or None.
* ``context()`` → the immutable language context (what can be said now; the recognisers' grammar).
  Safe to call from another thread (the live microphone's): every method takes the table's lock.
* ``idle()`` → a moment of quiet: settles the open exchange ("Ben's turn."). ``hear`` settles by
  itself as soon as nothing more can belong to the exchange, so an announcement is never late by a
  line and never lost to a refused one.

Hearing safely: a heard (not typed) intent that is costly to get wrong — stop, pause, a new game,
undo, a correction, a hand count, an empty hand, or anything implausible in the phase — is
confirmed before it is acted on. Typed text is acted on: it is deliberate, and a script that types
"stop the game" means it.

What each action needs, heard: its own sure hearing. An utterance the recogniser heard unsurely (its
best reading under :data:`~tabletop.language.understand.ACT`; PocketSphinx caps a rescued grammar
reading at 0.45) is asked about and never acted on, whatever question was pending (``_rule`` holds
that as a last line of defence), but for the book public knowledge proves for the player it is recorded
for, heard fresh as what the recogniser heard best: the game is its second hearing (``_game_proves``). A "yes" confirms only when heard surely; the target's answer may
confirm the ask it answers only when it is itself heard surely as that answer; a corrected slot at a
confirmation ("no, tens" to "Ben, sevens?") is acted on only when the first hearing read it too,
else checked ("Tens?"). Right after an ask, "no, tens" is asked as "Go fish?" (the target's "nope"
misheard is likelier), and a "no" to that asks about the correction, so nobody is sent round again.
"""

from __future__ import annotations

import functools
import math
import random
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Sequence

from tabletop import sentences
from tabletop.cards import RANKS, Rank
from tabletop.errors import IllegalActionError, SetupError, TabletopError
from tabletop.journal import Journal, load
from tabletop.language.context import Context
from tabletop.language.transcript import Alternative, Transcript
from tabletop.language.understand import ACT, PLAYER_SLOTS, Understanding, slot_values_said, understand
from tabletop.language.vocabulary import load_vocabulary
from tabletop.referee.game import Game
from tabletop.referee.actions import AskAction, BookAction
from tabletop.referee.intents import Answer, Ask, Book, Control, Correct, GoFish, Intent, Lucky, No, Query, Undo, Yes
from tabletop.referee.referee import Referee, Ruling
from tabletop.referee.state import Phase
from tabletop.rules import Rules
from tabletop.table.pending import OFFER_AFTER, Pending

__all__ = ["Table", "Reply", "BookEyes"]

UNHEARD = sentences.NOT_CAUGHT


@dataclass(frozen=True)
class Reply:
    """One thing tabletop says, with the JSON event that ``play --json`` prints for it."""

    text: str
    event: dict[str, Any] = field(default_factory=dict)
    detail: str = ""  # printed for whoever fixes things (a path, an error's text), never spoken


class BookEyes:
    """What the table needs from a camera: look for a book of a rank.

    ``look(rank, book_size)`` returns an object with ``verdict`` ("confirmed", "not_confirmed",
    "unsure") and ``say``; it raises :class:`SetupError` when the camera fails.
    """

    def __init__(self, look: Callable[[Any, int], Any]) -> None:
        self.look = look


class Table:
    def __init__(self, referee: Referee, journal: Journal | None = None, *, eyes: BookEyes | None = None,
                 notes: Sequence[str] = ()) -> None:
        self.referee = referee
        self.journal = journal
        self.eyes = eyes
        self.notes = list(notes)
        self.paused = False
        self.stopped = False
        self._pending: Pending | None = None  # the one question tabletop waits on (see .pending)
        self._heard_well = True  # False while ruling on an utterance the recogniser heard unsurely
        self._heard_alike: str | None = None  # while ruling: the words both decoders read, when they agreed
        self._agreed: tuple[tuple[str, str], ...] = ()  # while ruling: slot values a second model heard too
        self._lock = threading.RLock()        # the live ears thread reads context() while the game moves
        self._written = len(referee.log)
        # The intent whose rank a "no" just denied ("A book of fives?" -> "no"), and the game's log
        # length then: its repeat is not asked about that rank again (see _repeats_denied)
        self._denied: tuple[Intent, int] | None = None
        # The sentence the player took back ("scratch that") or corrected, the game's log length then,
        # and whether its repeat was asked about already: see _repeats_withdrawn
        self._withdrawn: tuple[Intent, int, bool] | None = None

    # ---- construction ----

    @classmethod
    def new(cls, players: Sequence[str], rules: Rules | None = None, journal: str | Path | None = None, *,
            first: int | None = None, rng: random.Random | None = None, durable: bool = True,
            eyes: BookEyes | None = None) -> "Table":
        rules = rules or Rules()
        if first is None:
            first = (rng or random.Random()).randrange(len(players)) if rules.first == "random" else 0
        game = Game(players, rules, first)
        writer = Journal.create(journal, game, durable=durable) if journal is not None else None
        return cls(Referee(game), writer, eyes=eyes)

    @classmethod
    def resume(cls, path: str | Path, *, durable: bool = True, eyes: BookEyes | None = None,
               read_only: bool = False) -> "Table":
        loaded = load(path)
        writer = None if read_only else Journal.reopen(loaded, durable=durable)
        return cls(Referee(loaded.game), writer, eyes=eyes, notes=loaded.notes)

    @property
    def game(self) -> Game:
        return self.referee.game

    def start(self) -> list[Reply]:
        """What tabletop says as play begins (or resumes)."""
        game = self.game
        if not game.history:
            text = sentences.together(self.notes + [game.opening()])
            return [Reply(text, {"event": "start", "say": text, "players": list(game.players),
                                 "rules": game.rules.to_json(), "state": game.public()})]
        public = game.public()
        now = sentences.now(public["over"], public["current"], public["winners"])
        text = sentences.together(self.notes + [sentences.resuming_game(now)])
        return [Reply(text, {"event": "resume", "say": text, "state": public})]

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close()

    # ---- context ----

    @property
    def lock(self) -> threading.RLock:
        """The table's lock: held while it hears, settles or builds a context. Hold it to read the
        game from another thread (the typed prompt, the board)."""
        return self._lock

    @property
    def pending(self) -> Pending | None:
        """The one question tabletop waits on: a confirmation, a missing slot, a count ("How many?"),
        a knowledge question to overrule or a book the camera did not see. None when nothing is asked."""
        with self._lock:
            p = self._pending
            counting = self.game.state.phase is Phase.COUNT
            if p is not None and p.kind == "count" and not counting:
                p = self._pending = None  # answered, or undone
            if p is None and counting:
                p = self._pending = Pending("count", sentences.HOW_MANY, "count", intent=Answer(None),
                                            choices=self._choices("count", None))
            return p

    def context(self) -> Context:
        """What can be said now, for the language layer and the recognisers' grammars.

        An immutable snapshot taken under the table's lock: the live microphone's thread may call it
        while the main thread changes the game.
        """
        with self._lock:
            return self._context(self.pending)

    def _context(self, pending: Pending | None) -> Context:
        game = self.game
        state = game.state
        settled = game.settled()
        ex = state.exchange
        phase = "confirm" if pending is not None and pending.kind != "count" else state.phase.value
        return Context(
            players=game.players,
            current=None if settled.over else settled.players[settled.current],
            phase=phase,
            asker=state.players[ex.asker] if ex else None,
            target=state.players[ex.target] if ex else None,
            rank=ex.rank if ex else None,
            booked=frozenset(r for r in RANKS if settled.closed(r)),
            askable=frozenset(settled.players[i] for i in range(len(settled.players)) if settled.can_be_asked(i)),
            asking=game.rules.asking,
            most_given=self._most_given(),
            proven=frozenset(
                r for r in RANKS if not state.closed(r) and any(
                    state.knowledge.holds_at_least(i, r) >= game.rules.book_size for i in range(len(state.players)))),
            **(pending.context_fields() if pending is not None else {}),
        )

    def _most_given(self) -> int | None:
        """The most cards the target of the pending ask can plausibly give: what their hand holds,
        fewer than a book (they would have laid it), and what the other books and the asker's known
        cards of the rank leave. None when no ask is pending."""
        state, rules = self.game.state, self.game.rules
        ex = state.exchange
        if ex is None or state.phase not in (Phase.ANSWER, Phase.COUNT):
            return None
        left = 4 - rules.book_size * state.times_booked(ex.rank) - state.knowledge.holds_at_least(ex.asker, ex.rank)
        return max(0, min(3, state.hands[ex.target], rules.book_size - 1, left))

    def _choices(self, slot: str, intent: Intent | None) -> tuple[str, ...]:
        """What a missing slot can be: the ranks that can be asked, the players who can be asked, the counts."""
        settled = self.game.settled()
        if slot == "rank":
            return tuple(r.symbol for r in RANKS if not settled.closed(r))
        if slot == "target":
            asker = getattr(intent, "asker", None) or settled.players[settled.current]
            return tuple(p for i, p in enumerate(settled.players) if settled.can_be_asked(i) and p != asker)
        state = self.game.state
        most = 3
        if state.exchange is not None:
            most = max(1, min(3, state.hands[state.exchange.target]))
        return tuple(str(n) for n in range(1, most + 1))

    # ---- hearing ----

    def hear(self, transcript: Transcript) -> list[Reply]:
        """Rule on one utterance; never raises for anything said."""
        with self._lock:
            best = _best_reading(transcript)
            self._heard_well = _heard_surely(transcript, best.text if best is not None else "")
            self._heard_alike = best.text if best is not None and transcript.engine != "text" and \
                best.confidence >= HEARD_ALIKE else None
            self._agreed = transcript.agreed if transcript.engine != "text" else ()
            try:
                replies = self._hear(transcript)
            finally:
                self._heard_well = True
                self._heard_alike = None
                self._agreed = ()
            replies += self._settle_if_closed()
            pending = self.pending
            if pending is not None and replies and replies[-1].event.get("event") != "question":
                replies[-1] = self._ask(replies[-1], pending)  # e.g. the referee's "How many?"
            return replies

    def _hear(self, transcript: Transcript) -> list[Reply]:
        pending = self.pending
        heard = understand(transcript, self._context(pending))
        base = {"event": "utterance", "heard": transcript.text, "engine": transcript.engine,
                "confidence": round(float(heard.confidence), 3)}
        intent = heard.intent
        if intent is None:
            if pending is not None and pending.confirms is not None and pending.misses + 1 < OFFER_AFTER:
                # "Sevens?" not caught: the sure part of the sentence is kept and the check asked again
                self._pending = again = replace(pending, misses=pending.misses + 1)
                return [self._question(f"{heard.reason or UNHEARD} {again.question}", base, None, "unheard", again)]
            if pending is not None and pending.kind in ("slot", "count"):
                self._pending = again = pending.missed()
                return [self._question(f"{heard.reason or UNHEARD} {again.question}", base, None, "unheard", again)]
            again = self._slot_again(pending) if pending is not None else None
            again = again.missed() if again is not None else None
            if again is not None:
                # "Twos?" not caught a second time: a miss of the slot like any other, so the two
                # likeliest values are offered ("Twos or eights?"), or the slot asked for again ("Ben,
                # which rank?") when fewer than two are left, rather than the sure part dropped
                self._pending = again
                return [self._question(f"{heard.reason or UNHEARD} {again.question}", base, None, "unheard", again)]
            if pending is not None and pending.kind == "confirm":
                self._pending = None  # a confirmation is never carried past what was not caught
            return [self._reply(heard.reason or UNHEARD, base, None, "unheard")]
        if pending is not None and pending.slot == "count" and heard.missing == "count" and \
                isinstance(intent, Answer) and intent.count is not None:
            # A count not heard surely is checked with a yes/no ("Two?") rather than asked again
            self._pending = None
            return [self._check(pending, intent, _merge(pending.likely, heard.likely), base, heard=heard)]
        if pending is not None and pending.kind == "count" and isinstance(intent, (Yes, No)) and \
                transcript.engine != "text":
            # A heard "yes" or "no" at "How many?" answers nothing (a real "three" was heard as
            # "nope"): the count is asked for again rather than "There's nothing to answer yes or no to."
            self._pending = again = pending.missed()
            text = again.question if again.choices != pending.choices else sentences.SORRY_HOW_MANY
            return [self._question(text, base, intent, "slot", replace(again, question=text))]
        denied, self._denied = self._denied, None
        if pending is None and denied is not None and self._repeats_denied(intent, denied):
            return [self._which_rank(intent, denied[0], transcript, heard, base)]
        if pending is None and transcript.engine != "text" and self._repeats_withdrawn(intent):
            return [self._withdrawn_again(intent, transcript, heard, base)]
        if pending is None or pending.kind == "count":
            return self._answer(intent, transcript, heard, base, fresh=pending is None)
        self._pending = None
        if isinstance(intent, Undo) and pending.kind in ("confirm", "overrule", "seen_book") and \
                not isinstance(pending.intent, Undo):
            # "Scratch that" at tabletop's question about a sentence not yet recorded takes back that sentence,
            # not the move before it: asked "Undo the last move?" and answered yes, it undid Ana's go fish
            # while Ben's book was still a question (undo18, clean 4115's audio).
            return [self._reply(sentences.NOT_RECORDED, base, intent, "ok")]
        sure = heard.act or transcript.engine == "text"
        if isinstance(intent, Yes) and not sure and pending.kind in ("confirm", "overrule", "seen_book"):
            # A "yes" not heard surely confirms nothing: an unsure reading (a grammar reading the open
            # decoder did not back, capped below acting) never reaches an action through a question.
            return self._unsure(pending, heard, base, intent)
        if pending.kind == "confirm" and pending.intent is not None and self._answers_nothing(intent) and \
                _yes_words() & set(transcript.text.split()):
            # "wait yes three" to "Ana has a book of fours?" with no ask open: no answer to anything, but
            # the yes with babble around it (20 dB pairs game, seed 4104: asked "Three twos?", then "Go
            # fish?", and the book claimed again). Heard surely, it confirms; else the question is asked again.
            if _heard_surely(transcript, heard.text):
                return self._rule(pending.intent, pending.text, base)
            return self._unsure(pending, heard, base, intent)
        if pending.kind == "confirm" and isinstance(pending.intent, Answer) and \
                not self._impossible_count(pending.intent) and self._impossible_count(intent):
            # "yes two of them" to "One queen?" where one is all Ana can give: not a correction to two
            # ("Two?", which no answer gets past), but her yes with the babble after it (20 dB pairs
            # game, seed 4103: she gave up and typed). Heard surely, the yes confirms the count asked
            # about, as a yes with words the noise made confirms an ask; else the question is asked again.
            if _first_word(transcript.text) in _yes_words() and _heard_surely(transcript, heard.text):
                return self._rule(pending.intent, pending.text, base)
            return self._unsure(pending, heard, base, intent)
        if pending.kind == "confirm" and not sure and (
                isinstance(intent, Query) or (_first_word(transcript.text) in _yes_words() and not isinstance(intent, Yes)
                                              and not isinstance(pending.intent, (Ask, Answer)))):
            # At a yes/no question, an unsure reading that is a question to tabletop, or that opens with
            # a "yes" and reads as something else, is the answer misheard: the question is asked again.
            # En+m6's "yes" to "Go fish?" was heard "what did he ask for" and asked "The last ask?"
            # (twice), and heard "yes three" and asked "Yes, you have some?", where a yes would have
            # given cards the target had just said they lacked (20 dB pairs game seed 4108: the go fish
            # typed after six tries; en-gb+m4's "yes four", seed 4106). A sure question is answered,
            # and the question asked again after the answer (it was dropped: the yes then answered nothing).
            return self._unsure(pending, heard, base, intent)
        if pending.kind == "confirm" and isinstance(intent, Query):
            replies = self._rule(intent, transcript.text, base)
            if self._pending is None and not replies[-1].event.get("changed"):
                self._pending = pending
                last = replies[-1]
                replies[-1] = self._question(sentences.together([last.text, pending.question]), base, intent,
                                             last.event.get("code", "answer"), pending)
            return replies
        if pending.confirms is not None:
            checked = self._check_slot(pending, intent, heard, base)
            if checked is not None:
                return checked
        if pending.kind == "confirm" and _corrects_nothing_asked(intent, pending) and \
                _first_word(transcript.text) in _no_words():
            # "no a three" to "Pause the game?": the question has no rank to correct, so it is the
            # "no", with the babble after it read as a rank (20 dB pairs game, seed 4103: asked back
            # "You said threes?", one more "no" for nothing).
            intent = No()
        if pending.kind in ("confirm", "slot"):
            if isinstance(intent, Yes) and pending.kind == "confirm":
                assert pending.intent is not None
                return self._rule(pending.intent, pending.text, base)
            if pending.kind == "slot" and pending.slot is not None and isinstance(intent, No) and \
                    self._offered(pending):
                # "No" to "Eights or sixes?": neither; both are out of play and the slot asked for again
                self._pending = again = self._asked_again(pending.deny(*pending.choices))
                return [self._question(sentences.together([sentences.OKAY, again.question]), base, intent, "slot", again)]
            if isinstance(intent, No) and pending.instead is not None:
                self._pending = instead = pending.instead
                return [self._question(instead.question, base, intent, "confirm", instead)]
            if isinstance(intent, No):
                if pending.kind == "confirm" and isinstance(getattr(pending.intent, "rank", None), Rank):
                    assert pending.intent is not None
                    self._denied = (pending.intent, len(self.referee.log))
                return [self._reply(sentences.SAY_IT_AGAIN, base, intent, "ok")]
            corrected = _corrected_slot(intent, pending)
            if corrected is not None and transcript.engine != "text":
                return self._correction(pending, intent, corrected, heard, base)
            if pending.kind == "slot" and pending.slot is not None and pending.intent is not None and \
                    type(intent) is type(pending.intent) and getattr(intent, pending.slot, None) is not None and \
                    _slot_json(intent, pending.slot) in pending.denied:
                # A value the player denied in this exchange, heard again ("nines" heard aces after "no" to
                # "Aces?"): never guessed again; a miss of the slot
                self._pending = again = pending.missed()
                return [self._question(f"{UNHEARD} {again.question}", base, intent, "unheard", again)]
            if pending.intent is not None and type(intent) is type(pending.intent):
                # The slot asked for, a corrected slot ("no, sixes") or the sentence again.
                if sure and self._offered(pending) and transcript.engine != "text" and \
                        (pending.slot, _slot_json(intent, pending.slot)) not in self._agreed:
                    # The answer to "Threes or tens?", heard in a grammar of the two values offered:
                    # a third value said is heard as one of them ("sevens" read "ten" by both
                    # decoders and acted on as an ask of tens: clean pairs game seed 4104). Acted on
                    # when the second model heard the same value; else checked ("Tens?"), every
                    # value back in play for a "no, sevens".
                    check = replace(pending, choices=tuple(c for c in self._choices(pending.slot, pending.intent)
                                                           if c not in pending.denied), misses=0)
                    return [self._check(check, intent, _merge(pending.likely, heard.likely), base, heard=heard)]
                if sure:
                    return self._rule(intent, pending.text if pending.kind == "slot" else transcript.text, base)
                if pending.kind == "slot" and heard.missing == pending.slot:
                    likely = _merge(heard.likely, pending.likely)
                    if pending.slot == "rank" and len(pending.choices) > 2 and not pending.evidence and \
                            self._said_alone(heard, "rank", pending.choices,
                                             again=pending.misses > len(pending.denied)):
                        # Heard by the second model too, or said again after "Sorry, I didn't catch
                        # that" and heard alike by both decoders with no other rank in any reading,
                        # it is acted on (see _said_alone).
                        return self._rule(intent, pending.text, base)
                    if pending.slot == "rank" and len(pending.choices) > 2:
                        # A rank heard once is checked with a yes/no ("Sevens?"), far easier to hear
                        # than a rank word: real rank words heard alone were wrong 6% of the time
                        # even when both decoders agreed with the highest confidence. What earlier
                        # hearings read stays likelier than the ranks merely confusable with this one.
                        return [self._check(pending, intent, _merge(pending.likely, heard.likely), base, heard=heard)]
                    if pending.slot == "rank" and len(likely) >= 2:
                        # A rank heard but not sure: offer the two likeliest now ("Threes or eights?")
                        # about the likeliest reading, which is now what was heard
                        pending = replace(pending, intent=intent, misses=max(pending.misses, OFFER_AFTER - 1))
                    self._pending = again = replace(replace(pending, likely=likely).missed(), likely=likely)
                    return [self._question(again.question, base, intent, "slot", again)]
                if pending.kind == "slot" and pending.slot is not None and heard.confirm and \
                        _same_but(intent, pending.intent, pending.slot):
                    # The slot's value, not heard surely (the answer to "Sevens or tens?"): checked
                    # with a yes/no about the slot alone ("Tens?"), heard with a grammar of just that
                    return [self._check(pending, intent, _merge(pending.likely, heard.likely), base, heard=heard)]
                return self._answer(intent, transcript, heard, base)
            if pending.kind == "slot" and isinstance(intent, Yes):
                self._pending = again = pending.missed()
                return [self._question(again.question, base, intent, "slot", again)]
            if pending.kind == "confirm" and isinstance(pending.intent, Ask) and isinstance(intent, Answer) \
                    and _first_word(transcript.text) in _yes_words() and _heard_surely(transcript, heard.text):
                # "yes three" or "yes I do" to "Ben, sevens?": the asker's yes with words the noise
                # made (they moved cards nobody gave, or asked Ben "How many?" when he had none), or
                # Ben's own answer. The yes confirms the ask; the answer is not taken from it: Ben,
                # hearing his ask said back, gives his answer again.
                return self._rule(pending.intent, pending.text, base)
            if isinstance(pending.intent, Ask) and isinstance(intent, (Answer, GoFish)) and not \
                    self._answers(pending.intent, transcript):
                # An unsure "go fish" may be the asker's "no, jacks": ask the same question again.
                # The target's answer may confirm the ask it answers, but only when it is sure on
                # its own, heard as it was said and heard as the answer: a "yes" misheard at 20 dB as
                # an answer was acted on twice (the ask, and "Ben gives Ana an ace").
                self._pending = again = pending.missed()
                return [self._question(again.question, base, intent, "confirm", again)]
            if isinstance(pending.intent, Ask) and isinstance(intent, (Answer, GoFish)):
                # The target answered the ask tabletop was checking: that answer confirms it.
                first = self._rule(pending.intent, pending.text, dict(base, heard=pending.text))
                if first[-1].event.get("changed"):
                    again = understand(transcript, self._context(self.pending))  # now an ask is pending
                    if again.intent is not None:
                        intent, heard = again.intent, again
                    return first + self._answer(intent, transcript, heard, base)
                return first
            return self._answer(intent, transcript, heard, base)
        if pending.kind == "overrule":
            if isinstance(intent, Yes):
                assert pending.action is not None
                ruling = self.referee.overrule(pending.action, pending.text)
                self._write()
                return [self._reply(ruling.text, base, intent, ruling.code, ruling)]
            if isinstance(intent, No):
                return [self._reply(sentences.NOT_RECORDED, base, intent, "ok")]
        if pending.kind == "seen_book":
            if isinstance(intent, Yes):
                assert pending.intent is not None
                return self._rule(pending.intent, pending.text, base, look=False)
            if isinstance(intent, No):
                return [self._reply(sentences.NOT_RECORDED, base, intent, "ok")]
        return self._answer(intent, transcript, heard, base)

    def _correction(self, pending: Pending, intent: Intent, slot: str, heard: Understanding,
                    base: dict[str, Any]) -> list[Reply]:
        """"No, tens" to "Ben, sevens?": one slot of the intent confirmed, corrected. Acted on when the
        hearings together read it surely (the first hearing read it too: see _corrected_surely); else
        the corrected value is checked ("Tens?"), as a value heard once is never acted on. A bare "no"
        is often heard as "no five" or "no Ana" when a grammar holds corrections."""
        assert pending.intent is not None
        denied = _slot_json(pending.intent, slot)
        before = tuple((key.split(":", 1)[1], score) for key, score in pending.evidence
                       if key.startswith(slot + ":"))
        choices = tuple(c for c in self._choices(slot, pending.intent) if c != denied)
        value = _slot_json(intent, slot)
        agreed = (slot, value) in self._agreed
        if heard.act and self._heard_well and (agreed or not _checked_rank(intent, slot)) and \
                _corrected_surely(value, before, _evidence(heard, slot), choices, agreed=agreed):
            return self._rule(intent, pending.text, base)
        check = replace(pending, confirms=slot, evidence=before, choices=choices, misses=0,
                        likely=tuple(v for v, _ in before if v != denied), denied=(denied,))
        return [self._check(check, intent, check.likely, base, heard=heard)]

    def _repeats_denied(self, intent: Intent, denied: tuple[Intent, int]) -> bool:
        """Whether ``intent``, heard right after "say it again", is the sentence whose rank the "no" denied,
        read the same again: the same kind of intent, the same rank, no other player named (a book or
        an ask naming nobody is the current player's), and the game unchanged since."""
        before, log = denied
        if not isinstance(intent, (Ask, Book)):
            # The rank alone is asked for only where its answer fills a sentence ("Ana, which rank?",
            # "A book of which rank?"): a correction's "Which one?" heard "eights" again and again as
            # nothing at all (20 dB pairs game seed 4103: "Ben, any sevens?" typed after six tries).
            return False
        if type(intent) is not type(before) or log != len(self.referee.log) or \
                getattr(intent, "rank", None) != getattr(before, "rank", None):
            return False
        current = self._asker(None)

        def named(said: Intent, slot: str) -> str | None:
            name = getattr(said, slot, None)
            return current if name is None and slot in ("player", "asker") else name

        pairs = ((named(intent, slot), named(before, slot)) for slot in PLAYER_SLOTS)
        return all(now is None or then is None or now == then for now, then in pairs)

    def _repeats_withdrawn(self, intent: Intent) -> bool:
        """Whether ``intent`` is the sentence the player just took back ("scratch that") or corrected,
        read the same again (the same kind, rank and players) with the game unchanged since."""
        if self._withdrawn is None:
            return False
        before, log, _ = self._withdrawn
        if log != len(self.referee.log):
            self._withdrawn = None  # the game moved on: a new exchange
            return False
        if isinstance(intent, Book) and isinstance(before, Book):
            try:
                return intent.rank == before.rank and self.referee.book_player(intent) == before.player
            except IllegalActionError:
                return False
        return self._repeats_denied(intent, (before, log))

    def _withdrawn_again(self, intent: Intent, transcript: Transcript, heard: Understanding,
                         base: dict[str, Any]) -> Reply:
        """The sentence the player took back, heard again the same: asked, never acted on again.

        Clean game 4115: en-us+m2's "book of tens" right after a go fish was read "book of deuce" by
        both decoders (agreement 1.0, confidence 0.92) and acted on ("Ben lays down a pair of twos");
        "no, I said tens" went unheard, "scratch that" took it back, and the same reading was acted on
        again, four times in all (60 repair utterances). A reading the player has taken back is no
        evidence of what they said: the first repeat is asked ("A book of twos?"), and a "no" asks the
        rank with the one taken back out of play ("A book of which rank?", see ``Pending.denied``); a
        repeat after that asks the rank at once."""
        assert self._withdrawn is not None
        before, log, asked = self._withdrawn
        slot = self._rank_again(intent, before, transcript, heard)
        if asked:
            self._pending = slot
            return self._question(slot.question, base, intent, "slot", slot)
        self._withdrawn = (before, log, True)
        ask = Pending("confirm", sentences.confirm(intent), intent=intent, text=transcript.text, instead=slot)
        self._pending = ask
        return self._question(ask.question, base, intent, "confirm", ask)

    def _which_rank(self, intent: Intent, denied: Intent, transcript: Transcript, heard: Understanding,
                    base: dict[str, Any]) -> Reply:
        """The rank a "no" denied, heard again in the sentence said again: the recogniser hears that
        word for the one said ("no, fours" to "A book of fives?" heard "no five", then "book of fours"
        heard "book of fives" again and again: 20 dB pairs games, seeds 4103 and 4104, until typed).
        Asked about a third time, it is denied a third time; so the sure part is kept and the rank
        alone asked for ("A book of which rank?"), likeliest first the other ranks the hearing read,
        then those confused with the denied one. The denied rank is out of play for the exchange (see
        ``Pending.denied``) and the "no" counts as the slot's first miss, so the next miss offers the
        two likeliest left: kept a choice, it came back as the guess again and again (clean game
        4111: en-gb+m4's "nines" heard aces, "Aces?" - "no" four times, typed three times). In the
        simulated games' traces 4 of 11 repeats asked about so did hold the rank denied (a "no" to
        "You said tens?" meant the ask; a "yes" heard as "no"): those now cost more tries, never a
        wrong action."""
        ask = self._rank_again(intent, denied, transcript, heard)
        self._pending = ask
        return self._question(ask.question, base, intent, "slot", ask)

    def _rank_again(self, intent: Intent, denied: Intent, transcript: Transcript, heard: Understanding) -> Pending:
        """The rank of ``intent`` asked for again ("A book of which rank?"), the rank of ``denied`` out of
        play, likeliest first the other ranks the hearing read, then those confused with the denied one;
        the denial is the slot's first miss."""
        rank = _slot_json(denied, "rank")
        choices = tuple(c for c in self._choices("rank", intent) if c != rank)
        confused = tuple(r.symbol for r in load_vocabulary().confused_with(getattr(denied, "rank")))
        likely = tuple(v for v in _merge(heard.likely, confused) if v in choices)
        return Pending("slot", sentences.which_slot(intent, "rank", self._asker(intent)), "rank", intent=intent,
                       text=transcript.text, choices=choices, likely=likely, misses=1, denied=(rank,))

    def _unsure(self, pending: Pending, heard: Understanding, base: dict[str, Any], intent: Intent | None) -> list[Reply]:
        """An answer to ``pending`` not heard surely enough to act on: the question is asked once more
        (as after an answer not caught), then dropped."""
        if pending.misses + 1 < OFFER_AFTER:
            self._pending = again = replace(pending, misses=pending.misses + 1)
            return [self._question(f"{UNHEARD} {again.question}", base, intent, "unheard", again)]
        self._pending = None
        return [self._reply(heard.reason or UNHEARD, base, intent, "unheard")]

    def _check(self, pending: Pending, intent: Intent, likely: tuple[str, ...], base: dict[str, Any],
               again: bool = False, heard: Understanding | None = None) -> Reply:
        """Ask "Sevens?" about the slot of ``intent`` that ``pending`` was waiting for; what ``heard``
        read for the slot is added to the evidence the question keeps."""
        slot = pending.confirms or pending.slot
        assert slot is not None
        value = _slot_json(intent, slot)
        evidence = _add(pending.evidence, _evidence(heard, slot) if heard is not None else ())
        check = Pending("confirm", sentences.check_slot(slot, value, again), "yes_no", intent=intent, text=pending.text,
                        choices=pending.choices, likely=_merge((value,), likely), misses=pending.misses,
                        confirms=slot, evidence=evidence, denied=pending.denied)
        self._pending = check
        return self._question(check.question, base, intent, "confirm", check)

    def _check_slot(self, pending: Pending, intent: Intent, heard: Understanding,
                    base: dict[str, Any]) -> list[Reply] | None:
        """The answer to "Sevens?", a check of one slot heard once; None when it is about something else."""
        slot = pending.confirms
        assert slot is not None and pending.intent is not None
        checked = _slot_json(pending.intent, slot)
        if isinstance(intent, Yes):
            return self._rule(pending.intent, pending.text, base)
        if type(intent) is type(pending.intent) and _same_but(intent, pending.intent, slot) and \
                getattr(intent, slot, None) is not None and _slot_json(intent, slot) in pending.denied:
            # "nope aces" to "Twos?" after "no" to aces: the denied value again is the "no" with a
            # misheard rank, never a new guess ("Aces?" came back four times in clean game 4111)
            intent = No()
        if isinstance(intent, No):
            # Not that value: the sure part is kept and the slot asked for again without it, the "no"
            # a miss of the slot (offering the two likeliest left once it has been missed twice).
            choices = tuple(c for c in pending.choices if c != checked) or pending.choices
            likely = tuple(v for v in pending.likely if v != checked and v in choices and v not in pending.denied)
            partner = self._partner_check(pending, checked, choices, likely, base, intent)
            if partner is not None:
                return [partner]
            ask = self._slot_again(replace(pending, likely=likely))
            assert ask is not None
            ask = ask.deny(checked)
            self._pending = ask
            return [self._question(sentences.together([sentences.OKAY, ask.question]), base, intent, "slot", ask)]
        if type(intent) is not type(pending.intent) or not _same_but(intent, pending.intent, slot):
            return None
        value = _slot_json(intent, slot)
        if value == checked:
            # "Sevens" again to "Sevens?": a misheard "sixes" sounds the same, so it is not a yes
            if pending.misses + 1 >= OFFER_AFTER:
                return [self._reply(sentences.SAY_IT_AGAIN, base, intent, "ok")]
            return [self._check(replace(pending, misses=pending.misses + 1), intent, pending.likely, base, again=True,
                                heard=heard)]
        # "No, tens" (or "tens") to "Sevens?": the speaker denied the value checked and said another.
        # The corrected value is acted on when the hearings together read it surely (see
        # _corrected_surely): the earlier hearing read it too, and no other value still in play
        # comes near it. Otherwise it is heard once, and checked in its turn ("Tens?"). Acting on it
        # whenever it was merely likely was tried: espeak-ng's "no tens" was heard as "no twos" (twos
        # likely only as a rank confusable with sixes) and acted on.
        now = _evidence(heard, slot)
        allowed = tuple(c for c in pending.choices if c != checked) or pending.choices
        agreed = (slot, value) in self._agreed
        if self._heard_well and (agreed or not _checked_rank(intent, slot)) and \
                _corrected_surely(value, pending.evidence, now, allowed, agreed=agreed):
            return self._rule(intent, pending.text, base)
        # A correction heard alike by both decoders and alone is still checked (unlike a rank said again
        # after "Sorry?", see _said_alone): a real FSDD "no, six" to "Tens?" was read "nope four" so, and
        # acted on, in the speech bench (tests/bench/speech.py --context-only --real-limit 80).
        # The value denied stays out of play: a real FSDD "six" heard "ten", then "no nine", then "ten"
        # again to "Nines?" was acted on as tens when the denied tens were still a choice.
        return [self._check(replace(pending, misses=pending.misses + 1, choices=allowed,
                                    denied=_merge(pending.denied, (checked,))), intent,
                            tuple(v for v in pending.likely if v != checked), base, heard=heard)]

    def _partner_check(self, pending: Pending, checked: str, choices: tuple[str, ...], likely: tuple[str, ...],
                       base: dict[str, Any], intent: Intent) -> Reply | None:
        """After "no" to "Tens?", a check of a rank that a rank still in play is steadily heard as
        (vocabulary.yaml's ``steadily_confused_ranks``: a real FSDD "six" is heard "ten"), that rank
        is checked next with a yes/no ("Okay. Sixes?") rather than the rank asked for again: the
        re-said six is heard "ten" again, where a yes is easy to hear. A sure yes acts; a "no" asks
        for the rank ("Ana, which rank?") without either. None when no such rank is in play."""
        if pending.confirms != "rank" or pending.intent is None or not hasattr(pending.intent, "rank"):
            return None
        partners = tuple(said for said in _steadily_heard_for(checked) if said in choices)
        if not partners:
            return None
        value = partners[0]
        about = replace(pending.intent, rank=Rank.from_symbol(value))
        if getattr(about, "card", None) is not None:
            about = replace(about, card=None)  # "the ten of hearts" denied: the six asked about has no suit
        check = Pending("confirm", sentences.check_slot("rank", value, False), "yes_no", intent=about,
                        text=pending.text, choices=choices, likely=_merge((value,), likely),
                        misses=pending.misses, confirms="rank", evidence=pending.evidence,
                        denied=_merge(pending.denied, (checked,)))
        self._pending = check
        return self._question(sentences.together([sentences.OKAY, check.question]), base, intent, "confirm", check)

    def _said_alone(self, heard: Understanding, slot: str, allowed: tuple[str, ...], again: bool = True) -> bool:
        """Whether the value ``heard`` gives ``slot`` is sure on its own, heard a second time (said
        again after "Sorry, I didn't catch that"): both decoders read the
        same words (confidence at least :data:`HEARD_ALIKE`), no reading held another value, the
        value is still in play, and it is not what a value in play is steadily heard as (a said
        six is heard "ten": see :func:`_steadily_heard_for`).

        A rank word heard once is checked however sure; heard so a second time, it is acted on.
        Real rank words of the speech bench (FSDD, Speech Commands; ``tests/bench/speech.py
        --context-only --real-limit 80 --repeat other``, all speakers) said again or as "no, six"
        were heard so 5 times, all right (but a "no, six" to "Tens?" was read "nope four" so in a
        later run: a correction stays checked); heard alone but below :data:`HEARD_ALIKE` (0.82 to 0.84),
        2 of 4 were wrong (a "six" heard "no four", "no eight"). On a first hearing, 114 read so in
        the tune and check halves were all right, where 48 as sure with another rank among the
        readings were wrong 12 times (a "six" heard "three", "eight" or "king", an "eight" heard
        "king"); a FSDD "six" heard "ten" alone is kept out by the last rule.

        Or the second model (Moonshine, ``Transcript.agreed``) heard the same value, this hearing read
        it best, and it is none of the ranks heard for one another (vocabulary.yaml's ranks_checked,
        ranks_heard_alike, steadily_confused_ranks: fives/nines, kings/queens, sixes/tens), whatever
        other ranks PocketSphinx's readings held. In the speech bench (same command, agree16) every
        rank named alone at "which rank?" that both models heard was right: FSDD 48/48, Speech
        Commands 51/51 (26 fives/nines and 4 sixes among them, kept checked all the same); a real
        SC "eight" said again after "Sorry?", read "eight" with "ace" among the readings, was checked
        and lost its one repair. This holds at the first hearing too (``again`` false: the rank named
        alone straight after "Ana, which rank?"), where only the second model's word counts: of those
        that would act so, FSDD 36 and SC 32 were all right (agree16's log), where checking them all
        left ranks right at once at 0% on both sets, every one costing a "yes"."""
        now = _evidence(heard, slot)
        if heard.intent is None or not now or _slot_json(heard.intent, slot) != now[0][0]:
            return False
        value = now[0][0]
        if value not in allowed or any(said in allowed for said in _steadily_heard_for(value)):
            return False
        if (slot, value) in self._agreed and not (slot == "rank" and load_vocabulary().mistakable(Rank.from_symbol(value))):
            return True
        return again and self._heard_alike is not None and heard.text == self._heard_alike and len(now) == 1

    def _slot_again(self, pending: Pending) -> Pending | None:
        """The slot a check of one slot ("Twos?") asks about, asked for again ("Ben, which rank?"),
        with what the check kept (likeliest values, evidence, values denied, misses); None when
        ``pending`` checks no slot."""
        slot = pending.confirms
        if slot is None or pending.intent is None or pending.kind != "confirm":
            return None
        question = self._slot_question(slot, pending.intent)
        return Pending("slot", question, slot, intent=pending.intent, text=pending.text, choices=pending.choices,
                       likely=pending.likely, misses=pending.misses, evidence=pending.evidence,
                       denied=pending.denied)

    def _slot_question(self, slot: str, intent: Intent) -> str:
        """How a slot of ``intent`` is asked for: "How many?", "Ben, which rank?", "Sevens from whom?"."""
        return sentences.HOW_MANY if slot == "count" else sentences.which_slot(intent, slot, self._asker(intent))

    def _asked_again(self, pending: Pending) -> Pending:
        """A slot question whose offer was denied, asked for again in its own words over every value
        still in play ("Okay. Ben, which rank?")."""
        assert pending.slot is not None and pending.intent is not None
        slot = pending.slot
        question = self._slot_question(slot, pending.intent)
        choices = tuple(c for c in self._choices(slot, pending.intent) if c not in pending.denied) or pending.choices
        return replace(pending, question=question, choices=choices)

    @staticmethod
    def _offered(pending: Pending) -> bool:
        """Whether ``pending`` offers the two likeliest values of a rank or a count ("Threes or tens?",
        after two misses: see ``Pending.missed``)."""
        return pending.kind == "slot" and pending.slot in ("rank", "count") and \
            pending.misses >= OFFER_AFTER and len(pending.choices) == 2

    def _asker(self, intent: Intent | None) -> str | None:
        settled = self.game.settled()
        return getattr(intent, "asker", None) or (None if settled.over else settled.players[settled.current])

    def _answers(self, ask: Ask, transcript: Transcript) -> bool:
        """Whether ``transcript`` is surely an answer to ``ask``, heard as if the ask were pending."""
        asked = replace(self._context(None), phase="answer", asker=ask.asker or self._context(None).current,
                        target=ask.target, rank=ask.rank)
        again = understand(transcript, asked)
        if isinstance(again.intent, GoFish) and _first_word(transcript.text) in _no_words():
            return False  # "no, I don't" sounds like the asker's "no, jacks": the question is asked again
        # sure on its own: acted on as the answer, and what the recogniser heard best, heard surely
        return again.act and isinstance(again.intent, (Answer, GoFish)) and _heard_surely(transcript, again.text)

    def _answer(self, intent: Intent, transcript: Transcript, heard: Understanding,
                base: dict[str, Any], *, fresh: bool = False) -> list[Reply]:
        """Act on a heard intent, or ask about it when it is not sure; ``fresh`` when no question of
        tabletop's was pending as it was said."""
        if isinstance(intent, Book) and transcript.engine != "text" and self.game.state.phase is Phase.ANSWER:
            # A book heard while an ask waits for its answer is that answer misheard: no book can be
            # laid before the ask is answered (the referee refuses it), and the target is the one
            # talking. En-gb+m4's "I got one" heard "i got all the five" was asked "A book of fives?",
            # denied, then "A book of which rank?" four times until typed (20 dB pairs game seed 4105);
            # "I have one" heard "i have a book of eight" (seed 4104), "i have all the three" (4105).
            # The answer it most likely was is asked about ("Yes, you have some?"), never acted on.
            return self._ask_if_meant(_answer_meant(heard, transcript), transcript, base)
        if fresh and (heard.confirm or not self._heard_well) and self._game_proves(intent, transcript, heard):
            # The book public knowledge proves ("Ben, that makes a pair of tens: lay it down"), heard
            # unsurely (a reading the open decoder did not back): the game itself is the second
            # hearing. Asking it back ("A book of tens?") was the commonest extra utterance of the
            # books in the simulated pairs games at 20 dB: in the traces of five games (seeds 4103,
            # 4104) 21 such readings were asked, all right. A book of another rank is asked as before.
            return self._rule(intent, transcript.text, base, proven=True)
        if fresh and heard.confirm and self._open_backs_ask(intent, transcript, heard):
            # An ask capped below acting (the open decoder heard its other words otherwise, or its rank
            # quieter than the speaker) whose rank the open decoder heard alone, with nobody else to ask
            # and no rank it may have been said for in play: the game and the open decoder together
            # are its second hearing (see _open_backs_ask).
            return self._rule(intent, transcript.text, base, proven=True)
        if heard.missing is not None and heard.confirm:
            ask = Pending("slot", heard.confirm, heard.missing, intent=intent, text=transcript.text,
                          choices=self._choices(heard.missing, intent), likely=heard.likely)
            if fresh and heard.missing == "rank" and (meant := self._book_meant(intent, transcript, heard)) is not None:
                # "book of fives" heard "a book of nines", unsure between the two: where the game leaves
                # one of them alone ("that makes a pair of fives", or nines that can't be this player's
                # book), "A book of fives?" rather than "A book of which rank?"; a "no" asks that.
                ask = Pending("confirm", sentences.confirm(meant), intent=meant, text=transcript.text, instead=ask)
                self._pending = ask
                return [self._question(ask.question, base, meant, "confirm", ask)]
            self._pending = ask
            return [self._question(heard.confirm, base, intent, "slot", ask)]
        if self._open_heard_negated(intent, transcript, heard):
            # "I don't have one" read "i do have one" by the grammar, backed by the open decoder's "i don't
            # have one" (most words in common) and acted on: a card given for a no (en-us+f5 and en+f3,
            # clean). Where the open decoder heard a "don't" (or a "none") in the very place the grammar's
            # yes has a "do" (or a "one"), the same words before it, the go fish is asked ("Go fish?"),
            # and a "no" to that asks about the answer heard.
            meant = Answer(None) if isinstance(intent, Yes) else intent
            answer = Pending("confirm", sentences.confirm(meant, self._context(None).rank), intent=meant,
                             text=transcript.text)
            ask = Pending("confirm", sentences.confirm(GoFish()), intent=GoFish(), text=transcript.text, instead=answer)
            self._pending = ask
            return [self._question(ask.question, base, GoFish(), "confirm", ask)]
        if heard.confirm and self._open_heard_yes(intent, transcript, heard):
            # In the pairs game the target can give one card at most, so the count word heard does not
            # matter: only whether it was a yes. Ben's (en-us+f1) "one" is read "two" by the open
            # decoder again and again, so "yes, one" was capped and asked "One seven?" (clean pairs game
            # seed 4108: 10 of its 29 extra utterances were one-card answers). An answer the open
            # decoder, the second hearing, heard open with a yes ("yes the ana", "here you go three") and
            # with no "no" (see _open_heard_yes) is the one card. Never a rescued reading, which the
            # open decoder did not back: "nope" rescued as "i have two of them" (20 dB seed 4107).
            return self._rule(Answer(1), transcript.text, base, proven=True)
        if heard.confirm and isinstance(intent, (Yes, No)) and self.game.state.phase is Phase.ANSWER:
            # An unsure "yes" or "no" right after an ask is the referee's answer (Answer, or a go fish)
            # heard unsurely: asked about ("Yes, you have some?" · "Go fish?"), never acted on. Real
            # Speech Commands "sheila"s were heard as "sure" and acted on as Ben's "yes".
            return self._ask_if_meant(Answer(None) if isinstance(intent, Yes) else GoFish(), transcript, base)
        if heard.confirm and not self._heard_well and self._impossible_count(intent):
            # "yes three" heard unsurely (the open decoder did not back it) where the target can give
            # one card at most (the pairs game): the count is the babble's. Asking "Three jacks?" only
            # led to "Ana can't give three" again and again (20 dB pairs game, seed 4101); the yes alone
            # is asked about. Heard surely, the count is checked as heard ("Three jacks?"): the table
            # may overrule what public knowledge says (test_table_implausible_counts.py).
            return self._ask_if_meant(Answer(None), transcript, base)
        if heard.confirm and isinstance(intent, Lucky) and intent.rank is not None and \
                intent.rank != self._context(None).rank:
            # A lucky fish is the rank asked for: one of another rank, heard unsurely, is the lucky fish with
            # its rank misheard ("I drew it" read "i drew eight" after an ask of queens, 20 dB seed 4110), so
            # tabletop asks "Lucky fish?". Asked "Lucky fish, an eight?", the yes was refused ("Ana asked for
            # queens, so that's no lucky fish.") and the lucky fish said again, twice.
            return self._ask_if_meant(Lucky(), transcript, base)
        if heard.confirm and not isinstance(intent, (Yes, No)):
            ask = Pending("confirm", heard.confirm, intent=intent, text=transcript.text,
                          evidence=_readings(heard))
            if fresh and self._likelier_go_fish(intent, transcript):
                # "nope" heard as "no tens" right after "Ben, tens?": Ben's go fish is far likelier
                # than Ana correcting her ask, so tabletop asks "Go fish?"; a "no" to that asks about
                # the correction ("You said tens?"), so an asker who meant it is never sent round again.
                ask = Pending("confirm", sentences.confirm(GoFish()), intent=GoFish(), text=transcript.text, instead=ask)
            elif fresh and self._likelier_answer(intent, transcript):
                # "I have one" heard "no i have one" right after "Ben, fours?": a correction of a count
                # nobody has given yet is the target's answer misheard, so tabletop asks "One four?"; a
                # "no" to that asks about the correction ("You said one?"). 20 dB pairs game seed 4104:
                # "You said one?" was denied, and the answer said a third time.
                assert isinstance(intent, Correct) and intent.count is not None
                meant = Answer(intent.count)
                ask = Pending("confirm", sentences.confirm(meant, self._context(None).rank), intent=meant,
                              text=transcript.text, instead=ask)
            elif fresh and (meant := self._likelier_ask(intent, transcript) or
                            self._proven_book(intent, transcript)) is not None:
                # What the mishearing most likely meant is asked first; a "no" to it asks about what was
                # heard. "Ben, any eights?" heard "i meant any eights" (en-us+f1's "Ben", nine times in the
                # 20 dB pairs game seed 4103): at the start of a turn a rank with "I meant" before it is
                # the player's ask with its name misheard, likelier than a correction of a sentence
                # already over, so tabletop asks "Ben, eights?" before "You said eights?". "book of fours"
                # heard "book of fives" right after "Ana, that makes a pair of fours: lay it down"
                # (en-us+f1, the same game, three times until typed): the book public knowledge proves is
                # likelier than one it does not, so "A book of fours?" before "A book of fives?".
                ask = Pending("confirm", sentences.confirm(meant), intent=meant, text=transcript.text,
                              instead=None if isinstance(intent, GoFish) else ask)
            self._pending = ask
            return [self._question(ask.question, base, ask.intent, "confirm", ask)]
        held = self._book_held_instead(intent, transcript) if fresh else ()
        if held:
            # "book of tens" read "book of deuce" by both decoders, the open decoder's third reading "book
            # of ten is", where Ben had asked for tens and never for twos (clean game 4115: acted on,
            # taken back, acted on again, four times). The rank he is known to hold is asked first ("A
            # book of tens?"); a "no" asks about the book heard ("A book of twos?"). Two such ranks:
            # the book heard is asked about.
            ask = Pending("confirm", sentences.confirm(intent), intent=intent, text=transcript.text)
            if len(held) == 1:
                meant = replace(intent, rank=held[0])
                ask = Pending("confirm", sentences.confirm(meant), intent=meant, text=transcript.text, instead=ask)
            self._pending = ask
            return [self._question(ask.question, base, ask.intent, "confirm", ask)]
        return self._rule(intent, transcript.text, base)

    def _book_held_instead(self, intent: Intent, transcript: Transcript) -> tuple[Rank, ...]:
        """For a heard book the game does not prove, of a rank public knowledge does not say the player
        holds: the other ranks the open decoder read in its place in its first ``OPEN_BOOK_READINGS``
        readings that public knowledge says the player does hold (they asked for it); else none.

        Weighed on the kept traces of 10 simulated pairs games with journals (seeds 4108-4115, 59
        acted books the game did not prove): 4 such readings, all wrong (4115's "book of tens" read
        twos, and its three repeats); no right book asked. Any other rank in those readings would
        have asked 4 right books too, in the first 25 readings 9. Over all 19 distinct kept traces
        (379 acted books; what a player holds taken from their asks) 1 right book is asked (20 dB
        4105: "book of two", "five" in the open readings, fives asked for) besides those 4 wrong."""
        if not isinstance(intent, Book) or transcript.engine == "text" or self.game.state.over:
            return ()
        state = self.game.state
        try:
            player = state.index(self.referee.book_player(intent))
        except IllegalActionError:
            return ()
        if player < 0 or intent.rank in self._books_proven(intent) or \
                state.knowledge.holds_at_least(player, intent.rank) >= 1:
            return ()
        held: list[Rank] = []
        for reading in transcript.heard_open[:OPEN_BOOK_READINGS]:
            rank = _book_rank_read(reading, self.game.players)
            if rank is not None and rank is not intent.rank and rank not in held and not state.closed(rank) and \
                    state.knowledge.holds_at_least(player, rank) >= 1:
                held.append(rank)
        return tuple(held)

    def _likelier_ask(self, intent: Intent, transcript: Transcript) -> Ask | None:
        """The ask a heard correction of a rank alone (with no "no" before it), or a go fish whose words
        name one rank, most likely was: with no ask open, where one player alone can be asked, and the
        rank can be asked.
        None otherwise (a "no, I said sevens" stays a correction; with two players or more to ask, the
        name is not guessed)."""
        if transcript.engine == "text" or self.game.state.phase in (Phase.ANSWER, Phase.COUNT):
            return None
        if isinstance(intent, GoFish):
            # "Ana, got any sixes?" heard "i haven't got any sixes" (en-us+f5 twice in the 20 dB pairs
            # game seed 4106: "Go fish?", "no", said again): with no ask open a go fish answers
            # nothing, and the one rank its words name is the player's ask with its name misheard.
            ranks = {v for s, v in slot_values_said(transcript.text, self.game.players) if s == "rank"}
            if len(ranks) != 1:
                return None
            intent = Correct(rank=Rank.from_symbol(ranks.pop()))
        elif not isinstance(intent, Correct) or intent.rank is None or intent.target is not None or \
                intent.count is not None or intent.player is not None or _first_word(transcript.text) in _no_words():
            return None
        assert isinstance(intent, Correct) and intent.rank is not None
        meant = Ask(target="", rank=intent.rank)
        targets = self._choices("target", meant)
        if len(targets) != 1 or intent.rank.symbol not in self._choices("rank", meant):
            return None
        return replace(meant, target=targets[0])

    def _open_backs_ask(self, intent: Intent, transcript: Transcript, heard: Understanding) -> bool:
        """Whether ``intent``, an ask the recogniser heard best but unsurely (capped, or checked for its
        rank's confusable partners), is sure from what the open decoder heard (``Transcript.heard_open``)
        and what the game knows: the open decoder's best reading names the ask's rank and no other; none
        of its readings names another rank without it (a babble's rank word beside it is no rival) or a
        rank confused with it; the player asked is the only one who can be asked (or that best reading
        names them too); the asker is the current player; and every rank heard for this one with no
        trace in any reading (``Vocabulary.heard_for``: nines and fours for fives, sevens for tens,
        kings for queens, sixes for tens) is out of play: all booked, or known not to be in the asker's
        hand.

        The last is what public knowledge adds: the open decoder agreeing proves nothing between such
        ranks (en+f3's fives read nines by both decoders, no five in 25 readings; en-us+f1's fours read
        fives). Weighed on the kept traces of 17 simulated pairs games (seeds 4103-4109, clean and 20
        dB, each replayed utterance by utterance): 37 asks acted on at once, none wrong. Acting so
        on an "I meant twos" read as the ask its name was misheard in (``_likelier_ask``) saved 7 more
        but acted on a "scratch that" read "i said an two not two": left asked."""
        if not isinstance(intent, Ask) or transcript.engine == "text" or not transcript.heard_open or \
                getattr(intent, "card", None) is not None:
            return False
        state = self.game.state
        settled = self.game.settled()
        if settled.over or state.phase in (Phase.ANSWER, Phase.COUNT):
            return False
        if not _read_best(transcript, heard.text):
            return False  # a reading the recogniser did not hear best
        if intent.asker not in (None, settled.players[settled.current]):
            return False
        targets = self._choices("target", intent)
        if intent.target not in targets or intent.rank.symbol not in self._choices("rank", intent):
            return False
        players = self.game.players
        said = [{v for slot, v in slot_values_said(t, players) if slot == "rank"} for t in transcript.heard_open]
        rank, vocab = intent.rank.symbol, load_vocabulary()
        partners = {r.symbol for r in (*vocab.confused_with(intent.rank), *vocab.heard_for(intent.rank))}
        if said[0] != {rank} or any((ranks and rank not in ranks) or ranks & partners for ranks in said):
            return False  # another rank read instead (babble's rank words beside it are no rival), or a partner
        if len(targets) > 1 and ("target", intent.target) not in slot_values_said(transcript.heard_open[0], players):
            return False
        return all(settled.closed(other) or settled.knowledge.holds_none(settled.current, other)
                   for other in vocab.heard_for(intent.rank))

    def _game_proves(self, intent: Intent, transcript: Transcript, heard: Understanding) -> bool:
        """Whether ``intent``, what the recogniser heard best, is a book that public knowledge proves the
        player it would be recorded for holds (a pair in the pairs game: "that makes a pair of tens:
        lay it down"), of a rank still open."""
        if not isinstance(intent, Book) or transcript.engine == "text":
            return False
        if not _read_best(transcript, heard.text):
            return False  # a reading the recogniser did not hear best
        return intent.rank in self._books_proven(intent)

    def _proven_book(self, intent: Intent, transcript: Transcript) -> Book | None:
        """The book public knowledge proves for the player a heard book would be recorded for, when the
        heard rank is another and that player holds one such book alone; else None."""
        if not isinstance(intent, Book) or transcript.engine == "text":
            return None
        proven = self._books_proven(intent)
        if len(proven) != 1 or intent.rank in proven:
            return None
        return replace(intent, rank=proven[0])

    def _book_meant(self, intent: Intent, transcript: Transcript, heard: Understanding) -> Book | None:
        """Of the ranks a heard book's rank is unsure between (``heard.likely``: "book of fives" heard "a
        book of nines"), the one the game leaves: the book public knowledge proves for the player ("Ben,
        that makes a pair of fives: lay it down"), else the one rank whose book can be theirs
        (``_book_can_be``) among those and every rank heard for them (a book of queens that can't be
        Ana's may be kings heard so, not the threes confused with queens). None otherwise, and for
        typed text.

        In the kept traces of 17 simulated pairs games this changed one question: en-us+f1's "book of
        fives" heard "a book of nines" right after "Ben, that makes a pair of fives" was asked "A book
        of which rank?" (then "Fives?", "yes"), now "A book of fives?" (20 dB seed 4109)."""
        if not isinstance(intent, Book) or transcript.engine == "text" or self.game.state.over:
            return None
        likely = [Rank.from_symbol(v) for v in heard.likely if v in {r.symbol for r in RANKS}]
        proven = self._books_proven(intent)
        if len(proven) == 1 and (proven[0] is intent.rank or proven[0] in likely):
            return replace(intent, rank=proven[0])
        try:
            player = self.game.state.index(self.referee.book_player(intent))
        except IllegalActionError:
            return None
        vocab = load_vocabulary()
        pool = dict.fromkeys((*likely, *(p for r in likely for p in (*vocab.confused_with(r), *vocab.heard_for(r)))))
        open_ranks = [r for r in pool if player >= 0 and self._book_can_be(player, r)]
        return replace(intent, rank=open_ranks[0]) if len(likely) >= 2 and len(open_ranks) == 1 else None

    def _book_can_be(self, player: int, rank: Rank) -> bool:
        """Whether public knowledge leaves ``player`` a book of ``rank`` (what the referee would not
        question: the rank still open, not said to hold none, nobody else known to hold one of its last book)."""
        state, rules = self.game.state, self.game.rules
        if state.closed(rank) or state.knowledge.holds_none(player, rank) or state.hands[player] < rules.book_size:
            return False
        last = state.times_booked(rank) + 1 >= rules.books_per_rank
        return not (last and any(state.knowledge.holds_at_least(p, rank) for p in range(len(state.players)) if p != player))

    def _books_proven(self, intent: Book) -> list[Rank]:
        """The ranks still open of which public knowledge proves a book in the hand of the player
        ``intent`` would be recorded for (``Referee.book_player``); none when the game is over or the
        name is not at the table."""
        state, size = self.game.state, self.game.rules.book_size
        if state.over:
            return []
        try:
            player = state.index(self.referee.book_player(intent))
        except IllegalActionError:  # a name not at the table
            return []
        if player < 0:
            return []
        return [r for r in RANKS if not state.closed(r) and state.knowledge.holds_at_least(player, r) >= size]

    def _ask_if_meant(self, meant: Intent, transcript: Transcript, base: dict[str, Any]) -> list[Reply]:
        """Ask whether ``meant`` is what was said ("Yes, you have some?" · "Go fish?"): the intent an
        unsure hearing most likely stands for, not the one read."""
        ask = Pending("confirm", sentences.confirm(meant), intent=meant, text=transcript.text)
        self._pending = ask
        return [self._question(ask.question, base, meant, "confirm", ask)]

    def _open_heard_yes(self, intent: Intent, transcript: Transcript, heard: Understanding) -> bool:
        """Whether ``intent``, a yes or an answer heard unsurely right after an ask whose target can give
        one card at most (``_most_given``: the pairs game), is surely a yes: it is what the recogniser
        heard best, not a rescued reading, and the open decoder (``Transcript.heard_open``) heard a yes
        first at its best ("yes", "here you go": ``_yes_openers``) and no word that says no
        (:data:`_NO_HEARD`) in its best readings (:data:`OPEN_YES_READINGS`)."""
        if transcript.engine == "text" or transcript.rescued or not transcript.heard_open:
            return False
        if not (isinstance(intent, Yes) or type(intent) is Answer):
            return False
        if self.game.state.phase is not Phase.ANSWER or self._most_given() != 1:
            return False
        if not _read_best(transcript, heard.text):
            return False
        first = transcript.heard_open[0].split()
        if not any(first[:len(opener)] == list(opener) for opener in _yes_openers()):
            return False
        return not any(_NO_HEARD & set(t.split()) for t in transcript.heard_open[:OPEN_YES_READINGS])

    def _open_heard_negated(self, intent: Intent, transcript: Transcript, heard: Understanding) -> bool:
        """Whether ``intent``, a yes or an answer right after an ask, what the recogniser heard best, is
        what the open decoder heard as a no: its best reading has a word that says no ("don't", "none")
        where the reading has that word's yes ("do", "one"), the same words before it (``_NEGATED``)."""
        if transcript.engine == "text" or not transcript.heard_open or self.game.state.phase is not Phase.ANSWER:
            return False
        if not (isinstance(intent, Yes) or type(intent) is Answer):
            return False
        if not _read_best(transcript, heard.text):
            return False
        said, opened = heard.text.split(), transcript.heard_open[0].split()
        return any(said[i] in _NEGATED.get(word, ()) and said[:i] == opened[:i]
                   for i, word in enumerate(opened[:len(said)]))

    def _impossible_count(self, intent: Intent) -> bool:
        """Whether ``intent`` is an answer whose count is more than the target of the pending ask can
        give (``_most_given``), where they can give some."""
        if not isinstance(intent, Answer) or intent.count is None:
            return False
        most = self._most_given()
        return most is not None and 1 <= most < intent.count

    def _answers_nothing(self, intent: Intent) -> bool:
        """Whether ``intent`` is an answer with a count while no ask waits for one."""
        return isinstance(intent, Answer) and intent.count is not None and \
            self.game.state.phase not in (Phase.ANSWER, Phase.COUNT)

    def _likelier_answer(self, intent: Intent, transcript: Transcript) -> bool:
        """Whether a heard correction of a count alone comes right after an ask (no answer given yet),
        with a count the target can give: the target's answer misheard is likelier than a correction
        of a count nobody said."""
        if not isinstance(intent, Correct) or transcript.engine == "text" or self.game.state.phase is not Phase.ANSWER:
            return False
        if intent.count is None or intent.rank is not None or intent.target is not None or intent.player is not None:
            return False
        return not self._impossible_count(Answer(intent.count))

    def _likelier_go_fish(self, intent: Intent, transcript: Transcript) -> bool:
        """Whether a heard correction opening with "no" comes right after an ask (nothing else said
        since): the target's "nope" misheard is then likelier than the asker's "no, tens". Not when
        it says it corrects ("no, I said fives", "no, I meant fives"): a "nope" is not heard as four
        words. In the kept traces of 15 pairs games (seeds 4103-4108) all 16 such readings right after
        an ask were the asker's "no, I said ...", each asked "Go fish?" and denied before "You said
        nines?"; they are asked "You said nines?" at once (never acted on, as before)."""
        return (isinstance(intent, Correct) and transcript.engine != "text"
                and self.game.state.phase is Phase.ANSWER and intent.count is None and intent.player is None
                and _first_word(transcript.text) in _no_words()
                and not _CORRECTING_WORDS & set(transcript.text.lower().split()))

    def hear_text(self, text: str) -> list[Reply]:
        """Rule on one typed line."""
        return self.hear(Transcript.typed(text))

    def hear_audio(self, utterance: Any, recogniser: Any) -> list[Reply]:
        """Hear one recorded utterance with ``recogniser`` in the game's context, and rule on it."""
        return self.hear(recogniser.hear(utterance, self.context()))

    def idle(self) -> list[Reply]:
        """A moment of quiet at the table: settle the open exchange."""
        with self._lock:
            if self.paused or self.stopped:
                return []
            ruling = self.referee.settle()
            self._write()
            if not ruling.say:
                return []
            return [Reply(ruling.text, {"event": "settle", "say": ruling.text, "changed": True,
                                          "state": self.game.public()})]

    def _settle_if_closed(self) -> list[Reply]:
        """Settle at once when nothing more can belong to the open exchange: a miss with nothing drawn
        (no lucky fish, nobody took cards), or a late call already settled into the ask phase."""
        if self.paused or self.stopped or not self.game.needs_settle():
            return []
        s = self.game.state
        closed = s.phase is Phase.ASK or (s.phase is Phase.AFTER_MISS and s.exchange is not None
                                          and not s.exchange.drew)
        return self.idle() if closed else []

    # ---- ruling ----

    def _rule(self, intent: Intent, text: str | None, base: dict[str, Any], *, look: bool = True,
              proven: bool = False) -> list[Reply]:
        """Act on ``intent``; ``proven`` when the game's public knowledge backs what was heard unsurely
        (see _game_proves)."""
        if not self._heard_well and not proven and not isinstance(intent, Query):
            # The last line of defence: whatever path led here, an utterance the recogniser heard
            # unsurely (its best reading under ACT: a rescued grammar reading is capped at 0.45)
            # is asked about, never acted on.
            ask = Pending("confirm", sentences.confirm(intent, self._context(None).rank), intent=intent, text=text)
            self._pending = ask
            return [self._question(ask.question, base, intent, "confirm", ask)]
        if isinstance(intent, Control):
            return [self._control(intent, base)]
        intent = self._with_implied_count(intent)
        if self.paused and not isinstance(intent, Query):
            return [self._reply(sentences.PAUSED, base, intent, "paused")]
        seen: list[str] = []
        if isinstance(intent, (Ask, Answer, GoFish)) and self.game.needs_settle():
            # Nothing of the open exchange follows an ask or an answer: settle it now, and keep the
            # announcement ("Ben's turn.") even when this line is refused.
            settle = self.referee.settle()
            self._write()
            seen += settle.say
        if look and isinstance(intent, Book) and self.eyes is not None and not self.game.state.over:
            code, say, detail = self._look(intent)
            if code in ("not_confirmed", "unsure"):
                question = sentences.question(say)
                ask = Pending("seen_book", question, intent=intent, text=text)
                self._pending = ask
                return [self._question(sentences.together(seen + [question]), base, intent, "question", ask, bool(seen))]
            seen.append(say)
            if detail:
                base = dict(base, detail=detail)
        before = [step.action for step in self.game.history] if isinstance(intent, (Undo, Correct)) else []
        ruling = self.referee.handle(intent, text)
        self._write()
        if before and ruling.changed:
            self._withdraw(before)
        if ruling.code == "question" and self.referee.question is not None:
            q, self.referee.question = self.referee.question, None  # the table keeps the one pending question
            ask = Pending("overrule", ruling.text, intent=intent, text=q.text, action=q.action)
            self._pending = ask
            return [self._question(sentences.together(seen + ruling.say), base, intent, "question", ask, bool(seen))]
        reply = self._reply(sentences.together(seen + ruling.say), base, intent, ruling.code, ruling)
        if seen and not ruling.changed:
            reply.event["changed"] = True
            reply.event["state"] = self.game.public()
        return [reply]

    def _withdraw(self, before: list[Any]) -> None:
        """Remember the ask or book an undo took back, or a correction replaced (``before``: the game's
        actions until then), so that the same reading heard again is asked, not acted on (see
        _withdrawn_again)."""
        after = [step.action for step in self.game.history]
        gone = next((a for a, b in zip(before, after + [None] * len(before)) if a != b), None)
        said: Intent | None = None
        if isinstance(gone, BookAction):
            said = Book(rank=gone.rank, player=gone.player)
        elif isinstance(gone, AskAction):
            said = Ask(target=gone.target, rank=gone.rank, asker=gone.asker)
        self._withdrawn = (said, len(self.referee.log), False) if said is not None else None

    def _with_implied_count(self, intent: Intent) -> Intent:
        """A "yes" to an ask (``Yes``, or an answer with no count) whose target can give one card at
        most (``_most_given``: in the pairs game a player lays each pair as soon as they hold it) is
        an answer of one card: "How many?" would ask what the game already knows. The 20 dB pairs
        game seed 4105 asked it 11 times after a yes, for 22 more utterances (en-gb+m4's "one" went
        unheard until typed, twice). Where the target may hold more, the referee still asks."""
        if isinstance(intent, Yes) or (type(intent) is Answer and intent.count is None):
            if self.game.state.phase is Phase.ANSWER and self._most_given() == 1:
                return Answer(1)
        return intent

    def _look(self, intent: Book) -> tuple[str, str, str]:
        """Look for the claimed book: (verdict, what was seen, detail). A failing camera is put away."""
        assert self.eyes is not None
        try:
            check = self.eyes.look(intent.rank, self.game.rules.book_size)
        except SetupError as error:  # the detail (a path, a command) is printed, never spoken
            self.eyes = None
            return "no_camera", sentences.camera_problem(error.code), error.reason
        return check.verdict, check.say, ""

    def _control(self, intent: Control, base: dict[str, Any]) -> Reply:
        if intent.what == "pause":
            self.paused = True
            return self._reply(sentences.PAUSED, base, intent, "control")
        if intent.what == "resume":
            public = self.game.public()
            now = sentences.now(public["over"], public["current"], public["winners"])
            if not self.paused:
                # Nothing to resume: a heard "go on" (real "go"s and "no"s were heard so) changes
                # nothing and says where the game is, rather than announcing a resume.
                return self._reply(now, base, intent, "ok")
            self.paused = False
            return self._reply(sentences.resumed(now), base, intent, "control")
        if intent.what == "stop":
            self.stopped = True
            return self._reply(sentences.STOPPING, base, intent, "control")
        # new game: same players unless new ones were named; a new journal beside the old one.
        players = intent.players or self.game.players
        if not self.game.history and [p.lower() for p in players] == [p.lower() for p in self.game.players]:
            return self._reply(sentences.together([sentences.players_are(self.game.players), self.game.opening()]),
                               base, intent, "control")
        try:
            game = Game(players, self.game.rules, 0)
        except TabletopError as error:
            return self._reply(error.reason, base, intent, error.code)
        journal = None
        if self.journal is not None:
            self.journal.close()
            journal = Journal.create(_next_path(self.journal.path), game, durable=self.journal.durable)
        self.referee, self.journal, self._written = Referee(game), journal, 0
        self.paused, self._pending = False, None
        return self._reply(sentences.new_game(game.opening()), base, intent, "control")

    def _write(self) -> None:
        """Append what the referee did to the journal (flushed to disk) before it is announced."""
        log = self.referee.log
        if self.journal is not None and self._written < len(log):
            self.journal.append(log[self._written:])
        self._written = len(log)

    def _question(self, text: str, base: dict[str, Any], intent: Intent | None, code: str, pending: Pending,
                  changed: bool = False) -> Reply:
        reply = self._reply(text, base, intent, code)
        if changed:
            reply.event["changed"] = True
            reply.event["state"] = self.game.public()
        return self._ask(reply, pending)

    @staticmethod
    def _ask(reply: Reply, pending: Pending) -> Reply:
        """The reply as a ``question`` event: what tabletop asked and what it expects next."""
        event = dict(reply.event)
        question = pending.to_json()
        question.pop("say")
        event.update(question)
        return Reply(reply.text, event)

    def _reply(self, text: str, base: dict[str, Any], intent: Intent | None, code: str,
               ruling: Ruling | None = None) -> Reply:
        event = dict(base)
        event["intent"] = intent.to_json() if intent is not None else None
        event["code"] = code
        event["say"] = text
        event["changed"] = bool(ruling and ruling.changed)
        if ruling is not None and ruling.changed:
            event["state"] = self.game.public()
        return Reply(text, event, detail=str(event.get("detail", "")))


@functools.cache
def _yes_words() -> frozenset[str]:
    """The words that alone say "yes" (vocabulary.yaml's ``yes`` intent and ``<yes>`` rule)."""
    return load_vocabulary().single_words("yes")


@functools.cache
def _no_words() -> frozenset[str]:
    """The words that alone say "no" and also open a correction ("no, jacks"): vocabulary.yaml's
    ``no`` intent and ``<nope>`` rule both hold them."""
    vocab = load_vocabulary()
    return vocab.single_words("no") & vocab.single_words("nope")


OPEN_YES_READINGS = 2
"""How many of the open decoder's best readings must hold no word that says no for its yes to count. Its
n-best list runs to 25 readings whose tail holds a stray "nah" or "not" for most answers (the clean pairs
game seed 4108's "I got one", best read "i got two an eight", has "i not two an eight" tenth; its "yes,
1" is read "yes two ana", then "yes the ana"); in the kept traces of the pairs games (seeds 4105-4109, 351
distinct readings right after an ask) the best reading alone freed 7 checks, two readings 6, three 4, all
right. Of 1563 distinct utterances in every trace kept, 280 open like a yes at the open decoder's best, all
said as a yes."""

_YES_SAID = frozenset({"yes", "yeah", "yep", "yup"})
_NEGATED: dict[str, frozenset[str]] = {
    "don't": frozenset({"do"}), "haven't": frozenset({"have"}), "didn't": frozenset({"did"}),
    "doesn't": frozenset({"does"}), "can't": frozenset({"can"}), "none": frozenset({"one"}),
    "no": _YES_SAID, "nope": _YES_SAID, "nah": _YES_SAID}
"""A word that says no, and the word that says yes in its place: a reading of the one where the open decoder
heard the other is a no misheard (``Table._open_heard_negated``)."""

_NO_HEARD = frozenset({"no", "nope", "nah", "sorry", "none", "nothing", "zero", "fish", "don't", "haven't", "not",
                       "didn't", "doesn't", "can't", "nobody", "wait", "meant", "said", "asked"})
"""Words that, heard anywhere by the open decoder, leave a yes in doubt: a no, a go fish, a correction
("no, I said fives"), a pause ("wait")."""


@functools.cache
def _yes_openers() -> tuple[tuple[str, ...], ...]:
    """How a yes to an ask opens, as the open decoder hears it: "yes" (not "sure" or "right", which
    chatter is heard as: a Speech Commands "sheila" read "sure"), or "here you go". Not "i got" or "i
    have", which open a no as well: en+m6's "I've got none" was read "i've got two all your" by the
    open decoder, as en-us+f1's "I got one" is read "i got two an eight"."""
    return tuple((w,) for w in sorted(_YES_SAID)) + (("here", "you", "go"), ("here", "you", "got"), ("here's",))


def _heard_surely(transcript: Transcript, text: str) -> bool:
    """Whether ``text`` is what the recogniser heard best, and heard surely (typed text is): a
    reading from lower down its n-best list, or one it was unsure of (a rescued grammar reading the
    open decoder did not back is capped below :data:`ACT`), is never acted on."""
    if transcript.engine == "text":
        return True
    best = _best_reading(transcript)
    return best is not None and best.text == text and best.confidence >= ACT


def _best_reading(transcript: Transcript) -> Alternative | None:
    """The reading the recogniser heard best (the first of its n-best list), None for an empty hearing."""
    candidates = transcript.candidates()
    return candidates[0] if candidates else None


def _read_best(transcript: Transcript, text: str) -> bool:
    """Whether ``text`` is the reading the recogniser heard best, not one from lower down its n-best list."""
    best = _best_reading(transcript)
    return best is not None and best.text == text


def _answer_meant(heard: Understanding, transcript: Transcript) -> Intent:
    """The answer to the pending ask a reading of something else (a book) most likely was: the best
    of its readings that is an answer (a go fish, or a yes with no count: the count is the referee's
    to ask, or the game's to know), else a go fish when its words open with a "no" or name a fish,
    else a yes ("i got all the five" for "I got one")."""
    for scored in heard.candidates:
        if isinstance(scored.intent, (GoFish, No)):
            return GoFish()
        if isinstance(scored.intent, (Answer, Yes)):
            return Answer(None)
    words = transcript.text.lower().replace(",", " ").split()
    if _first_word(transcript.text) in _no_words() or "fish" in words:
        return GoFish()
    return Answer(None)


OPEN_BOOK_READINGS = 5
"""How many of the open decoder's readings of a book are searched for another rank (_book_held_instead)."""


def _book_rank_read(reading: str, players: Sequence[str]) -> Rank | None:
    """The first rank word an open reading has within three words after "book", or None."""
    said = reading.split()
    if "book" not in said:
        return None
    at = said.index("book")
    for word in said[at + 1:at + 4]:
        ranks = [v for slot, v in slot_values_said(word, players) if slot == "rank"]
        if ranks:
            return Rank.from_symbol(ranks[0])
    return None


def _first_word(text: str) -> str:
    words = text.lower().replace(",", " ").split()
    return words[0] if words else ""


def _merge(first: tuple[str, ...], then: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(first + then))


_CORRECTING_WORDS = frozenset({"said", "meant"})
"""Words that say a sentence corrects an earlier one ("no, I said fives"): see Table._likelier_go_fish."""

Evidence = tuple[tuple[str, float], ...]

HEARD_ALIKE = 0.9
"""A reading whose confidence is at least this was read in the same words by both of PocketSphinx's
decoders (the grammar's and the open one's: the confidence is their agreement times the acoustic
score; the table acts on a count only then, see understand._SURE_COUNT)."""

CORRECTION_RATIO = 3.0
"""A corrected value is acted on when its evidence summed over the hearings is at least this many
times that of any other value still in play (see :func:`_corrected_surely`)."""

RUNNER_UP_RATIO = 2.0
"""... and when the earlier hearings were unsure between two values, the one denied and this one:
among the values still in play they read it at least this many times better than the next. Real
Speech Commands "six"es were heard as "king" then "eight" (eight the first hearing's second reading,
three close behind it): without this, one more sure reading of the eight would have been acted on."""


def _evidence(heard: Understanding, slot: str) -> Evidence:
    """What one hearing read for ``slot``: each value with the score of its best reading (the
    likelihood ``exp(-cost)`` the language layer gave it), best first. Values read only as
    confusable with a reading (the ranks a recogniser confuses, not ones it heard) are left out."""
    best: dict[str, float] = {}
    for scored in heard.candidates:
        if scored.note == "confusable" or not hasattr(scored.intent, slot) or getattr(scored.intent, slot) is None:
            continue
        value = _slot_json(scored.intent, slot)
        best[value] = max(best.get(value, 0.0), math.exp(-scored.cost))
    return tuple(sorted(best.items(), key=lambda kv: -kv[1]))


def _readings(heard: Understanding) -> Evidence:
    """What one hearing read for every slot, as ("slot:value", score): kept with a confirmation
    ("Ben, sevens?") so that a correction of one slot ("no, tens") can be weighed against it."""
    out: list[tuple[str, float]] = []
    for slot in ("rank", "target", "count"):
        out += [(f"{slot}:{value}", score) for value, score in _evidence(heard, slot)]
    return tuple(out)


def _corrected_slot(intent: Intent, pending: Pending) -> str | None:
    """The one slot in which ``intent`` corrects the whole intent a confirmation asks about, or None."""
    if pending.kind != "confirm" or pending.confirms is not None or pending.intent is None or \
            type(intent) is not type(pending.intent) or intent == pending.intent:
        return None
    for slot in ("rank", "target", "count"):
        if hasattr(intent, slot) and getattr(intent, slot) is not None and \
                getattr(intent, slot) != getattr(pending.intent, slot, None) and _same_but(intent, pending.intent, slot):
            return slot
    return None


def _corrects_nothing_asked(intent: Intent, pending: Pending) -> bool:
    """Whether ``intent`` is a correction of slots the intent ``pending`` asks about does not have."""
    if not isinstance(intent, Correct) or pending.intent is None:
        return False
    said = [slot for slot in ("rank", "target", "count", "player") if getattr(intent, slot) is not None]
    return bool(said) and not any(hasattr(pending.intent, slot) for slot in said)


def _add(a: Evidence, b: Evidence) -> Evidence:
    """Evidence summed over hearings (the hearings are independent looks at one intended value)."""
    total = dict(a)
    for value, score in b:
        total[value] = total.get(value, 0.0) + score
    return tuple(sorted(total.items(), key=lambda kv: -kv[1]))


def _corrected_surely(value: str, before: Evidence, now: Evidence, allowed: tuple[str, ...],
                      agreed: bool = False) -> bool:
    """Whether ``value``, said to correct a check ("No, tens" to "Sevens?"), is sure from the
    hearings together: the earlier hearings were unsure between the value denied and this one (they
    read it, not merely as a confusable value, ``RUNNER_UP_RATIO`` times above any other value
    still in play), this hearing read it best, and summed over the hearings it stands
    ``CORRECTION_RATIO`` times above every other value still in play (the value denied is not).

    Or ``agreed``: a second, independent model (Moonshine, see ``Transcript.agreed``) heard this
    hearing's value too, it is still in play, this hearing read it best, and no value in play is
    steadily heard as it (a "ten" may still be a six). PocketSphinx's two
    decoders reading alike is not enough (a real FSDD "no, six" to "Tens?" read "nope four" by
    both); two models that share nothing hearing the same bare value is. In the speech bench's
    traces, real "no, three" (x3) and "no, seven" corrections heard so by both were asked again."""
    if not now or now[0][0] != value or value not in allowed:
        return False
    earlier = {v: s for v, s in before if v in allowed}
    if earlier.get(value, 0.0) <= 0.0 and not agreed:
        return False
    if any(said in allowed for said in _steadily_heard_for(value)):
        # FSDD's "six" heard "ten", then "no, six" heard "no ten": the hearings agree wrongly. Only a
        # value that a value in play is steadily heard as (tens, while sixes are in play) is held
        # back: a six is not known to be heard for a ten, and real Speech Commands "six"es heard
        # "eight" or "three", then "no, six" heard so, were checked again while tens were in play.
        return False
    if agreed:
        return True
    if earlier[value] < RUNNER_UP_RATIO * max((s for v, s in earlier.items() if v != value), default=0.0):
        return False
    total = {v: s for v, s in _add(before, now) if v in allowed}
    rival = max((s for v, s in total.items() if v != value), default=0.0)
    return total[value] >= CORRECTION_RATIO * rival


def _checked_rank(intent: Intent, slot: str) -> bool:
    """Whether ``intent`` is an ask or a book whose ``slot`` is a rank of vocabulary.yaml's
    ``ranks_checked`` (fives, nines): heard for one another with no trace of the other, so a
    correction naming one is checked ("Nines?") unless the second model heard it too."""
    rank = getattr(intent, "rank", None) if slot == "rank" else None
    return isinstance(intent, (Ask, Book)) and isinstance(rank, Rank) and bool(load_vocabulary().checked_with(rank))


def _steadily_heard_for(value: str) -> tuple[str, ...]:
    """The values a recogniser steadily hears as ``value`` (vocabulary.yaml's
    ``steadily_confused_ranks``, each pair the word said, then what it is heard as: a FSDD "six"
    was heard "ten" in 15 of 25 recordings). "Ten" heard alone may be a six; "six" is not known to
    be heard for a ten (no real recording says "ten")."""
    return tuple(said.symbol for said, heard_as in load_vocabulary().steadily_confused_ranks
                 if heard_as.symbol == value)


def _slot_json(intent: Intent, slot: str) -> str:
    value = getattr(intent, slot)
    return value.symbol if hasattr(value, "symbol") else str(value)


def _same_but(a: Intent, b: Intent, slot: str) -> bool:
    """Whether two intents of one type differ in ``slot`` alone (the card follows the rank)."""
    skip = {slot, "card"} if slot == "rank" else {slot}
    return all(getattr(a, f) == getattr(b, f) for f in getattr(a, "__dataclass_fields__", {}) if f not in skip)


def _next_path(path: Path) -> Path:
    stem, n = path.stem, 2
    base = stem.rsplit("-game", 1)[0]
    while True:
        candidate = path.with_name(f"{base}-game{n}{path.suffix}")
        if not candidate.exists():
            return candidate
        n += 1

