"""Grammars compiled from the templates: well formed, loadable by PocketSphinx, and round-trip to the parser."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop.cards import Rank
from tabletop.language.context import Context
from tabletop.language.grammar import grammar_bigrams, jsgf, sample_sentences, vosk_phrases, words
from tabletop.language.parser import parse_candidates
from tabletop.referee.intents import Ask

PLAYERS = ("Ana", "Ben", "Cho")


# ---------------------------------------------------------------------------------------------
# A small JSGF reader and random expander, independent of grammar.py: it checks the text itself.

_TOKEN = re.compile(r"\s*(<[^<>]+>|[()\[\]|*+]|[^\s()\[\]|*+<>;]+)")


def read_jsgf(text: str) -> tuple[str, dict[str, str]]:
    assert text.startswith("#JSGF V1.0;")
    header = re.search(r"^grammar\s+(\w+);", text, re.M)
    assert header, "no grammar name"
    body = text[header.end():]
    rules: dict[str, str] = {}
    public = None
    for stmt in body.split(";"):
        stmt = stmt.strip()
        if not stmt:
            continue
        m = re.fullmatch(r"(public\s+)?<(\w+)>\s*=\s*(.+)", stmt, re.S)
        assert m, f"bad rule: {stmt[:80]!r}"
        assert m.group(2) not in rules, f"rule <{m.group(2)}> defined twice"
        rules[m.group(2)] = m.group(3)
        if m.group(1):
            public = m.group(2)
    assert public == "command"
    return public, rules


def _tokens(body: str) -> list[str]:
    out, pos = [], 0
    while pos < len(body):
        m = _TOKEN.match(body, pos)
        if not m or not m.group(1):
            if body[pos:].strip() == "":
                break
            raise AssertionError(f"bad token at {body[pos:pos + 20]!r}")
        out.append(m.group(1))
        pos = m.end()
    return out


def _parse_alt(toks: list[str], i: int):  # -> (node, i)
    options = []
    seq, i = _parse_seq(toks, i)
    options.append(seq)
    while i < len(toks) and toks[i] == "|":
        seq, i = _parse_seq(toks, i + 1)
        options.append(seq)
    return ("alt", options), i


def _parse_seq(toks: list[str], i: int):
    items = []
    while i < len(toks) and toks[i] not in ("|", ")", "]"):
        t = toks[i]
        if t in ("(", "["):
            node, i = _parse_alt(toks, i + 1)
            assert toks[i] == (")" if t == "(" else "]"), "unbalanced"
            i += 1
            if t == "[":
                node = ("opt", node)
        elif t.startswith("<"):
            node, i = ("ref", t[1:-1]), i + 1
        else:
            assert re.fullmatch(r"[a-z0-9']+", t), f"word not lowercase: {t!r}"
            node, i = ("word", t), i + 1
        if i < len(toks) and toks[i] in ("*", "+"):
            node = ("star" if toks[i] == "*" else "plus", node)
            i += 1
        items.append(node)
    return ("seq", items), i


def expand(rules: dict[str, object], node, rng: random.Random, out: list[str]) -> bool:
    kind = node[0]
    if kind == "word":
        out.append(node[1])
    elif kind == "seq":
        return all(expand(rules, n, rng, out) for n in node[1])
    elif kind == "alt":
        return expand(rules, rng.choice(node[1]), rng, out)
    elif kind == "opt":
        if rng.random() < 0.5:
            return expand(rules, node[1], rng, out)
    elif kind in ("star", "plus"):
        for _ in range(rng.randint(1 if kind == "plus" else 0, 2)):
            if not expand(rules, node[1], rng, out):
                return False
    elif kind == "ref":
        if node[1] == "NULL":
            return True
        if node[1] == "VOID":
            return False
        assert node[1] in rules, f"undefined rule <{node[1]}>"
        return expand(rules, rules[node[1]], rng, out)
    return True


def compile_jsgf(text: str) -> dict[str, object]:
    _, raw = read_jsgf(text)
    rules = {}
    for name, body in raw.items():
        toks = _tokens(body)
        node, i = _parse_alt(toks, 0)
        assert i == len(toks), f"trailing tokens in <{name}>"
        rules[name] = node
    return rules


def jsgf_sentences(text: str, n: int, seed: int) -> list[str]:
    rules = compile_jsgf(text)
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        words_: list[str] = []
        if expand(rules, rules["command"], rng, words_) and words_:
            out.append(" ".join(words_))
    return out


# ---------------------------------------------------------------------------------------------


def test_jsgf_is_well_formed_and_every_reference_is_defined() -> None:
    text = jsgf(PLAYERS)
    rules = compile_jsgf(text)
    refs = set(re.findall(r"<(\w+)>", text)) - {"NULL", "VOID"}
    assert refs <= set(rules)
    assert "ana" in text and "cho" in text
    body = text.split("\n", 1)[1].replace("NULL", "").replace("VOID", "")
    assert body == body.lower()


def test_jsgf_is_compact() -> None:
    """Rule references, not a full expansion."""
    assert len(jsgf(PLAYERS)) < 12_000
    assert len(jsgf(PLAYERS + ("Dee", "Eli", "Fay"))) < 12_500


@pytest.mark.parametrize("seed", range(3))
def test_every_jsgf_sentence_parses_back(seed: int) -> None:
    for sentence in jsgf_sentences(jsgf(PLAYERS), 400, seed):
        assert parse_candidates(sentence, PLAYERS), sentence


def test_jsgf_with_fillers_parses_back() -> None:
    text = jsgf(PLAYERS, fillers=True)
    assert "[um | uh" in text
    for sentence in jsgf_sentences(text, 300, 9):
        assert parse_candidates(sentence, PLAYERS), sentence


def test_every_sampled_sentence_parses_back_to_its_intent() -> None:
    samples = sample_sentences(PLAYERS, 1500, seed=3)
    assert len(samples) == 1500
    for sentence, intent in samples:
        readings = [p.intent for p in parse_candidates(sentence, PLAYERS)]
        assert intent in readings, (sentence, intent, readings[:3])


def test_unambiguous_samples_parse_back_first() -> None:
    for sentence, intent in sample_sentences(PLAYERS, 500, seed=4, unambiguous=True):
        assert parse_candidates(sentence, PLAYERS)[0].intent == intent


def test_samples_are_deterministic_and_cover_every_intent_type() -> None:
    a = sample_sentences(PLAYERS, 300, seed=5)
    assert a == sample_sentences(PLAYERS, 300, seed=5)
    assert {i.type for _, i in a} == {
        "ask", "answer", "go_fish", "lucky", "book", "out_of_cards", "hand_count", "query", "undo",
        "correct", "yes", "no", "control",
    }


def test_vosk_phrases_are_json_with_unk_and_cover_every_word_pair() -> None:
    phrases = vosk_phrases(PLAYERS)
    assert json.loads(json.dumps(phrases)) == phrases
    assert phrases[-1] == "[unk]"
    assert len(phrases) == len(set(phrases))
    assert len(phrases) < 4000
    covered = set()
    for phrase in phrases[:-1]:
        seq = ["<s>", *phrase.split(), "</s>"]
        covered |= set(zip(seq, seq[1:]))
        assert parse_candidates(phrase, PLAYERS), phrase
    assert grammar_bigrams(PLAYERS) <= covered


def test_vosk_phrases_are_deterministic() -> None:
    assert vosk_phrases(PLAYERS) == vosk_phrases(PLAYERS)


def test_words_cover_both_grammars_and_the_names() -> None:
    vocab = words(["Ana", "Priya", "Mary Ann"])
    assert {"priya", "mary", "ann", "ana", "sevens", "fish"} <= vocab
    text = jsgf(["Ana", "Priya", "Mary Ann"])
    emitted = set(re.findall(r"[a-z0-9']+", re.sub(r"<\w+>", " ", text.split("grammar", 1)[1]))) - {"tabletop", "public"}
    assert emitted <= vocab
    for phrase in vosk_phrases(["Ana", "Priya", "Mary Ann"])[:-1]:
        assert set(phrase.split()) <= vocab


# ---- with a context ----------------------------------------------------------------------------


def test_a_context_grammar_drops_unlikely_intents_and_restricts_asks() -> None:
    ctx = Context(players=PLAYERS, current="Ana", phase="ask", askable=frozenset({"Ben"}),
                  booked=frozenset({Rank.SEVEN}))
    text = jsgf(PLAYERS, ctx)
    assert "<i_ask>" in text and "<i_lucky>" not in text
    rules = compile_jsgf(text)
    for sentence in jsgf_sentences(text, 300, 1):
        readings = [p.intent for p in parse_candidates(sentence, PLAYERS)]
        assert readings, sentence
    for sentence, intent in sample_sentences(PLAYERS, 400, seed=2, context=ctx):
        if isinstance(intent, Ask):
            assert intent.target == "Ben" and intent.rank is not Rank.SEVEN
    assert rules


@pytest.mark.parametrize("phase", ["answer", "count", "confirm"])
def test_an_answer_names_only_the_rank_asked_for(phase: str) -> None:
    # "yes, two sevens" answers an ask for sevens; listening for "yes one eight" as well let the
    # recogniser add a rank to a plain "yes one" (tabletop demo's Ben, heard as "yes one eight")
    ctx = Context(players=PLAYERS, current="Ana", phase=phase, asker="Ana", target="Ben", rank=Rank.SEVEN)
    rank_words = {"ace", "aces", "two", "twos", "three", "threes", "four", "fours", "five", "fives", "six",
                  "sixes", "seven", "sevens", "eight", "eights", "nine", "nines", "ten", "tens", "jack", "jacks",
                  "queen", "queens", "king", "kings"}
    counts = {"one", "two", "three", "four", "a", "an"}  # "yes, four" is heard, to be told it is a book
    answered = 0
    for sentence, intent in sample_sentences(PLAYERS, 400, seed=3, context=ctx):
        if intent.to_json()["type"] in ("answer", "go_fish"):
            named = {w for w in sentence.split() if w in rank_words} - counts
            assert named <= {"seven", "sevens"}, sentence
            answered += bool(named)
    assert answered > 0  # some answers do name the rank
    text = jsgf(PLAYERS, ctx)
    assert "<rank_asked> = seven | sevens;" in text
    assert any("eights" in phrase for phrase in vosk_phrases(PLAYERS, ctx))  # an ask or a book may still name any rank
    ask_phase = jsgf(PLAYERS, Context(players=PLAYERS, current="Ana", phase="ask", rank=Rank.SEVEN))
    assert "<rank_asked>" not in ask_phase


def test_card_asks_are_in_a_context_grammar_only_under_specific_card() -> None:
    plain = jsgf(PLAYERS, Context(players=PLAYERS, current="Ana", phase="ask"))
    cards = jsgf(PLAYERS, Context(players=PLAYERS, current="Ana", phase="ask", asking="specific-card"))
    assert "<suit>" not in plain and "<suit>" in cards
    assert "<suit>" in jsgf(PLAYERS)


def test_setup_grammar_without_players_is_valid() -> None:
    text = jsgf([], Context(phase="setup"))
    compile_jsgf(text)
    assert "<i_control>" in text
    assert "[unk]" in vosk_phrases([], Context(phase="setup"))


# ---- PocketSphinx ------------------------------------------------------------------------------


def _decoder(tmp_path: Path, text: str):
    pocketsphinx = pytest.importorskip("pocketsphinx")
    path = tmp_path / "g.jsgf"
    path.write_text(text)
    return pocketsphinx.Decoder(lm=None, jsgf=str(path), loglevel="FATAL")


def test_pocketsphinx_loads_the_whole_grammar(tmp_path: Path) -> None:
    decoder = _decoder(tmp_path, jsgf(PLAYERS))
    missing = sorted(w for w in words(PLAYERS) if decoder.lookup_word(w) is None)
    assert missing == []


def test_pocketsphinx_loads_context_grammars(tmp_path: Path) -> None:
    decoder = _decoder(tmp_path, jsgf(PLAYERS))
    for phase in ("setup", "ask", "answer", "count", "after_hit", "after_miss", "confirm", "over"):
        ctx = Context(players=PLAYERS, current="Ana", phase=phase)
        decoder.add_jsgf_string(phase, jsgf(PLAYERS, ctx))


def test_names_missing_from_the_dictionary_are_in_words(tmp_path: Path) -> None:
    decoder = _decoder(tmp_path, jsgf(PLAYERS))
    missing = [w for w in words(["Ana", "Priya"]) if decoder.lookup_word(w) is None]
    assert missing == ["priya"]
    decoder.add_word("priya", "P R IY Y AH", True)
    decoder.add_jsgf_string("priya", jsgf(["Ana", "Priya"]))


_DECODE = """
import json, subprocess, sys, wave
import numpy as np
from pocketsphinx import Decoder
grammar, folder, sentences = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
# bestpath=False: with it on, hyp() spends 5-10 s building a lattice over this grammar
decoder = Decoder(lm=None, jsgf=grammar, loglevel="FATAL", bestpath=False)
rng = np.random.default_rng(0)
out = []
for i, sentence in enumerate(sentences):
    wav = f"{folder}/{i}.wav"
    subprocess.run(["espeak-ng", "-v", "en-us", "-w", wav, sentence], check=True, capture_output=True)
    with wave.open(wav) as w:
        rate = w.getframerate()
        audio = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16).astype(np.float64)
    # 16 kHz (linear resampling) with a faint noise floor, as real microphones have
    n16 = int(len(audio) * 16000 / rate)
    audio = np.interp(np.linspace(0, len(audio) - 1, n16), np.arange(len(audio)), audio)
    audio = np.concatenate([np.zeros(4000), audio, np.zeros(4000)]) + rng.normal(0, 30, n16 + 8000)
    decoder.start_utt()
    decoder.process_raw(np.clip(audio, -32768, 32767).astype(np.int16).tobytes(), full_utt=True)
    decoder.end_utt()
    hyp = decoder.hyp()
    out.append(hyp.hypstr if hyp is not None else "")
