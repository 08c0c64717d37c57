"""Render the site's generated pages from the ``edition-export/2`` contract (docs/format.md) and the witness texts.

Python prepares plain data (dicts and lists of strings and numbers) for each page; the Jinja2
templates in ``templates/`` (``*.md.jinja`` pages, ``macros.html.jinja`` the pieces they share) turn it
into Markdown, through one environment with autoescaping on for every template: every value a template
prints is HTML-escaped unless it is the output of a macro (already escaped by its template) or an
editor's note made safe by ``editor_notes`` (Markdown, sanitised by nh3). Nothing else is marked safe.
The data of a page sits in raw HTML blocks (block-level elements, each on one line), which
Python-Markdown passes through without reading them, so witness and catalogue text can never become
Markdown (no emphasis, headings, links, tables, attribute lists, snippets or footnotes). ``md_in_html``
is not enabled, so the blocks carry no ``markdown`` attribute. Links inside the blocks are written for
MkDocs' directory URLs (``use_directory_urls: true``): MkDocs does not rewrite raw HTML.

Pages: the overview (witnesses, heat map, similarity matrix), 凡例 (conventions), one page per episode
(the parallel table and its apparatus), one per witness (its whole text in its own order, with the
notes that stand outside the episodes), and the register; plus ``assets/edition-search.json``, the
character folding the search and its highlighter use to match either script.

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
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import jinja2

from .cache import SiteCache
from .editor_notes import editor_html
from .script_forms import Cache, ScriptForms, digest
from .variance import Variance, level

# Note kinds, in the order the filters and the legend show them: the collation classes, then the other types.
KINDS = (
    "substantive",
    "addition",
    "omission",
    "commentary",
    "orthographic",
    "punctuation",
    "fact",
    "lacuna",
    "editor",
)
KIND_LABELS = {
    "substantive": "異文",
    "addition": "增文",
    "omission": "脫文",
    "commentary": "注文",
    "orthographic": "異體",
    "punctuation": "標點",
    "fact": "事實",
    "lacuna": "闕文",
    "editor": "編者按",
}
KIND_MEANINGS = {
    "substantive": "同一本系之內，抄本與底本用字不同",
    "addition": "抄本有而底本無的文字",
    "omission": "底本有而抄本無的文字（‸ 標其所缺之處）",
    "commentary": "一本有、一本無的夾注（括號中的雙行小注）：無注之本與有注之本相較，每條注文一條",
    "orthographic": "同一字的不同寫法（異體字）",
    "punctuation": "標點不同",
    "fact": "不同本系之間的事實（人名、地名、名物、數目、時日）：同一事實的不同說法，或數個本系所記相同（所記同）",
    "lacuna": "抄本殘缺：始於此以上闕，止於此以下闕，或文未完",
    "editor": "編者的按語（人寫的，有別於程式生成的校記）",
}
TAG_LABELS = {"person": "人名", "place": "地名", "thing": "名物", "number": "數目", "date": "時日"}
REGISTER_KINDS = {"person": "人名", "place": "地名", "thing": "名物"}
SCRIPT_LABELS = {"Hant": "繁體", "Hans": "簡體", "mixed": "繁簡混"}
LANGS = {"Hant": "zh-Hant", "Hans": "zh-Hans"}  # mixed: plain zh
LACUNA_LABELS = {"start": "以上闕", "end": "以下闕", "unfinished": "文未完"}
LEMMA_MAX = 16  # a longer lemma is shown as its first and last characters; the table has it in full
SEARCH_DATA = "assets/edition-search.json"
TEMPLATES = Path(__file__).parent / "templates"
_SAFE = re.compile(r"^[A-Za-z0-9_-]+$")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff]")
# Characters a YAML double-quoted scalar does not keep as they are: PyYAML refuses them, or reads them as
# line breaks (folded into spaces) or white space that folding may strip.
_YAML_UNSAFE = re.compile("[^\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]|[\u2028\u2029]")

Span = tuple[int, int, str, str, int]  # (start, end, note id, kind, order) of a note in one witness's text


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


# Kinds a 校勘記 leaves out by the usual rule (異體字不出校): each page lists them apart, after its apparatus, so
# the apparatus says what changes the text; they stay notes in the export, and marked in the text.
FORMS = ("orthographic", "commentary")


def note_kind(note: dict[str, Any]) -> str:
    """What a note's mark and filter go by: the class of a collation note (an omitted or added interlinear
    note, labelled 注文, apart), else its type."""
    if note["type"] != "collation":
        return note["type"]
    return "commentary" if note["label"] == "注文" else note["class"]


def note_number(note_id: str) -> str:
    """The number a note is shown with (``n12`` → ``12``): its id, never a count, so filters never renumber."""
    return note_id[1:] if re.fullmatch(r"n\d+", note_id) else note_id


def _percent(value: float) -> int:
    return round(value * 100)


class _Site:
    """What every page of one render looks up: witnesses, families, rows, notes and where each is shown."""

    def __init__(self, export: dict[str, Any], forms: ScriptForms) -> None:
        self.export = export
        self.witnesses = export["witnesses"]
        self.index = {w["siglum"]: i for i, w in enumerate(self.witnesses)}
        self.families = {f["id"]: f for f in export["families"]}
        self.bases = {f["base"] for f in export["families"]}
        self.family_of = {w["siglum"]: w["family"] for w in self.witnesses}
        self.row_at: dict[str, tuple[dict[str, Any], int]] = {}  # row id -> (episode, its number there)
        for ep in export["episodes"]:
            for i, row in enumerate(ep["rows"], 1):
                self.row_at[row["id"]] = (ep, i)
        self.order = {n["id"]: k for k, n in enumerate(export["notes"])}
        self.by_episode: dict[str, list[dict[str, Any]]] = {ep["id"]: [] for ep in export["episodes"]}
        self.by_witness: dict[str, list[dict[str, Any]]] = {w["siglum"]: [] for w in self.witnesses}
        for note in export["notes"]:
            if note["row"] in self.row_at:
                self.by_episode[self.row_at[note["row"]][0]["id"]].append(note)
            else:
                self.by_witness.setdefault(self.home(note), []).append(note)
        self.first, self.again = _series([*self.by_episode.values(), *self.by_witness.values()])
        self.variance = Variance(export, lambda text: forms.forms(text)[1])
        self._runs: dict[str, list[tuple[int, int]]] = {}

    def listed(self, notes: list[dict[str, Any]], forms: bool = False) -> list[dict[str, Any]]:
        """The notes a page lists in its apparatus, or (``forms``) in its table of variant forms and missing
        commentary (``FORMS``): all but those that say again what an earlier one says (下同)."""
        return [n for n in notes if n["id"] not in self.first and (note_kind(n) in FORMS) == forms]

    def witness_url(self, siglum: str, depth: int) -> str:
        return _url(witness_page(siglum, self.index[siglum]), depth)

    def home(self, note: dict[str, Any]) -> str:
        """The witness page that shows a note standing outside the episodes: its family's base."""
        family = self.families.get(note["family"] or "")
        if family:
            return family["base"]
        lemma = note["lemma"]
        return lemma["siglum"] if lemma else min((s for r in note["readings"] for s in r["sigla"]), key=self.index.get)

    def lang(self, siglum: str) -> str:
        return LANGS.get(self.witnesses[self.index[siglum]]["script"], "zh")

    def runs(self, siglum: str) -> list[tuple[int, int]]:
        """Every span of a witness's text that the site shows as one run (a segment of a cell, or text
        outside the episodes), sorted: the anchors ``#o<start>`` of its page. Made once per witness."""
        if siglum not in self._runs:
            self._runs[siglum] = self._make_runs(siglum)
        return self._runs[siglum]

    def _make_runs(self, siglum: str) -> list[tuple[int, int]]:
        runs = [
            (x["start"], x["end"])
            for ep in self.export["episodes"]
            for row in ep["rows"]
            for x in row["cells"].get(siglum, [])
        ]
        runs += [(x["start"], x["end"]) for x in self.export["unassigned"].get(siglum, [])]
        return sorted(runs)


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
        end, id, kind, order]``): the innermost (then first) one it links to, all their ids and kinds.
        A gap (an omission's place) is an empty piece under a note."""
        t, s = self.forms.forms(text)
        piece = {"text": text, "t": t, "s": s, "br": br, "note": None, "notes": "", "classes": "", "gap": False}
        if t == text and s == text:
            piece["t"] = piece["s"] = None
        if covering:
            inner = min(covering, key=lambda n: (n[1] - n[0], n[4]))
            piece["note"] = inner[2]
            piece["number"] = note_number(inner[2])
            piece["notes"] = " ".join(n[2] for n in sorted(covering, key=lambda n: n[4]))
            piece["classes"] = " ".join(f"v-{c}" for c in sorted({n[3] for n in covering}))
            piece["gap"] = not text
            piece["short"] = len(text) <= 1
        return piece

    def lines(self, text: str, spans: list[list] = ()) -> list[dict[str, Any]]:
        """A passage as pieces, split at line breaks (each piece after one says so) and at the notes in it."""
        out, pos = [], 0
        for i, line in enumerate(text.split("\n")):
            end = pos + len(line)
            inside = [  # the notes over this line, cut to it (a zero-width one where it stands)
                [max(a, pos) - pos, min(b, end) - pos, *rest]
                for a, b, *rest in spans
                if (a < end and b > pos) or (a == b and pos <= a <= end)
            ]
            pieces = self.segment(line, inside)
            if i and pieces:
                pieces[0] = {**pieces[0], "br": True}
            elif i:
                pieces = [self.piece("", br=True)]
            out += pieces
            pos = end + 1
        return out

    def alt(self, text: str) -> str:
        """The other-script forms of ``text``, for search (empty when there are none)."""
        return " ".join(sorted(set(self.forms.forms(text)) - {text}))

    def segment(self, text: str, spans: list[list]) -> list[dict[str, Any]]:
        """A segment split at every note boundary inside it; a zero-width span becomes a caret at its place.

        ``spans`` are the notes' ``[start, end, id, kind, order]`` inside the segment, relative to its start."""
        cuts = sorted({0, len(text), *(n[0] for n in spans), *(n[1] for n in spans)})
        out = []
        for a, b in itertools.pairwise([*cuts, None]):
            gaps = [n for n in spans if n[0] == n[1] == a]
            if gaps:
                out.append(self.piece("", gaps))
            if b is not None and b > a:
                out.append(self.piece(text[a:b], [n for n in spans if n[0] <= a and b <= n[1] and n[0] < n[1]]))
        return out

    # --- notes --------------------------------------------------------------------------------------------------

    def notes(
        self, site: _Site, notes: list[dict[str, Any]], place: Callable[[dict[str, Any]], dict]
    ) -> tuple[list[str], dict[str, Any]]:
        """A page's apparatus (``notes``) and its table of variant forms and missing commentary (``forms``),
        each rendered by the ``notes`` macro and cached, with their counts, and the keys' digests;
        ``place(note)`` gives the link back to where the note stands (``{"href", "label"}``)."""
        keys, out = [], {}
        for name, forms in (("notes", False), ("forms", True)):
            listed = [
                {**_listed(note, site, place(note)), "again": _places(place, site.again.get(note["id"], []))}
                for note in site.listed(notes, forms)
            ]
            key, out[name] = self.fragment(name, listed, functools.partial(_notes_html, listed, name))
            keys.append(key)
            out[f"{name}_count"] = len(listed)
        return keys, out

    # --- episode pages ------------------------------------------------------------------------------------------

    def episode(self, ep: dict[str, Any], site: _Site, k: int) -> str:
        """An episode page, assembled on every build from its head, rows and notes, each row and the notes
        cached apart: an edit re-renders only the rows it changes (a row's spans are relative to its
        segments, so text moved by an edit before it changes nothing), and every row is looked up in every
        build, so the cache, which forgets what a build leaves unused, keeps them all."""
        head, rows, (notes_keys, lists) = self._episode(ep, site, k)
        inputs = [head, [key for key, _ in rows], notes_keys]
        context = {**head, "rows": [row for _, row in rows], **lists}
        return self.page(episode_page(ep["id"]), inputs, lambda: context, "episode.md.jinja")

    def _episode(self, ep: dict[str, Any], site: _Site, k: int) -> tuple[dict, list, tuple]:
        """The data of the page's head, its rows and its notes (rendered or from the cache, with their keys)."""
        amount = {w["siglum"]: 0 for w in site.witnesses}
        for row in ep["rows"]:
            for s, segs in row["cells"].items():
                amount[s] += sum(_chars(x["text"]) for x in segs)
        sigla = [s for s in amount if amount[s]]
        notes = site.by_episode[ep["id"]]
        spans = _note_spans(notes, site.order, site.first)
        starts = {s: [n[0] for n in v] for s, v in spans.items()}

        def inside(s: str, seg: dict[str, Any]) -> list[list]:
            """The notes' spans inside a segment, relative to its start."""
            start, end = seg["start"], seg["end"]
            lo, hi = bisect.bisect_left(starts.get(s, []), start), bisect.bisect_right(starts.get(s, []), end)
            return [[a - start, b - start, *rest] for a, b, *rest in spans.get(s, [])[lo:hi] if b <= end]

        heat = site.variance.rows(ep["id"])
        rows, covered = [], dict.fromkeys(sigla, 0)  # rows still covered by a cell spanning from above
        for i, r in enumerate(ep["rows"], 1):
            cells = []
            for s in sigla:
                if covered[s]:
                    covered[s] -= 1
                    continue
                segs = r["cells"].get(s)
                if not segs:
                    cells.append({"s": s})
                    continue
                span = r.get("span", {}).get(s, 1)
                covered[s] = span - 1
                moved = site.witness_url(s, 2)
                cells.append(
                    {
                        "s": s,
                        "lang": site.lang(s),
                        "span": span,
                        "segs": [
                            [x["text"], f"{moved}#o{x['start']}" if x.get("moved") else "", inside(s, x)] for x in segs
                        ],
                    }
                )
            rows.append(
                self.row(
                    {"no": i, "id": r["id"], "heat": level(heat[i - 1]), "diff": _percent(heat[i - 1]), "cells": cells}
                )
            )
        episodes = site.export["episodes"]
        neighbours = {
            "prev": episodes[k - 1] if k > 0 else None,
            "next": episodes[k + 1] if k + 1 < len(episodes) else None,
        }
        head = {
            "title": ep["title"],
            "description": ep["description"],
            "columns": [
                {
                    "siglum": s,
                    "title": site.witnesses[site.index[s]]["title"],
                    "href": site.witness_url(s, 2),
                    "chars": amount[s],
                    "base": s in site.bases,
                    "lang": site.lang(s),
                }
                for s in sigla
            ],
            "lacking": [w["siglum"] for w in site.witnesses if not amount[w["siglum"]]],
            "kinds": [{"id": c, "label": KIND_LABELS[c]} for c in KINDS],
            "strip": [{"no": i, "heat": level(v), "diff": _percent(v)} for i, v in enumerate(heat, 1)],
            "neighbours": {
                key: {"title": e["title"], "href": _url(episode_page(e["id"]), 2)} if e else None
                for key, e in neighbours.items()
            },
        }

        def place(note: dict[str, Any]) -> dict[str, Any]:
            no = site.row_at[note["row"]][1]
            return {"href": f"#r{no}", "label": f"行 {no}", "title": f"回到第 {no} 行"}

        return head, rows, self.notes(site, notes, place)

    def row(self, inputs: dict[str, Any]) -> tuple[str, str]:
        """A row of the parallel table, rendered by the ``row`` macro; ``inputs`` is all it is made from:
        its number, id and heat, and per column the siglum and the segments, each as its text, the link to
        its place in its witness when it is moved, and the notes in it."""

        def render() -> str:
            cells = []
            for cell in inputs["cells"]:
                if "segs" not in cell:
                    cells.append({"siglum": cell["s"], "segs": None})
                    continue
                segs = [{"moved": moved, "pieces": self.lines(text, spans)} for text, moved, spans in cell["segs"]]
                alt = self.alt("".join(text for text, _, _ in cell["segs"]))
                cells.append(
                    {"siglum": cell["s"], "lang": cell["lang"], "span": cell["span"], "segs": segs, "alt": alt}
                )
            return MACROS.row({**inputs, "cells": cells})

        return self.fragment("row", inputs, render)

    # --- witness pages ------------------------------------------------------------------------------------------

    def witness(self, w: dict[str, Any], index: int, site: _Site, text: str) -> str:
        """Catalogue data and the full text in the witness's own order, each run anchored at its offset
        (``#o<start>``) and marked by its episode row or as outside the episodes; its lacunae; the notes
        that stand outside the episodes and have their home here, marked in the text and listed."""
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
        notes = site.by_witness.get(s, [])
        lacunae = [
            {"at": x["at"], "label": LACUNA_LABELS.get(x["kind"], x["kind"]), "href": _lacuna_note(x, site)}
            for x in site.export["lacunae"]
            if x["siglum"] == s
        ]
        family = site.families[w["family"]]
        members = [
            {"siglum": m, "href": site.witness_url(m, 2), "base": m == family["base"]} for m in family["members"]
        ]
        spans = [list(x) for x in _note_spans(notes, site.order, site.first, lemma_only=True).get(s, [])]
        runs = site.runs(s)

        def place(note: dict[str, Any]) -> dict[str, Any]:
            lemma = note["lemma"]
            at = lemma["start"] if lemma and lemma["siglum"] == s else None
            if at is None:
                return {"href": "", "label": "", "title": ""}
            start = runs[max(0, bisect.bisect_right(runs, (at, float("inf"))) - 1)][0] if runs else 0
            return {"href": f"#o{start}", "label": "見文", "title": "到本文中此處"}

        notes_keys, lists = self.notes(site, notes, place)
        inputs = [w, index, digest(text), episodes, outside, spans, lacunae, members, notes_keys]
        context = functools.partial(
            self._witness,
            w,
            text,
            episodes,
            outside,
            spans,
            lacunae,
            members,
            lists,
        )
        return self.page(witness_page(s, index), inputs, context, "witness.md.jinja")

    def _witness(self, w, text, episodes, outside, spans, lacunae, members, lists) -> dict[str, Any]:
        runs: list[tuple[int, int, str, dict[str, Any] | None, bool]] = []  # (start, end, kind, row link, moved)
        listed = []
        for ep_id, title, rows in episodes:
            href = _url(episode_page(ep_id), 2)
            for i, segs in rows:
                ref = {"href": f"{href}#r{i}", "title": title, "row": i}
                runs.extend(
                    (a, b, "run", ref if j == 0 or moved else None, moved) for j, (a, b, moved) in enumerate(segs)
                )
            chars = sum(_chars(text[a:b]) for _, segs in rows for a, b, _ in segs)
            listed.append({"title": title, "href": href, "chars": chars})
        runs.extend((a, b, "outside", None, False) for a, b in outside)
        runs.sort(key=lambda r: (r[0], r[1]))
        markers = {x["at"]: x for x in lacunae}
        passages: list[dict[str, Any]] = []
        shown: set[int] = set()

        def marker(at: int) -> None:
            if at in markers and at not in shown:
                shown.add(at)
                passages.append({"kind": "lacuna", **markers[at]})

        intervals, pos = [], 0
        for run in runs:
            if run[0] > pos:
                intervals.append((pos, run[0], "text", None, False))
            intervals.append(run)
            pos = run[1]
        if pos < len(text):
            intervals.append((pos, len(text), "text", None, False))
        starts = [sp[0] for sp in spans]  # sorted (_note_spans)
        for a, b, kind, ref, moved in intervals:  # each cut at the lacunae inside it, a marker at each cut
            for x, y in itertools.pairwise([a, *sorted(p for p in markers if a < p < b), b]):
                marker(x)
                inside = [
                    [p - x, q - x, *rest]
                    for p, q, *rest in spans[bisect.bisect_left(starts, x) : bisect.bisect_left(starts, y)]
                    if q <= y
                ]
                passages.append(
                    {
                        "kind": kind,
                        "ref": ref if x == a else None,
                        "moved": moved and x == a,
                        "anchor": f"o{a}" if x == a and kind != "text" else None,
                        "pieces": self.lines(text[x:y], inside),
                    }
                )
        marker(len(text))
        return {
            "title": f"{w['siglum']} · {w['title']}",
            "lang": LANGS.get(w["script"], "zh"),
            "catalogue": [
                ("文件", w["file"]),
                ("題名", w["title"]),
                ("說明", w["description"]),
                ("來源", w["source"]),
                ("字體", SCRIPT_LABELS.get(w["script"], w["script"])),
                ("長度", f"{w['length']} 字元（不計空白 {_chars(text)} 字）"),
            ],
            "members": members,
            "episodes": listed,
            "passages": passages,
            "alt": self.alt(text),
            **lists,
            "kinds": [{"id": c, "label": KIND_LABELS[c]} for c in KINDS],
        }

    # --- overview -----------------------------------------------------------------------------------------------

    def overview(self, site: _Site, texts: dict[str, str]) -> str:
        """The witnesses; the heat map (witnesses × episodes: how much each differs from the others, and
        how much text it has); the similarity matrix of the witnesses."""
        export = site.export
        episodes = [{"title": e["title"], "href": _url(episode_page(e["id"]), 1)} for e in export["episodes"]]
        witnesses = []
        for w in export["witnesses"]:
            s = w["siglum"]
            cells = []
            for e, link in zip(export["episodes"], episodes, strict=True):
                chars = sum(_chars(x["text"]) for row in e["rows"] for x in row["cells"].get(s, []))
                diff = site.variance.witness(s, e["id"])
                cells.append(
                    {
                        "chars": chars,
                        "href": link["href"],
                        "diff": None if diff is None else _percent(diff),
                        "heat": None if diff is None else level(diff),
                    }
                )
            witnesses.append(
                {
                    "siglum": s,
                    "href": site.witness_url(s, 1),
                    "title": w["title"],
                    "source": w["source"],
                    "script": SCRIPT_LABELS.get(w["script"], w["script"]),
                    "family": w["family"],
                    "base": s in site.bases,
                    "chars": _chars(texts[s]),
                    "cells": cells,
                    "outside": sum(_chars(x["text"]) for x in export["unassigned"].get(s, [])),
                }
            )
        pairs = site.variance.matrix()
        sigla = [w["siglum"] for w in export["witnesses"]]
        matrix = [
            {
                "siglum": a,
                "cells": [
                    {
                        "self": a == b,
                        "sim": _percent(pairs[a, b][0]) if (a, b) in pairs else None,
                        "rows": pairs[a, b][1] if (a, b) in pairs else 0,
                        "heat": level(1 - pairs[a, b][0]) if (a, b) in pairs else None,
                    }
                    for b in sigla
                ],
            }
            for a in sigla
        ]
        context = {"episodes": episodes, "witnesses": witnesses, "sigla": sigla, "matrix": matrix}
        return self.page("overview.md", context, lambda: context, "overview.md.jinja")

    # --- conventions (凡例) and register ------------------------------------------------------------------------

    def conventions(self, site: _Site) -> str:
        export = site.export
        titles = {w["siglum"]: w for w in site.witnesses}
        families = [
            {
                "id": f["id"],
                "declared": f["declared"],
                "members": [
                    {
                        "siglum": m,
                        "title": titles[m]["title"],
                        "script": SCRIPT_LABELS.get(titles[m]["script"], titles[m]["script"]),
                        "href": site.witness_url(m, 1),
                        "base": m == f["base"],
                    }
                    for m in f["members"]
                ],
            }
            for f in export["families"]
        ]
        normalised = export["normalised"]
        scripts = [
            {"id": f, "members": [(m, SCRIPT_LABELS.get(titles[m]["script"], "")) for m in site.families[f]["members"]]}
            for f in normalised["scripts"]
            if f in site.families
        ]
        counts = {c: 0 for c in KINDS}
        for note in export["notes"]:
            counts[note_kind(note)] = counts.get(note_kind(note), 0) + 1
        context = {
            "families": families,
            "quote_styles": normalised["quote_styles"],
            "unpunctuated": normalised["unpunctuated"],
            "scripts": scripts,
            "silenced": [(KIND_LABELS.get(c, c), n) for c, n in sorted(normalised["silenced"].items())],
            "kinds": [
                {"id": c, "label": KIND_LABELS[c], "meaning": KIND_MEANINGS[c], "count": counts[c]} for c in KINDS
            ],
            "editorial": sorted(export["editorial"].items()),
        }
        return self.page("conventions.md", context, lambda: context, "conventions.md.jinja")

    def register(self, site: _Site) -> str:
        entries = []
        for e in site.export["register"]:
            by_witness: dict[str, dict[str, Any]] = {}
            for m in e["mentions"]:
                s = m["siglum"]
                item = by_witness.setdefault(s, {"siglum": s, "places": {}, "named": False})
                item["named"] |= m["named"]
                if m["row"] in site.row_at:
                    ep, no = site.row_at[m["row"]]
                    key, label, href = (
                        (0, ep["id"], no),
                        f"{ep['title']} {no}",
                        f"{_url(episode_page(ep['id']), 1)}#r{no}",
                    )
                else:
                    runs = site.runs(s)
                    start = runs[max(0, bisect.bisect_right(runs, (m["start"], float("inf"))) - 1)][0] if runs else 0
                    key, label, href = (1, "", start), "段落外", f"{site.witness_url(s, 1)}#o{start}"
                place = item["places"].setdefault(key, {"label": label, "href": href, "named": False, "forms": set()})
                place["named"] |= m["named"]
                place["forms"].add(m["text"])
            order = {ep["id"]: i for i, ep in enumerate(site.export["episodes"])}
            witnesses = [
                {
                    "siglum": item["siglum"],
                    "href": site.witness_url(item["siglum"], 1),
                    "named": item["named"],
                    "places": [
                        {**p, "forms": "、".join(sorted(p["forms"]))}
                        for key, p in sorted(
                            item["places"].items(), key=lambda kv: (kv[0][0], order.get(kv[0][1], 0), kv[0][2])
                        )
                    ],
                }
                for item in sorted(by_witness.values(), key=lambda x: site.index[x["siglum"]])
            ]
            entries.append(
                {
                    "id": e["id"],
                    "kind": REGISTER_KINDS.get(e["kind"], e["kind"]),
                    "name": e["name"],
                    "aliases": [a for a in e["aliases"] if a != e["name"]],
                    "variants": e["variants"],
                    "titles": e["titles"],
                    "note": e["note"],
                    "witnesses": witnesses,
                }
            )
        kinds = [(label, [x for x in entries if x["kind"] == label]) for label in REGISTER_KINDS.values()]
        kinds += [
            (k, [x for x in entries if x["kind"] == k])
            for k in sorted({x["kind"] for x in entries} - set(REGISTER_KINDS.values()))
        ]
        context = {"kinds": [(label, xs) for label, xs in kinds if xs], "count": len(entries)}
        return self.page("register.md", context, lambda: context, "register.md.jinja")

    def search_data(self, texts: dict[str, str], export: dict[str, Any]) -> str:
        """Each character of the edition (texts and register) that reads differently in the other script,
        mapped to its Simplified form: search and its highlighter fold both sides with it, char by char."""
        chars = set()
        for text in (
            *texts.values(),
            *(a for e in export["register"] for a in (e["name"], *e["aliases"], *e["variants"])),
        ):
            chars.update(_HAN.findall(text))
        fold = {}
        for c in sorted(chars):
            t, s = self.forms.forms(c)
            for form in (c, t):
                if (
                    len(form) == 1 and len(s) == 1 and form != s and max(ord(form), ord(s)) < 0x10000
                ):  # one UTF-16 unit each
                    fold[form] = s
        return json.dumps({"fold": "".join(k + v for k, v in sorted(fold.items()))}, ensure_ascii=False)


def _rows(ep: dict[str, Any], siglum: str) -> list[tuple[int, dict[str, Any]]]:
    """The numbered rows of an episode in which a witness has text."""
    return [(i, row) for i, row in enumerate(ep["rows"], 1) if row["cells"].get(siglum)]


def _note_spans(
    notes: list[dict[str, Any]], order: dict[str, int], first: dict[str, str], lemma_only: bool = False
) -> dict[str, list[Span]]:
    """Per witness, every (start, end, note id, kind, order) that notes mark in its text, sorted by start:
    the lemma (not a lacuna's, which is the whole text the copy lacks) and every reading's place. A
    difference stated once for its page (``first``, see ``_series``) marks each place with that note.
    ``lemma_only``: the lemmas alone (a witness page marks only its own text)."""
    spans: dict[str, list[Span]] = {}
    for note in notes:
        kind, k, nid = note_kind(note), order[note["id"]], first.get(note["id"], note["id"])
        lemma = note["lemma"]
        if lemma and note["type"] != "lacuna" and (lemma_only or not _editor_fact(note)):
            spans.setdefault(lemma["siglum"], []).append((lemma["start"], lemma["end"], nid, kind, k))
        if not lemma_only:
            for reading in note["readings"]:
                for siglum, (start, end) in sorted(reading["spans"].items()):
                    spans.setdefault(siglum, []).append((start, end, nid, kind, k))
    return {s: sorted(v) for s, v in spans.items()}


def _editor_fact(note: dict[str, Any]) -> bool:
    """An editor's fact (``facts:``): its readings mark each witness's words, the first of them its lemma, so
    the lemma is neither marked again nor shown before the note."""
    return note["type"] == "editor" and bool(note["readings"])


def _places(place: Callable[[dict[str, Any]], dict], notes: list[dict[str, Any]]) -> dict[str, Any]:
    """Where a page's later notes of one series stand: how many, and a link to each place (one per row)."""
    links = {p["href"]: p for p in map(place, notes) if p["href"]}
    return {"count": len(notes), "links": list(links.values())} if notes else {}


def _series(pages: Iterable[list[dict[str, Any]]]) -> tuple[dict[str, str], dict[str, list[dict[str, Any]]]]:
    """A copy's habit is stated once per page, as a 校勘記 says 下同: the same variant form again (巖 ] 岩 B),
    or the interlinear commentary (注文) it lacks again. Returns each later note's first note, and each first
    note's later ones. Every note stays in the export, and every place stays marked in the text."""
    first: dict[str, str] = {}
    again: dict[str, list[dict[str, Any]]] = {}
    for notes in pages:
        seen: dict[tuple, str] = {}
        for note in notes:
            kind = note_kind(note)
            if kind not in FORMS:
                continue
            sides = tuple((tuple(r["sigla"]), r["text"] if kind == "orthographic" else "") for r in note["readings"])
            lemma = note["lemma"]["text"] if kind == "orthographic" and note["lemma"] else ""
            key = (note["family"], kind, lemma, sides)
            if key in seen:
                first[note["id"]] = seen[key]
                again.setdefault(seen[key], []).append(note)
            else:
                seen[key] = note["id"]
    return first, again


def _lacuna_note(lacuna: dict[str, Any], site: _Site) -> str:
    """Link to the note that tells of a witness's lacuna (on its family base's page), or ''."""
    base = site.families[lacuna["family"]]["base"]
    for note in site.by_witness.get(base, []):
        at = [lacuna["at"], lacuna["at"]]
        if note["type"] == "lacuna" and any(list(r["spans"].get(lacuna["siglum"], [])) == at for r in note["readings"]):
            return f"{site.witness_url(base, 2)}#{note['id']}"
    return ""


def _sides(note: dict[str, Any]) -> tuple[list[str], int]:
    """The groups of witnesses a note sets against each other, and how many of them must be shown for the
    note to say anything: two sides of a difference, or one witness for a lacuna or an editor's note."""
    readings = [" ".join(r["sigla"]) for r in note["readings"] if r["sigla"]]
    lemma = note["lemma"]
    if note["type"] == "lacuna":
        return readings, 1
    if note["type"] == "editor":
        sigla = {lemma["siglum"]} if lemma else set()
        sigla.update(s for r in note["readings"] for s in r["sigla"])
        return [" ".join(sorted(sigla))], 1
    sides = ([lemma["siglum"]] if lemma else []) + readings
    return sides, min(2, len(sides))


def _listed(note: dict[str, Any], site: _Site, place: dict[str, Any]) -> dict[str, Any]:
    """The data of one note in an apparatus list (the ``notes`` macro)."""
    kind = note_kind(note)
    sides, need = _sides(note)
    lemma = note["lemma"]
    data = {
        "id": note["id"],
        "no": note_number(note["id"]),
        "type": note["type"],
        "kind": kind,
        "label": KIND_LABELS.get(kind, kind),
        "fact": TAG_LABELS.get(note["class"], note["class"]) if note["type"] == "fact" else "",
        "tags": [TAG_LABELS.get(t, t) for t in note["tags"] if note["type"] != "fact" or t != note["class"]],
        "sides": "|".join(sides),
        "need": need,
        "place": place,
        "text": note["text"],
        "lemma": None,
        "readings": [],
    }
    if lemma and note["type"] != "lacuna" and not _editor_fact(note):
        text = lemma["text"]
        data["lemma"] = {
            "text": text,
            "siglum": lemma["siglum"],
            "short": len(text) > LEMMA_MAX,
            "head": text[:4],
            "tail": text[-4:],
        }
        data["readings"] = [{"text": r["text"], "sigla": r["sigla"]} for r in note["readings"]]
    return data


def _notes_html(listed: list[dict[str, Any]], name: str) -> str:
    """One list of a page's notes rendered by the ``notes`` macro (an editor's note as safe HTML)."""
    return MACROS.notes([{**n, "editor": _editor(n)} for n in listed], name)


def _editor(note: dict[str, Any]) -> Any:
    """An editor's note as safe HTML (``editor_notes``); None for the machine's notes."""
    return editor_html(note["text"]) if note["type"] == "editor" else None


def render_site(export: dict[str, Any], texts: dict[str, str], cache: Cache | None = None) -> dict[str, str]:
    """Every generated file, path → content, in reading order: overview, 凡例, episodes, witnesses, register,
    and the search's folding table (``assets/edition-search.json``).

    ``cache`` (a ``SiteCache``, kept across the rebuilds of ``mkdocs serve``) holds the pages, the rows
    and the script conversions; without one, a throwaway cache still converts each distinct run once."""
    pages = _Pages(cache if cache is not None else SiteCache())
    pages.forms.keep(texts.values())
    site = _Site(export, pages.forms)
    out = {"overview.md": pages.overview(site, texts), "conventions.md": pages.conventions(site)}
    for k, ep in enumerate(export["episodes"]):
        out[episode_page(ep["id"])] = pages.episode(ep, site, k)
    for i, w in enumerate(export["witnesses"]):
        out[witness_page(w["siglum"], i)] = pages.witness(w, i, site, texts[w["siglum"]])
    out["register.md"] = pages.register(site)
    out[SEARCH_DATA] = pages.search_data(texts, export)
    return out


def render_error(message: str, paths: list[str]) -> dict[str, str]:
    """Stand-in pages while the input is broken (``mkdocs serve``): each says what is wrong and where."""
    page = ENV.get_template("error.md.jinja").render(message=message)
    return dict.fromkeys(paths, page)
