"""The JSGF reader, the n-gram builder and automatic pronunciations, against the real grammar."""

from __future__ import annotations

import pytest

from tabletop.language import Context, jsgf, parse, words
from tabletop.speech import jsgf as jsgf_reader
from tabletop.speech import ngram
from tabletop.speech.pronounce import PHONES, cmudict, guess, ipa_to_arpabet, letters_to_arpabet, pronunciations

PLAYERS = ("Ana", "Ben", "Cho")


def test_reader_sees_every_word_the_language_layer_emits() -> None:
    text = jsgf(PLAYERS)
    assert jsgf_reader.vocabulary(text) <= words(PLAYERS) | {"and"}
    ctx = Context(players=PLAYERS, current="Ana", phase="answer", asker="Ana", target="Ben")
    assert jsgf_reader.vocabulary(jsgf(PLAYERS, ctx)) <= words(PLAYERS, ctx) | {"and"}


def test_sampled_sentences_are_commands() -> None:
    sentences = jsgf_reader.sample(jsgf(PLAYERS), 200, seed=3)
    assert len(sentences) == 200
    parsed = [parse(s, PLAYERS) for s in sentences]
    assert sum(p is not None for p in parsed) >= 190  # the grammar and the parser agree


def test_arpa_model_loads_in_pocketsphinx(tmp_path) -> None:
    import os

    from pocketsphinx import Decoder, NGramModel, get_model_path

    sentences = jsgf_reader.sample(jsgf(PLAYERS), 300, seed=1)
    vocab = jsgf_reader.vocabulary(jsgf(PLAYERS)) | set(ngram.COMMON_WORDS)
    (tmp_path / "lm.arpa").write_text(ngram.arpa(sentences, extra_words=vocab))
    (tmp_path / "d.dict").write_text(
        "".join(f"{w} {p[0]}\n" for w, p in sorted(pronunciations(vocab).items()))
    )
    d = Decoder(hmm=os.path.join(get_model_path(), "en-us", "en-us"), dict=str(tmp_path / "d.dict"), lm=None, loglevel="FATAL")
    d.add_lm("open", NGramModel(d.config, d.logmath, str(tmp_path / "lm.arpa")))
    d.activate_search("open")


@pytest.mark.parametrize("name", ["priya", "aoife", "yusuf", "xiomara", "siobhan", "nguyen"])
def test_names_get_automatic_pronunciations(name: str) -> None:
    phones = pronunciations([name])[name][0].split()
    assert phones and all(p in PHONES for p in phones)


def test_pronunciation_sources() -> None:
    assert "cho" in cmudict() and "seven" in cmudict()
    assert ipa_to_arpabet("t͡ʃ_ˈoʊ".replace("\u0361", "")) == "CH OW"
    assert guess("priya").startswith("P R")
    assert all(p in PHONES for p in letters_to_arpabet("xiomara").split())


def test_jsgf_reader_rejects_nonsense() -> None:
    from tabletop.errors import InvalidInputError

    with pytest.raises(InvalidInputError):
        jsgf_reader.parse("#JSGF V1.0; grammar g; <a> = b;")  # no public rule
    with pytest.raises(InvalidInputError):
        jsgf_reader.sample("#JSGF V1.0; grammar g; public <a> = <missing>;", 1)
