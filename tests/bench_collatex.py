"""Side by side with CollateX: 000 against 001, at 1k, 2k and 4k characters each and in full.

    .venv/bin/pip install collatex Levenshtein     # benchmark only; never a runtime dependency
    .venv/bin/python -m tests.bench_collatex [--sizes 1000,2000,4000] [--timeout 300] [--repeats 3]

Both tools get the same input: the first N characters of each witness text
(``full``: all of it). CollateX's Python package gets one token per
non-whitespace character (its default tokenizer would take a whole unspaced
Chinese clause as one token), compared as written. Each run is a fresh
subprocess: wall time and peak resident memory are the process's own. Times
are given with the imports and library start-up and without them.

Differences: CollateX's are its variant columns (consecutive ones merged);
ours are the notes of the export. A CollateX difference is *located* by us when
a note's lemma span (in 000) or reading span (in 001) touches it. CollateX
compares the whole texts; our engine notes only text inside an episode's rows,
so differences in text that belongs to no episode are counted apart.

Not collected by pytest: it measures, it does not test.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tests.benchmarks import child_json

ROOT = Path(__file__).resolve().parents[1]
FILES = ["000_f5ad1a405610c3bb.txt", "001_32476c0f85278ec0.txt"]
Span = tuple[int, int]  # [start, end) into a witness text


def texts(size: int) -> list[str]:
    """The two witness texts (as the engine decodes them), cut to ``size`` characters (0: whole)."""
    from edition.engine.load import load_witnesses

    witnesses = {w.meta.file: w.text for w in load_witnesses(ROOT / "seeds", [])}
    return [witnesses[f][:size] if size else witnesses[f] for f in FILES]


def run_collatex(a: str, b: str) -> list[tuple[Span, Span]]:
    """CollateX's differences: runs of variant columns, as (span in a, span in b)."""
    from collatex import Collation, collate

    collation = Collation()
    for sigil, text in (("A", a), ("B", b)):
        tokens = [{"t": ch, "n": ch, "o": i} for i, ch in enumerate(text) if not ch.isspace()]
        collation.add_witness({"id": sigil, "tokens": tokens})
    table = json.loads(collate(collation, output="json", segmentation=False))["table"]
    diffs: list[tuple[Span, Span]] = []
    run: list[tuple[list[dict], list[dict]]] = []
    pos = [0, 0]  # where the next token of each witness starts: the place of a zero-width reading
    for cell_a, cell_b in [*zip(*table, strict=True), (None, None)]:
        ta, tb = cell_a or [], cell_b or []
        if (ta or tb) and [t["t"] for t in ta] != [t["t"] for t in tb]:
            run.append((ta, tb))
            continue
        if run:
            spans = []
            for k in (0, 1):
                toks = [t for col in run for t in col[k]]
                spans.append((toks[0]["o"], toks[-1]["o"] + 1) if toks else (pos[k], pos[k]))
            diffs.append((spans[0], spans[1]))
            run = []
        for k, toks in enumerate((ta, tb)):
            if toks:
                pos[k] = toks[-1]["o"] + 1
    return diffs


def run_engine(a: str, b: str) -> dict:
    """Our engine on the same two texts: its notes, and which of 000's characters lie in episodes."""
    from edition.engine.export import to_dict
    from tests.support import build_folder as build

    with tempfile.TemporaryDirectory() as folder:
        for name, text in zip(FILES, (a, b), strict=True):
            Path(folder, name).write_text(text, encoding="utf-8")
        data = to_dict(build(Path(folder)))
    notes = []
    for note in data["notes"]:
        if note["type"] != "collation":
            continue
        spans = [r["spans"]["B"] for r in note["readings"] if "B" in r["spans"]]
        lemma = note["lemma"]
        notes.append(((lemma["start"], lemma["end"]), tuple(spans[0]) if spans else None, note["class"]))
    outside = {k: [(s["start"], s["end"]) for s in data["unassigned"].get(k, [])] for k in ("A", "B")}
    return {"notes": notes, "unassigned": outside}


def _overlap(x: Span, y: Span) -> bool:
    """Spans share a character, or (either being zero-width) touch."""
    if x[0] < x[1] and y[0] < y[1]:
        return x[0] < y[1] and y[0] < x[1]
    return x[0] <= y[1] and y[0] <= x[1]


