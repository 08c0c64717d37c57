"""How like a row a segment or a run of segments is: with the closest witness there, and with the row as a whole
(its witnesses' texts summed), computed from dot products kept for the episode's whole alignment.
"""

from __future__ import annotations

import math
from functools import reduce
from itertools import chain
from operator import add

from ..model import Segment
from .drafts import Draft, Texts, add_weights
from .search import Names, Vec, grams


class Blocks:
    """Similarities of runs of a witness's segments with runs of rows (each row witness by witness).

    A run's vector is the sum of its texts' vectors. The rows' side is summed once per run of rows and
    witness (a row may hold many texts of one witness), so a segment's likeness to it is one sparse dot
    product; a run of segments is dotted through its texts (bilinear: the dot of two sums is the sum of
    the dots), each text's dot computed once, and a run one text longer than another costs only that
    text's dot products.

    The rows' side is kept by what it says, not by whose it is: witnesses that read alike in a run of rows
    (copies of one text mostly do) share one reading -- a number, its summed vector and its dot product with
    each text -- so a row of many copies costs about what a row of its few distinct readings costs.
    """

    def __init__(
        self, segs: list[Segment], rows: list[Draft], vecs: dict[str, Vec], idf: dict[str, float], texts: Texts
    ) -> None:
        self.segs, self.rows, self.vecs, self.idf, self.texts = segs, rows, vecs, idf, texts
        self._dots: dict[tuple[str, str], float] = {}
        self._squares: dict[tuple[str, ...], float] = {}
        self._runs: dict[tuple[int, int], dict[str, tuple[str, ...]]] = {}
        self._ids: dict[tuple[str, ...], int] = {}  # a run of texts -> its reading's number
        self._sums: list[dict[str, float]] = []  # by number: the reading's summed vector
        self._norms2: list[float] = []  # by number: its squared norm
        self._alone: list[str | None] = []  # by number: the text, where the reading is one text alone
        self._readings: dict[tuple[int, int], tuple[list[int], list[int]]] = {}
        self._against: dict[tuple[str, int], float] = {}
        self._pairs: dict[tuple[int, int], float] = {}  # of readings not both a text alone (see ``Texts``)
        self._single: dict[tuple[int, int], float] = {}
        self._spreads: dict[int, float] = {}

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
            value = dict(self.runs(j, b - 1)) if b > 1 else {}
            for w, ms in self.rows[j + b - 1].cells.items():
                value[w] = value.get(w, ()) + tuple(m.folded for m in ms)
            self._runs[(j, b)] = value
        return value

    def reading(self, texts: tuple[str, ...]) -> int:
        """The number of a run of texts; its summed vector and squared norm are made when it is first seen (a
        run one text longer than another adds that text's weights to a copy of the shorter run's sum)."""
        k = self._ids.get(texts)
        if k is None:
            if len(texts) == 1:  # one text: its own weights (a sum of one is that one)
                vec = self.vecs[texts[0]]
                into, square, alone = vec.weights, vec.square, texts[0]
            else:
                into = dict(self._sums[self.reading(texts[:-1])])
                add_weights(into, self.vecs[texts[-1]].weights)
                square, alone = sum(x * x for x in into.values()), None
            k = self._ids[texts] = len(self._sums)
            self._sums.append(into)
            self._norms2.append(square)
            self._alone.append(alone)
        return k

    def readings(self, j: int, b: int) -> tuple[list[int], list[int]]:
        """Rows ``j..j+b-1``'s distinct readings (numbers), and which of them each witness that has words there
        reads, in the rows' order: the sums over witnesses run over this order, so they add up alike."""
        value = self._readings.get((j, b))
        if value is None:
            index: dict[int, int] = {}
            order = [index.setdefault(self.reading(t), len(index)) for t in self.runs(j, b).values() if any(t)]
            value = self._readings[(j, b)] = (list(index), order)
        return value

    def against(self, x: str, k: int) -> float:
        """The dot product of one text with reading ``k``'s summed vector (with a text alone, kept for every
        pass of the alignment: copies bring the same two texts together in pass after pass)."""
        alone = self._alone[k]
        cache, key = (self._against, (x, k)) if alone is None else (self.texts.against, (x, alone))
        value = cache.get(key)
        if value is None:
            a, theirs = self.vecs[x].weights, self._sums[k]
            value = cache[key] = sum(v * theirs[g] for g, v in a.items() if g in theirs)
        return value

    def pair(self, ka: int, kb: int) -> float:
        """Twice the cosine of two readings, as ``spread`` adds it up (of two texts alone, kept for every pass)."""
        va, vb = self._sums[ka], self._sums[kb]
        ta, tb = self._alone[ka], self._alone[kb]
        cache, a, b = (self._pairs, ka, kb) if ta is None or tb is None else (self.texts.pairs, ta, tb)
        key = (a, b) if len(va) == len(vb) or a <= b else (b, a)  # the smaller is iterated: either order
        value = cache.get(key)
        if value is None:
            x, y = (va, vb) if len(va) <= len(vb) else (vb, va)
            norms = math.sqrt(self._norms2[ka] * self._norms2[kb])
            value = cache[key] = 2 * sum(w * y[g] for g, w in x.items() if g in y) / norms
        return value

    def spread(self, j: int) -> float:
        """The norm of row ``j`` as a whole: the sum of its witnesses' texts, each witness's of unit length
        (from the dot products of those texts, so the sum itself is never built; witnesses that read alike
        share theirs)."""
        value = self._spreads.get(j)
        if value is None:
            readings, order = self.readings(j, 1)
            twice = [[self.pair(a, b) for b in readings] for a in readings]
            pairs = chain.from_iterable(map(twice[g].__getitem__, order[k + 1 :]) for k, g in enumerate(order))
            value = self._spreads[j] = math.sqrt(reduce(add, pairs, float(len(order))))
        return value

    def single(self, i: int, j: int) -> float:
        """A segment's likeness to one row, remembered (it is summed into many beads): the better of its cosine
        with the closest witness there and with the row as a whole (see ``spread``), where the words several
        witnesses share -- the moment's own -- weigh more than one witness's. E's 与前来迎接的太子李承乾相遇 is
        more like the rows where A's 李治 and D's 太子 both come to meet the emperor than like either alone;
        held to the closest witness, it stood in no row, and E's next sentence (李世民看着…一瘸一拐的李承乾)
        spanned seven rows from A's 長孫無忌看到李世民依舊穿著…褐衣 on the emperor's name."""
        value = self._single.get((i, j))
        if value is None:
            x = self.segs[i].folded
            sq_a = self.square((x,))
            best = whole = 0.0
            readings, order = self.readings(j, 1)
            if sq_a > 0 and order:
                shares = []  # each reading's dot with the segment, over its own norm
                for k in readings:
                    dot, sq_b = self.against(x, k), self._norms2[k]
                    best = max(best, dot / math.sqrt(sq_a * sq_b))
                    shares.append(dot / math.sqrt(sq_b))
                whole = reduce(add, map(shares.__getitem__, order), 0.0)
            if len(self.runs(j, 1)) > 1 and whole:  # with one witness there, the two are one
                best = max(best, whole / (math.sqrt(sq_a) * self.spread(j)))
            value = self._single[(i, j)] = best
        return value

    def sim(self, i: int, a: int, j: int, b: int) -> float:
        mine = tuple(s.folded for s in self.segs[i : i + a])
        sq_a = self.square(mine)
        best = 0.0
        if sq_a > 0:
            for k in self.readings(j, b)[0]:  # witnesses that read alike, once
                best = max(best, sum(self.against(x, k) for x in mine) / math.sqrt(sq_a * self._norms2[k]))
        return best


class Likeness:
    """A run of clauses' likeness to a row: its cosine with each other witness's texts there, summed per
    witness (the same texts are summed once); the best of them, or the second best."""

    def __init__(self, vecs: dict[str, Vec], idf: dict[str, float], names: Names) -> None:
        self.vecs, self.idf, self.names = vecs, idf, names
        self._theirs: dict[tuple[str, ...], tuple[dict[str, float], float]] = {}

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

    def __call__(self, folded: str, row: Draft, siglum: str, rank: int = 0) -> float:
        """The ``rank``-th best likeness (0: the best; 1: the second best, 0.0 where only one other speaks)."""
        mine, norm_a = self._summed((folded,))
        sims = [0.0, 0.0]
        for w, ms in row.cells.items():
            if w == siglum or not norm_a:
                continue
            theirs, norm_b = self._summed(tuple(m.folded for m in ms))
            if norm_b:
                sims.append(sum(x * theirs[g] for g, x in mine.items() if g in theirs) / (norm_a * norm_b))
        return sorted(sims, reverse=True)[rank]
