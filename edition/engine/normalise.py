"""Tokenise a witness once: the compared form and the offset of every letter.

Comparison unifies script (OpenCC ``t2s``, character by character, so positions
map 1:1) and folds the variant characters of the variant table (Unihan's links,
then the edition's pairs on top); what is shown never changes. Punctuation and
spaces are set aside as marks.
"""

from __future__ import annotations

import unicodedata
from array import array
from functools import lru_cache
from itertools import compress
from operator import not_

from .convert import char_to_simplified
from .model import Tokens, Witness

# What texts are matched by (an episode's evidence, the rows' likeness, a cell's support): the compared form with
# each Arabic digit as the Chinese numeral of that digit, letter for letter (``str.translate``). A modern retelling's
# 步騎4萬 and 9月 then share 四萬 and 九月 with the others' words; 18 is 一八, not 十八, so only one-digit numbers
# meet. The compared form itself keeps its digits: the number and date facts read 18日 and 4萬 from it.
MATCHED = str.maketrans("0123456789", "〇一二三四五六七八九")

# Quote marks of every style fold to one key; so do the full- and half-width forms.
_QUOTES = {
    **dict.fromkeys('“”「」"＂『』〝〞', "Q"),
    **dict.fromkeys("‘’'＇", "q"),
}


@lru_cache(maxsize=65536)
def is_mark(ch: str) -> bool:
    """Punctuation, symbols, spaces and controls: what a reading is *not* made of."""
    return unicodedata.category(ch)[0] in "PSZC" or ch.isspace()


@lru_cache(maxsize=4096)
def punct_key(ch: str) -> str:
    """The comparison form of one mark: quote styles and widths folded."""
    if ch in _QUOTES:
        return _QUOTES[ch]
    return unicodedata.normalize("NFKC", ch)


class Normaliser:
    """Compared forms under one variant table (the edition's, loaded for this build)."""

    def __init__(self, variants: dict[str, str]) -> None:
        self.variants = variants
        self._chars: dict[str, str] = {}

    def fold_char(self, ch: str) -> str:
        """The compared form of one letter.

        A variant's form is folded in turn, so the tables chain (an editor's pair whose form Unihan folds
        further); a loop they make between them (an editor's 甲 -> 乙 over Unihan's 乙 -> 甲) folds to its
        least character, whichever of its characters is met."""
        out = self._chars.get(ch)
        if out is None:
            nfkc = unicodedata.normalize("NFKC", ch)[:1] or ch
            out = char_to_simplified(nfkc)
            seen = [out]
            nxt = self.variants.get(out, self.variants.get(nfkc, out))
            while nxt != out:
                out = char_to_simplified(nxt)  # a variant's standard form, in the compared script
                if out in seen:
                    out = min(seen[seen.index(out) :])
                    break
                seen.append(out)
                nxt = self.variants.get(out, out)
            self._chars[ch] = out
        return out

    def fold_text(self, text: str) -> str:
        """The compared form of a text's letters (for matching, where positions are not needed)."""
        fold = self.fold_char
        return "".join(fold(ch) for ch in text if not is_mark(ch))

    def tokenise(self, witness: Witness) -> Tokens:
        """Each distinct character judged and folded once; the text's letters found and folded by C loops (a
        witness has 100,000 characters and a few thousand distinct ones)."""
        return self.tokenise_text(witness.siglum, witness.text)

    def tokenise_text(self, siglum: str, text: str) -> Tokens:
        """``tokenise`` of a text that is no witness (the editor's punctuated examples: ``segment.definition_keys``)."""
        marks = {ch for ch in set(text) if is_mark(ch)}
        at = array("i", compress(range(len(text)), map(not_, map(marks.__contains__, text))))
        forms = {ord(ch): None if ch in marks else self.fold_char(ch) for ch in set(text)}
        return Tokens(siglum, text, text.translate(forms), at)
