"""The development set of every kind, measured kind by kind as an editor would meet it.

An editor adds witnesses to the seeds: a chronicle, an annal, a 類書 entry, a novel, a modern retelling. Each
kind is measured in the edition it would make -- the seeds plus that kind's development witnesses -- and all of
them together. ``tests/dev/kinds.yaml`` names each development witness's kind. The witnesses come in sets, each
from one source or writer with its own ``witnesses/`` (and catalogue), ``gold/`` (made by reading, before any
run) and ``SOURCES.md``: ``tests/dev`` itself (six accounts of one tradition) and each folder under it that has
a ``witnesses/`` folder (``classical``, ``modern-a``, ``modern-b``).

The measures, always without the editor's file:
- episodes: per witness of the kind, the share of its non-space characters labelled as the gold labels them;
- moments: gold row pairs with a witness of the kind on one side that share a row (same moment, one row);
- seeds' moments: the seeds' own gold row pairs that share a row with the kind added (stable under addition);
- facts: the gold key facts of the kind's witnesses (``gold/facts.yaml``, readings by file) that one fact
  note of the episode quotes, beside another witness's reading.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import yaml

from tests.gold import DEV, SEEDS, SEEDS_GOLD, agreement, row_pairs

KINDS = DEV / "kinds.yaml"
SETS = (DEV, *sorted(p for p in DEV.iterdir() if (p / "witnesses").is_dir()))
FOLDERS = tuple(s / "witnesses" for s in SETS)


def _yaml(path: Path):
    return yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else None


def kinds() -> dict[str, list[str]]:
    """kind -> the development files of that kind, in file order."""
    out: dict[str, list[str]] = {}
    for file, kind in sorted((_yaml(KINDS) or {}).items()):
        out.setdefault(kind, []).append(file)
    return out


def edition_folder(dest: Path, files: Iterable[str], seeds: bool = True, folders: Iterable[Path] = FOLDERS) -> Path:
    """A folder of witnesses: the seeds (unless not asked) and ``files`` (of ``folders``), with their catalogue
    entries."""
    dest.mkdir(parents=True, exist_ok=True)
    files = list(files)
    entries = []
    sources = [(SEEDS, None)] if seeds else []
    sources += [(folder, {f for f in files if (folder / f).exists()}) for folder in folders]
    for folder, wanted in sources:
        for p in sorted(folder.glob("*.txt")):
            if wanted is None or p.name in wanted:
                shutil.copyfile(p, dest / p.name)
        catalogue = _yaml(folder / "catalogue.yaml") or {"witnesses": []}
        entries += [e for e in catalogue["witnesses"] if wanted is None or e["file"] in wanted]
    (dest / "catalogue.yaml").write_text(yaml.safe_dump({"witnesses": entries}, allow_unicode=True), "utf-8")
    return dest


def merged_gold(dest: Path, sets: Iterable[Path] = SETS) -> tuple[Path, Path]:
    """Every development witness's (or ``sets``') gold ranges in one file, and every gold row group in another."""
    sets = list(sets)
    ranges: dict = {}
    for s in sets:
        ranges.update(_yaml(s / "gold" / "episodes.yaml") or {})
    groups: list = []
    for s in sets:
        groups += _yaml(s / "gold" / "rows.yaml") or []
    episodes, rows = dest / "episodes.yaml", dest / "rows.yaml"
    episodes.write_text(yaml.safe_dump(ranges, allow_unicode=True), "utf-8")
    rows.write_text(yaml.safe_dump(groups, allow_unicode=True), "utf-8")
    return episodes, rows


@dataclass(frozen=True)
class Figures:
    episodes: dict[str, float]  # siglum -> agreement, for the witnesses measured
    moments: tuple[int, int]  # gold pairs touching them that share a row, of those in one episode
    seeds_moments: tuple[int, int]
    facts: tuple[int, int]  # gold readings stated in a fact note beside another witness's, of all
    misses: list[tuple[str, str]]


def facts_gold(sets: Iterable[Path] = SETS) -> dict[str, list]:
    """Every development witness's (or ``sets``') gold key facts, by episode."""
    gold: dict[str, list] = {}
    for s in sets:
        for episode, facts in (_yaml(s / "gold" / "facts.yaml") or {}).items():
            gold.setdefault(episode, []).extend(facts)
    return gold


def facts_stated(edition, files: set[str]) -> tuple[int, int]:
    """Gold key-fact readings of ``files`` that a fact note of the episode quotes beside another witness."""
    gold = facts_gold()
    by_file = {w.meta.file: w for w in edition.witnesses}
    stated = total = 0
    for episode, facts in gold.items():
        notes = [n for n in edition.notes if n.type == "fact" and n.episode == episode]
        for fact in facts:
            for file, reading in (fact.get("readings") or {}).items():
                if file not in files or file not in by_file:
                    continue
                total += 1
                stated += quoted(notes, by_file[file], str(reading["text"]))
    return stated, total


def quoted(notes, w, words: str) -> bool:
    """Whether one of ``notes`` quotes witness ``w``'s ``words`` (or a part of them) beside another witness."""
    for n in notes:
        spans = [r.spans[w.siglum] for r in n.readings if w.siglum in r.spans]
        beside = len({s for r in n.readings for s in r.spans}) > 1
        if beside and any(words in w.text[a:b] or w.text[a:b] in words for a, b in spans):
            return True
    return False


def measure(edition, files: set[str], gold_dir: Path, seeds_alone=None) -> Figures:
    """The figures of one edition for the development witnesses ``files`` in it."""
    episodes, rows = merged_gold(gold_dir)
    per_witness, _ = agreement(edition, episodes)
    sigla = {w.siglum for w in edition.witnesses if w.meta.file in files}
    same, total, misses = row_pairs(edition, rows, involving=sigla)
    seeds_same, seeds_total, _ = row_pairs(edition, SEEDS_GOLD / "rows.yaml")
    return Figures(
        episodes={s: v for s, v in per_witness.items() if s in sigla},
        moments=(same, total),
        seeds_moments=(seeds_same, seeds_total),
        facts=facts_stated(edition, files),
        misses=misses,
    )
