"""Material's search parser (mkdocs-material 9.8.1, ``material.plugins.search.plugin.Parser``), with the same
sections from a page's HTML in a fraction of the time when the markup is of a plain kind, as every page's is.

Material indexes a page by feeding its HTML to ``Parser``, an ``html.parser.HTMLParser`` that cuts it into
sections at the headings and keeps their text. At 10 witnesses of 50k characters that was most of a
``mkdocs serve`` rebuild, and a third of a cold ``mkdocs build`` of the seeds: the pure-Python tokeniser reads
every attribute of every tag, and the parser compares ``Element`` objects (by tag, in Python) on every tag and
text. ``FastParser.feed`` finds the tags with one regular expression, reads a tag's attributes only where the
parser would look at them, and keeps the parser's state as tags (its elements compare by tag alone, so this
is the same state); its handlers are Material's, line for line. On markup of another kind it leaves the page to
Material's parser.

The plain kind, on which ``HTMLParser`` calls ``handle_data(unescape(text))`` once for each text between two
tags, ``handle_starttag(name, [(attribute, unescape(value) or value, or None), …])`` (then ``handle_endtag``
for ``/>``) and ``handle_endtag(name)``: every ``<`` opens a start tag (a lower-case name, then attributes
each a lower-case name alone or ``name="value"`` with no ``<`` or ``>`` in the value, then ``>`` or ``/>``)
or an end tag (``</name>``), and there is no ``<script>`` or ``<style>`` (whose text ``HTMLParser`` reads
otherwise). ``tests/test_search_sections.py`` checks both parsers agree on every page of the site.

Under ``mkdocs serve`` one saved character changes every witness page (a note quoting it is listed on each), and
the search read each of them again whole: at 10 witnesses of 50k characters, a third of a rebuild. So a page is
read in parts, each from a heading with an id (``<h2 id="notes">``: a witness's 校勘記), and a part read before
from the same state gives its sections again (``CHUNKS``, kept across the rebuilds of ``mkdocs serve``). The
state where a part begins is the same wherever no element is open: sections made before it or not, and one
of them current, which the part never touches -- it begins with a heading, which makes a section, and the parser
goes back to an earlier section only when an element holding a deeper heading is closed, which a heading
with nothing open around it never is.

A witness's reading text is one section, and a saved character changes its marks' numbers from there on: so a
page is cut also at each paragraph, table row and list item (``_INNER``), and such a part read before inside a
section, in the same state, gives its words again (``Inside``). That state is what reading the part can depend
on: the open elements, which are permalinks, the tags skipped, the section's heading and depth, and of its title
and text only what ``_end`` and ``_text`` read (``Marks``: whether the last word is white space, and whether a word
follows each kept tag's first opening). A part that makes a section, closes an element opened before it, or
changes the words before it is read in place.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from html import escape, unescape
from html.parser import HTMLParser

from material.plugins.search.plugin import Element, Parser, Section, void

from edition.site.cache import SiteCache

_SPACE = "[ \t\n\r\f]"  # where HTMLParser ends a tag's name (with "/" and ">"): not other white space
# A text (maybe empty) and what follows it: the name, attributes and "/" of a start tag, the name of an end tag,
# the end of the page, or a "<" that opens no tag of the plain kind. Linear: the text is never read again.
_PIECE = re.compile(
    rf'([^<]*+)(?:<(?:([a-z][a-z0-9]*)((?:{_SPACE}+[a-z_:][-a-z0-9_:.]*(?:="[^"<>]*")?)*){_SPACE}*(/?)'
    r"|/([a-z][a-z0-9]*))>|\Z|(<))"
)
_ATTRIBUTE = re.compile(r'([a-z_:][-a-z0-9_:.]*)(?:(=)"([^"<>]*)")?')
_CDATA = frozenset(HTMLParser.CDATA_CONTENT_ELEMENTS)
_HEADINGS = frozenset(f"h{x}" for x in range(1, 7))
# A tag's attributes are read when the parser looks at them: a heading's (its id, its element), a link's (a
# permalink's class), and any holding a key or value the parser acts on (or a character reference, which may
# spell one).
_READ = re.compile("data-search-exclude|linenodiv|&")
# where a part of a page may begin: a heading with an id (whether nothing is open there is known once read)
_PART = re.compile(rf'<h[1-6](?:{_SPACE}[^<>]*?)?{_SPACE}id="')
# where a part of a page may begin inside a section: a paragraph, a table's row, an item of a list (read alone
# where the state it begins in was met before, ``Inside``)
_INNER = re.compile(rf"<(?:p|tr|li)(?:{_SPACE}|>)")
# what a page is read as, the same words as it gives (``masked``): the text of an element left out of the search,
# and the values of attributes the parser never reads, outside a heading's own tag
_EXCLUDED = re.compile(
    rf"(<(a|span){_SPACE}(?:[^<>d]++|d(?!ata-search-exclude))*+data-search-exclude(?:{_SPACE}[^<>]*)?>)[^<]*+(</\2>)"
)
_UNREAD = tuple((re.compile(f' {name}="[^"<>&]+"'), f' {name}=""') for name in ("href", "title", "data-notes", "id"))
_HEADING_TAG = re.compile(rf"(<h[1-6](?:{_SPACE}[^<>]*)?>)")
_SKIP = frozenset(Parser().skip)
_KEPT = frozenset(f"<{tag}>" for tag in Parser().keep)  # a kept tag's opening, as a section's words hold it
CHUNKS = SiteCache()  # a part and the state it begins in -> what reading it there gives (``Alone``, ``Inside``)


def _attributes(raw: str) -> dict[str, str | None]:
    """``dict(attrs)`` of the tag whose attributes are ``raw``, as ``Parser.handle_starttag`` makes it."""
    return {name: (unescape(value) if value else value) if eq else None for name, eq, value in _ATTRIBUTE.findall(raw)}


class FastParser(Parser):
    """Material's ``Parser``; a fresh one fed a page of the plain kind reads it without ``HTMLParser``."""

    def feed(self, data: str) -> None:
        fresh = not (self.rawdata or self.context or self.data or self.section)
        if not (fresh and self.skip == _SKIP):
            super().feed(data)
            return
        self._begin()
        self.itself = True  # (its tests ask) whether it read the page itself, not Material's parser
        page, data = data, masked(data)  # the same words (``masked``), and the parts read before more often
        heads = {m.start() for m in _PART.finditer(data)}
        cuts = sorted({0, len(data), *heads, *(m.start() for m in _INNER.finditer(data))})
        for a, b in itertools.pairwise(cuts):
            part = data[a:b]
            if a in heads and not self._tags and self._skipped == _SKIP:  # nothing open: a part read alone
                made = bool(self.data)
                alone = CHUNKS.get((part, made), lambda part=part, made=made: _alone(part, made))
                if alone is not None and alone.clean:
                    self._take(alone)
                    continue
            elif self.section is not None and self.data[-1] is self.section:  # inside the last section
                state = self._state()
                inside = CHUNKS.get(("in", part, state), lambda part=part, state=state: _inside(part, state))
                if inside is not None:
                    self._extend(inside)
                    continue
            pieces = _PIECE.findall(part)
            if not _is_plain(pieces):
                Parser.__init__(self)  # as fresh: the whole page to Material's parser
                self.itself = False
                super().feed(page)
                return
            self._run(pieces)
        self.context = [Element(tag) for tag in self._tags]
        self.skip = set(self._skipped)

    def _begin(self) -> None:
        self._tags: list[str] = []  # the context's tags, innermost last
        self._links: list[bool] = []  # per element of the context: a permalink (<a class="headerlink">)
        self._permalinks = 0  # of them, in the context
        self._open: dict[str, int] = {}  # elements of the context per tag: `x in context` compares tags
        self._skipped = set(_SKIP)
        self._hidden = 0  # elements of the context whose tag is skipped: ``self.skip.intersection(self.context)``
        self._marks: dict[int, Marks] = {}  # per list of a section's title or text (by id): what ``_end`` reads

    def _state(self) -> State:
        """What reading a part inside the current section depends on (``State``)."""
        sec = self.section
        return (
            tuple(self._tags),
            tuple(self._links),
            tuple(sorted(self._skipped)),
            sec.el.tag,
            sec.depth,
            self._marks_of(sec.title).state(),
            self._marks_of(sec.text).state(),
        )

    def _marks_of(self, items: list[str]) -> Marks:
        marks = self._marks.get(id(items))
        if marks is None:
            marks = self._marks[id(items)] = Marks()
        marks.read(items)
        return marks

    def _extend(self, inside: Inside) -> None:
        """A part read before inside a section in this state: its words added, the context as it leaves it."""
        self.section.title.extend(inside.title)
        self.section.text.extend(inside.text)
        self._context(*inside.end)

    def _context(self, tags: tuple[str, ...], links: tuple[bool, ...], skipped: tuple[str, ...]) -> None:
        """The context set to these open tags, permalinks and tags skipped, with what follows from them."""
        self._tags, self._links, self._skipped = list(tags), list(links), set(skipped)
        self._permalinks = sum(links)
        self._open = dict(Counter(tags))
        self._hidden = sum(self._open.get(tag, 0) for tag in self._skipped)

    def _run(self, pieces: list[tuple[str, ...]]) -> None:
        """``HTMLParser.feed`` of a page (or a part) cut into ``pieces`` (``_PIECE``), calling Material's handlers
        (mirrored: see ``_start``, ``_end``, ``_text``)."""
        for text, name, raw, closed, end, _ in pieces:
            if text:
                self._text(unescape(text))
            if end:
                self._end(end)
            elif name:
                self._start(name, raw)
                if closed:
                    self._end(name)

    def _take(self, alone: Alone) -> None:
        """The sections of a part read before (copies: Material's indexing fills in a missing title)."""
        taken = [_copy(section) for section in alone.sections]
        self.data.extend(taken)
        if taken:
            self.section = taken[alone.current]

    def _start(self, tag: str, raw: str) -> None:
        """``Parser.handle_starttag``."""
        if tag in void:
            return
        read = tag in _HEADINGS or tag == "a" or _READ.search(raw) is not None
        attrs = _attributes(raw) if read else {}
        permalink = tag == "a" and attrs.get("class") == "headerlink"
        self._tags.append(tag)
        self._links.append(permalink)
        self._permalinks += permalink
        self._open[tag] = self._open.get(tag, 0) + 1
        self._hidden += tag in self._skipped
        if tag in _HEADINGS:
            depth = len(self._tags)
            if "id" in attrs:
                if tag != "h1" and not self.data:
                    self.section = Section(Element("hx"), depth)
                    self.data.append(self.section)
                self.section = Section(Element(tag, attrs), depth)
                if self.data:
                    self.section.id = attrs["id"]
                self.data.append(self.section)
        if not self.section:
            self.section = Section(Element("hx"))
            self.data.append(self.section)
        for key, value in attrs.items():
            if key == "data-search-exclude" or (key == "class" and value == "linenodiv"):
                if tag not in self._skipped:
                    self._skipped.add(tag)
                    self._hidden += self._open[tag]
                return
        if not self._hidden and tag in self.keep:
            self._kept().append(f"<{tag}>")

    def _kept(self) -> list[str]:
        """The section's title while inside its heading (``self.section.el in self.context``), else its text."""
        return self.section.title if self._open.get(self.section.el.tag) else self.section.text

    def _end(self, tag: str) -> None:
        """``Parser.handle_endtag``."""
        if not self._tags or self._tags[-1] != tag:
            return
        if self.section.depth > len(self._tags):
            for section in reversed(self.data):
                if section.depth <= len(self._tags):
                    self.section.depth = float("inf")
                    self.section = section
                    break
        self._tags.pop()
        self._permalinks -= self._links.pop()
        self._open[tag] -= 1
        if tag in self._skipped:
            self._hidden -= 1
            if tag not in ["script", "style", "object"]:
                self._skipped.remove(tag)
                self._hidden -= self._open[tag]
            return
        if not self._hidden and tag in self.keep:
            data = self._kept()
            index = data.index(f"<{tag}>")
            for i in range(index + 1, len(data)):
                if not data[i].isspace():
                    index = len(data)
                    break
            if len(data) > index:
                del data[index:]
                self._marks.pop(id(data), None)  # read again from the start
            else:
                data.append(f"</{tag}>")

    def _text(self, data: str) -> None:
        """``Parser.handle_data``."""
        if self._hidden:
            return
        if not self._open.get("pre"):
            data = data.replace("\n", " ") if not data.isspace() else " "
        if not self.section:
            self.section = Section(Element("hx"))
            self.data.append(self.section)
        if self._open.get(self.section.el.tag):
            if not self._permalinks:
                self.section.title.append(escape(data, quote=False))
        elif data.isspace():
            text = self.section.text
            if not text or not text[-1].isspace() or self._open.get("pre"):
                text.append(data)
        else:
            self.section.text.append(escape(data, quote=False))


