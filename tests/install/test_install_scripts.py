"""The README's two commands work with the system's own Python (issue 12.0).

Debian's python3 refuses `pip install` outside a virtual environment (PEP 668), so `./start` and
`.ci/run` make `.venv` in the checkout and install into it. Here both run in a fresh copy of the
checkout with only the system's PATH (no pyenv, no other Python first): `.ci/run` installs, runs a
test file inside the venv and passes; a failing test run fails it; a second run reuses the venv;
`./start` with no terminal and no microphone plays the demo from the same venv and asks nothing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from support import ROOT

SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
SYSTEM_PYTHON = Path("/usr/bin/python3")

pytestmark = pytest.mark.slow


def _missing_debian_packages() -> list[str]:
    wanted = [line.split("#")[0].strip() for line in (ROOT / ".ci" / "debian-packages").read_text().splitlines()]
    out = []
    for package in filter(None, wanted):
        status = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True)
        if "install ok installed" not in status.stdout:
            out.append(package)
    return out


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not SYSTEM_PYTHON.exists() or shutil.which("dpkg-query") is None:
        pytest.skip("not a Debian-like system with /usr/bin/python3")
    version = subprocess.run([str(SYSTEM_PYTHON), "-c", "import sys; print(sys.version_info >= (3, 11))"],
                             capture_output=True, text=True).stdout.strip()
    if version != "True":
        pytest.skip("the system python3 is older than 3.11")
    if os.geteuid() != 0 and _missing_debian_packages():
        pytest.skip(f"not root and Debian packages are missing: {_missing_debian_packages()}")
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout: cannot make a fresh copy of it")
    copy = tmp_path_factory.mktemp("fresh") / "tabletop"
    for name in filter(None, listed.stdout.decode().split("\0")):
        source = ROOT / name
        if source.is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / name)
    return copy


def _env(**extra: str) -> dict[str, str]:
    keep = {k: v for k, v in os.environ.items()
            if k.startswith(("PIP_", "LANG", "LC_")) or k.lower() in ("http_proxy", "https_proxy", "no_proxy")}
    return {**keep, "HOME": os.environ.get("HOME", "/root"), "PATH": SYSTEM_PATH, **extra}


def _run(cmd: list[str], cwd: Path, **extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, env=_env(**extra), capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=1500)


def test_ci_run_installs_into_a_venv_and_runs_the_tests_there(checkout: Path) -> None:
    first = _run(["bash", ".ci/run", "tests/language/test_language_family_phrasings.py"], checkout, CI="true")
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-3000:]
    assert " passed" in first.stdout and "failed" not in first.stdout
    venv_python = checkout / ".venv" / "bin" / "python"
    used = subprocess.run([str(venv_python), "-c", "import sys; print(sys._base_executable)"],
                          capture_output=True, text=True).stdout.strip()
    assert Path(used).resolve() == SYSTEM_PYTHON.resolve(), used  # the system's python made the venv
    assert "externally-managed" not in first.stderr

    failing = _run(["bash", ".ci/run", "tests/no_such_test_file.py"], checkout, CI="true")
    assert failing.returncode != 0  # a failed test run fails CI
    assert "Installing tabletop" not in failing.stderr  # the venv was reused, nothing reinstalled


def test_start_plays_the_demo_from_the_venv_and_asks_nothing_without_a_terminal(checkout: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"  # a HOME with no sound configuration: no microphone
    home.mkdir()
    for name in (".config/pip", ".cache/pip", ".pip"):  # the same package index and cache as this user
        if (Path(os.environ.get("HOME", "/root")) / name).exists():
            (home / name).parent.mkdir(parents=True, exist_ok=True)
            (home / name).symlink_to(Path(os.environ.get("HOME", "/root")) / name)
    result = _run(["./start", "Ana", "Ben"], checkout, HOME=str(home))
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "No microphone found: playing the demo game" in result.stdout
    assert "tabletop play --text --players Ana Ben" in result.stdout  # how the players named can play
    assert "stock" in result.stdout.splitlines()[-1]  # the demo ran to its end
    assert "[Y/n]" not in result.stdout  # the Vosk offer is for terminals only
    assert (checkout / ".venv" / "bin" / "tabletop").exists()
