"""The editor's verdicts in the TEI: on a collation note, its ``app`` gets the adopted reading's ``lem``/``rdg``
with ``@resp="#editor"`` and a ``note type="verdict"`` in the 校勘記's words (據B改。); on a fact note, the
verdict is a ``note type="verdict"`` after the fact's ``note``, pointing to it. Every verdict note has
``@resp="#editor"`` (the header's ``respStmt``), ``@subtype`` its kind and ``@n`` the id of the note it judges.
"""

from __future__ import annotations

from lxml import etree

from ..engine.exported import NoteJson
from .tei_xml import TEI, XML_ID, clean

READINGS = (TEI + "lem", TEI + "rdg")


def _app(root: etree._Element, note_id: str) -> etree._Element | None:
    """The innermost ``app`` whose ``@n`` names the note."""
    found = [app for app in root.iter(TEI + "app") if note_id in (app.get("n") or "").split()]
    inner = [a for a in found if not any(a in b.iterancestors() for b in found)]
    return inner[0] if inner else None


def _verdict_note(note: NoteJson, target: str | None) -> etree._Element:
    verdict = note["verdict"]
    el = etree.Element(TEI + "note")
    for key, value in (("type", "verdict"), ("subtype", verdict["kind"]), ("resp", "#editor"), ("n", note["id"])):
        el.set(key, value)
    if target:
        el.set("target", target)
    el.text = clean(verdict["words"] + (" " + verdict["text"] if verdict.get("text") else ""))
    return el


def add_verdicts(
    root: etree._Element, notes: list[NoteJson], wit: dict[str, str], note_el: dict[str, etree._Element]
) -> None:
    """Every verdict of ``notes`` into the document ``root`` (``wit``: siglum -> witness xml:id; ``note_el``:
    note id -> its ``note`` element, for the fact notes)."""
    for note in notes:
        verdict = note.get("verdict")
        if not verdict:
            continue
        if note["type"] == "collation":
            app = _app(root, note["id"])
            if app is None:
                continue
            adopted = {"#" + wit[s] for s in verdict.get("sigla", ())} if verdict["kind"] == "adopt" else set()
            for el in app:
                if el.tag in READINGS and adopted & set((el.get("wit") or "").split()):
                    el.set("resp", "#editor")
            app.append(_verdict_note(note, None))
        elif note["id"] in note_el:
            fact = note_el[note["id"]]
            el = _verdict_note(note, "#" + fact.get(XML_ID))
            fact.addnext(el)  # text after the fact (its tail) stays after the verdict
            el.tail, fact.tail = fact.tail, None
