"""An episode page: its witnesses in parallel columns, row by row, with the marks of the notes, a strip of how
much the witnesses differ in each row, and the apparatus.

The page is assembled on every build from its head, rows and notes, each row and the notes cached apart: an
edit re-renders only the rows it changes (a row's spans are relative to its segments, so text moved by an edit
before it changes nothing), and every row is looked up in every build, so the cache, which forgets what a build
leaves unused, keeps them all.
"""

from __future__ import annotations

import bisect
from typing import Any

from ..engine.exported import EpisodeJson, FragmentJson, NoteJson
from .apparatus import apparatus
from .labels import kind_filters
from .notes import note_spans
from .paths import episode_page, url
from .site_index import Site, chars
from .templating import MACROS, Renderer
from .text_pieces import lines, other_script
from .variance import level, percent


def render_episode(renderer: Renderer, site: Site, ep: EpisodeJson, k: int) -> str:
    """The page of the ``k``-th episode ``ep``."""
    head, rows, (notes_keys, lists) = _episode(renderer, site, ep, k)
    inputs = [head, [key for key, _ in rows], notes_keys]
    context = {**head, "rows": [row for _, row in rows], **lists}
    return renderer.page(episode_page(ep["id"]), inputs, lambda: context, "episode.md.jinja", ("notes", "forms"))


def _episode(renderer: Renderer, site: Site, ep: EpisodeJson, k: int) -> tuple[dict, list, tuple]:
    """The data of the page's head, its rows and its notes (rendered or from the cache, with their keys)."""
    amount = {w["siglum"]: 0 for w in site.witnesses}
    for row in ep["rows"]:
        for s, segs in row["cells"].items():
            amount[s] += sum(chars(x["text"]) for x in segs)
    sigla = [s for s in amount if amount[s]]
    notes = site.by_episode[ep["id"]]
    spans = note_spans(notes, site.order, site.first, site.numbers(notes))
    starts = {s: [n[0] for n in v] for s, v in spans.items()}

    def inside(s: str, seg: FragmentJson) -> list[list]:
        """The notes' spans inside a segment, relative to its start."""
        start, end = seg["start"], seg["end"]
        lo, hi = bisect.bisect_left(starts.get(s, []), start), bisect.bisect_right(starts.get(s, []), end)
        return [[a - start, b - start, *rest] for a, b, *rest in spans.get(s, [])[lo:hi] if b <= end]

    register = url("register.md", 2)
    m_starts = {s: [m[0] for m in site.mentions.get(s, [])] for s in sigla}

    def mentioned(s: str, seg: FragmentJson) -> list[list]:
        """The register's mentions inside a segment, relative to its start, each with its entry's link and name."""
        start, end = seg["start"], seg["end"]
        lo, hi = bisect.bisect_left(m_starts[s], start), bisect.bisect_left(m_starts[s], end)
        return [
            [a - start, min(b, end) - start, f"{register}#{e}", name]
            for a, b, e, name in site.mentions.get(s, [])[lo:hi]
        ]

    heat = site.variance.rows(ep["id"])
    rows, covered = [], dict.fromkeys(sigla, 0)  # rows still covered by a cell spanning from above
    for i, r in enumerate(ep["rows"], 1):
        cells = []
        for s in sigla:
            if covered[s]:
                covered[s] -= 1
                continue
            segs = r["cells"].get(s)
            if not segs:
                cells.append({"s": s})
                continue
            span = r.get("span", {}).get(s, 1)
            covered[s] = span - 1
            moved = site.witness_url(s, 2)
            cells.append(
                {
                    "s": s,
                    "lang": site.lang(s),
                    "span": span,
                    "segs": [
                        [x["text"], f"{moved}#o{x['start']}" if x.get("moved") else "", inside(s, x), mentioned(s, x)]
                        for x in segs
                    ],
                }
            )
        rows.append(
            _row(
                renderer,
                {
                    "no": i,
                    "id": r["id"],
                    "heat": level(heat[i - 1]),
                    "diff": percent(heat[i - 1]),
                    "cells": cells,
                    "weak": r.get("weak", []),
                },
            )
        )
    episodes = site.export["episodes"]
    neighbours = {
        "prev": episodes[k - 1] if k > 0 else None,
        "next": episodes[k + 1] if k + 1 < len(episodes) else None,
    }
    head = {
        "title": ep["title"],
        "description": ep["description"],
        "columns": [
            {
                "siglum": s,
                "title": site.witnesses[site.index[s]]["title"],
                "href": site.witness_url(s, 2),
                "chars": amount[s],
                "base": s in site.bases,
                "lang": site.lang(s),
            }
            for s in sigla
        ],
        "lacking": [w["siglum"] for w in site.witnesses if not amount[w["siglum"]]],
        "fold": site.folding(x["text"] for row in ep["rows"] for segs in row["cells"].values() for x in segs),
        "kinds": kind_filters(),
        "strip": [{"no": i, "heat": level(v), "diff": percent(v)} for i, v in enumerate(heat, 1)],
        "neighbours": {
            key: {"title": e["title"], "href": url(episode_page(e["id"]), 2)} if e else None
            for key, e in neighbours.items()
        },
    }

    def place(note: NoteJson) -> dict[str, Any]:
        no = site.row_at[note["row"]][1]
        return {"href": f"#r{no}", "label": f"行 {no}", "title": f"回到第 {no} 行"}

    return head, rows, apparatus(renderer, site, notes, place)


def _row(renderer: Renderer, inputs: dict[str, Any]) -> tuple[str, str]:
    """A row of the parallel table, rendered by the ``row`` macro; ``inputs`` is all it is made from:
    its number, id and heat, and per column the siglum and the segments, each as its text, the link to
    its place in its witness when it is moved, the notes and the register's mentions in it; and the witnesses
    whose cell nothing beside it supports (the export's ``weak``)."""
    forms = renderer.forms

    def render() -> str:
        cells = []
        for cell in inputs["cells"]:
            if "segs" not in cell:
                cells.append({"siglum": cell["s"], "segs": None})
                continue
            segs = [
                {"moved": moved, "pieces": lines(forms, text, spans, mentions)}
                for text, moved, spans, mentions in cell["segs"]
            ]
            alt = other_script(forms, "".join(text for text, *_ in cell["segs"]))
            cells.append({"siglum": cell["s"], "lang": cell["lang"], "span": cell["span"], "segs": segs, "alt": alt})
        return MACROS.row({**inputs, "cells": cells})

    return renderer.fragment("row", inputs, render)
