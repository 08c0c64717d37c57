"""The gold annotation of the seeds (tests/gold/episodes.yaml), as character labels."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import yaml

GOLD = Path(__file__).parent / "gold" / "episodes.yaml"


def gold_labels(file: str, text: str) -> list[str | None]:
    """The gold episode id of every character of ``text`` (None outside every range)."""
    ranges = yaml.safe_load(GOLD.read_text(encoding="utf-8"))[file]
    labels: list[str | None] = [None] * len(text)
    pos = 0
    for episode, first, last in ranges:
        start = text.index(first, pos)
        end = text.index(last, start) + len(last)
        labels[start:end] = [episode] * (end - start)
        pos = end
    return labels


def gold_files() -> list[str]:
    return sorted(yaml.safe_load(GOLD.read_text(encoding="utf-8")))


def labels_by_char(edition, siglum: str, length: int) -> list[str | None]:
    """The engine's episode id of every character of one witness."""
    out: list[str | None] = [None] * length
    for seg, label in zip(edition.segments[siglum], edition.assignment[siglum], strict=True):
        out[seg.start : seg.end] = [label] * (seg.end - seg.start)
    return out


def agreement(edition) -> tuple[dict[str, float], dict[tuple[str, str], tuple[float, float]]]:
    """Per witness: share of non-space characters labelled as the gold labels them.
    Per (witness, episode): recall and precision of the engine's characters against the gold's."""
    per_witness: dict[str, float] = {}
    hits: Counter = Counter()
    gold_n: Counter = Counter()
    mine_n: Counter = Counter()
    for w in edition.witnesses:
        gold = gold_labels(w.meta.file, w.text)
        mine = labels_by_char(edition, w.siglum, len(w.text))
        idx = [i for i, c in enumerate(w.text) if not c.isspace()]
        per_witness[w.siglum] = sum(gold[i] == mine[i] for i in idx) / len(idx)
        for i in idx:
            gold_n[(w.siglum, gold[i])] += 1
            mine_n[(w.siglum, mine[i])] += 1
            hits[(w.siglum, gold[i])] += gold[i] == mine[i]
    per_episode = {
        k: (hits[k] / gold_n[k], hits[k] / mine_n[k] if mine_n[k] else 0.0) for k in gold_n if k[1] is not None
    }
    return per_witness, per_episode


if __name__ == "__main__":  # python -m tests.gold: the figures for a closing note
    from tests.support import build_folder as build

    ed = build(Path(__file__).resolve().parents[1] / "seeds")
    witness_share, episode_share = agreement(ed)
    print("agreement with gold, share of non-space characters:")
    print("  " + "  ".join(f"{s} {v:.3f}" for s, v in witness_share.items()))
    print("per witness and episode (recall / precision):")
    for (s, e), (r, p) in sorted(episode_share.items()):
        print(f"  {s} {e:<15} {r:.2f} / {p:.2f}")
    for ep in ed.episodes:
        classes = Counter(n.cls for n in ep.notes)
        print(f"{ep.episode.title}: base {ep.base}, {len(ep.rows)} rows, {len(ep.notes)} notes {dict(classes)}")
