"""The ``edition-export/1`` JSON: the contract other tools and the site rely on."""

from __future__ import annotations

import json
from typing import Any

from .model import Edition, Note, Segment

FORMAT = "edition-export/1"


def _segment(seg: Segment) -> dict[str, Any]:
    return {"start": seg.start, "end": seg.end, "text": seg.text}


def _note(note: Note) -> dict[str, Any]:
    return {
        "row": note.row,
        "class": note.cls,
        "tags": list(note.tags),
        "lemma": {
            "siglum": note.lemma.siglum,
            "start": note.lemma.start,
            "end": note.lemma.end,
            "text": note.lemma_text,
        },
        "readings": [
            {"sigla": list(r.sigla), "text": r.text, "spans": {s: list(se) for s, se in r.spans.items()}}
            for r in note.readings
        ],
    }


def to_dict(edition: Edition) -> dict[str, Any]:
    texts = {w.siglum: w.text for w in edition.witnesses}
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
            }
            for w in edition.witnesses
        ],
        "episodes": [
            {
                "id": ep.episode.id,
                "title": ep.episode.title,
                "description": ep.episode.description,
                "base": ep.base,
                "rows": [
                    {"id": r.id, "cells": {s: [_segment(x) for x in segs] for s, segs in r.cells.items()}}
                    for r in ep.rows
                ],
                "notes": [_note(n) for n in ep.notes],
            }
            for ep in edition.episodes
        ],
        "unassigned": {
            s: [{"start": sp.start, "end": sp.end, "text": texts[s][sp.start : sp.end]} for sp in spans]
            for s, spans in edition.unassigned.items()
        },
    }


def to_json(export: dict[str, Any]) -> str:
    """Compact, UTF-8 as written (no escapes): the site publishes it, so size matters more than looks."""
    return json.dumps(export, ensure_ascii=False, separators=(",", ":")) + "\n"