def compare(cx: list[tuple[Span, Span]], ours: dict) -> dict[str, int]:
    """How many CollateX differences our notes locate, miss, or leave as text of no episode; our other notes."""
    notes = [(tuple(la), tuple(rb) if rb else None) for la, rb, _ in ours["notes"]]
    located = missed = outside = 0
    used: set[int] = set()
    for da, db in cx:
        hits = [i for i, (la, rb) in enumerate(notes) if _overlap(da, la) or (rb is not None and _overlap(db, rb))]
        if hits:
            located += 1
            used.update(hits)
        elif any(s <= da[0] and da[1] <= e for s, e in ours["unassigned"]["A"]) or any(
            s <= db[0] and db[1] <= e for s, e in ours["unassigned"]["B"]
        ):
            outside += 1
        else:
            missed += 1
    return {"located": located, "missed": missed, "no episode": outside, "extra": len(notes) - len(used)}


def child(tool: str, size: int) -> None:
    """One run in this fresh process: seconds including imports and library start-up, and without them."""
    a, b = texts(size)
    t0 = time.perf_counter()
    if tool == "collatex":
        import collatex  # noqa: F401
    else:
        import edition.engine.export
        import edition.engine.pipeline  # noqa: F401

    t1 = time.perf_counter()
    out = run_collatex(a, b) if tool == "collatex" else run_engine(a, b)
    t2 = time.perf_counter()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": t2 - t0, "work": t2 - t1, "peak_mb": peak, "out": out, "chars": [len(a), len(b)]}))


def run(tool: str, size: int, timeout: float) -> dict | None:
    return child_json([sys.executable, "-m", "tests.bench_collatex", "--child", tool, str(size)], timeout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,2000,4000,full", help="characters per witness; full: whole texts")
    parser.add_argument("--timeout", type=float, default=300, help="seconds before a CollateX run is abandoned")
    parser.add_argument("--repeats", type=int, default=3, help="runs of our engine per size (median)")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]))
        return
    head = ["size (chars each)", "CollateX s", "CollateX peak MB", "ours s", "ours s, libraries loaded"]
    head += ["ours peak MB", "speed-up", "speed-up, libraries loaded"]
    head += ["CollateX differences", "located by our notes", "missed", "in no episode", "our notes", "ours not in CX"]
    print("| " + " | ".join(head) + " |\n|" + "---|" * len(head))
    for size_name in args.sizes.split(","):
        size = 0 if size_name == "full" else int(size_name)
        cx = run("collatex", size, args.timeout)
        ours_runs = [r for r in (run("engine", size, args.timeout) for _ in range(args.repeats)) if r]
        ours = ours_runs[0]
        cells = [f"{size_name} ({ours['chars'][0]}/{ours['chars'][1]})"]
        ours_s = statistics.median(r["seconds"] for r in ours_runs)
        ours_work = statistics.median(r["work"] for r in ours_runs)
        ours_mb = statistics.median(r["peak_mb"] for r in ours_runs)
        if cx is None:
            cells += [f"> {args.timeout:.0f} (timeout)", "", f"{ours_s:.3f}", f"{ours_work:.3f}", f"{ours_mb:.0f}"]
            cells += [f"> {args.timeout / ours_s:.0f}×", f"> {args.timeout / ours_work:.0f}×", "", "", "", ""]
            cells += [str(len(ours["out"]["notes"])), ""]
        else:
            diffs = [(tuple(da), tuple(db)) for da, db in cx["out"]]
            c = compare(diffs, ours["out"])
            cells += [f"{cx['seconds']:.2f}", f"{cx['peak_mb']:.0f}", f"{ours_s:.3f}", f"{ours_work:.3f}"]
            cells += [f"{ours_mb:.0f}", f"{cx['seconds'] / ours_s:.0f}×", f"{cx['seconds'] / ours_work:.0f}×"]
            cells += [str(len(diffs)), str(c["located"]), str(c["missed"])]
            cells += [str(c["no episode"]), str(len(ours["out"]["notes"])), str(c["extra"])]
        print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
