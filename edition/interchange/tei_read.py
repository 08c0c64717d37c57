"""Reading the witnesses back from the TEI, character for character (see :mod:`edition.interchange.tei`)."""

from __future__ import annotations

from lxml import etree

from .tei_xml import TEI, XML_ID


def _q(tag: str) -> str:
    return TEI + tag


def witness_texts(doc: etree._ElementTree | etree._Element | bytes) -> dict[str, str]:
    """Every witness's text read back from the TEI (siglum -> text), character for character."""
    if isinstance(doc, bytes):
        doc = etree.fromstring(doc)
    root = doc.getroot() if isinstance(doc, etree._ElementTree) else doc
    by_id = {el.get(XML_ID): el for el in root.iter() if el.get(XML_ID)}
    out: dict[str, str] = {}
    for div in root.iter(_q("div")):
        if div.get("type") != "witness":
            continue
        wid = div.get("corresp", "")[1:]
        sig = by_id[wid].get("n", wid)
        ab = next(a for a in div.iter(_q("ab")) if a.get("type") == "witness-order")
        parts: list[str] = []
        _collect(ab, "#" + wid, by_id, parts, True)
        out[sig] = "".join(parts)
    return out


def _reading(app: etree._Element, wit: str) -> etree._Element | None:
    for child in app:
        if child.tag in (_q("lem"), _q("rdg")) and wit in child.get("wit", "").split():
            return child
        if child.tag == _q("rdgGrp"):
            found = _reading(child, wit)
            if found is not None:
                return found
    return None


def _collect(el: etree._Element, wit: str, by_id: dict, parts: list[str], top: bool) -> None:
    parts.append(el.text or "")
    for child in el:
        if not isinstance(child.tag, str):  # comments, processing instructions
            pass
        elif child.tag == _q("app"):
            reading = _reading(child, wit)
            if reading is not None:
                _collect(reading, wit, by_id, parts, False)
            elif child.get("type") != "lacuna":
                raise ValueError(f"an app without a reading for {wit} (line {child.sourceline})")
        elif child.tag == _q("ptr"):
            if top:
                _collect(by_id[child.get("target")[1:]], wit, by_id, parts, False)
        elif child.tag == _q("g") and child.get("type") == "char":
            parts.append(chr(int(child.get("n")[2:], 16)))
        elif child.tag != _q("note"):
            _collect(child, wit, by_id, parts, False)
        parts.append(child.tail or "")
