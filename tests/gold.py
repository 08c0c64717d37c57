"""The gold annotations, read by people (tests/gold for the seeds, tests/dev/gold for the development set),
and the figures the engine is measured by: episode agreement per witness, precision and recall per episode,
and gold row pairs that share a row.

``python -m tests.gold`` prints them all, always without the editor's file (seeds/editorial.yaml).
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections import Counter
from itertools import combinations
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "seeds"
SEEDS_GOLD = Path(__file__).parent / "gold"
DEV = Path(__file__).parent / "dev"
DEV_WITNESSES = DEV / "witnesses"
DEV_GOLD = DEV / "gold"
GOLD = SEEDS_GOLD / "episodes.yaml"


def _ranges(gold: Path) -> dict:
    return yaml.safe_load(gold.read_text(encoding="utf-8"))


def gold_labels(file: str, text: str, gold: Path = GOLD) -> list[str | None]:
    """The gold episode id of every character of ``text`` (None outside every range)."""
    labels: list[str | None] = [None] * len(text)
    pos = 0
    for episode, first, last in _ranges(gold)[file]:
        start = text.index(first, pos)
        end = text.index(last, start) + len(last)
        labels[start:end] = [episode] * (end - start)
        pos = end
    return labels


def gold_files(gold: Path = GOLD) -> list[str]:
    return sorted(_ranges(gold))


def labels_by_char(edition, siglum: str, length: int) -> list[str | None]:
    """The engine's episode id of every character of one witness."""
    out: list[str | None] = [None] * length
    for seg, label in zip(edition.segments[siglum], edition.assignment[siglum], strict=True):
        out[seg.start : seg.end] = [label] * (seg.end - seg.start)
    return out


def agreement(edition, gold: Path = GOLD) -> tuple[dict[str, float], dict[tuple[str, str], tuple[float, float]]]:
    """Per witness the gold annotates: share of non-space characters labelled as the gold labels them.
    Per (witness, episode): recall and precision of the engine's characters against the gold's."""
    annotated = set(_ranges(gold))
    per_witness: dict[str, float] = {}
    hits: Counter = Counter()
    gold_n: Counter = Counter()
    mine_n: Counter = Counter()
    for w in edition.witnesses:
        if w.meta.file not in annotated:
            continue
        truth = gold_labels(w.meta.file, w.text, gold)
        mine = labels_by_char(edition, w.siglum, len(w.text))
        idx = [i for i, c in enumerate(w.text) if not c.isspace()]
        per_witness[w.siglum] = sum(truth[i] == mine[i] for i in idx) / len(idx)
        for i in idx:
            gold_n[(w.siglum, truth[i])] += 1
            mine_n[(w.siglum, mine[i])] += 1
            hits[(w.siglum, truth[i])] += truth[i] == mine[i]
    keys = {k for k in (*gold_n, *mine_n) if k[1] is not None}
    per_episode = {
        k: (hits[k] / gold_n[k] if gold_n[k] else 1.0, hits[k] / mine_n[k] if mine_n[k] else 1.0) for k in keys
    }
    return per_witness, per_episode


def _locate(edition, by_file: dict, entry) -> tuple[str, int, str] | None:
    """Where a gold group's entry is: (siglum, offset, words); an entry is ``{file, words}`` or, in the seeds' older
    file, the words alone (found in the one witness that has them, copies aside)."""
    if isinstance(entry, dict):
        w = by_file.get(entry["file"])
        words = entry["words"]
    else:
        words = entry
        w = next((x for x in edition.witnesses if words in x.text), None)
    if w is None:
        return None
    return w.siglum, w.text.index(words), words


def row_pairs(edition, rows: Path, involving: set[str] | None = None) -> tuple[int, int, list[tuple[str, str]]]:
    """Gold row groups: (pairs sharing a row, pairs whose two segments are in one episode, the misses). A pair
    two groups both hold (the development sets copy the groups of the sets before them) is counted once.

    A cell that spans several rows is in each of them. A group entry is ``{file, words}`` or, in the seeds'
    older file, the words alone (found in the one witness that has them, copies aside). A pair counts when
    the engine put both in the same episode (and, with ``involving``, when one of the two is of those sigla)."""
    by_file = {w.meta.file: w for w in edition.witnesses}
    where: dict[tuple[str, int], tuple[str, set[str]]] = {}  # (siglum, offset) -> (episode, rows its cell covers)
    for ep in edition.episodes:
        for k, row in enumerate(ep.rows):
            for siglum, segs in row.cells.items():
                covers = {r.id for r in ep.rows[k : k + row.span.get(siglum, 1)]}
                for seg in segs:
                    for i in range(seg.start, seg.end):
                        where[(siglum, i)] = (ep.episode.id, covers)

    same = total = 0
    misses = []
    seen: set[tuple[tuple[str, int], tuple[str, int]]] = set()  # a pair that several groups repeat counts once
    for group in yaml.safe_load(rows.read_text(encoding="utf-8")):
        found = [x for x in (_locate(edition, by_file, entry) for entry in group) if x]
        for (sa, ia, wa), (sb, ib, wb) in combinations(found, 2):
            if involving is not None and not {sa, sb} & involving:
                continue
            pair = tuple(sorted([(sa, ia), (sb, ib)]))
            if pair in seen:
                continue
            seen.add(pair)
            ra, rb = where.get((sa, ia)), where.get((sb, ib))
            if ra and rb and ra[0] == rb[0]:
                total += 1
                shared = bool(ra[1] & rb[1])
                same += shared
                if not shared:
                    misses.append((f"{sa}:{wa}", f"{sb}:{wb}"))
    return same, total, misses


