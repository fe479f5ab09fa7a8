"""Enrollment bench: how much adapting PocketSphinx to a voice helps, on real recordings.

    python3 tests/bench/enrollment.py [--methods map mllr+map mllr] [--quick] [--no-table]

Prints:
- the FSDD speaker (Free Spoken Digit Dataset, "jackson"; CC BY-SA 4.0, Jackson et al.):
  enrolled on the clips with index 0-1 of each digit (20 clips), tested on the rank words
  (two ... nine) with index >= 5 (360 clips), heard against the rank words alone (the closed
  set of the speech bench; with ``--whole`` also by the default recogniser against the whole
  vocabulary, with its chatter rejection, which rejects most bare words): right before and
  after, for each adaptation method, with the share of errors removed and the CPU time of
  enrollment;
- the same per Speech Commands speaker (Speech Commands v0.01, CC BY 4.0, Warden 2018) with at
  least 10 clips: they have one clip per word, so each speaker's rank words are split in two
  halves, and each half is tested after enrolling on every other clip of that speaker (the
  other half's rank words, and their zero, one, yes, no, go ...): words they never enrolled;
- a table of several enrolled players (the FSDD speaker and those Speech Commands speakers):
  each player's test clips heard with their own profile (``--profile``; what a game does for the
  player it expects to speak), with another player's (when it expected someone else), with
  the table-wide model adapted to everyone's enrollment pooled, and with one recogniser per
  player choosing the best-scoring reading, clean and with the FSDD clips in 10 dB babble;
  with decode CPU.

Each clip is padded with 0.3 s of a -60 dBFS noise floor (as the speech bench does). Recordings
are read from ../shared/data/speech-dev; nothing is copied.

Importable: ``run(methods, quick, table) -> dict`` prints and returns the figures
(``tests/bench/speech.py`` calls it).
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
REPO = HERE.parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tabletop.speech.audio import pad, read_wav  # noqa: E402

SPEECH_DEV = REPO.parent / "shared" / "data" / "speech-dev"
FSDD = SPEECH_DEV / "fsdd"
COMMANDS = SPEECH_DEV / "speech_commands"
RANK_DIGITS = ("two", "three", "four", "five", "six", "seven", "eight", "nine")
PLAYERS = ("Ana", "Ben", "Cho")


def rank_words_jsgf(players=None, context=None) -> str:
    """The rank words alone, singular and plural (the speech bench's closed set)."""
    from tabletop.cards import RANKS

    words = sorted({r.word for r in RANKS} | {r.plural for r in RANKS})
    return "#JSGF V1.0;\ngrammar ranks;\npublic <command> = " + " | ".join(words) + ";\n"


def heard_right(text: str, word: str) -> bool:
    words = text.split()
    return word in words or (word + "s") in words or (word == "six" and "sixes" in words)


def pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:5.1f}% ({a}/{b})" if b else "   n/a"


def _padded(path: Path):
    return pad(read_wav(path), before=0.3, after=0.3, floor_db=-60, seed=len(path.name))


def _rows(folder: Path) -> list[dict[str, str]]:
    with open(folder / "labels.csv", newline="") as f:
        return list(csv.DictReader(f))


def fsdd_split():
    """(enrollment [(utterance, text)], test [(utterance, word)]) for the FSDD speaker."""
    enroll, test = [], []
    for row in _rows(FSDD):
        index = int(Path(row["path"]).stem.rsplit("_", 1)[1])
        word = row["text"].strip().lower()
        if index <= 1:
            enroll.append((_padded(FSDD / row["path"]), word))
        elif index >= 5 and word in RANK_DIGITS:
            test.append((_padded(FSDD / row["path"]), word))
    return enroll, test


def commands_folds(min_clips: int = 10):
    """Per Speech Commands speaker with ``min_clips`` clips: two (enrollment, test) folds."""
    by_speaker: dict[str, list[tuple[Path, str]]] = {}
    for row in _rows(COMMANDS):
        by_speaker.setdefault(row["speaker"], []).append((COMMANDS / row["path"], row["text"].strip().lower()))
    out = {}
    for speaker, clips in sorted(by_speaker.items()):
        if len(clips) < min_clips:
            continue
        ranks = sorted((c for c in clips if c[1] in RANK_DIGITS), key=lambda c: RANK_DIGITS.index(c[1]))
        if len(ranks) < 2:
            continue
        halves = (ranks[0::2], ranks[1::2])
        folds = []
        for test in halves:
            enroll = [(_padded(p), w) for p, w in clips if (p, w) not in test]
            folds.append((enroll, [(_padded(p), w) for p, w in test]))
        out[speaker] = folds
    return out


