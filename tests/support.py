"""Helpers shared by the tests: build an edition folder the way the CLI does, with no cache."""

from __future__ import annotations

from pathlib import Path

from edition.engine.model import Edition
from edition.engine.pipeline import build
from edition.engine.resources import data_folders, load_resources

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "seeds"


def build_folder(folder: Path, episodes: Path | None = None, editorial: bool = False) -> Edition:
    """The edition of ``folder``: its data files, else the project's seeds' (as the CLI and the hook find them).

    Without the editor's file unless asked: the machine's accuracy is measured without it."""
    return build(folder, load_resources(data_folders(folder, ROOT), episodes, editorial))
