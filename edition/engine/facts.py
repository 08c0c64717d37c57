"""Facts between independent witnesses: who, where, how many, when -- and how each witness says it.

Independent retellings are not collated character by character (the parallel table shows
who tells what). Instead, for each block of rows (rows joined by a cell that spans them),
the facts each witness states are gathered -- the register's persons, places and things,
quantities with their measure, dates -- and one note is made per fact told differently,
listing every witness's reading in the 某本作某 manner:

    安市城主：A、B、D 不名；C 作杨万春；E 作梁修元

Only readings of the same kind and role are paired: one register entry named in several
ways; entries that share a title (李治 and 李承乾, both 太子); or, where every family names
exactly one entry of a kind besides those all of them name, those entries (李世勣 / 李祐).
Quantities pair by their measure (一百匹 and 百匹 are one number), dates with dates (a day with its
month is one day of the story, in whichever episode a text gives it), directions from a town
(柳城東南, 城南) with directions. A number or
date one text alone gives is listed with the texts that do not (``時日：E 作二十一日；A、D 不記``).
Numerals are read by ``cn2an``.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import replace

from .collate import BRACKETS
from .dates import DAY_OF_MONTH, MONTH_OF
from .model import EpisodeResult, Family, Note, Reading, Row, Segment, Tokens
from .params import Params
from .register import Entry, Mention, Mentions, Register
from .said import IDIOMS, Said, dates, directions, quantities

BRACKET_MARKS = tuple(re.compile(f"[{re.escape(''.join(marks))}]") for marks in (BRACKETS, BRACKETS.values()))


CLASS = {"direction": "place"}  # a direction from a town is noted as a place


# cn2an's numeral grammar (its "normal" integers), on the compared forms: a numeral it spells out reads by its units


def _unbroken(text: str) -> str:
    """Words as a reader quotes them: without the line breaks and brackets a printed page's layout put inside
    them (江夏\n王, a small-character note split at a column, 遼)(澤)."""
    return "".join(c for c in text if not c.isspace() and unicodedata.category(c) not in ("Ps", "Pe"))


def _apart(values: Iterable[str], times: float) -> bool:
    """Whether numbers in one row differ by more than ten times: tellings of one count differ (一万 / 两万,
    四萬 / 三万), a row's counts of different things (two men, ten thousand) by orders of magnitude."""
    numbers = [float(v.lstrip("~")) for v in values if v.lstrip("~").replace(".", "", 1).isdigit()]
    return bool(numbers) and max(numbers) > times * min(numbers)


def _whole(date: str) -> bool:
    """A date that can stand against another: a month with its day, or a cyclical day (九月十八日, 乙酉);
    九月十八日 and 二十一日, or 十月初, may be two events' days."""
    return ("月" in date and "日" in date) or bool(DAY_OF_MONTH.fullmatch(date))


def words(label: str, readings: tuple[Reading, ...], escape=str) -> str:
    """A fact in the 某本作某 manner: ``安市城主：A、B、D 不名；C 作杨万春；E 作梁修元`` (a reading with no
    place is the witnesses that do not tell it, 不記); ``escape`` is applied to each witness's words."""
    parts = [
        f"{'、'.join(r.sigla)} {'不記' if not r.spans else '作' + escape(r.text) if r.named else '不名'}"
        for r in readings
    ]
    return f"{label}：" + "；".join(parts)


def _value_label(kind: str, key: str) -> str:
    """What a note on a value states: 時日, 方位, 數目, or 數目 with its measure (數目（匹）)."""
    return {"date": "時日", "direction": "方位"}.get(kind) or ("數目" if key == "count" else f"數目（{key}）")


def _day(date: str) -> bool:
    """A day with its month (九月十八日, 十月丙申): one day of the story, wherever a text gives it."""
    return "月" in date and _whole(date)


def _months(dates: Iterable[str]) -> set[str]:
    """The months some of these dates name (十月丙申, 九月十八日; 乙酉 names none)."""
    return {m.group() for d in dates for m in [MONTH_OF.match(d)] if m}


def _groups(rows: tuple[Row, ...]) -> dict[str, str]:
    """Each row's group, named by its first row: a row and the rows any cell in the group spans down over."""
    out: dict[str, str] = {}
    reach = -1
    first = ""
    for k, row in enumerate(rows):
        if k > reach:
            first = row.id
        out[row.id] = first
        reach = max(reach, k + max(row.span.values(), default=1) - 1)
    return out


