"""The ``edition-export/2`` JSON: the contract the site, the TEI and the CollateX exports, and other tools rely on.

Every ``start``/``end`` is a code-point offset into the witness text (the decoded file with
``\\n`` newlines) and every ``text`` is that slice: nothing is normalised or dropped. The
JSON Schema ``edition.schema.json`` (published with the site) describes every key.
"""

from __future__ import annotations

import json
from bisect import bisect_right

from .exported import EditionJson, EntryJson, FragmentJson, MentionJson, NoteJson, VerdictJson
from .model import Edition, Note, Segment, Verdict
from .vocabulary import NoteType

FORMAT = "edition-export/2"


def _segment(seg: Segment, moved: bool) -> FragmentJson:
    out: FragmentJson = {"start": seg.start, "end": seg.end, "text": seg.text}
    if moved:
        out["moved"] = True
    return out


def _verdict(v: Verdict) -> VerdictJson:
    """The editor's verdict on a note: its kind and the 校勘記's words, and what it needs of the rest."""
    out: VerdictJson = {"kind": v.kind, "words": v.words}
    if v.sigla:
        out["sigla"] = list(v.sigla)
    if v.reads:
        out["reads"] = v.reads
    if v.adopted is not None:
        out["adopted"] = {
            "siglum": v.adopted.siglum,
            "start": v.adopted.start,
            "end": v.adopted.end,
            "text": v.reads,
            "was": v.was,
        }
    if v.parallels:
        out["parallels"] = [{"source": s, "reads": r} for s, r in v.parallels]
    if v.text:
        out["text"] = v.text
    return out


def _note(k: int, note: Note, by: dict[tuple[str | None, str], str]) -> NoteJson:
    out: NoteJson = {
        "id": f"n{k}",
        "type": note.type,
        "class": note.cls,
        "episode": note.episode,
        "row": note.row,
        "family": note.family,
        "label": note.label,
        "tags": list(note.tags),
        "lemma": None
        if note.lemma is None
        else {
            "siglum": note.lemma.siglum,
            "start": note.lemma.start,
            "end": note.lemma.end,
            "text": note.lemma_text,
        },
        "readings": [
            {
                "sigla": list(r.sigla),
                "text": r.text,
                "spans": {s: list(se) for s, se in r.spans.items()},
                **({"ref": r.ref} if r.ref else {}),
                **({} if r.named else {"named": False}),
            }
            for r in note.readings
        ],
        "text": note.text,
    }
    if note.verdict is not None:
        out["verdict"] = _verdict(note.verdict)
    if note.superseded:
        out["superseded_by"] = by[(note.episode, note.superseded)]
    return out


def to_dict(edition: Edition) -> EditionJson:
    texts = {w.siglum: w.text for w in edition.witnesses}
    family_of = {s: f.id for f in edition.families for s in f.members}
    scripts = {w.siglum: w.script for w in edition.witnesses}
    facts = {  # an editor's fact by episode and label: what a machine note it supersedes points to
        (n.episode, n.label): f"n{k}"
        for k, n in reversed(list(enumerate(edition.notes, 1)))
        if n.type == NoteType.EDITOR and n.label and n.readings
    }
    return {
        "format": FORMAT,
        "witnesses": [
            {
                "siglum": w.siglum,
                "file": w.meta.file,
                "title": w.meta.title,
                "description": w.meta.description,
                "source": w.meta.source,
                "script": w.script,
                "length": len(w.text),
                "family": family_of.get(w.siglum, w.siglum),
            }
            for w in edition.witnesses
        ],
        "families": [
            {"id": f.id, "base": f.base, "members": list(f.members), "declared": f.declared} for f in edition.families
        ],
        "episodes": [
            {
                "id": ep.episode.id,
                "title": ep.episode.title,
                "description": ep.episode.description,
                "rows": [
                    {
                        "id": r.id,
                        "cells": {
                            s: [_segment(x, (s, x.start) in r.moved) for x in segs] for s, segs in r.cells.items()
                        },
                        **({"span": dict(r.span)} if r.span else {}),
                        **({"weak": list(r.weak)} if r.weak else {}),
                    }
                    for r in ep.rows
                ],
            }
            for ep in edition.episodes
        ],
        "unassigned": {
            s: [{"start": sp.start, "end": sp.end, "text": texts[s][sp.start : sp.end]} for sp in spans]
            for s, spans in edition.unassigned.items()
        },
        "notes": [_note(k, n, facts) for k, n in enumerate(edition.notes, 1)],
        "lacunae": [
            {
                "siglum": x.siglum,
                "family": x.family,
                "kind": x.kind,
                "at": x.at,
                "missing": None
                if x.missing is None
                else {"siglum": x.missing.siglum, "start": x.missing.start, "end": x.missing.end},
            }
            for x in edition.lacunae
        ],
        "register": _register(edition),
        "normalised": {
            "quote_styles": edition.quote_styles,
            "unpunctuated": list(edition.unpunctuated),
            "scripts": [f.id for f in edition.families if len({scripts[s] for s in f.members}) > 1],
            "silenced": dict(sorted(edition.silenced.items())),
        },
        "editorial": dict(sorted(edition.editorial.items())),
    }


def _register(edition: Edition) -> list[EntryJson]:
    """Each entry the texts name, with every place a witness names it (and the row it stands in)."""
    # (siglum, a segment's start) -> its episode, row and end (the furthest of the row's segments of the witness
    # that start there); then each witness's starts in order, grouped in one pass (not once per witness)
    where: dict[tuple[str, int], tuple[str, str, int]] = {}
    for ep in edition.episodes:
        for row in ep.rows:
            for siglum, segs in row.cells.items():
                ends: dict[int, int] = {}
                for seg in segs:
                    ends[seg.start] = max(ends.get(seg.start, seg.end), seg.end)
                for start, end in ends.items():
                    where[(siglum, start)] = (ep.episode.id, row.id, end)
    starts: dict[str, list[int]] = {}
    for siglum, start in where:
        starts.setdefault(siglum, []).append(start)
    for lst in starts.values():
        lst.sort()

    def row_at(siglum: str, offset: int) -> tuple[str | None, str | None]:
        lst = starts.get(siglum, [])
        k = bisect_right(lst, offset) - 1
        if k < 0:
            return None, None
        ep, row, seg_end = where[(siglum, lst[k])]
        return (ep, row) if offset < seg_end else (None, None)

    by_entry: dict[str, list[MentionJson]] = {}
    for m in edition.mentions:
        ep, row = row_at(m.siglum, m.start)
        for e in m.entries:
            by_entry.setdefault(e, []).append(
                {
                    "siglum": m.siglum,
                    "start": m.start,
                    "end": m.end,
                    "text": m.text,
                    "named": m.named,
                    "episode": ep,
                    "row": row,
                }
            )
    return [
        {
            "id": e.id,
            "kind": e.kind,
            "name": e.name,
            "aliases": list(e.aliases),
            "variants": list(e.variants),
            "titles": list(e.titles),
            "note": e.note,
            "mentions": by_entry.get(e.id, []),
        }
        for e in edition.register
    ]


def to_json(export: EditionJson) -> str:
    """Compact, UTF-8 as written (no escapes): the site publishes it, so size matters more than looks."""
    return json.dumps(export, ensure_ascii=False, separators=(",", ":")) + "\n"
