"""MkDocs hook: build the edition once per build and add its pages as generated files.

A thin adapter between MkDocs and ``edition``: the engine builds the edition, ``edition.site``
turns the export into pages, and this module only wires them in, logs, and handles bad input.

The seeds folder is ``seeds`` next to ``mkdocs.yml``, or the folder named by the environment
variable ``EDITION_SEEDS`` (used by the tests to build the site from other witnesses); data files
that folder lacks (``episodes.yaml`` …) are taken from ``seeds`` next to ``mkdocs.yml``.

Every data file is read again on every build; the cache (kept for the life of the process, so
across the rebuilds of ``mkdocs serve``) is keyed by content and never serves stale results. It also
keeps what MkDocs' Markdown conversion made of each page (``PageRenders``): MkDocs converts every page
on every build, and Python-Markdown reads a generated page's HTML twice (half a seeds rebuild). A page that is
raw HTML only (an episode's, a witness's: megabytes at 10 x 50k) is not converted at all (``raw_html.as_html``).

Bad input (``EditionError``): ``mkdocs build`` fails with one message naming the file; under
``mkdocs serve`` the build goes on with the last good build's pages and downloads, every page
showing the message above its text (``edition.site.error.LastGoodSite``), because MkDocs'
live-reload server keeps serving the last good site when a rebuild raises ("the server will
appear stuck"), and the next good save rebuilds the edition.
"""

from __future__ import annotations

import copy
import logging
import os
import time
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure import pages as mkdocs_pages
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

from edition.engine.cache import digest
from edition.engine.export import to_dict, to_json
from edition.engine.pipeline import build
from edition.engine.resources import data_folders, load_resources
from edition.errors import EditionError
from edition.interchange.aside import Aside, tei_aside
from edition.interchange.schema import NAME as SCHEMA
from edition.interchange.schema import schema_text
from edition.site.cache import SiteCache
from edition.site.error import LastGoodSite
from edition.site.parameters import MARKER as PARAMETERS
from edition.site.parameters import parameters_table
from edition.site.raw_html import as_html
from edition.site.render import render_site
from edition.site.templating import BYTECODE

log = logging.getLogger("mkdocs.plugins.edition")
_state = {"command": "build"}  # set once per process
_cache = SiteCache()  # keyed by content: survives rebuilds on purpose
_last_good = LastGoodSite()  # what `serve` shows while the input is broken
GENERATED = ("episodes/", "witnesses/")  # nav sections this hook fills
TEI = "edition.xml"


def on_startup(command: str, dirty: bool) -> None:
    _state["command"] = command


def on_env(env, config, files):
    """The theme's templates compiled once per machine, as the edition's are (``templating.BYTECODE``)."""
    env.bytecode_cache = BYTECODE
    return env


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
    """Generated pages and the downloads: the export JSON and the schema, the TEI being made aside
    (``_state["tei"]``, added by ``on_files``); the last good build's, TEI included, when the input is broken under
    `serve`."""
    project = _project(config)
    seeds = _seeds(config)
    _state.pop("tei", None)
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
    texts = {w.siglum: w.text for w in edition.witnesses}
    data = to_json(export)
    # the TEI takes seconds on a large edition: made again only when the export or a text has changed, and then
    # beside this process's rendering (``tei_aside``), to be collected when MkDocs writes the files (``_Aside``)
    site = (config.site_name, config.site_url)
    key = ("tei", digest(data), *(digest(t) for t in texts.values()), *site)
    _state["tei"] = _cache.get(key, partial(tei_aside, export, data, texts, *site))
    t0 = time.perf_counter()
    pages = render_site(export, texts, _cache, resources.variants)
    log.info("edition: %-9s %.2f s (%d pages)", "render", time.perf_counter() - t0, len(pages))
    downloads = {"edition.json": data, SCHEMA: schema_text()}
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
    tei = _state.pop("tei", None)
    if tei is not None:
        files.append(_Aside(config, TEI, tei))
    if config.nav:
        config.nav = _sync_nav(config.nav, list(pages))
    config.extra["edition_downloads"] = bool(downloads)  # none yet: overrides/main.html shows no links to them
    return files


class _Aside(File):
    """A download made aside (``tei_aside``): collected when it is first read, which is when MkDocs copies the
    files, after the pages' Markdown is converted; kept as the last good build's (a broken build under ``serve``
    publishes it again)."""

    def __init__(self, config, path: str, made: Aside) -> None:
        super().__init__(path, src_dir=None, dest_dir=config.site_dir, use_directory_urls=config.use_directory_urls)
        self.generated_by, self.abs_src_path, self.made = "edition", None, made

    @property
    def _content(self) -> bytes:  # what ``File`` reads its content from
        made = _last_good.downloads[self.src_uri] = self.made.result()
        return made


