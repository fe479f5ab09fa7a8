"""Real synthesised speech through the real PocketSphinx recogniser and the language layer.

Voices and speeds vary, every clip has a microphone's noise floor (digital silence is not what a
table sounds like), and the intents are read by the language layer, as in the game.
"""

from __future__ import annotations

import pytest

from tabletop.language import Context
from tabletop.speech import synth
from tabletop.speech.audio import Utterance

try:
    from tabletop.language.understand import understand
except ImportError:  # pragma: no cover - the language layer's understand is written in parallel
    understand = None


def intent_of(transcript, players, context=None):
    if not transcript.text:
        return None
    if understand is not None:
        result = understand(transcript, context or Context.whole(players))
        intent = getattr(result, "intent", result)
    else:
        from tabletop.language import parse

        intent = parse(transcript.text, players)
    return intent.to_json() if intent is not None else None


COMMANDS = [
    ("ben do you have any sevens", "en-us", 160, {"type": "ask", "target": "Ben", "rank": "7"}),
    ("cho do you have any kings", "en", 150, {"type": "ask", "target": "Cho", "rank": "K"}),
    ("ana give me your queens", "en-us+m3", 170, {"type": "ask", "target": "Ana", "rank": "Q"}),
    ("go fish", "en-us+f3", 160, {"type": "go_fish"}),
    ("yes two", "en", 140, {"type": "answer", "count": 2}),
    pytest.param(
        "book of nines", "en-us+m3", 150, {"type": "book", "rank": "9"},
        marks=pytest.mark.xfail(
            strict=True,
            reason="known miss: the open decoder hears this voice's 'nines' as 'nah your twos', so the chatter "
            "rejector drops a right grammar reading",
        ),
    ),
    ("book of nines", "en-us", 150, {"type": "book", "rank": "9"}),
    ("what's the score", "en-us", 150, {"type": "query", "what": "score"}),
    ("whose turn is it", "en", 160, {"type": "query", "what": "turn"}),
    ("how many cards are left", "en-us", 170, {"type": "query", "what": "stock"}),
]


@pytest.mark.parametrize("text,voice,speed,expected", COMMANDS)
def test_commands_become_intents(recogniser, players, text, voice, speed, expected) -> None:
    heard = recogniser.hear(synth.realistic(text, voice=voice, speed=speed, seed=len(text)))
    assert heard.engine == "pocketsphinx"
    assert intent_of(heard, players) == expected, f"heard {heard.text!r}"
    assert 0.0 < heard.confidence <= 1.0
    assert heard.alternatives and heard.alternatives[0].text == heard.text


@pytest.mark.parametrize("text", ["pass the salt please", "what a lovely day", "I need more coffee",
                                  "did you see the game last night", "the dog needs a walk"])
def test_chatter_is_no_command(recogniser, players, text) -> None:
    heard = recogniser.hear(synth.realistic(text, voice="en-us", seed=3))
    assert intent_of(heard, players) is None, f"chatter heard as {heard.text!r}"


def test_silence_and_noise_are_no_command(recogniser) -> None:
    import numpy as np

    silence = Utterance(np.zeros(16000, dtype=np.int16))
    floor = Utterance(np.round(synth.noise_floor(24000, -55.0, seed=4)).astype(np.int16))
    clicks = Utterance(np.round(synth.table_noise(32000, seed=5) * 2000).astype(np.int16))
    for u in (silence, floor, clicks):
        heard = recogniser.hear(u)
        assert heard.text == "" and heard.confidence == 0.0


def test_names_missing_from_the_dictionary(espeak, players) -> None:
    """Names the CMU dictionary lacks get automatic pronunciations and can be heard."""
    from tabletop.speech.pronounce import cmudict
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

    names = ("Priya", "Aoife", "Yusuf")
    assert not any(n.lower() in cmudict() for n in names)
    r = PocketSphinxRecogniser(names)
    heard = r.hear(synth.realistic("priya do you have any sevens", voice="en-us", seed=2))
    assert intent_of(heard, names) == {"type": "ask", "target": "Priya", "rank": "7"}, heard.text


def test_context_grammar(recogniser, players) -> None:
    """In the game's context the grammar is narrowed; an answer is still heard."""
    ctx = Context(players=players, current="Ana", phase="answer", asker="Ana", target="Ben")
    heard = recogniser.hear(synth.realistic("go fish", voice="en", seed=9), context=ctx)
    assert intent_of(heard, players, ctx) == {"type": "go_fish"}


def test_streaming_decode_matches(recogniser, players) -> None:
    """Fed in 30 ms blocks as a microphone would, the result is the same command."""
    u = synth.realistic("ben do you have any sevens", voice="en-us", seed=1)
    stream = recogniser.stream(None, players, live=True)
    raw = u.raw()
    for i in range(0, len(raw), 960):
        stream.feed(raw[i : i + 960])
    heard = stream.finish()
    assert intent_of(heard, players) == {"type": "ask", "target": "Ben", "rank": "7"}, heard.text


NOISY = [
    ("ben do you have any sevens", "en-us", {"type": "ask", "target": "Ben", "rank": "7"}),
    ("go fish", "en", {"type": "go_fish"}),
    ("cho do you have any kings", "en-us+m3", {"type": "ask", "target": "Cho", "rank": "K"}),
    ("what's the score", "en", {"type": "query", "what": "score"}),
    ("yes two", "en-us", {"type": "answer", "count": 2}),
    ("how many cards are left", "en-us+f3", {"type": "query", "what": "stock"}),
]


