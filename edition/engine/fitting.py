"""A collation note inside the cells it is shown in.

A copy is collated with its base over the whole text; the rows are made of sentences. A difference that runs
over a sentence's end in one of them (丙戍度 in the unpunctuated 通鑑, 丙戌。渡 in a copy whose sentence ends
there; a passage one copy adds over two paragraphs) then stands in two cells, and a note is shown in one: the
export's contract (every note inside the cells it belongs to) broke. Such a note is cut where a cell of any of
its sides ends, at the same share of each side's letters and marks -- letter for letter where the sides are as
long (戍|度 against 戌。|渡), and exactly at its edge on the side whose cell ends there; a rewritten passage is
cut into rewritten parts. A part that one side lacks is an addition or an omission; a part its sides
read alike is no note. Before any cut, an omission or an addition whose sides stand in two homes is moved along
the words repeated at its ends, where that puts them in one; and a copy's place for an omission moves over marks
and spaces into the base's home.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import replace
from itertools import compress
from operator import not_

from .model import EpisodeResult, Note, NoteType, Reading, Span
from .vocabulary import CollationClass

Side = tuple[str, int, int]  # a witness, and the stretch of its text a note quotes


Home = str | None  # an episode, or None: the text no episode holds


class Places:
    """A witness's cells and its stretches outside them, (start, end, home) by start. They never overlap, so what
    holds a letter is found by bisection among the one or two that start last before it."""

    def __init__(self, places: list[tuple[int, int, Home]]) -> None:
        self.places = sorted(places, key=lambda p: (p[0], p[1]))
        self.starts = [p[0] for p in self.places]
        self.edges = sorted({x for a, b, _ in self.places for x in (a, b)})
        self._in: dict[tuple[Home, bool], list[int]] = {}  # (home, starts only) -> its edges, made when asked

    def around(self, at: int) -> list[tuple[int, int, Home]]:
        k = bisect_right(self.starts, at)
        return self.places[max(0, k - 2) : k]

    def nearest(self, home: Home, at: int, starts_only: bool = False) -> int:
        """The edge (or start) of this witness's text in ``home`` nearest ``at`` (the lower on a tie); ``at`` if
        it has none there."""
        key = (home, starts_only)
        if key not in self._in:
            self._in[key] = sorted(
                {e for a, b, h in self.places if h == home for e in ((a,) if starts_only else (a, b))}
            )
        edges = self._in[key]
        if not edges:
            return at
        k = bisect_left(edges, at)
        return min(edges[max(0, k - 1) : k + 1], key=lambda e: (abs(e - at), e))


NOWHERE = Places([])
SLIDE = 64  # letters an omission or addition is slid at most (the words repeated at its ends are a name, a phrase)


def fitted(
    notes: list[Note],
    episodes: tuple[EpisodeResult, ...],
    outside: dict[str, tuple[Span, ...]],
    texts: dict[str, str],
) -> list[Note]:
    """The notes, each collation note that crosses a cell's edge cut there, and the place a side lacking words
    stands at (an addition's in the base, an omission's in a copy) moved over marks and spaces into the cells
    its words' side is in (see the module's doc); ``outside``: each witness's text in no episode."""
    found: dict[str, list[tuple[int, int, Home]]] = {}
    for ep in episodes:
        for row in ep.rows:
            for siglum, segs in row.cells.items():
                found.setdefault(siglum, []).extend((seg.start, seg.end, ep.episode.id) for seg in segs)
    for siglum, spans in outside.items():
        found.setdefault(siglum, []).extend((sp.start, sp.end, None) for sp in spans)
    places = {s: Places(xs) for s, xs in found.items()}
    edges = {s: xs.edges for s, xs in places.items()}
    out: list[Note] = []
    for n in notes:
        if n.type != NoteType.COLLATION or n.lemma is None:
            out.append(n)
            continue
        whole = n if _at_home(n, places) else _slid(n, places, texts)
        if whole is not None:
            out.append(whole)
        elif n.lemma.start == n.lemma.end:  # an addition: each part shown where the copy's added words are
            for group in _by_home(n, places):  # its parts cut where the copy's words run over several cells
                out += (
                    [group]
                    if _at_home(group, places)
                    else [x for p in _cut(group, edges, texts) for x in _by_home(p, places)]
                )
        else:
            for piece in _cut(n, edges, texts):
                added = piece.lemma is not None and piece.lemma.start == piece.lemma.end
                out += _by_home(piece, places) if added else _placed(piece, places, texts)
    return out


