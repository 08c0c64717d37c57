"""How like a row a segment or a run of segments is: with the closest witness there, and with the row as a whole
(its witnesses' texts summed), computed from dot products kept for the episode's whole alignment.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Collection
from functools import reduce
from itertools import chain
from operator import add, attrgetter, itemgetter

from ..model import Segment
from .drafts import Draft, add_weights
from .search import Names, Vec, grams

FOLDED = attrgetter("folded")  # a segment's compared text
FIRST = itemgetter(0)
# a row's cells but one witness's, by what they read: (texts, each segment's clauses, how many witnesses read so)
Others = list[tuple[tuple[str, ...], tuple[tuple[str, ...], ...], int]]


class Readings:
    """What ``Blocks`` finds of runs of texts ("readings"), kept for an episode's whole alignment: a reading's
    number, summed vector and squared norm; a text's dot product with a reading; twice the cosine of two
    readings; the norm of a row as a whole from the readings its witnesses give it, in their order.

    Each depends on the texts alone, never on the rows, so every pass of the alignment (one per witness, and
    each takes a witness out and puts it back) finds again what the passes before it found: rows the pass does
    not touch read as they did. Made per pass, the sums of a row of many copies were made again pass after
    pass, and their cost grew with the square of the witnesses. So are a text's and a run's likeness to a row
    (``Blocks.single``, ``Blocks.sim``), by what the row reads: the copies of one text bring the same sentences
    against the same rows pass after pass (of 560,000 asked at 20 x 100k, 130,000 differ).
    """

    def __init__(self, vecs: dict[str, Vec]) -> None:
        self.vecs = vecs
        self._ids: dict[tuple[str, ...], int] = {}  # a run of texts -> its reading's number
        self._texts: dict[str, int] = {}  # one text -> the number of the reading of it alone
        self.sums: list[dict[str, float]] = []  # by number: the reading's summed vector
        self.norms2: list[float] = []  # by number: its squared norm
        self._against: dict[tuple[str, int], float] = {}
        self._pairs: dict[tuple[int, int], float] = {}
        self._spreads: dict[tuple[int, ...], float] = {}
        self._rows: dict[tuple[tuple[int, ...], bool], int] = {}  # what a row reads -> its number
        self.singles: dict[tuple[str, int], float] = {}  # (text, row's number) -> ``Blocks.single``
        self.sims: dict[tuple[tuple[str, ...], float, tuple[int, ...]], float] = {}  # -> ``Blocks.sim``

    def row(self, order: tuple[int, ...], several: bool) -> int:
        """The number of what a row reads: its witnesses' readings (by number, in the row's order) and whether
        several witnesses have cells there; rows that read alike share it, in any pass."""
        return self._rows.setdefault((order, several), len(self._rows))

    def reading(self, texts: tuple[str, ...]) -> int:
        """The number of a run of texts; its summed vector and squared norm are made when it is first seen (a
        run one text longer than another adds that text's weights to a copy of the shorter run's sum). A text with
        no words (a scene break's 「*」 that a sentence joined) adds nothing, and is no run of its own: a reading of
        it alone would have a norm of 0 to divide by."""
        if "" in texts:
            texts = tuple(filter(None, texts))
        k = self._ids.get(texts)
        if k is None:
            if len(texts) == 1:  # one text: its own weights (a sum of one is that one)
                vec = self.vecs[texts[0]]
                into, square = vec.weights, vec.square
                self._texts[texts[0]] = len(self.sums)
            else:
                into = dict(self.sums[self.reading(texts[:-1])])
                add_weights(into, self.vecs[texts[-1]].weights)
                square = sum(x * x for x in into.values())
            k = self._ids[texts] = len(self.sums)
            self.sums.append(into)
            self.norms2.append(square)
        return k

    def cells(self, cells: Collection[list[Segment]]) -> list[int]:
        """The numbers of what a row's cells read, in order, those with no words left out. Every pass reads every
        row's cells again, and a row holds a cell for each witness: where each is one segment of a text already
        read (most are), all are looked up in C loops, with no run of texts made per cell."""
        if set(map(len, cells)) == {1}:
            known = list(map(self._texts.get, map(FOLDED, map(FIRST, cells))))
            if None not in known:  # ("" is never read: a text with no words is no reading)
                return known
        return [k for k in map(self.cell, cells) if k is not None]

    def cell(self, segs: list[Segment]) -> int | None:
        """The number of what one cell reads, None where it has no words. A cell of one segment (most are) is
        looked up by its text, with no run of texts made."""
        if len(segs) == 1:
            text = segs[0].folded
            k = self._texts.get(text)
            return k if k is not None or not text else self.reading((text,))
        texts = tuple(map(FOLDED, segs))
        return self.reading(texts) if any(texts) else None

    def against(self, x: str, k: int) -> float:
        """The dot product of one text with reading ``k``'s summed vector."""
        value = self._against.get((x, k))
        if value is None:
            a, theirs = self.vecs[x].weights, self.sums[k]
            value = self._against[(x, k)] = sum(v * theirs[g] for g, v in a.items() if g in theirs)
        return value

    def pair(self, ka: int, kb: int) -> float:
        """Twice the cosine of two readings, as ``spread`` adds it up."""
        va, vb = self.sums[ka], self.sums[kb]
        key = (ka, kb) if len(va) == len(vb) or ka <= kb else (kb, ka)  # the smaller is iterated: either order
        value = self._pairs.get(key)
        if value is None:
            x, y = (va, vb) if len(va) <= len(vb) else (vb, va)
            norms = math.sqrt(self.norms2[ka] * self.norms2[kb])
            value = self._pairs[key] = 2 * sum(w * y[g] for g, w in x.items() if g in y) / norms
        return value

    def spread(self, order: tuple[int, ...]) -> float:
        """The norm of a row as a whole whose witnesses read the readings ``order`` (by number, in the row's order
        of witnesses): the sum of their texts, each witness's of unit length (from the dot products of those
        texts, so the sum itself is never built; witnesses that read alike share theirs)."""
        value = self._spreads.get(order)
        if value is None:
            readings = dict.fromkeys(order)
            # each reading's twice-cosine with every seat's, in the row's order: a seat's pairs with the seats after
            # it are then one slice (a row of many copies has hundreds of pairs and a few readings)
            across = {a: list(map({b: self.pair(a, b) for b in readings}.__getitem__, order)) for a in readings}
            pairs = chain.from_iterable(across[k][n + 1 :] for n, k in enumerate(order))
            value = self._spreads[order] = math.sqrt(reduce(add, pairs, float(len(order))))
        return value


class Blocks:
    """Similarities of runs of a witness's segments with runs of rows (each row witness by witness), in one pass
    of the alignment.

    A run's vector is the sum of its texts' vectors. The rows' side is summed once per run of rows and
    witness (a row may hold many texts of one witness), so a segment's likeness to it is one sparse dot
    product; a run of segments is dotted through its texts (bilinear: the dot of two sums is the sum of
    the dots), each text's dot computed once, and a run one text longer than another costs only that
    text's dot products.

    The rows' side is kept by what it says, not by whose it is: witnesses that read alike in a run of rows
    (copies of one text mostly do) share one reading (see ``Readings``, kept for every pass) -- so a row of
    many copies costs about what a row of its few distinct readings costs.
    """

    def __init__(self, segs: list[Segment], rows: list[Draft], vecs: dict[str, Vec], store: Readings) -> None:
        self.segs, self.rows, self.vecs, self.store = segs, rows, vecs, store
        self._dots: dict[tuple[str, str], float] = {}
        self._squares: dict[tuple[str, ...], float] = {}
        self._runs: dict[tuple[int, int], dict[str, tuple[str, ...]]] = {}
        self._readings: dict[tuple[int, int], tuple[tuple[int, ...], list[int]]] = {}
        self._rows: dict[int, int] = {}

    def dot(self, x: str, y: str) -> float:
        key = (x, y) if x <= y else (y, x)
        value = self._dots.get(key)
        if value is None:
            a, b = self.vecs[x].weights, self.vecs[y].weights
            if len(a) > len(b):
                a, b = b, a
            value = self._dots[key] = sum(w * b[g] for g, w in a.items() if g in b)
        return value

    def square(self, texts: tuple[str, ...]) -> float:
        """The squared norm of a run's summed vector."""
        value = self._squares.get(texts)
        if value is None:
            last = texts[-1]
            value = self.vecs[last].norm ** 2
            if len(texts) > 1:
                value += self.square(texts[:-1]) + 2 * sum(self.dot(x, last) for x in texts[:-1])
            self._squares[texts] = value
        return value

    def runs(self, j: int, b: int) -> dict[str, tuple[str, ...]]:
        """Rows ``j..j+b-1`` witness by witness: the texts of its cells there, in order."""
        value = self._runs.get((j, b))
        if value is None:
            cells = self.rows[j + b - 1].cells
            if b == 1:
                value = {w: tuple(map(FOLDED, ms)) for w, ms in cells.items()}
            else:
                value = dict(self.runs(j, b - 1))
                for w, ms in cells.items():
                    value[w] = value.get(w, ()) + tuple(map(FOLDED, ms))
            self._runs[(j, b)] = value
        return value

    def readings(self, j: int, b: int) -> tuple[tuple[int, ...], list[int]]:
        """Rows ``j..j+b-1``'s distinct readings (numbers), and which of them each witness that has words there
        reads, in the rows' order: the sums over witnesses run over this order, so they add up alike."""
        value = self._readings.get((j, b))
        if value is None:
            if b == 1:
                read = self.store.cells(self.rows[j].cells.values())
            else:
                reading = self.store.reading
                read = [reading(t) for t in self.runs(j, b).values() if any(t)]
            seat = {k: n for n, k in enumerate(dict.fromkeys(read))}  # each reading's place, as first read
            value = self._readings[(j, b)] = (tuple(seat), list(map(seat.__getitem__, read)))
        return value

    def row(self, j: int) -> int:
        """The number of what row ``j`` reads (``Readings.row``): a segment's likeness to it depends on that alone."""
        value = self._rows.get(j)
        if value is None:
            readings, order = self.readings(j, 1)
            several = len(self.rows[j].cells) > 1
            value = self._rows[j] = self.store.row(tuple(map(readings.__getitem__, order)), several)
        return value

    def single(self, i: int, j: int) -> float:
        """A segment's likeness to one row, remembered for every pass by what the row reads (it is summed into
        many beads): the better of its cosine with the closest witness there and with the row as a whole (see
        ``Readings.spread``), where the words several witnesses share -- the moment's own -- weigh more than one
        witness's. E's 与前来迎接的太子李承乾相遇 is more like the rows where A's 李治 and D's 太子 both come to
        meet the emperor than like either alone; held to the closest witness, it stood in no row, and E's next
        sentence (李世民看着…一瘸一拐的李承乾) spanned seven rows from A's 長孫無忌看到李世民依舊穿著…褐衣 on the
        emperor's name."""
        key = (self.segs[i].folded, self.row(j))
        value = self.store.singles.get(key)
        if value is None:
            value = self.store.singles[key] = self._single(key[0], j)
        return value

    def _single(self, x: str, j: int) -> float:
        sq_a = self.square((x,))
        best = whole = 0.0
        readings, order = self.readings(j, 1)
        if sq_a > 0 and order:
            shares = []  # each reading's dot with the segment, over its own norm
            for k in readings:
                dot, sq_b = self.store.against(x, k), self.store.norms2[k]
                best = max(best, dot / math.sqrt(sq_a * sq_b))
                shares.append(dot / math.sqrt(sq_b))
            whole = reduce(add, map(shares.__getitem__, order), 0.0)
        if len(self.rows[j].cells) > 1 and whole:  # with one witness there, the two are one
            best = max(best, whole / (math.sqrt(sq_a) * self.store.spread(tuple(map(readings.__getitem__, order)))))
        return best

    def sim(self, i: int, a: int, j: int, b: int) -> float:
        """A run of segments' likeness to a run of rows: its cosine with the closest reading there, remembered
        for every pass by the run's texts, its squared norm (this pass's: made of this pass's ``dot``) and the
        readings."""
        mine = tuple(s.folded for s in self.segs[i : i + a])
        sq_a = self.square(mine)
        key = (mine, sq_a, self.readings(j, b)[0])
        value = self.store.sims.get(key)
        if value is None:
            value = 0.0
            if sq_a > 0:
                for k in key[2]:  # witnesses that read alike, once
                    dot = sum(self.store.against(x, k) for x in mine)
                    value = max(value, dot / math.sqrt(sq_a * self.store.norms2[k]))
            self.store.sims[key] = value
        return value


class Likeness:
    """A run of clauses' likeness to a row: with each other witness there, the better of its cosine with that
    witness's texts summed and with the closest run of that witness's own clauses at least as long as it (the
    same texts are summed once, and a run of clauses is compared with them once: the passes over a witness's
    sentences ask again of the same texts); the best of them, or the second best.

    The run of clauses matters where a sentence tells several moments: a summary's 赐缣百匹, the end of its one
    sentence of the farewell and the gift, is told by A inside a long sentence of praise, whose whole sum dilutes
    it below what a part needs. A run shorter than the part is not compared: a name alone (安市城主，) is like any
    clause that names him."""

    def __init__(
        self, vecs: dict[str, Vec], idf: dict[str, float], names: Names, clauses: dict[str, list[Segment]]
    ) -> None:
        self.vecs, self.idf, self.names = vecs, idf, names
        self._clauses = {w: [c.folded for c in cs] for w, cs in clauses.items()}
        self._starts = {w: [c.start for c in cs] for w, cs in clauses.items()}
        self._theirs: dict[tuple[str, ...], tuple[dict[str, float], float]] = {}
        self._cosines: dict[tuple[str, tuple[str, ...]], float] = {}
        self._closest: dict[tuple[str, tuple[str, ...]], float] = {}  # (part, a run's clauses) -> the closest run

    def _weights(self, folded: str) -> dict[str, float]:
        vec = self.vecs.get(folded)
        if vec is not None:
            return vec.weights
        return {g: self.idf[g] * c for g, c in grams(folded, self.names).items() if g in self.idf}

    def _summed(self, texts: tuple[str, ...]) -> tuple[dict[str, float], float]:
        value = self._theirs.get(texts)
        if value is None:
            out: dict[str, float] = {}
            for t in texts:
                add_weights(out, self._weights(t))
            value = self._theirs[texts] = (out, math.sqrt(sum(x * x for x in out.values())))
        return value

    def others(self, row: Draft, siglum: str) -> Others:
        """The cells of a row but ``siglum``'s, by what they read: their texts and each segment's clauses, and how
        many witnesses read so. The copies of one text read alike, and a row of many copies is then a few readings;
        a part of a sentence is weighed against each reading once (``__call__``)."""
        groups: dict[tuple[tuple[str, ...], tuple[tuple[str, ...], ...]], int] = {}
        for w, ms in row.cells.items():
            if w != siglum:
                key = (tuple(m.folded for m in ms), tuple(self._units(w, m) for m in ms))
                groups[key] = groups.get(key, 0) + 1
        return [(texts, units, n) for (texts, units), n in groups.items()]

    def __call__(self, folded: str, others: Others, rank: int = 0) -> float:
        """The ``rank``-th best likeness with the witnesses of a row (``others``; 0: the best; 1: the second best,
        0.0 where only one other speaks)."""
        sims = [0.0, 0.0]
        if not self._summed((folded,))[1]:
            return 0.0
        for texts, units, n in others:
            whole = self._cosine(folded, texts)
            if not whole:  # no gram in common with the cell: none with a run of its clauses either
                sims += [0.0] * n
                continue
            sims += [max(whole, *(self._closest_run(folded, u) for u in units))] * n
        return sorted(sims, reverse=True)[rank]

    def _units(self, siglum: str, seg: Segment) -> tuple[str, ...]:
        """The texts of ``siglum``'s clauses in ``seg``."""
        lo, hi = (bisect_left(self._starts.get(siglum, []), x) for x in (seg.start, seg.end))
        return tuple(self._clauses.get(siglum, [])[lo:hi])

    def _closest_run(self, folded: str, units: tuple[str, ...]) -> float:
        """The best cosine of ``folded`` with a run of the clauses ``units`` (a witness's in one segment): from
        each clause on, the fewest that together are at least as long as ``folded``."""
        key = (folded, units)
        best = self._closest.get(key)
        if best is None:
            best = 0.0
            for i in range(len(units)):
                j, size = i, 0
                while j < len(units) and size < len(folded):
                    size += len(units[j])
                    j += 1
                if size < len(folded):
                    break
                best = max(best, self._cosine(folded, ("".join(units[i:j]),)) or 0.0)
            self._closest[key] = best
        return best

    def _cosine(self, folded: str, texts: tuple[str, ...]) -> float | None:
        """The cosine of a run of clauses with a witness's texts in a row; None where those have no grams."""
        key = (folded, texts)
        if key not in self._cosines:
            (mine, norm_a), (theirs, norm_b) = self._summed((folded,)), self._summed(texts)
            dot = sum(x * theirs[g] for g, x in mine.items() if g in theirs)
            self._cosines[key] = dot / (norm_a * norm_b) if norm_b else None
        return self._cosines[key]
