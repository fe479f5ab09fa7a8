"""Voice profiles: each enrolled player's adapted acoustic model, kept on this machine.

A profile lives in the user's data folder (``$TABLETOP_VOICES_DIR``, else e.g.
``~/.local/share/tabletop/voices/<name>/``) and holds:

- ``means``, ``variances``: the bundled PocketSphinx model adapted to the player's voice
  (loaded over the bundled model: ``PocketSphinxRecogniser(acoustic=profile.acoustic())``);
- ``counts.zip``: the player's Baum-Welch counts against the unadapted model, from which the
  table-wide model of several players is made (:func:`table_acoustic`) — statistics, not audio;
- ``profile.json``: the name, when and how it was made, and the model it belongs to.

No audio is kept here (``tabletop enroll --keep-audio`` keeps the recordings in the profile's
``audio/`` folder, and only then). Nothing leaves the machine.

How a game uses profiles (:func:`game_recogniser`): by default with one table-wide model adapted
to all the enrolled players' counts pooled (:data:`DEFAULT_MODE` "pooled"), or with the
profile of the player the game expects to speak ("speaker"); a player who did not enroll is
heard with the bundled model. ``tests/bench/enrollment.py`` measures these and one recogniser
per player choosing the best-scoring reading.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from tabletop.errors import InvalidInputError, SetupError
from tabletop.speech.adapt import AdaptedFiles
from tabletop.speech.audio import Utterance

__all__ = [
    "DEFAULT_METHOD",
    "DEFAULT_MODE",
    "MODES",
    "Profile",
    "voices_dir",
    "profile_key",
    "find_profile",
    "load_profile",
    "list_profiles",
    "enroll",
    "forget",
    "table_acoustic",
    "acoustic_for",
    "offered",
    "mark_offered",
    "game_recogniser",
]

# MAP alone: on the FSDD speaker's rank words 83.1% -> 92.2% (MLLR then MAP: 89.4%), see
# tests/bench/enrollment.py.
DEFAULT_METHOD = "map"
# How a game uses several players' profiles: see tabletop/speech/recognisers/profiled.py (the
# FSDD speaker at a table of seven enrolled real voices, clean: pooled 93.6% whoever speaks; own
# profile 97.5% but someone else's 76.7%, below no profile's 82.8%).
MODES = ("pooled", "speaker")
DEFAULT_MODE = "pooled"
_NAME = re.compile(r"^[^\W\d_][\w' .-]{0,39}$")


def voices_dir() -> Path:
    """Where profiles are kept: ``$TABLETOP_VOICES_DIR`` or the user data folder's ``voices``."""
    override = os.environ.get("TABLETOP_VOICES_DIR")
    if override:
        return Path(override).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("tabletop")) / "voices"


def profile_key(name: str) -> str:
    """The folder name of a player's profile: names are matched without regard to case."""
    name = name.strip()
    if not _NAME.match(name):
        raise InvalidInputError(f"{name!r} is not a player name (letters first, at most 40 characters)", code="name")
    return re.sub(r"[^\w-]+", "_", name.casefold())


@dataclass(frozen=True)
class Profile(AdaptedFiles):
    """One player's enrolled voice."""

    name: str
    folder: Path
    method: str
    created: str
    utterances: int
    seconds: float
    model: str  # the fingerprint of the bundled model it adapts

    def acoustic(self) -> dict[str, str]:
        """Decoder options that load this profile's model over the bundled one."""
        return {"mean": str(self.means), "var": str(self.variances)}

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "method": self.method,
            "created": self.created,
            "utterances": self.utterances,
            "seconds": self.seconds,
            "model": self.model,
            "folder": str(self.folder),
        }


