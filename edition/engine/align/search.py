"""Which texts a segment can be like: character and pair grams weighed by rarity (``Vec``), an inverted index of
the rarer grams, and the few candidates per segment that can reach ``match`` -- so the cost follows the candidate
pairs, not segments x rows. While no segment has more than ``candidates`` of them the result is the dense one.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections import Counter, defaultdict
from operator import add

from ..normalise import MATCHED
from ..register import Scanner
from .drafts import SLACK


class Names:
    """The register's names and titles (compared forms), found in a text as the entities they denote, so
    杨万春 and 梁修元 and 城主, or 李治 and 太子, count as the same word in a comparison."""

    def __init__(self, entities: dict[str, tuple[str, ...]]) -> None:
        self.entities = entities
        self.scan = Scanner(entities)

    def find(self, folded: str) -> list[str]:
        return ["@" + e for a, b in self.scan(folded) for e in self.entities[folded[a:b]]]


def grams(folded: str, names: Names | None = None) -> Counter[str]:
    """Characters and character pairs of a text's matched form (``normalise.MATCHED``): pairs find shared words,
    characters shared names in other wording; and the register's entities named, however a witness names them."""
    folded = folded.translate(MATCHED)
    out: Counter[str] = Counter(folded)
    out.update(map(add, folded, folded[1:]))  # each pair made in C: letter + next letter
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


def like_texts(
    x: Vec, vecs: dict[str, Vec], postings: dict[str, list[tuple[str, float]]], floor: float, common: int
) -> list[tuple[str, float]]:
    """The episode's texts whose likeness to a text (``x``) reaches the floor, with that likeness.

    The shared prefix grams give part of each dot product; the grams this misses are all ranked at or after
    the earlier of the two cuts, so they add at most the product of the two texts' norms from that rank on: a
    text whose bound stays below the floor is skipped without computing its cosine. A gram more than ``common``
    texts carry finds none (a stop word, as in a search engine: in the seeds and the development set no
    searched gram is carried by more than 26; in an episode of thousands of texts such grams would make the
    search cost the square of its size). The answer depends on the
    texts alone, not on the rows, so an alignment asks it once per text, however many passes and copies
    bring the text back.
    """
    part: defaultdict[str, float] = defaultdict(float)
    for g, wa in x.prefix:
        posted = postings.get(g, ())
        if len(posted) > common:
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


def candidate_rows(likes: list[tuple[str, float]], rows_of: dict[str, list[int]], most: int) -> list[tuple[int, float]]:
    """The rows a segment may join, by row: its best likeness to a member of each (``likes``, see ``like_texts``).

    Members are compared by folded text (the same text has the same grams, so the same cosine). At ``most`` rows:
    a sentence has a few counterparts (at most 25 in the seeds, 12 in the development set); only an episode told
    over and over offers more, and weighing them all costs the square."""
    best: dict[int, float] = {}
    for other, sim in likes:
        for j in rows_of.get(other, ()):
            if sim > best.get(j, -1.0):
                best[j] = sim
    if len(best) > most:  # a text that repeats itself: the likeliest rows, not every near-copy
        return sorted(sorted(best.items(), key=lambda js: (-js[1], js[0]))[:most])
    return sorted(best.items())
