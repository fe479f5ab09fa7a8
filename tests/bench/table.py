"""Table bench: whole games of Go Fish played out loud through the closed loop by a simulated table.

    python tests/bench/table.py [--games 3] [--players 3] [--snrs clean 20 10] [--jobs 2] [--quick] [--verbose]

A simulated table (``tests/referee/simtable.py``: a real shuffled deck, hidden hands, honest
players making random legal moves) plays each game against the real program: one
``python -m tabletop play --audio - --json`` per game (``tests/support.py`` ``ClosedLoop``). Every
sentence a player says is synthesised in that player's own voice (espeak-ng variants at different
speeds), mixed with babble and table noise at the game's SNR, written as a WAV file, and its path
written to the program's standard input; the program hears it with its own recogniser in its own
context and prints the events it caused, then ``{"event": "listening"}``. The players read those
events and answer tabletop's questions as people would:

* a question about what they meant ("Ben, sevens?") → "yes";
* a question about something else → "no", then they say their sentence again (with a question
  that names the slot it expects, "no, sevens" in one go);
* "Sorry, I didn't catch that." (or nothing) → they say it again; misunderstood twice (not caught,
  or asked about something else), they put it another way ("lucky fish!" for "I got a six");
* tabletop acting on something they did not mean (a wrong action) → "no, I said sevens" when one
  slot was wrong, else "scratch that" and the sentence again; a game stopped by a mishearing is lost.

After every sentence the public state the program last printed is compared with the true table,
and at the end the game's journal, read back, must give the same state. Reported per noise level
and per voice, each on its own: games that end in the true state (a game in which a player gave up
after six tries and typed the sentence, ``type: ...`` on the program's input, does not count),
utterances per intended action, wrong actions (per utterance and per intended action), utterances
per action by kind of action (ask, answer, go fish, lucky, book, query), what the extra utterances
were for (said again after "Sorry?", answering a question, repairing a wrong action), and why each
game that did not end in the true state did not.

Size: a two-player game of pairs is about 125 intended actions and, with today's recogniser,
180-250 utterances clean (more in noise), about 1 s of CPU each in the program clean and 1.5 s at
20 dB (its decoders; the bench's own share is about 2%): 3-4 CPU minutes a clean game, 6 at 20 dB.
``--jobs 2`` plays two games at once (use it only when both cores are free); ``--report`` adds up
games already played, so a long measurement can be split across runs. Synthesised speech is cached on disk by
text, voice and speed (``TABLETOP_SYNTH_CACHE``, default ``/tmp/tabletop-bench-synth``), so only
decoding costs on a second run. Beside each transcript, ``LEVEL-SEED.trace.jsonl`` holds
how the recogniser judged every utterance (its ``last_trace``: the grammar's and the open decoder's
readings, their agreement, the phone-loop fit, which check dropped or capped it, the CPU seconds of
the decode) with what was said, by whom and what came of it: where the extra utterances go. The voices are espeak-ng variants no other bench or tuning uses
(``TABLE_VOICES``). Quiet at the table (the referee settling an exchange) is an empty line, as the
live loop settles after a pause.

``--enroll [SHIFT]``: the table a family that enrolled would be. Before each game every player
enrolls through the real command (``tabletop enroll --player NAME --audio ... --text ...``) into a
voices folder of that game's own (``TABLETOP_VOICES_DIR``), saying the prompts ``tabletop enroll``
asks (``tabletop.speech.enrollment.prompts``, about twenty) in their own game voice; the game is
then played with those profiles (``--profiles pooled``, the default, or ``speaker``). espeak-ng is
deterministic, so the same words at the same speed are the same waveform as in the game: the
enrollment is said at the game speed + SHIFT words a minute (default +15; said again in the game,
a sentence is at -12, +10, -22, -30 or +5) over a noise floor of its own level and seeds, clean, so
the game never hears its own enrollment audio. Such games are kept as ``LEVEL-enrolled-SEED``.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import random
import re
import shutil
import sys
import tempfile
import threading
import time
from collections import Counter
import json
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
REPO = HERE.parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(1, str(HERE.parent))
sys.path.insert(2, str(REPO / "tests" / "referee"))
sys.path.insert(3, str(REPO / "tests"))

import simtable  # noqa: E402
import tableside  # noqa: E402
from support import ClosedLoop  # noqa: E402
from tabletop.referee.referee import Ruling  # noqa: E402
from tabletop.rules import Rules  # noqa: E402
from tabletop.speech import synth  # noqa: E402
from tabletop.speech.audio import write_wav  # noqa: E402

NAMES = ["Ana", "Ben", "Cho", "Dev"]
# Voices the speech bench's synthesised sets do not use (its BENCH_VOICES), so the two benches
# hear different people; speeds from a slow careful child to a quick adult.
TABLE_VOICES = ("en-us+m2", "en+f3", "en-gb+m4", "en-us+f5", "en+m6", "en-us+f1")
TABLE_SPEEDS = (135, 155, 175, 190)
MAX_TRIES = 6          # utterances spent on one intended action before the player gives up
_ENV_LOCK = threading.Lock()
TRANSCRIPTS = Path(tempfile.gettempdir()) / "table-bench-transcripts"  # one file a game: LEVEL-SEED.txt
# TABLE_BENCH_KEEP_AUDIO=1 keeps each game's folder (its WAV files, and the grammars each utterance was
# heard with) and names them in the trace, so the utterances can be decoded again offline.
KEEP_AUDIO = bool(os.environ.get("TABLE_BENCH_KEEP_AUDIO"))
SAME = {"no": "go_fish", "yes": "answer"}  # "no" to an ask is a go fish; "yes" is an answer with no count


# --enroll: each player enrolls before the game, as a family would (`tabletop enroll`'s own prompts,
# through `tabletop enroll --player NAME --audio ... --text ...`), in their game voice but at another
# speed and over another noise floor, so the game never hears its own enrollment audio (espeak-ng
# is deterministic: the same words at the same speed would be the same waveform). The game's
# speeds are the voice's speed and, said again, -12, +10, -22, -30 or +5 words a minute from it.
ENROLL_SPEED_SHIFT = 15
ENROLL_FLOOR_DB = -52.0  # the game's utterances: synth.realistic's -58 dBFS, with other seeds
ENROLL_SEED = 100_000_000  # noise-floor seeds; a game's are seed * 1000 + utterance


def table_voices(names: list[str], seed: int) -> dict[str, tuple[str, int]]:
    """Each player's espeak-ng voice and speed in the game of ``seed``."""
    return {name: (TABLE_VOICES[(seed + i) % len(TABLE_VOICES)], TABLE_SPEEDS[(seed * 3 + i) % len(TABLE_SPEEDS)])
            for i, name in enumerate(names)}


