"""Derive the engine's base variant table (edition/engine/data/unihan_variants.tsv) from Unihan.

    python scripts/unihan_variants.py UNIHAN_VARIANTS... --tgh Unihan_OtherMappings.txt [--out FILE] [--version V]

UNIHAN_VARIANTS is Unihan_Variants.txt from a release's Unihan.zip, or the per-field files of the
Unicode Consortium's unihan-database repository (kSemanticVariant.txt, kZVariant.txt, ...), whose lines
carry the ideograph after the code point; both forms are read. --tgh names the file with the kTGH field
(Unihan_OtherMappings.txt): the 8105 characters of the 通用规范汉字表 (2013) are the standard forms.

The comparison works in Simplified script (OpenCC t2s, character by character, as the engine does), so
every character is first taken to its t2s form. A link of Unihan joins two such forms:

- kSemanticVariant and kZVariant: both ways (one word, or one character, written differently);
- kSimplifiedVariant (and kTraditionalVariant read backwards): from a traditional form OpenCC does not
  convert to its one simplified form; a form with several (乾: 乾, 干) is left alone;
- kSpecializedSemanticVariant: not used. Its characters are variants in some senses only
  (著/着, 勅/敕, 裏/裡), so folding them could make two words one.

A form that is not standard goes to the nearest standard form its links reach through non-standard forms
(尅 -> 剋 -> 克; 勅 -> 敕, not to 徕 through 勑); a form with several at the nearest remove (勑: 敕, 徕,
俫, each one link away) is left out and listed on standard error,
and so is every link between two standard forms (于/亏, 关/寡): two standard characters are two words
here unless the edition's own variants.tsv says otherwise. Forms that reach no standard form go to the
first of their group (by code point, the main CJK block first). Each row names its source: the Unihan
field of the link, and the character Unihan names where that is not the form compared.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict, deque
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from edition.engine.convert import char_to_simplified

BOTH_WAYS = ("kSemanticVariant", "kZVariant")
SIMPLIFIED = ("kSimplifiedVariant", "kTraditionalVariant")
LINE = re.compile(r"^U\+([0-9A-F]{4,6})(?: \S+)?\t(k\w+)\t(.+)$")


def read_links(paths: list[Path]) -> tuple[dict[str, list[tuple[str, str]]], str]:
    """character -> [(field, character)], and the Unicode version the files name (if any)."""
    links: dict[str, list[tuple[str, str]]] = defaultdict(list)
    version = ""
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("# Unicode version:"):
                version = line.split(":", 1)[1].strip()
            m = LINE.match(line)
            if not m or m[2] not in (*BOTH_WAYS, *SIMPLIFIED):
                continue
            a = chr(int(m[1], 16))
            for value in m[3].split():
                links[a].append((m[2], chr(int(value.split("<")[0][2:], 16))))
    return links, version


def read_tgh(path: Path) -> set[str]:
    out = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        m = LINE.match(line)
        if m and m[2] == "kTGH":
            out.add(chr(int(m[1], 16)))
    return out


def order(ch: str) -> tuple[int, int]:
    """Which of a group of non-standard forms stands for it: the main CJK block first, then code point."""
    return (0 if 0x4E00 <= ord(ch) <= 0x9FFF else 1, ord(ch))


def derive(links: dict[str, list[tuple[str, str]]], standard: set[str]):
    """(rows, excluded): rows are (variant, compared form, source); excluded (kind, variant, forms)."""
    t2s = char_to_simplified
    # edges between compared (t2s) forms, each with the Unihan field and the character Unihan names
    edges: dict[str, dict[str, tuple[str, str]]] = defaultdict(dict)
    excluded: list[tuple[str, str, str]] = []
    simplified: dict[str, set[str]] = defaultdict(set)
    for a, items in links.items():
        for field, b in items:
            if field == "kSimplifiedVariant":
                simplified[a].add(b)
            elif field == "kTraditionalVariant":
                simplified[b].add(a)
    for a, items in sorted(links.items()):
        for field, b in items:
            if field not in BOTH_WAYS:
                continue
            x, y = t2s(a), t2s(b)
            if x == y:
                continue
            if x in standard and y in standard:
                if (field, y, x) not in excluded:
                    excluded.append((field, x, y))
                continue
            edges[x].setdefault(y, (field, b))
            edges[y].setdefault(x, (field, a))
    for a, forms in sorted(simplified.items()):
        if t2s(a) != a:
            continue  # OpenCC converts it: the comparison already does
        others = forms - {a}
        if len(others) != 1 or a in forms:
            continue  # a simplified form of its own too, or several: which is meant is a matter of sense
        (b,) = others
        y = t2s(b)
        if y != a and a not in standard:
            own = {v for f, v in links[a] if f == "kSimplifiedVariant"}
            field = "kSimplifiedVariant" if b in own else "kTraditionalVariant"
            edges[a].setdefault(y, (field, b))  # one way only: a simplified form is not its traditionals

    rows = []
    for v in sorted(edges, key=order):
        if v in standard:
            continue
        # every form v reaches through non-standard forms, with the first link that reached it
        came: dict[str, tuple[str, tuple[str, str]]] = {v: ("", ("", ""))}
        queue = deque([v])
        reached: list[str] = []
        while queue and not reached:  # level by level: the nearest standard forms only
            level, queue = queue, deque()
            for u in level:
                for w, how in sorted(edges[u].items()):
                    if w in came:
                        continue
                    came[w] = (u, how)
                    if w in standard:
                        reached.append(w)
                    else:
                        queue.append(w)
        if len(reached) > 1:
            excluded.append(("several", v, "".join(reached)))
            continue
        target = reached[0] if reached else min(came, key=order)
        if target == v:
            continue
        path = []
        w = target
        while w != v:
            u, (field, named) = came[w]
            path.append(field if named == w else f"{field} {named}")
            w = u
        rows.append((v, target, ", ".join(reversed(path))))
    return rows, excluded


def opencc_version() -> str:
    from importlib.metadata import version

    return version("opencc-python-reimplemented")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="+", type=Path, help="Unihan_Variants.txt, or the k*Variant.txt files")
    parser.add_argument("--tgh", type=Path, required=True, help="the file with kTGH (Unihan_OtherMappings.txt)")
    parser.add_argument("--version", default="", help="the Unicode version, if the files do not name it")
    parser.add_argument("--source", default="", help="where the files came from, for the header")
    parser.add_argument("--out", type=Path, default=Path("edition/engine/data/unihan_variants.tsv"))
    args = parser.parse_args()
    links, version = read_links(args.variants)
    version = args.version or version
    if not version:
        parser.error("name the Unicode version (--version)")
    rows, excluded = derive(links, read_tgh(args.tgh))
    counts: dict[str, int] = defaultdict(int)
    for _, _, source in rows:
        counts[source.split(" ")[0].rstrip(",")] += 1
    header = [
        f"# Variant characters from Unihan {version} (Unicode Character Database), derived by",
        "# scripts/unihan_variants.py: variant<TAB>form compared<TAB>source (the Unihan field of each link,",
        "# and the character Unihan names where it is not the form compared). Keys and forms are in the",
        "# compared script (OpenCC t2s, character by character). Comparison only; what is shown never changes.",
        "# The edition's variants.tsv is read after this table and wins.",
        *([f"# Source: {args.source}"] if args.source else []),
        f"# Made with: python scripts/unihan_variants.py {' '.join(p.name for p in args.variants)}"
        f" --tgh {args.tgh.name} (OpenCC t2s of opencc-python-reimplemented {opencc_version()})",
        "# Data © Unicode, Inc., under the Unicode License v3: see unihan_variants.LICENSE beside this file.",
        "# Rows by the first link's field: " + ", ".join(f"{k} {n}" for k, n in sorted(counts.items())),
    ]
    args.out.write_text("\n".join([*header, *("\t".join(r) for r in rows)]) + "\n", encoding="utf-8")
    for kind, a, b in excluded:
        print(f"excluded\t{kind}\t{a}\t{b}", file=sys.stderr)
    print(f"{len(rows)} rows to {args.out}; {len(excluded)} links excluded", file=sys.stderr)


if __name__ == "__main__":
    main()
