"""Chinese numerals read as values (數萬 -> ~10000, 一百二十 -> 120, 三千五百 -> 3500), for the number facts; and a
modern reference's Arabic ones (4萬 -> 40000, 3,000 -> 3000, 4.3萬 -> 43000).

A numeral in the grammar cn2an reads is read here without it (its import and patterns cost a tenth of a second of
a cold export); cn2an is imported only for any other spelling.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache

NUMERALS = "零〇一二两三四五六七八九十百千万亿"
APPROX = "数几余多许"
# cn2an's numeral grammar (its "normal" integers), on the compared forms: a numeral it spells out reads by its units
_ZERO, _DIGIT = "零〇", {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_UNIT = {"十": 10, "百": 100, "千": 1000, "万": 10_000, "亿": 100_000_000}


def _digit(s: str) -> bool:
    return len(s) == 1 and s in _DIGIT


def _zero_then(s: str, part) -> bool:
    """零 (or 〇) and then a number ``part`` accepts: the zero that stands for a skipped unit."""
    return s[:1] in ("零", "〇") and len(s) > 1 and part(s[1:])


def _tens(s: str, digit_first: bool = False) -> bool:
    """10-99: 十, 十五, 二十, 二十五 (with ``digit_first``, not 十 or 十五)."""
    head, unit, tail = s.partition("十")
    return bool(unit) and (_digit(head) or (not head and not digit_first)) and (not tail or _digit(tail))


def _below_100(s: str) -> bool:
    return _digit(s) or _tens(s)


def _hundreds(s: str) -> bool:
    """100-999: 三百, 三百零五, 三百二十, 三百二十五."""
    tail = s[2:]
    return len(s) > 1 and _digit(s[0]) and s[1] == "百" and (not tail or _zero_then(tail, _digit) or _tens(tail, True))


def _below_1000(s: str) -> bool:
    return _hundreds(s) or _below_100(s)


def _thousands(s: str) -> bool:
    """1000-9999: 三千, 三千零五, 三千零二十, 三千五百 …"""
    tail = s[2:]
    return (
        len(s) > 1 and _digit(s[0]) and s[1] == "千" and (not tail or _zero_then(tail, _below_100) or _hundreds(tail))
    )


def _below_10k(s: str) -> bool:
    return _thousands(s) or _below_1000(s)


def _myriads(s: str) -> bool:
    """10^4 to 10^8 - 1: a number below 10^4, 万, and nothing, 零 and a number below 1000, or thousands."""
    head, unit, tail = s.partition("万")
    return bool(unit) and _below_10k(head) and (not tail or _zero_then(tail, _below_1000) or _thousands(tail))


def _below_1e8(s: str) -> bool:
    return _myriads(s) or _below_10k(s)


def _spelt(s: str) -> bool:
    """Whether cn2an reads ``s`` (letters of ``NUMERALS``) as a well-formed integer as it stands: its own
    grammar, and none of the letters it would first put in (a 一 after 零 before 十 or 百, a 零 after 万)."""
    if any(z + u in s for z in _ZERO for u in "十百"):
        return False
    head, unit, tail = s.partition("亿")
    if unit:
        return _below_1e8(head) and (not tail or _zero_then(tail, _below_1e8) or _myriads(tail))
    return s in ("零", "〇") or _below_1e8(s)


def _integer(s: str) -> int:
    """A well-formed numeral's value, read from its last letter back as cn2an reads it (a 万 after 亿 is 万亿)."""
    total, unit, big = 0, 1, 1
    for k, ch in enumerate(reversed(s)):
        if ch in _UNIT:
            unit = _UNIT[ch]
            if unit % 10_000 == 0:
                if unit > big:
                    big = unit
                else:
                    big = unit = unit * big
            if unit < big:
                unit *= big
            if k == len(s) - 1:
                total += unit
        else:
            total += _DIGIT.get(ch, 0) * unit
    return total


def _read(core: str) -> str | None:
    """A numeral's value as cn2an gives it, where it is read without cn2an: spelt by its grammar (三千五百), or
    digits alone (一二, 七八: twelve, seventy-eight, digit by digit); None for any other."""
    if not core:
        return None
    if _spelt(core):
        return str(_integer(core))
    if all(c in _DIGIT or c in _ZERO for c in core):
        return str(int("".join(str(_DIGIT.get(c, 0)) for c in core)))
    return None


@lru_cache(maxsize=4096)
def number_value(folded: str) -> tuple[str, bool]:
    """The value of a numeral (digits as text, for comparing) and whether it is approximate (数万, 三千余).

    Read as cn2an reads it. A numeral written as its grammar writes it (四万, 三千五百) or in digits (一二) is
    read here; cn2an, whose import and patterns cost a tenth of a second, is imported for any other (三百四)."""
    approx = any(c in APPROX for c in folded)
    core = "".join(c for c in folded if c in NUMERALS)
    if core and core[0] in "百千万亿":
        core = "一" + core
    value = _read(core)
    if value is not None:
        return value, approx
    import cn2an

    try:
        value = cn2an.cn2an(core, "smart") if core else None
    except (ValueError, KeyError):
        value = None
    return (str(value) if value is not None else core), approx


ARABIC = "0123456789"
_ARABIC = re.compile(r"\d+(?:[.,]\d+)*")


def arabic_value(written: str, folded: str) -> tuple[str, bool]:
    """The value of a count written in Arabic digits, read from the witness's own writing (its marks kept: 3,000 is
    three thousand, 4.3萬 forty-three thousand) and the units after them in the compared form (``folded``: 萬 is
    万), and whether it is approximate."""
    approx = any(c in APPROX for c in folded)
    m = _ARABIC.search(written)
    if m is None:
        return "", approx
    digits = m.group().replace(",", "")
    if digits.count(".") > 1:
        digits = digits.replace(".", "")
    # in exact fractions, not floats: a number of any length is read, and 1.1萬 is 11000, not 11000.000000000002
    value = Fraction(digits)
    for ch in folded.lstrip(ARABIC):
        value *= _UNIT.get(ch, 1)
    return (str(value.numerator) if value.denominator == 1 else str(float(value))), approx


def chinese(number: int) -> str:
    """1 -> 一, 10 -> 十, 21 -> 二十一, 30 -> 三十: a month's or a day's number as the Chinese texts write it."""
    digits = "零一二三四五六七八九"
    tens, units = divmod(number, 10)
    return (digits[tens] if tens > 1 else "") + ("十" if tens else "") + (digits[units] if units or not tens else "")