class Alone:
    """What reading a part where nothing is open gives: its sections, which of them is current at its end, and
    whether it leaves nothing open (only then is the state after it the state a later part may begin in)."""

    def __init__(self, sections: tuple[Section, ...], current: int, clean: bool) -> None:
        self.sections, self.current, self.clean = sections, current, clean


def _is_plain(pieces: list[tuple[str, ...]]) -> bool:
    return not any(piece[5] or piece[1] in _CDATA for piece in pieces)


def _alone(part: str, made: bool) -> Alone | None:
    """``part`` read where nothing is open (``made``: after sections, one of them current: a stand-in here, which
    a part beginning with its heading never touches -- were it touched, the part is not reused); None where its
    markup is not of the plain kind."""
    pieces = _PIECE.findall(part)
    if not _is_plain(pieces):
        return None
    parser = FastParser()
    parser._begin()
    before = Section(Element("hx"))
    if made:
        parser.data, parser.section = [before], before
    parser._run(pieces)
    sections = parser.data[1:] if made else parser.data
    untouched = not made or (parser.section is not before and not (before.text or before.title or before.depth))
    current = sections.index(parser.section) if sections and untouched else 0
    clean = untouched and not parser._tags and parser._skipped == _SKIP
    return Alone(tuple(sections), current, clean)  # the scratch parser's own: no copy needed until taken


