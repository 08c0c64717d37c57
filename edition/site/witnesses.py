"""A witness page, read as a 點校本: catalogue data, then the whole text in the witness's own order as running prose,
paragraphs as in its file, every note that quotes it (collation, fact, lacuna, editor's) a numbered mark 〔一〕 right
after the words it concerns, linked to its entry in the page's 校勘記 and back; the register's mentions linked to
their entries. Each run is anchored at its offset (``#o<start>``) and tagged with its episode row. A family's
base's page is the family's reading text: its 校勘記 give the copies' readings.

A reader who follows a moved segment or a register entry lands here, on the run that holds it, so every run of
the text is an anchor.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from typing import Any

from ..engine.cache import digest
from ..engine.exported import EpisodeJson, LacunaJson, NoteJson, RowJson, WitnessJson
from .apparatus import reading_apparatus
from .labels import LACUNA_LABELS, LANGS, script_label
from .paths import episode_page, url, witness_page
from .site_index import Site, chars
from .templating import MACROS, Renderer, fill, stand_in
from .text_pieces import other_script


def render_witness(renderer: Renderer, site: Site, w: WitnessJson, index: int, text: str) -> str:
    """The page of witness ``w`` (the ``index``-th of the catalogue), whose text is ``text``."""
    s = w["siglum"]
    episodes = [  # [id, title, [[row number, [[start, end, moved], …]], …]] : all the page takes from the episodes
        [
            ep["id"],
            ep["title"],
            [[i, [[x["start"], x["end"], bool(x.get("moved"))] for x in r["cells"][s]]] for i, r in _rows(ep, s)],
        ]
        for ep in site.export["episodes"]
    ]
    outside = [[x["start"], x["end"]] for x in site.export["unassigned"].get(s, [])]
    family = site.families[w["family"]]
    members = [{"siglum": m, "href": site.witness_url(m, 2), "base": m == family["base"]} for m in family["members"]]
    quoting = site.quoting(s)
    numbers = {note["id"]: k for k, (*_, note) in enumerate(quoting, 1)}
    marks = [[at, start, anchor(numbers[note["id"]]), numbers[note["id"]]] for at, start, _, note in quoting]
    lacunae = [
        {"at": x["at"], "label": LACUNA_LABELS.get(x["kind"], x["kind"]), "href": _lacuna_note(x, site, numbers)}
        for x in site.export["lacunae"]
        if x["siglum"] == s
    ]
    register = url("register.md", 2)
    mentions = [[a, b, f"{register}#{e}", name] for a, b, e, name in site.mentions.get(s, [])]

    notes_key, listed = reading_apparatus(
        renderer,
        site,
        [(note, chinese_number(numbers[note["id"]]), anchor(numbers[note["id"]])) for *_, note in quoting],
        s,
    )
    emends = _emends(quoting, s)
    base = family["base"] == s and len(family["members"]) > 1
    made_of = [digest(text), episodes, outside, [mark[:2] for mark in marks], mentions, lacunae, emends]
    text_key, paragraphs = renderer.fragment("text", made_of, functools.partial(_text, renderer, text, *made_of[1:]))
    inputs = [w, index, text_key, [mark[2] for mark in marks], members, base, notes_key]
    context = functools.partial(_context, renderer, w, text, episodes, marks, paragraphs, members, base, listed)
    return renderer.page(witness_page(s, index), inputs, context, "witness.md.jinja", ("paragraphs", "notes"))


_PIECE = {"text": "", "t": None, "s": None, "reg": None, "mark": None, "lacuna": None, "was": None}  # a piece of a
# reading text; ``was``: what the witness reads where the edition adopts another reading (the piece shows that)
_MARK = "mark"  # a mark inserted in a paragraph, as its key holds it: its piece is made with stand-ins when rendered


def _emends(quoting: list[tuple[int, int, int, NoteJson]], siglum: str) -> list[tuple[int, int, str, str]]:
    """Where the editor adopts another witness's reading into this one's text (a verdict ``adopt`` on a note whose
    lemma is here): (start, end, the adopted words, the words the witness has). The reading text shows the adopted
    words; its 校勘記 says 「某」原作「某」，據某改 -- so nothing the witness reads is lost from the page."""
    out = []
    for *_, note in quoting:
        adopted = (note.get("verdict") or {}).get("adopted")
        if adopted and adopted["siglum"] == siglum:
            out.append((adopted["start"], adopted["end"], adopted["text"], adopted["was"]))
    return sorted(set(out))


def anchor(n: int) -> str:
    """The id of a reading text's note 〔n〕 in its 校勘記 (its mark's is ``m`` before it): the page's own
    number, not the edition's note id. A citation of A 校勘記〔七〕 is ``#k7`` however many notes the other
    witnesses gain or lose; and a note added to one witness leaves the pages of the witnesses it does not
    quote as they were (with the edition's ids, every later id moved by one, and ``mkdocs serve`` read all
    ten pages of 3 MB again at 10 x 50k)."""
    return f"k{n}"


@functools.cache
def chinese_number(n: int) -> str:
    """A note's number as a 點校本 prints it: 〔一〕, 〔十二〕, 〔一百零五〕 (each made once: its marks and its 校勘記
    print it on every page)."""
    digits = "零一二三四五六七八九"

    def below_100(k: int, lead: bool) -> str:
        tens, ones = divmod(k, 10)
        head = "" if tens == 0 else ("十" if tens == 1 and lead else digits[tens] + "十")
        return head + (digits[ones] if ones else "")

    hundreds, rest = divmod(n, 100)
    if not hundreds:
        return f"〔{below_100(rest, True) or digits[0]}〕"
    tail = "" if not rest else ("零" + digits[rest] if rest < 10 else below_100(rest, False))
    return f"〔{digits[hundreds]}百{tail}〕" if hundreds < 10 else f"〔{n}〕"


def _context(renderer: Renderer, w, text, episodes, marks, blank, members, base, listed):
    """What the template prints, made only when the page is not in the cache: the text's paragraphs (``_text``) with
    their marks' ids and numbers filled in."""
    listed_episodes = [
        {
            "title": title,
            "href": url(episode_page(ep_id), 2),
            "chars": sum(chars(text[a:b]) for _, segs in rows for a, b, _ in segs),
        }
        for ep_id, title, rows in episodes
    ]
    paragraphs = []
    for html, shown in blank:
        values = {}
        for k, i in enumerate(shown):
            values[f"id{k}"], values[f"no{k}"] = marks[i][2], chinese_number(marks[i][3])
        paragraphs.append(fill(html, values))
    return {
        "title": f"{w['siglum']} · {w['title']}",
        "lang": LANGS.get(w["script"], "zh"),
        "catalogue": [
            ("文件", w["file"]),
            ("題名", w["title"]),
            ("說明", w["description"]),
            ("來源", w["source"]),
            ("字體", script_label(w["script"])),
            ("長度", f"{w['length']} 字元（不計空白 {chars(text)} 字）"),
        ],
        "siglum": w["siglum"],
        "members": members,
        "base": base,
        "episodes": listed_episodes,
        "paragraphs": paragraphs,
        "alt": renderer.fragment("alt", digest(text), lambda: other_script(renderer.forms, text))[1],
        "notes": listed[1],
        "notes_count": listed[0],
    }


