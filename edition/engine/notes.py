"""The notes stage: collation within families, lacunae, fact notes between families, the editor's notes and
verdicts -- each located in the row that holds its words, tagged by the register, in reading order.

A pure function of what the earlier stages made (tokens, families, rows) and of the editor's resolved file;
results of the costly steps (a copy against its base, a text's register mentions, an episode's fact notes) go
through the shell's cache, keyed by their whole input.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, replace
from functools import partial

from .cache import Cache, digest
from .collate import Base, Chain, Collation, Silence, combine, compare
from .edits import Counts, Edits
from .facts import Facts
from .fitting import fitted
from .model import EpisodeResult, Family, Lacuna, Note, Reading, Span, Tokens, Witness
from .normalise import Normaliser
from .register import Entry, Mention, Mentions, mention_forms, mentions, stand_in
from .resources import Resources
from .said import whole_text
from .segment import CLOSERS, FINAL
from .spread import in_order
from .vocabulary import LacunaKind, NoteType


@dataclass(frozen=True)
class Annotated:
    """What the notes stage gives the edition."""

    notes: tuple[Note, ...]
    lacunae: tuple[Lacuna, ...]
    register: tuple[Entry, ...]
    mentions: tuple[Mention, ...]
    quote_styles: int
    silenced: dict[str, int]
    counts: Counts
    warnings: list[str]


def unfinished(witnesses: tuple[Witness, ...], fams: tuple[Family, ...], bare: set[str]) -> list[Lacuna]:
    """Punctuated witnesses (a family's base, or one alone) whose text stops mid-sentence: no final mark."""
    bases = {f.base for f in fams} - bare
    out = []
    for w in witnesses:
        text = w.text.rstrip()
        if w.siglum in bases and text and text[-1] not in FINAL and text[-1] not in CLOSERS:
            out.append(
                Lacuna(
                    w.siglum, next(f.id for f in fams if w.siglum in f.members), LacunaKind.UNFINISHED, len(text), None
                )
            )
    return out


def lacuna_notes(lacunae: list[Lacuna], tokens: dict[str, Tokens]) -> list[Note]:
    """One note per lacuna: where the witness breaks off (or begins), and what the base has there."""
    out = []
    for x in lacunae:
        words = {
            LacunaKind.END: "止於此，以下闕",
            LacunaKind.START: "始於此，以上闕",
            LacunaKind.UNFINISHED: "止於此，文未完",
        }[LacunaKind(x.kind)]
        lemma = x.missing or Span(x.siglum, x.at, x.at)
        text = tokens[lemma.siglum].text
        out.append(
            Note(
                type=NoteType.LACUNA,
                cls=NoteType.LACUNA,
                lemma=lemma,
                lemma_text=text[lemma.start : lemma.end],
                readings=(Reading((x.siglum,), "", {x.siglum: (x.at, x.at)}),),
                family=x.family,
                text=f"{x.siglum} {words}",
            )
        )
    return out


def _anchor(n: Note) -> Span:
    """Where a note stands: its lemma, or its first reading's first span."""
    if n.lemma:
        return n.lemma
    siglum, (start, end) = next(iter(n.readings[0].spans.items()))
    return Span(siglum, start, end)


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
        anchor = _anchor(n)
        lst = where.get(anchor.siglum, [])
        k = bisect_right(lst, (anchor.start, 1 << 62)) - 1
        hit = lst[k] if k >= 0 and lst[k][0] <= anchor.start < max(lst[k][1], lst[k][0] + 1) else None
        out.append(replace(n, episode=hit[2], row=hit[3]) if hit else n)
    return out


def rows_key(ep: EpisodeResult) -> tuple:
    """An episode's rows as a cache key (rows hold dictionaries, which do not hash)."""
    return (ep.episode.id, tuple((r.id, tuple(r.cells.items()), tuple(r.span.items()), r.moved) for r in ep.rows))


def _letters(ep: EpisodeResult) -> int:
    """How much an episode's fact notes read: the letters of its cells (``spread``'s measure of work)."""
    return sum(seg.end - seg.start for row in ep.rows for segs in row.cells.values() for seg in segs)


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


ORDER = {t: k for k, t in enumerate(NoteType)}  # of notes at one place: collation, lacuna, fact, editor


def sort_notes(notes: list[Note], episodes: tuple[EpisodeResult, ...]) -> list[Note]:
    """Notes in reading order: by episode and row, then outside the episodes by witness and place."""
    rank = {}
    for e, ep in enumerate(episodes):
        for r, row in enumerate(ep.rows):
            rank[row.id] = (e, r)

    def key(n: Note) -> tuple:
        place = _anchor(n)
        return (
            rank.get(n.row, (len(episodes), 0)) if n.row else (len(episodes), 0),
            place.siglum,
            place.start,
            place.end,
            ORDER[n.type],
            n.cls,
            n.text,
        )

    return sorted(notes, key=key)


def annotate(
    witnesses: tuple[Witness, ...],
    tokens: dict[str, Tokens],
    fams: tuple[Family, ...],
    anchored: dict[str, Chain],
    bare: set[str],
    episodes: tuple[EpisodeResult, ...],
    outside: dict[str, tuple[Span, ...]],
    resources: Resources,
    norm: Normaliser,
    edits: Edits,
    cache: Cache,
) -> Annotated:
    """Every note of the edition, the lacunae and the register's mentions; ``anchored``: each copy's anchors on its
    family's base (``pipeline.anchoring``); ``outside``: each witness's text in no episode."""
    keys = {w.siglum: (w.siglum, digest(w.text), resources.digest) for w in witnesses}
    everything = tuple(keys.values())
    script = {w.siglum: w.script for w in witnesses}
    quiet = {s: Silence.between(script[f.base], script[s], bool({s, f.base} & bare)) for f in fams for s in f.members}
    bases: dict[str, Base] = {}  # made on a family's first comparison: a rebuild may compare none

    def against_base(f: Family, siglum: str) -> Collation:
        if f.base not in bases:
            bases[f.base] = Base(tokens[f.base])
        return compare(f, bases[f.base], siglum, tokens[siglum], anchored[siglum], quiet[siglum], resources.params)

    register = cache.get(
        ("register", everything), partial(stand_in, resources.register, norm, tokens, resources.surnames)
    )
    forms = mention_forms(register, norm, resources.surnames)
    named = digest(repr(sorted(forms.items())))  # a register the texts suggest changes with any of them
    found = tuple(
        m
        for w in witnesses
        for m in cache.get(("mentions", *keys[w.siglum], named), partial(mentions, w.siglum, tokens[w.siglum], forms))
    )
    params, surnames, calendar = resources.params, resources.surnames, resources.calendar
    # what each witness's whole text states, found here once for every episode's notes (and kept by ``serve``)
    wholes = {s: cache.get(("whole", *keys[s]), partial(whole_text, t, calendar)) for s, t in tokens.items()}
    facts = Facts(register, found, tokens, fams, norm.fold_text, params, surnames, episodes, calendar, wholes)
    # each copy against its base and each episode's fact notes, side by side (``spread``: one batch, so that
    # neither waits for the other's last piece); then each family's notes merged
    pairs = [(f, s) for f in fams if len(f.members) > 1 for s in f.members if s != f.base]
    partition = tuple(f.members for f in fams)  # which witnesses are independent: the catalogue may say
    done = cache.get_all(
        [
            (("compare", f.id, keys[f.base], keys[s], quiet[s]), (len(tokens[s].text), partial(against_base, f, s)))
            for f, s in pairs
        ]
        + [
            (("facts", rows_key(ep), everything, partition), (_letters(ep), partial(facts.notes, ep)))
            for ep in episodes
        ],
        in_order,
    )
    compared, told = done[: len(pairs)], done[len(pairs) :]
    collated = [
        combine([c for (g, _), c in zip(pairs, compared, strict=True) if g is f]) for f in fams if len(f.members) > 1
    ]
    lacunae = [x for c in collated for x in c.lacunae] + unfinished(witnesses, fams, bare)
    texts = {s: t.text for s, t in tokens.items()}
    collation = fitted([n for c in collated for n in c.notes], episodes, outside, texts)  # inside their cells
    notes = locate(tag(collation, found) + lacuna_notes(lacunae, tokens), episodes)
    notes += [n for found_in_episode in told for n in found_in_episode]
    editors, counts = edits.notes(tokens)
    judged = edits.judge(notes + locate(editors, episodes), episodes)
    return Annotated(
        notes=tuple(sort_notes(judged.notes, episodes)),
        lacunae=tuple(lacunae),
        register=register.entries,
        mentions=found,
        quote_styles=sum(c.quote_styles for c in collated),
        silenced=judged.silenced,
        counts={**counts, **judged.counts},
        warnings=judged.warnings,
    )
