"""The shipped reader: present, matching its manifest, and rebuilt identically from the same seed."""

from __future__ import annotations

import json
from pathlib import Path

from tabletop.vision import model_status
from tabletop.vision import scenes
from tabletop.vision.build import build, build_pip_shape
from tabletop.vision.tabletops import table_names


def test_the_shipped_reader_is_present_and_verified() -> None:
    status = model_status()
    assert status["present"] and status["verified"], status
    assert len(status["sha256"]) == 64
    assert "rendered" in status["built_from"]


def test_the_reader_was_built_from_no_held_out_face_or_table() -> None:
    """The bench and the table tests measure the held-out faces and tables: the build must never have seen them."""
    manifest = json.loads((Path(model_status()["path"]) / "manifest.json").read_text())
    assert manifest["real_scenes"] > 0 and manifest["real_faces"], manifest["built_from"]
    assert set(manifest["held_out_faces"]) == {str(c) for c in scenes.HELD_OUT_FACES}
    assert not set(manifest["real_faces"]) & set(manifest["held_out_faces"])
    assert set(manifest["held_out_tables"]) == set(table_names("held_out"))
    assert manifest["tables"] and not set(manifest["tables"]) & set(manifest["held_out_tables"])


def test_the_build_is_reproducible(tmp_path: Path) -> None:
    real = 3 if scenes.real_faces_available() else 0  # a few composited photos of the training faces too
    options = dict(seed=5, views=40, jobs=1, say=lambda *_: None, check_views=10, real_scenes=real, check_scenes=2)
    first = build(tmp_path / "a", **options)
    second = build(tmp_path / "b", **options)
    assert first["sha256"] == second["sha256"]
    assert first["real_rank_glyphs"] > 0 or not real


def test_the_pip_shape_reader_is_built_reproducibly_from_the_training_faces(tmp_path: Path) -> None:
    """The clubs/spades pip-shape reader: the same file from the same seed, recorded in the manifest, and built from
    the training composites only (those the rank and suit readers were built from)."""
    import shutil

    import pytest

    if not scenes.real_faces_available():
        pytest.skip(f"real card faces not found at {scenes.FACES_DIR}")
    shipped = Path(model_status()["path"])
    digests = []
    for name in ("a", "b"):
        folder = tmp_path / name
        shutil.copytree(shipped, folder)
        manifest = build_pip_shape(folder, seed=5, scenes_count=4, jobs=1, say=lambda *_: None)
        assert manifest["pip_shape"]["pips"] > 0 and "training" in manifest["pip_shape"]["built_from"]
        digests.append(manifest["sha256"]["pip_shape.npz"])
    assert digests[0] == digests[1]
    shipped_manifest = json.loads((shipped / "manifest.json").read_text())
    assert shipped_manifest["pip_shape"]["check"]["mean_right"] > shipped_manifest["pip_shape"]["check"]["suit_reader_right"]


def test_a_missing_reader_is_a_setup_error_that_says_how_to_build_it(tmp_path: Path) -> None:
    import pytest

    from tabletop.errors import SetupError
    from tabletop.vision.reader import Reader

    with pytest.raises(SetupError) as error:
        Reader.load(tmp_path)
    assert "python -m tabletop.vision.build" in error.value.reason


def test_see_refuses_what_is_not_a_colour_image() -> None:
    import numpy as np
    import pytest

    from tabletop.errors import InvalidInputError
    from tabletop.vision import see

    with pytest.raises(InvalidInputError):
        see(np.zeros((10, 10), np.uint8))
