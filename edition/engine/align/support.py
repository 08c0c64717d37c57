"""Which cells of a row the alignment has too little evidence for: abstaining from a claim is better than misleading.

The rows put side by side what the witnesses tell at one moment, and a reader trusts a row as the machine's
claim that they do. A cell is supported by another family's cell beside it -- in its row; where its row holds
none, in the rows its cell spans or from a cell above that spans down over it -- when the two share pairs of
consecutive letters (folded: scripts and variant forms alike) that are rare enough in the episode to say the two
tell one moment (``rarity``: a pair of one row weighs 1, one of every row 0; together they must reach
``Params.support``). Where no cell beside it supports it, only its place between its neighbours put it there.
Such a cell is not moved (its place in its witness's order stands, and the gold pairs the rows get right are
kept); it is named in the row's ``weak``, and the site shows the row as one the machine is unsure of.

Any shared pair at all was enough until stop 55 (``support`` 0), and then the flag told the blind readers little:
rows of a wrap-up beside another witness's aside (最後來算一下這場東征的帳 / 最後聊幾句評價) share 最後, 时候 or
然後, and were not named. Read against four blind readings of 40 rows each (``tests/dev/READING.md``), the
weighed rule, with the cells of the row itself preferred to those spanning it, tells the rows a reader found
wrong or partly right from the right ones far better; ``Params.support`` says how it was chosen. A cell of fewer
than two letters gives no evidence either way: it is never named, and counts for no other. Nor is a cell named
in a row an editor's ``rows`` directive made (the editor vouches for it).
"""

from __future__ import annotations

import math
from collections import Counter
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


def weak_cells(
    rows: tuple[Row, ...], family: Callable[[str], str], vouched: Callable[[Row], bool], least: float = 0.0
) -> tuple[Row, ...]:
    """The rows, each with the witnesses whose cell no other family's cell beside it supports by at least ``least``
    (``support``; 0: any pair at all). A cell's pairs are made once for its texts: copies of one text, the most of
    a large edition, write the same."""
    spans = [{s: k + row.span.get(s, 1) for s in row.cells} for k, row in enumerate(rows)]  # rows each cell reaches
    reach = max((n for row in rows for n in row.span.values()), default=1)  # no cell from further above reaches k
    known: dict[tuple[str, ...], frozenset[str]] = {}  # a cell's texts -> its pairs (copies' cells alike: made once)

    def cell_pairs(segs: Iterable[Segment]) -> frozenset[str]:
        texts = tuple(x.folded for x in segs)
        if texts not in known:
            known[texts] = pairs(segs)
        return known[texts]

    def of(j: int, t: str) -> frozenset[str]:
        return cell_pairs(rows[j].cells[t])

    weight = rarity(rows, cell_pairs) if least else {}
    fam = {s: family(s) for row in rows for s in row.cells}  # each witness's family, asked once

    def unsupported(k: int, s: str, mine: frozenset[str]) -> bool:
        """Whether other families' cells beside witness ``s``'s cell in row ``k`` (``mine``: its pairs) leave it
        unsupported: those in its own row, where it has any (a cell spanning many rows holds many moments, and
        supports too much); else every one that shares a row with it."""
        row = rows[k]
        beside = [(k, t) for t in row.cells if fam[t] != fam[s]] or [
            (j, t)
            for j in range(max(0, k - reach + 1), spans[k][s])
            for t, end in spans[j].items()
            if end > k and fam[t] != fam[s]
        ]
        others = {g for g in (of(j, t) for j, t in beside) if g}  # copies' cells alike: each set once
        return bool(others) and not any(support(mine & g, weight, least) for g in others)

    out = []
    for k, row in enumerate(rows):
        weak = []
        if not vouched(row):
            # a cell's verdict follows from its family, the rows it reaches and its pairs: the copies of one text
            # in a row (most cells of a large edition) are judged once
            verdicts: dict[tuple[str, int, frozenset[str]], bool] = {}
            for s in row.cells:
                mine = of(k, s)
                key = (fam[s], spans[k][s], mine)
                if key not in verdicts:
                    verdicts[key] = bool(mine) and unsupported(k, s, mine)
                if verdicts[key]:
                    weak.append(s)
        out.append(replace(row, weak=tuple(weak)) if weak else row)
    return tuple(out)


def rarity(rows: tuple[Row, ...], pairs_of: Callable[[Iterable[Segment]], frozenset[str]] = pairs) -> dict[str, float]:
    """Each pair's weight as evidence that two cells tell one moment: log(rows / rows using it), over log(rows), so a
    pair of one row weighs 1 and one of every row 0, in an episode of any length. Counted by rows, not cells: the
    copies of one text in a row use the same pairs, and are no more evidence for it. ``pairs_of``: a cell's pairs
    (``weak_cells`` passes the ones it keeps)."""
    used: Counter[str] = Counter()
    for row in rows:
        used.update(frozenset().union(*map(pairs_of, row.cells.values())))
    if len(rows) < 2:
        return {}
    scale = math.log(len(rows))
    return {g: math.log(len(rows) / n) / scale for g, n in used.items()}


def support(shared: frozenset[str], weight: dict[str, float], least: float) -> bool:
    """Whether the pairs two cells share say they tell one moment: any pair at all where ``least`` is 0, else their
    weights (``rarity``, summed exactly: in any order) reaching ``least`` -- 然後, 时候, 最後 are in every other row,
    and a wrap-up beside another witness's aside shares them."""
    return bool(shared) and (not least or math.fsum(weight.get(g, 0.0) for g in shared) >= least)
