"""At a yes/no question a "yes" the grammar pads with words that mean no more than it does is that yes.

Real decoding of espeak-ng speech mixed with the bench's babble and table noise at 20 dB, at the check
of an ask ("Ben, tens?"), as the simulated pairs games meet it. The grammar of that moment holds the
target's answers too, and it padded a plain "yes" with them ("yes i do", "yes i have them"), while the
open decoder padded it its own way ("yes i i pond", "yes i have"): no rule backed the two readings, so
the right "yes" was kept unsure (capped under the acting bar) and the check asked again ("Sorry? Ben,
tens?"), 4 or 5 times a game at 20 dB. Both decoders heard a yes first and no value after it: at a
yes/no question that is the answer (``PocketSphinxRecogniser._bare_answer``). Not right after an ask,
where "yes i do" is the target's answer and a bare "yes" is checked ("Yes, you have some?").
"""

from __future__ import annotations

import shutil

import pytest

from tabletop.cards import Rank
from tabletop.language import Context
from tabletop.language.understand import understand
from tabletop.referee.intents import Ask, Yes

PLAYERS = ("Ana", "Ben")
CHECK = Context(players=PLAYERS, current="Ana", phase="confirm", expects="yes_no", partial=Ask(target="Ben", rank=Rank.TEN),
                askable=frozenset({"Ben"}))


@pytest.mark.parametrize("voice, speed, seed", [("en-us+f3", 140, 4101000), ("en-gb-x-rp+m5", 190, 4101000)])
def test_a_yes_padded_by_both_decoders_with_no_value_confirms(voice: str, speed: int, seed: int) -> None:
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed (apt-get install espeak-ng): cannot synthesise test speech")
    from tabletop.speech import synth
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

    r = PocketSphinxRecogniser(PLAYERS)
    r.warm_up(CHECK)
    heard = r.hear(synth.realistic("yes", voice=voice, speed=speed, snr_db=20, seed=seed), CHECK)
    trace = r.last_trace
    u = understand(heard, CHECK)
    assert u.act and u.intent == Yes(), (heard, u, trace)
    assert trace["grammar"] != "yes" and trace.get("bare") == "yes", trace  # the padded reading, cut to its yes


def test_a_padded_no_is_not_cut() -> None:
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser

    bare = PocketSphinxRecogniser(PLAYERS)._bare_answer
    assert bare("yes i do", ["yes i i pond", ""], PLAYERS) == "yes"
    assert bare("yes please", ["yes on", ""], PLAYERS) == "yes"
    assert bare("no go fish", ["no on", ""], PLAYERS) is None  # a go fish, where "no" would deny the ask
    assert bare("yes i do", ["yes i i pond", ""], PLAYERS, keeps_count=True) is None  # the target's answer
    assert bare("yes i do", ["yes two", ""], PLAYERS) is None  # the open decoder heard a value