def _by_home(n: Note, places: dict[str, Places]) -> list[Note]:
    """An addition whose copies' words stand in other homes than the base's place for them (paragraphs a copy
    moved, compared line by line): a note for each home, its copies' words, and the base's place moved over marks
    into that home, else to the nearest edge of the base's text there."""
    lemma = n.lemma
    assert lemma is not None
    groups: dict[Home, list[tuple[str, str, tuple[int, int]]]] = {}
    for r in n.readings:
        for s, (a, b) in r.spans.items():
            homes = _homes(places.get(s, NOWHERE), a, b)
            groups.setdefault(homes[0] if homes else None, []).append((s, r.text, (a, b)))
    if len(groups) == 1 and _at_home(n, places):
        return [n]
    out = []
    for home, sides in groups.items():
        at = lemma.start
        if _shown(places, lemma.siglum, at) != home or home not in _homes(places.get(lemma.siglum, NOWHERE), at, at):
            at = places.get(lemma.siglum, NOWHERE).nearest(home, at, starts_only=True)  # a start shows there
        out.append(replace(n, lemma=Span(lemma.siglum, at, at), readings=_grouped(sides)))
    return out


def _grouped(sides: list[tuple[str, str, tuple[int, int]]]) -> tuple[Reading, ...]:
    """Readings of (witness, text, span): the witnesses that read alike, one reading, in the order first read."""
    readings: dict[str, tuple[list[str], dict[str, tuple[int, int]]]] = {}
    for s, text, span in sides:
        sigla, where = readings.setdefault(text, ([], {}))
        sigla.append(s)
        where[s] = span
    return tuple(Reading(tuple(sigla), text, where) for text, (sigla, where) in readings.items())


def _homes(places: Places, a: int, b: int) -> list[Home]:
    """The homes of the cells (or stretches outside them) that hold ``a..b``."""
    return [h for x, y, h in places.around(a) if x <= a and b <= y]


def _placed(n: Note, places: dict[str, Places], texts: dict[str, str]) -> list[Note]:
    """The note with each copy's side that lacks words (an omission's point) moved, over marks and spaces only,
    into the cells (or the text outside them) that hold the base's words it is shown with. A copy's differing
    words that stand in another home (the base's 儘 in no episode, the copy's 盡 in one) have no place beside
    the base's: that reading is left out, and a note left with none is no note."""
    lemma = n.lemma
    assert lemma is not None
    home = _shown(places, lemma.siglum, lemma.start)  # where the note is shown

    def snap(s: str, x: int) -> int:
        text, mine = texts[s], places.get(s, NOWHERE)
        if home in _homes(mine, x, x):
            return x
        for step in (-1, 1):
            y = x
            while 0 <= y + min(step, 0) < len(text) and not text[y + min(step, 0)].isalnum():
                y += step
                if home in _homes(mine, y, y):
                    return y
        return x

    readings = tuple(
        replace(r, spans={s: (p, p) if a == b else (a, b) for s, (a, b) in r.spans.items() for p in [snap(s, a)]})
        for r in n.readings
    )
    placed = replace(n, readings=readings)
    if _at_home(placed, places):
        return [placed]
    placed = _slid(placed, places, texts) or _nearest(placed, home, places)
    if _at_home(placed, places):
        return [placed]
    kept = tuple(
        replace(r, sigla=tuple(s for s in r.sigla if s in at), spans=at)
        for r in placed.readings
        for at in [{s: (a, b) for s, (a, b) in r.spans.items() if home in _homes(places.get(s, NOWHERE), a, b)}]
        if at
    )
    return [replace(placed, readings=kept)] if kept else []


