"""What every page of one render looks up: witnesses, families, rows, notes and the page that shows each.

Built once per render from the export, so no page walks the whole export to find a row, a note's page or
the runs of a witness's text.
"""

from __future__ import annotations

import bisect
from typing import Any

from .labels import LANGS
from .notes import FORMS, note_kind, series
from .paths import url, witness_page
from .script_forms import ScriptForms
from .variance import Variance


def chars(text: str) -> int:
    """Amount of text as readers count it: characters other than whitespace."""
    return len("".join(text.split()))


class Site:
    """The export of one render, indexed for the pages."""

    def __init__(self, export: dict[str, Any], forms: ScriptForms) -> None:
        self.export = export
        self.witnesses = export["witnesses"]
        self.index = {w["siglum"]: i for i, w in enumerate(self.witnesses)}
        self.families = {f["id"]: f for f in export["families"]}
        self.bases = {f["base"] for f in export["families"]}
        self.row_at: dict[str, tuple[dict[str, Any], int]] = {}  # row id -> (episode, its number there)
        for ep in export["episodes"]:
            for i, row in enumerate(ep["rows"], 1):
                self.row_at[row["id"]] = (ep, i)
        self.order = {n["id"]: k for k, n in enumerate(export["notes"])}
        self.by_episode: dict[str, list[dict[str, Any]]] = {ep["id"]: [] for ep in export["episodes"]}
        self.by_witness: dict[str, list[dict[str, Any]]] = {w["siglum"]: [] for w in self.witnesses}
        for note in export["notes"]:
            if "superseded_by" in note:  # the machine never contradicts the editor on the page (凡例)
                continue
            if note["row"] in self.row_at:
                self.by_episode[self.row_at[note["row"]][0]["id"]].append(note)
            else:
                self.by_witness.setdefault(self.home(note), []).append(note)
        self.first, self.again = series([*self.by_episode.values(), *self.by_witness.values()])
        self.variance = Variance(export, lambda text: forms.forms(text)[1])
        self._runs: dict[str, list[tuple[int, int]]] = {}

    def listed(self, notes: list[dict[str, Any]], forms: bool = False) -> list[dict[str, Any]]:
        """The notes a page lists in its apparatus, or (``forms``) in its table of variant forms and missing
        commentary (``FORMS``): all but those that say again what an earlier one says (下同)."""
        return [n for n in notes if n["id"] not in self.first and (note_kind(n) in FORMS) == forms]

    def numbers(self, notes: list[dict[str, Any]]) -> dict[str, str]:
        """The number each listed note of a page is shown with: 1, 2, … through its apparatus, then on through
        its table of variant forms, so a page's apparatus starts at 1 whatever other pages hold. Fixed when the
        page is built: the reader's filters hide notes but never renumber them (links go by id, ``#n12``)."""
        listed = [*self.listed(notes), *self.listed(notes, forms=True)]
        return {n["id"]: str(k) for k, n in enumerate(listed, 1)}

    def witness_url(self, siglum: str, depth: int) -> str:
        return url(witness_page(siglum, self.index[siglum]), depth)

    def home(self, note: dict[str, Any]) -> str:
        """The witness page that shows a note standing outside the episodes: its family's base."""
        family = self.families.get(note["family"] or "")
        if family:
            return family["base"]
        lemma = note["lemma"]
        return lemma["siglum"] if lemma else min((s for r in note["readings"] for s in r["sigla"]), key=self.index.get)

    def lang(self, siglum: str) -> str:
        return LANGS.get(self.witnesses[self.index[siglum]]["script"], "zh")

    def runs(self, siglum: str) -> list[tuple[int, int]]:
        """Every span of a witness's text that the site shows as one run (a segment of a cell, or text
        outside the episodes), sorted: the anchors ``#o<start>`` of its page. Made once per witness."""
        if siglum not in self._runs:
            self._runs[siglum] = self._make_runs(siglum)
        return self._runs[siglum]

    def run_start(self, siglum: str, offset: int) -> int:
        """The anchor (``#o<start>``) of the run of a witness's page that holds ``offset`` of its text."""
        runs = self.runs(siglum)
        return runs[max(0, bisect.bisect_right(runs, (offset, float("inf"))) - 1)][0] if runs else 0

    def _make_runs(self, siglum: str) -> list[tuple[int, int]]:
        runs = [
            (x["start"], x["end"])
            for ep in self.export["episodes"]
            for row in ep["rows"]
            for x in row["cells"].get(siglum, [])
        ]
        runs += [(x["start"], x["end"]) for x in self.export["unassigned"].get(siglum, [])]
        return sorted(runs)
