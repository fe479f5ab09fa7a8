"""Vosk (Kaldi) with the small US English model and a runtime grammar from the language layer.

Optional: used by default when a model is installed (``tabletop models install``) or named by
``$TABLETOP_VOSK_MODEL``. Any Vosk model folder with a runtime-grammar graph works
(``VoskRecogniser(model_path, phrases=...)``): the tests use PyPI's small Korean model.

The grammar is the language layer's phrase list. Words the model does not know are dropped
from their phrases before the grammar is given to Vosk (and listed in ``missing_words``);
Vosk would drop them too, but only with a log line. Chatter:

- with a model that knows "[unk]" (the English models) it is added to the grammar so that
  chatter has somewhere to go; an utterance heard as "[unk]" is no command;
- with a model that lacks it (the small Korean model), the grammar's phrases loop, and chatter
  comes out as a run of several phrases ("no no give me give me"): only a reading that is
  exactly one phrase of the grammar is accepted. (Filler words made of the command words'
  syllables swallowed the commands too, and the open decoder, at about 1 s per utterance,
  rarely agreed even with right readings.)
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable, Sequence

from tabletop.errors import SetupError
from tabletop.language.transcript import Alternative, Transcript
from tabletop.speech import grammars
from tabletop.speech.audio import SAMPLE_RATE, Utterance, has_speech
from tabletop.speech.models import VOSK_SMALL_EN_US, find_vosk_model, models_dir, vosk_model_problem

__all__ = ["VoskRecogniser", "load_model"]

_MODELS: dict[str, Any] = {}
_MODELS_LOCK = threading.Lock()


def load_model(path: Path | str | None = None) -> Any:
    """Load (once per process) the Vosk model at ``path`` or the one :func:`find_vosk_model` finds.

    :raises SetupError: when vosk is missing, no model is installed, or the model does not load.
    """
    try:
        import vosk
    except (ImportError, OSError) as error:
        raise SetupError(f"the vosk package does not load ({error}): pip install vosk==0.3.45") from None
    if path is None:
        path = find_vosk_model()
        if path is None:
            raise SetupError(
                f"no Vosk model installed: run `tabletop models install` (or set TABLETOP_VOSK_MODEL to a "
                f"model folder); expected {models_dir() / VOSK_SMALL_EN_US.name}. Or use --engine pocketsphinx"
            )
    path = Path(path)
    problem = vosk_model_problem(path)
    if problem:
        raise SetupError(f"{problem}: run `tabletop models install` or set TABLETOP_VOSK_MODEL")
    key = str(path.resolve())
    with _MODELS_LOCK:
        if key not in _MODELS:
            vosk.SetLogLevel(-1)
            try:
                _MODELS[key] = vosk.Model(str(path))
            except Exception as error:  # noqa: BLE001 - vosk raises a bare Exception
                raise SetupError(
                    f"Vosk could not load the model in {path} ({error}): reinstall it with `tabletop models install`"
                ) from None
        return _MODELS[key]


class VoskRecogniser:
    """Vosk with the runtime grammar of the game's context; n-best alternatives."""

    name = "vosk"

    def __init__(
        self,
        model_path: Path | str | None = None,
        *,
        players: Sequence[str] = ("Ana", "Ben", "Cho"),
        nbest: int = 5,
        phrases: Callable[[Sequence[str], Any], list[str]] | None = None,
        cache_size: int = 16,
    ) -> None:
        self.players = tuple(players)
        self.nbest = nbest
        self.model = load_model(model_path)
        self._phrases = phrases or grammars.vosk_phrases
        self._recognisers: OrderedDict[str, Any] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()
        self._vocabulary: dict[str, bool] = {}
        self._grammars: dict[tuple[str, ...], list[str]] = {}
        self.missing_words: set[str] = set()  # grammar words the model does not know (dropped)
        self.has_unk = self.knows("[unk]")

    def knows(self, word: str) -> bool:
        """Whether the model's vocabulary holds ``word``."""
        known = self._vocabulary.get(word)
        if known is None:
            known = self._vocabulary[word] = int(self.model.vosk_model_find_word(word)) >= 0
        return known

    def grammar(self, phrases: Sequence[str]) -> list[str]:
        """The phrases as Vosk is given them: unknown words dropped (and noted), "[unk]" added
        when the model has it."""
        key = tuple(phrases)
        cached = self._grammars.get(key)
        if cached is not None:
            return cached
        out: dict[str, None] = {}
        for phrase in phrases:
            if phrase == "[unk]":
                continue
            words = phrase.split()
            kept = [w for w in words if self.knows(w)]
            self.missing_words.update(w for w in words if w not in kept)
            if kept:
                out[" ".join(kept)] = None
        result = [*out, "[unk]"] if self.has_unk else list(out)
        if len(self._grammars) >= 64:
            self._grammars.clear()
        self._grammars[key] = result
        return result

    def _recogniser_for(self, phrases: list[str]) -> Any:
        import vosk

        grammar = json.dumps(phrases, ensure_ascii=False)
        key = hashlib.sha1(grammar.encode()).hexdigest()
        rec = self._recognisers.get(key)
        if rec is None:
            rec = vosk.KaldiRecognizer(self.model, SAMPLE_RATE, grammar)
            rec.SetWords(True)
            if self.nbest > 1:
                rec.SetMaxAlternatives(self.nbest)
            self._recognisers[key] = rec
            while len(self._recognisers) > self._cache_size:
                self._recognisers.popitem(last=False)
        else:
            self._recognisers.move_to_end(key)
            rec.Reset()
        return rec

    def hear(self, utterance: Utterance, context: Any = None, players: Sequence[str] | None = None) -> Transcript:
        start = time.perf_counter()
        if not has_speech(utterance):
            return Transcript(text="", confidence=0.0, engine=self.name, decode_ms=_ms(start))
        names = tuple(players) if players else tuple(getattr(context, "players", None) or self.players)
        with self._lock:
            phrases = self.grammar(self._phrases(names, context))
            rec = self._recogniser_for(phrases)
            raw = utterance.raw()
            step = SAMPLE_RATE  # one second of samples at a time
            for i in range(0, len(raw), step * 2):
                rec.AcceptWaveform(raw[i : i + step * 2])
            result = json.loads(rec.FinalResult())
        transcript = _transcript(result, self.name, _ms(start))
        if not self.has_unk and transcript.text:
            transcript = _one_phrase(transcript, set(phrases))
        return transcript


