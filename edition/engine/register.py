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
from .model import Tokens
from .normalise import Normaliser

KINDS = ("persons", "places", "things")
_KEYS = {"id", "name", "aliases", "variants", "titles", "note"}
_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


@dataclass(frozen=True)
class Entry:
    id: str
    kind: str  # person | place | thing
    name: str
    aliases: tuple[str, ...]  # its standard names: which of them a witness uses is never a fact
    titles: tuple[str, ...] = ()  # role words that refer to it without naming it (may be shared)
    note: str = ""
    line: int = 0
    variants: tuple[str, ...] = ()  # names only some witnesses use (miswritten, another tradition's)

    @property
    def names(self) -> tuple[str, ...]:
        """Its standard names: the aliases, and the headword unless it is a title (安市城主)."""
        return (*((self.name,) if self.name not in self.titles else ()), *self.aliases)


@dataclass(frozen=True)
class Register:
    entries: tuple[Entry, ...] = ()

    def names(self, norm: Normaliser, kind: str | None = None) -> dict[str, Entry]:
        """Compared form of every name (headword and aliases) -> its entry; longest first."""
        out: dict[str, Entry] = {}
        for e in self.entries:
            if kind is None or e.kind == kind:
                for a in (e.name, *e.aliases, *e.variants):
                    folded = norm.fold_text(a)
                    if folded:
                        out.setdefault(folded, e)
        return dict(sorted(out.items(), key=lambda kv: (-len(kv[0]), kv[0])))


def scan(text: str, forms: dict[str, object] | set[str]) -> list[tuple[int, int]]:
    """Where the forms occur in ``text``, left to right, the longest at each place (as a regular
    expression of them, longest first, would find them; a dictionary look-up is faster to set up)."""
    lengths = sorted({len(f) for f in forms if f}, reverse=True)
    out, i, n = [], 0, len(text)
    while i < n:
        for k in lengths:
            if text[i : i + k] in forms:
                out.append((i, i + k))
                i += k
                break
        else:
            i += 1
    return out


@dataclass(frozen=True)
class Mention:
    """A place in a witness that names a register entry (or refers to it by a title: ``named`` False)."""

    siglum: str
    start: int
    end: int
    text: str
    entries: tuple[str, ...]  # a title may denote several (太子)
    kind: str  # person | place | thing
    how: str  # name (a standard name) | variant | title

    @property
    def named(self) -> bool:
        return self.how != "title"


def mentions(register: Register, norm: Normaliser, tokens: dict[str, Tokens]) -> tuple[Mention, ...]:
    """Every name and title of the register in every witness, longest first, in the compared form."""
    forms: dict[str, tuple[tuple[str, ...], str, str]] = {}
    by_title: dict[str, list[Entry]] = {}
    for e in register.entries:
        for t in e.titles:
            by_title.setdefault(norm.fold_text(t), []).append(e)
    for e in register.entries:
        for how, names in (("variant", e.variants), ("name", e.names)):
            for a in names:
                f = norm.fold_text(a)
                if f:
                    forms[f] = ((e.id,), e.kind, how)
    for f, es in by_title.items():
        if f and f not in forms and len({e.kind for e in es}) == 1:
            forms[f] = (tuple(sorted({e.id for e in es})), es[0].kind, "title")
    if not forms:
        return ()
    out = []
    for siglum, t in tokens.items():
        for a, b in scan(t.n, forms):
            ids, kind, how = forms[t.n[a:b]]
            start, end = t.at[a], t.at[b - 1] + 1
            out.append(Mention(siglum, start, end, t.text[start:end], ids, kind, how))
    return tuple(out)


def entities(register: Register, norm: Normaliser) -> dict[str, tuple[str, ...]]:
    """Compared form of every name and title -> the ids of the entries it may denote (a title may be shared)."""
    out: dict[str, set[str]] = {}
    for e in register.entries:
        for a in (e.name, *e.aliases, *e.variants, *e.titles):
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
            variants = texts_field(path, item, "variants", where)
            for a in dict.fromkeys((name, *aliases, *variants)):
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
                    variants,
                )
            )
    return Register(tuple(entries))