def test_commands_through_table_noise(recogniser, players) -> None:
    """Room rumble and shuffled cards 20 dB below the speaker: commands still come through.

    Babble (other people talking) is much harder for PocketSphinx; tests/bench/speech.py
    measures it, and the report gives the figures."""
    results = []
    for k, (text, voice, expected) in enumerate(NOISY):
        clean = synth.realistic(text, voice=voice, seed=11 + k)
        noisy = synth.mix(clean, synth.table_noise(len(clean.samples), seed=k), 20)
        heard = recogniser.hear(noisy)
        results.append((text, heard.text, intent_of(heard, players) == expected))
    assert sum(ok for _, _, ok in results) >= 4, results  # the grammar alone gets 6/6; the chatter rejector drops some


def test_rejector_accepts_a_reading_padded_with_noise_words(players) -> None:
    """The open decoder often hears junk around a right command; chatter stays rejected."""
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

    r = PocketSphinxRecogniser(players)  # no decoder is started: only the comparison is used
    assert r._agreement("do you got queens cho", ["do you got queens cho old up"], players) > 0
    assert r._agreement("ana has no cards", ["x y", "ana has no cards it are"], players) > 0
    # Too many extra words, or a one-word reading: not enough evidence.
    assert r._agreement("some of your two ana", ["some of your two ana my i'm ben let me go"], players) == 0
    assert r._agreement("nope", ["i said nope there"], players) == 0


def test_a_slot_must_be_heard_best_by_the_open_decoder(players) -> None:
    """Ana's "Ben, jacks?" at 20 dB, read "ben got ace" by the grammar: the open decoder's second
    reading ("ben and got ace") is the same ask, but its best holds no ace. A slot value backed only
    lower down is not heard surely; one its best reading holds, in any words, is."""
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

    r = PocketSphinxRecogniser(players)  # no decoder is started: only the comparison is used
    assert r._agreement("ben got ace", ["ben and got eights", "ben and got ace"], players) > 0.5
    assert not r._best_holds_slots("ben got ace", ["ben and got eights", ""], players)
    assert r._best_holds_slots("ben got ace", ["ben and got ace", ""], players)
    assert r._best_holds_slots("ana asks ben for sixes", ["ana got ben for got six", ""], players)
    assert not r._best_holds_slots("ana asks ben for sixes", ["ana got an for got six", ""], players)
    assert not r._best_holds_slots("no two", ["no", ""], players)
    assert r._best_holds_slots("no two", ["no", "no two"], players)  # the best without the background's words
    assert r._best_holds_slots("yes", ["yes of", ""], players)  # no slot: nothing more to hold


def _count_context():
    from tabletop.cards import Rank

    return Context(players=("Ana", "Ben", "Cho"), current="Ana", phase="count", asker="Ana", target="Ben",
                   rank=Rank.SEVEN)


def test_how_many_listens_for_counts_not_for_a_go_fish() -> None:
    # After "yes" and "How many?" the grammar offers the count, yes/no, a correction, queries, undo
    # and control, but no go fish, ask or book: real voices' "three" here was heard as "sorry" (a
    # go fish) and acted on.
    from tabletop.language.grammar import jsgf

    text = jsgf(("Ana", "Ben", "Cho"), _count_context())
    rules = {line.split(" = ")[0] for line in text.splitlines() if line.startswith("<i_")}
    assert "<i_answer>" in rules and "<i_correct>" in rules and "<i_no>" in rules
    assert not rules & {"<i_go_fish>", "<i_ask>", "<i_book>", "<i_lucky>"}


@pytest.mark.parametrize("text,voice,speed,expected", [
    ("three", "en-us", 150, {"type": "answer", "count": 3}),
    ("two", "en", 160, {"type": "answer", "count": 2}),
    ("go fish", "en-us+f3", 160, None),
])
def test_counts_heard_after_how_many(recogniser, text, voice, speed, expected) -> None:
    ctx = _count_context()
    heard = recogniser.hear(synth.realistic(text, voice=voice, speed=speed, seed=7), ctx)
    got = intent_of(heard, ctx.players, ctx)
    if expected is None:
        assert got is None or got["type"] not in ("go_fish", "ask", "book"), f"heard {heard.text!r}"
    else:
        assert got == expected, f"heard {heard.text!r}"


def test_an_ask_without_an_asker_names_someone_else_in_the_grammar() -> None:
    # Ana's turn: "Ben, do you have any sixes" was heard as "ana do you got any sixes" (Ana asking
    # herself), and Ben's "Ana, got any fours" as "ana ben got any fours" (Ana asking out of turn).
    # The ask listened for is the current player's, named or not, of one of the others.
    from tabletop.language.grammar import jsgf

    ctx = Context(players=("Ana", "Ben", "Cho"), current="Ana", phase="ask", askable={"Ana", "Ben", "Cho"})
    text = jsgf(("Ana", "Ben", "Cho"), ctx)
    assert "<target_other> = ben | cho;" in text
    assert "<asker_now> = ana;" in text
    assert "(<target_other> <r_have> [<r_any>] <rank>)" in text
    assert "(<asker_now> asks <target_other> for [<r_any>] <rank>)" in text


@pytest.mark.parametrize("text,voice,speed,seed", [
    ("Ben, do you have any sixes?", "en-gb+m4", 135, 4100),
    ("Ben, do you have any sevens?", "en-gb+m4", 150, 3),
])
def test_an_ask_of_ben_is_never_heard_as_ana_asking_herself(recogniser, text, voice, speed, seed) -> None:
    ctx = Context(players=("Ana", "Ben", "Cho"), current="Ana", phase="ask", askable={"Ana", "Ben", "Cho"})
    heard = recogniser.hear(synth.realistic(text, voice=voice, speed=speed, seed=seed), ctx)
    got = intent_of(heard, ctx.players, ctx)
    assert got is None or got.get("target") != "Ana", f"heard {heard.text!r}"