class Hearer:
    """A PocketSphinx recogniser with an acoustic model: the closed set or the whole vocabulary."""

    def __init__(self, acoustic=None, closed: bool = True) -> None:
        from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

        if closed:
            self.r = PocketSphinxRecogniser(PLAYERS, grammar=rank_words_jsgf, reject_chatter=False, nbest=1, acoustic=acoustic)
        else:
            self.r = PocketSphinxRecogniser(PLAYERS, acoustic=acoustic)
        self.cpu = 0.0
        self.n = 0

    def hear(self, utterance):
        t = time.process_time()
        transcript = self.r.hear(utterance)
        self.cpu += time.process_time() - t
        self.n += 1
        return transcript

    def score(self) -> float:
        """The grammar search's path score of the last utterance (log base 1.0001, per-frame
        normalised), or -inf when it found no path."""
        hyp = self.r._fsg.hyp() if self.r._fsg is not None else None
        return float(hyp.best_score) if hyp is not None else float("-inf")


def accuracy(hearer: Hearer, test) -> int:
    return sum(heard_right(hearer.hear(u).text, w) for u, w in test)


def enroll_counts(enrollment, out: Path, method: str):
    from tabletop.speech.adapt import adapt

    t = time.process_time() + sum(os.times()[2:4])
    result = adapt(enrollment, out, method=method)
    return result, time.process_time() + sum(os.times()[2:4]) - t


def acoustic_of(folder: Path) -> dict[str, str]:
    return {"mean": str(folder / "means"), "var": str(folder / "variances")}


def bench_fsdd(methods, work: Path, quick: bool, whole: bool = False) -> dict:
    enroll, test = fsdd_split()
    if quick:
        test = test[::4]
    print(f"FSDD speaker: enrolled on {len(enroll)} clips (index 0-1), tested on {len(test)} rank words (index >= 5)")
    figures: dict = {"test": len(test)}
    models = {"none": None}
    for method in methods:
        result, cpu = enroll_counts(enroll, work / f"fsdd-{method}", method)
        models[method] = acoustic_of(result.folder) if method != "mllr" else {"mllr": str(result.folder / "mllr_matrix")}
        figures.setdefault("cpu", {})[method] = round(cpu, 2)
    for closed in (True, False) if whole else (True,):
        label = "rank words alone" if closed else "whole vocabulary, chatter rejected"
        base = None
        for name, acoustic in models.items():
            hearer = Hearer(acoustic, closed)
            ok = accuracy(hearer, test)
            figures.setdefault(label, {})[name] = ok
            extra = ""
            if name == "none":
                base = ok
            else:
                removed = 1 - (len(test) - ok) / max(1, len(test) - base)
                extra = f"  errors {len(test) - base} -> {len(test) - ok} ({100 * removed:+.0f}% removed)"
                if name in figures.get("cpu", {}):
                    extra += f"  enrollment {figures['cpu'][name]:.2f} s CPU"
            print(f"  {label:36s} {name:9s} {pct(ok, len(test))}{extra}")
    return figures


def bench_commands(method: str, work: Path) -> dict:
    if not COMMANDS.is_dir():
        print("Speech Commands: skipped (not found)")
        return {}
    folds = commands_folds()
    print(f"Speech Commands speakers with >= 10 clips: {len(folds)}; rank words never enrolled, method {method}")
    base_hearer = Hearer(None, True)
    total = [0, 0, 0]
    per = {}
    for speaker, speaker_folds in folds.items():
        before = after = n = 0
        for k, (enroll, test) in enumerate(speaker_folds):
            result, _ = enroll_counts(enroll, work / f"sc-{speaker}-{k}", method)
            before += accuracy(base_hearer, test)
            after += accuracy(Hearer(acoustic_of(result.folder), True), test)
            n += len(test)
        per[speaker] = (before, after, n)
        total = [total[0] + before, total[1] + after, total[2] + n]
        print(f"  {speaker}: {before}/{n} -> {after}/{n}")
    print(f"  all: {pct(total[0], total[2])} -> {pct(total[1], total[2])}")
    return {"per_speaker": per, "before": total[0], "after": total[1], "n": total[2]}


def _babble(test, snr_db: float):
    from tabletop.speech import synth

    out = []
    for i, (u, w) in enumerate(test):
        noise = synth.babble(len(u.samples), seed=500 + i) + synth.table_noise(len(u.samples), seed=900 + i)
        out.append((synth.mix(u, noise, snr_db), w))
    return out


