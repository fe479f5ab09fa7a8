"""PocketSphinx 5 with its bundled US English model: the embedded default recogniser.

Each utterance is decoded twice from the same features:

1. with the language layer's JSGF grammar (narrowed to the game's context when one is given),
   which gives the command text, an n-best list and word confidences;
2. with an open trigram model of the same grammar's sentences plus common English words,
   which is free to hear chatter as chatter.

A grammar forces any sound into some command, and its scores cannot tell a command from
chatter. The two decoders agree on commands and disagree on chatter, so a hypothesis is
accepted only when both read the same intent (or the same words). A rejected utterance comes
back as an empty transcript with confidence 0.

Where both decoders agree on a short answer ("two" at "How many?", when someone said "zero" or a
name), agreement proves little: both were forced to some word of a small vocabulary. So a third
search runs on the same features: a free phone loop (the model's phone trigram, no words). A
grammar reading whose words fit the sound far worse, frame for frame, than the best phone string
does is not the words it claims (the classic filler-model likelihood ratio, see
:func:`fit_per_frame`): far worse, and it is dropped as chatter; somewhat worse, and its
confidence is capped below the table's act threshold, so the table asks instead of acting.

The same loop runs in every phase of a game, for the opposite case: a reading the open decoder does
not back. The open decoder often hears a right sentence otherwise ("book of nines" as "book hold on
you twos"), and dropping it made players say it again and again. When the grammar's words fit the
sound as well as right readings do (``FIT_RESCUE``), the reading is kept with its confidence capped,
so the table asks about it ("A book of nines?"); chatter forced into a command fits far worse and is
still dropped. The book public knowledge proves, called by the player whose turn it is, is kept down
to ``FIT_REJECT``: the open decoder hears a book's rank as anything. Outside a game (no context) a
disagreement still drops the reading.

The dictionary is trimmed to the words in use (fast start-up); words missing from the CMU
dictionary get automatic pronunciations (:mod:`tabletop.speech.pronounce`). Compiled grammars
and models are cached per grammar text.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import tempfile
import threading
import time
from collections import OrderedDict
from dataclasses import replace
from typing import Any, Callable, Sequence, TypeVar

from tabletop.errors import SetupError
from tabletop.language.transcript import Alternative, Transcript
from tabletop.speech import grammars, jsgf as jsgf_reader, ngram
from tabletop.speech.audio import Utterance, has_speech, longest_run
from tabletop.speech.pronounce import pronunciations

__all__ = ["PocketSphinxRecogniser", "model_status"]

T = TypeVar("T")

DEFAULT_PLAYERS = ("Ana", "Ben", "Cho")

# The grammar search. pip/lw: see _ensure_words. Wider beams than the defaults (1e-48, 7e-29,
# 1e-48): with the defaults 10 of 456 held-out synthesised commands (none of the bench's
# sentences, voices or noise seeds) found no grammar path at all, mostly in noise; with these
# none did, and 7 more were heard right and accepted, none fewer; chatter accepted unchanged
# (3 of 120). The search costs CPU (real-time factor of both decoders 0.17 -> 0.29) but not
# time after the end of speech (median ~90 ms either way).
GRAMMAR_SEARCH = {"pip": 0.1, "lw": 3.0, "beam": 1e-70, "wbeam": 1e-50, "pbeam": 1e-70}
# The open decoder (chatter rejector) with somewhat wider beams too: 2 more of the same 456
# accepted, chatter unchanged, no measurable extra CPU.
OPEN_SEARCH = {"beam": 1e-60, "wbeam": 1e-40, "pbeam": 1e-60}
# Pseudo-count of each word the open decoder knows beyond the phase's sentences (ngram.arpa).
OPEN_EXTRA_WEIGHT = 0.5
# compallsen: score every senone in every frame, so that each frame's scores are normalised by
# the best senone of the whole model rather than the best of the few the grammar keeps active.
# The grammar path's acoustic score then means the same as the phone loop's (the search and its
# result do not change: every path in a frame shifts by the same amount; CPU unchanged within
# noise on 40 clips).
GRAMMAR_SEARCH = dict(GRAMMAR_SEARCH, compallsen=True)
# The phone loop that a grammar reading is measured against: the model's phone trigram, scored
# against the same normaliser. About 0.07 CPU seconds per second of audio.
LOOP_SEARCH = {"lw": 2.0, "beam": 1e-60, "pbeam": 1e-60, "compallsen": True}
# How well the grammar's words fit the sound against the phone loop, per frame of the words, in
# the decoder's log units (log base 1.0001 scaled down by 2^10: one unit is about 0.1 nat).
# Measured on real voices in context (tests/bench/speech.py --context-only --real-limit 160, FSDD
# and Speech Commands): right readings mostly fit within -20 of the loop (the worst of 200 at -27);
# chatter forced into "no two", "sorry one" fits at -46 to -49, into "nah i have two", "actually
# one" at -25 to -26; a real "zero" read as "two", "three" as "ten" at -24 to -34; but some
# wrongs fit as well as right readings (a "six" read as "ten" at -16). Synthesised voices fit
# worse: right one-word readings down to -36 ("one" by en-us+m3, "help", "affirmative"). Hence a
# wide band that asks and a low floor that drops.
FIT_REJECT = -40.0   # below: the words are not in the sound: no command (chatter)
FIT_SURE = -20.0     # below: heard, but not surely these words: confidence capped to ask
UNSURE_CAP = 0.45    # under the table's act threshold (0.5): the table asks, never acts
# Above FIT_RESCUE, a reading the open decoder does not back is asked about rather than dropped. On
# synthesised game speech (the speech bench's voices, the table's phases) 12 of 13 right readings the
# open decoder disagreed with fit at -4 to -19, and forced chatter in whole-sentence phases at -25 to
# -35; on real voices (the tuning half) no right or wrong count changed, only chatter was asked about
# more often. The same line as FIT_SURE: what fits like a right reading is worth a question.
FIT_RESCUE = FIT_SURE
# The backing of a reading whose slot values the open decoder heard exactly at its best, its other
# words otherwise (see PocketSphinxRecogniser._slots_heard_alike): that of its best reading being the
# same command in other words (the top of _agreement's n-best rule).
SLOTS_BACKED = 0.9
# A reading's rank whose confusable partner (vocabulary.yaml ``confusable_ranks``) this many of the
# open decoder's n-best readings hold is checked ("Aces?"), never acted on, however both decoders'
# best readings agree (see PocketSphinxRecogniser._confusable_rank_heard).
CONFUSABLE_HEARD_MIN = 1
# Books and asks of these ranks are checked ("A book of nines?") however both decoders agree, with no
# reading of the partner needed (see PocketSphinxRecogniser._confusable_rank_heard). En+f3's "book of fives" was
# read "book of nines" by both decoders (0.838, no five in the open decoder's 25 readings) and a pair of
# nines laid (20 dB pairs game seed 4104; 19 utterances to repair). In the four 20 dB pairs traces
# (seeds 4103 and 4104, before and after 905f0d6) that rule asks 5 right books of nines (no book of
# fives was acted on) and catches the one wrong; it would ask 5 right asks of fives or nines (none
# wrong), so asks were left alone. Asks of them are checked too now: en+f3's "Ana, any fives?" was read
# "ana any nines" by the grammar and "ana any nines that" by the open decoder (no five among its 25
# readings) and acted on as an ask of nines (20 dB pairs game seed 4104, fifteenth session; 10 utterances
# to repair). In eight 20 dB pairs traces (seeds 4103-4105) that asks 10 right asks of fives or nines
# acted on before (about one a game) and catches that wrong one. Which ranks: vocabulary.yaml's
# ``ranks_checked``, the one list the table's checks of corrections read too.
RANKS_CHECKED_IN = ("book", "ask")
# A question to tabletop (whose turn, the score, help) backed only by _agreement's loosest rules (most
# words in common with one of the open decoder's three best readings, 0.7, or all its words among one of
# its readings, 0.6) is asked about, not answered. The grammar's longest sentences soak up what the open
# decoder heard otherwise: en+f3's "book of nines" and "book of aces" at 190 words a minute were read
# "what can i say" by the grammar and "what can i get that", "what can i say that" by the open decoder
# (0.7), and the help was read out in the middle of the game, twice (20 dB pairs game seed 4105). In the
# traces of seven 20 dB pairs games (seeds 4103-4105) no right question was backed so loosely (the 8
# right were backed 0.89-1).
QUERY_BACKING = 0.7
# How far under the speaker's words (the median loudness of the grammar's words) a word the open
# decoder heard is background, not the speaker (see _spoken). At 20 dB of babble the open
# decoder's extra words lie 18-20 dB under the speech; a speaker's own words lie within about 10 dB
# of the median (unstressed "of", a trailing "cho" at -8 to -10 in the synthesised probes).
BACKGROUND_DB = 15.0
# The speaker's level in a short answer: the power of its loudest frames, as many as a vowel lasts
# (100 ms; see _said_alone).
SPEAKER_FRAMES = 10
# A "no" drawn out ("nooo", en+m6 at 135 words a minute) is read "nah a five" by the grammar: the long
# vowel's tail is an "a" at the speaker's level, the babble after it the value. That "a" (or "an",
# "the") is the "no"'s own vowel when the speech runs on unbroken from the "no" into it: no stretch of
# DRAWN_GAP_FRAMES frames between the two falls BACKGROUND_DB under the speaker (see _drawn_out). A
# "no, eights" read "no a three" has a pause of 13 or more frames at the babble's level before the "a"
# (the comma); a drawn-out "no" dips at most 13 dB for a frame or two.
DRAWN_GAP_FRAMES = 3
DRAWN_OUT_HEADS = ("no", "nah")
DRAWN_OUT_FILLERS = ("a", "an", "the")
# A short answer's reading whose slot value Moonshine heard too (see _second_opinion) is as sure as one
# both of PocketSphinx's decoders read in the same words (the table's HEARD_ALIKE).
SECOND_CONFIRMS = 0.9
# A decoder frame: 10 ms (the segments' start_frame and end_frame count them from the utterance's start).
FRAME_S = 0.01
_FILLERS = {"<s>", "</s>", "<sil>", "[noise]", "[speech]", "++noise++", "<null>"}


def model_status() -> dict[str, Any]:
    """Where the bundled PocketSphinx model is and whether it is complete."""
    try:
        from pocketsphinx import get_model_path
    except ImportError as error:  # pragma: no cover - a dependency
        return {"name": "pocketsphinx en-us", "ok": False, "problem": f"pip install pocketsphinx ({error})"}
    root = get_model_path()
    needed = [os.path.join(root, "en-us", "en-us", f) for f in ("mdef", "means", "variances", "feat.params")]
    needed.append(os.path.join(root, "en-us", "cmudict-en-us.dict"))
    missing = [p for p in needed if not os.path.exists(p)]
    return {
        "name": "pocketsphinx en-us (bundled)",
        "path": os.path.join(root, "en-us"),
        "ok": not missing,
        "problem": f"missing {', '.join(missing)}: pip install --force-reinstall pocketsphinx" if missing else None,
    }


class PocketSphinxRecogniser:
    """The embedded recogniser. ``hear(utterance, context)`` returns a Transcript.

    :param players: names for hearing without a game context.
    :param reject_chatter: decode with the open model too and keep only agreeing commands.
    :param nbest: how many alternatives to return.
    :param grammar: ``(players, context) -> JSGF text``; the language layer's by default.
    :param parse: ``(text, players) -> intent or None``, to compare the two decoders' readings.
    :param acoustic: Decoder options that load an adapted acoustic model over the bundled one
        (``{"mean": ..., "var": ...}`` from :mod:`tabletop.speech.profiles`).
    :param verify: measure the grammar reading against a free phone loop (see the module's
        docstring); only with ``reject_chatter``.
    :param second: a second listener for short answers' slots (see ``_second_opinion``): "auto" for
        Moonshine when it is installed (what :func:`make_recogniser` gives), an object with
        ``transcribe(utterance) -> str``, or None (PocketSphinx alone; the default here, so that a bare
        decoder stays a bare decoder).
    :param open_nbest: how many of the open decoder's readings may back the grammar's. 25 rather
        than 15: on held-out dev commands +2 to +4 points in noise with one more of 150 chatter
        accepted; on the bench +6 of 740 commands right, chatter still 0 of 100, about 10 ms more
        after the end of speech.
    """

    name = "pocketsphinx"

    def __init__(
        self,
        players: Sequence[str] = DEFAULT_PLAYERS,
        *,
        reject_chatter: bool = True,
        nbest: int = 5,
        grammar: Callable[[Sequence[str], Any], str] | None = None,
        parse: Callable[[str, Sequence[str]], Any] | None = None,
        cache_size: int = 32,
        open_nbest: int = 25,
        acoustic: dict[str, str] | None = None,
        verify: bool = True,
        second: Any = None,
    ) -> None:
        self.players = tuple(players)
        self.acoustic = dict(acoustic or {})  # a voice profile's model files (mean, var, mllr)
        self.open_nbest = open_nbest
        self.reject_chatter = reject_chatter
        self.nbest = nbest
        self._grammar = grammar or grammars.jsgf
        self._parse = parse or grammars.parse_intent
        self._cache_size = cache_size
        self._searches: OrderedDict[str, str] = OrderedDict()  # jsgf hash -> search name
        self._fsg: Any = None  # the grammar decoder
        self._open: Any = None  # the open n-gram decoder
        self._loop: Any = None  # the phone loop the grammar's reading is measured against
        self.verify = verify and reject_chatter
        # A neural second opinion on short answers' slots (see _second_opinion): Moonshine when it is
        # installed ("auto", as make_recogniser asks), a listener given, or None (PocketSphinx alone).
        self.second, self.second_problem = _second_listener(second) if reject_chatter else (None, "off")
        self.last_fit: float | None = None
        # How the last utterance was judged, for the benches: the grammar's reading, the open
        # decoder's best readings, their agreement, the fit, and which check (if any) dropped it.
        self.last_trace: dict[str, Any] = {}
        self._lock = threading.RLock()
        self._tmp = tempfile.TemporaryDirectory(prefix="tabletop-ps-")
        self._known: set[str] = set()
        self._all_words: dict[tuple[str, ...], set[str]] = {}
        self._vocab: dict[str, set[str]] = {}  # search name -> the words its grammar holds
        self._primed = False  # live decoding waits until a whole-utterance decode set the mean
        self._went_live = False  # a stream decoded in blocks since the features were last built

    # -- set-up ------------------------------------------------------------------------------

    def _new_decoder(self, dict_path: str, **options: Any) -> Any:
        try:
            from pocketsphinx import Decoder, get_model_path
        except (ImportError, OSError) as error:
            raise SetupError(f"PocketSphinx is not installed: pip install pocketsphinx==5.1.1 ({error})") from None
        status = model_status()
        if not status["ok"]:
            raise SetupError(status["problem"])
        try:
            return Decoder(
                hmm=os.path.join(get_model_path(), "en-us", "en-us"),
                dict=dict_path,
                lm=None,
                bestpath=False,
                loglevel="FATAL",
                **self.acoustic,
                **options,
            )
        except (RuntimeError, ValueError) as error:
            raise SetupError(f"PocketSphinx failed to start ({error}): pip install --force-reinstall pocketsphinx") from None

    def _ensure_words(self, words: set[str]) -> None:
        new = {w for w in words if w not in self._known}
        if not new:
            return
        prons = pronunciations(new)
        if self._fsg is None:
            dict_path = os.path.join(self._tmp.name, "domain.dict")
            with open(dict_path, "w", encoding="utf-8") as f:
                for word, variants in sorted(prons.items()):
                    for i, phones in enumerate(variants):
                        f.write(f"{word}{'' if i == 0 else f'({i + 1})'} {phones}\n")
            # Grammar search: a phone insertion penalty (pip) and a lower language weight
            # (the grammar's branch costs) stop short words being inserted into noise or
            # trailing silence ("i'll give you one eight"): on held-out synthesised commands
            # (not the bench's), exact text rose 72->80% clean, 70->80% at 20 dB, 25->35% at 10 dB.
            self._fsg = self._new_decoder(dict_path, **GRAMMAR_SEARCH)
            if self.reject_chatter:
                self._open = self._new_decoder(dict_path, **OPEN_SEARCH)
            if self.verify:
                from pocketsphinx import get_model_path

                phone_lm = os.path.join(get_model_path(), "en-us", "en-us-phone.lm.bin")
                self._loop = self._new_decoder(dict_path, allphone=phone_lm, **LOOP_SEARCH)
        else:
            items = [
                (word if i == 0 else f"{word}({i + 1})", phones)
                for word, variants in sorted(prons.items())
                for i, phones in enumerate(variants)
            ]
            for decoder in (self._fsg, self._open):
                if decoder is None:
                    continue
                for n, (word, phones) in enumerate(items):
                    decoder.add_word(word, phones, n == len(items) - 1)
        self._known |= new

    def _game_words(self, players: Sequence[str]) -> set[str]:
        """Every word of the whole game's grammar for these players (no phase narrowing)."""
        key = tuple(players)
        if key not in self._all_words:
            try:
                self._all_words[key] = set(jsgf_reader.vocabulary(jsgf_reader.parse(self._grammar(key, None))))
            except Exception:  # noqa: BLE001 - a grammar that cannot be read whole: the phase's words only
                self._all_words[key] = set()
        return self._all_words[key]

    def _search_for(self, jsgf_text: str, players: Sequence[str] = ()) -> str:
        key = hashlib.sha1(jsgf_text.encode()).hexdigest()[:16]
        if key in self._searches:
            self._searches.move_to_end(key)
            return self._searches[key]
        grammar = jsgf_reader.parse(jsgf_text)
        vocab = jsgf_reader.vocabulary(grammar)
        # The open decoder hears with every word of the game, whatever the phase: a phase narrows
        # what the grammar accepts, not what people may say. At "How many?" the narrowed grammar
        # holds one, two, three, yes, no...; without the other game words and numbers the open
        # decoder too could only hear a real "zero" or "six" as "two".
        heard_words = vocab | set(ngram.COMMON_WORDS) | self._game_words(players)
        self._ensure_words(heard_words)
        name = f"s{key}"
        _keep_grammar(name, jsgf_text)
        try:
            self._fsg.add_jsgf_string(name, jsgf_text)
        except (ValueError, RuntimeError) as error:
            raise SetupError(f"PocketSphinx could not load the command grammar: {error}") from None
        if self._open is not None:
            from pocketsphinx import NGramModel

            sentences = jsgf_reader.sample(grammar, 3000, seed=1)
            path = os.path.join(self._tmp.name, f"{name}.arpa")
            with open(path, "w", encoding="utf-8") as f:
                f.write(ngram.arpa(sentences, extra_words=heard_words, order=3, extra_weight=OPEN_EXTRA_WEIGHT))
            model = NGramModel(self._open.config, self._open.logmath, path)
            self._open.add_lm(name, model)
            os.unlink(path)
        self._searches[key] = name
        self._vocab[name] = vocab
        while len(self._searches) > self._cache_size:
            _, old = self._searches.popitem(last=False)
            self._vocab.pop(old, None)
            for decoder in (self._fsg, self._open):
                try:
                    if decoder is not None:
                        decoder.remove_search(old)
                except (KeyError, RuntimeError):
                    pass
        return name

    def warm_up(self, context: Any = None, players: Sequence[str] | None = None) -> None:
        """Compile the grammar for this context now rather than on the first utterance (and load the
        second listener's model, about 0.5 s, rather than at the first short answer)."""
        with self._lock:
            players = tuple(players or self._players_of(context))
            self._search_for(self._grammar(players, context), players)
            load = getattr(self.second, "load", None)
            if load is not None:
                try:
                    load()
                except SetupError as error:
                    self.second, self.second_problem = None, str(error)  # PocketSphinx alone

    def _players_of(self, context: Any) -> tuple[str, ...]:
        players = getattr(context, "players", None)
        return tuple(players) if players else self.players

    # -- decoding ----------------------------------------------------------------------------

    def stream(self, context: Any = None, players: Sequence[str] | None = None, live: bool = True) -> "_Stream":
        """Start decoding one utterance as its audio arrives: ``feed(raw)`` then ``finish()``.

        With ``live`` the decoders work as the audio arrives (normalising the signal with a
        running mean), so only ending the search and comparing readings is left for
        ``finish``: the answer comes quickly after the end of speech. Without it the whole
        utterance is decoded at ``finish`` with a per-utterance mean (a little more accurate).
        The first utterance is always decoded whole: the running mean starts from it.
        """
        players = tuple(players) if players else self._players_of(context)
        self._lock.acquire()
        try:
            name = self._search_for(self._grammar(players, context), players)
            # The phone loop runs wherever a game is under way: in a short answer it decides how sure
            # a reading is; elsewhere it decides whether a reading the open decoder does not back
            # is asked about or dropped.
            measure = self._loop is not None and context is not None
            short = _waits_for_an_answer(context)
            # A short answer ("yes", "two", "sixes") is heard whole, normalised with its own cepstral
            # mean, not the running mean of earlier utterances (other voices, other distances): on the
            # real voices in context streamed as the microphone delivers them (speech.py --live) the
            # running mean cost Speech Commands counts 10 points within one repair, and a chatter "zero"
            # was acted on as a count. It costs CPU after the end of speech (the whole decode waits for
            # it), only for these short answers.
            return _Stream(self, name, players, live and self._primed and not (short and measure), measure, short,
                           _takes_yes_no(context), _answers_an_ask(context), _only_count(context),
                           measure and getattr(context, "expects", None) == "rank",
                           _slot_asked(context) if measure and self.second is not None else None,
                           tuple(getattr(context, "choices", None) or ()), _value_asked(context),
                           closed=frozenset(r.symbol for r in getattr(context, "booked", None) or ()),
                           proven=frozenset(r.symbol for r in getattr(context, "proven", None) or ()) if measure else frozenset(),
                           current=getattr(context, "current", None) if measure else None)
        except BaseException:
            self._lock.release()
            raise

    def hear(self, utterance: Utterance, context: Any = None, players: Sequence[str] | None = None) -> Transcript:
        """What was said, as a Transcript (empty text with confidence 0 for no command)."""
        start = time.perf_counter()
        if not has_speech(utterance):
            return Transcript(text="", confidence=0.0, engine=self.name, decode_ms=_ms(start))
        s = self.stream(context, players, live=False)
        s.feed(utterance.raw())
        transcript = s.finish()
        return replace(transcript, engine=self.name, decode_ms=_ms(start))

    def _agreement(self, grammar_text: str, open_texts: list[str], players: Sequence[str]) -> float:
        """How far the open decoder backs the grammar's reading (0 means chatter: reject).

        1 for the same words as its best; 0.9 down to 0.6 for the same intent as one of its n
        best; 0.7 when one of its three best has nearly the same words (a common subsequence
        of at least 3/4 of the longer: noise often adds a word or swaps one); 0.6 when one of
        its n best holds all the grammar's words (two or more) in order plus at most three
        others; else 0.
        """
        if not open_texts:
            return 0.0
        if grammar_text == open_texts[0]:
            return 1.0
        try:
            mine = self._parse(grammar_text, players)
            if mine is None:
                return 0.0
            for rank, text in enumerate(open_texts):
                if text == grammar_text or self._parse(text, players) == mine:
                    return round(0.9 - 0.3 * rank / max(1, len(open_texts) - 1), 3)
        except Exception:  # noqa: BLE001 - a parser failure is a disagreement, not a crash
            return 0.0
        words = grammar_text.split()
        for text in open_texts[:3]:
            other = text.split()
            if _lcs(words, other) >= 0.75 * max(len(words), len(other)) and len(words) >= 2:
                return 0.7
        # The open decoder often pads a right reading with junk words heard in the noise
        # before or after it ("do you got queens cho old up"): accept when one of its n best
        # holds every grammar word in order with at most three extra words (held-out
        # synthesised commands at 20 dB: 24 -> 27 of 40 right and accepted; no held-out
        # chatter accepted).
        if len(words) >= 2:
            for text in open_texts:
                other = text.split()
                if len(other) - len(words) <= 3 and _lcs(words, other) == len(words):
                    return 0.6
        return 0.0

    def _best_holds_slots(self, grammar_text: str, best_texts: Sequence[str], players: Sequence[str]) -> bool:
        """Whether one of the open decoder's best readings (``best_texts``: its best, and its best
        without the background's words) holds every slot value of the grammar's reading: its rank,
        the player it names, its count, said in any words ("ben and got ace" holds Ben and aces).

        The looser backings of ``_agreement`` (the same command lower in the n-best list, most words
        in common, the words padded) back what the two decoders share, not the slot: a pocketsphinx
        n-best list holds 25 readings, and one of them often has the rank the grammar forced. Ana's
        "Ben, jacks?" at 20 dB, read "ben got ace", was backed by the open decoder's second reading
        ("ben and got ace") and acted on as aces; its best reading said no ace. A slot value is what an
        action turns on, so it must be what the open decoder heard best; else the reading is asked
        about ("Ben, aces?"). A reading with no slot ("yes", "go fish") needs nothing more."""
        try:
            from tabletop.language.understand import slot_values_of, slot_values_said

            mine = self._parse(grammar_text, players)
            if mine is None:
                return False
            wanted = _slots_that_matter(mine, slot_values_of(mine), players)
            if not wanted:
                return True
            for text in best_texts:
                if text and (text == grammar_text or self._parse(text, players) == mine
                             or wanted <= slot_values_said(text, players)):
                    return True
        except Exception:  # noqa: BLE001 - a parser failure is an unheard slot, not a crash
            return False
        return False

    def _slots_heard_alike(self, grammar_text: str, best_texts: Sequence[str], players: Sequence[str],
                           nbest: Sequence[str] = ()) -> bool:
        """Whether the open decoder's best readings (its n-best list's first, and its best path without
        the background's words: the two may differ) heard exactly the grammar reading's slot values:
        one of them holds every one (its rank, the player it asks or names, the asker it names, its
        count), said in any words, and neither holds another value of those slots (no other rank, no
        other player, no other count) or is another command.

        The looser backings of ``_agreement`` (most words in common, the words padded with a few
        more) measure the words around the slots: the open decoder, free to hear any word, fills
        the unstressed ones with whatever fits ("ana i got any fours", "ben got any ten that", "ana
        out got any threes"). Those readings were held under the table's acting bar (0.6 and 0.7
        backing, then the rank's confusable neighbour's share), and a right ask was asked back
        ("Ana, fours?") in about one ask in six in the simulated games. What an action turns on is
        its slot values: when the free decoder heard those, and only those, at its best, and most of
        its n-best list (``nbest``, its best when none is given) holds them too, it backs the reading
        as firmly as when its best reading is the same command (0.9). The majority is what tells a
        value heard from a value that won narrowly: en+m6's "Ana, queens?" at 20 dB was read "ana
        threes" by the grammar and "ana three of" by the open decoder's best, but only 5 of its 25
        readings held a three (the others "ana made leave", "ana could leave"...); of the right asks
        the rule backs in the simulated games, 158 of 167 had a majority."""
        try:
            from tabletop.language.understand import slot_values_of, slot_values_said

            mine = self._parse(grammar_text, players)
            if mine is None:
                return False
            wanted = set(_slots_that_matter(mine, slot_values_of(mine), players))
            if not wanted:
                return False
            asker = getattr(mine, "asker", None)
            if asker and not _lone_target(mine, players):
                wanted.add(("target", asker))  # a named asker is heard as a name like any other
            slots = {slot for slot, _ in wanted}
            heard = False
            for text in best_texts:
                if not text:
                    continue
                other = self._parse(text, players)
                said = slot_values_said(text, players)
                if (other is not None and other != mine and not _same_ask_but_players(other, mine, players)) or \
                        any(slot in slots and (slot, value) not in wanted for slot, value in said):
                    return False  # one of its best readings heard another command or another value
                heard = heard or wanted <= said
            readings = [t for t in (nbest or best_texts[:1]) if t]
            held = sum(1 for t in readings if wanted <= slot_values_said(t, players))
            return heard and 2 * held >= len(readings)
        except Exception:  # noqa: BLE001 - a parser failure backs nothing
            return False

    def _ask_of(self, grammar_text: str, players: Sequence[str]) -> bool:
        """Whether the grammar's reading is an ask."""
        return self._type_of(grammar_text, players) == "ask"

    def _query_of(self, grammar_text: str, players: Sequence[str]) -> bool:
        """Whether the grammar's reading is a question to tabletop (whose turn, the score, help...)."""
        return self._type_of(grammar_text, players) == "query"

    def _type_of(self, grammar_text: str, players: Sequence[str]) -> str | None:
        try:
            return getattr(self._parse(grammar_text, players), "type", None)
        except Exception:  # noqa: BLE001 - a parser failure is no command
            return None

    def _confusable_rank_heard(self, grammar_text: str, nbest: Sequence[str], players: Sequence[str],
                               closed: frozenset[str] = frozenset()) -> str | None:
        """The rank confusable with the grammar reading's rank (``confusable_ranks``, ``ranks_heard_alike``)
        that at least ``CONFUSABLE_HEARD_MIN`` of the open decoder's n-best readings hold, else None.

        Two decoders agreeing on a rank prove little between two ranks a recogniser confuses: they hear
        the same sound with the same model. En+m6's "Ana, got any 8s?" at 20 dB was read "ana got any
        aces" by the grammar and "ana got an aces" by the open decoder's best reading without the
        background's words (backed 0.9, confidence 0.845) and acted on as an ask of aces, while 5 of
        the open decoder's 25 readings held an eight (the simulated pairs game, seed 4101). Such a
        reading is asked about ("Ana, aces?"); a rank whose partner no reading holds is left alone.
        Ranks whose words sound close (``ranks_heard_alike``: kings and queens) are checked the same way.
        A book or an ask of fives or nines is checked whatever the readings hold (vocabulary.yaml's ``ranks_checked``).

        A partner in ``closed`` (the ranks all booked: the context's ``booked``) is no rival: nobody
        can ask for it or lay it (the referee refuses both), so the reading cannot stand for it.
        In the kept traces of 14 simulated pairs games (seeds 4103-4107, clean and 20 dB) 15 asks
        and books of fives or nines were read with their partner booked out, all right, 12 of them
        checked for nothing ("Fives?"); every wrong rank these rules caught had its partner in play."""
        try:
            from tabletop.language.understand import slot_values_said
            from tabletop.language.vocabulary import load_vocabulary

            mine = self._parse(grammar_text, players)
            rank = getattr(mine, "rank", None)
            if rank is None:
                return None
            vocab = load_vocabulary()
            partners = tuple(p for p in (*vocab.confused_with(rank), *vocab.heard_alike(rank)) if p.symbol not in closed)
            for partner in partners:
                value = ("rank", partner.symbol)
                if sum(1 for t in nbest if t and value in slot_values_said(t, players)) >= CONFUSABLE_HEARD_MIN:
                    return value[1]
            if getattr(mine, "type", None) in RANKS_CHECKED_IN:
                rivals = [p.symbol for p in vocab.checked_with(rank) if p.symbol not in closed]
                if rivals:
                    return rivals[0]
        except Exception:  # noqa: BLE001 - a parser failure leaves the reading as it was
            return None
        return None

    def _bare_answer(self, grammar_text: str, best_texts: Sequence[str], players: Sequence[str],
                     keeps_count: bool = False, only_count: int | None = None) -> str | None:
        """The bare "yes" or "no" that opens the grammar's reading when the open decoder heard that
        answer and nothing that matters, else None. For the answer to an ask or a yes/no question.

        Both decoders must explain every frame with words, and around a short answer said over the
        table's babble they do it differently: the open decoder pads it with common words ("yes i do i
        i i of", "yes some", "nope the on"), the grammar with the slot values it allows after a yes or
        a no ("no three", "nope five", "yes two"). So a right "yes" lost the open decoder's backing
        (no rule backs a one-word reading) and was asked again, and a right "nope" became a
        correction to tens ("Go fish?") or a count that was never said ("Three?"): the simulated
        games' most common extra utterances at 20 dB. When the open decoder's best reading (or that
        reading without the background's words) opens with the same yes or no and holds no rank, no
        player and no count, and is no other command, that answer is what was said: the open decoder,
        free to hear any value, heard none. A reading whose slot values the open decoder heard
        ("no three" both ways) is left as it is.

        With ``keeps_count`` (the answer to an ask), a count after a yes ("yes, one") is kept, to be
        checked ("One seven?"), not cut to a "yes" that asks "How many?": a lone "one" is a harder
        word to hear than the "yes" that confirms it (the clean simulated games' typed sentences).
        A reading that names a player is never cut: the grammar pads babble with ranks and counts, not
        names, and "no, Ben" cut to "no" at "Cho, sevens?" was acted on as Cho's go fish
        (``understanding.py``).

        With ``only_count`` (the one count the target can give: one card, in the pairs game or from a
        hand of one), a yes with that count ("yes, one") is backed as a whole by the open decoder's yes:
        the count is the game's, and the open decoder, free to hear any word, rarely hears a "one" ("yes
        a minute", "yes why", "yes i do mind"): right answers were asked back ("One ten?"), the
        commonest extra utterance of the simulated pairs games at 20 dB. The whole reading is returned.
        Only after a yes: "i have one" is too near "i have none"."""
        words = grammar_text.split()
        if not words:
            return None
        head = words[0]
        try:
            from tabletop.language.understand import slot_values_of, slot_values_said
            from tabletop.referee.intents import Answer

            said, yes = self._parse(head, players), self._parse("yes", players)
            if said is None or said not in (yes, self._parse("no", players)):
                return None
            whole = self._parse(grammar_text, players) if len(words) > 1 else said
            values = slot_values_of(whole) if len(words) > 1 else frozenset()
            if len(words) > 1 and not values and not (said == yes and not keeps_count and whole in (yes, Answer(None))):
                # More than a yes or no, but no slot value to doubt ("no go fish", a go fish where the
                # "no" alone would deny what was asked). At a yes/no question a "yes" padded with words
                # that mean no more than it does there ("yes i do", "yes please", "yes i have them") is
                # that yes, and is judged as one below: the open decoder pads it otherwise ("yes on",
                # "yes that"), and the right "yes" lost its backing and was asked again ("Sorry? Ana,
                # tens?"), 4 or 5 times a game in the simulated pairs games at 20 dB. (Not the answer to
                # an ask, where "yes i do" is the target's answer and a bare "yes" is checked.)
                return None
            slots = {slot for slot, _ in values}
            if "target" in slots:
                return None  # a player's name is no padding: "no, Ben" corrects the ask, it is no "nope"
            implied = keeps_count and said == yes and only_count is not None and \
                values == {("count", str(only_count))}
            if keeps_count and said == yes and slots == {"count"} and not implied:
                return None
            for text in best_texts:
                heard = text.split()
                if not heard or self._parse(heard[0], players) != said or slot_values_said(text, players):
                    continue
                if self._parse(text, players) in (None, said):
                    return grammar_text if implied else head
        except Exception:  # noqa: BLE001 - a parser failure: the reading as it was
            return None
        return None

    def _slot_said_aloud(self, slot: str, grammar_text: str, spoken: str, players: Sequence[str]) -> bool:
        """Whether the ``slot`` values ("count", "rank") of the grammar's reading are among the words the
        open decoder heard at the speaker's level (``spoken``: its best reading without the words quieter
        than the table's background), or the reading holds no value of that slot.

        A count (of an answer to an ask, "yes, two") moves cards, and a short answer leaves the babble
        after it for both decoders to fill with the values their grammars allow. Ana's "yes, 1" at 20 dB
        was read "yes i have three" by the grammar and "yes i wanted three" by the open decoder: backed
        by their words in common and acted on as three eights, where the loud words were "yes wanted"
        and the "three" lay in the babble 1.5 s later. A count not said aloud is asked about ("Three
        eights?").

        A rank (of a whole sentence, an ask or a book) likewise: en+f3's "Ben asks Ana for fours" at
        20 dB was read "ben asks ana for all of your eight" by the grammar and "ben asks ana for full of
        eights" by the open decoder, whose words at the speaker's level were "ben asks ana for all of":
        backed by the open decoder's readings (the same ask, 4th of its 25) and acted on as an ask of
        eights (the pairs game seed 4104). No reading held a four, so no check of confusable ranks could
        catch it. In the traces of five 20 dB pairs games (seeds 4103 and 4104) this asks about two
        right readings ("book of twos", its loud words "book of do", "hold on do you") and that wrong
        one."""
        try:
            from tabletop.language.understand import slot_values_of, slot_values_said

            values = {v for v in slot_values_of(self._parse(grammar_text, players)) if v[0] == slot}
            return not values or values <= slot_values_said(spoken, players)
        except Exception:  # noqa: BLE001 - a parser failure: the reading as it was
            return True

    def _second_opinion(self, result: Transcript, raw: bytes, slot: str, players: Sequence[str],
                        choices: Sequence[str] = (), asked: str | None = None) -> Transcript:
        """PocketSphinx's reading of a short answer's ``slot`` (a rank at "Ana, which rank?" or in a
        correction at "Tens?", a count at "How many?") against what the second listener (Moonshine,
        :mod:`tabletop.speech.recognisers.moonshine`) heard in the same audio.

        Its words go through the language layer (:func:`slot_value`, :func:`slot_values_said`). It has
        no opinion, and the reading stands, when they are not a bare value (a value alone, maybe after
        "no" or "I said"), name no value of the slot, one the question does not offer (``choices``), or
        the value a yes/no question checks (``asked``: "Tens?" heard "ten" may be its "yes"). When they
        say the reading's value, it confirms it (``trace["second_agrees"]``): an unsure reading is
        lifted to ``SECOND_CONFIRMS``, as sure as when both of PocketSphinx's decoders read the same
        words, its rivals kept as alternatives. When they say another value, that value is what
        tabletop asks about ("Sixes?"), never acts on: its confidence is held under the table's act
        threshold, and PocketSphinx's reading follows as its alternative. PocketSphinx's acoustic
        model cannot hear a real "six" (its forced fits of "six" to FSDD's sixes lose to "ten" by 20
        to 40 per frame); Moonshine, trained on real voices, hears most of them."""
        trace = self.last_trace
        listener = self.second
        if listener is None:
            return result
        from tabletop.language.understand import slot_value

        def hear() -> tuple[str, float]:
            utterance = _utterance_of(raw)
            heard = listener.transcribe(utterance)
            ms = getattr(listener, "last_ms", 0.0)
            after = _heard_after_no(listener, utterance, heard, slot, players)
            if after is not None:
                # "No, six." heard "No.": the words after its pause, heard alone (moonshine.PAUSE_S)
                trace["second_after_pause"] = after
                ms += getattr(listener, "last_ms", 0.0)
                heard = f"no {after}"
            return heard, ms

        got = self._ask_second(hear)
        if got is None:
            return result
        heard, ms = got
        trace["second"] = heard
        trace["first_reading"] = (result.text, result.confidence)  # PocketSphinx's, before the second opinion
        trace["second_ms"] = round(ms, 1)
        # Only a bare value ("Six.", "No, six.", "I said six"), as a short answer is: "5 in." for a real
        # "seven" (the one wrong rank Moonshine named in 146 real rank clips) says more than a rank.
        theirs = _said_of_slot(heard, slot, players) if slot_value(heard, players) else set()
        if len(theirs) != 1 or (choices and not theirs <= set(choices)) or theirs == {asked}:
            return result  # no opinion: nothing heard, other words, or several values
        value = theirs.pop()
        mine = _said_of_slot(result.text, slot, players) if result.text else set()
        if mine == {value}:
            # Two models that share nothing (a grammar over PocketSphinx's acoustic model, a network
            # trained on real speech) heard the same value: the reading is as sure as when both of
            # PocketSphinx's decoders read the same words. Its rivals stay among the alternatives, and
            # the table's own rules (a rank named alone is checked, a correction needs the earlier
            # hearing's backing) still decide.
            # The Transcript says so (``agreed``): the table may act on a correction both models heard.
            trace["second_agrees"] = value
            result = replace(result, agreed=((slot, value),))
            if not 0.0 < result.confidence < SECOND_CONFIRMS:
                return result
            confidence = SECOND_CONFIRMS
            trace["confidence"] = confidence
            alternatives = result.alternatives or (Alternative(result.text, result.confidence),)
            return replace(result, confidence=confidence,
                           alternatives=(Alternative(alternatives[0].text, confidence), *alternatives[1:]))
        said = _value_words(slot, value)
        if said is None:
            return result
        if _takes_yes_no_words(trace):
            said = f"no {said}"  # at "Tens?": "no, six", a correction of the value asked about
        confidence = round(min(max(result.confidence, 0.3), UNSURE_CAP), 3)
        trace.update(second_differs=value, confidence=confidence)
        alternatives = [Alternative(said, confidence)]
        if result.text and result.text != said:
            alternatives.append(Alternative(result.text, round(confidence * 0.6, 3)))
        return Transcript(text=said, confidence=confidence, alternatives=tuple(alternatives),
                          words=((said, confidence),), engine=result.engine, decode_ms=result.decode_ms)

    def _ask_second(self, hear: Callable[[], T]) -> T | None:
        """What ``hear`` gets from the second listener, or None: no opinion when it fails (``trace["second_error"]``),
        and never again this session when it cannot run here (PocketSphinx alone, the problem kept for ``doctor``)."""
        try:
            return hear()
        except SetupError as error:
            self.second, self.second_problem = None, str(error)
        except Exception as error:  # noqa: BLE001 - a second opinion that fails is no opinion
            self.last_trace["second_error"] = repr(error)
        return None

    def _second_on_rank(self, result: Transcript, raw: bytes, players: Sequence[str]) -> Transcript:
        """A whole-sentence ask or book of fives or nines, checked only for its rank (``ranks_checked``:
        no reading of the open decoder holds the partner), against what the second listener (Moonshine)
        heard in the same audio. PocketSphinx hears a five and a nine for one another with no trace of
        the other in either decoder's readings; Moonshine, a network trained on real voices that shares
        nothing with PocketSphinx's acoustic model, does not confuse them: on the real recordings of
        "five" and "nine" (FSDD 100, Speech Commands 20, padded as the speech bench pads them) it named
        the other one in none (90 right, 30 nothing heard).

        When its words name the reading's rank and no other rank, the check is lifted: the reading keeps
        the confidence it had before it (``trace["second_agrees"]``; ``Transcript.agreed``), and the
        table's own rules decide as for any other rank. When they name the partner, or nothing, or
        several ranks, the check stands (``trace["second_differs"]`` for a partner). In the kept traces
        of eight simulated games (seeds 4108-4113, clean and 20 dB, 120 utterances naming fives or
        nines) 62 asks and books were checked so: Moonshine named the read rank alone in 15 of the 58
        right ones and in none of the 4 wrong ones (fives read nines); of all 13 wrong readings of
        fives or nines it named the read rank in none. It costs one Moonshine hearing, only on these
        utterances, of the rank word alone (``trace["second_span"]``: the grammar decoder's segment of
        it, cut by :func:`~tabletop.speech.recognisers.moonshine.word_alone`): in the same traces heard
        again, right checks lifted 11 -> 19 of 56 against the whole sentence, no wrong reading agreed
        with (0 of 22), and Moonshine's CPU time per checked sentence 492 -> 221 ms median
        (``trace["second_ms"]``: wall time)."""
        trace = self.last_trace
        listener = self.second
        if listener is None:
            return result
        rank_read = _said_of_slot(result.text, "rank", players)
        if len(rank_read) != 1:
            return result
        utterance = _utterance_of(raw)
        span = self._word_span(rank_read, players)
        if span is not None:
            # The rank word alone (moonshine.WORD_LEAD_S, WORD_TAIL_S): Moonshine's time is about halved
            # and it names the rank more often than in the whole sentence. Without one word for the rank
            # in the grammar's segmentation, the whole sentence.
            from tabletop.speech.recognisers.moonshine import word_alone

            trace["second_span"] = span
            utterance = word_alone(utterance, *span)
        heard = self._ask_second(lambda: listener.transcribe(utterance))
        if heard is None:
            return result
        trace["second"] = heard
        trace["second_ms"] = round(getattr(listener, "last_ms", 0.0), 1)
        theirs = _said_of_slot(heard, "rank", players)
        if theirs != rank_read:
            if trace.get("rank_checked") in theirs:
                trace["second_differs"] = trace["rank_checked"]
            return result  # the check stands
        rank = rank_read.pop()
        confidence = round(float(trace.get("agreement", 0.0)) * float(trace.get("acoustic", 0.0)), 3)
        trace["second_agrees"] = rank
        trace["first_reading"] = (result.text, result.confidence)  # PocketSphinx's, with the check
        result = replace(result, agreed=(("rank", rank),))
        if confidence <= result.confidence:
            return result
        trace["confidence"] = confidence
        alternatives = result.alternatives or (Alternative(result.text, result.confidence),)
        return replace(result, confidence=confidence,
                       alternatives=(Alternative(alternatives[0].text, confidence),
                                     *(Alternative(a.text, round(confidence * 0.6, 3)) for a in alternatives[1:])))

    def _word_span(self, rank: set[str], players: Sequence[str]) -> tuple[float, float] | None:
        """Where the grammar decoder's best reading of the last utterance says ``rank`` (its one word
        naming that rank and no other): seconds from the utterance's start to the word's start and
        end, or None (no such one word, or no segmentation)."""
        try:
            segs = [s for s in (self._fsg.seg() or ()) if _is_word(s.word)]
        except Exception:  # noqa: BLE001 - no segmentation: no span
            return None
        spans = [(s.start_frame, s.end_frame) for s in segs if _said_of_slot(_clean(s.word), "rank", players) == rank]
        if len(spans) != 1:
            return None
        first, last = spans[0]
        return round(first * FRAME_S, 2), round((last + 1) * FRAME_S, 2)


