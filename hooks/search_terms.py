"""MkDocs hook: the search index, cheaply, with the register's names as single search terms.

Material's search cuts the Han text of every page into words when it builds the index (``jieba.cut`` per run
of Han characters), and its worker matches a query against those words. Three things here:

1. The segmenter. Material's ``jieba`` is replaced by ``rjieba`` (jieba's Rust port, the same dictionary): it
   loads in ~0.2 s where jieba takes 0.6-1.6 s, and cuts the seeds' pages in 0.02 s where jieba takes 0.5 s.
   The register's headwords, aliases, variants and titles, in both scripts, are added to it as words, so a
   name is one term (杨万春, not 杨 万春). The segmenter is made once per process and kept across the rebuilds
   of ``mkdocs serve``; the register is read afresh on every build, names it gained are added, and a name it
   lost makes a new segmenter. A page's index entries are kept too, and a rebuild reuses them while the
   page's HTML (and address, title, search options and the words) are unchanged, and a changed page's parts
   read before are not read again (``search_sections.CHUNKS``), nor its sentences cut again (``SEGMENTED``:
   a section's text is cut sentence by sentence, as Material's cutting of each run of Han letters alone
   allows). jieba itself is not installed: Material imports it when it can, which took 0.09 s of every cold
   build (with ``pkg_resources``). On broken input the edition hook reports it, and the index is built without
   the names.
2. The parser. Material cuts a page into sections with its ``Parser`` (``html.parser``), which was most of a
   rebuild of a large edition; ``edition.site.search_sections.FastParser`` gives the same sections, faster.
3. What the worker may show. The other-script copy of each run of text (``span.ed-alt``, hidden on the page)
   and a witness's catalogue (file name, title, description, lengths) stay in the index, so lunr finds a page
   in either script and by its metadata, but they are fenced with U+2063 (INVISIBLE SEPARATOR, which
   ``mkdocs.yml``'s search separator also splits at): the worker (docs/assets/javascripts/workers/
   edition-search.js) leaves the fenced parts out of its phrase matching and its snippets, so a snippet shows
   a sentence once, in the page's script, and a witness's snippet starts in its text, not in its metadata. A
   page is fenced again only when its HTML changed (``FENCED``).
"""

from __future__ import annotations

import copy
import hashlib
import logging
import os
import re
from pathlib import Path

from backrefs import bre
from mkdocs.plugins import event_priority

from edition.engine.convert import to_simplified, to_traditional
from edition.engine.resources import data_folders, load_resources
from edition.errors import EditionError
from edition.site.cache import SiteCache
from edition.site.search_sections import CHUNKS, FastParser

log = logging.getLogger("mkdocs.plugins.edition.search")
FENCE = "\u2063"  # around index text the worker must not show or phrase-match (edition-search.js: FENCE)
ALT = re.compile(r'(<span class="ed-alt"[^>]*>)(.*?)(</span>)', re.S)  # hidden: the fence goes inside
# a witness's catalogue and its list of episodes: the fence goes around them, in hidden spans (never copied)
META = re.compile(r'<(table|ul) class="ed-(?:catalogue|episodes)"[^>]*>.*?</\1>', re.S)
HIDDEN_FENCE = f"<span hidden>{FENCE}</span>"


def register_terms(seeds: Path, project: Path) -> list[str]:
    """Every name of every register entry, in both scripts, sorted; [] when the input cannot be read."""
    try:
        register = load_resources(data_folders(seeds, project)).register
    except EditionError:
        return []
    names = {n for e in register.entries for n in (e.name, *e.aliases, *e.variants, *e.titles)}
    return sorted(
        {form for n in names for form in (n, to_traditional(n), to_simplified(n)) if form and " " not in form}
    )


class Segmenter:
    """What Material's search plugin calls as ``jieba``: ``cut`` (of UTF-8 bytes, as Material passes them),
    ``load_userdict`` and ``set_dictionary`` (unused: the names come from ``use``)."""

    def __init__(self) -> None:
        self._jieba = None  # an rjieba.Jieba, made on first use
        self._words: frozenset[str] = frozenset()
        self.words_key = ""  # a digest of the words: the index entries' cache depends on it

    def use(self, words: list[str]) -> None:
        """From now on cut ``words`` whole (a new segmenter only when a word was dropped)."""
        import rjieba

        words_set = frozenset(words)
        if self._jieba is None:  # the instance rjieba made on import (a second one costs ~0.15 s more)
            self._jieba = rjieba.cut.__self__
        elif not self._words <= words_set:
            self._jieba, self._words = rjieba.Jieba(), frozenset()
        for word in sorted(words_set - self._words):
            self._jieba.add_word(word, None, None)
        self._words = words_set
        self.words_key = hashlib.sha256("\n".join(sorted(words_set)).encode("utf-8")).hexdigest()

    def cut(self, text: bytes | str) -> list[str]:
        if self._jieba is None:
            self.use([])
        return self._jieba.cut(text.decode("utf-8") if isinstance(text, bytes) else text)

    def load_userdict(self, path: str) -> None:
        self.use([*self._words, *Path(path).read_text(encoding="utf-8").split()])

    def set_dictionary(self, path: str) -> None:
        log.warning("edition: search.jieba_dict is ignored (the segmenter is rjieba with its own dictionary)")


SEGMENTER = Segmenter()  # kept for the life of the process: `mkdocs serve` rebuilds reuse it


