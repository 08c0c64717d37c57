"""Assign every segment to one episode or to none.

Each episode's definition (description, cues, example passages) becomes a
profile: the set of character pairs of its folded text. A segment's affinity
to an episode is the share of its own character pairs, weighted by their
rarity in the whole corpus (idf), that the profile contains: names and words
every witness repeats (安市, 城主) count for little, distinctive ones (太牢,
渤錯水) for much. A Viterbi pass then chooses, per witness, the labelling that
best trades affinity against the cost of switching label, so an episode comes
as a run of segments (possibly several runs), and a stray shared word in a
passage about other events does not pull it in. Last, a segment at the edge
of a run with no evidence of its own goes back to no episode.
"""

from __future__ import annotations

import math
from collections import Counter
from functools import lru_cache

from .model import EpisodeDef, Segment
from .normalise import Normaliser
from .params import Params


@lru_cache(maxsize=1 << 17)
def pairs(folded: str) -> frozenset[str]:
    """The character pairs of a folded text (computed once per text: every pass reads them)."""
    return frozenset(folded[i : i + 2] for i in range(len(folded) - 1))


def profile(d: EpisodeDef, norm: Normaliser) -> set[str]:
    grams: set[str] = set()
    for text in (d.description, *d.cues, *d.examples):
        grams |= pairs(norm.fold_text(text))
    return grams


def evidence(
    segments: tuple[Segment, ...], profiles: list[set[str]], idf: dict[str, float]
) -> list[tuple[float, list[float]]]:
    """For each segment: the idf weight of all its pairs, and of those each profile holds.

    A pair found in several profiles tells episodes apart less, so it counts for less.
    """
    share = Counter(g for p in profiles for g in p)
    where: dict[str, list[int]] = {}
    for k, p in enumerate(profiles):
        for g in p:
            where.setdefault(g, []).append(k)
    raw = []
    for seg in segments:
        total = 0.0
        hits = [0.0] * len(profiles)
        for g in pairs(seg.folded):
            weight = idf[g]
            total += weight
            for k in where.get(g, ()):
                hits[k] += weight / share[g]
        raw.append((total, hits))
    return raw


def affinities(raw: list[tuple[float, list[float]]], context: float) -> list[list[float]]:
    """Each segment's affinity (0..1) to each profile, read with its neighbours (weight ``context``),
    which lend short segments ("班師。", "英雄惜英雄。") the evidence they lack on their own."""
    out = []
    for i in range(len(raw)):
        total = 0.0
        hits = [0.0] * len(raw[i][1])
        for j in range(max(0, i - 1), min(len(raw), i + 2)):
            w = 1.0 if i == j else context
            total += w * raw[j][0]
            hits = [h + w * x for h, x in zip(hits, raw[j][1], strict=True)]
        out.append([h / total if total else 0.0 for h in hits])
    return out


def trim(labels: list[int], raw: list[tuple[float, list[float]]]) -> list[int]:
    """Give back to no episode the segments at a run's edge that only their neighbours put there.

    Borrowed context must not carry an episode past its last own word: a
    segment next to text in no episode, with no pair of its own in the
    episode's profile, is in no episode either (repeated inward).
    """
    out = list(labels)
    changed = True
    while changed:
        changed = False
        for i, k in enumerate(out):
            if not k or raw[i][1][k - 1] > 0:
                continue
            before = out[i - 1] if i > 0 else 0
            after = out[i + 1] if i + 1 < len(out) else 0
            if before == 0 or after == 0:
                out[i] = 0
                changed = True
    return out


def label(
    segs: tuple[Segment, ...], profiles: list[set[str]], idf: dict[str, float], lengths: list[int], params: Params
) -> list[int]:
    """One witness's labels (0 none, k episode k-1) against the current profiles."""
    raw = evidence(segs, profiles, idf)
    return trim(viterbi(affinities(raw, params.context), lengths, params), raw)