def _utterance_of(raw: bytes) -> Utterance:
    """The 16-bit samples of a stream's buffer as an :class:`Utterance` (a copy: the buffer is reused)."""
    import numpy as np

    return Utterance(np.frombuffer(raw, dtype=np.int16).copy())


def _said_of_slot(text: str, slot: str, players: Sequence[str]) -> set[str]:
    """The values of ``slot`` that ``text`` says (the language layer's :func:`slot_values_said`)."""
    from tabletop.language.understand import slot_values_said

    return {v for s, v in slot_values_said(text, players) if s == slot}


NO_WORDS = ("no", "nope", "nah")


def _heard_after_no(listener: Any, utterance: Utterance, heard: str, slot: str, players: Sequence[str]) -> str | None:
    """What the second listener hears after the pause in a correction ("No, six.") whose text it
    heard as a no with no value of ``slot`` ("No.", "No, vive."): its ``after_pause`` text, or None
    (another text, no pause, or a listener that cannot cut at a pause)."""
    words = re.findall(r"[a-z]+", heard.lower())
    after_pause = getattr(listener, "after_pause", None)
    if not words or words[0] not in NO_WORDS or after_pause is None or _said_of_slot(heard, slot, players):
        return None
    after = after_pause(utterance)
    return after or None


def _value_words(slot: str, value: str) -> str | None:
    """The words that say a slot value as a short answer does ("sixes", "two"), from the cards and
    numbers the language layer knows; None for a slot no words are made for here."""
    if slot == "rank":
        from tabletop.cards import Rank

        try:
            return Rank.from_symbol(value).plural
        except (KeyError, ValueError):
            return None
    if slot == "count":
        from tabletop.sentences import number

        return number(int(value))
    return None


