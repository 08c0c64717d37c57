"""Collation within a family: every difference between a copy and its family's base, over the whole text.

Copies of one text are compared character by character -- letters in their compared
form, punctuation by kind -- so every difference is located to the character and
classed: punctuation, orthographic (the same letter written otherwise: 巖/岩),
substantive (another letter), addition, omission. Quote styles (“” / 「」) are
normalised silently: they are counted, not noted. Where a copy breaks off (or begins
late) the missing stretch is one lacuna, not hundreds of omissions.

Between two notes a copy differs from its base only silently, letter for letter: :func:`silent` says where
and why (the TEI marks those places), with the same rules :func:`audible` applies.

Long texts are cut into chunks at anchors -- stretches of letters found once in each
text, in the same order -- and each pair of chunks is compared on its own, so the cost
follows the length of the texts, not its square.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Collection, Iterator
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from functools import partial
from itertools import compress
from operator import not_
from typing import NamedTuple

from rapidfuzz.distance import Indel, Opcodes

from .convert import char_to_simplified
from .model import Family, Lacuna, Note, Reading, Span, Tokens
from .normalise import is_mark, punct_key
from .params import Params

QUOTE_KEYS = {"Q", "q"}
QUOTE_MARKS = {"\x00" + k for k in QUOTE_KEYS}


class Tok(NamedTuple):
    """One character as compared (a named tuple: a copy of 100k characters makes a million of them, and a frozen
    dataclass costs four times as much to make)."""

    t: str
    n: str  # compared form; marks are "\x00" + their kind
    at: int
    mark: bool


_TOK = partial(tuple.__new__, Tok)  # a Tok from its four fields as one tuple, with no Python frame


_MARKS: dict[str, str] = {}  # a mark's key -> the character that stands for it in ``Letters.compared``


def _mark_char(key: str) -> str:
    """One character for a mark's key ("\x00" and its kind, which may be several characters): one of the private
    use plane's, which is never a letter's key (``is_mark`` holds those characters marks), one for each key."""
    char = _MARKS.get(key)
    if char is None:
        char = _MARKS[key] = chr(0xF0000 + len(_MARKS))
    return char


class Letters:
    """A witness as compared within its family: every character but spaces, with its compared form
    (a letter's, or "\x00" and a mark's kind) and its offset -- made once, sliced per chunk."""

    def __init__(self, tokens: Tokens) -> None:
        text, at, n = tokens.text, tokens.at, tokens.n
        self.text = text
        # in C, not a loop over 100k characters: str.split parts at what str.isspace calls a space
        self.at = list(compress(range(len(text)), map(not_, map(str.isspace, text))))
        self.shown = "".join(text.split())
        # a character's key depends on the character alone (a letter's compared form, a mark's kind): each is
        # found once, in the order the text first shows them (so ``_mark_char`` meets the marks as it did)
        folded = dict(zip(map(text.__getitem__, at), n, strict=True))
        key = {ch: folded[ch] if ch in folded else "\x00" + punct_key(ch) for ch in dict.fromkeys(self.shown)}
        self.keys = list(map(key.__getitem__, self.shown))
        # the keys as one string, a character each (a mark's key as the one ``_mark_char`` gives it): the
        # alignment compares strings a tenth faster than lists, and the same keys are equal in both
        self.compared = self.shown.translate({ord(ch): k if ch in folded else _mark_char(k) for ch, k in key.items()})

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The sequence indices of the characters in ``text[start:end]``."""
        return bisect_left(self.at, start), bisect_left(self.at, end)

    def toks(self, start: int, end: int) -> list[Tok]:
        """The characters ``start..end-1`` (sequence indices) as tokens, made in C: a copy's differences make
        a million of them."""
        keys = self.keys[start:end]
        marks = [key.startswith("\x00") for key in keys]
        return list(map(_TOK, zip(self.shown[start:end], keys, self.at[start:end], marks, strict=True)))


def unique(s: str, k: int) -> dict[str, int]:
    """Each stretch of ``k`` letters of ``s``: where it stands, or -1 where it is found more than once."""
    seen: dict[str, int] = {}
    for i in range(0, len(s) - k + 1):
        g = s[i : i + k]
        seen[g] = -1 if g in seen else i
    return seen


