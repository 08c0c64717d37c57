"""A witness page: catalogue data and the whole text in the witness's own order, each run anchored at its offset
(``#o<start>``) and marked by its episode row or as outside the episodes; its lacunae; the notes that stand
outside the episodes and have their home here, marked in the text and listed.

A reader who follows a moved segment or a register entry lands here, on the run that holds it, so every run of
the text is an anchor.
"""

from __future__ import annotations

import bisect
import functools
import itertools
from typing import Any

from ..engine.cache import digest
from .apparatus import apparatus
from .labels import LACUNA_LABELS, LANGS, kind_filters, script_label
from .notes import note_spans
from .paths import episode_page, url, witness_page
from .site_index import Site, chars
from .templating import Renderer
from .text_pieces import lines, other_script


def render_witness(renderer: Renderer, site: Site, w: dict[str, Any], index: int, text: str) -> str:
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
    notes = site.by_witness.get(s, [])
    lacunae = [
        {"at": x["at"], "label": LACUNA_LABELS.get(x["kind"], x["kind"]), "href": _lacuna_note(x, site)}
        for x in site.export["lacunae"]
        if x["siglum"] == s
    ]
    family = site.families[w["family"]]
    members = [{"siglum": m, "href": site.witness_url(m, 2), "base": m == family["base"]} for m in family["members"]]
    marked = note_spans(notes, site.order, site.first, site.numbers(notes), lemma_only=True)
    spans = [list(x) for x in marked.get(s, [])]

    def place(note: dict[str, Any]) -> dict[str, Any]:
        lemma = note["lemma"]
        if not (lemma and lemma["siglum"] == s):
            return {"href": "", "label": "", "title": ""}
        return {"href": f"#o{site.run_start(s, lemma['start'])}", "label": "見文", "title": "到本文中此處"}

    notes_keys, lists = apparatus(renderer, site, notes, place)
    inputs = [w, index, digest(text), episodes, outside, spans, lacunae, members, notes_keys]
    context = functools.partial(_context, renderer, w, text, episodes, outside, spans, lacunae, members, lists)
    return renderer.page(witness_page(s, index), inputs, context, "witness.md.jinja")


def _context(renderer: Renderer, w, text, episodes, outside, spans, lacunae, members, lists) -> dict[str, Any]:
    """What the template prints, made only when the page is not in the cache: the text cut into passages."""
    runs: list[tuple[int, int, str, dict[str, Any] | None, bool]] = []  # (start, end, kind, row link, moved)
    listed = []
    for ep_id, title, rows in episodes:
        href = url(episode_page(ep_id), 2)
        for i, segs in rows:
            ref = {"href": f"{href}#r{i}", "title": title, "row": i}
            runs.extend((a, b, "run", ref if j == 0 or moved else None, moved) for j, (a, b, moved) in enumerate(segs))
        amount = sum(chars(text[a:b]) for _, segs in rows for a, b, _ in segs)
        listed.append({"title": title, "href": href, "chars": amount})
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
    starts = [sp[0] for sp in spans]  # sorted (note_spans)
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
                    "pieces": lines(renderer.forms, text[x:y], inside),
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
            ("字體", script_label(w["script"])),
            ("長度", f"{w['length']} 字元（不計空白 {chars(text)} 字）"),
        ],
        "members": members,
        "episodes": listed,
        "passages": passages,
        "alt": other_script(renderer.forms, text),
        **lists,
        "kinds": kind_filters(),
    }


def _rows(ep: dict[str, Any], siglum: str) -> list[tuple[int, dict[str, Any]]]:
    """The numbered rows of an episode in which a witness has text."""
    return [(i, row) for i, row in enumerate(ep["rows"], 1) if row["cells"].get(siglum)]


def _lacuna_note(lacuna: dict[str, Any], site: Site) -> str:
    """Link to the note that tells of a witness's lacuna (on its family base's page), or ''."""
    base = site.families[lacuna["family"]]["base"]
    for note in site.by_witness.get(base, []):
        at = [lacuna["at"], lacuna["at"]]
        if note["type"] == "lacuna" and any(list(r["spans"].get(lacuna["siglum"], [])) == at for r in note["readings"]):
            return f"{site.witness_url(base, 2)}#{note['id']}"
    return ""
