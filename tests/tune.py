"""Choose the engine's parameters by leaving one kind out.

``python -m tests.tune [name=v1,v2,… …]`` scores every combination of the values given (the defaults where none
is given) on each kind of the development set -- the seeds plus that kind's witnesses, as an editor would add
them (tests/kinds.py) -- and on the seeds alone. For each kind it then picks the combination that does best on
all the *other* kinds and prints how that choice does on the kind left out: the figure a witness of a kind
never seen would get. A value that raises the seeds and lowers a held-out kind is not one to take.

A last corpus, ``all``, holds the seeds and every development witness together, scored on all of them: a value
that helps each kind alone may still undo the others when many witnesses are added at once.

The score is the episode agreement of the kind's witnesses (the assignment stage alone, tokens made once);
with ``--rows`` it is the share of gold row pairs touching the kind's witnesses that share a row (whole builds);
with ``--rows-balanced``, that share's harmonic mean with the share of the pairs of cells the rows join that tell
one moment by the gold groups (``tests.gold.row_precision``): the first alone rewards joining everything.
"""

from __future__ import annotations

import dataclasses
import itertools
import sys
import tempfile
from pathlib import Path

from edition.engine.assign import assign
from edition.engine.families import families
from edition.engine.load import load_witnesses
from edition.engine.normalise import Normaliser
from edition.engine.params import Params
from edition.engine.pipeline import build
from edition.engine.resources import data_folders, load_resources
from edition.engine.segment import definition_keys, segment
from tests.gold import GOLD, ROOT, SEEDS, SEEDS_GOLD, gold_labels, row_pairs, row_precision
from tests.kinds import edition_folder, kinds, merged_gold

SEEDS_KIND = "seeds"


@dataclasses.dataclass
class Corpus:
    """One kind's edition, read once: its resources, tokens, and the gold of the witnesses it is scored on."""

    folder: Path
    resources: object
    norm: Normaliser
    witnesses: tuple
    tokens: dict
    truth: dict  # siglum -> (gold label per character, indices of non-space characters)


def corpus(folder: Path, scored: set[str], episodes_gold: Path) -> Corpus:
    resources = load_resources(data_folders(folder, ROOT), None, False)
    witnesses = load_witnesses(folder, [])
    norm = Normaliser(resources.variants)
    tokens = {w.siglum: norm.tokenise(w) for w in witnesses}
    truth = {}
    for w in witnesses:
        if w.meta.file in scored:
            gold = GOLD if (SEEDS / w.meta.file).exists() else episodes_gold
            truth[w.siglum] = (
                gold_labels(w.meta.file, w.text, gold),
                [i for i, c in enumerate(w.text) if not c.isspace()],
            )
    return Corpus(folder, resources, norm, witnesses, tokens, truth)


def episodes_score(c: Corpus, params: Params) -> float:
    """Mean episode agreement of the scored witnesses, with ``params``."""
    segments = segment(c.tokens, params, definition_keys(c.resources.episodes + c.resources.context, c.norm, params))
    family = {s: f.id for f in families(c.witnesses, c.tokens, params.copy) for s in f.members}
    persons = tuple(c.resources.register.names(c.norm, "person"))
    labels = assign(segments, c.resources.episodes + c.resources.context, c.norm, params, family, persons)
    shares = []
    for w in c.witnesses:
        if w.siglum not in c.truth:
            continue
        mine: list[str | None] = [None] * len(w.text)
        for seg, lab in zip(segments[w.siglum], labels[w.siglum], strict=True):
            mine[seg.start : seg.end] = [lab] * (seg.end - seg.start)
        gold, idx = c.truth[w.siglum]
        shares.append(sum(gold[i] == mine[i] for i in idx) / len(idx))
    return sum(shares) / len(shares)


def rows_score(c: Corpus, params: Params, rows_gold: Path, balanced: bool = False) -> float:
    """Share of the gold row pairs touching the scored witnesses that share a row, with ``params``; ``balanced``:
    its harmonic mean with the share of the pairs of cells the rows join that the gold groups say tell one
    moment (``row_precision``): a value that joins less, and less wrongly, is weighed too."""
    resources = dataclasses.replace(c.resources, params=params)
    edition = build(c.folder, resources)
    scored = set(c.truth)
    rows = (
        SEEDS_GOLD / "rows.yaml"
        if scored <= {w.siglum for w in c.witnesses if (SEEDS / w.meta.file).exists()}
        else rows_gold
    )
    same, total, _ = row_pairs(edition, rows, involving=scored)
    recall = same / max(1, total)
    if not balanced:
        return recall
    true, joined = row_precision(edition, rows, involving=scored)
    precision = true / max(1, joined)
    return 2 * precision * recall / max(1e-9, precision + recall)


def main(argv: list[str]) -> None:
    balanced = "--rows-balanced" in argv
    by_rows = "--rows" in argv or balanced
    base = Params()
    grid = {}
    for arg in (a for a in argv if not a.startswith("--")):
        name, values = arg.split("=")
        kind = type(getattr(base, name))
        grid[name] = [kind(v) for v in values.split(",")]
    combos = [dict(zip(grid, combo, strict=True)) for combo in itertools.product(*grid.values())]
    with tempfile.TemporaryDirectory() as tmp:
        episodes_gold, rows_gold = merged_gold(Path(tmp))
        corpora = {SEEDS_KIND: corpus(SEEDS, {p.name for p in SEEDS.glob("*.txt")}, episodes_gold)}
        groups = kinds()
        for kind, files in groups.items():
            corpora[kind] = corpus(edition_folder(Path(tmp) / kind, files), set(files), episodes_gold)
        # every kind at once beside the seeds: what adding witnesses does to the others (scored on all of them)
        every = [f for files in groups.values() for f in files]
        seeds = {p.name for p in SEEDS.glob("*.txt")}
        corpora["all"] = corpus(edition_folder(Path(tmp) / "all", every), set(every) | seeds, episodes_gold)
        scores: dict[str, list[float]] = {}
        for kind, c in corpora.items():
            scores[kind] = [
                rows_score(c, dataclasses.replace(base, **combo), rows_gold, balanced)
                if by_rows
                else episodes_score(c, dataclasses.replace(base, **combo))
                for combo in combos
            ]
    name = lambda combo: " ".join(f"{k}={v}" for k, v in combo.items()) or "defaults"  # noqa: E731
    default = next((i for i, combo in enumerate(combos) if all(getattr(base, k) == v for k, v in combo.items())), None)
    print(f"{'held out':<13} {'chosen on the others':<40} held-out score (defaults)")
    for kind in corpora:
        others = [k for k in corpora if k != kind]
        # a tie on the other kinds is no evidence against the value in use: the default wins it, then the first
        best = max(
            range(len(combos)), key=lambda i: (sum(scores[k][i] for k in others) / len(others), i == default, -i)
        )
        at_default = f"{scores[kind][default]:.3f}" if default is not None else "-"
        print(f"{kind:<13} {name(combos[best]):<40} {scores[kind][best]:.3f} ({at_default})")
    print("every combination, mean over all kinds:")
    for i in sorted(range(len(combos)), key=lambda i: -sum(s[i] for s in scores.values())):
        print(f"  {name(combos[i]):<40} " + " ".join(f"{k} {scores[k][i]:.3f}" for k in corpora))


if __name__ == "__main__":
    main(sys.argv[1:])
