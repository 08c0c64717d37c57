"""MkDocs hook: build the edition once per build and add its pages as generated files.

A thin adapter between MkDocs and ``edition``: the engine builds the edition, ``edition.site``
turns the export into pages, and this module only wires them in, logs, and handles bad input.

The seeds folder is ``seeds`` next to ``mkdocs.yml``, or the folder named by the environment
variable ``EDITION_SEEDS`` (used by the tests to build the site from other witnesses); data files
that folder lacks (``episodes.yaml`` …) are taken from ``seeds`` next to ``mkdocs.yml``.

Every data file is read again on every build; the cache (kept for the life of the process, so
across the rebuilds of ``mkdocs serve``) is keyed by content and never serves stale results.

Bad input (``EditionError``): ``mkdocs build`` fails with one message naming the file; under
``mkdocs serve`` the build goes on with the last good build's pages and downloads, every page
showing the message above its text (``edition.site.error.LastGoodSite``), because MkDocs'
live-reload server keeps serving the last good site when a rebuild raises ("the server will
appear stuck"), and the next good save rebuilds the edition.
"""

from __future__ import annotations

import logging
import os
import time
from functools import partial
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

from edition.engine.cache import digest
from edition.engine.export import to_dict, to_json
from edition.engine.pipeline import build
from edition.engine.resources import data_folders, load_resources
from edition.errors import EditionError
from edition.interchange import published
from edition.site.cache import SiteCache
from edition.site.error import LastGoodSite
from edition.site.parameters import MARKER as PARAMETERS
from edition.site.parameters import parameters_table
from edition.site.render import render_site

log = logging.getLogger("mkdocs.plugins.edition")
_state = {"command": "build"}  # set once per process
_cache = SiteCache()  # keyed by content: survives rebuilds on purpose
_last_good = LastGoodSite()  # what `serve` shows while the input is broken
GENERATED = ("episodes/", "witnesses/")  # nav sections this hook fills


def on_startup(command: str, dirty: bool) -> None:
    _state["command"] = command


def _project(config) -> Path:
    return Path(config.config_file_path).parent


def _seeds(config) -> Path:
    return _project(config) / os.environ.get("EDITION_SEEDS", "seeds")


def on_serve(server, config, builder):
    """Rebuild on a save in the seeds folder built, which mkdocs.yml's ``watch:`` (``seeds``) names only by default.

    A folder that is not there cannot be watched (watchdog would stop the server): the pages say it is missing."""
    if _seeds(config).is_dir():
        server.watch(str(_seeds(config)))
    return server


def _pages(config, files: Files) -> tuple[dict[str, str], dict[str, str | bytes]]:
    """Generated pages and the downloads: the export JSON, the TEI and the schema (the last good build's when the
    input is broken under `serve`)."""
    project = _project(config)
    seeds = _seeds(config)
    try:
        resources = load_resources(data_folders(seeds, project))
        _state["parameters"] = parameters_table(resources.params)
        edition = build(seeds, resources, _cache)
    except EditionError as err:
        if _state["command"] != "serve":
            raise PluginError(f"edition: {err}") from err
        log.error("edition: %s", err)
        listed = [p for p in _nav_paths(config.nav or []) if files.get_file_from_path(p) is None]
        return _last_good.broken(str(err), listed)
    for warning in edition.warnings:
        log.warning("edition: %s", warning)
    for stage, seconds in edition.timings.items():
        log.info("edition: %-9s %.2f s", stage, seconds)
    export = to_dict(edition)
    t0 = time.perf_counter()
    texts = {w.siglum: w.text for w in edition.witnesses}
    pages = render_site(export, texts, _cache, resources.variants)
    log.info("edition: %-9s %.2f s (%d pages)", "render", time.perf_counter() - t0, len(pages))
    data = to_json(export)
    # the TEI takes seconds on a large edition: made again only when the export or a text has changed
    site = (config.site_name, config.site_url)
    key = ("published", digest(data), *(digest(t) for t in texts.values()), *site)
    downloads = {"edition.json": data, **_cache.get(key, partial(published, export, texts, *site))}
    _last_good.good(pages, downloads)
    return pages, downloads


def _nav_paths(nav: list) -> list[str]:
    """Every page the nav names (not its links to other sites)."""
    out = []
    for item in nav:
        value = next(iter(item.values())) if isinstance(item, dict) else item
        if isinstance(value, list):
            out += _nav_paths(value)
        elif isinstance(value, str) and value.endswith(".md"):
            out.append(value)
    return out


def _sync_nav(nav: list, paths: list[str]) -> list:
    """Each nav section of generated pages lists exactly the pages generated now, in narrative order."""
    out = []
    for item in nav:
        if isinstance(item, dict):
            ((title, value),) = item.items()
            if isinstance(value, list):
                prefixes = {v.split("/")[0] + "/" for v in value if isinstance(v, str)}
                if len(prefixes) == 1 and prefixes <= set(GENERATED):
                    (prefix,) = prefixes
                    value = [p for p in paths if p.startswith(prefix)]
                else:
                    value = _sync_nav(value, paths)
            item = {title: value}
        out.append(item)
    return out


def on_files(files: Files, config) -> Files:
    try:
        pages, downloads = _pages(config, files)
    finally:
        _cache.end_build()
    for path, content in {**pages, **downloads}.items():
        files.append(File.generated(config, path, content=content))
    if config.nav:
        config.nav = _sync_nav(config.nav, list(pages))
    config.extra["edition_downloads"] = bool(downloads)  # none yet: overrides/main.html shows no links to them
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    """While the input is broken (`serve`), every page says so above its text; the method page lists the
    engine's parameters."""
    markdown = markdown.replace(PARAMETERS, _state.get("parameters", ""))
    return _last_good.with_error(markdown, page.file.src_uri)
