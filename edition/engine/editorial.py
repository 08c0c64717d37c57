"""The editor's file, ``editorial.yaml``: corrections, notes and decisions as versioned data.

Passages are quoted by their words (``from`` the first words ``to`` the last, script-exact),
never by offsets, so the file survives edits elsewhere in a witness. A quote that is
missing, or found more than once, is an error that names the file, the line and the
closest matches. Directives win over the machine; what they override is counted.

    assign:    put a passage in an episode (or in none)
    rows:      passages that belong in one row (one passage alone: a row of its own)
    notes:     the editor's own notes (Markdown) on a passage
    facts:     a fact the editor states in the 某本作某 manner, quoting each witness's words
    suppress:  machine notes the editor rejects, by episode (and row) and lemma or label
    silent:    note classes not noted at all (listed once in the 凡例 instead)
    verdicts:  the editor's verdict on a machine note, named by its place (witness and words): the reading the
               edition adopts (據B改), a suspicion (疑當作某), no decision (未知孰是) or 存疑; and 他校 parallels
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import EditionError
from .datafile import YamlMap, check_keys, read_yaml, text_field, texts_field
from .model import Witness
from .vocabulary import CollationClass, VerdictKind

EDITORIAL = "editorial.yaml"
SECTIONS = {"assign", "rows", "notes", "facts", "suppress", "silent", "verdicts"}
DECISIONS = (VerdictKind.ADOPT, VerdictKind.SUSPECT, VerdictKind.UNDECIDED, VerdictKind.DOUBT)  # one a verdict
VERDICT_KEYS = {"witness", "from", "to", "at", "say", "episode", "text", "parallel", *DECISIONS}
SILENCEABLE = set(CollationClass)  # the collation classes; a fact or the editor's own note is never silenced
NONE = "none"


@dataclass(frozen=True)
class Quote:
    """A passage as the editor quotes it: a witness and its first and last words (one quote: both the same)."""

    witness: str
    first: str
    last: str
    line: int


@dataclass(frozen=True)
class Passage:
    witness: str
    start: int
    end: int
    line: int


@dataclass(frozen=True)
class Fact:
    """A fact the machine cannot state (who does what, where a scene is), as the editor states it: each
    witness's reading is ``say`` inside its quoted passage; ``unsaid``: witnesses that tell the moment without it."""

    label: str
    readings: tuple[tuple[Quote, str], ...]  # passage, the reading's words in it ("": the whole passage)
    unsaid: tuple[str, ...]
    text: str  # Markdown after the readings (may be empty)
    line: int


@dataclass(frozen=True)
class Ruling:
    """A verdict as the editor writes it: the note at ``say`` inside the quoted passage (``""``: the passage),
    checked to stand in ``episode`` if given; ``kind`` a VerdictKind (``parallel``: a 他校 parallel alone), ``reading``
    the adopted witness (adopt) or the words the text should read (suspect)."""

    quote: Quote
    say: str
    episode: str | None
    kind: str
    reading: str
    parallels: tuple[tuple[str, str], ...]
    text: str
    line: int


@dataclass(frozen=True)
class Directives:
    """The editor's file as written (quotes unresolved), with the line of every directive."""

    path: Path | None = None
    assign: tuple[tuple[Quote, str | None], ...] = ()  # passage, episode id (None: no episode)
    rows: tuple[tuple[Quote, ...], ...] = ()
    notes: tuple[tuple[Quote, str], ...] = ()  # passage, Markdown
    facts: tuple[Fact, ...] = ()
    suppress: tuple[tuple[str, str | None, str, int], ...] = ()  # episode, row (number or id), lemma/label, line
    silent: tuple[str, ...] = ()
    verdicts: tuple[Ruling, ...] = ()


