"""Which cells of a row the alignment has no evidence for: abstaining from a claim is better than misleading.

The rows put side by side what the witnesses tell at one moment, and a reader trusts a row as the machine's
claim that they do. Where a cell shares not two consecutive letters (folded: scripts and variant forms alike)
with any cell of another family beside it -- in its row, or in the rows its cell spans, or from a cell above that
spans down over it -- nothing in the texts supports putting it there: only its place between its neighbours
does. Such a cell is not moved (its place in its witness's order stands, and the gold pairs the rows get right
are kept); it is named in the row's ``weak``, and the site shows the row as one the machine is unsure of. A
blind reading of the development edition found the rows with such a cell mostly the ones with a cell of
another moment beside the right ones (five of six; ``tests/dev/READING.md``, eighth reading). A cell of fewer
than two letters gives no evidence either way: it is never named, and counts for no other. Nor is a cell named
in a row an editor's ``rows`` directive made (the editor vouches for it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from itertools import chain
from operator import add

from ..model import Row, Segment
from ..normalise import MATCHED


def pairs(segs: Iterable[Segment]) -> frozenset[str]:
    """The cell's pairs of consecutive letters (within each segment, in the matched form: ``normalise.MATCHED``),
    each made in C: letter + next letter."""
    texts = [x.folded.translate(MATCHED) for x in segs]
    return frozenset(chain.from_iterable(map(add, t, t[1:]) for t in texts))


def weak_cells(rows: tuple[Row, ...], family: Callable[[str], str], vouched: Callable[[Row], bool]) -> tuple[Row, ...]:
    """The rows, each with the witnesses whose cell no other family's cell beside it shares a pair with. A cell's
    pairs are read only where another family's cell stands beside it (copies of one text, the most of a large
    edition, have none)."""
    spans = [{s: k + row.span.get(s, 1) for s in row.cells} for k, row in enumerate(rows)]  # rows each cell reaches
    reach = max((n for row in rows for n in row.span.values()), default=1)  # no cell from further above reaches k
    grams: dict[tuple[int, str], frozenset[str]] = {}

    def of(j: int, t: str) -> frozenset[str]:
        if (j, t) not in grams:
            grams[(j, t)] = pairs(rows[j].cells[t])
        return grams[(j, t)]

    out = []
    for k, row in enumerate(rows):
        weak = []
        if not vouched(row):
            for s in row.cells:
                beside = [  # every cell of another family that shares a row with this one
                    (j, t)
                    for j in range(max(0, k - reach + 1), spans[k][s])
                    for t, end in spans[j].items()
                    if end > k and family(t) != family(s)
                ]
                if not beside or not of(k, s):
                    continue
                others = [g for g in (of(j, t) for j, t in beside) if g]
                if others and not any(of(k, s) & g for g in others):
                    weak.append(s)
        out.append(replace(row, weak=tuple(weak)) if weak else row)
    return tuple(out)
