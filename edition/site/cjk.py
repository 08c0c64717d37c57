"""No stray spaces in Chinese: a line break between two Chinese characters in Markdown source is removed.

Browsers show a line break in running text as a space, which Chinese does not have ("班師。 臨行前").
``join_lines`` joins such lines before Markdown reads them; ``CjkExtension`` does it for every page
(``markdown_extensions: [edition.site.cjk]`` in mkdocs.yml). Lines inside fenced code blocks are left
alone, and so are breaks next to anything that is not Chinese (a Latin word, a list marker, a table).
"""

from __future__ import annotations

import re

from markdown import Extension
from markdown.preprocessors import Preprocessor

# Han (with extensions and compatibility forms), CJK punctuation, full-width forms, and the quotes, dashes
# and ellipsis Chinese text uses; inline emphasis or code marks around them do not separate them.
_CJK = "\u2014\u2018\u2019\u201c\u201d\u2026\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
_CJK_CHAR = re.compile(rf"[{_CJK}]")
_STARTS = re.compile(rf"^\s*[*_`\[]*[{_CJK}]")
_FENCE = re.compile(r"^\s*(```|~~~)")


def _ends_cjk(line: str) -> bool:
    """Whether a line ends in a Chinese character (then inline emphasis or code marks). Looked at from its end: a
    search for such an ending tries every character of the line, and a generated page's lines are whole tables."""
    head = line.rstrip("*_`")
    return bool(head) and _CJK_CHAR.match(head[-1]) is not None


def join_lines(text: str) -> str:
    """``text`` with such breaks removed. Each joined line is kept as its parts until the end: a witness's text
    is thousands of lines, joined one by one into a line of a megabyte."""
    out: list[list[str]] = []
    fenced = False
    for line in text.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and out and _ends_cjk(out[-1][-1]) and _STARTS.match(line):
            out[-1].append(line.lstrip())  # its last part holds the joined line's end: a CJK character, then marks
            continue
        out.append([line])
    return "\n".join("".join(parts) for parts in out)


class _Join(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        return join_lines("\n".join(lines)).split("\n")


class CjkExtension(Extension):
    def extendMarkdown(self, md) -> None:
        md.preprocessors.register(_Join(md), "cjk_join", 35)  # before whitespace normalising (30) and raw HTML (20)


def makeExtension(**kwargs) -> CjkExtension:
    return CjkExtension(**kwargs)