def _takes_yes_no_words(trace: dict[str, Any]) -> bool:
    return bool(trace.get("yes_no")) and not trace.get("answers_ask")


def _slot_asked(context: Any) -> str | None:
    """The slot a short answer in ``context`` gives, for the second opinion: the rank or count asked
    for ("Ana, which rank?", "How many?"), or the one a yes/no question checks ("Sevens?": "no, six").
    None elsewhere (whole sentences, yes or no alone, a player's name)."""
    if context is None:
        return None
    expects = getattr(context, "expects", None)
    if expects in ("rank", "count"):
        return str(expects)
    if expects == "yes_no":
        confirms = getattr(context, "confirms", None)
        return str(confirms) if confirms in ("rank", "count") else None
    if expects is None and getattr(context, "phase", None) == "count":
        return "count"
    return None


def _value_asked(context: Any) -> str | None:
    """The value of the slot a yes/no question checks ("Tens?" after "Ana, which rank?": "10"), else None."""
    slot = getattr(context, "confirms", None) if getattr(context, "expects", None) == "yes_no" else None
    value = getattr(getattr(context, "partial", None), slot, None) if slot else None
    if value is None:
        return None
    return str(getattr(value, "symbol", value))


def _second_listener(second: Any) -> tuple[Any, str | None]:
    """The second listener a recogniser was given: Moonshine when "auto" and installed, else None
    with the reason."""
    if second != "auto":
        return second, None if second is not None else "off"
    from tabletop.speech.recognisers.moonshine import moonshine_status, shared_listener

    status = moonshine_status()
    return (shared_listener(), None) if status["ok"] else (None, status["problem"])


