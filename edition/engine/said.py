"""What a witness states in a segment, as a fact may compare it: a quantity with its measure, a date, a
direction from a town (``Said``). The register's persons, places and things come from the mentions.
``Gathering`` collects them for the fact notes (``facts``), per row and over a witness's whole text.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise

from .dates import (
    DATE,
    DAY_OF_MONTH,
    FACT_DATE,
    MONTH_OF,
    Calendar,
    as_written_in_chinese,
    counted_day,
    months_in_force,
)
from .glosses import Glosses
from .model import Segment, Tokens
from .numerals import ARABIC, NUMERALS, arabic_value, number_value
from .register import Mention, Mentions
from .segment import QUOTE_CLOSE, QUOTE_OPEN

MEASURES = "匹人骑级里户口头件领艘员名石斤次层丈步座城道路车营"
# words saying what others call a man or a place, right before the name they report (稱他為, 管他叫, 或稱; a
# gloss's 營州……當時叫柳城), in either script
CALLED = ("稱他為", "称他为", "稱之為", "称之为", "稱其為", "称其为", "管他叫", "或稱", "或称", "當時叫", "当时叫")


# a measure, but not the first word of a troop's kind: 四万步骑 is forty thousand foot and horse, not paces; a
# numeral before 几 or 数 is part of the count (十幾萬人 is more than a hundred thousand, not 幾萬 cut out of it)
_QUANTITY = re.compile(rf"(?:[{NUMERALS}]*[数几])?[{NUMERALS}{ARABIC}]+[余多许]?(?:[{MEASURES}](?![骑卒兵军]))?")


# (compared forms) a direction after a town (城南, 州东北; a speaker's 柳城的东南边, 柳城的东南方向), not a way one
# goes (南下, 西归), a gate (城南门) nor a region (城南方); never half of one (东 of 东南方向)
TOWN = "城州县市縣"  # words for a town, in either script
DIRECTION = re.compile(
    r"(?:(?<=[城州县市])|(?<=[城州县市]的))(?:东南|东北|西南|西北|[东西南北])"
    r"(?![上下进行归撤渡去来还门风面东西南北]|方(?!向))"
)


# (compared forms) what a count of soldiers is counted in when no measure word follows it: 步騎四萬, 四万步骑,
# 率兵四万, 三千飞骑 -- men under arms, which two texts may number differently (四萬 / 三万 in the rearguard)
TROOPS = ("步骑", "飞骑", "骑兵", "步兵", "人马", "兵马", "甲士", "兵", "骑", "卒")


# (compared forms) a year of the reign: after a cyclical binome, that binome names the year (丙午二十年), not a day
REIGN_YEAR = re.compile(r"[一二三四五六七八九十廿]{1,3}年")


SINCE = "自从"  # (compared forms) "from": a date after it opens a stretch of time
# (compared forms) a date of the western calendar (九月十八日（公历大约10月中旬）): not set against the others' days
WESTERN = re.compile(r"(?:公历|阳历|西历)[^，。；、）)]{0,4}$")

# (compared forms) words that give a person's name (他叫乙支承德, 名叫, 姓梁): a sentence with one names its man
NAMING = re.compile(r"(?:名叫|叫做|名为|名唤|名曰|他叫|她叫|此人叫|此人姓|他姓)")
# (compared forms) what ends a name given so, before any mark: 他叫乙支承德是安市城的城主, 名叫杨万春的城主
NAME_ENDS = "是的乃"
TITLED_RECURS = 3  # times a name written straight after a title must occur in the witness (``Gathering._titled``)
SENTENCE_ENDS = "。！？!?\n"

# (compared forms) what an alternate history says of the histories it departs from (在原本的历史上，这个位置属于
# 李世勣和江夏王李道宗), up to where it turns back to its own story (可是这一回): not its own telling
DISOWNING = re.compile(r"(?:原本|原来|真实|本来)的历史|历史上|正史")
TURNING = re.compile(r"可是|但是|然而|不[过過]|但")
# (compared forms) what a retelling says the histories record (史书上记这件事……送了一百匹缣): a popular history cites
# them for its own story, an alternate history for the one it departs from -- its value there is its own only
# where it gives no other (``Said.cited``)
CITING = re.compile(r"史书(?:上|中|里)?(?:说|记|载|写|只)")


YEARS_MONTHS_DAYS = "年月日"  # (compared forms) what makes Arabic digits before it a date, not a count

IDIOMS = {"万一", "万丈"}  # numerals that make a word, not a count (万一 in case; 豪情万丈)


ENTITIES = ("person", "place", "thing")  # the kinds of what a witness names (the register's mentions)
VALUES = ("number", "date", "direction")  # the kinds of what it states in words read off its text


NUMBERS = set(NUMERALS + ARABIC + "萬億")


def wording(folded: str) -> set[str]:
    """The character pairs of a compared text with no numeral in them: what a text says of a count or of a
    person, not the count (how it words a moment, to tell whether two texts tell the same one)."""
    return {a + b for a, b in pairwise(folded) if a not in NUMBERS and b not in NUMBERS}


@dataclass(frozen=True)
class Said:
    """One fact as one witness states it: where, its text, and what it is."""

    siglum: str
    start: int
    end: int
    text: str
    kind: str  # person | place | thing | number | date
    key: str  # what it is: a register entry, a measure, "date"
    value: str  # what it says: the compared form of the name, the number's value, the date
    how: str = "name"  # for an entry: name | variant | title
    entries: tuple[str, ...] = ()
    row: str = ""
    cited: bool = False  # a value the text says the histories give (``CITING``, ``DISOWNING``)


def _said(tokens: Tokens, start: int, end: int, kind: str, key: str, value: str) -> Said:
    """A value a witness states at ``tokens.text[start:end]`` (a number, a date, a direction)."""
    return Said(
        siglum=tokens.siglum, start=start, end=end, text=tokens.text[start:end], kind=kind, key=key, value=value
    )


def quantities(tokens: Tokens, seg: Segment) -> list[Said]:
    """The counted things of a segment: a numeral with its measure (or a round count, 四万)."""
    n, out = seg.folded, []
    dates = [m.span() for m in DATE.finditer(n)]  # in order, apart: the one a quantity may be in is found by bisect
    starts = [x for x, _ in dates]
    for m in _QUANTITY.finditer(n):
        a, b = m.span()
        k = bisect_right(starts, a) - 1
        if k >= 0 and a < dates[k][1]:
            continue
        word = m.group()
        measure = word[-1] if word[-1] in MEASURES else ""
        start, end = tokens.at[seg.lo + a], tokens.at[seg.lo + b - 1] + 1
        if any(c in ARABIC for c in word):
            if b < len(n) and n[b] in YEARS_MONTHS_DAYS:
                continue  # 645年, 9月: a year or a month, not a count
            value, approx = arabic_value(tokens.text[start:end], word)
        else:
            digits = [c for c in word if c in NUMERALS]
            if not measure and len(digits) < 2:
                continue  # one numeral alone is an article or part of a word, not a count (一番, 百姓, 万岁)
            if not measure and (len(set(digits)) == 1 or word in IDIOMS or _either(digits)):
                continue  # 一一, 万万; 万一 (in case); 十八九 (eight or nine in ten): words, not counts
            value, approx = number_value(word)
        key = measure or ("兵" if _troops(n, a, b) else "count")
        if (
            key in "兵人"
        ):  # quoted with the kind of troops it counts: 三千飞骑, 步騎四萬, 飛騎三千人 (the escort's kind)
            a, b = _with_kind(n, a, b)
            start, end = tokens.at[seg.lo + a], tokens.at[seg.lo + b - 1] + 1
        out.append(_said(tokens, start, end, "number", key, ("~" if approx else "") + value))
    return out


def _either(digits: list[str]) -> bool:
    """Whether a numeral ends in two neighbouring digits, "this or the next" (三四, 十八九): an estimate or a
    share of ten, not a count a text states."""
    order = "一二三四五六七八九"
    return len(digits) >= 2 and digits[-2] in order and order.find(digits[-1]) == order.find(digits[-2]) + 1


KINDS = frozenset(t for t in TROOPS if len(t) == 2)  # the kinds of troops a count of men may be quoted with


def _with_kind(n: str, a: int, b: int) -> tuple[int, int]:
    """The count n[a:b] widened over the kind of troops written against it, before or after (步骑四万, 四万步骑,
    步骑兵四万: a kind may overlap another, 步骑 and 骑兵); a lone 兵 or 骑 (率兵四万) is no kind."""
    while a >= 2 and n[a - 2 : a] in KINDS:
        a -= 2
    while a >= 1 and n[a - 1 : a + 1] in KINDS:
        a -= 1
    while n[b : b + 2] in KINDS:
        b += 2
    return a, b


def _troops(n: str, a: int, b: int) -> bool:
    """Whether the count n[a:b] counts men under arms: a word for them just before or just after it. Tested in
    place: ``n`` is a whole witness when its every count is read (``Gathering.given``), and a slice of it per count
    and per word made the reading grow with the square of its length."""
    return any(n.endswith(t, 0, a) or n.startswith(t, b) for t in TROOPS)


def directions(tokens: Tokens, seg: Segment, places: list[tuple[int, int]]) -> list[Said]:
    """Where, from a town: 柳城東南, 城南 -- the direction after a town's name or a word for a town, quoted with
    the place named just before it, or before its word for a town (幽州城东南) (``places``: the segment's place
    mentions)."""
    out = []
    for m in DIRECTION.finditer(seg.folded):
        a, b = m.span()
        start, end = tokens.at[seg.lo + a], tokens.at[seg.lo + b - 1] + 1
        before = tokens.at[seg.lo + a - 1]  # the letter before the direction: a town's (城南), or 的 (柳城的东南)
        # the word for a town the direction follows (城南), or a name's end
        town = tokens.at[seg.lo + a - 2] if seg.folded[a - 1] == "的" else before
        # 柳城東南, 柳城的东南; 幽州城东南, not 城东南
        start = next((p for p, q in places if q in (start, town, before)), town)
        out.append(_said(tokens, start, end, "direction", "direction", m.group()))
    return out


def dates(
    tokens: Tokens, seg: Segment, months: dict[int, str], calendar: Calendar | None = None, named: Named = ()
) -> list[Said]:
    """The dates of a segment; ``months``: the month each day the witness gives without one falls in, by the
    letter it starts at (``dates.months_in_force``), so that E's 二十一日 is the 十月二十一日 of the others. With the
    editor's ``calendar``, a cyclical day is valued as the day counted in its month (``dates.counted_day``): its
    own month, or the last one the witness named before it (``named``: where it names months, in order)."""
    n, out = seg.folded, []
    for rx in (FACT_DATE, DAY_OF_MONTH):
        for m in rx.finditer(n):
            a, b = m.span()
            if a and n[a - 1] in SINCE:
                continue  # 自九月十八日離開安市……時間已進入十月: where a stretch of time begins, not a moment's date
            if REIGN_YEAR.match(n, b):
                continue  # (丙午)二十年: a year named by its cycle before the reign's count, not a day
            if WESTERN.search(n, max(0, a - 8), a):
                continue  # 公历10月: the western calendar's month, a month apart from the lunar one
            start, end = tokens.at[seg.lo + a], tokens.at[seg.lo + b - 1] + 1
            key = "month" if _month(m.group()) else "date"  # a month is set against months, a day against days
            value = as_written_in_chinese(months.get(seg.lo + a, "") + m.group()) if rx is FACT_DATE else m.group()
            if rx is DAY_OF_MONTH and not a and (month := _month_before(tokens.text, start)):
                start, value = month.start(1), month[1] + value  # 冬十月丙申朔 cut before its day: one date
            if rx is DAY_OF_MONTH and calendar:
                value = _counted(value, seg.lo + a, calendar, named) or value
            out.append(_said(tokens, start, end, "date", key, value))
    return sorted(out, key=lambda s: s.start)


Named = Sequence[tuple[int, str]]  # where a witness names a month (in its folded text), and the month, in order
# how far (letters of the folded text) a bare cyclical day may lie after the month it is read in: a chronicle names
# the month at its first entry and dates the entries after it by their days (九月……癸未……乙酉……丙戌), an entry
# or a few; further on, it may have passed into a month it does not name
MONTH_REACH = 300


def named_months(folded: str) -> list[tuple[int, str]]:
    """Where a text names a month, and which (``dates``' ``named``)."""
    return [(m.start(), m.group()) for m in MONTH_OF.finditer(folded)]


def _counted(value: str, at: int, calendar: Calendar, named: Named) -> str | None:
    """A cyclical day (``value``, its month written before it or not) as the day counted in its month, if the
    calendar tells it (``dates.counted_day``); a bare one is of the month the witness last named before ``at``, not
    more than ``MONTH_REACH`` letters before."""
    head = MONTH_OF.match(value)
    if head is not None:
        return counted_day(head.group(), value[head.end() :], calendar)
    k = bisect_right(named, (at, "")) - 1
    if k < 0 or at - named[k][0] > MONTH_REACH:
        return None  # no month named near before it: the day may be of a month the text moved on to unnamed
    return counted_day(named[k][1], value, calendar)


# a month that ends the sentence before a cyclical day, marks and line breaks between (冬十月丙 / 申朔, 十月。丙申朔)
_MONTH_BEFORE = re.compile(rf"({MONTH_OF.pattern})[^\w]{{0,3}}$")


def _month_before(text: str, start: int) -> re.Match[str] | None:
    """The month written just before ``start`` (a cyclical day opening a sentence), if any: the date is the month's
    day, though the sentences were cut between them (an unpunctuated 四庫 text cuts before each cyclical day)."""
    return _MONTH_BEFORE.search(text, max(0, start - 8), start)


def _sentence(text: str, a: int, b: int) -> tuple[int, int]:
    """Where the sentence holding ``text[a:b]`` starts and ends (after the last sentence end before it, up to the
    first after it)."""
    start = max(text.rfind(c, 0, a) for c in SENTENCE_ENDS) + 1
    ends = [i for c in SENTENCE_ENDS if (i := text.find(c, b)) >= 0]
    return start, min(ends, default=len(text))


def _month(date: str) -> bool:
    """A month without its day (十月, 十月初): set against another month, it says when a moment fell."""
    return date.endswith(("月", "月初"))


def own(said: list[Said]) -> list[Said]:
    """What a text states, less the values it gives as the histories' where it gives its own of that kind and
    measure in the episode (an alternate history's 史書上記……送了一百匹縑 beside its own 吳綾六十匹); a value it
    gives only as the histories' is its own (a popular history citing them for its story)."""
    own = {(x.kind, x.key) for x in said if x.kind in VALUES and not x.cited}
    return [x for x in said if not (x.cited and (x.kind, x.key) in own)]


def spelled(text: str, m: Mention) -> bool:
    """Whether the mention only spells a letter of another word, as a speaker does aloud: 渤海的渤，错误的错 (the
    lecture's 渤错水: it names no 渤海)."""
    return text[m.end : m.end + 1] == "的" and text[m.end + 1 : m.end + 2] in m.text


@dataclass(frozen=True)
class Whole:
    """What the fact notes read of a witness's whole text, the same in every episode: found once per text, before
    the episodes' notes are made side by side in worker processes (which would each find it again) and kept
    across the rebuilds of ``mkdocs serve`` (``notes.annotate``)."""

    months: dict[int, str]  # the month each day given without one falls in (``dates.months_in_force``)
    named: Named  # where the text names a month (``named_months``; with the editor's calendar only)
    disowned: tuple[list[int], list[int]]  # starts and ends of what it says the histories tell and it does not
    cited: tuple[list[int], list[int]]  # … and of what it says they record (``CITING``)
    brackets: Glosses  # its glossing brackets
    given: dict[tuple[str, str], Said]  # every number and date of the whole text: (kind, value) -> its first


def _asides(tokens: Tokens, rx: re.Pattern[str]) -> tuple[list[int], list[int]]:
    """Where the text tells what the histories say and it does not (``DISOWNING``, up to ``TURNING`` or the
    sentence's end), or what they record (``CITING``): starts and ends, in order."""
    text, spans = tokens.text, []
    for m in rx.finditer(tokens.n):
        start = tokens.at[m.start()]
        end = _sentence(text, start, start)[1]
        turn = TURNING.search(text, start, end)
        spans.append((start, turn.start() if turn else end))
    return [a for a, _ in spans], [b for _, b in spans]


def whole_text(tokens: Tokens, calendar: Calendar | None = None) -> Whole:
    """``Whole`` of one witness; ``calendar``: the editor's first days of the months."""
    months = months_in_force(tokens.n)
    named = named_months(tokens.n) if calendar else []
    whole = Segment(tokens.siglum, 0, 0, len(tokens.text), tokens.text, tokens.n, 0, 0, len(tokens.n))
    found = sorted((*quantities(tokens, whole), *dates(tokens, whole, months, calendar, named)), key=lambda x: -x.start)
    return Whole(
        months=months,
        named=named,
        disowned=_asides(tokens, DISOWNING),
        cited=_asides(tokens, CITING),
        brackets=Glosses(tokens.text),
        given={(x.kind, x.value): x for x in found},  # the last written is the first
    )


class Gathering:
    """What each witness states, as the fact notes compare it: in a row's segments (the register's mentions, and
    the numbers, dates and directions read off the text), and every number and date of its whole text. A
    witness's brackets and whole-text statements are found once and kept, for all the episodes."""

    def __init__(
        self,
        mentions: tuple[Mention, ...],
        tokens: dict[str, Tokens],
        fold: Callable[[str], str],
        surnames: Iterable[str] = (),
        calendar: Calendar | None = None,
        wholes: dict[str, Whole] | None = None,
    ) -> None:
        """``wholes``: what each witness's whole text says, where found before (``whole_text``); the rest is found
        on first need."""
        self.tokens = tokens
        self.calendar = calendar or {}  # the editor's: a cyclical day's month and day (``dates``)
        self.fold = fold
        self.index = Mentions(mentions)
        self._wholes: dict[str, Whole] = dict(wholes or {})
        self._naming: dict[tuple[str, str], str | None] = {}
        self.surnames = {fold(x) for x in surnames}

    def _whole(self, siglum: str) -> Whole:
        if siglum not in self._wholes:
            self._wholes[siglum] = whole_text(self.tokens[siglum], self.calendar)
        return self._wholes[siglum]

    def _cited(self, x: Said) -> bool:
        """Whether a value stands where the text tells what the histories say or record."""
        whole = self._whole(x.siglum)
        for starts, ends in (whole.disowned, whole.cited):
            k = bisect_right(starts, x.start) - 1
            if k >= 0 and x.start < ends[k]:
                return True
        return False

    def said(self, siglum: str, segs: Iterable[tuple[str, Segment]]) -> list[Said]:
        """What a witness states in these segments (each with the id of its row); not what it says the histories
        tell and it does not (``Whole.disowned``), nor a name it only spells a letter with (``spelled``)."""
        out: list[Said] = []
        tokens = self.tokens[siglum]
        whole = self._whole(siglum)
        starts, ends = whole.disowned
        for row, seg in segs:
            places = []
            for m in self.index.starting(siglum, seg.start, seg.end):
                k = bisect_right(starts, m.start) - 1
                if (k >= 0 and m.start < ends[k]) or spelled(tokens.text, m):
                    continue
                key = m.entries[0] if len(m.entries) == 1 else "+".join(m.entries)
                out.append(
                    Said(
                        siglum=siglum,
                        start=m.start,
                        end=m.end,
                        text=m.text,
                        kind=m.kind,
                        key=key,
                        value=self.fold(m.text),
                        how=m.how,
                        entries=m.entries,
                        row=row,
                    )
                )
                places += [(m.start, m.end)] if m.kind == "place" else []
            values = (
                *quantities(tokens, seg),
                *dates(tokens, seg, whole.months, self.calendar, whole.named),
                *directions(tokens, seg, places),
            )
            out += [
                replace(x, row=row, cited=self._cited(x))
                for x in values
                if (x.kind != "direction" or not self.glossed(x)) and not (x.kind == "date" and self.dateline(x))
            ]
        return out

    def in_speech(self, x: Said) -> bool:
        """Whether a statement stands inside quotation marks opened in its paragraph and not yet closed: a speaker's,
        not the narrator's."""
        text = self.tokens[x.siglum].text
        start = text.rfind("\n", 0, x.start) + 1
        depth = 0
        for c in text[start : x.start]:
            depth += c in QUOTE_OPEN
            depth -= c in QUOTE_CLOSE and depth > 0
        return depth > 0

    def dateline(self, x: Said) -> bool:
        """Whether a date is a dateline: its sentence is the date and places, nothing else (a letter's
        十月十二日，營州。 above 昨天到了營州): it dates the writing, not what is told, and is no date of an event."""
        text = self.tokens[x.siglum].text
        a, b = _sentence(text, x.start, x.end)
        rest = [c for c in range(a, b) if not x.start <= c < x.end]
        places = [m for m in self.index.starting(x.siglum, a, b) if m.kind == "place"]
        for m in places:
            rest = [c for c in rest if not m.start <= c < m.end]
        return bool(places) and not any(text[c].isalnum() for c in rest)  # a date alone (乙酉。) opens an entry

    def sentence(self, x: Said) -> str:
        """The sentence a statement is made in, as written."""
        text = self.tokens[x.siglum].text
        return text[slice(*_sentence(text, x.start, x.end))]

    def wording(self, x: Said) -> set[str]:
        """How the sentence a statement is made in words it: its character pairs with no numeral (``wording``)."""
        return wording(self.fold(self.sentence(x)))

    def spoken_of(self, x: Said) -> bool:
        """Whether a name is a word the text speaks of, in quotation marks of its own (后来…文人称他为“杨万春”) or
        right after words that say others call him so (後世的野史稱他為楊萬春, 传说里管他叫杨万春): it reports
        what he was called, and does not call him so."""
        text = self.tokens[x.siglum].text
        quoted = x.start > 0 and text[x.start - 1] in QUOTE_OPEN and text[x.end : x.end + 1] in QUOTE_CLOSE
        return quoted or text.endswith(CALLED, max(0, x.start - 3), x.start)

    def glossed(self, x: Said) -> bool:
        """Whether a statement is inside brackets: a commentary's gloss, not the text's own (``glosses``)."""
        return x.start in self._whole(x.siglum).brackets

    def naming(self, siglum: str, entry: str) -> str | None:
        """The name a witness gives, in a sentence where it gives an entry's title, to someone the register does
        not know (他叫乙支承德，是安市城的城主): None where no such sentence names him; "" where one does, but no
        name of two to four letters beginning with a surname follows its words of naming (此人姓杨) -- either way
        the witness names him, though not as the register does, and is not to be listed as not naming him (不名).
        The first such sentence of its text says it, wherever in its text it is."""
        if (siglum, entry) not in self._naming:  # asked in every episode: found once
            tokens = self.tokens[siglum]
            text, found = tokens.text, None
            for m in self.index.starting(siglum, 0, len(text)):
                if m.how != "title" or entry not in m.entries:
                    continue
                a, b = _sentence(text, m.start, m.end)
                i, j = tokens.index(a), tokens.index(b)
                said = NAMING.search(tokens.n, i, j)
                if said:
                    found = self._name_after(tokens, said.end(), j)
                    break
                titled = self._titled(tokens, tokens.index(m.end - 1) + 1, m.end)
                if titled:
                    found = titled
                    break
                if titled == "" and found is None:
                    found = ""  # named, by a name it cannot read: unless a later sentence reads it
            self._naming[(siglum, entry)] = found
        return self._naming[(siglum, entry)]

    def _titled(self, tokens: Tokens, i: int, end: int) -> str | None:
        """The name written straight after a title that ends at ``end`` (太子李泰, an alternate history's prince):
        two or three letters from letter ``i`` on, with nothing between, the first a surname, that the text writes
        three times at least -- a name recurs, the words that may follow a title (高声) seldom do. "" where three or
        four such letters recur so but the first is no surname the engine knows (安市城主明臨孝寬: a 高句麗 name): a
        name it cannot delimit, so the witness is not listed as not naming him. None where there is none."""
        n = tokens.n
        if i >= len(n) or tokens.at[i] != end:
            return None
        known = n[i] in self.surnames or n[i : i + 2] in self.surnames
        for size in (3, 2) if known else (4, 3):
            name = n[i : i + size]
            if len(name) < size or any(tokens.at[k] != tokens.at[k - 1] + 1 for k in range(i + 1, i + size)):
                continue
            if n.count(name) >= TITLED_RECURS:
                return tokens.text[tokens.at[i] : tokens.at[i + size - 1] + 1] if known else ""
        return None

    def _name_after(self, tokens: Tokens, i: int, j: int) -> str:
        """The name as written from letter ``i`` on (before letter ``j``): the letters up to a mark or to
        ``NAME_ENDS``, if two to four and the first one or two a surname; else ""."""
        k = i
        while k < j and k - i < 5 and tokens.n[k] not in NAME_ENDS and (k == i or tokens.at[k] == tokens.at[k - 1] + 1):
            k += 1
        name = tokens.n[i:k]
        if not 2 <= len(name) <= 4 or not (name[0] in self.surnames or name[:2] in self.surnames):
            return ""
        return tokens.text[tokens.at[i] : tokens.at[k - 1] + 1]

    def called(self, siglum: str, name: str, segs: Iterable[tuple[str, Segment]]) -> Said | None:
        """Where a witness first writes ``name`` in these segments (each with the id of its row), as a person
        the register does not know (``naming``)."""
        text = self.tokens[siglum].text
        for row, seg in segs:
            at = text.find(name, seg.start, seg.end)
            if at >= 0:
                value = self.fold(name)
                return Said(siglum, at, at + len(name), name, "person", value, value, "name", (), row)
        return None

    def given(self, siglum: str) -> dict[tuple[str, str], Said]:
        """Every number and date a witness gives in its whole text (rows hold only part of it): (kind, value)
        -> where it first gives it."""
        return self._whole(siglum).given
