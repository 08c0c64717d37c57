"""The ``edition-export/2`` contract's invariants (docs/format.md), checked by the project itself."""

from __future__ import annotations

from typing import Any

TYPES = {
    "collation": {"punctuation", "orthographic", "substantive", "addition", "omission"},
    "fact": {"person", "place", "thing", "number", "date"},
    "lacuna": {"lacuna"},
    "editor": {"editor"},
}
TAGS = {"person", "place", "thing", "number", "date"}


def contract_problems(data: dict[str, Any], texts: dict[str, str]) -> list[str]:
    """Every way ``data`` breaks the edition-export/2 contract for witness ``texts`` (siglum -> text)."""
    problems: list[str] = []
    say = problems.append
    if data.get("format") != "edition-export/2":
        say(f"format {data.get('format')!r}")
    covered = {s: [0] * len(t) for s, t in texts.items()}

    def slice_ok(sig: str, s: int, e: int, text: str | None, where: str) -> bool:
        if sig not in texts or not 0 <= s <= e <= len(texts[sig]):
            say(f"{where}: span {sig} {s}-{e} outside the witness")
            return False
        if text is not None and text != texts[sig][s:e]:
            say(f"{where}: text {text[:12]!r} is not {sig}[{s}:{e}]")
            return False
        return True

    def take(sig: str, sp: dict, where: str) -> None:
        if slice_ok(sig, sp["start"], sp["end"], sp["text"], where):
            for i in range(sp["start"], sp["end"]):
                covered[sig][i] += 1

    families = {f["id"]: f for f in data["families"]}
    members = [s for f in data["families"] for s in f["members"]]
    if sorted(members) != sorted(texts):
        say(f"families {members} do not divide the witnesses {sorted(texts)}")
    for f in data["families"]:
        if f["base"] not in f["members"]:
            say(f"family {f['id']}: base {f['base']} is no member")
    for w in data["witnesses"]:
        if w["length"] != len(texts[w["siglum"]]):
            say(f"{w['siglum']}: length {w['length']}")
        if w["script"] not in {"Hant", "Hans", "mixed"}:
            say(f"{w['siglum']}: script {w['script']}")
        if w["family"] not in families or w["siglum"] not in families[w["family"]]["members"]:
            say(f"{w['siglum']}: family {w['family']}")
    cells_of: dict[str, dict[str, list[tuple[int, int]]]] = {}
    in_episode: dict[tuple[str, str], list[tuple[int, int]]] = {}  # (episode, witness) -> its cells' spans
    for ep in data["episodes"]:
        rows = ep["rows"]
        for k, row in enumerate(rows):
            if row["id"] in cells_of:
                say(f"duplicate row {row['id']}")
            cells_of[row["id"]] = {}
            for sig, cell in row["cells"].items():
                for sp in cell:
                    take(sig, sp, f"row {row['id']}")
                    cells_of[row["id"]].setdefault(sig, []).append((sp["start"], sp["end"]))
                    in_episode.setdefault((ep["id"], sig), []).append((sp["start"], sp["end"]))
            for sig, n in row.get("span", {}).items():
                below = rows[k + 1 : k + n]
                if sig not in row["cells"] or n < 2 or len(below) != n - 1 or any(sig in r["cells"] for r in below):
                    say(f"row {row['id']}: bad span {sig} {n}")
    for sig, spans in data["unassigned"].items():
        for sp in spans:
            take(sig, sp, "unassigned")
    ids = set()
    superseded: list[tuple[str, dict]] = []
    for note in data["notes"]:
        where = f"note {note.get('id')}"
        if note["id"] in ids:
            say(f"{where}: duplicate id")
        ids.add(note["id"])
        if note["class"] not in TYPES.get(note["type"], set()):
            say(f"{where}: type {note['type']} class {note['class']}")
        if not set(note["tags"]) <= TAGS:
            say(f"{where}: tags {note['tags']}")
        if note["row"] is not None and note["row"] not in cells_of:
            say(f"{where}: no row {note['row']}")
        lemma = note["lemma"]
        if lemma is not None:
            slice_ok(lemma["siglum"], lemma["start"], lemma["end"], lemma["text"], where)
            cells = cells_of.get(note["row"] or "", {}).get(lemma["siglum"], [])
            if note["type"] == "collation" and note["row"] and not any(a <= lemma["start"] <= b for a, b in cells):
                say(f"{where}: lemma outside its row's cells")
        elif note["type"] != "fact":
            say(f"{where}: no lemma")
        if not note["readings"] and note["type"] != "editor":
            say(f"{where}: no reading")
        if note["type"] == "collation":
            # every side of a collation note inside one cell of its episode (a spanning cell may sit in an earlier
            # row), or inside the text no episode holds
            placed = [(lemma["siglum"], lemma["start"], lemma["end"])] if lemma else []
            placed += [(sig, a, b) for r in note["readings"] for sig, (a, b) in r["spans"].items()]
            for sig, a, b in placed:
                home = (
                    in_episode.get((note["episode"], sig), [])
                    if note["row"]
                    else [(sp["start"], sp["end"]) for sp in data["unassigned"].get(sig, [])]
                )
                if not any(x <= a and b <= y for x, y in home):
                    say(f"{where}: {sig} {a}-{b} outside the cells it belongs to")
        for r in note["readings"]:
            for sig, (a, b) in r["spans"].items():
                if sig not in r["sigla"]:
                    say(f"{where}: span of {sig} not in sigla")
                slice_ok(sig, a, b, r["text"] if note["type"] == "collation" and len(r["sigla"]) == 1 else None, where)
        if note["type"] in ("fact", "lacuna", "editor") and not note["text"]:
            say(f"{where}: says nothing")
        verdict = note.get("verdict")
        if verdict is not None:
            if note["type"] not in ("collation", "fact"):
                say(f"{where}: a verdict on a {note['type']} note")
            if verdict["kind"] == "adopt" and note["type"] != "collation":
                say(f"{where}: adopts a reading outside a family")
            adopted = verdict.get("adopted")
            if adopted is not None and (
                lemma is None
                or (adopted["siglum"], adopted["start"], adopted["end"], adopted["was"])
                != (lemma["siglum"], lemma["start"], lemma["end"], lemma["text"])
                or adopted["text"] not in {r["text"] for r in note["readings"]}
            ):
                say(f"{where}: adopts what is not its lemma or a reading")
        if "superseded_by" in note:
            superseded.append((where, note))
    by_id = {n["id"]: n for n in data["notes"]}
    for where, note in superseded:
        by = by_id.get(note["superseded_by"])
        if note["type"] != "fact" or by is None or by["type"] != "editor" or by["episode"] != note["episode"]:
            say(f"{where}: superseded by {note['superseded_by']}, no editor's fact of its episode")
    for x in data["lacunae"]:
        slice_ok(x["siglum"], x["at"], x["at"], None, "lacuna")
        if x["kind"] not in {"start", "end", "unfinished"}:
            say(f"lacuna kind {x['kind']}")
    for entry in data["register"]:
        for m in entry["mentions"]:
            slice_ok(m["siglum"], m["start"], m["end"], m["text"], f"register {entry['id']}")
    for sig, marks in covered.items():
        text = texts[sig]
        over = [i for i, n in enumerate(marks) if n > 1]
        lost = [i for i, n in enumerate(marks) if n == 0 and not text[i].isspace()]
        if over:
            say(f"{sig}: {len(over)} characters in two spans, first at {over[0]}")
        if lost:
            say(f"{sig}: {len(lost)} characters lost, first at {lost[0]}: {text[lost[0] : lost[0] + 10]!r}")
    return problems
