"""One fact, one note: a count and the thing it counts, told together, are noted together.

The notes on things (``entity_notes``) and on numbers (``value_notes``) are made apart, so the gift at the
wall came out twice -- 縑：…C 作绸缎 and 數目（匹）：…作一百匹；…作百匹 -- and E's 绢百匹 was split between the
count and a note of its own on 绢. Where two families at least write a thing of the register next to a count
(縑一百匹, 良缣百匹, 一百匹縑), the count's note takes, in each witness, the things written next to it: one
note, each witness quoted as it writes the whole (縑一百匹, 绸缎一百匹, 绢百匹). What a thing note keeps of its
own (a mention elsewhere) stays a note only while two families still read it.
"""

from __future__ import annotations

from dataclasses import replace

from .model import Tokens
from .quoting import Found, Quoting
from .said import Said

NEXT = 1  # letters that may stand between a count and its thing (良缣百匹: none; 缣各百匹: one)


def counted(found: list[Found], said: dict[str, list[Said]], tokens: dict[str, Tokens], q: Quoting) -> list[Found]:
    """The notes with each count merged with the things written next to it (see the module's doc); ``said``:
    what each witness says in the episode, where a witness the count's rows left out (Q's 赐缣百匹, told in
    rows of their own) finds the count next to its thing."""
    things = [k for k, (kind, _, _) in enumerate(found) if kind == "thing"]
    out = list(found)
    for n, (kind, label, readings) in enumerate(found):
        if kind != "number" or not all(r.spans for r in readings):
            continue  # a count one text alone gives (不記) is not a count of something the others name
        spans = {s: span for r in readings for s, span in r.spans.items()}
        grown, taken = _grown(spans, [out[k] for k in things])
        if len(q.families(s for s in grown if grown[s] != spans[s])) < 2:
            continue
        for i in sorted({i for i, _ in taken}):
            _counted_elsewhere(out[things[i]], i, said, grown, taken)
        _own_things(grown, spans, said)
        name = out[things[min(i for i, _ in taken)]][1].split("，")[0]  # the thing's name, without its 所記同
        slot = {s: _said(tokens[s], s, a, b) for s, (a, b) in grown.items()}
        out[n] = ("thing", f"{name}，{label}", q.worded(slot))
        for i, k in enumerate(things):
            out[k] = _still(_left(out[k], {s for j, s in taken if j == i}), q)
    merged = [f for f, g in zip(out, found, strict=True) if f is not None and g[0] == "number" and f[0] == "thing"]
    return [f for f in out if f is not None and not (f[0] == "number" and any(_within(f, m) for m in merged))]


def _within(note: Found, other: Found) -> bool:
    """Whether every words a count note quotes lie within the words another note quotes of the same witness: the
    count a note on the thing and its count took in from rows of its own (the gift's 縑百匹 in one group of rows,
    the others' 一百匹 in another, which ``value_notes`` could not join, having no text in both) says nothing
    more -- one fact, one note."""
    theirs = {s: span for r in other[2] for s, span in r.spans.items()}
    return all(
        s in theirs and theirs[s][0] <= a and b <= theirs[s][1] for r in note[2] for s, (a, b) in r.spans.items()
    )


def _grown(
    spans: dict[str, tuple[int, int]], notes: list[Found | None]
) -> tuple[dict[str, tuple[int, int]], set[tuple[int, str]]]:
    """Each witness's count widened over the things of ``notes`` written next to it (again and again: 绢缣一百匹),
    and which (note, witness) readings were so taken."""
    grown = dict(spans)
    taken: set[tuple[int, str]] = set()
    for s in grown:
        changed = True
        while changed:
            changed = False
            a, b = grown[s]
            for i, note in enumerate(notes):
                if note is None or (i, s) in taken:
                    continue
                for r in note[2]:
                    c, d = r.spans.get(s, (-1, -1))
                    if c >= 0 and _next((a, b), (c, d)):
                        grown[s] = (min(a, c), max(b, d))
                        taken.add((i, s))
                        changed = True
                        break
    return grown, taken


def _counted_elsewhere(
    note: Found, i: int, said: dict[str, list[Said]], grown: dict[str, tuple[int, int]], taken: set[tuple[int, str]]
) -> None:
    """The witnesses of thing note ``i`` the count's rows left out, whose thing a count stands next to."""
    for r in note[2]:
        for s, (c, d) in r.spans.items():
            near = [x for x in said.get(s, ()) if x.kind == "number" and _next((c, d), (x.start, x.end))]
            if s not in grown and near:
                grown[s] = (min(c, near[0].start), max(d, near[0].end))
                taken.add((i, s))


def _own_things(
    grown: dict[str, tuple[int, int]], spans: dict[str, tuple[int, int]], said: dict[str, list[Said]]
) -> None:
    """A count of a thing the register knows, in a witness whose thing no note of the episode holds (CC's 绢一百匹,
    the others' 縑 noted; 绢 a thing of the register two families do not name): quoted with its thing, as it is
    written -- 作一百匹 hid what it gives."""
    for s, span in spans.items():
        if grown.get(s) != span:
            continue
        near = [x for x in said.get(s, ()) if x.kind == "thing" and _next(span, (x.start, x.end))]
        if near:
            grown[s] = (min(span[0], near[0].start), max(span[1], near[0].end))


def _next(one: tuple[int, int], other: tuple[int, int]) -> bool:
    """Whether two stretches of a text stand next to each other (at most ``NEXT`` letters between)."""
    return 0 <= one[0] - other[1] <= NEXT or 0 <= other[0] - one[1] <= NEXT


def _left(note: Found | None, gone: set[str]) -> Found | None:
    """A thing note without the readings the counts took."""
    if note is None:
        return None
    kind, label, readings = note
    rest = []
    for r in readings:
        spans = {s: span for s, span in r.spans.items() if s not in gone}
        if spans:
            rest.append(replace(r, sigla=tuple(s for s in r.sigla if s in spans), spans=spans))
    return (kind, label, tuple(rest)) if rest else None


def _still(note: Found | None, q: Quoting) -> Found | None:
    """What is left of a thing note, while it still says something: two families agreeing (所記同), or two
    wordings apart (Q's and X's 缣 left beside Z's, once the others went with their counts, differ in nothing)."""
    if note is None or len(q.families(s for r in note[2] for s in r.spans)) < 2:
        return None
    agreed = note[1].endswith("所記同")
    return note if agreed or len({q.fold(r.text) for r in note[2]}) >= 2 else None


def _said(tokens: Tokens, siglum: str, start: int, end: int) -> Said:
    """A witness's words from ``start`` to ``end``, as a fact note quotes them."""
    text = tokens.text[start:end]
    return Said(siglum=siglum, start=start, end=end, text=text, kind="thing", key="", value=text)
