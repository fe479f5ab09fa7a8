"""Answer bench: from the end of an utterance to the start of tabletop's spoken answer.

    python tests/bench/answer.py [--rounds 6] [--snr 20]

Plays the demo's scripted game (``tabletop.cli.demo.SCRIPT``) several times at a live table:
each line is synthesised (espeak-ng voices, a noise floor, optionally babble), fed to the
embedded recogniser in 30 ms blocks as the microphone delivers them (decoding while it is
spoken), and the moment the last block is in, the clock starts. It stops when the answer's
audio is ready to play. In between, each step is timed on its own:

- **decode**: what the recogniser has left to do once the utterance has ended;
- **table**: understanding in context, the referee's ruling, and the journal line written and
  fsynced (a real journal on disk) before anything is announced;
- **voice**: pyttsx3 (espeak-ng) turning the answer's first sentence into audio, which
  pyttsx3 2.99 does whole before it starts playing.

The endpointer's hangover (the quiet that ends an utterance, ``Microphone(hangover=0.4)``) comes
before all this and is a setting, not work: it is printed, not added.
Medians and 95th percentiles, over every line of every round.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[2]))

from tabletop.cli.demo import PLAYERS, SCRIPT  # noqa: E402
from tabletop.speech import synth  # noqa: E402
from tabletop.speech.microphone import BLOCK  # noqa: E402
from tabletop.speech.recognisers import default_recogniser  # noqa: E402
from tabletop.table import Table  # noqa: E402


def _voice_timer():
    """A function timing pyttsx3's synthesis of a sentence into audio (None without a voice)."""
    try:
        import pyttsx3

        engine = pyttsx3.init()
    except Exception as error:  # noqa: BLE001 - no espeak-ng here: report it and time the rest
        print(f"  voice: not timed ({error})")
        return None
    out = Path(tempfile.mkdtemp(prefix="tabletop-answer-")) / "answer.wav"

    def timed(text: str) -> float:
        t = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):  # pyttsx3 prints "Audio saved to ..."
            engine.save_to_file(text, str(out))
            engine.runAndWait()
        return (time.perf_counter() - t) * 1000

    return timed


def percentile(values: list[float], q: float) -> float:
    v = sorted(values)
    return v[int(q * (len(v) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=6, help="times through the script")
    parser.add_argument("--snr", type=float, default=None, help="babble and table noise at this SNR (dB)")
    args = parser.parse_args()

    recogniser = default_recogniser(None, PLAYERS)
    voice = _voice_timer()
    times: dict[str, list[float]] = {"decode": [], "table": [], "voice": [], "total": []}
    with tempfile.TemporaryDirectory(prefix="tabletop-answer-") as folder:
        for r in range(args.rounds):
            table = Table.new(PLAYERS, journal=Path(folder) / f"round{r}.jsonl", durable=True)
            table.start()
            try:
                for k, (_, line, espeak_voice) in enumerate(SCRIPT):
                    if line is None:
                        table.idle()
                        continue
                    raw = synth.realistic(line, voice=espeak_voice, snr_db=args.snr, seed=1000 * r + k).raw()
                    stream = recogniser.stream(table.context(), live=True)
                    for i in range(0, len(raw), 2 * BLOCK):
                        stream.feed(raw[i : i + 2 * BLOCK])
                    t0 = time.perf_counter()
                    transcript = stream.finish()
                    t1 = time.perf_counter()
                    replies = table.hear(transcript)
                    t2 = time.perf_counter()
                    first = next((reply.text for reply in replies if reply.text), "")
                    v = voice(first.split(". ")[0]) if voice is not None and first else 0.0
                    times["decode"].append((t1 - t0) * 1000)
                    times["table"].append((t2 - t1) * 1000)
                    times["voice"].append(v)
                    times["total"].append((t2 - t0) * 1000 + v)
            finally:
                table.close()
    n = len(times["total"])
    print(f"answers timed: {n} ({args.rounds} rounds of the demo script, "
          f"{'clean' if args.snr is None else f'{args.snr:g} dB SNR'})")
    for name, values in times.items():
        print(f"  {name:7s} median {statistics.median(values):6.1f} ms   p95 {percentile(values, 0.95):6.1f} ms")
    print("  (before these: the endpointer's 400 ms of quiet that ends an utterance)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
