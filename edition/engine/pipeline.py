"""The pipeline: load → normalise → segment → assign episodes → align rows → notes.

Pure stages over the dataclasses of ``model``; this module runs them in order and
times each one (the shells log the times). A shell that rebuilds often (``mkdocs
serve``) passes a ``Cache``: every stage result is then looked up by a key made of
the whole input of that stage (texts, segments, resources), so a remembered result
is never stale, and an edit to one witness recomputes only what it reaches.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Protocol, TypeVar

from ..errors import EditionError
from .align import AlignParams, Names, align, sentences
from .assign import assign
from .load import load_witnesses
from .model import Edition, EpisodeDef, EpisodeResult, Row, Segment, Span, Witness
from .normalise import Normaliser
from .notes import Context, row_notes
from .register import entities
from .resources import Resources
from .segment import segment

T = TypeVar("T")


class Cache(Protocol):
    """Where a shell keeps stage results between builds (see ``edition.site.cache``)."""

    def get(self, key: tuple, compute: Callable[[], T]) -> T: ...


class NoCache:
    """One build, nothing kept: every stage runs."""

    def get(self, key: tuple, compute: Callable[[], T]) -> T:
        return compute()


def digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


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


def check_bases(resources: Resources, sigla: set[str]) -> None:
    for d in resources.episodes:
        if d.base and d.base not in sigla:
            raise EditionError(resources.files[0], f"episode '{d.id}': base '{d.base}' is no witness's siglum", d.line)


class Stopwatch:
    """Seconds spent per stage, summed over every time the stage runs."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - t0


def build(folder: Path, resources: Resources, cache: Cache | None = None) -> Edition:
    """Run every stage on the witnesses in ``folder``; raises EditionError on bad input."""
    cache = cache or NoCache()
    clock = Stopwatch()
    warnings: list[str] = []
    res = resources.digest
    params = resources.params

    with clock.stage("load"):
        witnesses = load_witnesses(folder, warnings)
    check_bases(resources, {w.siglum for w in witnesses})
    norm = Normaliser(resources.variants)
    keys = {w.siglum: (w.siglum, digest(w.text), res) for w in witnesses}
    everything = tuple(keys.values())
    with clock.stage("normalise"):
        tokens = {w.siglum: cache.get(("tokens", *keys[w.siglum]), partial(norm.tokenise, w)) for w in witnesses}
    with clock.stage("segment"):
        segments = cache.get(("segment", everything), partial(segment, tokens, params))
    persons = tuple(resources.register.names(norm, "person"))
    with clock.stage("episodes"):
        labels = cache.get(
            ("episodes", everything),
            partial(assign, segments, resources.episodes + resources.context, norm, params, persons),
        )

    ctx = Context(tokens, resources.surnames, params)
    how = AlignParams(params.match, params.merge, params.moved)
    names = Names(entities(resources.register, norm))
    results = []
    for d in resources.episodes:
        cells = {
            w.siglum: sentences(
                [s for s, e in zip(segments[w.siglum], labels[w.siglum], strict=True) if e == d.id], w.text
            )
            for w in witnesses
        }
        base = choose_base(d, witnesses, cells)
        # only the witnesses that tell the episode: one silent throughout gets no note on every row
        order = ([base] if base else []) + [w.siglum for w in witnesses if w.siglum != base and cells[w.siglum]]
        key = (d.id, tuple(order), tuple(tuple(cells[s]) for s in order), res)
        with clock.stage("rows"):
            rows: tuple[Row, ...] = cache.get(("rows", *key), partial(align, d.id, order, cells, how, names))
        with clock.stage("notes"):
            notes = tuple(
                n
                for r in rows
                for n in cache.get(
                    ("notes", r.id, tuple(r.cells.items()), base, tuple(order), res),
                    partial(row_notes, r, base, order, ctx),
                )
            )
        results.append(EpisodeResult(d, base, rows, notes))
    unassigned = {w.siglum: unassigned_spans(segments[w.siglum], labels[w.siglum]) for w in witnesses}
    return Edition(witnesses, tuple(results), unassigned, tokens, segments, labels, clock.seconds, warnings)
