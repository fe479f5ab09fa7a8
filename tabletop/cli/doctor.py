"""`tabletop doctor`: checks microphone, speaker, models and says exactly what to fix."""

from __future__ import annotations

import argparse
import shutil
from typing import Any

import numpy as np

from tabletop.cli.jsonline import json_line
from tabletop.errors import SetupError

__all__ = ["add_parser", "run", "checks"]


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "doctor",
        help="check microphone, speaker, camera and models",
        description="Check the microphone, speaker, camera and models, and say what to fix.",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per check")
    parser.add_argument("--no-sound", action="store_true", help="do not play the test phrase or record")
    parser.add_argument("--device", help="microphone device index or name")
    return parser


def _check(name: str, ok: bool, detail: str = "", fix: str | None = None, tips: list[str] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"check": name, "ok": ok, "detail": detail, "fix": fix}
    if tips:
        out["tips"] = tips
    return out


QUIET_ROOM_DBFS = -55.0
"""A second recorded at the table quieter than this: the microphone is far from everyone."""


def _engine_check(level: float | None) -> dict[str, Any]:
    """Which recogniser a game would use, and what would make it hear the table better."""
    import importlib.util

    from tabletop.speech.models import VOSK_SMALL_EN_US, find_vosk_model

    vosk = find_vosk_model()
    tips = []
    if vosk is not None:
        detail = f"Vosk, with {vosk.name} (the better recogniser)"
    else:
        detail = "PocketSphinx, with its embedded US English model"
        tips.append(
            f"install the Vosk small English model ({round(VOSK_SMALL_EN_US.size / 1e6)} MB), which hears better: "
            "tabletop models install (or, on a machine that is offline, tabletop models install --from FILE.zip)"
        )
    if vosk is None:
        from tabletop.speech.recognisers.moonshine import moonshine_status

        second = moonshine_status()
        if second["ok"]:
            detail += "; Moonshine (bundled, offline) checks the ranks and counts it is unsure of"
        else:
            tips.append(f"Moonshine would check the ranks and counts PocketSphinx is unsure of: {second['problem']}")
    if importlib.util.find_spec("tabletop.cli.enroll") is not None:
        tips.append("enroll each player's voice, so tabletop learns how your table speaks: tabletop enroll --players Ana Ben")
    if level is not None and level < QUIET_ROOM_DBFS:
        tips.append(f"the microphone hears the table faintly ({level:.0f} dBFS): move it closer to the players")
    else:
        tips.append("put the microphone in the middle of the table, close to every player and away from the speaker")
    return _check("speech engine", True, detail, None, tips)


def _audio_checks(play: bool, device: Any) -> list[dict[str, Any]]:
    from tabletop.speech.microphone import NO_MIC, import_sounddevice

    out = []
    try:
        sd = import_sounddevice()
    except SetupError as error:
        return [_check("audio library", False, "", error.reason)]
    out.append(_check("audio library", True, f"PortAudio via sounddevice {getattr(sd, '__version__', '')}".strip()))
    try:
        devices = list(sd.query_devices())
    except Exception as error:  # noqa: BLE001
        return out + [_check("audio devices", False, str(error), "check ALSA/PulseAudio: `aplay -l`, `arecord -l`")]
    inputs = [f"{i}: {d['name']} ({d['max_input_channels']} in)" for i, d in enumerate(devices) if d.get("max_input_channels", 0) > 0]
    outputs = [f"{i}: {d['name']} ({d['max_output_channels']} out)" for i, d in enumerate(devices) if d.get("max_output_channels", 0) > 0]
    out.append(_check("microphone", bool(inputs), "; ".join(inputs) or "none", None if inputs else NO_MIC))
    out.append(
        _check(
            "speaker",
            bool(outputs),
            "; ".join(outputs) or "none",
            None if outputs else "no speaker found: plug one in; announcements are printed meanwhile (or use --quiet)",
        )
    )
    if play and outputs:
        try:
            from tabletop.speech.synth import speak

            phrase = speak("tabletop is ready", voice="en-us")
            sd.play(phrase.samples, 16000)
            sd.wait()
            out.append(_check("test phrase", True, "played \"tabletop is ready\""))
        except Exception as error:  # noqa: BLE001
            out.append(_check("test phrase", False, str(getattr(error, "reason", error)), "check the speaker volume and `aplay -l`"))
    if play and inputs:
        try:
            data = sd.rec(16000, samplerate=16000, channels=1, dtype="int16", device=device)
            sd.wait()
            samples = np.asarray(data).reshape(-1)
            from tabletop.speech.audio import rms_dbfs

            level = rms_dbfs(samples)
            _LEVEL[0] = level
            if level <= -90:
                out.append(_check("recording", False, "recorded one second of digital silence", "unmute the microphone: `alsamixer` (F4 for capture)"))
            else:
                out.append(_check("recording", True, f"recorded one second, level {level:.0f} dBFS"))
        except Exception as error:  # noqa: BLE001
            out.append(_check("recording", False, str(error), NO_MIC))
    return out


_LEVEL: list[float | None] = [None]  # the level _audio_checks recorded, for the engine's tips


def checks(play: bool = True, device: Any = None) -> list[dict[str, Any]]:
    _LEVEL[0] = None
    out = _audio_checks(play, device)
    from tabletop.speech.voice import voice_problem

    problem = voice_problem()
    out.append(_check("text to speech", problem is None, "pyttsx3 with espeak-ng" if problem is None else "", problem))
    if shutil.which("sox") is None:
        out.append(_check("sox", False, "", "optional, to convert recordings: apt-get install sox"))
    from tabletop.cli.models import statuses

    for item in statuses():
        optional = "optional" in item.get("name", "")
        out.append(
            _check(
                f"model: {item['name']}",
                bool(item.get("ok")) or optional,
                item.get("path", "") if item.get("ok") else "not installed" if optional else "",
                item.get("problem"),
            )
        )
    out.append(_engine_check(_LEVEL[0]))
    try:
        from tabletop import vision

        camera_status = getattr(vision, "camera_status", None)
        if callable(camera_status):
            status = camera_status()
            out.append(_check("camera", bool(status.get("ok")), status.get("detail", ""), status.get("problem")))
    except Exception:  # noqa: BLE001 - vision is optional
        pass
    return out


def run(args: argparse.Namespace) -> int:
    device: Any = args.device
    if isinstance(device, str) and device.isdigit():
        device = int(device)
    results = checks(play=not args.no_sound, device=device)
    for r in results:
        if args.json:
            print(json_line(r), flush=True)
        else:
            mark = "ok " if r["ok"] else "FIX"
            print(f"{mark} {r['check']}: {r['detail']}".rstrip(": "))
            if r["fix"]:
                print(f"    -> {r['fix']}")
            for tip in r.get("tips", []):
                print(f"    tip: {tip}")
    return 0 if all(r["ok"] for r in results) else 1
