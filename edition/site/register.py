"""The register (人名・地名索引): each person, place and thing with its names, and per witness every place it is
mentioned, linked to the episode row, or to the run of the witness's text outside the episodes.
"""

from __future__ import annotations

import bisect
import functools
from typing import Any

from ..engine.exported import EntryJson, EpisodeJson
from .labels import REGISTER_KINDS
from .paths import episode_page, url
from .site_index import Site
from .templating import MACROS, Renderer


def render_register(renderer: Renderer, site: Site) -> str:
    """The register's page: its entries, each rendered apart by the ``entry`` macro and kept in the cache (an edit
    to one witness changes the mentions of a few of the 82 entries of 10 x 50k), listed by kind."""
    before = RowsBefore(site)
    entries = []
    for e in site.export["register"]:
        data = _entry(site, before, e)
        key, html = renderer.fragment("entry", data, functools.partial(MACROS.entry, data))
        entries.append({"id": data["id"], "name": data["name"], "kind": data["kind"], "key": key, "html": html})
    kinds = [(label, [x for x in entries if x["kind"] == label]) for label in REGISTER_KINDS.values()]
    kinds += [
        (k, [x for x in entries if x["kind"] == k])
        for k in sorted({x["kind"] for x in entries} - set(REGISTER_KINDS.values()))
    ]
    context = {"kinds": [(label, xs) for label, xs in kinds if xs], "count": len(entries)}
    inputs = [[(label, [(x["id"], x["name"], x["key"]) for x in xs]) for label, xs in context["kinds"]], len(entries)]
    return renderer.page("register.md", inputs, lambda: context, "register.md.jinja")


def _entry(site: Site, before_of: RowsBefore, e: EntryJson) -> dict[str, Any]:
    """One entry: its names, and its mentions grouped by witness, then by place (row or run), in reading order."""
    by_witness: dict[str, dict[str, Any]] = {}
    order = {ep["id"]: i for i, ep in enumerate(site.export["episodes"])}
    for m in e["mentions"]:
        s = m["siglum"]
        item = by_witness.setdefault(s, {"siglum": s, "places": {}, "named": False})
        item["named"] |= m["named"]
        if m["row"] in site.row_at:
            ep, no = site.row_at[m["row"]]
            key, label, href = (
                (order[ep["id"]], no, 0),
                f"{ep['title']} {no}",
                f"{url(episode_page(ep['id']), 1)}#r{no}",
            )
        else:  # outside the episodes: labelled by the row its witness tells just before, linked to the mention itself
            before = before_of(s, m["start"])
            key = (order[before[0]["id"]], before[1], 1) if before else (-1, 0, 1)
            label = f"{before[0]['title']} {before[1]} 後" if before else "篇首"
            href = f"{site.witness_url(s, 1)}#g{m['start']}"
        place = item["places"].setdefault(key, {"label": label, "href": href, "named": False, "forms": set()})
        place["named"] |= m["named"]
        place["forms"].add(m["text"])
    witnesses = [
        {
            "siglum": item["siglum"],
            "href": site.witness_url(item["siglum"], 1),
            "named": item["named"],
            "places": [{**p, "forms": "、".join(sorted(p["forms"]))} for _, p in sorted(item["places"].items())],
        }
        for item in sorted(by_witness.values(), key=lambda x: site.index[x["siglum"]])
    ]
    return {
        "id": e["id"],
        "kind": REGISTER_KINDS.get(e["kind"], e["kind"]),
        "name": e["name"],
        "aliases": [a for a in e["aliases"] if a != e["name"]],
        "variants": e["variants"],
        "titles": e["titles"],
        "note": e["note"],
        "witnesses": witnesses,
    }


class RowsBefore:
    """The row a witness tells just before a place: the episode and number of the last row whose segment of the
    witness starts before it (of rows starting at one place, the first in reading order), or None. Each
    witness's segment starts are sorted once, so the register, which asks for every mention outside the
    episodes, does not walk every row per mention (quadratic: a fifth of a rebuild's render at 10 x 50k)."""

    def __init__(self, site: Site) -> None:
        first: dict[str, dict[int, tuple[EpisodeJson, int]]] = {}
        for ep in site.export["episodes"]:
            for i, row in enumerate(ep["rows"], 1):
                for s, segs in row["cells"].items():
                    for x in segs:
                        first.setdefault(s, {}).setdefault(x["start"], (ep, i))
        self._starts = {s: sorted(rows) for s, rows in first.items()}
        self._rows = first

    def __call__(self, siglum: str, offset: int) -> tuple[EpisodeJson, int] | None:
        starts = self._starts.get(siglum, [])
        k = bisect.bisect_left(starts, offset)
        return self._rows[siglum][starts[k - 1]] if k else None