def _lone_target(intent: Any, players: Sequence[str]) -> bool:
    """Whether ``intent`` is an ask in a game of two players, where the player asked is the one other
    player whatever name was heard: its names are no slot an action turns on."""
    return getattr(intent, "type", None) == "ask" and len(players) == 2


def _slots_that_matter(intent: Any, values: frozenset, players: Sequence[str]) -> frozenset:
    """The slot values of ``intent`` that the open decoder must have heard for the reading to be
    backed: all of them, but an ask's players in a game of two (see :func:`_lone_target`).

    In the simulated pairs games (two players) the open decoder, free to hear any word, often heard
    the rank of a right ask and not its name ("i meant do you have any tens", "quit got any threes
    that back" for "Ben, ..."): the ask was asked back ("Ben, tens?") though only Ben could be asked.
    In the traces of five 20 dB games (seeds 4103 and 4104) 18 right asks were backed so, no wrong one
    (the ranks are held to what the open decoder heard as before)."""
    if not _lone_target(intent, players):
        return values
    return frozenset(v for v in values if v[0] != "target")


def _same_ask_but_players(other: Any, mine: Any, players: Sequence[str]) -> bool:
    """Whether ``other`` is ``mine`` but for the players named, in a game of two (see _lone_target)."""
    if not (_lone_target(mine, players) and getattr(other, "type", None) == "ask"):
        return False
    return getattr(other, "rank", None) == getattr(mine, "rank", None) and \
        getattr(other, "card", None) == getattr(mine, "card", None)


