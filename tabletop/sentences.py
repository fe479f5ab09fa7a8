"""Every sentence tabletop says, in one place, so the wording is reviewed, changed and one day
translated as a whole.

It sits at the core, beside ``cards`` and ``rules``, and imports nothing else of tabletop: the
referee (which must stay pure) and every layer above it word what they say through these
functions. Each takes plain values (names, ranks, counts) and returns a sentence; nothing here
reads a game. Numbers are spoken as words ("five books"); digits belong to ``--json``.
Intents are worded by their ``type`` and slots (:func:`confirm`), so this module needs no import
from the referee.

>>> number(31), cards(1), cards(0), of_rank(1, Rank.ACE), of_rank(3, Rank.SIX)
('thirty-one', 'one card', 'no cards', 'an ace', 'three sixes')
>>> join(["Ana", "Ben", "Cho"])
'Ana, Ben and Cho'
>>> game_over(["Ana"], 5, Rules(), {"Ana": 5, "Ben": 4, "Cho": 4})
'Game over. Ana wins with five books. Ben has four books and Cho has four books.'
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from tabletop.cards import Rank
from tabletop.rules import Rules

# ---- numbers and lists ------------------------------------------------------------------------

_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
         "fifteen sixteen seventeen eighteen nineteen").split()
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def number(n: int) -> str:
    """A count as a spoken word: 0 → "zero", 7 → "seven", 31 → "thirty-one" (digits from 100)."""
    if 0 <= n < 20:
        return _ONES[n]
    if 20 <= n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
    return str(n)


def join(items: Sequence[str], conjunction: str = "and") -> str:
    """"Ana", "Ana and Ben", "Ana, Ben and Cho"."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {conjunction} " + items[-1]


def cards(n: int) -> str:
    """"no cards", "one card", "seven cards"."""
    return "no cards" if n == 0 else "one card" if n == 1 else f"{number(n)} cards"


def of_rank(n: int, rank: Rank) -> str:
    """"no sevens", "a seven", "an ace", "two sevens"."""
    if n == 1:
        return f"{'an' if rank in (Rank.ACE, Rank.EIGHT) else 'a'} {rank.word}"
    return f"{'no' if n == 0 else number(n)} {rank.plural}"


def _kind(size: int) -> str:
    return "pair" if size == 2 else "book"


def books(n: int, size: int = 4) -> str:
    """"no books", "one book", "five books" ("pairs" in the pairs game)."""
    kind = _kind(size)
    return f"no {kind}s" if n == 0 else f"one {kind}" if n == 1 else f"{number(n)} {kind}s"


def capital(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]


# ---- the game: what the referee announces -----------------------------------------------------

GAME_OVER = "The game is over. Say new game to play again."
HELP = (
    "Ask like this: Ben, do you have any sevens? Answer yes, two, or go fish. "
    "You can say book of sevens, lucky fish, undo, what's the score, or whose turn is it."
)
HOW_MANY = "How many?"
LUCKY = "Lucky fish!"
STOCK_EMPTY_NO_DRAW = "The stock is empty, so there is nothing to draw."
SAY_YES_ANYWAY = "Say yes to record it anyway."
NOT_RECORDED = "Okay, not recorded."


def opening(deal_size: int, first: str) -> str:
    return f"Deal {number(deal_size)} cards each. {first} goes first."


def asks(asker: str, target: str, wanted: str) -> str:
    return f"{asker} asks {target} for {wanted}."


def gives(target: str, asker: str, n: int, rank: Rank) -> str:
    return f"{target} gives {asker} {of_rank(n, rank)}."


def go_fish(asker: str) -> str:
    return f"Go fish, {asker}."


def lays_down(player: str, rank: Rank, total: int, size: int) -> str:
    return f"{player} lays down a {_kind(size)} of {rank.plural}. {player} has {books(total, size)}."


def lay_it_down(player: str, rank: Rank, size: int) -> str:
    return f"{player}, that makes a {_kind(size)} of {rank.plural}: lay it down."


def out_of_cards(player: str) -> str:
    return f"{player} is out of cards."


def hand_noted(player: str, n: int, stock: int) -> str:
    return f"Noted: {player} has {cards(n)}, and the stock has {number(stock)}."


def sits_out(player: str) -> str:
    return f"{player} has no cards and sits out."


