"""The pipeline: load → normalise → segment → assign episodes → align rows → notes.

Pure stages over the dataclasses of ``model``; this module runs them in order and
times each one (the shells log the times). A shell that rebuilds often (``mkdocs
serve``) passes a ``Cache``: every stage result is then looked up by a key made of
the whole input of that stage (texts, segments, resources), so a remembered result
is never stale, and an edit to one witness recomputes only what it reaches.
"""

from __future__ import annotations

import gc
import hashlib
import time
from bisect import bisect_right
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Protocol, TypeVar

from .align import AlignParams, Names, align, regroup, sentences
from .assign import assign
from .collate import Silence, combine, compare
from .edits import Edits
from .facts import Facts
from .families import families
from .load import load_witnesses
from .model import Edition, EpisodeResult, Family, Lacuna, Note, Reading, Row, Segment, Span, Tokens, Witness
from .normalise import Normaliser
from .register import Mention, Mentions, entities, mention_forms, mentions, stand_in
from .resources import Resources
from .segment import CLOSERS, FINAL, cut_at, punctuated, segment

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


def unfinished(
    witnesses: tuple[Witness, ...], tokens: dict[str, Tokens], fams: tuple[Family, ...], bare: set[str]
) -> list[Lacuna]:
    """Punctuated witnesses (a family's base, or one alone) whose text stops mid-sentence: no final mark."""
    bases = {f.base for f in fams} - bare
    out = []
    for w in witnesses:
        text = w.text.rstrip()
        if w.siglum in bases and text and text[-1] not in FINAL and text[-1] not in CLOSERS:
            out.append(
                Lacuna(w.siglum, next(f.id for f in fams if w.siglum in f.members), "unfinished", len(text), None)
            )
    return out


def lacuna_notes(lacunae: list[Lacuna], tokens: dict[str, Tokens]) -> list[Note]:
    """One note per lacuna: where the witness breaks off (or begins), and what the base has there."""
    out = []
    for x in lacunae:
        words = {"end": "止於此，以下闕", "start": "始於此，以上闕", "unfinished": "止於此，文未完"}[x.kind]
        lemma = x.missing or Span(x.siglum, x.at, x.at)
        text = tokens[lemma.siglum].text
        out.append(
            Note(
                type="lacuna",
                cls="lacuna",
                lemma=lemma,
                lemma_text=text[lemma.start : lemma.end],
                readings=(Reading((x.siglum,), "", {x.siglum: (x.at, x.at)}),),
                family=x.family,
                text=f"{x.siglum} {words}",
            )
        )
    return out


def locate(notes: list[Note], episodes: tuple[EpisodeResult, ...]) -> list[Note]:
    """Each note in the row whose cell holds its lemma (or its first reading); None outside the episodes."""
    where: dict[str, list[tuple[int, int, str, str]]] = {}
    for ep in episodes:
        for row in ep.rows:
            for siglum, segs in row.cells.items():
                for seg in segs:
                    where.setdefault(siglum, []).append((seg.start, seg.end, ep.episode.id, row.id))
    for lst in where.values():
        lst.sort()
    out = []
    for n in notes:
        anchor = n.lemma or Span(
            *next(iter(n.readings[0].spans.items()))[0:1], *next(iter(n.readings[0].spans.values()))
        )
        lst = where.get(anchor.siglum, [])
        k = bisect_right(lst, (anchor.start, 1 << 62)) - 1
        hit = lst[k] if k >= 0 and lst[k][0] <= anchor.start < max(lst[k][1], lst[k][0] + 1) else None
        out.append(replace(n, episode=hit[2], row=hit[3]) if hit else n)
    return out


def rows_key(ep: EpisodeResult) -> tuple:
    """An episode's rows as a cache key (rows hold dictionaries, which do not hash)."""
    return (ep.episode.id, tuple((r.id, tuple(r.cells.items()), tuple(r.span.items()), r.moved) for r in ep.rows))


def tag(notes: list[Note], found: tuple[Mention, ...]) -> list[Note]:
    """A collation note is tagged person, place or thing where its lemma or a reading lies in such a name."""
    index = Mentions(found)
    out = []
    for n in notes:
        places = [(n.lemma.siglum, n.lemma.start, n.lemma.end)] if n.lemma else []
        places += [(s, a, b) for r in n.readings for s, (a, b) in r.spans.items()]
        kinds = {m.kind for s, a, b in places for m in index.touching(s, a, b)}
        out.append(replace(n, tags=tuple(sorted(kinds))) if kinds else n)
    return out


