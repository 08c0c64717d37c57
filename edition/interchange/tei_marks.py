"""What a witness's text carries, by offset -- names, fact and editor's notes' spans, collation apps, a family's
places of difference -- nested into a tree: a weak mark (a name, a note's span) that crosses a difference is
dropped; collation apps whose lemmas cross are one app."""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any


@dataclass(slots=True)
class Mark:
    start: int
    end: int
    kind: str  # region | app | editor | fact | name
    prio: int
    data: Any
    children: list[Mark] = field(default_factory=list)

    @property
    def point(self) -> bool:
        return self.start == self.end

    def key(self) -> tuple[int, int, int, int]:
        return (self.start, 0 if self.point else 1, -self.end, self.prio)


def contains(outer: Mark, inner: Mark) -> bool:
    if outer.point:
        return False
    if inner.point:
        return outer.start < inner.start < outer.end
    return outer.start <= inner.start and inner.end <= outer.end


STRONG = frozenset({"region", "app"})  # differences: never dropped for a name or a note's span


def crosses(a: Mark, b: Mark) -> bool:
    if a.point or b.point:
        return False
    overlap = a.start < b.end and b.start < a.end
    return overlap and not contains(a, b) and not contains(b, a)


def tree(marks: list[Mark]) -> list[Mark]:
    """Nest the marks (sorted by ``key``); a mark that crosses another is dropped (a name or a note's span
    before a difference)."""
    strong = [m for m in marks if m.kind in STRONG and not m.point]
    if strong:
        starts = [m.start for m in strong]
        reach = list(accumulate((m.end for m in strong), max))  # the furthest end up to each strong mark
        kept = []
        for m in marks:
            if m.kind not in STRONG and not m.point:
                j = bisect_left(starts, m.end) - 1
                crossed = False
                while j >= 0 and reach[j] > m.start and not crossed:
                    crossed = crosses(m, strong[j])
                    j -= 1
                if crossed:
                    continue
            kept.append(m)
        marks = kept
    roots: list[Mark] = []
    stack: list[Mark] = []
    for m in marks:
        m = Mark(m.start, m.end, m.kind, m.prio, m.data)
        while stack and not contains(stack[-1], m):
            top = stack[-1]
            if not m.point and m.start < top.end and top.start < m.end:
                break  # crosses the open mark
            stack.pop()
        else:
            (stack[-1].children if stack else roots).append(m)
            if not m.point:
                stack.append(m)
            continue
    return roots


def within_place(x: int, y: int, a: int, b: int) -> bool:
    """Whether the base's ``x:y`` lies in the place ``a:b``: a point only in the point where it is, as a place that is
    a point holds nothing else."""
    if a == b or x == y:
        return x == y == a if a == b else a < x < b
    return a <= x and y <= b


def clustered(marks: list[Mark]) -> list[Mark]:
    """The marks (sorted by ``key``) with every set of collation apps whose lemmas cross one another made one app over
    their union, its notes in the order of their lemmas (in the base's text one place can hold only one of two
    crossing lemmas); an app inside another stays nested in it. One pass over the apps by start."""
    apps = sorted((m for m in marks if m.kind == "app" and not m.point), key=lambda m: (m.start, -m.end))
    if len(apps) < 2:
        return marks
    done: list[tuple[int, int, list]] = []
    open_: list[tuple[int, int, list]] = []  # apps that contain one another, outermost first
    for m in apps:
        while open_ and open_[-1][1] <= m.start:
            done.append(open_.pop())
        if open_ and m.end > open_[-1][1]:  # crosses the innermost open app: one app, which may cross those around it
            start, _, notes = open_.pop()
            joined = (start, m.end, [*notes, *m.data])
            while open_ and open_[-1][1] < joined[1]:
                outer = open_.pop()
                joined = (outer[0], joined[1], [*outer[2], *joined[2]])
            open_.append(joined)
        else:
            open_.append((m.start, m.end, list(m.data)))
    done += open_
    if len(done) == len(apps):
        return marks

    def lemma(n: dict) -> tuple[int, int]:
        return n["lemma"]["start"], n["lemma"]["end"]

    joined_apps = [Mark(a, b, "app", 0, tuple(sorted(notes, key=lemma))) for a, b, notes in done]
    rest = [m for m in marks if m.kind != "app" or m.point]
    return sorted(rest + joined_apps, key=Mark.key)