def _text(renderer: Renderer, text, episodes, outside, places, mentions, lacunae, emends) -> list[tuple[str, list]]:
    """The text as paragraphs (its lines), each cut into runs (an episode row's segment, text outside the episodes,
    or the gaps between), each run into pieces: plain text, a register mention (a link to its entry), a note's
    numbered mark (``places``: each mark's place and its words' start, in the notes' reading order), a lacuna, the
    words the edition adopts in place of the witness's (``emends``). Each paragraph is rendered with stand-ins for
    its marks' ids and numbers (``_paragraph``), and comes with the marks it shows.

    Kept in the cache under all it is made from but the marks' ids and numbers: after an edit, the pages of the
    witnesses whose text and marks' places it leaves as they were fill their paragraphs in without cutting their
    text again (a note added anywhere renumbers the marks of every page that lists a later note). Its key stands
    for all that in the page's."""
    runs: list[tuple[int, int, str, dict[str, Any] | None, bool]] = []  # (start, end, kind, row link, moved)
    for ep_id, title, rows in episodes:
        href = url(episode_page(ep_id), 2)
        for i, segs in rows:
            ref = {"href": f"{href}#r{i}", "title": title, "row": i}
            runs.extend((a, b, "run", ref if j == 0 or moved else None, moved) for j, (a, b, moved) in enumerate(segs))
    runs.extend((a, b, "outside", None, False) for a, b in outside)
    runs.sort(key=lambda r: (r[0], r[1]))
    intervals, pos = [], 0
    for run in runs:
        if run[0] > pos:
            intervals.append((pos, run[0], "text", None, False))
        intervals.append(run)
        pos = run[1]
    if pos < len(text):
        intervals.append((pos, len(text), "text", None, False))
    # What stands at a place between characters: the marks of notes on the words before it, a lacuna, then the
    # marks of notes on the place itself (the lacuna's note after its sign). A mark's piece holds its index.
    placed: list[tuple[int, int, int, dict[str, Any]]] = [(x["at"], 1, 0, {**_PIECE, "lacuna": x}) for x in lacunae]
    placed += [(at, 0 if start < at else 2, i + 1, {**_PIECE, "mark": i}) for i, (at, start) in enumerate(places)]
    placed += [(a, -1, 0, _adopted(renderer, new, was)) for a, b, new, was in emends if a == b]  # words 原脫
    inserts: dict[int, list[dict[str, Any]]] = {}
    for at, *_, item in sorted(placed, key=lambda x: x[:3]):
        inserts.setdefault(at, []).append(item)
    replaced = {a: (b, new, was) for a, b, new, was in emends if a < b}
    positions, starts = sorted(inserts), [r[0] for r in intervals]
    m_starts, m_ends = [m[0] for m in mentions], [m[1] for m in mentions]
    breaks = [m.start() for m in re.finditer("\n", text)]
    paragraphs = []
    for p0, p1 in zip([0, *(i + 1 for i in breaks)], [*breaks, len(text)], strict=True):
        at = positions[bisect.bisect_left(positions, p0) : bisect.bisect_right(positions, p1)]
        lo = max(0, bisect.bisect_right(starts, p0) - 1)
        # mentions and emends overlapping the paragraph; the mentions never overlap one another (``_mentions``)
        spans = mentions[bisect.bisect_left(m_ends, p0) : bisect.bisect_right(m_starts, p1)]
        html, shown = _paragraph(
            renderer,
            text[p0:p1],
            p0,
            intervals[lo : bisect.bisect_left(starts, p1)],
            [(x, inserts[x]) for x in at],
            spans,
            [(a, *x) for a, x in replaced.items() if a <= p1 and x[0] >= p0],
        )
        if html:
            paragraphs.append((html, shown))
    return paragraphs


