"""Render the site's generated pages from the ``edition-export/1`` contract and the witness texts.

Pure functions: the same export gives byte-identical pages. Every piece of witness
text goes through ``html.escape`` inside a raw HTML block, so Markdown never reads
it (no emphasis, headings, links, tables, attribute lists or footnotes can come
from a witness). Links inside the raw blocks are written for MkDocs' directory
URLs (``use_directory_urls: true``), because MkDocs does not rewrite raw HTML.
"""

from __future__ import annotations

import itertools
import json
import re
from html import escape
from typing import Any

from ..engine.convert import to_simplified, to_traditional

CLASSES = ("substantive", "addition", "omission", "orthographic", "punctuation")
CLASS_LABELS = {
    "substantive": "異文",
    "addition": "增文",
    "omission": "脫文",
    "orthographic": "異體",
    "punctuation": "標點",
}
TAG_LABELS = {"name": "人名", "number": "數字", "date": "時日", "place": "地名"}
SCRIPT_LABELS = {"Hant": "繁體", "Hans": "簡體", "mixed": "繁簡混"}
LEMMA_MAX = 16  # a longer lemma is shown as its first and last characters; the table has it in full
_SAFE = re.compile(r"^[A-Za-z0-9_-]+$")


def witness_page(siglum: str, index: int) -> str:
    """Page path of a witness: its siglum when that is a safe file name, else its position."""
    return f"witnesses/{siglum}.md" if _SAFE.match(siglum) else f"witnesses/w{index + 1}.md"


def episode_page(episode_id: str) -> str:
    return f"episodes/{episode_id}.md"


def _url(page: str) -> str:
    """Site-root-relative directory URL of a page path (``episodes/x.md`` → ``episodes/x/``)."""
    return page.removesuffix(".md") + "/"


def _chars(text: str) -> int:
    """Amount of text as readers count it: characters other than whitespace."""
    return sum(not c.isspace() for c in text)


def _front(title: str) -> str:
    """Front matter: the title (JSON strings are YAML), so no Markdown heading is parsed; no TOC, tables need room."""
    return f"---\ntitle: {json.dumps(title, ensure_ascii=False)}\nhide: [toc]\n---\n\n"


def _text(text: str) -> str:
    """Escaped witness text; a span carrying its Traditional and Simplified display forms if they differ."""
    esc = escape(text)
    trad, simp = to_traditional(text), to_simplified(text)
    if trad == text and simp == text:
        return esc
    return f'<span class="t" data-t="{escape(trad)}" data-s="{escape(simp)}">{esc}</span>'


def _alt(text: str) -> str:
    """The other-script forms of ``text``, hidden but indexed by search (so 遼澤 finds 辽泽)."""
    forms = sorted({to_traditional(text), to_simplified(text)} - {text})
    return f'<span class="ed-alt" hidden>{escape(" ".join(forms))}</span>' if forms else ""


def _lines(text: str) -> str:
    """Escaped text keeping its line breaks as ``<br>``: no literal newline, so the HTML block never ends early."""
    return "<br>".join(_text(line) for line in text.split("\n"))


def _controls(sigla: list[str], titles: dict[str, str], with_notes: bool) -> str:
    """Reader controls; ``edition.js`` wires them and keeps the choices in localStorage across pages."""
    parts = ['<div class="ed-controls" data-search-exclude markdown="0">']
    if sigla:
        boxes = "".join(
            f'<label title="{escape(titles[s])}"><input type="checkbox" data-witness="{escape(s)}" checked> '
            f"{escape(s)}</label>"
            for s in sigla
        )
        parts.append(f'<fieldset class="ed-witnesses"><legend>傳本</legend>{boxes}</fieldset>')
    if with_notes:
        boxes = "".join(
            f'<label class="c-{c}"><input type="checkbox" data-class="{c}" checked> {CLASS_LABELS[c]}</label>'
            for c in CLASSES
        )
        parts.append(f'<fieldset class="ed-classes"><legend>校記</legend>{boxes}</fieldset>')
    radios = "".join(
        f'<label><input type="radio" name="ed-script" value="{v}"{" checked" if v == "orig" else ""}> {label}</label>'
        for v, label in (("orig", "原文"), ("t", "全繁"), ("s", "全簡"))
    )
    parts.append(f'<fieldset class="ed-script"><legend>字體</legend>{radios}</fieldset>')
    parts.append("</div>")
    return "".join(parts)


