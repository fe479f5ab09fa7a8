"""The table: hear → understand → referee → journal → announce (and look, with a camera).

A :class:`Table` takes transcripts (typed lines or what a recogniser heard), understands them in
the game's context, has the referee rule on them, writes every accepted step to the journal
before anything is announced, and returns what to say. It does no audio itself: the caller feeds
it transcripts and speaks or prints its replies, so the typed game, recorded audio and the live
microphone all go through this one path.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from tabletop import sentences
from tabletop.cards import RANKS
from tabletop.errors import SetupError, TabletopError
from tabletop.journal import Journal, load
from tabletop.language.context import Context
from tabletop.language.transcript import Transcript
from tabletop.language.understand import Understanding, understand
from tabletop.referee.game import Game
from tabletop.referee.intents import Answer, Ask, Book, Control, GoFish, Intent, No, Query, Yes
from tabletop.referee.referee import Referee, Ruling
from tabletop.rules import Rules

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
        self._confirm: Intent | None = None       # "Ben, sevens?" waiting for yes/no
        self._confirm_text: str | None = None
        self._seen_book: Intent | None = None     # a book the camera did not confirm, waiting for yes
        self._written = len(referee.log)

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

    def context(self) -> Context:
        """What can be said now, for the language layer and the recognisers' grammars."""
        game = self.game
        state = game.state
        settled = game.settled()
        ex = state.exchange
        if self.referee.question is not None or self._confirm is not None or self._seen_book is not None:
            phase = "confirm"
        else:
            phase = state.phase.value
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
            proven=frozenset(
                r for r in RANKS if not state.closed(r) and any(
                    state.knowledge.holds_at_least(i, r) >= game.rules.book_size for i in range(len(state.players)))),
        )

    # ---- hearing ----

    def hear(self, transcript: Transcript) -> list[Reply]:
        """Rule on one utterance; never raises for anything said."""
        heard = understand(transcript, self.context())
        base = {"event": "utterance", "heard": transcript.text, "engine": transcript.engine,
                "confidence": round(float(heard.confidence), 3)}
        intent = heard.intent
        if intent is None:
            self._confirm = None
            return [self._reply(heard.reason or UNHEARD, base, None, "unheard")]
        # A yes/no answers whatever tabletop last asked.
        if self._confirm is not None:
            pending, text, self._confirm = self._confirm, self._confirm_text, None
            if isinstance(intent, Yes):
                return self._rule(pending, text, base)
            if isinstance(intent, No):
                return [self._reply(sentences.SAY_IT_AGAIN, base, intent, "ok")]
            if isinstance(pending, Ask) and isinstance(intent, (Answer, GoFish)):
                # The target answered the ask tabletop was checking: that answer confirms it.
                first = self._rule(pending, text, dict(base, heard=text))
                if first[-1].event.get("changed"):
                    again = understand(transcript, self.context())  # now an ask is pending
                    if again.intent is not None:
                        intent, heard = again.intent, again
                    return first + self._answer(intent, transcript, heard, base)
                return first
        if self._seen_book is not None:
            pending, self._seen_book = self._seen_book, None
            if isinstance(intent, Yes):
                return self._rule(pending, transcript.text, base, look=False)
            if isinstance(intent, No):
                return [self._reply(sentences.NOT_RECORDED, base, intent, "ok")]
        return self._answer(intent, transcript, heard, base)

    def _answer(self, intent: Intent, transcript: Transcript, heard: Understanding,
                base: dict[str, Any]) -> list[Reply]:
        if heard.confirm and not isinstance(intent, (Yes, No)):
            self._confirm, self._confirm_text = intent, transcript.text
            return [self._reply(heard.confirm, base, intent, "confirm")]
        return self._rule(intent, transcript.text, base)

    def hear_text(self, text: str) -> list[Reply]:
        return self.hear(Transcript.typed(text))

    def idle(self) -> list[Reply]:
        """A moment of quiet at the table: settle the open exchange."""
        if self.paused or self.stopped:
            return []
        ruling = self.referee.settle()
        self._write()
        if not ruling.say:
            return []
        return [Reply(ruling.text, {"event": "settle", "say": ruling.text, "state": self.game.public()})]

    # ---- ruling ----

    def _rule(self, intent: Intent, text: str | None, base: dict[str, Any], *, look: bool = True) -> list[Reply]:
        if isinstance(intent, Control):
            return [self._control(intent, base)]
        if self.paused and not isinstance(intent, Query):
            return [self._reply(sentences.PAUSED, base, intent, "paused")]
        seen: list[str] = []
        if look and isinstance(intent, Book) and self.eyes is not None and not self.game.state.over:
            code, say, detail = self._look(intent)
            if code in ("not_confirmed", "unsure"):
                self._seen_book = intent
                return [self._reply(sentences.question(say), base, intent, "question")]
            seen.append(say)
            if detail:
                base = dict(base, detail=detail)
        ruling = self.referee.handle(intent, text)
        self._write()
        return [self._reply(sentences.together(seen + ruling.say), base, intent, ruling.code, ruling)]

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
            self.paused = False
            public = self.game.public()
            now = sentences.now(public["over"], public["current"], public["winners"])
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
        self.paused = False
        return self._reply(sentences.new_game(game.opening()), base, intent, "control")

    def _write(self) -> None:
        """Append what the referee did to the journal (flushed to disk) before it is announced."""
        log = self.referee.log
        if self.journal is not None and self._written < len(log):
            self.journal.append(log[self._written:])
        self._written = len(log)

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


def _next_path(path: Path) -> Path:
    stem, n = path.stem, 2
    base = stem.rsplit("-game", 1)[0]
    while True:
        candidate = path.with_name(f"{base}-game{n}{path.suffix}")
        if not candidate.exists():
            return candidate
        n += 1

