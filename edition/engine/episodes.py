"""The episode definitions: the editor's ``episodes.yaml``, checked."""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import EditionError
from .datafile import check_keys, entries, read_yaml, text_field, texts_field
from .model import EpisodeDef

_KEYS = {"id", "title", "description", "cues", "examples", "base", "order"}
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")


def load_episodes(path: Path) -> tuple[EpisodeDef, ...]:
    """Episodes in narrative order (``order:`` if given, else their order in the file)."""
    defs = []
    seen: set[str] = set()
    for n, entry in enumerate(entries(path, read_yaml(path), "episodes"), 1):
        where = f"episode entry {n}"
        check_keys(path, entry, _KEYS, where)
        eid = text_field(path, entry, "id", where, required=True)
        if not _ID.match(eid):
            raise EditionError(path, f"{where}: id '{eid}' must be letters, digits, '-' or '_'", entry.line_of("id"))
        if eid in seen:
            raise EditionError(path, f"{where}: duplicate episode id '{eid}'", entry.line_of("id"))
        seen.add(eid)
        where = f"episode '{eid}'"
        order = entry.get("order", n)
        if not isinstance(order, int) or isinstance(order, bool):
            raise EditionError(path, f"{where}: 'order' must be a whole number", entry.line_of("order"))
        defs.append(
            EpisodeDef(
                id=eid,
                title=text_field(path, entry, "title", where, required=True),
                order=order,
                description=text_field(path, entry, "description", where),
                cues=texts_field(path, entry, "cues", where),
                examples=texts_field(path, entry, "examples", where),
                base=text_field(path, entry, "base", where) or None,
                line=entry.line,
            )
        )
    if not defs:
        raise EditionError(path, "defines no episode")
    return tuple(sorted(defs, key=lambda d: (d.order, d.id)))
