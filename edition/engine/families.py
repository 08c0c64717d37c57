"""Families: witnesses that are copies of one text, and the base each family is collated against.

Copies are found by their character pairs (most of the shorter one's pairs are in the
other), unless the catalogue names families itself (``family:``, with ``base: true`` on
the base). A family's base is fixed for the whole edition -- the catalogue's, else the
member with the most text -- so it never switches from episode to episode.
"""

from __future__ import annotations

from operator import add

from .model import Family, Tokens, Witness


def _pairs(n: str) -> set[str]:
    return set(map(add, n, n[1:]))  # each pair made in C: letter + next letter


def families(witnesses: tuple[Witness, ...], tokens: dict[str, Tokens], copy: float) -> tuple[Family, ...]:
    """The families in witness order; a witness that copies no other is a family of its own."""
    declared: dict[str, list[str]] = {}
    for w in witnesses:
        if w.meta.family:
            declared.setdefault(w.meta.family, []).append(w.siglum)
    group = {w.siglum: w.siglum for w in witnesses}
    free = [w.siglum for w in witnesses if not w.meta.family]
    grams = {s: _pairs(tokens[s].n) for s in free}
    for i, a in enumerate(free):
        for b in free[:i]:
            small = min(len(grams[a]), len(grams[b]))
            if small and len(grams[a] & grams[b]) >= copy * small:
                group[a] = group[b]
                break
    members: dict[str, list[str]] = {}
    for w in witnesses:
        key = "=" + w.meta.family if w.meta.family else group[w.siglum]
        members.setdefault(key, []).append(w.siglum)
    letters = {s: len(t.n) for s, t in tokens.items()}
    out = []
    for key, sigla in members.items():
        named = [w.siglum for w in witnesses if w.siglum in sigla and w.meta.base]
        base = named[0] if named else max(sigla, key=lambda s: (letters[s], -sigla.index(s)))
        out.append(Family(id=base, base=base, members=tuple(sigla), declared=key.startswith("=")))
    return tuple(out)