def _read(folder: Path) -> Profile | None:
    try:
        meta = json.loads((folder / "profile.json").read_text(encoding="utf-8"))
        profile = Profile(
            name=str(meta["name"]),
            folder=folder,
            method=str(meta.get("method", DEFAULT_METHOD)),
            created=str(meta.get("created", "")),
            utterances=int(meta.get("utterances", 0)),
            seconds=float(meta.get("seconds", 0.0)),
            model=str(meta.get("model", "")),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not (profile.means.is_file() and profile.variances.is_file()):
        return None
    return profile


def find_profile(name: str) -> Profile | None:
    """The profile of player ``name``, or None when they have not enrolled (or it is damaged)."""
    folder = voices_dir() / profile_key(name)
    return _read(folder) if folder.is_dir() else None


def _current_model() -> str:
    from tabletop.speech.adapt import model_fingerprint

    return model_fingerprint()


def load_profile(name: str) -> Profile:
    """The profile of ``name`` for decoding.

    :raises SetupError: when there is none, or it was made for another version of the model.
    """
    profile = find_profile(name)
    if profile is None:
        known = ", ".join(p.name for p in list_profiles()) or "none"
        raise SetupError(
            f"no voice profile for {name} (enrolled: {known}): run `tabletop enroll --players {name}`", code="no-profile"
        )
    if profile.model and profile.model != _current_model():
        raise SetupError(
            f"{profile.name}'s voice profile was made for another PocketSphinx model: enroll again "
            f"(`tabletop enroll --players {profile.name}`)",
            code="stale-profile",
        )
    return profile


def list_profiles() -> list[Profile]:
    """Every enrolled player's profile, by name."""
    root = voices_dir()
    if not root.is_dir():
        return []
    found = [_read(folder) for folder in sorted(root.iterdir()) if folder.is_dir() and not folder.name.startswith(".")]
    return sorted((p for p in found if p is not None), key=lambda p: p.name.casefold())


def enroll(
    name: str,
    recordings: Sequence[tuple[Utterance, str]],
    *,
    method: str = DEFAULT_METHOD,
    keep_audio: bool = False,
) -> Profile:
    """Adapt the model to ``name``'s recordings and keep the result as their profile (replacing
    any earlier one only once the new one is complete).

    :raises SetupError: when sphinxtrain is missing or adaptation fails.
    """
    from tabletop.speech.adapt import adapt, model_fingerprint
    from tabletop.speech.audio import write_wav

    key = profile_key(name)
    root = voices_dir()
    root.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{key}.", dir=root))
    try:
        result = adapt(recordings, work, method=method)
        if keep_audio:
            audio = work / "audio"
            audio.mkdir()
            lines = []
            for i, (utterance, text) in enumerate(recordings):
                path = write_wav(audio / f"{i + 1:03d}.wav", utterance)
                lines.append(f"{path.name},{json.dumps(text)}")
            (audio / "prompts.csv").write_text("path,text\n" + "\n".join(lines) + "\n", encoding="utf-8")
        meta = {
            "name": name.strip(),
            "method": method,
            "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "utterances": result.utterances,
            "seconds": result.seconds,
            "cpu_seconds": result.cpu_seconds,
            "words": list(result.words),
            "model": model_fingerprint(),
            "audio_kept": keep_audio,
        }
        (work / "profile.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
        final = root / key
        old = None
        if final.exists():
            old = root / f".{key}.old.{os.getpid()}"
            os.replace(final, old)
        os.replace(work, final)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)
    _forget_pooled()
    profile = _read(final)
    assert profile is not None
    return profile


def forget(name: str) -> bool:
    """Delete ``name``'s profile (and any table-wide model made with it). True when one existed."""
    folder = voices_dir() / profile_key(name)
    if not folder.exists():
        return False
    shutil.rmtree(folder)
    _forget_pooled()
    return True


def _forget_pooled() -> None:
    shutil.rmtree(voices_dir() / ".pooled", ignore_errors=True)


def table_acoustic(profiles: Sequence[Profile]) -> dict[str, str] | None:
    """Decoder options for one model adapted to all these players at once (their counts
    pooled, MAP). None for no profiles; one profile's own model for one. Made once per set of
    profiles and cached next to them.
    """
    if not profiles:
        return None
    if len(profiles) == 1:
        return profiles[0].acoustic()
    digest = hashlib.sha256()
    for p in sorted(profiles, key=lambda p: p.folder.name):
        digest.update(p.folder.name.encode() + b"\0" + p.created.encode() + b"\0")
    folder = voices_dir() / ".pooled" / digest.hexdigest()[:16]
    if not (folder / "variances").exists():
        from tabletop.speech.adapt import pooled_model

        missing = [p.name for p in profiles if not p.counts.is_file()]
        if missing:
            raise SetupError(f"the voice profiles of {', '.join(missing)} lack their counts: enroll them again")
        folder.parent.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=".pool.", dir=folder.parent))
        try:
            pooled_model([p.counts for p in profiles], work)
            try:
                os.replace(work, folder)
            except OSError:  # made meanwhile by another process
                pass
        finally:
            if work.exists():
                shutil.rmtree(work, ignore_errors=True)
    return {"mean": str(folder / "means"), "var": str(folder / "variances")}


