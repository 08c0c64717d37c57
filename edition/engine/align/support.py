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

from ..model import Row, Segment


def pairs(segs: Iterable[Segment]) -> frozenset[str]:
    """The cell's pairs of consecutive letters (within each segment)."""
    return frozenset(x.folded[i : i + 2] for x in segs for i in range(len(x.folded) - 1))


def weak_cells(rows: tuple[Row, ...], family: Callable[[str], str], vouched: Callable[[Row], bool]) -> tuple[Row, ...]:
    """The rows, each with the witnesses whose cell no other family's cell beside it shares a pair with."""
    spans = [{s: k + row.span.get(s, 1) for s in row.cells} for k, row in enumerate(rows)]  # rows each cell reaches
    grams = [{s: pairs(segs) for s, segs in row.cells.items()} for row in rows]
    reach = max((n for row in rows for n in row.span.values()), default=1)  # no cell from further above reaches k
    out = []
    for k, row in enumerate(rows):
        weak = []
        if not vouched(row):
            for s in row.cells:
                own = grams[k][s]
                if not own:
                    continue
                beside = [  # (siglum, pairs) of every cell that shares a row with this one
                    (t, grams[j][t])
                    for j in range(max(0, k - reach + 1), spans[k][s])
                    for t, end in spans[j].items()
                    if (j, t) != (k, s) and j < spans[k][s] and end > k
                ]
                others = [g for t, g in beside if g and family(t) != family(s)]
                if others and not any(own & g for g in others):
                    weak.append(s)
        out.append(replace(row, weak=tuple(weak)) if weak else row)
    return tuple(out)
