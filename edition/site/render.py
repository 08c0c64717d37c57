"""Render the site's generated pages from the ``edition-export/1`` contract and the witness texts.

Python prepares plain data (dicts and lists of strings and numbers) for each page; the Jinja2
templates in ``templates/`` (``*.md.jinja`` pages, ``macros.html.jinja`` the pieces they share) turn it
into Markdown, through one environment with autoescaping on for every template: every value a template
prints is HTML-escaped unless it is the output of a macro (already escaped by its template). Nothing is
marked safe by hand. The data of a page sits in raw HTML blocks (block-level elements, each on one
line), which Python-Markdown passes through without reading them, so witness and catalogue text can
never become Markdown (no emphasis, headings, links, tables, attribute lists, snippets or footnotes).
``md_in_html`` is not enabled, so the blocks carry no ``markdown`` attribute. Links inside the blocks
are written for MkDocs' directory URLs (``use_directory_urls: true``): MkDocs does not rewrite raw HTML.

Pure functions: the same export gives byte-identical pages. Each page, and each row of an episode's
table, is kept in the cache passed in (``mkdocs serve`` passes one that lives across rebuilds), keyed by
a digest of exactly what it is made from and of the templates, so after an edit to one witness only the
pages and rows whose input changed are rendered again; script conversions are cached too (``script_forms``).
"""

from __future__ import annotations

import bisect
import functools
import itertools
import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import jinja2

from .cache import SiteCache
from .script_forms import Cache, ScriptForms, digest

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
TEMPLATES = Path(__file__).parent / "templates"
_SAFE = re.compile(r"^[A-Za-z0-9_-]+$")
# Characters a YAML double-quoted scalar does not keep as they are: PyYAML refuses them, or reads them as
# line breaks (folded into spaces) or white space that folding may strip.
_YAML_UNSAFE = re.compile("[^\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]|[\u2028\u2029]")

Span = tuple[int, int, int, str]  # (start, end, note number, class) of a note in one witness's text


def _yaml_quoted(value: str) -> str:
    """The inside of a YAML double-quoted scalar holding ``value``: backslashes and the characters YAML
    does not take raw (or reads as line breaks) escaped. Autoescaping then HTML-escapes it like any
    value, which YAML keeps: the page title reaches MkDocs HTML-escaped, as its themes insert it as HTML."""
    return _YAML_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", value.replace("\\", "\\\\"))


ENV = jinja2.Environment(
    loader=jinja2.FileSystemLoader(TEMPLATES),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
    auto_reload=False,  # templates are read once per process, like this module; the cache keys include them
)
ENV.filters["yaml_quoted"] = _yaml_quoted
MACROS = ENV.get_template("macros.html.jinja").module  # its macros, called from Python for cached fragments
# The templates are part of every page's input: a key made with them can never serve an older rendering.
TEMPLATES_DIGEST = digest("\0".join(f"{p.name}\0{p.read_text('utf-8')}" for p in sorted(TEMPLATES.glob("*.jinja"))))


def witness_page(siglum: str, index: int) -> str:
    """Page path of a witness: its siglum when that is a safe file name, else its position."""
    return f"witnesses/{siglum}.md" if _SAFE.match(siglum) else f"witnesses/w{index + 1}.md"


def episode_page(episode_id: str) -> str:
    return f"episodes/{episode_id}.md"


def _url(page: str, depth: int) -> str:
    """Directory URL of a page path from a page ``depth`` folders deep (``episodes/x.md`` → ``../episodes/x/``)."""
    return "../" * depth + page.removesuffix(".md") + "/"


def _chars(text: str) -> int:
    """Amount of text as readers count it: characters other than whitespace."""
    return len("".join(text.split()))