def acoustic_for(players: Sequence[str], profile: str | None = None) -> dict[str, str] | None:
    """The acoustic model a game hears with: ``profile``'s own (``--profile NAME``), the
    bundled one for ``profile="none"``, else the table-wide model of the players who enrolled
    (None when nobody did). A stale or damaged profile of a player is left out, not fatal."""
    if profile is not None:
        if profile.strip().casefold() == "none":
            return None
        return load_profile(profile).acoustic()
    return table_acoustic(_usable(players))


def _usable(players: Sequence[str]) -> list[Profile]:
    """The profiles of these players that fit the installed model (others are left out)."""
    current = None
    found = []
    for name in players:
        p = find_profile(name)
        if p is None:
            continue
        current = current or _current_model()
        if p.model == current:
            found.append(p)
    return found


def offered() -> set[str]:
    """Profile keys of the players already offered enrollment at the start of a game."""
    try:
        data = json.loads((voices_dir() / ".offered.json").read_text(encoding="utf-8"))
        return {str(k) for k in data}
    except (OSError, ValueError, TypeError):
        return set()


def mark_offered(names: Sequence[str]) -> None:
    keys = offered() | {profile_key(n) for n in names}
    root = voices_dir()
    root.mkdir(parents=True, exist_ok=True)
    tmp = root / f".offered.{os.getpid()}.tmp"
    tmp.write_text(json.dumps(sorted(keys)) + "\n", encoding="utf-8")
    os.replace(tmp, root / ".offered.json")


def game_recogniser(
    engine: str | None, players: Sequence[str], profile: str | None = None, *, mode: str = DEFAULT_MODE
) -> Any:
    """The recogniser for a game or for ``tabletop hear``.

    With ``profile`` (``--profile NAME``) the embedded recogniser hears everything with that
    player's model (``"none"``: the bundled one). Otherwise, when PocketSphinx is the engine,
    ``mode`` says how the enrolled players' profiles are used: "pooled" (one model adapted to
    all of them), "speaker" (the profile of the player the game expects to speak), or "none"
    (see :mod:`tabletop.speech.recognisers.profiled`). Profiles adapt PocketSphinx only: an installed Vosk model is still
    preferred by "auto" unless a profile is named.

    :raises SetupError: for an unknown or stale profile, or a profile with ``engine="vosk"``.
    """
    from tabletop.speech.models import find_vosk_model
    from tabletop.speech.recognisers import make_recogniser

    if mode not in (*MODES, "none"):
        raise InvalidInputError(f"unknown profile mode {mode!r}: use one of {', '.join(MODES)}, none")
    engine = None if engine in (None, "", "auto") else engine
    named = profile is not None and profile.strip().casefold() != "none"
    if named:
        if engine == "vosk":
            raise SetupError("voice profiles adapt the embedded recogniser: leave out --engine vosk to use --profile")
        return make_recogniser("pocketsphinx", players, acoustic=acoustic_for(players, profile))
    if engine is None:
        engine = "vosk" if find_vosk_model() is not None else "pocketsphinx"
        if engine == "vosk":
            try:
                return make_recogniser("vosk", players)
            except SetupError:
                engine = "pocketsphinx"
    if engine != "pocketsphinx" or profile is not None or mode == "none":
        return make_recogniser(engine, players)
    enrolled = _usable(players)
    if not enrolled:
        return make_recogniser(engine, players)
    from tabletop.speech.recognisers.profiled import SpeakerProfiles

    try:
        pooled = table_acoustic(enrolled)
    except SetupError as error:  # e.g. sphinxtrain removed since the table's model was made
        import sys

        print(f"tabletop: no table-wide voice model ({error.reason}); hearing with each player's own", file=sys.stderr)
        return SpeakerProfiles(players, {p.name: p.acoustic() for p in enrolled}, None, use="speaker", second="auto")
    return SpeakerProfiles(players, {p.name: p.acoustic() for p in enrolled}, pooled, use=mode, second="auto")
