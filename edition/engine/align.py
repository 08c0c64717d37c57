"""Align one episode's segments into rows, witness by witness.

The base witness's segments seed the rows; every other witness is then
aligned to the rows built so far by a monotone dynamic programme (several of
its segments may join one row; a segment with no counterpart gets a row of its
own, placed after its predecessor's). Each witness therefore keeps its own
order.

Only a segment's similarity to a row above ``match`` (a parameter) can make it join that
row, so everything is sparse: an inverted index of the rarer character grams
finds, for each segment, the few texts already in rows that can reach
``match`` with it (see ``Vec``; the same folded text is compared once), and the
programme runs over those candidate pairs only. While no segment has more than
``CANDIDATES`` of them its result is the dense programme's, ties included. The cost
grows with the number of candidate pairs (segments × their true counterparts), not
with segments × rows.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import reduce
from itertools import chain
from operator import add

from .model import Row, Segment
from .register import scan

# the most rows one segment is weighed against: a sentence has a few counterparts (at most 25 in the seeds, 12
# in the development set); only an episode told over and over offers more, and weighing them all costs the square
CANDIDATES = 32
# a gram carried by more texts of an episode than this finds no counterparts (a stop word, as in a search
# engine): in the seeds and the development set no searched gram is carried by more than 26, so there it never
# applies; in an episode of thousands of texts such grams would make the search cost the square of its size
COMMON = 64
SLACK = 1e-9  # below match - SLACK (the floor) a candidate can never win: float slack kept on the safe side


class Names:
    """The register's names and titles (compared forms), found in a text as the entities they denote, so
    杨万春 and 梁修元 and 城主, or 李治 and 太子, count as the same word in a comparison."""

    def __init__(self, entities: dict[str, tuple[str, ...]]) -> None:
        self.entities = entities

    def find(self, folded: str) -> list[str]:
        return ["@" + e for a, b in scan(folded, self.entities) for e in self.entities[folded[a:b]]]


def grams(folded: str, names: Names | None = None) -> Counter[str]:
    """Characters and character pairs: pairs find shared words, characters shared names in other wording;
    and the register's entities named, however a witness names them."""
    out: Counter[str] = Counter(folded)
    out.update(folded[i : i + 2] for i in range(len(folded) - 1))
    if names is not None:
        out.update(names.find(folded))
    return out


def norm(a: Counter[str], idf: dict[str, float]) -> float:
    return math.sqrt(sum((idf[g] * n) ** 2 for g, n in a.items()))


class Vec:
    """A segment's grams for the search: weights, norm, and its prefix in the episode's gram order.

    Grams are ranked rarest first. The prefix is the segment's grams up to
    ``cut`` (a rank), the rest its commonest grams, whose own norm stays below
    the floor of the whole. If two segments reach the floor, the first gram they
    share lies in both prefixes: were it outside either, every shared gram
    would be, and by Cauchy–Schwarz their cosine would be below the floor. So
    indexing and probing prefixes only loses no pair that matters.
    """

    __slots__ = ("counts", "cut", "norm", "prefix", "ranks", "rest", "square", "tails", "weights")

    def __init__(self, counts: Counter[str], idf: dict[str, float], rank: dict[str, int], floor: float) -> None:
        self.counts = counts
        self.weights = {g: idf[g] * c for g, c in counts.items()}
        self.norm = norm(counts, idf)
        self.square = sum(x * x for x in self.weights.values())  # as a row's reading of this text alone sums it
        ordered = sorted(counts, key=rank.__getitem__)
        self.ranks = [rank[g] for g in ordered]
        squares = [(idf[g] * counts[g]) ** 2 for g in ordered]
        self.tails = [0.0] * (len(ordered) + 1)  # tails[i]: squared norm of the grams from i on
        for i in range(len(ordered) - 1, -1, -1):
            self.tails[i] = self.tails[i + 1] + squares[i]
        limit = (floor * self.norm) ** 2
        k = len(ordered)
        while k and self.tails[k - 1] < limit:
            k -= 1
        # prefix weights as shares of the norm, so products of two are shares of the cosine
        self.prefix = [(g, math.sqrt(w) / self.norm) for g, w in zip(ordered[:k], squares[:k], strict=True)]
        self.cut = self.ranks[k] if k < len(ordered) else math.inf
        self.rest = math.sqrt(self.tails[k]) / self.norm if self.norm else 0.0  # below the floor

    def tail(self, cut: float) -> float:
        """Norm of the grams ranked ``cut`` or later, as a share of the whole."""
        return math.sqrt(self.tails[bisect_left(self.ranks, cut)]) / self.norm


