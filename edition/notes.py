"""Variant notes: where each row's readings differ from the base witness.

Close readings (one text in two copies) are compared character by character,
and every difference becomes a note. Loose readings (independent retellings)
are compared word by word, and only what a reader wants to know becomes a
note: names, numbers, dates and places that differ, and short word-for-word
substitutions; a wholesale rewrite is left to the parallel columns.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import jieba
import jieba.posseg
from rapidfuzz.distance import Indel, Levenshtein

from .model import Note, Reading, Row, Span
from .normalise import fold_char, is_mark, punct_key

jieba.setLogLevel(60)

CLOSE = 0.75  # Indel similarity of the folded cells above which every difference is noted
SHORT = 4  # a substitution of at most this many characters a side is noted even untagged
_NUMERALS = set("0123456789一二三四五六七八九十百千萬万億亿兩两廿卅零〇半")
_DATE_WORDS = set("年月日朔旦夕時时辰")
_TAGS = {"nr": "name", "nrfg": "name", "nrt": "name", "ns": "place", "t": "date", "m": "number"}


@dataclass(frozen=True)
class Tok:
    """A unit of comparison: shown form ``t`` at ``start:end``, matching form ``n`` (as in CollateX)."""

    t: str
    n: str
    start: int
    end: int
    mark: bool
    seg: int  # index of the segment it lies in: a note never crosses segments
    tag: str | None = None


def char_tokens(row: Row, siglum: str) -> list[Tok]:
    out = []
    for seg in row.cells[siglum]:
        for i, ch in enumerate(seg.text):
            if ch.isspace():
                continue
            mark = is_mark(ch)
            n = "\x00" + punct_key(ch) if mark else fold_char(ch)
            out.append(Tok(ch, n, seg.start + i, seg.start + i + 1, mark, seg.index))
    return out


def _tag(word: str, flag: str) -> str | None:
    tag = _TAGS.get(flag)
    if tag == "number" and not any(c in _NUMERALS for c in word):
        return None
    if tag in ("number", None) and any(c in _NUMERALS for c in word) and any(c in _DATE_WORDS for c in word):
        return "date"
    return tag


def word_tokens(chars: list[Tok]) -> list[Tok]:
    """Group a cell's letters into words (jieba, on the folded Simplified form); marks are dropped."""
    letters = [c for c in chars if not c.mark]
    folded = "".join(c.n for c in letters)
    out = []
    i = 0
    for pair in jieba.posseg.cut(folded, HMM=True):
        word, flag = pair.word, pair.flag
        part = letters[i : i + len(word)]
        i += len(word)
        tag = _tag(word, flag)
        # a word never straddles two segments: cut it where they meet
        while part:
            k = next((j for j, c in enumerate(part) if c.seg != part[0].seg), len(part))
            piece, part = part[:k], part[k:]
            out.append(
                Tok(
                    "".join(c.t for c in piece),
                    "".join(c.n for c in piece),
                    piece[0].start,
                    piece[-1].end,
                    False,
                    piece[0].seg,
                    tag,
                )
            )
    return out


def _place(toks: Sequence[Tok], i: int, default: int) -> int:
    """Zero-width position before token ``i`` (or after the last one)."""
    if i < len(toks):
        return toks[i].start
    return toks[-1].end if toks else default


def _span_text(text: str, toks: Sequence[Tok]) -> tuple[int, int, str]:
    return toks[0].start, toks[-1].end, text[toks[0].start : toks[-1].end]


def _diff_notes(
    row: Row, base: str, other: str, a: list[Tok], b: list[Tok], texts: dict[str, str], close: bool
) -> Iterable[Note]:
    """Notes for the non-equal stretches between two token lists (and shown-form differences in close equal ones)."""
    for op in Levenshtein.opcodes([t.n for t in a], [t.n for t in b]):
        ta, tb = a[op.src_start : op.src_end], b[op.dest_start : op.dest_end]
        if op.tag == "equal":
            if close:
                yield from _shown_differences(row, base, other, ta, tb, texts)
            continue
        marks_only = all(t.mark for t in (*ta, *tb))
        tags = tuple(sorted({t.tag for t in (*ta, *tb) if t.tag}))
        if (
            not close
            and not tags
            and not (op.tag == "replace" and max(len(x.t) for x in (*ta, *tb)) <= SHORT and len(ta) + len(tb) <= 4)
        ):
            continue
        if marks_only:
            cls = "punctuation"
        elif not ta:
            cls = "addition"
        elif not tb:
            cls = "omission"
        else:
            cls = "substantive"
        pa, pb = _by_segment(ta), _by_segment(tb)
        for k in range(max(len(pa), len(pb))):
            ca = pa[k] if k < len(pa) else []
            cb = pb[k] if k < len(pb) else []
            if ca:
                ls, le, ltext = _span_text(texts[base], ca)
            else:
                ls = le = pa[-1][-1].end if pa else _place(a, op.src_start, row.cells[base][0].start)
                ltext = ""
            if cb:
                rs, re_, rtext = _span_text(texts[other], cb)
            else:
                rs = re_ = pb[-1][-1].end if pb else _place(b, op.dest_start, row.cells[other][0].start)
                rtext = ""
            kind = cls if (ca and cb) or marks_only else ("addition" if cb else "omission")
            reading = Reading((other,), rtext, {other: (rs, re_)})
            yield Note(row.id, kind, tags, Span(base, ls, le), ltext, (reading,))