def _nearest(n: Note, home: Home, places: dict[str, Places]) -> Note:
    """A copy's place for an omission that stands in another home than the base's words (a paragraph the copy
    tells elsewhere, compared line by line): the nearest edge of the copy's text in the base's home -- the copy
    lacks the words here, whatever it has elsewhere."""

    def near(s: str, x: int) -> tuple[int, int]:
        y = places.get(s, NOWHERE).nearest(home, x)
        return (y, y)

    readings = tuple(
        replace(r, spans={s: near(s, a) if a == b else (a, b) for s, (a, b) in r.spans.items()}) for r in n.readings
    )
    return replace(n, readings=readings)


def _shown(places: dict[str, Places], siglum: str, at: int) -> Home:
    """The home a note whose base side starts at ``at`` is shown in (as ``notes.locate`` places it): the episode
    of the cell that holds that letter, else the text outside the episodes."""
    return next(
        (h for x, y, h in places.get(siglum, NOWHERE).around(at) if h is not None and x <= at < max(y, x + 1)), None
    )


def _at_home(n: Note, places: dict[str, Places]) -> bool:
    """Whether every side of a note lies in one cell (or stretch outside them) of the home it is shown in."""
    lemma = n.lemma
    assert lemma is not None
    home = _shown(places, lemma.siglum, lemma.start)
    sides = [(lemma.siglum, lemma.start, lemma.end)] + [(s, a, b) for r in n.readings for s, (a, b) in r.spans.items()]
    return all(home in _homes(places.get(s, NOWHERE), a, b) for s, a, b in sides)


def _slid(n: Note, places: dict[str, Places], texts: dict[str, str]) -> Note | None:
    """An omission or an addition moved along the words repeated at its two ends, to where its sides share a
    home: the base's 李世民矛盾的心情……湧了出來。李世民聞訊 against a copy's 李世民闻讯 leaves out the same words
    before or after the copy's 李世民, and only one of the two places keeps the note inside its cells. None if
    no place does."""
    lemma = n.lemma
    assert lemma is not None
    words = [(lemma.siglum, lemma.start, lemma.end)] if lemma.end > lemma.start else []
    words += [(s, a, b) for r in n.readings for s, (a, b) in r.spans.items() if b > a]
    points = [(lemma.siglum, lemma.start)] if lemma.end == lemma.start else []
    points += [(s, a) for r in n.readings for s, (a, b) in r.spans.items() if b == a]
    if len(words) != 1 or not points:
        return None  # both sides have words, or several copies have them: nothing slides as one
    w, a, b = words[0]
    text = texts[w]
    for k in range(1, min(b - a, SLIDE) + 1):
        for step in (-k, k):
            x, y = a + step, b + step
            if x < 0 or y > len(text):
                continue
            moved = text[x:a] if step < 0 else text[b:y]  # what the stretch gives up at one end, takes at the other
            kept = text[y:b] if step < 0 else text[a:x]
            if moved != kept or any(texts[s][p + min(step, 0) : p + max(step, 0)] != moved for s, p in points):
                continue
            slid = _moved(n, w, (x, y), step, texts)
            if _at_home(slid, places):
                return slid
    return None


def _moved(n: Note, w: str, span: tuple[int, int], step: int, texts: dict[str, str]) -> Note:
    """The note with witness ``w``'s words at ``span`` and every point moved by ``step``."""
    lemma = n.lemma
    assert lemma is not None
    lemma = Span(w, *span) if lemma.siglum == w else Span(lemma.siglum, lemma.start + step, lemma.end + step)
    readings = tuple(
        replace(
            r,
            text=texts[w][span[0] : span[1]] if w in r.spans else r.text,
            spans={s: span if s == w else (a + step, b + step) for s, (a, b) in r.spans.items()},
        )
        for r in n.readings
    )
    return replace(n, lemma=lemma, lemma_text=texts[lemma.siglum][lemma.start : lemma.end], readings=readings)


