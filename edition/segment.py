"""Split a witness into sentences, and over-long sentences into clauses.

Boundaries come from the text itself: sentence-final marks (with the closing
quotes that follow them), line ends, and, for long runs, clause marks. A line
with no marks at all is cut into chunks of at most ``MAX_LEN`` characters, so
nothing downstream ever sees an unbounded segment.
"""

from __future__ import annotations

from .model import Segment, Witness
from .normalise import fold_text

FINAL = set("。！？!?；;…")
CLOSERS = set("”」』’\"')）》〉】")
CLAUSE = set("，,：:、")
MAX_LEN = 80  # a sentence longer than this is cut at clause marks
MIN_CLAUSE = 12  # ...into pieces no shorter than this
HARD_LEN = 200  # a run with no marks at all is cut at this length


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


def _clauses(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Cut an over-long sentence at clause marks, then hard-cut mark-less runs."""
    if end - start <= MAX_LEN:
        return [(start, end)]
    pieces = []
    cur = start
    for i in range(start, end):
        if text[i] in CLAUSE and i + 1 - cur >= MIN_CLAUSE and end - (i + 1) >= MIN_CLAUSE:
            pieces.append((cur, i + 1))
            cur = i + 1
    pieces.append((cur, end))
    out = []
    for s, e in pieces:
        while e - s > HARD_LEN:
            out.append((s, s + HARD_LEN))
            s += HARD_LEN
        out.append((s, e))
    return out


def _trim(text: str, s: int, e: int) -> tuple[int, int]:
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    return s, e


def segment(witness: Witness) -> tuple[Segment, ...]:
    """The witness's segments, in order; together they hold every non-space character."""
    text = witness.text
    segments: list[Segment] = []
    pos = 0
    for paragraph, line in enumerate(text.split("\n")):
        for s, e in _sentences(line):
            for cs, ce in _clauses(text, pos + s, pos + e):
                cs, ce = _trim(text, cs, ce)
                if cs < ce:
                    piece = text[cs:ce]
                    segments.append(Segment(witness.siglum, len(segments), cs, ce, piece, fold_text(piece), paragraph))
        pos += len(line) + 1
    return tuple(segments)
