"""Long lines of raw HTML handed to Python-Markdown's HTML block parser as one-tag stand-ins, then put back.

A generated page is raw HTML, one element per line, megabytes of it at 10 x 50k (a witness's text is one line).
Python-Markdown's ``HtmlBlockPreprocessor`` reads all of it with ``html.parser``, tag by tag, only to stash it as
it is: half of the page's conversion. What that parser does with a line depends only on the line's tags: a line
that opens a block-level element at its start, closes it at its very end and in between closes only what it
opened (its text holding no ``<`` and only well-formed character references, so ``html.parser`` reads each tag
as this module does) leaves the parser's state as it found it and is stashed as written, alone or inside the
raw block around it, exactly as a stand-in of the same tag around a unique token is. Such lines go through
the parser as stand-ins, and the stand-ins are replaced by the lines in the stash right after it: the page
converts to the same HTML. A document holding anything that switches ``html.parser`` out of reading tags (a
comment, a declaration, a script or style element) is left alone.

A page that is nothing but such elements (an episode's or a witness's page: block after block of raw HTML, each
opened by a block-level tag at its first letter and closed by it at its last) needs no Markdown at all: what
Python-Markdown makes of it is its blocks as written, after ``cjk.join_lines`` and with each run of blank lines
one blank line (``as_html``; the tests hold it to Markdown's output on every generated page).
"""

from __future__ import annotations

import re

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor
from markdown.util import BLOCK_LEVEL_ELEMENTS

from .cjk import join_lines

LONG = 200  # shorter elements are left to the parser: a stand-in saves little there
_ATTR = r'\s+[a-zA-Z_:][-a-zA-Z0-9_:.]*(?:="[^"]*")?'
_TAG = re.compile(rf"<(?:/([a-zA-Z][a-zA-Z0-9-]*)|([a-zA-Z][a-zA-Z0-9-]*)(?:{_ATTR})*\s*(/?))>")
_BAD_REFERENCE = re.compile(r"&(?!#[0-9]+;|#[xX][0-9a-fA-F]+;|[a-zA-Z][a-zA-Z0-9]*;)")  # html.parser may rewrite it
_OTHER_STATES = re.compile(
    r"<[!?]|<(?:script|style|textarea|title|xmp|iframe|noembed|noframes|noscript|plaintext)\b", re.I
)
_MARK, _END = "\ufdd0", "\ufdd1"  # noncharacters around a stand-in's number; a document holding one is left alone
_STAND_IN = re.compile(f"<[a-z0-9-]+>{_MARK}([0-9]+){_END}</[a-z0-9-]+>")


_BLANK_LINES = re.compile(r"\n(?: *\n)+")  # what separates two blocks (Markdown reads a line of spaces as blank)
_OPENING = re.compile(r"<([a-zA-Z][a-zA-Z0-9-]*)[\s>]")
_ODD = re.compile(rf"<(?![a-zA-Z/])|{_BAD_REFERENCE.pattern}")
_BLOCK_LEVEL = frozenset(BLOCK_LEVEL_ELEMENTS) - {"hr"}  # <hr> opens no element: its block would be Markdown's


def as_html(markdown: str) -> str | None:
    """The HTML Python-Markdown (with ``cjk``) makes of a page's Markdown that is only blocks of raw HTML, each
    opening with a block-level tag and ending with its closing tag; None for any other page, which Markdown
    converts. Such a page is stashed block by block as written: converting megabytes only to get them back costs
    a third of a second a page. A page holding what Markdown would rewrite or read otherwise (a tab, a carriage
    return, Markdown's own stash marks, a comment or a script, a ``<`` that opens no tag, an ill-formed character
    reference) is left to it."""
    if any(c in markdown for c in "\t\r\x02\x03") or _OTHER_STATES.search(markdown) or _ODD.search(markdown):
        return None
    blocks = _BLANK_LINES.split(join_lines(markdown).strip("\n"))
    for block in blocks:
        m = _OPENING.match(block)
        if m is None or m[1] not in _BLOCK_LEVEL or not block.endswith(f"</{m[1]}>"):
            return None
    return "\n\n".join(blocks)


