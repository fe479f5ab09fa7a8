"""Decode a table bench's utterances again, offline, as the game heard them: where a change to the
recogniser moves them.

    TABLE_BENCH_KEEP_AUDIO=1 python tests/bench/table.py --players 2 --preset pairs --games 1 --snrs clean
    python tests/bench/table_replay.py /tmp/table-bench-transcripts/clean-4100.trace.jsonl [--voice en-gb] [--dump rows.json]

With ``TABLE_BENCH_KEEP_AUDIO`` the table bench keeps every utterance's WAV file and the grammar it was
heard with, and names both in its trace. This script hears each again with today's recogniser in
the same grammar (whether the table waited for a short answer, too) and tallies, per voice, how each
reading compares with what was said: acted on right (confidence at the table's acting bar or more),
asked about right, dropped with the grammar's reading right or wrong, asked about or acted on as
something else. A game played again diverges as soon as one utterance is heard otherwise; this
measures the same utterances before and after, paired. (Each recogniser hears the utterances in
one order; PocketSphinx's noise estimate carries over from one to the next as in the game.)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tabletop.language.normalise import normalise  # noqa: E402
from tabletop.language.understand import ACT  # noqa: E402
from tabletop.speech import grammars  # noqa: E402
from tabletop.speech.audio import read_wav  # noqa: E402
from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser  # noqa: E402


class _Heard:
    """The little of a game context the recogniser reads: players, grammar, short answer or not."""

    def __init__(self, players: tuple[str, ...], search: str, short_answer: bool, yes_no: bool = True,
                 answers_ask: bool = True) -> None:
        self.players = players
        self.search = search
        # A short answer a bare yes or no answers (an ask, a yes/no question), or one that it does not
        # ("How many?", "Ana, which rank?"): the recogniser reads a bare yes or no only in the first,
        # and keeps a count after a yes only at an ask's answer (not at "One seven?").
        self.phase = ("answer" if yes_no else "count") if short_answer else "ask"
        self.choices = None
        self.expects = "yes_no" if short_answer and yes_no and not answers_ask else None


_SLOT_QUESTIONS = ("how many?", "which rank?", "which one?", "from whom?", "whom?")


def _yes_no(trace: dict[str, Any], before: dict[str, Any] | None) -> bool:
    """Whether the table waited for a yes or a no (an ask's answer, a yes/no question) when this was
    said: the trace says so since the recogniser records it; for older traces, what the table said
    just before: a question for a slot ("How many?", "Ana, which rank?") waits for no yes."""
    if "yes_no" in trace:
        return bool(trace["yes_no"])
    said = ((before or {}).get("say") or "").lower()
    return not said.endswith(_SLOT_QUESTIONS) and " or " not in said.rsplit(".", 1)[-1]


def load(paths: list[str]) -> list[dict[str, Any]]:
    traces = []
    for path in paths:
        before = None
        for line in Path(path).read_text().splitlines():
            t = json.loads(line)
            t["_before"] = before  # the utterance before it in the game: what the table said to it
            before = {"say": t.get("say")}
            if t.get("audio") and t.get("search") and os.path.exists(t["audio"]):
                traces.append(t)
    return traces


def replay(traces: list[dict[str, Any]]) -> tuple[Counter, list[dict[str, Any]], float]:
    texts: dict[str, str] = {}
    folders = {t["search"]: t["grammars"] for t in traces}

    def grammar(players: Any, context: Any) -> str:
        if context.search not in texts:
            texts[context.search] = (Path(folders[context.search]) / f"{context.search}.jsgf").read_text()
        return texts[context.search]

    players = tuple(traces[0]["players"]) if traces else ()
    recogniser = PocketSphinxRecogniser(players, grammar=grammar)
    tally: Counter = Counter()
    rows = []
    cpu = time.process_time()
    for t in traces:
        players = tuple(t["players"])
        context = _Heard(players, t["search"], bool(t.get("short_answer")), _yes_no(t, t.get("_before")),
                         bool(t.get("answers_ask", True)))
        heard = recogniser.hear(read_wav(t["audio"]), context)
        meant = grammars.parse_intent(" ".join(normalise(t["said"])), players)
        reading = recogniser.last_trace.get("grammar", "")
        if not heard.text:
            kind = "dropped, grammar right" if reading and grammars.parse_intent(reading, players) == meant else "dropped, grammar wrong"
        elif grammars.parse_intent(heard.text, players) == meant:
            kind = "acted right" if heard.confidence >= ACT else "asked right"
        else:
            kind = "ACTED WRONG" if heard.confidence >= ACT else "asked wrong"
        tally[(t["voice"], kind)] += 1
        rows.append({"said": t["said"], "voice": t["voice"], "kind": kind, "heard": heard.text,
                     "confidence": heard.confidence, "in_game": [t.get("text"), t.get("confidence")],
                     "trace": recogniser.last_trace})
    return tally, rows, (time.process_time() - cpu) / max(1, len(traces))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("traces", nargs="+", help="LEVEL-SEED.trace.jsonl files of games played with TABLE_BENCH_KEEP_AUDIO=1")
    parser.add_argument("--voice", default="", help="only voices whose name holds this")
    parser.add_argument("--dump", help="write every utterance's row (JSON) here")
    parser.add_argument("--limit", type=int, help="only the first N utterances")
    args = parser.parse_args()
    traces = [t for t in load(args.traces) if args.voice in t["voice"]][: args.limit]
    if not traces:
        sys.exit("no kept utterances in these traces (play the games with TABLE_BENCH_KEEP_AUDIO=1)")
    tally, rows, cpu = replay(traces)
    print(f"{len(traces)} utterances, {cpu:.2f} CPU s each")
    for voice in sorted({v for v, _ in tally}):
        n = sum(c for (v, _), c in tally.items() if v == voice)
        print(f"  {voice} ({n}): " + ", ".join(f"{k} {c}" for (v, k), c in sorted(tally.items()) if v == voice))
    if args.dump:
        Path(args.dump).write_text(json.dumps(rows, indent=1, default=str))


if __name__ == "__main__":
    main()
