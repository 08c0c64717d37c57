"""Cut every witness into clauses, and say how strong the break before each one is.

The layout is not trusted. A line break ends a paragraph only where the text does
not run on: in a witness whose lines mostly end mid-phrase (a transcription that
keeps the printed columns), a line joins the next unless it ends a sentence or is
markedly shorter than the others. Within a paragraph, sentences end at final marks;
clauses at clause marks. A run with no marks at all (unpunctuated classical text) is
cut where another witness's sentence or clause ends between the same words, and at
the points prose marks itself (a cyclical day, a month, a final particle, a word that
opens a sentence or a day, 於是 or 次日, and the 曰 that opens a speech); never at a
fixed length.

Each clause records the strength of the break before it (``CLAUSE`` < ``SENTENCE``
< ``PARAGRAPH`` < ``SCENE``, a paragraph that opens with a change of time) and
whether it lies inside a quotation, so episode boundaries can prefer scene breaks
and never fall inside a speech.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from statistics import median

from .dates import CYCLICAL_DAYS
from .model import EpisodeDef, Segment, Tokens
from .normalise import Normaliser
from .params import Params

CLAUSE, SENTENCE, PARAGRAPH, SCENE = 0, 1, 2, 3

FINAL = set("。！？!?；;…")
CLOSERS = set("”」』’\"')）》〉】")
OPENERS = set("“「『‘（(《〈【")
QUOTE_OPEN = set("“「『")
QUOTE_CLOSE = set("”」』")
CLAUSE_MARKS = set("，,：:")
INDENT = "\u3000"

# Compared (Simplified) forms: where classical prose marks a new sentence or a new time.
CYCLICAL = set(CYCLICAL_DAYS)
_MONTH = re.compile(r"(?:[春夏秋冬])?(?:闰)?(?:正|十[一二]|[一二三四五六七八九十])月")
# the days a story counts (第二日, 次日, 是夜 …) and the idioms of a retelling that say time has passed (转眼 …)
_TIME_WORDS = re.compile(
    r"(?:第[二三四五六七八九十]+[日天]|次日|翌日|明日|是日|是夜|当夜|当晚|这日|这天|[数几]日[后後]|次年|是岁|是月|"
    r"[一二三四五六七八九十廿]{2,}[日号]|初[一二三四五六七八九十]|转眼|日子一天天|光阴|时光荏苒|不觉[已又])"
)
PARTICLES = set("也矣焉耳哉乎")
# words that open a sentence of narrative (from then on, before that, after a while, thereupon, at that time),
# and the verb that opens a speech (曰): cues in a run with no marks
_OPENERS = re.compile(r"至是|先是|既而|于是|是时")
SPEAKS = "曰"
# what a scan of a paragraph stops at: a mark that may end a clause; a quotation mark (the rest is skipped in C)
_BREAKING = re.compile("[" + re.escape("".join(sorted(FINAL | CLAUSE_MARKS | set(")）")))) + "]")
_QUOTING = re.compile("[" + re.escape("".join(sorted(QUOTE_OPEN | QUOTE_CLOSE))) + "]")


@dataclass(frozen=True)
class Cut:
    """A clause of a witness and the break before it."""

    start: int
    end: int
    strength: int
    paragraph: int
    sentence: int
    quoted: bool


def _lines(text: str) -> list[tuple[int, int]]:
    """Physical lines as (start, end) offsets, newline excluded."""
    out, pos = [], 0
    for line in text.split("\n"):
        out.append((pos, pos + len(line)))
        pos += len(line) + 1
    return out


def _runs_on(text: str, lines: list[tuple[int, int]], params: Params) -> list[bool]:
    """For each line, whether the text runs on into the next line (a layout break, not a paragraph end).

    Only in a wrapped witness: most of its non-empty lines (``params.wrapped``) end without a final mark.
    There a line runs on unless it ends a sentence, is short (under ``params.short_line`` of the median
    length: a paragraph's last line), or the next line is blank, or indented while most lines are not -- or
    flush while most lines are indented: a hanging indent, as 四庫 transcriptions set one anecdote or entry
    after another (大唐新語's 太宗破髙麗於安市城東南 … 乃班師焉 ran on into 魏王泰有寵於太宗 …, which the
    assignment then took into the withdrawal's scene).
    """
    body = [(s, e) for s, e in lines if text[s:e].strip()]
    if len(body) < 3:
        return [False] * len(lines)
    ends = [text[s:e].rstrip()[-1] for s, e in body]
    open_ended = sum((ch not in FINAL and ch not in CLOSERS) or ch in ")）" for ch in ends)
    if open_ended < params.wrapped * len(body):
        return [False] * len(lines)
    width = median(len(text[s:e].strip()) for s, e in body)
    indented = sum(text[s:e].startswith((INDENT, " ", "\t")) for s, e in body)
    indent_means_paragraph = indented < params.indented * len(body)
    out = []
    for k, (s, e) in enumerate(lines):
        line = text[s:e].strip()
        nxt = text[lines[k + 1][0] : lines[k + 1][1]] if k + 1 < len(lines) else ""
        last = line[-1] if line else ""
        out.append(
            bool(line)
            and bool(nxt.strip())
            and not (last in FINAL or (last in CLOSERS and last not in ")）" and len(line) > 1 and line[-2] in FINAL))
            and len(line) >= params.short_line * width
            and nxt.startswith((INDENT, " ", "\t")) != indent_means_paragraph
        )
    return out


def paragraphs(text: str, params: Params) -> list[tuple[int, int]]:
    """Logical paragraphs: physical lines joined where the text runs on."""
    lines = _lines(text)
    joins = _runs_on(text, lines, params)
    out: list[tuple[int, int]] = []
    start = None
    for (s, e), runs_on in zip(lines, joins, strict=True):
        if start is None:
            start = s
        if not runs_on:
            out.append((start, e))
            start = None
    return [(s, e) for s, e in out if text[s:e].strip()]


def _marked_pieces(text: str, start: int, end: int) -> Iterator[tuple[int, int, int]]:
    """(start, end, strength) of the clauses of one paragraph, from its marks alone."""
    piece = start
    strength = PARAGRAPH
    found = _BREAKING.search(text, start, end)
    while found is not None:
        i = found.start()
        ch = text[i]
        j = i + 1
        while j < end and (text[j] in FINAL or text[j] in CLOSERS or text[j].isspace()):
            j += 1
        found = _BREAKING.search(text, j, end)
        if ch in ")）" and j < end and text[j] in "(（":  # a note split by the layout: no break
            continue
        final = ch in FINAL or any(c in FINAL for c in text[i:j])
        yield piece, j, strength
        strength = SENTENCE if final else CLAUSE
        piece = j
    if piece < end:
        yield piece, end, strength


def _cue_cuts(n: str) -> Iterator[tuple[int, int]]:
    """(letter index, strength) where classical prose opens a sentence: a cyclical day, a month, after a particle."""
    for i in range(1, len(n)):
        two = n[i : i + 2]
        if (
            two in CYCLICAL
            or (_MONTH.match(n, i) and (i < 1 or n[i - 1] not in "正十一二三四五六七八九"))
            or (n[i - 1] in PARTICLES and n[i] not in PARTICLES and i >= 3)
            or (i >= 3 and (_OPENERS.match(n, i) or _TIME_WORDS.match(n, i)))
        ):
            yield i, SENTENCE
        elif n[i - 1] == SPEAKS and i >= 3:
            yield i, CLAUSE


OPENING = "\x01"  # marks a key made of a sentence's first letters alone


def _boundary_keys(tokens: Tokens, cuts: list[tuple[int, int, int]], k: int, m: int) -> dict[str, int]:
    """Where this witness's marks break the text, as keys a bare run can be searched for: the ``k``
    letters before and after each break, and the first ``m`` letters of each sentence (``OPENING`` + them)."""
    keys: dict[str, int] = {}
    n = tokens.n
    for s, _, strength in cuts:
        i = tokens.index(s)
        st = min(strength, SENTENCE)
        if k <= i and i + k <= len(n):
            key = n[i - k : i + k]
            keys[key] = max(keys.get(key, -1), st)
        if st == SENTENCE and i + m <= len(n):
            keys[OPENING + n[i : i + m]] = SENTENCE
    return keys


def _time_opens(n: str) -> bool:
    """Whether a paragraph's first letters (compared form) say that time has moved on."""
    head = n[:6]
    return bool(head[:2] in CYCLICAL or _MONTH.match(head) or _TIME_WORDS.match(head))


def punctuated(tokens: Tokens, per: int) -> bool:
    """Whether the witness marks its own sentences and clauses: at least one mark per ``per`` letters.
    Only an unpunctuated witness is cut where others break, or at classical cues: in a punctuated one the
    editor's or copyist's punctuation stands, and 也 is as often "also" as a final particle."""
    marks = sum(map(tokens.text.count, FINAL | CLAUSE_MARKS))  # each mark counted in C, not a loop per character
    return marks * per >= len(tokens.n)


def cut_witness(tokens: Tokens, params: Params, keys: dict[str, int]) -> list[Cut]:
    """The clauses of one witness; ``keys`` are other witnesses' breaks (see ``_boundary_keys``)."""
    text = tokens.text
    out: list[Cut] = []
    sentence = -1
    bare = not punctuated(tokens, params.marks_per)
    for p, (ps, pe) in enumerate(paragraphs(text, params)):
        quote = 0
        for s, e, strength in _marked_pieces(text, ps, pe):
            s, e = _trim(text, s, e)
            if s >= e:
                continue
            pieces = _split_bare(tokens, s, e, strength, params, keys) if bare else [(s, e, strength)]
            for cs, ce, st in pieces:
                if st >= SENTENCE or sentence < 0:
                    sentence += 1
                if st >= SENTENCE and quote == 0 and _time_opens(tokens.n[tokens.index(cs) : tokens.index(ce) + 6]):
                    st = SCENE
                # the words a speaker is said to speak go with the speaking (道：「…」)
                said = st < PARAGRAPH and text[cs] in QUOTE_OPEN and _before(text, cs) in "：:"
                out.append(Cut(cs, ce, st, p, sentence, (quote > 0 and st < PARAGRAPH) or said))
                for mark in _QUOTING.findall(text, cs, ce):
                    quote = quote + 1 if mark in QUOTE_OPEN else max(0, quote - 1)
    return out


def _before(text: str, i: int) -> str:
    """The last character before ``i`` that is not a space ('' at the start)."""
    while i > 0 and text[i - 1].isspace():
        i -= 1
    return text[i - 1] if i else ""


def _split_bare(
    tokens: Tokens, s: int, e: int, strength: int, params: Params, keys: dict[str, int]
) -> list[tuple[int, int, int]]:
    """A piece of an unpunctuated witness: cut where other witnesses break and at classical cues, when
    its run is long; and its own start made as strong a break as another witness's break there."""
    lo, hi = tokens.index(s), tokens.index(e)
    n, at = tokens.n, tokens.at
    k, m = params.key_len, params.opening_len
    found: dict[int, int] = {}
    for i in range(lo, max(lo, hi - 1)):
        both = keys.get(n[i - k : i + k]) if i >= k and i + k <= len(n) else None
        opening = keys.get(OPENING + n[i : i + m]) if i + m <= len(n) else None
        best = max(x for x in (both, opening, -1) if x is not None)
        if best >= 0:
            found[i] = best
    for i, st in _cue_cuts(n[lo:hi]):
        found.setdefault(lo + i, st)
    if lo < hi and (n[lo : lo + 2] in CYCLICAL or _MONTH.match(n, lo)):
        found[lo] = max(found.get(lo, -1), SENTENCE)
    first = max(strength, found.get(lo, -1))
    if hi - lo <= params.bare_run:
        return [(s, e, first)]
    cuts = sorted(i for i in found if lo + 2 <= i <= hi - 2)
    out: list[tuple[int, int, int]] = []
    start, st0 = s, first
    last = lo
    for i in cuts:
        if i - last < 2:
            continue
        out.append((start, at[i], st0))
        start, st0, last = at[i], found[i], i
    out.append((start, e, st0))
    return [(a, b, st) for a, b, st in (*(_trim_piece(tokens.text, a, b, st) for a, b, st in out),) if a < b]


def _trim_piece(text: str, s: int, e: int, st: int) -> tuple[int, int, int]:
    s, e = _trim(text, s, e)
    return s, e, st


def _trim(text: str, s: int, e: int) -> tuple[int, int]:
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    return s, e


def break_keys(tokens: Tokens, params: Params) -> dict[str, int]:
    """A witness's own breaks, as the keys a bare (unpunctuated) witness is cut by (see ``_boundary_keys``)."""
    pieces = [x for ps, pe in paragraphs(tokens.text, params) for x in _marked_pieces(tokens.text, ps, pe)]
    return _boundary_keys(tokens, pieces, params.key_len, params.opening_len)


DEFINITIONS = ""  # the key ``breaks`` holds the editor's definitions' breaks under: no witness's siglum


def definition_keys(defs: Iterable[EpisodeDef], norm: Normaliser, params: Params) -> dict[str, int]:
    """The breaks inside the editor's own punctuated prose -- each episode's and each other event's description and
    examples -- as keys a bare witness is cut by, as another witness's are (``others_keys``), but as clause breaks
    only: a bare text telling the episodes in the words of the editor's examples (a 綱目 quoting its source: 城主
    登城拜辭上嘉其固守賜縑百匹以勵事君還師渡遼暴風雪…, three episodes in one run) can then be parted between
    episodes where the examples break, when no punctuated witness of those words is in the edition. Clause breaks
    only, and no sentence openings: the rows pair sentences, and the definitions' openings as sentence breaks too
    parted the rows of an edition of every kind (its gold row pairs in one row fell from 1151 to 1059 of 1571)."""
    texts = [t for d in defs for t in (d.description, *d.examples) if t]
    if not texts:
        return {}
    keys = break_keys(norm.tokenise_text(DEFINITIONS, "\n\n".join(texts)), params)
    return {key: min(st, CLAUSE) for key, st in keys.items() if not key.startswith(OPENING)}


def others_keys(siglum: str, breaks: dict[str, dict[str, int]]) -> dict[str, int]:
    """The breaks of every other witness (and of the editor's definitions, ``DEFINITIONS``), each key at its
    strongest."""
    keys: dict[str, int] = {}
    for other, theirs in breaks.items():
        if other != siglum:
            for key, st in theirs.items():
                keys[key] = max(keys.get(key, -1), st)
    return keys


# what no heading holds: a mark that ends or parts a sentence, or one of speech (a colon may part a heading's title
# from its subtitle, 六、遼澤：比打仗還可怕的回家路, but not end it: 他說：)
NOT_IN_HEADING = set("。！？!?，,；;「」『』“”‘’…")
HEADING = 16  # letters a heading has at most


def heading_at(segs: Sequence[Segment]) -> list[int]:
    """Where a witness's section headings are (七、褐袍, 第五十二章　安市风雪), by index: a paragraph of one short
    sentence with no mark in it that ends or parts a sentence or opens speech, in a witness that ends its
    sentences with marks (in a bare transcription every line would look like one). A colon may part it in two
    clauses (六、遼澤：比打仗還可怕的回家路): both are the heading."""
    if not any("。" in seg.text for seg in segs):
        return []
    out: list[int] = []
    k = 0
    while k < len(segs):
        j = k + 1
        while j < len(segs) and segs[j].paragraph == segs[k].paragraph:
            j += 1
        if (
            segs[k].strength >= PARAGRAPH
            and 0 < sum(len(seg.folded) for seg in segs[k:j]) <= HEADING
            and not any(NOT_IN_HEADING & set(seg.text) for seg in segs[k:j])
            and not segs[j - 1].text.rstrip().endswith(("：", ":"))
        ):
            out += range(k, j)
        k = j
    return out


def segment_witness(t: Tokens, params: Params, keys: dict[str, int]) -> tuple[Segment, ...]:
    """One witness's clauses, in order; together they hold every non-space character of it. ``keys``: the
    other witnesses' breaks, read only if this one is bare."""
    segs: list[Segment] = []
    for c in cut_witness(t, params, keys):
        lo, hi = t.index(c.start), t.index(c.end)
        segs.append(
            Segment(
                t.siglum,
                len(segs),
                c.start,
                c.end,
                t.text[c.start : c.end],
                t.n[lo:hi],
                c.paragraph,
                lo,
                hi,
                c.sentence,
                c.strength,
                c.quoted,
            )
        )
    return tuple(segs)


def segment(
    tokens: dict[str, Tokens], params: Params, definitions: dict[str, int] | None = None
) -> dict[str, tuple[Segment, ...]]:
    """Every witness's clauses. A punctuated witness is cut by its own marks alone; a bare one also where
    the others break, and the editor's definitions (``definition_keys``) (so a shell may keep the first kind per
    witness: ``pipeline.segmentation``)."""
    bare = {s for s, t in tokens.items() if not punctuated(t, params.marks_per)}
    breaks = {s: break_keys(t, params) for s, t in tokens.items()} if bare else {}
    if bare and definitions:
        breaks[DEFINITIONS] = definitions
    return {s: segment_witness(t, params, others_keys(s, breaks) if s in bare else {}) for s, t in tokens.items()}


def cut_at(segs: tuple[Segment, ...], tokens: Tokens, offsets: set[int]) -> tuple[Segment, ...]:
    """The segments cut at these offsets too (where an editor's passage begins or ends); a cut there
    opens a new sentence, so the passage never merges with its neighbours into one row segment. A piece of marks
    alone (the closing quote after a passage) stays with the words before it (or, first, after): a row of a
    lone 」 tells nothing."""
    text = tokens.text
    pieces: list[tuple[Segment, int, int, int]] = []  # (original, start, end, strength)
    for seg in segs:
        inside = sorted(o for o in offsets if seg.start < o < seg.end)
        bounds = [seg.start, *inside, seg.end]
        mine: list[tuple[Segment, int, int, int]] = []
        for k, (a, b) in enumerate(itertools.pairwise(bounds)):
            a, b = _trim(text, a, b)
            if a >= b:
                continue
            lone = tokens.index(a) == tokens.index(b)  # marks alone: a closing quote after the passage
            if mine and (lone or tokens.index(mine[-1][1]) == tokens.index(mine[-1][2])):  # with the words before
                mine[-1] = (seg, mine[-1][1], b, mine[-1][3])  # (or a first piece of marks with those after)
            else:
                mine.append((seg, a, b, seg.strength if k == 0 else max(seg.strength, SENTENCE)))
        pieces += mine
    out: list[Segment] = []
    sentence = -1
    for k, (seg, a, b, strength) in enumerate(pieces):
        if k == 0 or strength >= SENTENCE or (a in offsets):
            sentence += 1
        lo, hi = tokens.index(a), tokens.index(b)
        out.append(
            Segment(
                seg.siglum, k, a, b, text[a:b], tokens.n[lo:hi], seg.paragraph, lo, hi, sentence, strength, seg.quoted
            )
        )
    return tuple(out)
