"""A page's apparatus (校記) and its table of variant forms and missing commentary, as the ``notes`` macro lists them.

Episode and witness pages list their notes the same way and differ only in where a note links back to
(``place``): a row of the table, or the run of the witness's text that holds its lemma.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..engine.exported import NoteJson
from .editor_notes import editor_html, editor_markdown
from .labels import KIND_LABELS, TAG_LABELS, emended
from .notes import editor_fact, note_kind
from .paths import episode_page, url
from .site_index import Site
from .templating import MACROS, TEMPLATES_DIGEST, Renderer, fill, put, stand_in

LEMMA_MAX = 16  # a longer lemma is shown as its first and last characters; the table has it in full

Place = Callable[[NoteJson], dict]  # a note -> the link back to where it stands ({"href", "label", "title"})


def apparatus(
    renderer: Renderer, site: Site, notes: list[NoteJson], place: Place, reading: bool = False
) -> tuple[list[str], dict]:
    """A page's apparatus (``notes``) and its table of variant forms and missing commentary (``forms``),
    each rendered by the ``notes`` macro and cached, with their counts, and the keys' digests;
    ``place(note)`` gives the link back to where the note stands (``{"href", "label"}``). ``reading``: the
    page shows the base's reading text, with the readings the edition adopts in it, so such a note says
    「通」原作「透」，據B改。 instead of 透 A ] 通 B。據B改。"""
    keys, out, numbers = [], {}, site.numbers(notes)
    for name, forms in (("notes", False), ("forms", True)):
        listed = [
            {
                **_listed(note, numbers[note["id"]], place(note), reading),
                "again": _places(place, site.again.get(note["id"], [])),
            }
            for note in site.listed(notes, forms)
        ]
        key, out[name] = _notes_html(renderer, listed, name)
        keys.append(key)
        out[f"{name}_count"] = len(listed)
    return keys, out


def reading_apparatus(
    renderer: Renderer, site: Site, entries: list[tuple[NoteJson, str, str]], siglum: str
) -> tuple[str, tuple]:
    """A reading text's 校勘記 (of witness ``siglum``): every note that quotes it, each ``(note, number, the page's
    id for it)`` in reading order, linked back to its mark and to its episode row, listed by the ``notes`` macro
    as an episode's apparatus is, but all of them (異體 and 注文 too) and none said once for all (下同): a
    citation such as "A 校勘記〔七〕" names one note. Returns the key's digest, and (count, the list's markup in
    pieces, for ``Renderer.page``).

    A note lists the same on every reading text that it quotes (a note quotes most witnesses at 10 x 50k) but one
    that shows the reading it adopts: its item is made once per render for each of the two."""
    items = []
    for note, no, nid in entries:
        adopted = _adopted_in(note, siglum)
        made = functools.partial(_reading_item, renderer, site, note, adopted)
        key, html = renderer.once(("reading note", note["id"], adopted), made)
        items.append((key, html, nid, no))
    key, html = _list_html(renderer, items, "reading")
    return key, (len(items), html)


def _reading_item(renderer: Renderer, site: Site, note: NoteJson, adopted: bool) -> tuple[str, str]:
    """A note's item in a reading text's 校勘記 (``_item``): its place is its mark in the text (the macro links back to
    #m<id>), and it links to its episode row."""
    place = {"mark": True, "label": "見文", "title": "回到本文中此處"}
    row = None
    if note["row"] in site.row_at:
        ep, no = site.row_at[note["row"]]
        row = {"href": f"{url(episode_page(ep['id']), 2)}#r{no}", "label": f"{ep['title']} {no}"}
    return _item(renderer, {**_listed(note, "", place, adopted), "row": row, "again": {}})


def _adopted_in(note: NoteJson, siglum: str) -> bool:
    """Whether the reading text of ``siglum`` shows the reading the edition adopts for this note (its 校勘記 then
    says 「通」原作「透」，據B改。)."""
    return ((note.get("verdict") or {}).get("adopted") or {}).get("siglum") == siglum


def _places(place: Place, notes: list[NoteJson]) -> dict[str, Any]:
    """Where a page's later notes of one series stand: how many, and a link to each place (one per row)."""
    links = {p["href"]: p for p in map(place, notes) if p["href"]}
    return {"count": len(notes), "links": list(links.values())} if notes else {}


def _sides(note: NoteJson) -> tuple[list[str], int]:
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


def _listed(note: NoteJson, number: str, place: dict[str, Any], reading: bool = False) -> dict[str, Any]:
    """The data of one note in an apparatus list (the ``notes`` macro): with the editor's verdict after its
    某本作某 (``verdict``, its Markdown ``verdict_text``), or in a reading text's words (``emended``)."""
    kind = note_kind(note)
    verdict = note.get("verdict") or {}
    sides, need = _sides(note)
    lemma = note["lemma"]
    data = {
        "id": note["id"],
        "no": number,
        "type": note["type"],
        "kind": kind,
        "label": KIND_LABELS.get(kind, kind),
        "fact": TAG_LABELS.get(note["class"], note["class"]) if note["type"] == "fact" else "",
        "tags": [TAG_LABELS.get(t, t) for t in note["tags"] if note["type"] != "fact" or t != note["class"]],
        "sides": "|".join(sides),
        "need": need,
        "place": place,
        "text": editor_markdown(note) if note["type"] == "editor" else note["text"],
        "lemma": None,
        "readings": [],
        "verdict": verdict.get("words", ""),
        "verdict_text": verdict.get("text", ""),
        "emended": emended(verdict) if reading else "",
        "row": None,
    }
    if lemma and note["type"] != "lacuna" and not editor_fact(note):
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


def _notes_html(renderer: Renderer, listed: list[dict[str, Any]], name: str) -> tuple[str, list[str]]:
    """One list of a page's notes (``_list_html``) from each note's data (``_listed``), and its key's digest."""
    return _list_html(renderer, [(*_item(renderer, n), n["id"], n["no"]) for n in listed], name)


def _item(renderer: Renderer, n: dict[str, Any]) -> tuple[str, str]:
    """One note rendered apart by the ``note`` macro, and its key's digest: kept in the cache without its id and
    number (a note added or dropped renumbers every later one on its page, and a reading text lists thousands at
    10 x 50k: only the new one is rendered)."""
    blank = {**n, "id": stand_in("id"), "no": stand_in("no")}
    return renderer.fragment("note", blank, functools.partial(_note_html, blank))


def _list_html(renderer: Renderer, items: list[tuple[str, str, str, str]], name: str) -> tuple[str, list[str]]:
    """One list of a page's notes, each ``(key's digest, html with stand-ins, id, number)`` (``_item``), listed by
    the ``notes`` macro with their ids and numbers filled in, and its key's digest. The list is keyed by its notes'
    keys, ids and numbers: the notes' data is made into a key once, not twice (a tenth of a rebuild's render at
    10 x 50k)."""

    def render() -> list[str]:
        blocks = [items[i : i + _BLOCK] for i in range(0, len(items), _BLOCK)]
        listed = [renderer.cache.get(_block_key(block), functools.partial(_filled, block)) for block in blocks]
        return put(MACROS.notes([stand_in("items")], name), {"items": listed})

    return renderer.fragment(name, [(key, nid, no) for key, _, nid, no in items], render)


_BLOCK = 64  # notes of a list filled in together, and kept so


def _block_key(block: list[tuple[str, str, str, str]]) -> tuple:
    """A block of a list's notes is made of their keys, ids and numbers (and the templates, in the keys)."""
    return ("site-notes-block", TEMPLATES_DIGEST, tuple((key, nid, no) for key, _, nid, no in block))


def _filled(block: list[tuple[str, str, str, str]]) -> str:
    """A block of a list's notes, their ids and numbers filled in, as one string: kept in the cache, so a page whose
    notes are not renumbered fills only the blocks of the notes an edit changes (a reading text lists 4,000 notes
    at 10 x 50k, and is listed again whenever one of them changes)."""
    return "".join(fill(html, {"id": nid, "no": no}) for _, html, nid, no in block)


def _note_html(n: dict[str, Any]) -> str:
    """One note rendered by the ``note`` macro (an editor's note as safe HTML)."""
    return MACROS.note(
        {**n, "editor": _editor(n), "verdict_html": editor_html(n["verdict_text"]) if n["verdict_text"] else ""}
    )


def _editor(note: dict[str, Any]) -> Any:
    """An editor's note as safe HTML (``editor_notes``); None for the machine's notes."""
    return editor_html(note["text"]) if note["type"] == "editor" else None
