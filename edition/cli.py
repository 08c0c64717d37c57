"""Command line: ``python -m edition export|check``."""

from __future__ import annotations

import argparse
import json
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


def _suggestions(args) -> int:
    """``register --suggest``: names the register lacks, as YAML entries for the editor to review."""
    import json

    from .engine.load import load_witnesses
    from .engine.normalise import Normaliser
    from .engine.register import provisional, suggest

    resources = load_resources(data_folders(args.seeds, Path.cwd()), None, False)
    norm = Normaliser(resources.variants)
    tokens = {w.siglum: norm.tokenise(w) for w in load_witnesses(args.seeds, [])}
    found = suggest(resources.register, norm, tokens, resources.surnames)
    print("# Suggested entries for register.yaml: check each by reading before you add it.")
    for kind in ("person", "place"):
        print(f"{kind}s:")
        entries = provisional(found, (kind,)).entries
        for e, x in zip(entries, (x for x in found if x.kind == kind), strict=True):
            names = json.dumps(list(e.aliases), ensure_ascii=False)
            print(f"  # {x.count} times in {', '.join(x.witnesses)}: …{x.example}…")
            print(f"  - {{id: {e.id}, name: {json.dumps(e.name, ensure_ascii=False)}, aliases: {names}}}")
    return 0


FORMATS = ("json", "tei", "collatex")


def _export(edition, fmt: str) -> bytes:
    """The edition in format ``fmt``, as the bytes to write."""
    export = to_dict(edition)
    if fmt == "json":
        return to_json(export).encode("utf-8")
    texts = {w.siglum: w.text for w in edition.witnesses}
    if fmt == "tei":  # each interchange format imported only when asked for (lxml is a cold start's cost)
        from .interchange.tei import to_tei

        return to_tei(export, texts)
    from .interchange.collatex import collatex_table, compared_from_tokens

    table = collatex_table(export, texts, compared_from_tokens(edition.tokens))
    return (json.dumps(table, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m edition", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    exp = sub.add_parser(
        "export", help="write the whole edition: edition-export/2 JSON, TEI P5 or a CollateX alignment table"
    )
    exp.add_argument("--seeds", type=Path, default=Path("seeds"), help="folder of witness files (default: seeds)")
    exp.add_argument(
        "--episodes",
        type=Path,
        default=None,
        help="episode definitions (default: SEEDS/episodes.yaml, else seeds/episodes.yaml here)",
    )
    exp.add_argument("--out", type=Path, default=None, help="output file (default: standard output)")
    exp.add_argument(
        "--format",
        choices=FORMATS,
        default="json",
        help="json: edition-export/2 (default); tei: TEI P5, parallel segmentation; collatex: CollateX JSON table",
    )
    exp.add_argument(
        "--no-editorial", action="store_true", help="leave the editor's file (editorial.yaml) out: the machine alone"
    )
    chk = sub.add_parser("check", help="validate the inputs and print witnesses x episodes")
    chk.add_argument("--seeds", type=Path, default=Path("seeds"))
    chk.add_argument("--episodes", type=Path, default=None)
    chk.add_argument("--no-editorial", action="store_true", help="leave the editor's file out")
    reg = sub.add_parser("register", help="help with the register (register.yaml)")
    reg.add_argument("--seeds", type=Path, default=Path("seeds"))
    reg.add_argument("--suggest", action="store_true", help="print entries the register lacks, found in the texts")
    args = parser.parse_args(argv)
    if args.command == "register":
        if not args.suggest:
            parser.error("register: say what to do (--suggest)")
        try:
            return _suggestions(args)
        except EditionError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
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
        t1 = time.perf_counter()
        data = _export(edition, args.format)
        took = f"{time.perf_counter() - t0:.2f} s" + (
            f" ({args.format} {time.perf_counter() - t1:.2f} s)" if args.format != "json" else ""
        )
        if args.out:
            args.out.write_bytes(data)
            print(f"wrote {args.out} in {took}", file=sys.stderr)
        else:
            sys.stdout.write(data.decode("utf-8"))
    else:
        print(_table(edition))
    return 0
