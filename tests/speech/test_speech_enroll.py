"""Voice enrollment for real: espeak-ng speech, Debian's sphinxtrain, the real PocketSphinx decoder.

A hard voice for the bundled model (espeak-ng's Caribbean English, ``en-029``) says the
enrollment prompts with a noise floor; `tabletop enroll` adapts the model to it; the profile is
stored, listed, loaded, and hears that voice's held-out sentences (not among the prompts) better
than the bundled model does. Profiles live in a temporary TABLETOP_VOICES_DIR.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from support import file_microphone_home, portaudio_loads
from tabletop.cli import main
from tabletop.speech import synth
from tabletop.speech.audio import write_wav

REPO = Path(__file__).resolve().parents[2]
VOICE = "en-029"
PLAYERS = ("Ana", "Ben", "Cho")
# Sentences of the game that are not among the prompts (other ranks, other wordings).
HELD_OUT = [
    ("Cho, do you have any queens?", {"type": "ask", "target": "Cho", "rank": "Q"}),
    ("Ben, got any sixes?", {"type": "ask", "target": "Ben", "rank": "6"}),
    ("book of kings", {"type": "book", "rank": "K"}),
    ("Ben, do you have any eights?", {"type": "ask", "target": "Ben", "rank": "8"}),
    ("Cho, any twos?", {"type": "ask", "target": "Cho", "rank": "2"}),
    ("Ben, give me your jacks", {"type": "ask", "target": "Ben", "rank": "J"}),
    ("Cho, got any fives?", {"type": "ask", "target": "Cho", "rank": "5"}),
    ("book of aces", {"type": "book", "rank": "A"}),
]


def _sphinxtrain_ready() -> str | None:
    from tabletop.errors import SetupError
    from tabletop.speech.adapt import find_tools

    try:
        find_tools()
    except SetupError as error:
        return error.reason
    return None


pytestmark = pytest.mark.skipif(
    _sphinxtrain_ready() is not None, reason=f"{_sphinxtrain_ready()} (enrollment cannot be tested)"
)


@pytest.fixture(scope="module")
def voices(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("voices")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TABLETOP_VOICES_DIR", str(folder))
        yield folder


@pytest.fixture(scope="module")
def prompt_wavs(tmp_path_factory: pytest.TempPathFactory, espeak) -> list[tuple[Path, str]]:
    from tabletop.speech.enrollment import prompts

    folder = tmp_path_factory.mktemp("enroll-audio")
    out = []
    for i, text in enumerate(prompts("Ana", PLAYERS)):
        out.append((write_wav(folder / f"p{i:02d}.wav", synth.realistic(text, voice=VOICE, seed=i)), text))
    return out


@pytest.fixture(scope="module")
def held_out(tmp_path_factory: pytest.TempPathFactory, espeak) -> list[tuple[Path, dict]]:
    folder = tmp_path_factory.mktemp("held-out")
    return [
        (write_wav(folder / f"h{i}.wav", synth.realistic(text, voice=VOICE, seed=100 + i)), intent)
        for i, (text, intent) in enumerate(HELD_OUT)
    ]


@pytest.fixture(scope="module")
def ana(voices: Path, prompt_wavs) -> Path:
    """Ana enrolled from recordings (scripted enrollment through the real command line)."""
    args = ["enroll", "--player", "Ana", "--json", "--audio", *[str(p) for p, _ in prompt_wavs], "--text"]
    args += [t for _, t in prompt_wavs]
    assert main(args) == 0
    return voices / "ana"


def test_the_prompts_are_sentences_of_the_game_and_cover_every_rank() -> None:
    from tabletop.cards import RANKS
    from tabletop.language import parse
    from tabletop.speech.enrollment import prompts

    lines = prompts("Ana", PLAYERS)
    assert 18 <= len(lines) <= 24
    for line in lines:
        assert parse(line, PLAYERS) is not None, line
    said = " ".join(lines).lower()
    assert all(rank.plural in said or rank.word in said for rank in RANKS)
    assert "Ben" in said.title() and "Cho" in said.title()
    alone = prompts("Ana", ("Ana",))  # enrolling alone still names two other players
    assert all(parse(line, ("Ana", "Ben", "Cho")) is not None for line in alone)


def test_scripted_enrollment_stores_a_profile_that_loads(ana: Path, capsys) -> None:
    from tabletop.speech.profiles import list_profiles, load_profile

    assert {p.name for p in ana.iterdir()} == {"counts.zip", "means", "variances", "profile.json"}
    assert not list(ana.rglob("*.wav")), "enrollment audio must be deleted after adaptation"
    meta = json.loads((ana / "profile.json").read_text())
    assert meta["name"] == "Ana" and meta["utterances"] == 22 and meta["audio_kept"] is False
    assert meta["cpu_seconds"] < 5.0  # "under a few seconds of CPU per speaker"
    profile = load_profile("ana")  # names match without regard to case
    assert profile.name == "Ana"
    from tabletop.speech.adapt import bundled_model_dir

    assert profile.means.read_bytes() != (bundled_model_dir() / "means").read_bytes()
    assert [p.name for p in list_profiles()] == ["Ana"]
    capsys.readouterr()
    assert main(["enroll", "--list", "--json"]) == 0
    listed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [entry["name"] for entry in listed] == ["Ana"]


def _hear(files: list[Path], *extra: str, capsys) -> list[dict]:
    capsys.readouterr()
    code = main(["hear", *[str(f) for f in files], "--players", *PLAYERS, "--json", *extra])
    assert code == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_the_profile_hears_the_enrolled_voice_better(ana: Path, held_out, capsys) -> None:
    files = [path for path, _ in held_out]
    before = _hear(files, capsys=capsys)
    after = _hear(files, "--profile", "Ana", capsys=capsys)
    right_before = sum(line["intent"] == intent for line, (_, intent) in zip(before, held_out))
    right_after = sum(line["intent"] == intent for line, (_, intent) in zip(after, held_out))
    # Measured: 3 of 8 -> 8 of 8 for this voice (all 12 of a larger held-out set: 4 -> 12).
    assert right_after > right_before, (before, after)
    assert right_after >= len(held_out) - 1, after
    assert all(line["engine"] == "pocketsphinx" for line in after)


def test_play_hears_with_a_profile_and_with_the_table_model(ana: Path, held_out, tmp_path: Path, capsys) -> None:
    ask = str(held_out[1][0])  # "Ben, got any sixes?" said by Ana
    for extra in (["--profile", "Ana"], []):  # named, then the table's (Ana is enrolled)
        capsys.readouterr()
        code = main(["play", "--players", "Ana", "Ben", "Cho", "--audio", ask, "--json", "--no-fsync",
                     "--journal", str(tmp_path / f"game{len(extra)}.jsonl"), *extra])
        assert code == 0
        events = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
        assert any("six" in json.dumps(e).lower() or '"6"' in json.dumps(e) for e in events), events


def test_a_game_chooses_its_model_by_who_is_expected_to_speak(ana: Path, held_out) -> None:
    from tabletop.language import Context
    from tabletop.speech.audio import read_wav
    from tabletop.speech.profiles import game_recogniser, load_profile
    from tabletop.speech.recognisers.profiled import SpeakerProfiles, expected_speaker

    asking = Context(players=PLAYERS, current="Ana", phase="ask")
    answering = Context(players=PLAYERS, current="Ben", phase="answer", asker="Ben", target="Ana")
    confirming = Context(players=PLAYERS, current="Ana", phase="confirm")
    assert expected_speaker(asking) == "Ana" and expected_speaker(answering) == "Ana"
    assert expected_speaker(Context(players=PLAYERS, current="Ana", phase="answer", asker="Ana", target="Cho")) == "Cho"
    assert expected_speaker(confirming) is None and expected_speaker(None) is None
    r = game_recogniser("auto", PLAYERS)  # Ana is enrolled; Ben and Cho are not
    assert isinstance(r, SpeakerProfiles) and r.use == "pooled"
    # One enrolled player: the table's model is hers. Ben did not enroll: the bundled model hears him.
    assert r.pooled.acoustic == {"mean": str(load_profile("Ana").means), "var": str(load_profile("Ana").variances)}
    assert r.recognisers_for(asking) == [r.pooled]
    assert r.recognisers_for(Context(players=PLAYERS, current="Ben", phase="ask")) == [r.bundled]
    assert r.recognisers_for(confirming) == [r.pooled]
    assert not r.bundled.acoustic
    s_ = game_recogniser("auto", PLAYERS, mode="speaker")
    assert s_.recognisers_for(asking) == [s_.by_player["ana"]] and s_.recognisers_for(confirming) == [s_.pooled]
    assert not game_recogniser("auto", PLAYERS, mode="none").acoustic
    ask = read_wav(held_out[1][0])  # "Ben, got any sixes?" said by Ana on her turn
    heard = r.hear(ask, asking)
    assert heard.text == "ben got any sixes", heard


def test_csv_enrollment_keeps_audio_only_when_asked_and_forget_deletes(voices: Path, prompt_wavs, tmp_path: Path, capsys) -> None:
    from tabletop.speech.profiles import find_profile

    table = tmp_path / "ben.csv"
    rows = ["path,text"] + [f"{p},\"{t}\"" for p, t in prompt_wavs[:12]]
    table.write_text("\n".join(rows) + "\n")
    assert main(["enroll", "--player", "Ben", "--csv", str(table), "--keep-audio"]) == 0
    assert "Ben's voice is enrolled" in capsys.readouterr().out
    kept = sorted((voices / "ben" / "audio").glob("*.wav"))
    assert len(kept) == 12
    assert find_profile("Ben") is not None
    assert main(["enroll", "--forget", "Ben"]) == 0
    assert "Forgot Ben" in capsys.readouterr().out
    assert not (voices / "ben").exists() and find_profile("Ben") is None
    assert main(["enroll", "--forget", "Ben"]) == 1
    assert "no voice profile for Ben" in capsys.readouterr().err


def test_pooled_table_model_of_two_players(ana: Path, voices: Path, prompt_wavs, held_out) -> None:
    from tabletop.speech import profiles
    from tabletop.speech.recognisers.pocketsphinx import PocketSphinxRecogniser
    from tabletop.speech.audio import read_wav

    other = [(synth.realistic(text, voice="en-us+f3", seed=i), text) for i, (_, text) in enumerate(prompt_wavs[:12])]
    profiles.enroll("Cho", other)
    acoustic = profiles.acoustic_for(["Ana", "Ben", "Cho"])  # Ben is not enrolled: left out
    assert acoustic is not None and ".pooled" in acoustic["mean"]
    own = [profiles.load_profile(n).means.read_bytes() for n in ("Ana", "Cho")]
    assert Path(acoustic["mean"]).read_bytes() not in own
    assert profiles.acoustic_for(["Ana", "Cho"]) == acoustic  # made once, then reused
    # Heard with a small grammar of asks and books (quick to build: this checks the pooled
    # model decodes, the whole-vocabulary figures are the bench's).
    grammar = ("#JSGF V1.0;\ngrammar t;\npublic <command> = [ben | cho] [do you have any | got any | give me your"
               " | any | book of] (aces | twos | fives | sixes | eights | jacks | queens | kings);\n")
    r = PocketSphinxRecogniser(PLAYERS, acoustic=acoustic, grammar=lambda players, context: grammar, reject_chatter=False)
    heard = [r.hear(read_wav(p)).text for p, _ in held_out]
    right = sum(text == text_of.lower().replace(",", "").replace("?", "") for text, (text_of, _) in zip(heard, HELD_OUT))
    assert right >= len(HELD_OUT) - 2, heard
    assert profiles.forget("Cho")
    assert not (voices / ".pooled").exists()  # a table model made with a forgotten voice goes too


def test_clear_errors(voices: Path, prompt_wavs, tmp_path: Path, capsys) -> None:
    wav = str(prompt_wavs[0][0])
    cases = [
        (["enroll", "--player", "Dee", "--audio", wav, wav, "--text", "go fish"], "2 recordings but 1 texts"),
        (["enroll", "--player", "Dee", "--audio", str(tmp_path / "nope.wav"), "--text", "go fish"], "no such file"),
        (["enroll", "--player", "Dee", "--csv", str(tmp_path / "none.csv")], "no such file"),
        (["enroll", "--player", "Dee"], "--audio"),
        (["enroll", "--audio", wav, "--text", "go fish"], "--player NAME"),
        (["hear", wav, "--profile", "Nobody"], "no voice profile for Nobody"),
        (["hear", wav, "--profile", "Ana", "--engine", "vosk"], "voice profiles adapt the embedded recogniser"),
    ]
    for args, message in cases:
        capsys.readouterr()
        assert main(args) == 2, args
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err, (args, err)


def test_missing_sphinxtrain_says_what_to_install(tmp_path: Path, prompt_wavs) -> None:
    """Without sphinxtrain's tools, a clear message (and no traceback), in a real subprocess."""
    empty = tmp_path / "no-tools"
    empty.mkdir()
    env = dict(os.environ, TABLETOP_SPHINXTRAIN_DIR=str(empty), TABLETOP_VOICES_DIR=str(tmp_path / "v"),
               PYTHONPATH=str(REPO), PATH=f"{empty}:/usr/bin:/bin")
    wav = str(prompt_wavs[0][0])
    result = subprocess.run([sys.executable, "-m", "tabletop", "enroll", "--player", "Dee", "--audio", wav, "--text", "go fish"],
                            env=env, capture_output=True, text=True, timeout=60, cwd=str(REPO))
    assert result.returncode == 2
    assert "apt-get install sphinxtrain" in result.stderr and "Traceback" not in result.stderr, result.stderr
    assert not (tmp_path / "v" / "dee").exists()


