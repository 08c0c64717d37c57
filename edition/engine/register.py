"""The register (人名・地名索引): the editor's persons, places and things, with their aliases.

``register.yaml`` lists each entry's headword, the names that denote it (in every
script and spelling the witnesses use) and the titles by which a witness may refer to
it without naming it. Names are matched in the compared form, so one alias covers both
scripts; titles may be shared (太子), names may not.
"""

from __future__ import annotations

import re
from bisect import bisect_left
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
    return Scanner(forms)(text)


class Scanner:
    """``scan`` with its forms' lengths and first letters worked out once: the aligner asks it of every sentence
    of every witness against the one register."""

    def __init__(self, forms: dict[str, object] | set[str]) -> None:
        self.forms = forms
        self.lengths = sorted({len(f) for f in forms if f}, reverse=True)
        heads = "".join(sorted({f[0] for f in forms if f}))
        # most letters begin no form: a search for the next one that does passes over them in C
        self.find = re.compile(f"[{re.escape(heads)}]").search if heads else None

    def __call__(self, text: str) -> list[tuple[int, int]]:
        if self.find is None:
            return []
        forms, lengths, find = self.forms, self.lengths, self.find
        out, n = [], len(text)
        found = find(text)
        while found is not None:
            i = found.start()
            for k in lengths:
                if i + k <= n and text[i : i + k] in forms:
                    out.append((i, i + k))
                    i += k
                    break
            else:
                i += 1
            found = find(text, i)
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


class Mentions:
    """The mentions of each witness by position, to find those in a stretch of text quickly."""

    def __init__(self, found: tuple[Mention, ...]) -> None:
        self.by: dict[str, list[Mention]] = {}
        for m in sorted(found, key=lambda m: (m.siglum, m.start, m.end)):
            self.by.setdefault(m.siglum, []).append(m)
        self.starts = {s: [m.start for m in ms] for s, ms in self.by.items()}
        self.longest = max((m.end - m.start for m in found), default=0)

    def starting(self, siglum: str, start: int, end: int) -> list[Mention]:
        """Mentions that begin in ``start:end``."""
        st = self.starts.get(siglum, [])
        return self.by.get(siglum, [])[bisect_left(st, start) : bisect_left(st, end)]

    def touching(self, siglum: str, start: int, end: int) -> list[Mention]:
        """Mentions that share a character with ``start:end`` (or hold a zero-width place in it)."""
        near = self.starting(siglum, start - self.longest, max(end, start + 1))
        return [m for m in near if m.start < max(end, start + 1) and start < m.end]


Forms = dict[str, tuple[tuple[str, ...], str, str]]  # compared form -> (entry ids, kind, name/variant/title)


def mention_forms(register: Register, norm: Normaliser, surnames: tuple[str, ...] = ()) -> Forms:
    """Every name and title of the register in the compared form, with what it names and how. A man's title
    followed by his given name (太子治, 皇太子治: the classical style) names him: his name less its surname after
    each of his titles, where the name begins with a surname of ``surnames``."""
    forms: Forms = {}
    folded_surnames = {norm.fold_text(x) for x in surnames}
    for e in register.entries:
        name = norm.fold_text(e.name)
        family = next((name[:k] for k in (2, 1) if name[:k] in folded_surnames and len(name) > k), "")
        for t in e.titles if e.kind == "person" and family else ():
            forms[norm.fold_text(t) + name[len(family) :]] = ((e.id,), e.kind, "name")
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
    return forms


# places named together by their first letters and a count of their kind: 遼、蓋二州 (遼州 and 蓋州), 遼葢二州,
# 遼、蓋、巖三州 -- in the compared form, which has no punctuation
SHARED_SUFFIX = re.compile("([^二两三四]{2,4})([二两三四])([州城县郡])")
COUNT = {"二": 2, "两": 2, "三": 3, "四": 4}


def mentions(siglum: str, t: Tokens, forms: Forms) -> tuple[Mention, ...]:
    """Where one witness names the register's entries (longest match first), in the compared form; places named
    together with one suffix and their count (遼、蓋二州) are each named there, by all of those words."""
    out = []
    for a, b in scan(t.n, forms) if forms else ():
        ids, kind, how = forms[t.n[a:b]]
        start, end = t.at[a], t.at[b - 1] + 1
        out.append(Mention(siglum, start, end, t.text[start:end], ids, kind, how))
    for m in SHARED_SUFFIX.finditer(t.n) if forms else ():
        heads, count, suffix = m.group(1)[-COUNT[m.group(2)] :], m.group(2), m.group(3)
        named = [forms.get(h + suffix) for h in heads]
        if any(f is None or f[1] != "place" or f[2] != "name" for f in named):
            continue
        a = m.end() - len(heads) - len(count) - len(suffix)
        start, end = t.at[a], t.at[m.end() - 1] + 1
        taken = {x.entries for x in out if x.start < end and start < x.end}
        out += [
            Mention(siglum, start, end, t.text[start:end], f[0], "place", "name") for f in named if f[0] not in taken
        ]
    return tuple(sorted(out, key=lambda x: (x.start, x.end, x.entries)))


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