# --- episode pages ----------------------------------------------------------------------------------------------


def _note_spans(notes: list[dict[str, Any]]) -> dict[str, list[tuple[int, int, int, str]]]:
    """Per witness, every (start, end, note number, class) that notes mark in its text."""
    spans: dict[str, list[tuple[int, int, int, str]]] = {}
    for k, note in enumerate(notes, 1):
        lemma = note["lemma"]
        spans.setdefault(lemma["siglum"], []).append((lemma["start"], lemma["end"], k, note["class"]))
        for reading in note["readings"]:
            for siglum, (start, end) in sorted(reading["spans"].items()):
                spans.setdefault(siglum, []).append((start, end, k, note["class"]))
    return spans


def _mark(piece: str, covering: list[tuple[int, int, int, str]]) -> str:
    """One piece of text under one or more notes: linked to the innermost (then first) note, with all classes."""
    if not covering:
        return _text(piece)
    k = min(covering, key=lambda s: (s[1] - s[0], s[2]))[2]
    classes = " ".join(f"v-{c}" for c in sorted({c for *_, c in covering}))
    numbers = " ".join(f"n{n}" for n in sorted({n for _, _, n, _ in covering}))
    body = _text(piece) if piece else "‸"
    gap = " v-gap" if not piece else ""
    return (
        f'<mark class="v {classes}{gap}" data-note="n{k}" data-notes="{numbers}">'
        f'<a href="#n{k}" title="校記 {k}">{body}</a></mark>'
    )


def _segment_html(text: str, start: int, spans: list[tuple[int, int, int, str]]) -> str:
    """A segment split at every note boundary inside it; a zero-width span becomes a caret at its place."""
    end = start + len(text)
    inside = [s for s in spans if start <= s[0] <= s[1] <= end]
    cuts = sorted({start, end, *(s[0] for s in inside), *(s[1] for s in inside)})
    out = []
    for a, b in itertools.pairwise([*cuts, None]):
        gaps = [s for s in inside if s[0] == s[1] == a]
        if gaps:
            out.append(_mark("", gaps))
        if b is not None:
            out.append(_mark(text[a - start : b - start], [s for s in inside if s[0] <= a and b <= s[1]]))
    return "".join(out)


def _sigla(sigla: list[str]) -> str:
    return " ".join(f'<span class="sig">{escape(s)}</span>' for s in sigla)


def _apparatus(note: dict[str, Any], base: str | None) -> str:
    """``lemma ] reading sigla; …`` with original characters; ``om.`` for silence, ``add.`` where the base is silent."""
    lemma = note["lemma"]
    text = lemma["text"]
    shown = escape(text)
    if len(text) > LEMMA_MAX:
        shown = f'<span title="{escape(text)}">{escape(text[:4])}…{escape(text[-4:])}</span>'
    readings = [r for r in note["readings"] if r["text"]]
    silent = sorted({s for r in note["readings"] if not r["text"] for s in r["sigla"]})
    if lemma["siglum"] != base and note["class"] == "addition":
        head = f'<span class="lem">add. {shown}</span> {_sigla([lemma["siglum"]])}'
        rest = [f'<span class="rdg">{escape(r["text"])}</span> {_sigla(r["sigla"])}' for r in readings]
        return "; ".join([head, *rest])
    own = f" {_sigla([lemma['siglum']])}" if lemma["siglum"] != base else ""
    rest = [f'<span class="rdg">{escape(r["text"])}</span> {_sigla(r["sigla"])}' for r in readings]
    if silent:
        rest.append(f"om. {_sigla(silent)}")
    return f'<span class="lem">{shown}</span>{own} ] ' + "; ".join(rest)


