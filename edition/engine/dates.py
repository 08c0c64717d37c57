"""Dates in the compared (Simplified) form: months, days of a month, and cyclical (干支) days.

The fact notes compare them; the segmenter opens a scene where one begins a sentence; the episode
assignment lets their letters pass free, for a date frames the moment it stands in front of and tells
no other (九月癸未，班師 is the withdrawal, however short).
"""

from __future__ import annotations

import re
from functools import lru_cache

STEMS, BRANCHES = "甲乙丙丁戊己庚辛壬癸", "子丑寅卯辰巳午未申酉戌亥"
CYCLICAL_DAYS = tuple(STEMS[i % 10] + BRANCHES[i % 12] for i in range(60))
_MONTH = r"(?<![一二三四五六七八九十])(?:正|十[一二]|[一二三四五六七八九十])月"
_DAY = r"(?:初[一二三四五六七八九十]|[一二三四五六七八九十廿卅]{2,3}|[一二三四五六七八九]初)日?"
DATE = re.compile(rf"{_MONTH}(?:{_DAY}|初)?|(?:[一二三四五六七八九十廿卅]{{2,3}}|初[一二三四五六七八九十])日")
CYCLICAL = re.compile("|".join(CYCLICAL_DAYS))
# a cyclical day with the month just before it is that month's day (冬十月丙申朔)
DAY_OF_MONTH = re.compile(rf"(?:{_MONTH})?(?:{CYCLICAL.pattern})")
MONTH_OF = re.compile(_MONTH)


@lru_cache(maxsize=1 << 17)
def date_letters(folded: str) -> int:
    """How many letters of a text are dates (九月癸未 of 九月癸未班师: four); remembered, as the assignment
    prices every segment again in each of its passes."""
    covered: set[int] = set()
    for rx in (DATE, DAY_OF_MONTH):
        for m in rx.finditer(folded):
            covered.update(range(*m.span()))
    return len(covered)
