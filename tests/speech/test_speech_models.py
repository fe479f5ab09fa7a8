"""Model install and verify, with a small archive the test makes (no network here)."""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path

import pytest

from tabletop.errors import SetupError
from tabletop.speech.models import VOSK_SMALL_EN_US, VoskModelSpec, find_vosk_model, install_vosk_model


def _fake_model_zip(path: Path, name: str = VOSK_SMALL_EN_US.name) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(f"{name}/am/final.mdl", b"not really a model")
        zf.writestr(f"{name}/conf/model.conf", b"--min-active=200\n")
        zf.writestr(f"{name}/graph/HCLr.fst", b"")
        zf.writestr(f"{name}/graph/Gr.fst", b"")
        zf.writestr(f"{name}/ivector/final.ie", b"")
    return path


def _spec_for(archive: Path) -> VoskModelSpec:
    return VoskModelSpec(
        name=VOSK_SMALL_EN_US.name,
        url="https://example.invalid/x.zip",
        size=archive.stat().st_size,
        sha256=hashlib.sha256(archive.read_bytes()).hexdigest(),
        licence="test",
    )


@pytest.fixture()
def models_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "models"
    monkeypatch.setenv("TABLETOP_MODELS_DIR", str(root))
    monkeypatch.delenv("TABLETOP_VOSK_MODEL", raising=False)
    return root


def test_the_official_archive_is_pinned() -> None:
    assert VOSK_SMALL_EN_US.size == 41_205_931
    assert VOSK_SMALL_EN_US.sha256 == "30f26242c4eb449f948e42cb302dd7a686cb29a3423a8367f99ff41780942498"
    assert VOSK_SMALL_EN_US.url == "https://alphacephei.com/vosk/models/vosk-model-small-en-us-0.15.zip"


def test_checksum_mismatch_is_refused_and_nothing_is_left(tmp_path: Path, models_home: Path) -> None:
    archive = _fake_model_zip(tmp_path / "vosk.zip")
    with pytest.raises(SetupError, match="expected 41,205,931") as error:
        install_vosk_model(archive)  # the official spec: wrong size
    assert "download it again" in error.value.reason
    wrong_hash = VoskModelSpec(**{**_spec_for(archive).__dict__, "sha256": "0" * 64})
    with pytest.raises(SetupError, match="SHA-256"):
        install_vosk_model(archive, wrong_hash)
    assert not models_home.exists() or list(models_home.iterdir()) == []
    assert find_vosk_model() is None


def test_a_verified_archive_is_installed_atomically(tmp_path: Path, models_home: Path) -> None:
    archive = _fake_model_zip(tmp_path / "vosk.zip")
    where = install_vosk_model(archive, _spec_for(archive), show_progress=False)
    assert where == models_home / VOSK_SMALL_EN_US.name
    assert (where / "am" / "final.mdl").exists()
    assert [p.name for p in models_home.iterdir()] == [VOSK_SMALL_EN_US.name]  # no temporary left
    assert find_vosk_model() == where
    # Installing again replaces it cleanly.
    install_vosk_model(archive, _spec_for(archive), show_progress=False)
    assert [p.name for p in models_home.iterdir()] == [VOSK_SMALL_EN_US.name]


def test_an_archive_without_the_model_folder_is_refused(tmp_path: Path, models_home: Path) -> None:
    archive = _fake_model_zip(tmp_path / "other.zip", name="something-else")
    with pytest.raises(SetupError, match="does not hold"):
        install_vosk_model(archive, _spec_for(archive))
    assert list(models_home.iterdir()) == []
    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"PK not a zip")
    with pytest.raises(SetupError, match="not a zip"):
        install_vosk_model(bad, _spec_for(bad))
    with pytest.raises(SetupError, match="no such file"):
        install_vosk_model(tmp_path / "missing.zip")


def test_env_override_and_broken_model_give_setup_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tabletop.speech.recognisers.vosk import load_model

    monkeypatch.setenv("TABLETOP_VOSK_MODEL", str(tmp_path / "nowhere"))
    assert find_vosk_model() is None
    with pytest.raises(SetupError, match="models install|TABLETOP_VOSK_MODEL"):
        load_model()
    fake = tmp_path / "unpacked"
    with zipfile.ZipFile(_fake_model_zip(tmp_path / "v.zip")) as zf:
        zf.extractall(fake)
    with pytest.raises(SetupError, match="could not load|reinstall"):
        load_model(fake / VOSK_SMALL_EN_US.name)


def test_default_recogniser_is_pocketsphinx_without_vosk(models_home: Path) -> None:
    from tabletop.speech.recognisers import default_recogniser, make_recogniser

    assert default_recogniser().name == "pocketsphinx"
    with pytest.raises(SetupError, match="no Vosk model"):
        make_recogniser("vosk")


def test_models_cli_list_and_verify(models_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tabletop.cli import main

    assert main(["models", "list", "--json"]) == 0
    items = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    names = [i["name"] for i in items]
    assert any(n.startswith("pocketsphinx") for n in names)
    vosk = next(i for i in items if i["name"].startswith("vosk"))
    assert not vosk["ok"] and "tabletop models install" in vosk["problem"]
    assert main(["models", "verify"]) == 0
    assert "pocketsphinx" in capsys.readouterr().out


def test_models_cli_install_from_refuses_a_bad_archive(tmp_path: Path, models_home: Path, capsys) -> None:
    from tabletop.cli import main

    archive = _fake_model_zip(tmp_path / "vosk.zip")
    assert main(["models", "install", "--from", str(archive), "--quiet"]) == 2
    assert "expected 41,205,931" in capsys.readouterr().err
    assert not models_home.exists() or list(models_home.iterdir()) == []
