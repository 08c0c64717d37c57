"""The pipeline: load → normalise → segment → families → episodes → rows → notes, as named stages.

Each stage is a pure function of what the stages before it made and of the resources (passed in, never
read here); ``build`` calls them in order and times each (the shells log the times). The editor's file
is resolved once, then each editorial step returns its result and what it changed. A shell that rebuilds
often (``mkdocs serve``) passes a ``Cache``: every stage result is looked up by a key made of the whole
input of that stage, so a remembered result is never stale, and an edit to one witness recomputes only
what it reaches.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

from .align import AlignParams, Names, align, beside_base, regroup, sentences
from .align.regroup import in_group
from .align.support import weak_cells
from .assign import assign
from .cache import Cache, NoCache, digest
from .collate import Chain, anchor_chain, unique
from .copies import follow_base
from .edits import Counts, Edits
from .families import families
from .load import load_witnesses
from .model import Edition, EpisodeDef, EpisodeResult, Family, Row, Segment, Span, Tokens, Witness
from .normalise import Normaliser
from .notes import annotate
from .register import entities
from .resources import Resources
from .segment import DEFINITIONS, break_keys, cut_at, definition_keys, others_keys, punctuated, segment_witness
from .spread import Job, in_order

Key = tuple[str, str, str]  # (siglum, digest of its text, digest of the resources): a witness as a cache key


def spine(witnesses: tuple[Witness, ...], cells: dict[str, list[Segment]]) -> str | None:
    """The witness whose order an episode's rows follow: the one that tells the most of it."""
    present = [w.siglum for w in witnesses if cells.get(w.siglum)]
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


def tokenise(witnesses: tuple[Witness, ...], norm: Normaliser, keys: dict[str, Key], cache: Cache) -> dict[str, Tokens]:
    """Each witness as tokens (letters in their compared form, marks by kind), made once per text."""
    return {w.siglum: cache.get(("tokens", *keys[w.siglum]), partial(norm.tokenise, w)) for w in witnesses}


def segmentation(
    tokens: dict[str, Tokens],
    resources: Resources,
    norm: Normaliser,
    edits: Edits,
    keys: dict[str, Key],
    cache: Cache,
) -> dict[str, tuple[Segment, ...]]:
    """Sentences and clauses of every witness, cut again where the editor's passages begin and end. A
    punctuated witness's are its own (made once per text); a bare one's follow the others' breaks too, and
    the editor's definitions' (``segment.definition_keys``)."""
    params = resources.params
    everything = tuple(keys.values())
    bare = {s for s, t in tokens.items() if not punctuated(t, params.marks_per)}
    breaks = (
        {s: cache.get(("breaks", *keys[s]), partial(break_keys, t, params)) for s, t in tokens.items()} if bare else {}
    )
    if bare:
        defs = resources.episodes + resources.context
        breaks[DEFINITIONS] = cache.get(
            ("breaks", DEFINITIONS, resources.digest), partial(definition_keys, defs, norm, params)
        )
    segments = {
        s: cache.get(("segment", s, everything), partial(segment_witness, t, params, others_keys(s, breaks)))
        if s in bare
        else cache.get(("segment", *keys[s]), partial(segment_witness, t, params, {}))
        for s, t in tokens.items()
    }
    cuts = edits.cuts
    if not cuts:
        return segments
    return cache.get(
        ("cut", everything, tuple(sorted((s, tuple(sorted(c))) for s, c in cuts.items()))),
        lambda: {s: cut_at(segs, tokens[s], cuts.get(s, set())) for s, segs in segments.items()},
    )


def anchoring(
    tokens: dict[str, Tokens], fams: tuple[Family, ...], anchor: int, keys: dict[str, Key], cache: Cache
) -> dict[str, Chain]:
    """Each copy's anchors on its family's base (``collate.anchor_chain``), found once: the copies' episodes follow
    their family along them (``copies``) and the collation cuts the texts at them (``collate``). Per copy, so a
    rebuild after an edit to one copy finds only its anchors again."""
    grams: dict[str, dict[str, int]] = {}  # a base's stretches, found on its first copy's need

    def chain(base: str, copy: str) -> Chain:
        if base not in grams:
            grams[base] = unique(tokens[base].n, anchor)
        return anchor_chain(grams[base], unique(tokens[copy].n, anchor))

    return {
        s: cache.get(("anchors", keys[f.base], keys[s]), partial(chain, f.base, s))
        for f in fams
        for s in f.members
        if s != f.base
    }


def episodes_of(
    segments: dict[str, tuple[Segment, ...]],
    tokens: dict[str, Tokens],
    fams: tuple[Family, ...],
    anchored: dict[str, Chain],
    resources: Resources,
    norm: Normaliser,
    edits: Edits,
    everything: tuple[Key, ...],
    cache: Cache,
) -> tuple[dict[str, tuple[str | None, ...]], Counts]:
    """The episode (or none) of every segment: the machine's (a copy's as its base's, see ``copies``), then the
    editor's ``assign`` and ``rows``."""
    family = {s: f.id for f in fams for s in f.members}
    persons = tuple(resources.register.names(norm, "person"))
    params = resources.params

    def machine() -> dict[str, tuple[str | None, ...]]:
        own = assign(segments, resources.episodes + resources.context, norm, params, family, persons, cache)
        return follow_base(own, segments, tokens, fams, anchored, params.anchor)

    labels = cache.get(("episodes", everything, tuple((f.base, f.members) for f in fams)), machine)
    return edits.assign(segments, labels)


