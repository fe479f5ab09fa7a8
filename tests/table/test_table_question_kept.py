"""At a yes/no question, a reading of something else is the answer misheard or a question aside:
the question is kept.

In the 20 dB pairs game seed 4108 en+m6's "no" (a go fish) was heard "no five" and checked ("Go
fish?"); the "yes" to it was heard "what did he ask for" (unsurely) and asked "The last ask?", the
"Go fish?" dropped; a "no" to that, the go fish said again, "yes" heard "yes three" and asked "Yes, you
have some?" (where a yes would give cards the target had just said they lacked): the go fish was
typed after six tries. Now an unsure question to tabletop, or an unsure reading that opens with
"yes" and is no yes, asks the same question again; a sure question to tabletop is answered and the
question asked again after it.

The audio is the game's own (en+m6, 20 dB, seed 4108), heard by PocketSphinx in the game's context.
"""

from __future__ import annotations

from tabletop.language.transcript import Alternative, Transcript
from tabletop.rules import Rules
from tabletop.speech import synth
from tabletop.table import Table


def _go_fish_asked(ask: str = "Ana, any sixes?") -> Table:
    """Ben asked Ana; her "no" heard "nah a five" is checked: "Go fish?"."""
    table = Table.new(["Ana", "Ben"], Rules.preset("pairs"), None, first=1)
    table.start()
    table.hear_text(ask)
    assert table.hear(_heard("nah a five", 0.45))[-1].text == "Go fish?"
    return table


def _heard(text: str, confidence: float) -> Transcript:
    return Transcript(text, confidence, (Alternative(text, confidence),), engine="pocketsphinx")


def _game_audio(said: str, speed: int, utterance: int):
    return synth.realistic(said, voice="en+m6", speed=speed, snr_db=20.0, seed=4108 * 1000 + utterance)


def test_a_question_heard_surely_at_a_check_is_answered_and_the_check_kept(fresh_two_players) -> None:
    # The recogniser hears the game's two "yes"es to "Go fish?" first (how an utterance is heard
    # depends on those heard before it): each confirms the go fish.
    for utterance, speed in ((69, 145), (72, 105)):
        table = _go_fish_asked()
        replies = table.hear_audio(_game_audio("yes", speed, utterance), fresh_two_players)
        assert replies[0].event["changed"] and replies[0].text.startswith("Go fish, Ben."), [r.text for r in replies]
    table = _go_fish_asked("Ana, do you have any eights?")
    before = table.game.public()
    replies = table.hear_audio(_game_audio("yes", 145, 87), fresh_two_players)
    assert replies[0].event["heard"] == "what did he ask for", [r.event for r in replies]  # the game's mishearing
    assert replies[-1].text == "Ben asked Ana for eights. Go fish?", [r.text for r in replies]
    assert replies[-1].event["about"] == {"type": "go_fish"} and table.game.public() == before
    replies = table.hear(_heard("yes", 0.9))
    assert replies[0].event["changed"] and replies[0].text.startswith("Go fish, Ben."), [r.text for r in replies]


def test_an_unsure_question_at_a_check_asks_the_check_again() -> None:
    table = _go_fish_asked()
    before = table.game.public()
    replies = table.hear(_heard("what did he ask for", 0.45))
    assert replies[-1].text == "Sorry, I didn't catch that. Go fish?", [r.text for r in replies]
    assert table.game.public() == before
    assert table.hear(_heard("yes", 0.9))[0].text.startswith("Go fish, Ben.")


def test_an_unsure_yes_with_a_count_at_a_go_fish_check_asks_it_again() -> None:
    table = _go_fish_asked()
    before = table.game.public()
    replies = table.hear(_heard("yes three", 0.45))
    assert replies[-1].text == "Sorry, I didn't catch that. Go fish?", [r.text for r in replies]
    assert table.game.public() == before
    assert table.hear(_heard("yes", 0.9))[0].text.startswith("Go fish, Ben.")
