"""Render the site's generated pages from the ``edition-export/2`` contract (docs/format.md) and the witness texts.

Python prepares plain data (dicts and lists of strings and numbers) for each page; the Jinja2 templates in
``templates/`` turn it into Markdown through one environment with autoescaping on (``templating``). The data of
a page sits in raw HTML blocks (block-level elements, each on one line), which Python-Markdown passes through
without reading them, so witness and catalogue text can never become Markdown (no emphasis, headings, links,
tables, attribute lists, snippets or footnotes). ``md_in_html`` is not enabled, so the blocks carry no
``markdown`` attribute.

One module per page kind: ``overview``, ``conventions`` (凡例), ``episodes``, ``witnesses``, ``register``,
``search_data`` (the search's character folding) and ``error`` (the stand-ins while the input is broken), over
shared pieces: ``site_index`` (the export indexed for the pages), ``notes`` and ``apparatus`` (what a note
marks and how a page lists it), ``text_pieces`` (witness text as marked pieces), ``paths`` and ``labels``.

Pure functions: the same export gives byte-identical pages. Each page, and each piece of one (a row of an episode's
table, a note of an apparatus, a paragraph of a reading text, a register entry), is kept in the cache passed in
(``mkdocs serve`` passes one that lives across rebuilds), keyed by a digest of exactly what it is made from and of
the templates, so after an edit to one witness only the pieces whose input changed are rendered again. What a note
added anywhere changes on every page -- the notes' ids and numbers -- is left out of the pieces as stand-ins and
filled in as the page is put together (``templating.fill``); script conversions are cached too (``script_forms``).
"""

from __future__ import annotations

from ..engine.cache import Cache
from ..engine.exported import EditionJson
from ..engine.pipeline import collector_paused
from .cache import SiteCache
from .conventions import render_conventions
from .episodes import render_episode
from .error import render_error
from .overview import render_overview
from .paths import SEARCH_DATA, episode_page, witness_page
from .register import render_register
from .search_data import search_folding
from .site_index import Site
from .templating import Renderer
from .witnesses import render_witness

__all__ = ["render_error", "render_site"]


@collector_paused()
def render_site(
    export: EditionJson, texts: dict[str, str], cache: Cache | None = None, variants: dict[str, str] | None = None
) -> dict[str, str]:
    """Every generated file, path → content, in reading order: overview, 凡例, episodes, witnesses, register,
    and the search's folding table (``assets/edition-search.json``).

    ``cache`` (a ``SiteCache``, kept across the rebuilds of ``mkdocs serve``) holds the pages, the rows
    and the script conversions; without one, a throwaway cache still converts each distinct run once.
    ``variants`` is the edition's variant table (the engine's generic one when not given): the episode pages'
    two-witness comparison folds script and variant forms with it, as the collation does. The cyclic garbage
    collector is paused, as for the engine's build: the render makes millions of short-lived objects beside a
    cache of millions more, and each full collection walks them all (a fifth of the render at 10 x 50k)."""
    renderer = Renderer(cache if cache is not None else SiteCache())
    renderer.forms.keep(texts.values())
    site = Site(export, renderer.forms, variants)
    out = {"overview.md": render_overview(renderer, site, texts), "conventions.md": render_conventions(renderer, site)}
    for k, ep in enumerate(export["episodes"]):
        out[episode_page(ep["id"])] = render_episode(renderer, site, ep, k)
    for i, w in enumerate(export["witnesses"]):
        out[witness_page(w["siglum"], i)] = render_witness(renderer, site, w, i, texts[w["siglum"]])
    out["register.md"] = render_register(renderer, site)
    out[SEARCH_DATA] = search_folding(renderer.forms, texts, export)
    return out