class Entries:
    """The index entries of each page, kept across the rebuilds of `mkdocs serve`: a page whose HTML, address,
    title and search options are unchanged, cut with the same words, is not parsed and cut again. Entries not
    used by the last build are dropped after it (``end_build``)."""

    def __init__(self) -> None:
        self.kept: dict[tuple, list[dict]] = {}
        self.used: dict[tuple, list[dict]] = {}

    def key(self, page) -> tuple:
        meta = page.meta or {}
        options = repr((meta.get("search"), meta.get("tags"), meta.get("title")))
        content = hashlib.sha256(page.content.encode("utf-8")).hexdigest()
        return (page.url, str(page.title), options, content, SEGMENTER.words_key)

    def add(self, index, page, add) -> None:
        """``add(page)`` (Material's own), or the entries it made for the same key in an earlier build."""
        key = self.key(page)
        entries = self.used.get(key) or self.kept.get(key)
        if entries is None:
            before = len(index.entries)
            add(page)
            entries = copy.deepcopy(index.entries[before:])
        else:
            index.entries.extend(copy.deepcopy(entries))
        self.used[key] = entries

    def end_build(self) -> None:
        self.kept, self.used = self.used, {}


ENTRIES = Entries()


SEGMENTED = SiteCache()  # (the words, a section's title or text) -> it cut into words, as Material indexes it


def _cached_indexing(material_search) -> None:
    """Material's SearchIndex.add_entry_from_context through ENTRIES, its cutting of a section's text into words
    through SEGMENTED (a changed page is mostly sections read before), and its search plugin's stripping of a page
    through ``stripped``. Patched once per process; MkDocs holds a plugin's events from the config's loading, so
    the stripping is ``stripped`` from the second build of `mkdocs serve` on (the ones a save waits for)."""
    cls = material_search.SearchIndex
    if getattr(cls, "_edition_cached", False):
        return
    add = cls.add_entry_from_context

    def add_entry_from_context(self, page):
        ENTRIES.add(self, page, lambda p: add(self, p))

    def _segment_chinese(self, data):
        # Material cuts each run of Han letters alone, so a text cut after each 。 (no Han letter) is cut the same
        # piece by piece: a saved character changes the words of one sentence of a reading text, not of all
        pieces = [
            SEGMENTED.get((SEGMENTER.words_key, piece), lambda piece=piece: segment(piece))
            for piece in SENTENCE_END.split(data)
        ]
        return "".join(pieces).strip("\u200b")

    def on_page_context(self, context, *, page, config, nav):
        # Material's own (9.8.1) but for the stripping of the search attributes (``stripped``)
        if not self.config.enabled:
            return
        self.search_index.add_entry_from_context(page)
        page.content = stripped(page.content)

    cls.add_entry_from_context = add_entry_from_context
    cls._segment_chinese = _segment_chinese
    on_page_context.material = material_search.SearchPlugin.on_page_context  # what it replaces (tests compare)
    material_search.SearchPlugin.on_page_context = on_page_context
    cls._edition_cached = True


SEARCH_ATTRIBUTE = re.compile(r"data-search-\w+=\"[^\"]+\"")


def stripped(html: str) -> str:
    """``html`` without its search attributes with a value, as Material strips them (``re.sub`` of
    ``\\s?data-search-\\w+="[^"]+"``): the same matches, found from their first letters, each with the space
    before it. Material's pattern begins with an optional space, which keeps Python's matcher from skipping ahead to
    a letter it must see: a fifth of the rebuild of a large edition went to it."""
    out, pos = [], 0
    for m in SEARCH_ATTRIBUTE.finditer(html):
        start = m.start()
        if start > pos and html[start - 1].isspace():  # (a match ends with '"': never the space of the next)
            start -= 1
        out.append(html[pos:start])
        pos = m.end()
    out.append(html[pos:])
    return "".join(out)


SENTENCE_END = re.compile("(?<=。)")
HAN = bre.compile(r"(\p{script: Han}+)", bre.UNICODE)  # what Material's ``SearchIndex._segment_chinese`` cuts


def segment(data: str) -> str:
    """Material's ``SearchIndex._segment_chinese`` (mkdocs-material 9.8.1) with ``SEGMENTER``, but for its last step:
    the zero-width spaces at the ends are kept (a piece of a text: they are stripped from the whole)."""

    def replace(match):
        return "".join(["\u200b", "\u200b".join(SEGMENTER.cut(match.group(0))), "\u200b"])

    return HAN.sub(replace, data)


@event_priority(100)  # before Material's search plugin reads its options in its own on_config
def on_config(config):
    search = config.plugins.get("material/search")
    if search is None:
        return config
    from material.plugins.search import plugin as material_search

    material_search.Parser = FastParser
    project = Path(config.config_file_path).parent
    terms = register_terms(project / os.environ.get("EDITION_SEEDS", "seeds"), project)
    SEGMENTER.use(terms)
    material_search.jieba = SEGMENTER
    _cached_indexing(material_search)
    log.debug("edition: %d register names are search terms", len(terms))
    return config


def fence(html: str) -> str:
    """``html`` with the other-script copies and the witness's catalogue fenced (see the module's docstring)."""
    html = ALT.sub(lambda m: f"{m[1]}{FENCE}{m[2]}{FENCE}{m[3]}", html)
    return META.sub(lambda m: f"{HIDDEN_FENCE}{m[0]}{HIDDEN_FENCE}", html)


FENCED = SiteCache()  # a page's HTML -> it fenced: a rebuild fences only the pages that changed


def on_page_content(html: str, page, config, files) -> str:
    return FENCED.get((html,), lambda: fence(html))


def on_post_build(config) -> None:
    FENCED.end_build()
    ENTRIES.end_build()
    SEGMENTED.end_build()
    CHUNKS.end_build()