def enroll_players(names: list[str], seed: int, voices_dir: Path, folder: Path,
                   shift: int = ENROLL_SPEED_SHIFT) -> list[dict[str, Any]]:
    """Every player of the game of ``seed`` enrolls into ``voices_dir`` through the real command
    (``tabletop enroll --player NAME --audio ... --text ... --json``), saying the prompts
    ``tabletop enroll --players ...`` would ask them (``enrollment.prompts``) in their own game
    voice at their game speed + ``shift``, over a noise floor of their own (clean: a family
    enrolls in a quiet room). The profiles' JSON, each with the CPU seconds it cost."""
    import subprocess

    from support import tabletop_command
    from tabletop.speech.enrollment import prompts

    made = []
    for i, (name, (voice, speed)) in enumerate(table_voices(names, seed).items()):
        lines = prompts(name, names)
        where = folder / f"enroll-{name}"
        where.mkdir(parents=True, exist_ok=True)
        paths = []
        for j, line in enumerate(lines):
            u = synth.realistic(line, voice=voice, speed=speed + shift, seed=ENROLL_SEED + seed * 1000 + 100 * i + j,
                                floor_db=ENROLL_FLOOR_DB)
            paths.append(str(write_wav(where / f"{j + 1:02d}.wav", u)))
        t0 = os.times()
        done = subprocess.run(tabletop_command() + ["enroll", "--player", name, "--audio", *paths, "--text", *lines,
                                                    "--json"],
                              capture_output=True, text=True, cwd=REPO,
                              env={**os.environ, "TABLETOP_VOICES_DIR": str(voices_dir)})
        t1 = os.times()
        if done.returncode != 0:
            raise RuntimeError(f"`tabletop enroll --player {name}` failed: {done.stderr[-1000:]}")
        profile = json.loads(done.stdout.strip().splitlines()[-1])
        profile.update(voice=f"{voice} {speed + shift}", prompts=len(lines),
                       cpu=(t1.children_user + t1.children_system) - (t0.children_user + t0.children_system))
        made.append(profile)
        if not KEEP_AUDIO:
            shutil.rmtree(where, ignore_errors=True)
    return made


class Derailed(Exception):
    """The spoken game can no longer follow the true table (a stop, or an unrepaired wrong action)."""