def _lcs(a: list[str], b: list[str]) -> int:
    """Length of the longest common subsequence of two word lists."""
    row = [0] * (len(b) + 1)
    for x in a:
        prev = 0
        for j, y in enumerate(b):
            cur = row[j + 1]
            row[j + 1] = prev + 1 if x == y else max(row[j + 1], row[j])
            prev = cur
    return row[-1]


class _Stream:
    """One utterance being decoded by both decoders; holds the recogniser's lock until finished."""

    def __init__(self, owner: PocketSphinxRecogniser, search: str, players: tuple[str, ...], live: bool,
                 check_fit: bool = False, short_answer: bool = False, yes_no: bool = False,
                 answers_ask: bool = False, only_count: int | None = None, names_a_rank: bool = False,
                 slot: str | None = None, choices: tuple[str, ...] = (), asked: str | None = None,
                 closed: frozenset[str] = frozenset(), proven: frozenset[str] = frozenset(),
                 current: str | None = None) -> None:
        self.owner = owner
        self.closed = closed  # the ranks all booked: no rank's confusable partner (see _confusable_rank_heard)
        self.proven = proven  # the ranks whose book public knowledge proves (see _book_expected)
        self.current = current  # whose turn it is: who lays a book called with no name (see _book_expected)
        self.asked = asked  # the value a yes/no question checks ("Tens?": "10")
        self.slot = slot  # the slot a short answer gives, for the second opinion (see _second_opinion)
        self.choices = choices
        self.only_count = only_count
        self.names_a_rank = names_a_rank  # "Ana, which rank?" (see _other_rank_heard)
        self.yes_no = yes_no
        self.answers_ask = answers_ask
        self.search = search
        self.check_fit = check_fit
        self.short_answer = short_answer and check_fit
        self.live = live
        self.buffer: list[bytes] = []
        self.players = players
        self.finished = False
        self.decoders = [d for d in (owner._fsg, owner._open) if d is not None]
        self.running_means: list[tuple[Any, str]] = []
        for d in self.decoders:
            d.activate_search(search)
        if check_fit:
            self.decoders.append(owner._loop)  # its one search: the phone loop
        if live:
            owner._went_live = True
        elif owner._went_live:
            # PocketSphinx turns the model's batch CMN into live CMN for good at the first utterance
            # fed in blocks (feat_cmn sets fcb->cmn = CMN_LIVE): after it, a whole utterance would be
            # normalised with the running mean too. Rebuilding the feature computation restores the
            # utterance's own mean (the decoders' models, dictionaries and searches are kept). The
            # running mean is put back after it (``finish``): the next utterance streamed starts from
            # the table's voices so far, not from this one short answer.
            for d in (owner._fsg, owner._open, owner._loop):
                if d is not None:
                    self.running_means.append((d, d.get_cmn(False)))
                    d.reinit_feat()
            owner._went_live = False
        for d in self.decoders:
            d.start_utt()

    def feed(self, raw: bytes) -> None:
        self.buffer.append(raw)
        if not self.live:
            return
        for d in self.decoders:
            d.process_raw(raw, False, False)

    def finish(self) -> Transcript:
        start = time.perf_counter()
        cpu = time.process_time()
        try:
            if not self.live:
                raw = b"".join(self.buffer)
                for d in self.decoders:
                    d.process_raw(raw, False, True)
                self.owner._primed = True
            for d in self.decoders:
                d.end_utt()
            result = self._result(start)
            if self.live and not result.text and self.buffer and self.owner._fsg.hyp() is None:
                # Live decoding normalises with a running mean that may not have settled (the
                # first utterances, a new voice): when the grammar search found no path at all,
                # decode the whole utterance again. (Not when the open decoder merely disagreed:
                # that is chatter or noise, and re-decoding it cost ~0.5 s after every one.)
                raw = b"".join(self.buffer)
                for d in self.decoders:
                    d.start_utt()
                    d.process_raw(raw, False, True)
                    d.end_utt()
                result = self._result(start)
            if self.slot is None and self.owner.last_trace.get("rank_checked") and result.text:
                result = self.owner._second_on_rank(result, b"".join(self.buffer), self.players)
            if self.slot is not None:
                result = self.owner._second_opinion(result, b"".join(self.buffer), self.slot, self.players, self.choices,
                                                    self.asked)
            _log_trace(self.owner.last_trace, result, time.process_time() - cpu)
            return result
        finally:
            self._restore_running_means()
            self.finished = True
            self.owner._lock.release()

    def _other_rank_heard(self, text: str, open_texts: Sequence[str]) -> str | None:
        """The open decoder's best reading when it is one rank word of this phase's grammar and
        another rank than the grammar's reading ``text``, else None. For a rank named alone ("Ana,
        which rank?"): that rank is what tabletop checks ("Fours?"), the grammar's reading its first
        alternative.

        The grammar decoder, held to the rank words, leans to short ones ("two" for a real "four",
        "eight" or "three"); the open decoder, free to hear any word, heard a rank, and another one.
        On the real rank words in context (tests/bench/speech.py's recordings, all 479 rank first
        hearings of both halves of the speakers, heard one after another) the open decoder's best was
        one other rank 16 times, all where the grammar's reading was wrong; it was right 6 times (FSDD's
        "seven" read "ten" by the grammar, "seven" by the open decoder; a Speech Commands "six" read
        "eights" and "sixes"). How a clip is heard depends a little on the utterances before it (the
        front end's noise estimate carries over): in the bench's streamed run (--live) one right
        reading was lost this way (FSDD's "eight", the open decoder's best "aces", "eight" second).
        Never acted on: a rank named alone is always checked, and the reading's confidence is held
        under the table's act threshold."""
        owner = self.owner
        if not open_texts or len(open_texts[0].split()) != 1 or open_texts[0] == text:
            return None
        heard = open_texts[0]
        if heard not in owner._vocab.get(self.search, ()):
            return None
        try:
            from tabletop.language.understand import slot_values_said

            def ranks(said: str) -> set[str]:
                return {value for slot, value in slot_values_said(said, self.players) if slot == "rank"}

            theirs = ranks(heard)
            return heard if len(theirs) == 1 and theirs != ranks(text) else None
        except Exception:  # noqa: BLE001 - a parser failure: the grammar's reading stands
            return None

    def _book_expected(self, text: str) -> str | None:
        """"proven" when the grammar's reading ``text``, which the open decoder does not back and whose
        words fit the sound worse than right readings mostly do (between ``FIT_REJECT`` and
        ``FIT_RESCUE``), is still worth keeping: a book of a rank public knowledge proves (tabletop just
        said "Ana, that makes a pair of sevens: lay it down"), called by the player whose turn it is (no
        name, or theirs). None otherwise: dropped.

        The open decoder hears the rank of a book call as anything ("book of sevens" as "book and ana
        and", "ben has a book of nines" as "ben has a book and ana aces"), and espeak-ng's en+f3 and
        en-gb+m4 fit at -27 to -35: in the clean game 4111 of the table bench (games18) 17 right calls of
        the proven book were dropped so, six in a row twice, until typed. The table acts on a capped book
        only when public knowledge proves it for the player it is recorded for (``Table._game_proves``).
        In the traces of 22 simulated games (seeds 4103-4112) 43 dropped readings were kept by this rule,
        all the book said; the one dropped proven book naming the other player ("ana has a book of nines"
        for en-gb+m4's "Ben has a book of nines") stays dropped. A book the game does not prove stays
        dropped: the open decoder's "book and ana aces" after a go fish backs the call, not its rank, and
        in the same traces 3 of 24 such readings were another rank than said ("book of tens" read "book of
        aces", the open decoder "book ana an aces")."""
        try:
            mine = self.owner._parse(text, self.players)
        except Exception:  # noqa: BLE001 - a parser failure is no book
            return None
        if getattr(mine, "type", None) != "book" or self.current is None or mine.rank.symbol not in self.proven:
            return None
        player = getattr(mine, "player", None)
        return "proven" if player is None or player.lower() == self.current.lower() else None

    def cancel(self) -> None:
        if not self.finished:
            self.finished = True
            try:
                for d in self.decoders:
                    d.end_utt()
                self._restore_running_means()
            finally:
                self.owner._lock.release()

    def _restore_running_means(self) -> None:
        for d, mean in self.running_means:
            try:
                d.set_cmn(mean)
            except (RuntimeError, ValueError):
                pass
        self.running_means = []

    def _result(self, start: float) -> Transcript:
        owner = self.owner
        owner.last_fit = None
        trace: dict[str, Any] = {"grammar": "", "open": [], "agreement": None, "fit": None, "dropped": None,
                                 "search": self.search, "short_answer": self.short_answer,
                                 "check_fit": self.check_fit, "yes_no": self.yes_no, "answers_ask": self.answers_ask,
                                 "players": self.players}
        owner.last_trace = trace
        fsg = owner._fsg
        hyp = fsg.hyp()
        text = _clean(hyp.hypstr) if hyp is not None else ""
        trace["grammar"] = text
        if not text:
            trace["dropped"] = "no grammar path"
            return Transcript(text="", confidence=0.0, engine=owner.name, decode_ms=_ms(start))
        segs = [s for s in (fsg.seg() or ()) if _clean(s.word)]
        loudness = _Loudness(b"".join(self.buffer))
        floor = loudness.floor(segs)  # under it: the table's background, not the speaker
        words = [(_clean(s.word), float(s.prob)) for s in segs]
        agreement = 1.0
        slot_unheard = False
        alts: list[str] = []
        open_texts: list[str] = []
        if owner._open is not None:
            # The open decoder's n-best list (instant, unlike the grammar search's own n-best,
            # which takes seconds).
            for i, h in enumerate(owner._open.nbest() or ()):
                if h is None:
                    break
                t = _clean(h.hypstr)
                if t and t not in open_texts:
                    open_texts.append(t)
                if len(open_texts) >= owner.open_nbest or i > 4 * owner.open_nbest:
                    break
            if not open_texts and owner._open.hyp() is not None:
                open_texts = [_clean(owner._open.hyp().hypstr)]
            agreement = owner._agreement(text, open_texts, self.players)
            spoken = ""
            if floor is not None and owner._open.hyp() is not None:
                # The open decoder's best reading without the words it heard in the background
                # ("yes i i i" where someone said "yes" and the table's babble went on) backs the
                # grammar's reading when it is the same words or the same command; never by the
                # looser rules (most words in common), which would leave a slot unbacked. It only
                # ever adds backing. The grammar's reading is left as it is: taking words out of it
                # changes what was said ("no, three" -> "three" where the "no" was quiet).
                heard = _clean(owner._open.hyp().hypstr)
                spoken = _spoken(owner._open, loudness, floor)
                if spoken and spoken != heard:
                    trace["open_spoken"] = spoken
                    try:
                        mine = owner._parse(text, self.players)
                        same = spoken == text or (mine is not None and owner._parse(spoken, self.players) == mine)
                    except Exception:  # noqa: BLE001 - a parser failure backs nothing
                        same = False
                    if same:
                        agreement = max(agreement, 1.0 if spoken == text else 0.9)
            bare = owner._bare_answer(text, [open_texts[0] if open_texts else "", spoken], self.players,
                                      keeps_count=self.answers_ask, only_count=self.only_count) if self.yes_no else None
            if bare is not None and bare == text and len(text.split()) > 1:
                # "yes one" where one card is all the target can give, the open decoder hearing the yes
                # and nothing that matters: the count is the game's, not the babble's (see _bare_answer)
                trace["count_implied"] = True
            elif bare is not None:
                said_alone = _said_alone(loudness, segs, owner._open.seg() or ())
                trace["said_alone"] = said_alone
                if said_alone["others"]:
                    # Words at the speaker's level besides the answer ("no, I said Ben" heard "no i said
                    # may i have"): the speech was more than a bare yes or no (see _said_alone).
                    trace["not_bare"] = said_alone["others"]
                    bare = None
            if bare is not None:
                # A yes or a no the open decoder heard first, padded with words that hold nothing
                # (see _bare_answer): the reading is that yes or no, without the slot words the
                # grammar forced onto the babble after it.
                changed = bare != text
                if changed:
                    trace["bare"] = bare
                    text, words = bare, words[:len(bare.split())]
                agreement = 1.0 if open_texts and bare == open_texts[0] else max(0.0 if changed else agreement, 0.9)
            if 0.0 < agreement < 1.0 and bare is None and not owner._best_holds_slots(text, [open_texts[0], spoken], self.players):
                # Backed, but not in what the open decoder heard best: its slot values (the rank, the
                # player, the count) are not heard surely, so the reading is asked about, never acted
                # on (see _best_holds_slots).
                slot_unheard = True
                trace["slot_unheard"] = True
            if self.answers_ask and bare is None and not slot_unheard and spoken and \
                    not owner._slot_said_aloud("count", text, spoken, self.players):
                # A count the open decoder did not hear at the speaker's level: asked about ("Three
                # eights?"), never acted on (see _slot_said_aloud).
                slot_unheard = True
                trace["count_unheard"] = True
            if 0.0 < agreement <= QUERY_BACKING and not slot_unheard and owner._query_of(text, self.players):
                # A question to tabletop backed only by words in common with the open decoder's readings:
                # asked about ("Help?"), never answered at once (see QUERY_BACKING).
                slot_unheard = True
                trace["query_loose"] = True
            if bare is None and not slot_unheard and not self.short_answer and spoken and agreement < 1.0 and \
                    not owner._slot_said_aloud("rank", text, spoken, self.players):
                # A rank the open decoder heard only in the background: asked about ("Ben asks Ana for
                # eights?"), never acted on (see _slot_said_aloud).
                slot_unheard = True
                trace["rank_unheard"] = True
            trace["open"] = open_texts
            trace["agreement"] = agreement
        fit = None
        if self.check_fit:
            details: list[tuple[str, int, int, float]] = []
            fit = fit_per_frame(fsg, owner._loop, details)
            trace["fit_words"] = details
            if trace.get("bare") and details:
                # Only the words kept count: the slot words dropped were fitted onto the babble.
                kept = details[:len(text.split())]
                frames = sum(d[1] for d in kept)
                fit = sum(d[3] for d in kept) / frames if frames else fit
            trace["loop"] = [(seg.word, seg.start_frame, seg.end_frame) for seg in (owner._loop.seg() or ())]
            trace["segments"] = [(seg.word, seg.start_frame, seg.end_frame) for seg in (fsg.seg() or ())]
        owner.last_fit = fit  # for the benches and tests: how the last reading fit the sound
        trace["fit"] = fit
        loose = 0.0 < agreement or (open_texts and owner._ask_of(text, self.players))
        if loose and agreement < SLOTS_BACKED and not slot_unheard and not self.short_answer and fit is not None \
                and fit >= FIT_SURE and owner._slots_heard_alike(text, [open_texts[0], spoken], self.players, open_texts):
            # A whole sentence (an ask, a book) the open decoder backs loosely (its words around the
            # slots differ) but whose slot values it heard exactly at its best, and whose words fit the
            # sound as right readings do: backed as its best reading being the same command (see
            # _slots_heard_alike). So is an ask the open decoder does not back at all (none of its readings
            # is the same command, or has most of its words), whose rank its best reading and most of its
            # readings hold: the name is what it hears otherwise ("i meant any queens that" for en-us+f1's
            # "Ben, any queens?"), and the ask was asked back though the rank was heard. In the traces of
            # five 20 dB pairs games (seeds 4103, 4104) 24 right asks were backed so and one wrong, asked
            # about still (fives read nines: fives among the open readings, see _confusable_rank_heard).
            # Not a short answer: there both decoders are held to a few values,
            # and their hearing the same count proves little ("yes, 1" read "yes i have three" by the
            # grammar and "yes i wanted three" by the open decoder, in a simulated game at 20 dB).
            trace["slots_backed"] = agreement  # the looser backing it had
            agreement = SLOTS_BACKED
            trace["agreement"] = agreement
        if agreement > 0.0 and not slot_unheard and not self.short_answer:
            partner = owner._confusable_rank_heard(text, open_texts, self.players, self.closed)
            if partner is not None:
                # A rank the recogniser confuses with one the open decoder's n-best list also heard:
                # asked about ("Ana, aces?"), never acted on (see _confusable_rank_heard).
                slot_unheard = True
                trace["confusable_heard"] = partner
                if not any(partner in _said_of_slot(t, "rank", self.players) for t in open_texts):
                    # Checked only for being a five or a nine (``ranks_checked``): the second listener
                    # may lift the check (see PocketSphinxRecogniser._second_on_rank).
                    trace["rank_checked"] = partner
        word_conf = [c for _, c in words] or [0.5]
        acoustic = min(1.0, 0.5 + 0.5 * min(word_conf) ** 0.5)
        trace["acoustic"] = acoustic
        if owner._open is not None and owner.nbest > 1:
            # Other readings worth considering: open hypotheses that are commands too, in
            # the words this phase's grammar listens for (the open decoder knows the whole
            # game's words: "undo" is no alternative to a "two" at "How many?").
            # A bare yes or no said alone (see _bare_answer and _said_alone): the open decoder's longer
            # readings are that answer padded with the babble after it ("no fives", "nope ace" where
            # "nope" was said), no rivals to it. Offered, they split its share: real "nope"s heard
            # as "nope" by both decoders were asked back ("Go fish?") in the simulated games at 20 dB.
            longest = len(text.split()) if bare is not None else None
            allowed = owner._vocab.get(self.search)
            for t in open_texts:
                if (t != text and len(alts) < owner.nbest - 1 and (allowed is None or set(t.split()) <= allowed)
                        and (longest is None or len(t.split()) <= longest)
                        and owner._parse(t, self.players) is not None):
                    alts.append(t)
        trace["alternatives"] = alts
        other_rank = self._other_rank_heard(text, open_texts) if self.names_a_rank else None
        if other_rank is not None:
            # The open decoder heard one other rank word: that rank is checked (see _other_rank_heard).
            alts = [text, *(t for t in alts if t not in (text, other_rank))][:max(0, owner.nbest - 1)]
            confidence = round(min(acoustic, UNSURE_CAP), 3)
            trace.update(other_rank=other_rank, alternatives=alts, confidence=confidence)
            heard = [(_clean(s.word), float(s.prob)) for s in (owner._open.seg() or ()) if _clean(s.word)]
            return Transcript(
                text=other_rank,
                confidence=confidence,
                alternatives=(Alternative(other_rank, confidence),
                              *(Alternative(t, round(confidence * 0.6, 3)) for t in alts)),
                words=tuple(heard),
                engine=owner.name,
                decode_ms=_ms(start),
                heard_open=tuple(open_texts),
            )
        confidence = round(agreement * acoustic, 3)
        if agreement == 0.0:
            # The open decoder does not back the reading. Outside a game, or when the words fit the
            # sound no better than chatter forced into a command does, it is dropped. A reading whose
            # words fit the sound well is kept but never acted on: the table asks ("A book of
            # nines?"), which costs one "yes" rather than the sentence said again and again.
            expected = self._book_expected(text) if fit is not None and FIT_REJECT <= fit < FIT_RESCUE \
                and not self.short_answer else None
            if expected is not None:
                # A book the moment expects, whose words fit the sound at all: kept, capped, never dropped
                # for the open decoder hearing its rank otherwise (see _book_expected).
                trace["book_expected"] = expected
            elif fit is None or fit < FIT_RESCUE:
                trace["dropped"] = "open decoder disagrees"
                return Transcript(text="", confidence=0.0, engine=owner.name, decode_ms=_ms(start))
            confidence = round(min(acoustic, UNSURE_CAP), 3)
            trace["rescued"] = True
        elif fit is not None and self.short_answer:
            if fit < FIT_REJECT:
                trace["dropped"] = "fits the sound too poorly"
                return Transcript(text="", confidence=0.0, engine=owner.name, decode_ms=_ms(start))
            if fit < FIT_SURE:
                confidence = min(confidence, UNSURE_CAP)
                trace["capped"] = True
        if slot_unheard:
            confidence = min(confidence, UNSURE_CAP)
        trace["confidence"] = confidence
        return Transcript(
            text=text,
            confidence=confidence,
            alternatives=(Alternative(text, confidence), *(Alternative(t, round(confidence * 0.6, 3)) for t in alts)),
            words=tuple(words),
            engine=owner.name,
            decode_ms=_ms(start),
            heard_open=tuple(open_texts),  # what the open decoder heard, for the table to weigh
            rescued=bool(trace.get("rescued")),
        )


