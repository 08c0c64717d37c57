"""Writing TEI: the namespaces, valid and unique XML names, and witness text character for character (a
character XML 1.0 cannot carry becomes ``<g type="char" n="U+000C"/>``)."""

from __future__ import annotations

import re

from lxml import etree

TEI_NS = "http://www.tei-c.org/ns/1.0"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
TEI = f"{{{TEI_NS}}}"

# Characters every XML 1.0 name rule (4th and 5th edition) accepts; anything else is replaced.
_NAME_CHARS = re.compile(r"[^A-Za-z0-9_.\-\u4e00-\u9fa5]+")
_NAME_START = re.compile(r"[A-Za-z_\u4e00-\u9fa5]")


def ncname(value: str, prefix: str = "x") -> str:
    """``value`` as a valid NCName: runs of other characters become ``_``; a name must start with a letter."""
    name = _NAME_CHARS.sub("_", value).strip("_")
    if not name or not _NAME_START.match(name):
        name = prefix + name
    return name


class Ids:
    """Unique NCNames for the whole document."""

    def __init__(self) -> None:
        self.taken: set[str] = set()

    def make(self, value: str, prefix: str = "x") -> str:
        base = ncname(value, prefix)
        name, k = base, 1
        while name in self.taken:
            k += 1
            name = f"{base}-{k}"
        self.taken.add(name)
        return name


# Characters XML 1.0 cannot carry: in witness text each becomes <g type="char" n="U+000C"/> (read back as
# the character); in titles and notes, U+FFFD.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def clean(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def append(parent: etree._Element, text: str) -> None:
    if not text:
        return
    if len(parent):
        last = parent[-1]
        last.tail = (last.tail or "") + text
    else:
        parent.text = (parent.text or "") + text


def add_text(parent: etree._Element, text: str) -> None:
    """Witness text, character for character."""
    pos = 0
    for m in _NOT_XML.finditer(text):
        append(parent, text[pos : m.start()])
        sub(parent, "g", type="char", n=f"U+{ord(m.group()):04X}")
        pos = m.end()
    append(parent, text[pos:])


def sub(parent: etree._Element, tag: str, text: str | None = None, **attrib: str | None) -> etree._Element:
    el = etree.SubElement(parent, TEI + tag)
    for k, v in attrib.items():
        if v is not None:
            el.set(XML_ID if k == "xml_id" else k, clean(v))
    if text:
        el.text = clean(text)
    return el