def episode_job(
    d: EpisodeDef,
    witnesses: tuple[Witness, ...],
    segments: dict[str, tuple[Segment, ...]],
    labels: dict[str, tuple[str | None, ...]],
    how: AlignParams,
    names: Names,
    resources_digest: str,
) -> tuple[list[str], tuple, Job[tuple[Row, ...]]]:
    """One episode's alignment to be done: the witnesses that tell it (the spine, whose order the rows follow,
    first), its cache key, and the job (``spread.Job``)."""
    clauses = {
        w.siglum: [s for s, e in zip(segments[w.siglum], labels[w.siglum], strict=True) if e == d.id] for w in witnesses
    }
    cells = {w.siglum: sentences(clauses[w.siglum], w.text) for w in witnesses}
    first = spine(witnesses, cells)
    order = ([first] if first else []) + [w.siglum for w in witnesses if w.siglum != first and cells[w.siglum]]
    key = ("rows", d.id, tuple(order), tuple((tuple(cells[s]), tuple(clauses[s])) for s in order), resources_digest)
    work = sum(len(seg.folded) for s in order for seg in cells[s]) * len(order)  # each witness beside the rest
    told = {s: clauses[s] for s in order}
    return order, key, (work, partial(align, d.id, order, {s: cells[s] for s in order}, how, names, told))


def vouched(passages: list[tuple[str, int, int]], row: Row) -> bool:
    """Whether the row holds a passage of an editor's ``rows`` groups."""
    return any(in_group(passages, w, seg) for w, segs in row.cells.items() for seg in segs)


def rows_of(
    witnesses: tuple[Witness, ...],
    segments: dict[str, tuple[Segment, ...]],
    labels: dict[str, tuple[str | None, ...]],
    fams: tuple[Family, ...],
    resources: Resources,
    norm: Normaliser,
    edits: Edits,
    cache: Cache,
) -> tuple[tuple[EpisodeResult, ...], Counts]:
    """Each episode's rows: its sentences aligned across the witnesses that tell it (the episodes side by side,
    ``spread``), then the editor's groups, each family's identical words in one row (``beside_base``), and the
    cells nothing beside them supports named (``weak_cells``)."""
    params = resources.params
    how = AlignParams.of(params)
    copies = [(f.base, f.members) for f in fams if len(f.members) > 1]
    names = Names(entities(resources.register, norm))
    planned = [episode_job(d, witnesses, segments, labels, how, names, resources.digest) for d in resources.episodes]
    aligned = cache.get_all([(key, job) for _, key, job in planned], in_order)
    results = []
    regrouped = 0
    family = {m: f.id for f in fams for m in f.members}
    for d, (order, _, _), rows in zip(resources.episodes, planned, aligned, strict=True):
        groups = edits.groups_in(rows) if edits.groups else []
        if groups:
            rows = regroup(d.id, order, rows, groups)
        regrouped += len(groups)
        passages = [p for group in groups for p in group]
        rows = weak_cells(
            beside_base(d.id, order, rows, copies),
            lambda s: family.get(s, s),
            partial(vouched, passages),
            params.support,
        )
        results.append(EpisodeResult(d, rows))
    return tuple(results), ({"rows": regrouped} if regrouped else {})


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused: a build makes millions of objects and no cycles worth
    collecting, and each full collection walks the whole heap (a fifth of the engine's time at 20 x 100k)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@collector_paused()
def build(folder: Path, resources: Resources, cache: Cache | None = None) -> Edition:
    """Run every stage on the witnesses in ``folder``; raises EditionError on bad input."""
    cache = cache or NoCache()
    clock = Stopwatch()
    warnings: list[str] = []
    with clock.stage("load"):
        witnesses = load_witnesses(folder, warnings)
    norm = Normaliser(resources.variants)
    keys = {w.siglum: (w.siglum, digest(w.text), resources.digest) for w in witnesses}
    everything = tuple(keys.values())
    with clock.stage("normalise"):
        tokens = tokenise(witnesses, norm, keys, cache)
    with clock.stage("editorial"):
        edits = Edits.resolve(resources.editorial, witnesses, {d.id for d in resources.episodes})
    with clock.stage("segment"):
        segments = segmentation(tokens, resources, norm, edits, keys, cache)
    with clock.stage("families"):
        declared = tuple((w.siglum, w.meta.family, w.meta.base) for w in witnesses)  # the catalogue's say
        fams = cache.get(
            ("families", everything, declared), partial(families, witnesses, tokens, resources.params.copy)
        )
        bare = {s for s, t in tokens.items() if not punctuated(t, resources.params.marks_per)}
        anchored = anchoring(tokens, fams, resources.params.anchor, keys, cache)
    with clock.stage("episodes"):
        labels, assigned = episodes_of(segments, tokens, fams, anchored, resources, norm, edits, everything, cache)
    with clock.stage("rows"):
        episodes, regrouped = rows_of(witnesses, segments, labels, fams, resources, norm, edits, cache)
    outside = {w.siglum: unassigned_spans(segments[w.siglum], labels[w.siglum]) for w in witnesses}
    with clock.stage("notes"):
        annotated = annotate(witnesses, tokens, fams, anchored, bare, episodes, outside, resources, norm, edits, cache)
    return Edition(
        witnesses,
        episodes,
        outside,
        families=fams,
        notes=annotated.notes,
        lacunae=annotated.lacunae,
        register=annotated.register,
        mentions=annotated.mentions,
        quote_styles=annotated.quote_styles,
        unpunctuated=tuple(w.siglum for w in witnesses if w.siglum in bare),
        silenced=annotated.silenced,
        editorial={**assigned, **regrouped, **annotated.counts},
        warnings=warnings + annotated.warnings,
        tokens=tokens,
        segments=segments,
        assignment=labels,
        timings=clock.seconds,
    )
