"""The two dynamic programmes of the alignment: a monotone match of segments to candidate rows, and the beads
(several segments to one row, one to several, two to two) a witness's segments are placed by.
"""

from __future__ import annotations

from ..model import Segment
from .drafts import SLACK, AlignParams, Bead, Draft
from .likeness import Blocks

Trace = tuple[float, int, int, int]  # (best total, -column, -segment, id): the largest is the one to trace
# what a Fenwick tree's empty node holds: a total of nothing (0.0), extending nothing (id -1). Every entry's total
# is above 0.0, so it is below all of them, and no node needs a test for being empty
NOTHING: Trace = (0.0, 1, 1, -1)


def prefix_max(tree: list[Trace], c: int) -> Trace:
    best = NOTHING
    while c:
        t = tree[c]
        if t > best:
            best = t
        c &= c - 1
    return best


def monotone_match(cands: list[list[tuple[int, float]]], n: int, match: float) -> list[int | None]:
    """For each segment, the row it joins (rows never decrease), or None; best total of sim - match.

    ``cands[i]`` lists segment i's (row, similarity) pairs by row, for the rows it may join among ``n``.
    This is the dense programme best[i][j] = max(best[i][j-1], best[i-1][j], best[i-1][j] + sim - match),
    traced back from best[m][n] with ties to the first option, computed over the candidates only: best[i][j]
    is the largest total of a candidate (i' <= i, column j' = row + 1 <= j), kept in a Fenwick tree of
    prefix maxima over columns. The dense trace back from a total goes to the candidate that first reached
    it, in the fewest columns and then the fewest segments: the entries order ties that way, and each
    candidate remembers the one it extends, so the trace back follows those links.
    """
    tree = [NOTHING] * (n + 1)
    links: list[tuple[int, int, int]] = []  # id -> (segment, column, id of the candidate it extends or -1)
    for i, row_cands in enumerate(cands):
        new = []
        top = 0.0  # the best total of segment i's candidates so far (by row): one after it that is no better
        for j, s in row_cands:  # all read best[i-1] before any of segment i's candidates is added
            prev = prefix_max(tree, j + 1)
            v = (prev[0] + s) - match
            if v > top:  # is never any prefix's best (that one, in fewer columns, is): it need not be kept
                new.append((j + 1, v, prev[3]))
                top = v
        for c, v, prev_id in new:
            entry = (v, -c, -i, len(links))
            links.append((i, c, prev_id))
            while c <= n:
                if entry > tree[c]:
                    tree[c] = entry
                c += c & -c
    out: list[int | None] = [None] * len(cands)
    u = prefix_max(tree, n)[3]
    while u >= 0:
        i, c, u = links[u]
        out[i] = c - 1
    return out


def band(cands: list[list[tuple[int, float]]], n: int, params: AlignParams) -> list[list[int]]:
    """Each segment's candidate rows near the path a one-to-one monotone match takes: between the rows of
    the matched segments around it, ``params.longest`` rows either side. A text that repeats itself (a long
    episode told again and again) then offers a segment its few nearby counterparts, not every copy;
    a counterpart far off the path can still join as a moved passage."""
    in_order = [[(j, sim) for j, sim in c if sim >= params.match - SLACK] for c in cands]
    placed = monotone_match(in_order, n, params.match)
    anchored = [(i, j) for i, j in enumerate(placed) if j is not None]
    if not anchored:
        return [[j for j, _ in c] for c in cands]
    out = []
    k = 0  # anchored[k] is the first anchor at or after segment i
    for i, c in enumerate(cands):
        while k < len(anchored) and anchored[k][0] < i:
            k += 1
        lo = anchored[k - 1][1] if k else 0
        hi = anchored[k][1] if k < len(anchored) else n - 1
        if k < len(anchored) and anchored[k][0] == i:
            lo = hi = anchored[k][1]
        out.append([j for j, _ in c if lo - params.longest <= j <= hi + params.longest])
    return out


