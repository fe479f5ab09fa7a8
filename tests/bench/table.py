"""Table bench: whole games of Go Fish played out loud through the closed loop by a simulated table.

    python tests/bench/table.py [--games 3] [--players 3] [--snrs clean 20 10] [--quick] [--verbose]

A simulated table (``tests/referee/simtable.py``: a real shuffled deck, hidden hands, honest
players making random legal moves) plays each game. Every sentence a player says is synthesised
in that player's own voice (espeak-ng variants at different speeds), mixed with babble and table
noise at the game's SNR, heard by the recogniser in the table's context, and handed to a real
:class:`tabletop.table.Table` (through ``tableside``, the benches' thin adapter over its public
API). The players answer tabletop's questions as people would:

* a question about what they meant ("Ben, sevens?") → "yes";
* a question about something else → "no", then they say their sentence again (with a question
  that names the slot it expects, "no, sevens" in one go);
* "Sorry, I didn't catch that." (or nothing) → they say it again; misunderstood twice (not caught,
  or asked about something else), they put it another way ("lucky fish!" for "I got a six");
* tabletop acting on something they did not mean (a wrong action) → "no, I said sevens" when one
  slot was wrong, else "scratch that" and the sentence again; a game stopped by a mishearing is lost.

After every sentence the referee's public state is compared with the true table. Reported per
noise level, each on its own: games that end in the true state (a game in which a player gave up
after six tries and typed the sentence does not count), utterances per intended action, wrong
actions (per utterance and per intended action), utterances per action by kind of action (ask,
answer, go fish, lucky, book, query) and what the extra utterances were for (said again after
"Sorry?", answering a question, repairing a wrong action).

Size: a two-player game of pairs is about 100 intended actions and, with today's recogniser,
200-250 utterances, about 0.6 s of CPU each (two decoders); run one process per noise level to use
both cores (``--snrs clean``, ``--snrs 20``...). The voices are espeak-ng variants no other bench or
tuning uses (``TABLE_VOICES``). Quiet at the table (the referee settling an exchange) is
the table's ``idle()``, as the live loop calls it after a pause.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
REPO = HERE.parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(1, str(HERE.parent))
sys.path.insert(2, str(REPO / "tests" / "referee"))

import simtable  # noqa: E402
import tableside  # noqa: E402
from tabletop.referee.referee import Ruling  # noqa: E402
from tabletop.rules import Rules  # noqa: E402
from tabletop.speech import synth  # noqa: E402

NAMES = ["Ana", "Ben", "Cho", "Dev"]
# Voices the speech bench's synthesised sets do not use (its BENCH_VOICES), so the two benches
# hear different people; speeds from a slow careful child to a quick adult.
TABLE_VOICES = ("en-us+m2", "en+f3", "en-gb+m4", "en-us+f5", "en+m6", "en-us+f1")
TABLE_SPEEDS = (135, 155, 175, 190)
MAX_TRIES = 6          # utterances spent on one intended action before the player gives up
SAME = {"no": "go_fish", "yes": "answer"}  # "no" to an ask is a go fish; "yes" is an answer with no count


class Derailed(Exception):
    """The spoken game can no longer follow the true table (a stop, or an unrepaired wrong action)."""


@dataclass
class Tally:
    games: int = 0
    true_end: int = 0
    actions: int = 0
    utterances: int = 0
    wrong: int = 0
    questions: int = 0
    repeats: int = 0
    derailed: list[str] = field(default_factory=list)
    gave_up: int = 0
    gave_ups: list[str] = field(default_factory=list)
    spoken_true_end: int = 0
    cpu: float = 0.0
    wrongs: list[str] = field(default_factory=list)
    # per kind of intended action (ask, answer, go_fish, lucky, book, query...): [actions, utterances]
    kinds: dict[str, list[int]] = field(default_factory=dict)
    # what the extra utterances were: "unheard" (said again after "Sorry?"), "confirmed" (a yes/no or
    # the slot asked for), "repair" (putting a wrong action right)
    extra: dict[str, int] = field(default_factory=dict)

    def count(self, kind: str, utterances: int) -> None:
        k = self.kinds.setdefault(kind, [0, 0])
        k[0] += 1
        k[1] += utterances


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.?!])\s+", text.strip()) if s]


def _one_wrong_slot(heard: dict[str, Any] | None, meant: dict[str, Any]) -> str | None:
    """The one slot (rank, target or count) in which an intent of the meant type differs, if just one."""
    if not heard or SAME.get(heard.get("type"), heard.get("type")) != SAME.get(meant["type"], meant["type"]):
        return None
    differs = [k for k in ("rank", "target", "count") if meant.get(k) is not None and heard.get(k) != meant[k]]
    return differs[0] if len(differs) == 1 else None


def _slot_words(slot: str, value: Any) -> str:
    if slot == "rank":
        return simtable.PLURALS[simtable.SYMBOLS.index(value)]
    if slot == "count":
        return simtable.NUMBERS[int(value)]
    return str(value)


def matches(heard: dict[str, Any] | None, meant: dict[str, Any]) -> bool:
    """The table acted on (or asked about) what was meant: the same type, and every slot both name equal."""
    if heard is None:
        return False
    a, b = SAME.get(heard["type"], heard["type"]), SAME.get(meant["type"], meant["type"])
    if a != b:
        return False
    return all(heard[k] == meant[k] for k in heard.keys() & meant.keys()
               if k != "type" and heard[k] is not None and meant[k] is not None)


class SpokenTable(simtable.SimulatedTable):
    """The simulated table, talking to a real Table through a recogniser instead of typing to the referee."""

    MAX_EVENTS = 400

    def __init__(self, names: list[str], rules: Rules, seed: int, *, recogniser: Any, snr: float | None,
                 tally: Tally, verbose: bool = False) -> None:
        super().__init__(names, rules, seed)
        self.table = tableside.new_table(names, rules)
        self.game = self.table.game
        self.referee = self.table.referee
        self.recogniser = recogniser
        self.snr = snr
        self.tally = tally
        self.verbose = verbose
        self.voices = {name: (TABLE_VOICES[(seed + i) % len(TABLE_VOICES)], TABLE_SPEEDS[(seed * 3 + i) % len(TABLE_SPEEDS)])
                       for i, name in enumerate(names)}
        self.k = 0
        self.typed = False
        self.rephrased: set[str] = set()  # the other wordings already tried for the action being said
        self.rephrase_rng = random.Random(seed + 7)  # apart from the game's own dealing and choices

    # ---- who says what ----

    def speaker_for(self, intent: Any) -> str:
        t = self.truth
        ex = t.exchange
        kind = intent.to_json()["type"]
        named = getattr(intent, "player", None)
        if named and kind in ("book", "out_of_cards"):
            return named
        if ex is not None and kind in ("answer", "go_fish", "no", "yes"):
            return t.names[ex.target]
        if ex is not None:
            return t.names[ex.asker]
        return t.names[t.current]

    def utter(self, speaker: str, text: str, attempt: int = 0) -> tuple[tableside.Outcome, list[Any]]:
        voice, speed = self.voices[speaker]
        speed += (-12, 10, -22, 0, -30, 5)[attempt % 6] if attempt else 0  # said again, a little differently
        self.k += 1
        u = synth.realistic(text, voice=voice, speed=speed, snr_db=self.snr, seed=self.seed * 1000 + self.k)
        transcript, replies = tableside.hear(self.table, self.recogniser, u)
        self.tally.utterances += 1
        out = tableside.outcome(replies)
        self.transcript.append(f"[{speaker}] {text!r} heard {transcript.text!r} -> {out.kind} {out.intent}: {out.say}")
        if self.verbose:
            print(f"      [{speaker}] {text!r} heard {transcript.text!r} -> {out.kind} {out.intent}: {out.say}")
        return out, replies

    # ---- the simulated table's one way of talking, now spoken ----

    def say(self, text: str, intent: Any, expect: tuple[str, ...] | None = ("ok",), *, compare: bool = True,
            undoable: bool = True) -> Any:
        meant = intent.to_json()
        speaker = self.speaker_for(intent)
        self.tally.actions += 1
        self.stats.events += 1
        kind = SAME.get(meant["type"], meant["type"])
        first = self.tally.utterances
        try:
            return self._say(text, intent, meant, speaker, compare)
        finally:
            self.tally.count(kind, self.tally.utterances - first)

    def _say(self, text: str, intent: Any, meant: dict[str, Any], speaker: str, compare: bool) -> Any:
        line = text
        out = None
        unheard = 0
        why = ""
        self.rephrased = set()
        for attempt in range(MAX_TRIES):
            out, replies = self.utter(speaker, line, attempt)
            if attempt:
                self.tally.extra[why] = self.tally.extra.get(why, 0) + 1
            why = "unheard"  # what the next utterance is for, unless set below
            if out.kind == "acted" and matches(out.intent, meant):
                return self._done(replies, text, compare)
            if out.kind == "acted":
                self.tally.wrong += 1
                self.tally.wrongs.append(f"{self.snr or 'clean'}: meant {meant}, said {line!r}, acted on {out.intent}")
                before = self.tally.utterances
                fixed = self.repair(speaker, out, meant)
                self.tally.extra["repair"] = self.tally.extra.get("repair", 0) + self.tally.utterances - before
                if fixed:
                    return self._done(replies, text, compare)
                line = text
                why = "repair"
            elif out.kind == "asked":
                self.tally.questions += 1
                slot = _one_wrong_slot(out.intent, meant)
                why = "confirmed"
                if out.expects in ("rank", "target", "count"):
                    # "Ana, which rank?": the slot alone ("sevens")
                    line = _slot_words(out.expects, meant[out.expects]) if meant.get(out.expects) else text
                elif matches(out.intent, meant):
                    line = "yes"
                elif slot is not None and out.expects == "yes_no":
                    line = f"no, {_slot_words(slot, meant[slot])}"  # "Ben, sixes?" - "no, sevens"
                else:
                    line = "no"
                    unheard += 1  # asked about something else: misunderstood, like not caught
            else:
                if line != "no":
                    self.tally.repeats += 1
                    unheard += 1
                # Said again as it was; not caught twice, a person puts it another way ("lucky
                # fish!" for "I got a six"), as at a real table.
                line = self.rephrase(text, intent, meant) if unheard >= 2 else text
        # Nobody at a table says one thing more than six times: the player gives up and types it
        # (counted; a game with a typed sentence is not a spoken game ending in the true state).
        self.tally.gave_up += 1
        self.typed = True
        self.tally.gave_ups.append(f"{self.snr or 'clean'}: [{speaker}, {self.voices[speaker][0]}] {text!r}")
        if out is not None and out.kind == "asked":
            self.table.hear_text("no")  # the question left open is answered first
        return self._done(self.table.hear_text(text), text, compare)

    def rephrase(self, text: str, intent: Any, meant: dict[str, Any]) -> str:
        """Another wording of the same intended action (the same sentence when there is none)."""
        t = self.truth
        ex = t.exchange
        kind = meant["type"]
        rank = simtable.SYMBOLS.index(meant["rank"]) if meant.get("rank") else None
        options: list[tuple[str, Any]] = []
        rng = self.rephrase_rng
        for _ in range(8):
            if kind == "ask" and rank is not None and not meant.get("card"):
                asker = t.names.index(meant["asker"]) if meant.get("asker") else t.current
                options.append(self.voice_for(rng).ask(t.names, asker, t.names.index(meant["target"]), rank, None,
                                                       bool(meant.get("asker"))))
            elif kind == "answer" and meant.get("count") and ex is not None:
                options.append(self.voice_for(rng).hit(int(meant["count"]), ex.rank))
            elif kind in ("go_fish", "no"):
                options.append(self.voice_for(rng).miss())
            elif kind == "lucky" and ex is not None:
                options.append(self.voice_for(rng).lucky(ex.rank))
            elif kind == "book" and rank is not None:
                player = t.names.index(meant["player"]) if meant.get("player") else t.current
                options.append(self.voice_for(rng).book(t.names, player, rank, bool(meant.get("player")), t.book_size))
        for other, other_intent in options:
            if other != text and matches(other_intent.to_json(), meant) and other not in self.rephrased:
                self.rephrased.add(other)
                return other
        return text

    def voice_for(self, rng: Any) -> simtable.Voice:
        return simtable.Voice(rng, self.voice.I, self.voice.Card, self.voice.Rank, self.voice.Suit)

    def _done(self, replies: list[Any], text: str, compare: bool) -> Ruling:
        acted = [r for r in replies if r.event.get("changed") or r.event.get("code") in ("control", "answer")]
        code = acted[-1].event.get("code", "ok") if acted else "ok"
        say = [s for r in replies for s in _sentences(r.text)]
        ruling = Ruling(None, code, say, bool(acted))  # what the simulated table reads back: the ruling of the acted sentence
        self.said.extend(say)
        if compare:
            self.compare(text)
        return ruling

    def repair(self, speaker: str, out: tableside.Outcome, meant: dict[str, Any]) -> bool:
        """Put right what the table did wrongly. True when the correction itself made it right."""
        heard = out.intent or {}
        if heard.get("type") == "control":
            if heard.get("what") == "pause":
                self._until(speaker, "resume", lambda i: i.get("type") == "control" and i.get("what") == "resume")
                return False
            raise Derailed(f"a mishearing did {heard}")
        slot = _one_wrong_slot(heard, meant)
        if slot is not None:
            value = meant[slot]
            self._until(speaker, f"no, I said {_slot_words(slot, value)}",
                        lambda i: i.get("type") == "correct" and i.get(slot) == value)
            return True
        self._until(speaker, "scratch that", lambda i: i.get("type") == "undo")
        return False

    def _until(self, speaker: str, line: str, ok: Any) -> None:
        for attempt in range(MAX_TRIES):
            out, _replies = self.utter(speaker, line, attempt)
            if out.kind == "acted" and ok(out.intent or {}):
                return
            if out.kind == "acted":
                self.tally.wrong += 1
                raise Derailed(f"{line!r} acted on as {out.intent}")
            if out.kind == "asked":
                out, _replies = self.utter(speaker, "yes" if ok(out.intent or {}) else "no")
                if out.kind == "acted" and ok(out.intent or {}):
                    return
        raise Derailed(f"gave up on {line!r}")

    def quiet(self) -> None:
        self.resettle()
        replies = self.table.idle()
        say = [s for r in replies for s in _sentences(r.text)]
        self.said.extend(say)
        self.transcript.append(f"(quiet) -> {' '.join(say)}")
        self.compare("(quiet)")


def play_games(recogniser: Any, snr: float | None, games: int, players: int, rules: Rules, seed0: int,
               verbose: bool) -> Tally:
    tally = Tally()
    for g in range(games):
        seed = seed0 + g
        table = SpokenTable(NAMES[:players], rules, seed, recogniser=recogniser, snr=snr, tally=tally, verbose=verbose)
        t0 = time.process_time()
        tally.games += 1
        try:
            table.play()
            ok = table.truth.over and table.game.public()["over"]
            if ok:
                table.compare("the end")
            tally.true_end += bool(ok)
            tally.spoken_true_end += bool(ok) and not table.typed
            if not ok:
                tally.derailed.append(f"seed {seed}: not over after {table.stats.events} actions")
        except (Derailed, simtable.Mismatch) as error:
            first = str(error).splitlines()[0]
            tally.derailed.append(f"seed {seed}: {first}")
            if verbose:
                print("\n".join(str(error).splitlines()[:30]))
        tally.cpu += time.process_time() - t0
        # one line a game, so a long run shows where it stands
        level = "clean" if snr is None else f"{snr:g} dB"
        print(f"    after game {g + 1}/{games} (seed {seed}, {level}): true end {tally.spoken_true_end}/{tally.games}, "
              f"utterances {tally.utterances} for {tally.actions} actions, wrong {tally.wrong}, "
              f"given up {tally.gave_up}, CPU {tally.cpu:.0f} s; by kind {_kinds(tally)}; extra {_extra(tally)}", flush=True)
    return tally


def _kinds(tally: Tally) -> str:
    """Utterances per intended action of each kind, costliest first: "ask 1.90 (40), ..."."""
    return ", ".join(f"{k} {u / a:.2f} ({a})" for k, (a, u) in sorted(tally.kinds.items(), key=lambda kv: -kv[1][1]))


def _extra(tally: Tally) -> str:
    return ", ".join(f"{k} {n}" for k, n in sorted(tally.extra.items(), key=lambda kv: -kv[1])) or "none"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default="pocketsphinx")
    parser.add_argument("--games", type=int, default=3, help="games per noise level")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--snrs", nargs="+", default=["clean", "20", "10"])
    parser.add_argument("--preset", default="standard", help="rules preset (pairs: shorter games)")
    parser.add_argument("--seed", type=int, default=4100)
    parser.add_argument("--quick", action="store_true", help="one two-player game of pairs per noise level")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.games, args.players, args.preset = 1, 2, "pairs"
    os.environ.setdefault("TABLETOP_SYNTH_CACHE", str(Path("/tmp") / "tabletop-bench-synth"))
    from tabletop.speech.recognisers import make_recogniser

    rules = Rules.preset(args.preset) if hasattr(Rules, "preset") else Rules()
    recogniser = make_recogniser(args.engine, tuple(NAMES[: args.players]))
    print(f"== {args.engine}: {args.games} game(s) per level, {args.players} players, rules {args.preset}, "
          f"voices {', '.join(TABLE_VOICES)}")
    for level in args.snrs:
        snr = None if level == "clean" else float(level)
        tally = play_games(recogniser, snr, args.games, args.players, rules, args.seed, args.verbose)
        per_action = tally.utterances / max(1, tally.actions)
        print(f"  {level:>5s}: games ending in the true state {tally.spoken_true_end}/{tally.games} "
              f"({tally.true_end} counting games where a player gave up and typed a sentence); "
              f"utterances per intended action {per_action:.2f} ({tally.utterances}/{tally.actions}); "
              f"wrong actions {tally.wrong} ({100.0 * tally.wrong / max(1, tally.utterances):.2f}% of utterances, "
              f"{100.0 * tally.wrong / max(1, tally.actions):.2f}% of intended actions); "
              f"questions {tally.questions}, repeats {tally.repeats}, given up (typed) {tally.gave_up}; "
              f"CPU {tally.cpu:.0f} s")
        print(f"         utterances per action by kind (actions): {_kinds(tally)}")
        print(f"         extra utterances: {_extra(tally)}")
        for line in tally.gave_ups[:5]:
            print(f"         gave up: {line}")
        for line in tally.derailed[:5]:
            print(f"         lost: {line}")
        for line in tally.wrongs[:6]:
            print(f"         wrong: {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
