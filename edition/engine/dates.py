"""Dates in the compared (Simplified) form: months, days of a month, and cyclical (干支) days.

The fact notes compare them; the segmenter opens a scene where one begins a sentence; the episode
assignment lets their letters pass free, for a date frames the moment it stands in front of and tells
no other (九月癸未，班師 is the withdrawal, however short).
"""

from __future__ import annotations

import re
from functools import lru_cache

from .numerals import chinese

STEMS, BRANCHES = "甲乙丙丁戊己庚辛壬癸", "子丑寅卯辰巳午未申酉戌亥"
CYCLICAL_DAYS = tuple(STEMS[i % 10] + BRANCHES[i % 12] for i in range(60))
_MONTH = r"(?<![一二三四五六七八九十])(?:正|十[一二]|[一二三四五六七八九十])月"
# a day after its month may end in 日, or in the spoken 号 (號: 九月十八号, as a lecturer says it); a day alone
# only in 日 (二十号人 is twenty men)
_DAY = r"(?:初[一二三四五六七八九十]|[一二三四五六七八九十廿卅]{2,3}|[一二三四五六七八九]初)[日号]?"
DATE = re.compile(rf"{_MONTH}(?:{_DAY}|初)?|(?:[一二三四五六七八九十廿卅]{{2,3}}|初[一二三四五六七八九十])日")
# a month and a day in Arabic digits, as a modern reference writes them (9月18日, 21日): dates the fact notes
# compare (as the Chinese texts write them, ``as_written_in_chinese``); a witness so written is no annal of entries
_ARABIC_MONTH = r"(?:1[0-2]|0?[1-9])月"
_ARABIC_DATE = rf"(?<!\d){_ARABIC_MONTH}(?:(?:[12]\d|3[01]|0?[1-9])[日号])?|(?<![\d月])(?:[12]\d|3[01]|[1-9])日"
FACT_DATE = re.compile(rf"{DATE.pattern}|{_ARABIC_DATE}")
# the sixty days grouped by their stem (甲[子戌申午辰寅]|乙[…]…): the same two-letter days, but a letter that is no
# stem fails at once, where sixty alternatives were tried at every letter of a text
CYCLICAL = re.compile(
    "|".join(f"{stem}[{''.join(day[1] for day in CYCLICAL_DAYS if day[0] == stem)}]" for stem in STEMS)
)
# a cyclical day with the month just before it is that month's day (冬十月丙申朔)
DAY_OF_MONTH = re.compile(rf"(?:{_MONTH})?(?:{CYCLICAL.pattern})")
MONTH_OF = re.compile(_MONTH)
_ANY_MONTH = re.compile(rf"{_MONTH}|{_ARABIC_MONTH}")


@lru_cache(maxsize=1 << 17)
def date_letters(folded: str) -> int:
    """How many letters of a text are dates (九月癸未 of 九月癸未班师: four); remembered, as the assignment
    prices every segment again in each of its passes."""
    covered: set[int] = set()
    for rx in (DATE, DAY_OF_MONTH):
        for m in rx.finditer(folded):
            covered.update(range(*m.span()))
    return len(covered)


# a year of a reign heading an entry (十九年春二月, 贞观二十年，): the calendar of dated entries; a year in a
# narrative (三年之后) is no heading: it is followed by no season or month and stands inside its clause
_YEAR = r"([一二三四五六七八九十廿]{1,3})年"
YEAR = re.compile(rf"(?<=贞观){_YEAR}|(?<![一二三四五六七八九十廿]){_YEAR}(?=[春夏秋冬闰正一二三四五六七八九十])")
# a year that is the whole of a clause heads an entry too: a 綱目 commentary's (乙巳)十九年 │ 帝攻安市城不下, cut
# where the 綱目 beside it is cut (the text it reads is its own: no season need follow)
_YEAR_ALONE = re.compile(rf"(?:{CYCLICAL.pattern})?{_YEAR}")  # 二十年, or with the binome naming it: 丙午二十年
_NUMERALS = {c: k for k, c in enumerate("零一二三四五六七八九十", 0)}


def numeral(text: str) -> int | None:
    """A small Chinese numeral's value (一 … 九十九, 廿 as 二十, 正 as 一 for the first month), or Arabic (10), or
    None."""
    if text.isascii() and text.isdigit():
        return int(text)
    text = text.replace("廿", "二十").replace("正", "一")
    if not text or any(c not in _NUMERALS for c in text):
        return None
    if "十" not in text:
        return _NUMERALS[text] if len(text) == 1 else None
    tens, _, units = text.partition("十")
    if len(tens) > 1 or len(units) > 1:
        return None
    return (_NUMERALS[tens] if tens else 1) * 10 + (_NUMERALS[units] if units else 0)


def month_number(month: str) -> int | None:
    """九月 -> 9, 十一月 -> 11, 正月 -> 1."""
    return numeral(month.removesuffix("月"))


# what may stand before the month that dates an entry's clause: its year, a season, 閏, the first month of a range
_BEFORE_MONTH = re.compile(
    rf"(?:(?:贞观|公元)?(?:[元一二三四五六七八九十廿]{{1,3}}|\d{{1,4}})年|同年|是年|本年|是岁)*[春夏秋冬]?闰?(?:{_MONTH}[至到])?"
)