def draw_new_hand(player: str, n: int) -> str:
    return f"{player}, draw a new hand of {cards(n)}."


def draw_a_card(player: str) -> str:
    return f"{player}, draw a card."


def ask_again(player: str) -> str:
    return f"{player}, ask again."


def turn(player: str) -> str:
    return f"{player}'s turn."


def game_over(winners: Sequence[str], best: int, rules: Rules, scores: Mapping[str, int] | None = None) -> str:
    """The end: the winner (or the tie) and their books first, then everyone else's books."""
    count = books(best, rules.book_size)
    if len(winners) == 1:
        text = f"Game over. {winners[0]} wins with {count}."
    elif rules.ties == "play-again":
        text = f"Game over. {join(winners)} tie with {count} each: play another hand to break the tie."
    else:
        text = f"Game over. {join(winners)} share the win with {count} each."
    others = [f"{p} has {books(n, rules.book_size)}" for p, n in (scores or {}).items() if p not in winners]
    if others:
        text += f" {join(others)}."
    return text


# ---- what public knowledge says back ("Ben, you received two sevens from Cho") ----------------


def knew_asked(rank: Rank) -> str:
    return f"you asked for {rank.plural}"


def knew_gave_all(rank: Rank, asker: str) -> str:
    return f"you gave all your {rank.plural} to {asker}"


def knew_received(n: int, rank: Rank, target: str) -> str:
    return f"you received {of_rank(n, rank)} from {target}"


def knew_drew(rank: Rank) -> str:
    return f"you drew {of_rank(1, rank)}"


def knew_said_none(rank: Rank) -> str:
    return f"you said you had no {rank.plural}"


KNEW_RAN_OUT = "you ran out of cards"


def knew_all_booked(rank: Rank) -> str:
    return f"all the {rank.plural} are in books"


def third_person(reason: str) -> str:
    """Turn "you received two sevens from Cho" into "received two sevens from Cho"."""
    return reason.removeprefix("you ")


# ---- questions the referee asks before recording ----------------------------------------------


def doubt_said_none(player: str, reason: str) -> str:
    return f"{player}, {reason}."


def doubt_holds(player: str, reason: str) -> str:
    return f"{player}, {reason}. Please check your hand."


def doubt_other_holds(other: str, reason: str) -> str:
    return f"But {other} {third_person(reason)}."


def doubt_others_hold(holder: str, reason: str, target: str, rank: Rank, most: int) -> str:
    """A count another player's known holding rules out: "But Ana received two sevens from Ben, so
    Ben can't have any." """
    limit = f"{target} can't have any" if most <= 0 else f"{target} can give at most {number(most)}"
    return f"But {holder} {third_person(reason)}, so {limit}."


def doubt_count_differs(player: str, n: int) -> str:
    return f"I count {cards(n)} for {player}. Please check."


def doubt_sits_out(player: str) -> str:
    return f"{player} ran out of cards and sits out."


def doubt_said_out(player: str) -> str:
    return f"I have {player} with no cards."


def question(doubt: str) -> str:
    return f"{doubt} {SAY_YES_ANYWAY}"


# ---- refusals: a short spoken reason ----------------------------------------------------------


def answer_first(target: str, asker: str, rank: Rank) -> str:
    return f"{target}, answer {asker} first: {rank.plural}?"


UNSETTLED = "The last exchange is still open."
ASK_SELF = "You can't ask yourself."
NEED_CARD = "Ask for one card, like the king of clubs."
BAD_CARD = "That card is not of the rank asked for."
NO_CARD = "Ask for a rank, like sevens."
ONE_CARD = "A card was asked for: hand over just that one."
NO_MISS = "A lucky fish comes right after a go fish."
NO_DRAW = "Nobody drew: the stock is empty."
LUCKY_TWICE = "That lucky fish is already counted."
FINISH_ASK = "Finish the ask first."
NEGATIVE_HAND = "A hand can't have fewer than no cards."
NOTHING_TO_SETTLE = "Nothing to settle."
NO_ASK = "Nobody has asked anything."
NOTHING_TO_CONFIRM = "There's nothing to answer yes or no to."
NOT_GAME = "I can't do anything with that."
NOTHING_TO_UNDO = "There's nothing to undo."
NOTHING_TO_CORRECT = "There's nothing to correct."


