"""MkDocs hook: the anchor ids of a page's raw HTML, found only when a link asks for them.

MkDocs parses every page's whole Markdown for them before converting it (``_RawHTMLPreprocessor``: a third of
the conversion of a generated page, whose 3 MB at 10 x 50k are nearly all raw HTML) but reads them only to check
a Markdown link to an anchor on the page (``validate_anchor_links``), which the site's pages seldom have. Here
the preprocessor keeps the text, and the same parse runs when the ids are first asked for.
"""

from __future__ import annotations

from collections.abc import Iterator
from collections.abc import Set as AbstractSet

from mkdocs.structure import pages as mkdocs_pages


class Anchors(AbstractSet[str]):
    """The anchor ids in a page's raw HTML, found when first asked for (see the module's doc). ``known``: the ids
    found in the page's Markdown, which MkDocs adds to them (``|``)."""

    def __init__(self, source: str, known: frozenset[str] = frozenset()) -> None:
        self._source = source
        self._known = known
        self._ids: frozenset[str] | None = None

    def _all(self) -> frozenset[str]:
        if self._ids is None:
            parser = mkdocs_pages._HTMLHandler()
            parser.feed(self._source)
            parser.close()
            self._ids, self._source = self._known | parser.present_anchor_ids, ""
        return self._ids

    def __contains__(self, anchor: object) -> bool:
        return anchor in self._known or anchor in self._all()

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __ror__(self, other: AbstractSet[str]) -> Anchors:  # ``Page.render``: the Markdown's ids | these
        if self._ids is not None:
            return Anchors("", frozenset(other) | self._ids)
        return Anchors(self._source, frozenset(other) | self._known)

    __or__ = __ror__


def _raw_html_ids(self, lines: list[str]) -> list[str]:
    """MkDocs' ``_RawHTMLPreprocessor.run``, its parse left until the ids are asked for (``Anchors``)."""
    self.present_anchor_ids = Anchors("\n".join(lines))
    return lines


mkdocs_pages._RawHTMLPreprocessor.run = _raw_html_ids