def calendar(folded: list[str], glossed: list[bool] | None = None) -> list[tuple[int | None, int | None]]:
    """The (year, month) in force in each of a witness's segments, read in order: a year resets the month, a
    month smaller than the last without a year turns the year. What the text has not said yet is None. A segment
    that is a year and nothing else is that year's heading. A segment in a gloss (``glossed``: a reference's
    〔此事下文见十月下旬条〕) dates nothing: its 十月 read as the entry's, the 四月 of the next entry turned the
    year."""
    year: int | None = None
    month: int | None = None
    out = []
    for k, text in enumerate(folded):
        if glossed and glossed[k]:
            out.append((year, month))
            continue
        if alone := _YEAR_ALONE.fullmatch(text):
            year, month = numeral(alone.group(1)), None
            out.append((year, month))
            continue
        after = folded[k + 1] if k + 1 < len(folded) else ""
        if CYCLICAL.fullmatch(text) and (named := YEAR.match(after) or _YEAR_ALONE.fullmatch(after)):
            # a binome that names the year after it (綱目's (丙午)二十年, cut before the count): that year's heading,
            # not a day of the year before
            year, month = numeral(next(g for g in named.groups() if g)), None
            out.append((year, month))
            continue
        for m in sorted([*YEAR.finditer(text), *MONTH_OF.finditer(text)], key=lambda m: m.start()):
            if m.re is MONTH_OF and not _BEFORE_MONTH.fullmatch(text[: m.start()]):
                continue  # a month the clause tells of (太宗自三月于定州与太子分别), not the one it is dated by
            if m.re is YEAR:
                year, month = numeral(m.group(1) or m.group(2)), None
                continue
            value = month_number(m.group())
            if value is not None and month is not None and value < month and year is not None:
                year += 1
            month = value
        out.append((year, month))
    return out


def month_bounds(folded: list[str], beside: int) -> list[tuple[int | None, int | None]]:
    """For each segment of a narrative not written as dated entries, the months it falls between: the month of the
    last clause that is a date at or before it, and of the first at or after it (None where the text gives none).
    A date clause is a month with at most ``beside`` other letters (五月, 冬十月, 十九年二月, 九月十八日): a date the
    narrative moves on by, not a month said in passing (比中原早寒一月 is a month's time, a poem's 三月危城奈若何
    three months)."""
    said = [
        month_number(m.group(1)) if len(f) - date_letters(f) <= beside and (m := _LAST_MONTH.search(f)) else None
        for f in folded
    ]
    before, last = [], None
    for m in said:
        last = m if m is not None else last
        before.append(last)
    after, nxt = [], None
    for m in reversed(said):
        nxt = m if m is not None else nxt
        after.append(nxt)
    return list(zip(before, after[::-1], strict=True))


_LAST_MONTH = re.compile(rf".*({_MONTH})")  # the last month of a text (greedy: the first group is the last)


def _day_number(day: str) -> int | None:
    """二十一日 -> 21, 初一 -> 1 (a day of a month as written after it, or alone)."""
    return numeral(day.removesuffix("日").removeprefix("初"))


def months_in_force(folded: str) -> dict[int, str]:
    """For each day a text gives without its month (二十一日), where it gives it, the month that day falls in:
    the one the text last named, when the day it last gave in that month came before this one (十月十一日，御驾至
    营州 … 二十一日，与太子相遇). A day earlier than the last one given has left that month, for a month the
    text does not say: no month."""
    out: dict[int, str] = {}
    month: str | None = None
    last = 0
    for m in FACT_DATE.finditer(folded):
        head = _ANY_MONTH.match(m.group())
        if head is not None:
            month = head.group()
            last = _day_number(m.group()[head.end() :]) or 0
            continue
        day = _day_number(m.group())
        if month is None or day is None or not last < day <= 30:
            month = None
            continue
        out[m.start()] = month
        last = day
    return out


def as_written_in_chinese(date: str) -> str:
    """A date in the form the Chinese texts give it, to compare by: 10月21日 -> 十月二十一日, 十月初一 -> 十月一日
    (a day of the month's first ten, with 初 or without, is one day), 九月十八号 -> 九月十八日."""
    date = re.sub(r"\d+", lambda m: chinese(int(m.group())), date).replace("号", "日")
    return re.sub(r"初([一二三四五六七八九十])日?", r"\1日", date)


Calendar = dict[int, int]  # month (1-12) -> the cyclical day its first day is (0 for 甲子): the editor's ``calendar``


def counted_day(month: str, cyclical: str, calendar: Calendar) -> str | None:
    """A cyclical day of a month as the day counted in it (十月丙午 -> 十月十一日), where the editor's calendar gives
    that month's first day (十月丙申朔); None where it does not, or the day cannot fall in that month (more than
    thirty days after its first). The texts date one day either way (P's 癸未, the others' 九月十八日), and a note
    can say so only with the month's first day, which no text need give."""
    number = month_number(month)
    first = calendar.get(number) if number is not None else None
    if first is None or cyclical not in CYCLICAL_DAYS:
        return None
    day = (CYCLICAL_DAYS.index(cyclical) - first) % 60 + 1
    return as_written_in_chinese(f"{month}{day}日") if day <= 30 else None
