"""Corpora for the interchange tests (TEI, JSON Schema, CollateX table), each built once per test process.

Every corpus is ``(export, texts, edition)``: the ``edition-export/2`` dict, the witness texts, and the
Edition (for the engine's compared forms). The seeds come from conftest's session fixture instead.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from edition.engine.export import to_dict
from edition.engine.model import Edition
from tests.support import ROOT, SEEDS, build_folder
from tests.synth import generate

DEV = ROOT / "tests" / "dev" / "witnesses"
_keep: list[tempfile.TemporaryDirectory] = []  # the folders live as long as the process

# Characters that break naive XML and JSON writers, text that looks like markup, and a character XML 1.0 lacks.
MARKUP = ["<", "&", "]]>", '"', "'", "&amp;", "<b>粗</b>", "<!-- 注 -->", "<?pi x?>", "\t", "&#x41;", ">", "\x0c"]
# Sigla no XML name allows as they are.
ODD_SIGLA = ["甲 本", "1", "A:<&>"]


def _folder() -> Path:
    tmp = tempfile.TemporaryDirectory(prefix="interchange-")
    _keep.append(tmp)
    return Path(tmp.name)


def _result(edition: Edition) -> tuple[dict[str, Any], dict[str, str], Edition]:
    return to_dict(edition), {w.siglum: w.text for w in edition.witnesses}, edition


def _sprinkle(text: str, every: int, offset: int) -> str:
    """``text`` with a markup string after every ``every``-th full stop, in turn from ``MARKUP[offset]``."""
    out, k, j = [], 0, offset
    for i, ch in enumerate(text):
        out.append(ch)
        if ch == "。":
            k += 1
            if k % every == 0:
                out.append(MARKUP[j % len(MARKUP)])
                j += 1
        if ch == "\n" and i % 7 == 0:
            out.append("  ")  # stray spaces at a line start
    return "".join(out)


def _seed_texts() -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(SEEDS.glob("*.txt"))]


@cache
def corpus(name: str) -> tuple[dict[str, Any], dict[str, str], Edition]:
    if name == "dev":
        return _result(build_folder(DEV))
    if name == "seeds-editorial":  # with the editor's file: editor's notes, assign and rows directives
        return _result(build_folder(SEEDS, editorial=True))
    folder = _folder()
    if name == "synth":
        generate(folder, 3, 4000, seed=7)
    elif name == "thirty":
        generate(folder, 30, 800, seed=11)
    elif name == "one":
        (folder / "000_only.txt").write_text(_seed_texts()[0], encoding="utf-8")
    elif name == "markup":
        a, _b, c, *_ = _seed_texts()
        a = a[:2500]
        copy = a.replace("巖", "岩").replace("李世民", "李&世民", 1).replace("。", "。<", 3)
        for k, text in enumerate([_sprinkle(a, 3, 0), _sprinkle(copy, 4, 1), _sprinkle(c[:2500], 2, 1)]):
            (folder / f"{k:03d}_markup.txt").write_text(text, encoding="utf-8")
        lines = ["witnesses:"]
        for k, sig in enumerate(ODD_SIGLA):
            lines += [f"  - file: {k:03d}_markup.txt", f"    siglum: '{sig}'", f"    title: '標題 <{k}> & \"{sig}\"'"]
        (folder / "catalogue.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    else:
        raise KeyError(name)
    return _result(build_folder(folder))


def cli_export(fmt: str, out: Path) -> bytes:
    """``python -m edition export --format FMT --out OUT`` on the seeds, in a child process: what it wrote."""
    cmd = [sys.executable, "-m", "edition", "export", "--format", fmt, "--out", str(out)]
    subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True)
    return out.read_bytes()


NAMES = ["dev", "synth", "thirty", "one", "markup", "seeds-editorial"]
