"""The edition's data, read afresh for every build (and parsed again when it changed), passed to the stages explicitly.

An edition folder (``seeds/``) holds the witnesses and the editor's data files; what
it lacks is looked up in the fallback folders (the project's own ``seeds/``), and the
generic tables in the engine's ``data/`` folder. Nothing is read at import time, so a
long-running ``mkdocs serve`` sees every edit to every file on its next rebuild.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources as importlib_resources
from pathlib import Path

from ..errors import EditionError
from .datafile import read_text, tsv_rows, within
from .dates import Calendar
from .editorial import EDITORIAL, Directives, load_directives
from .episodes import load_calendar, load_episodes
from .model import EpisodeDef
from .normalise import Normaliser
from .params import Params, load_params
from .register import Register, load_register

EPISODES = "episodes.yaml"
VARIANTS = "variants.tsv"
UNIHAN_VARIANTS = "unihan_variants.tsv"  # derived from Unihan by scripts/unihan_variants.py
SURNAMES = "surnames.txt"
PARAMETERS = "parameters.yaml"
REGISTER = "register.yaml"


@dataclass(frozen=True)
class Resources:
    """Everything a build needs besides the witnesses, and a digest of it for caches."""

    episodes: tuple[EpisodeDef, ...]
    context: tuple[EpisodeDef, ...]  # other events told around the episodes (see episodes.py)
    calendar: Calendar = field(hash=False)  # month -> its first day, as a cyclical day's index (episodes.py)
    variants: dict[str, str] = field(hash=False)  # variant character -> the form compared
    surnames: tuple[str, ...]
    params: Params
    register: Register
    editorial: Directives
    files: tuple[Path, ...]  # every file read, for the method page and for error messages
    digest: str  # of the content of every file read: equal digests, equal resources


def engine_data(name: str) -> Path:
    return Path(str(importlib_resources.files("edition.engine") / "data" / name))


def find(name: str, folders: Sequence[Path]) -> Path | None:
    """The first folder's ``name`` that exists (a link out of that folder is an error: see ``within``)."""
    return next((within(f / name, f) for f in folders if (f / name).is_file()), None)


def engine_variants() -> list[Path]:
    """The engine's variant tables: Unihan's links, then the edition's generic pairs (which win)."""
    return [engine_data(UNIHAN_VARIANTS), engine_data(VARIANTS)]


def load_variants(paths: Sequence[Path]) -> dict[str, str]:
    """The variant table: each file's pairs over the ones before it (the edition's own last, winning).

    The Unihan table has a third column, the source of each pair; the others have two."""
    table: dict[str, str] = {}
    for path in paths:
        for n, (variant, standard, *_) in tsv_rows(path, 3 if path.name == UNIHAN_VARIANTS else 2):
            if len(variant) != 1 or len(standard) != 1:
                raise EditionError(path, f"a variant and its standard form must be one character each: {variant!r}", n)
            table[variant] = standard
    return table


def load_surnames(path: Path) -> tuple[str, ...]:
    words = {w for line in read_text(path).splitlines() if not line.lstrip().startswith("#") for w in line.split()}
    return tuple(sorted(words))


def load_resources(folders: Sequence[Path], episodes_file: Path | None = None, editorial: bool = True) -> Resources:
    """Read every data file (the first of ``folders`` that has it wins); raises EditionError.

    The editor's file is read from the witnesses' own folder only (its quotes are of those witnesses),
    and not at all with ``editorial=False``: the machine's accuracy is measured without it."""
    episodes_path = episodes_file or find(EPISODES, folders)
    if episodes_path is None:
        raise EditionError(folders[0] if folders else None, f"no {EPISODES} here: the edition needs its episodes")
    variant_paths = engine_variants()
    own = find(VARIANTS, folders)
    if own:
        variant_paths.append(own)
    surnames_path = find(SURNAMES, folders) or engine_data(SURNAMES)
    params_path = find(PARAMETERS, folders)
    register_path = find(REGISTER, folders)
    editorial_path = find(EDITORIAL, folders[:1]) if editorial else None
    files = tuple(
        p
        for p in (episodes_path, *variant_paths, surnames_path, params_path, register_path, editorial_path)
        if p is not None
    )
    digest = hashlib.sha256()
    for p in files:
        digest.update(p.name.encode() + b"\0" + read_text(p).encode() + b"\0")
    key = (files, digest.hexdigest())
    if key in _LAST:
        return _LAST[key]
    episodes, context = load_episodes(episodes_path)
    variants = load_variants(variant_paths)
    resources = Resources(
        episodes=episodes,
        context=context,
        calendar=load_calendar(episodes_path),
        variants=variants,
        surnames=load_surnames(surnames_path),
        params=load_params(params_path),
        register=load_register(register_path, Normaliser(variants)),
        editorial=load_directives(editorial_path),
        files=files,
        digest=digest.hexdigest(),
    )
    _LAST.clear()
    _LAST[key] = resources
    return resources


# The last resources parsed, by their files and a digest of their content: every file is still read on every call
# (an edit shows on the next build), but a build of ``mkdocs serve`` parses them once, not once per hook (the
# search hook reads the register too), and a rebuild whose data files are unchanged not at all.
_LAST: dict[tuple[tuple[Path, ...], str], Resources] = {}


def data_folders(seeds: Path, project: Path | None) -> list[Path]:
    """Where an edition's data files are looked for: its own folder, then the project's ``seeds/``."""
    folders = [seeds]
    if project is not None and (project / "seeds").resolve() != seeds.resolve():
        folders.append(project / "seeds")
    return folders
