"""The overview page: the witnesses; the heat map (witnesses × episodes: how much each differs from the others,
and how much text it has); the similarity matrix of the witnesses. Where a reader sees at a glance which
witnesses tell which episodes, and how far apart they are.
"""

from __future__ import annotations

from typing import Any

from .labels import script_label
from .paths import episode_page, url
from .site_index import Site, chars
from .templating import Renderer
from .variance import level, percent


def render_overview(renderer: Renderer, site: Site, texts: dict[str, str]) -> str:
    export = site.export
    episodes = [{"title": e["title"], "href": url(episode_page(e["id"]), 1)} for e in export["episodes"]]
    witnesses = []
    for w in export["witnesses"]:
        s = w["siglum"]
        cells = []
        for e, link in zip(export["episodes"], episodes, strict=True):
            amount = sum(chars(x["text"]) for row in e["rows"] for x in row["cells"].get(s, []))
            diff = site.variance.witness(s, e["id"])
            cells.append(
                {
                    "chars": amount,
                    "href": link["href"],
                    "diff": None if diff is None else percent(diff),
                    "heat": None if diff is None else level(diff),
                }
            )
        witnesses.append(
            {
                "siglum": s,
                "href": site.witness_url(s, 1),
                "title": w["title"],
                "source": w["source"],
                "script": script_label(w["script"]),
                "family": w["family"],
                "base": s in site.bases,
                "chars": chars(texts[s]),
                "cells": cells,
                "outside": sum(chars(x["text"]) for x in export["unassigned"].get(s, [])),
            }
        )
    sigla = [w["siglum"] for w in export["witnesses"]]
    context = {"episodes": episodes, "witnesses": witnesses, "sigla": sigla, "matrix": _matrix(site, sigla)}
    return renderer.page("overview.md", context, lambda: context, "overview.md.jinja")


def _matrix(site: Site, sigla: list[str]) -> list[dict[str, Any]]:
    """The similarity of each pair of witnesses over the rows they share, and how many rows that is."""
    pairs = site.variance.matrix()
    return [
        {
            "siglum": a,
            "cells": [
                {
                    "self": a == b,
                    "sim": percent(pairs[a, b][0]) if (a, b) in pairs else None,
                    "rows": pairs[a, b][1] if (a, b) in pairs else 0,
                    "heat": level(1 - pairs[a, b][0]) if (a, b) in pairs else None,
                }
                for b in sigla
            ],
        }
        for a in sigla
    ]