def _episode(ep: dict[str, Any], witnesses: list[dict[str, Any]]) -> str:
    order = {w["siglum"]: i for i, w in enumerate(witnesses)}
    titles = {w["siglum"]: w["title"] for w in witnesses}
    amount = {s: 0 for s in order}
    for row in ep["rows"]:
        for s, segs in row["cells"].items():
            amount[s] += sum(_chars(x["text"]) for x in segs)
    base = ep["base"]
    sigla = sorted((s for s in order if amount[s]), key=lambda s: (s != base, order[s]))
    row_no = {row["id"]: i for i, row in enumerate(ep["rows"], 1)}
    notes = sorted(ep["notes"], key=lambda n: row_no[n["row"]])
    spans = _note_spans(notes)
    out = [_front(ep["title"])]
    if ep["description"]:
        out.append(f'<p class="ed-desc">{escape(ep["description"])}</p>\n\n')
    if not sigla:
        out.append('<p class="ed-head">諸本皆無此段。</p>\n')
        return "".join(out)
    carried = "、".join(
        f'<a href="../../{_url(witness_page(s, order[s]))}" title="{escape(titles[s])}">{escape(s)}</a>'
        f"（{amount[s]} 字）"
        for s in sigla
    )
    lacking = "、".join(escape(s) for s in order if not amount[s])
    out.append(
        f'<p class="ed-head">底本 <strong>{escape(base or "")}</strong>。見於 {carried}。'
        + (f"未見：{lacking}。" if lacking else "")
        + f"共 {len(ep['rows'])} 行，校記 {len(notes)} 條。</p>\n\n"
    )
    out.append(_controls(sigla, titles, with_notes=True) + "\n\n")
    head = "".join(
        f'<th data-w="{escape(s)}" title="{escape(titles[s])}" scope="col">{escape(s)}'
        + ('<span class="ed-base">底本</span>' if s == base else "")
        + "</th>"
        for s in sigla
    )
    out.append(
        '<div class="ed-table-wrap" markdown="0"><table class="ed-parallel ed-text">'
        f'<thead><tr><th class="ed-rowno" scope="col">行</th>{head}</tr></thead><tbody>'
    )
    for i, row in enumerate(ep["rows"], 1):
        cells = []
        for s in sigla:
            segs = row["cells"].get(s, [])
            if not segs:
                cells.append(f'<td class="ed-empty" data-w="{escape(s)}" aria-label="{escape(s)} 無此文">—</td>')
                continue
            body = "".join(_segment_html(x["text"], x["start"], spans.get(s, [])) for x in segs)
            alt = _alt("".join(x["text"] for x in segs))
            cells.append(f'<td data-w="{escape(s)}" data-label="{escape(s)}">{body}{alt}</td>')
        out.append(f'<tr id="r{i}"><th class="ed-rowno" scope="row"><a href="#r{i}">{i}</a></th>{"".join(cells)}</tr>')
    out.append("</tbody></table></div>\n\n")
    if notes:
        out.append('<h2 id="notes">校記</h2>\n\n<ol class="ed-notes">')
        for k, note in enumerate(notes, 1):
            tags = "".join(f'<span class="tag">{TAG_LABELS.get(t, escape(t))}</span>' for t in note["tags"])
            out.append(
                f'<li id="n{k}" class="ed-note c-{note["class"]}" data-class="{note["class"]}">'
                f'<a class="ed-back" href="#r{row_no[note["row"]]}" title="回到第 {row_no[note["row"]]} 行">'
                f"行 {row_no[note['row']]}</a> {_apparatus(note, base)} "
                f'<span class="cls">{CLASS_LABELS.get(note["class"], escape(note["class"]))}</span>{tags}</li>'
            )
        out.append("</ol>\n")
    return "".join(out)


# --- witness pages ----------------------------------------------------------------------------------------------


def _witness(w: dict[str, Any], index: int, export: dict[str, Any], text: str) -> str:
    """Catalogue data and the full text, each run marked by its episode row or as outside the episodes."""
    s = w["siglum"]
    runs: list[tuple[int, int, str]] = []  # (start, end, opening HTML)
    amounts = []
    for ep in export["episodes"]:
        n = 0
        for i, row in enumerate(ep["rows"], 1):
            segs = row["cells"].get(s, [])
            if segs:
                n += sum(_chars(x["text"]) for x in segs)
                href = f"../../{_url(episode_page(ep['id']))}#r{i}"
                label = f"{escape(ep['title'])} {i}"
                opening = f'<span class="ed-run"><a class="ed-ref" href="{href}">{label}</a>'
                runs.extend(
                    (x["start"], x["end"], opening if j == 0 else '<span class="ed-run">') for j, x in enumerate(segs)
                )
        amounts.append((ep, n))
    for span in export["unassigned"].get(s, []):
        runs.append((span["start"], span["end"], '<span class="ed-outside" title="不屬任何段落">'))
    runs.sort()
    body, pos = [], 0
    for start, end, opening in runs:
        body.append(_lines(text[pos:start]) + opening + _lines(text[start:end]) + "</span>")
        pos = end
    body.append(_lines(text[pos:]))
    rows = [
        ("文件", w["file"]),
        ("題名", w["title"]),
        ("說明", w["description"]),
        ("來源", w["source"]),
        ("字體", SCRIPT_LABELS.get(w["script"], w["script"])),
        ("長度", f"{w['length']} 字元（不計空白 {_chars(text)} 字）"),
    ]
    table = "".join(f"<tr><th>{k}</th><td>{escape(v)}</td></tr>" for k, v in rows if v)
    eps = "".join(
        f'<li><a href="../../{_url(episode_page(ep["id"]))}">{escape(ep["title"])}</a>：{n} 字</li>'
        if n
        else f"<li>{escape(ep['title'])}：無</li>"
        for ep, n in amounts
    )
    return (
        _front(f"{s} · {w['title']}")
        + f'<table class="ed-catalogue" markdown="0">{table}</table>\n\n'
        + f'<ul class="ed-episodes" markdown="0">{eps}</ul>\n\n'
        + _controls([], {}, with_notes=False)
        + "\n\n"
        + f'<div class="ed-witness-text ed-text" lang="zh" markdown="0">{"".join(body)}{_alt(text)}</div>\n'
    )