class _Loudness:
    """Loudness (dB) of decoder frames (10 ms at 16 kHz) of one utterance's audio."""

    HOP = 160

    def __init__(self, raw: bytes) -> None:
        import numpy as np

        self.samples = np.frombuffer(raw, dtype=np.int16).astype(np.float64)

    def __call__(self, first: int, last: int) -> float:
        x = self.samples[first * self.HOP:(last + 1) * self.HOP]
        return _decibels(float((x * x).mean())) if len(x) else -1e9

    def loudest(self, first: int, last: int, frames: int) -> float:
        """Loudness (dB) of the loudest ``frames`` whole frames from ``first`` to ``last`` (a vowel's
        level, where a decoder stretched a short word over the babble after it); the whole span's
        loudness where it holds no whole frame."""
        import numpy as np

        powers = self.powers(first, last)
        if not len(powers):
            return self(first, last)
        return _decibels(float(np.sort(powers)[-frames:].mean()))

    def powers(self, first: int, last: int) -> Any:
        """Mean power of each whole frame from ``first`` to ``last`` (none where the audio ends first)."""
        import numpy as np

        end = min(last + 1, len(self.samples) // self.HOP)
        if end <= first:
            return np.zeros(0)
        x = self.samples[first * self.HOP:end * self.HOP].reshape(end - first, self.HOP)
        return (x * x).mean(axis=1)

    def floor(self, segs: Sequence[Any]) -> float | None:
        """``BACKGROUND_DB`` under the median loudness of these words (a decoder's segments): what
        is quieter is not the speaker. None without words or audio.

        Both decoders must explain every frame with words, so around a short answer they often fill
        the babble before or after it with short words ("yes i i i for", "yes three"), and a right
        "yes" lost the decoders' agreement or gained a count. The speaker's own words are at the
        speaker's level; at 20 dB of babble those extra words lie 18 to 20 dB under the speech."""
        if not len(self.samples):
            return None
        levels = sorted(self(s.start_frame, s.end_frame) for s in segs if _is_word(s.word))
        return levels[len(levels) // 2] - BACKGROUND_DB if levels else None


def _decibels(power: float) -> float:
    """Mean power of 16-bit samples in dB (1 added: silence is 0 dB)."""
    return 10.0 * math.log10(power + 1.0)


def _said_alone(loudness: _Loudness, grammar_segs: Sequence[Any], open_segs: Sequence[Any]) -> dict[str, Any]:
    """Whether the first word of the grammar's reading was all the speaker said: the words either
    decoder heard besides it (the grammar's words after it, the open decoder's words where they lie
    beyond its segment) that lie at the speaker's level, within ``BACKGROUND_DB`` of that word's
    loudest 100 ms, as ``others`` (none: the rest is the table's background).

    A bare yes or no must explain the speech. Padding is what the decoders make of the babble after a
    short answer, and at 20 dB it lies 18 to 20 dB under the answer; a speaker's own words lie within
    about 10 dB of each other. "No, I said Ben" at 10 dB was read "no i said any of your three" and
    "no i said may i have", and "go back" "no i meant a five" and "nope that have": both decoders
    heard more speech than a "no", and cut to "no" it was acted on (``understanding.py``)."""
    g = [s for s in grammar_segs if _is_word(s.word)]
    o = [s for s in open_segs if _is_word(s.word)]
    out: dict[str, Any] = {"others": []}
    if not g or not len(loudness.samples):
        return out
    head = g[0]
    # The speaker's level: the answer's loudest 100 ms (its vowel). The word's whole segment is no
    # measure: a decoder stretches a short answer over the babble after it.
    level = loudness.loudest(head.start_frame, head.end_frame, SPEAKER_FRAMES)
    out["level"] = round(level, 1)
    if len(g) > 1 and _clean(head.word) in DRAWN_OUT_HEADS and _clean(g[1].word) in DRAWN_OUT_FILLERS and \
            _drawn_out(loudness, head, g[1], level):
        # The "no"'s drawn-out vowel, read as a filler word (see DRAWN_GAP_FRAMES): part of the answer.
        # The words after it still count: "no, an eights" said in one breath keeps its "eights".
        out["drawn_out"] = _clean(g[1].word)
        head = _Span(head.start_frame, g[1].end_frame)
        g = [head] + g[2:]

    # The grammar's words after the answer, and the open decoder's words where they lie beyond the
    # answer's segment (it may split one word in two: "nope" heard "nah two").
    rest = [("g", s.word, s.start_frame, s.end_frame) for s in g[1:]]
    for s in o:
        beyond = [(a, b) for a, b in ((s.start_frame, min(s.end_frame, head.start_frame - 1)),
                                      (max(s.start_frame, head.end_frame + 1), s.end_frame)) if b >= a]
        if beyond and sum(b - a + 1 for a, b in beyond) * 2 > s.end_frame - s.start_frame + 1:
            a, b = max(beyond, key=lambda ab: ab[1] - ab[0])
            rest.append(("o", s.word, a, b))
    out["rest"] = [(k, _clean(w), a, b, round(loudness(a, b) - level, 1)) for k, w, a, b in rest]
    out["others"] = [f"{k}:{_clean(w)}" for k, w, a, b in rest if loudness(a, b) >= level - BACKGROUND_DB]
    return out


class _Span:
    """A stretch of frames standing for a decoder's segment (its word is no word of its own)."""

    word = "<span>"

    def __init__(self, start_frame: int, end_frame: int) -> None:
        self.start_frame, self.end_frame = start_frame, end_frame


def _drawn_out(loudness: _Loudness, head: Any, filler: Any, level: float) -> bool:
    """Whether the speech runs on unbroken from the answer's loudest frame to the filler's loudest
    frame after it: no ``DRAWN_GAP_FRAMES`` frames in a row between them are ``BACKGROUND_DB`` under
    ``level`` (the speaker's), as a pause before another word would be (see DRAWN_GAP_FRAMES)."""
    import numpy as np

    db = 10.0 * np.log10(loudness.powers(head.start_frame, filler.end_frame) + 1.0)
    split = filler.start_frame - head.start_frame
    if not len(db) or split >= len(db):
        return False
    first = int(np.argmax(db[:split])) if split > 0 else 0
    last = split + int(np.argmax(db[split:]))
    return longest_run(db[first:last + 1] < level - BACKGROUND_DB) < DRAWN_GAP_FRAMES


def _spoken(decoder: Any, loudness: _Loudness, floor: float) -> str:
    """A decoder's best reading without its words quieter than ``floor``."""
    return _clean(" ".join(s.word for s in (decoder.seg() or ())
                           if _is_word(s.word) and loudness(s.start_frame, s.end_frame) >= floor))


def _log_trace(trace: dict[str, Any], result: Transcript, cpu: float) -> None:
    """For the benches: with TABLETOP_SPEECH_TRACE set to a file, append how each utterance was
    judged (``last_trace``, the text and confidence returned, the CPU seconds of ``finish``) as
    one JSON line. Off by default: nothing is written in a game."""
    path = os.environ.get("TABLETOP_SPEECH_TRACE")
    if not path:
        return
    import json

    line = {k: v for k, v in trace.items() if k not in ("loop", "segments")}
    line.update(text=result.text, confidence=result.confidence, cpu=round(cpu, 3))
    try:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(line, default=str) + "\n")
    except OSError:
        pass


def _keep_grammar(name: str, jsgf_text: str) -> None:
    """With TABLETOP_SPEECH_TRACE set, keep each grammar beside the trace (``TRACE.grammars/NAME.jsgf``)
    so that a bench's utterances can be decoded again as they were heard."""
    path = os.environ.get("TABLETOP_SPEECH_TRACE")
    if not path:
        return
    try:
        folder = path + ".grammars"
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"{name}.jsgf"), "w", encoding="utf-8") as f:
            f.write(jsgf_text)
    except OSError:
        pass


