"""Shared fixtures: the edition of the real seeds, built once per test session."""

from pathlib import Path

import pytest

from edition.engine.export import to_dict
from tests.support import build_folder as build

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def seeds_edition():
    return build(ROOT / "seeds")


@pytest.fixture(scope="session")
def seeds_export(seeds_edition):
    """The export of the seeds and the witness texts it points into, as the site renders them."""
    return to_dict(seeds_edition), {w.siglum: w.text for w in seeds_edition.witnesses}