Chain = list[tuple[int, int]]  # letter positions (in the base, in a copy) of their anchors, in order


def anchor_chain(ua: dict[str, int], ub: dict[str, int]) -> Chain:
    """Letter positions (in a, in b) of stretches found once in each (``ua``, ``ub``: see ``unique``), in the same
    order: the longest such chain. Made once per copy (``pipeline.anchoring``): the copy's episodes follow its
    family along it (``copies``), and its collation is cut at every ``chunk``-th letter of it (``spaced``)."""
    pairs = sorted((i, ub[g]) for g, i in ua.items() if i >= 0 and ub.get(g, -1) >= 0)
    # longest increasing subsequence of the positions in b (patience sorting)
    tails: list[int] = []
    tail_at: list[int] = []
    back: list[int] = [-1] * len(pairs)
    for idx, (_, j) in enumerate(pairs):
        pos = bisect_right(tails, j)
        if pos == len(tails):
            tails.append(j)
            tail_at.append(idx)
        else:
            tails[pos] = j
            tail_at[pos] = idx
        back[idx] = tail_at[pos - 1] if pos else -1
    chain: Chain = []
    u = tail_at[-1] if tail_at else -1
    while u >= 0:
        chain.append(pairs[u])
        u = back[u]
    chain.reverse()
    return chain


def spaced(chain: Chain, spacing: int) -> Chain:
    """The anchors of a chain at least ``spacing`` letters apart in both texts, from the first."""
    out: Chain = []
    for i, j in chain:
        if not out or (i - out[-1][0] >= spacing and j - out[-1][1] >= spacing):
            out.append((i, j))
    return out


class Base:
    """A family's base as its copies are compared with it: its tokens and its letters (``Letters``) -- made once
    for the family, not again for each copy."""

    def __init__(self, tokens: Tokens) -> None:
        self.tokens = tokens
        self.letters = Letters(tokens)


def _chunks(base: Base, copy: Tokens, chain: Chain, params: Params) -> Iterator[tuple[int, int, int, int]]:
    """(base start, base end, copy start, copy end) text ranges, cut before anchored letters (``chain``, every
    ``params.chunk`` letters); a range longer than ``params.unanchored`` on both sides is cut again at the lines the
    two share (``_by_lines``)."""
    at = base.tokens.at
    cuts = [(at[i], copy.at[j]) for i, j in spaced(chain, params.chunk) if i and j]
    prev = (0, 0)
    for cb, cc in [*cuts, (len(base.tokens.text), len(copy.text))]:
        if min(cb - prev[0], cc - prev[1]) > params.unanchored:
            yield from _by_lines(base.tokens.text, prev[0], cb, copy.text, prev[1], cc)
        else:
            yield prev[0], cb, prev[1], cc
        prev = (cb, cc)


def _by_lines(a: str, a0: int, a1: int, b: str, b0: int, b1: int) -> Iterator[tuple[int, int, int, int]]:
    """A long stretch with no anchor, cut before and after each run of whole lines the two texts share in order.

    Anchors are stretches found once in each text; a copy whose paragraphs are moved about and told again (a
    compilation that repeats its sources) may have none over most of its length, and one alignment of two
    100,000-letter stretches costs time and memory by their product (1.25 GB). Lines read alike in both are the
    same paragraph wherever they stand, so the stretches between them are compared apart; where no line is
    shared the stretch is one range, as before."""
    la = _lines(a, a0, a1)
    lb = _lines(b, b0, b1)
    blocks = SequenceMatcher(None, [a[x:y] for x, y in la], [b[x:y] for x, y in lb], autojunk=False)
    prev = (a0, b0)
    for i, j, n in blocks.get_matching_blocks():
        if not n:
            continue
        for cut in ((la[i][0], lb[j][0]), (la[i + n - 1][1], lb[j + n - 1][1])):
            if cut != prev and cut[0] >= prev[0] and cut[1] >= prev[1]:
                yield prev[0], cut[0], prev[1], cut[1]
                prev = cut
    yield prev[0], a1, prev[1], b1