def cosine(x: Vec, y: Vec) -> float:
    """idf-weighted cosine of two segments' grams (their weights made once, each segment a ``Vec``)."""
    a, b = x.weights, y.weights
    if len(a) > len(b):
        a, b = b, a
    dot = sum(w * b[g] for g, w in a.items() if g in b)
    return dot / (x.norm * y.norm) if dot else 0.0


Entry = tuple[float, int, int, int]  # (best total, -column, -segment, id): the largest is the one to trace


def _prefix_max(tree: list[Entry | None], c: int) -> Entry | None:
    best = None
    while c:
        t = tree[c]
        if t is not None and (best is None or t > best):
            best = t
        c &= c - 1
    return best


def _monotone_match(cands: list[list[tuple[int, float]]], n: int, match: float) -> list[int | None]:
    """For each segment, the row it joins (rows never decrease), or None; best total of sim - match.

    ``cands[i]`` lists segment i's (row, similarity) pairs by row, for the rows it may join among ``n``.
    This is the dense programme best[i][j] = max(best[i][j-1], best[i-1][j], best[i-1][j] + sim - match),
    traced back from best[m][n] with ties to the first option, computed over the candidates only: best[i][j]
    is the largest total of a candidate (i' <= i, column j' = row + 1 <= j), kept in a Fenwick tree of
    prefix maxima over columns. The dense trace back from a total goes to the candidate that first reached
    it, in the fewest columns and then the fewest segments: the entries order ties that way, and each
    candidate remembers the one it extends, so the trace back follows those links.
    """
    tree: list[Entry | None] = [None] * (n + 1)
    links: list[tuple[int, int, int]] = []  # id -> (segment, column, id of the candidate it extends or -1)
    for i, row_cands in enumerate(cands):
        new = []
        for j, s in row_cands:  # all read best[i-1] before any of segment i's candidates is added
            prev = _prefix_max(tree, j + 1)
            v = ((prev[0] if prev else 0.0) + s) - match
            if v > 0.0:
                new.append((j + 1, v, prev[3] if prev else -1))
        for c, v, prev_id in new:
            entry = (v, -c, -i, len(links))
            links.append((i, c, prev_id))
            while c <= n:
                t = tree[c]
                if t is None or entry > t:
                    tree[c] = entry
                c += c & -c
    out: list[int | None] = [None] * len(cands)
    last = _prefix_max(tree, n)
    u = last[3] if last else -1
    while u >= 0:
        i, c, u = links[u]
        out[i] = c - 1
    return out


def _likes(
    x: Vec, vecs: dict[str, Vec], postings: dict[str, list[tuple[str, float]]], floor: float
) -> list[tuple[str, float]]:
    """The episode's texts whose likeness to a text (``x``) reaches the floor, with that likeness.

    The shared prefix grams give part of each dot product; the grams this misses are all ranked at or after
    the earlier of the two cuts, so they add at most the product of the two texts' norms from that rank on: a
    text whose bound stays below the floor is skipped without computing its cosine. The answer depends on the
    texts alone, not on the rows, so an alignment asks it once per text, however many passes and copies
    bring the text back.
    """
    part: defaultdict[str, float] = defaultdict(float)
    for g, wa in x.prefix:
        posted = postings.get(g, ())
        if len(posted) > COMMON:
            continue
        for other, wb in posted:
            part[other] += wa * wb
    out = []
    bar = floor - SLACK  # float slack, on the safe side
    for other, dot in part.items():
        y = vecs[other]
        first, second = (x, y) if x.cut <= y.cut else (y, x)  # from the earlier cut on: one's rest, one's tail
        if dot + first.rest * second.tail(first.cut) < bar:
            continue
        sim = cosine(x, y)
        if sim >= floor:
            out.append((other, sim))
    return out


