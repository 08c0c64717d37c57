"""The export contract's invariants, checked by the project itself (never by ../shared)."""

from __future__ import annotations

from typing import Any

CLASSES = {"punctuation", "orthographic", "substantive", "addition", "omission"}


def contract_problems(data: dict[str, Any], texts: dict[str, str]) -> list[str]:
    """Every way ``data`` breaks the edition-export/1 contract for witness ``texts`` (siglum -> text)."""
    problems: list[str] = []
    if data.get("format") != "edition-export/1":
        problems.append(f"format {data.get('format')!r}")
    covered = {s: [0] * len(t) for s, t in texts.items()}

    def take(sig: str, sp: dict, where: str) -> None:
        s, e = sp["start"], sp["end"]
        if not 0 <= s <= e <= len(texts[sig]):
            problems.append(f"{where}: span {s}-{e} outside {sig}")
            return
        if sp["text"] != texts[sig][s:e]:
            problems.append(f"{where}: text is not the slice {sig}[{s}:{e}]")
        for i in range(s, e):
            covered[sig][i] += 1

    for w in data["witnesses"]:
        if w["length"] != len(texts[w["siglum"]]):
            problems.append(f"{w['siglum']}: length {w['length']}")
        if w["script"] not in {"Hant", "Hans", "mixed"}:
            problems.append(f"{w['siglum']}: script {w['script']}")
    for ep in data["episodes"]:
        cells_of: dict[str, dict[str, list[tuple[int, int]]]] = {}
        for row in ep["rows"]:
            if row["id"] in cells_of:
                problems.append(f"duplicate row {row['id']}")
            cells_of[row["id"]] = {}
            for sig, cell in row["cells"].items():
                for sp in cell:
                    take(sig, sp, f"row {row['id']}")
                    cells_of[row["id"]].setdefault(sig, []).append((sp["start"], sp["end"]))
        for note in ep["notes"]:
            cells = cells_of.get(note["row"])
            if cells is None:
                problems.append(f"note on missing row {note['row']}")
                continue
            if note["class"] not in CLASSES:
                problems.append(f"note class {note['class']}")
            lemma = note["lemma"]
            placed = [(lemma["siglum"], lemma["start"], lemma["end"])]
            if lemma["text"] != texts[lemma["siglum"]][lemma["start"] : lemma["end"]]:
                problems.append(f"note on {note['row']}: lemma text is not its slice")
            placed += [(s, a, b) for r in note["readings"] for s, (a, b) in r["spans"].items()]
            for sig, a, b in placed:
                if not any(x <= a and b <= y for x, y in cells.get(sig, [])):
                    problems.append(f"note on {note['row']}: {sig} {a}-{b} outside the row's cells")
    for sig, spans in data["unassigned"].items():
        for sp in spans:
            take(sig, sp, "unassigned")
    for sig, marks in covered.items():
        text = texts[sig]
        over = [i for i, n in enumerate(marks) if n > 1]
        lost = [i for i, n in enumerate(marks) if n == 0 and not text[i].isspace()]
        if over:
            problems.append(f"{sig}: {len(over)} characters in two spans, first at {over[0]}")
        if lost:
            problems.append(f"{sig}: {len(lost)} characters lost, first at {lost[0]}: {text[lost[0] : lost[0] + 10]!r}")
    return problems