# --- overview ---------------------------------------------------------------------------------------------------


def _overview(export: dict[str, Any], texts: dict[str, str]) -> str:
    """Witness table and coverage matrix (witnesses × episodes, characters, links)."""
    ws = export["witnesses"]
    wrows = "".join(
        f'<tr><th scope="row"><a href="../{_url(witness_page(w["siglum"], i))}">{escape(w["siglum"])}</a></th>'
        f"<td>{escape(w['title'])}</td><td>{escape(w['source'])}</td>"
        f"<td>{SCRIPT_LABELS.get(w['script'], escape(w['script']))}</td><td>{_chars(texts[w['siglum']])}</td></tr>"
        for i, w in enumerate(ws)
    )
    heads = "".join(
        f'<th scope="col"><a href="../{_url(episode_page(e["id"]))}">{escape(e["title"])}</a></th>'
        for e in export["episodes"]
    )
    matrix = []
    for w in ws:
        s = w["siglum"]
        cells = []
        for e in export["episodes"]:
            n = sum(_chars(x["text"]) for row in e["rows"] for x in row["cells"].get(s, []))
            link = f'<a href="../{_url(episode_page(e["id"]))}">{n}</a>'
            base = ' class="ed-base-cell" title="底本"' if e["base"] == s else ""
            cells.append(f"<td{base}>{link}</td>" if n else '<td class="ed-empty" aria-label="無">—</td>')
        outside = sum(_chars(x["text"]) for x in export["unassigned"].get(s, []))
        matrix.append(f'<tr><th scope="row">{escape(s)}</th>{"".join(cells)}<td>{outside}</td></tr>')
    return (
        _front("總覽")
        + "諸本一覽，及各本在各段落中的字數（不計空白）。粗框為該段底本；「—」為該本無此段。\n\n"
        + '<div class="ed-table-wrap" markdown="0"><table class="ed-witness-list"><thead><tr><th>本</th><th>題名</th>'
        + f"<th>來源</th><th>字體</th><th>字數</th></tr></thead><tbody>{wrows}</tbody></table></div>\n\n"
        + "## 段落覆蓋\n\n"
        + '<div class="ed-table-wrap" markdown="0"><table class="ed-coverage"><thead><tr><th>本</th>'
        + f"{heads}<th>段落外</th></tr></thead><tbody>{''.join(matrix)}</tbody></table></div>\n"
    )


def render_site(export: dict[str, Any], texts: dict[str, str], cache=None) -> dict[str, str]:
    """Every generated page, path → Markdown, in narrative order: overview, episodes, witnesses."""
    pages = {"overview.md": _overview(export, texts)}
    for ep in export["episodes"]:
        pages[episode_page(ep["id"])] = _episode(ep, export["witnesses"])
    for i, w in enumerate(export["witnesses"]):
        pages[witness_page(w["siglum"], i)] = _witness(w, i, export, texts[w["siglum"]])
    return pages


def render_error(message: str, paths: list[str]) -> dict[str, str]:
    """Stand-in pages while the input is broken (``mkdocs serve``): each says what is wrong and where."""
    body = (
        '<div class="admonition failure" markdown="0"><p class="admonition-title">無法生成校本</p>'
        f"<p><code>{escape(message)}</code></p><p>修正後儲存，頁面將自動重建。</p></div>\n"
    )
    return {path: _front("錯誤") + body for path in paths}
