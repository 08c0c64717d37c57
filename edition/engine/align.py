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
programme runs over those candidate pairs only. Its result is the dense
programme's, ties included. The cost grows with the number of candidate pairs
(about segments × their true counterparts), not with segments × rows.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections import Counter, defaultdict

from .model import Row, Segment

SLACK = 1e-9  # below match - SLACK (the floor) a candidate can never win: float slack kept on the safe side


def grams(folded: str) -> Counter[str]:
    """Characters and character pairs: pairs find shared words, characters shared names in other wording."""
    out: Counter[str] = Counter(folded)
    out.update(folded[i : i + 2] for i in range(len(folded) - 1))
    return out


def norm(a: Counter[str], idf: dict[str, float]) -> float:
    return math.sqrt(sum((idf[g] * n) ** 2 for g, n in a.items()))


def cosine(a: Counter[str], b: Counter[str], na: float, nb: float, idf: dict[str, float]) -> float:
    """idf-weighted cosine of two gram counts whose norms are ``na`` and ``nb``."""
    if not a or not b:
        return 0.0
    if len(a) > len(b):
        a, b, na, nb = b, a, nb, na
    dot = sum(idf[g] ** 2 * n * b[g] for g, n in a.items() if g in b)
    if not dot:
        return 0.0
    return dot / (na * nb)


class Vec:
    """A segment's grams for the search: weights, norm, and its prefix in the episode's gram order.

    Grams are ranked rarest first. The prefix is the segment's grams up to
    ``cut`` (a rank), the rest its commonest grams, whose own norm stays below
    the floor of the whole. If two segments reach the floor, the first gram they
    share lies in both prefixes: were it outside either, every shared gram
    would be, and by Cauchy–Schwarz their cosine would be below the floor. So
    indexing and probing prefixes only loses no pair that matters.
    """

    __slots__ = ("counts", "cut", "norm", "prefix", "ranks", "rest", "tails")

    def __init__(self, counts: Counter[str], idf: dict[str, float], rank: dict[str, int], floor: float) -> None:
        self.counts = counts
        self.norm = norm(counts, idf)
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


def _candidates(
    x: Vec,
    vecs: dict[str, Vec],
    rows_of: dict[str, list[int]],
    idf: dict[str, float],
    postings: dict[str, list[tuple[str, float]]],
    floor: float,
) -> list[tuple[int, float]]:
    """The rows a segment (``x``) may join, by row: its best similarity to a member of each, where it reaches the floor.

    Members are compared by folded text (the same text has the same grams, so the same cosine). The shared
    prefix grams give part of each dot product; the grams this misses are all ranked at or after the earlier
    of the two cuts, so they add at most the product of the two texts' norms from that rank on: a text whose
    bound stays below the floor is skipped without computing its cosine.
    """
    part: defaultdict[str, float] = defaultdict(float)
    for g, wa in x.prefix:
        for other, wb in postings.get(g, ()):
            part[other] += wa * wb
    best: dict[int, float] = {}
    bar = floor - SLACK  # float slack, on the safe side
    for other, dot in part.items():
        y = vecs[other]
        first, second = (x, y) if x.cut <= y.cut else (y, x)  # from the earlier cut on: one's rest, one's tail
        if dot + first.rest * second.tail(first.cut) < bar:
            continue
        sim = cosine(x.counts, y.counts, x.norm, y.norm, idf)
        if sim < floor:
            continue
        for j in rows_of[other]:
            if sim > best.get(j, -1.0):
                best[j] = sim
    return sorted(best.items())


def _place(
    rows: list[dict[str, list[Segment]]], siglum: str, segs: list[Segment], placed: list[int | None]
) -> list[dict[str, list[Segment]]]:
    """The rows with ``siglum``'s segments added where ``placed`` says, and rows of their own for the rest."""
    new_rows: list[dict[str, list[Segment]]] = [dict(r) for r in rows]
    inserted_after: dict[int, list[dict[str, list[Segment]]]] = {}
    last = -1
    pending: list[Segment] = []
    for seg, target in zip(segs, placed, strict=True):
        if target is None:
            pending.append(seg)
            continue
        if target == last:  # unmatched segments between two of the same row belong to it
            new_rows[target][siglum].extend(pending)
        else:
            inserted_after.setdefault(last, []).extend({siglum: [p]} for p in pending)
        pending = []
        new_rows[target].setdefault(siglum, []).append(seg)
        last = target
    inserted_after.setdefault(last, []).extend({siglum: [p]} for p in pending)
    out = list(inserted_after.get(-1, []))
    for j, row in enumerate(new_rows):
        out.append(row)
        out.extend(inserted_after.get(j, []))
    return out


def sentences(units: list[Segment], text: str) -> list[Segment]:
    """Consecutive clauses of one sentence joined: rows pair sentences, not the clauses they were cut into."""
    out: list[Segment] = []
    for u in units:
        last = out[-1] if out else None
        if last is not None and last.sentence == u.sentence and last.hi == u.lo:
            out[-1] = Segment(
                u.siglum,
                last.index,
                last.start,
                u.end,
                text[last.start : u.end],
                last.folded + u.folded,
                last.paragraph,
                last.lo,
                u.hi,
                last.sentence,
                last.strength,
                last.quoted,
            )
        else:
            out.append(u)
    return out


def align(episode_id: str, order: list[str], segments: dict[str, list[Segment]], match: float) -> tuple[Row, ...]:
    """Rows for one episode; ``order`` lists the sigla, base first."""
    floor = match - SLACK
    df: Counter[str] = Counter()
    counts: dict[str, Counter[str]] = {}  # by folded text
    n_docs = 0
    for siglum in order:
        for seg in segments.get(siglum, []):
            if seg.folded not in counts:
                counts[seg.folded] = grams(seg.folded)
            df.update(counts[seg.folded].keys())
            n_docs += 1
    idf = {g: math.log((max(1, n_docs) + 1) / (c + 1)) + 1.0 for g, c in df.items()}
    rank = {g: k for k, g in enumerate(sorted(df, key=lambda g: (df[g], g)))}
    vecs = {text: Vec(c, idf, rank, floor) for text, c in counts.items()}
    postings: defaultdict[str, list[tuple[str, float]]] = defaultdict(list)  # prefix gram -> (text in rows, weight)
    postings_done: set[str] = set()

    rows: list[dict[str, list[Segment]]] = []
    for siglum in order:
        segs = segments.get(siglum, [])
        if not segs:
            continue
        if rows:
            rows_of: defaultdict[str, list[int]] = defaultdict(list)
            for j, row in enumerate(rows):
                for text in dict.fromkeys(m.folded for ms in row.values() for m in ms):
                    rows_of[text].append(j)
            found: dict[str, list[tuple[int, float]]] = {}  # a text repeated in the witness is looked up once
            for s in segs:
                if s.folded not in found:
                    found[s.folded] = _candidates(vecs[s.folded], vecs, rows_of, idf, postings, floor)
            rows = _place(rows, siglum, segs, _monotone_match([found[s.folded] for s in segs], len(rows), match))
        else:
            rows = [{siglum: [s]} for s in segs]
        for text in dict.fromkeys(s.folded for s in segs):
            if text not in postings_done:
                postings_done.add(text)
                for g, w in vecs[text].prefix:
                    postings[g].append((text, w))
    return tuple(
        Row(f"{episode_id}-{k}", {s: tuple(row.get(s, ())) for s in order if row.get(s)})
        for k, row in enumerate(rows, 1)
    )
