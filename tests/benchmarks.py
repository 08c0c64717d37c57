"""The edition's benchmark: one table of what a person waits for, then wall time per stage per corpus size.

    .venv/bin/python -m tests.benchmarks                       # every size, 3 runs each
    .venv/bin/python -m tests.benchmarks --sizes seeds,10x50k --repeats 3
    .venv/bin/python -m tests.benchmarks --sizes seeds --serve-sizes 10x50k   # also the whole serve rebuild at 10x50k
    .venv/bin/python -m tests.benchmarks --sizes 10x100k --profile    # where the time goes (cProfile)

The first table (medians over the runs, each run a fresh process; wall seconds, and CPU seconds, which other
processes on a shared machine do not inflate, the engine's worker processes' included (``edition.engine.spread``:
an edition's rows and collation run side by side on a machine with two CPUs); peak memory is the process's
maximum resident set size (for "engine + export", read before the cold render of every page that follows it in
the same process; the second table gives both), and in the second table its largest worker's apart):

- ``python -m edition export`` of the seeds, cold: a new interpreter, imports included, the JSON written;
- ``mkdocs build`` of the site from the seeds (wall), and its part in the edition hook;
- a ``mkdocs serve`` rebuild after one character of one witness changed (of the seeds, and of each size
  ``--serve-sizes`` names): in one process running a thread besides, as the server does (so the engine's work
  stays in the process, as under ``mkdocs serve``), the site built once,
  then one character in the middle of the last witness (the first after a "，") replaced, the config loaded
  again and the site built again, as the server does on a save (the hooks' caches and the segmenter kept),
  and the same build's time as MkDocs reports it ("built in … seconds", without loading the config); for each
  of the ``--serve-sizes``, once with the last witness changed (in a synthetic corpus, the base its copies are
  compared with) and once with the first (a copy);
- for each corpus size, the engine and the export (``total`` below) and the growth per doubling of the
  corpus from the size before it (2 ** the slope of log time over log characters: 2.0 is linear), and up to
  1M characters the edition hook's part of a rebuild after one character and its render ("rebuild" below).

Sizes are ``seeds`` (the real witnesses), ``NxL`` (N synthetic witnesses of
about L characters, ``k``/``M`` suffixes allowed; see ``tests/synth.py``), or
the path of a folder of witnesses (a corpus another generator made: one
whose copies reorder their paragraphs collates and scales otherwise).
In the second table, "start-up" (importing the engine and the site
renderer) is timed apart from the stages, and
"total" is the engine's stages plus the export after it. "render" is a cold
render of every page (``render_site`` with no cache). "rebuild" is the edition's part of a
``mkdocs serve`` rebuild after one character of one witness changed, done
as the hook does it with a warm ``SiteCache``: ``load_resources``, ``build``,
``to_dict`` (and the ``edition.json`` text), ``render_site``, ``end_build``
(measured up to 1M characters); "rebuild render" is its ``render_site`` part.

Not collected by pytest: it measures, it does not test.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import logging
import math
import os
import pstats
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from tests.synth import SEEDS, generate

ROOT = Path(__file__).resolve().parents[1]
REBUILD_MAX_CHARS = 1_000_000  # larger corpora: no "rebuild" (it needs two more builds)
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
    if Path(size).is_dir():
        return Path(size)
    n, length = parse_size(size)
    folder = workdir / f"{size}-seed{seed}"
    if not (folder / f"{n - 1:03d}_synth.txt").exists():
        generate(folder, n, length, seed)
    return folder


def measure(folder: Path) -> dict[str, float]:
    """One run of the whole engine and a cold render on ``folder`` in this process: seconds per stage,
    total, render, rebuild, peak MB.

    ``start-up`` is importing the engine and the renderer; the stages and ``total`` come after it.
    """
    t0 = time.perf_counter()
    from edition.engine.export import to_dict, to_json
    from edition.site.render import render_site
    from tests.support import build_folder as build

    t1 = time.perf_counter()
    c1 = time.process_time() + _children_cpu()
    edition = build(folder)
    t2 = time.perf_counter()
    export = to_dict(edition)
    to_json(export)
    t3 = time.perf_counter()
    c3 = time.process_time() + _children_cpu()
    engine_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # before the render's pages
    render_site(export, {w.siglum: w.text for w in edition.witnesses})
    t4 = time.perf_counter()
    out = {f"stage:{name}": seconds for name, seconds in edition.timings.items()}
    out["start-up"] = t1 - t0
    out["stage:export"] = t3 - t2
    out["total"] = t3 - t1
    out["total cpu"] = c3 - c1
    out["render"] = t4 - t3
    chars = sum(len(w.text) for w in edition.witnesses)
    if chars <= REBUILD_MAX_CHARS:
        rebuilt = _rebuild(folder)
        out["rebuild"], out["rebuild render"], out["rebuild cpu"], out["rebuild render cpu"] = rebuilt
    out["engine_peak_mb"] = engine_peak
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["workers_peak_mb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    out["chars"] = chars
    out["rows_n"] = sum(len(ep.rows) for ep in edition.episodes)
    out["notes_n"] = len(edition.notes)
    return out


def _rebuild(folder: Path) -> tuple[float, float, float, float]:
    """Seconds of a ``mkdocs serve`` rebuild's edition part after an editor changes one character of one
    witness (the hook's calls, with the ``SiteCache`` of a first build of the same folder), and of its render:
    wall, then CPU (on a shared machine the wall time also counts the other processes' turns).

    The folder is copied and built once; then one character in the middle of its last witness (the
    first after a "，") is replaced, and it is built again.
    """
    from edition.engine.export import to_dict, to_json
    from edition.engine.pipeline import build
    from edition.engine.resources import data_folders, load_resources
    from edition.site.cache import SiteCache
    from edition.site.render import render_site
    from tests.support import ROOT as PROJECT

    cache = SiteCache()

    def hook_build(seeds: Path) -> tuple[float, float]:  # hooks/edition_hook.py: _pages, then on_files' end_build
        try:
            resources = load_resources(data_folders(seeds, PROJECT))
            edition = build(seeds, resources, cache)
            export = to_dict(edition)
            t0, c0 = time.perf_counter(), time.process_time()
            render_site(export, {w.siglum: w.text for w in edition.witnesses}, cache, resources.variants)
            rendered = (time.perf_counter() - t0, time.process_time() - c0)
            to_json(export)
            return rendered
        finally:
            cache.end_build()

    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "seeds"
        shutil.copytree(folder, copy)
        hook_build(copy)
        last = sorted(copy.glob("*.txt"))[-1]
        text = last.read_text(encoding="utf-8-sig")
        mid = text.find("，", len(text) // 2) + 1
        new = "又" if text[mid] != "又" else "亦"
        last.write_text(text[:mid] + new + text[mid + 1 :], encoding="utf-8")
        t0, c0 = time.perf_counter(), time.process_time()
        rendered, rendered_cpu = hook_build(copy)
        return time.perf_counter() - t0, rendered, time.process_time() - c0, rendered_cpu


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


def mkdocs_build(repeats: int, timeout: float) -> list[dict[str, float]]:
    """Per run of ``mkdocs build`` of the site in a fresh process: wall seconds and seconds in the edition
    hook (its ``on_files``, where it builds and renders). Empty without mkdocs.yml."""
    if not (ROOT / "mkdocs.yml").exists():
        return []
    runs = []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as site:
            run = child_json([sys.executable, "-m", "tests.benchmarks", "--mkdocs-child", site], timeout)
            if run is not None:
                runs.append(run)
    return runs


def mkdocs_child(site: str) -> dict[str, float]:
    """``mkdocs build`` as its command line runs it, with the hook's ``on_files`` timed."""
    t0 = time.perf_counter()
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    config = load_config(str(ROOT / "mkdocs.yml"), site_dir=site)
    hook = [0.0]

    def timed(method):
        def run(*args, **kwargs):
            start = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                hook[0] += time.perf_counter() - start

        return run

    events = config.plugins.events["files"]
    # MkDocs imports a hook file as a module named after its path (hooks/edition_hook.py)
    wrapped = [timed(m) if "edition_hook" in getattr(m, "__module__", "") else m for m in events]
    if all(w is m for w, m in zip(wrapped, events, strict=True)):
        raise SystemExit("mkdocs.yml names no edition hook with on_files")
    events[:] = wrapped
    config.plugins.on_startup(command="build", dirty=False)
    build(config)
    config.plugins.on_shutdown()
    return {"wall": time.perf_counter() - t0, "cpu": time.process_time(), "hook": hook[0], "peak_mb": _peak_mb()}


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def export_cold(repeats: int, timeout: float) -> list[dict[str, float]]:
    """Wall seconds of ``python -m edition export`` of the seeds in a new interpreter, and its peak memory."""
    runs = []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as tmp:
            cmd = [sys.executable, "-m", "edition", "export", "--seeds", str(SEEDS), "--out", f"{tmp}/e.json"]
            before = _children_cpu()
            t0 = time.perf_counter()
            try:
                done = subprocess.run(cmd, cwd=ROOT, capture_output=True, timeout=timeout)
            except subprocess.TimeoutExpired:
                continue
            wall = time.perf_counter() - t0
            if done.returncode == 0:
                child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # the largest child so far
                runs.append({"wall": wall, "cpu": _children_cpu() - before, "peak_mb": child})
    return runs


def _children_cpu() -> float:
    """CPU seconds (user and system) of this process's finished children so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def serve_rebuilds(repeats: int, timeout: float, folder: Path = SEEDS, which: int = -1) -> list[dict[str, float]]:
    """Per run (a fresh process): seconds of a `mkdocs serve`-style rebuild of the site from ``folder`` after one
    character of its ``which``-th witness (by file name) changed."""
    if not (ROOT / "mkdocs.yml").exists():
        return []
    runs = []
    for _ in range(repeats):
        cmd = [sys.executable, "-m", "tests.benchmarks", "--serve-child", str(folder), "--serve-witness", str(which)]
        run = child_json(cmd, timeout)
        if run is not None:
            runs.append(run)
    return runs


class _Reported(logging.Handler):
    """The seconds MkDocs reports for a build ("Documentation built in 0.42 seconds")."""

    def __init__(self) -> None:
        super().__init__()
        self.seconds = float("nan")

    def emit(self, record: logging.LogRecord) -> None:
        found = re.match(r"Documentation built in ([0-9.]+) seconds", record.getMessage())
        if found:
            self.seconds = float(found[1])


def serve_child(folder: Path, which: int = -1) -> dict[str, float]:
    """The witnesses of ``folder`` copied, the site built, one character of the ``which``-th witness changed, the site
    built again in the same process with the config loaded again (as `mkdocs serve` does on a save): the second
    build timed, wall (with the config's loading), CPU, and as MkDocs reports it (its "built in … seconds")."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    # `mkdocs serve` builds while its server's threads run, and the engine then keeps its work in the process
    # (edition.engine.spread: a copy of a process running other threads could inherit a held lock): so here too
    server = threading.Event()
    threading.Thread(target=server.wait, daemon=True).start()
    reported = _Reported()
    logger = logging.getLogger("mkdocs.commands.build")
    logger.addHandler(reported)
    logger.setLevel(logging.INFO)
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "seeds"
        shutil.copytree(folder, copy)
        os.environ["EDITION_SEEDS"] = str(copy)

        def rebuild() -> tuple[float, float]:
            t0, c0 = time.perf_counter(), time.process_time()
            config = load_config(str(ROOT / "mkdocs.yml"), site_dir=f"{tmp}/site")
            config.plugins.on_startup(command="serve", dirty=False)
            build(config, serve_url="http://127.0.0.1:8000/")
            return time.perf_counter() - t0, time.process_time() - c0

        first, _ = rebuild()
        last = sorted(copy.glob("*.txt"))[which]
        text = last.read_text(encoding="utf-8-sig")
        mid = text.find("，", len(text) // 2) + 1
        last.write_text(text[:mid] + ("又" if text[mid] != "又" else "亦") + text[mid + 1 :], encoding="utf-8")
        wall, cpu = rebuild()
        return {"first": first, "wall": wall, "cpu": cpu, "reported": reported.seconds, "peak_mb": _peak_mb()}


def growth(results: dict[str, list[dict[str, float]]]) -> dict[str, float]:
    """Per size, the growth of ``total`` per doubling of the characters from the size before it."""
    out, prev = {}, None
    for size, runs in results.items():
        if not runs:
            continue
        chars, total = runs[0]["chars"], statistics.median(r["total"] for r in runs)
        if prev and chars > prev[0] * 1.2 and prev[1] > 0:
            out[size] = 2 ** (math.log(total / prev[1]) / math.log(chars / prev[0]))
        prev = (chars, total)
    return out


def machine_speed() -> float:
    """Seconds for a pure-Python loop of ten million additions: the same machine runs at other speeds on other
    days (a shared host), and the figures of two runs compare only beside this."""
    times = []
    for _ in range(5):
        t0, total = time.perf_counter(), 0
        for i in range(10_000_000):
            total += i
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def summary(exports, builds, rebuilds, results, serves) -> str:
    """The one table: what a person waits for, and how the engine scales."""
    head = "| what | median s | median CPU s | runs | growth per doubling | peak RSS MB |"
    lines = [head, "|---|---|---|---|---|---|"]

    def row(what: str, runs: list[dict[str, float]], key="wall", cpu="cpu", grows="", peak="peak_mb") -> None:
        if not runs:
            lines.append(f"| {what} | not measured | | 0 | | |")
            return
        seconds = _median(runs, key)
        used = f"{_median(runs, cpu):.2f}" if cpu in runs[0] else ""
        lines.append(f"| {what} | {seconds:.2f} | {used} | {len(runs)} | {grows} | {_median(runs, peak):.0f} |")

    row("`python -m edition export` (seeds, cold)", exports)
    row("`mkdocs build` (seeds)", builds)
    if builds:
        lines.append(f"| … of which the edition hook | {_median(builds, 'hook'):.2f} | | {len(builds)} | | |")
    row("`mkdocs serve` rebuild after one character of one witness (seeds; with loading the config)", rebuilds)
    if rebuilds:
        lines.append(
            f"| … as MkDocs reports it (built in) | {_median(rebuilds, 'reported'):.2f} | | {len(rebuilds)} | | |"
        )
    for size, runs in serves.items():  # the whole build: engine, pages, Markdown, search index, files written
        row(f"`mkdocs serve` rebuild after one character ({size}; with loading the config)", runs)
    grown = growth(results)
    for size, runs in results.items():
        chars = f"{int(runs[0]['chars']):,} characters" if runs else ""
        factor = f"×{grown[size]:.2f}" if size in grown else ""
        row(f"engine + export, {size} ({chars})", runs, "total", "total cpu", factor, "engine_peak_mb")
        if runs and "rebuild" in runs[0]:
            row(f"… its rebuild after one character (the hook's part), {size}", runs, "rebuild", "rebuild cpu")
            row(f"… of which the render, {size}", runs, "rebuild render", "rebuild render cpu")
    return "\n".join(lines)


def _median(runs: list[dict[str, float]], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def table(results: dict[str, list[dict[str, float]]]) -> str:
    stages = list(dict.fromkeys(k for runs in results.values() for r in runs for k in r if k.startswith("stage:")))
    stages.sort(key=lambda k: k == "stage:export")  # the engine's stages in their order, then the export
    head = ["size", "chars", "runs", "start-up", *(k.removeprefix("stage:") for k in stages), "total"]
    head += ["render", "rebuild", "rebuild render", "engine's peak MB", "peak RSS MB", "workers' peak MB"]
    head += ["rows", "notes"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for size, runs in results.items():
        if not runs:
            lines.append(f"| {size} | | 0 | " + " | ".join(["timeout"] * (len(head) - 3)) + " |")
            continue
        cells = [size, f"{int(runs[0]['chars']):,}", str(len(runs))]
        for key in ("start-up", *stages, "total", "render", "rebuild", "rebuild render"):
            value = statistics.median(r.get(key, float("nan")) for r in runs)
            cells.append("" if value != value else f"{value:.3f}")  # NaN: not measured at this size
        cells += [f"{_median(runs, key):.0f}" for key in ("engine_peak_mb", "peak_mb", "workers_peak_mb")]
        cells += [f"{int(runs[0]['rows_n'])}", f"{int(runs[0]['notes_n'])}"]
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
    parser.add_argument("--mkdocs-child", help=argparse.SUPPRESS)
    parser.add_argument(
        "--serve-sizes",
        default="",
        help="comma-separated sizes (as --sizes) whose whole `mkdocs serve` rebuild is timed too (default none)",
    )
    parser.add_argument("--serve-child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--serve-witness", type=int, default=-1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    os.environ["NO_MKDOCS_2_WARNING"] = "1"  # for the children: Material's banner is not output to measure
    if args.child:
        print(json.dumps(measure(args.child)))
        return
    if args.mkdocs_child:
        print(json.dumps(mkdocs_child(args.mkdocs_child)))
        return
    if args.serve_child:
        print(json.dumps(serve_child(args.serve_child, args.serve_witness)))
        return
    # first: its peak memory is read from RUSAGE_CHILDREN, the largest of this process's children so far
    exports = [] if args.profile else export_cold(args.repeats, args.timeout)
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
    builds = mkdocs_build(args.repeats, args.timeout)
    rebuilds = serve_rebuilds(args.repeats, args.timeout)
    serves = {  # a character of the last witness (in a synthetic corpus, its family's base: every copy compared again)
        # and of the first (a copy: its own notes change, the other witnesses' pages stay as they were)
        f"{size}, {name} witness": serve_rebuilds(args.repeats, args.timeout, corpus(size, args.seed, args.workdir), k)
        for size in filter(None, args.serve_sizes.split(","))
        for name, k in (("last", -1), ("first", 0))
    }
    serve_sizes = f" --serve-sizes {args.serve_sizes}" if serves else ""
    print(
        f"`python -m tests.benchmarks --sizes {args.sizes}{serve_sizes} --repeats {args.repeats}`, medians, seconds;"
        f" this machine ran a pure-Python loop of ten million additions in {machine_speed():.2f} s (median of 5)\n"
    )
    print(summary(exports, builds, rebuilds, results, serves))
    print("\nPer stage:\n")
    print(table(results))


if __name__ == "__main__":
    main()
