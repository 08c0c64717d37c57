"""The package as a user installs it: a wheel in a fresh virtualenv, run outside the repository.

An editable install reads the engine's data files from the source tree, so it hides a wheel that lacks them;
only a real wheel, installed where the repository is out of reach, shows what `pip install` gives."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from tests.conftest import once

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


def _make_wheel(folder: Path) -> None:
    # From a copy of the sources: setuptools leaves a build/ folder in the tree it builds, whose files a later
    # wheel would carry whether or not the package data names them.
    source = folder / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source)
    shutil.copytree(ROOT / "edition", source / "edition", ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(folder / "wheel"), str(source)],
        check=True,
        capture_output=True,
    )


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    """The wheel, built once per run (whichever worker asks first: conftest.once)."""
    (built,) = (once(tmp_path_factory, "wheel", _make_wheel) / "wheel").glob("anshi_edition-*.whl")
    return built


def test_the_wheel_carries_the_engine_data_and_templates(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in (
        "edition/engine/data/variants.tsv",
        "edition/engine/data/unihan_variants.tsv",
        "edition/engine/data/unihan_variants.LICENSE",
        "edition/engine/data/surnames.txt",
        "edition/interchange/edition.schema.json",
        "edition/site/templates/episode.md.jinja",
    ):
        assert needed in names


@pytest.mark.long(seconds=6)  # and building the wheel
def test_an_installed_wheel_exports_seeds_outside_the_repository(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    # The wheel alone, no dependencies: those are this interpreter's (on PYTHONPATH, where no .pth file, and so
    # no editable finder for the repository, is read).
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", str(wheel)],
        check=True,
        capture_output=True,
    )
    site_packages = next(p for p in sys.path if p.endswith("site-packages"))
    folder = tmp_path / "edition-folder"
    shutil.copytree(ROOT / "seeds", folder)
    done = subprocess.run(
        [str(python), "-m", "edition", "export", "--seeds", str(folder), "--out", str(tmp_path / "out.json")],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": site_packages},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    where = subprocess.run(
        [str(python), "-c", "import edition; print(edition.__file__)"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": site_packages},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert str(env_dir) in where  # the installed package ran, not the repository's
    data = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert [w["siglum"] for w in data["witnesses"]] == ["A", "B", "C", "D", "E"]
