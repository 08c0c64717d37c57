"""Copies of one text are assigned as one text: they tell their episodes in the same words, so they stand in the
same episodes wherever they share the words.

Each witness is assigned on its own evidence, and that evidence moves with the rest of the corpus (the profiles
grow from every witness's tellings, the price of a letter follows the witness's own densest stretch). Two copies
of one text could therefore part: a copy that breaks off early weighs its evidence against a shorter text, and a
witness added to the edition could tip it while its base held, so the same words stood in an episode in the base
and in none in the copy. Here each letter of the base takes the episode most of the family's members give it
(the base's on a tie), and each member's segment the episode most of its letters take, where most of them are
found in the base: letters inside a stretch found once in each text, in the same order (collation's anchors),
and letters between two such stretches where both texts hold as many (a variant, not an addition). Words a copy
alone has keep its own label, unless the family's words on both sides stand in one episode; words the base
alone has (a commentary the copies leave out) take the label of the family's words around them.
"""

from __future__ import annotations

from array import array
from collections import Counter

from .collate import Chain
from .model import Family, Segment, Tokens

Labels = dict[str, tuple[str | None, ...]]


def shared_letters(chain: Chain, size: int, k: int) -> array:
    """For each of a copy's ``size`` letters, the index of the same letter in the base, or -1 where the copy has
    words of its own (or words moved elsewhere): its anchored stretches of ``k`` letters (``chain``, see
    ``collate.anchor_chain``), and the gaps between two of them that are as long in both texts."""
    into = array("i", [-1]) * size
    prev: tuple[int, int] | None = None
    for i, j in chain:
        if prev is not None:
            pi, pj = prev
            if i - pi == j - pj:  # the gap before this anchor is as long in both: letter for letter
                for d in range(pj + k, j):
                    into[d] = pi + (d - pj)
        for d in range(k):
            into[j + d] = i + d
        prev = (i, j)
    return into


def letter_labels(segs: tuple[Segment, ...], labels: tuple[str | None, ...], size: int) -> list[str | None]:
    """The label of each letter of a witness (the label of the segment it stands in)."""
    out: list[str | None] = [None] * size
    for seg, label in zip(segs, labels, strict=True):
        out[seg.lo : seg.hi] = [label] * (seg.hi - seg.lo)
    return out


def _base_range(found: array, seg: Segment) -> tuple[int, int] | None:
    """The base letters a segment's letters are found at, when they are found letter for letter in a row (as
    they mostly are: the map only rises, so the ends tell); else None."""
    if seg.hi <= seg.lo:
        return None
    a, b = found[seg.lo], found[seg.hi - 1]
    if a >= 0 and b - a == seg.hi - 1 - seg.lo:
        return a, b + 1
    return None


def family_labels(
    own_base: list[str | None], members: dict[str, tuple[array, tuple[Segment, ...], tuple[str | None, ...]]]
) -> list[str | None]:
    """Each base letter's label as most of the family gives it (on a tie the base's). Only letters where some
    member's label differs from the base's are counted one by one: where copies agree, the base's label stands."""
    disputed: dict[int, Counter[str | None]] = {}
    agreeing: list[tuple[array, Segment, str | None]] = []  # letter by letter, if they touch a disputed letter
    for found, segs, labels in members.values():
        for seg, mine in zip(segs, labels, strict=True):
            run = _base_range(found, seg)
            if run is not None and own_base[run[0] : run[1]].count(mine) == run[1] - run[0]:
                agreeing.append((found, seg, mine))
                continue
            for d in range(seg.lo, seg.hi):
                i = found[d]
                if i >= 0:
                    disputed.setdefault(i, Counter({own_base[i]: 1}))[mine] += 1
    if not disputed:
        return within(own_base, members)
    for found, seg, mine in agreeing:
        for d in range(seg.lo, seg.hi):
            if found[d] in disputed:
                disputed[found[d]][mine] += 1
    out = list(own_base)
    for i, votes in disputed.items():
        out[i] = max(votes, key=lambda x, v=votes, b=own_base[i]: (v[x], x == b))
    return within(out, members)


def within(labels: list[str | None], members: dict[str, tuple[array, tuple[Segment, ...], tuple]]) -> list[str | None]:
    """The base's words no copy has (a commentary the copies leave out), between letters the family labels
    alike, take that label: 胡注's 實録上云徙三州户口入内地者 glosses the tally of the people moved, whatever its
    words of moving the people (戶口, 內地) say on their own -- and its omission in the copies then stands where
    theirs does."""
    alone = [True] * len(labels)
    for found, _, _ in members.values():
        for i in found:
            if i >= 0:
                alone[i] = False
    return _filled(labels, alone, none_too=True)


def _filled(labels: list[str | None], gap: list[bool], none_too: bool) -> list[str | None]:
    """The labels with each run of ``gap`` positions given the label the positions on both sides of it share (if
    it is no episode, only ``none_too``); a run at either end keeps its own."""
    out = list(labels)
    last = -1  # the last position outside a gap
    for i, open_ in enumerate(gap):
        if open_:
            continue
        if last >= 0 and i - last > 1 and out[last] == out[i] and (none_too or out[i] is not None):
            out[last + 1 : i] = [out[i]] * (i - last - 1)
        last = i
    return out


def follow_base(
    labels: Labels,
    segments: dict[str, tuple[Segment, ...]],
    tokens: dict[str, Tokens],
    fams: tuple[Family, ...],
    anchored: dict[str, Chain],
    k: int,
) -> Labels:
    """The labels with every member of a family labelled as the family reads its letters: each letter of the
    base takes the label most members give it (their own, or their letter found there; on a tie the base's),
    and each segment the label most of its letters take, where most of them are found in the base (see the
    module's doc); ``anchored``: each copy's anchors on its base, of ``k`` letters each."""
    out = dict(labels)
    for fam in fams:
        if len(fam.members) < 2:
            continue
        base = tokens[fam.base]
        own_base = letter_labels(segments[fam.base], labels[fam.base], len(base.n))
        members = {
            s: (shared_letters(anchored[s], len(tokens[s].n), k), segments[s], labels[s])
            for s in fam.members
            if s != fam.base
        }
        family = family_labels(own_base, members)
        identity = array("i", range(len(base.n)))
        for s in fam.members:
            found = members[s][0] if s in members else identity
            relabelled = list(labels[s])
            own = [False] * len(relabelled)  # segments mostly of the copy's own words
            for n, seg in enumerate(segments[s]):
                run = _base_range(found, seg)
                if run is not None:
                    here = family[run[0] : run[1]]
                else:
                    here = [family[found[d]] for d in range(seg.lo, seg.hi) if found[d] >= 0]
                    if 2 * len(here) <= seg.hi - seg.lo:
                        own[n] = True
                        continue
                if here.count(here[0]) == len(here):
                    relabelled[n] = here[0]
                else:
                    tally = Counter(here)
                    relabelled[n] = max(tally, key=lambda x, t=tally: (t[x], x is None, x or ""))
            # a copy's own words keep their own label, unless the family's words on both sides stand in one
            # episode: then they are told inside it (and a note on them stands in its cells beside the base's)
            out[s] = tuple(_filled(relabelled, own, none_too=False))
    return out