def _by_segment(toks: Sequence[Tok]) -> list[list[Tok]]:
    out: list[list[Tok]] = []
    for t in toks:
        if out and out[-1][-1].seg == t.seg:
            out[-1].append(t)
        else:
            out.append([t])
    return out


def _shown_differences(
    row: Row, base: str, other: str, ta: Sequence[Tok], tb: Sequence[Tok], texts: dict[str, str]
) -> Iterable[Note]:
    """Within an equal stretch: characters that fold alike but are written differently."""
    i = 0
    while i < len(ta):
        if ta[i].t == tb[i].t:
            i += 1
            continue
        j = i
        while (
            j < len(ta)
            and ta[j].t != tb[j].t
            and ta[j].mark == ta[i].mark
            and ta[j].seg == ta[i].seg
            and tb[j].seg == tb[i].seg
        ):
            j += 1
        ls, le, ltext = _span_text(texts[base], ta[i:j])
        rs, re_, rtext = _span_text(texts[other], tb[i:j])
        cls = "punctuation" if ta[i].mark else "orthographic"
        yield Note(row.id, cls, (), Span(base, ls, le), ltext, (Reading((other,), rtext, {other: (rs, re_)}),))
        i = j


def _merge(notes: list[Note]) -> list[Note]:
    """One note per lemma and class; witnesses with the same reading share it."""
    merged: dict[tuple, Note] = {}
    for note in notes:
        key = (note.lemma, note.cls)
        if key not in merged:
            merged[key] = note
            continue
        old = merged[key]
        readings = list(old.readings)
        for rd in note.readings:
            for k, have in enumerate(readings):
                if have.text == rd.text:
                    readings[k] = Reading(have.sigla + rd.sigla, have.text, {**have.spans, **rd.spans})
                    break
            else:
                readings.append(rd)
        tags = tuple(sorted(set(old.tags) | set(note.tags)))
        merged[key] = Note(old.row, old.cls, tags, old.lemma, old.lemma_text, tuple(readings))
    return sorted(merged.values(), key=lambda n: (n.lemma.start, n.lemma.end, n.cls))


def row_notes(row: Row, base: str, order: list[str], texts: dict[str, str]) -> list[Note]:
    """All notes of one row, against ``base`` (or, where the base is silent, the first witness present)."""
    present = [s for s in order if s in row.cells]
    lemma_siglum = base if base in row.cells else present[0]
    first = row.cells[lemma_siglum][0]
    absent = tuple(s for s in order if s not in row.cells)
    notes: list[Note] = []
    if lemma_siglum != base:
        notes.append(
            Note(
                row.id,
                "addition",
                (),
                Span(lemma_siglum, first.start, first.end),
                first.text,
                (Reading(absent, "", {}),),
            )
        )
    elif absent:
        notes.append(
            Note(row.id, "omission", (), Span(base, first.start, first.end), first.text, (Reading(absent, "", {}),))
        )
    a_chars = char_tokens(row, lemma_siglum)
    a_words = None
    for other in present:
        if other == lemma_siglum:
            continue
        b_chars = char_tokens(row, other)
        fa = "".join(t.n for t in a_chars if not t.mark)
        fb = "".join(t.n for t in b_chars if not t.mark)
        if Indel.normalized_similarity(fa, fb) >= CLOSE:
            notes.extend(_diff_notes(row, lemma_siglum, other, a_chars, b_chars, texts, close=True))
        else:
            a_words = a_words if a_words is not None else word_tokens(a_chars)
            notes.extend(_diff_notes(row, lemma_siglum, other, a_words, word_tokens(b_chars), texts, close=False))
    return _merge(notes)