def _waits_for_an_answer(context: Any) -> bool:
    """Whether the table waits for a short answer (to an ask, "How many?", a yes/no question, a
    missing slot): there the grammar is narrow, so both decoders agreeing proves little, and the
    phone loop decides. Elsewhere a reading must agree with the open decoder word for word over a
    whole sentence, and synthesised voices' right readings of one-word commands fit the loop
    poorly ("help" at -33 clean): the check would cost more there than it catches."""
    if context is None:
        return False
    if 0 < len(getattr(context, "choices", None) or ()) <= 2:
        return False  # the answer to "Sixes or sevens?" after two misses: judged as before
    return getattr(context, "phase", None) in ("answer", "count", "confirm") or getattr(context, "expects", None) is not None


def _takes_yes_no(context: Any) -> bool:
    """Whether a bare yes or no answers what the table waits for: an ask (its target's "yes" or
    "nope") or a yes/no question. Not "How many?", where a bare "no" is no count."""
    if context is None:
        return False
    expects = getattr(context, "expects", None)
    if expects is not None:
        return expects == "yes_no"
    return getattr(context, "phase", None) in ("answer", "confirm")


def _only_count(context: Any) -> int | None:
    """The one count the target of the ask can give (``Context.most_given`` of one), else None."""
    return 1 if _answers_an_ask(context) and getattr(context, "most_given", None) == 1 else None


