"""Speech models on disk: where they live, how to install and verify them.

The Vosk small US English model is optional (PocketSphinx's bundled model is the embedded
default). It lives in ``$TABLETOP_VOSK_MODEL`` when set, else under the models folder
(``$TABLETOP_MODELS_DIR`` or the user data folder, e.g. ``~/.local/share/tabletop/models``).

Installing verifies the archive's size and SHA-256 before anything is unpacked, unpacks into a
temporary folder next to the destination and renames it into place, so a failed or refused
install leaves nothing behind.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from tabletop.errors import SetupError

__all__ = [
    "VoskModelSpec",
    "VOSK_SMALL_EN_US",
    "models_dir",
    "find_vosk_model",
    "vosk_model_problem",
    "install_vosk_model",
    "sha256_of",
    "speech_model_statuses",
]


@dataclass(frozen=True)
class VoskModelSpec:
    name: str
    url: str
    size: int
    sha256: str
    licence: str


VOSK_SMALL_EN_US = VoskModelSpec(
    name="vosk-model-small-en-us-0.15",
    url="https://alphacephei.com/vosk/models/vosk-model-small-en-us-0.15.zip",
    size=41_205_931,
    sha256="30f26242c4eb449f948e42cb302dd7a686cb29a3423a8367f99ff41780942498",
    licence="Apache-2.0",
)

# What a Vosk model folder must hold to load.
_VOSK_PARTS = ("am/final.mdl", "conf/model.conf")


def models_dir() -> Path:
    """The folder models are installed into (created on demand by install)."""
    override = os.environ.get("TABLETOP_MODELS_DIR")
    if override:
        return Path(override)
    from platformdirs import user_data_dir

    return Path(user_data_dir("tabletop")) / "models"


def vosk_model_problem(path: Path) -> str | None:
    """None when ``path`` looks like a loadable Vosk model, else what is wrong with it."""
    if not path.is_dir():
        return f"{path} is not a folder"
    missing = [part for part in _VOSK_PARTS if not (path / part).exists()]
    if missing:
        return f"{path} is not a Vosk model (missing {', '.join(missing)})"
    if not ((path / "graph" / "HCLr.fst").exists() or (path / "graph" / "HCLG.fst").exists()):
        return f"{path} is not a Vosk model (no graph/HCLr.fst or graph/HCLG.fst)"
    return None


def find_vosk_model() -> Path | None:
    """The Vosk model to use: ``$TABLETOP_VOSK_MODEL``, else the installed small model, else None."""
    env = os.environ.get("TABLETOP_VOSK_MODEL")
    if env:
        path = Path(env).expanduser()
        return path if vosk_model_problem(path) is None else None
    path = models_dir() / VOSK_SMALL_EN_US.name
    return path if vosk_model_problem(path) is None else None


def sha256_of(path: Path, progress: Callable[[int], None] | None = None) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
            if progress:
                progress(len(chunk))
    return digest.hexdigest()


def _download(url: str, dest: Path, size: int, show_progress: bool = True) -> None:
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TransferSpeedColumn

    try:
        response = urllib.request.urlopen(url, timeout=60)  # noqa: S310 - a fixed https URL
    except OSError as error:
        raise SetupError(
            f"could not download {url} ({error}); download it elsewhere and run "
            f"`tabletop models install --from FILE.zip`"
        ) from None
    total = int(response.headers.get("Content-Length") or size)
    with response, open(dest, "wb") as out, Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), DownloadColumn(), TransferSpeedColumn(),
        disable=not show_progress,
    ) as progress:
        task = progress.add_task(VOSK_SMALL_EN_US.name, total=total)
        while True:
            try:
                chunk = response.read(1 << 16)
            except OSError as error:
                raise SetupError(f"download of {url} broke off ({error}); try again") from None
            if not chunk:
                break
            out.write(chunk)
            progress.update(task, advance=len(chunk))


def install_vosk_model(
    archive: Path | None = None,
    spec: VoskModelSpec = VOSK_SMALL_EN_US,
    dest_root: Path | None = None,
    *,
    show_progress: bool = True,
    verify: bool = True,
) -> Path:
    """Install the Vosk model from ``archive`` (a local zip) or by downloading ``spec.url``.

    The archive's size and SHA-256 must match ``spec`` (unless ``verify`` is False, for an
    archive the user vouches for); it must hold one top folder named ``spec.name``.

    :raises SetupError: on a failed download or a refused archive; nothing is left behind.
    """
    dest_root = Path(dest_root) if dest_root else models_dir()
    dest_root.mkdir(parents=True, exist_ok=True)
    final = dest_root / spec.name
    work = Path(tempfile.mkdtemp(prefix=f".{spec.name}.", dir=dest_root))
    try:
        if archive is None:
            archive_path = work / f"{spec.name}.zip"
            _download(spec.url, archive_path, spec.size, show_progress)
        else:
            archive_path = Path(archive)
            if not archive_path.is_file():
                raise SetupError(f"{archive_path}: no such file")
        if verify:
            size = archive_path.stat().st_size
            if size != spec.size:
                raise SetupError(
                    f"{archive_path.name} is {size:,} bytes, expected {spec.size:,}: "
                    f"not the official {spec.name}.zip; download it again from {spec.url}"
                )
            digest = sha256_of(archive_path)
            if digest != spec.sha256:
                raise SetupError(
                    f"{archive_path.name} has SHA-256 {digest}, expected {spec.sha256}: "
                    f"the archive is damaged or not the official one; download it again from {spec.url}"
                )
        unpacked = work / "unpacked"
        _safe_extract(archive_path, unpacked)
        top = unpacked / spec.name
        if not top.is_dir():
            entries = sorted(p.name for p in unpacked.iterdir())
            raise SetupError(f"{archive_path.name} does not hold a {spec.name}/ folder (found {entries})")
        problem = vosk_model_problem(top)
        if problem:
            raise SetupError(f"{archive_path.name}: {problem}")
        if final.exists():
            old = work / "previous"
            os.replace(final, old)
        os.replace(top, final)
        return final
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _safe_extract(archive: Path, into: Path) -> None:
    try:
        with zipfile.ZipFile(archive) as zf:
            root = into.resolve()
            for member in zf.infolist():
                target = (into / member.filename).resolve()
                if root not in target.parents and target != root:
                    raise SetupError(f"{archive.name}: refusing a path outside the folder: {member.filename!r}")
            zf.extractall(into)
    except zipfile.BadZipFile:
        raise SetupError(f"{archive.name} is not a zip archive") from None


def speech_model_statuses() -> list[dict[str, Any]]:
    """One status per speech model: name, ok, path, problem (what to do), default."""
    from tabletop.speech.recognisers.pocketsphinx import model_status

    out = []
    ps = model_status()
    vosk_path = find_vosk_model()
    env = os.environ.get("TABLETOP_VOSK_MODEL")
    if vosk_path is not None:
        vosk = {"name": "vosk " + vosk_path.name, "ok": True, "path": str(vosk_path), "problem": None}
        try:
            import vosk as _  # noqa: F401
        except (ImportError, OSError) as error:
            vosk.update(ok=False, problem=f"the vosk package does not load ({error}): pip install vosk==0.3.45")
    elif env:
        vosk = {
            "name": "vosk (TABLETOP_VOSK_MODEL)",
            "ok": False,
            "path": env,
            "problem": f"{vosk_model_problem(Path(env).expanduser())}: point TABLETOP_VOSK_MODEL at an unpacked Vosk model folder",
        }
    else:
        vosk = {
            "name": f"vosk {VOSK_SMALL_EN_US.name} (optional)",
            "ok": False,
            "path": str(models_dir() / VOSK_SMALL_EN_US.name),
            "problem": "not installed: `tabletop models install` (or `--from FILE.zip`); PocketSphinx is used meanwhile",
        }
    vosk["default"] = vosk["ok"]
    ps["default"] = not vosk["ok"]
    out.append(ps)
    out.append(vosk)
    return out

