"""TEI P5 in parallel segmentation, from the ``edition-export/2`` dict and the witness texts.

The document (valid against ``tei_all``, P5 4.3.0):

- ``teiHeader``: the title, who is responsible (``respStmt xml:id="editor"``: editor's notes point to it
  with ``@resp``), ``sourceDesc/listWit`` with one nested ``listWit`` per family and a ``witness`` per
  witness (``xml:id`` from the siglum made a valid NCName, ``@n`` the siglum as written; title, file,
  length, script, source, description), and an ``encodingDesc`` saying how the text is carried, what is
  normalised silently and what every ``@type``/``@cause`` means, with
  ``variantEncoding method="parallel-segmentation" location="internal"``.
- ``standOff``: the register as ``listPerson``/``listPlace``/``listObject``; the text names its entries
  with ``persName``/``placeName``/``objectName`` (or ``rs`` where a witness uses only a title) ``@ref``.
- ``body``: one ``div type="episode"`` per episode; in it one ``ab type="row"`` per row (``xml:id`` the
  row id) holding one ``app type="row"``: a ``rdgGrp type="family"`` per family that tells the moment
  (its base's reading is the ``lem``), ``rdg type="spanned"`` for a witness whose cell above covers this
  row (a ``ptr`` to it), ``rdg type="absent"`` for the witnesses that do not tell it, and the row's fact
  and editor's notes as ``note`` (a machine fact note an editor's fact supersedes is left out, as on the page);
  a row the machine is unsure of (the export's ``weak``) has ``@cert="low"`` and a ``note type="weak"`` naming
  the witnesses whose cell nothing beside it supports.
  The editor's verdicts (:mod:`tei_verdicts`): the adopted ``lem``/``rdg`` with ``@resp="#editor"`` and a
  ``note type="verdict"`` in the note's ``app`` (after a fact's ``note``). Every piece of witness text in a
  reading is a ``seg`` with an ``xml:id`` (``type="moved"`` where the witness tells it elsewhere; ``@corresp``
  points to that place in the witness's own order). The collation (``edition.engine.collate``) is the only
  thing that aligns a copy with its base: every collation note is one ``app`` (``@type`` its class, ``@n`` its
  id), at its lemma in the base's text, its ``rdg``s the copies' readings. Within a family, where all members' cells
  stand for the base's one to one as the collation aligns them, the family has a single reading: the
  notes are nested ``app``s in it, and between them the differences the collation passes silently
  (:func:`edition.engine.collate.silent`: ``@cause`` quote-style, script, unpunctuated, silenced;
  ``@type="layout"`` for whitespace). Otherwise the base's reading holds the note's ``app``, whose ``rdg``
  gives each copy's words (each copy reads them in its own reading, where the rows put them). Notes whose
  lemmas cross are one ``app`` over the words they cover; a note whose lemma the rows cut in two is an
  ``app`` inside a ``note type="collation"`` in the base's part.
- then one ``div type="witness"`` per witness, whose ``ab type="witness-order"`` is that witness from
  start to end: ``ptr``s to its pieces in the rows, its unassigned text (``seg type="unassigned"``), the
  whitespace between pieces as text, and its lacunae (``app type="lacuna"`` with ``lacunaStart`` or
  ``lacunaEnd`` in the witness's ``rdg`` and the lacuna note).

Text is the witnesses' own, character for character (newlines included); nothing is normalised. A
character XML 1.0 cannot carry (a form feed, say) is ``<g type="char" n="U+000C"/>``.
:func:`witness_texts` reads it back: for each witness, its ``witness-order`` part in document order,
following every ``ptr`` to the ``seg`` it names, taking in every ``app`` the ``lem``/``rdg`` whose
``@wit`` names the witness, skipping ``note``s, a ``g type="char"`` giving back its character.
Whitespace between block elements (``div``, ``ab``, ``head``) is layout; text inside readings and the
``witness-order`` parts is witness text.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from lxml import etree

from ..engine.collate import Silence, silent
from ..engine.exported import EditionJson
from . import TITLE
from .tei_header import CLASS_WORDS, header, standoff
from .tei_marks import Mark, clustered, tree, within_place
from .tei_read import witness_texts
from .tei_verdicts import add_verdicts
from .tei_xml import TEI, TEI_NS, XML_ID, XML_LANG, XML_SPACE, Ids, add_text, append, clean, ncname, sub

__all__ = ["TEI_NS", "XML_ID", "ncname", "tei_document", "to_tei", "witness_texts"]

KIND_TAG = {"person": "persName", "place": "placeName", "thing": "objectName"}


@dataclass
class _Region:
    """One place where the members of a family differ inside a shared reading (base offsets ``a``-``b``)."""

    a: int
    b: int
    copies: dict[str, tuple[int, int, tuple[dict, ...], tuple]]  # siglum -> copy offsets, notes, (class, cause)s
    elsewhere: tuple[dict, ...] = ()  # notes whose lemma lies here, of copies that read elsewhere


class _Builder:
    def __init__(self, export: EditionJson, texts: dict[str, str], title: str, url: str | None) -> None:
        self.x = export
        self.texts = texts
        self.title = title
        self.url = url
        self.ids = Ids()
        self.sigla = [w["siglum"] for w in export["witnesses"]]
        self.wit = {s: self.ids.make(s, "w") for s in self.sigla}
        self.fam_of = {w["siglum"]: w["family"] for w in export["witnesses"]}
        self.families = export["families"]
        self.silenced = set(export["normalised"].get("silenced", {}))
        self.unpunctuated = set(export["normalised"].get("unpunctuated", []))
        self.reg_id = {e["id"]: self.ids.make(e["id"], "r") for e in export["register"]}
        self.ep_id = {ep["id"]: self.ids.make(ep["id"], "e") for ep in export["episodes"]}
        self.row_id = {r["id"]: self.ids.make(r["id"], "r") for ep in export["episodes"] for r in ep["rows"]}
        self.note_id: dict[str, str] = {}
        self.notes = [n for n in export["notes"] if "superseded_by" not in n]  # as on the page: the editor's fact
        self.row_notes: dict[str, list[dict]] = defaultdict(list)  # row id -> its fact and editor's notes
        for note in self.notes:
            if note["row"] is not None and note["type"] in ("fact", "editor"):
                self.row_notes[note["row"]].append(note)
        self.placed: set[str] = set()  # collation notes already in the document
        scripts = {w["siglum"]: w["script"] for w in export["witnesses"]}
        self.quiet = {  # what passes silently between each copy and its base, as the collation decided it
            s: Silence.between(scripts[f["base"]], scripts[s], bool({s, f["base"]} & self.unpunctuated))
            for f in self.families
            for s in f["members"]
            if s != f["base"]
        }
        self.targets: dict[str, list[etree._Element]] = defaultdict(list)  # note id -> marked text
        self.note_el: dict[str, etree._Element] = {}
        self.pieces: dict[str, list[tuple[int, int, str, bool]]] = defaultdict(list)  # sig -> (s, e, seg id, moved)
        self.moved_ptrs: dict[str, list[str]] = defaultdict(list)  # seg id -> ptr ids
        self.seg_el: dict[str, etree._Element] = {}
        self.parts: dict[str, etree._Element] = {}  # siglum -> its witness div
        self.marks = self._marks()
        self.starts = {s: [m.start for m in ms] for s, ms in self.marks.items()}
        self.copy_notes = self._copy_notes()

    # ----- marks: what the text carries, per witness, by offset -----

    def _marks(self) -> dict[str, list[Mark]]:
        out: dict[str, list[Mark]] = defaultdict(list)
        named: dict[tuple[str, int, int], tuple[list[str], str, bool]] = {}
        for entry in self.x["register"]:
            for m in entry["mentions"]:
                k = (m["siglum"], m["start"], m["end"])
                if m["end"] <= m["start"]:
                    continue
                refs, kind, is_named = named.setdefault(k, ([], entry["kind"], m["named"]))
                if entry["id"] not in refs:
                    refs.append(entry["id"])
        for (sig, a, b), (refs, kind, is_named) in named.items():
            out[sig].append(Mark(a, b, "name", 3, (kind, refs, is_named)))
        for note in self.notes:
            self.note_id[note["id"]] = self.ids.make(note["id"], "n")
        for note in self.notes:
            if note["type"] == "collation" and note["lemma"]:  # one app, at its lemma in the base
                lm = note["lemma"]
                out[lm["siglum"]].append(Mark(lm["start"], lm["end"], "app", 0, (note,)))
            # a fact note, and an editor's fact: each reading (an editor's fact's first reading is its lemma)
            elif note["type"] == "fact" or (note["type"] == "editor" and note["readings"]):
                for r in note["readings"]:
                    for sig, (a, b) in r["spans"].items():
                        if b > a:
                            out[sig].append(Mark(a, b, note["type"], 2 if note["type"] == "fact" else 1, note))
            elif note["type"] == "editor" and note["lemma"] and note["lemma"]["end"] > note["lemma"]["start"]:
                lm = note["lemma"]
                out[lm["siglum"]].append(Mark(lm["start"], lm["end"], "editor", 1, note))
        for ms in out.values():
            ms.sort(key=Mark.key)
        return out

    def _copy_notes(self) -> dict[str, list[tuple[int, int, int, int, dict]]]:
        """Per copy: (copy start, copy end, lemma start, lemma end, note) of every collation note (or part)."""
        out: dict[str, list[tuple[int, int, int, int, dict]]] = defaultdict(list)
        for note in self.notes:
            if note["type"] == "collation" and note["lemma"]:
                for r in note["readings"]:
                    for sig, (a, b) in r["spans"].items():
                        out[sig].append((a, b, note["lemma"]["start"], note["lemma"]["end"], note))
        for lst in out.values():
            lst.sort(key=lambda t: (t[0], t[1]))
        return out

    def _within(self, sig: str, start: int, end: int, kinds: frozenset[str]) -> list[Mark]:
        ms = self.marks.get(sig, [])
        k = bisect_left(self.starts.get(sig, []), start)
        out = []
        while k < len(ms) and ms[k].start <= end:
            m = ms[k]
            k += 1
            if m.kind not in kinds or m.end > end or (m.point and m.start > end):
                continue
            if m.kind == "app" and any(n["id"] in self.placed for n in m.data):
                continue
            out.append(m)
        return out

    # ----- emitting text -----

    def emit(
        self,
        parent: etree._Element,
        sig: str,
        start: int,
        end: int,
        wits: list[str],
        kinds: frozenset[str],
        same: dict[str, int] | None = None,
    ) -> None:
        """Witness ``sig``'s text ``start:end`` into ``parent``, with its marks of ``kinds`` (shared by ``wits``);
        ``same``: other witnesses whose text from the offset given is the same, whose notes it carries too (a
        family's base reading as a copy does: the apps at its lemmas)."""
        marks = self._within(sig, start, end, kinds)
        if same and "app" in kinds:
            seen = {n["id"] for m in marks if m.kind == "app" for n in m.data}
            for other, at in same.items():
                shift = start - at
                for m in self._within(other, at, at + end - start, frozenset({"app"})):
                    if m.data[0]["id"] not in seen:
                        marks.append(Mark(m.start + shift, m.end + shift, "app", 0, m.data))
            marks.sort(key=Mark.key)
        if "app" in kinds:
            marks = clustered(marks)
        self._nodes(parent, sig, start, end, tree(marks), wits)

    def _nodes(
        self, parent: etree._Element, sig: str, start: int, end: int, nodes: list[Mark], wits: list[str]
    ) -> None:
        text = self.texts[sig]
        cursor = start
        for node in nodes:
            if node.start > cursor:
                add_text(parent, text[cursor : node.start])
            self._mark(parent, sig, node, wits)
            cursor = max(cursor, node.end)
        if end > cursor:
            add_text(parent, text[cursor:end])

    def _mark(self, parent: etree._Element, sig: str, node: Mark, wits: list[str]) -> None:
        if node.kind == "name":
            kind, refs, is_named = node.data
            ref = " ".join("#" + self.reg_id[r] for r in refs if r in self.reg_id) or None
            el = sub(parent, KIND_TAG[kind], ref=ref) if is_named else sub(parent, "rs", type=kind, ref=ref)
            self._nodes(el, sig, node.start, node.end, node.children, wits)
        elif node.kind in ("fact", "editor"):
            el = sub(parent, "seg", type=node.kind)
            self.targets[node.data["id"]].append(el)
            self._nodes(el, sig, node.start, node.end, node.children, wits)
        elif node.kind == "app":  # a collation note at its lemma, in a reading of the base its copies do not share
            notes = node.data  # one, or several whose lemmas cross
            self.placed.update(n["id"] for n in notes)
            classes = {n["class"] for n in notes}
            app = sub(parent, "app", type=next(iter(classes)) if len(classes) == 1 else None)
            app.set("n", " ".join(n["id"] for n in notes))
            self._nodes(sub(app, "lem", wit=self._wits(wits)), sig, node.start, node.end, node.children, wits)
            lm = notes[0]["lemma"]  # the reading may be a copy's that reads as the base here: offsets in the base's
            a, b = min(n["lemma"]["start"] for n in notes), max(n["lemma"]["end"] for n in notes)
            self._readings(app, notes, lm["siglum"], a, b, wits)
        elif node.kind == "region":
            self._region(parent, sig, node, wits)

    def _wits(self, sigla: list[str]) -> str:
        return " ".join("#" + self.wit[s] for s in sigla)

    def _readings(
        self, app: etree._Element, notes: tuple[dict, ...], base: str, a: int, b: int, here: list[str]
    ) -> None:
        """The readings of ``notes`` (lemmas within the base's ``a:b``) as ``rdg``s of the app over ``a:b``, for the
        copies that do not read here (``here``): each copy reads its words in its own reading, where its text stands
        in the rows. A copy's reading is the base's ``a:b`` with its notes' readings in place of their lemmas."""
        text = self.texts[base]
        mine: dict[str, list[tuple[dict, dict]]] = defaultdict(list)
        for note in notes:
            for r in note["readings"]:
                for s in r["sigla"]:
                    if s not in here:
                        mine[s].append((note, r))
        groups: dict[str, list[str]] = {}
        of: dict[str, list[dict]] = {}
        for s, found in mine.items():
            out, at = [], a
            for note, r in sorted(found, key=lambda t: (t[0]["lemma"]["start"], t[0]["lemma"]["end"])):
                lm = note["lemma"]
                if lm["start"] < at:
                    continue
                out += [text[at : lm["start"]], r["text"]]
                at = lm["end"]
            reading = "".join([*out, text[at:b]])
            groups.setdefault(reading, []).append(s)
            of.setdefault(reading, [])
            of[reading] += [n for n, _ in found if n not in of[reading]]
        for reading, sigla in groups.items():
            classes = {n["class"] for n in of[reading]}
            kind = next(iter(classes)) if len(classes) == 1 else None
            rdg = sub(app, "rdg", wit=self._wits(sigla), type=kind, n=" ".join(n["id"] for n in of[reading]))
            add_text(rdg, reading)

    # ----- a family's shared reading: its differences as nested apps -----

    def _anchors(self, c: str, bs: int, be: int, cs: int, ce: int) -> list[tuple[int, int, int, int, list]] | None:
        """The collation notes of copy ``c`` inside ``cs:ce`` whose lemma lies in the base's ``bs:be``, in order;
        None if one lies outside, or they are not in the same order in both."""
        lst = self.copy_notes.get(c, [])
        k = bisect_left(lst, (cs, -1))
        out: list[tuple[int, int, int, int, list]] = []
        while k < len(lst) and lst[k][0] <= ce:
            a, b, la, lb, note = lst[k]
            k += 1
            if b > ce or note["id"] in self.placed:
                continue
            inside = bs <= la <= lb <= be
            if not inside:
                if a == b and a in (cs, ce):
                    continue  # a point at the edge: it belongs to the neighbouring piece
                return None
            if out and (la, lb, a, b) == out[-1][:4]:
                out[-1][4].append(note)
                continue
            out.append((la, lb, a, b, [note]))
        out.sort(key=lambda t: (t[0], t[2], t[1], t[3]))
        bpos, cpos = bs, cs
        for la, lb, a, b, _ in out:
            if la < bpos or a < cpos:
                return None
            bpos, cpos = lb, b
        return out

    def _blocks(self, base: str, bs: int, be: int, c: str, cs: int, ce: int, anchors: list) -> list[tuple]:
        """(base start, base end, copy start, copy end, equal, notes, (class, cause)) covering both stretches in
        order: the collation notes, and between them what the collation says passes silently."""
        bt, ct = self.texts[base], self.texts[c]
        out: list[tuple] = []

        def between(b0: int, b1: int, c0: int, c1: int) -> None:
            bp, cp = b0, c0
            for q in silent(bt[b0:b1], ct[c0:c1], self.quiet[c], self.silenced):
                qa, qb, qc, qd = b0 + q.base[0], b0 + q.base[1], c0 + q.copy[0], c0 + q.copy[1]
                if qa > bp:
                    out.append((bp, qa, cp, qc, True, (), None))
                out.append((qa, qb, qc, qd, False, (), (q.cls, q.cause)))
                bp, cp = qb, qd
            if b1 > bp:
                out.append((bp, b1, cp, c1, True, (), None))

        bpos, cpos = bs, cs
        for la, lb, a, b, notes in anchors:
            between(bpos, la, cpos, a)
            out.append((la, lb, a, b, False, tuple(notes), None))
            bpos, cpos = lb, b
        between(bpos, be, cpos, ce)
        return out

    @staticmethod
    def _map_start(blocks: list[tuple], p: int, end: int, point: bool) -> int:
        """Where the copy's text for a place starting at the base's ``p`` starts (what a copy adds at ``p`` is a
        place of its own, a point: only a point takes it)."""
        for ba, bb, ca, _cb, equal, *_ in blocks:
            if equal:
                if ba <= p < bb:
                    return ca + p - ba
            elif ba >= p and (point or not ba == bb == p):
                return ca
        return end

    @staticmethod
    def _map_end(blocks: list[tuple], q: int, start: int, point: bool) -> int:
        for ba, bb, ca, cb, equal, *_ in reversed(blocks):
            if equal:
                if ba < q <= bb:
                    return ca + q - ba
            elif bb <= q and (point or not ba == bb == q):
                return cb
        return start

    def _regions(
        self, base: str, bs: int, be: int, copies: dict[str, tuple[int, int, list]], others: list[dict]
    ) -> list[_Region]:
        """The places in the base's ``bs:be`` where a copy reading with it differs, or where the lemma of a note of
        a copy that reads elsewhere (``others``) lies: overlapping ones are one place."""
        blocks = {c: bl for c, (_cs, _ce, _anchors, bl) in copies.items()}
        spans = sorted(
            [(b[0], b[1]) for bl in blocks.values() for b in bl if not b[4]]
            + [(n["lemma"]["start"], n["lemma"]["end"]) for n in others]
        )
        merged: list[list[int]] = []
        for a, b in dict.fromkeys(spans):  # overlapping places are one; places that only touch stay apart
            if merged and a < merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], b)
            else:
                merged.append([a, b])
        out = []
        for a, b in merged:
            per: dict[str, tuple[int, int, tuple[dict, ...], tuple]] = {}
            for c, bl in blocks.items():
                cs, ce, *_ = copies[c]
                inside = [blk for blk in bl if not blk[4] and within_place(blk[0], blk[1], a, b)]
                notes = tuple(n for blk in inside for n in blk[5])
                quiet = tuple(blk[6] for blk in inside if blk[6])
                per[c] = (self._map_start(bl, a, ce, a == b), self._map_end(bl, b, cs, a == b), notes, quiet)
            elsewhere = tuple(n for n in others if within_place(n["lemma"]["start"], n["lemma"]["end"], a, b))
            out.append(_Region(a, b, per, elsewhere))
        return out

    def emit_shared(self, parent: etree._Element, base: str, bs: int, be: int, copies: dict[str, tuple]) -> None:
        """The base's ``bs:be`` with every copy's differences in it (a family's single reading), and the notes
        whose lemma lies in it of the copies that read elsewhere."""
        anchored = {n["id"] for _cs, _ce, anchors, _ in copies.values() for *_, notes in anchors for n in notes}
        present = set(copies)  # a note at the edge of a copy that reads here belongs to the neighbouring piece
        others = [
            n
            for m in self._within(base, bs, be, frozenset({"app"}))
            for n in m.data
            if n["id"] not in anchored and not self._sigla(n) & present
        ]
        regions = self._regions(base, bs, be, copies, others)
        self.placed.update(anchored)
        self.placed.update(n["id"] for n in others)
        marks = self._within(base, bs, be, frozenset({"name", "fact", "editor"}))
        marks += [Mark(r.a, r.b, "region", 0, r) for r in regions]
        marks.sort(key=Mark.key)
        self._nodes(parent, base, bs, be, tree(marks), [base, *copies])

    def _region(self, parent: etree._Element, base: str, node: Mark, wits: list[str]) -> None:
        r: _Region = node.data
        base_text = self.texts[base][r.a : r.b]
        agree = [base]
        groups: dict[str, list[str]] = {}
        for c, (ca, cb, *_) in r.copies.items():
            t = self.texts[c][ca:cb]
            if t == base_text:
                agree.append(c)
            else:
                groups.setdefault(t, []).append(c)
        app = sub(parent, "app")
        lem = sub(app, "lem", wit=self._wits(agree))
        self._nodes(lem, base, r.a, r.b, node.children, agree)
        types = set()
        ids: list[str] = []
        for sigla in groups.values():
            c = sigla[0]
            ca, cb, _, quiet = r.copies[c]
            notes = [n for s in sigla for n in r.copies[s][2]]
            note_ids = list(dict.fromkeys(n["id"] for n in notes))
            if notes:
                classes = {n["class"] for n in notes}
                kind, cause = (classes.pop() if len(classes) == 1 else None), None
            else:  # what the collation passes silently here (one class and cause, or the first of several)
                kind, cause = quiet[0] if quiet else (None, "unnoted")
            types.add(kind)
            ids += [i for i in note_ids if i not in ids]
            rdg = sub(app, "rdg", wit=self._wits(sigla), type=kind, cause=cause, n=" ".join(note_ids) or None)
            self.emit(rdg, c, ca, cb, sigla, frozenset({"name", "fact", "editor"}))
        for note in r.elsewhere:
            types.add(note["class"])
            ids += [note["id"]] if note["id"] not in ids else []
        # the readings of copies that read elsewhere, of the notes here
        notes = tuple({n["id"]: n for c in r.copies.values() for n in c[2]}.values()) + r.elsewhere
        self._readings(app, notes, base, r.a, r.b, [*agree, *(s for g in groups.values() for s in g)])
        if len(types) == 1 and None not in types:
            app.set("type", types.pop())
        if ids:
            app.set("n", " ".join(ids))

    # ----- the document -----

    def build(self) -> etree._ElementTree:
        root = etree.Element(TEI + "TEI", nsmap={None: TEI_NS})
        root.set(XML_LANG, "zh")
        root.append(header(self))
        register = standoff(self)
        if register is not None:
            root.append(register)
        text = sub(root, "text")
        text.set(XML_SPACE, "preserve")
        body = sub(text, "body")
        body.text = "\n"
        for ep in self.x["episodes"]:
            self.episode(body, ep)
        for w in self.x["witnesses"]:
            self.witness_part(body, w)
        self.leftovers()
        for note_id, els in self.targets.items():
            ids = []
            for k, el in enumerate(els, 1):
                el.set(XML_ID, self.ids.make(f"{self.note_id[note_id]}.{k}"))
                ids.append("#" + el.get(XML_ID))
            if note_id in self.note_el:
                self.note_el[note_id].set("target", " ".join(ids))
        for seg_id, ptrs in self.moved_ptrs.items():
            self.seg_el[seg_id].set("corresp", " ".join("#" + p for p in ptrs))
        add_verdicts(root, self.notes, self.wit, self.note_el)
        root[-1].tail = "\n"
        return etree.ElementTree(root)

    def episode(self, body: etree._Element, ep: dict) -> None:
        div = sub(body, "div", type="episode", xml_id=self.ep_id[ep["id"]], n=ep["id"])
        div.text = "\n"
        sub(div, "head", ep["title"]).tail = "\n"
        if ep["description"]:
            sub(div, "p", ep["description"]).tail = "\n"
        rows = ep["rows"]
        covered: dict[int, list[tuple[str, str]]] = defaultdict(list)  # row index -> (siglum, seg id above)
        for k, row in enumerate(rows):
            ab = sub(div, "ab", type="row", xml_id=self.row_id[row["id"]], n=row["id"])
            ab.tail = "\n"
            app = sub(ab, "app", type="row")
            firsts = self.row_readings(app, row, covered.get(k, []))
            for sig, n in row.get("span", {}).items():
                for j in range(k + 1, min(k + n, len(rows))):
                    covered[j].append((sig, firsts[sig]))
            told = set(row["cells"]) | {s for s, _ in covered.get(k, [])}
            absent = [s for s in self.sigla if s not in told]
            if absent:
                sub(app, "rdg", wit=self._wits(absent), type="absent")
            for note in self.row_notes.get(row["id"], ()):
                self.note(app, note)
            if row.get("weak"):  # the machine is unsure of the row (``edition.engine.align.support``)
                ab.set("cert", "low")
                said = f"{'、'.join(row['weak'])} 此格與旁邊他本各格少有相同而不常見的字，多憑次序在此行"
                sub(app, "note", said, type="weak")
        if not rows and not ep["description"]:
            sub(div, "p", "（此段諸本皆無）").tail = "\n"

    def row_readings(self, app: etree._Element, row: dict, covered: list[tuple[str, str]]) -> dict[str, str]:
        """The families' readings in one row; returns each witness's first seg id."""
        cells = row["cells"]
        spans = row.get("span", {})
        firsts: dict[str, str] = {}
        for fam in self.families:
            present = [s for s in fam["members"] if s in cells]
            above = [(s, seg) for s, seg in covered if self.fam_of.get(s) == fam["id"]]
            if not present and not above:
                continue
            grp = sub(app, "rdgGrp", type="family", n=fam["id"])
            base = fam["base"]
            shared = self._shareable(base, present, cells, spans)
            if shared is not None:
                lem = sub(grp, "lem", wit=self._wits(present))
                for i, seg in enumerate(cells[base]):
                    el = self.piece(lem, row["id"], base, i, bool(seg.get("moved")))
                    copies = {c: shared[c][i] for c in present if c != base}
                    self.emit_shared(el, base, seg["start"], seg["end"], copies)
                    for s in present:
                        src = seg if s == base else cells[s][i]
                        self.pieces[s].append((src["start"], src["end"], el.get(XML_ID), bool(src.get("moved"))))
                        firsts.setdefault(s, el.get(XML_ID))
            else:
                groups: dict[tuple, list[str]] = {}
                noted = self._noted_in(base, cells.get(base, []))
                for s in present:
                    key = (tuple((x["text"], bool(x.get("moved"))) for x in cells[s]), spans.get(s, 1))
                    if s in noted:  # the collation has it read otherwise than the base here: not the base's reading
                        key += (s,)
                    groups.setdefault(key, []).append(s)
                for key, sigla in groups.items():
                    tag = "lem" if base in sigla else "rdg"
                    rd = sub(grp, tag, wit=self._wits(sigla), type="spanning" if key[1] > 1 else None)
                    if tag == "lem" and len(grp) > 1:
                        grp.insert(0, rd)
                    first = sigla[0]
                    kinds = frozenset({"name", "fact", "editor", "app"})
                    for i, seg in enumerate(cells[first]):
                        el = self.piece(rd, row["id"], first, i, bool(seg.get("moved")))
                        same = {s: cells[s][i]["start"] for s in sigla[1:]}
                        self.emit(el, first, seg["start"], seg["end"], sigla, kinds, same)
                        for s in sigla:
                            src = cells[s][i]
                            self.pieces[s].append((src["start"], src["end"], el.get(XML_ID), bool(src.get("moved"))))
                            if i == 0:
                                firsts[s] = el.get(XML_ID)
            for s, seg_id in above:
                rd = sub(grp, "rdg", wit=self._wits([s]), type="spanned")
                sub(rd, "ptr", target="#" + seg_id)
        return firsts

    def _shareable(self, base: str, present: list[str], cells: dict, spans: dict) -> dict[str, list] | None:
        """Per copy, per segment: (start, end, anchors, blocks) when the family can have one reading here (every copy's
        pieces stand for the base's, one for one, as the collation aligns them), else None."""
        if base not in present or any(s in spans for s in present):
            return None
        bsegs = cells[base]
        out: dict[str, list] = {}
        for c in present:
            if c == base:
                continue
            csegs = cells[c]
            if len(csegs) != len(bsegs):
                return None
            lst = []
            for b, x in zip(bsegs, csegs, strict=True):
                if bool(b.get("moved")) != bool(x.get("moved")):
                    return None
                anchors = self._anchors(c, b["start"], b["end"], x["start"], x["end"])
                if anchors is None:
                    return None
                blocks = self._blocks(base, b["start"], b["end"], c, x["start"], x["end"], anchors)
                if any(blk[6] and blk[6][1] == "unnoted" for blk in blocks):
                    return None  # the pieces part a difference the collation noted: the rows do not follow it here
                lst.append((x["start"], x["end"], anchors, blocks))
            out[c] = lst
        for i, b in enumerate(bsegs):  # a copy reading here whose note on the base here lies elsewhere
            anchored = {n["id"] for c in out for *_, notes in out[c][i][2] for n in notes}
            inside = [m for m in self._within(base, b["start"], b["end"], frozenset({"app"})) if not m.point]
            if any(n["id"] not in anchored and self._sigla(n) & set(out) for m in inside for n in m.data):
                return None
        return out

    @staticmethod
    def _sigla(note: dict) -> set[str]:
        return {s for r in note["readings"] for s in r["sigla"]}

    def _noted_in(self, base: str, segs: list[dict]) -> set[str]:
        """The copies with a collation note whose lemma lies in (or at the edge of) these pieces of the base."""
        return {
            s
            for seg in segs
            for m in self._within(base, seg["start"], seg["end"], frozenset({"app"}))
            for n in m.data
            for s in self._sigla(n)
        }

    def piece(self, reading: etree._Element, row: str, sig: str, i: int, moved: bool) -> etree._Element:
        seg = sub(
            reading, "seg", type="moved" if moved else None, xml_id=self.ids.make(f"{row}.{self.wit[sig]}.{i + 1}")
        )
        self.seg_el[seg.get(XML_ID)] = seg
        return seg

    def note(self, parent: etree._Element, note: dict) -> etree._Element:
        attrs: dict[str, str | None] = {"type": note["type"], "xml_id": self.note_id[note["id"]], "n": note["id"]}
        if note["type"] == "fact":
            attrs["subtype"] = note["class"]
        if note["type"] == "editor":
            attrs["resp"] = "#editor"
        el = sub(parent, "note", **attrs)
        append(el, clean(note["text"] or note["label"] or CLASS_WORDS.get(note["class"], "")))
        self.note_el[note["id"]] = el
        return el

    def witness_part(self, body: etree._Element, w: dict) -> None:
        sig = w["siglum"]
        text = self.texts[sig]
        div = sub(body, "div", type="witness", corresp="#" + self.wit[sig], n=sig)
        div.text = "\n"
        self.parts[sig] = div
        sub(div, "head", f"{sig}　{w['title']}").tail = "\n"
        ab = sub(div, "ab", type="witness-order", corresp="#" + self.wit[sig])
        ab.tail = "\n"
        items: list[tuple[int, int, int, str, Any]] = []
        for s, e, seg_id, moved in self.pieces.get(sig, []):
            items.append((s, 1, e, "row", (seg_id, moved)))
        for sp in self.x["unassigned"].get(sig, []):
            items.append((sp["start"], 1, sp["end"], "unassigned", None))
        lacuna_notes = {
            (sig, r["spans"][sig][0]): n
            for n in self.notes
            if n["type"] == "lacuna"
            for r in n["readings"]
            if sig in r["spans"]
        }
        for lac in self.x["lacunae"]:
            if lac["siglum"] == sig:
                items.append((lac["at"], 0 if lac["kind"] == "start" else 2, lac["at"], "lacuna", lac))
        items.sort(key=lambda t: (t[0], t[1]))
        kinds = frozenset({"name", "fact", "editor", "app"})
        cursor = 0
        for s, _order, e, what, data in items:
            if s >= cursor:  # the whitespace between pieces, and the notes at a point no piece took
                self.emit(ab, sig, cursor, s, [sig], kinds)
            if what == "row":
                seg_id, moved = data
                ptr = sub(ab, "ptr", target="#" + seg_id, type="moved" if moved else None)
                if moved:
                    ptr.set(XML_ID, self.ids.make(f"{self.wit[sig]}.moved.{seg_id}"))
                    self.moved_ptrs[seg_id].append(ptr.get(XML_ID))
            elif what == "unassigned":
                seg = sub(ab, "seg", type="unassigned")
                self.emit(seg, sig, s, e, [sig], kinds)
            else:
                app = sub(ab, "app", type="lacuna")
                rdg = sub(app, "rdg", wit=self._wits([sig]))
                sub(rdg, "lacunaEnd" if data["kind"] == "start" else "lacunaStart")
                note = lacuna_notes.pop((sig, data["at"]), None)
                if note is not None:
                    self.note(app, note)
            cursor = max(cursor, e)
        if len(text) > cursor:
            self.emit(ab, sig, cursor, len(text), [sig], kinds)

    def leftovers(self) -> None:
        """Notes that found no place in a row or in the text (few should): kept in their witness's part, a
        collation note pointing at the pieces its reading spans."""
        for note in self.notes:
            if note["id"] in self.note_el or note["id"] in self.placed:
                continue
            home = self._home(note)
            div = self.parts.get(home or "")
            if div is None:
                div = self.parts[self.sigla[0]]
            if note["type"] == "collation":  # its lemma runs over pieces of the base: the app in a note
                a, b = note["lemma"]["start"], note["lemma"]["end"]
                over = [p[2] for p in self.pieces.get(home or "", []) if p[0] < b and a < p[1]]
                el = sub(div, "note", type="collation", subtype=note["class"], n=note["id"])
                if over:
                    el.set("target", " ".join("#" + i for i in over))
                app = sub(el, "app", type=note["class"], n=note["id"])
                add_text(sub(app, "lem", wit=self._wits([home])), note["lemma"]["text"])
                self._readings(app, (note,), home, a, b, [home])
                self.placed.add(note["id"])
            else:
                el = self.note(div, note)
            el.tail = "\n"

    def _home(self, note: dict) -> str | None:
        """The witness whose part keeps a note that has no row of its own."""
        if note["type"] in ("editor", "collation") and note["lemma"]:
            return note["lemma"]["siglum"]
        return next((s for r in note["readings"] for s in r["spans"]), None)


def tei_document(
    export: EditionJson, texts: dict[str, str], title: str = TITLE, url: str | None = None
) -> etree._ElementTree:
    """The edition as one TEI document (see the module's docstring)."""
    missing = [w["siglum"] for w in export["witnesses"] if w["siglum"] not in texts]
    if missing:
        raise ValueError(f"no text for witnesses {missing}")
    return _Builder(export, texts, title, url).build()


def to_tei(export: EditionJson, texts: dict[str, str], title: str = TITLE, url: str | None = None) -> bytes:
    """The TEI document as UTF-8 bytes with an XML declaration."""
    return etree.tostring(tei_document(export, texts, title, url), xml_declaration=True, encoding="UTF-8")