print(json.dumps(out))
"""


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="needs espeak-ng")
def test_pocketsphinx_hears_synthesized_commands_through_the_grammar(tmp_path: Path) -> None:
    """End to end on the grammar only: espeak-ng speech, a faint noise floor, JSGF decode, parse.

    Decoded in a child process, so the test process never loads audio libraries.
    """
    pytest.importorskip("numpy")
    pytest.importorskip("pocketsphinx")
    grammar = tmp_path / "g.jsgf"
    grammar.write_text(jsgf(PLAYERS))
    sentences = ["ben do you have any sevens", "go fish", "what's the score", "ana has a book of kings",
                 "yes two", "lucky fish"]
    result = subprocess.run([sys.executable, "-c", _DECODE, str(grammar), str(tmp_path), json.dumps(sentences)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    heard = json.loads(result.stdout.strip().splitlines()[-1])
    right = 0
    for sentence, text in zip(sentences, heard):
        expected = parse_candidates(sentence, PLAYERS)[0].intent
        got = parse_candidates(text, PLAYERS)
        right += bool(got) and got[0].intent == expected
    assert right >= len(sentences) - 1, f"only {right} of {len(sentences)}: {heard}"


def test_the_language_layer_imports_no_audio_speech_or_vision(tmp_path: Path) -> None:
    code = (
        "import sys, tabletop.language, tabletop.language.understand, tabletop.language.grammar\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('pocketsphinx', 'vosk', 'sounddevice', 'pyttsx3', 'cv2')"
        " or m.startswith(('tabletop.speech', 'tabletop.vision', 'tabletop.table'))]\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(__file__).parents[2])
    assert result.returncode == 0, result.stdout + result.stderr
