"""The rows of one episode: the witnesses added one by one, then each again against the rows all the others made,
the spine last; sentences parted where a row pairs only some of their clauses.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from itertools import chain

from ..model import Row, Segment
from ..segment import heading_at
from .dp import choose_beads
from .drafts import SLACK, AlignParams, Bead, Draft, reach, single_rows, without
from .likeness import FOLDED, Blocks, Likeness, Others, Readings
from .search import Names, Vec, candidate_rows, grams, like_texts


@dataclass
class _Plan:
    """Where the beads put each segment of the witness being added (indices into its segments and the rows)."""

    target: list[int | None]  # segment -> its row; None: a row of its own
    span_to: dict[int, int] = field(default_factory=dict)  # segment -> last row its cell covers
    join: dict[int, int] = field(default_factory=dict)  # first row of a many-to-many bead -> its last row
    under: dict[int, int] = field(default_factory=dict)  # segment -> the row whose cells span down over its row
    moved: set[int] = field(default_factory=set)  # segments placed out of the witness's order


def into_rows(
    rows: list[Draft],
    siglum: str,
    segs: list[Segment],
    beads: list[Bead],
    found: list[list[tuple[int, float]]],
    params: AlignParams,
    spread: bool = False,
) -> list[Draft]:
    """The rows with ``siglum``'s segments added as the beads say: into a row; one segment spanning the
    rows of its bead; rows of a many-to-many bead joined into one; several segments into one row -- or, when
    ``spread``, each into a row of its own, the row's cells spanning them. A segment left over joins a row out
    of its witness's order (moved) when it matches it strongly and the witness has no cell there; the
    rest open rows of their own, consecutive ones one row together."""
    plan = _plan(beads, len(segs), spread)
    _transpose(plan, beads, found, params.moved, len(rows))
    _move(plan, beads, found, params.moved, len(rows))
    placed, inserted_after = _placed(rows, siglum, segs, plan)
    return _merged(placed, plan.join, inserted_after)


def _plan(beads: list[Bead], count: int, spread: bool) -> _Plan:
    """Each of ``count`` segments' row as the beads say (a bead ``(i, a, j, b)`` pairs segments ``i..i+a`` with
    rows ``j..j+b``): one segment against several rows spans them; several against several join those rows;
    several against one share it -- or, ``spread``, the first takes it and the others open rows under it."""
    plan = _Plan([None] * count)
    for i, a, j, b in beads:
        for k in range(i, i + a):
            plan.target[k] = j
        if b > 1 and a == 1:
            plan.span_to[i] = j + b - 1
        elif b > 1:
            plan.join[j] = j + b - 1
        elif a > 1 and spread:  # each a row of its own, under the row's cells
            for k in range(i + 1, i + a):
                plan.target[k], plan.under[k] = None, j
    return plan


def _move(plan: _Plan, beads: list[Bead], found: list[list[tuple[int, float]]], bar: float, n: int) -> None:
    """Segments the beads left over put into the row they match best, out of the witness's order (``moved``),
    when they match it at least ``bar`` and no bead took that row: a passage a witness tells elsewhere. A match
    between the rows of its neighbours is in order, and the alignment declined it: the segment opens a row."""
    taken = {j for i, a, j, b in beads for j in range(j, j + b)}
    for i, t in enumerate(plan.target):
        if t is None and i not in plan.under:
            _elsewhere(plan, i, found[i], taken, bar, n)


def _transpose(plan: _Plan, beads: list[Bead], found: list[list[tuple[int, float]]], bar: float, n: int) -> None:
    """A segment the beads paired one to one with a row it matches less than ``bar`` (what a passage told
    elsewhere needs), where a row out of its witness's order matches it at least that, goes there, as moved:
    a passage the witness tells in another order (E moves the people before its order to withdraw, the
    chronicle after it), which the in-order pairing set beside whatever stood in its place."""
    taken = {j for i, a, j, b in beads for j in range(j, j + b)}
    for i, a, j, b in beads:
        if a == 1 and b == 1 and dict(found[i]).get(j, 0.0) < bar:
            _elsewhere(plan, i, found[i], taken, bar, n)


def _elsewhere(plan: _Plan, i: int, found: list[tuple[int, float]], taken: set[int], bar: float, n: int) -> None:
    """Segment ``i`` into the row (of ``n``) it matches best among those no bead took, as moved, when it matches
    it at least ``bar`` and the row lies out of the witness's order (one between its neighbours' rows is in
    order: the alignment declined it, and so does this)."""
    best = max(((sim, -j) for j, sim in found if j not in taken), default=None)
    if best is None or best[0] < bar:
        return
    lo = max((x for x in plan.target[:i] if x is not None), default=-1)
    hi = min((x for x in plan.target[i + 1 :] if x is not None), default=n)
    if lo < -best[1] < hi:
        return
    plan.target[i] = -best[1]
    taken.add(-best[1])
    plan.moved.add(i)


def _copied(rows: list[Draft]) -> list[Draft]:
    """The rows as new drafts, so that adding a witness leaves the rows it was given as they were. Their cells'
    lists are shared, not copied (a row holds one for each witness, and each pass copies every row): a pass
    gives a cell a new list where it adds to it (``_placed``, ``_merged``), never changing one in place."""
    out = [Draft(dict(r.cells)) for r in rows]
    for new, old in zip(out, rows, strict=True):
        new.covered = set(old.covered)
        new.moved = set(old.moved)
    return out


def _placed(
    rows: list[Draft], siglum: str, segs: list[Segment], plan: _Plan
) -> tuple[list[Draft], dict[int, list[Draft]]]:
    """The rows with each planned segment in its cell (a spanning cell marks the rows it covers), and the new
    rows each row is followed by (-1: before the first): a segment under a row's cells, or a run of segments
    with no row, one row together (not a staircase) after the last row the witness reached before them."""
    out = _copied(rows)
    inserted_after: dict[int, list[Draft]] = {}
    last = -1
    pending: list[Segment] = []
    for i, (seg, t) in enumerate(zip(segs, plan.target, strict=True)):
        if i in plan.under:
            j = plan.under[i]
            extra = Draft({siglum: [seg]})
            extra.covered = (set(rows[j].cells) | rows[j].covered) - {siglum}
            inserted_after.setdefault(j, []).append(extra)
            continue
        if t is None:
            pending.append(seg)
            continue
        if pending:
            inserted_after.setdefault(last, []).append(Draft({siglum: pending}))  # one row, not a staircase
            pending = []
        out[t].cells[siglum] = [*out[t].cells.get(siglum, ()), seg]
        if i in plan.moved:
            out[t].moved.add((siglum, seg.start))
            continue
        for j in range(t + 1, plan.span_to.get(i, t) + 1):
            out[j].covered.add(siglum)
        last = max(last, plan.span_to.get(i, plan.join.get(t, t)))
    if pending:
        inserted_after.setdefault(last, []).append(Draft({siglum: pending}))
    return out, inserted_after


def _merged(rows: list[Draft], join: dict[int, int], inserted_after: dict[int, list[Draft]]) -> list[Draft]:
    """The rows of a many-to-many bead made one, and the new rows put in after the row they follow."""
    n = len(rows)
    merged: list[Draft] = list(inserted_after.get(-1, []))
    j = 0
    while j < n:
        row = rows[j]
        for k in range(j + 1, join.get(j, j) + 1):  # a many-to-many bead: its rows become one
            for w, ms in rows[k].cells.items():
                row.cells[w] = [*row.cells.get(w, ()), *ms]
            row.moved |= rows[k].moved
        end = join.get(j, j)
        row.covered = {w for w in row.covered if w not in row.cells}
        merged.append(row)
        for extra in inserted_after.get(end, []):
            # a row put inside a span stays inside it: the spanning cells cover it too
            if end + 1 < n:
                extra.covered |= {w for w in rows[end + 1].covered if w in row.speakers()}
            merged.append(extra)
        j = end + 1
    return merged


def joined(units: list[Segment], text: str, offset: int, end: int) -> Segment:
    """Consecutive clauses of one sentence as one segment, up to ``end``; ``text`` holds the witness's text from
    ``offset`` on. What lies between two clauses (a comma) goes with the first: every character in one cell."""
    first, last = units[0], units[-1]
    return Segment(
        first.siglum,
        first.index,
        first.start,
        end,
        text[first.start - offset : end - offset],
        "".join(u.folded for u in units),
        first.paragraph,
        first.lo,
        last.hi,
        first.sentence,
        first.strength,
        first.quoted,
    )


def split_rows(
    rows: list[Draft], siglum: str, clauses: list[Segment], like: Likeness, bar: float, window: int
) -> list[Draft]:
    """Sentences of ``siglum`` that tell two moments the others tell rows apart, parted at a clause.

    Q's 城主登城拜辞，上嘉其固守，赐缣百匹，以励事君 stands beside the others' farewell, and their gift comes
    many rows below. The clauses at a sentence's end (or start) join the later (or earlier) row that holds
    their counterparts, in the witness's own order, where the witness has no cell, when two other witnesses
    there are as like them as a transposition must be (``bar``) and the rows the sentence stands in hold
    nothing so like them. A sentence is never cut into rows it does not answer, nor to follow one other
    copy's finer cuts: no staircase. A part is tried again, so a sentence of three moments parts twice.
    """
    places = [
        (k, seg)
        for k, row in enumerate(rows)
        for seg in row.cells.get(siglum, ())
        if (siglum, seg.start) not in row.moved
    ]
    starts = [c.start for c in clauses]
    others: dict[int, Others] = {}  # row -> its other witnesses' cells (``Likeness.others``), which no part changes

    def like_row(folded: str, r: int, rank: int = 0) -> float:
        if r not in others:
            others[r] = like.others(rows[r], siglum)
        return like(folded, others[r], rank)

    done = -1  # the last row the parts placed so far reach
    for n, (k, seg) in enumerate(places):
        after = places[n + 1][0] if n + 1 < len(places) else len(rows)
        todo = [(k, seg, done, after)]  # a part, and the rows its own parts may go to lie between these
        while todo:
            k, seg, first, last = todo.pop()
            span = clauses[bisect_left(starts, seg.start) : bisect_left(starts, seg.end)]
            units = [c for c in span if c.end <= seg.end]
            end = reach(rows, siglum, k)
            best = None
            for c in range(1, len(units)):
                for part, free in (
                    (units[c:], range(end + 1, min(last, end + 1 + window))),
                    (units[:c], range(max(first + 1, k - window), k)),
                ):
                    free = [r for r in free if siglum not in rows[r].cells and siglum not in rows[r].covered]
                    if not free:
                        continue
                    folded = "".join(u.folded for u in part)
                    sim, earliest = max((like_row(folded, r, 1), -r) for r in free)
                    if (
                        sim >= bar
                        and (best is None or sim > best[0])
                        and max(like_row(folded, j) for j in range(k, end + 1)) < bar
                    ):
                        best = (sim, c, -earliest)
            if best is None:
                done = max(done, end)
                continue
            _, c, r = best
            head = joined(units[:c], seg.text, seg.start, units[c].start)
            tail = joined(units[c:], seg.text, seg.start, seg.end)
            cell = rows[k].cells[siglum]
            if r > k:  # the end of the sentence goes down; its start stays where it was placed
                cell[cell.index(seg)] = head
                rows[r].cells.setdefault(siglum, []).append(tail)
                todo += [(r, tail, end, last), (k, head, first, r)]  # a stack: the head is tried first
            else:  # the start goes up
                cell[cell.index(seg)] = tail
                rows[r].cells.setdefault(siglum, []).insert(0, head)
                todo += [(k, tail, r, last), (r, head, first, k)]
    return rows


def headings(segments: dict[str, list[Segment]]) -> set[str]:
    """The compared texts of section headings (``segment.heading_at``). A heading names what follows and tells no
    moment: set beside another text's sentence for one word they share (a flashback's 「一件褐袍。」), it made a row
    of two moments. Each stands in a row of its own (``apart``)."""
    return {segs[k].folded for segs in segments.values() for k in heading_at(segs)}


def apart(rows: list[Draft], heads: set[str]) -> list[Draft]:
    """The rows with each heading that opens a witness's cell beside others' taken out into a row of its own, just
    above. Done to the rows made, not by keeping headings out of the alignment: a heading's words still guide its
    witness's sentences to their rows (kept out, the chronicles' rows of the lord's farewell came apart)."""
    out: list[Draft] = []
    for row in rows:
        for s, segs in list(row.cells.items()):
            if len(row.speakers()) > 1 and segs[0].folded in heads and (s, segs[0].start) not in row.moved:
                alone = Draft({s: [segs[0]]})
                alone.covered = set(row.covered)  # a cell from above that covers the row covers the heading too
                out.append(alone)
                if len(segs) > 1:
                    row.cells[s] = segs[1:]
                else:
                    del row.cells[s]
        out.append(row)
    return out