def _copy(section: Section) -> Section:
    out = Section(Element(section.el.tag, dict(section.el.attrs)), section.depth)
    out.id, out.title, out.text = section.id, list(section.title), list(section.text)
    return out


class Marks:
    """What ``_end`` and ``_text`` read of a section's title or text, kept up as it grows: where each kept tag
    first opens, the last item that is not white space, and whether the last item is."""

    def __init__(self) -> None:
        self.seen = 0
        self.first: dict[str, int] = {}
        self.solid = -1  # the last item not white space

    def read(self, items: list[str]) -> None:
        for k in range(self.seen, len(items)):
            item = items[k]
            if item in _KEPT and item not in self.first:
                self.first[item] = k
            if not item.isspace():
                self.solid = k
        self.seen = len(items)
        self.spaced = bool(items) and items[-1].isspace()

    def state(self) -> tuple[bool, tuple[tuple[str, bool], ...]]:
        """Whether the last item is white space; per kept tag open in it, whether anything but white space
        follows its first opening."""
        return self.spaced, tuple(sorted((tag, self.solid > k) for tag, k in self.first.items()))


# reading a part inside a section depends on: the context's tags, which are permalinks, the tags skipped, the
# section's heading's tag and depth, and its title's and text's ``Marks``
State = tuple[tuple[str, ...], tuple[bool, ...], tuple[str, ...], str, float, tuple, tuple]


