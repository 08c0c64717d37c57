"""The pipeline: load → normalise → segment → assign episodes → align rows → notes.

Pure stages over the dataclasses of ``model``; this module only runs them in
order, times each one (the shells log the times) and remembers their results
by the content they were computed from. Because every key is the whole input
of a pure stage (texts, segments, episode definitions), a remembered result
can never be stale: a rebuild after an editor saves one witness recomputes
only what that witness's new content reaches.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from .align import align
from .assign import assign
from .episodes import check_bases, episodes_path, load_episodes
from .load import load_witnesses
from .model import Edition, EpisodeDef, EpisodeResult, Row, Segment, Span, Witness
from .notes import row_notes
from .segment import segment

T = TypeVar("T")

MEMO_LIMIT = 20_000  # results remembered across builds (a long-running `mkdocs serve`)
_memo: dict[tuple, object] = {}


def remembered(key: tuple, compute: Callable[[], T]) -> T:
    """``compute()``, or its result from an earlier build with the same key (the same content)."""
    if key not in _memo:
        if len(_memo) >= MEMO_LIMIT:
            _memo.clear()
        _memo[key] = compute()
    return _memo[key]  # type: ignore[return-value]


def choose_base(d: EpisodeDef, witnesses: tuple[Witness, ...], cells: dict[str, list[Segment]]) -> str | None:
    """The editor's base if it carries the episode, else the witness with the most text in it."""
    present = [w.siglum for w in witnesses if cells.get(w.siglum)]
    if d.base in present:
        return d.base
    if not present:
        return None
    return max(present, key=lambda s: (sum(len(x.folded) for x in cells[s]), -present.index(s)))


def unassigned_spans(segs: tuple[Segment, ...], labels: tuple[str | None, ...]) -> tuple[Span, ...]:
    """Runs of consecutive segments in no episode, each as one span."""
    spans: list[Span] = []
    run: list[Segment] = []
    for seg, label in (*zip(segs, labels, strict=True), (None, "")):
        if seg is not None and label is None:
            run.append(seg)
            continue
        if run:
            spans.append(Span(run[0].siglum, run[0].start, run[-1].end))
            run = []
    return tuple(spans)


def notes_of(row: Row, base: str, order: list[str], texts: dict[str, str]) -> list:
    """A row's notes; every span lies in the row's segments, so the row's content is the whole key."""
    key = ("notes", row.id, tuple(row.cells.items()), base, tuple(order))
    return remembered(key, lambda: row_notes(row, base, order, texts))


def build(seeds: Path, episodes_file: Path | None = None) -> Edition:
    """Run every stage on the witnesses in ``seeds``; raises EditionError on bad input."""
    timings: dict[str, float] = {}
    warnings: list[str] = []

    def timed(name: str, fn: Callable[[], T]) -> T:
        t0 = time.perf_counter()
        out = fn()
        timings[name] = timings.get(name, 0.0) + time.perf_counter() - t0
        return out

    episodes_file = episodes_file or episodes_path(seeds)
    witnesses = timed("load", lambda: load_witnesses(seeds, warnings))
    defs = timed("load", lambda: load_episodes(episodes_file))
    check_bases(episodes_file, defs, {w.siglum for w in witnesses})
    segments = timed(
        "segment", lambda: {w.siglum: remembered(("segment", w), lambda w=w: segment(w)) for w in witnesses}
    )
    labels = timed(
        "episodes", lambda: remembered(("episodes", tuple(segments.items()), defs), lambda: assign(segments, defs))
    )

    results = []
    texts = {w.siglum: w.text for w in witnesses}
    for d in defs:
        cells = {
            w.siglum: [s for s, e in zip(segments[w.siglum], labels[w.siglum], strict=True) if e == d.id]
            for w in witnesses
        }
        base = choose_base(d, witnesses, cells)
        # only the witnesses that tell the episode: one silent throughout gets no note on every row
        order = ([base] if base else []) + [w.siglum for w in witnesses if w.siglum != base and cells[w.siglum]]
        key = (d.id, tuple(order), tuple(tuple(cells[s]) for s in order))
        rows: tuple[Row, ...] = timed("rows", lambda: remembered(("rows", *key), lambda: align(d.id, order, cells)))  # noqa: B023
        notes = timed("notes", lambda: tuple(n for r in rows for n in notes_of(r, base, order, texts)))  # noqa: B023
        results.append(EpisodeResult(d, base, rows, notes))
    unassigned = {w.siglum: unassigned_spans(segments[w.siglum], labels[w.siglum]) for w in witnesses}
    return Edition(witnesses, tuple(results), unassigned, segments, labels, timings, warnings)
