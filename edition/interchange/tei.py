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
  and editor's notes as ``note``. Every piece of witness text in a reading is a ``seg`` with an
  ``xml:id`` (``type="moved"`` where the witness tells it elsewhere; ``@corresp`` points to that place
  in the witness's own order). The collation (``edition.engine.collate``) is the only thing that aligns a
  copy with its base: every collation note is one ``app`` (``@type`` its class, ``@n`` its id), at its
  lemma in the base's text, its ``rdg``s the copies' readings. Within a family, where all members' cells
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

import re
from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

from lxml import etree

from ..engine.collate import Silence, silent
from . import TITLE

TEI_NS = "http://www.tei-c.org/ns/1.0"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
TEI = f"{{{TEI_NS}}}"

CLASS_WORDS = {
    "punctuation": "標點之異",
    "orthographic": "異體：同一字的不同寫法",
    "substantive": "異文",
    "addition": "增文：底本所無",
    "omission": "脫文：底本所有而此本無",
    "person": "人物之異（不同本系）",
    "place": "地名之異（不同本系）",
    "thing": "名物之異（不同本系）",
    "number": "數目之異（不同本系）",
    "date": "日期之異（不同本系）",
    "lacuna": "闕文",
    "editor": "編者按",
}
CAUSES = {
    "quote-style": "引號體式之異（“”／「」），本系之內不出校",
    "script": "繁簡字體之異，成員字體不同的本系之內不出校",
    "unpunctuated": "與無標點傳本相較的標點之異，不出校",
    "silenced": "編者以 silent: 略去的類別",
    "unnoted": "對齊所見而未出校的其他差異",
}
READING_TYPES = {
    "spanning": "此本此格向下跨越數行",
    "spanned": "此本此行的文字在上方跨行的格中（ptr 指向之）",
    "absent": "此本不講此刻",
    "layout": "只是空白（換行、空格）之異",
}
SCRIPT_LANG = {"Hant": "zh-Hant", "Hans": "zh-Hans", "mixed": "zh"}
SCRIPT_WORDS = {"Hant": "繁體", "Hans": "簡體", "mixed": "繁簡混用"}
KIND_TAG = {"person": "persName", "place": "placeName", "thing": "objectName"}

# Characters every XML 1.0 name rule (4th and 5th edition) accepts; anything else is replaced.
_NAME_CHARS = re.compile(r"[^A-Za-z0-9_.\-\u4e00-\u9fa5]+")
_NAME_START = re.compile(r"[A-Za-z_\u4e00-\u9fa5]")


def ncname(value: str, prefix: str = "x") -> str:
    """``value`` as a valid NCName: runs of other characters become ``_``; a name must start with a letter."""
    name = _NAME_CHARS.sub("_", value).strip("_")
    if not name or not _NAME_START.match(name):
        name = prefix + name
    return name


class _Ids:
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


@dataclass(slots=True)
class _Mark:
    start: int
    end: int
    kind: str  # region | app | editor | fact | name
    prio: int
    data: Any
    children: list[_Mark] = field(default_factory=list)

    @property
    def point(self) -> bool:
        return self.start == self.end

    def key(self) -> tuple[int, int, int, int]:
        return (self.start, 0 if self.point else 1, -self.end, self.prio)


def _contains(outer: _Mark, inner: _Mark) -> bool:
    if outer.point:
        return False
    if inner.point:
        return outer.start < inner.start < outer.end
    return outer.start <= inner.start and inner.end <= outer.end


STRONG = frozenset({"region", "app"})  # differences: never dropped for a name or a note's span


def _crosses(a: _Mark, b: _Mark) -> bool:
    if a.point or b.point:
        return False
    overlap = a.start < b.end and b.start < a.end
    return overlap and not _contains(a, b) and not _contains(b, a)


def _tree(marks: list[_Mark]) -> list[_Mark]:
    """Nest the marks (sorted by ``key``); a mark that crosses another is dropped (a name or a note's span
    before a difference)."""
    strong = [m for m in marks if m.kind in STRONG and not m.point]
    if strong:
        starts = [m.start for m in strong]
        reach = list(accumulate((m.end for m in strong), max))  # the furthest end up to each strong mark
        kept = []
        for m in marks:
            if m.kind not in STRONG and not m.point:
                j = bisect_left(starts, m.end) - 1
                crossed = False
                while j >= 0 and reach[j] > m.start and not crossed:
                    crossed = _crosses(m, strong[j])
                    j -= 1
                if crossed:
                    continue
            kept.append(m)
        marks = kept
    roots: list[_Mark] = []
    stack: list[_Mark] = []
    for m in marks:
        m = _Mark(m.start, m.end, m.kind, m.prio, m.data)
        while stack and not _contains(stack[-1], m):
            top = stack[-1]
            if not m.point and m.start < top.end and top.start < m.end:
                break  # crosses the open mark
            stack.pop()
        else:
            (stack[-1].children if stack else roots).append(m)
            if not m.point:
                stack.append(m)
            continue
    return roots


def _within_place(x: int, y: int, a: int, b: int) -> bool:
    """Whether the base's ``x:y`` lies in the place ``a:b``: a point only in the point where it is, as a place that is
    a point holds nothing else."""
    if a == b or x == y:
        return x == y == a if a == b else a < x < b
    return a <= x and y <= b


def _clustered(marks: list[_Mark]) -> list[_Mark]:
    """The marks (sorted by ``key``) with every set of collation apps whose lemmas cross one another made one app over
    their union (in the base's text one place can hold only one of two crossing lemmas)."""
    while True:
        apps = [m for m in marks if m.kind == "app" and not m.point]
        pair = next(((x, y) for i, x in enumerate(apps) for y in apps[i + 1 :] if _crosses(x, y)), None)
        if pair is None:
            return marks
        x, y = pair
        joined = _Mark(min(x.start, y.start), max(x.end, y.end), "app", 0, (*x.data, *y.data))
        marks = sorted([m for m in marks if m is not x and m is not y] + [joined], key=_Mark.key)


# Characters XML 1.0 cannot carry: in witness text each becomes <g type="char" n="U+000C"/> (read back as
# the character); in titles and notes, U+FFFD.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def _clean(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def _append(parent: etree._Element, text: str) -> None:
    if not text:
        return
    if len(parent):
        last = parent[-1]
        last.tail = (last.tail or "") + text
    else:
        parent.text = (parent.text or "") + text


def _add_text(parent: etree._Element, text: str) -> None:
    """Witness text, character for character."""
    pos = 0
    for m in _NOT_XML.finditer(text):
        _append(parent, text[pos : m.start()])
        _sub(parent, "g", type="char", n=f"U+{ord(m.group()):04X}")
        pos = m.end()
    _append(parent, text[pos:])


def _sub(parent: etree._Element, tag: str, text: str | None = None, **attrib: str | None) -> etree._Element:
    el = etree.SubElement(parent, TEI + tag)
    for k, v in attrib.items():
        if v is not None:
            el.set(XML_ID if k == "xml_id" else k, _clean(v))
    if text:
        el.text = _clean(text)
    return el


@dataclass
class _Region:
    """One place where the members of a family differ inside a shared reading (base offsets ``a``-``b``)."""

    a: int
    b: int
    copies: dict[str, tuple[int, int, tuple[dict, ...], tuple]]  # siglum -> copy offsets, notes, (class, cause)s
    elsewhere: tuple[dict, ...] = ()  # notes whose lemma lies here, of copies that read elsewhere


class _Builder:
    def __init__(self, export: dict[str, Any], texts: dict[str, str], title: str, url: str | None) -> None:
        self.x = export
        self.texts = texts
        self.title = title
        self.url = url
        self.ids = _Ids()
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
        self.notes = export["notes"]
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

    def _marks(self) -> dict[str, list[_Mark]]:
        out: dict[str, list[_Mark]] = defaultdict(list)
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
            out[sig].append(_Mark(a, b, "name", 3, (kind, refs, is_named)))
        for note in self.notes:
            self.note_id[note["id"]] = self.ids.make(note["id"], "n")
        for note in self.notes:
            if note["type"] == "collation" and note["lemma"]:  # one app, at its lemma in the base
                lm = note["lemma"]
                out[lm["siglum"]].append(_Mark(lm["start"], lm["end"], "app", 0, (note,)))
            # a fact note, and an editor's fact: each reading (an editor's fact's first reading is its lemma)
            elif note["type"] == "fact" or (note["type"] == "editor" and note["readings"]):
                for r in note["readings"]:
                    for sig, (a, b) in r["spans"].items():
                        if b > a:
                            out[sig].append(_Mark(a, b, note["type"], 2 if note["type"] == "fact" else 1, note))
            elif note["type"] == "editor" and note["lemma"] and note["lemma"]["end"] > note["lemma"]["start"]:
                lm = note["lemma"]
                out[lm["siglum"]].append(_Mark(lm["start"], lm["end"], "editor", 1, note))
        for ms in out.values():
            ms.sort(key=_Mark.key)
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

    def _within(self, sig: str, start: int, end: int, kinds: frozenset[str]) -> list[_Mark]:
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
                        marks.append(_Mark(m.start + shift, m.end + shift, "app", 0, m.data))
            marks.sort(key=_Mark.key)
        if "app" in kinds:
            marks = _clustered(marks)
        self._nodes(parent, sig, start, end, _tree(marks), wits)

    def _nodes(
        self, parent: etree._Element, sig: str, start: int, end: int, nodes: list[_Mark], wits: list[str]
    ) -> None:
        text = self.texts[sig]
        cursor = start
        for node in nodes:
            if node.start > cursor:
                _add_text(parent, text[cursor : node.start])
            self._mark(parent, sig, node, wits)
            cursor = max(cursor, node.end)
        if end > cursor:
            _add_text(parent, text[cursor:end])

    def _mark(self, parent: etree._Element, sig: str, node: _Mark, wits: list[str]) -> None:
        if node.kind == "name":
            kind, refs, is_named = node.data
            ref = " ".join("#" + self.reg_id[r] for r in refs if r in self.reg_id) or None
            el = _sub(parent, KIND_TAG[kind], ref=ref) if is_named else _sub(parent, "rs", type=kind, ref=ref)
            self._nodes(el, sig, node.start, node.end, node.children, wits)
        elif node.kind in ("fact", "editor"):
            el = _sub(parent, "seg", type=node.kind)
            self.targets[node.data["id"]].append(el)
            self._nodes(el, sig, node.start, node.end, node.children, wits)
        elif node.kind == "app":  # a collation note at its lemma, in a reading of the base its copies do not share
            notes = node.data  # one, or several whose lemmas cross
            self.placed.update(n["id"] for n in notes)
            classes = {n["class"] for n in notes}
            app = _sub(parent, "app", type=next(iter(classes)) if len(classes) == 1 else None)
            app.set("n", " ".join(n["id"] for n in notes))
            self._nodes(_sub(app, "lem", wit=self._wits(wits)), sig, node.start, node.end, node.children, wits)
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
            rdg = _sub(app, "rdg", wit=self._wits(sigla), type=kind, n=" ".join(n["id"] for n in of[reading]))
            _add_text(rdg, reading)

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
                inside = [blk for blk in bl if not blk[4] and _within_place(blk[0], blk[1], a, b)]
                notes = tuple(n for blk in inside for n in blk[5])
                quiet = tuple(blk[6] for blk in inside if blk[6])
                per[c] = (self._map_start(bl, a, ce, a == b), self._map_end(bl, b, cs, a == b), notes, quiet)
            elsewhere = tuple(n for n in others if _within_place(n["lemma"]["start"], n["lemma"]["end"], a, b))
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
        marks += [_Mark(r.a, r.b, "region", 0, r) for r in regions]
        marks.sort(key=_Mark.key)
        self._nodes(parent, base, bs, be, _tree(marks), [base, *copies])

    def _region(self, parent: etree._Element, base: str, node: _Mark, wits: list[str]) -> None:
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
        app = _sub(parent, "app")
        lem = _sub(app, "lem", wit=self._wits(agree))
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
            rdg = _sub(app, "rdg", wit=self._wits(sigla), type=kind, cause=cause, n=" ".join(note_ids) or None)
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
        root.append(self.header())
        standoff = self.standoff()
        if standoff is not None:
            root.append(standoff)
        text = _sub(root, "text")
        text.set(XML_SPACE, "preserve")
        body = _sub(text, "body")
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
        root[-1].tail = "\n"
        return etree.ElementTree(root)

    def episode(self, body: etree._Element, ep: dict) -> None:
        div = _sub(body, "div", type="episode", xml_id=self.ep_id[ep["id"]], n=ep["id"])
        div.text = "\n"
        _sub(div, "head", ep["title"]).tail = "\n"
        if ep["description"]:
            _sub(div, "p", ep["description"]).tail = "\n"
        rows = ep["rows"]
        covered: dict[int, list[tuple[str, str]]] = defaultdict(list)  # row index -> (siglum, seg id above)
        for k, row in enumerate(rows):
            ab = _sub(div, "ab", type="row", xml_id=self.row_id[row["id"]], n=row["id"])
            ab.tail = "\n"
            app = _sub(ab, "app", type="row")
            firsts = self.row_readings(app, row, covered.get(k, []))
            for sig, n in row.get("span", {}).items():
                for j in range(k + 1, min(k + n, len(rows))):
                    covered[j].append((sig, firsts[sig]))
            told = set(row["cells"]) | {s for s, _ in covered.get(k, [])}
            absent = [s for s in self.sigla if s not in told]
            if absent:
                _sub(app, "rdg", wit=self._wits(absent), type="absent")
            for note in self.row_notes.get(row["id"], ()):
                self.note(app, note)
        if not rows and not ep["description"]:
            _sub(div, "p", "（此段諸本皆無）").tail = "\n"

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
            grp = _sub(app, "rdgGrp", type="family", n=fam["id"])
            base = fam["base"]
            shared = self._shareable(base, present, cells, spans)
            if shared is not None:
                lem = _sub(grp, "lem", wit=self._wits(present))
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
                    rd = _sub(grp, tag, wit=self._wits(sigla), type="spanning" if key[1] > 1 else None)
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
                rd = _sub(grp, "rdg", wit=self._wits([s]), type="spanned")
                _sub(rd, "ptr", target="#" + seg_id)
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
        seg = _sub(
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
        el = _sub(parent, "note", **attrs)
        _append(el, _clean(note["text"] or note["label"] or CLASS_WORDS.get(note["class"], "")))
        self.note_el[note["id"]] = el
        return el

    def witness_part(self, body: etree._Element, w: dict) -> None:
        sig = w["siglum"]
        text = self.texts[sig]
        div = _sub(body, "div", type="witness", corresp="#" + self.wit[sig], n=sig)
        div.text = "\n"
        self.parts[sig] = div
        _sub(div, "head", f"{sig}　{w['title']}").tail = "\n"
        ab = _sub(div, "ab", type="witness-order", corresp="#" + self.wit[sig])
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
                ptr = _sub(ab, "ptr", target="#" + seg_id, type="moved" if moved else None)
                if moved:
                    ptr.set(XML_ID, self.ids.make(f"{self.wit[sig]}.moved.{seg_id}"))
                    self.moved_ptrs[seg_id].append(ptr.get(XML_ID))
            elif what == "unassigned":
                seg = _sub(ab, "seg", type="unassigned")
                self.emit(seg, sig, s, e, [sig], kinds)
            else:
                app = _sub(ab, "app", type="lacuna")
                rdg = _sub(app, "rdg", wit=self._wits([sig]))
                _sub(rdg, "lacunaEnd" if data["kind"] == "start" else "lacunaStart")
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
                el = _sub(div, "note", type="collation", subtype=note["class"], n=note["id"])
                if over:
                    el.set("target", " ".join("#" + i for i in over))
                app = _sub(el, "app", type=note["class"], n=note["id"])
                _add_text(_sub(app, "lem", wit=self._wits([home])), note["lemma"]["text"])
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

    # ----- header and register -----

    def header(self) -> etree._Element:
        x = self.x
        hdr = etree.Element(TEI + "teiHeader")
        hdr.set(XML_LANG, "zh-Hant")
        fd = _sub(hdr, "fileDesc")
        ts = _sub(fd, "titleStmt")
        _sub(ts, "title", self.title)
        rs = _sub(ts, "respStmt", xml_id=self.ids.make("editor"))
        _sub(rs, "resp", '編者：段落、行、校記的審定，編者按（note type="editor" resp="#editor"）')
        _sub(rs, "name", f"{self.title}編者")
        rs = _sub(ts, "respStmt")
        _sub(rs, "resp", "分段、對齊、校記（機器生成）")
        _sub(rs, "name", "edition（python -m edition export --format tei）")
        ps = _sub(fd, "publicationStmt")
        p = _sub(ps, "p", f"由 {x['format']} 匯出資料生成；與 edition.json 同時發佈")
        if self.url:
            _append(p, "：")
            _sub(p, "ptr", target=self.url)
        _append(p, "。")
        sd = _sub(fd, "sourceDesc")
        lw = _sub(sd, "listWit")
        _sub(lw, "head", "傳本")
        wits = {w["siglum"]: w for w in x["witnesses"]}
        for fam in self.families:
            fl = _sub(lw, "listWit", xml_id=self.ids.make(f"family.{self.wit[fam['id']]}"), n=fam["id"])
            _sub(fl, "head", f"本系 {fam['id']}")
            how = "由目錄指定" if fam["declared"] else "由程式發現"
            _sub(fl, "desc", f"同一文本的抄本（{how}）；底本 {fam['base']}，校記以之為 lem。")
            for s in fam["members"]:
                if s in wits:
                    self.witness(fl, wits[s], fam)
        enc = _sub(hdr, "encodingDesc")
        pd = _sub(enc, "projectDesc")
        _sub(
            pd,
            "p",
            '同一故事諸傳本的平行校本：段落（div type="episode"）中每一行（ab type="row"）是敘事的同一時刻，'
            "各本系在此時刻的讀法並列於 app 中。",
        )
        ed = _sub(enc, "editorialDecl")
        norm = _sub(ed, "normalization")
        nm = x["normalised"]
        _sub(
            norm,
            "p",
            "文字照錄，不作任何正規化：每個傳本的每個字元（含換行、空格）恰在一處出現——行中的 seg，"
            '或傳本部分（div type="witness"）的 ab type="witness-order" 中。以下差異比較時統一處理，不出校，'
            "在同一讀法中以嵌套的 app 標出（@cause）：",
        )
        _sub(norm, "p", f'引號體式（“”／「」）：本系之內 {nm["quote_styles"]} 處（@cause="quote-style"）。')
        unp = "、".join(nm["unpunctuated"]) or "無"
        _sub(norm, "p", f'無標點的傳本：{unp}；與之相較的標點之異不出校（@cause="unpunctuated"）。')
        scr = "、".join(nm["scripts"]) or "無"
        _sub(norm, "p", f'成員字體不同的本系：{scr}；繁簡轉換之異不出校（@cause="script"）。')
        sil = "、".join(f"{k} {v} 條" for k, v in nm["silenced"].items()) or "無"
        _sub(norm, "p", f'編者略去的校記類別（@cause="silenced"）：{sil}。')
        seg = _sub(ed, "segmentation")
        _sub(
            seg,
            "p",
            "行中每段傳本文字是一個 seg（xml:id）；傳本部分以 ptr 依傳本原來的次序指向它們，其間的空白與段落外文字"
            '（seg type="unassigned"）照錄。seg type="moved"：此本把這段文字講在別處，@corresp 指向其原來的位置。'
            "讀回一本：依次讀其傳本部分，循 ptr 讀所指的 seg，每個 app 取 @wit 含此本的 lem 或 rdg，略去 note。",
        )
        interp = _sub(ed, "interpretation")
        directives = "、".join(f"{k} {v} 條" for k, v in x["editorial"].items()) or "無"
        _sub(interp, "p", f"編者文件（editorial.yaml）中生效的指令：{directives}。")
        _sub(
            interp,
            "p",
            "校記：本系之內的異文為嵌套的 app（@type 為類別，@n 為校記 id）；不同本系之間同一事實的不同說法為 "
            'note type="fact"（@subtype 為種類）；闕文為 lacunaStart／lacunaEnd 與 note type="lacuna"；'
            '編者按為 note type="editor"。類別見 classDecl。',
        )
        _sub(enc, "variantEncoding", method="parallel-segmentation", location="internal")
        cd = _sub(enc, "classDecl")
        self.taxonomy(cd, "note-classes", "校記類別（lem/rdg/app 的 @type，note 的 @subtype）", CLASS_WORDS)
        self.taxonomy(cd, "causes", "不出校之異的原因（rdg 的 @cause）", CAUSES)
        self.taxonomy(cd, "reading-types", "行的讀法的其他 @type", READING_TYPES)
        etree.indent(hdr, space=" ", level=1)
        hdr.tail = "\n"
        return hdr

    def taxonomy(self, parent: etree._Element, name: str, gloss: str, items: dict[str, str]) -> None:
        tx = _sub(parent, "taxonomy", xml_id=self.ids.make(name))
        _sub(tx, "desc", gloss)
        for key, words in items.items():
            cat = _sub(tx, "category", xml_id=self.ids.make(f"{name}.{key}"), n=key)
            _sub(cat, "catDesc", f"{key}：{words}")

    def witness(self, parent: etree._Element, w: dict, fam: dict) -> None:
        el = _sub(parent, "witness", xml_id=self.wit[w["siglum"]], n=w["siglum"])
        _sub(el, "abbr", w["siglum"], type="siglum")
        bibl = _sub(el, "bibl")
        _sub(bibl, "title", w["title"] or w["siglum"])
        _sub(bibl, "idno", w["file"], type="file")
        ext = _sub(bibl, "extent")
        _sub(ext, "measure", f"{w['length']} 字元", unit="char", quantity=str(w["length"]))
        _sub(bibl, "textLang", SCRIPT_WORDS.get(w["script"], w["script"]), mainLang=SCRIPT_LANG.get(w["script"], "zh"))
        if w["source"]:
            _sub(bibl, "note", w["source"], type="source")
        role = "底本" if fam["base"] == w["siglum"] else "抄本"
        _sub(el, "note", f"本系 {fam['id']}（{role}）", type="family", target="#" + self.wit[fam["base"]])
        if w["description"]:
            _sub(el, "note", w["description"], type="description")

    def standoff(self) -> etree._Element | None:
        reg = self.x["register"]
        if not reg:
            return None
        so = etree.Element(TEI + "standOff")
        lists = {
            "person": (_sub(so, "listPerson"), "person", "persName"),
            "place": (_sub(so, "listPlace"), "place", "placeName"),
            "thing": (_sub(so, "listObject"), "object", "objectName"),
        }
        for e in reg:
            lst, tag, name_tag = lists[e["kind"]]
            el = _sub(lst, tag, xml_id=self.reg_id[e["id"]])
            holder = _sub(el, "objectIdentifier") if tag == "object" else el
            _sub(holder, name_tag, e["name"])
            for kind in ("aliases", "variants", "titles"):
                for alias in e[kind]:
                    if alias != e["name"]:
                        _sub(holder, name_tag, alias, type=kind[:-1] if kind != "aliases" else "alias")
            if e["note"]:
                _sub(el, "note", e["note"])
        for lst, _tag, _name in lists.values():
            if not len(lst):
                so.remove(lst)
        etree.indent(so, space=" ", level=1)
        so.tail = "\n"
        return so


def tei_document(
    export: dict[str, Any], texts: dict[str, str], title: str = TITLE, url: str | None = None
) -> etree._ElementTree:
    """The edition as one TEI document (see the module's docstring)."""
    missing = [w["siglum"] for w in export["witnesses"] if w["siglum"] not in texts]
    if missing:
        raise ValueError(f"no text for witnesses {missing}")
    return _Builder(export, texts, title, url).build()


def to_tei(export: dict[str, Any], texts: dict[str, str], title: str = TITLE, url: str | None = None) -> bytes:
    """The TEI document as UTF-8 bytes with an XML declaration."""
    return etree.tostring(tei_document(export, texts, title, url), xml_declaration=True, encoding="UTF-8")


# ----- reading it back -----


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