def _candidates(likes: list[tuple[str, float]], rows_of: dict[str, list[int]]) -> list[tuple[int, float]]:
    """The rows a segment may join, by row: its best likeness to a member of each (``likes``, see ``_likes``).

    Members are compared by folded text (the same text has the same grams, so the same cosine)."""
    best: dict[int, float] = {}
    for other, sim in likes:
        for j in rows_of.get(other, ()):
            if sim > best.get(j, -1.0):
                best[j] = sim
    if len(best) > CANDIDATES:  # a text that repeats itself: the likeliest rows, not every near-copy
        return sorted(sorted(best.items(), key=lambda js: (-js[1], js[0]))[:CANDIDATES])
    return sorted(best.items())


class Draft:
    """A row being built: each witness's segments, the witnesses whose cell above covers it, what is moved."""

    __slots__ = ("cells", "covered", "moved")

    def __init__(self, cells: dict[str, list[Segment]] | None = None) -> None:
        self.cells: dict[str, list[Segment]] = cells or {}
        self.covered: set[str] = set()  # witnesses whose cell in an earlier row spans down over this one
        self.moved: set[tuple[str, int]] = set()  # (siglum, start) of segments told elsewhere in that witness

    def speakers(self) -> set[str]:
        return set(self.cells) | self.covered


def _add(into: dict[str, float], weights: dict[str, float]) -> None:
    """Add one text's weights to a summed vector (the vector of a run of texts is the sum of theirs)."""
    for g, x in weights.items():
        into[g] = into.get(g, 0.0) + x


Bead = tuple[int, int, int, int]  # (i, a, j, b): the witness's segments i..i+a-1 answer rows j..j+b-1
LONGEST = 8  # a segment may answer up to this many rows, and up to this many segments one row


class Texts:
    """What ``Blocks`` finds of texts alone, kept for the whole alignment of an episode (every pass): a text's
    dot product with another text, and twice the cosine of two texts, as a row's readings of one text each
    give them."""

    def __init__(self) -> None:
        self.against: dict[tuple[str, str], float] = {}
        self.pairs: dict[tuple[str, str], float] = {}


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
                _add(into, self.vecs[texts[-1]].weights)
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


def _band(cands: list[list[tuple[int, float]]], n: int, params: AlignParams) -> list[list[int]]:
    """Each segment's candidate rows near the path a one-to-one monotone match takes: between the rows of
    the matched segments around it, ``LONGEST`` rows either side. A text that repeats itself (a long
    episode told again and again) then offers a segment its few nearby counterparts, not every copy;
    a counterpart far off the path can still join as a moved passage."""
    in_order = [[(j, sim) for j, sim in c if sim >= params.match - SLACK] for c in cands]
    placed = _monotone_match(in_order, n, params.match)
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
        out.append([j for j, _ in c if lo - LONGEST <= j <= hi + LONGEST])
    return out


def _bead_options(near: list[list[int]], n: int) -> list[tuple[int, int, int, int]]:
    """Every bead anchored at both ends, by start: one to one, one segment to several rows, several segments
    to one row, two to two. Anchored: its first and last segments, and its first and last rows, are each in a
    candidate pair within it. A bead never reaches out to take in a neighbour that has nothing to do with the
    other side (rows in between may be too short to show a likeness). So several segments join row ``j``
    where the last of them is a candidate of ``j`` too, and two segments rows ``j`` and ``j + 1`` where the
    second is a candidate of one of them and row ``j + 1`` of either segment."""
    sets = [set(rows) for rows in near]
    out = []
    for i, rows in enumerate(near):
        later = sets[i + 1 : i + LONGEST]  # the segments a bead starting at i may end with
        for j in rows:
            for jj in rows:
                if j <= jj < j + LONGEST:
                    out.append((i, 1, j, jj - j + 1))
            for a, theirs in enumerate(later, 2):
                if j in theirs:
                    out.append((i, a, j, 1))
            if later and j + 1 < n:
                second = later[0]
                if (j in second or j + 1 in second) and (j + 1 in sets[i] or j + 1 in second):
                    out.append((i, 2, j, 2))
    return sorted(set(out))