def element_end(md: Markdown, text: str, start: int) -> tuple[str, int] | None:
    """The tag and the end of the block-level element that opens at ``start`` (a line's start) of ``text``, when its
    tags show that it closes at the end of a line and closes nothing it did not open (see the module's docstring);
    else None.

    The element's text outside its tags is checked once, when its end is found: no ``<`` but the tags' own (the
    count of ``<`` in it is the count of tags: a stricter test, as one inside an attribute's value fails it too)
    and no ill-formed character reference (anywhere in it, attribute values included: stricter again). A
    stricter test only leaves more to the parser, whose output is the same."""
    tag = ""
    stack: list[str] = []
    for tags, m in enumerate(_TAG.finditer(text, start), 1):
        closing, opening, empty = m.groups()
        if not tag:  # the element's own tag
            tag = (opening or "").lower()
            if m.start() != start or closing or empty or tag == "hr" or not md.is_block_level(tag):
                return None
            stack.append(tag)
        elif closing:
            name = closing.lower()
            if name not in stack:  # inside a raw block, it would close an element opened before this one
                return None
            while stack.pop() != name:
                pass
            if not stack:
                end = m.end()
                if end != len(text) and text[end] != "\n":
                    return None
                if text.count("<", start, end) != tags or _BAD_REFERENCE.search(text, start, end):
                    return None
                return tag, end
        elif not empty and opening.lower() != "hr":  # a self-closed tag and <hr> are stashed as they are, never opened
            stack.append(opening.lower())
    return None


class _StandIns(Preprocessor):
    """Long elements replaced by one-line stand-ins (before ``html_block``)."""

    def __init__(self, md: Markdown) -> None:
        super().__init__(md)
        self.originals: list[str] = []

    def run(self, lines: list[str]) -> list[str]:
        self.originals = []
        text = "\n".join(lines)
        if len(text) < LONG or _MARK in text or _OTHER_STATES.search(text):
            return lines
        out: list[str] = []
        pos = 0  # where lines[i] starts in text
        i = 0
        while i < len(lines):
            line = lines[i]
            found = element_end(self.md, text, pos) if line[:1] == "<" else None
            if found is None or found[1] - pos < LONG:
                out.append(line)
                pos += len(line) + 1
                i += 1
                continue
            tag, end = found
            out.append(f"<{tag}>{_MARK}{len(self.originals)}{_END}</{tag}>")
            self.originals.append(text[pos:end])
            i += text.count("\n", pos, end) + 1
            pos = end + 1
        return out


class _PutBack(Preprocessor):
    """The stashed stand-ins replaced by their lines (after ``html_block``)."""

    def __init__(self, md: Markdown, stand_ins: _StandIns) -> None:
        super().__init__(md)
        self.stand_ins = stand_ins

    def run(self, lines: list[str]) -> list[str]:
        originals = self.stand_ins.originals
        if not originals:
            return lines
        blocks = self.md.htmlStash.rawHtmlBlocks
        found = 0
        for i, block in enumerate(blocks):
            if isinstance(block, str) and _MARK in block:
                blocks[i], n = _STAND_IN.subn(lambda m: originals[int(m[1])], block)
                found += n
        if found != len(originals):
            raise RuntimeError("edition.site.raw_html: a stand-in was not stashed as its line would have been")
        return lines


class RawHtmlExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:
        stand_ins = _StandIns(md)
        md.preprocessors.register(stand_ins, "edition_stand_ins", 20.5)  # after MkDocs' raw HTML ids (21)
        md.preprocessors.register(_PutBack(md, stand_ins), "edition_put_back", 19.5)  # right after html_block (20)


def makeExtension(**kwargs) -> RawHtmlExtension:
    return RawHtmlExtension(**kwargs)
