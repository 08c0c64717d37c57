"""Script conversion behind one small interface, so OpenCC can be swapped out.

Comparison converts character by character (length-preserving, so positions
map back 1:1); display converts whole strings with OpenCC's phrase tables.
"""

from __future__ import annotations

from collections import Counter
from functools import cache, lru_cache
from pathlib import Path

import opencc

_CONVERTERS: dict[str, opencc.OpenCC] = {}


def _converter(config: str) -> opencc.OpenCC:
    if config not in _CONVERTERS:
        _CONVERTERS[config] = opencc.OpenCC(config)
    return _CONVERTERS[config]


@cache
def _characters(table: str) -> dict[str, str]:
    """OpenCC's character table (``TSCharacters``, ``STCharacters``): each character's first form, as OpenCC
    converts a character standing alone (its phrase tables, the larger part of loading a converter, hold no
    single characters)."""
    path = Path(opencc.__file__).parent / "dictionary" / f"{table}.txt"
    rows = (line.strip().split("\t") for line in path.read_text(encoding="utf-8").splitlines())
    return {key: value.split(" ")[0] for key, value in rows}


@lru_cache(maxsize=65536)
def char_to_simplified(ch: str) -> str:
    """One character in Simplified script; a character OpenCC maps to several stays as is."""
    out = _characters("TSCharacters").get(ch, ch)
    return out if len(out) == 1 else ch


@lru_cache(maxsize=65536)
def char_to_traditional(ch: str) -> str:
    out = _characters("STCharacters").get(ch, ch)
    return out if len(out) == 1 else ch


def to_simplified(text: str) -> str:
    """Display form in Simplified script (phrase-aware)."""
    return _converter("t2s").convert(text)


def to_traditional(text: str) -> str:
    """Display form in Traditional script (phrase-aware, Taiwan standard forms)."""
    return _converter("s2tw").convert(text)


def detect_script(text: str) -> str:
    """``Hant``, ``Hans`` or ``mixed``, from the characters only one script uses.

    A few characters of the other script (a quoted title, an old form kept by a
    typesetter) do not make a text mixed; a fifth or more does. Text with no
    script-specific characters at all is called ``mixed``: nothing decides it.
    """
    trad = simp = 0
    for ch, n in Counter(text).items():
        if char_to_simplified(ch) != ch:
            trad += n
        elif char_to_traditional(ch) != ch:
            simp += n
    total = trad + simp
    if total == 0:
        return "mixed"
    if trad >= 0.8 * total:
        return "Hant"
    if simp >= 0.8 * total:
        return "Hans"
    return "mixed"
