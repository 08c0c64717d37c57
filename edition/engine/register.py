"""The register (人名・地名索引): the editor's persons, places and things, with their aliases.

``register.yaml`` lists each entry's headword, the names that denote it (in every
script and spelling the witnesses use) and the titles by which a witness may refer to
it without naming it. Names are matched in the compared form, so one alias covers both
scripts; titles may be shared (太子), names may not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import EditionError
from .datafile import check_keys, read_yaml, sections, text_field, texts_field
from .normalise import Normaliser

KINDS = ("persons", "places", "things")
_KEYS = {"id", "name", "aliases", "titles", "note"}
_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


@dataclass(frozen=True)
class Entry:
    id: str
    kind: str  # person | place | thing
    name: str
    aliases: tuple[str, ...]
    titles: tuple[str, ...] = ()
    note: str = ""
    line: int = 0


@dataclass(frozen=True)
class Register:
    entries: tuple[Entry, ...] = ()

    def names(self, norm: Normaliser, kind: str | None = None) -> dict[str, Entry]:
        """Compared form of every name (headword and aliases) -> its entry; longest first."""
        out: dict[str, Entry] = {}
        for e in self.entries:
            if kind is None or e.kind == kind:
                for a in (e.name, *e.aliases):
                    folded = norm.fold_text(a)
                    if folded:
                        out.setdefault(folded, e)
        return dict(sorted(out.items(), key=lambda kv: (-len(kv[0]), kv[0])))


def entities(register: Register, norm: Normaliser) -> dict[str, tuple[str, ...]]:
    """Compared form of every name and title -> the ids of the entries it may denote (a title may be shared)."""
    out: dict[str, set[str]] = {}
    for e in register.entries:
        for a in (e.name, *e.aliases, *e.titles):
            folded = norm.fold_text(a)
            if len(folded) >= 2:
                out.setdefault(folded, set()).add(e.id)
    return {k: tuple(sorted(v)) for k, v in sorted(out.items())}


def load_register(path: Path | None, norm: Normaliser) -> Register:
    """The register file, checked; an empty register when there is none."""
    if path is None:
        return Register()
    parts = sections(path, read_yaml(path), set(KINDS))
    entries: list[Entry] = []
    ids: set[str] = set()
    owner: dict[str, tuple[str, int]] = {}  # folded name -> (entry id, line)
    for kind in KINDS:
        for n, item in enumerate(parts[kind], 1):
            where = f"{kind} entry {n}"
            check_keys(path, item, _KEYS, where)
            eid = text_field(path, item, "id", where, required=True)
            if not _ID.match(eid):
                raise EditionError(path, f"{where}: id '{eid}' must be lowercase letters, digits or '-'", item.line)
            if eid in ids:
                raise EditionError(path, f"{where}: duplicate id '{eid}'", item.line_of("id"))
            ids.add(eid)
            name = text_field(path, item, "name", where, required=True)
            aliases = texts_field(path, item, "aliases", where)
            for a in dict.fromkeys((name, *aliases)):
                folded = norm.fold_text(a)
                if folded in owner and owner[folded][0] != eid:
                    other, line = owner[folded]
                    raise EditionError(
                        path,
                        f"{where} ('{eid}'): name '{a}' is already a name of '{other}' (line {line})",
                        item.line_of("aliases"),
                    )
                owner[folded] = (eid, item.line)
            entries.append(
                Entry(
                    eid,
                    kind[:-1],
                    name,
                    aliases,
                    texts_field(path, item, "titles", where),
                    text_field(path, item, "note", where),
                    item.line,
                )
            )
    return Register(tuple(entries))