def its_turn(player: str) -> str:
    return f"It's {player}'s turn."


def target_sits_out(player: str) -> str:
    return f"{player} sits out."


def has_no_cards(player: str) -> str:
    return f"{player} has no cards."


def already_booked(rank: Rank) -> str:
    return f"{capital(rank.plural)} are already booked."


def cant_give(target: str, asked: int, most: int) -> str:
    return f"{target} can't give {number(asked)}: at most {number(most)}."


def count_is_book(rank: Rank, giver: str) -> str:
    """"yes, four": four of a rank make a book and never change hands; say why and ask again."""
    return f"Four {rank.plural} make a book, so {giver} can't hand over four. How many: one, two or three?"


def names_sound_the_same(first: str, second: str) -> str:
    """Two names only their spelling tells apart ("Zoe", "Zoë"), refused before the deal."""
    return f"{first} and {second} sound the same, so I couldn't tell them apart: call one of them by a nickname"


def only_has(player: str, n: int) -> str:
    return f"{player} has only {cards(n)}."


def already_out(player: str) -> str:
    return f"{player} already sits out."


def stock_short(stock: int) -> str:
    return f"That's more cards than the stock has: {number(stock)} left."


def not_playing(name: str) -> str:
    return f"{name} isn't playing."


def not_lucky(asker: str, rank: Rank) -> str:
    return f"{asker} asked for {rank.plural}, so that's no lucky fish."


def cant_correct(reason: str) -> str:
    return f"Can't correct that: {reason}"


# ---- answers to queries -----------------------------------------------------------------------

NOTHING_SAID_YET = "I haven't said anything yet."
NOBODY_ASKED = "Nobody has asked for anything yet."
NO_BOOKS_YET = "No books are down yet."


def hand_confirmed(player: str, n: int) -> str:
    return f"Yes, {player} has {cards(n)}."


def hand_size(player: str, n: int) -> str:
    return f"{player} has {cards(n)}."


def stock_left(n: int) -> str:
    return f"{capital(cards(n))} left in the stock."


def score(books_per_player: Mapping[str, int], size: int) -> str:
    return "Score: " + ", ".join(f"{p} {books(n, size)}" for p, n in books_per_player.items()) + "."


def books_down(down: Mapping[str, Sequence[Rank]]) -> str:
    parts = [f"{p}: {join([r.plural for r in ranks])}" for p, ranks in down.items() if ranks]
    return ("Down: " + "; ".join(parts) + ".") if parts else NO_BOOKS_YET


def last_asked(asker: str, target: str, rank: Rank) -> str:
    return f"{asker} last asked {target} for {rank.plural}."


def asked(asker: str, target: str, rank: Rank) -> str:
    return f"{asker} asked {target} for {rank.plural}."


def has_not_asked(player: str) -> str:
    return f"{player} hasn't asked for anything yet."


def standing(hands: Mapping[str, int], books_per_player: Mapping[str, int], stock: int, size: int = 4) -> str:
    """Where the game stands, in words: the stock, every hand and the score."""
    held = join([f"{p} has {cards(n)}" for p, n in hands.items()])
    return f"{stock_left(stock)} {capital(held)}. {score(books_per_player, size)}"


# ---- undo and corrections: what was taken back, in words --------------------------------------


def took_back(what: str) -> str:
    return f"Took back: {what}."


def corrected(what: str) -> str:
    return f"Corrected: {what}."


def step_ask(asker: str, target: str, wanted: str) -> str:
    return f"{asker} asks {target} for {wanted}"


def step_answer(target: str | None, asker: str | None, n: int | None, rank: Rank | None) -> str:
    if rank is None or target is None or asker is None:  # what was answered isn't known: the answer alone
        return "yes" if n is None else f"yes, {number(n)}"
    if n is None:
        return f"{target}'s yes to {asker}'s {rank.plural}"
    return f"{target} gives {asker} {of_rank(n, rank)}"


def step_go_fish(target: str | None, asker: str | None) -> str:
    if target is None or asker is None:
        return "go fish"
    return f"{target}'s go fish, and {asker}'s draw"


def step_lucky(asker: str | None) -> str:
    return f"{asker}'s lucky fish" if asker else "the lucky fish"


def step_book(player: str, rank: Rank, size: int = 4) -> str:
    return f"{player}'s {_kind(size)} of {rank.plural}"


