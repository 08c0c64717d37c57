"""The one Jinja2 environment of the site, and rendering through the cache.

Every template (``templates/*.md.jinja`` pages, ``macros.html.jinja`` the pieces they share) is loaded by one
environment with autoescaping on: every value a template prints is HTML-escaped unless it is the output of a
macro (already escaped by its template) or an editor's note made safe by ``editor_notes``. Nothing else is
marked safe.

A page, or a piece of one (a row, a list of notes), is kept in the cache under a digest of exactly what it is
made from and of the templates: a key can never serve an older rendering, and ``mkdocs serve`` renders again
only what an edit reaches.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import jinja2

from ..engine.cache import Cache, digest
from .script_forms import ScriptForms

TEMPLATES = Path(__file__).parent / "templates"
T = TypeVar("T")
# Characters a YAML double-quoted scalar does not keep as they are: PyYAML refuses them, or reads them as
# line breaks (folded into spaces) or white space that folding may strip.
_YAML_UNSAFE = re.compile("[^\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]|[\u2028\u2029]")


def _yaml_quoted(value: str) -> str:
    """The inside of a YAML double-quoted scalar holding ``value``: backslashes and the characters YAML
    does not take raw (or reads as line breaks) escaped. Autoescaping then HTML-escapes it like any
    value, which YAML keeps: the page title reaches MkDocs HTML-escaped, as its themes insert it as HTML."""
    return _YAML_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", value.replace("\\", "\\\\"))


# Compiled templates kept between processes (Jinja's own per-user folder in the temp directory, keyed by each
# template's source): a cold `mkdocs build` compiled all of Material's and ours again, a tenth of its time.
BYTECODE = jinja2.FileSystemBytecodeCache()

ENV = jinja2.Environment(
    loader=jinja2.FileSystemLoader(TEMPLATES),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
    auto_reload=False,  # templates are read once per process, like this module; the cache keys include them
    bytecode_cache=BYTECODE,
)
ENV.filters["yaml_quoted"] = _yaml_quoted
MACROS = ENV.get_template("macros.html.jinja").module  # its macros, called from Python for cached fragments
# The templates are part of every page's input: a key made with them can never serve an older rendering.
TEMPLATES_DIGEST = digest("\0".join(f"{p.name}\0{p.read_text('utf-8')}" for p in sorted(TEMPLATES.glob("*.jinja"))))


def stand_in(name: str) -> str:
    """What a macro prints in place of a value filled in after (``fill``): a note's id or number, which a note added
    before it changes. No input holds a NUL (a witness file with a control character is refused by
    ``load.decode``, a YAML file with one by PyYAML), so no text of the edition can match it."""
    return f"\0{name}\0"


def fill(html: str, values: dict[str, str]) -> str:
    """A macro's output with its stand-ins replaced by their values, escaped (``_escaped``), in one pass: its pieces
    between NULs, every other one a stand-in's name (a reading text at 10 x 50k fills some 40,000 stand-ins a build).

    The result is markup as a plain string, which Markup's own operations would escape again (and make a Markup of
    every piece: two thirds of a rebuild's render): it goes into a page only by ``put``."""
    pieces = str.split(html, "\0")
    pieces[1::2] = [_escaped(values[name]) for name in pieces[1::2]]
    return "".join(pieces)


def put(html: str, parts: dict[str, list[str]]) -> list[str]:
    """A template's output cut at the stand-ins it printed for ``parts`` (each a list of pieces of markup made by
    ``fill``), with the pieces in their place, to be joined once by the page: a witness page is 3 MB (12 MB in
    memory with one character beyond the BMP), and each copy of it takes as long as filling all its stand-ins."""
    out = []
    for i, piece in enumerate(str.split(html, "\0")):
        if i % 2:
            out.extend(parts[piece])
        else:
            out.append(piece)
    return out


@functools.lru_cache(maxsize=1 << 16)
def _escaped(value: str) -> str:
    """A value as a template prints it (the ``value`` macro escapes it); ids and numbers repeat on every page."""
    return str(MACROS.value(value))


def _key(what: str, name: str, inputs: Any) -> tuple:
    """A cache key made of everything a page or a fragment is rendered from, and of the templates."""
    data = json.dumps(inputs, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return (what, name, TEMPLATES_DIGEST, digest(data))


class Renderer:
    """Renders pages and their pieces through ``cache``, and converts text between scripts (``forms``)."""

    def __init__(self, cache: Cache) -> None:
        self.cache = cache
        self.forms = ScriptForms(cache)
        self._made: dict[tuple, Any] = {}

    def once(self, key: tuple, make: Callable[[], T]) -> T:
        """``make()``, made once per render (a renderer lives for one): what several pages of a build share."""
        if key not in self._made:
            self._made[key] = make()
        return self._made[key]

    def page(
        self, path: str, inputs: Any, context: Callable[[], dict[str, Any]], template: str, parts: tuple[str, ...] = ()
    ) -> str:
        """A page rendered from ``context()``, or taken from the cache when its ``inputs`` are unchanged. ``parts``
        names the entries of the context that are lists of markup made by ``fill``: the template prints a stand-in
        for each, replaced by it after (``put``)."""

        def render() -> str:
            data = context()
            html = ENV.get_template(template).render({**data, **{name: stand_in(name) for name in parts}})
            return "".join(put(html, {name: data[name] for name in parts}))

        return self.cache.get(_key("site-page", path, inputs), render)

    def fragment(self, kind: str, inputs: Any, render: Callable[[], T]) -> tuple[str, T]:
        """A piece of a page rendered by a macro, and its key's digest. A macro returns ``Markup`` (escaped
        by its template), which the page template then prints as it is; a piece with stand-ins filled in is markup
        in plain strings, which the page puts in after (``page``'s ``parts``)."""
        key = _key("site-fragment", kind, inputs)
        return key[-1], self.cache.get(key, render)
