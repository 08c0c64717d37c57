"""Choose the episode-assignment parameters on the seeds and the development set together.

``python -m tests.tune [name=v1,v2,… …]`` runs the assignment stage alone (tokens and segments made once)
for every combination of the values given, and prints, for each, the mean and the least episode agreement
on the seeds and on the development set (tests/dev), best first. Without arguments it scores the defaults.
"""

from __future__ import annotations

import dataclasses
import itertools
import sys
from pathlib import Path

from edition.engine.assign import assign
from edition.engine.load import load_witnesses
from edition.engine.normalise import Normaliser
from edition.engine.resources import data_folders, load_resources
from edition.engine.segment import segment
from tests.gold import DEV_GOLD, DEV_WITNESSES, GOLD, ROOT, SEEDS, gold_labels


def corpus(folder: Path, gold: Path, params):
    resources = load_resources(data_folders(folder, ROOT))
    witnesses = load_witnesses(folder, [])
    norm = Normaliser(resources.variants)
    tokens = {w.siglum: norm.tokenise(w) for w in witnesses}
    truth = {}
    for w in witnesses:
        labels = gold_labels(w.meta.file, w.text, gold)
        truth[w.siglum] = (labels, [i for i, c in enumerate(w.text) if not c.isspace()])
    return resources, norm, tokens, truth, witnesses


def score(data, params) -> dict[str, float]:
    resources, norm, tokens, truth, witnesses = data
    segments = segment(tokens, params)
    labels = assign(
        segments, resources.episodes + resources.context, norm, params, tuple(resources.register.names(norm, "person"))
    )
    out = {}
    for w in witnesses:
        mine: list[str | None] = [None] * len(w.text)
        for seg, lab in zip(segments[w.siglum], labels[w.siglum], strict=True):
            mine[seg.start : seg.end] = [lab] * (seg.end - seg.start)
        gold, idx = truth[w.siglum]
        out[w.siglum] = sum(gold[i] == mine[i] for i in idx) / len(idx)
    return out


def main(argv: list[str]) -> None:
    base = load_resources(data_folders(SEEDS, ROOT)).params
    grid = {}
    for arg in argv:
        name, values = arg.split("=")
        kind = type(getattr(base, name))
        grid[name] = [kind(v) for v in values.split(",")]
    seeds = corpus(SEEDS, GOLD, base)
    dev = corpus(DEV_WITNESSES, DEV_GOLD / "episodes.yaml", base)
    results = []
    for combo in itertools.product(*grid.values()):
        params = dataclasses.replace(base, **dict(zip(grid, combo, strict=True)))
        s, d = score(seeds, params), score(dev, params)
        results.append((combo, s, d))
    results.sort(key=lambda r: -(sum(r[1].values()) / len(r[1]) + sum(r[2].values()) / len(r[2])))
    for combo, s, d in results:
        name = " ".join(f"{k}={v}" for k, v in zip(grid, combo, strict=True)) or "defaults"
        print(
            f"{name:<60} seeds mean {sum(s.values()) / len(s):.3f} min {min(s.values()):.3f}"
            f" | dev mean {sum(d.values()) / len(d):.3f} min {min(d.values()):.3f}"
        )
        print("    " + " ".join(f"{k} {v:.2f}" for k, v in {**s, **d}.items()))


if __name__ == "__main__":
    main(sys.argv[1:])