def _one_phrase(transcript: Transcript, phrases: set[str]) -> Transcript:
    """Without "[unk]": chatter comes out as a run of phrases; keep only a reading that is
    exactly one phrase (and, among the alternatives, only such readings)."""
    if transcript.text not in phrases:
        return Transcript(text="", confidence=0.0, engine=transcript.engine, decode_ms=transcript.decode_ms)
    alternatives = tuple(a for a in transcript.alternatives if a.text in phrases)
    return Transcript(
        transcript.text, transcript.confidence, alternatives, transcript.words, transcript.engine, transcript.decode_ms
    )


def _strip_unk(text: str) -> tuple[str, bool]:
    words = text.split()
    kept = [w for w in words if w != "[unk]"]
    return " ".join(kept), len(kept) != len(words)


def _transcript(result: dict[str, Any], engine: str, decode_ms: float) -> Transcript:
    """Vosk JSON (with or without alternatives) -> Transcript."""
    if "alternatives" in result:
        alts = [a for a in result["alternatives"] if isinstance(a, dict)]
        if not alts:
            return Transcript(text="", confidence=0.0, engine=engine, decode_ms=decode_ms)
        # Alternative "confidence" is a total log-likelihood: turn the list into posteriors.
        scores = [float(a.get("confidence", 0.0)) for a in alts]
        top = max(scores)
        weights = [math.exp(max(-50.0, s - top)) for s in scores]
        total = sum(weights) or 1.0
        out: list[Alternative] = []
        for a, w in zip(alts, weights):
            text, had_unk = _strip_unk(a.get("text", ""))
            conf = (w / total) * (0.5 if had_unk else 1.0)
            if text and all(text != o.text for o in out):
                out.append(Alternative(text, round(conf, 3)))
        best_text, best_unk = _strip_unk(alts[0].get("text", ""))
        if not best_text or best_unk and len(best_text.split()) < 2:
            return Transcript(text="", confidence=0.0, engine=engine, decode_ms=decode_ms)
        best_conf = out[0].confidence if out else 0.0
        words = tuple((w["word"], best_conf) for w in alts[0].get("result", []) if w.get("word") != "[unk]")
        return Transcript(best_text, best_conf, tuple(out), words, engine, decode_ms)
    text, had_unk = _strip_unk(result.get("text", ""))
    words = tuple((w["word"], float(w.get("conf", 1.0))) for w in result.get("result", []) if w.get("word") != "[unk]")
    if not text:
        return Transcript(text="", confidence=0.0, engine=engine, decode_ms=decode_ms)
    conf = min((c for _, c in words), default=0.5) * (0.5 if had_unk else 1.0)
    return Transcript(text, round(conf, 3), (Alternative(text, round(conf, 3)),), words, engine, decode_ms)


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000.0, 1)