def sentences(units: list[Segment], text: str) -> list[Segment]:
    """Consecutive clauses of one sentence joined: rows pair sentences, not the clauses they were cut into."""
    runs: list[list[Segment]] = []
    for u in units:
        if runs and runs[-1][-1].sentence == u.sentence and runs[-1][-1].hi == u.lo:
            runs[-1].append(u)
        else:
            runs.append([u])
    return [run[0] if len(run) == 1 else joined(run, text, 0, run[-1].end) for run in runs]


def align(
    episode_id: str,
    order: list[str],
    segments: dict[str, list[Segment]],
    params: AlignParams,
    names: Names | None = None,
    clauses: dict[str, list[Segment]] | None = None,
) -> tuple[Row, ...]:
    """Rows for one episode; ``order`` lists the sigla, base first; ``clauses``, the clauses the segments
    (sentences) are made of, where a sentence may be parted (see ``split_rows``)."""
    names = names or Names({})
    floor = min(params.match, params.moved) * params.floor_share - SLACK
    df: Counter[str] = Counter()
    counts: dict[str, Counter[str]] = {}  # by folded text
    n_docs = 0
    for siglum in order:
        for seg in segments.get(siglum, []):
            if seg.folded not in counts:
                counts[seg.folded] = grams(seg.folded, names)
            df.update(counts[seg.folded].keys())
            n_docs += 1
    idf = {g: math.log((max(1, n_docs) + 1) / (c + 1)) + 1.0 for g, c in df.items()}
    rank = {g: k for k, g in enumerate(sorted(df, key=lambda g: (df[g], g)))}
    vecs = {text: Vec(c, idf, rank, floor) for text, c in counts.items()}
    postings: defaultdict[str, list[tuple[str, float]]] = defaultdict(list)  # prefix gram -> (text, weight)

    for text, vec in vecs.items():
        for g, w in vec.prefix:
            postings[g].append((text, w))

    likes: dict[str, list[tuple[str, float]]] = {}  # text -> its like texts (see ``like_texts``), for every pass
    store = Readings(vecs)  # runs of texts, summed once for every pass

    def add(rows: list[Draft], siglum: str, spread: bool = False) -> list[Draft]:
        segs = segments.get(siglum, [])
        if not rows:
            return [Draft({siglum: [s]}) for s in segs]
        rows_of: defaultdict[str, list[int]] = defaultdict(list)
        for j, row in enumerate(rows):
            for text in dict.fromkeys(map(FOLDED, chain.from_iterable(row.cells.values()))):  # C loops: many cells
                rows_of[text].append(j)
        found: dict[str, list[tuple[int, float]]] = {}  # a text repeated in the witness is looked up once
        for s in segs:
            if s.folded not in found:
                if s.folded not in likes:
                    likes[s.folded] = like_texts(vecs[s.folded], vecs, postings, floor, params.common)
                found[s.folded] = candidate_rows(likes[s.folded], rows_of, params.candidates)
        cands = [found[s.folded] for s in segs]
        beads = choose_beads(segs, rows, cands, Blocks(segs, rows, vecs, store), params, spread)
        return into_rows(rows, siglum, segs, beads, cands, params, spread)

    present = [s for s in order if segments.get(s)]
    rows: list[Draft] = []
    for siglum in present:
        rows = add(rows, siglum)
    # each witness again, against the rows all the others made; the spine last, whose first rows were its own
    # alone (E's 李世民也当场下令 stood beside A's 到了致祭之日: the rows were E's before A came). The rows
    # follow the spine's sentences: where several answer one sentence of another witness, that one spans them.
    for siglum in present[1:]:
        rows = add(without(rows, siglum), siglum)
    if len(present) > 1:
        rows = add(without(rows, present[0]), present[0], spread=True)
    if clauses:
        like = Likeness(vecs, idf, names, clauses)
        for siglum in present:
            rows = split_rows(rows, siglum, clauses.get(siglum, []), like, params.part, params.reach * params.longest)
    rows = single_rows(apart(rows, headings(segments)))
    out = []
    for k, row in enumerate(rows, 1):
        span = {}
        for w in row.cells:
            n = reach(rows, w, k - 1) - (k - 1) + 1
            if n > 1:
                span[w] = n
        out.append(
            Row(
                f"{episode_id}-{k}",
                {s: tuple(row.cells[s]) for s in order if row.cells.get(s)},
                span,
                frozenset(row.moved),
            )
        )
    return tuple(out)
