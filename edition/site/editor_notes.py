"""The editor's notes: Markdown written by a person, turned into HTML that can carry no markup of its own.

The one place on the site where HTML is made from text rather than escaped: Python-Markdown converts the
note with its raw-HTML readers switched off (an editor's ``<b>`` or ``<script>`` is shown as text), then
``nh3`` (the Ammonia sanitiser) keeps only the elements and attributes listed here, and links only to
relative addresses or http(s)/mailto: no script, no style, no event handler, no ``javascript:`` link.
An image is shown as its alt text: the site loads nothing a note points to (a tracking pixel, a picture
that will move), but the words the editor gave it stay. A note nested too deep for Python-Markdown is shown
as typed.
Line breaks between Chinese characters are joined first (``cjk.join_lines``), as on the hand-written pages.
The result is a single line, so it can sit inside the one-line raw HTML blocks of the generated pages.

An editor's fact begins with the 某本作某 of the witnesses' words, which the export holds as written: they are
data, not the editor's Markdown, and ``editor_markdown`` escapes them before the note is converted.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree

import markdown
import nh3
from markdown.treeprocessors import Treeprocessor
from markupsafe import Markup, escape

from ..engine.exported import NoteJson
from ..engine.model import Reading
from ..engine.quoting import words
from .cjk import join_lines
from .notes import editor_fact

TAGS = {"p", "br", "em", "strong", "code", "pre", "a", "ul", "ol", "li", "blockquote", "sup", "sub", "del"}
ATTRIBUTES = {"a": {"href", "title"}}
SCHEMES = {"http", "https", "mailto"}

# what Markdown would read as markup in a witness's words (Python-Markdown's escapable characters); raw HTML is
# never read (``_converter``)
_MARKDOWN = re.compile(r"([\\`*_{}\[\]()>#+\-.!])")


class _AltText(Treeprocessor):
    """Each ``<img>`` replaced by its alt text (run after the inline patterns have made the images)."""

    def run(self, root: etree.Element) -> None:
        for parent in list(root.iter()):
            for i in reversed(range(len(parent))):
                image = parent[i]
                if image.tag != "img":
                    continue
                text = (image.get("alt") or "") + (image.tail or "")
                if i:
                    parent[i - 1].tail = (parent[i - 1].tail or "") + text
                else:
                    parent.text = (parent.text or "") + text
                parent.remove(image)


def _converter() -> markdown.Markdown:
    md = markdown.Markdown(extensions=[])
    md.preprocessors.deregister("html_block")  # raw HTML blocks stay text
    md.inlinePatterns.deregister("html")  # and so do inline tags
    md.treeprocessors.register(_AltText(md), "alt_text", 15)  # after "inline" (20)
    return md


def editor_html(text: str) -> Markup:
    """The note as safe HTML on one line (newlines kept as character references, for ``<pre>``)."""
    try:
        html = _converter().convert(join_lines(text))
    except RecursionError:  # Python-Markdown recurses per level: some 500 nested lists, which no note needs
        html = f"<p>{escape(text)}</p>"
    clean = nh3.clean(html, tags=TAGS, attributes=ATTRIBUTES, url_schemes=SCHEMES, link_rel="noopener noreferrer")
    return Markup(clean.strip().replace("\r", "").replace("\n", "&#10;"))  # sanitised by nh3 above


def editor_markdown(note: NoteJson) -> str:
    """The Markdown of an editor's note. An editor's fact's text begins with the 某本作某 of its readings as the
    engine words it (``quoting.words``), the witnesses' words as written: each is escaped here, so Markdown shows
    縑*百*匹 as written; the fact's label and the editor's words after the 某本作某 are the editor's Markdown."""
    if not editor_fact(note):
        return note["text"]
    readings = tuple(
        Reading(tuple(r["sigla"]), r["text"], r["spans"], named=r.get("named", True)) for r in note["readings"]
    )
    stated = words(note["label"], readings)
    escaped = words(note["label"], readings, escape=lambda w: _MARKDOWN.sub(r"\\\1", w))
    return escaped + note["text"][len(stated) :]