@dataclass(frozen=True)
class Rendered:
    """What ``Page.render`` leaves on a page, and what it logged (a broken link's warning)."""

    content: str
    toc: object
    title: str | None
    anchors: AbstractSet[str] | None
    links: dict[str, dict[str, str]] | None  # linked page's src_uri -> {anchor: link}
    records: tuple[logging.LogRecord, ...]


class _Records(logging.Handler):
    """Every log record while it is attached (to the root and to ``mkdocs``, which need not propagate)."""

    def __init__(self) -> None:
        super().__init__()
        self.records: dict[int, logging.LogRecord] = {}

    def emit(self, record: logging.LogRecord) -> None:
        self.records[id(record)] = record


class PageRenders:
    """MkDocs' ``Page.render`` (Markdown to HTML) through the site cache, so a ``serve`` rebuild converts only the
    pages whose Markdown changed. Keyed by everything the conversion reads: the page's Markdown (after
    ``on_page_markdown``), its source and address, every file's source, address and inclusion (links are
    resolved against them) and the Markdown extensions with their settings and the validation levels; set
    per build in ``on_nav``, when the files are final. A page taken from the cache logs again what its
    conversion logged (``mkdocs build --strict`` counts the warnings), and its links point to this build's
    files."""

    def __init__(self) -> None:
        self.build_key: tuple | None = None  # None outside a build this hook set up: render as MkDocs does
        self._render = Page.render

    def start(self, config, files: Files) -> None:
        listed = "\n".join(f"{f.src_uri}\t{f.dest_uri}\t{f.url}\t{f.inclusion}" for f in files)
        settings = repr((config.markdown_extensions, config.mdx_configs, config.validation))
        self.build_key = (digest(listed), digest(settings))

    def render(self, page: Page, config, files: Files) -> None:
        if self.build_key is None or page.markdown is None:
            self._render(page, config, files)
            return
        key = ("mkdocs-render", page.file.src_uri, page.file.url, digest(page.markdown), *self.build_key)
        ran = []

        def convert() -> Rendered:
            ran.append(True)
            return self._converted(page, config, files)

        done = _cache.get(key, convert)
        if ran:
            return
        page.content, page.toc, page._title_from_render = done.content, copy.deepcopy(done.toc), done.title
        page.present_anchor_ids = done.anchors  # read only (``validate_anchor_links``)
        if done.links is not None:
            page.links_to_anchors = {files.get_file_from_path(src): dict(a) for src, a in done.links.items()}
        for record in done.records:
            logging.getLogger(record.name).handle(record)

    def _converted(self, page: Page, config, files: Files) -> Rendered:
        catch = _Records()
        loggers = (logging.getLogger(), logging.getLogger("mkdocs"))
        for logger in loggers:
            logger.addHandler(catch)
        try:
            if not _as_html(page):
                self._render(page, config, files)
        finally:
            for logger in loggers:
                logger.removeHandler(catch)
        links = page.links_to_anchors
        return Rendered(
            page.content,
            copy.deepcopy(page.toc),
            page._title_from_render,
            page.present_anchor_ids,
            None if links is None else {f.src_uri: dict(a) for f, a in links.items()},
            tuple(catch.records.values()),
        )


def _as_html(page: Page) -> bool:
    """A page of raw HTML only, rendered without Markdown (``raw_html.as_html``), as ``Page.render`` leaves it;
    False for any other page."""
    html = as_html(page.markdown or "")
    if html is None:
        return False
    raw_ids = mkdocs_pages._RawHTMLPreprocessor()  # its anchors, as MkDocs reads them
    raw_ids.run(page.markdown.split("\n"))
    page.content, page.toc, page._title_from_render = html, get_toc([]), None
    page.present_anchor_ids = set() | raw_ids.present_anchor_ids
    if mkdocs_pages.log.getEffectiveLevel() > logging.DEBUG:
        page.links_to_anchors = {}
    return True


_renders = PageRenders()


def _render(page: Page, config, files: Files) -> None:
    _renders.render(page, config, files)


Page.render = _render  # every page renders through the cache; outside this hook's builds as MkDocs does


def on_nav(nav, config, files: Files):
    _renders.start(config, files)
    return nav


def on_post_build(config) -> None:
    _renders.build_key = None


def on_page_markdown(markdown: str, page, config, files) -> str:
    """While the input is broken (`serve`), every page says so above its text; the method page lists the
    engine's parameters."""
    markdown = markdown.replace(PARAMETERS, _state.get("parameters", ""))
    return _last_good.with_error(markdown, page.file.src_uri)