def _lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The lines of ``text[start:end]``, each with its newline."""
    out = []
    while start < end:
        nl = text.find("\n", start, end)
        stop = end if nl < 0 else nl + 1
        out.append((start, stop))
        start = stop
    return out


def _differences(
    a: Letters, b: Letters, ops: Opcodes, ra: tuple[int, int], rb: tuple[int, int], a_end: int, b_end: int
) -> Iterator[tuple[str, list[Tok], list[Tok], int, int]]:
    """(class, base tokens, copy tokens, base place, copy place) of every difference within the index ranges
    ``ra``/``rb``, aligned as ``ops`` says; the places say where a side with no tokens stands (before the next
    character, or at the chunk's end). Quote styles pass silently (counted in ``quotes``)."""
    (a0, a1), (b0, b1) = ra, rb

    def place(seq: Letters, k: int, stop: int, end: int) -> int:
        return seq.at[k] if k < stop else end

    for tag, i0, i1, j0, j1 in _blocks(ops, a0, b0):
        if tag == "equal":
            sa, sb = a.shown[i0:i1], b.shown[j0:j1]
            if sa == sb:
                continue
            # characters compared as they stand; tokens made only where they differ: a run of differing
            # characters, all letters or all marks, is one difference (a quote style alone passes silently)
            differ = [k for k, (x, y) in enumerate(zip(sa, sb, strict=True)) if x != y]
            keys, d = a.keys, 0
            while d < len(differ):
                k = differ[d]
                if keys[i0 + k] in QUOTE_MARKS:
                    d += 1
                    continue
                mark, m = keys[i0 + k].startswith("\x00"), k
                while d < len(differ) and differ[d] == m and keys[i0 + m].startswith("\x00") == mark:
                    d, m = d + 1, m + 1
                ta, tb = a.toks(i0 + k, i0 + m), b.toks(j0 + k, j0 + m)
                yield ("punctuation" if mark else "orthographic"), ta, tb, ta[0].at, tb[0].at
            continue
        ta, tb = a.toks(i0, i1), b.toks(j0, j1)
        pa, pb = place(a, i0, a1, a_end), place(b, j0, b1, b_end)
        letters_a, letters_b = any(not t.mark for t in ta), any(not t.mark for t in tb)
        if not (letters_a or letters_b):
            yield "punctuation", ta, tb, pa, pb
        elif letters_a and letters_b:
            yield "substantive", ta, tb, pa, pb
        else:
            yield ("omission" if letters_a else "addition"), ta, tb, pa, pb


def _blocks(ops, a0: int, b0: int) -> Iterator[tuple[str, int, int, int, int]]:
    """Equal runs, and between them one block of what differs: letters are matched only where they agree,
    so a changed stretch is one reading, not a chain of chance substitutions."""
    block: list[int] | None = None
    for op in ops:
        i0, i1, j0, j1 = a0 + op.src_start, a0 + op.src_end, b0 + op.dest_start, b0 + op.dest_end
        if op.tag == "equal":
            if block:
                yield "change", *block
                block = None
            yield "equal", i0, i1, j0, j1
        elif block:
            block[1], block[3] = i1, j1
        else:
            block = [i0, i1, j0, j1]
    if block:
        yield "change", *block


def quotes(a: Letters, b: Letters, ops: Opcodes, ra: tuple[int, int], rb: tuple[int, int]) -> int:
    """How many quote marks the copy writes in another style than the base in these ranges (aligned by ``ops``)."""
    a0, b0 = ra[0], rb[0]
    n = 0
    for op in ops:
        if op.tag == "equal":
            i0, j0 = a0 + op.src_start, b0 + op.dest_start
            for k in range(op.src_end - op.src_start):
                key = a.keys[i0 + k]
                if key[1:] in QUOTE_KEYS and key[0] == "\x00" and a.shown[i0 + k] != b.shown[j0 + k]:
                    n += 1
    return n


def _span(toks: list[Tok], fallback: int) -> tuple[int, int]:
    return (toks[0].at, toks[-1].at + 1) if toks else (fallback, fallback)


@dataclass(frozen=True)
class Silence:
    """What is normalised silently between two copies, and counted instead of noted."""

    punctuation: bool = False  # one of them is unpunctuated: its marks are not the copyist's choice
    script: bool = False  # they are in different scripts: 遼/辽 is a conversion, not a variant
    # and which of them is in the Simplified script ("base" or "copy"): where it writes the standard form of a
    # letter the other writes as a variant (髙 / 高, 㧞 / 拔), it followed its script's standard, not its copy
    simplified: str = ""

    @classmethod
    def between(cls, base_script: str, copy_script: str, unpunctuated: bool) -> Silence:
        """What passes silently between a copy and its base, from their scripts and marks."""
        other = base_script != copy_script
        side = {base_script: "base", copy_script: "copy"}.get("Hans", "") if other else ""
        return cls(punctuation=unpunctuated, script=other, simplified=side)


def audible(
    diff: tuple[str, list[Tok], list[Tok], int, int], how: Silence
) -> list[tuple[str, list[Tok], list[Tok], int, int]]:
    """A difference less what is normalised silently: punctuation against an unpunctuated copy, and,
    between scripts, letters that differ only by the conversion or where the Simplified one writes its
    standard form (a run keeps its other letters)."""
    cls, ta, tb, pa, pb = diff
    if cls == "punctuation":
        return [] if marks_cause("".join(t.t for t in ta), "".join(t.t for t in tb), how) else [diff]
    if how.punctuation and cls != "orthographic":  # the marks within or beside a change are as silent
        la, lb = [t for t in ta if not t.mark], [t for t in tb if not t.mark]
        return [(cls, ta if cls == "omission" else la, tb if cls == "addition" else lb, pa, pb)]
    if cls != "orthographic" or not how.script:
        return [diff]
    out: list[tuple[str, list[Tok], list[Tok], int, int]] = []
    for x, y in zip(ta, tb, strict=True):
        if letter_cause(x.t, y.t, how, x.n):
            continue
        if out and out[-1][1][-1].at + 1 == x.at and out[-1][2][-1].at + 1 == y.at:
            out[-1][1].append(x)
            out[-1][2].append(y)
        else:
            out.append((cls, [x], [y], x.at, y.at))
    return out


def marks_cause(a: str, b: str, how: Silence) -> str | None:
    """Why the base's marks ``a`` and the copy's ``b`` (spaces left out) are not noted: ``"quote-style"`` where they
    differ only in the style of their quote marks (“” / 「」), ``"unpunctuated"`` where one of the two copies has
    no punctuation of its own; None where the difference is a note."""
    quotes_only = len(a) == len(b) and all(
        x == y or (punct_key(x) == punct_key(y) and punct_key(x) in QUOTE_KEYS) for x, y in zip(a, b, strict=True)
    )
    if quotes_only:
        return "quote-style"
    return "unpunctuated" if how.punctuation else None


def letter_cause(x: str, y: str, how: Silence, standard: str | None = None) -> str | None:
    """Why the base's letter ``x`` and the copy's ``y`` in its place are not noted: ``"script"`` between copies in
    different scripts where they differ only by the conversion, or where the Simplified copy writes the letter's
    standard form (``standard``: the base letter's compared form; None where it is not known, between two notes,
    where no other difference of letters is silent); None where the difference is a note."""
    if not how.script:
        return None
    if char_to_simplified(x) == char_to_simplified(y):
        return "script"
    simplified = {"base": x, "copy": y}.get(how.simplified)
    return "script" if simplified is not None and standard in (None, simplified) else None


@dataclass(frozen=True)
class Quiet:
    """A difference between a copy and its base that is not a note: where (offsets into the two stretches
    :func:`silent` was given), its class, and why it is not noted -- a cause of :func:`marks_cause` or
    :func:`letter_cause`, ``"silenced"`` (a class the editor silences), ``"unnoted"`` (a note the editor
    suppressed), or None for ``layout`` (whitespace only)."""

    base: tuple[int, int]
    copy: tuple[int, int]
    cls: str
    cause: str | None


def silent(base: str, copy: str, how: Silence, silenced: Collection[str] = ()) -> list[Quiet]:
    """The differences between a stretch of the base and the stretch of the copy that stands for it where no
    note lies between them (the stretches between two of the copy's collation notes): the copy differs there only
    silently, letter for letter, so each letter stands for the base's letter of the same rank and each run of
    marks and spaces for the run between the same letters. Where the letters are not as many (a note the editor
    dropped), the stretch where they part is one difference."""
    la = [i for i, ch in enumerate(base) if not is_mark(ch)]
    lb = [j for j, ch in enumerate(copy) if not is_mark(ch)]
    n = min(len(la), len(lb))

    def agree(i: int, j: int) -> bool:
        return base[i] == copy[j] or letter_cause(base[i], copy[j], how) is not None

    head, tail = n, 0  # letters of the same rank from the start, and from the end
    if len(la) != len(lb):
        head = next((k for k in range(n) if not agree(la[k], lb[k])), n)
        tail = next((k for k in range(n - head) if not agree(la[-1 - k], lb[-1 - k])), n - head)
    out: list[Quiet] = []

    def gap(a0: int, a1: int, b0: int, b1: int) -> None:
        while a0 < a1 and b0 < b1 and base[a0] == copy[b0]:
            a0, b0 = a0 + 1, b0 + 1
        while a0 < a1 and b0 < b1 and base[a1 - 1] == copy[b1 - 1]:
            a1, b1 = a1 - 1, b1 - 1
        if a0 == a1 and b0 == b1:
            return
        a, b = "".join(base[a0:a1].split()), "".join(copy[b0:b1].split())
        if a == b:
            out.append(Quiet((a0, a1), (b0, b1), "layout", None))
            return
        letters_a, letters_b = any(not is_mark(ch) for ch in a), any(not is_mark(ch) for ch in b)
        cause = None if letters_a or letters_b else marks_cause(a, b, how)
        if cause:
            cls = "punctuation"
        elif letters_a and letters_b:
            cls = "substantive"
        else:
            cls = "omission" if letters_a else "addition" if letters_b else "punctuation"
        out.append(Quiet((a0, a1), (b0, b1), cls, cause or ("silenced" if cls in silenced else "unnoted")))

    def letter(i: int, j: int) -> None:
        if base[i] == copy[j]:
            return
        cause = letter_cause(base[i], copy[j], how)
        cls = "orthographic" if cause or char_to_simplified(base[i]) == char_to_simplified(copy[j]) else "substantive"
        out.append(Quiet((i, i + 1), (j, j + 1), cls, cause or ("silenced" if cls in silenced else "unnoted")))

    a_at, b_at = 0, 0
    for k in range(head):
        gap(a_at, la[k], b_at, lb[k])
        letter(la[k], lb[k])
        a_at, b_at = la[k] + 1, lb[k] + 1
    if tail or head < max(len(la), len(lb)):
        a_end = la[len(la) - tail] if tail else len(base)
        b_end = lb[len(lb) - tail] if tail else len(copy)
        gap(a_at, a_end, b_at, b_end)
        a_at, b_at = a_end, b_end
        for k in range(len(la) - tail, len(la)):
            j = k - len(la) + len(lb)
            letter(la[k], lb[j])
            a_next = la[k + 1] if k + 1 < len(la) else len(base)
            b_next = lb[j + 1] if j + 1 < len(lb) else len(copy)
            gap(la[k] + 1, a_next, lb[j] + 1, b_next)
    else:
        gap(a_at, len(base), b_at, len(copy))
    merged: list[Quiet] = []
    for q in out:  # a run of letters (or of marks) silent for one cause is one difference
        last = merged[-1] if merged else None
        if (
            last
            and (last.cls, last.cause) == (q.cls, q.cause)
            and (last.base[1], last.copy[1]) == (q.base[0], q.copy[0])
        ):
            merged[-1] = Quiet((last.base[0], q.base[1]), (last.copy[0], q.copy[1]), q.cls, q.cause)
        else:
            merged.append(q)
    return merged


@dataclass(frozen=True)
class Collation:
    notes: tuple[Note, ...]
    lacunae: tuple[Lacuna, ...]
    quote_styles: int  # quote marks written in another style than the base's (normalised silently)


def compare(
    family: Family, based: Base, siglum: str, copy: Tokens, chain: Chain, quiet: Silence, params: Params
) -> Collation:
    """Every difference between one copy and the base of its family, and where the copy breaks off;
    ``chain``: the copy's anchors on the base; ``quiet`` says what is normalised silently between them. One copy
    at a time, so a rebuild after an edit to one copy compares only that one again."""
    notes: list[Note] = []
    lacunae: list[Lacuna] = []
    quote_count = 0
    base = based.tokens
    seq_base, seq_copy = based.letters, Letters(copy)
    diffs: list[tuple[str, list[Tok], list[Tok], int, int]] = []
    for bs, be, cs, ce in _chunks(based, copy, chain, params):
        ra, rb = seq_base.span(bs, be), seq_copy.span(cs, ce)
        ops = Indel.opcodes(seq_base.compared[ra[0] : ra[1]], seq_copy.compared[rb[0] : rb[1]])  # one for both
        quote_count += quotes(seq_base, seq_copy, ops, ra, rb)
        for d in _differences(seq_base, seq_copy, ops, ra, rb, be, ce):
            for part in _apart(d):
                diffs += audible(part, quiet)
    diffs = _slid(seq_base, diffs)
    # a copy that lacks the base's start or end has a lacuna there, not omissions
    for edge in (0, -1):
        if not diffs:
            break
        cls, ta, tb, _, _ = diffs[edge]
        letters = sum(not t.mark for t in ta)
        at_edge = (ta and ta[0].at == _first_letter(base)) if edge == 0 else (ta and ta[-1].at >= _last_letter(base))
        if cls == "omission" and letters >= params.lacuna and at_edge:
            where = 0 if edge == 0 else len(copy.text.rstrip())
            lacunae.append(
                Lacuna(siglum, family.id, "start" if edge == 0 else "end", where, Span(family.base, *_span(ta, 0)))
            )
            diffs.pop(edge)
    for cls, ta, tb, pa, pb in diffs:
        a0, a1 = _balanced(base.text, *_span(ta, pa))
        b0, b1 = _balanced(copy.text, *_span(tb, pb))
        gap = base.text[a0:a1] if cls == "omission" else copy.text[b0:b1] if cls == "addition" else ""
        notes.append(
            Note(
                type="collation",
                cls=cls,
                lemma=Span(family.base, a0, a1),
                lemma_text=base.text[a0:a1],
                readings=(Reading((siglum,), copy.text[b0:b1], {siglum: (b0, b1)}),),
                family=family.id,
                label=COMMENTARY if _commentary(gap) else "",
            )
        )
    return Collation(tuple(notes), tuple(lacunae), quote_count)


def combine(copies: list[Collation]) -> Collation:
    """A family's collation from its copies' (in the family's order): one note per lemma and class."""
    return Collation(
        tuple(_merge([n for c in copies for n in c.notes])),
        tuple(x for c in copies for x in c.lacunae),
        sum(c.quote_styles for c in copies),
    )


BRACKETS = {"(": ")", "（": "）", "〔": "〕", "[": "]", "【": "】", "［": "］"}


def _balanced(text: str, start: int, end: int) -> tuple[int, int]:
    """A gap widened by the bracket just outside it when it holds only the other one: an omitted comment
    "(縑幷絲繒也)" keeps both brackets even where the opening one met a mark of the copy's."""
    gap = text[start:end]
    for opening, closing in BRACKETS.items():
        if gap.count(closing) > gap.count(opening) and start and text[start - 1] == opening:
            return start - 1, end
        if gap.count(opening) > gap.count(closing) and text[end : end + 1] == closing:
            return start, end + 1
    return start, end


COMMENTARY = "注文"  # the label of an omission or addition that is whole interlinear notes and nothing else
_NOTES = re.compile("|".join(rf"\{o}[^{re.escape(o + c)}]*\{c}" for o, c in BRACKETS.items()))


def _commentary(gap: str) -> bool:
    """Whether a gap is one or more bracketed notes (雙行小注 as transcribed: "(縑幷絲繒也)") and nothing
    else: an edition without the commentary lacks them all, and they are a kind of their own to the reader."""
    rest = "".join(gap.split())
    return bool(rest) and not _NOTES.sub("", rest)


def _apart(
    diff: tuple[str, list[Tok], list[Tok], int, int],
) -> list[tuple[str, list[Tok], list[Tok], int, int]]:
    """A change that begins or ends with a whole interlinear note one side lacks, parted in two: the note
    (注文) and the change beside it, classed on its own -- "(兇許拱翻)倂 ] 并" is a note the copy lacks and
    倂 written 并, not one substantive reading."""
    cls, ta, tb, _, _ = diff
    if cls != "substantive":
        return [diff]
    for mine, theirs, gap in ((ta, tb, "omission"), (tb, ta, "addition")):
        for first in (True, False):
            note = _note_at(mine, first)
            if not note or not theirs or _note_at(theirs, first):
                continue
            rest = mine[len(note) :] if first else mine[: -len(note)]
            if not any(not t.mark for t in rest):
                continue
            place = theirs[0].at if first else theirs[-1].at + 1
            same = [t.n for t in rest if not t.mark] == [t.n for t in theirs if not t.mark]
            kind = "orthographic" if same and len(rest) == len(theirs) else "substantive"
            if gap == "omission":
                parted = [(gap, note, [], note[0].at, place), (kind, rest, theirs, rest[0].at, theirs[0].at)]
            else:
                parted = [(gap, [], note, place, note[0].at), (kind, theirs, rest, theirs[0].at, rest[0].at)]
            return parted if first else parted[::-1]
    return [diff]


def _note_at(toks: list[Tok], first: bool) -> list[Tok]:
    """The whole bracketed note at the start (or the end) of a run of tokens, if there is one."""
    text = "".join(t.t for t in toks)
    found = [m for m in _NOTES.finditer(text) if (m.start() == 0 if first else m.end() == len(text))]
    if not found or len(text) != len(toks):
        return []
    a, b = found[0].span()
    return toks[a:b]


def _slid(seq: Letters, diffs: list[tuple[str, list[Tok], list[Tok], int, int]]) -> list:
    """The copy's first (last) letters matched to an early (late) chance occurrence of them in the base, with
    the base's opening (closing) stretch omitted around it, matched to the same letters at the omission's
    other end instead: one omission, so a copy that begins later is one lacuna. Q begins 安市人望见; the
    alignment took its 安市 from P's 吾聞安市城險 and omitted P's opening on both sides of it, where 安市
    stands again just before P's 人望見 (two alignments of one cost: the one with one gap is the reading)."""
    for edge in (0, -1):
        if len(diffs) < 2:
            break
        one, two = (diffs[0], diffs[1]) if edge == 0 else (diffs[-2], diffs[-1])
        if one[0] != "omission" or two[0] != "omission" or not one[1] or not two[1]:
            continue
        lo, hi = seq.span(one[1][-1].at + 1, two[1][0].at)  # the island of letters matched between them
        island = seq.keys[lo:hi]
        outer = two[1] if edge == 0 else one[1]  # the omission away from the edge
        ends = [t.n for t in (outer[-len(island) :] if edge == 0 else outer[: len(island)])]
        if not island or len(island) >= len(outer) or ends != island:
            continue
        toks = one[1] + seq.toks(lo, hi) + two[1]
        toks = toks[: -len(island)] if edge == 0 else toks[len(island) :]
        at = one if edge == 0 else two  # where the copy's side of the gap stands: before, or after, its island
        merged = ("omission", toks, [], at[3], at[4])
        diffs = [merged, *diffs[2:]] if edge == 0 else [*diffs[:-2], merged]
    return diffs


def _first_letter(t: Tokens) -> int:
    return t.at[0] if len(t.at) else 0


def _last_letter(t: Tokens) -> int:
    return t.at[-1] if len(t.at) else 0


def _merge(notes: list[Note]) -> list[Note]:
    """One note per lemma and class; copies with the same reading share it. A lemma's readings are gathered
    first and each made once: merged note by note, a lemma that many copies read apart cost the square of them."""
    first: dict[tuple, Note] = {}
    count: dict[tuple, int] = {}
    readings: dict[tuple, dict[str, list[Reading]]] = {}  # (lemma, class) -> text -> its readings, in order
    for note in notes:
        key = (note.lemma, note.cls)
        first.setdefault(key, note)
        count[key] = count.get(key, 0) + 1
        by_text = readings.setdefault(key, {})
        for rd in note.readings:
            by_text.setdefault(rd.text, []).append(rd)
    merged = [
        note if count[key] == 1 else replace(note, readings=tuple(map(_joined, readings[key].values())))
        for key, note in first.items()
    ]
    return sorted(merged, key=lambda n: (n.lemma.start, n.lemma.end, n.cls))


def _joined(same: list[Reading]) -> Reading:
    """Readings of one text as one: their sigla, and their spans (a later one's replacing an earlier one's)."""
    if len(same) == 1:
        return same[0]
    spans: dict[str, tuple[int, int]] = {}
    for rd in same:
        spans.update(rd.spans)
    return Reading(tuple(s for rd in same for s in rd.sigla), same[0].text, spans)
