"""The episode definitions: the editor's ``episodes.yaml``, checked.

Besides the episodes, the file may describe the *context*: other events the
witnesses tell around the episodes (the siege before, the campaign's tally, the
journey home). Text telling them belongs to no episode; describing them lets the
assignment recognise it as such instead of pulling it into the nearest episode.
And it may give the *calendar*: the first day (朔) of the months the story falls in,
as a table of the year gives it, so that a cyclical day (癸未) and a day counted in the
month (九月十八日) are known for one day in the notes.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import EditionError
from .datafile import YamlMap, check_keys, prose, read_yaml, sections, text_field, texts_field
from .dates import CYCLICAL_DAYS, MONTH_OF, Calendar, month_number, numeral
from .model import EpisodeDef, Window

_KEYS = {"id", "title", "description", "cues", "examples", "order", "window"}
_CONTEXT_KEYS = {"id", "title", "description", "cues", "examples"}
_CALENDAR_KEYS = {"month", "first"}
_TOP = {"episodes", "context", "calendar"}
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")


_WINDOW = re.compile(
    r"^(?:(?:貞觀|贞观)?(?P<year>[一二三四五六七八九十廿]{1,3})年)?(?P<first>(?:正|十[一二]|[一二三四五六七八九十])月)"
    r"(?:\s*(?:至|到|—|–|-|~|～)\s*(?P<last>(?:正|十[一二]|[一二三四五六七八九十])月))?$"
)


def _window(path: Path, entry: YamlMap, where: str) -> Window | None:
    """``window: 十九年九月至十月`` (year of the reign optional; one month, or the first and the last)."""
    text = text_field(path, entry, "window", where)
    if not text:
        return None
    m = _WINDOW.match(text.replace(" ", ""))
    first = month_number(m.group("first")) if m else None
    last = month_number(m.group("last") or m.group("first")) if m else None
    if m is None or first is None or last is None or last < first:
        raise EditionError(
            path,
            f"{where}: window '{text}' is not a month or months of a year (e.g. 九月, 十九年九月至十月)",
            entry.line_of("window"),
        )
    return Window(numeral(m.group("year")) if m.group("year") else None, first, last)


def _definition(path: Path, entry: YamlMap, n: int, where: str, seen: set[str], context: bool) -> EpisodeDef:
    check_keys(path, entry, _CONTEXT_KEYS if context else _KEYS, where)
    eid = text_field(path, entry, "id", where, required=True)
    if not _ID.match(eid):
        raise EditionError(path, f"{where}: id '{eid}' must be letters, digits, '-' or '_'", entry.line_of("id"))
    if eid in seen:
        raise EditionError(path, f"{where}: duplicate id '{eid}'", entry.line_of("id"))
    seen.add(eid)
    where = f"{'context' if context else 'episode'} '{eid}'"
    order = entry.get("order", n)
    if not isinstance(order, int) or isinstance(order, bool):
        raise EditionError(path, f"{where}: 'order' must be a whole number", entry.line_of("order"))
    return EpisodeDef(
        id=eid,
        title=text_field(path, entry, "title", where, required=not context) or eid,
        order=order,
        description=prose(text_field(path, entry, "description", where)),
        cues=texts_field(path, entry, "cues", where),
        examples=texts_field(path, entry, "examples", where),
        line=entry.line,
        context=context,
        window=None if context else _window(path, entry, where),
    )


def load_episodes(path: Path) -> tuple[tuple[EpisodeDef, ...], tuple[EpisodeDef, ...]]:
    """The episodes in narrative order (``order:`` if given, else their order in the file), and the context."""
    parts = sections(path, read_yaml(path), _TOP)
    seen: set[str] = set()
    defs = [_definition(path, e, n, f"episode entry {n}", seen, False) for n, e in enumerate(parts["episodes"], 1)]
    if not defs:
        raise EditionError(path, "defines no episode")
    context = [_definition(path, e, n, f"context entry {n}", seen, True) for n, e in enumerate(parts["context"], 1)]
    return tuple(sorted(defs, key=lambda d: (d.order, d.id))), tuple(context)


def load_calendar(path: Path) -> Calendar:
    """``calendar:`` -- a list of ``{month: 十月, first: 丙申}``, the first day of each month of the story's year as
    the editor's table gives it (貞觀十九年十月丙申朔); none, where the file gives none."""
    out: Calendar = {}
    for n, entry in enumerate(sections(path, read_yaml(path), _TOP)["calendar"], 1):
        where = f"calendar entry {n}"
        check_keys(path, entry, _CALENDAR_KEYS, where)
        month_text = text_field(path, entry, "month", where, required=True)
        first = text_field(path, entry, "first", where, required=True).removesuffix("朔")
        month = month_number(month_text) if MONTH_OF.fullmatch(month_text) else None
        if month is None:
            raise EditionError(
                path, f"{where}: month '{month_text}' is not a month (e.g. 十月)", entry.line_of("month")
            )
        if first not in CYCLICAL_DAYS:
            raise EditionError(
                path, f"{where}: first '{first}' is not a cyclical day (e.g. 丙申)", entry.line_of("first")
            )
        if month in out:
            raise EditionError(path, f"{where}: month '{month_text}' is given twice", entry.line_of("month"))
        out[month] = CYCLICAL_DAYS.index(first)
    return out
