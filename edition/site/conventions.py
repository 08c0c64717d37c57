"""The 凡例 page: the families and their bases, what the engine normalised before comparing (quotation marks,
punctuation, script), the note kinds with their meanings and counts, and the editor's settings. Generated, so
it always says what this edition did rather than what a hand-written page once said.
"""

from __future__ import annotations

from .labels import KIND_LABELS, KIND_MEANINGS, KINDS, SCRIPT_LABELS, script_label
from .notes import note_kind
from .site_index import Site
from .templating import Renderer


def render_conventions(renderer: Renderer, site: Site) -> str:
    export = site.export
    titles = {w["siglum"]: w for w in site.witnesses}
    families = [
        {
            "id": f["id"],
            "declared": f["declared"],
            # the family's scripts, once each: a member's title often names its script already (繁體本)
            "scripts": list(dict.fromkeys(script_label(titles[m]["script"]) for m in f["members"])),
            "members": [
                {
                    "siglum": m,
                    "title": titles[m]["title"],
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
    shown = [n for n in export["notes"] if "superseded_by" not in n]
    for note in shown:
        counts[note_kind(note)] = counts.get(note_kind(note), 0) + 1
    context = {
        "families": families,
        "quote_styles": normalised["quote_styles"],
        "unpunctuated": normalised["unpunctuated"],
        "scripts": scripts,
        "silenced": [(KIND_LABELS.get(c, c), n) for c, n in sorted(normalised["silenced"].items())],
        "kinds": [{"id": c, "label": KIND_LABELS[c], "meaning": KIND_MEANINGS[c], "count": counts[c]} for c in KINDS],
        "editorial": sorted(export["editorial"].items()),
        "superseded": len(export["notes"]) - len(shown),
        "verdicts": sum("verdict" in n for n in shown),
    }
    return renderer.page("conventions.md", context, lambda: context, "conventions.md.jinja")
