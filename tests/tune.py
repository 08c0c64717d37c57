"""Choose the engine's parameters on the seeds and the development set together.

``python -m tests.tune [name=v1,v2,… …]`` runs the assignment stage alone (tokens and segments made once)
for every combination of the values given, and prints, for each, the mean and the least episode agreement
on the seeds and on the development set (tests/dev), best first. Without arguments it scores the defaults.

``python -m tests.tune --rows [name=v1,v2,… …]`` builds the whole edition of the seeds, and of the seeds with
the development set, for each combination, and prints how many gold row pairs share a row in each.
"""

from __future__ import annotations

import dataclasses
import itertools
import sys
from pathlib import Path

from edition.engine.assign import assign
from edition.engine.families import families
from edition.engine.load import load_witnesses
from edition.engine.normalise import Normaliser
from edition.engine.resources import data_folders, load_resources
from edition.engine.segment import segment
from tests.gold import DEV_GOLD, DEV_WITNESSES, GOLD, ROOT, SEEDS, gold_labels


def corpus(folder: Path, gold: Path, params):
    resources = load_resources(data_folders(folder, ROOT), None, False)
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
        segments,
        resources.episodes + resources.context,
        norm,
        params,
        {s: f.id for f in families(witnesses, tokens, params.copy) for s in f.members},
        tuple(resources.register.names(norm, "person")),
    )
    out = {}
    for w in witnesses:
        mine: list[str | None] = [None] * len(w.text)
        for seg, lab in zip(segments[w.siglum], labels[w.siglum], strict=True):
            mine[seg.start : seg.end] = [lab] * (seg.end - seg.start)
        gold, idx = truth[w.siglum]
        out[w.siglum] = sum(gold[i] == mine[i] for i in idx) / len(idx)
    return out


def rows(grid: dict, base) -> None:
    import tempfile

    from edition.engine.pipeline import build
    from tests.gold import DEV_GOLD, SEEDS_GOLD, combined_folder, row_pairs

    with tempfile.TemporaryDirectory() as tmp:
        both = combined_folder(Path(tmp))
        for combo in itertools.product(*grid.values()):
            params = dataclasses.replace(base, **dict(zip(grid, combo, strict=True)))
            out = []
            for folder, gold in (
                (SEEDS, SEEDS_GOLD / "rows.yaml"),
                (DEV_WITNESSES, DEV_GOLD / "rows.yaml"),
                (both, DEV_GOLD / "rows.yaml"),
            ):
                resources = dataclasses.replace(load_resources(data_folders(folder, ROOT), None, False), params=params)
                same, total, _ = row_pairs(build(folder, resources), gold)
                out.append(f"{same}/{total} ({same / max(1, total):.2f})")
            name = " ".join(f"{k}={v}" for k, v in zip(grid, combo, strict=True)) or "defaults"
            print(f"{name:<40} seeds {out[0]}  dev {out[1]}  seeds+dev {out[2]}")


def main(argv: list[str]) -> None:
    base = load_resources(data_folders(SEEDS, ROOT), None, False).params
    grid = {}
    by_rows = "--rows" in argv
    argv = [a for a in argv if a != "--rows"]
    for arg in argv:
        name, values = arg.split("=")
        kind = type(getattr(base, name))
        grid[name] = [kind(v) for v in values.split(",")]
    if by_rows:
        return rows(grid, base)
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