def viterbi(scores: list[list[float]], lengths: list[int], params: Params) -> list[int]:
    """Best label per segment: 0 is none, k is episode k-1."""
    k = len(scores[0]) + 1 if scores else 1
    prev = [0.0] + [-params.enter_cost] * (k - 1)
    back: list[list[int]] = []
    for aff, n in zip(scores, lengths, strict=True):
        emit = [0.0] + [n * (a - params.threshold) for a in aff]
        cur, ptr = [], []
        for j in range(k):
            best_i, best = 0, -math.inf
            for i in range(k):
                cost = 0.0 if i == j else (params.switch_cost if i and j else params.enter_cost)
                v = prev[i] - cost
                if v > best:
                    best_i, best = i, v
            cur.append(best + emit[j])
            ptr.append(best_i)
        prev = cur
        back.append(ptr)
    if not back:
        return []
    state = max(range(k), key=lambda j: (prev[j], -j))
    labels = []
    for ptr in reversed(back):
        labels.append(state)
        state = ptr[state]
    return labels[::-1]


def families(segments: dict[str, tuple[Segment, ...]], copy: float) -> dict[str, str]:
    """Group witnesses that are copies of one text (most of the shorter one's pairs are in the other)."""
    grams = {s: set().union(*(pairs(x.folded) for x in segs)) for s, segs in segments.items()}
    family = {s: s for s in segments}
    sigla = list(segments)
    for i, a in enumerate(sigla):
        for b in sigla[:i]:
            small = min(len(grams[a]), len(grams[b]))
            if small and len(grams[a] & grams[b]) >= copy * small:
                family[a] = family[b]
                break
    return family


def expand(
    profiles: list[set[str]],
    segments: dict[str, tuple[Segment, ...]],
    labels: dict[str, list[int]],
    family: dict[str, str],
    df: Counter[str],
    n_docs: int,
    lift: float,
) -> list[set[str]]:
    """Add to each profile the pairs that the witnesses' own tellings of it share.

    A pair joins episode k's profile when segments labelled k in at least two
    families of witnesses use it (copies of one text are one family: they are
    no independent evidence) and it is at least ``lift`` times more frequent inside
    the episode than outside it: vocabulary the retellings have in common
    (杨万春's 城楼, 父皇, 战袍) but the definition did not foresee. ``df`` counts
    the segments using each pair in the whole corpus, of ``n_docs`` segments.
    """
    inside: list[dict[str, set[str]]] = [{} for _ in profiles]
    count_in: list[Counter[str]] = [Counter() for _ in profiles]
    size_in = [0] * len(profiles)
    for siglum, segs in segments.items():
        for seg, k in zip(segs, labels[siglum], strict=True):
            grams = pairs(seg.folded)
            if k:
                size_in[k - 1] += 1
                count_in[k - 1].update(grams)
                for g in grams:
                    inside[k - 1].setdefault(g, set()).add(family[siglum])
    out = []
    for k, p in enumerate(profiles):
        extra = set()
        for g, wits in inside[k].items():
            if len(wits) < 2:
                continue
            rate_in = count_in[k][g] / size_in[k]
            rate_out = (df[g] - count_in[k][g] + 1) / (n_docs - size_in[k] + 1)
            if rate_in >= lift * rate_out:
                extra.add(g)
        out.append(p | extra)
    return out


def assign(
    segments: dict[str, tuple[Segment, ...]], defs: tuple[EpisodeDef, ...], norm: Normaliser, params: Params
) -> dict[str, tuple[str | None, ...]]:
    """The episode id (or None) of every segment, per witness: a first pass, then one refined."""
    df: Counter[str] = Counter()
    n_docs = 0
    for segs in segments.values():
        for seg in segs:
            df.update(pairs(seg.folded))
            n_docs += 1
    idf = {g: math.log((n_docs + 1) / (c + 1)) + 1.0 for g, c in df.items()}
    profiles = [profile(d, norm) for d in defs]
    lengths = {s: [len(x.folded) for x in segs] for s, segs in segments.items()}
    labels = {s: label(segs, profiles, idf, lengths[s], params) for s, segs in segments.items()}
    family = families(segments, params.copy)
    for _ in range(params.rounds):
        profiles = expand(profiles, segments, labels, family, df, n_docs, params.lift)
        labels = {s: label(segs, profiles, idf, lengths[s], params) for s, segs in segments.items()}
    return {s: tuple(defs[j - 1].id if j else None for j in labels[s]) for s in segments}
