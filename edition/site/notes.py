"""What the site reads off a note of the export: its kind, its number, where it marks the text, and which
notes only say again what an earlier one on the same page says (下同).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..engine.exported import NoteJson

# Kinds a 校勘記 leaves out by the usual rule (異體字不出校): each page lists them apart, after its apparatus, so
# the apparatus says what changes the text; they stay notes in the export, and marked in the text.
FORMS = ("orthographic", "commentary")

MarkSpan = tuple[int, int, str, str, int, str]  # (start, end, note id, kind, order, number on its page) in one text


def note_kind(note: NoteJson) -> str:
    """What a note's mark and filter go by: the class of a collation note (an omitted or added interlinear
    note, labelled 注文, apart), else its type."""
    if note["type"] != "collation":
        return note["type"]
    return "commentary" if note["label"] == "注文" else note["class"]


def editor_fact(note: NoteJson) -> bool:
    """An editor's fact (``facts:``): its readings mark each witness's words, the first of them its lemma, so
    the lemma is neither marked again nor shown before the note."""
    return note["type"] == "editor" and bool(note["readings"])


def note_spans(
    notes: list[NoteJson],
    order: dict[str, int],
    first: dict[str, str],
    numbers: dict[str, str],
) -> dict[str, list[MarkSpan]]:
    """Per witness, every (start, end, note id, kind, order, number) that notes mark in its text, sorted by start:
    the lemma (not a lacuna's, which is the whole text the copy lacks) and every reading's place. A
    difference stated once for its page (``first``, see ``series``) marks each place with that note."""
    spans: dict[str, list[MarkSpan]] = {}
    for note in notes:
        kind, k, nid = note_kind(note), order[note["id"]], first.get(note["id"], note["id"])
        no = numbers[nid]
        lemma = note["lemma"]
        if lemma and note["type"] != "lacuna" and not editor_fact(note):
            spans.setdefault(lemma["siglum"], []).append((lemma["start"], lemma["end"], nid, kind, k, no))
        for reading in note["readings"]:
            for siglum, (start, end) in sorted(reading["spans"].items()):
                spans.setdefault(siglum, []).append((start, end, nid, kind, k, no))
    return {s: sorted(v) for s, v in spans.items()}


def series(pages: Iterable[list[NoteJson]]) -> tuple[dict[str, str], dict[str, list[NoteJson]]]:
    """A copy's habit is stated once per page, as a 校勘記 says 下同: the same variant form again (巖 ] 岩 B),
    or the interlinear commentary (注文) it lacks again. Returns each later note's first note, and each first
    note's later ones. Every note stays in the export, and every place stays marked in the text."""
    first: dict[str, str] = {}
    again: dict[str, list[NoteJson]] = {}
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