def _paragraph(
    renderer: Renderer,
    text: str,
    p0: int,
    intervals: list[tuple],
    inserts: list[tuple[int, list[dict[str, Any]]]],
    mentions: list[list],
    replaced: list[tuple[int, int, str, str]],
) -> tuple[str, list[int]]:
    """A paragraph of the text (``text``, at offset ``p0`` of the witness's) rendered by the ``paragraph`` macro, or
    "" when it shows nothing. It is kept in the cache under exactly what it is made from: its text and offset, the
    runs (``intervals``), inserted pieces, mentions and adopted words that reach into it, but not its marks' ids
    and numbers (a note added before them renumbers them, and a witness at 10 x 50k has some 500 paragraphs): the
    marks are rendered as stand-ins and filled in after, so a rebuild renders again only the paragraphs an edit
    reaches, without cutting the others into pieces. Returns the HTML and the marks it shows (their indexes among
    the page's marks, which a mark piece holds)."""
    shown = [piece["mark"] for _, items in inserts for piece in items if piece["mark"] is not None]
    blank = [(at, [_MARK if piece["mark"] is not None else piece for piece in items]) for at, items in inserts]
    inputs = (text, p0, intervals, blank, mentions, replaced)
    _, html = renderer.fragment("paragraph", inputs, lambda: _paragraph_html(renderer, inputs))
    return html, shown


