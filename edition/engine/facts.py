"""Facts between independent witnesses: who, where, how many, when -- and how each witness says it.

Independent retellings are not collated character by character (the parallel table shows
who tells what). Instead, for each block of rows (rows joined by a cell that spans them),
the facts each witness states are gathered (``said``) -- the register's persons, places and things,
quantities with their measure, dates -- and one note is made per fact told differently,
listing every witness's reading in the 某本作某 manner (``quoting``):

    安市城主：A、B、D 不名；C 作杨万春；E 作梁修元

The notes on entries are ``entity_notes``'s, those on numbers, dates and directions ``value_notes``'s.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import replace
from functools import partial

from .counted import counted
from .dates import DAY_OF_MONTH, MONTH_OF, Calendar, counted_day, month_number
from .entity_notes import EntityNotes
from .model import EpisodeResult, Family, Note, Reading, Row, Segment, Tokens, Window
from .numerals import chinese
from .params import Params
from .quoting import Found, Quoting, words
from .register import Mention, Register
from .said import ENTITIES, Gathering, Said, Whole, own
from .value_notes import ValueNotes

CLASS = {"direction": "place"}  # a direction from a town is noted as a place


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


def _covers(rows: tuple[Row, ...], family: Callable[[str], str]) -> dict[tuple[str, str], tuple[str, ...]]:
    """The rows each cell covers, by (witness, row): its own and those its span reaches down over -- or its
    copies' in that row, the longest: copies of one text tell one moment, though the base's cell alone may
    span (A's 遼東之地…早寒 reaches the row of the others' 早寒, B's beside it not)."""
    out = {}
    for k, row in enumerate(rows):
        reach: dict[str, int] = {}
        for s in row.cells:
            reach[family(s)] = max(reach.get(family(s), 1), row.span.get(s, 1))
        for s in row.cells:
            out[(s, row.id)] = tuple(r.id for r in rows[k : k + reach[family(s)]])
    return out


def _episode_at(spans: dict[str, list[tuple[int, int, str]]], siglum: str, at: int) -> str | None:
    """The episode whose cell holds a witness's letter at ``at`` (``spans``: each witness's cells in order), if any."""
    cells = spans.get(siglum, [])
    k = bisect_right(cells, (at, math.inf)) - 1
    return cells[k][2] if k >= 0 and cells[k][0] <= at < cells[k][1] else None


class Facts:
    """The fact notes of an edition, made episode by episode."""

    def __init__(
        self,
        register: Register,
        mentions: tuple[Mention, ...],
        tokens: dict[str, Tokens],
        families: tuple[Family, ...],
        norm_fold: Callable[[str], str],
        params: Params,
        surnames: tuple[str, ...] = (),
        episodes: tuple[EpisodeResult, ...] = (),
        calendar: Calendar | None = None,
        wholes: dict[str, Whole] | None = None,
    ) -> None:
        """``episodes``: every episode's rows, so that a note knows in which episode a text tells a value it quotes
        from outside its own (``ValueNotes._day_notes``); ``calendar``: the editor's first days of the months;
        ``wholes``: what each witness's whole text says (``said.whole_text``), where found before."""
        quoting = self.quoting = Quoting({s: f.id for f in families for s in f.members}, norm_fold)
        self.gathering = Gathering(mentions, tokens, norm_fold, surnames, calendar, wholes)
        self.calendar = calendar or {}
        self.entities = EntityNotes(
            register,
            mentions,
            quoting,
            params.agree,
            self.gathering.glossed,
            self.gathering.naming,
            self.gathering.wording,
            params.role,
            self.gathering.spoken_of,
        )
        spans: dict[str, list[tuple[int, int, str]]] = {}  # each witness's cells, in order, with their episode
        for ep in episodes:
            for row in ep.rows:
                for s, segs in row.cells.items():
                    spans.setdefault(s, []).extend((seg.start, seg.end, ep.episode.id) for seg in segs)
        for cells in spans.values():
            cells.sort()
        self.values = ValueNotes(
            self.gathering, quoting, params.agree, params.apart, params.role, partial(_episode_at, spans)
        )
        self.slack = params.date_slack

    def _in_time(self, x: Said, window: Window | None) -> bool:
        """Whether a statement may be of the episode's time: a date whose month lies far outside the episode's
        window (``Params.date_slack``) is not (F's 比中原早寒一月 in 班師, 九月, is a month's time)."""
        if x.kind != "date" or window is None or (m := MONTH_OF.match(x.value)) is None:
            return True
        month = month_number(m.group())
        return month is None or not window.far(month, self.slack)

    def _in_month(self, x: Said, window: Window | None) -> Said:
        """A cyclical day the text gives with no month it names (the 通鑑's 癸未, its 九月 many pages before the
        excerpt), told in an episode whose window holds one month of the editor's calendar it can fall in: that
        month's counted day (九月十八日), as ``said.dates`` values one whose month the text names."""
        bare = x.kind == "date" and DAY_OF_MONTH.fullmatch(x.value) and not MONTH_OF.match(x.value)
        if self.calendar and window and bare:
            months = (chinese(m) + "月" for m in range(window.first, window.last + 1) if m in self.calendar)
            days = [d for m in months if (d := counted_day(m, x.value, self.calendar))]
            if len(days) == 1:
                return replace(x, value=days[0])
        return x

    def _defines(self, defining: str, e: str) -> bool:
        """Whether the editor's definition of the episode (``defining``: its description, cues and examples, in the
        compared form) names entry ``e``."""
        entry = self.entities.entries.get(e)
        names = () if entry is None else (entry.name, *entry.names, *entry.variants)
        return any(self.gathering.fold(n) in defining for n in names if n)

    def notes(self, episode: EpisodeResult) -> list[Note]:
        """The episode's fact notes: how each witness names each entry, over the whole episode (so a row
        structure never splits one fact in two); quantities and dates, row by row -- a row together with the
        rows a spanning cell covers (that cell's counterparts are there)."""
        group = _groups(episode.rows)
        cover = _covers(episode.rows, self.quoting.family)
        everything: dict[str, list[Said]] = {}
        cells: dict[str, list[tuple[str, Segment]]] = {}
        for row in episode.rows:
            for siglum, segs in row.cells.items():
                cells.setdefault(siglum, []).extend((row.id, seg) for seg in segs)
                # each fact with its own row: one person stands in for another only there (a spanning cell's
                # group is too wide: Q's one sentence over seven rows of 遼澤 took in E's bystander 韩衞)
                said = self.gathering.said(siglum, ((row.id, seg) for seg in segs))
                window = episode.episode.window
                everything.setdefault(siglum, []).extend(
                    self._in_month(x, window) for x in said if self._in_time(x, window)
                )
        everything = {s: own(xs) for s, xs in everything.items()}
        # which entries each witness names anywhere in the episode (an alternative is one it never names)
        in_episode = {
            s: {e for x in xs if x.how != "title" for e in x.entries}  # a shared title (太子) names none
            for s, xs in everything.items()
        }
        d = episode.episode
        defining = self.gathering.fold("".join((d.description, *d.cues, *d.examples)))
        found: list[Found] = []
        for kind in ENTITIES:
            found += self.entities.notes(
                kind,
                {s: [x for x in xs if x.kind == kind] for s, xs in everything.items()},
                group,
                cover,
                in_episode,
                lambda s, name: self.gathering.called(s, name, cells.get(s, ())),
                partial(self._defines, defining),
            )
        texts = {
            (s, row.id): "".join(seg.folded for seg in segs) for row in episode.rows for s, segs in row.cells.items()
        }
        found += self.values.notes(everything, group, cover, texts)
        found = counted(found, everything, self.gathering.tokens, self.quoting)
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
                row=_row_of(episode.rows, readings),
                text=words(label, readings),
            )
            for kind, label, readings in found
        ]


def _row_of(rows: tuple[Row, ...], readings: tuple[Reading, ...]) -> str:
    """The first row that holds a reading of the note."""
    for row in rows:
        for rd in readings:
            for siglum, (start, _) in rd.spans.items():
                if any(s.start <= start < s.end for s in row.cells.get(siglum, ())):
                    return row.id
    return rows[0].id
