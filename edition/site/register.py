"""The register (人名・地名索引): each person, place and thing with its names, and per witness every place it is
mentioned, linked to the episode row, or to the run of the witness's text outside the episodes.
"""

from __future__ import annotations

from typing import Any

from .labels import REGISTER_KINDS
from .paths import episode_page, url
from .site_index import Site
from .templating import Renderer


def render_register(renderer: Renderer, site: Site) -> str:
    entries = [_entry(site, e) for e in site.export["register"]]
    kinds = [(label, [x for x in entries if x["kind"] == label]) for label in REGISTER_KINDS.values()]
    kinds += [
        (k, [x for x in entries if x["kind"] == k])
        for k in sorted({x["kind"] for x in entries} - set(REGISTER_KINDS.values()))
    ]
    context = {"kinds": [(label, xs) for label, xs in kinds if xs], "count": len(entries)}
    return renderer.page("register.md", context, lambda: context, "register.md.jinja")


def _entry(site: Site, e: dict[str, Any]) -> dict[str, Any]:
    """One entry: its names, and its mentions grouped by witness, then by place (row or run), in reading order."""
    by_witness: dict[str, dict[str, Any]] = {}
    for m in e["mentions"]:
        s = m["siglum"]
        item = by_witness.setdefault(s, {"siglum": s, "places": {}, "named": False})
        item["named"] |= m["named"]
        if m["row"] in site.row_at:
            ep, no = site.row_at[m["row"]]
            key, label, href = (0, ep["id"], no), f"{ep['title']} {no}", f"{url(episode_page(ep['id']), 1)}#r{no}"
        else:
            start = site.run_start(s, m["start"])
            key, label, href = (1, "", start), "段落外", f"{site.witness_url(s, 1)}#o{start}"
        place = item["places"].setdefault(key, {"label": label, "href": href, "named": False, "forms": set()})
        place["named"] |= m["named"]
        place["forms"].add(m["text"])
    order = {ep["id"]: i for i, ep in enumerate(site.export["episodes"])}
    witnesses = [
        {
            "siglum": item["siglum"],
            "href": site.witness_url(item["siglum"], 1),
            "named": item["named"],
            "places": [
                {**p, "forms": "、".join(sorted(p["forms"]))}
                for key, p in sorted(
                    item["places"].items(), key=lambda kv: (kv[0][0], order.get(kv[0][1], 0), kv[0][2])
                )
            ],
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
