"""A simulated Go Fish table: a real shuffled deck, hidden hands, honest players who talk.

This is the test's own model of the game of PRODUCT.md sections 1-2, written from the spec and
not from the referee's code: it holds the true cards (which the referee never sees), plays random
legal moves, and says every public event as a sentence with the intent that sentence means.
:func:`play` drives a :class:`tabletop.referee.Referee` with those sentences (through
``tabletop.language.parse`` when given) and compares the referee's public state with the truth
after every event.

Readings of the spec this model makes where the text leaves a choice (see the final report):

* "left" is the next seat in the order the players were named (named from the dealer's left).
* ``next_after_miss=asked-when-stock-empty`` looks at the stock when the turn passes, that is
  after the asker's draw: drawing the last card sends the turn to the player who said go fish.
* Empty hands are dealt with when the exchange is over, going round the table from the player
  whose turn comes next (this decides who gets what when the stock is short).
* ``draw-one``: a player whose hand is empty while the stock is empty sits out at once.
* A lucky fish under ``specific-card`` is drawing the rank asked for (section 2 says "the rank").
* ``first-out`` ends the game at the end of the exchange in which a hand or the stock ran out.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any, Callable

# The test's own card model: a card is (rank index 0..12, suit index 0..3).
SYMBOLS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
WORDS = ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king"]
PLURALS = [("sixes" if w == "six" else w + "s") for w in WORDS]
SUITS = ["clubs", "diamonds", "hearts", "spades"]
NUMBERS = {1: "one", 2: "two", 3: "three"}
# Counts as tabletop speaks them, written out independently of tabletop.sentences (0..52).
_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
          "sixteen seventeen eighteen nineteen").split()
SPOKEN = _UNITS + [f"{tens}{'-' + _UNITS[u] if u else ''}" for tens in ("twenty", "thirty", "forty", "fifty")
                   for u in range(10)]
NAMES = ["Ana", "Ben", "Cho", "Dev", "Eli", "Fay"]

Card = tuple[int, int]

# Whether the table's settle is complete in one go. Under draw-one, the draw at the start of a
# turn can empty the stock while another player waits with an empty hand; the truth makes that
# player sit out in the same settle. The referee used to do it only on a second settle (bug B2,
# fixed); False makes the simulated table settle the old way (kept to reproduce B2).
COMPLETE_SETTLE = True


def deal_size(deal: str, players: int) -> int:
    """Section 2, ``deal``: 7 for 2-3 and 5 for 4+ · 7 for all · 7 for two, 5 for 3+."""
    if deal == "7":
        return 7
    if deal == "7-then-5":
        return 7 if players <= 3 else 5
    return 7 if players == 2 else 5


@dataclass
class Exchange:
    asker: int
    target: int
    rank: int
    received: int = 0
    missed: bool = False
    drew: bool = False
    lucky: bool = False
    drew_book: bool = False


@dataclass
class Truth:
    """The true table: every card where it really is."""

    rules: dict[str, Any]
    names: list[str]
    hands: list[list[Card]]
    stock: list[Card]
    books: list[list[int]]
    out: list[bool]
    current: int
    size: int
    over: bool = False
    winners: list[int] = field(default_factory=list)
    exchange: Exchange | None = None
    refilled: list[int] = field(default_factory=list)   # seats given a new hand at the last settle

    def copy(self) -> "Truth":
        return Truth(
            self.rules, self.names, [h[:] for h in self.hands], self.stock[:], [b[:] for b in self.books],
            self.out[:], self.current, self.size, self.over, self.winners[:], self.exchange, self.refilled[:],
        )

    # ---- derived ----

    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def book_size(self) -> int:
        return int(self.rules["book_size"])

    def booked(self, rank: int) -> int:
        return sum(b.count(rank) for b in self.books)

    def closed(self, rank: int) -> bool:
        return self.booked(rank) * self.book_size >= 4

    def in_play(self) -> list[int]:
        return [i for i in range(self.n) if not self.out[i]]

    def askable(self, seat: int) -> bool:
        return not self.out[seat] and len(self.hands[seat]) > 0

    def holding(self, seat: int, rank: int) -> list[Card]:
        return [c for c in self.hands[seat] if c[0] == rank]

    def cards(self) -> int:
        return sum(map(len, self.hands)) + len(self.stock) + self.book_size * sum(map(len, self.books))

    # ---- the table doing what nobody says ----

    def settle(self) -> None:
        """End the open exchange: pass the turn, deal with empty hands, end the game (section 1-2)."""
        if self.over:
            return
        r = self.rules
        n = self.n
        self.refilled = []
        ex, self.exchange = self.exchange, None
        again = False
        if ex is not None:
            if ex.received:
                again = bool(r["again_on_hit"])
            else:
                again = (ex.lucky and bool(r["again_on_lucky"])) or (ex.drew_book and bool(r["again_on_draw_book"]))
            if again:
                nxt = ex.asker
            elif ex.missed and (r["next_after_miss"] == "asked"
                                or (r["next_after_miss"] == "asked-when-stock-empty" and not self.stock)):
                nxt = ex.target
            else:
                nxt = (ex.asker + 1) % n
        else:
            nxt = self.current
        if r["game_end"] == "first-out" and (not self.stock or any(not self.hands[i] for i in self.in_play())):
            self.finish()
            return
        for k in range(n):
            i = (nxt + k) % n
            if self.out[i] or self.hands[i]:
                continue
            if r["empty_hand"] == "sit-out" or not self.stock:
                self.out[i] = True
            elif r["empty_hand"] == "new-hand":
                take = min(self.size, len(self.stock))
                self.hands[i] = [self.stock.pop() for _ in range(take)]
                self.refilled.append(i)
        if all(self.closed(rank) for rank in range(13)) or len(self.in_play()) < 2:
            self.finish()
            return
        for k in range(2 * n):
            i = (nxt + k) % n
            if self.out[i]:
                continue
            if not self.hands[i]:  # draw-one: one card at the start of the turn
                if not self.stock:
                    self.out[i] = True
                    continue
                self.hands[i].append(self.stock.pop())
            if any(self.askable(j) for j in range(n) if j != i):
                self.current = i
                if COMPLETE_SETTLE and not self.stock and any(not self.hands[j] for j in self.in_play()):
                    # draw-one: that draw emptied the stock, so whoever waits with an empty hand
                    # sits out now (the settle is complete: nothing is left for the next one)
                    refilled = self.refilled
                    self.settle()
                    self.refilled = refilled + self.refilled
                return
        self.finish()

    def finish(self) -> None:
        self.over = True
        self.exchange = None
        best = max(len(b) for b in self.books)
        self.winners = [i for i in range(self.n) if len(self.books[i]) == best]

    def view(self, settled: bool = False) -> dict[str, Any]:
        """What the referee's ``Game.public()`` must say: the truth with the open exchange settled.

        ``settled``: the truth has just been settled and the referee has not settled since (only
        matters while settling takes two goes, B2).
        """
        t = self
        if not t.over and not (settled and t.exchange is None) and (
                t.exchange is None or t.exchange.received or t.exchange.missed):
            t = self.copy()
            t.settle()
        return {
            "players": list(t.names),
            "current": None if t.over else t.names[t.current],
            "stock": len(t.stock),
            "hands": {p: len(t.hands[i]) for i, p in enumerate(t.names)},
            "books": {p: [SYMBOLS[r] for r in t.books[i]] for i, p in enumerate(t.names)},
            "out": [p for i, p in enumerate(t.names) if t.out[i]],
            "over": t.over,
            "winners": [t.names[i] for i in t.winners],
        }


def public_subset(public: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in public.items() if k != "rules"}


def referee_view(s: Any) -> dict[str, Any]:
    """``State.public()`` without the rules (which are checked separately): what the tests compare."""
    players = s.players
    return {
        "players": list(players),
        "current": None if s.over else players[s.current],
        "stock": s.stock,
        "hands": {p: s.hands[i] for i, p in enumerate(players)},
        "books": {p: [r.value for r in s.books[i]] for i, p in enumerate(players)},
        "out": [p for i, p in enumerate(players) if s.out[i]],
        "over": s.over,
        "winners": [players[i] for i in s.winners],
    }


# ---- sentences --------------------------------------------------------------------------------


class Voice:
    """Says events in varied natural wording; returns (text, intent) pairs."""

    def __init__(self, rng: random.Random, intents: Any, card_cls: Any, rank_cls: Any, suit_cls: Any) -> None:
        self.rng = rng
        self.I = intents
        self.Card = card_cls
        self.Rank = rank_cls
        self.Suit = suit_cls

    def rank(self, r: int) -> Any:
        return self.Rank(SYMBOLS[r])

    def ask(self, names: list[str], asker: int, target: int, r: int, card: Card | None, name_asker: bool) -> tuple[str, Any]:
        T, A = names[target], names[asker]
        I = self.I
        if card is not None:
            spoken = f"the {self.rng.choice([WORDS[r], SYMBOLS[r]]) if r in range(1, 10) else WORDS[r]} of {SUITS[card[1]]}"
            c = self.Card(self.rank(r), self.Suit(SUITS[card[1]]))
            if name_asker:
                return f"{A} asks {T} for {spoken}", I.Ask(target=T, rank=self.rank(r), asker=A, card=c)
            text = self.rng.choice([f"{T}, do you have {spoken}?", f"{T}, got {spoken}?", f"{T}, give me {spoken}"])
            return text, I.Ask(target=T, rank=self.rank(r), card=c)
        plural = PLURALS[r]
        if name_asker:
            return f"{A} asks {T} for {plural}", I.Ask(target=T, rank=self.rank(r), asker=A)
        forms = [
            f"{T}, do you have any {plural}?",
            f"{T}, give me your {plural}",
            f"{T}, {plural}?",
            f"{T}, any {plural}?",
            f"{T}, got any {plural}?",
        ]
        if 1 <= r <= 9:
            forms.append(f"{T}, got any {SYMBOLS[r]}s?")
        return self.rng.choice(forms), I.Ask(target=T, rank=self.rank(r))

    def hit(self, count: int, r: int) -> tuple[str, Any]:
        word = NUMBERS[count]
        forms = [f"yes, {word}", f"here you go, {word} {PLURALS[r] if count > 1 else WORDS[r]}",
                 f"I have {word}", f"yes, {count}", f"here you go, {count}", f"I got {word}"]
        if count == 1:
            forms[1] = f"here you go, one {WORDS[r]}"
        return self.rng.choice(forms), self.I.Answer(count=count)

    def count(self, count: int) -> tuple[str, Any]:
        return self.rng.choice([NUMBERS[count], f"{NUMBERS[count]}", f"I have {NUMBERS[count]}"]), self.I.Answer(count=count)

    def miss(self) -> tuple[str, Any]:
        text = self.rng.choice(["go fish", "nope, go fish", "go fish!", "no, go fish", "no", "nope"])
        return text, (self.I.No() if text in ("no", "nope") else self.I.GoFish())

    def lucky(self, r: int) -> tuple[str, Any]:
        article = "an" if WORDS[r][0] in "ae" else "a"
        choice = self.rng.randrange(3)
        if choice == 0:
            return "lucky fish!", self.I.Lucky()
        if choice == 1:
            return f"I got {article} {WORDS[r]}", self.I.Lucky(rank=self.rank(r))
        return "I drew it", self.I.Lucky()

    def book(self, names: list[str], player: int, r: int, named: bool, book_size: int) -> tuple[str, Any]:
        if named:
            return f"{names[player]} has a book of {PLURALS[r]}", self.I.Book(rank=self.rank(r), player=names[player])
        forms = [f"book of {PLURALS[r]}"]
        if book_size == 4:
            forms.append(f"I have four {PLURALS[r]}")
        return self.rng.choice(forms), self.I.Book(rank=self.rank(r))


# ---- the table -------------------------------------------------------------------------------


class Mismatch(AssertionError):
    pass


@dataclass
class Stats:
    events: int = 0
    asks: int = 0
    hits: int = 0
    misses: int = 0
    lucky: int = 0
    books: int = 0
    refills: int = 0
    sat_out: int = 0
    over: bool = False
    winners: int = 0
    undos: int = 0
    corrections: int = 0
    outs: int = 0
    refusals: int = 0
    late_books: int = 0
    fibs: int = 0
    questions: int = 0


class SimulatedTable:
    """One game: a true table, random honest players, and the referee listening.

    ``feed(text, intent)`` is how a sentence reaches the referee (directly or through the parser);
    it returns the :class:`Ruling`.
    """

    MAX_EVENTS = 700

    def __init__(self, names: list[str], rules: Any, seed: int, *, first: int = 0,
                 parse: Callable[[str, list[str]], Any] | None = None, undo_rate: float = 0.0,
                 mistake_rate: float = 0.0, out_rate: float = 0.0, noise_rate: float = 0.0,
                 late_rate: float = 0.0, fib_rate: float = 0.0) -> None:
        from tabletop.cards import Card as TCard, Rank as TRank, Suit as TSuit
        from tabletop.referee import Game, Referee
        from tabletop.referee import intents

        self.rng = random.Random(seed)
        self.seed = seed
        self.rules = rules
        r = rules.to_json()
        size = deal_size(r["deal"], len(names))
        deck: list[Card] = [(rank, suit) for rank in range(13) for suit in range(4)]
        self.rng.shuffle(deck)
        hands: list[list[Card]] = [[] for _ in names]
        for k in range(size):
            for i in range(len(names)):
                hands[i].append(deck.pop())
        self.truth = Truth(r, list(names), hands, deck, [[] for _ in names], [False] * len(names), first, size)
        self.game = Game(names, rules, first=first)
        self.referee = Referee(self.game)
        self.voice = Voice(self.rng, intents, TCard, TRank, TSuit)
        self.I = intents
        self.parse = parse
        self.transcript: list[str] = []
        self.stats = Stats()
        self.said: list[str] = []
        self.laid_suits: dict[int, set[int]] = {}
        self.compared = 0
        self.undo_rate = undo_rate
        self.mistake_rate = mistake_rate
        self.out_rate = out_rate
        self.noise_rate = noise_rate
        self.late_rate = late_rate
        self.fib_rate = fib_rate
        self.corrected = False
        self.unseen = False  # the truth settled at the end of an exchange the referee hasn't settled yet

    # ---- talking to the referee ----

    def fail(self, message: str) -> None:
        tail = "\n  ".join(self.transcript[-25:])
        raise Mismatch(
            f"{message}\n rules={self.rules.changes()} players={self.truth.names} seed={self.seed}\n"
            f" last events:\n  {tail}"
        )

    def hear(self, text: str, intent: Any) -> Any:
        if self.parse is not None:
            heard = self.parse(text, self.truth.names)
            if heard != intent:
                self.fail(f"parser: {text!r} heard as {heard!r}, meant {intent!r}")
            intent = heard
        return intent

    def say(self, text: str, intent: Any, expect: tuple[str, ...] | None = ("ok",), *, compare: bool = True,
            undoable: bool = True) -> Any:
        intent = self.hear(text, intent)
        before = self.game.public() if undoable and self.undo_rate else None
        ruling = self.referee.handle(intent, text)
        self.stats.events += 1
        self.said.extend(ruling.say)
        self.transcript.append(f"{text!r} -> {ruling.code}: {ruling.text}")
        if (not ruling.refused) if expect is None else (ruling.code not in expect):
            self.fail(f"referee ruled {ruling.code!r} on {text!r} ({intent!r}): {ruling.text!r}")
        if compare:
            self.compare(text)
            self.check_announcements(ruling.say)
        if before is not None and ruling.code == "ok" and self.rng.random() < self.undo_rate:
            # "scratch that" and say it again: the same ruling and the same state
            words = self.rng.choice(["undo", "scratch that"])
            undo = self.referee.handle(self.hear(words, self.I.Undo()), words)
            self.transcript.append(f"{words!r} -> {undo.code}: {undo.text}")
            if undo.code != "ok" or self.game.public() != before:
                self.fail(f"{words!r} after {text!r}: {undo.code} {undo.text!r}, state not restored")
            again = self.referee.handle(intent, text)
            self.transcript.append(f"{text!r} (again) -> {again.code}: {again.text}")
            if again.code != ruling.code:
                self.fail(f"{text!r} said again after undo: {again.code!r} {again.text!r}, first {ruling.text!r}")
            self.stats.undos += 1
            if compare:
                self.compare(text + " (again)")
        return ruling

    def misspeak_ask(self, target: int, rank: int) -> None:
        """The asker says the wrong rank or player, then corrects it or takes it back."""
        t = self.truth
        p = t.current
        held = sorted({c[0] for c in t.hands[p]} - {rank})
        others = [j for j in range(t.n) if j not in (p, target) and t.askable(j)]
        wrong_target = others and self.rng.random() < 0.3
        if wrong_target:
            wrong_t, wrong_r = self.rng.choice(others), rank
        elif t.rules["asking"] == "any-rank" and any(r != rank and not t.closed(r) for r in range(13)):
            wrong_t, wrong_r = target, self.rng.choice([r for r in range(13) if r != rank and not t.closed(r)])
        elif held:
            wrong_t, wrong_r = target, self.rng.choice(held)
        else:
            return
        text, intent = self.voice.ask(t.names, p, wrong_t, wrong_r, None, False)
        ruling = self.say(text, intent, expect=("ok", "question"), compare=False, undoable=False)
        if ruling.code == "question":  # e.g. a rank they said go fish to: "no", and the real ask
            self.say("no", self.I.No(), compare=False, undoable=False)
            return
        self.stats.corrections += 1
        how = self.rng.randrange(3)
        if how == 0:
            self.say("scratch that", self.I.Undo(), compare=False, undoable=False)
            return
        if wrong_target:
            self.say(f"no, I said {t.names[target]}", self.I.Correct(target=t.names[target]), compare=False, undoable=False)
        else:
            self.say(f"no, I said {PLURALS[rank]}", self.I.Correct(rank=self.voice.rank(rank)), compare=False,
                     undoable=False)
        self.corrected = True

    def noise(self) -> None:
        """Someone says something the rules don't allow now: it is refused and changes nothing."""
        if not self.noise_rate or self.rng.random() >= self.noise_rate:
            return
        t = self.truth
        view = t.view(self.unseen)
        if view["over"]:
            return
        names = t.names
        cur = names.index(view["current"])
        out = [i for i in range(t.n) if names[i] in view["out"]]
        in_play = [i for i in range(t.n) if i not in out]
        askable = [j for j in in_play if j != cur and view["hands"][names[j]] > 0]
        options: list[tuple[str, Any]] = [("yes, two", self.I.Answer(count=2))]  # nobody has asked
        others = [i for i in in_play if i != cur]
        if others:  # out of turn
            a = self.rng.choice(others)
            options.append(self.voice.ask(names, a, self.rng.choice([j for j in range(t.n) if j != a]),
                                          self.rng.randrange(13), None, True))
        closed = [r for r in range(13) if t.closed(r)]
        if closed and askable and t.rules["asking"] != "specific-card":
            options.append(self.voice.ask(names, cur, self.rng.choice(askable), self.rng.choice(closed), None, False))
        if out and t.rules["asking"] != "specific-card":
            options.append(self.voice.ask(names, cur, self.rng.choice(out), self.rng.randrange(13), None, False))
        if (t.exchange is None and not self.unseen) or (t.exchange is not None and not t.exchange.missed):
            # no go fish to be lucky after (an unsettled go fish still takes a late "lucky fish")
            options.append(("lucky fish!", self.I.Lucky()))
        text, intent = self.rng.choice(options)
        self.say(text, intent, expect=None, undoable=False)
        self.stats.refusals += 1

    def miscount(self, count: int) -> bool:
        """The target says the wrong count, then "no, N" (direct intents: the parser needs context)."""
        wrong = self.rng.choice([c for c in (1, 2, 3) if c != count])
        ruling = self.say(f"yes, {NUMBERS[wrong]}", self.I.Answer(count=wrong), expect=("ok", "bad-count", "question"),
                          compare=False, undoable=False)
        if ruling.code in ("bad-count", "question"):  # refused, or questioned from what others are known to hold
            return False  # the right count is said next
        self.say(f"no, {NUMBERS[count]}", self.I.Correct(count=count), undoable=False)
        self.stats.corrections += 1
        return True

    def resettle(self) -> None:
        """Settle the truth again where the referee settles (a no-op once settling is complete, B2)."""
        if self.unseen:
            self.unseen = False  # the referee's settle now is the one the truth already did
        elif not COMPLETE_SETTLE and not self.truth.over and self.truth.exchange is None:
            self.truth.settle()

    def quiet(self) -> None:
        self.resettle()
        ruling = self.referee.settle()
        self.said.extend(ruling.say)
        self.transcript.append(f"(quiet) -> {ruling.code}: {ruling.text}")
        self.compare("(quiet)")
        self.check_announcements(ruling.say)

    def check_announcements(self, say: list[str]) -> None:
        """What the referee says about turns and books must be true at the table."""
        t = self.truth
        current = None
        for sentence in say:
            m = re.fullmatch(r"(\w+)'s turn\.|(\w+), ask again\.", sentence)
            if m:
                current = current or self.truth.view(self.unseen)["current"]
                who = m.group(1) or m.group(2)
                if who != current:
                    self.fail(f"announced {sentence!r}, but it is {current}'s turn")
            m = re.fullmatch(r"(\w+), that makes a (book|pair) of (\w+): lay it down\.", sentence)
            if m:
                seat, rank = t.names.index(m.group(1)), PLURALS.index(m.group(3))
                if len(t.holding(seat, rank)) < t.book_size:
                    self.fail(f"{sentence!r}, but {m.group(1)} holds {t.holding(seat, rank)}")
            if sentence.startswith("Game over."):
                names = self.truth.view(self.unseen)["winners"]
                if len(names) == 1:
                    ok = f"{names[0]} wins with" in sentence
                else:
                    ok = all(n in sentence for n in names) and (
                        ("play another hand" if t.rules["ties"] == "play-again" else "share the win") in sentence)
                if not ok:
                    self.fail(f"{sentence!r}, but the winners are {names}")

    def compare(self, after: str) -> None:
        self.compared += 1
        if self.compared % 8 == 0:
            got = public_subset(self.game.public())
        else:  # the same thing faster: Game.public() is the settled state's public(), whose rules never change
            got = referee_view(self.game.settled())
        want = self.truth.view(self.unseen)
        if got != want:
            diff = {k: (got.get(k), want[k]) for k in want if got.get(k) != want[k]}
            self.fail(f"after {after!r}: referee vs truth differ (referee, truth): {diff}")
        s = self.game.state
        if s.cards_accounted() != 52:
            self.fail(f"after {after!r}: referee accounts for {s.cards_accounted()} cards")
        if self.truth.cards() != 52:
            self.fail(f"simulator bug: truth accounts for {self.truth.cards()} cards")

    # ---- players ----

    def lay_down(self, seat: int, rank: int, named: bool) -> int:
        """Lay down every book of ``rank`` the player holds; returns how many."""
        t = self.truth
        made = 0
        while len(t.holding(seat, rank)) >= t.book_size:
            taken = t.holding(seat, rank)[: t.book_size]
            for c in taken:
                t.hands[seat].remove(c)
            self.laid_suits.setdefault(rank, set()).update(c[1] for c in taken)
            t.books[seat].append(rank)
            made += 1
            self.stats.books += 1
            text, intent = self.voice.book(t.names, seat, rank, named or self.rng.random() < 0.3, t.book_size)
            self.say(text, intent)
        return made

    def lay_down_all(self, seat: int, named: bool) -> None:
        for rank in range(13):
            self.lay_down(seat, rank, named)

    def after_settle(self) -> None:
        """New hands may hold books: after a moment of quiet their owners lay them down, named."""
        t = self.truth
        while t.refilled and not t.over:
            seats, t.refilled = t.refilled, []
            if any(len(t.holding(i, rank)) >= t.book_size for i in seats for rank in range(13)):
                self.quiet()
                for i in seats:
                    self.lay_down_all(i, named=True)
                t.settle()  # a hand laid down to nothing is empty again
                self.unseen = True

    def choose_ask(self) -> tuple[int, int, Card | None]:
        t = self.truth
        p = t.current
        targets = [j for j in range(t.n) if j != p and t.askable(j)]
        target = self.rng.choice(targets)
        held = sorted({c[0] for c in t.hands[p]})
        asking = t.rules["asking"]
        if asking == "any-rank" and self.rng.random() < 0.4:
            rank = self.rng.choice([r for r in range(13) if not t.closed(r)])
        else:
            rank = self.rng.choice(held)
        card = None
        if asking == "specific-card":
            mine = {c[1] for c in t.hands[p] if c[0] == rank}
            laid = self.laid_suits.get(rank, set())  # face up in books: public, nobody asks for them
            suits = [s for s in range(4) if s not in mine and s not in laid]
            card = (rank, self.rng.choice(suits))
        return target, rank, card

    def play(self) -> Stats:
        t = self.truth
        self.compare("the deal")
        # Books in the deal, named ("Ben has a book of nines"); unnamed for the player who starts.
        for i in range(t.n):
            self.lay_down_all(i, named=(i != t.current))
        t.settle()
        self.unseen = True
        self.after_settle()
        while not t.over:
            if self.stats.events > self.MAX_EVENTS:
                return self.stats
            self.exchange()
            if t.over:
                break
            roll = self.rng.random()
            if roll < 0.25:
                self.quiet()
            elif roll < 0.30:
                self.query()
        # A moment of quiet at the end: the referee says who won.
        if not self.game.state.over:
            self.quiet()
        if not self.game.state.over:
            self.fail("the game is over at the table but not for the referee")
        if self.seed % 4 == 0:  # a quarter of the games: replaying costs a quarter of a game
            self.check_replay()
        self.stats.over = True
        self.stats.winners = len(t.winners)
        if len(t.winners) > 1 and t.rules["ties"] == "play-again":
            if not any("play another" in s for s in self.said):
                self.fail("a tie under ties=play-again was not told to play another hand")
        return self.stats

    def check_replay(self) -> None:
        """The history is the record: its canonical actions read back and replayed give the same game."""
        from tabletop.referee import Game, parse_action

        steps = self.game.history
        for step in steps:
            if parse_action(str(step.action)) != step.action:
                self.fail(f"action {step.action!r} does not read back from {str(step.action)!r}")
        again = Game(list(self.truth.names), self.rules, first=self.game.first)
        again.replay(steps)
        if again.state.public() != self.game.state.public() or again.public() != self.game.public():
            self.fail("replaying the history gives another game")
        # the referee's log (what the journal writes): pushes and undos, replayed, give the same game
        logged = Game(list(self.truth.names), self.rules, first=self.game.first)
        for entry in self.referee.log:
            if "push" in entry:
                logged.push(parse_action(entry["push"]), text=entry.get("text"))
            else:
                for _ in range(entry["undo"]):
                    logged.pop()
        if [str(x.action) for x in logged.history] != [str(x.action) for x in steps] \
                or logged.state.public() != self.game.state.public():
            self.fail("replaying the referee's log gives another game")

    def query(self) -> None:
        t = self.truth
        self.resettle()
        kind = self.rng.randrange(3)
        if kind == 0:
            ruling = self.say("whose turn is it", self.I.Query(what="turn"), expect=("answer",))
            if not t.over and t.names[t.current] not in ruling.text:
                self.fail(f"'whose turn' answered {ruling.text!r}, truth {t.names[t.current]}")
        elif kind == 1:
            ruling = self.say("how many cards are left", self.I.Query(what="stock"), expect=("answer",))
            n = len(t.stock)
            expect = "No cards left" if n == 0 else ("One card left" if n == 1 else f"{SPOKEN[n].capitalize()} cards left")
            if expect not in ruling.text:
                self.fail(f"'how many cards are left' answered {ruling.text!r}, truth {len(t.stock)}")
        else:
            j = self.rng.randrange(t.n)
            ruling = self.say(f"how many cards does {t.names[j]} have",
                              self.I.Query(what="hand", player=t.names[j]), expect=("answer",))
            n = len(t.hands[j])
            expect = "no cards" if n == 0 else ("one card" if n == 1 else f"{SPOKEN[n]} cards")
            if expect not in ruling.text:
                self.fail(f"hand query answered {ruling.text!r}, truth {expect}")

    def exchange(self) -> None:
        t = self.truth
        self.noise()
        self.resettle()
        if t.over:  # (only without B2's fix: the second settle ended the game)
            return
        late = self.late_rate and self.rng.random() < self.late_rate
        deferred: list[int] = []
        p = t.current
        target, rank, card = self.choose_ask()
        named = self.rng.random() < 0.25
        text, intent = self.voice.ask(t.names, p, target, rank, card, named)
        self.corrected = False
        if card is None and self.mistake_rate and self.rng.random() < self.mistake_rate:
            self.misspeak_ask(target, rank)
        t.exchange = Exchange(p, target, rank)
        self.stats.asks += 1
        if self.corrected:
            self.compare("the correction")
        else:
            self.say(text, intent)
        ex = t.exchange
        if card is not None:
            given = [card] if card in t.hands[target] else []
        else:
            given = t.holding(target, rank)
        if given:
            self.stats.hits += 1
            questioned = False
            if self.fib_rate and card is None and self.rng.random() < self.fib_rate:
                # The target says "go fish" by mistake. If public knowledge proves otherwise the
                # referee asks; the target checks and hands over. If not, the table notices and
                # takes it back ("scratch that") before the asker draws.
                ruling = self.say("go fish", self.I.GoFish(), expect=("ok", "question"), compare=False,
                                  undoable=False)
                if ruling.code == "ok":
                    self.say("scratch that", self.I.Undo(), undoable=False)
                else:  # (a bare "yes" now would mean "record the go fish anyway": answer with a count)
                    self.stats.questions += 1
                    questioned = True
                    self.compare("the question")
                self.stats.fibs += 1
            implied = False
            if card is None and not questioned and self.rng.random() < 0.15:
                ruling = self.say("yes", self.I.Yes(), compare=False)
                # A table that knows the target can give one card at most (the pairs game; the
                # rest of the rank accounted for) takes the yes as that card; else it asks.
                implied = "How many?" not in ruling.say and len(given) == 1
                if "How many?" not in ruling.say and not implied:
                    self.fail(f"'yes' without a count: expected 'How many?', got {ruling.text!r}")
            for c in given:
                t.hands[target].remove(c)
                t.hands[p].append(c)
            ex.received = len(given)
            if implied:
                self.compare("yes")
            elif "How many?" in self.said[-1:]:
                self.say(*self.voice.count(len(given)))
            elif card is None and not questioned and self.parse is None and self.mistake_rate \
                    and self.rng.random() < self.mistake_rate and self.miscount(len(given)):
                pass
            elif card is not None:
                self.say(*self.rng.choice([("yes, here you go", self.I.Answer()), ("here you go", self.I.Answer()),
                                           ("yes, one", self.I.Answer(count=1))]))
            else:
                self.say(*self.voice.hit(len(given), rank))
            self.noise()
            if late and len(t.holding(p, rank)) >= t.book_size:
                deferred.append(rank)
            else:
                self.lay_down(p, rank, named=False)
        else:
            self.stats.misses += 1
            ex.missed = True
            drawn = None
            if t.stock:  # "Go fish, Ana": she draws one card (none when the stock is empty)
                drawn = t.stock.pop()
                t.hands[p].append(drawn)
                ex.drew = True
            ruling = self.say(*self.voice.miss())
            if (drawn is None) != ("nothing to draw" in ruling.text) or f"Go fish, {t.names[p]}." not in ruling.say:
                self.fail(f"go fish announced as {ruling.text!r}; drew {drawn}")
            if drawn is not None:
                if drawn[0] == rank:
                    ex.lucky = True
                    self.stats.lucky += 1
                    self.say(*self.voice.lucky(rank))
                self.noise()
                if late and len(t.holding(p, drawn[0])) >= t.book_size:
                    deferred.append(drawn[0])  # laid down too late to count as a draw book
                elif len(t.holding(p, drawn[0])) >= t.book_size:
                    ex.drew_book = True  # the drawn card completes a book
                    self.lay_down(p, drawn[0], named=False)
        if self.out_rate and not t.over:
            empty = [i for i in t.in_play() if not t.hands[i]]
            if empty and self.rng.random() < self.out_rate:
                i = self.rng.choice(empty)
                if len(empty) == 1 and self.rng.random() < 0.5:
                    self.say("I'm out of cards", self.I.OutOfCards())
                else:
                    self.say(f"{t.names[i]} is out of cards", self.I.OutOfCards(player=t.names[i]))
                self.stats.outs += 1
        t.settle()
        self.unseen = True
        self.stats.refills += len(t.refilled)
        self.after_settle()
        if deferred and not t.over:
            # After a moment of quiet the asker remembers: "book of sevens", unnamed. It is hers,
            # the player who took cards in the last exchange, whoever's turn it is now.
            self.quiet()
            for r in deferred:
                self.lay_down(p, r, named=False)
            self.stats.late_books += 1
            t.settle()
            self.unseen = True
            self.after_settle()


def rules_for(rng: random.Random, fixed: dict[str, Any], choices: dict[str, tuple[Any, ...]]) -> dict[str, Any]:
    """A random valid rule set with ``fixed`` keys set (the invalid combinations of rules.py avoided)."""
    while True:
        values = {k: rng.choice(v) for k, v in choices.items()}
        values["first"] = "first-named"
        values.update(fixed)
        if values["game_end"] == "first-out" and (
            values["empty_hand"] != "new-hand" or values["next_after_miss"] == "asked-when-stock-empty"
        ):
            if "game_end" in fixed:
                if "empty_hand" not in fixed:
                    values["empty_hand"] = "new-hand"
                if "next_after_miss" not in fixed:
                    values["next_after_miss"] = rng.choice(["left", "asked"])
                if values["empty_hand"] == "new-hand" and values["next_after_miss"] != "asked-when-stock-empty":
                    return values
            continue
        return values