PLACE_SUFFIX = set("城州水关山河江泽沟岭郡县镇营")
SPEECH = set("曰说道言令率命奏谓问答领带笑叹喝听闻见拜跪请")  # what a person does, right after the name
NOT_IN_NAME = set("的了军兵人等不上下来去是在之其而以于与及也又亦皆都所为已将把被着过到城州东西南北")
NOT_BEFORE_PLACE = set(
    "此该其各守攻打取破拔克围救登入出全满这那本敌我京都内外上下进到至向往回返离于在从把将被之的了护绕发过经抵赴还渡度驻城"
)
NOT_BEFORE_PLACE |= set("十百千万两一二三四五六七八九")


@dataclass(frozen=True)
class Suggestion:
    kind: str  # person | place
    folded: str
    shown: tuple[str, ...]  # as the witnesses write it
    count: int
    witnesses: tuple[str, ...]
    example: str


def suggest(
    register: Register, norm: Normaliser, tokens: dict[str, Tokens], surnames: tuple[str, ...]
) -> list[Suggestion]:
    """Names the register lacks, as the texts suggest them, for the editor to decide on.

    A candidate is a run of two to four letters (never across a mark) that begins with a surname (a
    person) or ends in 城, 州, 水, 關, 山 … (a place, not after 登, 此, 入 … that make it a common noun),
    occurs three times or more, and stands as a word stands: after and before at least two different
    letters each time (branching), and not as part of a longer candidate found as often. Each comes with
    its count, its witnesses and an example."""
    known = set(register.names(norm)) | {norm.fold_text(t) for e in register.entries for t in e.titles}
    folded_surnames = {norm.fold_text(x) for x in surnames}
    hits: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for siglum, t in tokens.items():
        n, at = t.n, t.at
        for i in range(len(n)):
            for size in (2, 3, 4):
                if i + size > len(n) or at[i + size - 1] - at[i] != size - 1:
                    break  # a mark or a space inside: no name
                word = n[i : i + size]
                if word[0] in folded_surnames or word[:2] in folded_surnames:
                    hits.setdefault(("person", word), []).append((siglum, i))
                if word[-1] in PLACE_SUFFIX and word[0] not in NOT_BEFORE_PLACE:
                    hits.setdefault(("place", word), []).append((siglum, i))
    out = []
    for (kind, word), where in hits.items():
        if len(where) < 3 or any(word in k or k in word for k in known if len(k) >= 2):
            continue
        left = {tokens[x].n[i - 1] if i else "" for x, i in where}
        right = {tokens[x].n[i + len(word)] if i + len(word) < len(tokens[x].n) else "" for x, i in where}
        if len(left) < 2 or len(right) < 2:
            continue
        if kind == "person" and (any(c in NOT_IN_NAME for c in word[1:]) or not any(c in SPEECH for c in right)):
            continue  # 唐军, 高丽兵, 来到: no one speaks or acts after them
        longer = [
            k for (kk, k), w in hits.items() if kk == kind and len(k) > len(word) and word in k and len(w) >= len(where)
        ]
        if longer:
            continue
        shown = tuple(sorted({tokens[x].text[tokens[x].at[i] : tokens[x].at[i + len(word) - 1] + 1] for x, i in where}))
        x, i = where[0]
        t = tokens[x]
        a, b = t.at[max(0, i - 6)], t.at[min(len(t.n) - 1, i + len(word) + 6)] + 1
        wits = tuple(sorted({x for x, _ in where}))
        out.append(Suggestion(kind, word, shown, len(where), wits, t.text[a:b].replace("\n", " ")))
    return sorted(out, key=lambda x: (x.kind, -x.count, x.folded))


PROVISIONAL = "機器據文本擬出，未經編者審定"  # the note of an entry the texts suggested, not the editor


def provisional(found: list[Suggestion], kinds: tuple[str, ...]) -> Register:
    """The suggestions of ``kinds`` as register entries (ids ``place-1`` …, in the order ``suggest`` gives)."""
    return Register(
        tuple(
            Entry(f"{kind}-{k}", kind, x.shown[0], x.shown, note=PROVISIONAL)
            for kind in kinds
            for k, x in enumerate((x for x in found if x.kind == kind), 1)
        )
    )


def stand_in(register: Register, norm: Normaliser, tokens: dict[str, Tokens], surnames: tuple[str, ...]) -> Register:
    """The register the facts use: the editor's; without one, the places the texts suggest, so that a new
    edition's accounts are compared on where things happen (營州, 定州) from the first build. Places only: a
    place's ending (城, 州, 水 …) is a surer sign than a surname, which 高丽 and 方才 also begin with."""
    if register.entries:
        return register
    return provisional(suggest(register, norm, tokens, surnames), ("place",))
