"""The editor's ``rows`` directive applied to an episode's rows: passages that belong in one row are put there
(cutting or joining rows as needed), one passage alone gets a row of its own.
"""

from __future__ import annotations

from ..model import Row, Segment
from .drafts import Draft


def in_group(group: list[tuple[str, int, int]], siglum: str, seg: Segment) -> bool:
    """Whether the segment overlaps a passage (siglum, start, end) of an editor's ``rows`` group."""
    return any(siglum == s and seg.start < e and a < seg.end for s, a, e in group)


def break_at(drafts: list[tuple[Draft, dict[str, int]]], hits: list[tuple[int, str, Segment]], at: int) -> int:
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
                    if in_group(group, w, seg):
                        hits.append((k, w, seg))
        if not hits:
            continue
        at = min({k for k, _, _ in hits}, key=lambda k: (break_at(drafts, hits, k), k))
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
    return finished(episode_id, order, drafts)


def beside_base(
    episode_id: str, order: list[str], rows: tuple[Row, ...], families: list[tuple[str, tuple[str, ...]]]
) -> tuple[Row, ...]:
    """A copy's words in the row of its base's identical words: where a copy's segment reads letter for letter
    as one segment of its family's base in this episode, and only one, it stands in that segment's row (the
    alignment may put it a row apart, beside other witnesses; the editor's rows may move the base alone)."""
    drafts = []
    for row in rows:
        d = Draft({w: list(segs) for w, segs in row.cells.items()})
        d.moved = set(row.moved)
        drafts.append((d, dict(row.span)))
    changed = False
    for base, members in families:
        where: dict[str, list[int]] = {}  # the base's texts -> the rows holding them
        for k, (d, _) in enumerate(drafts):
            for seg in d.cells.get(base, ()):
                where.setdefault(seg.folded, []).append(k)
        for copy in members:
            if copy == base:
                continue
            for k, (d, _) in enumerate(drafts):
                for seg in list(d.cells.get(copy, ())):
                    home = where.get(seg.folded, [])
                    if seg.folded and len(home) == 1 and home[0] != k:
                        d.cells[copy].remove(seg)
                        drafts[home[0]][0].cells.setdefault(copy, []).append(seg)
                        changed = True
    if not changed:
        return rows
    for d, span in drafts:
        for w in [w for w, segs in d.cells.items() if not segs]:
            del d.cells[w]
            span.pop(w, None)
    return finished(episode_id, order, [(d, span) for d, span in drafts if d.cells])


def finished(episode_id: str, order: list[str], drafts: list[tuple[Draft, dict[str, int]]]) -> tuple[Row, ...]:
    """Rows again from drafts whose cells moved: spans cut to what they still reach, segments told out of their
    witness's order marked moved, ids numbered anew."""
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