def step_out(player: str) -> str:
    return f"{player} is out of cards"


def step_hand(player: str, n: int) -> str:
    return f"{player} has {cards(n)}"


STEP_SETTLE = "the turn passing"


# ---- the table --------------------------------------------------------------------------------

NOT_CAUGHT = "Sorry, I didn't catch that."
SAY_IT_AGAIN = "Okay, say it again."
OKAY = "Okay."
PAUSED = "Paused. Say resume to go on."
STOPPING = "Stopping the game. The journal is saved."
CAMERA_FAILED = "The camera isn't working, so I'll go on without it."
_CAMERA_PROBLEMS = {
    "no-camera": "There's no camera, so I'll go on without it.",
    "camera-closed": CAMERA_FAILED,
    "camera-stopped": "The camera stopped sending pictures, so I'll go on without it.",
    "camera-dark": "The camera sees only darkness, so I'll go on without it. Next time, turn on a light.",
    "no-vision-model": "The card reader isn't installed, so I'll go on without the camera.",
    "reader-failed": "I couldn't read the cards in the camera's picture, so I'll go on without it.",
}


def camera_problem(code: str) -> str:
    """What to say when the camera can't be used (the detail, with any path, is printed, never spoken)."""
    return _CAMERA_PROBLEMS.get(code, CAMERA_FAILED)


JOURNAL_TORN = ("The journal's last line was cut short, probably by a crash, so I've gone back to the last "
                "whole event.")
JOURNAL_BEING_WRITTEN = ("The journal's last line is still being written by the game in progress, so this is the "
                         "game just before it.")


def now(over: bool, current: str | None, winners: Sequence[str] = ()) -> str:
    """Where the game stands: whose turn it is, or who won."""
    if not over:
        return its_turn(current or "")
    if not winners:
        return "The game is over."
    if len(winners) == 1:
        return f"The game is over: {winners[0]} won."
    return f"The game is over: {join(winners)} won together."


def resuming_game(where: str) -> str:
    return f"Resuming the game. {where}"


def resumed(where: str) -> str:
    return f"Resuming. {where}"


def players_are(players: Sequence[str]) -> str:
    return f"Players: {join(players)}."


def new_game(opening_sentence: str) -> str:
    return f"New game. {opening_sentence}"


def together(parts: Sequence[str]) -> str:
    """Join sentences with a space, ending any that lacks its full stop (so two never run together)."""
    out = []
    for part in parts:
        part = part.strip()
        if part:
            out.append(part if part[-1] in ".?!:" else part + ".")
    return " ".join(out)


# ---- understanding: the short yes/no question that repeats what was heard --------------------

_QUERY_QUESTIONS = {
    "score": "The score?", "turn": "Whose turn?", "stock": "How many cards are left?",
    "last": "The last ask?", "books": "The books?", "repeat": "Repeat that?", "help": "Help?",
}
_CONTROL_QUESTIONS = {"pause": "Pause the game?", "resume": "Resume the game?", "stop": "Stop the game?",
                      "new_game": "Start a new game?"}


SORRY_HOW_MANY = "Sorry, how many?"


def which_slot(intent: Any, slot: str, asker: str | None = None) -> str:
    """Ask for just the unsure part of a sentence: "Ana, which rank?" · "Sevens from whom?" ·
    "Sorry, how many?"."""
    if slot == "count":
        return SORRY_HOW_MANY
    if getattr(intent, "type", None) == "ask":
        if slot == "rank":
            return f"{asker}, which rank?" if asker else "Which rank?"
        return f"{capital(intent.rank.plural)} from whom?"
    if getattr(intent, "type", None) == "book":
        return "A book of which rank?"
    return "Which rank?" if getattr(intent, "type", None) == "correct" and slot == "rank" else "Which one?"


def offer_two(slot: str, first: str, second: str) -> str:
    """After two misses of one slot, the two likeliest values ("Sixes or sevens?", "Ben or Cho?").

    ``first`` and ``second`` are JSON values: rank symbols, player names or counts.
    """
    def word(value: str) -> str:
        if slot == "rank":
            return Rank.from_symbol(value).plural
        return number(int(value)) if slot == "count" else value

    return capital(f"{word(first)} or {word(second)}?")


