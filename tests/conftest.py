"""Shared fixtures: the edition of the real seeds, built once per test session."""

from pathlib import Path

import pytest

from edition.pipeline import build

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def seeds_edition():
    return build(ROOT / "seeds")
