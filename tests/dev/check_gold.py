"""Check the development set: tests/dev/witnesses, tests/dev/gold/episodes.yaml, tests/dev/gold/rows.yaml.

Run with the project's Python (standard library + PyYAML only):

    .venv/bin/python tests/dev/check_gold.py

It checks that
  * witnesses/catalogue.yaml names existing files, with known keys and distinct sigla
    (not clashing with the seeds' sigla);
  * every witness file has an entry in gold/episodes.yaml and vice versa;
  * every episode range is well formed: known episode id, quotes on one line, the first
    words found after the end of the previous range, the last words found after the first
    words (the rule of tests/gold.py); quotes that also occur elsewhere in the file are
    reported as warnings (the range is still well defined by the order rule);
  * every quote in gold/rows.yaml occurs exactly once in its file (dev witness or seed),
    each group has at least two entries from distinct files, and all entries of a group
    lie inside gold ranges of one and the same episode (dev gold or tests/gold for seeds).

It prints a summary and exits 1 on any problem (warnings alone do not fail).
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

DEV = Path(__file__).resolve().parent
ROOT = DEV.parents[1]
WITNESSES = DEV / "witnesses"
SEEDS = ROOT / "seeds"
EPISODES = {"anshi-dialogue", "withdrawal", "liao-marshes", "rite", "crown-prince"}
CATALOGUE_KEYS = {"file", "siglum", "title", "description", "source", "encoding"}

problems: list[str] = []
warnings: list[str] = []


def problem(msg: str) -> None:
    problems.append(msg)


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")


def labels(text: str, ranges: list, file: str, strict: bool) -> list[str | None]:
    """Episode id of every character of text, following the rule of tests/gold.py."""
    out: list[str | None] = [None] * len(text)
    pos = 0
    for n, entry in enumerate(ranges, 1):
        where = f"{file}: range {n}"
        if not (isinstance(entry, list) and len(entry) == 3 and all(isinstance(x, str) for x in entry)):
            problem(f"{where}: not a list [episode, first words, last words]: {entry!r}")
            continue
        episode, first, last = entry
        if episode not in EPISODES:
            problem(f"{where}: unknown episode id {episode!r}")
        for q in (first, last):
            if not q.strip():
                problem(f"{where}: empty quote")
            if "\n" in q:
                problem(f"{where}: quote {q!r} spans a line break")
            elif strict and text.count(q) > 1:
                warnings.append(f"{where}: quote {q!r} occurs {text.count(q)} times in the file")
        start = text.find(first, pos)
        if start < 0:
            problem(f"{where}: first words {first!r} not found after position {pos}")
            continue
        end = text.find(last, start)
        if end < 0:
            problem(f"{where}: last words {last!r} not found after the first words")
            continue
        end += len(last)
        out[start:end] = [episode] * (end - start)
        pos = end
    return out


def main() -> int:
    # --- catalogue ---------------------------------------------------------------------
    files = sorted(p.name for p in WITNESSES.glob("*.txt"))
    cat = yaml.safe_load(read(WITNESSES / "catalogue.yaml"))
    entries = cat.get("witnesses", []) if isinstance(cat, dict) else []
    seed_cat = yaml.safe_load(read(SEEDS / "catalogue.yaml"))
    seed_sigla = {e.get("siglum") for e in seed_cat.get("witnesses", [])}
    sigla: dict[str, str] = {}
    for e in entries:
        if set(e) - CATALOGUE_KEYS:
            problem(f"catalogue: unknown key(s) {sorted(set(e) - CATALOGUE_KEYS)} in {e.get('file')}")
        if e.get("file") not in files:
            problem(f"catalogue: {e.get('file')!r} is not a .txt file in {WITNESSES}")
        s = e.get("siglum")
        if s in sigla:
            problem(f"catalogue: siglum {s!r} used by {sigla[s]} and {e.get('file')}")
        if s in seed_sigla:
            problem(f"catalogue: siglum {s!r} clashes with a seed siglum")
        sigla[s] = e.get("file")
    uncatalogued = sorted(set(files) - {e.get("file") for e in entries})
    if uncatalogued:
        problem(f"catalogue: no entry for {uncatalogued}")

    # --- episodes --------------------------------------------------------------------------
    gold = yaml.safe_load(read(DEV / "gold" / "episodes.yaml")) or {}
    if sorted(gold) != files:
        problem(f"episodes.yaml covers {sorted(gold)}, the witnesses are {files}")
    dev_labels: dict[str, list] = {}
    texts: dict[str, str] = {}
    n_ranges = 0
    for f in files:
        texts[f] = read(WITNESSES / f)
        ranges = gold.get(f) or []
        n_ranges += len(ranges)
        dev_labels[f] = labels(texts[f], ranges, f, strict=True)

    seed_gold = yaml.safe_load(read(ROOT / "tests" / "gold" / "episodes.yaml")) or {}
    seed_labels: dict[str, list] = {}
    for f, ranges in seed_gold.items():
        texts[f] = read(SEEDS / f)
        seed_labels[f] = labels(texts[f], ranges, f"seeds/{f}", strict=False)

    # --- rows ------------------------------------------------------------------------------
    rows = yaml.safe_load(read(DEV / "gold" / "rows.yaml")) or []
    n_quotes = 0
    for g, group in enumerate(rows, 1):
        where = f"rows.yaml group {g}"
        if not isinstance(group, list) or len(group) < 2:
            problem(f"{where}: needs a list of at least two entries")
            continue
        seen, episodes = set(), set()
        for item in group:
            if not (isinstance(item, dict) and set(item) == {"file", "words"}):
                problem(f"{where}: entry {item!r} is not {{file, words}}")
                continue
            f, w = item["file"], item["words"]
            n_quotes += 1
            if f in seen:
                problem(f"{where}: two entries from {f}")
            seen.add(f)
            if f not in texts:
                problem(f"{where}: unknown file {f!r}")
                continue
            c = texts[f].count(w)
            if c != 1:
                problem(f"{where}: {w!r} occurs {c} times in {f} (must be exactly once)")
                continue
            i = texts[f].index(w)
            lab = (dev_labels.get(f) or seed_labels.get(f))[i : i + len(w)]
            if len(set(lab)) != 1 or lab[0] is None:
                problem(f"{where}: {w!r} in {f} is not wholly inside one gold range ({sorted(set(map(str, lab)))})")
            else:
                episodes.add(lab[0])
        if len(episodes) > 1:
            problem(f"{where}: entries lie in different episodes {sorted(episodes)}")

    # --- summary ---------------------------------------------------------------------------
    print(f"witnesses: {len(files)} ({', '.join(files)})")
    print(f"episode ranges: {n_ranges}; rows groups: {len(rows)} with {n_quotes} quotes")
    for f in files:
        t, lab = texts[f], dev_labels[f]
        idx = [i for i, ch in enumerate(t) if not ch.isspace()]
        counts: dict[str, int] = {}
        for i in idx:
            counts[str(lab[i])] = counts.get(str(lab[i]), 0) + 1
        share = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
        print(f"  {f}: {len(t)} chars; non-space chars by label: {share}")
    for w in warnings:
        print(f"warning: {w}")
    for p in problems:
        print(f"PROBLEM: {p}")
    print("OK" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