@pytest.mark.skipif(not portaudio_loads(), reason="PortAudio is missing: apt-get install libportaudio2")
def test_live_enrollment_from_the_microphone(tmp_path: Path, espeak) -> None:
    """`tabletop enroll --players Dee`: the prompts are shown, Dee's answers come through a real
    PortAudio device (an ALSA file PCM), and her profile is made from them."""
    from tabletop.speech.enrollment import prompts

    gap = np.round(synth.noise_floor(int(1.0 * 16000), -58.0, seed=3)).astype(np.int16)
    parts = [gap]
    for i, text in enumerate(prompts("Dee", ("Dee",))):
        parts += [synth.realistic(text, voice="en-us", seed=i).samples, gap]
    parts += [gap] * 3
    home = file_microphone_home(tmp_path, np.concatenate(parts).astype("<i2").tobytes())
    env = dict(os.environ, HOME=str(home), TABLETOP_VOICES_DIR=str(tmp_path / "v"), PYTHONPATH=str(REPO))
    env.pop("ALSA_CONFIG_PATH", None)
    result = subprocess.run([sys.executable, "-m", "tabletop", "enroll", "--players", "Dee", "--quiet", "--json"],
                            env=env, capture_output=True, text=True, timeout=150, cwd=str(REPO))
    if "no microphone" in result.stderr or "cannot open the microphone" in result.stderr:
        pytest.skip(f"the file microphone does not open here: {result.stderr.strip()[-200:]}")
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Dee, please repeat after me" in result.stdout
    assert "Dee, do you have any" not in result.stdout  # her own name is not asked of her
    profile = json.loads([line for line in result.stdout.splitlines() if line.startswith("{")][-1])
    assert profile["name"] == "Dee" and profile["utterances"] >= 18
    assert (tmp_path / "v" / "dee" / "means").exists()
    assert not list((tmp_path / "v").rglob("*.wav"))


def test_enrollment_is_offered_only_in_a_live_game_at_a_terminal(voices: Path, tmp_path: Path) -> None:
    """Typed and recorded games, scripts and CI (no terminal) are never asked anything."""
    from tabletop.cli.enroll import offer
    from tabletop.speech.profiles import offered

    assert offer(["Eve", "Fay"], interactive=False) == []
    assert offer(["Eve", "Fay"], interactive=True) == []  # pytest's stdin is not a terminal
    assert "eve" not in offered()  # not asked, so not marked as asked
    journal = tmp_path / "typed.jsonl"
    result = subprocess.run([sys.executable, "-m", "tabletop", "play", "--players", "Eve", "Fay", "--text",
                             "--journal", str(journal)], input="Fay, do you have any sevens?\n", env=dict(
                                 os.environ, PYTHONPATH=str(REPO)), capture_output=True, text=True, timeout=60, cwd=str(REPO))
    assert result.returncode == 0, result.stderr
    assert "Enroll" not in result.stdout + result.stderr
