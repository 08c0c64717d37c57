"""Measure the unseen sets: witnesses of kinds the engine was never tuned on, each added to the seeds alone.

``python -m tests.measure_unseen [SET …]`` (default: every folder of ``tests/unseen``). A set is a folder with
``witnesses/`` (texts and a catalogue) and ``gold/`` (``episodes.yaml``, ``rows.yaml``, ``facts.yaml``), written
with the text by a writer who never saw the engine's output (``tests/unseen/README.md``). These sets are kept
out of ``tests/dev/kinds.yaml`` and out of every tuning (``tests.tune``): their figures are what a witness of a
kind never seen gets, and stop being that once anything is chosen by them.

Printed, machine alone (no editor's file): episode agreement and per-episode recall and precision; the gold row
pairs of the set (its witness beside the seeds) that share a row; the seeds' own gold pairs kept; the set's key
facts that a fact note quotes beside another witness (the ``tests.kinds.facts_stated`` rule), the missed ones
listed; the stretches labelled otherwise than the gold; and every fact note quoting the set's witness, to read.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from tests.dev.check_gold import UNSEEN_SETS
from tests.gold import SEEDS_GOLD, agreement, gold_labels, labels_by_char, row_pairs
from tests.kinds import edition_folder, facts_gold, merged_gold, quoted
from tests.support import build_folder


def report(sets: list[Path]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folders = [s / "witnesses" for s in sets]
        files = [p.name for folder in folders for p in folder.glob("*.txt")]
        ed = build_folder(edition_folder(Path(tmp) / "w", files, folders=folders))
        episodes, rows = merged_gold(Path(tmp), sets)
        facts = facts_gold(sets)
        mine = {w.siglum: w for w in ed.witnesses if w.meta.file in files}
        per_witness, per_episode = agreement(ed, episodes)
        print("episodes:", ", ".join(f"{s} {per_witness[s]:.3f}" for s in sorted(mine)))
        for (s, e), (recall, precision) in sorted(per_episode.items()):
            if s in mine:
                print(f"  {s} {e:<15} recall {recall:.2f} precision {precision:.2f}")
        same, total, _ = row_pairs(ed, rows, involving=set(mine))
        kept = row_pairs(ed, SEEDS_GOLD / "rows.yaml")
        print(f"moments: {same}/{total} gold pairs with the set's witnesses in one row; seeds' own {kept[0]}/{kept[1]}")
        stated, missed = 0, []
        by_file = {w.meta.file: w for w in mine.values()}
        for episode, found in facts.items():
            notes = [n for n in ed.notes if n.type == "fact" and n.episode == episode]
            for fact in found:
                for file, reading in (fact.get("readings") or {}).items():
                    w, words = by_file[file], str(reading["text"])
                    if quoted(notes, w, words):
                        stated += 1
                    else:
                        missed.append(f"{w.siglum} {episode} {fact['fact']} {words}")
        print(f"key facts: {stated}/{stated + len(missed)} quoted in a fact note beside another witness")
        for m in missed:
            print("  missed", m)
        for s, w in sorted(mine.items()):
            gold, machine = gold_labels(w.meta.file, w.text, episodes), labels_by_char(ed, s, len(w.text))
            i = 0
            while i < len(w.text):
                j = i
                while j < len(w.text) and gold[j] == gold[i] and machine[j] == machine[i]:
                    j += 1
                if j - i >= 6 and gold[i] != machine[i]:
                    print(f"  {s} {i}-{j} gold {gold[i]} machine {machine[i]}: {w.text[i:j][:40]!r}")
                i = j
        for n in ed.notes:
            if n.type == "fact" and any(s in r.spans for r in n.readings for s in mine):
                print("note:", n.episode, n.text)


if __name__ == "__main__":
    chosen = [Path(a) for a in sys.argv[1:]] or list(UNSEEN_SETS)
    for one in chosen:
        print(f"== {one.name}")
        report([one])