def masked(page: str) -> str:
    """A page as its search reads it: the numbers of a reading text's marks and of its 校勘記 (〔七〕, left
    out of the search) and the note ids and titles its links carry (``href="#n12"``; a reading text's
    ``href="#k7"``) blanked. A saved character numbers every mark and note after it anew; blanked, the
    paragraphs and notes after it are the parts read before (``CHUNKS``), and are not read again.

    The words are the same: an element left out (``data-search-exclude``) is skipped whole, its text unread, and the
    parser reads no ``href``, ``title`` or ``data-notes``, and an ``id`` only on a heading (a value holding a
    character reference is left as it is). One pattern per attribute, over the page between its headings, in C."""

    pieces = _HEADING_TAG.split(page)
    for i in range(0, len(pieces), 2):  # not a heading's own tag (its id is read)
        piece = _EXCLUDED.sub(r"\1\3", pieces[i])
        for attribute, blank in _UNREAD:
            piece = attribute.sub(blank, piece)
        pieces[i] = piece
    return "".join(pieces)


class Inside:
    """What reading a part inside a section gives: the words it adds to the section's title and text, and the
    context it leaves (tags, permalinks, tags skipped)."""

    def __init__(self, title: tuple[str, ...], text: tuple[str, ...], end: tuple) -> None:
        self.title, self.text, self.end = title, text, end


class _Scratch(FastParser):
    """A parser that notes the shortest its context gets (a part that closes what was open before it is not read
    alone)."""

    def _end(self, tag: str) -> None:
        super()._end(tag)
        self._lowest = min(self._lowest, len(self._tags))


def _stand_in(state: tuple[bool, tuple[tuple[str, bool], ...]]) -> list[str]:
    """A title or text with these ``Marks``: each kept tag opened, then a word after those followed by one, then
    those followed by nothing but white space, then a space if the last item is one."""
    spaced, tags = state
    items = [tag for tag, solid in tags if solid] + ["\x00"] + [tag for tag, solid in tags if not solid]
    return [*items, " "] if spaced else items


def _inside(part: str, state: State) -> Inside | None:
    """``part`` read inside a section in ``state`` (``FastParser._state``), from a stand-in for it; None where
    its markup is not of the plain kind or where it reaches outside the part: a new section, an element open before
    it closed, or the words before it changed (an empty kept element removed)."""
    pieces = _PIECE.findall(part)
    if not _is_plain(pieces):
        return None
    tags, links, skipped, heading, depth, title, text = state
    parser = _Scratch()
    parser._begin()
    parser._context(tags, links, skipped)
    parser._lowest = len(tags)
    section = Section(Element(heading), depth)
    before_title, before_text = _stand_in(title), _stand_in(text)
    section.title, section.text = list(before_title), list(before_text)
    parser.data, parser.section = [section], section
    parser._run(pieces)
    if (
        parser.data != [section]
        or parser.section is not section
        or section.depth != depth
        or parser._lowest < len(tags)
        or section.title[: len(before_title)] != before_title
        or section.text[: len(before_text)] != before_text
    ):
        return None
    end = (tuple(parser._tags), tuple(parser._links), tuple(sorted(parser._skipped)))
    return Inside(tuple(section.title[len(before_title) :]), tuple(section.text[len(before_text) :]), end)
