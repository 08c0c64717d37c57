"""Comparison forms: one script, variant characters folded, punctuation set aside.

Nothing here changes what is shown. ``fold`` keeps, for every folded
character, the position of the witness character it came from.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from importlib import resources

from .convert import char_to_simplified
from .model import Folded


def _load_variants() -> dict[str, str]:
    table: dict[str, str] = {}
    text = resources.files("edition").joinpath("data/variants.tsv").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            variant, standard = line.split("\t")
            table[variant] = standard
    return table


_VARIANTS = _load_variants()

# Quote marks of every style fold to one key; so do the full- and half-width forms.
_QUOTES = {
    **dict.fromkeys('“”「」"＂『』〝〞', "Q"),
    **dict.fromkeys("‘’'＇", "q"),
}


@lru_cache(maxsize=65536)
def is_mark(ch: str) -> bool:
    """Punctuation, symbols, spaces and controls: what a reading is *not* made of."""
    return unicodedata.category(ch)[0] in "PSZC" or ch.isspace()


@lru_cache(maxsize=65536)
def fold_char(ch: str) -> str:
    """The comparison form of one non-mark character."""
    ch = unicodedata.normalize("NFKC", ch)[:1] or ch
    simple = char_to_simplified(ch)
    return _VARIANTS.get(simple, _VARIANTS.get(ch, simple))


@lru_cache(maxsize=4096)
def punct_key(ch: str) -> str:
    """The comparison form of one mark: quote styles and widths folded."""
    if ch in _QUOTES:
        return _QUOTES[ch]
    return unicodedata.normalize("NFKC", ch)


def fold(text: str, offset: int = 0) -> Folded:
    """Fold ``text``; ``origin`` points into the text ``text`` was sliced from at ``offset``."""
    chars: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        if not is_mark(ch):
            chars.append(fold_char(ch))
            origin.append(offset + i)
    return Folded("".join(chars), tuple(origin))


def fold_text(text: str) -> str:
    """Just the folded string (for matching, where positions are not needed)."""
    return "".join(fold_char(ch) for ch in text if not is_mark(ch))