def sort_notes(notes: list[Note], episodes: tuple[EpisodeResult, ...]) -> list[Note]:
    """Notes in reading order: by episode and row, then outside the episodes by witness and place."""
    rank = {}
    for e, ep in enumerate(episodes):
        for r, row in enumerate(ep.rows):
            rank[row.id] = (e, r)
    order = {"collation": 0, "lacuna": 1, "fact": 2, "editor": 3}

    def key(n: Note) -> tuple:
        place = n.lemma or Span(next(iter(n.readings[0].spans)), *next(iter(n.readings[0].spans.values())))
        return (
            rank.get(n.row, (len(episodes), 0)) if n.row else (len(episodes), 0),
            place.siglum,
            place.start,
            place.end,
            order[n.type],
            n.cls,
            n.text,
        )

    return sorted(notes, key=key)


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
    res = resources.digest
    params = resources.params

    with clock.stage("load"):
        witnesses = load_witnesses(folder, warnings)
    norm = Normaliser(resources.variants)
    keys = {w.siglum: (w.siglum, digest(w.text), res) for w in witnesses}
    everything = tuple(keys.values())
    with clock.stage("normalise"):
        tokens = {w.siglum: cache.get(("tokens", *keys[w.siglum]), partial(norm.tokenise, w)) for w in witnesses}
    with clock.stage("editorial"):
        edits = Edits.resolve(resources.editorial, witnesses, {d.id for d in resources.episodes})
    with clock.stage("segment"):
        segments = cache.get(("segment", everything), partial(segment, tokens, params))
        if edits.cuts:
            segments = {s: cut_at(segs, tokens[s], edits.cuts.get(s, set())) for s, segs in segments.items()}
    persons = tuple(resources.register.names(norm, "person"))
    with clock.stage("episodes"):
        labels = cache.get(
            ("episodes", everything),
            partial(assign, segments, resources.episodes + resources.context, norm, params, persons),
        )
        labels = edits.assign(segments, labels)

    how = AlignParams(params.match, params.merge, params.moved)
    names = Names(entities(resources.register, norm))
    results = []
    for d in resources.episodes:
        clauses = {
            w.siglum: [s for s, e in zip(segments[w.siglum], labels[w.siglum], strict=True) if e == d.id]
            for w in witnesses
        }
        cells = {w.siglum: sentences(clauses[w.siglum], w.text) for w in witnesses}
        first = spine(witnesses, cells)
        # only the witnesses that tell the episode, the spine (whose order the rows follow) first
        order = ([first] if first else []) + [w.siglum for w in witnesses if w.siglum != first and cells[w.siglum]]
        key = (d.id, tuple(order), tuple((tuple(cells[s]), tuple(clauses[s])) for s in order), res)
        with clock.stage("rows"):
            rows: tuple[Row, ...] = cache.get(("rows", *key), partial(align, d.id, order, cells, how, names, clauses))
        if edits.rows:
            rows = regroup(d.id, order, rows, edits.groups_in(rows))
        results.append(EpisodeResult(d, rows))
    episodes = tuple(results)

    with clock.stage("notes"):
        fams = families(witnesses, tokens, params.copy)
        bare = {s for s, t in tokens.items() if not punctuated(t, params.marks_per)}
        script = {w.siglum: w.script for w in witnesses}
        quiet = {
            s: Silence.between(script[f.base], script[s], bool({s, f.base} & bare)) for f in fams for s in f.members
        }
        collated = [
            combine(
                [
                    cache.get(
                        ("compare", f.id, keys[f.base], keys[s], quiet[s]),
                        partial(compare, f, tokens[f.base], s, tokens[s], quiet[s]),
                    )
                    for s in f.members
                    if s != f.base
                ]
            )
            for f in fams
            if len(f.members) > 1
        ]
        lacunae = [x for c in collated for x in c.lacunae] + unfinished(witnesses, tokens, fams, bare)
        register = cache.get(
            ("register", everything), partial(stand_in, resources.register, norm, tokens, resources.surnames)
        )
        forms = mention_forms(register, norm)
        named = digest(repr(sorted(forms.items())))  # a register the texts suggest changes with any of them
        found = tuple(
            m
            for w in witnesses
            for m in cache.get(
                ("mentions", *keys[w.siglum], named), partial(mentions, w.siglum, tokens[w.siglum], forms)
            )
        )
        facts = Facts(register, found, tokens, fams, norm.fold_text)
        notes = locate(tag([n for c in collated for n in c.notes], found) + lacuna_notes(lacunae, tokens), episodes)
        notes += [
            n for ep in episodes for n in cache.get(("facts", rows_key(ep), everything), partial(facts.notes, ep))
        ]
        notes += locate(edits.notes(tokens), episodes)
        notes = edits.judge(notes, episodes)
        quotes = sum(c.quote_styles for c in collated)
    unassigned = {w.siglum: unassigned_spans(segments[w.siglum], labels[w.siglum]) for w in witnesses}
    return Edition(
        witnesses,
        episodes,
        unassigned,
        families=fams,
        notes=tuple(sort_notes(notes, episodes)),
        lacunae=tuple(lacunae),
        register=register.entries,
        mentions=found,
        quote_styles=quotes,
        unpunctuated=tuple(w.siglum for w in witnesses if w.siglum in bare),
        silenced=edits.silenced,
        editorial=edits.counts,
        warnings=warnings + edits.warnings,
        tokens=tokens,
        segments=segments,
        assignment=labels,
        timings=clock.seconds,
    )
