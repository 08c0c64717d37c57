"""How much the witnesses differ, row by row: the numbers behind the pictures of the variance.

Every measure compares what readers compare: the wording of two witnesses at the same moment of the
story (the cells of a row), folded so that script, punctuation and spacing do not count (the site's
Simplified display form, letters and digits only), scored by ``rapidfuzz``'s ``fuzz.ratio`` (0 to 1).
Only witnesses that have a cell in a row are compared there (a cell that spans rows, in its first row):
that a witness lacks a moment is shown by the coverage, not counted as difference.
Pure functions of the export and the display forms.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from rapidfuzz import fuzz

from ..engine.exported import EditionJson

LEVELS = (0.05, 0.25, 0.5, 0.75)  # upper bounds of heat levels 0..3; above the last is level 4
_NOT_WORD = re.compile(r"[\W_]+")


def level(difference: float) -> int:
    """Heat level 0 (the same) to 4 (nothing in common) of a difference between 0 and 1."""
    return sum(difference >= bound for bound in LEVELS)


def percent(value: float) -> int:
    """A measure between 0 and 1 as the pages print it: a whole percentage."""
    return round(value * 100)


class Variance:
    """Row and witness measures of one export; ``simplify`` gives a text's Simplified display form."""

    def __init__(self, export: EditionJson, simplify: Callable[[str], str]) -> None:
        self._simplify = simplify
        self._folded: dict[str, str] = {}
        self.sigla = [w["siglum"] for w in export["witnesses"]]
        # per episode, per row: siglum -> folded text of the cell that starts there
        self.episodes: dict[str, list[dict[str, str]]] = {
            ep["id"]: [
                {s: self.fold("".join(x["text"] for x in segs)) for s, segs in r["cells"].items()} for r in ep["rows"]
            ]
            for ep in export["episodes"]
        }

    def fold(self, text: str) -> str:
        folded = self._folded.get(text)
        if folded is None:
            folded = self._folded[text] = _NOT_WORD.sub("", self._simplify(text))
        return folded

    @staticmethod
    def similarity(a: str | None, b: str | None) -> float:
        if not a or not b:
            return 1.0 if a == b else 0.0
        return fuzz.ratio(a, b) / 100

    def rows(self, episode: str) -> list[float]:
        """Per row, the mean difference between every two witnesses that have a cell in it; a row told by
        one witness alone is half-way (something only it tells), an empty one 0."""
        out = []
        for cells in self.episodes[episode]:
            present = [s for s in self.sigla if cells.get(s)]
            pairs = list(itertools.combinations(present, 2))
            diff = sum(1 - self.similarity(cells[a], cells[b]) for a, b in pairs) / len(pairs) if pairs else 0.5
            out.append(diff if present else 0.0)
        return out

    def witness(self, siglum: str, episode: str) -> float | None:
        """How much a witness differs from the others in an episode: over the rows where it and another
        witness have text, weighted by its characters there, its mean difference from those others;
        None where it never tells a moment another tells."""
        total = weight = 0.0
        for cells in self.episodes[episode]:
            own = cells.get(siglum)
            others = [s for s in self.sigla if s != siglum and cells.get(s)]
            if not own or not others:
                continue
            total += len(own) * sum(1 - self.similarity(own, cells[o]) for o in others) / len(others)
            weight += len(own)
        return total / weight if weight else None

    def matrix(self) -> dict[tuple[str, str], tuple[float, int]]:
        """For each pair of witnesses, their similarity where both tell the same moment (weighted by the
        length of the two cells) and the number of such rows; pairs that share no row are left out."""
        out = {}
        for a, b in itertools.combinations(self.sigla, 2):
            total = weight = 0.0
            shared = 0
            for rows in self.episodes.values():
                for cells in rows:
                    if cells.get(a) and cells.get(b):
                        w = len(cells[a]) + len(cells[b])
                        total += w * self.similarity(cells[a], cells[b])
                        weight += w
                        shared += 1
            if shared:
                out[a, b] = out[b, a] = (total / weight, shared)
        return out