def _paragraph_html(renderer: Renderer, inputs: tuple) -> str:
    """One paragraph (``_paragraph``'s inputs, its marks blank) cut into runs, each into pieces (see ``_context``),
    rendered by the ``paragraph`` macro; "" when it has no piece. The offset each part was cut from (``interval``)
    is not printed."""
    text, p0, intervals, inserts, mentions, replaced = inputs
    p1 = p0 + len(text)
    inserted = dict(inserts)
    adopted = {a: (b, new, was) for a, b, new, was in replaced}
    starts = [r[0] for r in intervals]
    m_starts = [m[0] for m in mentions]
    cuts = {p0, p1, *inserted, *starts, *(x for m in mentions for x in m[:2]), *(x for e in replaced for x in e[:2])}
    parts: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    marks = itertools.count()

    def part(interval) -> dict[str, Any]:
        a, _, kind, *_ = interval
        return {"kind": kind, "interval": a, "ref": None, "moved": False, "anchor": None, "pieces": []}

    def insert(at: int) -> None:
        nonlocal current
        for item in inserted.get(at, []):
            if item == _MARK:  # the k-th mark of the paragraph, its id and number filled in after
                k = next(marks)
                item = {**_PIECE, "mark": {"id": stand_in(f"id{k}"), "no": stand_in(f"no{k}")}}
            if current is None:
                current = {**part((at, at, "text", None, False)), "interval": -1}
                parts.append(current)
            current["pieces"].append(item)

    for x, y in itertools.pairwise(sorted(c for c in cuts if p0 <= c <= p1)):
        insert(x)
        interval = intervals[bisect.bisect_right(starts, x) - 1]
        if current is None or current["interval"] != interval[0]:
            current = part(interval)
            if x == interval[0]:
                current.update(anchor=f"o{x}" if interval[2] != "text" else None, ref=interval[3], moved=interval[4])
            parts.append(current)
        k = bisect.bisect_right(m_starts, x) - 1
        mention = mentions[k] if k >= 0 and mentions[k][0] <= x < mentions[k][1] else None
        if x in adopted:  # the adopted words stand for the whole stretch the witness reads otherwise
            current["pieces"].append(_adopted(renderer, adopted[x][1], adopted[x][2]))
            continue
        if any(a < x < b for a, (b, _, _) in adopted.items()):
            continue
        chunk = text[x - p0 : y - p0]
        t, s = renderer.forms.forms(chunk)
        piece = {**_PIECE, "text": chunk, "t": None if t == s == chunk else t, "s": None if t == s == chunk else s}
        if mention:
            # the register links to a mention outside the episodes itself (#g<start>), to the others' rows
            anchor = f"g{x}" if x == mention[0] and current["kind"] != "run" else None
            piece["reg"] = {"href": mention[2], "name": mention[3], "id": anchor}
        current["pieces"].append(piece)
    insert(p1)
    if not any(x["pieces"] for x in parts):
        return ""
    return MACROS.paragraph([{key: v for key, v in x.items() if key != "interval"} for x in parts])


def _adopted(renderer: Renderer, new: str, was: str) -> dict[str, Any]:
    """The piece of a reading text that shows the words the edition adopts (``was``: what the witness reads)."""
    t, s = renderer.forms.forms(new)
    return {**_PIECE, "text": new, "t": None if t == s == new else t, "s": None if t == s == new else s, "was": was}


def _rows(ep: EpisodeJson, siglum: str) -> list[tuple[int, RowJson]]:
    """The numbered rows of an episode in which a witness has text."""
    return [(i, row) for i, row in enumerate(ep["rows"], 1) if row["cells"].get(siglum)]


def _lacuna_note(lacuna: LacunaJson, site: Site, numbers: dict[str, int]) -> str:
    """Link to the note that tells of a witness's lacuna in this page's 校勘記 (``numbers``: its notes' numbers), or
    ''."""
    at = [lacuna["at"], lacuna["at"]]
    for note in site.export["notes"]:
        if note["type"] == "lacuna" and any(list(r["spans"].get(lacuna["siglum"], [])) == at for r in note["readings"]):
            return f"#{anchor(numbers[note['id']])}" if note["id"] in numbers else ""
    return ""