class Told:
    """Which families name an entry in each group of rows, and in each form (for choosing whom to quote)."""

    def __init__(self, group: dict[str, str]) -> None:
        self.group = group
        self.where: defaultdict[tuple[str, str], set[str]] = defaultdict(set)  # (entry, group) -> families
        self.forms: defaultdict[tuple[str, str], set[str]] = defaultdict(set)  # (entry, compared form) -> families
        self.rows: defaultdict[tuple[str, str], set[str]] = defaultdict(set)  # (witness, row) -> entries named

    def add(self, x: Said, e: str, family: str) -> None:
        self.where[(e, self.group[x.row])].add(family)
        self.forms[(e, x.value)].add(family)
        self.rows[(x.siglum, x.row)].add(e)

    def company(self, x: Said, e: str, family: str) -> int:
        """How many other entries named in the mention's row other texts name in that group too: of A's two
        李道宗 in the rows C, D and E span, the one beside 李世 (李世勣) at the rearguard, as theirs are."""
        g = self.group[x.row]
        return sum(1 for f in self.rows[(x.siglum, x.row)] if f != e and self.where[(f, g)] - {family})


class Facts:
    """The fact notes of an edition, made episode by episode."""

    def __init__(
        self,
        register: Register,
        mentions: tuple[Mention, ...],
        tokens: dict[str, Tokens],
        families: tuple[Family, ...],
        norm_fold,
        params: Params,
    ) -> None:
        self.agree = params.agree
        self.apart = params.apart
        self.entries = {e.id: e for e in register.entries}
        self.tokens = tokens
        self.family_of = {s: f.id for f in families for s in f.members}
        self.fold = norm_fold
        self.index = Mentions(mentions)
        self.named = Counter(m.entries[0] for m in mentions if m.how != "title" and len(m.entries) == 1)
        self._brackets: dict[str, tuple[list[int], list[int]]] = {}  # witness -> where brackets open, close
        self._everywhere: dict[str, dict[tuple[str, str], Said]] = {}

    def said(self, siglum: str, segs: Iterable[tuple[str, Segment]]) -> list[Said]:
        """What a witness states in these segments (each with the id of its row)."""
        out: list[Said] = []
        tokens = self.tokens[siglum]
        for row, seg in segs:
            places = []
            for m in self.index.starting(siglum, seg.start, seg.end):
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
            values = (*quantities(tokens, seg), *dates(tokens, seg), *directions(tokens, seg, places))
            out += [replace(x, row=row) for x in values if x.kind != "direction" or not self._glossed(x)]
        return out

    def notes(self, episode: EpisodeResult) -> list[Note]:
        """The episode's fact notes: how each witness names each entry, over the whole episode (so a row
        structure never splits one fact in two); quantities and dates, row by row -- a row together with the
        rows a spanning cell covers (that cell's counterparts are there)."""
        group = _groups(episode.rows)
        everything: dict[str, list[Said]] = {}
        for row in episode.rows:
            for siglum, segs in row.cells.items():
                # each fact with its own row: one person stands in for another only there (a spanning cell's
                # group is too wide: Q's one sentence over seven rows of 遼澤 took in E's bystander 韩衞)
                everything.setdefault(siglum, []).extend(self.said(siglum, ((row.id, seg) for seg in segs)))
        # which entries each witness names anywhere in the episode (an alternative is one it never names)
        in_episode = {
            s: {e for x in xs if x.how != "title" for e in x.entries}  # a shared title (太子) names none
            for s, xs in everything.items()
        }
        found: list[tuple[str, str, tuple[Reading, ...]]] = []
        for kind in ("person", "place", "thing"):
            found += self._entity_notes(
                kind, {s: [x for x in xs if x.kind == kind] for s, xs in everything.items()}, group, in_episode
            )
        by_row: dict[tuple[str, str], dict[str, list[Said]]] = {}  # (row, kind) -> witness -> what it says
        named: defaultdict[tuple[str, str], set[str]] = defaultdict(set)  # (witness, row) -> entries named there
        for s, xs in everything.items():
            for x in xs:
                if x.kind in ("person", "place", "thing") and x.how != "title":
                    named[(s, x.row)].update(x.entries)
        for s, xs in everything.items():
            for x in xs:
                if x.kind in ("number", "date", "direction"):
                    by_row.setdefault((group[x.row], x.kind), {}).setdefault(s, []).append(x)
        days = self._day_notes(everything)
        for g in dict.fromkeys(group.values()):  # numbers and dates pair within a row: further off, they count
            for kind in ("number", "date", "direction"):  # other things
                found += self._value_notes(kind, by_row.get((g, kind), {}), named, skip=set(days))
        found += [("date", "時日，所記同日", readings) for readings in days.values()]
        found += self._lone_notes(everything)
        return [
            Note(
                type="fact",
                cls=CLASS.get(kind, kind),
                lemma=None,
                lemma_text="",
                readings=readings,
                label=label,
                tags=(CLASS.get(kind, kind),),
                episode=episode.episode.id,
                row=self._row_of(episode.rows, readings),
                text=words(label, readings),
            )
            for kind, label, readings in found
        ]

    @staticmethod
    def _row_of(rows: tuple[Row, ...], readings: tuple[Reading, ...]) -> str:
        """The first row that holds a reading of the note."""
        for row in rows:
            for rd in readings:
                for siglum, (start, _) in rd.spans.items():
                    if any(s.start <= start < s.end for s in row.cells.get(siglum, ())):
                        return row.id
        return rows[0].id

    def _families(self, sigla: Iterable[str]) -> set[str]:
        return {self.family_of.get(s, s) for s in sigla}

    def _entity_notes(
        self, kind: str, said: dict[str, list[Said]], group: dict[str, str], in_episode: dict[str, set[str]]
    ) -> list[tuple[str, str, tuple[Reading, ...]]]:
        """Per register entry named here: do the witnesses name it alike (a standard name, a variant, or
        -- for an entry with no standard name -- not at all)? An entry another witness names in its place
        (sharing a title with it, or the one entry of the kind that witness alone names in the same row,
        where it never names the first) is its reading there. ``said``: what each witness of the episode says
        of this kind; ``in_episode``: the entries each names anywhere in the episode."""
        present = list(said)
        rows_of: dict[tuple[str, str], set[str]] = {}  # (witness, entry) -> rows it is named in
        told = Told(group)
        for s, xs in said.items():
            for x in xs:
                if len(x.entries) == 1:  # a title several entries share (太子) names none of them
                    rows_of.setdefault((s, x.entries[0]), set()).add(x.row)
                    told.add(x, x.entries[0], self.family_of.get(s, s))
        best: dict[str, dict[str, Said]] = {}  # witness -> entry -> its mention here
        for s, xs in said.items():
            mine: dict[str, Said] = {}
            for x in xs:
                if len(x.entries) > 1:
                    continue
                (e,) = x.entries
                if e not in mine or self._rank(x, e, told) < self._rank(mine[e], e, told):
                    mine[e] = x
            best[s] = mine
        who: dict[str, set[str]] = {}
        for s, mine in best.items():
            for e in mine:
                who.setdefault(e, set()).add(s)
        out = []
        taken: set[tuple[str, str]] = set()
        for e in sorted(who, key=lambda e: (-len(who[e]), e)):
            entry = self.entries.get(e)
            if entry is None:
                continue
            role = ""  # the title an entry in another witness's reading shares with this one (太子)
            slot = {s: best[s][e] for s in who[e]}
            rows = {r for s in who[e] for r in rows_of[(s, e)]}
            namers = self._families(s for s, x in slot.items() if x.how != "title")
            # one text names it, and two others only describe it (遼澤: C; 泥淖 A/B, 沼泽 D/E): who names it is the fact
            described = entry.names and len(namers) == 1 and len(self._families(slot)) >= self.agree
            if len(namers) < 2 and entry.names and not described:
                continue  # only one text names it: nothing stands against it (an alternative needs a pair)
            for s in present:
                if s in slot or e in in_episode.get(s, ()):
                    continue
                alts = [
                    x
                    for f, x in best.get(s, {}).items()
                    if f != e
                    and f in self.entries
                    and x.how != "title"
                    and (s, f) not in taken
                    and len(self._families(w for w, es in in_episode.items() if f in es)) == 1
                ]
                shared = [x for x in alts if set(self.entries[x.entries[0]].titles) & set(entry.titles)]
                if len(shared) == 1:
                    role = sorted(set(self.entries[shared[0].entries[0]].titles) & set(entry.titles))[0]
                # a person or a thing may stand in another's place (李祐 for 李世勣, 绢 for 縑); a place, only
                # under a shared title: places in one row are as often where it happens as where from
                same_row = [x for x in alts if rows_of[(s, x.entries[0])] & rows and kind != "place"]
                pick = shared or (same_row if len(same_row) == 1 else [])
                if len(pick) == 1:
                    f = pick[0].entries[0]
                    # its mention where the others name the entry it stands in for (李祐 at the rearguard)
                    slot[s] = min((x for x in said[s] if x.entries == (f,)), key=lambda x: self._rank(x, e, told))
                    taken.add((s, f))
            readings = {s: self._form(e, entry, x, described) for s, x in slot.items()}
            readings = {s: r for s, r in readings.items() if r is not None}
            if len(self._families(readings)) < 2:
                continue
            described_too = {s: x for s, x in slot.items() if x.how == "title" and s not in readings}
            if len(set(readings.values())) < 2 and described_too and entry.names and kind != "person":
                # the texts naming a place or thing agree, and others only describe it (遼澤 in C and the
                # chronicles; A/B's 泥淖, D/E's 沼泽): not "the same" -- each wording listed, as where one text
                # alone names it (a person's title, 父皇 or 太宗 for 李世民, is no fact)
                forms = {s: self.fold(x.text) for s, x in slot.items()}
                out.append((kind, entry.name, self._readings(slot, forms)))
                continue
            if len(set(readings.values())) < 2:
                if self._belongs(kind, e, slot, said, told):
                    forms = {s: self.fold(x.text) for s, x in slot.items()}
                    out.append((kind, f"{entry.name}，所記同", self._readings(slot, forms)))
                continue
            label = role or (entry.titles[0] if not entry.names and entry.titles else entry.name)
            out.append((kind, label, self._readings({s: slot[s] for s in readings}, readings)))
        return out

    def _belongs(self, kind: str, e: str, slot: dict[str, Said], said: dict[str, list[Said]], told: Told) -> bool:
        """Whether independent tellings agreeing on an entry is worth a note. A place or a thing: it belongs
        to this episode -- most of its mentions in all the witnesses are here (太牢 at the rite, not 安市,
        named all through the siege) -- and two families name a thing (棉衣), three a place (places recur
        more). A person recurs in every scene: only one that three families name at one moment of the
        episode, and at no other, who acts there (長孫無忌 clearing the road over the marsh; 李道宗 in the
        rearguard) -- never the one named most in the edition, who is in every scene."""
        if kind == "person":
            moments = [g for (f, g), families in told.where.items() if f == e and len(families) >= self.agree]
            return len(moments) == 1 and e != self.named.most_common(1)[0][0]
        if len(self._families(slot)) < (2 if kind == "thing" else self.agree):
            return False
        here = sum(1 for xs in said.values() for x in xs if x.entries == (e,) and x.how != "title")
        return 2 * here > self.named[e]

    def _rank(self, x: Said, e: str, told: Told) -> tuple:
        """Which of a witness's mentions of an entry is its reading: the one told where most other texts name
        it too (the people moved from 蓋州, not 蓋牟城 among the cities taken); then the one named with what
        the others name there (``Told.company``); then a variant; then the
        name most other texts use (蓋州 as C and E, of A's 蓋牟城 and 蓋州 in one moment); then as
        ``_prefer`` says."""
        me = self.family_of.get(x.siglum, x.siglum)
        how, *rest = self._prefer(x, e)
        return (
            -len(told.where[(e, told.group[x.row])] - {me}),
            -told.company(x, e, me),
            how,
            -len(told.forms[(e, x.value)] - {me}),
            *rest,
        )

    def _prefer(self, x: Said, e: str) -> tuple:
        """Which of a witness's mentions of an entry stands for it: a variant, then a name (its headword,
        then the longest), then a title."""
        entry = self.entries.get(e)
        headword = entry is not None and x.value == self.fold(entry.name)
        return ({"variant": 0, "name": 1, "title": 2}[x.how], not headword, -len(x.text), x.start)

    @staticmethod
    def _form(e: str, entry: Entry, x: Said, described: bool = False) -> str | None:
        """How a witness names entry ``e`` here, as compared: another entry, a variant, its name, 不名 --
        or, where only one text names it (``described``), the words a witness uses instead (泥淖)."""
        if e not in x.entries:
            return "other:" + x.entries[0]
        if x.how == "variant":
            return "variant:" + x.value
        if x.how == "name":
            return "name"
        if described:
            return "title:" + x.value
        return None if entry.names else "untitled"

    def _label(self, slot: dict[str, Said]) -> str:
        counts: dict[str, int] = {}
        for x in slot.values():
            for e in x.entries:
                counts[e] = counts.get(e, 0) + 1
        e = max(counts, key=lambda k: (counts[k], k))
        entry: Entry | None = self.entries.get(e)
        return entry.name if entry else next(iter(slot.values())).text

    def _value_notes(
        self, kind: str, said: dict[str, list[Said]], named: dict[tuple[str, str], set[str]], skip: set[str]
    ) -> list[tuple[str, str, tuple[Reading, ...]]]:
        """Per row group: the numbers, dates or directions the texts give there, set against each other by
        measure (a month against months); ``skip``: the days stated for the whole edition (``_day_notes``)."""
        keys = sorted({x.key for xs in said.values() for x in xs})
        out = []
        for key in keys:
            slot = {s: next(x for x in xs if x.key == key) for s, xs in said.items() if any(x.key == key for x in xs)}
            if kind == "date" and {x.value for x in slot.values()} <= skip:
                continue
            if key == "month" and len({x.value for x in slot.values()}) == 1:
                slot = self._corroborated(slot, named)
            # a number or date three independent tellings agree on is a fact worth stating (殿後四萬); two
            # agreeing in one row may be chance, and the table shows them side by side anyway
            agreed = len({x.value for x in slot.values()}) == 1
            if len(self._families(slot)) < (self.agree if agreed else 2):
                continue
            if key == "count" and not agreed:
                continue  # counts of what? 三千 (飛騎) against 百八十 (里) in one row may count two things
            if not agreed and kind == "number" and _apart((x.value for x in slot.values()), self.apart):
                continue  # 二人 (the two commanders), 萬人 (people moved), 四萬人 (the rearguard): two things counted
            if key == "date" and not all(_whole(x.value) for x in slot.values()):
                continue  # 九月十八日 and 二十一日 may be two events' days: only whole dates are compared
            if key == "date" and not agreed and len(_months(x.value for x in slot.values())) > 1:
                continue  # 九月十八日 and 十月丙申, told in one row, date two events (left Anshi; reached 蒲溝)
            label = _value_label(kind, key)
            if agreed:  # the label says they are one value
                label += {"date": "，所記同日", "month": "，所記同月", "direction": "，所記同"}.get(key, "，所記同數")
            # each wording listed (一百匹, 百匹, 一万人, 万人; not 四萬, 四万): a witness is quoted as it reads
            out.append((kind, label, self._readings(slot, {s: self.fold(x.text) for s, x in slot.items()})))
        return out

    def _day_notes(self, everything: dict[str, list[Said]]) -> dict[str, tuple[Reading, ...]]:
        """A day given by month and day (九月十八日, 十月丙申) is one day wherever a text tells it: three
        families giving it are stated as agreeing, in the episode where most of them give it, quoting each
        where it first gives it -- C's and E's 九月十八日 at the withdrawal, A/B's in the dialogue before
        (明日為九月十八日), which no row joins."""
        here: dict[str, set[str]] = defaultdict(set)  # day -> witnesses giving it in this episode
        for s, xs in everything.items():
            for x in xs:
                if x.kind == "date" and _day(x.value):
                    here[x.value].add(s)
        out = {}
        for day, sigla in sorted(here.items()):
            first = {s: self._given(s)[("date", day)] for s in self.tokens if ("date", day) in self._given(s)}
            families = self._families(first)
            if len(families) >= self.agree and 2 * len(self._families(sigla)) > len(families):
                out[day] = self._readings(first, {s: self.fold(x.text) for s, x in first.items()})
        return out

    def _lone_notes(self, everything: dict[str, list[Said]]) -> list[tuple[str, str, tuple[Reading, ...]]]:
        """A number or date that one text alone gives in the episode, and the others give nowhere in their
        texts: E's 二十一日 meeting the prince, D's 三千 horsemen riding ahead. The others are listed as not
        telling it (不記). Not: an article (一路, value 1), an idiom (豪情萬丈), a year (十九年), a
        commentary's gloss (a distance in brackets), nor a date where another text dates anything here."""
        by_key: defaultdict[tuple[str, str], list[Said]] = defaultdict(list)
        for xs in everything.values():
            for x in xs:
                if x.kind in ("number", "date") and self._counts(x):
                    by_key[(x.kind, "" if x.kind == "date" else x.key)].append(x)
        out = []
        for (kind, key), xs in sorted(by_key.items()):
            families = self._families(x.siglum for x in xs)
            others = [s for s in everything if self.family_of.get(s, s) not in families]
            if len(families) != 1 or len({x.value for x in xs}) != 1 or not others:
                continue
            if any((kind, xs[0].value) in self._given(s) for s in others):
                continue  # told elsewhere (A/B's 九月十八日 in the dialogue, the others' at the withdrawal), or
                # counted in another measure (D's 三千 horsemen, the chronicles' 三千人)
            slot: dict[str, Said] = {}
            for x in xs:
                slot.setdefault(x.siglum, x)
            label = _value_label(kind, key)
            unsaid = Reading(tuple(sorted(others)), "", {})
            out.append((kind, label, (*self._readings(slot, {s: self.fold(x.text) for s, x in slot.items()}), unsaid)))
        return out

    def _counts(self, x: Said) -> bool:
        """Whether a number or date is the text's own statement of a quantity or a day (see ``_lone_notes``)."""
        text = self.tokens[x.siglum].text
        if x.kind == "number" and (x.value.lstrip("~") == "1" or self.fold(x.text) in IDIOMS):
            return False
        if x.kind == "number" and x.key == "count" and text[x.end : x.end + 1] == "年":
            return False
        return not self._glossed(x)

    def _glossed(self, x: Said) -> bool:
        """Whether a statement is inside brackets: a commentary's gloss (a distance, a modern place), not the
        text's own -- the last bracket before it opens one."""
        if x.siglum not in self._brackets:
            text = self.tokens[x.siglum].text
            self._brackets[x.siglum] = tuple([m.start() for m in rx.finditer(text)] for rx in BRACKET_MARKS)
        opens, closes = self._brackets[x.siglum]
        k, j = bisect_left(opens, x.start), bisect_left(closes, x.start)
        return k > 0 and (j == 0 or closes[j - 1] < opens[k - 1])

    def _given(self, siglum: str) -> dict[tuple[str, str], Said]:
        """Every number and date a witness gives in its whole text (rows hold only part of it): (kind, value)
        -> where it first gives it."""
        if siglum not in self._everywhere:
            tokens = self.tokens[siglum]
            whole = Segment(siglum, 0, 0, len(tokens.text), tokens.text, tokens.n, 0, 0, len(tokens.n))
            found = sorted((*quantities(tokens, whole), *dates(tokens, whole)), key=lambda x: -x.start)
            self._everywhere[siglum] = {(x.kind, x.value): x for x in found}  # the last written is the first
        return self._everywhere[siglum]

    def _corroborated(self, slot: dict[str, Said], named: dict[tuple[str, str], set[str]]) -> dict[str, Said]:
        """Of texts giving one month in one group of rows, those whose row names a person, place or thing that
        another family's does too: a bare month says little of which moment it dates (R's 冬十月遣使祀魏徵 and
        Q's 冬十月丙申朔，上至蒲沟 are two events; Q's and A's 十月 both reach 蒲溝)."""
        out = {}
        for s, x in slot.items():
            mine, me = named.get((s, x.row), set()), self.family_of.get(s, s)
            if any(self.family_of.get(t, t) != me and mine & named.get((t, y.row), set()) for t, y in slot.items()):
                out[s] = x
        return out

    def _readings(self, slot: dict[str, Said], forms: dict[str, str] | None = None) -> tuple[Reading, ...]:
        """Witnesses that read alike grouped, in witness order; ``forms`` says what "alike" is. Inside a group
        each wording is its own reading, quoted as its witnesses write it: 褐衣 and 褐袍 may name one thing,
        臨渝闗 and 临渝关 one place, but a reader is shown what each text has (a layout's break inside a name is no
        wording: ``_unbroken``). Witnesses that do not name it (不名) are one reading, whatever their words."""
        groups: dict[str, dict[str, list[Said]]] = {}
        for s in sorted(slot):
            x = slot[s]
            form = forms[s] if forms else x.value
            written = _unbroken(x.text) if form != "untitled" else ""
            groups.setdefault(form, {}).setdefault(written, []).append(x)
        out = []
        for form, wordings in groups.items():
            for written, xs in wordings.items():
                text = written or _unbroken(xs[0].text)
                ref = xs[0].entries[0] if len(xs[0].entries) == 1 else None
                named = form != "untitled"
                spans = {x.siglum: (x.start, x.end) for x in xs}
                out.append(Reading(tuple(x.siglum for x in xs), text, spans, ref, named))
        return tuple(out)
