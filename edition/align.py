"""Align one episode's segments into rows, witness by witness.

The base witness's segments seed the rows; every other witness is then
aligned to the rows built so far by a monotone dynamic programme (several of
its segments may join one row; a segment with no counterpart gets a row of its
own, placed after its predecessor's). Each witness therefore keeps its own
order, and the cost is linear in the number of rows for each segment.
"""

from __future__ import annotations

import math
from collections import Counter

from .model import Row, Segment

MATCH = 0.22  # similarity a segment needs to join a row rather than open one


def grams(folded: str) -> Counter[str]:
    """Characters and character pairs: pairs find shared words, characters shared names in other wording."""
    out: Counter[str] = Counter(folded)
    out.update(folded[i : i + 2] for i in range(len(folded) - 1))
    return out


def cosine(a: Counter[str], b: Counter[str], idf: dict[str, float]) -> float:
    if not a or not b:
        return 0.0
    if len(a) > len(b):
        a, b = b, a
    dot = sum(idf[g] ** 2 * n * b[g] for g, n in a.items() if g in b)
    if not dot:
        return 0.0
    na = math.sqrt(sum((idf[g] * n) ** 2 for g, n in a.items()))
    nb = math.sqrt(sum((idf[g] * n) ** 2 for g, n in b.items()))
    return dot / (na * nb)


def _monotone_match(sim: list[list[float]]) -> list[int | None]:
    """For each segment, the row it joins (rows never decrease), or None; best total of sim - MATCH."""
    m = len(sim)
    n = len(sim[0]) if m else 0
    # best[i][j]: best score of the first i segments using rows < j+1 only
    best = [[0.0] * (n + 1) for _ in range(m + 1)]
    move = [[0] * (n + 1) for _ in range(m + 1)]  # 0: row unused, 1: segment unmatched, 2: matched
    for i in range(1, m + 1):
        row_sim = sim[i - 1]
        prev, cur, mv = best[i - 1], best[i], move[i]
        cur[0] = prev[0]
        mv[0] = 1
        for j in range(1, n + 1):
            options = (cur[j - 1], prev[j], prev[j] + row_sim[j - 1] - MATCH)
            k = max(range(3), key=lambda t: (options[t], -t))
            cur[j] = options[k]
            mv[j] = k
    out: list[int | None] = [None] * m
    i, j = m, n
    while i > 0:
        k = move[i][j] if j > 0 else 1
        if k == 0:
            j -= 1
        elif k == 1:
            i -= 1
        else:
            out[i - 1] = j - 1
            i -= 1
    return out


def align(episode_id: str, order: list[str], segments: dict[str, list[Segment]]) -> tuple[Row, ...]:
    """Rows for one episode; ``order`` lists the sigla, base first."""
    df: Counter[str] = Counter()
    counts: dict[tuple[str, int], Counter[str]] = {}
    for siglum in order:
        for seg in segments.get(siglum, []):
            counts[(siglum, seg.index)] = c = grams(seg.folded)
            df.update(c.keys())
    n_docs = max(1, len(counts))
    idf = {g: math.log((n_docs + 1) / (c + 1)) + 1.0 for g, c in df.items()}

    rows: list[dict[str, list[Segment]]] = []
    for siglum in order:
        segs = segments.get(siglum, [])
        if not segs:
            continue
        if not rows:
            rows = [{siglum: [s]} for s in segs]
            continue
        sim = [
            [
                max(cosine(counts[(siglum, s.index)], counts[(o, m.index)], idf) for o, ms in row.items() for m in ms)
                for row in rows
            ]
            for s in segs
        ]
        placed = _monotone_match(sim)
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
        rows = list(inserted_after.get(-1, []))
        for j, row in enumerate(new_rows):
            rows.append(row)
            rows.extend(inserted_after.get(j, []))
    return tuple(
        Row(f"{episode_id}-{k}", {s: tuple(row.get(s, ())) for s in order if row.get(s)})
        for k, row in enumerate(rows, 1)
    )
