"""Load the episode definitions: the editor's data file, checked."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from .datafile import check_keys, entries, read_yaml, text_field
from .errors import EditionError
from .model import EpisodeDef

EPISODES = "episodes.yaml"
_KEYS = {"id", "title", "description", "cues", "examples", "base", "order"}
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")


def default_path() -> Path:
    return Path(str(resources.files("edition") / "data" / EPISODES))


def episodes_path(seeds: Path) -> Path:
    """The seeds folder's own ``episodes.yaml`` if it has one, else the packaged definitions."""
    own = seeds / EPISODES
    return own if own.exists() else default_path()


def _texts(path: Path, entry: dict, key: str, where: str) -> tuple[str, ...]:
    value = entry.get(key) or []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, (str, int)) for v in value):
        raise EditionError(path, f"{where}: '{key}' must be a list of texts")
    return tuple(str(v) for v in value if str(v).strip())


def load_episodes(path: Path) -> tuple[EpisodeDef, ...]:
    """Episodes in narrative order (``order:`` if given, else their order in the file)."""
    defs = []
    seen: set[str] = set()
    for n, entry in enumerate(entries(path, read_yaml(path), "episodes"), 1):
        where = f"episode entry {n}"
        check_keys(path, entry, _KEYS, where)
        eid = text_field(path, entry, "id", where, required=True)
        if not _ID.match(eid):
            raise EditionError(path, f"{where}: id '{eid}' must be letters, digits, '-' or '_'")
        if eid in seen:
            raise EditionError(path, f"{where}: duplicate episode id '{eid}'")
        seen.add(eid)
        where = f"episode '{eid}'"
        order = entry.get("order", n)
        if not isinstance(order, int):
            raise EditionError(path, f"{where}: 'order' must be a whole number")
        defs.append(
            EpisodeDef(
                id=eid,
                title=text_field(path, entry, "title", where, required=True),
                order=order,
                description=text_field(path, entry, "description", where),
                cues=_texts(path, entry, "cues", where),
                examples=_texts(path, entry, "examples", where),
                base=text_field(path, entry, "base", where) or None,
            )
        )
    if not defs:
        raise EditionError(path, "defines no episode")
    return tuple(sorted(defs, key=lambda d: (d.order, d.id)))


def check_bases(path: Path, defs: tuple[EpisodeDef, ...], sigla: set[str]) -> None:
    for d in defs:
        if d.base and d.base not in sigla:
            raise EditionError(path, f"episode '{d.id}': base '{d.base}' is no witness's siglum")
