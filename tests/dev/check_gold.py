"""Check the development set: every set of witnesses under tests/dev and its gold, made by reading.

A set is tests/dev itself or a folder under it with a ``witnesses/`` folder (its catalogue beside the texts) and a
``gold/`` folder (``episodes.yaml``, ``rows.yaml``, optionally ``facts.yaml``). Run with the project's Python
(standard library + PyYAML only):

    .venv/bin/python tests/dev/check_gold.py

It checks the sets of ``tests/unseen`` the same way (they are no development witnesses and have no kind):
  * each catalogue names existing files, with known keys, and that sigla are distinct across the seeds and
    every set; tests/dev/kinds.yaml gives a kind to every development witness and to nothing else;
  * every witness file has an entry in its set's gold/episodes.yaml and vice versa;
  * every episode range is well formed: known episode id, quotes on one line, the first words found after
    the end of the previous range, the last words found after the first words (the rule of tests/gold.py);
    quotes that also occur elsewhere in the file are reported as warnings (the range is still well defined
    by the order rule);
  * every quote in a gold/rows.yaml occurs exactly once in its file (a development witness of any set, or a
    seed), each group has at least two entries from distinct files, and all entries of a group lie inside
    gold ranges of one and the same episode (the set's gold, or tests/gold for seeds);
  * every reading of a gold/facts.yaml names a witness of its set, and its text occurs inside a gold range
    of the fact's episode in that witness.

It prints a summary and exits 1 on any problem (warnings alone do not fail); tests/test_gold_files.py runs it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

DEV = Path(__file__).resolve().parent
ROOT = DEV.parents[1]
SEEDS = ROOT / "seeds"
SETS = (DEV, *sorted(p for p in DEV.iterdir() if (p / "witnesses").is_dir()))
UNSEEN = ROOT / "tests" / "unseen"  # sets kept out of the development set and its tuning (tests/measure_unseen.py)
UNSEEN_SETS = tuple(sorted(p for p in UNSEEN.iterdir() if (p / "witnesses").is_dir())) if UNSEEN.is_dir() else ()
CHECKED = SETS + UNSEEN_SETS
EPISODES = {"anshi-dialogue", "withdrawal", "liao-marshes", "rite", "crown-prince"}
CATALOGUE_KEYS = {"file", "siglum", "title", "description", "source", "encoding", "family", "base"}
FACT_KINDS = {"person", "place", "number", "date", "object", "title"}


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")


class Check:
    def __init__(self) -> None:
        self.problems: list[str] = []
        self.warnings: list[str] = []
        self.texts: dict[str, str] = {}  # file -> text, every seed and development witness
        self.labels: dict[str, list[str | None]] = {}  # file -> gold episode per character
        self.home: dict[str, Path] = {}  # development file -> its set

    def problem(self, msg: str) -> None:
        self.problems.append(msg)

    def ranges(self, text: str, ranges: list, file: str, strict: bool) -> list[str | None]:
        """Episode id of every character of text, following the rule of tests/gold.py."""
        out: list[str | None] = [None] * len(text)
        pos = 0
        for n, entry in enumerate(ranges, 1):
            where = f"{file}: range {n}"
            if not (isinstance(entry, list) and len(entry) == 3 and all(isinstance(x, str) for x in entry)):
                self.problem(f"{where}: not a list [episode, first words, last words]: {entry!r}")
                continue
            episode, first, last = entry
            if episode not in EPISODES:
                self.problem(f"{where}: unknown episode id {episode!r}")
            for q in (first, last):
                if not q.strip():
                    self.problem(f"{where}: empty quote")
                if "\n" in q:
                    self.problem(f"{where}: quote {q!r} spans a line break")
                elif strict and text.count(q) > 1:
                    self.warnings.append(f"{where}: quote {q!r} occurs {text.count(q)} times in the file")
            start = text.find(first, pos)
            if start < 0:
                self.problem(f"{where}: first words {first!r} not found after position {pos}")
                continue
            end = text.find(last, start)
            if end < 0:
                self.problem(f"{where}: last words {last!r} not found after the first words")
                continue
            end += len(last)
            out[start:end] = [episode] * (end - start)
            pos = end
        return out

    def catalogues(self) -> None:
        sigla: dict[str, str] = {}
        for folder in (SEEDS, *(s / "witnesses" for s in CHECKED)):
            files = sorted(p.name for p in folder.glob("*.txt"))
            cat = yaml.safe_load(read(folder / "catalogue.yaml")) or {}
            entries = cat.get("witnesses", []) if isinstance(cat, dict) else []
            for e in entries:
                if folder != SEEDS and set(e) - CATALOGUE_KEYS:
                    self.problem(f"{folder}: unknown key(s) {sorted(set(e) - CATALOGUE_KEYS)} in {e.get('file')}")
                if e.get("file") not in files:
                    self.problem(f"{folder}: {e.get('file')!r} is not a .txt file there")
                s = e.get("siglum")
                if s in sigla:
                    self.problem(f"siglum {s!r} used by {sigla[s]} and {e.get('file')}")
                sigla[s] = e.get("file")
            uncatalogued = sorted(set(files) - {e.get("file") for e in entries})
            if uncatalogued and folder != SEEDS:
                self.problem(f"{folder}: no catalogue entry for {uncatalogued}")
            for f in files:
                self.texts[f] = read(folder / f)
                if folder != SEEDS:
                    self.home[f] = folder.parent
        kinds = yaml.safe_load(read(DEV / "kinds.yaml")) or {}
        development = sorted(f for f, home in self.home.items() if home in SETS)
        if sorted(kinds) != development:
            self.problem(f"kinds.yaml covers {sorted(kinds)}, the development witnesses are {development}")

    def episodes(self) -> None:
        seed_gold = yaml.safe_load(read(ROOT / "tests" / "gold" / "episodes.yaml")) or {}
        for f, ranges in seed_gold.items():
            self.labels[f] = self.ranges(self.texts[f], ranges, f"seeds/{f}", strict=False)
        for s in CHECKED:
            gold = yaml.safe_load(read(s / "gold" / "episodes.yaml")) or {}
            files = sorted(f for f, home in self.home.items() if home == s)
            if sorted(gold) != files:
                self.problem(f"{s}/gold/episodes.yaml covers {sorted(gold)}, the witnesses are {files}")
            for f in files:
                self.labels[f] = self.ranges(self.texts[f], gold.get(f) or [], f, strict=True)

    def rows(self, s: Path) -> int:
        rows = yaml.safe_load(read(s / "gold" / "rows.yaml")) or []
        for g, group in enumerate(rows, 1):
            where = f"{s.name}/gold/rows.yaml group {g}"
            if not isinstance(group, list) or len(group) < 2:
                self.problem(f"{where}: needs a list of at least two entries")
                continue
            seen, episodes = set(), set()
            for item in group:
                if not (isinstance(item, dict) and set(item) == {"file", "words"}):
                    self.problem(f"{where}: entry {item!r} is not {{file, words}}")
                    continue
                f, w = item["file"], item["words"]
                if f in seen:
                    self.problem(f"{where}: two entries from {f}")
                seen.add(f)
                if f not in self.labels:
                    self.problem(f"{where}: unknown file {f!r}")
                    continue
                c = self.texts[f].count(w)
                if c != 1:
                    self.problem(f"{where}: {w!r} occurs {c} times in {f} (must be exactly once)")
                    continue
                i = self.texts[f].index(w)
                lab = self.labels[f][i : i + len(w)]
                if len(set(lab)) != 1 or lab[0] is None:
                    self.problem(f"{where}: {w!r} in {f} is not wholly inside one gold range")
                else:
                    episodes.add(lab[0])
            if len(episodes) > 1:
                self.problem(f"{where}: entries lie in different episodes {sorted(episodes)}")
        return len(rows)

    def facts(self, s: Path) -> int:
        path = s / "gold" / "facts.yaml"
        facts = yaml.safe_load(read(path)) if path.exists() else {}
        n = 0
        for episode, items in (facts or {}).items():
            if episode not in EPISODES:
                self.problem(f"{path}: unknown episode {episode!r}")
                continue
            for item in items or []:
                n += 1
                name = item.get("fact")
                if not name or item.get("kind") not in FACT_KINDS:
                    self.problem(f"{path} {episode}: fact {name!r} lacks a label or a known kind")
                for f, r in (item.get("readings") or {}).items():
                    where = f"{path} {episode}/{name}/{f}"
                    if self.home.get(f) != s:
                        self.problem(f"{where}: not a witness of this set")
                        continue
                    if not isinstance(r, dict) or not isinstance(r.get("text"), str) or set(r) - {"text", "named"}:
                        self.problem(f"{where}: reading {r!r} is not {{text, named}}")
                        continue
                    t, w, lab = self.texts[f], r["text"], self.labels[f]
                    if not any(t.startswith(w, i) and set(lab[i : i + len(w)]) == {episode} for i in range(len(t))):
                        self.problem(f"{where}: {w!r} not found inside a {episode} range")
        return n


def check() -> Check:
    c = Check()
    c.catalogues()
    c.episodes()
    for s in CHECKED:
        c.rows(s)
        c.facts(s)
    return c


def main() -> int:
    c = check()
    for s in CHECKED:
        files = sorted(f for f, home in c.home.items() if home == s)
        print(f"{s.relative_to(ROOT)}: {len(files)} witnesses")
        for f in files:
            t, lab = c.texts[f], c.labels[f]
            counts: dict[str, int] = {}
            for i, ch in enumerate(t):
                if not ch.isspace():
                    counts[str(lab[i])] = counts.get(str(lab[i]), 0) + 1
            print(f"  {f}: {len(t)} chars; by label: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    for w in c.warnings:
        print(f"warning: {w}")
    for p in c.problems:
        print(f"PROBLEM: {p}")
    print("OK" if not c.problems else f"{len(c.problems)} problem(s)")
    return 1 if c.problems else 0


if __name__ == "__main__":
    sys.exit(main())