def _ruling(path: Path, item: YamlMap, where: str) -> Ruling:
    """One ``verdicts`` entry: its quote, at most one verdict (``adopt: B``, ``suspect: 某``, ``undecided: true``,
    ``doubt: true``) and any ``parallel: {source, reads}`` (or a list of them); one of the two at least."""
    q = _quote(path, item, where, VERDICT_KEYS)
    kinds = [k for k in DECISIONS if k in item]
    if len(kinds) > 1:
        raise EditionError(path, f"{where}: one verdict a note; it gives {', '.join(kinds)}", item.line_of(kinds[1]))
    kind, reading = (kinds[0], "") if kinds else (VerdictKind.PARALLEL, "")
    if kind in (VerdictKind.ADOPT, VerdictKind.SUSPECT):
        reading = text_field(path, item, kind, where, required=True)
    elif kind != VerdictKind.PARALLEL and item[kind] is not True:
        raise EditionError(path, f"{where}: '{kind}' must be true", item.line_of(kind))
    raw = item.get("parallel") or []
    parallels = []
    for x in raw if isinstance(raw, list) else [raw]:
        if not isinstance(x, YamlMap):
            raise EditionError(path, f"{where}: 'parallel' must be {{source, reads}} or a list of them", item.line)
        check_keys(path, x, {"source", "reads"}, f"{where}, parallel")
        parallels.append(
            (
                text_field(path, x, "source", f"{where}, parallel", required=True),
                text_field(path, x, "reads", f"{where}, parallel", required=True),
            )
        )
    if kind == VerdictKind.PARALLEL and not parallels:
        raise EditionError(
            path,
            f"{where}: no verdict; give one of adopt: <siglum>, suspect: <words>, undecided: true, doubt: true, "
            "or a parallel: {source, reads}",
            item.line,
        )
    return Ruling(
        q,
        text_field(path, item, "say", where),
        text_field(path, item, "episode", where) or None,
        kind,
        reading,
        tuple(parallels),
        text_field(path, item, "text", where),
        item.line,
    )


def _quote(path: Path, item: YamlMap, where: str, keys: set[str]) -> Quote:
    check_keys(path, item, keys, where)
    witness = text_field(path, item, "witness", where, required=True)
    if "at" in item:
        first = last = text_field(path, item, "at", where, required=True)
    else:
        first = text_field(path, item, "from", where, required=True)
        last = text_field(path, item, "to", where) or first
    return Quote(witness, first, last, item.line)


def load_directives(path: Path | None) -> Directives:
    """The editor's file, checked for its form (the quotes are found later, in the witnesses)."""
    if path is None:
        return Directives()
    data = read_yaml(path)
    if data is None:
        return Directives(path)
    if not isinstance(data, YamlMap):
        raise EditionError(path, f"expected a mapping with some of {', '.join(sorted(SECTIONS))} at the top", 1)
    unknown = sorted(str(k) for k in set(data) - SECTIONS)
    if unknown:
        raise EditionError(
            path,
            f"unknown section(s) {', '.join(unknown)}; allowed: {', '.join(sorted(SECTIONS))}",
            data.line_of(unknown[0]),
        )

    def items(key: str) -> list:
        value = data.get(key) or []
        if not isinstance(value, list):
            raise EditionError(path, f"'{key}' must be a list", data.line_of(key))
        return value

    def mapping(item: object, key: str, n: int) -> YamlMap:
        if not isinstance(item, YamlMap):
            raise EditionError(path, f"{key} entry {n} must be a mapping", data.line_of(key))
        return item

    assign = []
    for n, raw in enumerate(items("assign"), 1):
        item = mapping(raw, "assign", n)
        q = _quote(path, item, f"assign entry {n}", {"witness", "from", "to", "at", "episode"})
        episode = text_field(path, item, "episode", f"assign entry {n}", required=True)
        assign.append((q, None if episode == NONE else episode))
    rows = []
    for n, group in enumerate(items("rows"), 1):
        if not isinstance(group, list) or not group:
            raise EditionError(path, f"rows entry {n} must list the passages of one row", data.line_of("rows"))
        rows.append(
            tuple(
                _quote(path, mapping(x, "rows", n), f"rows entry {n}", {"witness", "from", "to", "at"}) for x in group
            )
        )
    notes = []
    for n, raw in enumerate(items("notes"), 1):
        item = mapping(raw, "notes", n)
        q = _quote(path, item, f"notes entry {n}", {"witness", "from", "to", "at", "text"})
        notes.append((q, text_field(path, item, "text", f"notes entry {n}", required=True)))
    facts = []
    for n, raw in enumerate(items("facts"), 1):
        item, where = mapping(raw, "facts", n), f"facts entry {n}"
        check_keys(path, item, {"fact", "readings", "unsaid", "text"}, where)
        label = text_field(path, item, "fact", where, required=True)
        said = item.get("readings")
        if not isinstance(said, list) or not said:
            raise EditionError(path, f"{where}: 'readings' must list each witness's passage", item.line)
        readings = []
        for x in said:
            x = mapping(x, "facts", n)
            q = _quote(path, x, f"{where}, readings", {"witness", "from", "to", "at", "say"})
            readings.append((q, text_field(path, x, "say", f"{where}, readings")))
        unsaid = texts_field(path, item, "unsaid", where)
        facts.append(Fact(label, tuple(readings), unsaid, text_field(path, item, "text", where), item.line))
    suppress = []
    for n, raw in enumerate(items("suppress"), 1):
        item = mapping(raw, "suppress", n)
        where = f"suppress entry {n}"
        check_keys(path, item, {"episode", "row", "lemma"}, where)
        suppress.append(
            (
                text_field(path, item, "episode", where, required=True),
                text_field(path, item, "row", where) or None,
                text_field(path, item, "lemma", where, required=True),
                item.line,
            )
        )
    silent = []
    for value in items("silent"):
        if value not in SILENCEABLE:
            raise EditionError(
                path,
                f"silent: '{value}' is no note class; silenceable: {', '.join(sorted(SILENCEABLE))}",
                data.line_of("silent"),
            )
        silent.append(value)
    verdicts = tuple(
        _ruling(path, mapping(raw, "verdicts", n), f"verdicts entry {n}") for n, raw in enumerate(items("verdicts"), 1)
    )
    return Directives(
        path, tuple(assign), tuple(rows), tuple(notes), tuple(facts), tuple(suppress), tuple(silent), verdicts
    )