def _inside(edges: list[int], a: int, b: int) -> list[int]:
    """The cell edges strictly inside ``a..b``."""
    return edges[bisect_right(edges, a) : bisect_left(edges, b)]


def _letters(text: str, a: int, b: int) -> list[int]:
    """Where a stretch's letters and marks are (not its spaces): what a cut is counted in -- a mark too, for a
    cell may end after a closing quote (”說完 of ”說完，他躬身相謝)."""
    return list(compress(range(a, b), map(not_, map(str.isspace, text[a:b]))))  # in C: an addition may be long


def _ends(edges: list[int], letters: list[int]) -> set[float]:
    """Where one side's cells end among its letters, as shares of them: ``k / len(letters)`` for each ``k`` with
    an edge after letter ``k - 1`` and at or before letter ``k``. Found edge by edge (a bisection each), not
    letter by letter: a long addition has thousands of letters and a few edges."""
    if not letters:
        return set()
    inner = edges[bisect_right(edges, letters[0]) : bisect_right(edges, letters[-1])]
    return {bisect_left(letters, e) / len(letters) for e in inner}


def _cut(n: Note, edges: dict[str, list[int]], texts: dict[str, str]) -> list[Note]:
    lemma = n.lemma
    assert lemma is not None
    sides: list[Side] = [(lemma.siglum, lemma.start, lemma.end)]
    sides += [(s, a, b) for r in n.readings for s, (a, b) in r.spans.items()]
    if not any(_inside(edges.get(s, []), a, b) for s, a, b in sides):
        return [n]
    letters = {s: _letters(texts[s], a, b) for s, a, b in sides}
    shares = sorted(set().union(*(_ends(edges.get(s, []), letters[s]) for s, _, _ in sides)))
    bounds = {s: _bounds(texts[s], edges.get(s, []), a, b, letters[s], shares) for s, a, b in sides}
    pieces = []
    for j in range(len(shares) + 1):
        piece = _piece(n, texts, {s: bounds[s][j] for s, _, _ in sides})
        if any(r.text != piece.lemma_text for r in piece.readings):
            pieces.append(piece)  # a part its sides read alike is no difference
    return pieces or [n]


def _bounds(
    text: str, edges: list[int], a: int, b: int, letters: list[int], shares: list[float]
) -> list[tuple[int, int]]:
    """One side's stretches between the cuts: the cut at each share of its letters falls at a cell's edge where
    one lies between the two letters there, else after the marks that close the first (戌，|渡)."""
    out, start = [], a
    for f in shares:
        k = round(f * len(letters))
        if k <= 0 or k >= len(letters):
            end = nxt = start if k <= 0 else b  # this side has nothing on one side of the cut
        else:
            lo, hi = letters[k - 1], letters[k]
            inner = _inside(edges, lo, hi + 1)
            if inner:
                end, nxt = inner[0], inner[-1]
            else:
                end = lo + 1
                while end < hi and not text[end].isspace() and not text[end].isalnum():
                    end += 1
                nxt = end
        end, nxt = max(end, start), max(nxt, start)
        out.append((start, end))
        start = nxt
    out.append((start, max(b, start)))
    return out


def _piece(n: Note, texts: dict[str, str], spans: dict[str, tuple[int, int]]) -> Note:
    """The note over these stretches of its sides; an addition or an omission where one side has none."""
    lemma = n.lemma
    assert lemma is not None
    a, b = spans[lemma.siglum]
    sides = [(s, texts[s][x:y], (x, y)) for r in n.readings for s in r.spans for x, y in [spans[s]]]
    if a == b:
        cls = CollationClass.ADDITION
    elif all(x == y for _, _, (x, y) in sides):
        cls = CollationClass.OMISSION
    else:
        cls = n.cls
    return replace(
        n, cls=cls, lemma=Span(lemma.siglum, a, b), lemma_text=texts[lemma.siglum][a:b], readings=_grouped(sides)
    )
