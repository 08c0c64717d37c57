"""Split a witness into sentences, and over-long sentences into clauses.

Boundaries come from the text itself: sentence-final marks (with the closing
quotes that follow them), line ends, and, for long runs, clause marks. A line
with no marks at all is cut into chunks of at most ``hard_len`` characters, so
nothing downstream ever sees an unbounded segment.
"""

from __future__ import annotations

from .model import Segment, Tokens
from .params import Params

FINAL = set("。！？!?；;…")
CLOSERS = set("”」』’\"')）》〉】")
CLAUSE = set("，,：:、")


def _sentences(line: str) -> list[tuple[int, int]]:
    """Sentence spans within one line (a final mark plus any closers ends one)."""
    spans = []
    start = 0
    i = 0
    n = len(line)
    while i < n:
        if line[i] in FINAL:
            j = i + 1
            while j < n and (line[j] in FINAL or line[j] in CLOSERS):
                j += 1
            spans.append((start, j))
            start = i = j
        else:
            i += 1
    if start < n:
        spans.append((start, n))
    return spans


def _clauses(text: str, start: int, end: int, params: Params) -> list[tuple[int, int]]:
    """Cut an over-long sentence at clause marks, then hard-cut mark-less runs."""
    if end - start <= params.max_len:
        return [(start, end)]
    pieces = []
    cur = start
    least = params.min_clause
    for i in range(start, end):
        if text[i] in CLAUSE and i + 1 - cur >= least and end - (i + 1) >= least:
            pieces.append((cur, i + 1))
            cur = i + 1
    pieces.append((cur, end))
    out = []
    for s, e in pieces:
        while e - s > params.hard_len:
            out.append((s, s + params.hard_len))
            s += params.hard_len
        out.append((s, e))
    return out


def _trim(text: str, s: int, e: int) -> tuple[int, int]:
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    return s, e


def segment(tokens: Tokens, params: Params) -> tuple[Segment, ...]:
    """The witness's segments, in order; together they hold every non-space character."""
    text = tokens.text
    segments: list[Segment] = []
    pos = 0
    for paragraph, line in enumerate(text.split("\n")):
        for s, e in _sentences(line):
            for cs, ce in _clauses(text, pos + s, pos + e, params):
                cs, ce = _trim(text, cs, ce)
                if cs < ce:
                    lo, hi = tokens.index(cs), tokens.index(ce)
                    segments.append(
                        Segment(tokens.siglum, len(segments), cs, ce, text[cs:ce], tokens.n[lo:hi], paragraph, lo, hi)
                    )
        pos += len(line) + 1
    return tuple(segments)