def bead_options(near: list[list[int]], n: int, longest: int) -> list[tuple[int, int, int, int]]:
    """Every bead anchored at both ends, by start: one to one, one segment to several rows, several segments
    to one row, two to two. Anchored: its first and last segments, and its first and last rows, are each in a
    candidate pair within it. A bead never reaches out to take in a neighbour that has nothing to do with the
    other side (rows in between may be too short to show a likeness). So several segments join row ``j``
    where the last of them is a candidate of ``j`` too, and two segments rows ``j`` and ``j + 1`` where the
    second is a candidate of one of them and row ``j + 1`` of either segment."""
    sets = [set(rows) for rows in near]
    out = []
    for i, rows in enumerate(near):
        later = sets[i + 1 : i + longest]  # the segments a bead starting at i may end with
        for j in rows:
            for jj in rows:
                if j <= jj < j + longest:
                    out.append((i, 1, j, jj - j + 1))
            for a, theirs in enumerate(later, 2):
                if j in theirs:
                    out.append((i, a, j, 1))
            if later and j + 1 < n:
                second = later[0]
                if (j in second or j + 1 in second) and (j + 1 in sets[i] or j + 1 in second):
                    out.append((i, 2, j, 2))
    return sorted(set(out))


def choose_beads(
    segs: list[Segment],
    rows: list[Draft],
    cands: list[list[tuple[int, float]]],
    blocks: Blocks,
    params: AlignParams,
    spread: bool = False,
) -> list[Bead]:
    """The best monotone chain of beads (sentence alignment as Gale and Church's: one to one, one to
    several, several to one, two to two; anything else is skipped, at no cost).

    A bead scores its similarity less ``match``, and less ``merge`` for each segment or row beyond one
    (joining needs the better likeness). One segment over several rows scores as that many one-to-one
    pairings would (each row's similarity less ``match``): the cosine with the rows merged would let an
    unrelated row in between drown the likeness, so a sentence that tells two of another witness's moments
    in one breath could not span them. Skips being free, the best total ending at a bead is its score
    plus the best total of any bead ending at or before its start in both directions: a prefix maximum
    over rows in a Fenwick tree, filled in order of segments, so the cost follows the candidate pairs.
    """
    n = len(rows)
    near = band(cands, n, params)
    tree = [NOTHING] * (n + 2)
    links: list[tuple[Bead, int]] = []  # id -> (bead, id of the bead it extends or -1)
    ends: dict[int, list[tuple[int, Trace]]] = {}  # segment index after a bead -> (row after it, entry)

    def insert(c: int, entry: Trace) -> None:
        c += 1
        while c <= n + 1:
            if entry > tree[c]:
                tree[c] = entry
            c += c & -c

    done_up_to = 0
    for i, a, j, b in bead_options(near, n, params.longest):
        while done_up_to <= i:
            for c, entry in ends.pop(done_up_to, []):
                insert(c, entry)
            done_up_to += 1
        if a == 1:  # one segment over one row or several: worth what pairing it with each row would be
            score = sum(blocks.single(i, r) for r in range(j, j + b)) - params.match * b
        elif spread and b == 1:  # the row's cells will span the segments: scored as that span would be
            score = sum(blocks.single(k, j) for k in range(i, i + a)) - params.match * a
        else:
            score = blocks.sim(i, a, j, b) - params.match - params.merge * (a + b - 2)
        if score <= 0:
            continue
        prev = prefix_max(tree, j + 1)
        total = prev[0] + score
        entry = (total, -(j + b), -(i + a), len(links))
        links.append(((i, a, j, b), prev[3]))
        ends.setdefault(i + a, []).append((j + b, entry))
    for c, entry in (x for lst in ends.values() for x in lst):
        insert(c, entry)
    out: list[Bead] = []
    u = prefix_max(tree, n + 1)[3]
    while u >= 0:
        bead, u = links[u]
        out.append(bead)
    return out[::-1]
