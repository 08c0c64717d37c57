"""The engine's benchmark: wall time per stage and peak memory, per corpus size, as a Markdown table.

    .venv/bin/python -m tests.benchmarks                       # every size, 3 runs each
    .venv/bin/python -m tests.benchmarks --sizes seeds,5x20k --repeats 5
    .venv/bin/python -m tests.benchmarks --sizes 10x100k --profile    # where the time goes (cProfile)

Sizes are ``seeds`` (the real witnesses) or ``NxL`` (N synthetic witnesses of
about L characters, ``k``/``M`` suffixes allowed; see ``tests/synth.py``).
Each run is a fresh subprocess; "start-up" (importing the engine, loading
jieba's dictionary) is timed apart from the stages, and "total" is the stages
plus the export after it. The peak memory is the process's maximum resident
set size. For the small sizes, "rebuild after 1 edit" is the
engine's part of a ``mkdocs serve`` rebuild: build + export again in the same
process after one character of one witness changed. The table gives medians over the runs. When
``mkdocs.yml`` exists, ``mkdocs build`` of the site is timed as well.

Not collected by pytest: it measures, it does not test.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.synth import SEEDS, generate

ROOT = Path(__file__).resolve().parents[1]
STAGES = ["load", "segment", "episodes", "rows", "notes", "export"]
DEFAULT_SIZES = "seeds,5x20k,10x100k,20x100k,5x1M"
_SUFFIX = {"k": 1_000, "M": 1_000_000}


def parse_size(size: str) -> tuple[int, int]:
    """``"20x100k"`` -> (20, 100000)."""
    n, length = size.split("x")
    mult = _SUFFIX.get(length[-1], 1)
    return int(n), int(length.rstrip("kM")) * mult


def corpus(size: str, seed: int, workdir: Path) -> Path:
    """The folder of witnesses for ``size`` (generated once per size and seed, then reused)."""
    if size == "seeds":
        return SEEDS
    n, length = parse_size(size)
    folder = workdir / f"{size}-seed{seed}"
    if not (folder / f"{n - 1:03d}_synth.txt").exists():
        generate(folder, n, length, seed)
    return folder


def measure(folder: Path) -> dict[str, float]:
    """One run of the whole engine on ``folder`` in this process: seconds per stage, total, peak MB.

    ``start-up`` is importing the engine and loading jieba's dictionary (which the notes would otherwise
    load on first use); the stages and ``total`` come after it.
    """
    t0 = time.perf_counter()
    import jieba
    import jieba.posseg  # its tables load on import; the notes would load them on first use

    from edition.engine.export import to_dict, to_json
    from tests.support import build_folder as build

    jieba.initialize()
    t1 = time.perf_counter()
    edition = build(folder)
    t2 = time.perf_counter()
    to_json(to_dict(edition))
    t3 = time.perf_counter()
    out = dict(edition.timings)
    out["start-up"] = t1 - t0
    out["export"] = t3 - t2
    out["total"] = t3 - t1
    out["warm"] = _rebuild(folder) if sum(len(w.text) for w in edition.witnesses) < 200_000 else float("nan")
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["chars"] = sum(len(w.text) for w in edition.witnesses)
    out["rows_n"] = sum(len(ep.rows) for ep in edition.episodes)
    out["notes_n"] = sum(len(ep.notes) for ep in edition.episodes)
    return out


def _rebuild(folder: Path) -> float:
    """Seconds of build + export after an editor changes one word of one witness, in a warm process.

    The folder is copied, built once, one character is inserted in the middle of its last witness,
    and it is built again: what ``mkdocs serve`` pays for the edition after a save.
    """
    from edition.engine.export import to_dict, to_json
    from tests.support import build_folder as build

    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "seeds"
        shutil.copytree(folder, copy)
        to_json(to_dict(build(copy)))
        last = sorted(copy.glob("*.txt"))[-1]
        text = last.read_text(encoding="utf-8-sig")
        mid = text.find("，", len(text) // 2) + 1
        last.write_text(text[:mid] + "又" + text[mid:], encoding="utf-8")
        t0 = time.perf_counter()
        to_json(to_dict(build(copy)))
        return time.perf_counter() - t0


def run_child(folder: Path, timeout: float) -> dict[str, float] | None:
    """``measure`` in a fresh interpreter; None when it times out or fails."""
    return child_json([sys.executable, "-m", "tests.benchmarks", "--child", str(folder)], timeout)


def child_json(cmd: list[str], timeout: float) -> dict | None:
    """Run a measuring child process; its last line of output is its JSON result (None on timeout or failure)."""
    try:
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if done.returncode:
        print(done.stderr, file=sys.stderr)
        return None
    return json.loads(done.stdout.splitlines()[-1])


def mkdocs_build(repeats: int, timeout: float) -> list[float]:
    """Wall seconds of ``mkdocs build`` of the site, one per run (empty without mkdocs.yml)."""
    if not (ROOT / "mkdocs.yml").exists():
        return []
    times = []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as site:
            t0 = time.perf_counter()
            cmd = [str(Path(sys.executable).parent / "mkdocs"), "build", "-q", "-d", site]
            subprocess.run(cmd, cwd=ROOT, capture_output=True, timeout=timeout, check=True)
            times.append(time.perf_counter() - t0)
    return times


def _median(runs: list[dict[str, float]], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def table(results: dict[str, list[dict[str, float]]]) -> str:
    head = ["size", "chars", "runs", "start-up", *STAGES, "total", "rebuild after 1 edit", "peak RSS MB"]
    head += ["rows", "notes"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for size, runs in results.items():
        if not runs:
            lines.append(f"| {size} | | 0 | " + " | ".join(["timeout"] * (len(head) - 3)) + " |")
            continue
        cells = [size, f"{int(runs[0]['chars']):,}", str(len(runs))]
        cells += [f"{_median(runs, s):.3f}" for s in ("start-up", *STAGES)]
        cells += [f"{_median(runs, 'total'):.3f}"]
        warm = _median(runs, "warm")
        cells += ["" if warm != warm else f"{warm:.3f}"]  # NaN: not measured at this size
        cells += [f"{_median(runs, 'peak_mb'):.0f}", f"{int(runs[0]['rows_n'])}", f"{int(runs[0]['notes_n'])}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def profile(folder: Path, top: int) -> None:
    """cProfile of one build + export, the functions with the most cumulative and own time."""
    prof = cProfile.Profile()
    prof.runcall(measure, folder)
    stats = pstats.Stats(prof, stream=sys.stdout).strip_dirs()
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default=DEFAULT_SIZES, help=f"comma-separated (default {DEFAULT_SIZES})")
    parser.add_argument("--repeats", type=int, default=3, help="runs per size (the table gives medians)")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds before a run is abandoned")
    parser.add_argument("--seed", type=int, default=0, help="seed of the synthetic corpora")
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "edition-bench")
    parser.add_argument("--profile", action="store_true", help="profile one run per size instead of timing")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child)))
        return
    results: dict[str, list[dict[str, float]]] = {}
    for size in args.sizes.split(","):
        folder = corpus(size, args.seed, args.workdir)
        if args.profile:
            profile(folder, 30)
            continue
        runs = []
        for _ in range(args.repeats):
            run = run_child(folder, args.timeout)
            if run is None:  # a size that times out once will again: stop repeating it
                break
            runs.append(run)
        results[size] = runs
        print(f"{size}: {[round(r['total'], 2) for r in runs]}", file=sys.stderr, flush=True)
    if args.profile:
        return
    print(f"`python -m tests.benchmarks --sizes {args.sizes} --repeats {args.repeats}`, medians, seconds\n")
    print(table(results))
    times = mkdocs_build(args.repeats, args.timeout)
    if times:
        print(f"\n`mkdocs build` of the site: median {statistics.median(times):.2f} s over {len(times)} runs")


if __name__ == "__main__":
    main()
