"""Where the built card reader lives (``models/cards/``) and what is there."""

from __future__ import annotations

import hashlib
import json
import os
import site
import sys
import sysconfig
from pathlib import Path

__all__ = ["MODEL_DIR", "INSTALLED_SUBDIR", "RANK_FILE", "SUIT_FILE", "VERIFIER_FILE", "PIP_SHAPE_FILE", "MANIFEST_FILE",
           "model_dir", "model_status"]

MODEL_DIR = Path(__file__).resolve().parents[2] / "models" / "cards"
"""The shipped reader: ``models/cards/`` at the root of the checkout (where the build writes it)."""
INSTALLED_SUBDIR = Path("share") / "tabletop" / "models" / "cards"
"""Where ``pip install`` puts ``models/cards/`` (pyproject's data-files), under the install's data
path: ``sys.prefix`` for a venv or system install, ``~/.local`` for ``--user``."""
RANK_FILE, SUIT_FILE, MANIFEST_FILE = "rank_reader.npz", "suit_reader.npz", "manifest.json"
VERIFIER_FILE = "index_verifier.npz"
"""The index verifier (``lone``): optional; without it a card read at one index corner is never sure."""
PIP_SHAPE_FILE = "pip_shape.npz"
"""The clubs/spades pip-shape reader (``reader.Reader.pip_shape``): optional; without it the suit reader alone splits
a black pip between clubs and spades."""


def _installed_dirs() -> list[Path]:
    roots = [sysconfig.get_path("data"), sys.prefix, getattr(site, "USER_BASE", None) or ""]
    try:
        roots.append(sysconfig.get_path("data", f"{os.name}_user"))
    except KeyError:
        pass
    seen: list[Path] = []
    for root in roots:
        if root and (folder := Path(root) / INSTALLED_SUBDIR) not in seen:
            seen.append(folder)
    return seen


def model_dir() -> Path:
    """The reader's folder: ``$TABLETOP_CARD_MODEL_DIR`` if set, else the checkout's ``models/cards/``
    (a source checkout or an editable install), else the copy ``pip install`` made."""
    override = os.environ.get("TABLETOP_CARD_MODEL_DIR")
    if override:
        return Path(override)
    if (MODEL_DIR / RANK_FILE).is_file():
        return MODEL_DIR
    for folder in _installed_dirs():
        if (folder / RANK_FILE).is_file():
            return folder
    return MODEL_DIR


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 16), b""):
            digest.update(chunk)
    return digest.hexdigest()


def model_status() -> dict:
    """What ``tabletop models list/verify`` shows for the card reader.

    ``{"name": "cards", "path": ..., "present": bool, "files": {name: sha256}, "built_from": str,
    "verified": bool}`` — ``verified`` is true when every file's hash matches the build manifest.
    """
    folder = model_dir()
    names = (RANK_FILE, SUIT_FILE, VERIFIER_FILE, PIP_SHAPE_FILE, MANIFEST_FILE)
    files = {name: _sha256(folder / name) for name in names if (folder / name).is_file()}
    present = RANK_FILE in files and SUIT_FILE in files
    built_from = "missing: run `python -m tabletop.vision.build`"
    verified = False
    if MANIFEST_FILE in files:
        try:
            manifest = json.loads((folder / MANIFEST_FILE).read_text())
            built_from = manifest.get("built_from", built_from)
            expected = manifest.get("sha256", {})
            verified = present and all(files.get(name) == digest for name, digest in expected.items())
        except (OSError, ValueError):
            built_from = "manifest unreadable: rebuild with `python -m tabletop.vision.build`"
    return {"name": "cards", "kind": "vision", "path": str(folder), "present": present, "files": files,
            "sha256": files.get(RANK_FILE), "built_from": built_from, "verified": verified}