def row_precision(edition, rows: Path, involving: set[str] | None = None) -> tuple[int, int]:
    """How many of the pairs of cells the edition puts in one row tell one moment, as far as the gold row groups
    tell: (pairs of cells of two families in one row, each holding words of some gold group, that share a group;
    all such pairs). ``row_pairs`` counts what the rows join that should be joined; this counts what they join
    that should not, which ``row_pairs`` never sees (a row of everything scores every pair). With ``involving``,
    only the pairs with a cell of those sigla."""
    by_file = {w.meta.file: w for w in edition.witnesses}
    held: dict[str, list[tuple[int, int, int]]] = {}  # siglum -> (start, end, group) of gold words
    for g, group in enumerate(yaml.safe_load(rows.read_text(encoding="utf-8"))):
        for siglum, at, words in (x for x in (_locate(edition, by_file, entry) for entry in group) if x):
            held.setdefault(siglum, []).append((at, at + len(words), g))
    family = {s: f.id for f in edition.families for s in f.members}
    true = total = 0
    for ep in edition.episodes:
        for row in ep.rows:
            groups = {}
            for s, segs in row.cells.items():
                lo, hi = segs[0].start, segs[-1].end
                groups[s] = {g for a, b, g in held.get(s, ()) if a < hi and b > lo}
            for (s, a), (t, b) in combinations(groups.items(), 2):
                if family[s] == family[t] or not a or not b:
                    continue
                if involving is not None and not {s, t} & involving:
                    continue
                total += 1
                true += bool(a & b)
    return true, total


def fact_stated(edition, episode: str, fact: dict) -> str:
    """How the machine states one gold key fact (tests/gold/facts.yaml): "whole" when one fact note of the
    episode quotes every witness the gold lists (the words it quotes hold or end one of the names the gold lists,
    where the witness writes it: 缣 of 良缣, not 李世 of 李世民), "partial" when one quotes two or more of them,
    else "missing"."""
    texts = {w.siglum: w.text for w in edition.witnesses}
    gold = {s: r["text"] for s, r in fact["readings"].items() if s in texts}
    best = 0
    for note in edition.notes:  # the machine's fact notes, and the editor's facts (an editor's note with readings)
        if note.type not in ("fact", "editor") or note.episode != episode:
            continue
        quoted = {
            s for r in note.readings for s, (a, b) in r.spans.items() if s in gold and _ends(texts[s], a, b, gold[s])
        }
        best = max(best, len(quoted))
    return "whole" if best == len(gold) else "partial" if best >= 2 else "missing"


def _ends(text: str, a: int, b: int, gold: str) -> bool:
    """Whether the words ``text[a:b]`` a note quotes hold, or end, one of the gold's names where the witness
    writes it: 縑 or 縑一百匹 for 縑, 缣 or 缣百匹 for 良缣 -- not 李世 for 李世民."""
    for name in re.split("[、和]", gold):
        at = text.find(name)
        while at >= 0:
            if a < at + len(name) <= b:
                return True
            at = text.find(name, at + 1)
    return False


def combined_folder(dest: Path) -> Path:
    """The seeds and the development witnesses in one folder, with both catalogues (for the mixed row gold)."""
    dest.mkdir(parents=True, exist_ok=True)
    entries = []
    for folder in (SEEDS, DEV_WITNESSES):
        for p in folder.glob("*.txt"):
            shutil.copyfile(p, dest / p.name)
        entries += yaml.safe_load((folder / "catalogue.yaml").read_text(encoding="utf-8"))["witnesses"]
    (dest / "catalogue.yaml").write_text(yaml.safe_dump({"witnesses": entries}, allow_unicode=True), "utf-8")
    return dest


def report(title: str, edition, gold: Path) -> None:
    witness_share, episode_share = agreement(edition, gold)
    print(f"{title}: episode agreement with gold (share of non-space characters)")
    print("  " + "  ".join(f"{s} {v:.3f}" for s, v in witness_share.items()))
    print("  per witness and episode, recall / precision:")
    for (s, e), (r, p) in sorted(episode_share.items()):
        print(f"    {s} {e:<15} {r:.2f} / {p:.2f}")


