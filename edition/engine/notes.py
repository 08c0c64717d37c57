"""Variant notes: where each row's readings differ from the base witness.

Close readings (one text in two copies) are compared character by character,
and every difference becomes a note. Loose readings (independent retellings)
are compared word by word, and only what a reader wants to know becomes a
note: names, numbers, dates and places that differ, and short word-for-word
substitutions; a wholesale rewrite is left to the parallel columns.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from rapidfuzz.distance import Indel, Levenshtein

from .model import Note, Reading, Row, Span, Token, Tokens
from .normalise import punct_key
from .params import Params

_NUMERALS = set("0123456789一二三四五六七八九十百千萬万億亿兩两廿卅零〇半")
_DATE_WORDS = set("年月日朔旦夕時时辰")
_TAGS = {"nr": "name", "nrfg": "name", "nrt": "name", "ns": "place"}  # numbers and dates: see word_tag


def span_tokens(tokens: Tokens, start: int, end: int, seg: int) -> list[Token]:
    """The tokens of ``text[start:end]``: letters with their compared forms, and marks (spaces skipped)."""
    out = []
    text = tokens.text
    k = tokens.index(start)
    for i in range(start, end):
        ch = text[i]
        if ch.isspace():
            continue
        if k < len(tokens.at) and tokens.at[k] == i:
            out.append(Token(ch, tokens.n[k], i, i + 1, False, seg))
            k += 1
        else:
            out.append(Token(ch, "\x00" + punct_key(ch), i, i + 1, True, seg))
    return out


def char_tokens(row: Row, tokens: Tokens) -> list[Token]:
    return [t for seg in row.cells[tokens.siglum] for t in span_tokens(tokens, seg.start, seg.end, seg.index)]


def word_tag(word: str, flag: str, surnames: tuple[str, ...]) -> str | None:
    """name, place, number or date, from jieba's part of speech and the numerals in the word.

    A number is a numeral word (jieba's m, mq, t, or one that starts with a
    numeral and is no idiom: 二万人) with more than a lone 一
    (一起, 一番 are words, not counts; 豪情萬丈, 萬一 are idioms); a date is
    such a word with a date word in it (九月, 十八日); single characters are
    never names or places.
    """
    numerals = [c for c in word if c in _NUMERALS]
    counted = len(numerals) >= 2 or (len(numerals) == 1 and numerals[0] not in "一兩两半")
    if flag in ("m", "mq", "t") or (word[0] in _NUMERALS and flag not in ("i", "l")):
        if not counted:
            return None
        return "date" if any(c in _DATE_WORDS for c in word) else "number"
    tag = _TAGS.get(flag)
    if tag == "name" and not word.startswith(surnames):
        return None
    return tag if tag and len(word) >= 2 else None


@lru_cache(maxsize=1 << 15)
def _cut(folded: str) -> tuple[tuple[str, str], ...]:
    """Words and parts of speech of a folded text, once per text.

    jieba loads its dictionaries (about a second) on first use only, so a
    build without retellings to compare never pays for them. It cuts unknown
    names after the surname (杨/万春); a run of name parts is joined into one.
    """
    import jieba
    import jieba.posseg

    jieba.setLogLevel(60)
    out: list[tuple[str, str]] = []
    for p in jieba.posseg.cut(folded, HMM=True):
        if out and p.flag == "nr" and out[-1][1] == "nr":
            out[-1] = (out[-1][0] + p.word, "nr")
        else:
            out.append((p.word, p.flag))
    return tuple(out)


def word_tokens(chars: list[Token], surnames: tuple[str, ...]) -> list[Token]:
    """Group a cell's letters into words (jieba, on the folded Simplified form); marks are dropped."""
    letters = [c for c in chars if not c.mark]
    folded = "".join(c.n for c in letters)
    out = []
    i = 0
    for word, flag in _cut(folded):
        part = letters[i : i + len(word)]
        i += len(word)
        tag = word_tag(word, flag, surnames)
        # a word never straddles two segments: cut it where they meet
        while part:
            k = next((j for j, c in enumerate(part) if c.seg != part[0].seg), len(part))
            piece, part = part[:k], part[k:]
            out.append(
                Token(
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


def _place(toks: Sequence[Token], i: int, default: int) -> int:
    """Zero-width position before token ``i`` (or after the last one)."""
    if i < len(toks):
        return toks[i].start
    return toks[-1].end if toks else default


def _note(
    row: Row,
    cls: str,
    tags: Iterable[str],
    lemma: tuple[str, int, int],
    reading: tuple[str, int, int],
    texts: dict[str, str],
) -> Note:
    (ls, la, lb), (rs, ra, rb) = lemma, reading
    return Note(
        row.id,
        cls,
        tuple(sorted(set(tags))),
        Span(ls, la, lb),
        texts[ls][la:lb],
        (Reading((rs,), texts[rs][ra:rb], {rs: (ra, rb)}),),
    )


def _close_notes(row: Row, base: str, other: str, a: list[Token], b: list[Token], ctx: Context) -> Iterable[Note]:
    """Every difference between two close readings, located to the character."""
    texts = ctx.texts
    for op in Levenshtein.opcodes([t.n for t in a], [t.n for t in b]):
        ta, tb = a[op.src_start : op.src_end], b[op.dest_start : op.dest_end]
        if op.tag == "equal":
            yield from _shown_differences(row, base, other, ta, tb, texts)
            continue
        marks_only = all(t.mark for t in (*ta, *tb))
        pa, pb = _by_segment(ta), _by_segment(tb)
        for k in range(max(len(pa), len(pb))):
            ca = pa[k] if k < len(pa) else []
            cb = pb[k] if k < len(pb) else []
            if ca:
                la, lb = ca[0].start, ca[-1].end
            else:
                la = lb = pa[-1][-1].end if pa else _place(a, op.src_start, row.cells[base][0].start)
            if cb:
                ra, rb = cb[0].start, cb[-1].end
            else:
                ra = rb = pb[-1][-1].end if pb else _place(b, op.dest_start, row.cells[other][0].start)
            if marks_only:
                cls = "punctuation"
            elif ca and cb:
                cls = "substantive"
            else:
                cls = "addition" if cb else "omission"
            tags = _tags_of(ctx, (base, la, lb), (other, ra, rb)) if cls != "punctuation" else ()
            yield _note(row, cls, tags, (base, la, lb), (other, ra, rb), texts)


def _tags_of(ctx: Context, *spans: tuple[str, int, int]) -> set[str]:
    """The tags of the words in these spans, read as one run of letters."""
    letters = [t for s, a, b in spans for t in span_tokens(ctx.tokens[s], a, b, 0) if not t.mark]
    return {w.tag for w in word_tokens(letters, ctx.surnames) if w.tag} if letters else set()


def _loose_notes(row: Row, base: str, other: str, a: list[Token], b: list[Token], ctx: Context) -> Iterable[Note]:
    """What a reader wants to know of two retellings: one-word substitutions, and the names,
    numbers, dates and places that only one of them has, paired where they stand in the same place."""
    texts, short = ctx.texts, ctx.params.short
    forms_a, forms_b = {t.n for t in a}, {t.n for t in b}
    seen: set[tuple[str, str]] = set()
    for op in Levenshtein.opcodes([t.n for t in a], [t.n for t in b]):
        if op.tag == "equal":
            continue
        ta, tb = a[op.src_start : op.src_end], b[op.dest_start : op.dest_end]
        if len(ta) == 1 and len(tb) == 1 and len(ta[0].n) <= short and len(tb[0].n) <= short:
            tags = {t.tag for t in (*ta, *tb) if t.tag}
            yield _note(
                row, "substantive", tags, (base, ta[0].start, ta[0].end), (other, tb[0].start, tb[0].end), texts
            )
            continue
        at_a = ta[0].start if ta else _place(a, op.src_start, row.cells[base][0].start)
        at_b = tb[0].start if tb else _place(b, op.dest_start, row.cells[other][0].start)
        for tag in ("name", "number", "date", "place"):
            only_a = _distinct((t for t in ta if t.tag == tag and t.n not in forms_b), seen, "a")
            only_b = _distinct((t for t in tb if t.tag == tag and t.n not in forms_a), seen, "b")
            for k in range(max(len(only_a), len(only_b))):
                wa = only_a[k] if k < len(only_a) else None
                wb = only_b[k] if k < len(only_b) else None
                lemma = (base, wa.start, wa.end) if wa else (base, at_a, at_a)
                reading = (other, wb.start, wb.end) if wb else (other, at_b, at_b)
                cls = "substantive" if wa and wb else ("omission" if wa else "addition")
                yield _note(row, cls, (tag,), lemma, reading, texts)


def _distinct(toks: Iterable[Token], seen: set[tuple[str, str]], side: str) -> list[Token]:
    """Each name (number, …) once per row and side: a retelling that repeats it says it once."""
    out = []
    for t in toks:
        if (side, t.n) not in seen:
            seen.add((side, t.n))
            out.append(t)
    return out


def _by_segment(toks: Sequence[Token]) -> list[list[Token]]:
    out: list[list[Token]] = []
    for t in toks:
        if out and out[-1][-1].seg == t.seg:
            out[-1].append(t)
        else:
            out.append([t])
    return out


def _shown_differences(
    row: Row, base: str, other: str, ta: Sequence[Token], tb: Sequence[Token], texts: dict[str, str]
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
        cls = "punctuation" if ta[i].mark else "orthographic"
        yield _note(row, cls, (), (base, ta[i].start, ta[j - 1].end), (other, tb[i].start, tb[j - 1].end), texts)
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


class Context:
    """What notes are made with: the witnesses' tokens, the surname list, the parameters."""

    def __init__(self, tokens: dict[str, Tokens], surnames: tuple[str, ...], params: Params) -> None:
        self.tokens = tokens
        self.texts = {s: t.text for s, t in tokens.items()}
        self.surnames = surnames
        self.params = params


def row_notes(row: Row, base: str, order: list[str], ctx: Context) -> list[Note]:
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
    a_chars = char_tokens(row, ctx.tokens[lemma_siglum])
    a_words = None
    for other in present:
        if other == lemma_siglum:
            continue
        b_chars = char_tokens(row, ctx.tokens[other])
        fa = "".join(t.n for t in a_chars if not t.mark)
        fb = "".join(t.n for t in b_chars if not t.mark)
        if Indel.normalized_similarity(fa, fb) >= ctx.params.close:
            notes.extend(_close_notes(row, lemma_siglum, other, a_chars, b_chars, ctx))
        else:
            a_words = a_words if a_words is not None else word_tokens(a_chars, ctx.surnames)
            notes.extend(_loose_notes(row, lemma_siglum, other, a_words, word_tokens(b_chars, ctx.surnames), ctx))
    return _merge(notes)