def _beads(
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
    near = _band(cands, n, params)
    tree: list[Entry | None] = [None] * (n + 2)
    links: list[tuple[Bead, int]] = []  # id -> (bead, id of the bead it extends or -1)
    ends: dict[int, list[tuple[int, Entry]]] = {}  # segment index after a bead -> (row after it, entry)

    def insert(c: int, entry: Entry) -> None:
        c += 1
        while c <= n + 1:
            t = tree[c]
            if t is None or entry > t:
                tree[c] = entry
            c += c & -c

    done_up_to = 0
    for i, a, j, b in _bead_options(near, n):
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
        prev = _prefix_max(tree, j + 1)
        total = (prev[0] if prev else 0.0) + score
        entry = (total, -(j + b), -(i + a), len(links))
        links.append(((i, a, j, b), prev[3] if prev else -1))
        ends.setdefault(i + a, []).append((j + b, entry))
    for c, entry in (x for lst in ends.values() for x in lst):
        insert(c, entry)
    last = _prefix_max(tree, n + 1)
    out: list[Bead] = []
    u = last[3] if last else -1
    while u >= 0:
        bead, u = links[u]
        out.append(bead)
    return out[::-1]


def _place(
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
    n = len(rows)
    target: list[int | None] = [None] * len(segs)
    span_to: dict[int, int] = {}  # segment -> last row its cell covers
    join: dict[int, int] = {}  # first row of a many-to-many bead -> its last row
    under: dict[int, int] = {}  # segment -> the row whose cells span down over the row it opens
    for i, a, j, b in beads:
        for k in range(i, i + a):
            target[k] = j
        if b > 1 and a == 1:
            span_to[i] = j + b - 1
        elif b > 1:
            join[j] = j + b - 1
        elif a > 1 and spread:  # each a row of its own, under the row's cells
            for k in range(i + 1, i + a):
                target[k], under[k] = None, j
    taken = {j for i, a, j, b in beads for j in range(j, j + b)}
    moved: set[int] = set()
    for i, t in enumerate(target):
        if t is not None or i in under:
            continue
        best = max(((sim, -j) for j, sim in found[i] if j not in taken), default=None)
        if best is None or best[0] < params.moved:
            continue
        lo = max((x for x in target[:i] if x is not None), default=-1)
        hi = min((x for x in target[i + 1 :] if x is not None), default=n)
        if lo < -best[1] < hi:
            continue  # in order: the alignment declined it, and so does this
        target[i] = -best[1]
        taken.add(target[i])
        moved.add(i)
    out_rows = [Draft({k: list(v) for k, v in r.cells.items()}) for r in rows]
    for new, old in zip(out_rows, rows, strict=True):
        new.covered = set(old.covered)
        new.moved = set(old.moved)
    inserted_after: dict[int, list[Draft]] = {}
    last = -1
    pending: list[Segment] = []
    for i, (seg, t) in enumerate(zip(segs, target, strict=True)):
        if i in under:
            j = under[i]
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
        out_rows[t].cells.setdefault(siglum, []).append(seg)
        if i in moved:
            out_rows[t].moved.add((siglum, seg.start))
            continue
        for j in range(t + 1, span_to.get(i, t) + 1):
            out_rows[j].covered.add(siglum)
        last = max(last, span_to.get(i, join.get(t, t)))
    if pending:
        inserted_after.setdefault(last, []).append(Draft({siglum: pending}))
    merged: list[Draft] = list(inserted_after.get(-1, []))
    j = 0
    while j < n:
        row = out_rows[j]
        for k in range(j + 1, join.get(j, j) + 1):  # a many-to-many bead: its rows become one
            for w, ms in out_rows[k].cells.items():
                row.cells.setdefault(w, []).extend(ms)
            row.moved |= out_rows[k].moved
        end = join.get(j, j)
        row.covered = {w for w in row.covered if w not in row.cells}
        merged.append(row)
        for extra in inserted_after.get(end, []):
            # a row put inside a span stays inside it: the spanning cells cover it too
            if end + 1 < n:
                extra.covered |= {w for w in out_rows[end + 1].covered if w in row.speakers()}
            merged.append(extra)
        j = end + 1
    return merged


def _joined(units: list[Segment], text: str, offset: int, end: int) -> Segment:
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
                _add(out, self._weights(t))
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


def _reach(rows: list[Draft], siglum: str, k: int) -> int:
    """The last row the witness's cell in row ``k`` covers."""
    end = k
    while end + 1 < len(rows) and siglum in rows[end + 1].covered and siglum not in rows[end + 1].cells:
        end += 1
    return end


def _split(rows: list[Draft], siglum: str, clauses: list[Segment], like: Likeness, bar: float) -> list[Draft]:
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
    done = -1  # the last row the parts placed so far reach
    for n, (k, seg) in enumerate(places):
        after = places[n + 1][0] if n + 1 < len(places) else len(rows)
        todo = [(k, seg, done, after)]  # a part, and the rows its own parts may go to lie between these
        while todo:
            k, seg, first, last = todo.pop()
            span = clauses[bisect_left(starts, seg.start) : bisect_left(starts, seg.end)]
            units = [c for c in span if c.end <= seg.end]
            end = _reach(rows, siglum, k)
            best = None
            for c in range(1, len(units)):
                for part, free in (
                    (units[c:], range(end + 1, min(last, end + 1 + 4 * LONGEST))),
                    (units[:c], range(max(first + 1, k - 4 * LONGEST), k)),
                ):
                    free = [r for r in free if siglum not in rows[r].cells and siglum not in rows[r].covered]
                    if not free:
                        continue
                    folded = "".join(u.folded for u in part)
                    sim, earliest = max((like(folded, rows[r], siglum, 1), -r) for r in free)
                    if (
                        sim >= bar
                        and (best is None or sim > best[0])
                        and max(like(folded, rows[j], siglum) for j in range(k, end + 1)) < bar
                    ):
                        best = (sim, c, -earliest)
            if best is None:
                done = max(done, end)
                continue
            _, c, r = best
            head = _joined(units[:c], seg.text, seg.start, units[c].start)
            tail = _joined(units[c:], seg.text, seg.start, seg.end)
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


def sentences(units: list[Segment], text: str) -> list[Segment]:
    """Consecutive clauses of one sentence joined: rows pair sentences, not the clauses they were cut into."""
    runs: list[list[Segment]] = []
    for u in units:
        if runs and runs[-1][-1].sentence == u.sentence and runs[-1][-1].hi == u.lo:
            runs[-1].append(u)
        else:
            runs.append([u])
    return [run[0] if len(run) == 1 else _joined(run, text, 0, run[-1].end) for run in runs]


@dataclass(frozen=True)
class AlignParams:
    match: float  # similarity a segment (or a bead of them) needs to join a row in order
    merge: float  # what each segment or row beyond one in a bead costs in similarity
    moved: float  # similarity a segment needs to join a row out of its witness's order (a transposition)


def _without(rows: list[Draft], siglum: str) -> list[Draft]:
    """The rows with one witness taken out (rows it alone had are gone)."""
    out = []
    for row in rows:
        if set(row.cells) == {siglum}:
            continue
        new = Draft({w: list(ms) for w, ms in row.cells.items() if w != siglum})
        new.covered = row.covered - {siglum}
        new.moved = {m for m in row.moved if m[0] != siglum}
        out.append(new)
    return out


def _single(rows: list[Draft]) -> list[Draft]:
    """Consecutive rows where one witness alone speaks, the same one, become one row."""
    out: list[Draft] = []
    for row in rows:
        prev = out[-1] if out else None
        if (
            prev is not None
            and len(row.cells) == 1
            and set(prev.cells) == set(row.cells)
            and not prev.covered
            and not row.covered
            and not prev.moved
            and not row.moved
        ):
            (w,) = row.cells
            prev.cells[w].extend(row.cells[w])
        else:
            out.append(row)
    return out


def align(
    episode_id: str,
    order: list[str],
    segments: dict[str, list[Segment]],
    params: AlignParams,
    names: Names | None = None,
    clauses: dict[str, list[Segment]] | None = None,
) -> tuple[Row, ...]:
    """Rows for one episode; ``order`` lists the sigla, base first; ``clauses``, the clauses the segments
    (sentences) are made of, where a sentence may be parted (see ``_split``)."""
    names = names or Names({})
    floor = min(params.match, params.moved) * 0.75 - SLACK
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

    likes: dict[str, list[tuple[str, float]]] = {}  # text -> its like texts (see ``_likes``), for every pass
    texts = Texts()

    def add(rows: list[Draft], siglum: str, spread: bool = False) -> list[Draft]:
        segs = segments.get(siglum, [])
        if not rows:
            return [Draft({siglum: [s]}) for s in segs]
        rows_of: defaultdict[str, list[int]] = defaultdict(list)
        for j, row in enumerate(rows):
            for text in dict.fromkeys(m.folded for ms in row.cells.values() for m in ms):
                rows_of[text].append(j)
        found: dict[str, list[tuple[int, float]]] = {}  # a text repeated in the witness is looked up once
        for s in segs:
            if s.folded not in found:
                if s.folded not in likes:
                    likes[s.folded] = _likes(vecs[s.folded], vecs, postings, floor)
                found[s.folded] = _candidates(likes[s.folded], rows_of)
        cands = [found[s.folded] for s in segs]
        beads = _beads(segs, rows, cands, Blocks(segs, rows, vecs, idf, texts), params, spread)
        return _place(rows, siglum, segs, beads, cands, params, spread)

    present = [s for s in order if segments.get(s)]
    rows: list[Draft] = []
    for siglum in present:
        rows = add(rows, siglum)
    # each witness again, against the rows all the others made; the spine last, whose first rows were its own
    # alone (E's 李世民也当场下令 stood beside A's 到了致祭之日: the rows were E's before A came). The rows
    # follow the spine's sentences: where several answer one sentence of another witness, that one spans them.
    for siglum in present[1:]:
        rows = add(_without(rows, siglum), siglum)
    if len(present) > 1:
        rows = add(_without(rows, present[0]), present[0], spread=True)
    if clauses:
        like = Likeness(vecs, idf, names)
        for siglum in present:
            rows = _split(rows, siglum, clauses.get(siglum, []), like, params.moved)
    rows = _single(rows)
    out = []
    for k, row in enumerate(rows, 1):
        span = {}
        for w in row.cells:
            n = _reach(rows, w, k - 1) - (k - 1) + 1
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


def _breaks(drafts: list[tuple[Draft, dict[str, int]]], hits: list[tuple[int, str, Segment]], at: int) -> int:
    """How many of the group's segments would stand out of their witness's order in a row put at ``at``."""
    n = 0
    for _, w, seg in hits:
        before = [x.start for d, _ in drafts[:at] for x in d.cells.get(w, ()) if (w, x.start) not in d.moved]
        after = [x.start for d, _ in drafts[at + 1 :] for x in d.cells.get(w, ()) if (w, x.start) not in d.moved]
        n += any(b > seg.start for b in before) or any(a < seg.start for a in after)
    return n


def regroup(
    episode_id: str, order: list[str], rows: tuple[Row, ...], groups: list[list[tuple[str, int, int]]]
) -> tuple[Row, ...]:
    """The rows with each group of passages (siglum, start, end) -- the editor's ``rows`` directive -- taken
    out of the rows the machine gave them and put together in one row, where the first of them stood.
    A segment whose witness tells it elsewhere than that row's place is marked moved."""
    drafts = []
    for row in rows:
        d = Draft({w: list(segs) for w, segs in row.cells.items()})
        d.moved = set(row.moved)
        drafts.append((d, dict(row.span)))
    for group in groups:
        hits: list[tuple[int, str, Segment]] = []
        for k, (d, _) in enumerate(drafts):
            for w, segs in d.cells.items():
                for seg in segs:
                    if any(w == s and seg.start < e and a < seg.end for s, a, e in group):
                        hits.append((k, w, seg))
        if not hits:
            continue
        at = min({k for k, _, _ in hits}, key=lambda k: (_breaks(drafts, hits, k), k))
        new = Draft()
        for k, w, seg in hits:
            drafts[k][0].cells[w].remove(seg)
            new.cells.setdefault(w, []).append(seg)
        for d, span in drafts:
            for w in [w for w, segs in d.cells.items() if not segs]:
                del d.cells[w]
                span.pop(w, None)
        drafts.insert(at, (new, {}))
        drafts = [(d, span) for d, span in drafts if d.cells]
    # spans may no longer reach over rows that lost their cells or gained one of the spanning witness
    out = []
    for k, (d, span) in enumerate(drafts):
        ok = {}
        for w, n in span.items():
            below = drafts[k + 1 : k + n]
            if len(below) == n - 1 and all(w not in b.cells for b, _ in below):
                ok[w] = n
        out.append((d, ok))
    last: dict[str, int] = {}
    rows_out = []
    for k, (d, span) in enumerate(out, 1):
        for w, segs in d.cells.items():
            for seg in sorted(segs, key=lambda x: x.start):
                if seg.start < last.get(w, -1):
                    d.moved.add((w, seg.start))
                else:
                    last[w] = seg.start
        cells = {w: tuple(sorted(d.cells[w], key=lambda x: x.start)) for w in order if d.cells.get(w)}
        rows_out.append(Row(f"{episode_id}-{k}", cells, span, frozenset(d.moved)))
    return tuple(rows_out)
