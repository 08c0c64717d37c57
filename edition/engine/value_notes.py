"""Fact notes on values: how many, when, in which direction -- the numbers, dates and directions the
witnesses give.

Quantities pair by their measure (一百匹 and 百匹 are one number), dates with dates (a day with its month is
one day of the story, in whichever episode a text gives it), directions from a town (柳城東南, 城南) with
directions, within a row and the rows a spanning cell covers. A number or date one text alone gives is
listed with the texts that do not (``時日：E 作二十一日；A、D 不記``). Numerals are read by ``cn2an``.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from itertools import combinations

from .dates import DAY_OF_MONTH, MONTH_OF, date_letters
from .model import Reading
from .quoting import Found, Quoting
from .said import ENTITIES, IDIOMS, TOWN, VALUES, Gathering, Said, wording


def _apart(values: Iterable[str], times: float) -> bool:
    """Whether numbers in one row differ by more than ten times: tellings of one count differ (一万 / 两万,
    四萬 / 三万), a row's counts of different things (two men, ten thousand) by orders of magnitude."""
    numbers = [float(v.lstrip("~")) for v in values if v.lstrip("~").replace(".", "", 1).isdigit()]
    return bool(numbers) and max(numbers) > times * min(numbers)


def _whole(date: str) -> bool:
    """A date that can stand against another: a month with its day, or a cyclical day (九月十八日, 乙酉);
    九月十八日 and 二十一日, or 十月初, may be two events' days."""
    return ("月" in date and "日" in date) or bool(DAY_OF_MONTH.fullmatch(date))


def _two_moments(slot: dict[str, Said], everything: dict[str, list[Said]]) -> bool:
    """Whether every two days of a date note that differ are two moments' days: one of the two texts gives the
    other's day too, elsewhere in the episode (E's 九月二十日，大军至辽东城；二十一日又顺利进至辽水 beside a text's
    九月二十一日 of the crossing alone: the row set E's arrival against it, and E dates the crossing as it does)."""
    days = {s: {x.value for x in xs if x.kind == "date"} for s, xs in everything.items()}
    return all(
        x.value in days.get(t, ()) or y.value in days.get(s, ())
        for (s, x), (t, y) in combinations(slot.items(), 2)
        if x.value != y.value
    )


def _value_label(kind: str, key: str) -> str:
    """What a note on a value states: 時日, 方位, 數目, or 數目 with its measure (數目（匹）)."""
    return {"date": "時日", "direction": "方位"}.get(kind) or ("數目" if key == "count" else f"數目（{key}）")


def _day(date: str) -> bool:
    """A day with its month (九月十八日, 十月丙申): one day of the story, wherever a text gives it."""
    return "月" in date and _whole(date)


# men under arms (三千飛騎) and men (飛騎三千人, 一千二百名玄甲騎): the measures of one count of an army
MEN = frozenset({"兵", "人", "名"})
DAY_WORDS = frozenset("月日号號")  # the letters of a date's own words: a pair with one says nothing of the event
HORSE = "骑"  # horsemen counted by the head (八百轻骑, 一千五百骑)
Slotted = tuple[str, str, dict[str, Said]]  # a note before it is worded: (kind, label, each witness's statement)


def _measure(slot: dict[str, Said]) -> str:
    """What a count note counts in: its measure, men under arms and men as one (``MEN``)."""
    keys = {"兵" if x.key in MEN else x.key for x in slot.values()}
    return min(keys)


def _told_already(found: list[Slotted]) -> list[Slotted]:
    """The notes less a count whose every text a note of its measure with more texts quotes too: a text's other
    count of that measure is of another moment the rows set here (CE's 步骑4万殿后 beside F's 請兵五萬 of the
    council before, both quoted for the rearguard as well) -- one fact, one note."""
    return [
        (kind, label, slot)
        for kind, label, slot in found
        if kind != "number"
        or not any(
            other_kind == "number"
            and len(other) > len(slot)
            and _measure(other) == _measure(slot)
            and slot.keys() <= other.keys()
            for other_kind, _, other in found
        )
    ]


def _bare_town(text: str) -> bool:
    """Whether a direction's quoted words start at a word for a town (城西, 城的东南), not a town's name."""
    return text[:1] in TOWN


def _months(dates: Iterable[str]) -> set[str]:
    """The months some of these dates name (十月丙申, 九月十八日; 乙酉 names none)."""
    return {m.group() for d in dates for m in [MONTH_OF.match(d)] if m}


