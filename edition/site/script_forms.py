"""Traditional and Simplified display forms of witness text, each distinct run of text converted once.

OpenCC (``opencc-python-reimplemented``) splits its input at whitespace and punctuation and converts the
runs between them one by one: no dictionary entry spans a separator, and separators are copied as they
are. Splitting at a subset of those separators here, converting each distinct run once and joining the
results therefore gives exactly what converting the whole string gives, for any string: a marked piece,
a table cell, a whole witness. Runs repeat across pieces, cells, pages and builds, so the conversions
(87 % of the render before) are kept in the site cache, keyed by the run itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..engine.cache import Cache, digest
from ..engine.convert import to_simplified, to_traditional

# Separators OpenCC splits at (``opencc.OpenCC().split_chars_re``); this must stay a subset of its list.
_BREAK = re.compile(r"(\s+|[，。、；：？！…“”‘’「」『』（）《》—])")
_KEY_TEXT_MAX = 64  # a run up to this long is its own key; a longer one is keyed by its digest


class ScriptForms:
    """Display forms through one cache; a memo in front of it makes a repeated run a dictionary look-up."""

    def __init__(self, cache: Cache) -> None:
        self._cache = cache
        self._memo: dict[str, tuple[str, str]] = {}

    def _run(self, run: str) -> tuple[str, str]:
        forms = self._memo.get(run)
        if forms is None:
            key = ("site-script-forms", run if len(run) <= _KEY_TEXT_MAX else digest(run))
            forms = self._cache.get(key, lambda: (to_traditional(run), to_simplified(run)))
            self._memo[run] = forms
        return forms

    def forms(self, text: str) -> tuple[str, str]:
        """``(to_traditional(text), to_simplified(text))``, from the runs' conversions."""
        trad: list[str] = []
        simp: list[str] = []
        for i, part in enumerate(_BREAK.split(text)):
            if i % 2:  # a separator: OpenCC copies it
                trad.append(part)
                simp.append(part)
            elif part:
                t, s = self._run(part)
                trad.append(t)
                simp.append(s)
        return "".join(trad), "".join(simp)

    def keep(self, texts: Iterable[str]) -> None:
        """Look up every run of ``texts``, so their conversions stay cached for later builds.

        A page taken from the cache converts nothing; without this the runs only it uses would be
        dropped at the end of the build, and the next edit that re-renders it would convert them again.
        """
        for text in texts:
            for part in _BREAK.split(text)[::2]:
                if part:
                    self._run(part)
