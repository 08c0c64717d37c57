"""Rows as the alignment builds them (``Draft``), its parameters, and the small operations on a list of rows:
what a witness reaches, the rows without a witness, rows left to one witness joined up.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from ..model import Segment
from ..params import Params

SLACK = 1e-9  # below match - SLACK (the floor) a candidate can never win: float slack kept on the safe side


class Draft:
    """A row being built: each witness's segments, the witnesses whose cell above covers it, what is moved."""

    __slots__ = ("cells", "covered", "moved")

    def __init__(self, cells: dict[str, list[Segment]] | None = None) -> None:
        self.cells: dict[str, list[Segment]] = cells or {}
        self.covered: set[str] = set()  # witnesses whose cell in an earlier row spans down over this one
        self.moved: set[tuple[str, int]] = set()  # (siglum, start) of segments told elsewhere in that witness

    def speakers(self) -> set[str]:
        return set(self.cells) | self.covered


def add_weights(into: dict[str, float], weights: dict[str, float]) -> None:
    """Add one text's weights to a summed vector (the vector of a run of texts is the sum of theirs)."""
    for g, x in weights.items():
        into[g] = into.get(g, 0.0) + x


Bead = tuple[int, int, int, int]  # (i, a, j, b): the witness's segments i..i+a-1 answer rows j..j+b-1


def reach(rows: list[Draft], siglum: str, k: int) -> int:
    """The last row the witness's cell in row ``k`` covers."""
    end = k
    while end + 1 < len(rows) and siglum in rows[end + 1].covered and siglum not in rows[end + 1].cells:
        end += 1
    return end


@dataclass(frozen=True)
class AlignParams:
    """The alignment's share of ``Params`` (see there what each means)."""

    match: float  # similarity a segment (or a bead of them) needs to join a row in order
    merge: float  # what each segment or row beyond one in a bead costs in similarity
    moved: float  # similarity a segment needs to join a row out of its witness's order (a transposition)
    part: float = 0.2  # similarity a sentence's first or last clauses need to a row apart to be parted to it
    floor_share: float = 0.75  # of min(match, moved): below it, no candidate
    longest: int = 8  # rows one segment answers, segments one row takes, at most
    reach: int = 4  # rows either side, in units of longest, a sentence's clauses may be parted to
    candidates: int = 32  # rows one segment is weighed against at most
    common: int = 64  # texts a gram may be in and still find candidates

    @classmethod
    def of(cls, params: Params) -> AlignParams:
        """The alignment's values of the engine's parameters."""
        return cls(**{f.name: getattr(params, f.name) for f in fields(cls)})


def without(rows: list[Draft], siglum: str) -> list[Draft]:
    """The rows with one witness taken out (rows it alone had are gone)."""
    out = []
    for row in rows:
        if set(row.cells) == {siglum}:
            continue
        new = Draft({w: ms for w, ms in row.cells.items() if w != siglum})  # lists shared: see ``rows._copied``
        new.covered = row.covered - {siglum}
        new.moved = {m for m in row.moved if m[0] != siglum}
        out.append(new)
    return out


def single_rows(rows: list[Draft]) -> list[Draft]:
    """Consecutive rows where one witness alone speaks, the same one, become one row."""
    out: list[Draft] = []
    for row in rows:
        prev = out[-1] if out else None
        if (
            prev is not None
            and len(row.cells) == 1
            and set(prev.cells) == set(row.cells)
            and not prev.covered
            and not row.covered
            and not prev.moved
            and not row.moved
        ):
            (w,) = row.cells
            prev.cells[w].extend(row.cells[w])
        else:
            out.append(row)
    return out