def check_slot(slot: str, value: str, again: bool = False) -> str:
    """A yes/no check of one slot heard once ("Sevens?" after "Ana, which rank?"); ``again`` when
    the answer was neither a yes nor a no ("Sevens? Yes or no.")."""
    if slot == "rank":
        word = Rank.from_symbol(value).plural
    else:
        word = number(int(value)) if slot == "count" else value
    return capital(f"{word}?") + (" Yes or no." if again else "")


def confirm(intent: Any, asked: Rank | None = None) -> str:
    """A short yes/no question that repeats an intent: "Ben, sevens?", "Two sevens?", "Go fish?".

    ``intent`` is one of the referee's intents, read by its ``type`` and slots; ``asked`` is the
    rank of the pending ask (for "Two sevens?").
    """
    kind = getattr(intent, "type", None)
    get = lambda slot: getattr(intent, slot, None)  # noqa: E731
    if kind == "ask":
        what = intent.card.spoken() if get("card") is not None else intent.rank.plural
        return f"{intent.asker} asks {intent.target} for {what}?" if get("asker") else f"{intent.target}, {what}?"
    if kind == "answer":
        if intent.count is None:
            return "Yes, you have some?"
        words = number(intent.count)
        if asked is not None:
            words += " " + asked.spoken(intent.count)
        return capital(words) + "?"
    if kind == "go_fish":
        return "Go fish?"
    if kind == "lucky":
        return f"Lucky fish, {of_rank(1, intent.rank)}?" if get("rank") is not None else "Lucky fish?"
    if kind == "book":
        return f"{intent.player} has a book of {intent.rank.plural}?" if get("player") else f"A book of {intent.rank.plural}?"
    if kind == "out_of_cards":
        return f"{intent.player} is out of cards?" if get("player") else "You're out of cards?"
    if kind == "hand_count":
        return f"{intent.player} has {cards(intent.count) if intent.count else 'no cards'}?"
    if kind == "query":
        if intent.what == "hand":
            return f"How many cards {intent.player or 'you'} {'has' if intent.player else 'have'}?"
        return _QUERY_QUESTIONS[intent.what]
    if kind == "undo":
        return "Undo the last move?"
    if kind == "correct":
        if get("rank") is not None:
            return f"You said {intent.rank.plural}?"
        if get("target") is not None:
            return f"You meant {intent.target}?"
        if get("count") is not None:
            return f"You said {number(intent.count)}?"
        if get("player") is not None:
            return f"It was {intent.player}?"
        return "A correction?"
    if kind == "yes":
        return "Yes?"
    if kind == "no":
        return "No?"
    if kind == "control":
        if intent.what == "new_game" and get("players"):
            return f"New game with {join(list(intent.players))}?"
        return _CONTROL_QUESTIONS[intent.what]
    return "Did you say something?"


# ---- vision: what the camera saw --------------------------------------------------------------

UNCLEAR = "I can't see the cards clearly: spread them out."
NONE_READABLE = "I see no cards I can read."


def nothing_seen(rank: Rank) -> str:
    return f"I can't see any cards: lay the {rank.plural} face up."


def seen(counts: Sequence[tuple[Rank, int]], unclear: int = 0) -> str:
    """"I see three sevens and a six." (in the order given), and any cards too unclear to read."""
    parts = [of_rank(n, rank) for rank, n in counts]
    if unclear:
        parts.append(("one card" if unclear == 1 else f"{number(unclear)} cards") + " I can't read clearly")
    if not parts:
        return NONE_READABLE
    return f"I see {join(parts)}."


def spread_out(rank: Rank) -> str:
    return f"Spread the {rank.plural} out so I can see a corner of each."


def book_seen(rank: Rank, size: int) -> str:
    return f"I see {of_rank(size, rank)}."


def cards_found(n: int) -> str:
    return f"{capital(cards(n))} found."


def book_in_view(rank: Rank) -> str:
    return f"A book of {rank.plural} is in view."


def book_verdict(rank: Rank, verdict: str) -> str:
    """``see --rank``'s answer about the claimed book, after what was seen."""
    if verdict == "confirmed":
        return book_in_view(rank)
    if verdict == "not_confirmed":  # every card in view read, too few of the rank: one may lie out of view
        return f"I don't see a book of {rank.plural}."
    return f"I can't tell whether that's a book of {rank.plural}: spread the cards out."