def _answers_an_ask(context: Any) -> bool:
    """Whether what is said answers an ask ("Ben, sevens?": "yes, two", "nope"), not a yes/no question."""
    return context is not None and getattr(context, "expects", None) is None and getattr(context, "phase", None) == "answer"


def _is_word(name: str) -> bool:
    return bool(name) and name.lower() not in _FILLERS and not name.startswith(("[", "+", "<", "("))


def fit_per_frame(grammar: Any, loop: Any, details: list | None = None) -> float | None:
    """How well the grammar decoder's words fit the sound against the phone loop's best phones over
    the same frames: the mean per frame of (words' acoustic score - loop's acoustic score), in the
    decoders' log units (0 or above: the words fit as well as any phone string; very negative: the
    sound is something else). None when either search has no result.

    Both decoders score every senone each frame (``compallsen``), so their acoustic scores share
    one normaliser and can be compared. Loop phones that straddle a word's edge count pro rata."""
    logmath = grammar.logmath
    config = grammar.config
    # The grammar search books its insertion penalties into the words' acoustic scores: per phone
    # (pip) and per word (wip), each times the language weight, in units scaled down by 2^10.
    # Taken back out, the words' scores are acoustics alone, like the loop's.
    lw = float(config["lw"])
    per_phone = logmath.log(float(config["pip"])) * lw / 1024.0
    per_word = logmath.log(float(config["wip"])) * lw / 1024.0

    def phones_in(word: str) -> int:
        try:
            return len((grammar.lookup_word(word) or "x").split())
        except (KeyError, RuntimeError, ValueError):
            return 1

    words = [(s.word, s.start_frame, s.end_frame, s.ascore, phones_in(s.word))
             for s in (grammar.seg() or ()) if _is_word(s.word)]
    if not words or loop.hyp() is None:
        return None
    phones = [(s.start_frame, s.end_frame, s.ascore) for s in (loop.seg() or ())]
    if not phones:
        return None

    def log(p: float) -> float:
        return float(logmath.log(p)) if p > 0 else -1e9

    frames = 0
    total = 0.0
    for name, a, b, score, n_phones in words:
        frames += b - a + 1
        own = log(score) - n_phones * per_phone - per_word
        for pa, pb, pscore in phones:
            lo, hi = max(a, pa), min(b, pb)
            if hi >= lo:
                own -= log(pscore) * (hi - lo + 1) / (pb - pa + 1)
        total += own
        if details is not None:
            details.append((_clean(name), b - a + 1, n_phones, own))
    return total / frames if frames else None


def _clean(word: str) -> str:
    words = [w.split("(")[0] for w in word.split() if w.lower() not in _FILLERS and not w.startswith("[")]
    words = [w for w in words if w not in _FILLERS]
    return " ".join(words)


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000.0, 1)
