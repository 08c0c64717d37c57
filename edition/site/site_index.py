"""What every page of one render looks up: witnesses, families, rows, notes, the notes that quote a witness,
the register's mentions in it, and the collation's folding of letters.

Built once per render from the export, so no page walks the whole export to find a row or a note's page.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..engine.exported import EditionJson, EntryJson, EpisodeJson, NoteJson
from ..engine.normalise import Normaliser, is_mark
from ..engine.resources import VARIANTS, engine_data, load_variants
from .labels import LANGS
from .notes import FORMS, note_kind, series
from .paths import url, witness_page
from .script_forms import ScriptForms
from .variance import Variance


def _mentions(export: EditionJson) -> dict[str, list[tuple[int, int, str, str]]]:
    """Per witness, the register's mentions in its text, ``(start, end, entry id, entry name)``, sorted, none
    overlapping another (the longer, then the earlier, of two that overlap is kept). Words the register gives
    to several entries (太子: 李承乾 or 李治, as the witness has it) link to the first and name them all."""
    spans: dict[tuple[str, int, int], list[EntryJson]] = {}
    for e in export["register"]:
        for m in e["mentions"]:
            if m["end"] > m["start"]:
                spans.setdefault((m["siglum"], m["start"], m["end"]), []).append(e)
    found: dict[str, list[tuple[int, int, str, str]]] = {}
    for (siglum, start, end), entries in spans.items():
        names = "、".join(e["name"] for e in entries)
        found.setdefault(siglum, []).append((start, end, entries[0]["id"], names))
    out = {}
    for siglum, ms in found.items():
        kept: list[tuple[int, int, str, str]] = []
        for m in sorted(ms, key=lambda m: (m[0], m[0] - m[1], m[2])):
            if not kept or m[0] >= kept[-1][1]:
                kept.append(m)
        out[siglum] = kept
    return out


def chars(text: str) -> int:
    """Amount of text as readers count it: characters other than whitespace."""
    return len("".join(text.split()))


class Site:
    """The export of one render, indexed for the pages."""

    def __init__(self, export: EditionJson, forms: ScriptForms, variants: dict[str, str] | None = None) -> None:
        self.export = export
        self.witnesses = export["witnesses"]
        self.index = {w["siglum"]: i for i, w in enumerate(self.witnesses)}
        self.families = {f["id"]: f for f in export["families"]}
        self.bases = {f["base"] for f in export["families"]}
        self.row_at: dict[str, tuple[EpisodeJson, int]] = {}  # row id -> (episode, its number there)
        for ep in export["episodes"]:
            for i, row in enumerate(ep["rows"], 1):
                self.row_at[row["id"]] = (ep, i)
        self.order = {n["id"]: k for k, n in enumerate(export["notes"])}
        self.by_episode: dict[str, list[NoteJson]] = {ep["id"]: [] for ep in export["episodes"]}
        for note in export["notes"]:
            if "superseded_by" in note:  # the machine never contradicts the editor on the page (凡例)
                continue
            if note["row"] in self.row_at:
                self.by_episode[self.row_at[note["row"]][0]["id"]].append(note)
        self.first, self.again = series(self.by_episode.values())
        self.variance = Variance(export, lambda text: forms.forms(text)[1])
        self.mentions = _mentions(export)
        self._quoting: dict[str, list[tuple[int, int, int, NoteJson]]] | None = None
        self.normaliser = Normaliser(variants if variants is not None else load_variants([engine_data(VARIANTS)]))

    def folding(self, texts: Iterable[str]) -> tuple[str, str]:
        """What the two-witness comparison needs to compare the compared forms, as the collation does: each
        character of ``texts`` whose compared form (``Normaliser.fold_char``: script and variant forms folded)
        differs from it, paired with that form (``遼辽巖岩…``), and the marks (punctuation, left out)."""
        found = set()
        for text in texts:
            found.update(text)
        pairs, marks = [], []
        for c in sorted(found):
            if c.isspace():
                continue
            if is_mark(c):
                marks.append(c)
                continue
            f = self.normaliser.fold_char(c)
            if f != c and len(f) == 1:
                pairs.append(c + f)
        return "".join(pairs), "".join(marks)

    def quoting(self, siglum: str) -> list[tuple[int, int, int, NoteJson]]:
        """Every note that quotes a witness's text, in its reading order: ``(at, start, order, note)``, ``at``
        the place its numbered mark stands (right after the words it concerns; where a lacuna's lemma, the
        text the copy lacks, begins), ``start``-``end`` the words (a lemma, else the reading that cites it).
        Every witness's are found in one pass over the notes, the first time one is asked for."""
        if self._quoting is None:
            self._quoting = {w["siglum"]: [] for w in self.witnesses}
            for note in self.export["notes"]:
                lemma, k = note["lemma"], self.order[note["id"]]
                quoted = {}
                if lemma:
                    start, end = lemma["start"], lemma["end"]
                    quoted[lemma["siglum"]] = (start if note["type"] == "lacuna" else end, start, k, note)
                for r in note["readings"]:
                    for s, (start, end) in r["spans"].items():
                        quoted.setdefault(s, (end, start, k, note))  # a witness's first reading that cites it
                for s, entry in quoted.items():
                    self._quoting.setdefault(s, []).append(entry)
        return sorted(self._quoting.get(siglum, []), key=lambda x: x[:3])

    def listed(self, notes: list[NoteJson], forms: bool = False) -> list[NoteJson]:
        """The notes a page lists in its apparatus, or (``forms``) in its table of variant forms and missing
        commentary (``FORMS``): all but those that say again what an earlier one says (下同)."""
        return [n for n in notes if n["id"] not in self.first and (note_kind(n) in FORMS) == forms]

    def numbers(self, notes: list[NoteJson]) -> dict[str, str]:
        """The number each listed note of a page is shown with: 1, 2, … through its apparatus, then on through
        its table of variant forms, so a page's apparatus starts at 1 whatever other pages hold. Fixed when the
        page is built: the reader's filters hide notes but never renumber them (links go by id, ``#n12``)."""
        listed = [*self.listed(notes), *self.listed(notes, forms=True)]
        return {n["id"]: str(k) for k, n in enumerate(listed, 1)}

    def witness_url(self, siglum: str, depth: int) -> str:
        return url(witness_page(siglum, self.index[siglum]), depth)

    def lang(self, siglum: str) -> str:
        return LANGS.get(self.witnesses[self.index[siglum]]["script"], "zh")
