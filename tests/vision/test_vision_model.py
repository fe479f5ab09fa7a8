"""The shipped reader: present, matching its manifest, and rebuilt identically from the same seed."""

from __future__ import annotations

from pathlib import Path

from tabletop.vision import model_status
from tabletop.vision.build import build


def test_the_shipped_reader_is_present_and_verified() -> None:
    status = model_status()
    assert status["present"] and status["verified"], status
    assert len(status["sha256"]) == 64
    assert "rendered" in status["built_from"]


def test_the_build_is_reproducible(tmp_path: Path) -> None:
    first = build(tmp_path / "a", seed=5, views=40, jobs=1, say=lambda *_: None, check_views=10)
    second = build(tmp_path / "b", seed=5, views=40, jobs=1, say=lambda *_: None, check_views=10)
    assert first["sha256"] == second["sha256"]


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