def bench_table(method: str, work: Path, quick: bool) -> dict:
    """Own profile vs pooled vs per-player best score, for a table of enrolled players."""
    from tabletop.speech.adapt import pooled_model

    fsdd_enroll, fsdd_test = fsdd_split()
    if quick:
        fsdd_test = fsdd_test[::4]
    players: dict[str, tuple[list, list]] = {"fsdd": (fsdd_enroll, fsdd_test)}
    if COMMANDS.is_dir():
        for speaker, folds in commands_folds().items():
            players[speaker] = folds[0]  # enrolled on the first fold, tested on its rank words
    counts, own = {}, {}
    for name, (enroll, _) in players.items():
        result, _ = enroll_counts(enroll, work / f"table-{name}", method)
        counts[name] = result.counts
        own[name] = acoustic_of(result.folder)
    pooled = acoustic_of(pooled_model(list(counts.values()), work / "table-pooled"))
    hearers = {name: Hearer(acoustic, True) for name, acoustic in own.items()}
    base, pooled_hearer = Hearer(None, True), Hearer(pooled, True)
    sets = {"fsdd clean": fsdd_test, "fsdd 10 dB babble": _babble(fsdd_test, 10.0)}
    sets["speech commands clean"] = [(u, w, name) for name, (_, test) in players.items() if name != "fsdd" for u, w in test]
    print(f"A table of {len(players)} enrolled players (the FSDD speaker, {len(players) - 1} Speech Commands speakers); "
          f"method {method}. Own profile: the speaker's (what the game uses for the player it expects to speak); "
          f"another's: when it expected someone else; pooled: one model adapted to all; per-player best: every "
          f"player's model hears, the best path score wins")
    figures = {}
    for label, clips in sets.items():
        rows = {"no profile": 0, "own profile": 0, "another's profile": 0, "pooled": 0, "per-player best": 0,
                "own or pooled": 0, "another's or pooled": 0}
        names = list(hearers)
        cpu_single = cpu_multi = 0.0
        chosen_own = rows_n = 0
        for item in clips:
            u, w = item[0], item[1]
            owner = item[2] if len(item) > 2 else "fsdd"
            rows["no profile"] += heard_right(base.hear(u).text, w)
            own_text = hearers[owner].hear(u).text
            own_score = hearers[owner].score()
            rows["own profile"] += heard_right(own_text, w)
            others = [n for n in names if n != owner]
            other = others[rows_n % len(others)] if others else owner  # each other player in turn
            other_text = hearers[other].hear(u).text
            other_score = hearers[other].score()
            rows["another's profile"] += heard_right(other_text, w)
            rows_n += 1
            t = time.process_time()
            pooled_text = pooled_hearer.hear(u).text
            cpu_single += time.process_time() - t
            pooled_score = pooled_hearer.score()
            rows["pooled"] += heard_right(pooled_text, w)
            # The expected speaker's model and the pooled one both hear; the better path score wins.
            rows["own or pooled"] += heard_right(own_text if own_score > pooled_score else pooled_text, w)
            rows["another's or pooled"] += heard_right(other_text if other_score > pooled_score else pooled_text, w)
            t = time.process_time()
            best = None
            for name, hearer in hearers.items():
                text = hearer.hear(u).text
                score = hearer.score()
                if best is None or score > best[0]:
                    best = (score, text, name)
            cpu_multi += time.process_time() - t
            rows["per-player best"] += heard_right(best[1], w)
            chosen_own += best[2] == owner
        n = len(clips)
        figures[label] = dict(rows, n=n)
        print(f"  {label}: " + " | ".join(f"{k} {pct(v, n)}" for k, v in rows.items())
              + f" | own model chosen {pct(chosen_own, n)} | decode CPU per clip: pooled {1000 * cpu_single / max(1, n):.0f} ms,"
              f" per-player {1000 * cpu_multi / max(1, n):.0f} ms")
    return figures


def run(methods=("map", "mllr+map"), quick: bool = False, table: bool = True, commands: bool = True,
        whole: bool = False) -> dict:
    if not FSDD.is_dir():
        print(f"enrollment bench: skipped ({FSDD} not found)")
        return {}
    from tabletop.errors import SetupError

    try:
        from tabletop.speech.adapt import base_model

        base_model()
    except SetupError as error:
        print(f"enrollment bench: skipped ({error.reason})")
        return {}
    os.environ.setdefault("TABLETOP_SYNTH_CACHE", str(Path(tempfile.gettempdir()) / "tabletop-bench-synth"))
    out = {}
    with tempfile.TemporaryDirectory(prefix="tabletop-enroll-bench-") as tmp:
        work = Path(tmp)
        out["fsdd"] = bench_fsdd(methods, work, quick, whole)
        if commands:
            out["commands"] = bench_commands(methods[0], work)
        if table:
            out["table"] = bench_table(methods[0], work, quick)
    print("(real recordings: FSDD, CC BY-SA 4.0, Jackson et al.; Speech Commands v0.01, CC BY 4.0, Warden 2018)")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--methods", nargs="+", default=["map", "mllr+map"], choices=["map", "mllr+map", "mllr"],
                        help="adaptation methods (the first is used for the per-speaker and table figures)")
    parser.add_argument("--quick", action="store_true", help="a quarter of the FSDD test clips")
    parser.add_argument("--no-table", action="store_true", help="skip the pooled vs per-player table")
    parser.add_argument("--no-commands", action="store_true", help="skip the Speech Commands speakers")
    parser.add_argument("--table-only", action="store_true", help="only the table of several enrolled players")
    parser.add_argument("--whole", action="store_true",
                        help="also hear the FSDD rank words against the whole vocabulary with chatter rejection (slow)")
    args = parser.parse_args()
    if args.table_only:
        with tempfile.TemporaryDirectory(prefix="tabletop-enroll-bench-") as tmp:
            bench_table(args.methods[0], Path(tmp), args.quick)
        return 0
    run(tuple(args.methods), args.quick, not args.no_table, not args.no_commands, args.whole)
    return 0


if __name__ == "__main__":
    sys.exit(main())
