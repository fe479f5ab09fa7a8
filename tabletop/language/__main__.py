"""Match sentences from standard input, one per line: ``python -m tabletop.language --players Ana Ben Cho``.

Prints one JSON object per line: the text, every reading with its cost and template, and, with
``--phase``, what :func:`understand` makes of it in that phase. ``--jsgf`` and ``--vosk`` print the
grammars instead.
"""

from __future__ import annotations

import argparse
import json
import sys

from tabletop.language.context import PHASES, Context
from tabletop.language.grammar import jsgf, vosk_phrases
from tabletop.language.parser import parse_candidates
from tabletop.language.transcript import Transcript
from tabletop.language.understand import understand


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tabletop.language", description=__doc__.splitlines()[0])
    ap.add_argument("--players", nargs="*", default=[])
    ap.add_argument("--phase", choices=PHASES)
    ap.add_argument("--current")
    ap.add_argument("--jsgf", action="store_true", help="print the JSGF grammar and exit")
    ap.add_argument("--vosk", action="store_true", help="print the Vosk phrase list (JSON) and exit")
    args = ap.parse_args(argv)
    context = None
    if args.phase:
        context = Context(players=tuple(args.players), current=args.current or (args.players[0] if args.players else None),
                          phase=args.phase)
    if args.jsgf:
        sys.stdout.write(jsgf(args.players, context))
        return 0
    if args.vosk:
        print(json.dumps(vosk_phrases(args.players, context), indent=0))
        return 0
    for line in sys.stdin:
        text = line.rstrip("\n")
        if not text.strip():
            continue
        out: dict[str, object] = {
            "text": text,
            "readings": [
                {"intent": p.intent.to_json(), "cost": p.cost, "template": p.template}
                for p in parse_candidates(text, args.players)
            ],
        }
        if context is not None:
            out["understood"] = understand(Transcript.typed(text), context).to_json()
        print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