def report_kinds() -> None:
    """Each kind of the development set in the edition it makes with the seeds, then all of them together."""
    from tests.kinds import edition_folder, kinds, measure, merged_gold
    from tests.support import build_folder

    groups = kinds()
    alone = row_pairs(build_folder(SEEDS), SEEDS_GOLD / "rows.yaml")
    print(f"by kind (the seeds plus that kind's development witnesses; seeds alone: {alone[0]}/{alone[1]} moments)")
    print(f"  {'kind':<13} {'episodes (per witness)':<44} {'moments':>10} {'seeds moments':>14} {'facts':>8}")
    joined = (0, 0)
    for kind, files in [*groups.items(), ("ALL", [f for fs in groups.values() for f in fs])]:
        with tempfile.TemporaryDirectory() as tmp:
            ed = build_folder(edition_folder(Path(tmp) / "w", files))
            fig = measure(ed, set(files), Path(tmp))
            if kind == "ALL":
                joined = row_precision(ed, merged_gold(Path(tmp))[1])
        eps = " ".join(f"{s} {v:.2f}" for s, v in fig.episodes.items())
        mean = sum(fig.episodes.values()) / max(1, len(fig.episodes))
        m, sm, f = fig.moments, fig.seeds_moments, fig.facts
        print(
            f"  {kind:<13} {mean:.3f} ({eps})"[:60].ljust(60)
            + f" {m[0]:>4}/{m[1]:<4} {sm[0]:>6}/{sm[1]:<4} {f[0]:>3}/{f[1]:<3}"
        )
    print(
        f"ALL: of the pairs of cells of two families a row joins, both in gold groups, {joined[0]}/{joined[1]}"
        " share one"
    )
    # stable under addition: each development witness added to the seeds alone, the seeds' own moments kept
    each = {}
    for file in (f for files in groups.values() for f in files):
        with tempfile.TemporaryDirectory() as tmp:
            each[file] = row_pairs(build_folder(edition_folder(Path(tmp) / "w", [file])), SEEDS_GOLD / "rows.yaml")[0]
    worst = min(each, key=lambda f: (each[f], f))
    kept = sum(1 for n in each.values() if n >= alone[0])
    print(
        f"the seeds' moments with each development witness added alone: mean {sum(each.values()) / len(each):.1f},"
        f" worst {each[worst]} ({worst}), {kept} of {len(each)} keep all {alone[0]} (of {alone[1]})"
    )


if __name__ == "__main__":  # python -m tests.gold: the figures for a closing note
    import sys

    from tests.support import build_folder

    if "--kinds" in sys.argv:
        report_kinds()
        raise SystemExit

    seeds = build_folder(SEEDS)
    report("seeds", seeds, GOLD)
    same, total, _ = row_pairs(seeds, SEEDS_GOLD / "rows.yaml")
    print(f"seeds: {same} of {total} gold row pairs share a row")
    dev = build_folder(DEV_WITNESSES)
    report("development set (alone)", dev, DEV_GOLD / "episodes.yaml")
    with tempfile.TemporaryDirectory() as tmp:
        both = build_folder(combined_folder(Path(tmp)))
        same, total, misses = row_pairs(both, DEV_GOLD / "rows.yaml")
        print(f"seeds + development set: {same} of {total} gold row pairs share a row")
    for ep in seeds.episodes:
        classes = Counter(n.cls for n in seeds.notes if n.episode == ep.episode.id)
        print(f"{ep.episode.title}: {len(ep.rows)} rows, {sum(classes.values())} notes {dict(sorted(classes.items()))}")
    facts = yaml.safe_load((SEEDS_GOLD / "facts.yaml").read_text(encoding="utf-8"))
    said = {ep: [(f["fact"], fact_stated(seeds, ep, f)) for f in fs] for ep, fs in facts.items()}
    count = Counter(how for fs in said.values() for _, how in fs)
    print(
        f"key facts (tests/gold/facts.yaml) stated in one note: {count['whole']} whole, {count['partial']} partly,"
        f" {count['missing']} not, of {sum(count.values())}"
    )
    for ep, fs in said.items():
        print(f"  {ep}: " + "  ".join(f"{name} {how}" for name, how in fs))
    edited = build_folder(SEEDS, editorial=True)  # the editor's file: its facts state what the machine cannot
    count = Counter(fact_stated(edited, ep, f) for ep, fs in facts.items() for f in fs)
    notes = [n for n in edited.notes if n.type == "editor"]
    print(
        f"  with the editor's file: {count['whole']} whole, {count['partial']} partly (fact notes and the editor's"
        f" facts); the file adds {len(notes)} editor's notes, {sum(1 for n in notes if n.readings)} of them facts"
    )
    outside = Counter(n.cls for n in seeds.notes if n.episode is None)
    print(f"outside the episodes: {sum(outside.values())} notes {dict(sorted(outside.items()))}")
