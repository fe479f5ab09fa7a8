"""Speech bench: how well each recogniser hears tabletop's commands, and how fast.

    python tests/bench/speech.py [--engines pocketsphinx vosk] [--n 500] [--chatter 100] [--quick]
                                 [--context-only] [--live] [--enrollment] [--verbose]

Prints, per recogniser, real voices first:
- real voices in context: every recording in ../shared/data/speech-dev heard by a real table in the
  phase where it is said ("yes"/"no" after "Ben, do you have any sevens?"; "one"/"two"/"three" after
  "How many?"; rank words after "Ana, which rank?"; "zero", "marvin", "sheila", "go" as chatter in
  the answer and count phases), right / right after one repair / wrong (a different intent acted
  on) / missed, per set (FSDD and Speech Commands apart);
- with ``--enrollment``, the enrollment figures (tests/bench/enrollment.py);
- rank-word, "yes", "no" and "go" accuracy on real recordings in ../shared/data/speech-dev
  (Speech Commands v0.01, CC BY 4.0, Warden 2018; FSDD, CC BY-SA 4.0, Jackson et al.),
  padded with a noise floor, heard against the whole vocabulary; and answers in those real voices
  ("yes", "no", a speaker's "yes" joined to their "one", "two" or "three"), heard in the answer phase;
- exact-intent accuracy (intent and every slot) on synthesised commands (espeak-ng voices,
  clean and with babble + table noise at 20, 10 and 6 dB SNR);
- the same, said in the game phase it belongs to and heard with that phase's context (the
  game path: narrower grammars), and the ceiling of each (a perfect transcript's score);
- the share of chatter wrongly turned into an intent by the recogniser alone (whole grammar, no
  context), clean and at 20 dB, and at 10 and 6 dB; the share a real table acts on, heard in a game
  phase, at each level on its own (``--chatter-only``: only these); and noise alone wrongly accepted
  (room noise, card clicks, other people talking);
- decode time after the end of speech (median, p95: streamed decode, then the final step),
  whole-file decode time, and the real-time factor.
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()
REPO = HERE.parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(1, str(HERE.parent))

from tabletop.language import Context, parse, sample_sentences  # noqa: E402
from tabletop.speech import synth  # noqa: E402
from tabletop.speech.audio import pad, read_wav  # noqa: E402
from tabletop.speech.recognisers import make_recogniser  # noqa: E402

PLAYERS = ("Ana", "Ben", "Cho")
SPEECH_DEV = REPO.parent / "shared" / "data" / "speech-dev"
BENCH_VOICES = ("en-us", "en", "en-us+f3", "en-us+m3", "en+f2", "en-gb-x-rp+m5", "en-us+f4", "en-029")
SPEEDS = (140, 160, 180)
SNRS = (None, 20, 10, 6)

# Spoken digits in the real data that are rank words ("zero" and "one" are not ranks).
DIGITS = {"two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9"}


def rank_word_jsgf(players, context=None) -> str:
    """A closed-set grammar of the rank words (singular and plural), from tabletop.cards."""
    from tabletop.cards import RANKS

    words = sorted({r.word for r in RANKS} | {r.plural for r in RANKS})
    return "#JSGF V1.0;\ngrammar ranks;\npublic <command> = " + " | ".join(words) + ";\n"

# Off-grammar sentences for the chatter measure: the synthesiser's table talk plus more.
MORE_CHATTER = (
    "could you hand me a napkin", "I think the oven timer just went off", "let's take a break after this round",
    "the baby is finally asleep", "my phone battery is almost dead", "who left the door open",
    "I can't believe it's already december", "do we have any more crisps", "turn the heating up a bit",
    "she called me yesterday about the trip", "the traffic was terrible this morning",
    "is anyone else cold", "I'll make some popcorn", "what time does the film start",
    "you always win at this", "careful you'll spill your drink", "my knee has been aching all week",
    "we need to buy new batteries", "look at the snow outside", "the neighbours are so loud tonight",
    "I forgot to water the plants", "pass me the remote", "does anyone want some chocolate",
    "I'm going to bed after this", "the pizza should be here soon", "that song is stuck in my head",
    "let me get my reading glasses", "is it my imagination or is it getting dark early",
    "did you feed the cat", "grandpa tells the best stories", "I love playing cards with you all",
    "the wifi is slow again", "have you seen my keys anywhere", "we should go hiking next weekend",
    "can someone turn on the lamp", "the soup was delicious", "my sister is coming over sunday",
    "I need to call the plumber tomorrow", "this table wobbles", "the clock on the wall is wrong",
    "who ate the last biscuit", "you look tired", "I'm thinking about painting the kitchen",
    "the football match starts at eight", "shh the baby is sleeping", "open another bottle of juice",
    "my tea has gone cold", "the candles smell lovely", "remind me to buy bread",
    "there's a spider on the ceiling", "it's your birthday next month isn't it", "I can hear thunder",
    "the shop closes at six", "how was your holiday", "don't lean on the table",
    "we could play chess after this", "the curtains need washing", "it smells like rain",
    "the printer is out of ink", "let's order chinese food", "I started a new book yesterday",
    "the bus was late again", "your hands are freezing", "somebody is knocking at the door",
    "the garden needs mowing", "I think I left the iron on", "is there any more coffee",
    "my uncle plays the guitar", "what are you doing tomorrow", "mum made apple pie",
)


def chatter_set(n: int) -> list[str]:
    pool = list(dict.fromkeys(list(synth.CHATTER) + list(MORE_CHATTER)))
    out = [s for s in pool if parse(s, PLAYERS) is None]
    return out[:n]


def noise_alone(k: int, seed: int):
    """1-3 s with nobody speaking to the referee: room noise, card clicks, or others talking."""
    import numpy as np

    from tabletop.speech.audio import SAMPLE_RATE, Utterance

    n = SAMPLE_RATE * (1 + k % 3)
    kind = k % 4
    if kind == 0:
        x = synth.table_noise(n, seed=seed + k) * 1500
    elif kind == 1:
        x = synth.babble(n, seed=seed + k) * 1200
    elif kind == 2:
        x = synth.babble(n, seed=seed + k, talkers=2) * 2500
    else:
        x = synth.card_clicks(n, seed=seed + k) * 3000
    x = x + synth.noise_floor(n, -58.0, seed=seed + k)
    return Utterance(np.clip(np.round(x), -32768, 32767).astype(np.int16), source="noise")


def intent_json(transcript, context=None):
    if not transcript.text:
        return None
    try:
        from tabletop.language.understand import understand

        result = understand(transcript, context or Context.whole(PLAYERS))
        intent = getattr(result, "intent", result)
    except ImportError:
        intent = parse(transcript.text, PLAYERS)
    return intent.to_json() if intent is not None else None


def pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:5.1f}% ({a}/{b})" if b else "   n/a"


def _padded(utterance, seed: int):
    """A tightly cut real recording with quiet and a faint floor around it, as a microphone hears it."""
    return pad(utterance, before=0.3, after=0.3, floor_db=-60, seed=seed)


def _real_rows(limit: int | None):
    for folder in sorted(p for p in SPEECH_DEV.iterdir() if (p / "labels.csv").exists()):
        with open(folder / "labels.csv", newline="") as f:
            rows = list(csv.DictReader(f))
        for row in rows[:limit] if limit else rows:
            yield folder, row


def bench_real_closed_set(limit: int | None) -> None:
    """Rank words alone, heard against the 26 rank words (PocketSphinx only): can the
    acoustic model tell the ranks apart in real voices?"""
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

    r = PocketSphinxRecogniser(PLAYERS, grammar=rank_word_jsgf, reject_chatter=False, nbest=1)
    ok = n = 0
    for folder, row in _real_rows(limit):
        word = row["text"].strip().lower()
        if word not in DIGITS:
            continue
        heard = r.hear(_padded(read_wav(folder / row["path"]), len(row["path"]))).text
        ok += heard in (word, "sixes" if word == "six" else word + "s")
        n += 1
    print(f"  real rank word, closed set of rank words: {pct(ok, n)}")


def bench_real(recogniser, limit: int | None) -> None:
    if not SPEECH_DEV.is_dir():
        print(f"  real recordings: skipped ({SPEECH_DEV} not found)")
        return
    groups: dict[str, list[int]] = {"rank word": [0, 0], "yes": [0, 0], "no": [0, 0], "go": [0, 0]}
    for folder, row in _real_rows(limit):
        word = row["text"].strip().lower()
        if word in ("yes", "no", "go"):
            group = word
        elif word in DIGITS:
            group = "rank word"
        else:
            continue
        heard = recogniser.hear(_padded(read_wav(folder / row["path"]), len(row["path"])))
        intent = intent_json(heard)
        if group == "rank word":
            # A bare rank word is not a command: score whether the word was heard at all.
            ok = word in heard.text.split() or (word == "six" and "sixes" in heard.text) or word + "s" in heard.text.split()
        elif group == "yes":
            ok = intent is not None and intent["type"] in ("yes", "answer")
        elif group == "no":
            ok = intent is not None and intent["type"] in ("no", "go_fish")
        else:  # "go" alone: heard as the word
            ok = "go" in heard.text.split()
        groups[group][0] += ok
        groups[group][1] += 1
    for name, (ok, n) in groups.items():
        print(f"  real {name:10s}: {pct(ok, n)}")
    print("  (real recordings: Speech Commands v0.01, CC BY 4.0, Warden 2018; FSDD, CC BY-SA 4.0, Jackson et al.)")


def _trimmed(utterance, keep_db: float = 35.0, margin: float = 0.06):
    """The spoken part of a one-word recording: the frames within ``keep_db`` of its loudest,
    with ``margin`` seconds either side."""
    import numpy as np

    from tabletop.speech.audio import SAMPLE_RATE, Utterance, frame_energies_db

    energies = frame_energies_db(utterance.samples)
    loud = np.flatnonzero(energies >= energies.max() - keep_db)
    step = 480
    a = max(0, loud[0] * step - int(margin * SAMPLE_RATE))
    b = min(len(utterance.samples), (loud[-1] + 1) * step + int(margin * SAMPLE_RATE))
    return Utterance(utterance.samples[a:b], source=utterance.source)


def real_answers():
    """Answers in real voices, heard where they are said (Ben was asked for sevens): each Speech
    Commands speaker's "yes" joined to the same speaker's "one", "two" or "three" (an answer
    with its count), and each "yes" and "no" alone. One word after another from separate
    recordings, so the joins are not natural speech; but the voices are real."""
    import numpy as np

    from tabletop.speech.audio import SAMPLE_RATE, Utterance

    if not SPEECH_DEV.is_dir():
        return
    words: dict[str, dict[str, list[Path]]] = {}
    for folder, row in _real_rows(None):
        if folder.name == "speech_commands":
            words.setdefault(row["speaker"], {}).setdefault(row["text"].strip().lower(), []).append(folder / row["path"])
    gap = np.zeros(int(0.12 * SAMPLE_RATE), dtype=np.int16)
    for speaker, said in sorted(words.items()):
        for path in said.get("yes", []):
            yes = _trimmed(read_wav(path))
            yield _padded(yes, len(speaker)), {"type": "answer", "count": None}
            for count, word in enumerate(("one", "two", "three"), start=1):
                for other in said.get(word, [])[:1]:
                    joined = np.concatenate([yes.samples, gap, _trimmed(read_wav(other)).samples])
                    yield _padded(Utterance(joined, source="speech_commands"), count), {"type": "answer", "count": count}
        for path in said.get("no", []):
            yield _padded(_trimmed(read_wav(path)), len(speaker)), {"type": "go_fish"}


def bench_real_answers(recogniser) -> None:
    context = game_contexts()[2]  # Ana asked Ben for sevens
    ok = n = 0
    for utterance, expected in real_answers():
        ok += intent_json(recogniser.hear(utterance, context), context) == expected
        n += 1
    if n:
        print(f"  real voices, answers in the answer phase (\"yes\", \"no\", \"yes\" + one/two/three): {pct(ok, n)}")


# Where each real word is said, what it should do there, and which set it belongs to.
COUNT_WORDS = {"one": 1, "two": 2, "three": 3}
CHATTER_WORDS = ("zero", "marvin", "sheila", "go")


def _half_of(src: str, row: dict) -> str:
    """Which half of the speakers a clip belongs to: "tune" or "check". Speech Commands by speaker
    (the first byte of the speaker's hash even or odd: 14 and 15 speakers); FSDD has one speaker,
    so by recording (index 0-24 or 25-49 of each digit)."""
    if src == "fsdd":
        return "tune" if int(Path(row["path"]).stem.rsplit("_", 1)[1]) < 25 else "check"
    return "tune" if int(row["speaker"][:2], 16) % 2 == 0 else "check"


def _fsdd_index(row: dict) -> int:
    return int(Path(row["path"]).stem.rsplit("_", 1)[1])


ENROLL_INDEX = 1
"""With ``--enrolled``: the FSDD speaker enrolls on the recordings with index 0-1 of each digit and
is tested on those with index >= TEST_INDEX (as tests/bench/enrollment.py does)."""
TEST_INDEX = 5


def _in_context_items(limit: int | None, half: str = "all", only: str | None = None):
    """(set name, phase, clip path, word, row, expected) for every real recording, in the phase it
    is said in. ``only="fsdd-test"``: the FSDD recordings not enrolled on (index >= TEST_INDEX).

    expected is a predicate on the acted intent's JSON, or None for chatter (nothing may happen)."""
    rows = [(f, r) for f, r in _real_rows(None) if half == "all" or _half_of(f.name, r) == half]
    if only == "fsdd-test":
        rows = [(f, r) for f, r in rows if f.name == "fsdd" and _fsdd_index(r) >= TEST_INDEX]
    if limit:  # a spread over every word and speaker, not the first rows of each folder
        by_folder: dict[str, list] = {}
        for folder, row in rows:
            by_folder.setdefault(folder.name, []).append((folder, row))
        rows = [r for group in by_folder.values() for r in group[:: max(1, len(group) // limit)]]
    for folder, row in rows:
        word = row["text"].strip().lower()
        path = folder / row["path"]
        src = folder.name
        if word == "yes":
            yield f"{src} answers", "answer", path, word, row, lambda i: i["type"] in ("answer", "yes") and i.get("count") is None
        elif word == "no":
            yield f"{src} answers", "answer", path, word, row, lambda i: i["type"] in ("go_fish", "no")
        if word in COUNT_WORDS:
            n = COUNT_WORDS[word]
            yield f"{src} counts", "count", path, word, row, (
                lambda i, n=n: i["type"] in ("answer", "correct") and i.get("count") == n)
        if word in DIGITS:
            r = DIGITS[word]
            yield f"{src} ranks", "rank", path, word, row, (
                lambda i, r=r: i["type"] in ("ask", "correct") and i.get("rank") == r)
        if word in CHATTER_WORDS:
            for phase in ("answer", "count"):
                # "go" alone after an ask may fairly be taken for "go fish"
                yield f"{src} chatter", phase, path, word, row, (
                    (lambda i: i["type"] == "go_fish") if word == "go" else None)


class _Person:
    """A player answering tabletop's one repair question with their own real recordings.

    * asked to say it again ("Sorry, which rank?", "Sorry, how many?", "Sorry, I didn't catch
      that.") or offered two values ("Sixes or sevens?"): they say their word again, a different
      recording of the same word by the same speaker (FSDD: another index of the digit, from the
      same half of the recordings). Speech Commands holds one recording of each word per speaker,
      so there is no second one: with ``repeat="same"`` (the default, pessimistic: the repeat
      sounds exactly like the first) the same recording is heard again, padded with other noise;
      with ``repeat="other"`` another speaker's recording of the word (same half) stands in.
    * asked a yes/no question ("Sevens?", "Go fish?"): "yes" when it is about what they meant,
      else "no": their own "yes"/"no" recording where the set has one, otherwise another speaker's
      (same half). FSDD has no "yes" or "no": its speaker's answers are Speech Commands speakers'.
    * asked to check one value that is not what they meant ("Tens?" when they said "six"), with
      ``correct="no-word"`` (the default) they say "No, six": that "no" joined to another
      recording of their word (as :meth:`again`), as people correct a wrong guess; with
      ``correct="word"`` the word alone; with ``correct="no"`` a bare "no".
    """

    def __init__(self, half: str, repeat: str = "same", correct: str = "no-word", enrolled: bool = False) -> None:
        self.repeat = repeat
        self.correct = correct
        self.clips: dict[tuple[str, str, str], list[Path]] = {}
        for folder, row in _real_rows(None):
            if half != "all" and _half_of(folder.name, row) != half:
                continue
            if enrolled and folder.name == "fsdd" and _fsdd_index(row) <= ENROLL_INDEX:
                continue  # what the speaker enrolled on is never heard as a test
            key = (folder.name, row["speaker"], row["text"].strip().lower())
            self.clips.setdefault(key, []).append(folder / row["path"])
        for paths in self.clips.values():
            paths.sort()

    def again(self, src: str, speaker: str, word: str, path: Path, n: int = 0) -> tuple[Path, str]:
        """Another recording of ``word`` by the speaker of ``path`` (the ``n``-th time it is said
        again), and where it came from."""
        all_mine = self.clips.get((src, speaker, word), [])
        mine = [p for p in all_mine if p != path]
        if mine:
            at = all_mine.index(path) if path in all_mine else 0
            return mine[(at + n) % len(mine)], "own"
        others = sorted(p for (s, spk, w), paths in self.clips.items() if s == src and w == word and spk != speaker
                        for p in paths)
        if self.repeat == "same" or not others:
            return path, "same"
        return others[len(str(path)) % len(others)], "other"

    def yes_no(self, src: str, speaker: str, word: str, seed: int) -> tuple[Path | None, str]:
        mine = self.clips.get((src, speaker, word))
        if mine:
            return mine[0], "own"
        pool = sorted(p for (s, _, w), paths in self.clips.items() if w == word and s == "speech_commands"
                      for p in paths)
        return (pool[seed % len(pool)], "other") if pool else (None, "none")


def _clip(path: Path | tuple[Path, ...], seed: int):
    """A recording as a microphone hears it; several recordings are said one after another."""
    if isinstance(path, Path):
        return _padded(read_wav(path), seed)
    import numpy as np

    from tabletop.speech.audio import SAMPLE_RATE, Utterance

    gap = np.zeros(int(0.12 * SAMPLE_RATE), dtype=np.int16)
    parts = [_trimmed(read_wav(p)).samples for p in path]
    joined = np.concatenate([x for part in parts for x in (part, gap)][:-1])
    return _padded(Utterance(joined, source="joined"), seed)


class _Streamed:
    """A recogniser heard as the live loop hears the microphone (``Microphone.transcripts``): the
    utterance fed in 30 ms blocks to ``stream(context, live=True)``, so that, once the first
    utterance primed it, the decoders work as the audio arrives and normalise the cepstra with the
    running mean of earlier utterances (PocketSphinx's live CMN), not the utterance's own mean as
    ``hear`` does. Everything else is the recogniser's."""

    BLOCK = 480

    def __init__(self, recogniser) -> None:
        self._recogniser = recogniser

    def __getattr__(self, name):
        return getattr(self._recogniser, name)

    def hear(self, utterance, context=None):
        from tabletop.language.transcript import Transcript
        from tabletop.speech.audio import has_speech

        if not has_speech(utterance):  # the microphone's endpointer would not have opened
            return Transcript(text="", confidence=0.0, engine=self._recogniser.name)
        stream = self._recogniser.stream(context, live=True)
        raw = utterance.raw()
        for k in range(0, len(raw), 2 * self.BLOCK):
            stream.feed(raw[k:k + 2 * self.BLOCK])
        return stream.finish()


def bench_real_in_context(recogniser, limit: int | None, engine: str = "pocketsphinx", verbose: bool = False,
                          half: str = "all", repeat: str = "same", repairs: int = 1, correct: str = "no-word",
                          only: str | None = None, label: str = "", others=None):
    """Real voices heard where they are said, through the table itself: each clip is heard by a
    new table brought to the clip's phase (answers after "Ben, do you have any sevens?", counts
    after "yes" -> "How many?", rank words after an ask heard with its rank unsure (jacks or
    queens: no digit word, so nothing of the clip's word is known beforehand) -> "Ana, which
    rank?", other words as chatter in the answer and count phases). When tabletop asks about a
    clip, or says it didn't catch it, the speaker answers once as a person would (:class:`_Person`).
    Per set: right (acted on the meant intent at once), within one repair (right at once, or after
    one question and its answer), wrong (a different intent acted on, at once or after the answer),
    missed (not right after one question). Chatter: nothing may happen (asked about is no harm)."""
    import tableside

    if not SPEECH_DEV.is_dir():
        print(f"  real recordings: skipped ({SPEECH_DEV} not found)")
        return {}
    person = _Person(half, repeat, correct, enrolled=only == "fsdd-test")
    second: dict[str, list] = {"ms": [], "agrees": [], "differs": [], "none": []}
    sets: dict[str, dict[str, int]] = {}
    examples: list[str] = []
    how: dict[str, int] = {}
    for k, (name, phase, path, word, row, expected) in enumerate(_in_context_items(limit, half, only)):
        src = "fsdd" if "fsdd" in path.parts else "speech_commands"
        table = tableside.new_table(PLAYERS)
        tableside.to_phase(table, phase)
        transcript, replies = tableside.hear(table, recogniser, _clip(path, len(str(path)) + k))
        _note_second(recogniser, second)
        out = tableside.outcome(replies)
        trail = f"heard {transcript.text!r} -> {out.kind} {out.intent}"
        tally = sets.setdefault(name, {"n": 0, "right": 0, "repaired": 0, "repaired2": 0, "wrong": 0, "missed": 0,
                                       "asked": 0})
        tally["n"] += 1
        if expected is None:  # chatter: nothing may happen
            kind = "wrong" if out.kind == "acted" else ("asked" if out.kind == "asked" else "right")
        elif out.kind == "acted":
            kind = "right" if expected(out.intent) else "wrong"
        elif out.kind == "asked" and word == "go" and (out.intent or {}).get("type") == "go_fish":
            kind = "right"  # asked "Go fish?" about a bare "go": a fair question
        else:
            # Repairs: the speaker answers the question tabletop asked (or says it again after
            # "Sorry, I didn't catch that"), at most ``repairs`` times.
            kind = "missed"
            for n in range(repairs):
                pending = table.pending
                if verbose and pending is not None and pending.evidence:
                    trail += f" evidence {' '.join(f'{v}:{e:.2f}' for v, e in pending.evidence)}"
                if pending is not None and pending.expects == "yes_no":
                    about = pending.intent.to_json() if pending.intent is not None else None
                    said = "yes" if about is not None and expected(about) else "no"
                    again, found = person.yes_no(src, row["speaker"], said, k + n)
                    if said == "no" and pending.confirms is not None and person.correct != "no":
                        # "Tens?" when they said "six": "No, six."
                        word_again, found_word = person.again(src, row["speaker"], word, path, n)
                        if person.correct == "word" or again is None:
                            said, again, found = word, word_again, found_word
                        else:
                            said, again, found = f"no {word}", (again, word_again), f"{found}+{found_word}"
                else:
                    said = word
                    again, found = person.again(src, row["speaker"], word, path, n)
                how[found] = how.get(found, 0) + 1
                if again is None:
                    break
                # ``others``: another speaker's recording standing in for the speaker's own (FSDD has
                # no "yes") is heard as its own speaker would be, not with the enrolled speaker's profile
                hearer = others if others is not None and found == "other" else recogniser
                heard2, replies2 = tableside.hear(table, hearer, _clip(again, len(str(again)) + 7 * k + 1 + n))
                _note_second(hearer, second)
                out2 = tableside.outcome(replies2)
                asked = replies[-1].text if replies else ""
                trail += f" | {asked!r} -> says {said!r} ({found}) heard {heard2.text!r} -> {out2.kind} {out2.intent}"
                replies = replies2
                if out2.kind == "acted":
                    kind = ("repaired" if n == 0 else "repaired2") if expected(out2.intent) else "wrong"
                    break
                if phase == "rank" and table.pending is None:
                    break  # the ask was dropped ("Okay, say it again."): a new ask, not a repair
        tally[kind] += 1
        if kind == "wrong" and len(examples) < 12:
            examples.append(f"    WRONG {name:24s} {phase:6s} {word!r} {trail}")
        if verbose:
            print(f"    {kind:8s} {name:24s} {phase:6s} {word!r} {trail} [{_half_of(src, row)} half]")
    print(f"  real voices in context{label}, {half} speakers, Speech Commands repeats: {repeat}, a wrong check "
          f"answered: {correct} (right / within one repair / wrong / missed):")
    total = {"n": 0, "right": 0, "repaired": 0, "repaired2": 0, "wrong": 0, "missed": 0, "asked": 0}
    for name in sorted(sets):
        t = sets[name]
        for key in total:
            total[key] += t[key]
        if name.endswith("chatter"):
            print(f"    {name:26s} ignored {pct(t['right'], t['n'])}, asked about {pct(t['asked'], t['n'])}, "
                  f"acted on (wrong) {pct(t['wrong'], t['n'])}")
        else:
            two = f", within two {pct(t['right'] + t['repaired'] + t['repaired2'], t['n'])}" if repairs > 1 else ""
            print(f"    {name:26s} right {pct(t['right'], t['n'])}, within one repair {pct(t['right'] + t['repaired'], t['n'])}"
                  f"{two}, wrong {pct(t['wrong'], t['n'])}, missed {pct(t['missed'], t['n'])}")
    print(f"    {'all':26s} wrong {pct(total['wrong'], total['n'])}")
    print(f"    (answers to a repair: {', '.join(f'{v} {k}' for k, v in sorted(how.items()))}; own: the speaker's "
          "own recording, same: the same recording again, other: another speaker's)")
    if second["ms"]:
        ms = sorted(second["ms"])
        print(f"    second opinion (Moonshine) on {len(ms)} of the hearings: agreed {len(second['agrees'])}, named another "
              f"value {len(second['differs'])}, no opinion {len(second['none'])}; time added median {statistics.median(ms):.0f} ms, "
              f"p95 {ms[int(0.95 * (len(ms) - 1))]:.0f} ms")
    if examples:
        print("\n".join(examples))
    return sets


def _note_second(recogniser, tally: dict[str, list]) -> None:
    """What the second listener said about the last hearing, if it was asked (see
    PocketSphinxRecogniser._second_opinion)."""
    trace = getattr(recogniser, "last_trace", None) or {}
    if "second" not in trace:
        return
    tally["ms"].append(trace.get("second_ms", 0.0))
    key = "agrees" if "second_agrees" in trace else "differs" if "second_differs" in trace else "none"
    tally[key].append(trace["second"])


def bench_synth(recogniser, n: int, chatter_n: int) -> None:
    sents = sample_sentences(PLAYERS, n, seed=2026)
    per_snr = {snr: [0, 0] for snr in SNRS}
    words_ok = {snr: 0 for snr in SNRS}
    latencies: list[float] = []
    wholes: list[float] = []
    audio_s = 0.0
    cpu_s = 0.0
    errors: list[str] = []
    for i, (text, intent) in enumerate(sents):
        snr = SNRS[i % len(SNRS)]
        voice = BENCH_VOICES[(i // len(SNRS)) % len(BENCH_VOICES)]
        speed = SPEEDS[(i // 7) % len(SPEEDS)]
        u = synth.realistic(text, voice=voice, speed=speed, snr_db=snr, seed=i)
        t0 = time.process_time()
        heard = recogniser.hear(u)
        cpu_s += time.process_time() - t0
        audio_s += u.duration
        wholes.append(heard.decode_ms)
        got = intent_json(heard)
        ok = got == intent.to_json()
        per_snr[snr][0] += ok
        per_snr[snr][1] += 1
        words_ok[snr] += heard.text == text
        if not ok and len(errors) < 12 and snr in (None, 10):
            errors.append(f"    {snr or 'clean'} {voice:14s} {text!r} -> {heard.text!r}")
        if hasattr(recogniser, "stream") and i % 5 == 0:
            # Streamed as a microphone delivers it; time only what is left after the last block.
            s = recogniser.stream(None, PLAYERS, live=True)
            raw = u.raw()
            for k in range(0, len(raw), 960):
                s.feed(raw[k : k + 960])
            t1 = time.perf_counter()
            s.finish()
            latencies.append((time.perf_counter() - t1) * 1000)
    for snr, (ok, total) in per_snr.items():
        print(f"  exact intent {('clean' if snr is None else f'{snr} dB'):>6s}: {pct(ok, total)}   exact words {pct(words_ok[snr], total)}")
    print(f"  ceiling (the true sentence as the transcript): {pct(_ceiling(sents), len(sents))}")
    if errors:
        print("  some misses:")
        print("\n".join(errors))
    bench_chatter(recogniser, chatter_n)
    accepted = 0
    for k in range(chatter_n // 2):
        heard = recogniser.hear(noise_alone(k, seed=9100))
        if intent_json(heard) is not None:
            accepted += 1
            if accepted <= 3:
                print(f"    noise accepted: {heard.text!r}")
    print(f"  noise alone (room, cards, others talking; nobody speaks to tabletop) accepted: {pct(accepted, chatter_n // 2)}")
    if latencies:
        lat = sorted(latencies)
        print(f"  decode after end of speech (streamed): median {statistics.median(lat):.0f} ms, p95 {lat[int(0.95 * (len(lat) - 1))]:.0f} ms")
    w = sorted(wholes)
    print(f"  whole-file decode: median {statistics.median(w):.0f} ms, p95 {w[int(0.95 * (len(w) - 1))]:.0f} ms")
    print(f"  real-time factor (CPU s per audio s): {cpu_s / max(audio_s, 1e-9):.3f}")


TABLE_PHASES = ("ask", "answer", "count", "rank")  # the phases tableside brings a real table to


def bench_chatter(recogniser, chatter_n: int, verbose: bool = False, shift: int = 0) -> dict:
    """Synthesised chatter (off-grammar sentences), two measures:

    * the recogniser alone (the older row, kept): heard against the whole grammar with no game
      context and parsed to a command, half the sentences at each of two levels per row;
    * what the TABLE does with it (the figure that matters): every sentence at every level on its
      own (clean, 20, 10, 6 dB), heard by a real table in a game phase (the ask, the answer after
      "Ben, do you have any sevens?", the count after "How many?", the rank after "Ana, which
      rank?"; a quarter each) with that phase's context, acted on (a game change or a control:
      the harm) or asked about (no harm, a question).

    ``shift`` (``--chatter-shift``) moves every sentence to another voice, speed, phase and noise:
    material to develop on that is not the reported one (0)."""
    import tableside

    chatter = chatter_set(chatter_n)
    for snrs in ((None, 20), (10, 6)):
        accepted = 0
        for i, text in enumerate(chatter):
            snr = snrs[i % 2]
            u = synth.realistic(text, voice=BENCH_VOICES[i % len(BENCH_VOICES)], speed=SPEEDS[i % 3], snr_db=snr, seed=i)
            heard = recogniser.hear(u)
            if intent_json(heard) is not None:
                accepted += 1
                if accepted <= 3:
                    print(f"    chatter accepted ({snr or 'clean'}): {text!r} -> {heard.text!r}")
        label = " / ".join("clean" if s is None else f"{s} dB" for s in snrs)
        print(f"  chatter parsed to a command by the recogniser alone (whole grammar, no game context), {label}: "
              f"{pct(accepted, len(chatter))}")
    tally: dict = {}
    for snr in SNRS:
        acted = asked = 0
        for i, text in enumerate(chatter):
            j = i + shift
            phase = TABLE_PHASES[(i + shift) % len(TABLE_PHASES)]
            u = synth.realistic(text, voice=BENCH_VOICES[j % len(BENCH_VOICES)], speed=SPEEDS[j % 3], snr_db=snr,
                                seed=i + 1000 * shift)
            table = tableside.new_table(PLAYERS)
            tableside.to_phase(table, phase)
            heard, replies = tableside.hear(table, recogniser, u)
            out = tableside.outcome(replies)
            acted += out.kind == "acted"
            asked += out.kind == "asked"
            if out.kind == "acted" or verbose:
                print(f"    chatter {out.kind} by the table ({snr or 'clean'}, {phase}): {text!r} heard {heard.text!r} -> "
                      f"{out.intent}")
        tally[snr] = (acted, asked, len(chatter))
        print(f"  chatter acted on by the table, {'clean' if snr is None else f'{snr} dB'}: {pct(acted, len(chatter))}"
              f" (asked about {pct(asked, len(chatter))})")
    return tally


_SAME_ACT = ({"no", "go_fish"}, {"yes", "answer"})  # right after an ask the referee rules them alike


def _acted_as_said(acted: dict | None, said: dict) -> bool:
    """Whether the table acted on the intent said: its type (a "no" to an ask is the go fish it
    rules; a correction's value is whatever it fills) and every slot said, as said (the table fills
    in slots nobody said: the asker)."""
    if acted is None:
        return False
    kinds = {acted.get("type"), said.get("type")}
    # a correction's slot said where tabletop asks for it ("one" at "How many?", "jacks" at "which
    # rank?") fills the question: the answer, the ask, acted with that value
    if len(kinds) > 1 and said.get("type") != "correct" and not any(kinds <= same for same in _SAME_ACT):
        return False
    return all(acted.get(k) == v for k, v in said.items() if k != "type" and v is not None)


def bench_commands_in_table(recogniser, n: int, shift: int = 0, verbose: bool = False) -> dict:
    """Synthesised commands said in a real table's phase (the ask; the answer after "Ben, do you have
    any sevens?"; the count after "How many?"; the rank after "Ana, which rank?"), sampled from the
    sentences of that table's own context, every sentence at every level on its own (clean, 20,
    10, 6 dB): acted on as said / acted on WRONGLY (another intent: the harm) / asked about / nothing.
    ``shift`` moves every sentence to other sentences, voices, speeds and noise (develop on 1+, report 0)."""
    import tableside

    tally: dict = {}
    for snr in SNRS:
        counts = {"right": 0, "wrong": 0, "asked": 0, "none": 0}
        for p, phase in enumerate(TABLE_PHASES):
            table = tableside.new_table(PLAYERS)
            tableside.to_phase(table, phase)
            sents = sample_sentences(PLAYERS, max(1, n // len(TABLE_PHASES)), seed=8300 + 10 * p + 1000 * shift,
                                     context=table.context())
            for i, (text, intent) in enumerate(sents):
                j = i + p + shift
                u = synth.realistic(text, voice=BENCH_VOICES[j % len(BENCH_VOICES)], speed=SPEEDS[j % 3], snr_db=snr,
                                    seed=8300 + 100 * p + i + 1000 * shift)
                table = tableside.new_table(PLAYERS)
                tableside.to_phase(table, phase)
                heard, replies = tableside.hear(table, recogniser, u)
                out = tableside.outcome(replies)
                said = intent.to_json()
                kind = (("right" if _acted_as_said(out.intent, said) else "wrong") if out.kind == "acted"
                        else out.kind)
                counts[kind] += 1
                if kind == "wrong" or verbose:
                    print(f"    command {kind} ({snr or 'clean'}, {phase}): {text!r} {said} heard {heard.text!r} -> "
                          f"{out.kind} {out.intent}")
        total = sum(counts.values())
        tally[snr] = counts
        print(f"  commands in the table, {'clean' if snr is None else f'{snr} dB':>6s}: acted right {pct(counts['right'], total)},"
              f" acted WRONG {pct(counts['wrong'], total)}, asked {pct(counts['asked'], total)}, nothing {pct(counts['none'], total)}")
    return tally


def _ceiling(sents, context=None) -> int:
    """How many sentences the scoring gets right from a perfect transcript (some sentences
    mean several things: "nope" is a No as well as a go fish)."""
    from tabletop.language.transcript import Transcript

    return sum(intent_json(Transcript(text=t, confidence=1.0), context) == i.to_json() for t, i in sents)


def game_contexts():
    """The contexts the live game passes: the phases in which commands are said."""
    from tabletop.cards import RANKS

    seven = RANKS[6]
    return [
        Context(players=PLAYERS, phase="setup"),
        Context(players=PLAYERS, current="Ana", phase="ask"),
        Context(players=PLAYERS, current="Ana", phase="answer", asker="Ana", target="Ben", rank=seven),
        Context(players=PLAYERS, current="Ana", phase="after_hit", asker="Ana", target="Ben", rank=seven),
        Context(players=PLAYERS, current="Ana", phase="after_miss", asker="Ana", target="Ben", rank=seven),
        Context(players=PLAYERS, current="Ana", phase="confirm", asker="Ana", target="Ben", rank=seven),
    ]


def bench_game(recogniser, n: int) -> None:
    """The game path: sentences said in the phase they belong to, heard with that phase's
    context (its narrower grammar) and understood in it, as tabletop.table does."""
    contexts = game_contexts()
    per_snr = {snr: [0, 0] for snr in SNRS}
    missed_by: dict[str, int] = {}
    ceiling = total = 0
    for c, context in enumerate(contexts):
        sents = sample_sentences(PLAYERS, max(1, n // len(contexts)), seed=2026 + c, context=context)
        ceiling += _ceiling(sents, context)
        total += len(sents)
        for i, (text, intent) in enumerate(sents):
            snr = SNRS[i % len(SNRS)]
            voice = BENCH_VOICES[(i // len(SNRS) + c) % len(BENCH_VOICES)]
            u = synth.realistic(text, voice=voice, speed=SPEEDS[(i // 7) % len(SPEEDS)], snr_db=snr, seed=5000 + 100 * c + i)
            heard = recogniser.hear(u, context)
            ok = intent_json(heard, context) == intent.to_json()
            per_snr[snr][0] += ok
            per_snr[snr][1] += 1
            if not ok:  # which check of the recogniser turned it away, if any
                trace = getattr(recogniser, "last_trace", None) or {}
                why = trace.get("dropped") or ("kept, asked about" if trace.get("rescued") or trace.get("capped")
                                               else "kept, misread or unsure")
                missed_by[why] = missed_by.get(why, 0) + 1
    for snr, (ok, tot) in per_snr.items():
        print(f"  game path, exact intent {('clean' if snr is None else f'{snr} dB'):>6s}: {pct(ok, tot)}")
    if missed_by:
        print(f"  game path, not exact: {', '.join(f'{k} {v}' for k, v in sorted(missed_by.items()))}")
    print(f"  game path ceiling (the true sentence as the transcript): {pct(ceiling, total)}")


def bench_enrolled_in_context(limit: int | None, verbose: bool, half: str, repeat: str, repairs: int,
                              correct: str, method: str = "map") -> None:
    """The FSDD speaker's recordings not enrolled on (index >= TEST_INDEX) in context, heard first
    with the bundled model and then with the speaker's own profile (adapted on index 0-1 of each
    digit, as ``tabletop enroll`` does): what enrollment does for ranks, counts and chatter once the
    table's questions and repairs are in the loop. The FSDD speaker has no "yes" or "no": Speech
    Commands speakers' stand in for them. Heard with the FSDD speaker's profile (as a game hears the
    player it expects to speak) they are another's voice under a profile that is not theirs, which
    hears them worse than no profile at all; so the profile is measured twice: every hearing with
    it (pessimistic), and the stand-ins heard with the bundled model (as the speaker's own "yes"
    would be heard at least as well)."""
    import tempfile

    from tabletop.speech.adapt import adapt

    rows = [r for f, r in _real_rows(None) if f.name == "fsdd" and _fsdd_index(r) <= ENROLL_INDEX]
    enrollment = [(_padded(read_wav(SPEECH_DEV / "fsdd" / r["path"]), 0), r["text"].strip().lower()) for r in rows]
    with tempfile.TemporaryDirectory(prefix="tabletop-bench-enrolled-") as tmp:
        t = time.process_time()
        result = adapt(enrollment, Path(tmp) / "fsdd", method=method)
        print(f"  FSDD speaker enrolled on {len(enrollment)} recordings (index 0-{ENROLL_INDEX}), {method}, "
              f"{time.process_time() - t:.1f} s CPU (sphinxtrain's tools not counted)")
        acoustic = {"mean": str(result.folder / "means"), "var": str(result.folder / "variances")}
        bundled = make_recogniser("pocketsphinx", PLAYERS)
        profiled = make_recogniser("pocketsphinx", PLAYERS, acoustic=acoustic)
        for label, recogniser, others in (
                (" (FSDD index >= 5, no profile)", bundled, None),
                (" (FSDD index >= 5, own profile; other speakers' yes/no stand-ins heard with it too)", profiled, None),
                (" (FSDD index >= 5, own profile; the yes/no stand-ins heard with the bundled model)", profiled, bundled)):
            bench_real_in_context(recogniser, limit, verbose=verbose, half=half, repeat=repeat, repairs=repairs,
                                  correct=correct, only="fsdd-test", label=label, others=others)


def bench_enrollment(quick: bool) -> None:
    """The enrollment figures of tests/bench/enrollment.py (helper `enroll`'s bench), second."""
    try:
        import enrollment
    except ImportError:
        print("  enrollment: tests/bench/enrollment.py is not on this branch yet")
        return
    print("  enrollment (tests/bench/enrollment.py):")
    enrollment.run(quick=quick)


def _profile_acoustic(names: list[str]) -> dict:
    """Decoder options of one enrolled profile, or of the table-wide model of several (pooled)."""
    from tabletop.speech import profiles

    if len(names) == 1:
        return profiles.load_profile(names[0]).acoustic()
    return profiles.table_acoustic([profiles.load_profile(n) for n in names])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engines", nargs="+", default=["pocketsphinx", "vosk"])
    parser.add_argument("--n", type=int, default=500, help="synthesised commands (spread over the SNRs)")
    parser.add_argument("--chatter", type=int, default=100)
    parser.add_argument("--real-limit", type=int, default=None, help="clips per real-data folder")
    parser.add_argument("--quick", action="store_true", help="n=80, chatter=30, 40 clips per folder")
    parser.add_argument("--real-only", action="store_true", help="only the real recordings")
    parser.add_argument("--no-reject", action="store_true", help="PocketSphinx without the chatter rejector (grammar alone)")
    parser.add_argument("--no-real", action="store_true", help="skip the real recordings")
    parser.add_argument("--enrollment", action="store_true",
                        help="then the enrollment figures (tests/bench/enrollment.py: adapts models, slow)")
    parser.add_argument("--context-only", action="store_true", help="only the real voices in context")
    parser.add_argument("--verbose", action="store_true", help="print every real clip's outcome")
    parser.add_argument("--repairs", type=int, default=1, help="questions a speaker answers (2: also within two)")
    parser.add_argument("--half", choices=("all", "tune", "check"), default="all",
                        help="real voices in context on one half of the speakers (see _half_of)")
    parser.add_argument("--repeat", choices=("same", "other"), default="same",
                        help="Speech Commands has one recording of a word per speaker: a repeat is that "
                             "recording again (same) or another speaker's (other)")
    parser.add_argument("--correct", choices=("no-word", "word", "no"), default="no-word",
                        help='how the speaker answers a check of a value they did not mean ("Tens?" after '
                             '"six"): "no, six" (no-word), "six" (word) or a bare "no"')
    parser.add_argument("--live", action="store_true",
                        help="real voices in context heard as the microphone loop hears them: streamed in 30 ms "
                             "blocks, decoded as they arrive with the running cepstral mean (see _Streamed)")
    parser.add_argument("--second", choices=("auto", "none"), default="auto",
                        help="PocketSphinx's second opinion on short answers' slots: Moonshine when installed "
                             "(auto, as tabletop hears), or none (PocketSphinx alone)")
    parser.add_argument("--chatter-only", action="store_true",
                        help="only the synthesised chatter: the recogniser alone, then acted on by the table at every level")
    parser.add_argument("--chatter-shift", type=int, default=0,
                        help="chatter (and --table-n commands) in the table said with other voices, speeds, phases and noise "
                             "(develop on 1+, report 0)")
    parser.add_argument("--table-n", type=int, default=0,
                        help="only synthesised commands said in a real table's phases, at every level on its own (n a level)")
    parser.add_argument("--game-n", type=int, default=240, help="commands said in their game phase (0: skip)")
    parser.add_argument("--enrolled", action="store_true",
                        help="only the FSDD speaker's real voices in context, before and after enrolling "
                             "(index 0-1 enrolled, index >= 5 heard; adapts a model with sphinxtrain)")
    parser.add_argument("--profile", nargs="+", metavar="NAME",
                        help="PocketSphinx heard with these enrolled players' voice profiles ($TABLETOP_VOICES_DIR; "
                             "one: that profile's model; several: the table-wide model of all of them pooled, as a "
                             "game hears enrolled players), e.g. profiles made by `tests/bench/table.py --enroll`")
    parser.add_argument("--voices", nargs="+", metavar="VOICE",
                        help="espeak-ng voices the synthesised sets (chatter too) are said in, instead of BENCH_VOICES "
                             "(e.g. the voice a --profile was enrolled in)")
    args = parser.parse_args()
    if args.voices:
        global BENCH_VOICES
        BENCH_VOICES = tuple(args.voices)
    if args.enrolled:
        bench_enrolled_in_context(args.real_limit, args.verbose, args.half, args.repeat, args.repairs, args.correct)
        return 0
    if args.quick:
        args.n, args.chatter, args.real_limit, args.game_n = 80, 30, 40, 60
    os.environ.setdefault("TABLETOP_SYNTH_CACHE", str(Path("/tmp") / "tabletop-bench-synth"))
    for engine in args.engines:
        print(f"== {engine}")
        try:
            t = time.perf_counter()
            options = {"reject_chatter": False} if args.no_reject and engine == "pocketsphinx" else {}
            if engine == "pocketsphinx":
                options["second"] = None if args.second == "none" else "auto"
            if args.profile and engine == "pocketsphinx":
                options["acoustic"] = _profile_acoustic(args.profile)
                print(f"  heard with the voice profile(s) of {', '.join(args.profile)}"
                      f"{' pooled' if len(args.profile) > 1 else ''}; voices {', '.join(BENCH_VOICES)}")
            recogniser = make_recogniser(engine, PLAYERS, **options)
            if hasattr(recogniser, "warm_up"):
                recogniser.warm_up()
            print(f"  start-up: {1000 * (time.perf_counter() - t):.0f} ms")
        except Exception as error:  # noqa: BLE001 - report and go on to the next engine
            print(f"  skipped: {getattr(error, 'reason', error)}")
            continue
        if args.chatter_only:
            bench_chatter(recogniser, args.chatter, verbose=args.verbose, shift=args.chatter_shift)
            continue
        if args.table_n:
            bench_commands_in_table(recogniser, args.table_n, shift=args.chatter_shift, verbose=args.verbose)
            continue
        if not args.no_real:
            heard_by = _Streamed(recogniser) if args.live and hasattr(recogniser, "stream") else recogniser
            bench_real_in_context(heard_by, args.real_limit, engine, verbose=args.verbose, half=args.half,
                                  repeat=args.repeat, repairs=args.repairs, correct=args.correct,
                                  label=" (streamed live)" if heard_by is not recogniser else "")
            if args.enrollment and engine == "pocketsphinx":
                bench_enrollment(args.quick)
            if args.context_only:
                continue
            bench_real(recogniser, args.real_limit)
            bench_real_answers(recogniser)
        if engine == "pocketsphinx" and SPEECH_DEV.is_dir() and not args.no_real:
            bench_real_closed_set(args.real_limit)
        if not args.real_only:
            bench_synth(recogniser, args.n, args.chatter)
            if args.game_n > 0:
                bench_game(recogniser, args.game_n)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
