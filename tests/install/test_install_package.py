"""`pip install .` (not editable) gives a whole tabletop: the card reader and the vocabulary come
with the package, so `see` and `hear` work from a fresh virtual environment, far from the checkout.

The package is built into a wheel from a copy of the source, installed without dependencies into
a new venv that borrows this environment's third-party packages (a .pth file: fast, no network),
and run from a folder where the checkout is not importable.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from support import ROOT, SHARED_DATA

PHOTOS = ("images/IMG_2385.JPG", "images/IMG_2386.JPG")  # real photos, one labelled card each


def _run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, **kw)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with tabletop installed from its wheel; returns the venv's bin folder."""
    tmp = tmp_path_factory.mktemp("installed")
    src = tmp / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in ("tabletop", "models"):
        shutil.copytree(ROOT / name, src / name, ignore=ignore)
    wheels = tmp / "wheels"
    built = _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(src)])
    assert built.returncode == 0, built.stderr
    venv = tmp / "venv"
    made = _run([sys.executable, "-m", "venv", str(venv)])
    assert made.returncode == 0, made.stderr
    bin_dir = venv / "bin"
    # Borrow this environment's third-party packages (numpy, OpenCV, PocketSphinx...): appended
    # after the venv's own site-packages, so the installed tabletop is the one imported.
    venv_site = Path(_run([str(bin_dir / "python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).stdout.strip())
    borrowed = [p for p in [*site.getsitepackages(), sysconfig.get_path("purelib")] if Path(p).is_dir()]
    (venv_site / "_borrowed_deps.pth").write_text("\n".join(dict.fromkeys(borrowed)) + "\n")
    wheel = next(wheels.glob("tabletop-*.whl"))
    inst = _run([str(bin_dir / "python"), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)])
    assert inst.returncode == 0, inst.stderr
    return bin_dir


def _env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLETOP_") and k != "PYTHONPATH"}
    env["TABLETOP_MODELS_DIR"] = str(tmp / "no-models")  # no Vosk model: the embedded recogniser
    return env


def test_the_installed_package_is_imported_from_the_venv_with_its_card_reader(installed: Path, tmp_path: Path) -> None:
    probe = _run(
        [str(installed / "python"), "-c",
         "import tabletop, tabletop.vision.store as s; print(tabletop.__file__); print(s.model_dir())"],
        cwd=tmp_path, env=_env(tmp_path),
    )
    assert probe.returncode == 0, probe.stderr
    package, model = probe.stdout.splitlines()
    venv = installed.parent
    assert Path(package).is_relative_to(venv), "the checkout's tabletop was imported, not the installed one"
    assert Path(model).is_relative_to(venv) and (Path(model) / "rank_reader.npz").is_file()
    verify = _run([str(installed / "tabletop"), "models", "verify"], cwd=tmp_path, env=_env(tmp_path))
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert "card reader" in verify.stdout


def test_see_reads_real_photos_from_the_installed_package(installed: Path, tmp_path: Path) -> None:
    folder = SHARED_DATA / "cards-dev"
    if not folder.is_dir():
        pytest.skip(f"real card photos not found at {folder}")
    labels = {row["path"]: row["rank"] for row in csv.DictReader((folder / "labels.csv").open())}
    for photo in PHOTOS:
        seen = _run([str(installed / "tabletop"), "see", str(folder / photo), "--json"], cwd=tmp_path, env=_env(tmp_path))
        assert seen.returncode == 0, seen.stderr
        ranks = [card["rank"] for card in json.loads(seen.stdout)["cards"]]
        assert labels[photo] in ranks, (photo, ranks)


def test_hear_decodes_synthesised_speech_from_the_installed_package(installed: Path, tmp_path: Path) -> None:
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed: cannot synthesise test speech")
    from tabletop.speech import synth
    from tabletop.speech.audio import write_wav

    clip = write_wav(tmp_path / "ask.wav", synth.realistic("ben do you have any sevens", voice="en-us", seed=1))
    heard = _run([str(installed / "tabletop"), "hear", str(clip), "--players", "Ana", "Ben", "--json"],
                 cwd=tmp_path, env=_env(tmp_path))
    assert heard.returncode == 0, heard.stderr
    result = json.loads(heard.stdout.splitlines()[0])
    assert result["intent"] == {"type": "ask", "target": "Ben", "rank": "7"}
    assert result["engine"] == "pocketsphinx"