def _key(what: str, name: str, inputs: Any) -> tuple:
    """A cache key made of everything a page or a fragment is rendered from, and of the templates."""
    data = json.dumps(inputs, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return (what, name, TEMPLATES_DIGEST, digest(data))


class _Pages:
    """The pages of one render, each page and each row of an episode kept in ``cache``."""

    def __init__(self, cache: Cache) -> None:
        self.cache = cache
        self.forms = ScriptForms(cache)

    def page(self, path: str, inputs: Any, context: Callable[[], dict[str, Any]], template: str) -> str:
        """A page rendered from ``context()``, or taken from the cache when its ``inputs`` are unchanged."""
        return self.cache.get(_key("site-page", path, inputs), lambda: ENV.get_template(template).render(context()))

    def fragment(self, kind: str, inputs: Any, render: Callable[[], str]) -> tuple[str, str]:
        """A piece of a page rendered by a macro, and its key's digest. A macro returns ``Markup`` (escaped
        by its template), which the page template then prints as it is."""
        key = _key("site-fragment", kind, inputs)
        return key[-1], self.cache.get(key, render)

    # --- text ---------------------------------------------------------------------------------------------------

    def piece(self, text: str, covering: Sequence[Sequence[Any]] = (), br: bool = False) -> dict[str, Any]:
        """A piece of witness text for the ``pieces`` macro: its Traditional and Simplified forms (None when
        both are the text itself), whether a line break comes before it, and the notes over it (``[start,
        end, number, class]``): the innermost (then first) one it links to, all their numbers and classes.
        A gap (an omission's place) is an empty piece under a note."""
        t, s = self.forms.forms(text)
        piece = {"text": text, "t": t, "s": s, "br": br, "note": None, "notes": "", "classes": "", "gap": False}
        if t == text and s == text:
            piece["t"] = piece["s"] = None
        if covering:
            piece["note"] = min(covering, key=lambda n: (n[1] - n[0], n[2]))[2]
            piece["notes"] = " ".join(f"n{k}" for k in sorted({n[2] for n in covering}))
            piece["classes"] = " ".join(f"v-{c}" for c in sorted({n[3] for n in covering}))
            piece["gap"] = not text
        return piece

    def lines(self, text: str) -> list[dict[str, Any]]:
        """A passage as pieces, one per line, each after a line break but the first."""
        return [self.piece(line, br=i > 0) for i, line in enumerate(text.split("\n"))]

    def alt(self, text: str) -> str:
        """The other-script forms of ``text``, for search (empty when there are none)."""
        return " ".join(sorted(set(self.forms.forms(text)) - {text}))

    def segment(self, text: str, spans: list[list]) -> list[dict[str, Any]]:
        """A segment split at every note boundary inside it; a zero-width span becomes a caret at its place.

        ``spans`` are the notes' ``[start, end, number, class]`` inside the segment, relative to its start."""
        cuts = sorted({0, len(text), *(n[0] for n in spans), *(n[1] for n in spans)})
        out = []
        for a, b in itertools.pairwise([*cuts, None]):
            gaps = [n for n in spans if n[0] == n[1] == a]
            if gaps:
                out.append(self.piece("", gaps))
            if b is not None:
                out.append(self.piece(text[a:b], [n for n in spans if n[0] <= a and b <= n[1]]))
        return out

    # --- episode pages ------------------------------------------------------------------------------------------

    def episode(self, ep: dict[str, Any], witnesses: list[dict[str, Any]]) -> str:
        """An episode page, assembled on every build from its head, rows and notes, each row and the notes
        cached apart: an edit re-renders only the rows it changes (a row's spans are relative to its
        segments, so text moved by an edit before it changes nothing), and every row is looked up in every
        build, so the cache, which forgets what a build leaves unused, keeps them all."""
        head, rows, (notes_key, notes) = self._episode(ep, witnesses)
        inputs = [head, [key for key, _ in rows], notes_key]
        context = {**head, "rows": [row for _, row in rows], "notes": notes}
        return self.page(episode_page(ep["id"]), inputs, lambda: context, "episode.md.jinja")

    def _episode(self, ep: dict[str, Any], witnesses: list[dict[str, Any]]) -> tuple[dict, list, tuple]:
        """The data of the page's head, its rows and its notes (rendered or from the cache, with their keys)."""
        order = {w["siglum"]: i for i, w in enumerate(witnesses)}
        titles = {w["siglum"]: w["title"] for w in witnesses}
        amount = dict.fromkeys(order, 0)
        for row in ep["rows"]:
            for s, segs in row["cells"].items():
                amount[s] += sum(_chars(x["text"]) for x in segs)
        base = ep["base"]
        sigla = sorted((s for s in order if amount[s]), key=lambda s: (s != base, order[s]))
        row_no = {row["id"]: i for i, row in enumerate(ep["rows"], 1)}
        notes = sorted(ep["notes"], key=lambda n: row_no[n["row"]])
        spans = _note_spans(notes)
        starts = {s: [n[0] for n in v] for s, v in spans.items()}

        def inside(s: str, seg: dict[str, Any]) -> list[list]:
            """The notes' spans inside a segment, relative to its start."""
            start, end = seg["start"], seg["end"]
            lo, hi = bisect.bisect_left(starts.get(s, []), start), bisect.bisect_right(starts.get(s, []), end)
            return [[a - start, b - start, k, c] for a, b, k, c in spans.get(s, [])[lo:hi] if b <= end]

        rows = []
        for i, r in enumerate(ep["rows"], 1):
            cells = [[s, [[x["text"], inside(s, x)] for x in r["cells"].get(s, [])]] for s in sigla]
            rows.append(self.row({"no": i, "cells": cells}))
        listed = [
            {
                "no": k,
                "row": row_no[note["row"]],
                "cls": note["class"],
                "label": CLASS_LABELS.get(note["class"], note["class"]),
                "tags": [TAG_LABELS.get(t, t) for t in note["tags"]],
                "apparatus": _apparatus(note, base),
            }
            for k, note in enumerate(notes, 1)
        ]
        head = {
            "title": ep["title"],
            "description": ep["description"],
            "base": base or "",
            "columns": [
                {
                    "siglum": s,
                    "title": titles[s],
                    "href": _url(witness_page(s, order[s]), 2),
                    "chars": amount[s],
                    "base": s == base,
                }
                for s in sigla
            ],
            "lacking": [s for s in order if not amount[s]],
            "classes": [{"id": c, "label": CLASS_LABELS[c]} for c in CLASSES],
            "notes_count": len(listed),
        }
        return head, rows, self.fragment("notes", listed, lambda: MACROS.notes(listed))

    def row(self, inputs: dict[str, Any]) -> tuple[str, str]:
        """A row of the parallel table, rendered by the ``row`` macro; ``inputs`` is all it is made from:
        its number and per column the siglum and the segments, each as its text and the notes in it."""

        def render() -> str:
            cells = []
            for s, segs in inputs["cells"]:
                if not segs:
                    cells.append({"siglum": s, "pieces": None})
                    continue
                pieces = [p for text, spans in segs for p in self.segment(text, spans)]
                cells.append({"siglum": s, "pieces": pieces, "alt": self.alt("".join(text for text, _ in segs))})
            return MACROS.row({"no": inputs["no"], "cells": cells})

        return self.fragment("row", inputs, render)

    # --- witness pages ------------------------------------------------------------------------------------------

    def witness(self, w: dict[str, Any], index: int, export: dict[str, Any], text: str) -> str:
        """Catalogue data and the full text, each run marked by its episode row or as outside the episodes."""
        s = w["siglum"]
        episodes = [  # [id, title, [[row number, [[start, end], …]], …]] : all the page takes from the episodes
            [ep["id"], ep["title"], [[i, [[x["start"], x["end"]] for x in r["cells"][s]]] for i, r in _rows(ep, s)]]
            for ep in export["episodes"]
        ]
        outside = [[x["start"], x["end"]] for x in export["unassigned"].get(s, [])]
        inputs = [w, index, digest(text), episodes, outside]
        context = functools.partial(self._witness, w, text, episodes, outside)
        return self.page(witness_page(s, index), inputs, context, "witness.md.jinja")

    def _witness(self, w: dict[str, Any], text: str, episodes: list, outside: list) -> dict[str, Any]:
        runs: list[tuple[int, int, str, dict[str, Any] | None]] = []  # (start, end, kind, link to the row)
        listed = []
        for ep_id, title, rows in episodes:
            href = _url(episode_page(ep_id), 2)
            for i, spans in rows:
                ref = {"href": f"{href}#r{i}", "title": title, "row": i}
                runs.extend((a, b, "run", ref if j == 0 else None) for j, (a, b) in enumerate(spans))
            chars = sum(_chars(text[a:b]) for _, spans in rows for a, b in spans)
            listed.append({"title": title, "href": href, "chars": chars})
        runs.extend((a, b, "outside", None) for a, b in outside)
        runs.sort(key=lambda r: (r[0], r[1]))
        passages, pos = [], 0
        for start, end, kind, ref in runs:
            passages.append({"kind": "text", "pieces": self.lines(text[pos:start])})
            passages.append({"kind": kind, "ref": ref, "pieces": self.lines(text[start:end])})
            pos = end
        passages.append({"kind": "text", "pieces": self.lines(text[pos:])})
        return {
            "title": f"{w['siglum']} · {w['title']}",
            "catalogue": [
                ("文件", w["file"]),
                ("題名", w["title"]),
                ("說明", w["description"]),
                ("來源", w["source"]),
                ("字體", SCRIPT_LABELS.get(w["script"], w["script"])),
                ("長度", f"{w['length']} 字元（不計空白 {_chars(text)} 字）"),
            ],
            "episodes": listed,
            "passages": passages,
            "alt": self.alt(text),
        }

    # --- overview -----------------------------------------------------------------------------------------------

    def overview(self, export: dict[str, Any], texts: dict[str, str]) -> str:
        """Witness table and coverage matrix (witnesses × episodes, characters, links)."""
        episodes = [{"title": e["title"], "href": _url(episode_page(e["id"]), 1)} for e in export["episodes"]]
        witnesses = []
        for i, w in enumerate(export["witnesses"]):
            s = w["siglum"]
            coverage = [
                {
                    "chars": sum(_chars(x["text"]) for row in e["rows"] for x in row["cells"].get(s, [])),
                    "base": e["base"] == s,
                    "href": href["href"],
                }
                for e, href in zip(export["episodes"], episodes, strict=True)
            ]
            witnesses.append(
                {
                    "siglum": s,
                    "href": _url(witness_page(s, i), 1),
                    "title": w["title"],
                    "source": w["source"],
                    "script": SCRIPT_LABELS.get(w["script"], w["script"]),
                    "chars": _chars(texts[s]),
                    "coverage": coverage,
                    "outside": sum(_chars(x["text"]) for x in export["unassigned"].get(s, [])),
                }
            )
        context = {"episodes": episodes, "witnesses": witnesses}
        return self.page("overview.md", context, lambda: context, "overview.md.jinja")


def _rows(ep: dict[str, Any], siglum: str) -> list[tuple[int, dict[str, Any]]]:
    """The numbered rows of an episode in which a witness has text."""
    return [(i, row) for i, row in enumerate(ep["rows"], 1) if row["cells"].get(siglum)]


def _note_spans(notes: list[dict[str, Any]]) -> dict[str, list[Span]]:
    """Per witness, every (start, end, note number, class) that notes mark in its text, sorted by start."""
    spans: dict[str, list[Span]] = {}
    for k, note in enumerate(notes, 1):
        lemma = note["lemma"]
        spans.setdefault(lemma["siglum"], []).append((lemma["start"], lemma["end"], k, note["class"]))
        for reading in note["readings"]:
            for siglum, (start, end) in sorted(reading["spans"].items()):
                spans.setdefault(siglum, []).append((start, end, k, note["class"]))
    return {s: sorted(v) for s, v in spans.items()}


def _apparatus(note: dict[str, Any], base: str | None) -> dict[str, Any]:
    """The data of ``lemma ] reading sigla; …``: readings with text, and the sigla silent at this place."""
    lemma = note["lemma"]
    text = lemma["text"]
    return {
        "lemma": {
            "text": text,
            "siglum": lemma["siglum"],
            "short": len(text) > LEMMA_MAX,
            "head": text[:4],
            "tail": text[-4:],
        },
        "addition": lemma["siglum"] != base and note["class"] == "addition",
        "own": lemma["siglum"] != base,
        "readings": [{"text": r["text"], "sigla": r["sigla"]} for r in note["readings"] if r["text"]],
        "silent": sorted({s for r in note["readings"] if not r["text"] for s in r["sigla"]}),
    }


def render_site(export: dict[str, Any], texts: dict[str, str], cache: Cache | None = None) -> dict[str, str]:
    """Every generated page, path → Markdown, in narrative order: overview, episodes, witnesses.

    ``cache`` (a ``SiteCache``, kept across the rebuilds of ``mkdocs serve``) holds the pages, the rows
    and the script conversions; without one, a throwaway cache still converts each distinct run once."""
    pages = _Pages(cache if cache is not None else SiteCache())
    pages.forms.keep(texts.values())
    out = {"overview.md": pages.overview(export, texts)}
    for ep in export["episodes"]:
        out[episode_page(ep["id"])] = pages.episode(ep, export["witnesses"])
    for i, w in enumerate(export["witnesses"]):
        out[witness_page(w["siglum"], i)] = pages.witness(w, i, export, texts[w["siglum"]])
    return out


def render_error(message: str, paths: list[str]) -> dict[str, str]:
    """Stand-in pages while the input is broken (``mkdocs serve``): each says what is wrong and where."""
    page = ENV.get_template("error.md.jinja").render(message=message)
    return dict.fromkeys(paths, page)