class GaveUp(Derailed):
    """A repair said six times and never understood (nothing changed meanwhile)."""


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
    cpu: float = 0.0          # the bench's own CPU (synthesis, mixing)
    program_cpu: float = 0.0  # the program's CPU (decoding, ruling), from the operating system
    wrongs: list[str] = field(default_factory=list)
    enrolled: list[dict[str, Any]] = field(default_factory=list)  # --enroll: each player's profile, as made
    # per kind of intended action (ask, answer, go_fish, lucky, book, query...): [actions, utterances]
    kinds: dict[str, list[int]] = field(default_factory=dict)
    # what the extra utterances were: "unheard" (said again after "Sorry?"), "confirmed" (a yes/no or
    # the slot asked for), "repair" (putting a wrong action right)
    extra: dict[str, int] = field(default_factory=dict)
    # per voice ("en+f3 155"): [intended actions, utterances, wrong actions, gave up]
    voices: dict[str, list[int]] = field(default_factory=dict)
    # why each game ended as it did: "true end", "gave up and typed", "lost: ...", "not over"
    causes: Counter = field(default_factory=Counter)

    def count(self, kind: str, utterances: int) -> None:
        k = self.kinds.setdefault(kind, [0, 0])
        k[0] += 1
        k[1] += utterances

    def voice(self, voice: str, actions: int = 0, utterances: int = 0, wrong: int = 0, gave_up: int = 0) -> None:
        v = self.voices.setdefault(voice, [0, 0, 0, 0])
        for i, n in enumerate((actions, utterances, wrong, gave_up)):
            v[i] += n

    def to_json(self) -> dict[str, Any]:
        return {f.name: dict(getattr(self, f.name)) if f.name == "causes" else getattr(self, f.name) for f in fields(self)}

    def add(self, other: "Tally") -> None:
        """Add another game's tally to this one."""
        for name in ("games", "true_end", "actions", "utterances", "wrong", "questions", "repeats", "gave_up",
                     "spoken_true_end", "cpu", "program_cpu"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in ("derailed", "gave_ups", "wrongs", "enrolled"):
            getattr(self, name).extend(getattr(other, name))
        for kind, (n, u) in other.kinds.items():
            k = self.kinds.setdefault(kind, [0, 0])
            k[0] += n
            k[1] += u
        for why, n in other.extra.items():
            self.extra[why] = self.extra.get(why, 0) + n
        for voice, counts in other.voices.items():
            self.voice(voice, *counts)
        self.causes.update(other.causes)


def _outcome(replies: list[Any]) -> tableside.Outcome:
    """What the program did with one utterance; a question answered ("Ben has three cards.") is acted on
    too, though it changes nothing (``tableside.outcome`` counts only what changed the game)."""
    out = tableside.outcome(replies)
    if out.kind == "none":
        answered = [r for r in replies if r.event.get("code") == "answer" and r.event.get("intent")]
        if answered:
            return tableside.Outcome("acted", answered[0].event["intent"], out.codes, out.say)
    return out


def _slot_asked(replies: list[Any]) -> str | None:
    """The slot ("count", "rank", "target") the program's last question waits for, if it asked one."""
    asked = [r.event.get("expects") for r in replies if r.event.get("event") == "question"]
    return asked[-1] if asked and asked[-1] in ("rank", "target", "count") else None


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


_SPEAKERS_SLOT = {"ask": "asker", "book": "player", "out_of_cards": "player"}


def said_by(meant: dict[str, Any], speaker: str) -> dict[str, Any]:
    """``meant`` with the player who says it named: "book of sevens" said by Ben is Ben's book, so
    "Ana has a book of sevens?" is answered "no", never "yes" (before, a sentence that named nobody
    matched a question naming anyone: clean 4111 confirmed Ana's book for Ben's, saved only by
    Ana's hand)."""
    slot = _SPEAKERS_SLOT.get(meant["type"])
    return {**meant, slot: speaker} if slot is not None and meant.get(slot) is None else meant


def matches(heard: dict[str, Any] | None, meant: dict[str, Any]) -> bool:
    """The table acted on (or asked about) what was meant: the same type, and every slot both name equal."""
    if heard is None:
        return False
    a, b = SAME.get(heard["type"], heard["type"]), SAME.get(meant["type"], meant["type"])
    if a != b:
        return False
    return all(heard[k] == meant[k] for k in heard.keys() & meant.keys()
               if k != "type" and heard[k] is not None and meant[k] is not None)


class Heard:
    """One event the program printed, in the shape ``tableside`` reads (a reply's text and event)."""

    def __init__(self, event: dict[str, Any]) -> None:
        self.event = event
        self.text = event.get("say") or ""


class _SeenGame:
    """What the simulated table may know of the program's game: the public state it last printed."""

    def __init__(self, table: "SpokenTable") -> None:
        self._table = table

    @property
    def state(self) -> Any:
        # over once tabletop has said so ("Game over. ..."), as the players know it: the last
        # book makes the public state over, and a moment of quiet then announces the winner
        over = bool(self._table.state.get("over")) and any(s.startswith("Game over.") for s in self._table.said)
        return type("Seen", (), {"over": over})()

    def public(self) -> dict[str, Any]:
        return self._table.state


class SpokenTable(simtable.SimulatedTable):
    """The simulated table, talking to the real program (``play --audio - --json``) out loud."""

    MAX_EVENTS = 400

    def __init__(self, names: list[str], rules: Rules, seed: int, *, program: tuple[str, ...], snr: float | None,
                 tally: Tally, folder: Path, verbose: bool = False, typed: bool = False,
                 env: dict[str, str] | None = None) -> None:
        super().__init__(names, rules, seed)
        self.snr = snr
        self.typing = typed  # every sentence typed (``type: ...``), none said: the loop's own check, no decoding
        self.tally = tally
        self.verbose = verbose
        self.voices = table_voices(names, seed)
        self.k = 0
        self.typed = False
        self.rephrased: set[str] = set()  # the other wordings already tried for the action being said
        self.rephrase_rng = random.Random(seed + 7)  # apart from the game's own dealing and choices
        self.folder = folder
        self.journal = folder / "game.jsonl"
        # How the recogniser judged each utterance (``TABLETOP_SPEECH_TRACE``: one JSON line each),
        # kept beside the transcript to tally where the extra utterances go.
        self.trace_path = folder / "trace.jsonl"
        self.traces: list[dict[str, Any]] = []
        extra_env = {"TABLETOP_SPEECH_TRACE": str(self.trace_path), **(env or {})}
        with _ENV_LOCK:  # games start in threads: the variables are set only while this program starts
            os.environ.update(extra_env)
            try:
                self.loop = ClosedLoop(names, self.journal, *program)
            finally:
                for key in extra_env:
                    os.environ.pop(key, None)
        start = self.loop.until_listening(timeout=300)
        self.state: dict[str, Any] = {}
        self._seen(start)
        if not self.state:
            raise RuntimeError(f"the program did not start a game: {start} {self.loop.stderr[-1000:]}")
        self.game = _SeenGame(self)  # the program's game, as far as its printed events show it
        self.referee = None

    def _seen(self, events: list[dict[str, Any]]) -> list[Heard]:
        for event in events:
            if "state" in event:
                self.state = event["state"]
        return [Heard(e) for e in events]

    def close(self) -> None:
        self.loop.close(check=False)

    def program_cpu(self) -> float:
        """CPU seconds the program used (once it has ended), from /proc."""
        try:
            fields = Path(f"/proc/{self.loop.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            return 0.0

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

    def voice_name(self, speaker: str) -> str:
        voice, speed = self.voices[speaker]
        return f"{voice} {speed}"

    def _new_traces(self) -> list[dict[str, Any]]:
        try:
            lines = self.trace_path.read_text().splitlines()
        except OSError:
            return []
        new = lines[getattr(self, "_traced", 0):]
        self._traced = len(lines)
        return [json.loads(line) for line in new if line.strip()]

    def send(self, line: str) -> list[Heard]:
        replies = self._seen(self.loop.send(line))
        if self.loop.ended and not replies:
            raise Derailed(f"the program ended: {self.loop.stderr[-500:]}")
        return replies

    def utter(self, speaker: str, text: str, attempt: int = 0) -> tuple[tableside.Outcome, list[Any]]:
        voice, speed = self.voices[speaker]
        speed += (-12, 10, -22, 0, -30, 5)[attempt % 6] if attempt else 0  # said again, a little differently
        self.k += 1
        if self.typing:
            replies = self.send(f"type: {text}")
        else:
            u = synth.realistic(text, voice=voice, speed=speed, snr_db=self.snr, seed=self.seed * 1000 + self.k)
            path = write_wav(self.folder / f"{self.k:04d}.wav", u)
            replies = self.send(str(path))
            if KEEP_AUDIO:
                self.kept = str(path)
            else:
                path.unlink()
        self.tally.utterances += 1
        self.tally.voice(self.voice_name(speaker), utterances=1)
        heard = next((r.event.get("heard") for r in replies if "heard" in r.event), None)
        out = _outcome(replies)
        self.transcript.append(f"[{speaker}] {text!r} heard {heard!r} -> {out.kind} {out.intent}: {out.say}")
        for trace in self._new_traces():
            trace.update(said=text, speaker=speaker, voice=self.voice_name(speaker), outcome=out.kind,
                         say=out.say, typed=self.typing)
            if KEEP_AUDIO and not self.typing:
                trace.update(audio=getattr(self, "kept", None), speed=speed, grammars=f"{self.trace_path}.grammars")
            self.traces.append(trace)
        if self.verbose:
            print(f"      [{speaker}] {text!r} heard {heard!r} -> {out.kind} {out.intent}: {out.say}")
        return out, replies

    def type_line(self, text: str) -> list[Heard]:
        """A sentence typed instead of said (``type: ...``)."""
        self.transcript.append(f"(typed) {text!r}")
        return self.send(f"type: {text}")

    def wrong(self, speaker: str, what: str) -> None:
        self.tally.wrong += 1
        self.tally.voice(self.voice_name(speaker), wrong=1)
        self.tally.wrongs.append(f"{self.snr or 'clean'} [{self.voice_name(speaker)}]: {what}")

    # ---- the simulated table's one way of talking, now spoken ----

    def say(self, text: str, intent: Any, expect: tuple[str, ...] | None = ("ok",), *, compare: bool = True,
            undoable: bool = True) -> Any:
        speaker = self.speaker_for(intent)
        meant = said_by(intent.to_json(), speaker)
        self.tally.actions += 1
        self.tally.voice(self.voice_name(speaker), actions=1)
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
        attempt = 0
        # A player says one thing up to six times; a "yes" to a question about what they meant is
        # always said (nobody types what a yes would do).
        while attempt < MAX_TRIES or line == "yes":
            out, replies = self.utter(speaker, line, attempt)
            if attempt:
                self.tally.extra[why] = self.tally.extra.get(why, 0) + 1
            attempt += 1
            why = "unheard"  # what the next utterance is for, unless set below
            asks_for = _slot_asked(replies)
            if (out.kind == "acted" and matches(out.intent, meant) and asks_for is not None
                    and meant.get(asks_for) is not None and (out.intent or {}).get(asks_for) is None):
                # Acted on with a part left to say: "yes" (Ben has some) -> "How many?" -> "one", as at
                # a table. Before, the game was compared (and lost) while the program waited for the count.
                self.tally.questions += 1
                line = _slot_words(asks_for, meant[asks_for])
                why = "confirmed"
                continue
            if out.kind == "acted" and matches(out.intent, meant):
                # one utterance may act twice (a "yes" to "Ben, sevens?" heard as "yes one": the ask
                # and an answer nobody gave): what was not meant is a wrong action too
                for extra in tableside.acted_intents(replies)[1:]:
                    if extra is not None and not matches(extra, meant) and extra.get("type") != meant["type"]:
                        self.wrong(speaker, f"meant {meant}, said {line!r}, also acted on {extra}")
                return self._done(replies, text, compare)
            if out.kind == "acted":
                self.wrong(speaker, f"meant {meant}, said {line!r}, acted on {out.intent}")
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
        self.tally.voice(self.voice_name(speaker), gave_up=1)
        self.typed = True
        self.tally.gave_ups.append(f"{self.snr or 'clean'}: [{speaker}, {self.voice_name(speaker)}] {text!r}")
        if out is not None and out.kind == "asked":
            self.type_line("no")  # the question left open is answered first
        return self._done(self.type_line(text), text, compare)

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
                # naming oneself or not: "Ana asks Ben for sevens" said again as "Ben, any sevens?"
                options.append(self.voice_for(rng).ask(t.names, asker, t.names.index(meant["target"]), rank, None,
                                                       rng.random() < 0.3))
            elif kind == "answer" and meant.get("count") and ex is not None:
                options.append(self.voice_for(rng).hit(int(meant["count"]), ex.rank))
            elif kind in ("go_fish", "no"):
                options.append(self.voice_for(rng).miss())
            elif kind == "lucky" and ex is not None:
                options.append(self.voice_for(rng).lucky(ex.rank))
            elif kind == "book" and rank is not None:
                player = t.names.index(meant["player"]) if meant.get("player") else t.current
                # "book of queens" said again as "Ana has a book of queens", or the other way round
                options.append(self.voice_for(rng).book(t.names, player, rank, rng.random() < 0.5, t.book_size))
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
        if heard.get("type") == "query":
            # A question answered about the wrong player ("Ana has five cards" for Ben's count) moved
            # nothing: the player asks again. "Scratch that" here took back the last real move.
            return False
        slot = _one_wrong_slot(heard, meant)
        if slot is not None:
            value = meant[slot]
            try:
                self._until(speaker, f"no, I said {_slot_words(slot, value)}",
                            lambda i: i.get("type") == "correct" and i.get(slot) == value, slot=(slot, value))
                return True
            except GaveUp:
                pass  # the correction is not understood (nothing changed): take it back instead, as people do
        try:
            self._until(speaker, "scratch that", lambda i: i.get("type") == "undo")
        except GaveUp:
            # "scratch that" never understood: typed, as any sentence a player gives up saying
            self.tally.gave_up += 1
            self.tally.voice(self.voice_name(speaker), gave_up=1)
            self.typed = True
            self.tally.gave_ups.append(f"{self.snr or 'clean'}: [{speaker}, {self.voice_name(speaker)}] 'scratch that'")
            self.type_line("scratch that")
        return False

    def _until(self, speaker: str, line: str, ok: Any, slot: tuple[str, Any] | None = None) -> None:
        for attempt in range(MAX_TRIES):
            out, _replies = self.utter(speaker, line, attempt)
            if out.kind == "acted" and ok(out.intent or {}):
                return
            if out.kind == "acted":
                self.wrong(speaker, f"repairing with {line!r}, acted on {out.intent}")
                raise Derailed(f"{line!r} acted on as {out.intent}")
            answers = 0
            while out.kind == "asked" and answers < 3:
                if slot is not None and out.expects == slot[0]:
                    # "Which one?" while correcting a rank: the rank alone ("queens"), as `_say` answers
                    # a question for one slot (a "no" there is not listened for: said again and again,
                    # the player gave up)
                    answer = _slot_words(*slot)
                else:
                    answer = "yes" if ok(out.intent or {}) else "no"
                answers += 1
                out, _replies = self.utter(speaker, answer)
                if out.kind == "acted" and ok(out.intent or {}):
                    return
                if out.kind == "acted" and out.intent is not None and out.intent.get("type") != "query":
                    self.wrong(speaker, f"repairing with {line!r}, answered {answer!r}, acted on {out.intent}")
                    raise Derailed(f"{answer!r} acted on as {out.intent}")
        raise GaveUp(f"gave up on {line!r}")

    def quiet(self) -> None:
        self.resettle()
        replies = self.send("")
        say = [s for r in replies for s in _sentences(r.text)]
        self.said.extend(say)
        self.transcript.append(f"(quiet) -> {' '.join(say)}")
        self.compare("(quiet)")

    def compare(self, after: str) -> None:
        """The public state the program last printed against the true table."""
        self.compared += 1
        got = simtable.public_subset(self.state)
        want = self.truth.view(self.unseen)
        if got != want:
            diff = {k: (got.get(k), want[k]) for k in want if got.get(k) != want[k]}
            self.fail(f"after {after!r}: program vs truth differ (program, truth): {diff}")
        if self.truth.cards() != 52:
            self.fail(f"simulator bug: truth accounts for {self.truth.cards()} cards")

    def check_replay(self) -> None:
        """The journal the program wrote, read back, gives the state it last printed."""
        from tabletop.table import Table

        copy = self.folder / "replayed.jsonl"
        shutil.copyfile(self.journal, copy)
        table = Table.resume(copy, durable=False, read_only=True)
        try:
            if simtable.public_subset(table.game.public()) != simtable.public_subset(self.state):
                self.fail("the journal read back gives another game than the program printed")
        finally:
            table.close()


def play_game(seed: int, snr: float | None, players: int, rules: Rules, program: tuple[str, ...],
              verbose: bool, enroll: int | None = None) -> tuple[Tally, str]:
    """One game through the closed loop: its tally, and one line saying how it ended and why.
    ``enroll`` (a speed shift): every player enrolls first (:func:`enroll_players`) into a voices
    folder of this game's own, which the program then hears with."""
    tally = Tally(games=1)
    folder = Path(tempfile.mkdtemp(prefix=f"table-bench-{seed}-", dir=os.environ.get("TMPDIR", "/tmp")))
    t0 = time.process_time()
    table = None
    why = ""
    env = None
    try:
        if enroll is not None:
            voices = folder / "voices"
            for made in enroll_players(NAMES[:players], seed, voices, folder, shift=enroll):
                tally.enrolled.append(made)
                print(f"    seed {seed}: {made['name']} enrolled ({made['voice']}): {made['utterances']} recordings, "
                      f"{made['seconds']:.0f} s, {made['method']}, {made['cpu']:.1f} s CPU", flush=True)
            env = {"TABLETOP_VOICES_DIR": str(voices)}
        table = SpokenTable(NAMES[:players], rules, seed, program=program, snr=snr, tally=tally, folder=folder,
                            verbose=verbose, env=env)
        table.play()
        ok = table.truth.over and bool(table.state.get("over"))
        if ok:
            table.compare("the end")
            table.check_replay()
            tally.true_end += 1
            tally.spoken_true_end += not table.typed
            why = "true end" if not table.typed else "true end, a sentence typed after six tries"
        else:
            why = f"not over after {table.stats.events} actions"
            tally.derailed.append(f"seed {seed}: {why}")
    except GaveUp as error:
        why = f"gave up: {error}"
        tally.derailed.append(f"seed {seed}: {why}")
    except Derailed as error:
        why = f"derailed: {str(error).splitlines()[0]}"
        tally.derailed.append(f"seed {seed}: {why}")
    except simtable.Mismatch as error:
        why = f"state differs: {str(error).splitlines()[0]}"
        tally.derailed.append(f"seed {seed}: {why}")
        if verbose:
            print("\n".join(str(error).splitlines()[:30]))
    finally:
        if table is not None:
            tally.program_cpu += table.program_cpu()  # (read while the program still runs: its game is done)
            table.close()
        tally.cpu += time.process_time() - t0
        if not KEEP_AUDIO:
            shutil.rmtree(folder, ignore_errors=True)
        if table is not None:  # every game's transcript, to read why it ended as it did
            TRANSCRIPTS.mkdir(parents=True, exist_ok=True)
            level = _level_name(snr, enroll is not None)
            (TRANSCRIPTS / f"{level}-{seed}.txt").write_text("\n".join(table.transcript + [why]) + "\n")
            # and its tally, so games played by several runs (or machines) can be reported together (--report)
            (TRANSCRIPTS / f"{level}-{seed}.json").write_text(json.dumps({"why": why, **tally.to_json()}))
            (TRANSCRIPTS / f"{level}-{seed}.trace.jsonl").write_text(
                "".join(json.dumps(t, default=str) + "\n" for t in table.traces))
    tally.causes[_cause(why)] += 1
    return tally, why


def prompts_for_help() -> list[str]:
    from tabletop.speech.enrollment import prompts

    return prompts(NAMES[0], NAMES[:2])


def _level_name(snr: float | None, enrolled: bool = False) -> str:
    """A game's file name stem in TRANSCRIPTS: "clean", "20dB"; "clean-enrolled" with --enroll."""
    return ("clean" if snr is None else f"{snr:g}dB") + ("-enrolled" if enrolled else "")


def _cause(why: str) -> str:
    """A game's ending, in a few words that group alike endings."""
    if why.startswith("state differs"):
        m = re.search(r"differ \(program, truth\): \{'(\w+)'", why)
        return f"state differs ({m.group(1) if m else '?'})"
    if "the program ended" in why:
        return "the program ended (a misheard stop, or stopped from outside)"
    if why.startswith("derailed: a mishearing did"):
        return "a mishearing stopped or restarted the game"
    if why.startswith("derailed"):
        return "a repair was acted on wrongly"
    return re.sub(r"\d+", "N", why.split(":")[0])


def run_levels(args: argparse.Namespace, rules: Rules, program: tuple[str, ...]) -> dict[str, Tally]:
    """Every game of every noise level, ``args.jobs`` at once; a line per game as it ends."""
    tallies = {level: Tally() for level in args.snrs}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(play_game, args.seed + g, None if level == "clean" else float(level), args.players,
                               rules, program, args.verbose, args.enroll): (level, args.seed + g)
                   for g in range(args.games) for level in args.snrs}  # seed by seed: a run cut short has every level
        for future in concurrent.futures.as_completed(futures):
            level, seed = futures[future]
            tally, why = future.result()
            tallies[level].add(tally)
            voices = ", ".join(sorted(tally.voices))
            print(f"    {level:>5s} seed {seed} ({voices}): {why}; {tally.utterances} utterances for {tally.actions} "
                  f"actions, wrong {tally.wrong}, given up {tally.gave_up}, program CPU {tally.program_cpu:.0f} s",
                  flush=True)
    return tallies


def saved(args: argparse.Namespace) -> dict[str, Tally]:
    """The tallies of games already played (``--report``), by level: those of the seeds asked for."""
    tallies = {level: Tally() for level in args.snrs}
    for level in args.snrs:
        name = _level_name(None if level == "clean" else float(level), args.enroll is not None)
        for seed in range(args.seed, args.seed + args.games):
            path = TRANSCRIPTS / f"{name}-{seed}.json"
            if not path.exists():
                print(f"    {level:>5s} seed {seed}: not played yet")
                continue
            data = json.loads(path.read_text())
            why = data.pop("why")
            tally = Tally(**{k: v for k, v in data.items() if k != "causes"})
            tally.causes = Counter(data["causes"])
            tallies[level].add(tally)
            print(f"    {level:>5s} seed {seed} ({', '.join(sorted(tally.voices))}): {why}; {tally.utterances} "
                  f"utterances for {tally.actions} actions, wrong {tally.wrong}, given up {tally.gave_up}")
    return tallies


def report(level: str, tally: Tally) -> None:
    per_action = tally.utterances / max(1, tally.actions)
    print(f"  {level:>5s}: games ending in the true state {tally.spoken_true_end}/{tally.games} "
          f"({tally.true_end} counting games where a player gave up and typed a sentence); "
          f"utterances per intended action {per_action:.2f} ({tally.utterances}/{tally.actions}); "
          f"wrong actions {tally.wrong} ({100.0 * tally.wrong / max(1, tally.utterances):.2f}% of utterances, "
          f"{100.0 * tally.wrong / max(1, tally.actions):.2f}% of intended actions); "
          f"questions {tally.questions}, repeats {tally.repeats}, given up (typed) {tally.gave_up}; "
          f"CPU: program {tally.program_cpu:.0f} s, bench {tally.cpu:.0f} s")
    for made in tally.enrolled:
        print(f"         enrolled: {made['name']} ({made['voice']}): {made['utterances']} of {made['prompts']} prompts, "
              f"{made['seconds']:.0f} s of speech, {made['method']}, {made['cpu']:.1f} s CPU")
    print(f"         how games ended: {', '.join(f'{c} {n}' for c, n in tally.causes.most_common())}")
    print(f"         utterances per action by kind (actions): {_kinds(tally)}")
    print(f"         extra utterances: {_extra(tally)}")
    print(f"         by voice (utterances per action, wrong, given up): {_voices(tally)}")
    for line in tally.gave_ups[:5]:
        print(f"         gave up: {line}")
    for line in tally.derailed[:6]:
        print(f"         lost: {line}")
    for line in tally.wrongs[:6]:
        print(f"         wrong: {line}")


def _kinds(tally: Tally) -> str:
    """Utterances per intended action of each kind, costliest first: "ask 1.90 (40), ..."."""
    return ", ".join(f"{k} {u / a:.2f} ({a})" for k, (a, u) in sorted(tally.kinds.items(), key=lambda kv: -kv[1][1]))


def _extra(tally: Tally) -> str:
    return ", ".join(f"{k} {n}" for k, n in sorted(tally.extra.items(), key=lambda kv: -kv[1])) or "none"


def _voices(tally: Tally) -> str:
    return "; ".join(f"{v} {u / max(1, a):.2f} ({a}), {w}, {g}" for v, (a, u, w, g) in sorted(tally.voices.items()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default="pocketsphinx")
    parser.add_argument("--games", type=int, default=3, help="games per noise level")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--snrs", nargs="+", default=["clean", "20", "10"])
    parser.add_argument("--preset", default="standard", help="rules preset (pairs: shorter games)")
    parser.add_argument("--seed", type=int, default=4100)
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (one program each)")
    parser.add_argument("--quick", action="store_true", help="one two-player game of pairs per noise level")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--enroll", nargs="?", type=int, const=ENROLL_SPEED_SHIFT, default=None, metavar="SHIFT",
                        help="before each game every player enrolls as a family would: the prompts `tabletop enroll` "
                             "asks (tabletop.speech.enrollment.prompts), said in the player's own synthetic voice "
                             f"at its game speed + SHIFT words a minute (default {ENROLL_SPEED_SHIFT:+d}; the game "
                             "says things at the speed and -12, +10, -22, -30, +5 from it) over a noise floor "
                             f"of its own ({ENROLL_FLOOR_DB:g} dBFS, other seeds), clean, through `tabletop enroll "
                             "--player NAME --audio ... --text ...` into a voices folder of the game's own "
                             "(TABLETOP_VOICES_DIR); the game is then heard with those profiles. espeak-ng is "
                             "deterministic: another speed and floor keep the game from hearing its own "
                             "enrollment audio. Games are kept as LEVEL-enrolled-SEED")
    parser.add_argument("--profiles", choices=("pooled", "speaker"), default="pooled",
                        help="with --enroll: how the game uses the profiles (play's --profiles)")
    parser.add_argument("--report", action="store_true",
                        help=f"play nothing: report the games of these levels and seeds already played ({TRANSCRIPTS})")
    args = parser.parse_args()
    if args.quick:
        args.games, args.players, args.preset = 1, 2, "pairs"
    os.environ.setdefault("TABLETOP_SYNTH_CACHE", str(Path("/tmp") / "tabletop-bench-synth"))
    rules = Rules.preset(args.preset)
    # the program as a family runs it, with the bundled model (no enrolled profile), no speech out
    program = ("--preset", args.preset, "--engine", args.engine, "--profile", "none", "--no-fsync")
    if args.enroll is not None:
        # the program as a family that enrolled runs it: the profiles in the game's voices folder,
        # used as --profiles says (pooled: one model adapted to every enrolled player, the default)
        program = ("--preset", args.preset, "--engine", args.engine, "--profiles", args.profiles, "--no-fsync")
    print(f"== {args.engine} through `python -m tabletop play --audio - --json`: {args.games} game(s) per level, "
          f"{args.players} players, rules {args.preset}, voices {', '.join(TABLE_VOICES)}, {args.jobs} at once"
          + ("" if args.enroll is None else f"; every player enrolled first ({len(prompts_for_help())} prompts at "
                                            f"{args.enroll:+d} words a minute, profiles {args.profiles})"))
    tallies = saved(args) if args.report else run_levels(args, rules, program)
    print(f"  (each game's transcript: {TRANSCRIPTS}/LEVEL-SEED.txt)")
    for level, tally in tallies.items():
        report(level, tally)
    if len(tallies) > 1:
        print("  summary:")
        for level, tally in tallies.items():
            print(f"    {level:>5s}: true end {tally.spoken_true_end}/{tally.games}, utterances per action "
                  f"{tally.utterances / max(1, tally.actions):.2f}, wrong {tally.wrong} "
                  f"({100.0 * tally.wrong / max(1, tally.utterances):.2f}% of utterances)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
