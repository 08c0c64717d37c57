"""Command line: ``python -m edition export|check``."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .engine.export import to_dict, to_json
from .engine.pipeline import build
from .engine.resources import data_folders, load_resources
from .errors import EditionError


def _table(edition) -> str:
    lines = ["witness  script  chars  " + "  ".join(ep.episode.title for ep in edition.episodes) + "  (none)"]
    for w in edition.witnesses:
        cells = []
        for ep in edition.episodes:
            n = sum(len(s.folded) for r in ep.rows for s in r.cells.get(w.siglum, ()))
            cells.append(f"{n:>{len(ep.episode.title) * 2}}")
        none = sum(
            len(s.folded)
            for s, e in zip(edition.segments[w.siglum], edition.assignment[w.siglum], strict=True)
            if e is None
        )
        lines.append(f"{w.siglum:<8} {w.script:<6} {len(w.text):>6}  " + "  ".join(cells) + f"  {none:>6}")
    lines.append("")
    lines.append(
        "(characters of text, punctuation and spaces not counted; families and their bases: "
        + ", ".join(f"{'/'.join(f.members)} base {f.base}" for f in edition.families)
        + ")"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m edition", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    exp = sub.add_parser("export", help="write the whole edition as edition-export/1 JSON")
    exp.add_argument("--seeds", type=Path, default=Path("seeds"), help="folder of witness files (default: seeds)")
    exp.add_argument(
        "--episodes",
        type=Path,
        default=None,
        help="episode definitions (default: SEEDS/episodes.yaml, else seeds/episodes.yaml here)",
    )
    exp.add_argument("--out", type=Path, default=None, help="output file (default: standard output)")
    exp.add_argument(
        "--no-editorial", action="store_true", help="leave the editor's file (editorial.yaml) out: the machine alone"
    )
    chk = sub.add_parser("check", help="validate the inputs and print witnesses x episodes")
    chk.add_argument("--seeds", type=Path, default=Path("seeds"))
    chk.add_argument("--episodes", type=Path, default=None)
    chk.add_argument("--no-editorial", action="store_true", help="leave the editor's file out")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    try:
        resources = load_resources(data_folders(args.seeds, Path.cwd()), args.episodes, not args.no_editorial)
        edition = build(args.seeds, resources)
    except EditionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for w in edition.warnings:
        print(f"warning: {w}", file=sys.stderr)
    if args.command == "export":
        data = to_json(to_dict(edition))
        if args.out:
            args.out.write_text(data, encoding="utf-8")
            print(f"wrote {args.out} in {time.perf_counter() - t0:.2f} s", file=sys.stderr)
        else:
            sys.stdout.write(data)
    else:
        print(_table(edition))
    return 0