def closest(text: str, words: str, n: int = 3) -> list[str]:
    """The passages of ``text`` most like ``words`` (for an error message)."""
    from rapidfuzz import fuzz, process

    k = len(words)
    if not text or not k:
        return []
    windows = {text[i : i + k] for i in range(0, max(1, len(text) - k + 1)) if "\n" not in text[i : i + k]}
    return [w for w, _, _ in process.extract(words, windows, scorer=fuzz.ratio, limit=n)]


class Resolver:
    """Finds the editor's quotes in the witnesses."""

    def __init__(self, directives: Directives, witnesses: tuple[Witness, ...], episodes: set[str]) -> None:
        self.d = directives
        self.texts = {w.siglum: w.text for w in witnesses}
        self.episodes = episodes

    def _find(self, q: Quote, words: str, after: int = 0) -> int:
        text = self.texts[q.witness]
        hits = []
        i = text.find(words, after)
        while i >= 0:
            hits.append(i)
            i = text.find(words, i + 1)
        if len(hits) == 1:
            return hits[0]
        if not hits:
            near = "、".join(f"「{c}」" for c in closest(text, words))
            raise EditionError(
                self.d.path,
                f"「{words}」 is not in witness {q.witness}" + (f"; closest: {near}" if near else ""),
                q.line,
            )
        lines = ", ".join(str(text.count("\n", 0, h) + 1) for h in hits[:5])
        raise EditionError(
            self.d.path,
            f"「{words}」 occurs {len(hits)} times in witness {q.witness} (its lines {lines}): quote more words",
            q.line,
        )

    def passage(self, q: Quote) -> Passage:
        self.witness(q.witness, q.line)
        start = self._find(q, q.first)
        if q.last == q.first:
            return Passage(q.witness, start, start + len(q.first), q.line)
        end_at = self._find(q, q.last)
        if end_at + len(q.last) <= start:
            raise EditionError(self.d.path, f"「{q.last}」 comes before 「{q.first}」 in witness {q.witness}", q.line)
        return Passage(q.witness, start, end_at + len(q.last), q.line)

    def reading(self, q: Quote, say: str) -> Passage:
        """The words ``say`` inside the passage ``q`` quotes (once): a fact's reading in that witness."""
        p = self.passage(q)
        if not say:
            return p
        inside = self.texts[q.witness][p.start : p.end]
        if inside.count(say) != 1:
            times = "is not" if say not in inside else f"occurs {inside.count(say)} times"
            raise EditionError(
                self.d.path, f"「{say}」 {times} in the passage 「{inside}」 of witness {q.witness}", q.line
            )
        start = p.start + inside.index(say)
        return Passage(q.witness, start, start + len(say), q.line)

    def witness(self, siglum: str, line: int) -> None:
        if siglum not in self.texts:
            raise EditionError(
                self.d.path, f"unknown witness '{siglum}'; the witnesses are {', '.join(self.texts)}", line
            )

    def episode(self, episode: str, line: int) -> None:
        if episode not in self.episodes:
            raise EditionError(
                self.d.path,
                f"unknown episode '{episode}'; the episodes are {', '.join(sorted(self.episodes))} (or 'none')",
                line,
            )