class ValueNotes:
    """The notes on the numbers, dates and directions the witnesses give."""

    def __init__(
        self,
        gathering: Gathering,
        quoting: Quoting,
        agree: int,
        apart: float,
        role: int = 2,
        episode_at: Callable[[str, int], str | None] = lambda siglum, at: None,
    ) -> None:
        self.episode_at = episode_at  # the episode a witness tells the letter at a place in (None: no episode)
        self.gathering = gathering
        self.q = quoting
        self.agree = agree
        self.apart = apart
        self.role = role

    def notes(
        self,
        everything: dict[str, list[Said]],
        group: dict[str, str],
        cover: dict[tuple[str, str], tuple[str, ...]],
        cells: dict[tuple[str, str], str] | None = None,
    ) -> list[Found]:
        """An episode's notes on values (``everything``: what each witness says there, ``group``: each row's
        group; ``cover``: the rows each witness's cell in a row covers; ``cells``: the compared text of each
        witness's cell in each row): numbers and dates pair within a group of rows -- further off, they count
        other things -- and only where cells of one moment give them, or (a number) where a cell words the
        moment as they do (``_in_role``); then the days stated for the whole edition, then the values one text
        alone gives."""
        cells = cells or {}
        by_row: dict[tuple[str, str], dict[str, list[Said]]] = {}  # (row, kind) -> witness -> what it says
        named: defaultdict[tuple[str, str], set[str]] = defaultdict(set)  # (witness, row) -> entries named there
        for s, xs in everything.items():
            for x in xs:
                if x.kind in ENTITIES and x.how != "title":
                    named[(s, x.row)].update(x.entries)
        for s, xs in everything.items():
            for x in xs:
                if x.kind in VALUES:
                    by_row.setdefault((group[x.row], x.kind), {}).setdefault(s, []).append(x)
        days = self._day_notes(everything)
        found: list[Slotted] = []
        for g in dict.fromkeys(group.values()):
            for kind in VALUES:
                found += self._value_notes(
                    kind, by_row.get((g, kind), {}), named, cover, set(days), (everything, cells)
                )
        found = _told_already(self._one_count(found))
        # a day the texts agree on, where a note of this episode already sets that day against another form (C's
        # 九月十八日 beside P's 癸未 and Z's 九月初九): one fact, one note -- that one, with the day's other texts
        # (A/B's 明日為九月十八日, the lecture's 九月十八号) in it
        dated = [slot for kind, _, slot in found if kind == "date"]
        for day, first in days.items():
            into = next((slot for slot in dated if any(x.value == day for x in slot.values())), None)
            if into is None:
                found.append(("date", "時日，所記同日", first))
                continue
            for s, x in first.items():
                into.setdefault(s, x)
        found = self._dated_once(self._months_told_by_day(found))
        notes = [(kind, label, self.q.worded(slot)) for kind, label, slot in found]
        return notes + self._lone_notes(everything, cover)

    def _months_told_by_day(self, found: list[Slotted]) -> list[Slotted]:
        """The notes, a month note less the texts a note of this episode quotes with a day of that month: the
        encyclopaedia's 9月18日（貞觀十九年九月癸未…） is quoted for the day of the order, and its 九月 again in the
        month's note was one fact twice (the sixteenth reading's F5 and F20). A month note left with too few
        families to say anything goes."""
        days = {
            (s, m.group())
            for kind, _, slot in found
            if kind == "date"
            for s, x in slot.items()
            if x.key == "date" and (m := MONTH_OF.match(x.value))
        }
        out: list[Slotted] = []
        for kind, label, slot in found:
            if kind == "date" and slot and all(x.key == "month" for x in slot.values()):
                slot = {s: x for s, x in slot.items() if (s, x.value) not in days}
                agreed = len({x.value for x in slot.values()}) == 1
                if len(self.q.families(slot)) < (self.agree if agreed else 2):
                    continue
            out.append((kind, label, slot))
        return out

    def _dated_once(self, found: list[Slotted]) -> list[Slotted]:
        """The notes, a date note less the texts whose same words a date note of this episode with more texts
        quotes: a text's date at one place dates one moment, and the larger note has placed it (E's 九月十八日 of
        the order, set in the order's note, was set again beside CF's 九月二十六日 of the march to 遼東城 the rows
        put in the same group: the nineteenth reading's F8). A note left with fewer than two families goes."""
        dates = [slot for kind, _, slot in found if kind == "date"]
        out: list[Slotted] = []
        for kind, label, slot in found:
            if kind == "date":
                kept = {
                    s: x
                    for s, x in slot.items()
                    if not any(
                        len(other) > len(slot)
                        and (y := other.get(s)) is not None
                        and (y.start, y.end) == (x.start, x.end)
                        for other in dates
                    )
                }
                if len(kept) < len(slot):
                    if len(self.q.families(kept)) < 2:
                        continue
                    slot = kept
            out.append((kind, label, slot))
        return out

    def _value_notes(
        self,
        kind: str,
        said: dict[str, list[Said]],
        named: dict[tuple[str, str], set[str]],
        cover: dict[tuple[str, str], tuple[str, ...]],
        skip: set[str],
        episode: tuple[dict[str, list[Said]], dict[tuple[str, str], str]] = ({}, {}),
    ) -> list[Slotted]:
        """Per row group: the numbers, dates or directions the texts give there, set against each other by
        measure (a month against months), each note as its kind, label and the witnesses' values; ``skip``: the
        days stated for the whole edition (``_day_notes``); ``episode``: what each witness says in the whole
        episode, and its cells' compared texts."""
        keys = sorted({x.key for xs in said.values() for x in xs})
        men = self._men(said) if kind == "number" else None
        if men is not None:  # counted with the men under arms (兵): one value, one fact
            keys = sorted({k for k in keys if k not in MEN} | {"兵"})
        out = []
        for key in keys:
            slot = self._one_each(said, key)
            if key == "兵" and men is not None:
                slot = men
            slot = {s: x for s, x in slot.items() if not self._article(x)}  # 一路 agreed by three is no fact
            slot = self._beside(slot, cover)
            if kind == "number" and key != "count":
                measures = MEN if key in MEN else {key}  # men under arms may be counted as men, men as men under arms
                slot = {**slot, **self._in_role(slot, measures, *episode)}
            if kind == "date" and {x.value for x in slot.values()} <= skip:
                continue
            values = {x.value for x in slot.values()}
            if key == "month" and (len(values) == 1 or len(_months(values)) > 1):
                # one month, or months apart (正月, 魏徵's death, against 十月 at 營州): what else do the rows share?
                slot = self._corroborated(slot, named)
            # a number or date three independent tellings agree on is a fact worth stating (殿後四萬); two
            # agreeing in one row may be chance, and the table shows them side by side anyway
            agreed = len({x.value for x in slot.values()}) == 1
            if len(self.q.families(slot)) < (self.agree if agreed else 2):
                continue
            if key == "count" and not agreed:
                continue  # counts of what? 三千 (飛騎) against 百八十 (里) in one row may count two things
            if not agreed and kind == "number" and _apart((x.value for x in slot.values()), self.apart):
                continue  # 二人 (the two commanders), 萬人 (people moved), 四萬人 (the rearguard): two things counted
            if key == "date" and not all(_whole(x.value) for x in slot.values()):
                continue  # 九月十八日 and 二十一日 may be two events' days: only whole dates are compared
            if key == "date" and not agreed and len(_months(x.value for x in slot.values())) > 1:
                continue  # 九月十八日 and 十月丙申, told in one row, date two events (left Anshi; reached 蒲溝)
            if key == "date" and not agreed:
                slot = self._dating_alike(slot, episode[1])
                if len(self.q.families(slot)) < 2 or len({x.value for x in slot.values()}) == 1:
                    continue
                if _two_moments(slot, episode[0]):
                    continue
            label = _value_label(kind, key)
            if agreed:  # the label says they are one value
                label += {"date": "，所記同日", "month": "，所記同月", "direction": "，所記同"}.get(key, "，所記同數")
            # each wording listed (一百匹, 百匹, 一万人, 万人; not 四萬, 四万): a witness is quoted as it reads
            out.append((kind, label, slot))
        return out

    def _shared(self, worded: dict[str, set[str]]) -> set[str]:
        """The character pairs that ``agree`` families' wordings hold (a family's texts together): how the texts word
        a moment in common."""
        by_family: defaultdict[str, set[str]] = defaultdict(set)
        for s, pairs in worded.items():
            by_family[self.q.family(s)] |= pairs
        return {p for p, n in Counter(p for ps in by_family.values() for p in ps).items() if n >= self.agree}

    def _dating_alike(self, slot: dict[str, Said], cells: dict[tuple[str, str], str]) -> dict[str, Said]:
        """The slot less a day whose cell is the day alone (the rest of its sentence in other rows) and whose
        sentence words nothing as the others do: no character pair (no numeral, no 月 or 日) that the sentences
        of ``agree`` families share. The aligner set such a day beside the others' by its form alone, and it
        dates another event (CJ's 九月初十，御帳裡又議了一回, a council, beside the others' 九月二十日，至遼東城).
        A day told in a sentence of its own (Z's 九月初九，重阳。) keeps its cell's company."""
        worded = {s: {p for p in self.gathering.wording(x) if not set(p) & DAY_WORDS} for s, x in slot.items()}
        role = self._shared(worded)
        if not role:
            return slot

        def alone(s: str, x: Said) -> bool:
            cell = cells.get((s, x.row), "")
            return bool(cell) and date_letters(cell) >= len(cell)

        return {s: x for s, x in slot.items() if worded[s] & role or not alone(s, x)}

    def _one_each(self, said: dict[str, list[Said]], key: str) -> dict[str, Said]:
        """Each text's first value of ``key`` in a group of rows; of directions, the first from a town it names, if
        any (CF's 柳城西北 of the burial, not its 城西 of a granary; CH's 柳城东南, not 城的东南 of a modern dig). Not
        the value another family gives, if a later one: A's 縑五十匹, changed by an editor, stands against the
        others' 縑一百匹, not its own recall of 百匹縑 after."""
        out = {}
        for s, xs in said.items():
            xs = [x for x in xs if x.key == key]
            if key == "direction":
                xs = [x for x in xs if not _bare_town(x.text)] or xs
                xs = [x for x in xs if not self.gathering.in_speech(x)] or xs
            if xs:
                out[s] = xs[0]
        return out

    def _one_count(self, found: list[Slotted]) -> list[Slotted]:
        """Notes on a count of one measure that the rows put in two groups, joined where they are one fact: a
        text in both gives the same value in both (A's 縑一百匹 where the emperor grants the silk and again where
        it is carried out, the others' 百匹 beside either) and all their values are of one size. Three notes on
        the one gift, by the groups the rows made, were one fact three times; each text is quoted once, at the
        place it first gives it."""
        out: list[Slotted] = []
        for kind, label, slot in found:
            into = next(
                (
                    k
                    for k, (other_kind, _, other) in enumerate(out)
                    if kind == other_kind == "number"
                    and _measure(other) == _measure(slot)
                    and (shared := other.keys() & slot.keys())
                    and all(other[s].value == slot[s].value for s in shared)
                    and not _apart((x.value for x in (*other.values(), *slot.values())), self.apart)
                ),
                None,
            )
            if into is None:
                out.append((kind, label, slot))
                continue
            first_label, first = out[into][1:]
            merged = {**slot, **first}
            for s in slot.keys() & first.keys():  # a text's first telling, not its recall (A's 得到百匹縑的獎勵)
                merged[s] = min(slot[s], first[s], key=lambda x: x.start)
            base = first_label.split("，")[0]
            out[into] = (kind, base + ("，所記同數" if len({x.value for x in merged.values()}) == 1 else ""), merged)
        return out

    def _beside(self, slot: dict[str, Said], cover: dict[tuple[str, str], tuple[str, ...]]) -> dict[str, Said]:
        """The texts whose value's cell covers a row another family's value's cell covers too: the same moment.
        A group of rows may hold several (V's outward crossing of the marsh in 五月, beside the return's 十月)."""
        rows = {s: set(cover[(s, x.row)]) for s, x in slot.items()}
        return {
            s: x
            for s, x in slot.items()
            if any(self.q.family(t) != self.q.family(s) and rows[s] & rows[t] for t in slot)
        }

    def _in_role(
        self,
        slot: dict[str, Said],
        measures: set[str],
        everything: dict[str, list[Said]],
        cells: dict[tuple[str, str], str],
    ) -> dict[str, Said]:
        """Witnesses of other families that give a count of the same measure elsewhere in the episode, in a cell
        that words the moment as the slot's cells do: ``role`` or more of the character pairs (no numeral in them)
        that the cells of ``agree`` of the slot's families share. A count belongs to its role, not to the row
        the aligner put it in: an alternate history's 殿后的任务交给了…程知节和…薛万彻。两人领步骑三万 stands rows
        above the others' 李世勣、李道宗率步骑四万殿后, and its 三万 is their 四万's reading. Only one such
        count of the witness (the best worded, see below), or none."""
        families = self.q.families(slot)
        if len(families) < self.agree:
            return {}
        role = self._shared({s: wording(cells.get((s, x.row), "")) for s, x in slot.items()})
        values = [x.value for x in slot.values()]
        out = {}
        for s, xs in everything.items():
            if self.q.family(s) in families:
                continue
            found = [
                x
                for x in xs
                if x.kind == "number"
                and x.key in measures
                and not self._article(x)
                and len(role & wording(cells.get((s, x.row), ""))) >= self.role
                and not _apart([x.value, *values], self.apart)  # 两人 (the two commanders) counts another thing
            ]
            # of several (二十万人马一字排开 and 两人领步骑三万 in one cell), the one whose own sentence words it most
            scores = [len(role & self.gathering.wording(x)) for x in found]
            best = [x for x, n in zip(found, scores, strict=True) if n == max(scores)]
            if best and len({x.value for x in best}) == 1:
                out[s] = best[0]
        return out

    def _men(self, said: dict[str, list[Said]]) -> dict[str, Said] | None:
        """Where the texts of a group give men under arms (三千飛騎: 兵) and men (飛騎三千人: 人, 名) as one value, each
        text's first of them: the two are one count (the escort of 三千, one note, not one per measure)."""
        slot = {s: next(x for x in xs if x.key in MEN) for s, xs in said.items() if any(x.key in MEN for x in xs)}
        keys = {x.key for x in slot.values()}
        return slot if len(keys) > 1 and len({x.value for x in slot.values()}) == 1 else None

    def _day_notes(self, everything: dict[str, list[Said]]) -> dict[str, dict[str, Said]]:
        """A day given by month and day (九月十八日, 十月丙申) is one day wherever a text tells it: three
        families giving it are stated as agreeing, in the episode where most of them give it, quoting each
        where it first gives it -- C's and E's 九月十八日 at the withdrawal, A/B's in the dialogue before
        (明日為九月十八日), which no row joins. Not a text that dates this episode by other days of its own and
        tells that day in another episode: there it is another event's (CF's 九月二十一日 of the edict read in the
        camps in 班師, beside the others' crossing of the 遼水 that day; a day told in no episode may be this
        one's, its telling left out of it)."""
        here: dict[str, set[str]] = defaultdict(set)  # day -> witnesses giving it in this episode
        for s, xs in everything.items():
            for x in xs:
                if x.kind == "date" and _day(x.value):
                    here[x.value].add(s)
        dating = {s for sigla in here.values() for s in sigla}  # the texts giving some day in this episode
        given = self.gathering.given
        out = {}
        for day, sigla in sorted(here.items()):
            first = {
                s: given(s)[("date", day)]
                for s in self.gathering.tokens
                if ("date", day) in given(s)
                and (s in sigla or s not in dating or self.episode_at(s, given(s)[("date", day)].start) is None)
            }
            for s in sorted(sigla - first.keys()):  # a day the episode's window alone makes this one (P's 癸未)
                first[s] = next(x for x in everything[s] if x.kind == "date" and x.value == day)
            families = self.q.families(first)
            if len(families) >= self.agree and 2 * len(self.q.families(sigla)) > len(families):
                out[day] = first
        return out

    def _lone_notes(
        self, everything: dict[str, list[Said]], cover: dict[tuple[str, str], tuple[str, ...]]
    ) -> list[Found]:
        """A number or date that one text alone gives in the episode, and the others give nowhere in their
        texts: E's 二十一日 meeting the prince, D's 三千 horsemen riding ahead. The others are listed as not
        telling it (不記). Not: an article (一路, value 1), an idiom (豪情萬丈), a year (十九年), a
        commentary's gloss (a distance in brackets), nor a date where another text dates anything here.
        So too where fewer families than ``agree`` give it, alike, in cells of one moment: a flashback's 他點了
        三千飛騎 beside D's 先自点起三千飞骑 -- adding the second text took away the first one's note."""
        counted = [x for xs in everything.values() for x in xs if x.kind in ("number", "date") and self._counts(x)]
        # men counted as men (飛騎三千人) where others count them under arms (三千飛騎), the number alike: one
        # count, as ``_men`` makes it in a row -- else the chronicles' 三千人 took D's 三千 away as told elsewhere
        armed = {x.value for x in counted if x.kind == "number" and x.key == "兵"}
        by_key: defaultdict[tuple[str, str], list[Said]] = defaultdict(list)
        for x in counted:
            key = "" if x.kind == "date" else "兵" if x.key in MEN and x.value in armed else x.key
            by_key[(x.kind, key)].append(x)
        out = []
        for (kind, key), xs in sorted(by_key.items()):
            families = self.q.families(x.siglum for x in xs)
            others = [s for s in everything if self.q.family(s) not in families]
            if len(families) >= self.agree or len({x.value for x in xs}) != 1 or not others:
                continue
            if key == "count":
                continue  # a number with no measure: of what? (A's 十萬餘套棉衣, CJ's 守了八十多天)
            first = {x.siglum: x for x in reversed(xs)}  # each text's first
            if len(families) > 1 and len(self._beside(first, cover)) < len(first):
                continue  # the texts give it at different moments: what it counts may differ
            if self._given_otherwise(kind, key, xs, others, everything, cover):
                continue
            if any((kind, xs[0].value) in self.gathering.given(s) for s in others):
                continue  # told elsewhere (A/B's 九月十八日 in the dialogue, the others' at the withdrawal), or in
                # a commentary (D's 三千 horsemen, the 綱目's 三千人 in brackets)
            slot: dict[str, Said] = {}
            for x in xs:
                slot.setdefault(x.siglum, x)
            label = _value_label(kind, key)
            if len(families) > 1:  # several tell it alike (三千名飛騎, 三千飞骑): the label says so
                same = "，所記同月" if MONTH_OF.fullmatch(xs[0].value) else "，所記同日"
                label += "，所記同數" if kind == "number" else same
            unsaid = Reading(tuple(sorted(others)), "", {})
            out.append((kind, label, (*self.q.worded(slot), unsaid)))
        return out

    def _given_otherwise(
        self,
        kind: str,
        key: str,
        xs: list[Said],
        others: list[str],
        everything: dict[str, list[Said]],
        cover: dict[tuple[str, str], tuple[str, ...]],
    ) -> bool:
        """Whether a text said not to tell a value gives one of its measure (men under arms and men alike) at
        the moment the value is given, in a cell covering one of its rows: it tells it otherwise, and the notes
        on the rows set the two against each other (C's 一万人 beside A's 數萬人, not C 不記)."""
        rows = {r for x in xs for r in cover[(x.siglum, x.row)]}
        measures = MEN if key in MEN else {key}
        if key == HORSE:  # horsemen by the head (一千五百骑): the others' count of men under arms, anywhere in the
            # episode, may be the same riders (三千飞骑) -- 不記 would say the others do not tell how many rode
            return any(y.kind == kind and y.key in MEN and self._counts(y) for s in others for y in everything[s])
        return any(
            y.kind == kind
            and (kind == "date" or y.key in measures)
            and self._counts(y)
            and rows.intersection(cover[(s, y.row)])
            for s in others
            for y in everything[s]
        )

    def _article(self, x: Said) -> bool:
        """A number that counts nothing: 一 as an article (一路上, 一路往西: value 1) or an idiom (豪情萬丈)."""
        return x.kind == "number" and (x.value.lstrip("~") == "1" or self.q.fold(x.text) in IDIOMS)

    def _counts(self, x: Said) -> bool:
        """Whether a number or date is the text's own statement of a quantity or a day (see ``_lone_notes``)."""
        text = self.gathering.tokens[x.siglum].text
        if self._article(x):
            return False
        if x.kind == "number" and x.key == "count" and text[x.end : x.end + 1] == "年":
            return False
        return not self.gathering.glossed(x)

    def _corroborated(self, slot: dict[str, Said], named: dict[tuple[str, str], set[str]]) -> dict[str, Said]:
        """Of texts giving one month in one group of rows, those whose row names a person, place or thing that
        another family's does too: a bare month says little of which moment it dates (R's 冬十月遣使祀魏徵 and
        Q's 冬十月丙申朔，上至蒲沟 are two events; Q's and A's 十月 both reach 蒲溝)."""
        out = {}
        for s, x in slot.items():
            mine, me = named.get((s, x.row), set()), self.q.family(s)
            if any(self.q.family(t) != me and mine & named.get((t, y.row), set()) for t, y in slot.items()):
                out[s] = x
        return out
