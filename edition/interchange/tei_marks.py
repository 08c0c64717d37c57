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
    their union (in the base's text one place can hold only one of two crossing lemmas)."""
    while True:
        apps = [m for m in marks if m.kind == "app" and not m.point]
        pair = next(((x, y) for i, x in enumerate(apps) for y in apps[i + 1 :] if crosses(x, y)), None)
        if pair is None:
            return marks
        x, y = pair
        joined = Mark(min(x.start, y.start), max(x.end, y.end), "app", 0, (*x.data, *y.data))
        marks = sorted([m for m in marks if m is not x and m is not y] + [joined], key=Mark.key)
