"""Where a witness glosses itself: the stretches inside its brackets.

A commentary's gloss (雙行小注 as transcribed: a distance, a modern place), or a reference's cross-reference
(〔此事下文见十月下旬条〕), is the commentator's word, not the text's: a name in it is not the text naming
(``said.Gathering.glossed``), and a month in it dates no entry (``dates.calendar``). Not in a witness that holds
half its letters or more in brackets: there they are its layout, not a commentary (a 綱目 printing its 目 in small
characters in brackets, its 書法 commentary outside them: K's parade is its 乃耀兵於安市城下而旋 in brackets, not the
安市 of 以攻安市不下而詔之).
"""

from __future__ import annotations

import re
from bisect import bisect_left

from .collate import BRACKETS
from .model import Segment

_SPACES = re.compile(r"\s+")
_MARKS = tuple(re.compile(f"[{re.escape(''.join(marks))}]") for marks in (BRACKETS, BRACKETS.values()))
LAYOUT = 0.5  # the share of a text's letters in brackets from which they are its layout, not glosses


class Glosses:
    """A text's glossing brackets: where they open and close (none where they are its layout)."""

    def __init__(self, text: str) -> None:
        opens, closes = ([m.start() for m in rx.finditer(text)] for rx in _MARKS)
        layout = _bracketed_share(text, opens, closes) >= LAYOUT
        self.opens, self.closes = ([], []) if layout else (opens, closes)

    def __contains__(self, at: int) -> bool:
        """Whether the letter at ``at`` is inside a gloss: the last bracket before it opens one."""
        k, j = bisect_left(self.opens, at), bisect_left(self.closes, at)
        return k > 0 and (j == 0 or self.closes[j - 1] < self.opens[k - 1])


def _bracketed_share(text: str, opens: list[int], closes: list[int]) -> float:
    """The share of a text's letters (not spaces) inside its brackets."""
    inside, open_at = 0, None
    for i, d in sorted([(i, 1) for i in opens] + [(i, -1) for i in closes]):
        if d == 1:
            open_at = i
        elif open_at is not None:
            inside += len(_SPACES.sub("", text[open_at:i]))
            open_at = None
    letters = len(_SPACES.sub("", text))
    return inside / letters if letters else 0.0


def glossed(segs: tuple[Segment, ...]) -> list[bool]:
    """For each of a witness's segments (which hold all its text but the spaces between them), whether its first
    letter is inside a gloss."""
    text, end = [], 0
    for seg in segs:
        text += [" " * (seg.start - end), seg.text]
        end = seg.end
    glosses = Glosses("".join(text))
    return [next((seg.start + i for i, c in enumerate(seg.text) if c.isalnum()), seg.start) in glosses for seg in segs]
